"""`cruxgate spec coverage` (the traceability report of spec/) and `cruxgate spec readings` (docs/readings.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cruxgate.conformance.spec import coverage
from cruxgate.conformance.spec.loader import SpecError, load_documents
from cruxgate.conformance.spec.paths import spec_dir
from cruxgate.conformance.spec.readings import ReadingsError, load_readings, to_markdown


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Add the `coverage` action."""
    sub = parser.add_subparsers(dest="spec_command", required=True, metavar="ACTION")
    cov = sub.add_parser("coverage", help="Every source anchor and how it is covered; exit 1 if any is "
                                          "missing, duplicated or dangling.")
    cov.add_argument("--format", choices=["md", "json"], default="md", help="output format (default md)")
    cov.add_argument("--spec-dir", metavar="DIR", type=Path, help="spec folder (default: the bundled spec/)")
    readings = sub.add_parser("readings", help="docs/readings.md, generated from spec/readings.yaml.")
    readings.add_argument("--spec-dir", metavar="DIR", type=Path, help="spec folder (default: the bundled spec/)")


def run(args: argparse.Namespace) -> int:
    """Run the chosen action."""
    return readings_page(args) if args.spec_command == "readings" else coverage_report(args)


def readings_page(args: argparse.Namespace) -> int:
    """Print docs/readings.md; 2 when readings.yaml does not load."""
    try:
        print(to_markdown(load_readings(args.spec_dir or spec_dir())), end="")
    except ReadingsError as exc:
        print(f"cruxgate spec readings: {exc}", file=sys.stderr)
        return 2
    return 0


def coverage_report(args: argparse.Namespace) -> int:
    """Print the coverage report; 0 when complete, 1 on gaps, 2 when spec/ does not load."""
    try:
        documents = load_documents(args.spec_dir)
    except SpecError as exc:
        print(f"cruxgate spec coverage: {exc}", file=sys.stderr)
        return 2
    if not documents:
        print("cruxgate spec coverage: no spec/*.yaml documents found", file=sys.stderr)
        return 2
    report = coverage.build(documents)
    if args.format == "json":
        print(json.dumps(coverage.to_json(report), indent=2, ensure_ascii=False))
    else:
        print(coverage.to_markdown(report))
    for problem in ([f"missing: {a}" for a in report.missing] + [f"dangling: {d}" for d in report.dangling]
                    + [f"duplicated: {d}" for d in report.duplicated]):
        print(f"cruxgate spec coverage: {problem}", file=sys.stderr)
    return 0 if report.ok else 1
