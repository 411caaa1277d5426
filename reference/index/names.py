"""The key of a reference's target name in the unresolved-name index (written by the indexer, read by queries)."""

from __future__ import annotations

import re

_LAST_SEPARATOR = re.compile(r"[.:](?=[^.:]*$)")


def name_key(name: str) -> str:
    """The part of a target name after its last `.` or `:` (all of it when it has neither), lower-cased.

    A name that equals `n`, or ends with `.n` or `::n`, has the key of `n`, also when SQLite's LIKE (which
    ignores ASCII case) is what matched it: the index on the key finds every unresolved edge find_references
    counts for `n`, and only a few more, which the exact match then drops.
    """
    match = _LAST_SEPARATOR.search(name)
    return (name[match.end():] if match else name).lower()
