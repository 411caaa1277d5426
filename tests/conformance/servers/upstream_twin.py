"""The upstream twin: the reference's answers in the upstream server's shapes wherever the documents are silent.

Each reshape is a fact read from the upstream server's source (github.com/signalridge/cruxe at ba8f9a0d) and
names the reading of spec/readings.yaml that allows it. allowed_rewrites_proxy.py applies them with `--twin`;
its `--break` breakers applied on top (`--twin --break NAME`) break one rule of the documents each.
"""

from __future__ import annotations

from typing import Any

QUERY_TOOLS = ("search_code", "locate_symbol")
EDGE_WORDS = {"call": "calls", "import": "imports"}                     # R27: upstream's edge_type words
PREWARM_WORDS = {"ready": "complete", "disabled": "skipped", "error": "failed"}  # R14: its prewarm_status words
DOCUMENTED_ENUMS = {"detail_level": ("location", "signature", "context"), "depth": ("top", "all")}


def twin_arguments(tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """The twin's arguments as the reference reads them: upstream's names made ours, what upstream ignores dropped."""
    args = dict(args)
    if tool == "find_references" and "symbol_name" in args:  # R9: upstream's argument name
        args["name"] = args.pop("symbol_name")
    for name, allowed in DOCUMENTED_ENUMS.items():  # R24: an unknown value is ignored (upstream's default applies)
        if name in args and args[name] not in allowed:
            args.pop(name)
    if "compact" in args and not isinstance(args["compact"], bool):  # R24: a non-boolean compact reads as false
        args.pop("compact")
    if tool == "get_file_outline":
        args.pop("language", None)  # R25: a hint, echoed, never a filter
    if tool == "search_code":
        args.pop("kind", None)  # 000 allows ignoring `kind` on search_code; upstream has no such argument
    if tool in ("health_check", "index_status", "find_references"):
        args.pop("ref", None)  # R21: an optional ref on every tool (the reference has one where the documents do)
    return args


def twin_listing(tools: list[dict[str, Any]]) -> None:
    """tools/list as upstream publishes it: an optional `ref` on every tool, `symbol_name` on find_references."""
    tools[:] = [tool for tool in tools if tool.get("name") not in ("search", "search_preview")]  # 002's server's
    for tool in tools:
        schema = tool.setdefault("inputSchema", {"type": "object"})
        properties = schema.setdefault("properties", {})
        properties.setdefault("ref", {"type": "string", "description": "Branch/ref scope"})
        if tool.get("name") == "find_references" and "name" in properties:
            properties["symbol_name"] = properties.pop("name")
            schema["required"] = ["symbol_name" if item == "name" else item for item in schema.get("required", [])]
        tool.pop("outputSchema", None)  # upstream publishes none


def _health(payload: dict[str, Any]) -> None:
    """health_check in upstream's shape: flags and words of its own for each subsystem (R12, R13, R14)."""
    if isinstance(payload.get("tantivy"), dict):
        payload["tantivy_ok"] = payload.pop("tantivy").get("status") == "ok"
    if isinstance(payload.get("sqlite"), dict):
        payload["sqlite_ok"] = payload.pop("sqlite").get("status") == "ok"
    grammars = payload.get("grammars")
    if isinstance(grammars, dict) and isinstance(grammars.get("languages"), dict):
        languages = grammars["languages"]
        payload["grammars"] = {"available": sorted(k for k, v in languages.items() if v),
                               "missing": sorted(k for k, v in languages.items() if not v)}
    prewarm = payload.pop("prewarm", None)
    if isinstance(prewarm, dict):
        word = prewarm.get("status")
        payload["prewarm_status"] = PREWARM_WORDS.get(word, word) if isinstance(word, str) else word
    if "active_jobs" in payload:
        jobs = payload.pop("active_jobs")
        payload["active_job"] = jobs[0] if jobs else None
    payload.setdefault("uptime_seconds", 0)


def _startup_word(payload: dict[str, Any]) -> None:
    index = (payload.get("startup_checks") or {}).get("index")
    if isinstance(index, dict) and index.get("status") == "ready":
        index["status"] = "compatible"  # R13: upstream's word for a compatible index


def _reasons(payload: dict[str, Any], args: dict[str, Any]) -> None:
    """Basic factors on the raw scale (R23); full breakdowns without kind_weight / query_intent_boost (R8)."""
    reasons = (payload.get("metadata") or {}).get("ranking_reasons")
    if not isinstance(reasons, list):
        return
    for entry in reasons:
        if not isinstance(entry, dict):
            continue
        if "exact_match" in entry and isinstance(entry["exact_match"], (int, float)):
            entry["exact_match"] = entry["exact_match"] * 5.0  # upstream's basic exact_match is the raw 5.0 boost
        for name in ("kind_weight", "query_intent_boost"):
            entry.pop(name, None)


def twin_payload(tool: str, payload: dict[str, Any], args: dict[str, Any]) -> None:
    """One answer in upstream's shape wherever the documents leave the shape open."""
    metadata = payload.get("metadata")
    if isinstance(metadata, dict) and "cruxe_protocol_version" in metadata:
        metadata["cruxe_protocol_version"] = "1.0"  # R1
    error = payload.get("error")
    if isinstance(error, dict):
        data = error.get("data")
        if isinstance(data, dict) and error.get("code") == "index_stale" and "remediation" in data:
            data["suggestion"] = data.pop("remediation")  # R26: upstream's key on a strict block
        return
    if tool == "find_references":
        for reference in payload.get("references") or []:
            if isinstance(reference, dict):
                if "line" in reference:
                    reference["line_start"] = reference.pop("line")  # R10
                edge = reference.get("edge_type")
                reference["edge_type"] = EDGE_WORDS.get(edge, edge) if isinstance(edge, str) else edge
    if tool == "get_file_outline" and "path" in payload:
        payload["file_path"] = payload.pop("path")  # R11
    if tool == "health_check":
        _health(payload)
    if tool in ("health_check", "index_status"):
        _startup_word(payload)
    _reasons(payload, args)
    if tool in QUERY_TOOLS:  # R2: objects on every query answer
        results = payload.get("results") or []
        actions = payload.get("suggested_next_actions") or []
        payload["suggested_next_actions"] = [
            {"tool": "search_code", "query": item} if isinstance(item, str) else item for item in actions
        ] or [{"tool": "locate_symbol", "name": r.get("name")} for r in results[:1] if isinstance(r, dict)]


def twin_result(result: dict[str, Any], tool: str, args: dict[str, Any], breaker: str | None,
                break_payload: Any) -> dict[str, Any]:
    """A tools/call result in upstream's envelope: text only, no structuredContent, no isError (R3, R16).

    With a breaker, `break_payload(payload, breaker, args, tool)` breaks one rule on top of the twin's shapes.
    """
    import json

    texts = [item for item in result.get("content") or [] if item.get("type") == "text"]
    payload = result.get("structuredContent")
    if payload is None and texts:
        try:
            payload = json.loads(texts[0]["text"])
        except ValueError:
            payload = None
    if isinstance(payload, dict):
        twin_payload(tool, payload, args)
        if breaker is not None:
            break_payload(payload, breaker, args, tool)
        result["content"] = [{"type": "text", "text": json.dumps(payload)}]
    result.pop("structuredContent", None)
    result.pop("isError", None)
    return result
