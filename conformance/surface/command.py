"""`cruxgate surface snapshot|diff|lint`: record a server's tool surface and classify changes to it."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import yaml

from cruxgate import extras
from cruxgate.conformance.surface import lint
from cruxgate.conformance.target.options import OPTIONS, server_token
from cruxgate.conformance.target.profile import http_headers


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Add the snapshot, diff and lint sub-commands."""
    sub = parser.add_subparsers(dest="surface_command", required=True, metavar="ACTION")

    snap = sub.add_parser("snapshot", help="Write a server's normalized tools/list answer.")
    snap.add_argument("--target", choices=["stdio", "http"], default="stdio", help="transport (default stdio)")
    snap.add_argument("--target-profile", metavar="FILE", help="target profile YAML (default: the reference's)")
    snap.add_argument("--server-cmd", metavar="CMD", help="stdio: the server command line, instead of a profile")
    snap.add_argument("--server-url", metavar="URL",
                      help="http: the URL of an already running server, instead of a profile")
    token = OPTIONS.named("server-token-file")
    snap.add_argument(token.flag, metavar=token.metavar, help=token.help)
    snap.add_argument("--workspace", metavar="DIR",
                      help="workspace the profile's server opens (default: empty temp dir)")
    snap.add_argument("--index", action="store_true", help="run the profile's index_command on the workspace first")
    snap.add_argument("--out", metavar="FILE", required=True, help="where to write the snapshot ('-' for stdout)")

    diff = sub.add_parser("diff", help="Classify changes between two snapshots; exit 1 on a breaking one.")
    diff.add_argument("old", help="older snapshot (JSON)")
    diff.add_argument("new", help="newer snapshot (JSON)")
    diff.add_argument("--json", action="store_true", help="print the changes as JSON")

    lint = sub.add_parser("lint", help="Check a snapshot against the spec's tool input schemas; exit 1 on findings.")
    lint.add_argument("snapshot", help="snapshot (JSON) or a raw tools/list answer")
    lint.add_argument("--claim", metavar="TOOL", action="append", default=[],
                      help="an optional tool the server claims (e.g. search): required like the mandatory ones")
    parser.epilog = ("Exit status: 0 done (no breaking change, no finding); 1 a breaking change or a lint finding; "
                     "2 a bad option, an unreadable file, or a server that could not be started or reached.")


class SurfaceError(Exception):
    """What stops a surface action: the message says what and why (exit status 2)."""


def run(args: argparse.Namespace) -> int:
    """Run the chosen surface action."""
    try:
        if args.surface_command == "diff":
            return _run_diff(args)
        if args.surface_command == "lint":
            return _run_lint(args)
        return _run_snapshot(args)
    except SurfaceError as exc:
        print(exc, file=sys.stderr)
        return 2


# ----------------------------------------------------------------- snapshot


def _fill(template: list[str], values: dict[str, str]) -> list[str]:
    return [part.format(**values) for part in template]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _default_profile() -> Path:
    from cruxgate.conformance.spec.paths import profiles_dir

    absent = extras.missing(extras.REFERENCE)
    if absent:
        raise SurfaceError(f"cruxgate surface snapshot: no server named, and the default one, the bundled reference, "
                           f"is not installed (missing {', '.join(absent)}): pass --target-profile, --server-cmd or "
                           f"--server-url, or {extras.install_hint(extras.REFERENCE)}")
    found = sorted(profiles_dir().glob("*.yaml")) if profiles_dir().is_dir() else []
    if not found:
        raise SurfaceError("cruxgate surface snapshot: no bundled target profile; pass --target-profile or "
                           "--server-cmd")
    return found[0]


async def _list_all_tools(server: Any, timeout: float, headers: dict[str, str] | None = None) -> dict[str, Any]:
    from mcp import Client

    tools: list[Any] = []
    http_client: Any = contextlib.nullcontext()
    if headers:  # the profile's HTTP headers (a token): the SDK takes them on an HTTP client of ours
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        http_client = create_mcp_http_client(headers=headers)
        server = streamable_http_client(server, http_client=http_client)
    with anyio.fail_after(timeout):
        async with http_client, Client(server, mode="legacy") as client:
            cursor = None
            while True:
                page = await client.list_tools(cursor=cursor)
                tools.extend(page.tools)
                cursor = page.next_cursor
                if not cursor:
                    break
    return {"tools": tools}


