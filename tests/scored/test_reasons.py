"""Match reasons: each reason, Mixed, the CodeContent fallback, and the doc-restates-name rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cruxgate.reference.query.scored.facts import FileFacts, SymbolRow
from cruxgate.reference.query.scored.reasons import (
    MatchReason,
    QueryText,
    classify,
    defs_in_hit,
    is_comment,
    is_import,
    reasons,
)


def sym(sid: int, name: str, kind: str, start: int, end: int, doc: str | None = None) -> SymbolRow:
    return SymbolRow(sid, name, name, kind, start, end, doc)


def reason_of(query: str, defs: list[SymbolRow], text: str, first: int = 1,
              imports: frozenset[int] = frozenset()) -> MatchReason:
    lines = list(enumerate(text.splitlines(), start=first))
    return classify(reasons(QueryText(query), defs, lines, imports))


def test_function_name() -> None:
    fn = sym(1, "authenticate", "function", 10, 11)
    text = "pub fn authenticate(user: &str) -> bool {\n}"
    assert reason_of("authenticate", [fn], text, 10) is MatchReason.FUNCTION_NAME
    method = sym(2, "validateToken", "method", 3, 4)
    assert reason_of("validate token", [method], "validateToken(raw) {\n}", 3) is MatchReason.FUNCTION_NAME


@pytest.mark.parametrize("kind", ["class", "struct", "enum", "interface", "trait"])
def test_class_name(kind: str) -> None:
    defs = [sym(1, "AuthMiddleware", kind, 1, 3)]
    assert reason_of("AuthMiddleware", defs, "x AuthMiddleware {\n}\n") is MatchReason.CLASS_NAME


def test_type_definition() -> None:
    alias = sym(1, "UserId", "type_alias", 4, 4)
    assert reason_of("UserId", [alias], "type UserId = string;", 4) is MatchReason.TYPE_DEFINITION


def test_doc_comment_from_the_index_doc() -> None:
    check = sym(1, "check", "function", 5, 6, doc="Authenticate user credentials")
    assert reason_of("authenticate", [check], "pub fn check() {\n}", 5) is MatchReason.DOC_COMMENT


def test_doc_comment_from_a_comment_line_in_the_hit() -> None:
    text = "/// Authenticate user credentials\npub fn check() { }"
    assert reason_of("authenticate", [sym(1, "check", "function", 2, 2)], text) is MatchReason.DOC_COMMENT


def test_import_statement_by_syntax_and_by_index_edge() -> None:
    assert reason_of("hashlib", [], "import hashlib\nx = 1") is MatchReason.IMPORT_STATEMENT
    assert reason_of("HashMap", [], "use std::collections::HashMap;") is MatchReason.IMPORT_STATEMENT
    # A line the index recorded as an import edge counts even when it does not read as one.
    assert reason_of("loader", [], "  loader,\n", first=7, imports=frozenset({7})) is MatchReason.IMPORT_STATEMENT


def test_code_content_is_the_fallback() -> None:
    fn = sym(1, "run", "function", 1, 3)
    assert reason_of("retry_budget", [fn], "def run():\n    retry_budget -= 1\n") is MatchReason.CODE_CONTENT


def test_mixed_when_two_sources_match() -> None:
    fn = sym(1, "load_config", "function", 2, 3)
    text = "from settings import load_config\ndef load_config():\n    pass"
    assert reason_of("load_config", [fn], text) is MatchReason.MIXED
    cls = sym(2, "Token", "class", 1, 1)
    fn2 = sym(3, "token", "function", 2, 2)
    assert reason_of("token", [cls, fn2], "class Token: pass\ndef token(): pass") is MatchReason.MIXED


def test_own_doc_restating_the_name_does_not_make_it_mixed() -> None:
    fn = sym(1, "load_config", "function", 1, 3, doc="Load config from disk.")
    text = 'def load_config():\n    """Load config from disk."""\n    return {}'
    assert reason_of("load config", [fn], text) is MatchReason.FUNCTION_NAME


def test_another_defs_doc_still_counts() -> None:
    fn = sym(1, "load_config", "function", 1, 1)
    other = sym(2, "read", "function", 2, 3, doc="Helper for load config.")
    assert reason_of("load config", [fn, other], "def load_config(): pass\ndef read():\n    pass") is MatchReason.MIXED


def test_query_naming_rules() -> None:
    q = QueryText("authentication")
    assert q.names("verify_authentication") and q.names("Authentication")
    assert not q.names("authenticate")
    assert QueryText("TokenValidator.validate").names("validate")
    assert QueryText("validatetoken").names("validate_token")
    assert not QueryText("").names("x")


def test_line_classifiers() -> None:
    assert is_comment("    # note") and is_comment("// x") and is_comment(" * x") and is_comment('"""Doc.')
    assert not is_comment("#[derive(Debug)]") and not is_comment("#include <x.h>") and not is_comment("x = 1  # y")
    assert is_import("from a.b import c") and is_import("import { x } from './y';") and is_import("pub use crate::a;")
    assert is_import("const fs = require('fs');") and is_import("export { a } from './a';")
    assert not is_import("user = get()") and not is_import("# import this")


def test_defs_in_hit_uses_the_hit_symbol_or_the_defs_inside_the_lines() -> None:
    a, b, c = sym(1, "a", "function", 1, 5), sym(2, "b", "method", 2, 3), sym(3, "c", "function", 7, 9)
    facts = FileFacts(symbols=(a, b, c), import_lines=frozenset())
    assert defs_in_hit(facts, 2, 2, 3) == [b]
    assert defs_in_hit(facts, None, 1, 6) == [a, b]
    assert defs_in_hit(facts, 99, 6, 9) == [c]  # unknown id: fall back to the lines


@settings(database=None)  # keep the checkout free of .hypothesis/
@given(st.lists(st.text(alphabet="aAbBtT_ .:/-09#\u212a\u0130\u03a3", max_size=20), max_size=12),
       st.text(alphabet="aAbBtT_ .:09\u212a", min_size=1, max_size=8))
def test_lines_with_text_are_the_lines_in_text_holds_for(texts: list[str], query: str) -> None:
    # The whole-hit shortcut keeps exactly the lines the line-by-line test keeps (texts may hold line breaks).
    q = QueryText(query)
    lines = list(enumerate(texts, start=3))
    assert q.lines_with_text(lines) == [(n, text) for n, text in lines if q.in_text(text)]
