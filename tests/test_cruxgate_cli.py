"""`python -m cruxgate` is the `cruxgate` command: the router answers and hands commands to their parts."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import cruxgate
from cruxgate.cli import CONFORMANCE_COMMANDS, REFERENCE_COMMANDS


def cruxgate_module(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cruxgate", *args], capture_output=True, text=True, timeout=120)


def test_version() -> None:
    done = cruxgate_module("--version")
    assert (done.returncode, done.stdout.strip()) == (0, f"cruxgate {cruxgate.__version__}")


def test_commands_reach_both_parts() -> None:
    index, spec = cruxgate_module("index", "--help"), cruxgate_module("spec", "--help")
    assert index.returncode == 0 and "workspace" in index.stdout.lower()
    assert spec.returncode == 0 and "coverage" in spec.stdout


def test_unknown_command_is_a_usage_error() -> None:
    done = cruxgate_module("frobnicate")
    assert done.returncode == 2 and "unknown command 'frobnicate'" in done.stderr


def test_the_readme_command_table_has_a_row_for_every_command() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    table = readme.split("## The `cruxgate` command", 1)[1].split("\n## ", 1)[0]
    rows = {match for row in table.splitlines() if row.startswith("| `cruxgate ")
            for match in re.findall(r"`cruxgate ([a-z][a-z-]*)", row.split(" | ")[0])}
    assert rows == {*REFERENCE_COMMANDS, *CONFORMANCE_COMMANDS}, rows ^ {*REFERENCE_COMMANDS, *CONFORMANCE_COMMANDS}
