"""`cruxgate report RESULTS.json... -o site/`: saved results documents as a cross-implementation site."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from jsonschema.exceptions import best_match

from cruxgate.conformance.report import site
from cruxgate.conformance.spec.schemas import validator_for

RESULTS_SCHEMA = "conformance-results.schema.json"


class InputError(Exception):
    """A file the command cannot use, with the reason."""


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Results files, SLO files and the output folder."""
    parser.add_argument("results", nargs="+", type=Path, metavar="RESULTS.json",
                        help="results of `pytest --conformance-json FILE`, one per target (or transport)")
    parser.add_argument("-o", "--out", type=Path, default=Path("site"), metavar="DIR",
                        help="folder to write index.html and one page per target into (default ./site)")
    parser.add_argument("--slo", type=Path, action="append", default=[], metavar="SLO.json",
                        help="the JSON of `cruxgate slo --report`, shown beside the target it names "
                             "(its target_profile); repeat for several targets")


def read_json(path: Path) -> Any:
    """A JSON file, or an InputError naming it."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise InputError(f"{path} is not JSON: {exc}") from None


def read_results(path: Path) -> dict[str, Any]:
    """A results document, validated against schemas/conformance-results.schema.json."""
    document = read_json(path)
    error = best_match(validator_for(RESULTS_SCHEMA).iter_errors(document))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        raise InputError(f"{path} is not a cruxgate results file (--conformance-json) at {where}: {error.message}")
    result: dict[str, Any] = document
    return result


def read_slo(path: Path) -> dict[str, Any]:
    """An SLO report's JSON: an object with a `results` list."""
    document = read_json(path)
    if not isinstance(document, dict) or not isinstance(document.get("results"), list):
        raise InputError(f"{path} is not the JSON of an SLO report (no `results` list)")
    result: dict[str, Any] = document
    return result


def run(args: argparse.Namespace) -> int:
    """Write the site; 0 when written, 2 when an input cannot be used."""
    try:
        documents = [read_results(path) for path in args.results]
        slos = [read_slo(path) for path in args.slo]
    except InputError as exc:
        print(f"cruxgate report: {exc}", file=sys.stderr)
        return 2
    pages = site.render(documents, slos)
    columns = site.columns(documents, slos)
    unmatched = [str(path) for path, slo in zip(args.slo, slos, strict=True)
                 if not any(column.slo is slo for column in columns)]
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (args.out / name).write_text(text, encoding="utf-8")
    for path in unmatched:
        print(f"cruxgate report: {path} names no target of the results given; left out", file=sys.stderr)
    print(f"cruxgate report: wrote {len(pages)} page(s) to {args.out}/ "
          f"({', '.join(column.label for column in columns)})")
    return 0
