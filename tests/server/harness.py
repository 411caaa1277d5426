"""Start the real reference server as a subprocess and talk to it through the runner's wire layer (SDK client)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread

from cruxgate.conformance.spec.schemas import validator_for
from cruxgate.conformance.target.profile import http_headers
from cruxgate.conformance.target.wire import Connection as WireConnection
from cruxgate.conformance.target.wire import free_port

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "golden" / "fixtures"
TIMEOUTS = {"start": 30.0, "call": 30.0}


def serve_argv(workspace: Path, config: Path | None, *extra: str) -> list[str]:
    """argv of `serve-mcp` for a workspace."""
    argv = [sys.executable, "-m", "cruxgate", "serve-mcp", "--workspace", str(workspace)]
    if config is not None:
        argv += ["--config", str(config)]
    return argv + list(extra)


def check_schema(tool: str, payload: dict[str, Any], is_error: bool) -> None:
    """Validate a payload against schemas/: the error envelope, else the tool's output schema."""
    schema_id = "error-envelope" if is_error else f"{tool}.output"
    if not is_error and not (ROOT / "schemas" / f"{tool}.output.schema.json").exists():
        schema_id = "metadata"
        payload = payload["metadata"]
    errors = sorted(validator_for(schema_id).iter_errors(payload), key=lambda e: list(e.path))
    assert not errors, f"{tool} payload breaks {schema_id}: {errors[0].message} at {list(errors[0].path)}"


class Connection:
    """A started server with an initialized SDK session; every wait is bounded by TIMEOUTS."""

    def __init__(self, transport: str, argv: list[str], cwd: Path, url: str | None = None,
                 headers: Callable[[], dict[str, str]] | None = None) -> None:
        self._portal_cm = anyio.from_thread.start_blocking_portal()
        self.portal = self._portal_cm.__enter__()
        try:
            self.wire = WireConnection(self.portal, transport, argv=argv, url=url, cwd=cwd,
                                       timeouts=TIMEOUTS, headers=headers).open()
        except BaseException:
            self._portal_cm.__exit__(None, None, None)
            raise

    def payload(self, name: str, arguments: Any = None) -> tuple[dict[str, Any], bool]:
        """(payload, isError): structuredContent, equal to the text item's JSON; schemas/ holds."""
        response = self.wire.call_tool(name, {} if arguments is None else arguments)
        assert response.structured is not None and response.text is not None
        assert response.payload == response.structured == json.loads(response.text)
        assert [item["type"] for item in response.raw["content"]] == ["text"]
        check_schema(name, response.payload, response.is_error)
        return response.payload, response.is_error

    def _bounded(self, fn: Any, *args: Any) -> Any:
        async def run() -> Any:
            with anyio.fail_after(TIMEOUTS["call"]):
                return await fn(*args)
        return self.portal.call(run)

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        """A raw tools/call (the CallToolResult, nothing read from it): what the benchmarks time."""
        return self._bounded(self.wire.client.call_tool, name, arguments)

    def tools(self) -> dict[str, dict[str, Any]]:
        """tools/list as {name: tool dict}."""
        return {tool["name"]: tool for tool in self.wire.list_tools()}

    def close(self) -> None:
        try:
            self.wire.close()
        finally:
            self._portal_cm.__exit__(None, None, None)


def connect_stdio(workspace: Path, config: Path | None = None, *extra: str) -> Connection:
    """Start serve-mcp over stdio."""
    return Connection("stdio", serve_argv(workspace, config, *extra), workspace)


def bearer(token_file: Path) -> Callable[[], dict[str, str]]:
    """The Authorization header with the token serve-mcp writes to `token_file` (read once it listens)."""
    spec = {"headers": {"Authorization": "Bearer {secret}"}, "secret_file": str(token_file)}
    return lambda: http_headers(spec, {}, TIMEOUTS["start"])


def connect_http(workspace: Path, config: Path | None = None, *extra: str) -> Connection:
    """Start serve-mcp over Streamable HTTP on a free loopback port and connect to /mcp with its token."""
    port = free_port()
    argv = serve_argv(workspace, config, "--transport", "http", "--port", str(port))
    return Connection("http", argv + list(extra), workspace, url=f"http://127.0.0.1:{port}/mcp",
                      headers=bearer(workspace / ".cruxgate" / "http-token"))
