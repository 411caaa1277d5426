"""Role and kind filters on real indices (seed 000, "Role-aware symbol filtering")."""

from __future__ import annotations

import pytest

from reference.index.kinds import KINDS_OF_ROLE
from reference.query.engine import QueryEngine
from reference.query.errors import QueryInputError

TYPE_KINDS = set(KINDS_OF_ROLE["type"])


def test_kind_only_is_exact(ranked: QueryEngine) -> None:
    hits = ranked.locate_symbol("Handler", kind="struct").hits
    assert [(h.kind, h.path) for h in hits] == [("struct", "src/lib.rs")]


def test_role_only_matches_every_kind_of_the_role(ranked: QueryEngine) -> None:
    hits = ranked.locate_symbol("Handler", role="type").hits
    assert {(h.kind, h.language) for h in hits} == {("class", "python"), ("struct", "rust")}


def test_kind_and_role_intersect(ranked: QueryEngine) -> None:
    assert {h.kind for h in ranked.locate_symbol("Handler", kind="struct", role="type").hits} == {"struct"}
    assert ranked.locate_symbol("Handler", kind="function", role="type").hits == []


def test_search_code_role_is_symbols_of_the_role_only(ranked: QueryEngine) -> None:
    hits = ranked.search_code("Handler Mode UserService Config", role="type", limit=50).hits
    assert hits and all(h.result_type == "symbol" and h.kind in TYPE_KINDS for h in hits)
    assert {"struct", "enum", "class"} <= {h.kind for h in hits}
    assert {"python", "rust", "typescript"} <= {h.language for h in hits}


def test_search_code_role_across_the_polyglot_fixture(polyglot: QueryEngine) -> None:
    names = [r[0] for r in polyglot.db.execute(
        "SELECT DISTINCT name FROM symbols WHERE kind IN ('class','struct','enum','trait','interface') ORDER BY name")]
    hits = polyglot.search_code(" ".join(names), role="type", limit=100).hits
    assert hits and all(h.result_type == "symbol" and h.kind in TYPE_KINDS for h in hits)
    assert len({h.language for h in hits}) >= 2


def test_search_code_without_role_mixes_channels(ranked: QueryEngine) -> None:
    types = {h.result_type for h in ranked.search_code("Serve handler", limit=50).hits}
    assert types == {"symbol", "snippet", "file"}


def test_search_code_rejects_kind(ranked: QueryEngine) -> None:
    with pytest.raises(QueryInputError) as err:
        ranked.search_code("Handler", kind="struct")
    assert err.value.field == "kind"


def test_language_filter(ranked: QueryEngine) -> None:
    hits = ranked.search_code("Handler", language="rust", limit=50).hits
    assert hits and {h.language for h in hits} == {"rust"}


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
def test_invalid_arguments_name_the_field(ranked: QueryEngine, call, field: str) -> None:
    with pytest.raises(QueryInputError) as err:
        call(ranked)
    assert err.value.field == field
