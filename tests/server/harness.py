"""Start the real reference server as a subprocess and talk to it with the SDK client, synchronously."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from conformance.schema_registry import validator_for

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "golden" / "fixtures"
CALL_TIMEOUT = 30.0
START_TIMEOUT = 30.0


def index_copy(fixture: str, dest: Path) -> Path:
    """Copy a golden fixture to `dest` and index it (the indexer's pinned API, in process)."""
    from reference.index import index_workspace

    shutil.copytree(FIXTURES / fixture, dest)
    index_workspace(dest)
    return dest


def serve_args(workspace: Path, config: Path | None, *extra: str) -> list[str]:
    """argv (after the interpreter) of `serve-mcp` for a workspace."""
    args = ["-m", "reference", "serve-mcp", "--workspace", str(workspace)]
    if config is not None:
        args += ["--config", str(config)]
    return args + list(extra)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = START_TIMEOUT) -> None:
    """Block until the HTTP server accepts connections (or fail if it died)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}: {process.stderr.read().decode() if process.stderr else ''}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"server did not listen on {port} within {timeout}s")


def check_schema(tool: str, payload: dict[str, Any], is_error: bool) -> None:
    """Validate a payload against schemas/: the error envelope, else the tool's output schema."""
    schema_id = "error-envelope" if is_error else f"{tool}.output"
    if not is_error and not (ROOT / "schemas" / f"{tool}.output.schema.json").exists():
        schema_id = "metadata"
        payload = payload["metadata"]
    errors = sorted(validator_for(schema_id).iter_errors(payload), key=lambda e: list(e.path))
    assert not errors, f"{tool} payload breaks {schema_id}: {errors[0].message} at {list(errors[0].path)}"


class Connection:
    """An SDK client session on a blocking portal: `call(tool, args)` returns the CallToolResult."""

    def __init__(self, target: Any, process: subprocess.Popen[bytes] | None = None) -> None:
        self.process = process
        self._portal_cm = anyio.from_thread.start_blocking_portal()
        self.portal = self._portal_cm.__enter__()
        try:
            self._client_cm = self.portal.wrap_async_context_manager(
                Client(target, mode="legacy", read_timeout_seconds=CALL_TIMEOUT))
            # read_timeout_seconds bounds the handshake requests too.
            self.client = self._client_cm.__enter__()
        except BaseException:
            self._portal_cm.__exit__(None, None, None)
            raise

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> Any:
        """One tools/call with a timeout."""
        async def run() -> Any:
            with anyio.fail_after(CALL_TIMEOUT):
                return await self.client.call_tool(name, arguments or {})
        return self.portal.call(run)

    def payload(self, name: str, arguments: dict[str, Any] | None = None) -> tuple[dict[str, Any], bool]:
        """(payload, isError); asserts structuredContent equals the first text item's JSON and the schema holds."""
        result = self.call(name, arguments)
        text = json.loads(result.content[0].text)
        assert result.structured_content == text
        check_schema(name, text, bool(result.is_error))
        return text, bool(result.is_error)

    def list_tools(self) -> Any:
        async def run() -> Any:
            with anyio.fail_after(CALL_TIMEOUT):
                return await self.client.list_tools()
        return self.portal.call(run)

    def ping(self) -> Any:
        async def run() -> Any:
            with anyio.fail_after(CALL_TIMEOUT):
                return await self.client.send_ping()
        return self.portal.call(run)

    def close(self) -> None:
        try:
            self._client_cm.__exit__(None, None, None)
        finally:
            self._portal_cm.__exit__(None, None, None)
            if self.process is not None:
                self.process.terminate()
                try:
                    self.process.wait(10)
                except subprocess.TimeoutExpired:
                    self.process.kill()


def connect_stdio(workspace: Path, config: Path | None = None, *extra: str) -> Connection:
    """Start serve-mcp over stdio (the client owns the subprocess)."""
    params = StdioServerParameters(command=sys.executable, args=serve_args(workspace, config, *extra),
                                   cwd=str(workspace))
    return Connection(params)


def connect_http(workspace: Path, config: Path | None = None, *extra: str) -> Connection:
    """Start serve-mcp over Streamable HTTP on a free loopback port and connect to /mcp."""
    port = free_port()
    argv = [sys.executable, *serve_args(workspace, config, "--transport", "http", "--port", str(port), *extra)]
    process = subprocess.Popen(argv, cwd=workspace, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_port(port, process)
        return Connection(f"http://127.0.0.1:{port}/mcp", process)
    except BaseException:
        process.kill()
        raise
