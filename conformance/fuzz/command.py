"""`cruxgate fuzz`: the fuzz phase alone (pytest with --fuzz -m fuzz), and `cruxgate fuzz replay TOOL ARGUMENTS`.

    cruxgate fuzz [--target-profile FILE] [--fuzz-examples N] [--fuzz-seed S] [--tool NAME]... [-- PYTEST_ARGS]
    cruxgate fuzz replay TOOL '{"query": ""}' [--target-profile FILE] [--server-cmd CMD] ...
"""

from __future__ import annotations

import argparse

from cruxgate.conformance.fuzz import defaults
from cruxgate.conformance.spec.loader import DEFAULT_FIXTURE
from cruxgate.conformance.spec.paths import SUITE_PACKAGE
from cruxgate.conformance.target import options as target_options


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """The options `pytest --fuzz` takes, plus --tool and the replay words."""
    parser.add_argument("words", nargs="*", metavar="replay TOOL ARGUMENTS",
                        help="replay one call: the tool and its arguments (a JSON object, or @FILE)")
    target_options.OPTIONS.add_to_argparse(parser)
    parser.add_argument("--spec-dir", metavar="DIR", default=None, help="the spec pytest collects (default: bundled)")
    parser.add_argument("--fuzz-fixture", metavar="NAME", default=None,
                        help=f"fixture repository (default {DEFAULT_FIXTURE})")
    parser.add_argument("--fuzz-call-timeout", metavar="SECONDS", type=float, default=None,
                        help=f"a call with no answer by then is a hang (default {defaults.CALL_TIMEOUT:g})")
    parser.add_argument("--fuzz-examples", metavar="N", type=int, default=None,
                        help=f"examples per tool (default {defaults.EXAMPLES})")
    parser.add_argument("--fuzz-seed", metavar="SEED", type=int, default=None)
    parser.add_argument("--fuzz-phases", metavar="PHASES", default=None, help="coverage,fuzzing (default both)")
    parser.add_argument("--fuzz-exclude-checks", metavar="IDS", default=None, help="fuzz check ids not to run")
    parser.add_argument("--fuzz-out", metavar="DIR", default=None, help=f"output folder (default {defaults.OUT})")
    parser.add_argument("--tool", metavar="NAME", action="append", default=[], help="fuzz only this tool (repeatable)")
    parser.add_argument("--strict", action="store_true", default=False,
                        help="warnings fail too (pytest's --strict): SHOULDs, MCP rules and readings")
    parser.epilog = "Arguments after `--` go to pytest as they are (e.g. -- --junitxml reports/fuzz.xml)."


def pytest_arguments(args: argparse.Namespace) -> list[str]:
    """The pytest command line `cruxgate fuzz` stands for."""
    words = ["--pyargs", SUITE_PACKAGE, "--fuzz", "-m", "fuzz", *target_options.OPTIONS.pytest_words(vars(args))]
    for name in ("spec_dir", "fuzz_fixture", "fuzz_call_timeout", "fuzz_examples", "fuzz_seed", "fuzz_phases",
                 "fuzz_exclude_checks", "fuzz_out"):
        value = getattr(args, name)
        if value is not None:
            words += ["--" + name.replace("_", "-"), str(value)]
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
