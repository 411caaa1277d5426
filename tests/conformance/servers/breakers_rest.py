"""Breakers for the statements gated in spec/agent-protocol-proposal.yaml, spec/runtime-contract.yaml and
spec/scored-search.yaml (documents 001, 002 and 004, and the 000 sentences those files quote).

Each rewrite breaks one rule alone; breakers.py makes each row of REST a Breaker of its catalogue (the rows are
plain mappings, so this module needs nothing from that one). A row marked `listing=True` also receives each tools/list
answer (`{"tools": [...]}`, tool LISTING) besides every tool's answer.
"""

from __future__ import annotations

import itertools
from typing import Any

import breakers as catalogue  # it imports this module on its last line, helpers defined: import it, not this one
from breakers import Breaker

QUERY_TOOLS = ("search_code", "locate_symbol")
LISTING = "tools/list"  # the tool name a listing rewrite receives with the tools/list answer
LOCATION = ("path", "line_start", "line_end", "kind", "name")


_metadata, _results = catalogue.metadata_of, catalogue.results_of


def _error_code(payload: dict[str, Any]) -> str | None:
    error = payload.get("error")
    return error.get("code") if isinstance(error, dict) else None


def _stale_error(payload: dict[str, Any]) -> None:
    payload.clear()
    payload["error"] = {"code": "index_stale", "message": "the index is stale",
                        "data": {"remediation": "run index_repo"}}


def _listed(payload: dict[str, Any], name: str) -> dict[str, Any]:
    for tool in payload.get("tools") or []:
        if isinstance(tool, dict) and tool.get("name") == name:
            return tool
    return {}


def _unlist(payload: dict[str, Any], tool: str, *names: str) -> None:
    if tool == LISTING:
        payload["tools"] = [listed for listed in payload.get("tools") or [] if listed.get("name") not in names]


def _drop_argument(payload: dict[str, Any], tool: str, name: str, argument: str) -> None:
    if tool != LISTING:
        return
    schema = _listed(payload, name).get("inputSchema") or {}
    (schema.get("properties") or {}).pop(argument, None)
    if argument in (schema.get("required") or []):
        schema["required"].remove(argument)


# --- 001: detail levels, compact, dedup ------------------------------------------------------------------


