"""The canonical symbol kinds and the roles they belong to (the only place they are written)."""

from __future__ import annotations

KINDS: tuple[str, ...] = (
    "class", "struct", "enum", "trait", "interface", "type_alias",
    "function", "method",
    "constant", "variable", "field",
    "module",
)

KINDS_OF_ROLE: dict[str, tuple[str, ...]] = {
    "type": ("class", "struct", "enum", "trait", "interface", "type_alias"),
    "callable": ("function", "method"),
    "value": ("constant", "variable", "field"),
    "namespace": ("module",),
    "alias": (),  # import aliases: no kind produces them today
}

ROLE_OF_KIND: dict[str, str] = {kind: role for role, kinds in KINDS_OF_ROLE.items() for kind in kinds}

assert set(ROLE_OF_KIND) == set(KINDS), "every kind has exactly one role"
