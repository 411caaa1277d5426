"""The breaker catalogue: one rewrite per MUST statement, each breaking that rule alone, and the scenario that owns it.

The allowed-rewrites proxy applies one of these with `--break NAME` to every tools/call answer of the server
behind it; tests/conformance/test_breakers.py runs the owning scenario through it and asserts that the scenario
fails, and docs/breakers.md (generated from this table) lists statement -> breaker -> killing scenario.
A rewrite receives the payload (changed in place), the call's arguments and the tool's name.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Rewrite = Callable[[dict[str, Any], dict[str, Any], str], None]


@dataclass(frozen=True, slots=True)
class Breaker:
    """One rule broken on purpose: its name, the scenario that must fail, the statement's words and the rewrite."""

    name: str
    scenario: str
    source: str  # the seed ("000") and line of the statement
    quote: str   # the statement's own words (a MUST, or a number being enforced)
    rewrite: Rewrite
    sample: bool = False  # run in the default test run (the rest on demand: --breakers=all)
    listing: bool = False  # the rewrite also receives each tools/list answer, as tool LISTING ("tools/list")

    @property
    def summary(self) -> str:
        """What the rewrite does (its docstring's first line)."""
        return (self.rewrite.__doc__ or "").strip().splitlines()[0]


def metadata_of(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload's metadata object ({} when there is none)."""
    metadata = payload.get("metadata")
    return metadata if isinstance(metadata, dict) else {}


def results_of(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The payload's results that are objects."""
    return [result for result in payload.get("results") or [] if isinstance(result, dict)]


_metadata, _results = metadata_of, results_of


def no_metadata(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Answer every tool call without `metadata` at all."""
    payload.pop("metadata", None)


def compact_drops_stable_id(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Under compact, drop each result's symbol_stable_id (the stable identifier)."""
    if args.get("compact") is True:
        for result in _results(payload):
            result.pop("symbol_stable_id", None)


def truncation_not_prefix(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A truncated answer whose first result is right but whose second and third are swapped."""
    results = _results(payload)
    if _metadata(payload).get("safety_limit_applied") and len(results) >= 3:
        payload["results"][1], payload["results"][2] = payload["results"][2], payload["results"][1]


def semantic_budget_missing(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Hybrid search ran, but semantic_limit_used is not reported."""
    if _metadata(payload).get("semantic_triggered") is True:
        payload["metadata"].pop("semantic_limit_used", None)


def kind_changes_the_answer(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search_code accepts `kind` and filters by it: fewer results than without it (neither rejected nor ignored)."""
    if tool == "search_code" and "kind" in args:
        if "error" in payload:  # a server that rejects: make it accept instead, with no result
            payload.pop("error")
            payload["results"] = []
        elif len(_results(payload)) > 1:
            payload["results"].pop()


def over_budget(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A wide answer that ignores the 64 KB default budget: results repeated past 64 KB, said complete."""
    if not _metadata(payload).get("safety_limit_applied"):
        return
    base = list(payload.get("results") or [])
    while base and len(json.dumps(payload)) <= 70_000:
        payload["results"] = payload["results"] + [dict(result, line_start=result.get("line_start", 0) + 10_000)
                                                   for result in base]
    payload["metadata"].pop("safety_limit_applied", None)
    payload["metadata"]["result_completeness"] = "complete"


def no_prewarm_status(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """health_check reports no prewarm status at all (under any name)."""
    if tool == "health_check":
        payload.pop("prewarm", None)


def no_startup_checks(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """health_check and index_status report no startup compatibility at all."""
    if tool in ("health_check", "index_status"):
        payload.pop("startup_checks", None)


def duplicates_without_ids(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """No result carries its identity handle, and locate_symbol emits its first symbol twice."""
    for result in _results(payload):
        result.pop("result_id", None)
    if tool == "locate_symbol" and _results(payload):
        payload["results"].append(dict(payload["results"][0]))


def role_keeps_snippets(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search_code with a role answers without result types and with a snippet among the symbols."""
    if tool == "search_code" and "role" in args and _results(payload):
        for result in _results(payload):
            result.pop("result_type", None)
        payload["results"].append({"path": "README.md", "line_start": 1, "line_end": 3})


def spec_and_test_dirs_unpenalized(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Test-file detection that knows only `_test.`, `.test.`, `/tests/` and `test_`, in lower case."""
    results = _results(payload)
    reasons = [entry for entry in _metadata(payload).get("ranking_reasons") or [] if isinstance(entry, dict)]
    for result, entry in zip(results, reasons, strict=False):
        path = str(result.get("path", ""))
        if not any(pattern in path for pattern in ("_test.", ".test.", "/tests/", "test_")) and \
                entry.get("test_file_penalty") == -0.5:
            entry["test_file_penalty"] = 0.0
            entry["final_score"] = entry.get("final_score", 0) + 0.5


def default_filters_kinds(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """locate_symbol without kind or role keeps only the kind of its first result."""
    results = _results(payload)
    if tool == "locate_symbol" and "kind" not in args and "role" not in args and results:
        payload["results"] = [result for result in results if result.get("kind") == results[0].get("kind")]


def kind_untiered(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Full breakdowns without kind_weight, and every kind weighted 1.0 inside kind_match (no tiers)."""
    for entry in _metadata(payload).get("ranking_reasons") or []:
        if isinstance(entry, dict) and "kind_match" in entry:
            entry.pop("kind_weight", None)
            entry["kind_match"] = 1.0 + float(entry.get("query_intent_boost") or 0.0)


def references_unlimited(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """find_references past the payload limit answers complete, without the safety-limit flag."""
    if tool == "find_references" and _metadata(payload).get("safety_limit_applied"):
        payload["metadata"].pop("safety_limit_applied")
        payload["metadata"]["result_completeness"] = "complete"


def digits_read_as_callable(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A query starting with a digit is read as callable: callable results get the +0.5 intent boost."""
    query = str(args.get("query") or args.get("name") or "")
    if query[:1].isdigit() and "_" not in query:
        for entry in _metadata(payload).get("ranking_reasons") or []:
            if isinstance(entry, dict) and entry.get("kind_match") == 1.5:
                entry["kind_match"] = 2.0
                entry["query_intent_boost"] = 0.5


def _entries(payload: dict[str, Any], marker: str) -> list[dict[str, Any]]:
    """The ranking_reasons entries that carry `marker` (exact_match: basic ones, bm25_score: full ones)."""
    reasons = _metadata(payload).get("ranking_reasons") or []
    return [entry for entry in reasons if isinstance(entry, dict) and marker in entry]


def basic_without_final_score(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Basic ranking reasons without final_score."""
    for entry in _entries(payload, "exact_match"):
        entry.pop("final_score", None)


def full_without_bm25(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Full ranking reasons without bm25_score (kind_match kept)."""
    for entry in _entries(payload, "kind_match"):
        entry.pop("bm25_score", None)


def final_score_not_the_sum(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Full breakdowns whose final_score is one more than bm25 plus the signals."""
    for entry in _entries(payload, "bm25_score"):
        if isinstance(entry.get("final_score"), (int, float)):
            entry["final_score"] += 1.0


def suppression_unreported(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Duplicates were removed, but suppressed_duplicate_count is not reported."""
    _metadata(payload).pop("suppressed_duplicate_count", None)


def suppression_zero_emitted(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """suppressed_duplicate_count 0 on answers that removed nothing."""
    metadata = _metadata(payload)
    if "results" in payload and metadata and "suppressed_duplicate_count" not in metadata:
        metadata["suppressed_duplicate_count"] = 0


def unresolved_off_by_one(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """find_references counts one unresolved edge too many."""
    if isinstance(payload.get("unresolved_count"), int):
        payload["unresolved_count"] += 1


def truncation_without_actions(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A truncated answer with no suggested_next_actions."""
    if _metadata(payload).get("safety_limit_applied"):
        payload.pop("suggested_next_actions", None)


CATALOGUE: tuple[Breaker, ...] = (
    Breaker("no_metadata", "AP-CONFIG-01", "000:115",
            "runtime explainability mode MUST resolve to canonical `full`", no_metadata),
    Breaker("compact_drops_stable_id", "AP-COMPACT-01", "000:43",
            "`compact` MUST preserve identity/location/score fields", compact_drops_stable_id, sample=True),
    Breaker("truncation_not_prefix", "AP-SAFETY-03", "000:72",
            "runtime MUST emit deterministic prefix results", truncation_not_prefix, sample=True),
    Breaker("semantic_budget_missing", "AP-SEMANTIC-02", "000:149",
            "metadata MUST include `semantic_limit_used`, `lexical_fanout_used`, and `semantic_fanout_used`",
            semantic_budget_missing),
    Breaker("kind_changes_the_answer", "AP-ROLE-06", "000:241",
            "the tool MUST reject the request or ignore the `kind` parameter", kind_changes_the_answer),
    Breaker("over_budget", "RC-BUDGET-01", "004:176",
            "Hard-code a default (64 KB) for now", over_budget),
    Breaker("no_prewarm_status", "FR-110-01", "001:51",
            "MUST report Tantivy health, SQLite integrity, grammar availability, active job status, prewarm status",
            no_prewarm_status),
    Breaker("no_startup_checks", "FR-122-01", "001:52",
            "MUST include startup compatibility payload with `index.status`, `current_schema_version`, "
            "`required_schema_version`", no_startup_checks),
    Breaker("duplicates_without_ids", "AP-DEDUP-01", "000:60",
            "final emitted results MUST keep only one representative per identity key", duplicates_without_ids),
    Breaker("role_keeps_snippets", "AP-ROLE-05", "000:237",
            "snippet/file channels MUST be omitted for that query", role_keeps_snippets),
    Breaker("spec_and_test_dirs_unpenalized", "AP-TESTPEN-05", "000:343",
            "The ranking system MUST apply a small negative boost to results from test files",
            spec_and_test_dirs_unpenalized, sample=True),
    Breaker("kind_untiered", "AP-KIND-03", "000:271",
            "The ranking system MUST apply differentiated boost scores based on symbol kind", kind_untiered),
    Breaker("references_unlimited", "FR-105c-01", "001:36",
            "FR-105c: MUST enforce hard payload safety limits", references_unlimited),
    Breaker("digits_read_as_callable", "AP-INTENT-06", "000:310",
            "The ranking system MUST apply an additional boost when the query's naming convention matches",
            digits_read_as_callable),
    Breaker("basic_without_final_score", "AP-EXPLAIN-02", "000:32",
            "response metadata MUST include `ranking_reasons` with compact normalized fields:",
            basic_without_final_score),
    Breaker("full_without_bm25", "AP-EXPLAIN-03", "000:37",
            "response metadata MUST include per-result full scoring fields:", full_without_bm25),
    Breaker("final_score_not_the_sum", "AP-SIGNALS-01", "000:187",
            "the total boost MUST be the arithmetic sum of all individual signal values", final_score_not_the_sum),
    Breaker("suppression_unreported", "AP-DEDUP-02", "000:64",
            "metadata MUST include `suppressed_duplicate_count` greater than zero", suppression_unreported),
    Breaker("suppression_zero_emitted", "RC-SUPPRESSED-01", "004:183",
            "**`suppressed_duplicate_count`**: Emit only when non-zero", suppression_zero_emitted),
    Breaker("unresolved_off_by_one", "AP-REFS-01", "000:260",
            "the response MUST include `\"unresolved_count\": 5` alongside the 3 resolved references",
            unresolved_off_by_one),
    Breaker("truncation_without_actions", "AP-SAFETY-02", "000:83",
            "the tool MUST return a valid response with deterministic `suggested_next_actions`",
            truncation_without_actions),
    Breaker("default_filters_kinds", "AP-ROLE-08", "000:204",
            "Query tools that support symbol-type filtering MUST support role-aware filtering",
            default_filters_kinds),
)
# Each document's statements keep their breakers in a module of their own (imported after Breaker, which they
# use; import them through this module).
from breakers_000 import CATALOGUE_000, STATEMENTS_000  # noqa: E402, F401  (STATEMENTS_000: re-exported)
from breakers_rest import REST  # noqa: E402 - the rows of documents 001, 002 and 004

CATALOGUE += CATALOGUE_000 + REST
BY_NAME = {breaker.name: breaker for breaker in CATALOGUE}
