"""--server-url: gate a server someone else started; workspace-changing scenarios skip with the reason."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time

from gate_harness import DATA, SERVER, run_gate


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
