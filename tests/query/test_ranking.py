"""The ranking formula with the spec's own numbers (seed 000: signals, kind tiers, intent, test penalty)."""

from __future__ import annotations

from typing import Any

import pytest

from cruxgate.reference.query import ranking
from cruxgate.reference.query.ranking import QueryFeatures, boost, breakdown, explain, kind_weight, query_intent


def signals_of(query: str, **result: str | None) -> dict[str, float]:
    """Each signal's raw value for one result, by name."""
    args: dict[str, Any] = {"result_type": "symbol", "name": None, "qualified_name": None, "kind": None,
                            "path": "src/a.py"}
    args.update(result)
    return dict(zip(ranking.SIGNALS, ranking.raw_signals(QueryFeatures.of(query), **args), strict=True))


def test_signals_compose_additively_to_8_5() -> None:
    # 5.0 + 0.0 + 2.0 + 1.0 + 1.0 + 0.0 + (-0.5) = 8.5, the spec's example.
    values = {"exact_match_boost": 5.0, "qualified_name_boost": 0.0, "kind_weight": 2.0,
              "query_intent_boost": 1.0, "definition_boost": 1.0, "path_affinity": 0.0,
              "test_file_penalty": -0.5}
    assert ranking.total_boost(values) == 8.5
    assert breakdown(values, bm25_score=3.25).final_score == 3.25 + 8.5


def test_exact_class_in_test_file_sums_its_signals() -> None:
    s = signals_of("UserService", name="UserService", qualified_name="UserService", kind="class",
                   path="src/tests/user_service.py")
    assert s == {"exact_match_boost": 5.0, "qualified_name_boost": 2.0, "kind_weight": 2.0,
                 "query_intent_boost": 1.0, "definition_boost": 1.0, "path_affinity": 0.0,
                 "test_file_penalty": -0.5}
    assert boost(QueryFeatures.of("UserService"), "symbol", "UserService", "UserService", "class",
                 "src/tests/user_service.py") == sum(s.values()) == 10.5


def test_zero_signals_leave_only_the_variable_weight_0_5() -> None:
    # The spec's floor example counts no definition boost, so it is a non-definition result.
    s = signals_of("zzz", result_type="snippet", name="config", qualified_name="app.config",
                   kind="variable", path="src/settings.py")
    assert sum(s.values()) == 0.5
    assert [k for k, v in s.items() if v] == ["kind_weight"]


def test_minimum_boost_is_zero_never_negative() -> None:
    s = signals_of("zzz", result_type="snippet", kind="variable", path="pkg/handler_test.go")
    assert sum(s.values()) == 0.0


def test_maximum_boost_is_12() -> None:
    s = signals_of("Config", name="Config", qualified_name="app::config::Config", kind="class",
                   path="src/Config/mod.rs")
    assert sum(s.values()) == 12.0


def test_breakdown_kind_match_is_weight_plus_intent() -> None:
    b = explain(QueryFeatures.of("UserService"), 1.0, "symbol", "UserService", "UserService", "class", "a.py")
    assert b.kind_match == 3.0
    assert b.full()["kind_match"] == b.effective("kind_weight") + b.effective("query_intent_boost")


@pytest.mark.parametrize(("kind", "weight"), [
    ("class", 2.0), ("interface", 2.0), ("trait", 2.0), ("struct", 1.8), ("enum", 1.8),
    ("type_alias", 1.5), ("function", 1.5), ("method", 1.5), ("constant", 1.0), ("module", 0.8),
    ("variable", 0.5), ("field", 0.0), ("macro", 0.0), (None, 0.0),
])
def test_kind_weight_tiers(kind: str | None, weight: float) -> None:
    assert kind_weight(kind) == weight


def test_class_gets_1_5_more_kind_boost_than_variable() -> None:
    cls = signals_of("config", name="Config", kind="class")
    var = signals_of("config", name="config", kind="variable")
    kind_boost = lambda s: s["kind_weight"] + s["query_intent_boost"]  # noqa: E731
    assert kind_boost(cls) - kind_boost(var) == 1.5