def default_is_location(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Query tools called without detail_level answer at location (the default is not signature)."""
    if tool in QUERY_TOOLS and "detail_level" not in args:
        payload["results"] = [{key: result[key] for key in LOCATION if key in result} for result in _results(payload)]


def context_reranks(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """At detail_level context, search_code returns its results in reverse order (the level changes ranking)."""
    if tool == "search_code" and args.get("detail_level") == "context" and len(_results(payload)) > 1:
        payload["results"].reverse()


def compact_drops_score(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Under compact, results lose their score."""
    if args.get("compact") is True:
        for result in _results(payload):
            result.pop("score", None)


def dedup_after_top_k(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search_code deduplicates after the top-k cut: a full page comes back one result short."""
    results = _results(payload)
    if tool == "search_code" and results and len(results) == args.get("limit"):
        payload["results"].pop()


def compact_retrieves_less(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """compact at location level drops the last hit (compact changes retrieval, not just serialization)."""
    if args.get("compact") is True and args.get("detail_level") == "location" and len(_results(payload)) > 1:
        payload["results"].pop()


def same_stable_id_twice(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """locate_symbol emits its first symbol a second time under a new handle (same symbol_stable_id)."""
    results = _results(payload)
    if tool == "locate_symbol" and results and results[0].get("symbol_stable_id"):
        payload["results"].append(dict(results[0], result_id=f"{results[0].get('result_id', 'r')}-again",
                                       line_start=results[0].get("line_start", 1) + 1))


_CALLS = itertools.count()


def truncated_actions_vary_between_calls(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A truncated answer's suggested_next_actions change from one identical call to the next."""
    if _metadata(payload).get("safety_limit_applied") and isinstance(payload.get("suggested_next_actions"), list):
        payload["suggested_next_actions"].append(f"retry #{next(_CALLS)}")


# --- 001: outline --------------------------------------------------------------------------------------


def outline_flat(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """get_file_outline answers a flat list: every child lifted to the top level, no node has children."""
    if tool == "get_file_outline" and isinstance(payload.get("symbols"), list):
        flat: list[dict[str, Any]] = []
        pending = list(payload["symbols"])
        while pending:
            node = pending.pop(0)
            pending[:0] = node.pop("children", None) or []
            flat.append(node)
        payload["symbols"] = flat


def outline_missing_file_empty(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """get_file_outline of a file that does not exist answers an empty tree instead of file_not_found."""
    if tool == "get_file_outline" and _error_code(payload) == "file_not_found":
        payload.clear()
        payload.update({"path": args.get("path"), "symbols": [],
                        "metadata": {"indexing_status": "ready", "result_completeness": "complete",
                                     "schema_status": "compatible", "freshness_status": "fresh"}})


def outline_rejects_ref(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """get_file_outline refuses a call that passes `ref` (the argument is not accepted)."""
    if tool == "get_file_outline" and "ref" in args:
        payload.clear()
        payload["error"] = {"code": "invalid_input", "message": "unknown argument: ref"}


def parents_without_kind(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Outline nodes that have children lose their kind (the parent chain's nodes are not symbols)."""
    if tool == "get_file_outline":
        for node in payload.get("symbols") or []:
            if isinstance(node, dict) and node.get("children"):
                node.pop("kind", None)


def top_leaks_nested(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """depth top keeps each top-level symbol's children (nested symbols in a top-only outline)."""
    if tool == "get_file_outline" and args.get("depth") == "top":
        for node in payload.get("symbols") or []:
            if isinstance(node, dict) and node.get("kind") in ("class", "struct", "interface", "trait", "impl"):
                node["children"] = [{"name": f"{node.get('name')}_member", "kind": "method",
                                     "line_start": node.get("line_start", 1), "line_end": node.get("line_start", 1)}]


# --- 001: health, prewarm, explain -----------------------------------------------------------------------


def prewarm_off_by_default(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """health_check reports the prewarm as it would under --no-prewarm on every start (no prewarm by default)."""
    if tool == "health_check" and isinstance(payload.get("prewarm"), dict):
        payload["prewarm"] = {"status": "disabled"}


def no_prewarm_never_ready(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Under --no-prewarm, health_check stays warming (the flag is accepted but the server never gets ready)."""
    if tool == "health_check" and (payload.get("prewarm") or {}).get("status") == "disabled":
        payload["status"] = "warming"


def explain_dropped_on_locate(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """locate_symbol at explain basic or full answers without ranking_reasons."""
    if tool == "locate_symbol" and args.get("ranking_explain_level") in ("basic", "full"):
        _metadata(payload).pop("ranking_reasons", None)


def basic_as_full(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search_code at explain basic emits the full breakdown (bm25_score and every signal)."""
    if tool == "search_code" and args.get("ranking_explain_level") == "basic":
        for index, entry in enumerate(_metadata(payload).get("ranking_reasons") or []):
            if isinstance(entry, dict):
                entry.update({"result_index": index, "bm25_score": entry.get("final_score", 0.0), "kind_match": 1.0,
                              "qualified_name_boost": 0.0, "path_affinity": 0.0, "test_file_penalty": 0.0})


def basic_renames_path_boost(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Basic ranking reasons name path_boost `path_affinity` (an unstandardized factor name)."""
    for entry in _metadata(payload).get("ranking_reasons") or []:
        if isinstance(entry, dict) and "exact_match" in entry and "path_boost" in entry:
            entry["path_affinity"] = entry.pop("path_boost")


def config_explain_ignored(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Calls without ranking_explain_level get no ranking_reasons whatever the config says (config ignored)."""
    if tool in QUERY_TOOLS and "ranking_explain_level" not in args:
        _metadata(payload).pop("ranking_reasons", None)


# --- 001: freshness --------------------------------------------------------------------------------------


def default_policy_hides_staleness(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Under the default policy a stale index is reported fresh (no pre-query freshness check)."""
    if "freshness_policy" not in args and _metadata(payload).get("freshness_status") in ("stale", "syncing"):
        payload["metadata"]["freshness_status"] = "fresh"


def strict_answers_stale(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Under strict, a stale index is answered (with results) instead of blocked."""
    if args.get("freshness_policy") == "strict" and _error_code(payload) == "index_stale":
        payload.clear()
        payload.update({"results": [{"path": "src/config.py", "line_start": 1, "line_end": 2, "kind": "class",
                                     "name": "Config"}],
                        "metadata": {"indexing_status": "ready", "result_completeness": "complete",
                                     "schema_status": "compatible", "freshness_status": "stale"}})


def balanced_blocks(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Under an explicit balanced policy, a stale index blocks the query as strict would."""
    stale = _metadata(payload).get("freshness_status") in ("stale", "syncing")
    if args.get("freshness_policy") == "balanced" and stale:
        _stale_error(payload)


def best_effort_claims_sync(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Under best_effort, a stale answer says a sync is running (best_effort is not supposed to sync)."""
    if args.get("freshness_policy") == "best_effort" and _metadata(payload).get("freshness_status") == "stale":
        payload["metadata"]["freshness_status"] = "syncing"


# --- 004: canonical enums ----------------------------------------------------------------------------------


def startup_status_idle(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """health_check's startup compatibility says index status `idle` (the legacy alias, written back out)."""
    index = (payload.get("startup_checks") or {}).get("index")
    if tool == "health_check" and isinstance(index, dict) and index.get("status") == "ready":
        index["status"] = "idle"


def index_status_partial_available(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """index_status reports indexing_status `partial_available` (the legacy alias, written back out)."""
    if tool == "index_status" and _metadata(payload).get("indexing_status") == "ready":
        payload["metadata"]["indexing_status"] = "partial_available"


def sync_said_complete(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """get_file_outline reports a sync in progress (indexing_status indexing) with complete results."""
    if tool == "get_file_outline" and _metadata(payload).get("indexing_status") == "ready":
        payload["metadata"]["indexing_status"] = "indexing"


# --- 002: scored search ------------------------------------------------------------------------------------


def scores_out_of_range(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search scores on a 0-10 scale instead of 0.0-1.0."""
    if tool == "search":
        for result in _results(payload):
            if isinstance(result.get("score"), (int, float)):
                result["score"] *= 10


def preview_whole_content(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search in preview mode previews six lines instead of two or three."""
    if tool == "search" and args.get("preview_mode") is True:
        for result in _results(payload):
            result["preview"] = "\n".join(f"line {number}" for number in range(1, 7))


def preview_limit_unbounded(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search_preview without limit answers more than 20 results (the default limit is not 20)."""
    results = _results(payload)
    if tool == "search_preview" and "limit" not in args and results:
        while len(payload["results"]) <= 20:
            payload["results"] = payload["results"] + [dict(result) for result in results]


# --- tools/list --------------------------------------------------------------------------------------------


def search_code_lists_no_explain(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """tools/list: search_code's input schema has no ranking_explain_level."""
    _drop_argument(payload, tool, "search_code", "ranking_explain_level")


def locate_symbol_lists_no_explain(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """tools/list: locate_symbol's input schema has no ranking_explain_level."""
    _drop_argument(payload, tool, "locate_symbol", "ranking_explain_level")


def outline_lists_no_ref(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """tools/list: get_file_outline's input schema has no ref."""
    _drop_argument(payload, tool, "get_file_outline", "ref")


def outline_lists_no_depth(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """tools/list: get_file_outline's input schema has no depth."""
    _drop_argument(payload, tool, "get_file_outline", "depth")


def references_unlisted(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """tools/list does not list find_references."""
    _unlist(payload, tool, "find_references")


def health_unlisted(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """tools/list does not list health_check."""
    _unlist(payload, tool, "health_check")


def index_status_unlisted(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """tools/list does not list index_status."""
    _unlist(payload, tool, "index_status")


_READY: list[bool] = []  # this proxy's server (one per start) has answered health_check with status ready


def listing_waits_for_ready(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """tools/list omits get_file_outline until health_check has said ready (a listing held back during prewarm)."""
    if tool == "health_check" and payload.get("status") == "ready":
        _READY.append(True)
    if not _READY:
        _unlist(payload, tool, "get_file_outline")


# The spec files whose gating statements this module breaks (docs/breakers.md lists each statement and its breakers).
DOCUMENTS = ("agent-protocol-proposal", "runtime-contract", "scored-search")
# Gating scenarios of DOCUMENTS that no breaker kills, and why (a test keeps this list exact).
UNBROKEN: dict[str, str] = {}


REST: tuple[Breaker, ...] = (
    Breaker("default_is_location", "FR-101-01", "001:29",
            "FR-101: MUST accept `detail_level` parameter with values `\"location\"`, `\"signature\"` (default)",
            default_is_location),
    Breaker("context_reranks", "FR-105-01", "001:33",
            "FR-105: `detail_level` applied to serialization only, not query/ranking logic.", context_reranks),
    Breaker("compact_drops_score", "FR-105a-01", "001:34",
            "omits large optional payload fields while preserving identity/location/score/follow-up handles",
            compact_drops_score),
    Breaker("dedup_after_top_k", "FR-105b-01", "001:35",
            "FR-105b: MUST deduplicate near-identical hits by symbol/file-region before final top-k emission",
            dedup_after_top_k),
    Breaker("outline_flat", "FR-106-01", "001:19",
            "FR-106: MUST provide a `get_file_outline` MCP tool that returns a nested symbol tree", outline_flat),
    Breaker("outline_missing_file_empty", "FR-106-02", "001:19",
            "FR-106: MUST provide a `get_file_outline` MCP tool that returns a nested symbol tree for a given "
            "file path",
            outline_missing_file_empty),
    Breaker("outline_lists_no_ref", "FR-107-01", "001:20",
            "FR-107: `get_file_outline` MUST accept `path`, `ref`, `depth` (`top` | `all`)", outline_lists_no_ref,
            listing=True),
    Breaker("outline_rejects_ref", "FR-107-03", "001:20",
            "FR-107: `get_file_outline` MUST accept `path`, `ref`, `depth` (`top` | `all`)", outline_rejects_ref),
    Breaker("parents_without_kind", "FR-108-01", "001:21",
            "FR-108: `get_file_outline` MUST query the `symbol_relations` SQLite table using `parent_symbol_id` chains",
            parents_without_kind),
    Breaker("top_leaks_nested", "FR-109-01", "001:22",
            "FR-109: `get_file_outline` with `depth: \"top\"` MUST return only symbols where `parent_symbol_id "
            "IS NULL`.",
            top_leaks_nested),
    Breaker("prewarm_off_by_default", "FR-111-01", "001:46",
            "FR-111: MUST prewarm Tantivy indices by default", prewarm_off_by_default),
    Breaker("no_prewarm_never_ready", "FR-112-01", "001:47",
            "FR-112: MUST support `--no-prewarm` CLI flag.", no_prewarm_never_ready),
    Breaker("explain_dropped_on_locate", "FR-114-01", "001:37",
            "FR-114: MUST include optional `ranking_reasons` field in metadata when `ranking_explain_level` is "
            "not `off`.",
            explain_dropped_on_locate),
    Breaker("basic_as_full", "FR-115a-01", "001:39",
            "FR-115a: MUST support `ranking_explain_level` (`off` | `basic` | `full`)", basic_as_full),
    Breaker("default_policy_hides_staleness", "FR-116-01", "001:40",
            "FR-116: MUST perform pre-query freshness check with configurable policy", default_policy_hides_staleness),
    Breaker("strict_answers_stale", "FR-117-01", "001:41",
            "FR-117: Under `strict`, MUST block queries when stale and return error with guidance.",
            strict_answers_stale),
    Breaker("balanced_blocks", "FR-118-01", "001:42",
            "FR-118: Under `balanced`, MUST return results with stale indicator and trigger async sync.",
            balanced_blocks),
    Breaker("best_effort_claims_sync", "FR-119-01", "001:43",
            "FR-119: Under `best_effort`, MUST always return results immediately without sync.",
            best_effort_claims_sync),
    Breaker("listing_waits_for_ready", "FR-121-01", "001:49",
            "FR-121: MCP handshake requests (`initialize`, `tools/list`) MUST succeed while prewarming is in progress.",
            listing_waits_for_ready, listing=True),
    Breaker("startup_status_idle", "RC-ENUMS-02", "004:43",
            "Runtime types will serialize only canonical enum values.", startup_status_idle),
    Breaker("index_status_partial_available", "RC-ENUMS-03", "004:43",
            "Runtime types will serialize only canonical enum values.", index_status_partial_available),
    # The builder table has no MUST (reading R37 for its own scenarios); metadata.json holds every row of it and
    # gates wherever a MUST scenario validates metadata, here the outline's.
    Breaker("sync_said_complete", "FR-106-01", "004:69",
            "| `syncing()`           | `indexing`        | `partial`             |", sync_said_complete),
    Breaker("config_explain_ignored", "RC-PRECEDENCE-01", "000:9", "Precedence MUST be:", config_explain_ignored),
    Breaker("compact_retrieves_less", "RC-COMPACT-01", "000:42",
            "`compact` MUST be applied at serialization stage after retrieval and ranking.", compact_retrieves_less),
    Breaker("same_stable_id_twice", "RC-DEDUP-01", "000:60",
            "final emitted results MUST keep only one representative per identity key", same_stable_id_twice),
    Breaker("truncated_actions_vary_between_calls", "RC-SAFETY-01", "000:83",
            "the tool MUST return a valid response with deterministic `suggested_next_actions`",
            truncated_actions_vary_between_calls),
    Breaker("basic_renames_path_boost", "RC-BASIC-NAMES-01", "000:23",
            "`basic`: `ranking_reasons` MUST include compact normalized factors only", basic_renames_path_boost),
    Breaker("search_code_lists_no_explain", "RC-SURFACE-01", "000:6",
            "`search_code` and `locate_symbol` MUST support explainability control using",
            search_code_lists_no_explain, listing=True),
    Breaker("locate_symbol_lists_no_explain", "RC-SURFACE-02", "000:6",
            "`search_code` and `locate_symbol` MUST support explainability control using",
            locate_symbol_lists_no_explain, listing=True),
    Breaker("outline_lists_no_depth", "RC-SURFACE-03", "001:20",
            "FR-107: `get_file_outline` MUST accept `path`, `ref`, `depth` (`top` | `all`)",
            outline_lists_no_depth, listing=True),
    Breaker("references_unlisted", "RC-SURFACE-04", "000:244",
            "The `find_references` response MUST include an `unresolved_count` field",
            references_unlisted, listing=True),
    Breaker("health_unlisted", "RC-SURFACE-05", "001:51",
            "FR-110: MUST report Tantivy health, SQLite integrity, grammar availability",
            health_unlisted, listing=True),
    Breaker("index_status_unlisted", "RC-SURFACE-06", "001:52",
            "FR-122: MUST include startup compatibility payload", index_status_unlisted, listing=True),
    Breaker("scores_out_of_range", "SS-SCORES-01", "002:179",
            "pub score: Option<f32>,  // 0.0 - 1.0 (if include_scores=true)", scores_out_of_range),
    Breaker("preview_whole_content", "SS-PREVIEW-01", "002:182",
            "pub preview: Option<String>,  // First 2-3 lines (if preview_mode=true)", preview_whole_content),
    Breaker("preview_limit_unbounded", "SS-PREVIEW-TOOL-02", "002:248",
            "\"limit\": { \"type\": \"integer\", \"default\": 20 },", preview_limit_unbounded),
)
