"""The SLO harness's own options, declared once as an option table: its pytest plugin (`--slo-NAME`) and
`cruxgate slo` (`--NAME`).

The target options are target/options.py's; these say how much the harness measures, whether it gates,
and where it writes. docs/benchmarks.md's option table is written from this one:

    python -m cruxgate.conformance.slo.options          # rewrite docs/benchmarks.md's table
"""

from __future__ import annotations

import sys
from pathlib import Path

from cruxgate.conformance.slo.settings import FULL, SMOKE
from cruxgate.conformance.spec.paths import schemas_dir
from cruxgate.conformance.target.option_table import Option, OptionTable

TABLE_BEGIN = "<!-- slo option table: generated from conformance/slo/options.py; do not edit -->"
TABLE_END = "<!-- end of the slo option table -->"

OPTIONS = OptionTable("SLO harness", (
    Option("gate", "switch", None, "fail each figure over our bar (its test fails, and `cruxgate slo` exits 1); "
           "default: record and report only"),
    Option("report", "path", "PATH", "write the Markdown report at PATH, its JSON twin at PATH with the suffix "
           ".json and its HTML page with .html"),
    Option("smoke", "switch", None, "a few rounds on the fixture only, never gating (with gate: a usage "
           "error): proves the harness runs, in seconds"),
    Option("rounds", "count", "N", f"timed calls per variant of each latency figure (default {FULL.rounds}; "
           f"smoke {SMOKE.rounds})"),
    Option("match-reasons", "path", "FILE", "labeled match-reason cases for SS-REASONS-04 (default: the bundled "
           "golden/scored-search/match-reasons.yaml)"),
), pytest_prefix="slo-")  # pytest's options share one namespace


def markdown_table() -> str:
    """docs/benchmarks.md's table of the harness options, between its markers."""
    lines = [TABLE_BEGIN, "", "| `cruxgate slo` | `pytest benchmarks/test_slo.py` | what it does |",
             "| --- | --- | --- |"]
    for option in OPTIONS:
        value = f" {option.metavar}" if option.metavar else ""
        lines.append(f"| `{option.flag}{value}` | `{OPTIONS.pytest_flag(option)}{value}` | "
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
