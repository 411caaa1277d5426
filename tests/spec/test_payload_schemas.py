"""Payload schemas accept the contract's examples and reject what the sources forbid."""

from __future__ import annotations

import copy

import pytest

from cruxgate.conformance.spec.schemas import validator_for
from cruxgate.conformance.surface.lint import load_expected_inputs

META = {"cruxe_protocol_version": "1", "freshness_status": "fresh", "indexing_status": "ready",
        "result_completeness": "complete", "ref": "live", "schema_status": "compatible"}
SYMBOL = {"result_id": "sym:1", "result_type": "symbol", "symbol_id": 1, "symbol_stable_id": "ab12",
          "score": 17.5, "path": "src/auth/handler.py", "line_start": 12, "line_end": 20,
          "kind": "function", "name": "validate_token"}
LOCATION = ("path", "line_start", "line_end", "kind", "name")
SIGNATURE = dict(SYMBOL, qualified_name="handler.validate_token", signature="def validate_token(token)",
                 language="python", visibility="public")
CONTEXT = dict(SIGNATURE, body_preview="def validate_token(token):\n    ...",
               parent={"kind": "class", "name": "AuthHandler", "path": "src/auth/handler.py", "line": 5})
FULL = {"result_index": 0, "exact_match_boost": 5.0, "qualified_name_boost": 2.0, "path_affinity": 0.0,
        "definition_boost": 1.0, "kind_match": 2.0, "kind_weight": 1.5, "query_intent_boost": 0.5,
        "test_file_penalty": 0.0, "bm25_score": 7.5, "final_score": 17.5}
BASIC = {"result_index": 0, "exact_match": 1.0, "path_boost": 0.0, "definition_boost": 1.0,
         "semantic_similarity": 0.0, "final_score": 17.5}
# Seed 002's example response, with the metadata every cruxgate tool adds.
SEED_002_RESULT = {
    "file": "src/auth/verify.rs", "line": 45,
    "content": "pub async fn verify_authentication(token: &str) -> Result<Claims> {\n    // Verify JWT token\n    ...",
    "score": 0.95, "match_reason": "FunctionName", "context": "verify_authentication",
    "preview": "pub async fn verify_authentication(token: &str) -> Result<Claims> {\n    // Verify JWT token",
}
SEED_002_EXAMPLE = {
    "query": "authentication", "total_results": 1, "search_time_ms": 45, "metadata": META,
    "results": [SEED_002_RESULT],
}


def valid(schema_id: str, instance) -> bool:
    """Whether `instance` satisfies the schema with that $id (short names allowed)."""
    return validator_for(schema_id).is_valid(instance)


GOOD = [
    ("search_code.output", {"results": [SIGNATURE], "total_results": 1, "metadata": META}),
    ("locate_symbol.output", {"results": [SYMBOL], "metadata": dict(META, ranking_reasons=[FULL])}),
    ("search_code.output", {"results": [SIGNATURE], "metadata": dict(META, ranking_reasons=[BASIC])}),
    ("search_code.output", {"results": [SYMBOL], "metadata": dict(META, result_completeness="truncated",
                                                                  safety_limit_applied=True),
                            "suggested_next_actions": ["call search_code again with limit=1"]}),
    ("result-location", {k: SYMBOL[k] for k in LOCATION}),
    ("result-signature", SIGNATURE),
    ("result-context", CONTEXT),
    # 000:201: a semantic-only symbol result the index cannot enrich has neither kind nor name
    ("result-signature", {k: v for k, v in SIGNATURE.items() if k not in ("kind", "name", "qualified_name")}),
    ("result-compact", SYMBOL),
    ("result-compact", {k: SYMBOL[k] for k in ("result_id", "path", "line_start", "line_end", "score")}),
    ("get_file_outline.output", {"path": "config/settings.ini", "symbols": [], "metadata": META}),
    ("get_file_outline.output", {"path": "src/app.py", "language": "python", "metadata": META, "symbols": [
        {"name": "App", "kind": "class", "line_start": 1, "line_end": 9,
         "children": [{"name": "run", "kind": "method", "line_start": 2, "line_end": 3}]}]}),
    ("find_references.output", {"references": [{"path": "src/a.ts", "line": 3, "edge_type": "call"}],
                                "unresolved_count": 0, "metadata": META}),
    ("health_check.output", {"status": "warming", "tantivy": {"status": "ok"}, "sqlite": {"status": "ok"},
                             "grammars": {"status": "ok", "languages": {"python": True, "rust": True}},
                             "active_jobs": [],
                             "prewarm": {"status": "warming"}, "metadata": META,
                             "startup_checks": {"index": {"status": "ready", "current_schema_version": 1,
                                                          "required_schema_version": 1}}}),
    ("index_status.output", {"metadata": dict(META, indexing_status="failed", result_completeness="partial",
                                              schema_status="reindex_required"),
                             "startup_checks": {"index": {"status": "reindex_required", "current_schema_version": 0,
                                                          "required_schema_version": 1}}}),
    ("metadata", dict(META, indexing_status="indexing", result_completeness="partial")),  # a sync is running
    ("search.output", SEED_002_EXAMPLE),
    ("search_preview.output", SEED_002_EXAMPLE),
    ("error-envelope", {"error": {"code": "index_incompatible", "message": "rebuild the index",
                                  "data": {"remediation": "cruxgate index --force .", "current_schema_version": 1,
                                           "required_schema_version": 2}},
                        "metadata": dict(META, indexing_status="failed", result_completeness="partial",
                                         schema_status="corrupt_manifest")}),
]


