"""Preview excerpts: 2-3 lines around the first line that matches the query, `...` where cut."""

from __future__ import annotations

from .terms import compact, words

CUT = "..."
# A preview line longer than this is cut around the match (minified code, data tables).
MAX_LINE_CHARS = 160


def matching_line(lines: list[str], query: str) -> int | None:
    """Index of the first line that matches `query`, or None.

    Tried in order: the query as typed (case-insensitive), its compact form
    (`validate token` finds `validate_token`), then the line with the most
    distinct query words (the first such line on a tie). Each step first asks
    whether the lines together could match at all: a long hit usually matches
    on a few lines, and splitting every line into words is what costs.
    """
    whole = "\n".join(lines)
    lower = whole.lower()
    needle = query.strip().lower()
    if needle and needle in lower:
        for i, line in enumerate(lines):
            if needle in line.lower():
                return i
    packed = compact(query)
    # Words never span a line break, so the compact whole is the compact lines end to end.
    if packed and packed in compact(whole):
        for i, line in enumerate(lines):
            if packed in compact(line):
                return i
    # A line holding a query word holds it as a substring of its lower-cased text: the query words
    # found so are as many as the line can have, and a line that cannot beat the best is not split.
    terms = [term for term in set(words(query)) if term in lower]
    best, best_hits = None, 0
    wanted = set(terms)
    for i, line in enumerate(lines):
        if best_hits == len(terms):
            break  # no line can have more
        low = line.lower()
        if sum(term in low for term in terms) > best_hits:
            hits = len(wanted.intersection(words(line)))
            if hits > best_hits:
                best, best_hits = i, hits
    return best


def _clip(line: str, query: str) -> str:
    """`line` itself, or a MAX_LINE_CHARS window of it around the query with `...` on the cut sides."""
    if len(line) <= MAX_LINE_CHARS:
        return line
    at = max(line.lower().find(query.strip().lower()), 0)
    start = max(0, min(at - MAX_LINE_CHARS // 4, len(line) - MAX_LINE_CHARS))
    end = start + MAX_LINE_CHARS
    return (CUT if start > 0 else "") + line[start:end] + (CUT if end < len(line) else "")


def excerpt(content: str, query: str) -> str:
    """A 2-3 line excerpt of `content`: the first matching line with one line either side, else the first 3 lines.

    A line of `...` marks each side where lines were cut; content of 3 lines or
    fewer comes back whole.
    """
    lines = content.splitlines()
    if not lines:
        return ""
    hit = matching_line(lines, query)
    if hit is None:
        start, end = 0, min(3, len(lines))
    else:
        start = max(hit - 1, 0)
        end = min(start + 3, len(lines))
        start = max(min(start, end - 3), 0)  # at the end of the content, take one more line before
    kept = [_clip(line, query) for line in lines[start:end]]
    if start > 0:
        kept.insert(0, CUT)
    if end < len(lines):
        kept.append(CUT)
    return "\n".join(kept)
