"""Query and identifier words for scored search: one splitting rule for names, docs and lines."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

# An identifier's words: camelCase humps, acronyms (HTTPServer -> http, server) and digits.
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(text: str) -> list[str]:
    """Lowercase words of `text`, identifiers split at `_`, `::`, `.`, `/`, `-` and camel humps."""
    return [w.lower() for w in _WORD.findall(text)]


@lru_cache(maxsize=16384)
def name_words(name: str) -> tuple[str, ...]:
    """`words(name)` of a definition's (qualified) name, remembered: the same names come back call after call."""
    return tuple(words(name))


# Every ASCII letter and digit is in some word, so on ASCII text the words end to end are the text's
# letters and digits: deleting the other bytes is far cheaper than splitting (compact runs over whole hits).
_ASCII_DIGITS_AND_LOWER = b"0123456789abcdefghijklmnopqrstuvwxyz"
_NOT_ASCII_ALNUM = bytes(b for b in range(256) if b not in _ASCII_DIGITS_AND_LOWER + _ASCII_DIGITS_AND_LOWER.upper())
_NOT_DIGIT_OR_LOWER = bytes(b for b in range(256) if b not in _ASCII_DIGITS_AND_LOWER)
_NOT_DIGIT_OR_LOWER_RE = re.compile(r"[^a-z0-9]+")


def compact(text: str) -> str:
    """`text` lowercased with every non-alphanumeric character removed (`validate_token` -> `validatetoken`)."""
    if text.isascii():
        return text.encode("ascii").translate(None, _NOT_ASCII_ALNUM).decode("ascii").lower()
    return "".join(words(text))


def squeeze(lower: str) -> str:
    """Already lower-cased text without anything but the letters a-z and the digits 0-9."""
    if lower.isascii():
        return lower.encode("ascii").translate(None, _NOT_DIGIT_OR_LOWER).decode("ascii")
    return _NOT_DIGIT_OR_LOWER_RE.sub("", lower)


def contains_phrase(haystack: Sequence[str], needle: Sequence[str]) -> bool:
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
