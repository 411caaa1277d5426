"""The enclosing function/class of a line, as scored search reports it in `context`."""

from __future__ import annotations

from cruxgate.reference.index.kinds import kinds_of

from .facts import FileFacts, SymbolRow

# Kinds that make a context: the type and callable roles.
CONTEXT_KINDS = kinds_of("type", "callable")


def enclosing(facts: FileFacts, line: int) -> list[SymbolRow]:
    """Type and callable symbols whose line range holds `line`, outermost first."""
    return [s for s in facts.symbols if s.kind in CONTEXT_KINDS and s.line_start <= line <= s.line_end]


def context_name(facts: FileFacts, line: int) -> str | None:
    """`Outer.inner` names of the functions/classes around `line` (outermost first), or None at top level."""
    chain = enclosing(facts, line)
    return ".".join(s.name for s in chain) if chain else None
