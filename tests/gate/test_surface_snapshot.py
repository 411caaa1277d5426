"""`cruxgate surface snapshot` against a live stdio server: normalized, stable, diffable."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from cruxgate.conformance import cli
from cruxgate.conformance.surface import lint

SERVER = Path(__file__).parent / "servers" / "two_tools.py"


def test_snapshot_of_a_stdio_server_is_normalized(tmp_path):
    out = tmp_path / "surface.json"
    command = shlex.join([sys.executable, str(SERVER)])
    assert cli.main(["surface", "snapshot", "--server-cmd", command, "--out", str(out)]) == 0
    text = out.read_text()
    snap = json.loads(text)
    assert [t["name"] for t in snap["tools"]] == ["health_check", "search_code"]
    search = snap["tools"][1]
    assert search["description"] == "Search code by text."
    assert search["inputSchema"]["properties"]["detail_level"]["enum"] == ["location", "signature", "context"]
    assert search["inputSchema"]["required"] == ["query"]
    assert text == lint.dumps(snap)  # sorted keys, stable bytes
    assert lint.diff_surfaces(snap, snap) == []


def _profile(tmp_path: Path) -> Path:
    profile = tmp_path / "two-tools.yaml"
    profile.write_text(
        "name: two-tools\n"
        "transports:\n"
        f"  stdio: {{command: ['{{python}}', '{SERVER}']}}\n"
        "  http:\n"
        f"    command: ['{{python}}', '{SERVER}', '--http-port', '{{port}}']\n"
        "    url: 'http://127.0.0.1:{port}/mcp'\n"
        "config: {format: toml, filename: two.toml}\n"
        "timeouts: {start: 30, call: 30}\n"
    )
    return profile


def test_snapshot_through_a_profile_is_the_same_over_both_transports(tmp_path):
    outs = {}
    for transport in ("stdio", "http"):
        outs[transport] = tmp_path / f"{transport}.json"
        argv = ["surface", "snapshot", "--target", transport, "--target-profile", str(_profile(tmp_path)),
                "--out", str(outs[transport])]
        assert cli.main(argv) == 0
    assert outs["stdio"].read_text() == outs["http"].read_text()
    assert [t["name"] for t in json.loads(outs["http"].read_text())["tools"]] == ["health_check", "search_code"]


@pytest.mark.parametrize(("options", "says"), [
    (["--server-cmd", "false"], "could not read the tool surface of --server-cmd 'false': "),
    (["--target", "http", "--server-url", "http://127.0.0.1:9/mcp"],
     "could not read the tool surface of --server-url http://127.0.0.1:9/mcp: "),
    (["--target-profile", "/nonexistent/my-server.yaml"],
     "could not read the tool surface of profile /nonexistent/my-server.yaml: "),
])
def test_a_server_that_cannot_be_reached_is_one_line_and_exit_2(tmp_path, capsys, options, says):
    assert cli.main(["surface", "snapshot", *options, "--out", str(tmp_path / "s.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cruxgate surface snapshot: " + says) and err.count("\n") == 1, err
    assert not (tmp_path / "s.json").exists()
