"""Command line of the conformance side: `cruxgate spec ...` and `cruxgate surface ...`."""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> module that defines `add_arguments(parser, name)` and `run(args) -> int`.
COMMANDS = {
    "spec": ("cruxgate.conformance.spec.command", "Inspect spec/: coverage and traceability report."),
    "surface": ("cruxgate.conformance.surface.command", "Snapshot and diff a server's tool surface."),
    "fuzz": ("cruxgate.conformance.fuzz.command", "Fuzz every tool of a server from its schemas; replay one call."),
    "slo": ("cruxgate.conformance.slo.command",
            "Measure every SLO of the spec (p95 latencies, tokens, bytes) against a target; gate and report."),
    "report": ("cruxgate.conformance.report.command",
               "Render saved results (--conformance-json) side by side as HTML pages, one per target."),
}


def main(argv: list[str] | None = None) -> int:
    """Parse `argv` and run the chosen conformance command."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = args_list[0] if args_list and args_list[0] in COMMANDS else None
    parser = argparse.ArgumentParser(prog="cruxgate", description="cruxgate conformance tools")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            importlib.import_module(module_name).add_arguments(p, name)
    args = parser.parse_args(args_list)
    status: int = importlib.import_module(COMMANDS[args.command][0]).run(args)
    return status
