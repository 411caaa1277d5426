"""Symbol-type filters: exact `kind`, `role` (through the index's role mapping) and their intersection."""

from __future__ import annotations

from cruxgate.reference.index.kinds import KINDS, kinds_of


def allowed_kinds(kind: str | None = None, role: str | None = None) -> frozenset[str] | None:
    """The kinds a query may return (None = no filter); both given, their intersection (possibly empty)."""
    if kind is None and role is None:
        return None
    kinds = frozenset(KINDS) if kind is None else frozenset([kind])
    return kinds if role is None else kinds & kinds_of(role)
