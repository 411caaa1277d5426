"""`cruxgate search` / `cruxgate locate` in-process, through the reference command router."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cruxgate.reference.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_locate_json(capsys: pytest.CaptureFixture[str], polyglot_workspace: Path) -> None:
    code, out, _ = run(capsys, "locate", "Config", "--workspace", str(polyglot_workspace), "--json")
    payload = json.loads(out)
    assert code == 0
    assert payload["results"][0]["name"] == "Config" and payload["results"][0]["kind"] == "class"
    assert "ranking" not in payload["results"][0]


def test_search_explain_json(capsys: pytest.CaptureFixture[str], polyglot_workspace: Path) -> None:
    code, out, _ = run(capsys, "search", "Config", "--workspace", str(polyglot_workspace), "--json", "--explain",
                       "--limit", "3")
    results = json.loads(out)["results"]
    assert code == 0 and len(results) == 3
    assert all(r["ranking"]["final_score"] == pytest.approx(r["score"]) for r in results)


def test_search_text_output(capsys: pytest.CaptureFixture[str], polyglot_workspace: Path) -> None:
    code, out, _ = run(capsys, "search", "Serve", "--workspace", str(polyglot_workspace), "--explain")
    assert code == 0 and "pkg/handler.go:20-23" in out and "final_score=" in out


def test_invalid_argument_exits_2(capsys: pytest.CaptureFixture[str], polyglot_workspace: Path) -> None:
    code, _, err = run(capsys, "search", "x", "--workspace", str(polyglot_workspace), "--role", "nope")
    assert code == 2 and "role" in err


def test_unindexed_workspace_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "locate", "x", "--workspace", str(tmp_path))
    assert code == 1 and "cruxgate index" in err