def _wait_for_port(port: int, timeout: float, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SurfaceError(f"cruxgate surface snapshot: server exited with status {process.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise SurfaceError(f"cruxgate surface snapshot: server did not listen on port {port} within {timeout}s")


def fetch_surface(args: argparse.Namespace) -> dict[str, Any]:
    """Start (or reach) the server the arguments name and return its normalized tool surface."""
    from mcp.client.stdio import StdioServerParameters

    if args.server_cmd:
        argv = shlex.split(args.server_cmd)
        params = StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ))
        return lint.normalize(anyio.run(_list_all_tools, params, 60.0))
    if args.server_token_file and not args.server_url:
        raise SurfaceError("cruxgate surface snapshot: --server-token-file goes with --server-url")
    if args.server_url:
        try:
            token = server_token(args.server_token_file)
        except (OSError, ValueError) as exc:
            raise SurfaceError(f"cruxgate surface snapshot: {exc}") from exc
        headers = {"Authorization": f"Bearer {token}"} if token else None
        return lint.normalize(anyio.run(_list_all_tools, args.server_url, 60.0, headers))

    profile = yaml.safe_load(Path(args.target_profile or _default_profile()).read_text(encoding="utf-8"))
    timeouts = {"start": 30, "call": 30, "index": 180, **(profile.get("timeouts") or {})}
    with tempfile.TemporaryDirectory(prefix="cruxgate-surface-") as tmp:
        workspace = Path(args.workspace or Path(tmp) / "workspace").resolve()
        workspace.mkdir(parents=True, exist_ok=True)
        config = profile.get("config") or {}
        config_path = Path(tmp) / str(config.get("filename", "config"))
        # An empty document in the profile's format: the server's defaults.
        empty = "{}\n" if config.get("format") in ("json", "yaml") else ""
        config_path.write_text(empty, encoding="utf-8")
        state = Path(tmp) / "state"
        state.mkdir()
        values = {"python": sys.executable, "workspace": str(workspace), "config": str(config_path),
                  "state": str(state), "port": str(_free_port())}
        if args.index and profile.get("index_command"):
            subprocess.run(_fill(profile["index_command"], values), check=True, timeout=timeouts["index"],
                           stdout=subprocess.DEVNULL)
        transport = (profile.get("transports") or {}).get(args.target)
        if not transport:
            raise SurfaceError(
                f"cruxgate surface snapshot: profile {profile.get('name')!r} has no {args.target} transport")
        argv = _fill(transport["command"], values)
        budget = float(timeouts["start"]) + float(timeouts["call"])
        if args.target == "stdio":
            # The caller's whole environment, as the runner's servers get it (the SDK's default passes a few
            # variables only: a package found through PYTHONPATH was not the one listed).
            params = StdioServerParameters(command=argv[0], args=argv[1:], cwd=str(workspace), env=dict(os.environ))
            return lint.normalize(anyio.run(_list_all_tools, params, budget))
        process = subprocess.Popen(argv, cwd=workspace, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_for_port(int(values["port"]), float(timeouts["start"]), process)
            url = transport["url"].format(**values)
            headers = http_headers(transport, values, float(timeouts["start"]))
            return lint.normalize(anyio.run(_list_all_tools, url, float(timeouts["call"]), headers))
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def _leaf(exc: BaseException) -> BaseException:
    """The first exception inside (anyio and the MCP SDK wrap a failed connection in exception groups)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _run_snapshot(args: argparse.Namespace) -> int:
    what = (f"--server-cmd {args.server_cmd!r}" if args.server_cmd else f"--server-url {args.server_url}"
            if args.server_url else f"profile {args.target_profile or 'the bundled reference'}")
    try:
        surface = fetch_surface(args)
    except SurfaceError:
        raise
    except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - whatever stops the server, the user gets one line
        leaf = _leaf(exc)
        detail = str(leaf).splitlines()[0] if str(leaf) else type(leaf).__name__
        print(f"cruxgate surface snapshot: could not read the tool surface of {what}: {detail}", file=sys.stderr)
        return 2
    text = lint.dumps(surface)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


# --------------------------------------------------------------- diff, lint


def _load(path: str) -> dict[str, Any]:
    try:
        snapshot: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
        return snapshot
    except (OSError, json.JSONDecodeError) as exc:
        raise SurfaceError(f"cruxgate surface: cannot read snapshot {path}: {exc}") from exc


def render_table(changes: list[lint.Change]) -> str:
    """A plain-text table of classified changes, one line each."""
    if not changes:
        return "no changes to the tool surface\n"
    rows = [("KIND", "TOOL", "WHERE", "CHANGE")] + [(c.kind, c.tool, c.path or "-", c.what) for c in changes]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True)) + "  " + row[3]
             for row in rows]
    kinds = (lint.BREAKING, lint.RISKY, lint.ADDITIVE)
    counts = {kind: sum(c.kind == kind for c in changes) for kind in kinds}
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    return "\n".join(lines) + f"\n\n{summary}\n"


def _run_diff(args: argparse.Namespace) -> int:
    changes = lint.diff_surfaces(_load(args.old), _load(args.new))
    if args.json:
        print(json.dumps([c.as_dict() for c in changes], indent=2))
    else:
        sys.stdout.write(render_table(changes))
    return 1 if any(c.kind == lint.BREAKING for c in changes) else 0


def _run_lint(args: argparse.Namespace) -> int:
    from cruxgate.conformance.spec.loader import load_documents, tool_rules

    # Optional tool groups (scored search) are optional here as in a gate run: required only when claimed.
    rules = tool_rules(load_documents(None))
    expected = lint.load_expected_inputs()
    required = [name for name in expected if name not in rules or not rules[name].group or name in args.claim]
    findings = lint.lint_surface(_load(args.snapshot), expected, required)
    for finding in findings:
        print(finding)
    print(f"{len(findings)} finding(s)", file=sys.stderr)
    return 1 if findings else 0
