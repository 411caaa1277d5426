"""The SLO harness's own options, declared once: its pytest plugin (`--slo-NAME`) and `cruxgate slo` (`--NAME`).

The target options are target/options.py's; these say how much the harness measures, whether it gates,
and where it writes. docs/benchmarks.md's option table is written from this one:

    python -m cruxgate.conformance.slo.options          # rewrite docs/benchmarks.md's table
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cruxgate.conformance.slo.settings import FULL, SMOKE
from cruxgate.conformance.spec.paths import schemas_dir

PYTEST_PREFIX = "--slo-"
TABLE_BEGIN = "<!-- slo option table: generated from conformance/slo/options.py; do not edit -->"
TABLE_END = "<!-- end of the slo option table -->"


@dataclass(frozen=True)
class SLOOption:
    """One harness option: its name, its value's kind (switch | count | path), its metavar and its help."""

    name: str
    kind: str
    metavar: str | None
    help: str

    @property
    def command_flag(self) -> str:
        """`cruxgate slo`'s spelling."""
        return f"--{self.name}"

    @property
    def pytest_flag(self) -> str:
        """The harness plugin's spelling (prefixed, as pytest's options share one namespace)."""
        return f"{PYTEST_PREFIX}{self.name}"

    @property
    def dest(self) -> str:
        """The attribute `cruxgate slo`'s parser gives the option."""
        return self.name.replace("-", "_")

    @property
    def pytest_dest(self) -> str:
        """The attribute pytest gives the option (`config.getoption`)."""
        return self.pytest_flag.removeprefix("--").replace("-", "_")

    @property
    def default(self) -> Any:
        """Off for a switch, None (the harness's own default applies) for a value."""
        return False if self.kind == "switch" else None


OPTIONS: tuple[SLOOption, ...] = (
    SLOOption("gate", "switch", None, "fail each figure over our bar (its test fails, and `cruxgate slo` exits 1); "
              "default: record and report only"),
    SLOOption("report", "path", "PATH", "write the Markdown report at PATH, its JSON twin at PATH with the suffix "
              ".json and its HTML page with .html"),
    SLOOption("smoke", "switch", None, "a few rounds on the fixture only, never gating (with gate: a usage "
              "error): proves the harness runs, in seconds"),
    SLOOption("rounds", "count", "N", f"timed calls per variant of each latency figure (default {FULL.rounds}; "
              f"smoke {SMOKE.rounds})"),
    SLOOption("match-reasons", "path", "FILE", "labeled match-reason cases for SS-REASONS-04 (default: the bundled "
              "golden/scored-search/match-reasons.yaml)"),
)


def _keywords(option: SLOOption) -> dict[str, Any]:
    if option.kind == "switch":
        return {"action": "store_true"}
    return {"metavar": option.metavar, **({"type": int} if option.kind == "count" else {})}


def add_to_pytest(group: Any) -> None:
    """Each option on a pytest option group, as `--slo-NAME`."""
    for option in OPTIONS:
        group.addoption(option.pytest_flag, default=option.default, help=option.help, **_keywords(option))


def add_to_argparse(parser: argparse.ArgumentParser) -> None:
    """Each option on `cruxgate slo`'s parser, as `--NAME`, in a group of its own."""
    group = parser.add_argument_group("SLO harness")
    for option in OPTIONS:
        group.add_argument(option.command_flag, dest=option.dest, default=option.default, help=option.help,
                           **_keywords(option))


def pytest_words(values: dict[str, Any]) -> list[str]:
    """The pytest words for the options given in `values` (by dest; a switch off or a value None: not given)."""
    words: list[str] = []
    for option in OPTIONS:
        value = values.get(option.dest)
        if option.kind == "switch":
            words += [option.pytest_flag] if value else []
        elif value is not None:
            words += [option.pytest_flag, str(value)]
    return words


def markdown_table() -> str:
    """docs/benchmarks.md's table of the harness options, between its markers."""
    lines = [TABLE_BEGIN, "", "| `cruxgate slo` | `pytest benchmarks/test_slo.py` | what it does |",
             "| --- | --- | --- |"]
    for option in OPTIONS:
        value = f" {option.metavar}" if option.metavar else ""
        lines.append(f"| `{option.command_flag}{value}` | `{option.pytest_flag}{value}` | "
                     f"{option.help.replace('|', '&#124;')} |")
    return "\n".join([*lines, "", TABLE_END])


def docs_path() -> Path:
    """docs/benchmarks.md (in a checkout)."""
    return schemas_dir().parent / "docs" / "benchmarks.md"


def rewrite(text: str) -> str:
    """`text` with the part between the markers replaced by the table (ValueError when a marker is missing)."""
    start, end = text.index(TABLE_BEGIN), text.index(TABLE_END) + len(TABLE_END)
    return text[:start] + markdown_table() + text[end:]


def main() -> int:
    """Rewrite docs/benchmarks.md's option table from OPTIONS."""
    path = docs_path()
    path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote the SLO option table into {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
