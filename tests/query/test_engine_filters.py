"""Role and kind filters on the polyglot fixture (seed 000, "Role-aware symbol filtering")."""

from __future__ import annotations

from cruxgate.reference.index.kinds import KINDS_OF_ROLE
from cruxgate.reference.query.engine import QueryEngine

TYPE_KINDS = set(KINDS_OF_ROLE["type"])


def test_kind_only_is_exact(polyglot: QueryEngine) -> None:
    hits = polyglot.locate_symbol("Config", limit=10, kind="struct").hits
    assert [(h.kind, h.path) for h in hits] == [("struct", "src/app/config.rs")]


def test_role_only_matches_every_kind_of_the_role(polyglot: QueryEngine) -> None:
    hits = polyglot.locate_symbol("Config", limit=10, role="type").hits
    assert {(h.kind, h.language) for h in hits} == {("class", "python"), ("struct", "rust")}


def test_kind_and_role_intersect(polyglot: QueryEngine) -> None:
    assert [h.kind for h in polyglot.locate_symbol("Config", limit=10, kind="struct", role="type").hits] == ["struct"]
    assert polyglot.locate_symbol("Config", limit=10, kind="function", role="type").hits == []
    assert polyglot.locate_symbol("Config", limit=10, role="alias").hits == []


def test_search_code_role_type_across_rust_and_python(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("Config Mode Validate ValidateToken", role="type", limit=50).hits
    assert hits and all(h.result_type == "symbol" and h.kind in TYPE_KINDS for h in hits)
    assert {("struct", "rust"), ("enum", "rust"), ("trait", "rust"), ("class", "python")} <= \
        {(h.kind, h.language) for h in hits}


def test_search_code_role_omits_snippets_and_files(polyglot: QueryEngine) -> None:
    assert {h.result_type for h in polyglot.search_code("Serve", limit=30).hits} == {"symbol", "snippet", "file"}
    hits = polyglot.search_code("Serve", role="callable", limit=30).hits
    assert hits and {h.result_type for h in hits} == {"symbol"}
    assert {h.kind for h in hits} <= {"function", "method"}


def test_language_filter(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("Config", language="rust", limit=50).hits
    assert hits and {h.language for h in hits} == {"rust"}
    assert {h.language for h in polyglot.locate_symbol("Config", limit=10, language="python").hits} == {"python"}


def test_a_language_is_named_in_any_case_or_spelling(polyglot: QueryEngine) -> None:
    """`Rust`, `RS` and `ts` name what the index calls `rust` and `typescript`; a name no language has matches
    nothing."""
    rust = {h.symbol_id for h in polyglot.search_code("Config", language="rust", limit=50).hits}
    assert rust and {h.symbol_id for h in polyglot.search_code("Config", language="Rust", limit=50).hits} == rust
    assert {h.symbol_id for h in polyglot.locate_symbol("Config", language="RS", limit=50).hits} == {
        h.symbol_id for h in polyglot.locate_symbol("Config", language="rust", limit=50).hits}
    assert {h.language for h in polyglot.search_code("UserCard", language="ts", limit=50).hits} == {"typescript"}
    assert polyglot.search_code("Config", language="cobol", limit=50).hits == []


# Bad arguments never reach the engine: tests/protocol/test_arguments.py checks they are invalid_input.
