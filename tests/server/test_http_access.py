"""serve-mcp over HTTP belongs to its owner: token, Host/Origin checks, per-client sessions, slow connections.

Raw HTTP on loopback addresses only (127.0.0.1, 127.0.0.2), against the real server process.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import stat
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cruxgate.reference.server.http_options import DEFAULT_PER_CLIENT, TOKEN_ENV, add_http_arguments

from .harness import free_port, serve_argv

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}}
PING = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


@dataclass
class Served:
    """A running serve-mcp: where it listens and its token (None without one)."""

    address: str
    port: int
    token: str | None
    token_file: Path
    process: subprocess.Popen[bytes]

    def post(self, message: dict, *, token: str | None = None, host: str | None = None, origin: str | None = None,
             session: str | None = None, auth: bool = True) -> tuple[int, str, str | None]:
        """(status, body, mcp-session-id) of one POST to /mcp; the server's token unless told otherwise."""
        headers = dict(MCP_HEADERS)
        chosen = token if token is not None else self.token
        if auth and chosen is not None:
            headers["authorization"] = f"Bearer {chosen}"
        if host is not None:
            headers["host"] = host
        if origin is not None:
            headers["origin"] = origin
        if session is not None:
            headers["mcp-session-id"] = session
        conn = http.client.HTTPConnection(self.address, self.port, timeout=30)
        try:
            conn.request("POST", "/mcp", body=json.dumps(message), headers=headers)
            response = conn.getresponse()
            return response.status, response.read().decode("utf-8", "replace"), response.getheader("mcp-session-id")
        finally:
            conn.close()


