"""`cruxgate slo`: the p95 SLO harness against any target, from any install (pytest on the packaged harness).

    cruxgate slo [--target-profile FILE | --server-cmd CMD | --server-url URL [--server-token-file FILE]]
                 [--target-deadline SECONDS] [--gate] [--report PATH] [--smoke] [--rounds N]
                 [--match-reasons FILE] [-k EXPR] [-- PYTEST_ARGS]

The harness's own options are slo/options.py's, the same table its pytest plugin reads as `--slo-NAME`.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path

from cruxgate.conformance.slo import options as slo_options
from cruxgate.conformance.target import options as target_options


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """The target options of the conformance runner, plus the harness's own (slo/options.py) and pytest's -k."""
    parser.add_argument("pytest_args", nargs="*", metavar="PYTEST_ARGS", help="after `--`: passed to pytest as is")
    target_options.OPTIONS.add_to_argparse(parser)
    slo_options.OPTIONS.add_to_argparse(parser)
    parser.add_argument("-k", metavar="EXPR", dest="keyword", default=None,
                        help="only the figures whose test matches (pytest's -k, e.g. sc105)")
    parser.epilog = ("With --server-url the running server must serve the polyglot fixture, and fresh-start "
                     "figures are skipped. Exit status: 0 when every figure was taken (and, with --gate, within "
                     "our bar), 1 when one failed, 2 on a usage error. Arguments after `--` go to pytest as they "
                     "are.")


def pytest_arguments(args: argparse.Namespace) -> list[str]:
    """The pytest command line `cruxgate slo` stands for."""
    spec = importlib.util.find_spec("cruxgate.conformance.slo.harness")
    assert spec is not None and spec.origin is not None, "the packaged SLO harness is missing"
    # The harness module by its path (pytest collects a file it is given whatever its name), with its plugin;
    # no pytest cache beside the user's files: kept corpora go to the user's cache (slo/cache.py).
    words = [str(Path(spec.origin)), "-p", "cruxgate.conformance.slo.plugin", "-p", "no:cacheprovider",
             "--rootdir", str(Path.cwd())]
    words += target_options.OPTIONS.pytest_words(vars(args))
    words += slo_options.OPTIONS.pytest_words(vars(args))
    if args.keyword:
        words += ["-k", args.keyword]
    return words


def run(args: argparse.Namespace) -> int:
    """Run the harness under pytest, in a fresh interpreter; its exit status.

    A fresh one, because this process has imported cruxgate already: pytest could no longer rewrite the
    asserts of its plugins, and says so in a warning on every run.
    """
    return subprocess.call([sys.executable, "-m", "pytest", *pytest_arguments(args), *args.pytest_args])
