"""A tiny code-search MCP server for testing the runner; `--flaw NAME` breaks exactly one rule.

    fake_server.py index WORKSPACE                      # writes WORKSPACE/.fake-index (list of lines)
    fake_server.py hook corrupt_manifest WORKSPACE      # marks the index corrupt
    fake_server.py serve --workspace W [--port N] [--tools a,b] [--flaw NAME] [--raw] [--index-on-start]
                         [--rename OURS=THEIRS]   # --raw: list and answer a tool under another name
                         [--outline-symbols N]    # --raw: also get_file_outline, answering N symbols

It serves the same tools two ways: through the official SDK (stdio or
Streamable HTTP), or with `--raw` through a minimal newline-delimited
JSON-RPC loop on stdio that starts in milliseconds (no SDK import). The raw
form keeps the runner's own tests fast and proves the runner reads any
implementation, not only SDK-built ones. With `--outline-symbols N` it also
serves `get_file_outline`, with an outputSchema, answering N made-up symbols
whatever the path: an answer large enough that a client's handling of it
(parsing, checking it against the schema) is measurable (the SLO harness's wire timing).

Flaws: legacy_idle, missing_metadata, reasons_when_off, compact_order,
bad_error_code, crash_on_bad_input, hang_on_bad_input, garbage_stdout, log_stdout, notification_reply,
no_clamp_warning (a SHOULD rule), crash_on_start, no_ping (--raw: ping is an unknown method).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

INDEX = ".fake-index"
STRING, INTEGER, BOOLEAN = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}


def index(workspace: Path) -> None:
    """Record every (path, line number, text) of the workspace's files."""
    rows = []
    for path in sorted(workspace.rglob("*")):
        if path.is_file() and ".git" not in path.parts and path.name != INDEX:
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                rows.append([path.relative_to(workspace).as_posix(), number, line])
    (workspace / INDEX).write_text(json.dumps({"status": "ready", "rows": rows}), encoding="utf-8")


class Tools:
    """The tools as plain functions: arguments in, (payload, is_error) out."""

    def __init__(self, workspace: Path, flaw: str | None, outline_symbols: int = 0) -> None:
        self.workspace, self.flaw, self.outline_symbols = workspace, flaw, outline_symbols

    def _state(self) -> dict:
        return json.loads((self.workspace / INDEX).read_text(encoding="utf-8"))

    def _metadata(self) -> dict:
        status = self._state()["status"]
        meta = {"cruxe_protocol_version": "1", "freshness_status": "fresh",
                "indexing_status": "idle" if self.flaw == "legacy_idle" else "ready",
                "result_completeness": "complete", "ref": "live",
                "schema_status": status if status != "ready" else "compatible"}
        if self.flaw == "missing_metadata":
            del meta["ref"]
        return meta

    def health_check(self) -> tuple[dict, bool]:
        """Report the index health."""
        return {"status": "ok", "metadata": self._metadata()}, False

    def search_code(self, query: str, limit: int = 10, compact: bool = False,
                    ranking_explain_level: str = "off") -> tuple[dict, bool]:
        """Search code by text."""
        if not query.strip():
            if self.flaw == "crash_on_bad_input":
                print("fake server: crashing on an empty query", file=sys.stderr, flush=True)
                os._exit(1)
            if self.flaw == "hang_on_bad_input":
                time.sleep(3600)
            code = "bad_request" if self.flaw == "bad_error_code" else "invalid_input"
            return {"error": {"code": code, "message": "query must not be empty"}, "metadata": self._metadata()}, True
        meta, warnings = self._metadata(), []
        if limit > 50:
            if self.flaw != "no_clamp_warning":
                warnings.append(f"limit {limit} clamped to 50")
            limit = 50
        hits = [row for row in self._state()["rows"] if query in row[2]]
        results = [{"result_id": f"{p}:{n}", "path": p, "line_start": n, "line_end": n,
                    "score": round(1.0 / (rank + 1), 4), "snippet": text}
                   for rank, (p, n, text) in enumerate(hits[:limit])]
        if compact:
            results = [{k: r[k] for k in ("result_id", "path", "line_start", "score")} for r in results]
            if self.flaw == "compact_order":
                results.reverse()
        if warnings:
            meta["warnings"] = warnings
        if ranking_explain_level != "off" or self.flaw == "reasons_when_off":
            meta["ranking_reasons"] = [{"result_id": r["result_id"], "final_score": r["score"]} for r in results]
        return {"results": results, "metadata": meta}, False

    def locate_symbol(self, name: str) -> tuple[dict, bool]:
        """Locate a symbol definition by name."""
        found = [{"path": p, "line_start": n, "name": name} for p, n, text in self._state()["rows"]
                 if text.lstrip().startswith(("def " + name, "class " + name))]
        return {"symbols": found, "metadata": self._metadata()}, False

    def get_file_outline(self, path: str) -> tuple[dict, bool]:
        """The symbols of one file (here, `outline_symbols` made-up functions, whatever the path)."""
        symbols = [{"name": f"symbol_{n}", "kind": "function", "line": n} for n in range(self.outline_symbols)]
        return {"path": path, "symbols": symbols, "metadata": self._metadata()}, False


