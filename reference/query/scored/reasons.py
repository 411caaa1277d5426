"""Why a hit matched: FunctionName, ClassName, TypeDefinition, DocComment, ImportStatement, CodeContent or Mixed.

Evidence comes from the index, not from the ranking: the symbols defined in
the hit (SQLite `symbols`), their doc comments (`symbols.doc`, else the comment
block above the def, and comment lines inside the hit), and its import lines
(`symbol_edges` import edges, or a line that reads as an import). Each source
that matches the query adds one reason; one reason is returned as is, several
as Mixed, none as CodeContent (the query matched only code in the body). The
same evidence gives the hit's `Strength`, the band of its score.

A def's own doc comment is not counted when that def's name already matched:
docs routinely restate the name ("Load the config." on `load_config`), and the
name is then the reason the agent cares about.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum

from cruxgate.reference.index.kinds import kinds_of

from .facts import FileFacts, SymbolRow
from .normalize import Strength
from .terms import compact, contains_phrase, name_words, spells_run, squeeze, words


class MatchReason(StrEnum):
    """The wire values of `match_reason`."""

    FUNCTION_NAME = "FunctionName"
    CLASS_NAME = "ClassName"
    DOC_COMMENT = "DocComment"
    CODE_CONTENT = "CodeContent"
    IMPORT_STATEMENT = "ImportStatement"
    TYPE_DEFINITION = "TypeDefinition"
    MIXED = "Mixed"


# A callable's name is a FunctionName, a type's a ClassName, but for a type alias: a TypeDefinition.
NAME_REASONS = {
    **dict.fromkeys(sorted(kinds_of("callable")), MatchReason.FUNCTION_NAME),
    **dict.fromkeys(sorted(kinds_of("type") - {"type_alias"}), MatchReason.CLASS_NAME),
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


_SEGMENT_BREAK = re.compile(r"[\s.:/#]+")


class QueryText:
    """A query as the classifier compares it: its words and its compact form."""

    def __init__(self, query: str) -> None:
        self.words = words(query)
        self.word_tuple = tuple(self.words)
        self.word_set = frozenset(self.words)
        self.compact = "".join(self.words)
        # Squeezed parts of the query between spaces and qualifiers (`.`, `::`, `/`, `#`).
        self.segments = frozenset(filter(None, (compact(part) for part in _SEGMENT_BREAK.split(query))))

    def in_text(self, text: str) -> bool:
        """True when every query word is a word of `text` (any order), or the squeezed query spells a run of
        its words (`validatetoken` in `validate_token(raw)`); whole words only: `config` is not in `configuration`."""
        if not self.words:
            return False
        lower = text.lower()
        # Cheap necessary condition first: most lines of a long hit hold neither form.
        if self.words[0] not in lower and self.compact not in squeeze(lower):
            return False
        return self._holds(text)

    def _holds(self, text: str) -> bool:
        """`in_text` past its cheap necessary condition."""
        text_words = words(text)
        if self.word_set.issubset(text_words):
            return True
        # A run of words spelling the compact query is inside the words end to end.
        return self.compact in "".join(text_words) and spells_run(text_words, self.compact)

    def lines_with_text(self, lines: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
        """The numbered lines (each without line breaks) that `in_text` holds for.

        `in_text`'s cheap condition is tried on all the lines at once first: a
        hit of hundreds of lines usually holds the query on a few.
        """
        if not self.words:
            return []
        lower = "\n".join(text for _, text in lines).lower()
        first = self.words[0]
        # Lower-casing never crosses a line break, so the squeezed whole is the squeezed lines end to end.
        squeezed = self.compact in squeeze(lower)
        if not squeezed and first not in lower:
            return []
        lowers = lower.split("\n")
        if len(lowers) != len(lines):  # a line broke at a "\n" of its own: judge it line by line
            return [(n, text) for n, text in lines if self.in_text(text)]
        return [(n, text) for (n, text), low in zip(lines, lowers, strict=True)
                if (first in low or (squeezed and self.compact in squeeze(low))) and self._holds(text)]

    def names_exactly(self, name: str, qualified_name: str) -> bool:
        """True when the query is the name (`validateToken` is `validate_token`) or a qualified suffix of it."""
        own = name_words(name)
        if not self.words or not own:
            return False
        if self.compact == "".join(own):
            return True
        qualified = name_words(qualified_name)
        # `Config::new`, `AuthHandler.handle`: more than the name, and exactly the end of the qualified name.
        return len(self.words) > len(own) and qualified[-len(self.words):] == self.word_tuple

    def names(self, name: str) -> bool:
        """True when the query names `name`: the query's words run inside the name's (`authentication` names
        `verify_authentication`), or the name is one segment of a qualified or multi-word query
        (`TokenValidator.validate` names `validate`); a part of one identifier is not a name
        (`formatCelsius` does not name `Celsius`)."""
        own = name_words(name)
        if not self.words or not own:
            return False
        packed = "".join(own)
        return self.compact == packed or contains_phrase(own, self.word_tuple) or packed in self.segments


def is_comment(line: str) -> bool:
    """True for a comment or docstring line."""
    return bool(_COMMENT.match(line))


def is_import(line: str) -> bool:
    """True for an import / use / require line."""
    return bool(_IMPORT.match(line))


# Lines allowed between a doc comment and its definition: Rust attributes, decorators.
_ATTRIBUTE = re.compile(r"^\s*(#\[|@\w)")


def leading_doc(file_lines: Sequence[str], line_start: int) -> str | None:
    """The comment block right above line `line_start` (1-based), attributes skipped: a def's doc in the
    languages whose docs the index does not store (`///`, `//`, `/** */` above Rust/Go/TS/JS defs).
    The file may have shrunk since it was indexed: lines past its end are not there to read."""
    i = min(line_start - 2, len(file_lines) - 1)
    while i >= 0 and _ATTRIBUTE.match(file_lines[i]):
        i -= 1
    block: list[str] = []
    while i >= 0 and file_lines[i].strip() and is_comment(file_lines[i]):
        block.append(file_lines[i])
        i -= 1
    return "\n".join(reversed(block)) or None


def with_docs(defs: Sequence[SymbolRow], file_lines: Sequence[str] | None) -> list[SymbolRow]:
    """`defs`, each without an indexed doc given the comment block above it as its doc."""
    if file_lines is None:
        return list(defs)
    with_doc = []
    for s in defs:
        doc = None if s.doc else leading_doc(file_lines, s.line_start)
        with_doc.append(s if doc is None else replace(s, doc=doc))
    return with_doc


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
    lines: Sequence[tuple[int, str]],
    import_lines: frozenset[int],
) -> set[MatchReason]:
    """Every reason that applies to a hit: `defs` in it, its numbered `lines`, the file's import lines."""
    found: set[MatchReason] = set()
    for sym in defs:
        reason = NAME_REASONS.get(sym.kind)
        if reason is not None and query.names(sym.name):
            found.add(reason)
        elif sym.doc and query.in_text(sym.doc):
            found.add(MatchReason.DOC_COMMENT)
    own_docs = [words(s.doc) for s in defs if s.doc and NAME_REASONS.get(s.kind) and query.names(s.name)]
    for number, text in query.lines_with_text(lines):
        if number in import_lines or is_import(text):
            found.add(MatchReason.IMPORT_STATEMENT)
        elif is_comment(text) and not _restates(text, own_docs):
            found.add(MatchReason.DOC_COMMENT)
    return found


def name_strength(query: QueryText, defs: Sequence[SymbolRow]) -> Strength | None:
    """The strength of a hit whose definitions' names match (exact, else partial), or None: `text_strength` decides.

    Any definition counts for the exact name, a variable or constant too: a
    definition named exactly what was asked is the clearest match there is,
    even when the seven reasons have no name for its kind (it reads CodeContent).
    A partial name counts only for the kinds that have a name reason. The
    name is checked first and alone: when it decides, a call without match
    reasons need not read the docs and lines.
    """
    if any(query.names_exactly(s.name, s.qualified_name) for s in defs):
        return Strength.EXACT_NAME
    if any(s.kind in NAME_REASONS and query.names(s.name) for s in defs):
        return Strength.PARTIAL_NAME
    return None


def text_strength(found: set[MatchReason]) -> Strength:
    """The strength of a hit no definition name matched: doc/import text, or code."""
    return Strength.TEXT if found & {MatchReason.DOC_COMMENT, MatchReason.IMPORT_STATEMENT} else Strength.CODE


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
