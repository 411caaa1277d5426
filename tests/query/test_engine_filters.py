"""Role and kind filters on the polyglot fixture (seed 000, "Role-aware symbol filtering")."""

from __future__ import annotations

import pytest

from reference.index.kinds import KINDS_OF_ROLE
from reference.query.engine import QueryEngine
from reference.query.errors import QueryInputError

TYPE_KINDS = set(KINDS_OF_ROLE["type"])


def test_kind_only_is_exact(polyglot: QueryEngine) -> None:
    hits = polyglot.locate_symbol("Config", kind="struct").hits
    assert [(h.kind, h.path) for h in hits] == [("struct", "src/app/config.rs")]


def test_role_only_matches_every_kind_of_the_role(polyglot: QueryEngine) -> None:
    hits = polyglot.locate_symbol("Config", role="type").hits
    assert {(h.kind, h.language) for h in hits} == {("class", "python"), ("struct", "rust")}


def test_kind_and_role_intersect(polyglot: QueryEngine) -> None:
    assert [h.kind for h in polyglot.locate_symbol("Config", kind="struct", role="type").hits] == ["struct"]
    assert polyglot.locate_symbol("Config", kind="function", role="type").hits == []
    assert polyglot.locate_symbol("Config", role="alias").hits == []


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


def test_search_code_rejects_kind(polyglot: QueryEngine) -> None:
    with pytest.raises(QueryInputError) as err:
        polyglot.search_code("Config", kind="struct")
    assert err.value.field == "kind"


def test_language_filter(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("Config", language="rust", limit=50).hits
    assert hits and {h.language for h in hits} == {"rust"}
    assert {h.language for h in polyglot.locate_symbol("Config", language="python").hits} == {"python"}


@pytest.mark.parametrize(("call", "field"), [
    (lambda e: e.search_code(""), "query"),
    (lambda e: e.search_code("   "), "query"),
    (lambda e: e.search_code("x", limit=0), "limit"),
    (lambda e: e.search_code("x", limit=True), "limit"),
    (lambda e: e.search_code("x", role="types"), "role"),
    (lambda e: e.locate_symbol("x", kind="klass"), "kind"),
    (lambda e: e.locate_symbol(None), "name"),
    (lambda e: e.locate_symbol("x", language=""), "language"),
])
def test_invalid_arguments_name_the_field(polyglot: QueryEngine, call, field: str) -> None:
    with pytest.raises(QueryInputError) as err:
        call(polyglot)
    assert err.value.field == field