def test_exact_variable_outranks_partial_class() -> None:
    q = QueryFeatures.of("UserService")
    variable = boost(q, "symbol", "UserService", "app.UserService", "variable", "a.py")
    factory = boost(q, "symbol", "UserServiceFactory", "app.UserServiceFactory", "class", "a.py")
    assert variable > factory
    assert variable - factory == pytest.approx(2.5)


def test_class_then_struct_then_function_with_equal_scores() -> None:
    q = QueryFeatures.of("Handler")
    kinds = ("function", "struct", "class")
    scores = {kind: 1.0 + boost(q, "symbol", f"{kind}X", None, kind, "a.go") for kind in kinds}
    assert sorted(scores, key=scores.__getitem__, reverse=True) == ["class", "struct", "function"]
    assert kind_weight("class") > kind_weight("struct") > kind_weight("function")


def test_constant_outranks_module() -> None:
    q = QueryFeatures.of("utils")
    constant = boost(q, "symbol", "UTILS", "UTILS", "constant", "src/a.py")
    module = boost(q, "symbol", "utils", "utils", "module", "src/a.py")
    assert constant - module == pytest.approx(0.2)


@pytest.mark.parametrize(("query", "intent"), [
    ("UserService", "type"), ("Config", "type"), ("HttpClient", "type"),
    ("validate_token", "callable"), ("getUser", "callable"), ("parse_config", "callable"),
    ("User_service", "callable"), ("A", "type"), ("x", "callable"), ("42", None), ("", None),
])
def test_query_intent(query: str, intent: str | None) -> None:
    assert query_intent(query) == intent


def test_uppercase_query_boosts_the_class_not_the_function() -> None:
    assert signals_of("UserService", name="UserService", kind="class")["query_intent_boost"] == 1.0
    assert signals_of("UserService", name="userService", kind="function")["query_intent_boost"] == 0.0


def test_underscore_query_boosts_the_function_not_the_class() -> None:
    assert signals_of("validate_token", name="validate_token", kind="function")["query_intent_boost"] == 0.5
    assert signals_of("validate_token", name="ValidateToken", kind="class")["query_intent_boost"] == 0.0


def test_intent_stacks_with_kind_weight_to_3_0() -> None:
    s = signals_of("UserService", name="UserService", kind="class")
    assert s["kind_weight"] + s["query_intent_boost"] == 3.0


@pytest.mark.parametrize(("path", "penalty"), [
    ("pkg/handler_test.go", -0.5), ("web/handler.test.ts", -0.5), ("web/handler.spec.ts", -0.5),
    ("src/test/Handler.java", -0.5), ("src/tests/handler.rs", -0.5), ("test_handler.py", -0.5),
    ("src/tests/handler_test.go", -0.5), ("src/test_utils.go", -0.5), ("SRC/TESTS/X.PY", -0.5),
    ("tests/helpers.py", -0.5), ("src/attestation.go", 0.0), ("pkg/handler.go", 0.0),
    ("src/contest/latest.py", 0.0),
])
def test_test_file_penalty(path: str, penalty: float) -> None:
    assert ranking.test_file_penalty(path) == penalty


def test_test_file_ranks_exactly_half_a_point_lower() -> None:
    q = QueryFeatures.of("serve")
    plain = boost(q, "symbol", "Serve", None, "function", "pkg/handler.go")
    test = boost(q, "symbol", "Serve", None, "function", "pkg/handler_test.go")
    assert plain - test == 0.5


def test_exact_class_in_test_file_still_beats_partial_variable() -> None:
    q = QueryFeatures.of("Handler")
    test_class = boost(q, "symbol", "Handler", None, "class", "pkg/handler_test.go")
    partial_var = boost(q, "snippet", None, None, "variable", "pkg/other.go")
    assert test_class == 9.5 and partial_var == 0.5  # the spec: "≈ 9.5" vs "≈ 0.5" and test_class > partial_var


