"""`python3 benchmarks/scale.py`: the scale benchmark, on demand: corpora of 1k, 5k and 20k files, one table and plot.

Set-up first (pip installs the pinned packages into the cache, corpora are copied), then, with nothing
downloaded, for each size: full index runs, unchanged re-index runs, re-index runs after a one-line edit of
one file, index size; then the warm latency of four tools over stdio, every size served at once and their calls
alternating. Writes docs/scale.json, docs/scale.svg
and the table between the markers in docs/benchmarks.md. Not a test: `pytest` and CI's smoke run never
collect it.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))  # run as a script: its sibling modules import by bare name, as under pytest

import scale_corpus  # noqa: E402 - after the path
import scale_report  # noqa: E402
import scale_run  # noqa: E402
import semantic_recall  # noqa: E402

from cruxgate.conformance.spec.paths import user_cache_root  # noqa: E402

DOCS = ROOT / "docs" / "benchmarks.md"
DATA = ROOT / "docs" / "scale.json"
PLOT = ROOT / "docs" / "scale.svg"
README = ROOT / "README.md"


def main(argv: list[str] | None = None) -> int:
    """Set up, measure every size, write the table, plot and record."""
    parser = argparse.ArgumentParser(prog="benchmarks/scale.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(scale_corpus.SIZES), help="corpus sizes (files)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="full runs (each between two tree-sitter floor runs, each beside ctags), unchanged "
                             "runs per size")
    parser.add_argument("--edits", type=int, default=3, help="one-file edit re-index runs per size (median)")
    parser.add_argument("--rounds", type=int, default=200, help="timed calls per tool per size")
    parser.add_argument("--warmup", type=int, default=20, help="untimed calls per tool first")
    parser.add_argument("--pauses", type=int, default=20,
                        help="search_code calls per size each after --pause seconds without a call (0: none)")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds without a call before each of those")
    parser.add_argument("--queries", type=int, default=100, help="distinct queries drawn from the smallest corpus")
    parser.add_argument("--cache", type=Path, default=user_cache_root() / "benchmarks" / "scale",
                        help="where the packages and corpora are kept (default: the benchmarks' user cache)")
    parser.add_argument("--no-docs", action="store_true", help="print the table only; write nothing into docs/")
    args = parser.parse_args(argv)

    def say(line: str) -> None:
        print(line, flush=True)

    args.cache.mkdir(parents=True, exist_ok=True)
    say(f"set-up: installing {', '.join(scale_corpus.PACKAGES)} into {args.cache} (once)")
    scale_corpus.install(args.cache)
    files = scale_corpus.pool(args.cache)
    corpora = [scale_corpus.build(args.cache, size, files) for size in sorted(args.sizes)]
    plan = scale_run.queries(corpora[0].root, args.queries)
    say(f"set-up done: a pool of {len(files)} source files; queries drawn from the {corpora[0].size}-file corpus")
    load_before = os.getloadavg()
    results = []
    for corpus in corpora:
        say(f"measuring {corpus.size} files ({corpus.bytes / 1e6:.1f} MB)")
        results.append(scale_run.measure(corpus.size, corpus.root, corpus.bytes, plan, args.repeats, args.edits, say))
    scale_run.serve_all(results, [corpus.root for corpus in corpora], plan, args.rounds, args.warmup, say,
                        args.pauses, args.pause)
    rows = [r.record() for r in results]
    questions = [q["query"] for q in semantic_recall.load_queries()]
    for row, corpus in zip(rows, corpora, strict=True):
        row["semantic"] = semantic_recall.measure(corpus.root, questions)
    header = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python3 benchmarks/scale.py" + (" " + " ".join(argv or sys.argv[1:])).rstrip(),
        "corpus": f"stdlib (Python {platform.python_version()}) + {', '.join(scale_corpus.PACKAGES)}, "
                  f"fixed-seed nested samples of their source files",
        "machine": f"{os.cpu_count()} cores, {platform.machine()}",
        "load average (1 min) before / after": f"{load_before[0]:.2f} / {os.getloadavg()[0]:.2f}",
        "timings": f"medians of {args.repeats} full and unchanged index runs, {args.repeats + 1} tree-sitter floor "
                   f"runs (one before and one after each full run), {args.edits} edit runs; "
                   f"{args.rounds} warm calls per tool, every size's server up at once and their calls "
                   f"alternating, then {args.pauses} search_code calls per size each after {args.pause:g} s "
                   f"without a call "
                   f"(p50 / p95 nearest rank, on the wire as the SLO harness reads them: the request's last byte "
                   f"written to the answer's last byte read; in brackets the whole call's p95 as the client saw "
                   f"it, the SDK's check of the answer against the tool's outputSchema included)",
    }
    say(scale_report.tables(rows))
    say(semantic_recall.table(rows))
    if not args.no_docs:
        scale_report.write(rows, header, DOCS, DATA, PLOT, README)
        say(f"wrote {DOCS.relative_to(ROOT)}, {DATA.relative_to(ROOT)}, {PLOT.relative_to(ROOT)}, README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
