"""The canonical symbol kinds and the roles they belong to: the one table every other module reads."""

from __future__ import annotations

ROLES: tuple[str, ...] = ("type", "callable", "value", "namespace", "alias")

# kind -> role, in the canonical kind order. `alias` (import aliases) has no kind today.
ROLE_OF_KIND: dict[str, str] = {
    "class": "type", "struct": "type", "enum": "type", "trait": "type", "interface": "type", "type_alias": "type",
    "function": "callable", "method": "callable",
    "constant": "value", "variable": "value", "field": "value",
    "module": "namespace",
}

KINDS: tuple[str, ...] = tuple(ROLE_OF_KIND)

KINDS_OF_ROLE: dict[str, tuple[str, ...]] = {
    role: tuple(kind for kind, owner in ROLE_OF_KIND.items() if owner == role) for role in ROLES
}

assert set(ROLE_OF_KIND.values()) <= set(ROLES), "every kind's role is a role"


def kinds_of(*roles: str) -> frozenset[str]:
    """The kinds of the given roles."""
    return frozenset(kind for role in roles for kind in KINDS_OF_ROLE[role])
