"""Query and identifier words for scored search: one splitting rule for names, docs and lines."""

from __future__ import annotations

import re

# An identifier's words: camelCase humps, acronyms (HTTPServer -> http, server) and digits.
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(text: str) -> list[str]:
    """Lowercase words of `text`, identifiers split at `_`, `::`, `.`, `/`, `-` and camel humps."""
    return [w.lower() for w in _WORD.findall(text)]


# Every ASCII letter and digit is in some word, so on ASCII text the words end to end are the text's
# letters and digits: one substitution instead of a word split (compact runs over whole hits).
_NOT_ASCII_ALNUM = re.compile(r"[^A-Za-z0-9]+")


def compact(text: str) -> str:
    """`text` lowercased with every non-alphanumeric character removed (`validate_token` -> `validatetoken`)."""
    if text.isascii():
        return _NOT_ASCII_ALNUM.sub("", text).lower()
    return "".join(words(text))


def contains_phrase(haystack: list[str], needle: list[str]) -> bool:
    """True when the word list `needle` occurs contiguously in `haystack`."""
    if not needle or len(needle) > len(haystack):
        return False
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


def spells_run(haystack: list[str], packed: str) -> bool:
    """True when some contiguous run of `haystack` words, concatenated, equals `packed`."""
    for i in range(len(haystack)):
        run = ""
        for word in haystack[i:]:
            run += word
            if run == packed:
                return True
            if len(run) >= len(packed) or not packed.startswith(run):
                break
    return False