# What the documents leave open, in the upstream server's shapes (spec/readings.yaml): each is allowed.
READINGS_ALLOWED = [
    ("metadata", {k: v for k, v in META.items() if k not in ("cruxe_protocol_version", "ref")}),  # R1
    ("search_code.output", {"results": [SIGNATURE], "metadata": dict(META, warnings=[])}),  # R31
    ("result-signature", {k: v for k, v in SIGNATURE.items() if k != "result_id"}),  # R28
    ("result-signature", dict(SIGNATURE, kind="fn")),  # R30
    ("search_code.output", {"results": [SIGNATURE],
                            "metadata": dict(META, ranking_reasons=[dict(BASIC, exact_match=5.0)])}),  # R23
    ("health_check.output", {"status": "ready", "tantivy": True, "sqlite": True, "prewarm": "complete",  # R12-R14
                             "grammars": {"available": ["python"], "missing": []}, "active_jobs": None,
                             "metadata": META, "startup_checks": {"index": {"status": "compatible",
                                                                            "current_schema_version": 1,
                                                                            "required_schema_version": 1}}}),
    ("search.output", {k: v for k, v in dict(SEED_002_EXAMPLE, results=[dict(SEED_002_RESULT, preview=None,
                                                                              context=None)]).items()
                       if k != "metadata"}),  # R36: 002's structs serialize None as null and carry no metadata
]
GOOD += READINGS_ALLOWED


@pytest.mark.parametrize(("schema_id", "payload"), GOOD, ids=[f"{i}-{s}" for i, (s, _) in enumerate(GOOD)])
def test_contract_examples_are_valid(schema_id: str, payload) -> None:
    errors = [e.message for e in validator_for(schema_id).iter_errors(payload)]
    assert errors == []


def with_meta(**changes) -> dict:
    """A search_code payload whose metadata has `changes` (None deletes a key)."""
    meta = copy.deepcopy(META)
    for key, value in changes.items():
        meta[key] = value
    return {"results": [SIGNATURE], "metadata": meta}


