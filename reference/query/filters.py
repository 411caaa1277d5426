"""Symbol-type filters: exact `kind`, `role` (through the index's role mapping) and their intersection."""

from __future__ import annotations

from reference.index.kinds import KINDS, KINDS_OF_ROLE, ROLES

from .errors import QueryInputError


def allowed_kinds(kind: str | None = None, role: str | None = None, *,
                  accepts_kind: bool = True) -> frozenset[str] | None:
    """The kinds a query may return (None = no filter); raises QueryInputError for a bad or unsupported value.

    `accepts_kind=False` is `search_code`: the spec lets it reject or ignore `kind`; we reject,
    so that a caller never believes a filter applied that did not.
    """
    if kind is not None and not accepts_kind:
        raise QueryInputError("kind", "search_code does not filter by kind; use role "
                              f"({' | '.join(ROLES)}) or locate_symbol")
    if role is not None and role not in KINDS_OF_ROLE:
        raise QueryInputError("role", f"unknown role {role!r}; expected one of {', '.join(ROLES)}")
    if kind is not None and kind not in KINDS:
        raise QueryInputError("kind", f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    if kind is None and role is None:
        return None
    kinds = frozenset(KINDS) if kind is None else frozenset([kind])
    if role is not None:
        kinds &= frozenset(KINDS_OF_ROLE[role])  # both given: intersection, possibly empty
    return kinds
