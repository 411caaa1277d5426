"""Code-aware text expansion: identifiers also appear split into their parts, so the default tokenizer finds them."""

from __future__ import annotations

import re

# A compound identifier: word characters joined by the separators code uses (`_`, `::`, `.`, `/`, `-`).
_COMPOUND = re.compile(r"[A-Za-z0-9_]+(?:(?:::|[./-])[A-Za-z0-9_]+)*")
# Runs of letters/digits between separators.
_PART = re.compile(r"[A-Za-z0-9]+")
# camelCase humps: `HTTPServerError` -> HTTP, Server, Error; `parseV2Config` -> parse, V2, Config.
_HUMP = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+")
# Only words with a hump or a separator gain anything from expansion.
_NEEDS = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]|[_:./-]")


def parts(identifier: str) -> list[str]:
    """The parts of one identifier, split at separators and camelCase humps (the identifier itself excluded)."""
    out: list[str] = []
    for piece in _PART.findall(identifier):
        humps = _HUMP.findall(piece)
        if piece != identifier:
            out.append(piece)
        if len(humps) > 1:
            out.extend(humps)
    return [] if out == [identifier] else out


def expand(text: str) -> str:
    """`text` followed by the parts of every compound or camelCase identifier in it (original kept, order kept)."""
    if not text:
        return text
    extra: list[str] = []
    seen: set[str] = set()
    for word in _COMPOUND.findall(text):
        if word in seen or not _NEEDS.search(word):
            continue
        seen.add(word)
        extra.extend(parts(word))
    return text if not extra else f"{text}\n{' '.join(extra)}"
