"""detail_level, compact, dedup, explain levels and the payload safety limit."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from cruxgate.reference.config import Config
from cruxgate.reference.protocol.encoding import encoded_size
from cruxgate.reference.protocol.explain import ranking_reasons, resolve_level
from cruxgate.reference.protocol.metadata import build_metadata
from cruxgate.reference.protocol.safety import apply_safety_limit
from cruxgate.reference.protocol.shaping import shape_hit, without_nulls


@dataclass
class Hit:
    result_id: str
    path: str = "src/a.py"
    line_start: int = 1
    line_end: int = 3
    result_type: str = "symbol"
    symbol_id: int | None = 7
    symbol_stable_id: str | None = "s7"
    kind: str | None = "function"
    name: str | None = "f"
    qualified_name: str | None = "m.f"
    signature: str | None = "def f()"
    language: str | None = "python"
    visibility: str | None = "public"
    body_preview: str | None = "def f():\n    return 1"
    parent: dict[str, Any] | None = None
    related_symbols: list[Any] = field(default_factory=list)
    snippet: str | None = None
    score: float = 12.5
    bm25_score: float = 0.0
    signals: tuple[float, ...] = ()
    semantic_similarity: float | None = None
    semantic_score: float = 0.0
    breakdown: Any = None


LOCATION = {"path", "line_start", "line_end", "kind", "name"}
SIGNATURE = LOCATION | {"result_id", "score", "qualified_name", "signature", "language", "visibility"}
HANDLES = {"result_type", "symbol_id", "symbol_stable_id"}


def test_location_level_has_exactly_the_five_fr102_fields() -> None:
    assert set(shape_hit(Hit("r1"), "location", False)) == LOCATION


def test_signature_level_adds_fr103_fields_identity_and_score() -> None:
    assert set(shape_hit(Hit("r1"), "signature", False)) == SIGNATURE


def test_context_adds_the_symbol_handles() -> None:
    out = shape_hit(Hit("r1", parent={"kind": "class"}, related_symbols=[{"name": "g"}]), "context", False)
    assert set(out) == SIGNATURE | HANDLES | {"body_preview", "parent", "related_symbols"}


def test_context_omits_empty_parent_and_related() -> None:
    out = shape_hit(Hit("r1"), "context", False)
    assert "parent" not in out and "related_symbols" not in out and out["body_preview"].startswith("def f")
    full = shape_hit(Hit("r1", parent={"kind": "class", "name": "C"}, related_symbols=[{"name": "g"}]),
                     "context", False)
    assert full["parent"] == {"kind": "class", "name": "C"} and full["related_symbols"] == [{"name": "g"}]


def test_compact_keeps_exactly_identity_location_and_score() -> None:
    """000: compact preserves identity/location/score fields; its stable identifiers match non-compact output."""
    out = shape_hit(Hit("r1", parent={"kind": "class"}, related_symbols=[{"name": "g"}]), "context", True)
    full = shape_hit(Hit("r1", parent={"kind": "class"}, related_symbols=[{"name": "g"}]), "context", False)
    assert set(out) == LOCATION | HANDLES | {"result_id", "score"}
    assert out == {name: full[name] for name in out}
    assert out["symbol_stable_id"] == full["symbol_stable_id"]
    assert set(shape_hit(Hit("r1"), "signature", True)) == LOCATION | {"result_id", "score"}
    assert shape_hit(Hit("r1"), "location", True) == shape_hit(Hit("r1"), "location", False)  # nothing to drop


def test_nested_nulls_are_omitted() -> None:
    assert without_nulls({"a": None, "b": [{"c": None, "d": 1}], "e": {"f": None}}) == {"b": [{"d": 1}], "e": {}}
    out = shape_hit(Hit("r1", parent={"kind": "class", "name": "C", "line": None}), "context", False)
    assert out["parent"] == {"kind": "class", "name": "C"}


def test_explain_precedence_request_over_config() -> None:
    assert resolve_level("basic", Config(ranking_explain_level="full")) == "basic"
    assert resolve_level(None, Config(ranking_explain_level="full")) == "full"


def test_explain_views_are_indexed_by_the_emitted_position() -> None:
    from cruxgate.reference.query.ranking import SIGNALS, breakdown

    signals = {"exact_match_boost": 5.0, "qualified_name_boost": 2.0, "kind_weight": 1.5,
               "query_intent_boost": 0.5, "definition_boost": 1.0, "path_affinity": 0.0, "test_file_penalty": -0.5}
    raw = tuple(signals[name] for name in SIGNALS)
    hits = [Hit("a", bm25_score=3.25, signals=raw, breakdown=breakdown(signals, 3.25, result_index=9)),
            Hit("b", bm25_score=1.0, breakdown=breakdown({}, 1.0))]
    assert ranking_reasons(hits, "off") is None
    basic = ranking_reasons(hits, "basic")
    assert [r["result_index"] for r in basic] == [0, 1]
    assert set(basic[0]) == {"result_index", "exact_match", "path_boost", "definition_boost",
                             "semantic_similarity", "final_score"}
    assert basic[0]["exact_match"] == 1.0 and basic[0]["path_boost"] == 0.0
    full = ranking_reasons(hits, "full")[0]
    assert {"result_index", "exact_match_boost", "qualified_name_boost", "path_affinity", "definition_boost",
            "kind_match", "bm25_score", "final_score"} <= set(full)
    assert full["result_index"] == 0 and "signals" not in full
    assert full["kind_match"] == 2.0
    assert full["final_score"] == pytest.approx(3.25 + 5.0 + 2.0 + 1.5 + 0.5 + 1.0 + 0.0 - 0.5)


def test_basic_reasons_read_off_the_signals_equal_the_breakdowns_basic_view() -> None:
    from cruxgate.reference.query.ranking import breakdown

    cases = [((5.0, 2.0, 1.5, 0.5, 1.0, 1.0, -0.5), 3.25, 0.8),  # every signal at work, a semantic score
             ((0.0, 0.0, 0.7, 0.0, 1.0, 0.0, 0.0), 11.123456789, None),  # a score that needs rounding
             ((9.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0), 1.0, None),  # out of range: clamped like a Breakdown's
             ((), 2.5, None)]  # no signals kept: all zero
    hits = [Hit(f"r{i}", bm25_score=bm25, signals=raw, semantic_similarity=similarity,
                breakdown=breakdown(raw, bm25, result_index=i, semantic_similarity=similarity))
            for i, (raw, bm25, similarity) in enumerate(cases)]
    from_breakdowns = [{k: round(v, 6) if isinstance(v, float) else v for k, v in hit.breakdown.basic().items()}
                       for hit in hits]
    assert ranking_reasons(hits, "basic") == from_breakdowns
    assert from_breakdowns[2]["exact_match"] == 1.0 and from_breakdowns[2]["definition_boost"] == 1.0


def test_explain_floats_have_the_score_precision() -> None:
    from cruxgate.reference.query.ranking import breakdown

    hits = [Hit("a", score=10.123456789, bm25_score=5.123456789, signals=(5.0,),
                breakdown=breakdown({"exact_match_boost": 5.0}, 5.123456789))]
    for level in ("basic", "full"):
        reason = ranking_reasons(hits, level)[0]
        assert reason["final_score"] == 10.123457 == shape_hit(hits[0], "signature", False)["score"]
        assert all(v == round(v, 6) for v in reason.values() if isinstance(v, float))


def payload(n: int, reasons: bool = False) -> dict[str, Any]:
    meta = build_metadata("ready")
    if reasons:
        meta["ranking_reasons"] = [{"result_index": i, "final_score": 1.0} for i in range(n)]
    return {"results": [{"result_id": f"r{i}", "body": "x" * 200} for i in range(n)], "metadata": meta}


def test_under_the_limit_is_untouched() -> None:
    small = payload(2)
    assert apply_safety_limit(small, "results", 65536, "search_code") is small


def test_over_the_limit_keeps_a_deterministic_fitting_prefix() -> None:
    big = payload(50, reasons=True)
    out = apply_safety_limit(big, "results", 2048, "search_code")
    again = apply_safety_limit(payload(50, reasons=True), "results", 2048, "search_code")
    assert out == again
    assert encoded_size(out) <= 2048
    kept = len(out["results"])
    assert 0 < kept < 50 and [r["result_id"] for r in out["results"]] == [f"r{i}" for i in range(kept)]
    assert len(out["metadata"]["ranking_reasons"]) == kept
    assert out["metadata"]["result_completeness"] == "truncated" and out["metadata"]["safety_limit_applied"] is True
    assert out["suggested_next_actions"] and all(isinstance(a, str) for a in out["suggested_next_actions"])
    # One more result would not have fit.
    assert encoded_size({**out, "results": big["results"][: kept + 1]}) > 2048


def test_never_truncates_twice() -> None:
    already = payload(50)
    already["metadata"]["result_completeness"] = "truncated"
    assert apply_safety_limit(already, "results", 1024, "search_code") is already
