"""The breakers of document 000's statements (spec/agent-protocol.yaml), and where each MUST of 000 stands.

CATALOGUE_000 joins the breaker catalogue (servers/breakers.py imports it; import this module through that one).
STATEMENTS_000 lists every line of 000 that holds a MUST: the breakers that break it (this module's, the
catalogue's, or test_fairness.py's OWNERS), or why none can (docs/breakers.md shows both, generated).
A few breakers read the server's own config (the `--config` file on the proxy's command line) to break a
rule only where it applies, as a server with that one bug would.
"""

from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass
from itertools import count
from typing import Any

from breakers import Breaker, _entries, _metadata, _results

_CALLS = count(1)  # numbers the answers of one proxy process (a server whose output varies between calls)
TYPE_KINDS = ("class", "interface", "trait", "struct", "enum", "type_alias")
TEST_PATTERNS = ("_test.", ".test.", ".spec.", "/test/", "/tests/", "test_")


def _argument(flag: str) -> str | None:
    """The value of `flag` on the server's command line, which the proxy relays (None without it)."""
    argv = sys.argv
    return argv[argv.index(flag) + 1] if flag in argv[:-1] else None


def _config() -> dict[str, Any]:
    """The server's config, read from the `--config` argument the proxy relays ({} without one)."""
    path = _argument("--config")
    if path is None:
        return {}
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def _pairs(payload: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each result with its full breakdown (matched by result_index)."""
    results = _results(payload)
    return [(results[entry["result_index"]], entry) for entry in _entries(payload, "bm25_score")
            if isinstance(entry.get("result_index"), int) and 0 <= entry["result_index"] < len(results)]


def _shift(payload: dict[str, Any], entry: dict[str, Any], field: str, value: float) -> None:
    """Set one signal of a full breakdown and carry the change into kind_match, the boost and the score."""
    delta = value - float(entry.get(field) or 0.0)
    entry[field] = value
    if field in ("kind_weight", "query_intent_boost"):
        entry["kind_match"] = round(float(entry.get("kind_match") or 0.0) + delta, 6)
    for total in ("total_boost", "final_score"):
        if isinstance(entry.get(total), (int, float)):
            entry[total] = round(entry[total] + delta, 6)
    results = _results(payload)
    index = entry.get("result_index")
    if isinstance(index, int) and 0 <= index < len(results) and isinstance(results[index].get("score"), (int, float)):
        results[index]["score"] = round(results[index]["score"] + delta, 6)


def _as_basic(entry: dict[str, Any]) -> dict[str, Any]:
    """A full breakdown told as basic factors."""
    return {"result_index": entry.get("result_index", 0), "exact_match": entry.get("exact_match_boost", 0.0),
            "path_boost": entry.get("path_affinity", 0.0), "definition_boost": entry.get("definition_boost", 0.0),
            "semantic_similarity": 0.0, "final_score": entry.get("final_score", 0.0)}


def _basic_reasons(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """Basic factors for every result of an answer that carries none."""
    return [{"result_index": index, "exact_match": 0.0, "path_boost": 0.0, "definition_boost": 0.0,
             "semantic_similarity": 0.0, "final_score": result.get("score", 0.0)}
            for index, result in enumerate(_results(payload))]


def _ranked(tool: str, payload: dict[str, Any]) -> bool:
    return tool in ("search_code", "locate_symbol") and "results" in payload and "error" not in payload


def _move(payload: dict[str, Any], source: int, target: int) -> None:
    """Move a result (and its breakdown) from one rank to another, renumbering result_index."""
    results = payload["results"]
    reasons = _metadata(payload).get("ranking_reasons")
    results.insert(target, results.pop(source))
    if isinstance(reasons, list) and len(reasons) == len(results):
        reasons.insert(target, reasons.pop(source))
        for index, entry in enumerate(reasons):
            if isinstance(entry, dict):
                entry["result_index"] = index


# Explainability and config (000:6-37, 000:105-119)

def config_overrides_request(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """With search.ranking_explain_level basic in config, a request for full gets basic factors (config wins)."""
    level = _config().get("search", {}).get("ranking_explain_level")
    if _ranked(tool, payload) and level == "basic" and args.get("ranking_explain_level") == "full":
        _metadata(payload)["ranking_reasons"] = [_as_basic(entry) for entry in _entries(payload, "bm25_score")]


def legacy_false_gives_basic(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """debug.ranking_reasons = false (no explain level) maps to basic factors instead of off."""
    config = _config()
    if _ranked(tool, payload) and config.get("debug", {}).get("ranking_reasons") is False and \
            "ranking_explain_level" not in config.get("search", {}) and "ranking_explain_level" not in args:
        payload.setdefault("metadata", {})["ranking_reasons"] = _basic_reasons(payload)


def legacy_true_gives_basic(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """debug.ranking_reasons = true (no explain level) maps to basic factors instead of full."""
    config = _config()
    if _ranked(tool, payload) and config.get("debug", {}).get("ranking_reasons") is True and \
            "ranking_explain_level" not in args:
        _metadata(payload)["ranking_reasons"] = [_as_basic(entry) for entry in _entries(payload, "bm25_score")]


def invalid_level_not_defaulted(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A non-canonical search.ranking_explain_level in config falls to basic factors, not the default (off)."""
    level = _config().get("search", {}).get("ranking_explain_level")
    if _ranked(tool, payload) and level is not None and level not in ("off", "basic", "full") and \
            "ranking_explain_level" not in args:
        payload.setdefault("metadata", {})["ranking_reasons"] = _basic_reasons(payload)


def _invalid_freshness(args: dict[str, Any], tool: str) -> bool:
    """The config's search.freshness_policy is not a canonical policy, and the call names none of its own."""
    policy = _config().get("search", {}).get("freshness_policy")
    return tool in ("search_code", "locate_symbol") and policy is not None and \
        policy not in ("strict", "balanced", "best_effort") and "freshness_policy" not in args


def invalid_freshness_as_strict(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A non-canonical search.freshness_policy in config blocks a stale query (strict), not the default (balanced)."""
    if _invalid_freshness(args, tool) and _metadata(payload).get("freshness_status") in ("stale", "syncing"):
        metadata = _metadata(payload)
        payload.clear()
        payload["error"] = {"code": "index_stale", "message": "the index is stale",
                            "data": {"remediation": "run sync_repo, then ask again"}}
        payload["metadata"] = metadata


def invalid_freshness_never_synced(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A non-canonical search.freshness_policy in config answers as best_effort: no sync, so never fresh again."""
    if _invalid_freshness(args, tool) and _metadata(payload).get("freshness_status") in ("fresh", "syncing"):
        payload["metadata"]["freshness_status"] = "stale"


def basic_with_bm25(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Basic factors that also carry the raw bm25_score (more than the compact normalized set)."""
    for entry in _entries(payload, "exact_match"):
        entry["bm25_score"] = entry.get("final_score", 0.0)


# Errors (000:86-102)

def error_as_text(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A failure answered as a bare string under `error`, not the canonical envelope."""
    error = payload.get("error")
    if isinstance(error, dict):
        payload["error"] = f"{error.get('code')}: {error.get('message')}"


def stdio_outline_code_swapped(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Over stdio, get_file_outline answers the other path code than over HTTP (file_not_found <-> invalid_input)."""
    error = payload.get("error")
    if tool == "get_file_outline" and isinstance(error, dict):
        code = str(error.get("code"))
        error["code"] = {"file_not_found": "invalid_input", "invalid_input": "file_not_found"}.get(code, code)


def stdio_transport_code(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Over stdio, a missing argument is a transport-level code of its own (stdio_invalid_request)."""
    error = payload.get("error")
    if isinstance(error, dict) and error.get("code") == "invalid_input" and tool == "locate_symbol":
        error["code"] = "stdio_invalid_request"


def compatibility_without_remediation(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Index compatibility failures without their remediation data."""
    error = payload.get("error")
    if isinstance(error, dict) and error.get("code") in ("index_not_ready", "index_incompatible"):
        error.pop("data", None)


def stdio_unknown_enum_answered(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Over stdio, search_code answers an unknown detail_level as if absent, where HTTP rejects it."""
    error = payload.get("error")
    if tool == "search_code" and isinstance(error, dict) and args.get("detail_level") not in (
            None, "location", "signature", "context"):
        payload.clear()
        payload.update({"results": [], "metadata": {"result_completeness": "complete"}})


def stdio_incompatible_as_not_ready(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Over stdio, search_code on a corrupt or outdated index says index_not_ready (HTTP: index_incompatible)."""
    error = payload.get("error")
    if tool == "search_code" and isinstance(error, dict) and error.get("code") == "index_incompatible":
        error["code"] = "index_not_ready"


def state_word_as_code(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """locate_symbol's compatibility failure carries the index state (reindex_required) as its code."""
    error = payload.get("error")
    if tool == "locate_symbol" and isinstance(error, dict) and error.get("code") == "index_incompatible":
        error["code"] = "reindex_required"


# Safety limit (000:67-83)

def limit_exceeded_when_truncated(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A truncated answer that still exceeds the limit: its results sent twice, flags kept."""
    if _metadata(payload).get("safety_limit_applied") and _results(payload):
        payload["results"] = payload["results"] + [dict(result) for result in payload["results"]]


def limit_fails_the_call(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """An answer over the limit fails the call (internal_error) instead of degrading to a truncated prefix."""
    if _metadata(payload).get("safety_limit_applied"):
        payload.clear()
        payload["error"] = {"code": "internal_error", "message": "response exceeds max_response_bytes"}


def truncated_said_partial(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A truncated answer says result_completeness partial (safety_limit_applied kept)."""
    if _metadata(payload).get("safety_limit_applied"):
        payload["metadata"]["result_completeness"] = "partial"


def safety_flag_false_sent(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Untruncated answers carry safety_limit_applied false instead of omitting it."""
    metadata = _metadata(payload)
    if "results" in payload and metadata and "safety_limit_applied" not in metadata:
        metadata["safety_limit_applied"] = False


def truncated_actions_vary(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A truncated answer's suggested_next_actions change from call to call (a counter appended)."""
    actions = payload.get("suggested_next_actions")
    if _metadata(payload).get("safety_limit_applied") and isinstance(actions, list):
        actions.append(f"narrow the query (attempt {next(_CALLS)})")


def cut_depends_on_budget(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Above a 2048-byte budget, a truncated answer is cut from results re-ordered by path (not a prefix)."""
    budget = _config().get("search", {}).get("max_response_bytes")
    if isinstance(budget, int) and budget > 2048 and _metadata(payload).get("safety_limit_applied"):
        payload["results"] = sorted(_results(payload), key=lambda result: str(result.get("path")))


# Semantic metadata (000:122-154)

def no_semantic_mode(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search_code metadata without semantic_mode (an existing semantic field)."""
    if tool == "search_code":
        _metadata(payload).pop("semantic_mode", None)


def semantic_enabled_as_word(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """semantic_enabled as the words "true" / "false" (an existing field's meaning changed)."""
    metadata = _metadata(payload)
    if isinstance(metadata.get("semantic_enabled"), bool):
        metadata["semantic_enabled"] = str(metadata["semantic_enabled"]).lower()


def unavailable_as_null(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """The new semantic fields sent as null when they have no value, instead of omitted."""
    metadata = _metadata(payload)
    if tool == "search_code" and metadata:
        for name in ("semantic_degraded", "semantic_limit_used", "lexical_fanout_used", "semantic_fanout_used",
                     "semantic_budget_exhausted"):
            metadata.setdefault(name, None)


def degraded_unflagged(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A fallback after a semantic backend failure, without semantic_degraded."""
    metadata = _metadata(payload)
    if metadata.get("semantic_fallback") is True:
        metadata.pop("semantic_degraded", None)


def skipped_reason_varies(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """semantic_skipped_reason differs from call to call (a counter appended)."""
    metadata = _metadata(payload)
    if isinstance(metadata.get("semantic_skipped_reason"), str):
        metadata["semantic_skipped_reason"] += f" (#{next(_CALLS)})"


# Signals (000:157-201)

def variable_boost_negative(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A variable with no other signal gets a negative kind weight (-0.5) instead of 0.5."""
    for result, entry in _pairs(payload):
        if result.get("kind") == "variable":
            _shift(payload, entry, "kind_weight", -0.5)


def kind_match_without_intent(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """kind_match reports the kind weight alone (the intent boost left out of it, still in the score)."""
    for _, entry in _pairs(payload):
        intent = entry.get("query_intent_boost")
        if isinstance(intent, (int, float)) and intent and isinstance(entry.get("kind_match"), (int, float)):
            entry["kind_match"] = round(entry["kind_match"] - intent, 6)


def symbols_unenriched(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """The last symbol result of search_code comes without qualified_name (not looked up by its stable id)."""
    symbols = [result for result in _results(payload) if result.get("result_type") == "symbol"]
    if tool == "search_code" and symbols:
        symbols[-1].pop("qualified_name", None)


def enriched_unweighted(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """The last result's kind weight is 0.0 although its kind is known (signals applied before enrichment)."""
    pairs = [(result, entry) for result, entry in _pairs(payload) if entry.get("kind_weight")]
    if tool == "search_code" and pairs:
        _shift(payload, pairs[-1][1], "kind_weight", 0.0)


def unenriched_weighted(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A symbol result without a kind (not enriched) is weighed 0.5, as if an unknown kind were a variable."""
    for result, entry in _pairs(payload):
        if tool == "search_code" and result.get("result_type") == "symbol" and not result.get("kind"):
            _shift(payload, entry, "kind_weight", 0.5)


# Role filters (000:204-241)

def kind_filter_widened(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """locate_symbol with kind only also returns the other kinds of its role (a class beside the structs)."""
    results = _results(payload)
    if tool == "locate_symbol" and "kind" in args and "role" not in args and results:
        payload["results"].append(dict(results[0], kind="class", line_start=results[0].get("line_start", 0) + 500))


def role_type_without_enums(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """role type leaves out enums (a type-role kind)."""
    if args.get("role") == "type" and _results(payload):
        payload["results"] = [result for result in _results(payload) if result.get("kind") != "enum"]


def kind_and_role_as_union(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """locate_symbol with kind and role returns their union (a class beside the structs)."""
    results = _results(payload)
    if tool == "locate_symbol" and "kind" in args and "role" in args and results:
        payload["results"].append(dict(results[0], kind="class", line_start=results[0].get("line_start", 0) + 500))


def empty_intersection_falls_back(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """locate_symbol with kind and role that intersect in nothing answers the kind's symbols instead."""
    if tool == "locate_symbol" and "kind" in args and "role" in args and payload.get("results") == []:
        payload["results"] = [{"path": "src/auth/tokens.py", "line_start": 7, "line_end": 9, "kind": args["kind"],
                               "name": args.get("name", "")}]


# References (000:244-268)

def unresolved_zero_as_null(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """find_references reports no unresolved edges as null instead of 0."""
    if payload.get("unresolved_count") == 0:
        payload["unresolved_count"] = None


# The unresolved call edges to a name, bare or qualified (000's count with the import edges left out).
_UNRESOLVED_CALLS = """SELECT COUNT(*) FROM symbol_edges WHERE to_symbol_id IS NULL AND edge_type = 'call'
                       AND (to_name = ?1 OR to_name LIKE '%.' || ?1 OR to_name LIKE '%::' || ?1)"""


def unresolved_calls_only(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """unresolved_count counts the unresolved call edges alone (the import edges left out), read from the index."""
    workspace = _argument("--workspace")
    if tool != "find_references" or not isinstance(payload.get("unresolved_count"), int) or workspace is None:
        return
    from cruxgate.reference.index.reader import IndexReader  # the server's own index: what it would count

    reader = IndexReader.open(workspace)
    try:
        payload["unresolved_count"] = reader.db.execute(_UNRESOLVED_CALLS, (str(args.get("name", "")),)).fetchone()[0]
    finally:
        reader.close()


# Kind tiers (000:271-307)

def class_in_struct_tier(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Classes, interfaces and traits weighted 1.8 (the struct tier) instead of 2.0."""
    for _, entry in _pairs(payload):
        if entry.get("kind_weight") == 2.0:
            _shift(payload, entry, "kind_weight", 1.8)


KIND_TIER = {"class": 2.0, "interface": 2.0, "trait": 2.0, "struct": 1.8, "enum": 1.8, "type_alias": 1.5,
             "function": 1.5, "method": 1.5, "constant": 1.0, "module": 0.8, "variable": 0.5}


def kind_over_exact_match(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search_code ranks by kind tier first (a class above an exact-name variable), score second."""
    results = _results(payload)
    if tool == "search_code" and len(results) > 1:
        order = sorted(range(len(results)), key=lambda i: -KIND_TIER.get(str(results[i].get("kind")), 0.0))
        reasons = _metadata(payload).get("ranking_reasons")
        payload["results"] = [results[i] for i in order]
        if isinstance(reasons, list) and len(reasons) == len(results):
            payload["metadata"]["ranking_reasons"] = [dict(reasons[i], result_index=rank)
                                                      for rank, i in enumerate(order)]


def unknown_kind_weighted(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A kind outside the tier table (field) weighted 0.5 like a variable instead of 0.0."""
    for result, entry in _pairs(payload):
        if str(result.get("kind")) not in KIND_TIER and entry.get("kind_weight") == 0.0:
            _shift(payload, entry, "kind_weight", 0.5)


# Query intent (000:310-340)

def _query(args: dict[str, Any]) -> str:
    return str(args.get("query") or args.get("name") or "")


def type_intent_halved(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A type query boosts type kinds by +0.5 instead of +1.0."""
    for _, entry in _pairs(payload):
        if entry.get("query_intent_boost") == 1.0:
            _shift(payload, entry, "query_intent_boost", 0.5)


def callable_intent_doubled(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A callable query boosts functions and methods by +1.0 instead of +0.5."""
    for _, entry in _pairs(payload):
        if entry.get("query_intent_boost") == 0.5:
            _shift(payload, entry, "query_intent_boost", 1.0)


def underscore_ignored(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """An upper-case query with an underscore is read as a type query (case wins over the underscore)."""
    query = _query(args)
    if query[:1].isupper() and "_" in query:
        for result, entry in _pairs(payload):
            boost = 1.0 if result.get("kind") in TYPE_KINDS else 0.0
            if "query_intent_boost" in entry:
                _shift(payload, entry, "query_intent_boost", boost)


def single_character_ambiguous(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """A one-character query is ambiguous: no intent boost at all."""
    if len(_query(args)) == 1:
        for _, entry in _pairs(payload):
            if entry.get("query_intent_boost"):
                _shift(payload, entry, "query_intent_boost", 0.0)


def intent_replaces_kind_weight(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """The intent boost replaces the kind weight instead of stacking: kind_match is the larger of the two."""
    for _, entry in _pairs(payload):
        weight, intent = entry.get("kind_weight"), entry.get("query_intent_boost")
        if isinstance(weight, (int, float)) and isinstance(intent, (int, float)) and intent:
            _shift(payload, entry, "kind_match", max(weight, intent))


# Test-file penalty (000:343-373)

def _path_penalty(payload: dict[str, Any], matches: Any, penalty: float) -> None:
    for result, entry in _pairs(payload):
        if matches(str(result.get("path", "")).lower()):
            _shift(payload, entry, "test_file_penalty", penalty)


def go_test_suffix_unpenalized(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Files matching `_test.` alone are not penalized (0.0 instead of -0.5)."""
    _path_penalty(payload, lambda path: "_test." in path and sum(p in path for p in TEST_PATTERNS) == 1, 0.0)


def test_results_sink(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search_code puts every test-file result below the others, whatever its score."""
    results = _results(payload)
    if tool != "search_code" or len(results) != len(payload.get("results") or []):
        return
    tests = [i for i, result in enumerate(results) if any(p in str(result.get("path", "")).lower()
                                                         for p in TEST_PATTERNS)]
    for moved, index in enumerate(tests):
        _move(payload, index - moved, len(results) - 1)


def penalty_per_pattern(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """The penalty is applied once per matching pattern (-1.0 for src/tests/handler_test.go)."""
    for result, entry in _pairs(payload):
        path = str(result.get("path", "")).lower()
        hits = sum(pattern in path for pattern in TEST_PATTERNS)
        if hits > 1:
            _shift(payload, entry, "test_file_penalty", -0.5 * hits)


def test_prefix_unpenalized(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Files matching `test_` alone are not penalized (the pattern read as a whole path component)."""
    _path_penalty(payload, lambda path: "test_" in path and sum(p in path for p in TEST_PATTERNS) == 1, 0.0)


def test_substring_penalized(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """Any path containing "test" is penalized (src/attestation.go too)."""
    _path_penalty(payload, lambda path: "test" in path and not any(p in path for p in TEST_PATTERNS), -0.5)


# Field boosts (000:376-402)

def _promote(payload: dict[str, Any], index: int) -> None:
    """Rank result `index` first, its breakdown and score raised just above the old first one."""
    _move(payload, index, 0)
    pairs = _pairs(payload)
    results = _results(payload)
    if len(results) > 1 and isinstance(results[1].get("score"), (int, float)):
        results[0]["score"] = results[1]["score"] + 0.1
    if len(pairs) > 1 and isinstance(pairs[1][1].get("final_score"), (int, float)):
        raise_by = pairs[1][1]["final_score"] + 0.1 - float(pairs[0][1].get("final_score") or 0.0)
        for field in ("bm25_score", "final_score"):
            pairs[0][1][field] = round(float(pairs[0][1].get(field) or 0.0) + raise_by, 6)


def body_match_first(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search_code ranks first a result that holds the query only in its body (names weighted like content)."""
    query = _query(args).lower()
    results = _results(payload)
    if tool == "search_code" and query and results:
        index = next((i for i, result in enumerate(results) if query not in str(result.get("name", "")).lower()), None)
        if index:
            _promote(payload, index)


def qualified_name_unweighted(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """search_code ranks a symbol without the queried qualified name above the one that has it."""
    query = _query(args)
    results = _results(payload)
    if tool == "search_code" and "::" in query:
        index = next((i for i, result in enumerate(results) if result.get("result_type") == "symbol" and
                      result.get("qualified_name") != query), None)
        if index:
            _promote(payload, index)


def rerank_multiplies(payload: dict[str, Any], args: dict[str, Any], tool: str) -> None:
    """The reranking boost multiplies the BM25 score instead of adding to it."""
    for _, entry in _pairs(payload):
        bm25, final = entry.get("bm25_score"), entry.get("final_score")
        if isinstance(bm25, (int, float)) and isinstance(final, (int, float)):
            entry["final_score"] = round(bm25 * (1.0 + (final - bm25)), 6)


CATALOGUE_000: tuple[Breaker, ...] = (
    Breaker("config_overrides_request", "AP-EXPLAIN-04", "000:9", "Precedence MUST be:", config_overrides_request),
    Breaker("legacy_false_gives_basic", "AP-CONFIG-02", "000:15", "Legacy fallback mapping MUST be deterministic:",
            legacy_false_gives_basic),
    Breaker("legacy_true_gives_basic", "AP-CONFIG-01", "000:110",
            "legacy `debug.ranking_reasons=true` MUST deterministically map to `full`", legacy_true_gives_basic),
    Breaker("invalid_level_not_defaulted", "AP-CONFIG-03", "000:111",
            "invalid config values MUST fall back to canonical defaults (not arbitrary runtime branches)",
            invalid_level_not_defaulted),
    Breaker("invalid_freshness_as_strict", "AP-CONFIG-04", "000:105",
            "Runtime config loading MUST normalize explainability and freshness settings to",
            invalid_freshness_as_strict),
    Breaker("invalid_freshness_never_synced", "AP-CONFIG-04", "000:105",
            "Runtime config loading MUST normalize explainability and freshness settings to",
            invalid_freshness_never_synced),
    Breaker("basic_with_bm25", "AP-EXPLAIN-02", "000:23",
            "`basic`: `ranking_reasons` MUST include compact normalized factors only", basic_with_bm25),
    Breaker("error_as_text", "AP-ERRORS-01", "000:86",
            "All MCP tool failures MUST emit the canonical error envelope and canonical error", error_as_text),
    Breaker("stdio_outline_code_swapped", "AP-ERRORS-04", "000:89",
            "For equivalent failure conditions, stdio and HTTP transports MUST emit the same:",
            stdio_outline_code_swapped),
    Breaker("stdio_transport_code", "AP-ERRORS-02", "000:94", "MUST NOT introduce new protocol-level error codes.",
            stdio_transport_code),
    Breaker("stdio_unknown_enum_answered", "AP-ERRORS-03", "000:98",
            "both responses MUST emit the same canonical `error.code` from the registry", stdio_unknown_enum_answered),
    Breaker("stdio_incompatible_as_not_ready", "AP-ERRORS-05", "000:102",
            "both transports MUST emit canonical compatibility error codes", stdio_incompatible_as_not_ready),
    Breaker("state_word_as_code", "AP-ERRORS-06", "000:102", "MUST emit canonical compatibility error codes",
            state_word_as_code),
    Breaker("compatibility_without_remediation", "AP-ERRORS-07", "000:102",
            "both transports MUST emit canonical compatibility error codes and remediation-oriented error data",
            compatibility_without_remediation),
    Breaker("limit_exceeded_when_truncated", "AP-SAFETY-01", "000:67",
            "Query tools MUST enforce a hard payload safety limit", limit_exceeded_when_truncated),
    Breaker("limit_fails_the_call", "AP-SAFETY-02", "000:67", "MUST degrade", limit_fails_the_call),
    Breaker("truncated_said_partial", "AP-SAFETY-01", "000:73", "`result_completeness` MUST be `truncated`",
            truncated_said_partial),
    Breaker("safety_flag_false_sent", "AP-SAFETY-03", "000:74",
            "`safety_limit_applied` MUST be `true` (field in `metadata`, omitted when `false`)",
            safety_flag_false_sent),
    Breaker("truncated_actions_vary", "AP-SAFETY-02", "000:75",
            "`suggested_next_actions` MUST provide deterministic follow-up guidance", truncated_actions_vary),
    Breaker("cut_depends_on_budget", "AP-SAFETY-03", "000:72", "runtime MUST emit deterministic prefix results",
            cut_depends_on_budget),
    Breaker("no_semantic_mode", "AP-SEMANTIC-03", "000:122",
            "`search_code` protocol metadata MUST expose semantic runtime state as explicit additive fields",
            no_semantic_mode),
    Breaker("semantic_enabled_as_word", "AP-SEMANTIC-03", "000:138", "Existing fields MUST keep current semantics.",
            semantic_enabled_as_word),
    Breaker("unavailable_as_null", "AP-SEMANTIC-03", "000:139",
            "New fields MUST be optional/omittable in serialized output when unavailable.", unavailable_as_null),
    Breaker("degraded_unflagged", "AP-SEMANTIC-01", "000:144",
            "metadata MUST include `semantic_fallback=true` and `semantic_degraded=true`", degraded_unflagged),
    Breaker("skipped_reason_varies", "AP-SEMANTIC-01", "000:145",
            "MUST include deterministic `semantic_skipped_reason`",
            skipped_reason_varies),
    Breaker("variable_boost_negative", "AP-SIGNALS-02", "000:191",
            "the total boost MUST be exactly `kind_weight(variable)` = 0.5 (the only non-zero signal), not negative",
            variable_boost_negative),
    Breaker("kind_match_without_intent", "AP-SIGNALS-03", "000:195",
            "the breakdown MUST include `kind_match` with the actual computed `kind_weight + query_intent_boost` value",
            kind_match_without_intent),
    Breaker("symbols_unenriched", "AP-SIGNALS-04", "000:199",
            "the system MUST enrich the result by looking up `kind`, `name`, `qualified_name`", symbols_unenriched),
    Breaker("enriched_unweighted", "AP-SIGNALS-04", "000:200",
            "`kind_weight`, `query_intent_boost`, and `test_file_penalty` signals MUST be applied",
            enriched_unweighted),
    Breaker("unenriched_weighted", "AP-SIGNALS-05", "000:201",
            "a semantic-only result that cannot be enriched (symbol not found in index) MUST receive `kind_weight=0.0` "
            "and `query_intent_boost=0.0`", unenriched_weighted),
    Breaker("kind_filter_widened", "AP-ROLE-01", "000:220",
            "the runtime MUST return only `SymbolKind::Struct` symbols, not other kinds in the `Type` role",
            kind_filter_widened),
    Breaker("role_type_without_enums", "AP-ROLE-02", "000:224",
            "the runtime MUST return Rust `Struct`, `Enum`, `Trait`, `Interface` and Python `Class` symbols",
            role_type_without_enums),
    Breaker("kind_and_role_as_union", "AP-ROLE-03", "000:228",
            "the runtime MUST return only `Struct` symbols (intersection of kind=struct and role=type)",
            kind_and_role_as_union),
    Breaker("empty_intersection_falls_back", "AP-ROLE-04", "000:232",
            "the runtime MUST return zero results (Function maps to Callable role, not Type)",
            empty_intersection_falls_back),
    Breaker("unresolved_zero_as_null", "AP-REFS-02", "000:264",
            "the response MUST include `\"unresolved_count\": 0` (not omitted, not null)", unresolved_zero_as_null),
    Breaker("unresolved_calls_only", "AP-REFS-03", "000:268",
            "`unresolved_count` MUST be 3 (sum across both edge types)", unresolved_calls_only),
    Breaker("class_in_struct_tier", "AP-KIND-01", "000:291",
            "the class MUST receive a 1.5-point higher kind boost than the variable", class_in_struct_tier),
    Breaker("kind_over_exact_match", "AP-KIND-02", "000:295",
            "the variable MUST still rank higher because exact_match (5.0) dominates kind_weight (2.0)",
            kind_over_exact_match),
    Breaker("unknown_kind_weighted", "AP-KIND-05", "000:307", "the kind_weight MUST be 0.0 (no boost, no penalty)",
            unknown_kind_weighted),
    Breaker("type_intent_halved", "AP-INTENT-01", "000:324",
            "the class MUST receive +1.0 intent boost; the function MUST receive +0.0", type_intent_halved),
    Breaker("callable_intent_doubled", "AP-INTENT-02", "000:328",
            "the function MUST receive +0.5 intent boost; the class MUST receive +0.0", callable_intent_doubled),
    Breaker("underscore_ignored", "AP-INTENT-03", "000:332",
            "the intent detector MUST classify this as callable query (underscore presence overrides uppercase start)",
            underscore_ignored),
    Breaker("single_character_ambiguous", "AP-INTENT-04", "000:336",
            "intent detection MUST still apply based on case (e.g., `A` → type query, `x` → callable query)",
            single_character_ambiguous),
    Breaker("intent_replaces_kind_weight", "AP-INTENT-05", "000:340",
            "total kind-related boost MUST be kind_weight(2.0) + intent_boost(1.0) = 3.0", intent_replaces_kind_weight),
    Breaker("go_test_suffix_unpenalized", "AP-TESTPEN-01", "000:359",
            "`handler.go` MUST rank higher by exactly 0.5 points",
            go_test_suffix_unpenalized),
    Breaker("test_results_sink", "AP-TESTPEN-02", "000:363",
            "the test file penalty (-0.5) MUST NOT prevent it from ranking above a non-test variable",
            test_results_sink),
    Breaker("penalty_per_pattern", "AP-TESTPEN-03", "000:367",
            "the penalty MUST be applied once (-0.5), not multiplied per pattern match", penalty_per_pattern),
    Breaker("test_prefix_unpenalized", "AP-TESTPEN-04", "000:371",
            "the file MUST be penalized (the pattern matches the path string)", test_prefix_unpenalized),
    Breaker("test_substring_penalized", "AP-TESTPEN-04", "000:373", "the file MUST NOT be penalized",
            test_substring_penalized),
    Breaker("body_match_first", "AP-FIELDS-01", "000:394",
            "the name-matched symbol MUST receive a 20\u00d7 higher BM25 contribution from this term",
            body_match_first),
    Breaker("qualified_name_unweighted", "AP-FIELDS-02", "000:398",
            "the qualified_name match MUST receive 6\u00d7 higher BM25 contribution", qualified_name_unweighted),
    Breaker("rerank_multiplies", "AP-FIELDS-03", "000:402",
            "the reranking layer MUST apply kind_weight, exact_match, and other boost signals on top of the "
            "field-boosted BM25 base scores", rerank_multiplies),
)


@dataclass(frozen=True, slots=True)
class Statement:
    """A line of 000 that holds a MUST: its words, the breakers that break it, or why none can."""

    line: int
    quote: str  # the line's words (a prefix where the line is long)
    breakers: tuple[str, ...]  # names in the catalogue or in test_fairness.py's OWNERS
    reason: str = ""  # why no breaker (what a client cannot observe), or what the breakers leave unreached


# Every line of 000 with a MUST (a test compares this with the seed when CRUXGATE_SEEDS is set).
STATEMENTS_000: tuple[Statement, ...] = (
    Statement(6, '`search_code` and `locate_symbol` MUST support explainability control using',
              ("reasons_when_off", "full_without_bm25")),
    Statement(9, 'Precedence MUST be:',
              ("config_overrides_request",)),
    Statement(15, 'Legacy fallback mapping MUST be deterministic:',
              ("legacy_false_gives_basic",)),
    Statement(22, '`off`: `ranking_reasons` MUST be omitted',
              ("reasons_when_off",)),
    Statement(23, '`basic`: `ranking_reasons` MUST include compact normalized factors only',
              ("basic_with_bm25", "basic_without_final_score")),
    Statement(24, '`full`: `ranking_reasons` MUST include full deterministic scoring breakdown',
              ("full_without_bm25",)),
    Statement(28, 'response metadata MUST NOT include `ranking_reasons`',
              ("reasons_when_off",)),
    Statement(32, 'response metadata MUST include `ranking_reasons` with compact normalized fields:',
              ("basic_without_final_score",)),
    Statement(37, 'response metadata MUST include per-result full scoring fields:',
              ("full_without_bm25",)),
    Statement(42, '`compact` MUST be applied at serialization stage after retrieval and ranking.',
              ("compact_reorders",)),
    Statement(43, '`compact` MUST preserve identity/location/score fields and MUST drop large optional payload fields.',
              ("compact_drops_stable_id", "compact_keeps_body")),
    Statement(47, 'result ordering and stable identifiers MUST match non-compact output for the same query',
              ("compact_drops_stable_id", "compact_reorders")),
    Statement(51, 'large optional fields such as body previews MUST be omitted from serialized results',
              ("compact_keeps_body",)),
    Statement(54, 'Query response assembly for `search_code` and `locate_symbol` MUST deduplicate',
              ("duplicates_without_ids", "duplicates")),
    Statement(55, 'near-identical hits by symbol/file-region identity before final output and MUST',
              ("suppression_unreported",)),
    Statement(60, 'final emitted results MUST keep only one representative per identity key',
              ("duplicates_without_ids", "duplicates")),
    Statement(64, 'metadata MUST include `suppressed_duplicate_count` greater than zero',
              ("suppression_unreported",)),
    Statement(67, 'Query tools MUST enforce a hard payload safety limit and MUST degrade',
              ("limit_exceeded_when_truncated", "limit_fails_the_call")),
    Statement(72, 'runtime MUST emit deterministic prefix results',
              ("truncation_not_prefix", "cut_depends_on_budget")),
    Statement(73, '`result_completeness` MUST be `truncated`',
              ("truncated_said_partial", "safety_silent")),
    Statement(74, '`safety_limit_applied` MUST be `true` (field in `metadata`, omitted when `false`)',
              ("safety_flag_false_sent", "safety_silent")),
    Statement(75, '`suggested_next_actions` MUST provide deterministic follow-up guidance',
              ("truncated_actions_vary", "truncation_without_actions")),
    Statement(79, 'response metadata MUST set `result_completeness: "truncated"` and `safety_limit_applied: true`',
              ("safety_silent", "truncated_said_partial")),
    Statement(83, 'the tool MUST return a valid response with deterministic `suggested_next_actions`',
              ("truncation_without_actions", "limit_fails_the_call")),
    Statement(86, 'All MCP tool failures MUST emit the canonical error envelope and canonical error',
              ("error_as_text", "wrong_error_code")),
    Statement(89, 'For equivalent failure conditions, stdio and HTTP transports MUST emit the same:',
              ("stdio_outline_code_swapped",)),
    Statement(94, 'MUST NOT introduce new protocol-level error codes.',
              ("stdio_transport_code", "wrong_error_code")),
    Statement(98, 'both responses MUST emit the same canonical `error.code` from the registry',
              ("stdio_unknown_enum_answered", "stdio_outline_code_swapped", "stdio_transport_code")),
    Statement(102, 'both transports MUST emit canonical compatibility error codes and remediation-oriented error data',
              ("compatibility_without_remediation", "stdio_incompatible_as_not_ready", "state_word_as_code")),
    Statement(105, 'Runtime config loading MUST normalize explainability and freshness settings to',
              ("invalid_level_not_defaulted", "invalid_freshness_as_strict", "invalid_freshness_never_synced")),
    Statement(109, '`search.ranking_explain_level` MUST resolve to `off | basic | full`',
              ("invalid_level_not_defaulted", "config_overrides_request")),
    Statement(110, 'legacy `debug.ranking_reasons=true` MUST deterministically map to `full`',
              ("legacy_true_gives_basic",)),
    Statement(111, 'invalid config values MUST fall back to canonical defaults (not arbitrary runtime branches)',
              ("invalid_level_not_defaulted",)),
    Statement(115, 'runtime explainability mode MUST resolve to canonical `full`',
              ("legacy_true_gives_basic", "no_metadata")),
    Statement(119, 'runtime MUST normalize to canonical default behavior without crashing and without emitting',
              ("invalid_level_not_defaulted",)),
    Statement(122, '`search_code` protocol metadata MUST expose semantic runtime state as explicit additive fields,',
              ("no_semantic_mode",)),
    Statement(138, 'Existing fields MUST keep current semantics.',
              ("semantic_enabled_as_word",)),
    Statement(139, 'New fields MUST be optional/omittable in serialized output when unavailable.',
              ("unavailable_as_null",)),
    Statement(140, 'Clients that ignore unknown fields MUST continue to function unchanged.', (),
              "A rule for clients (one that ignores unknown fields keeps working): nothing a server answers can "
              "break it; the server's side of it is line 154 (AP-SEMANTIC-03)."),
    Statement(144, 'metadata MUST include `semantic_fallback=true` and `semantic_degraded=true`',
              ("degraded_unflagged",)),
    Statement(145, 'MUST include deterministic `semantic_skipped_reason`',
              ("skipped_reason_varies",)),
    Statement(149, 'metadata MUST include `semantic_limit_used`, `lexical_fanout_used`, and `semantic_fanout_used`',
              ("semantic_budget_missing",)),
    Statement(150, 'these values MUST reflect post-floor/post-cap effective values', (),
              "000 gives no multiplier, floor or cap, so a client cannot know the effective value it should see; "
              "AP-SEMANTIC-02 judges that the three values are reported, as non-negative integers."),
    Statement(154, 'the response MUST remain parseable and semantically valid without requiring new-field handling',
              ("no_semantic_mode", "semantic_enabled_as_word")),
    Statement(157, 'The ranking system MUST compose scoring signals additively into a single reranking boost.',
              ("final_score_not_the_sum", "rerank_multiplies")),
    Statement(187, 'the total boost MUST be the arithmetic sum of all individual signal values',
              ("final_score_not_the_sum",)),
    Statement(191, 'the total boost MUST be exactly `kind_weight(variable)` = 0.5 (the only non-zero signal), not',
              ("variable_boost_negative",)),
    Statement(195, 'the breakdown MUST include `kind_match` with the actual computed',
              ("kind_match_without_intent",)),
    Statement(199, 'the system MUST enrich the result by looking up `kind`, `name`, `qualified_name` from the Tantivy',
              ("symbols_unenriched",)),
    Statement(200, 'after enrichment, `kind_weight`, `query_intent_boost`, and `test_file_penalty` signals MUST be',
              ("enriched_unweighted",)),
    Statement(201, 'a semantic-only result that cannot be enriched (symbol not found in index) MUST receive',
              ("unenriched_weighted",)),
    Statement(204, 'Query tools that support symbol-type filtering MUST support role-aware filtering in addition to',
              ("default_filters_kinds",)),
    Statement(220, 'the runtime MUST return only `SymbolKind::Struct` symbols, not other kinds in the `Type` role',
              ("kind_filter_widened",)),
    Statement(224, 'the runtime MUST return Rust `Struct`, `Enum`, `Trait`, `Interface` and Python `Class` symbols —',
              ("role_type_without_enums",)),
    Statement(228, 'the runtime MUST return only `Struct` symbols (intersection of kind=struct and role=type)',
              ("kind_and_role_as_union",)),
    Statement(232, 'the runtime MUST return zero results (Function maps to Callable role, not Type)',
              ("empty_intersection_falls_back",)),
    Statement(236, 'the runtime MUST return only symbol results that map to `Type`',
              ("role_keeps_snippets",)),
    Statement(237, 'snippet/file channels MUST be omitted for that query because they do not carry `role` semantics',
              ("role_keeps_snippets",)),
    Statement(241, 'the tool MUST reject the request or ignore the `kind` parameter (only `role` is supported on',
              ("kind_changes_the_answer",)),
    Statement(244, 'The `find_references` response MUST include an `unresolved_count` field indicating the number of',
              ("unresolved_missing", "unresolved_off_by_one")),
    Statement(260, 'the response MUST include `"unresolved_count": 5` alongside the 3 resolved references',
              ("unresolved_off_by_one",)),
    Statement(264, 'the response MUST include `"unresolved_count": 0` (not omitted, not null)',
              ("unresolved_zero_as_null", "unresolved_missing")),
    Statement(268, '`unresolved_count` MUST be 3 (sum across both edge types)',
              ("unresolved_calls_only", "unresolved_off_by_one")),
    Statement(271, 'The ranking system MUST apply differentiated boost scores based on symbol kind.',
              ("kind_untiered",)),
    Statement(291, 'the class MUST receive a 1.5-point higher kind boost than the variable',
              ("class_in_struct_tier",)),
    Statement(295, 'the variable MUST still rank higher because exact_match (5.0) dominates kind_weight (2.0)',
              ("kind_over_exact_match",)),
    Statement(299, 'the ranking order MUST be: class > struct > function',
              ("kind_untiered",)),
    Statement(303, 'the constant MUST rank higher than the module',
              ("module_weight",)),
    Statement(307, 'the kind_weight MUST be 0.0 (no boost, no penalty)',
              ("unknown_kind_weighted",)),
    Statement(310, "The ranking system MUST apply an additional boost when the query's naming convention matches the",
              ("digits_read_as_callable",)),
    Statement(324, 'the class MUST receive +1.0 intent boost; the function MUST receive +0.0',
              ("type_intent_halved",)),
    Statement(328, 'the function MUST receive +0.5 intent boost; the class MUST receive +0.0',
              ("callable_intent_doubled",)),
    Statement(332, 'the intent detector MUST classify this as callable query (underscore presence overrides uppercase',
              ("underscore_ignored",)),
    Statement(336, 'intent detection MUST still apply based on case (e.g., `A` → type query, `x` → callable query)',
              ("single_character_ambiguous",)),
    Statement(340, 'total kind-related boost MUST be kind_weight(2.0) + intent_boost(1.0) = 3.0',
              ("intent_replaces_kind_weight",)),
    Statement(343, 'The ranking system MUST apply a small negative boost to results from test files.',
              ("spec_and_test_dirs_unpenalized",)),
    Statement(359, '`handler.go` MUST rank higher by exactly 0.5 points',
              ("go_test_suffix_unpenalized",)),
    Statement(363, 'the test file penalty (-0.5) MUST NOT prevent it from ranking above a non-test variable with',
              ("test_results_sink",)),
    Statement(367, 'the penalty MUST be applied once (-0.5), not multiplied per pattern match',
              ("penalty_per_pattern",)),
    Statement(371, 'the file MUST be penalized (the pattern matches the path string)',
              ("test_prefix_unpenalized",)),
    Statement(373, 'the file MUST NOT be penalized',
              ("test_substring_penalized",)),
    Statement(376, 'Symbol search queries MUST apply differentiated field boost weights to the Tantivy QueryParser',
              ("body_match_first", "qualified_name_unweighted")),
    Statement(394, 'the name-matched symbol MUST receive a 20\u00d7 higher BM25 contribution from this term',
              ("body_match_first",),
              "The ratio inside BM25 is not observable (AP-FIELDS-04); the breaker breaks the order it produces."),
    Statement(398, 'the qualified_name match MUST receive 6\u00d7 higher BM25 contribution',
              ("qualified_name_unweighted",),
              "The ratio inside BM25 is not observable (AP-FIELDS-04); the breaker breaks the order it produces."),
    Statement(402, 'the reranking layer MUST apply kind_weight, exact_match, and other boost signals on top of the',
              ("rerank_multiplies",)),
)