def wait_listening(address: str, port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until the port accepts connections (or fail with the server's output)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"serve-mcp exited with {process.returncode}: {log.read_text(errors='replace')[-2000:]}")
        with socket.socket() as sock:
            sock.settimeout(0.5)
            if sock.connect_ex((address, port)) == 0:
                return
        time.sleep(0.1)
    pytest.fail(f"serve-mcp did not listen on {address}:{port}: {log.read_text(errors='replace')[-2000:]}")


@pytest.fixture
def serve(fresh_workspace: Callable[[], Path], tmp_path: Path) -> Iterator[Callable[..., Served]]:
    """Start serve-mcp over HTTP with extra arguments; every server started is stopped afterwards."""
    started: list[subprocess.Popen[bytes]] = []

    def start(*extra: str, address: str = "127.0.0.1", env: dict[str, str] | None = None) -> Served:
        workspace = fresh_workspace()
        port = free_port()
        log = tmp_path / f"serve-{port}.log"
        token_file = workspace / ".cruxgate" / "http-token"
        argv = serve_argv(workspace, None, "--transport", "http", "--port", str(port), *extra)
        with log.open("wb") as out:
            process = subprocess.Popen(argv, stdout=out, stderr=out, stdin=subprocess.DEVNULL,
                                       env={**os.environ, **(env or {})})
        started.append(process)
        wait_listening(address, port, process, log)
        token = token_file.read_text().strip() if token_file.exists() else None
        return Served(address, port, token, token_file, process)

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def refused_start(workspace: Path, *extra: str, env: dict[str, str] | None = None) -> str:
    """serve-mcp's stderr when it must refuse to start (exit 2, nothing listening)."""
    argv = serve_argv(workspace, None, "--transport", "http", "--port", str(free_port()), *extra)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                          env={**os.environ, **(env or {})})
    assert done.returncode == 2, done.stderr
    return done.stderr


# ------------------------------------------------------------------------------------------ the token


def test_loopback_asks_for_the_owner_token_by_default(serve: Callable[..., Served]) -> None:
    served = serve()
    assert served.token is not None and len(served.token) >= 32
    assert stat.S_IMODE(served.token_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(served.token_file.parent.stat().st_mode) == 0o700
    assert served.post(INITIALIZE, auth=False)[0] == 401
    assert served.post(INITIALIZE, token=served.token[:-1] + ("x" if served.token[-1] != "x" else "y"))[0] == 401
    assert served.post(INITIALIZE, token="")[0] == 401
    status, body, session = served.post(INITIALIZE)
    assert status == 200 and session, body


def test_the_token_file_is_kept_across_restarts(serve: Callable[..., Served], tmp_path: Path) -> None:
    token_file = tmp_path / "given" / "token"
    first = serve("--token-file", str(token_file))
    token = token_file.read_text().strip()
    first.process.terminate()
    first.process.wait(timeout=10)
    again = serve("--token-file", str(token_file))
    assert token_file.read_text().strip() == token
    assert again.post(INITIALIZE, token=token)[0] == 200


def test_a_token_file_others_could_read_is_replaced(serve: Callable[..., Served], tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("a-token-others-have-read-0123456789\n")
    token_file.chmod(0o644)
    served = serve("--token-file", str(token_file))
    fresh = token_file.read_text().strip()
    assert fresh != "a-token-others-have-read-0123456789" and stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert served.post(INITIALIZE, token="a-token-others-have-read-0123456789")[0] == 401
    assert served.post(INITIALIZE, token=fresh)[0] == 200


def test_the_token_from_the_environment(serve: Callable[..., Served], fresh_workspace: Callable[[], Path]) -> None:
    given = "an-environment-token-0123456789"
    served = serve(env={TOKEN_ENV: given})
    assert not served.token_file.exists(), "a token given in the environment is not written anywhere"
    assert served.post(INITIALIZE, token=given)[0] == 200
    assert served.post(INITIALIZE, auth=False)[0] == 401
    assert "at least" in refused_start(fresh_workspace(), env={TOKEN_ENV: "short"})


def test_no_auth_is_an_explicit_loopback_opt_out(serve: Callable[..., Served],
                                                 fresh_workspace: Callable[[], Path]) -> None:
    served = serve("--no-auth")
    assert served.post(INITIALIZE, auth=False)[0] == 200
    assert "refused" in refused_start(fresh_workspace(), "--host", "0.0.0.0", "--no-auth")


def test_a_wildcard_bind_asks_for_the_token(serve: Callable[..., Served]) -> None:
    served = serve("--host", "0.0.0.0")
    assert served.post(INITIALIZE, auth=False)[0] == 401
    assert served.post(INITIALIZE)[0] == 200


# ---------------------------------------------------------------------------------- Host and Origin


@pytest.mark.parametrize("bind", ["0.0.0.0", "127.0.0.2"])
def test_host_and_origin_are_checked_whatever_the_bind(serve: Callable[..., Served], bind: str) -> None:
    address = "127.0.0.1" if bind == "0.0.0.0" else bind
    served = serve("--host", bind, address=address)
    assert served.post(INITIALIZE, host="evil.test")[0] == 421
    assert served.post(INITIALIZE, host=f"evil.test:{served.port}")[0] == 421
    assert served.post(INITIALIZE, origin="http://evil.test")[0] == 403
    assert served.post(INITIALIZE, host=f"{address}:{served.port}")[0] == 200
    assert served.post(INITIALIZE, host=f"localhost:{served.port}", origin=f"http://localhost:{served.port}")[0] == 200


def test_the_allow_lists_admit_other_names(serve: Callable[..., Served]) -> None:
    served = serve("--host", "0.0.0.0", "--allow-host", "code.example.test",
                   "--allow-origin", "https://app.example.test")
    assert served.post(INITIALIZE, host=f"code.example.test:{served.port}",
                       origin="https://app.example.test")[0] == 200
    assert served.post(INITIALIZE, host=f"other.example.test:{served.port}")[0] == 421
    assert served.post(INITIALIZE, origin="https://evil.example.test")[0] == 403


def test_a_protocol_error_does_not_echo_a_huge_method_name(serve: Callable[..., Served]) -> None:
    served = serve()
    _, _, session = served.post(INITIALIZE)
    status, body, _ = served.post({"jsonrpc": "2.0", "id": 3, "method": "m" * (1 << 20)}, session=session)
    assert status == 200 and "Method not found" in body and "characters cut" in body
    assert len(body) < 8192, f"{len(body):,} bytes of JSON-RPC error for a 1 MB method name"


# --------------------------------------------------------------------------------------- sessions


def test_a_client_holding_many_sessions_locks_out_nobody(serve: Callable[..., Served]) -> None:
    served = serve()
    sessions = []
    for _ in range(DEFAULT_PER_CLIENT + 12):  # opened and never closed, as a leaking client does
        status, body, session = served.post(INITIALIZE)
        assert status == 200 and session, body
        sessions.append(session)
    # The least recently used ones made room; the newest are served.
    assert [served.post(PING, session=s)[0] for s in sessions[:12]] == [404] * 12
    assert all(served.post(PING, session=s)[0] == 200 for s in sessions[-8:])
    assert served.post(INITIALIZE)[0] == 200


def test_an_idle_session_expires(serve: Callable[..., Served]) -> None:
    served = serve("--session-idle-timeout", "1")
    status, _, session = served.post(INITIALIZE)
    assert status == 200 and served.post(PING, session=session)[0] == 200
    time.sleep(2.5)
    assert served.post(PING, session=session)[0] == 404


# ------------------------------------------------------------------------------- slow connections


def closed_by_server(sock: socket.socket, until: float) -> bool:
    """Whether the server closes `sock` before `until`, while it keeps trickling a header."""
    sock.settimeout(0.2)
    while time.monotonic() < until:
        try:
            if sock.recv(4096) == b"":
                return True
        except TimeoutError:
            try:
                sock.send(b"x")  # one more byte of a header that never ends
            except OSError:
                return True
        except OSError:
            return True
    return False


def test_slow_and_silent_connections_are_closed(serve: Callable[..., Served]) -> None:
    served = serve("--request-timeout", "1")
    silent = [socket.create_connection((served.address, served.port), timeout=5) for _ in range(20)]
    slow = [socket.create_connection((served.address, served.port), timeout=5) for _ in range(20)]
    for sock in slow:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    try:
        assert served.post(INITIALIZE)[0] == 200, "a client that sends its request in time is served meanwhile"
        until = time.monotonic() + 8
        left = [sock for sock in silent + slow if not closed_by_server(sock, until)]
        assert not left, f"{len(left)} of 40 slow connections still open after the 1 s request deadline"
    finally:
        for sock in silent + slow:
            sock.close()


def test_docs_server_http_table_names_every_option_with_its_default() -> None:
    # docs/server.md "Streamable HTTP access" restates serve-mcp's HTTP options; the parser owns them.
    page = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    section = page.split("\n## Streamable HTTP access\n", 1)[1].split("\n## ", 1)[0]
    row = re.compile(r"^\| `(--[a-z-]+|\$\w+)[^`]*` \|\s*([^|]*?)\s*\|", re.MULTILINE)
    rows = {m.group(1): m.group(2) for m in row.finditer(section)}
    parser = argparse.ArgumentParser()
    add_http_arguments(parser)
    options = {a.option_strings[0]: a.default for a in parser._actions if a.option_strings[0] != "-h"}
    assert set(rows) == {*options, f"${TOKEN_ENV}"}, set(rows) ^ {*options, f"${TOKEN_ENV}"}
    for option, default in options.items():
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            assert rows[option] == f"{default:g}", (option, rows[option], default)