BAD = {
    "legacy idle indexing_status": ("search_code.output", with_meta(indexing_status="idle")),
    "legacy partial_available completeness": ("search_code.output", with_meta(result_completeness="partial_available")),
    "null optional metadata field": ("search_code.output", with_meta(suppressed_duplicate_count=None)),
    "null unknown metadata field": ("search_code.output", with_meta(semantic_extra=None)),
    "zero suppressed_duplicate_count": ("search_code.output", with_meta(suppressed_duplicate_count=0)),
    "safety_limit_applied false": ("search_code.output", with_meta(safety_limit_applied=False)),
    "safety limit without truncated": ("search_code.output", with_meta(safety_limit_applied=True)),
    "corrupt manifest but ready": ("metadata", dict(META, schema_status="corrupt_manifest")),
    "a sync said complete": ("metadata", dict(META, indexing_status="indexing")),  # 004: syncing -> indexing / partial
    "unknown error code": ("error-envelope", {"error": {"code": "oops", "message": "x"}}),
    "error without message": ("error-envelope", {"error": {"code": "invalid_input"}}),
    "compatibility error without remediation": ("https://cruxgate.dev/schemas/error-envelope.json#/$defs/compatibility",
                                                {"error": {"code": "index_incompatible", "message": "x", "data": {}}}),
    "reasons in off mode": ("https://cruxgate.dev/schemas/metadata.json#/$defs/explain_off",
                            dict(META, ranking_reasons=[BASIC])),
    "full factors in basic mode": ("https://cruxgate.dev/schemas/metadata.json#/$defs/explain_basic",
                                   dict(META, ranking_reasons=[FULL])),
    "basic reasons missing a factor": ("ranking-reasons-basic",
                                       [{k: v for k, v in BASIC.items() if k != "path_boost"}]),
    "full reasons missing kind_match": ("ranking-reasons-full", [{k: v for k, v in FULL.items() if k != "kind_match"}]),
    "exact match boost off the table": ("ranking-reasons-full", [dict(FULL, exact_match_boost=4.0)]),
    "location with a signature field": ("result-location", SIGNATURE),
    "context with null parent": ("result-context", dict(CONTEXT, parent=None)),
    "context with empty related_symbols": ("result-context", dict(CONTEXT, related_symbols=[])),
    "compact with body_preview": ("result-compact", CONTEXT),
    "context symbol result without stable id": ("result-context",
                                                {k: v for k, v in CONTEXT.items() if k != "symbol_stable_id"}),
    "compact result without its score": ("result-compact", {k: v for k, v in SYMBOL.items() if k != "score"}),
    "location with an identity": ("result-location", dict({k: SYMBOL[k] for k in LOCATION}, result_id="sym:1")),
    "location with the symbol handles": ("result-location", SYMBOL),
    "symbol result with a kind and no name": ("result-signature", {k: v for k, v in SIGNATURE.items() if k != "name"}),
    "symbol result with a name and no kind": ("result-signature", {k: v for k, v in SIGNATURE.items() if k != "kind"}),
    "unresolved_count null": ("find_references.output", {"references": [], "unresolved_count": None, "metadata": META}),
    "unresolved_count omitted": ("find_references.output", {"references": [], "metadata": META}),
    "outline children at depth top": ("https://cruxgate.dev/schemas/get_file_outline.output.json#/$defs/top_only",
                                      {"symbols": [{"name": "A", "kind": "class", "line_start": 1, "line_end": 2,
                                                    "children": [{"name": "b", "kind": "method",
                                                                  "line_start": 1, "line_end": 1}]}]}),
    "score above 1": ("search.output", dict(SEED_002_EXAMPLE, results=[dict(SEED_002_RESULT, score=1.5)])),
    "unknown match reason": ("search.output",
                             dict(SEED_002_EXAMPLE, results=[dict(SEED_002_RESULT, match_reason="Name")])),
    "preview tool result without score": ("search_preview.output",
                                          dict(SEED_002_EXAMPLE,
                                               results=[{k: v for k, v in SEED_002_RESULT.items() if k != "score"}])),
    "success payload with error": ("search_code.output",
                                   dict(with_meta(), error={"code": "internal_error", "message": "x"})),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_schemas_reject_what_the_sources_forbid(case: str) -> None:
    schema_id, payload = BAD[case]
    assert not valid(schema_id, payload)


def test_input_schemas_name_their_tools_for_the_surface_lint() -> None:
    expected = load_expected_inputs()
    assert set(expected) == {"search_code", "locate_symbol", "get_file_outline", "find_references",
                             "health_check", "index_status", "search", "search_preview"}
    assert "kind" not in expected["search_code"]["properties"]
    assert expected["locate_symbol"]["properties"]["kind"]["enum"][:2] == ["class", "struct"]
    assert expected["search_preview"]["properties"]["min_score"]["default"] == 0.5
    assert expected["search_code"]["properties"]["detail_level"]["default"] == "signature"
