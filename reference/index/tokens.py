"""Code-aware text expansion: camelCase identifiers also appear as their humps, so the default tokenizer finds them.

Tantivy's default tokenizer already splits at every non-alphanumeric character, so
`validate_token`, `app::config::Config` and `src/auth/handler.rs` reach the index as their
parts. What it cannot split is a camelCase run: `validateToken` would be one token. `expand`
keeps the text and appends the humps of each such run (once per distinct run), which makes
`validateToken`, `validate_token` and `validate token` meet on the same terms.
"""

from __future__ import annotations

import re
from typing import cast

# An alphanumeric run with at least one hump: a lower/digit before an upper, or an acronym before a word.
# The lookbehind starts a match only where a run starts, which keeps the scan linear.
_CAMEL = re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]*?(?:[a-z0-9][A-Z]|[A-Z][A-Z][a-z])[A-Za-z0-9]*")
# Humps: `HTTPServerError` -> HTTP, Server, Error; `parseV2Config` -> parse, V2, Config.
_HUMP = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+")
# What the default tokenizer keeps as one token: a run of letters and digits (it splits at `_` as at any other mark).
_WORD = re.compile(r"[^\W_]+")
# Separators the tokenizer splits at (listed for `parts`, which callers use on single identifiers).
_PART = re.compile(r"[A-Za-z0-9]+")


def parts(identifier: str) -> list[str]:
    """The parts of one identifier, split at `_ :: . / -` and camelCase humps, in order."""
    out: list[str] = []
    for piece in _PART.findall(identifier):
        humps = _HUMP.findall(piece)
        out.extend(humps if len(humps) > 1 else [piece])
    return out


def words(text: str) -> list[str]:
    """The runs of letters and digits of `text`: the tokens Tantivy's default tokenizer makes of it, not lowercased."""
    return _WORD.findall(text)


# Byte classes for a fast scan: lower-case letters and digits -> a, upper-case -> A, anything else -> space.
_CLASSES = bytes((97 if (48 <= b <= 57 or 97 <= b <= 122) else 65 if 65 <= b <= 90 else 32) for b in range(256))
_HAS_HUMP = re.compile(r"[a-z0-9][A-Z]|[A-Z][A-Z][a-z]")


def camel_runs(data: bytes) -> list[tuple[int, str]]:
    """(byte offset, run) of every camelCase run in utf-8 `data`, in order; scanned with bytes.find, not a regex."""
    classes = data.translate(_CLASSES)
    starts: dict[int, int] = {}
    for needle, offset in ((b"aA", 1), (b"AAa", 1)):
        pos = classes.find(needle)
        while pos >= 0:
            start = classes.rfind(b" ", 0, pos) + 1
            if start not in starts:
                end = classes.find(b" ", pos + offset + 1)
                starts[start] = len(classes) if end < 0 else end
            pos = classes.find(needle, starts[start])
    return [(start, data[start:starts[start]].decode("ascii")) for start in sorted(starts)]


_HUMPS: dict[str, str] = {}  # run -> its humps (identifiers repeat); emptied when it reaches _HUMPS_KEPT
_HUMPS_KEPT = 1 << 16


def _humps(run: str) -> str:
    """The humps of one camelCase run, space separated."""
    humps = _HUMPS.get(run)
    if humps is None:
        if len(_HUMPS) >= _HUMPS_KEPT:
            _HUMPS.clear()
        humps = _HUMPS[run] = " ".join(_HUMP.findall(run))
    return humps


def with_humps(text: str, runs) -> str:
    """`text` followed by the humps of the distinct camelCase `runs` (strings) found in it."""
    unique = sorted(set(runs))
    if not unique:
        return text
    humps = list(map(_HUMPS.get, unique))  # the known runs looked up in C; the rest computed once
    if None in humps:
        humps = [h if h is not None else _humps(run) for h, run in zip(humps, unique, strict=True)]
    return f"{text}\n{' '.join(cast('list[str]', humps))}"  # no None is left


# As _CLASSES, with digits apart: in `_CAMEL` a digit may end a hump (`v2Config`) but not an acronym (`INET6`).
_EXPAND_CLASSES = bytes((48 if 48 <= b <= 57 else 97 if 97 <= b <= 122 else 65 if 65 <= b <= 90 else 32)
                        for b in range(256))
_EXPAND_SCAN_FROM = 64  # characters; below this the regex is the cheaper scan


def _camel_findall(text: str) -> list[str]:
    """`_CAMEL.findall(text)` as a set of runs, via bytes.find (non-ASCII bytes separate runs as in the regex)."""
    data = text.encode("utf-8", "surrogatepass")
    classes = data.translate(_EXPAND_CLASSES)
    ends: dict[int, int] = {}
    for needle in (b"aA", b"0A", b"AAa"):
        pos = classes.find(needle)
        while pos >= 0:
            start = classes.rfind(b" ", 0, pos) + 1
            end = ends.get(start)
            if end is None:
                end = classes.find(b" ", pos + 2)
                ends[start] = end = len(classes) if end < 0 else end
            pos = classes.find(needle, end)
    return [data[start:end].decode("ascii") for start, end in ends.items()]


def expand(text: str) -> str:
    """`text` followed by the humps of every distinct camelCase run in it (the original is kept)."""
    if not text or text.islower():
        return text
    if len(text) >= _EXPAND_SCAN_FROM:
        return with_humps(text, _camel_findall(text))
    if not _HAS_HUMP.search(text):
        return text
    return with_humps(text, _CAMEL.findall(text))
