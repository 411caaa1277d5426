"""Why a hit matched: FunctionName, ClassName, TypeDefinition, DocComment, ImportStatement, CodeContent or Mixed.

Evidence comes from the index, not from the ranking: the symbols defined in
the hit (SQLite `symbols`), their doc comments (`symbols.doc` and comment
lines inside the hit), and its import lines (`symbol_edges` import edges, or
a line that reads as an import). Each source that matches the query adds one
reason; one reason is returned as is, several as Mixed, none as CodeContent
(the query matched only code in the body).

A def's own doc comment is not counted when that def's name already matched:
docs routinely restate the name ("Load the config." on `load_config`), and the
name is then the reason the agent cares about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import Enum

from .scored_symbols import FileFacts, SymbolRow
from .scored_terms import compact, contains_phrase, words


class MatchReason(str, Enum):
    """The wire values of `match_reason`."""

    FUNCTION_NAME = "FunctionName"
    CLASS_NAME = "ClassName"
    DOC_COMMENT = "DocComment"
    CODE_CONTENT = "CodeContent"
    IMPORT_STATEMENT = "ImportStatement"
    TYPE_DEFINITION = "TypeDefinition"
    MIXED = "Mixed"


NAME_REASONS = {
    "function": MatchReason.FUNCTION_NAME,
    "method": MatchReason.FUNCTION_NAME,
    "class": MatchReason.CLASS_NAME,
    "struct": MatchReason.CLASS_NAME,
    "enum": MatchReason.CLASS_NAME,
    "interface": MatchReason.CLASS_NAME,
    "trait": MatchReason.CLASS_NAME,
    "type_alias": MatchReason.TYPE_DEFINITION,
}

# Lines that are comments in the indexed languages (Rust/Go/TS/JS `//`, `/* */`,
# Python `#` and docstrings). `#[`, `#!` and `#include` are attributes and directives.
_COMMENT = re.compile(r"^\s*(//|/\*|\*(?!\*?/?\w+\s*=)|#(?![\[!]|include\b)|\"\"\"|''')")
# Import statements: Python, Rust, Go, TS/JS (ES modules and require).
_IMPORT = re.compile(
    r"^\s*(from\s+\S+\s+import\b|import\b|(pub(\([^)]*\))?\s+)?use\s+\S|export\s+.*\bfrom\s+['\"]|"
    r"(const|let|var)\s+.*=\s*require\()"
)


class QueryText:
    """A query as the classifier compares it: its words and its compact form."""

    def __init__(self, query: str) -> None:
        self.words = words(query)
        self.compact = "".join(self.words)

    def in_text(self, text: str) -> bool:
        """True when the query occurs in `text` as a word phrase or, squeezed, inside an identifier."""
        if not self.words:
            return False
        text_words = words(text)
        return contains_phrase(text_words, self.words) or self.compact in "".join(text_words)

    def names(self, name: str) -> bool:
        """True when the query names `name`: one's words run contiguously inside the other's."""
        name_words = words(name)
        if not self.words or not name_words:
            return False
        return (
            self.compact == "".join(name_words)
            or contains_phrase(name_words, self.words)
            or contains_phrase(self.words, name_words)
        )


def is_comment(line: str) -> bool:
    """True for a comment or docstring line."""
    return bool(_COMMENT.match(line))


def is_import(line: str) -> bool:
    """True for an import / use / require line."""
    return bool(_IMPORT.match(line))


def defs_in_hit(facts: FileFacts, symbol_id: int | None, line_start: int, line_end: int) -> list[SymbolRow]:
    """The symbols a hit stands for: its own symbol for a symbol hit, else those defined inside its lines."""
    if symbol_id is not None:
        own = facts.by_id(symbol_id)
        if own is not None:
            return [own]
    return [s for s in facts.symbols if line_start <= s.line_start <= line_end]


def reasons(
    query: QueryText,
    defs: Sequence[SymbolRow],
    lines: Iterable[tuple[int, str]],
    import_lines: frozenset[int],
) -> set[MatchReason]:
    """Every reason that applies to a hit: `defs` in it, its numbered `lines`, the file's import lines."""
    found: set[MatchReason] = set()
    for sym in defs:
        reason = NAME_REASONS.get(sym.kind)
        named = reason is not None and query.names(sym.name)
        if named:
            found.add(reason)
        elif sym.doc and query.in_text(sym.doc):
            found.add(MatchReason.DOC_COMMENT)
    own_docs = [words(s.doc) for s in defs if s.doc and NAME_REASONS.get(s.kind) and query.names(s.name)]
    for number, text in lines:
        if not query.in_text(text):
            continue
        if number in import_lines or is_import(text):
            found.add(MatchReason.IMPORT_STATEMENT)
        elif is_comment(text) and not _restates(text, own_docs):
            found.add(MatchReason.DOC_COMMENT)
    return found


def _restates(line: str, docs: list[list[str]]) -> bool:
    """True when a comment line is part of the doc of a def whose name already matched."""
    line_words = words(line)
    return bool(line_words) and any(contains_phrase(doc, line_words) for doc in docs)


def classify(found: set[MatchReason]) -> MatchReason:
    """One reason for a set of them: itself, Mixed for several, CodeContent for none."""
    if not found:
        return MatchReason.CODE_CONTENT
    if len(found) == 1:
        return next(iter(found))
    return MatchReason.MIXED
