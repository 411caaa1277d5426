"""A stdio proxy in front of a server that rewrites its answers: in ways the documents allow, or breaking one rule.

    allowed_rewrites_proxy.py [--twin] [--http PORT] [--only NAME,NAME | --break NAME] -- SERVER ARGV...

It relays newline-delimited JSON-RPC both ways and rewrites each tools/call
result. Each allowed rewrite is a choice the documents leave to an
implementation (docs/readings.md): the fairness test replays the whole suite
through all of them and every scenario must still pass. Each breaker (`--break`)
breaks exactly one rule of the documents: the scenario that owns the rule must fail.
`--twin` reshapes every call and answer into the upstream server's choices instead (upstream_twin.py),
with a breaker on top when `--break` is given too. `--http PORT` serves the client over the upstream server's
HTTP transport (upstream_http.py) instead of stdio; the server behind it still speaks stdio.
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import upstream_http
from upstream_twin import twin_arguments, twin_listing, twin_result

from breakers import BY_NAME as CATALOGUE_BY_NAME  # the script's own folder is on sys.path
from breakers_rest import LISTING

LOCATION_FIELDS = {"path", "line_start", "line_end", "kind", "name"}  # FR-102: "only" these at location


def _objects(value: Any) -> Any:
    """Every dict inside `value`, depth first."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _objects(item)
    elif isinstance(value, list):
        for item in value:
            yield from _objects(item)


def version_one_point_zero(payload: dict[str, Any]) -> None:
    """Protocol v1 written as "1.0" (the documents say only 'Protocol v1')."""
    for obj in _objects(payload):
        if "cruxe_protocol_version" in obj:
            obj["cruxe_protocol_version"] = "1.0"


def extra_top_level_field(payload: dict[str, Any]) -> None:
    """An extra top-level field in every answer (no document says 'only' of a payload)."""
    payload["x_proxy"] = {"note": "an implementation's own field"}


def extra_metadata_field(payload: dict[str, Any]) -> None:
    """An extra metadata field (Protocol v1 metadata is additive)."""
    if isinstance(payload.get("metadata"), dict):
        payload["metadata"]["x_policy_mode"] = "off"


def extra_result_fields(payload: dict[str, Any]) -> None:
    """Extra fields on every result above the location level (FR-102's 'only' binds location alone)."""
    for result in payload.get("results") or []:
        if isinstance(result, dict) and not set(result) <= LOCATION_FIELDS and "body_preview" not in result:
            result["provenance"] = "lexical"


def object_next_actions(payload: dict[str, Any]) -> None:
    """suggested_next_actions items as objects (the documents fix no item shape)."""
    actions = payload.get("suggested_next_actions")
    if isinstance(actions, list):
        payload["suggested_next_actions"] = [{"tool": "search_code", "hint": item} if isinstance(item, str) else item
                                             for item in actions]


def empty_next_actions(payload: dict[str, Any]) -> None:
    """An empty suggested_next_actions list where there is no guidance (the documents do not forbid one)."""
    if "results" in payload and "suggested_next_actions" not in payload and "error" not in payload:
        payload["suggested_next_actions"] = []


def float32_numbers(payload: dict[str, Any]) -> None:
    """Every float as a 32-bit float would print it (a server that scores in f32)."""
    def to_f32(value: Any) -> Any:
        if isinstance(value, float):
            return struct.unpack("f", struct.pack("f", value))[0]
        if isinstance(value, list):
            return [to_f32(item) for item in value]
        if isinstance(value, dict):
            return {key: to_f32(item) for key, item in value.items()}
        return value
    payload.update(to_f32(dict(payload)))


def full_breakdown_audit_fields(payload: dict[str, Any]) -> None:
    """Audit fields in full ranking reasons (only basic is 'only' in the documents)."""
    reasons = (payload.get("metadata") or {}).get("ranking_reasons") or []
    for entry in reasons:
        if isinstance(entry, dict) and "bm25_score" in entry:
            entry["signal_contributions"] = [{"signal": "bm25_score", "raw_value": entry["bm25_score"]}]
            entry["precedence_audit"] = {"lexical_dominance_applied": False}


def richer_error_envelope(payload: dict[str, Any]) -> None:
    """Extra fields in the error envelope and its data (the registry lists code, message, data without 'only')."""
    error = payload.get("error")
    if isinstance(error, dict):
        error["x_trace"] = "t-1"
        error.setdefault("data", {})["remediation_hint"] = "see the documentation"


def extra_health_fields(payload: dict[str, Any]) -> None:
    """Health and status answers with subsystem fields of the implementation's own."""
    if "startup_checks" in payload:
        payload["uptime_seconds"] = 1
        payload["tantivy_ok"] = True


def reversed_key_order(payload: dict[str, Any]) -> None:
    """Object keys in another order (JSON objects are unordered)."""
    def flip(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: flip(value[key]) for key in reversed(list(value))}
        if isinstance(value, list):
            return [flip(item) for item in value]
        return value
    flipped = flip(dict(payload))
    payload.clear()
    payload.update(flipped)


