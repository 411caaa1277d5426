"""A tiny code-search MCP server for testing the runner; `--flaw NAME` breaks exactly one rule.

    fake_server.py index WORKSPACE                      # writes WORKSPACE/.fake-index (list of lines)
    fake_server.py hook corrupt_manifest WORKSPACE      # marks the index corrupt
    fake_server.py serve --workspace W [--port N] [--tools a,b] [--flaw NAME]

Flaws: legacy_idle, missing_metadata, reasons_when_off, compact_order,
bad_error_code, crash_on_bad_input, hang_on_bad_input, garbage_stdout,
no_clamp_warning (a SHOULD rule), crash_on_start.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

INDEX = ".fake-index"


def index(workspace: Path) -> None:
    """Record every (path, line number, text) of the workspace's files."""
    rows = []
    for path in sorted(workspace.rglob("*")):
        if path.is_file() and ".git" not in path.parts and path.name != INDEX:
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                rows.append([path.relative_to(workspace).as_posix(), number, line])
    (workspace / INDEX).write_text(json.dumps({"status": "ready", "rows": rows}), encoding="utf-8")


def serve(workspace: Path, port: int | None, tools: set[str] | None, flaw: str | None) -> None:
    """Serve the workspace's index over stdio or Streamable HTTP."""
    from mcp.server.mcpserver import MCPServer  # imported here so index and hook start fast
    from mcp.types import CallToolResult, TextContent

    if flaw == "crash_on_start":
        print("fake server: refusing to start (crash_on_start)", file=sys.stderr)
        sys.exit(3)
    server = MCPServer("fake-code-search", version="0.0.1")

    def answer(payload: dict, error: bool = False):
        return CallToolResult(content=[TextContent(type="text", text=json.dumps(payload))],
                              structured_content=payload, is_error=error)

    def metadata() -> dict:
        state = json.loads((workspace / INDEX).read_text(encoding="utf-8"))
        meta = {"cruxe_protocol_version": "1", "freshness_status": "fresh",
                "indexing_status": "idle" if flaw == "legacy_idle" else "ready",
                "result_completeness": "complete", "ref": "live",
                "schema_status": state["status"] if state["status"] != "ready" else "compatible"}
        if flaw == "missing_metadata":
            del meta["ref"]
        return meta

    def enabled(name: str) -> bool:
        return tools is None or name in tools

    if enabled("health_check"):
        @server.tool(description="Report the index health.")
        def health_check():
            return answer({"status": "ok", "metadata": metadata()})

    if enabled("search_code"):
        @server.tool(description="Search code by text.")
        def search_code(query: str, limit: int = 10, compact: bool = False,
                        ranking_explain_level: str = "off"):
            if not query.strip():
                if flaw == "crash_on_bad_input":
                    print("fake server: crashing on an empty query", file=sys.stderr, flush=True)
                    os._exit(1)
                if flaw == "hang_on_bad_input":
                    time.sleep(3600)
                code = "bad_request" if flaw == "bad_error_code" else "invalid_input"
                return answer({"error": {"code": code, "message": "query must not be empty"}, "metadata": metadata()}, True)
            meta = metadata()
            warnings = []
            if limit > 50:
                if flaw != "no_clamp_warning":
                    warnings.append(f"limit {limit} clamped to 50")
                limit = 50
            rows = json.loads((workspace / INDEX).read_text(encoding="utf-8"))["rows"]
            hits = [row for row in rows if query in row[2]]
            results = [{"result_id": f"{p}:{n}", "path": p, "line_start": n, "line_end": n,
                        "score": round(1.0 / (rank + 1), 4), "snippet": text}
                       for rank, (p, n, text) in enumerate(hits[:limit])]
            if compact:
                results = [{k: r[k] for k in ("result_id", "path", "line_start", "score")} for r in results]
                if flaw == "compact_order":
                    results.reverse()
            if warnings:
                meta["warnings"] = warnings
            if ranking_explain_level != "off" or flaw == "reasons_when_off":
                meta["ranking_reasons"] = [{"result_id": r["result_id"], "final_score": r["score"]} for r in results]
            return answer({"results": results, "metadata": meta})

    if enabled("locate_symbol"):
        @server.tool(description="Locate a symbol definition by name.")
        def locate_symbol(name: str):
            rows = json.loads((workspace / INDEX).read_text(encoding="utf-8"))["rows"]
            found = [{"path": p, "line_start": n, "name": name} for p, n, text in rows
                     if text.lstrip().startswith(("def " + name, "class " + name))]
            return answer({"symbols": found, "metadata": metadata()})

    if port is None:
        if flaw == "garbage_stdout":
            # Before the SDK claims stdout (it diverts later writes to stderr).
            sys.stdout.write("this is not JSON-RPC\n")
            sys.stdout.flush()
        server.run("stdio")
    else:
        server.run("streamable-http", host="127.0.0.1", port=port)


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
    args = parser.parse_args()
    workspace = Path(args.workspace)
    if args.command == "index":
        index(workspace)
    elif args.command == "hook":
        state = json.loads((workspace / INDEX).read_text(encoding="utf-8"))
        state["status"] = args.name
        (workspace / INDEX).write_text(json.dumps(state), encoding="utf-8")
    else:
        serve(workspace, args.port, set(args.tools.split(",")) if args.tools else None, args.flaw)


if __name__ == "__main__":
    main()
