"""`cruxgate fuzz`: the fuzz phase alone (pytest with --fuzz -m fuzz), and `cruxgate fuzz replay TOOL ARGUMENTS`.

    cruxgate fuzz [--target-profile FILE] [--fuzz-examples N] [--fuzz-seed S] [--tool NAME]... [-- PYTEST_ARGS]
    cruxgate fuzz replay TOOL '{"query": ""}' [--target-profile FILE] [--server-cmd CMD] ...
"""

from __future__ import annotations

import argparse

from cruxgate.conformance.fuzz import options as fuzz_options
from cruxgate.conformance.spec.paths import SUITE_PACKAGE
from cruxgate.conformance.target import options as target_options


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """The target options and the fuzz options (`pytest --fuzz`'s), plus --spec-dir, --tool and the replay words."""
    parser.add_argument("words", nargs="*", metavar="replay TOOL ARGUMENTS",
                        help="replay one call: the tool and its arguments (a JSON object, or @FILE)")
    target_options.OPTIONS.add_to_argparse(parser)
    parser.add_argument("--spec-dir", metavar="DIR", default=None, help="the spec pytest collects (default: bundled)")
    fuzz_options.OPTIONS.add_to_argparse(parser)
    parser.add_argument("--tool", metavar="NAME", action="append", default=[], help="fuzz only this tool (repeatable)")
    parser.add_argument("--strict", action="store_true", default=False,
                        help="warnings fail too (pytest's --strict): SHOULDs, MCP rules and readings")
    parser.epilog = "Arguments after `--` go to pytest as they are (e.g. -- --junitxml reports/fuzz.xml)."


def pytest_arguments(args: argparse.Namespace) -> list[str]:
    """The pytest command line `cruxgate fuzz` stands for."""
    words = ["--pyargs", SUITE_PACKAGE, "--fuzz", "-m", "fuzz", *target_options.OPTIONS.pytest_words(vars(args))]
    if args.spec_dir is not None:
        words += ["--spec-dir", args.spec_dir]
    words += fuzz_options.OPTIONS.pytest_words(vars(args))
    if args.tool:
        words += ["-k", " or ".join(f"fuzz[{tool}]" for tool in args.tool)]
    if args.strict:
        words.append("--strict")
    return words


def run(args: argparse.Namespace) -> int:
    """Run the fuzz phase under pytest, or replay one call."""
    if args.words and args.words[0] == "replay":
        if len(args.words) != 3:
            print("usage: cruxgate fuzz replay TOOL ARGUMENTS (a JSON object, or @FILE holding one)")
            return 2
        from cruxgate.conformance.fuzz.replay import replay

        return replay(args.words[1], args.words[2], args)
    import pytest

    return int(pytest.main(pytest_arguments(args) + args.words))  # words after `--` are pytest's
