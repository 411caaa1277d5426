"""A small code-search MCP server that passes the fuzz phase, unless `--flaw NAME` breaks one rule.

    fuzz_server.py serve --workspace W [--flaw NAME[,NAME...]]

Newline-delimited JSON-RPC on stdio (no SDK import: it starts in milliseconds). Three tools with the
spec's input schemas, closed (`additionalProperties: false`), validated with jsonschema: a bad input is
`invalid_input` in the canonical envelope; success payloads follow the spec's output schemas.

Flaws: crash_on_empty_string (search_code exits on query ""), leak_outside (get_file_outline reads any
path, even outside the workspace), internal_error_on_huge_limit (search_code limit over 2**31),
no_is_error (error envelopes without isError: an MCP convention), breaks_output_schema (health_check
advertises an outputSchema its structuredContent does not follow), log_stdout (search_code writes a log
line to stdout for a query holding `*`, then answers: a wire defect).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

SCHEMAS = Path(__file__).resolve().parents[3] / "schemas"
TOOLS = ("search_code", "get_file_outline", "health_check")
METADATA = {"cruxe_protocol_version": "1", "freshness_status": "fresh", "indexing_status": "ready",
            "result_completeness": "complete", "ref": "live", "schema_status": "compatible"}


class ToolError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def input_schema(tool: str) -> dict[str, Any]:
    """The spec's input schema, closed, without its ids (as a server would publish it)."""
    schema = json.loads((SCHEMAS / f"{tool}.input.schema.json").read_text(encoding="utf-8"))
    for key in ("$id", "$schema", "x-tool"):
        schema.pop(key, None)
    schema["additionalProperties"] = False
    return schema


class Server:
    def __init__(self, workspace: Path, flaws: set[str]) -> None:
        self.workspace, self.flaws = workspace.resolve(), flaws
        self.validators = {tool: Draft202012Validator(input_schema(tool)) for tool in TOOLS}

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if name == "search_code" and args.get("query") == "" and "crash_on_empty_string" in self.flaws:
            print("fuzz server: crashing on an empty query", file=sys.stderr, flush=True)
            os._exit(1)
        if name not in TOOLS:
            raise ToolError("invalid_input", f"unknown tool {name!r}")
        error = next(iter(self.validators[name].iter_errors(args)), None)
        if error is not None:
            raise ToolError("invalid_input", f"{name}: {error.message[:200]}")
        return getattr(self, name)(**args)

    def search_code(self, query: str, limit: int = 10, **ignored: Any) -> dict[str, Any]:
        if "*" in query and "log_stdout" in self.flaws:
            sys.stdout.write("DEBUG fuzz server: a wildcard query\n")  # before the answer, on the same stream
        if limit > 2**31 and "internal_error_on_huge_limit" in self.flaws:
            raise OverflowError("limit does not fit a 32-bit integer")
        results: list[dict[str, Any]] = []
        for path in sorted(self.workspace.rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                if query in line and len(results) < limit:
                    results.append({"path": path.relative_to(self.workspace).as_posix(), "line_start": number,
                                    "line_end": number, "score": 1.0})
        return {"results": results, "metadata": METADATA}

    def get_file_outline(self, path: str, **ignored: Any) -> dict[str, Any]:
        if "\x00" in path:
            raise ToolError("invalid_input", "path holds a NUL byte")
        target = (self.workspace / path).resolve()
        inside = target.is_relative_to(self.workspace)
        if not inside and "leak_outside" not in self.flaws:
            raise ToolError("invalid_input", f"path {path!r} is outside the workspace")
        try:
            lines = target.read_text(encoding="utf-8", errors="replace").splitlines() if target.is_file() else None
        except OSError:
            lines = None
        if lines is None:
            raise ToolError("file_not_found", f"no file {path!r}")
        symbols = [{"name": "module", "kind": "module", "line_start": 1, "line_end": max(len(lines), 1),
                    "signature": lines[0][:200] if lines else ""}]
        return {"path": path, "symbols": symbols, "metadata": METADATA}

    def health_check(self) -> dict[str, Any]:
        ok = {"status": "ok"}
        return {"status": "ready", "tantivy": ok, "sqlite": ok, "grammars": ok, "active_jobs": [],
                "prewarm": {"status": "ready"}, "metadata": METADATA,
                "startup_checks": {"index": {"status": "ready", "current_schema_version": 1,
                                             "required_schema_version": 1}}}


def serve(server: Server) -> None:
    listing = [{"name": tool, "description": f"The {tool} tool.", "inputSchema": input_schema(tool)} for tool in TOOLS]
    if "breaks_output_schema" in server.flaws:
        listing[TOOLS.index("health_check")]["outputSchema"] = {
            "type": "object", "required": ["status"], "properties": {"status": {"const": "warming"}}}

    def reply(message_id: Any, result: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message_id, "result": result}) + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method, message_id, params = message.get("method"), message.get("id"), message.get("params") or {}
        if message_id is None:
            continue
        if method == "initialize":
            reply(message_id, {"protocolVersion": params.get("protocolVersion"), "capabilities": {"tools": {}},
                               "serverInfo": {"name": "fuzz-target", "version": "0.0.1"}})
        elif method == "tools/list":
            reply(message_id, {"tools": listing})
        elif method == "tools/call":
            try:
                payload, is_error = server.call(str(params.get("name")), params.get("arguments") or {}), False
            except ToolError as exc:
                payload, is_error = {"error": {"code": exc.code, "message": str(exc)}, "metadata": METADATA}, True
            except Exception as exc:  # noqa: BLE001 - a bug must not take the server down
                payload = {"error": {"code": "internal_error", "message": f"{type(exc).__name__}: {exc}"}}
                is_error = True
            if is_error and "no_is_error" in server.flaws:
                is_error = False
            result = {"content": [{"type": "text", "text": json.dumps(payload)}], "isError": is_error}
            if "breaks_output_schema" in server.flaws and params.get("name") == "health_check":
                result["structuredContent"] = payload  # status "ready", where its outputSchema says "warming"
            reply(message_id, result)
        else:
            reply(message_id, {})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["serve"])
    parser.add_argument("--workspace", required=True)
    parser.add_argument("--flaw", default="")
    args = parser.parse_args()
    serve(Server(Path(args.workspace), {flaw for flaw in args.flaw.split(",") if flaw}))


if __name__ == "__main__":
    main()
