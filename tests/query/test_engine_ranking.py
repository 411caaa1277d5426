"""The ranking scenarios of seed 000 against a real index: breakdowns carry the spec's numbers."""

from __future__ import annotations

import pytest

from reference.query.engine import QueryEngine
from reference.query.hits import Hit


def by(hits: list[Hit], **want: object) -> Hit:
    """The single hit whose attributes match `want`."""
    found = [h for h in hits if all(getattr(h, k) == v for k, v in want.items())]
    assert len(found) == 1, (want, [(h.name, h.kind, h.path) for h in hits])
    return found[0]


def test_final_score_is_bm25_plus_the_sum_of_signals(ranked: QueryEngine) -> None:
    for hit in ranked.search_code("Handler", limit=20, explain=True).hits:
        b = hit.breakdown
        assert b.final_score == pytest.approx(b.bm25_score + sum(v.effective for v in b.signals.values()))
        assert hit.score == pytest.approx(b.final_score)


def test_class_outranks_variable_by_1_5_kind_points(ranked: QueryEngine) -> None:
    hits = ranked.search_code("config", limit=20, explain=True).hits
    cls, var = by(hits, name="Config", kind="class"), by(hits, name="config", kind="variable")
    assert cls.breakdown.kind_match - var.breakdown.kind_match == pytest.approx(1.5)


def test_exact_variable_beats_partial_class(ranked: QueryEngine) -> None:
    hits = ranked.search_code("UserService", limit=20, explain=True).hits
    variable, factory = by(hits, name="UserService"), by(hits, name="UserServiceFactory")
    assert variable.breakdown.effective("exact_match_boost") == 5.0
    assert factory.breakdown.effective("exact_match_boost") == 0.0
    assert hits.index(variable) < hits.index(factory)


def test_class_struct_function_kind_tiers(ranked: QueryEngine) -> None:
    hits = ranked.search_code("Handler", limit=20, explain=True).hits
    cls = by(hits, name="Handler", kind="class")
    struct = by(hits, name="Handler", kind="struct")
    func = by(hits, name="handler", kind="function")
    assert (cls.breakdown.kind_match, struct.breakdown.kind_match, func.breakdown.kind_match) == (3.0, 2.8, 1.5)
    boosts = [h.breakdown.total_boost for h in (cls, struct, func)]
    assert boosts == sorted(boosts, reverse=True) and len(set(boosts)) == 3


def test_intent_stacks_to_3_for_a_type_query(ranked: QueryEngine) -> None:
    hit = ranked.locate_symbol("Config", explain=True).hits[0]
    assert (hit.kind, hit.breakdown.effective("kind_weight"), hit.breakdown.effective("query_intent_boost")) == \
        ("class", 2.0, 1.0)


def test_constant_outranks_module(ranked: QueryEngine) -> None:
    hits = ranked.locate_symbol("utils", explain=True).hits
    const, module = by(hits, name="UTILS"), by(hits, name="utils")
    assert (const.kind, module.kind) == ("constant", "module")
    assert const.breakdown.kind_match - module.breakdown.kind_match == pytest.approx(0.2)


def test_test_file_costs_exactly_half_a_point(ranked: QueryEngine) -> None:
    hits = ranked.locate_symbol("Serve", explain=True).hits
    plain, test = by(hits, path="pkg/handler.go"), by(hits, path="pkg/handler_test.go")
    assert test.breakdown.effective("test_file_penalty") == -0.5
    assert plain.breakdown.effective("test_file_penalty") == 0.0
    assert plain.breakdown.total_boost - test.breakdown.total_boost == 0.5
    assert hits.index(plain) < hits.index(test)


def test_attestation_is_not_a_test_file(ranked: QueryEngine) -> None:
    hit = ranked.locate_symbol("Attest", explain=True).hits[0]
    assert hit.path == "pkg/attestation.go"
    assert hit.breakdown.effective("test_file_penalty") == 0.0
    assert hit.breakdown.effective("path_affinity") == 1.0  # "attest" is in the path


def test_definitions_get_the_definition_boost_snippets_do_not(ranked: QueryEngine) -> None:
    hits = ranked.search_code("makeService", limit=30, explain=True).hits
    types = {h.result_type for h in hits}
    assert "symbol" in types and types & {"snippet", "file"}
    for hit in hits:
        assert hit.breakdown.effective("definition_boost") == (1.0 if hit.result_type == "symbol" else 0.0)


def test_explain_off_builds_no_breakdown(ranked: QueryEngine) -> None:
    assert all(h.breakdown is None for h in ranked.search_code("Handler").hits)
    assert all(h.breakdown is None for h in ranked.locate_symbol("Handler").hits)


def test_result_index_follows_emitted_order(ranked: QueryEngine) -> None:
    hits = ranked.search_code("Handler", explain=True).hits
    assert [h.breakdown.result_index for h in hits] == list(range(len(hits)))
    assert [h.breakdown.basic()["result_index"] for h in hits] == list(range(len(hits)))