def test_exact_match_is_case_insensitive_and_qualified_is_a_substring() -> None:
    s = signals_of("CONFIG", name="config", qualified_name="app::config::Config")
    assert s["exact_match_boost"] == 5.0 and s["qualified_name_boost"] == 2.0
    s = signals_of("conf", name="config", qualified_name="app::config::Config", path="src/conf.py")
    assert s["exact_match_boost"] == 0.0 and s["qualified_name_boost"] == 2.0 and s["path_affinity"] == 1.0


def test_definition_boost_only_for_symbols_the_index_holds() -> None:
    assert signals_of("x", result_type="symbol", kind="variable")["definition_boost"] == 1.0
    assert signals_of("x", result_type="symbol", kind="field")["definition_boost"] == 1.0  # off the kind table
    assert signals_of("x", result_type="symbol")["definition_boost"] == 0.0  # not enriched: no kind
    assert signals_of("x", result_type="snippet")["definition_boost"] == 0.0
    assert signals_of("x", result_type="file")["definition_boost"] == 0.0


def test_breakdown_raw_clamped_effective() -> None:
    b = breakdown({"exact_match_boost": 7.0, "test_file_penalty": -2.0, "kind_weight": 1.5}, bm25_score=2.0)
    assert b.signals["exact_match_boost"].as_dict() == {"raw": 7.0, "clamped": 5.0, "effective": 5.0}
    assert b.signals["test_file_penalty"].as_dict() == {"raw": -2.0, "clamped": -0.5, "effective": -0.5}
    assert b.total_boost == 6.0 and b.final_score == 8.0


def test_full_and_basic_views() -> None:
    b = explain(QueryFeatures.of("validate_token"), 4.0, "symbol", "validate_token", "auth.validate_token",
                "function", "src/auth/validate_token.py", result_index=2)
    full = b.full()
    for name in ("result_index", "exact_match_boost", "qualified_name_boost", "path_affinity",
                 "definition_boost", "kind_match", "bm25_score", "final_score"):
        assert name in full
    assert full["result_index"] == 2 and full["bm25_score"] == 4.0
    assert full["final_score"] == 4.0 + 5.0 + 2.0 + 2.0 + 1.0 + 1.0
    assert set(full["signals"]) == set(ranking.SIGNALS)
    assert b.basic() == {"result_index": 2, "exact_match": 1.0, "path_boost": 1.0, "definition_boost": 1.0,
                         "semantic_similarity": 0.0, "final_score": full["final_score"]}
    assert b.at(0).basic()["result_index"] == 0


def test_breakdown_of_a_tuple_pads_clamps_and_keeps_the_sum() -> None:
    short = breakdown((5.0, 2.0), bm25_score=1)
    assert short.values == (5.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0) and short.final_score == 8.0
    over = breakdown((9.0, 0.0, 3.0, 0.0, 1.0, 0.0, -1.0), bm25_score=0.0)
    assert over.raw == (9.0, 0.0, 3.0, 0.0, 1.0, 0.0, -1.0)
    assert over.values == (5.0, 0.0, 2.0, 0.0, 1.0, 0.0, -0.5) and over.total_boost == 7.5
    assert over.signals["kind_weight"].as_dict() == {"raw": 3.0, "clamped": 2.0, "effective": 2.0}
    # Effective values are what ranking added: final_score is bm25 + boost(), bit for bit.
    q = QueryFeatures.of("validate_token")
    args = ("symbol", "validate_token", "auth.validate_token", "function", "tests/test_auth.py")
    assert explain(q, 3.7, *args).final_score == 3.7 + boost(q, *args)


def test_breakdown_at_moves_only_the_index() -> None:
    b = explain(QueryFeatures.of("Config"), 2.5, "symbol", "Config", "app.Config", "class", "src/a.py",
                result_index=1, semantic_similarity=0.25)
    assert b.at(1) is b  # already there: nothing to copy
    moved = b.at(4)
    assert moved.result_index == 4 and b.result_index == 1
    assert {**moved.full(), "result_index": 1} == b.full()
    assert moved.basic()["semantic_similarity"] == 0.25