REWRITES: dict[str, Callable[[dict[str, Any]], None]] = {function.__name__: function for function in (
    version_one_point_zero, extra_top_level_field, extra_metadata_field, extra_result_fields, object_next_actions,
    empty_next_actions, float32_numbers, full_breakdown_audit_fields, richer_error_envelope, extra_health_fields,
    reversed_key_order,
)}
GROWING = {"extra_top_level_field", "extra_metadata_field", "extra_result_fields", "object_next_actions",
           "full_breakdown_audit_fields", "float32_numbers"}
# Rewrites of the MCP envelope itself rather than of the payload.
ENVELOPE_REWRITES = ("no_is_error", "structured_and_text")


def _reasons(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [entry for entry in (payload.get("metadata") or {}).get("ranking_reasons") or [] if isinstance(entry, dict)]


def break_legacy_idle(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """Emit the legacy indexing_status idle (seed README: never emitted)."""
    if (payload.get("metadata") or {}).get("indexing_status") == "ready":
        payload["metadata"]["indexing_status"] = "idle"


def break_reasons_when_off(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """ranking_reasons although explain resolves to off (000: off omits them)."""
    if "results" in payload and args.get("ranking_explain_level") == "off":
        payload.setdefault("metadata", {})["ranking_reasons"] = []


def break_wrong_error_code(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """A code outside the registry for invalid input."""
    if (payload.get("error") or {}).get("code") == "invalid_input":
        payload["error"]["code"] = "bad_request"


def break_compact_keeps_body(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """compact keeps body_preview (000: compact suppresses heavy optional fields)."""
    if args.get("compact") is True:
        for result in payload.get("results") or []:
            result["body_preview"] = "def f():\n    pass"


def break_compact_reorders(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """compact changes the order (000: compact preserves ranking order)."""
    if args.get("compact") is True and len(payload.get("results") or []) > 1:
        payload["results"].reverse()


def break_duplicates(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """A result emitted twice (000: near-duplicate suppression)."""
    if payload.get("results") and "limit" in args and args["limit"] >= 50:
        payload["results"].append(dict(payload["results"][0]))


def break_unresolved_missing(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """find_references without unresolved_count (000: always present, 0 explicit)."""
    if "references" in payload:
        payload.pop("unresolved_count", None)


def break_location_extra(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """An extra field at detail_level location (FR-102: only path, line_start, line_end, kind, name)."""
    if args.get("detail_level") == "location":
        for result in payload.get("results") or []:
            result["score"] = 1.0


def break_module_weight(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """module kind weight above the tier table (000: module 0.8, below constant)."""
    if args.get("kind") == "module":
        for entry in _reasons(payload):
            entry["kind_weight"] = 1.25


def break_safety_silent(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """A truncated answer that does not say so (000: safety_limit_applied with truncated)."""
    metadata = payload.get("metadata") or {}
    if metadata.get("safety_limit_applied"):
        metadata.pop("safety_limit_applied")
        metadata["result_completeness"] = "complete"


def break_outline_ignores_schema(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """An outline answered from an incompatible index (FR-123: query tools MUST return index_incompatible)."""
    if "path" in args and (payload.get("error") or {}).get("code") == "index_incompatible":
        payload.clear()
        payload.update({"file_path": args["path"], "language": "", "symbols": []})


def break_legacy_flag_overrides_off(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """Reasons on a call without an explain argument (upstream turns the legacy flag into full over config off)."""
    if "results" in payload and "ranking_explain_level" not in args and isinstance(payload.get("metadata"), dict):
        payload["metadata"]["ranking_reasons"] = [
            {"result_index": index, "exact_match_boost": 0, "qualified_name_boost": 0, "path_affinity": 0,
             "definition_boost": 0, "kind_match": 0, "bm25_score": 1.0, "final_score": 1.0}
            for index, _ in enumerate(payload["results"])]


BREAKERS: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    function.__name__.removeprefix("break_"): function for function in (
        break_legacy_idle, break_reasons_when_off, break_wrong_error_code,
        break_compact_keeps_body, break_compact_reorders, break_duplicates, break_unresolved_missing,
        break_location_extra, break_module_weight, break_safety_silent,
        break_outline_ignores_schema, break_legacy_flag_overrides_off)}


def break_result(result: dict[str, Any], breaker: str, args: dict[str, Any], tool: str = "") -> dict[str, Any]:
    """A tools/call result with one rule broken (the call's arguments and tool say when the rule applies)."""
    texts = [item for item in result.get("content") or [] if item.get("type") == "text"]
    try:
        payload = json.loads(texts[0]["text"]) if texts else None
    except ValueError:
        payload = None
    if isinstance(payload, dict):
        break_payload(payload, breaker, args, tool)
        if breaker not in BREAKERS and "error" not in payload:  # a catalogue rewrite turned a failure into an answer
            result.pop("isError", None)
        texts[0]["text"] = json.dumps(payload)
        if "structuredContent" in result:  # the client reads this form first: both carry the broken answer
            result["structuredContent"] = payload
    return result


def break_payload(payload: dict[str, Any], breaker: str, args: dict[str, Any], tool: str) -> None:
    """Break one rule in a payload: a breaker of this module, or one of the catalogue (servers/breakers.py)."""
    if breaker in BREAKERS:
        BREAKERS[breaker](payload, args)
    else:  # the breaker catalogue: one rewrite per MUST statement
        CATALOGUE_BY_NAME[breaker].rewrite(payload, args, tool)


def break_listing(result: dict[str, Any], breaker: str | None) -> None:
    """A tools/list answer with one rule broken, when the catalogue's breaker rewrites listings too."""
    chosen = CATALOGUE_BY_NAME.get(breaker or "")
    if chosen is not None and chosen.listing:
        chosen.rewrite(result, {}, LISTING)


def rewrite_result(result: dict[str, Any], chosen: set[str]) -> dict[str, Any]:
    """A tools/call result with the chosen rewrites applied to its payload and envelope."""
    texts = [item for item in result.get("content") or [] if item.get("type") == "text"]
    if not texts:
        return result
    try:
        payload = json.loads(texts[0]["text"])
    except ValueError:
        return result
    if not isinstance(payload, dict):
        return result
    # A truncated answer was cut to the server's byte budget: additions would push it over (a real server
    # applies its budget to everything it sends), so only the byte-neutral rewrites apply there.
    budgeted = (payload.get("metadata") or {}).get("safety_limit_applied") is True
    for name, function in REWRITES.items():
        if name in chosen and not (budgeted and name in GROWING):
            function(payload)
    texts[0]["text"] = json.dumps(payload)
    if "structured_and_text" in chosen or "structuredContent" in result:
        result["structuredContent"] = payload  # both forms, carrying the same object
    if "no_is_error" in chosen:
        result.pop("isError", None)  # MCP's flag: the documents never require it
    return result


Pending = dict[Any, tuple[str, str, dict[str, Any]]]  # request id -> method, tool and the call's arguments


def to_server(message: dict[str, Any], pending: Pending, twin: bool) -> bool:
    """Note a request's method, tool and arguments by its id; the twin reshapes a call's arguments (True then)."""
    if "id" not in message or "method" not in message:
        return False
    params = message.get("params") or {}
    tool, args = params.get("name", ""), params.get("arguments") or {}
    pending[message["id"]] = (message["method"], tool, args)
    if twin and message["method"] == "tools/call":
        params["arguments"] = twin_arguments(tool, args)
        return True
    return False


def from_server(message: dict[str, Any], pending: Pending, twin: bool, breaker: str | None,
                chosen: set[str]) -> bool:
    """Rewrite the answer to a noted request in place (True when it was one)."""
    if not isinstance(message.get("result"), dict):
        return False
    method, tool, args = pending.pop(message.get("id"), ("", "", {}))
    result = message["result"]
    if method == "tools/call":
        message["result"] = (twin_result(result, tool, args, breaker, break_payload) if twin
                             else break_result(result, breaker, args, tool) if breaker
                             else rewrite_result(result, chosen))
    elif method == "tools/list":
        # The rewritten answers no longer fit the server's own output schemas, which an MCP client
        # validates: the proxy publishes none (an implementation need not).
        for listed in result.get("tools") or []:
            listed.pop("outputSchema", None)
        if twin:
            twin_listing(result.get("tools") or [])
        break_listing(result, breaker)
    return True


def main() -> None:
    """Relay the client's messages to the server and its answers back, rewriting tool results."""
    argv = sys.argv[1:]
    chosen = set(REWRITES) | set(ENVELOPE_REWRITES)
    breaker, twin, port = None, False, None
    if argv[:1] == ["--twin"]:
        twin, argv = True, argv[1:]
    if argv[:1] == ["--http"]:
        port, argv = int(argv[1]), argv[2:]
    if argv[:1] == ["--only"]:
        chosen, argv = set(argv[1].split(",")), argv[2:]
    elif argv[:1] == ["--break"]:
        breaker, argv = argv[1], argv[2:]
    argv = argv[1:] if argv[:1] == ["--"] else argv
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert child.stdin is not None and child.stdout is not None
    pending: Pending = {}
    if port is not None:
        upstream_http.serve(port, child, lambda message: to_server(message, pending, twin),
                            lambda message: from_server(message, pending, twin, breaker, chosen))

    def upstream() -> None:
        for line in sys.stdin.buffer:
            try:
                message = json.loads(line)
                if isinstance(message, dict) and to_server(message, pending, twin):
                    line = (json.dumps(message) + "\n").encode("utf-8")
            except ValueError:
                pass
            child.stdin.write(line)
            child.stdin.flush()
        child.stdin.close()

    threading.Thread(target=upstream, daemon=True).start()
    for line in child.stdout:
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if isinstance(message, dict) and from_server(message, pending, twin, breaker, chosen):
            line = (json.dumps(message) + "\n").encode("utf-8")
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
    sys.exit(child.wait())


if __name__ == "__main__":
    main()
