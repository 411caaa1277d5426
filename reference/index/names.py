"""A reference's target name: its key in the unresolved-name index (written by the indexer, read by queries) and the
names it is made of (what a patch looks edges up by)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_LAST_SEPARATOR = re.compile(r"[.:](?=[^.:]*$)")


def name_key(name: str) -> str:
    """The part of a target name after its last `.` or `:` (all of it when it has neither), lower-cased.

    A name that equals `n`, or ends with `.n` or `::n`, has the key of `n`, also when SQLite's LIKE (which
    ignores ASCII case) is what matched it: the index on the key finds every unresolved edge find_references
    counts for `n`, and only a few more, which the exact match then drops.
    """
    match = _LAST_SEPARATOR.search(name)
    return (name[match.end():] if match else name).lower()


def name_parts(to_name: str) -> list[str]:
    """The names a target text is made of: `a.b::c` -> a, b, c."""
    return to_name.replace("::", ".").split(".")


def edge_targets(edges: Iterable[tuple], bases: Iterable[tuple[int, tuple[str, ...]]] = ()) -> Iterator[str]:
    """What each of `edges` (tuples in Edge field order) names: its target's text, and the type a call's receiver is
    declared with; and the bases of the file's classes (`FileExtract.bases`, what `self.m()` may inherit from). A
    patch re-resolves the calls when one of those changes."""
    for edge in edges:
        yield edge[3]
        hint = edge[4]
        if len(hint) > 3 and hint[0] == "call":
            yield hint[3]
    for _, names in bases:
        yield from names


def edge_names(targets: Iterable[str]) -> str:
    """Every part of `targets` once, each between newlines (`\\na\\nb\\n`): `\\nn\\n` is in it for every part `n`
    (a target split over lines may match a few names more, never fewer)."""
    listed = list(targets)
    # Split once, joined: a third faster than target by target; a separator inside a target takes the long way.
    text = "\x00".join(listed)
    if text.count("\x00") != max(len(listed) - 1, 0):
        return "\n" + "\n".join(sorted({part for target in listed for part in name_parts(target)})) + "\n"
    return "\n" + "\n".join(sorted(set(name_parts(text.replace("\x00", "."))))) + "\n"
