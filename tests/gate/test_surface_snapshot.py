"""`cruxgate surface snapshot` against a live stdio server: normalized, stable, diffable."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from conformance import cli, surface

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
    assert text == surface.dumps(snap)  # sorted keys, stable bytes
    assert surface.diff_surfaces(snap, snap) == []
