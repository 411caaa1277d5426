"""--server-url: gate a server someone else started; workspace-changing scenarios skip with the reason."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time

from cruxgate.conformance.target.options import SERVER_TOKEN_ENV
from cruxgate.conformance.target.profile import default_profile_path
from gate_harness import DATA, SERVER, run_gate, run_suite, side_by_side


def listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_running_http_server_is_gated_without_preparing_anything(tmp_path):
    workspace = tmp_path / "workspace"
    shutil.copytree(DATA / "fixtures" / "tiny", workspace)
    subprocess.run([sys.executable, str(SERVER), "index", str(workspace)], check=True, timeout=30)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([sys.executable, str(SERVER), "serve",
                               "--workspace", str(workspace), "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while not listening(port):
            assert time.monotonic() < deadline and server.poll() is None, "fake server did not listen"
            time.sleep(0.05)
        # SC-SEARCH-02 with a server config of its own: a running server cannot be restarted with it.
        spec = tmp_path / "spec"
        spec.mkdir()
        text = (DATA / "spec" / "fake.yaml").read_text(encoding="utf-8")
        text = text.replace("      - id: SC-SEARCH-02\n", "      - id: SC-SEARCH-02\n"
                            "        config: {search: {ranking_explain_level: full}}\n", 1)
        (spec / "fake.yaml").write_text(text, encoding="utf-8")
        run = run_gate(tmp_path / "gate", "--target=http", "--server-url", f"http://127.0.0.1:{port}/mcp",
                       "--spec-dir", str(spec), "-k", "HC-META-01 or HC-META-03 or SC-SEARCH-01 or SC-SEARCH-02 "
                       "or SC-SEARCH-07")
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert run.returncode == 0, run.output
    assert run.outcomes("passed") == {"HC-META-01", "SC-SEARCH-01"}
    assert run.record("HC-META-03")["skip_reason"].startswith("target is a running server (--server-url)")
    assert run.record("SC-SEARCH-07")["skip_reason"] == "target fake-code-search has no stdio transport"
    assert run.record("SC-SEARCH-02")["skip_reason"] == (
        "target is a running server (--server-url): the scenario needs its own server config (search), "
        "and the runner cannot restart the server with it")


def test_a_running_reference_that_asks_for_its_token_is_gated_with_the_token_given(polyglot_copy, tmp_path):
    workspace = polyglot_copy("served")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    # The reference's defaults over HTTP: a bearer token it writes 0600 into its state folder.
    server = subprocess.Popen([sys.executable, "-m", "cruxgate", "serve-mcp", "--workspace", str(workspace),
                               "--transport", "http", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    token_file = workspace / ".cruxgate" / "http-token"
    url = f"http://127.0.0.1:{port}/mcp"
    gate = ("--target=http", "--server-url", url, "-k", "FR-110-01")
    try:
        deadline = time.monotonic() + 120
        while not (listening(port) and token_file.exists()):
            assert time.monotonic() < deadline and server.poll() is None, "the reference did not listen"
            time.sleep(0.1)
        profile = default_profile_path()  # the reference's (its tools), with --server-url: nothing started
        token = token_file.read_text().strip()
        snapshot = [sys.executable, "-m", "cruxgate", "surface", "snapshot", "--server-url", url, "--out", "-"]
        no_token = {k: v for k, v in os.environ.items() if k != SERVER_TOKEN_ENV}
        # Five clients of the one running server, independent of each other: two at a time.
        clients = side_by_side({
            "with_file": lambda: run_suite(tmp_path / "file", profile, *gate, "--server-token-file", str(token_file)),
            "with_env": lambda: run_suite(tmp_path / "env", profile, *gate, env={SERVER_TOKEN_ENV: token}),
            "without": lambda: run_suite(tmp_path / "none", profile, *gate),
            "surface": lambda: subprocess.run([*snapshot, "--server-token-file", str(token_file)], capture_output=True,
                                              text=True, timeout=120),
            "refused": lambda: subprocess.run(snapshot, capture_output=True, text=True, timeout=120, env=no_token),
        })
        with_file, with_env, without, surface, refused = clients.values()
    finally:
        server.terminate()
        server.wait(timeout=20)
    for done, results in (with_file, with_env):
        outcomes = {record["id"]: record["outcome"] for record in results["scenarios"]}
        assert done.returncode == 0 and outcomes["FR-110-01"] == "passed", done.stdout[-2000:]
    done, results = without
    assert done.returncode == 1, done.stdout[-2000:]
    message = next(record["failure_message"] for record in results["scenarios"] if record["id"] == "FR-110-01")
    assert "it answered HTTP 401 (WWW-Authenticate: Bearer" in message and "--server-token-file" in message, message
    # The surface snapshot reaches the same running server with the same token, and is refused without it.
    assert surface.returncode == 0, surface.stderr
    assert "locate_symbol" in {tool["name"] for tool in json.loads(surface.stdout)["tools"]}
    assert refused.returncode == 2 and "could not read the tool surface" in refused.stderr, refused.stderr
