"""Retrieval on a real index: code-aware terms, syntax-proof queries, determinism, dedup and the semantic seam."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.index import IndexReader
from reference.query.engine import QueryEngine
from reference.query.errors import QueryInputError
from reference.query.retrieval import query_terms
from reference.query.semantic import SemanticCandidate


def names(hits) -> list[str | None]:
    return [h.name for h in hits if h.result_type == "symbol"]


@pytest.mark.parametrize("query", ["user service", "UserService", "user_service", "service", "userService"])
def test_identifiers_are_found_by_their_parts(ranked: QueryEngine, query: str) -> None:
    assert "UserService" in names(ranked.search_code(query, limit=20).hits)


def test_paths_are_found_by_their_parts(ranked: QueryEngine) -> None:
    hits = ranked.search_code("pkg/attestation.go", limit=10).hits
    assert hits[0].path == "pkg/attestation.go"


def test_query_terms_drop_syntax() -> None:
    terms = query_terms('foo"bar (x AND -y) title:^2 app::config::Config')
    assert all(t.isalnum() and t == t.lower() for t in terms)
    assert {"foo", "bar", "and", "config", "app"} <= set(terms)


@pytest.mark.parametrize("query", ['"', "(", "a:b", "AND", "+-", "title:", "^2", "*", "~", "[1 TO 2]", "!!!", "_"])
def test_query_syntax_never_raises(ranked: QueryEngine, query: str) -> None:
    ranked.search_code(query)
    ranked.locate_symbol(query)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(min_size=1, max_size=40))
def test_any_text_is_answered_or_rejected_as_input(ranked: QueryEngine, text: str) -> None:
    try:
        result = ranked.search_code(text, explain=True)
    except QueryInputError as err:
        assert err.field == "query" and not text.strip()
        return
    assert len(result.hits) <= 10


def test_same_query_same_answer(ranked: QueryEngine, ranked_workspace: Path) -> None:
    def answer(engine: QueryEngine) -> list[tuple]:
        hits = engine.search_code("handler serve", limit=30, explain=True).hits
        return [(h.result_id, h.score, h.breakdown.full()["final_score"]) for h in hits]

    first = answer(ranked)
    assert answer(ranked) == first
    assert answer(QueryEngine(IndexReader.open(ranked_workspace))) == first


def test_ties_are_broken_by_the_documented_key(ranked: QueryEngine) -> None:
    hits = ranked.search_code("handler serve", limit=30).hits
    keys = [(-h.score, h.path, h.line_start, h.line_end) for h in hits]
    assert keys == sorted(keys)


def test_locate_returns_exact_names_first_and_only(ranked: QueryEngine) -> None:
    hits = ranked.locate_symbol("handler").hits
    assert hits and all(h.name.lower() == "handler" for h in hits)
    assert hits[0].name == "handler" and hits[0].kind == "function"  # callable intent: +0.5


def test_locate_falls_back_to_nearest_names(ranked: QueryEngine) -> None:
    hits = ranked.locate_symbol("UserServ").hits  # no symbol has this name: the closest ones come back
    assert "UserService" in names(hits)


def test_hits_carry_identity_and_location(ranked: QueryEngine) -> None:
    hit = ranked.locate_symbol("Config").hits[0]
    assert hit.result_id == f"symbol:{hit.symbol_stable_id}" and hit.symbol_id
    assert (hit.path, hit.line_start, hit.kind, hit.language) == ("src/config.py", 1, "class", "python")
    assert hit.body_preview.startswith("class Config:")


def test_context_fields_load_lazily(ranked: QueryEngine) -> None:
    method = next(h for h in ranked.locate_symbol("build").hits if h.path == "web/service.ts")
    assert method.parent["name"] == "UserServiceFactory"
    cls = ranked.locate_symbol("UserServiceFactory").hits[0]
    assert "build" in [r["name"] for r in cls.related_symbols]


class FakeSemantic:
    """A semantic channel returning fixed candidates."""

    enabled = True

    def __init__(self, candidates: list[SemanticCandidate]) -> None:
        self.candidates = candidates

    def search(self, query: str, limit: int) -> list[SemanticCandidate]:
        return list(self.candidates)

    def status(self) -> dict:
        return {"semantic_enabled": True, "semantic_mode": "hybrid"}


def engine_with(workspace: Path, candidates: list[SemanticCandidate]) -> QueryEngine:
    return QueryEngine(IndexReader.open(workspace), semantic=FakeSemantic(candidates))


def test_semantic_duplicate_of_a_lexical_hit_is_suppressed(ranked: QueryEngine, ranked_workspace: Path) -> None:
    config = ranked.locate_symbol("Config").hits[0]
    engine = engine_with(ranked_workspace, [SemanticCandidate(config.symbol_stable_id, 0.9)])
    result = engine.search_code("Config", limit=10)
    assert [h.result_id for h in result.hits].count(config.result_id) == 1
    assert result.suppressed_duplicate_count == 1
    assert ranked.search_code("Config", limit=10).suppressed_duplicate_count == 0


def test_semantic_only_result_is_enriched_then_ranked(ranked: QueryEngine, ranked_workspace: Path) -> None:
    mode = ranked.locate_symbol("Mode").hits[0]
    engine = engine_with(ranked_workspace, [SemanticCandidate(mode.symbol_stable_id, 0.75)])
    hit = next(h for h in engine.search_code("Speed", limit=10, explain=True).hits
               if h.symbol_stable_id == mode.symbol_stable_id)
    assert (hit.kind, hit.name, hit.path) == ("enum", "Mode", "src/lib.rs")
    assert hit.breakdown.effective("kind_weight") == 1.8
    assert hit.breakdown.effective("query_intent_boost") == 1.0  # "Speed" is a type query
    assert hit.breakdown.bm25_score == 0.0
    assert hit.breakdown.basic()["semantic_similarity"] == 0.75


def test_semantic_only_result_that_cannot_be_enriched_gets_no_kind_signals(ranked_workspace: Path) -> None:
    engine = engine_with(ranked_workspace, [SemanticCandidate("no-such-symbol", 0.5)])
    hit = next(h for h in engine.search_code("Speed", explain=True).hits if h.symbol_stable_id == "no-such-symbol")
    assert hit.kind is None
    assert hit.breakdown.effective("kind_weight") == 0.0
    assert hit.breakdown.effective("query_intent_boost") == 0.0


def test_semantic_channel_is_disabled_by_default(ranked: QueryEngine) -> None:
    status = ranked.search_code("Config").semantic
    assert status["semantic_enabled"] is False and status["semantic_skipped_reason"]
