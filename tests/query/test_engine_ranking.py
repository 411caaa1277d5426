"""The ranking scenarios of seed 000 on the polyglot fixture: breakdowns carry the spec's numbers."""

from __future__ import annotations

import pytest

from cruxgate.reference.query.engine import QueryEngine
from cruxgate.reference.query.hits import Hit


def by(hits: list[Hit], **want: object) -> Hit:
    """The single hit whose attributes match `want`."""
    found = [h for h in hits if all(getattr(h, k) == v for k, v in want.items())]
    assert len(found) == 1, (want, [(h.name, h.kind, h.path) for h in hits])
    return found[0]


def test_final_score_is_bm25_plus_the_sum_of_signals(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("Serve", limit=20, explain=True).hits
    assert {h.result_type for h in hits} == {"symbol", "snippet", "file"}
    for hit in hits:
        b = hit.breakdown
        assert b is not None
        assert b.final_score == pytest.approx(b.bm25_score + sum(v.effective for v in b.signals.values()))
        assert hit.score == pytest.approx(b.final_score)


def test_class_gets_1_5_more_kind_boost_than_variable(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("config", limit=20, explain=True).hits
    cls, var = by(hits, name="Config", kind="class"), by(hits, name="config", kind="variable")
    assert (cls.breakdown.kind_match, var.breakdown.kind_match) == (2.0, 0.5)
    assert hits.index(cls) < hits.index(var)


def test_exact_variable_beats_partial_class(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("UserService", limit=20, explain=True).hits
    variable, factory = by(hits, name="UserService"), by(hits, name="UserServiceFactory")
    assert (variable.kind, factory.kind) == ("variable", "class")
    assert variable.breakdown.effective("exact_match_boost") == 5.0
    assert factory.breakdown.effective("exact_match_boost") == 0.0
    assert hits.index(variable) < hits.index(factory)


def test_uppercase_query_boosts_types_not_functions(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("UserService", limit=20, explain=True).hits
    assert by(hits, name="UserServiceFactory").breakdown.effective("query_intent_boost") == 1.0
    assert by(hits, name="userService").breakdown.effective("query_intent_boost") == 0.0


def test_underscore_query_boosts_functions_not_classes(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("validate_token", limit=20, explain=True).hits
    assert by(hits, name="validate_token").breakdown.effective("query_intent_boost") == 0.5
    assert by(hits, name="ValidateToken").breakdown.effective("query_intent_boost") == 0.0
    assert hits[0].name == "validate_token"


def test_class_then_struct_then_function(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("Config", limit=20, explain=True).hits
    cls = by(hits, name="Config", kind="class")
    struct = by(hits, name="Config", kind="struct")
    func = by(hits, name="parse_config")
    assert (cls.breakdown.kind_match, struct.breakdown.kind_match, func.breakdown.kind_match) == (3.0, 2.8, 1.5)
    assert hits.index(cls) < hits.index(struct) < hits.index(func)


def test_intent_stacks_with_kind_weight_to_3(polyglot: QueryEngine) -> None:
    hit = polyglot.locate_symbol("Config", limit=10, explain=True).hits[0]
    assert (hit.kind, hit.breakdown.effective("kind_weight"), hit.breakdown.effective("query_intent_boost")) == \
        ("class", 2.0, 1.0)


def test_constant_outranks_module(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("utils", limit=10, explain=True).hits
    const, module = by(hits, name="UTILS"), by(hits, name="utils")
    assert (const.kind, module.kind) == ("constant", "module")
    assert const.breakdown.kind_match - module.breakdown.kind_match == pytest.approx(0.2)
    assert hits.index(const) < hits.index(module)


def test_field_kind_weighs_nothing(polyglot: QueryEngine) -> None:
    hits = polyglot.locate_symbol("debug", limit=10, explain=True).hits
    assert hits and all(h.kind == "field" and h.breakdown.effective("kind_weight") == 0.0 for h in hits)


def test_test_file_ranks_exactly_half_a_point_lower(polyglot: QueryEngine) -> None:
    hits = polyglot.locate_symbol("Serve", limit=10, explain=True).hits
    plain, test = by(hits, path="pkg/handler.go"), by(hits, path="pkg/handler_test.go")
    assert (plain.breakdown.effective("test_file_penalty"), test.breakdown.effective("test_file_penalty")) == \
        (0.0, -0.5)
    assert plain.breakdown.total_boost - test.breakdown.total_boost == 0.5
    assert hits.index(plain) < hits.index(test)


@pytest.mark.parametrize(("name", "path", "penalty"), [
    ("TestHandlerRoutes", "src/tests/handler_test.go", -0.5),  # two patterns, applied once
    ("TestUtil", "src/test_utils.go", -0.5),
    ("routesSpec", "src/api/routes.spec.ts", -0.5),
    ("test_handle_rejects_empty_token", "src/auth/test_handler.py", -0.5),
    ("Attest", "src/attestation.go", 0.0),  # "test" inside a word matches no pattern
])
def test_test_file_patterns(polyglot: QueryEngine, name: str, path: str, penalty: float) -> None:
    hit = polyglot.locate_symbol(name, limit=10, explain=True).hits[0]
    assert hit.path == path
    assert hit.breakdown.effective("test_file_penalty") == penalty


def test_exact_match_in_a_test_file_still_ranks_first(polyglot: QueryEngine) -> None:
    top = polyglot.search_code("HandlerTest", limit=10, explain=True).hits[0]
    assert (top.name, top.path) == ("HandlerTest", "src/api/handler.test.ts")
    assert top.breakdown.effective("test_file_penalty") == -0.5 and top.breakdown.total_boost == 10.5


def test_name_match_outranks_body_match(polyglot: QueryEngine) -> None:
    hits = [h for h in polyglot.search_code("parse", limit=10).hits if h.result_type == "symbol"]
    assert hits[0].name == "parse_config"


def test_path_affinity(polyglot: QueryEngine) -> None:
    hit = polyglot.locate_symbol("Attest", limit=10, explain=True).hits[0]
    assert hit.breakdown.effective("path_affinity") == 1.0  # "attest" is in src/attestation.go


def test_snippets_and_files_get_no_definition_boost(polyglot: QueryEngine) -> None:
    for hit in polyglot.search_code("Serve", limit=20, explain=True).hits:
        assert hit.breakdown.effective("definition_boost") == (1.0 if hit.result_type == "symbol" else 0.0)


def test_explain_off_builds_no_breakdown(polyglot: QueryEngine) -> None:
    assert all(h.breakdown is None for h in polyglot.search_code("Config", limit=10).hits)
    assert all(h.breakdown is None for h in polyglot.locate_symbol("Config", limit=10).hits)


def test_result_index_follows_emitted_order(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("Config", limit=10, explain=True).hits
    assert [h.breakdown.result_index for h in hits] == list(range(len(hits)))
    assert [h.breakdown.basic()["result_index"] for h in hits] == list(range(len(hits)))
