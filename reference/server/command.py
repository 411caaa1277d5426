"""`cruxgate serve-mcp`: serve a workspace over MCP on stdio or Streamable HTTP (/mcp on loopback)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import anyio

from cruxgate.reference.config import load_config

from .app import build_server
from .heap import settle_startup
from .http_options import AccessError, HttpOptions, add_http_arguments, http_options
from .prewarm import Prewarm
from .runtime import Runtime


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Arguments of serve-mcp."""
    parser.add_argument("--workspace", required=True, help="workspace root (indexed into WORKSPACE/.cruxgate)")
    parser.add_argument("--config", help="TOML config file (missing file: defaults)")
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (loopback by default)")
    parser.add_argument("--port", type=int, default=8765, help="HTTP port")
    parser.add_argument("--no-prewarm", action="store_true", help="do not warm the index after the handshake")
    add_http_arguments(parser)


# A pipe holding a whole large answer (a payload near the 64 KB safety limit, escaped as a JSON string in
# its JSON-RPC line, is over Linux's 64 KB default): the SDK's writer thread hands it over in one write
# instead of blocking until the client has read the first part, one wake-up less per large answer.
STDOUT_PIPE_BYTES = 1 << 20


def widen_stdout_pipe(fd: int = 1, size: int = STDOUT_PIPE_BYTES) -> int | None:
    """Raise the capacity of the pipe on `fd` to `size` (Linux); the new capacity, None when not a pipe or refused."""
    try:
        import fcntl

        return fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, size)
    except (ImportError, AttributeError, OSError):
        return None  # not Linux, not a pipe (a file, a tty), or above /proc/sys/fs/pipe-max-size


async def _serve_stdio(server: object) -> None:
    from mcp.server.stdio import stdio_server

    widen_stdout_pipe()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())  # type: ignore[attr-defined]


async def _serve_http(server: object, options: HttpOptions) -> None:
    from .http_app import serve_http

    print(f"serve-mcp: Streamable HTTP on http://{options.host}:{options.port}/mcp", file=sys.stderr, flush=True)
    await serve_http(server, options)


def run(args: argparse.Namespace) -> int:
    """Start the server; returns when the client disconnects (stdio) or on interrupt (http)."""
    workspace = Path(args.workspace)
    if not workspace.is_dir():
        print(f"serve-mcp: workspace {workspace} is not a directory", file=sys.stderr)
        return 2
    options = HttpOptions()
    if args.transport == "http":
        try:
            options = http_options(args, workspace)
        except AccessError as exc:
            print(f"serve-mcp: {exc}", file=sys.stderr)
            return 2
    config = load_config(args.config)
    for warning in config.warnings:
        print(f"serve-mcp: config warning: {warning}", file=sys.stderr)
    runtime = Runtime(workspace, config)
    runtime.prewarm = Prewarm(runtime, enabled=not args.no_prewarm)
    server = build_server(runtime)
    settle_startup()
    try:
        if args.transport == "stdio":
            anyio.run(_serve_stdio, server)
        else:
            anyio.run(_serve_http, server, options)
    except KeyboardInterrupt:
        pass
    return 0
