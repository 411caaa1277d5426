"""A grammar's parser and its compiled queries, built once per process.

Captures are evaluated in C by tree-sitter; the Python side only reads the matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tree_sitter import Language, Parser, Query
from tree_sitter_language_pack import get_language

from . import RULES_OF_GRAMMAR


@dataclass(frozen=True)
class Grammar:
    """A loaded grammar: its parser and one query holding definitions, calls, imports, locals and exports patterns.

    One query means one walk of the tree (each walk costs about as much as a parse);
    `calls_from`, `imports_from`, `locals_from` and `exports_from` are the first pattern index of each group.
    """

    name: str
    parser: Parser
    query: Query
    calls_from: int
    imports_from: int
    locals_from: int
    exports_from: int
    errors: Query


@cache
def grammar(name: str) -> Grammar:
    """The parser and compiled queries of grammar `name`."""
    lang: Language = get_language(name)  # type: ignore[arg-type]
    rules = RULES_OF_GRAMMAR[name]
    groups = (rules.definitions_query, rules.calls_query, rules.imports_query, rules.locals_query, rules.exports_query)
    firsts = [0]
    for group in groups[:-1]:  # each group's first pattern index: the patterns before it
        firsts.append(firsts[-1] + Query(lang, group).pattern_count)
    calls_from, imports_from, locals_from, exports_from = firsts[1:]
    return Grammar(name, Parser(lang), Query(lang, "".join(groups)), calls_from, imports_from, locals_from,
                   exports_from, Query(lang, "(ERROR) @error"))