SCHEMAS = {
    "health_check": {},
    "search_code": {"query": STRING, "limit": INTEGER, "compact": BOOLEAN, "ranking_explain_level": STRING},
    "locate_symbol": {"name": STRING},
    "get_file_outline": {"path": STRING},  # served only with --outline-symbols (raw)
}
REQUIRED = {"search_code": ["query"], "locate_symbol": ["name"], "get_file_outline": ["path"]}
OUTPUT_SCHEMAS = {"get_file_outline": {
    "type": "object", "required": ["symbols"],
    "properties": {"symbols": {"type": "array", "items": {
        "type": "object", "required": ["name", "kind", "line"],
        "properties": {"name": STRING, "kind": STRING, "line": INTEGER}}}}}}


def serve_sdk(tools: Tools, enabled: list[str], port: int | None) -> None:
    """Serve through the official SDK's MCPServer (stdio, or Streamable HTTP on `port`)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.types import CallToolResult, TextContent

    server = MCPServer("fake-code-search", version="0.0.1")

    def as_result(function: Callable[..., tuple[dict, bool]]) -> Callable[..., Any]:
        def tool(**kwargs: Any) -> Any:
            payload, error = function(**kwargs)
            return CallToolResult(content=[TextContent(type="text", text=json.dumps(payload))],
                                  structured_content=payload, is_error=error)
        return tool

    # The SDK derives input schemas from signatures, so each tool keeps its own.
    if "health_check" in enabled:
        @server.tool(description="Report the index health.")
        def health_check():
            return as_result(tools.health_check)()

    if "search_code" in enabled:
        @server.tool(description="Search code by text.")
        def search_code(query: str, limit: int = 10, compact: bool = False, ranking_explain_level: str = "off"):
            return as_result(tools.search_code)(query=query, limit=limit, compact=compact,
                                                ranking_explain_level=ranking_explain_level)

    if "locate_symbol" in enabled:
        @server.tool(description="Locate a symbol definition by name.")
        def locate_symbol(name: str):
            return as_result(tools.locate_symbol)(name=name)

    if port is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host="127.0.0.1", port=port)


def serve_raw(tools: Tools, enabled: list[str], renames: dict[str, str]) -> None:
    """Serve newline-delimited JSON-RPC on stdio: initialize, tools/list, tools/call, ping."""
    ours = {theirs: name for name, theirs in renames.items()}
    listing = [{"name": renames.get(name, name), "description": getattr(Tools, name).__doc__,
                "inputSchema": {"type": "object", "properties": SCHEMAS[name], "required": REQUIRED.get(name, [])},
                **({"outputSchema": OUTPUT_SCHEMAS[name]} if name in OUTPUT_SCHEMAS else {})}
               for name in enabled]
    if tools.flaw == "broken_schema":  # "flag" is no JSON Schema type: the surface lint must say so
        for tool in listing:
            if ours.get(tool["name"], tool["name"]) == "health_check":
                tool["inputSchema"]["properties"] = {"verbose": {"type": "flag"}}

    def reply(message_id: Any, result: dict | None = None, error: dict | None = None) -> None:
        body = {"jsonrpc": "2.0", "id": message_id, **({"error": error} if error else {"result": result})}
        sys.stdout.write(json.dumps(body) + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method, message_id, params = message.get("method"), message.get("id"), message.get("params") or {}
        if tools.flaw == "log_stdout":  # a server that logs to stdout (as with RUST_LOG unset)
            sys.stdout.write(f"INFO fake_server: handling {method}\n")
        if message_id is None:
            if tools.flaw == "notification_reply" and method == "notifications/initialized":
                reply(None, {})  # JSON-RPC forbids this: a notification gets no answer
            continue  # notifications (initialized, cancelled) need no answer
        if method == "initialize":
            reply(message_id, {"protocolVersion": params.get("protocolVersion"), "capabilities": {"tools": {}},
                               "serverInfo": {"name": "fake-code-search", "version": "0.0.1"}})
        elif method == "tools/list":
            reply(message_id, {"tools": listing})
        elif method == "tools/call" and ours.get(str(params.get("name")), str(params.get("name"))) in enabled \
                and params.get("name") not in renames:
            name = ours.get(params["name"], params["name"])
            payload, is_error = getattr(tools, name)(**(params.get("arguments") or {}))
            reply(message_id, {"content": [{"type": "text", "text": json.dumps(payload)}],
                               "structuredContent": payload, "isError": is_error})
        elif method == "ping" and tools.flaw != "no_ping":  # no_ping: as a server of a protocol without it
            reply(message_id, {})
        else:
            reply(message_id, error={"code": -32601, "message": f"method not found: {method}"})


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("index").add_argument("workspace")
    hook = sub.add_parser("hook")
    hook.add_argument("name")
    hook.add_argument("workspace")
    run = sub.add_parser("serve")
    run.add_argument("--workspace", required=True)
    run.add_argument("--port", type=int)
    run.add_argument("--tools")
    run.add_argument("--flaw")
    run.add_argument("--raw", action="store_true")
    run.add_argument("--index-on-start", action="store_true", help="index the workspace first (no index command)")
    run.add_argument("--rename", action="append", default=[], metavar="OURS=THEIRS")
    run.add_argument("--outline-symbols", type=int, default=0, metavar="N")
    args = parser.parse_args()
    workspace = Path(args.workspace)
    if args.command == "index":
        index(workspace)
    elif args.command == "hook":
        state = json.loads((workspace / INDEX).read_text(encoding="utf-8"))
        state["status"] = args.name
        (workspace / INDEX).write_text(json.dumps(state), encoding="utf-8")
    else:
        if args.flaw == "crash_on_start":
            print("fake server: refusing to start (crash_on_start)", file=sys.stderr)
            sys.exit(3)
        if args.flaw == "garbage_stdout" and args.port is None:
            # Before an SDK server claims stdout (it diverts later writes to stderr).
            sys.stdout.write("this is not JSON-RPC\n")
            sys.stdout.flush()
        enabled = [name for name in SCHEMAS if (not args.tools or name in args.tools.split(","))
                   and (name != "get_file_outline" or args.outline_symbols)]
        tools = Tools(workspace, args.flaw, args.outline_symbols)
        if args.index_on_start:
            index(workspace)
        if (args.raw or args.flaw == "broken_schema") and args.port is None:
            serve_raw(tools, enabled, dict(rename.split("=", 1) for rename in args.rename))
        else:
            serve_sdk(tools, enabled, args.port)


if __name__ == "__main__":
    main()
