"""The scale benchmark's floors: tree-sitter alone over a corpus, and Universal Ctags over the same files.

`python3 benchmarks/scale_floor.py ROOT [--workers N]` is the tree-sitter floor: every file the indexer
would parse (the same scan, the same grammar per file) is read, parsed and run through the same compiled
query the extractor runs (definitions, calls and imports in one query), in a fork pool of as many workers
as the indexer uses, and nothing else: no symbol, no edge, no write. What a full index run costs beyond
this is the indexer's own (extraction in Python, resolution, SQLite, Tantivy, the semantic fit).

`tree_sitter_floor(root)` runs it as a child process, as the indexer is run (interpreter start included), and
Universal Ctags (`ctags -R`, single-threaded, tags written to /dev/null) when it is on the PATH.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from cruxgate.reference.index.build import CHUNK_SIZE, worker_count
from cruxgate.reference.index.pool import fork_pool
from cruxgate.reference.index.state import STATE_DIR


@dataclass(frozen=True)
class Timed:
    """A child process's wall time and CPU time (user + system, its reaped children included)."""

    seconds: float
    cpu_seconds: float


def _parse(task: tuple[str, str, str]) -> int:
    """Read, parse and query one file; the number of matches (so nothing is optimised away)."""
    from tree_sitter import QueryCursor

    from cruxgate.reference.index.languages.grammar import grammar

    root, path, grammar_name = task
    with open(os.path.join(root, path), "rb") as fh:
        data = fh.read()
    g = grammar(grammar_name)
    return len(QueryCursor(g.query).matches(g.parser.parse(data).root_node))


def parse_tasks(root: Path) -> list[tuple[str, str, str]]:
    """(root, path, grammar) of every file of `root` the indexer parses: its scan, its grammar per file."""
    from cruxgate.reference.index.languages import language_of
    from cruxgate.reference.index.scan import scan

    tasks = []
    for candidate in scan(root).files:
        found = language_of(candidate.path)
        if found is not None:
            tasks.append((str(root), candidate.path, found[1]))
    return tasks


def floor(root: Path, workers: int) -> int:
    """Parse and query every file of `root` the indexer parses; the total number of matches."""
    tasks = parse_tasks(root)
    if workers <= 1:
        return sum(map(_parse, tasks))
    with fork_pool(workers) as pool:
        return sum(pool.imap(_parse, tasks, chunksize=CHUNK_SIZE))


@dataclass(frozen=True)
class Child:
    """What a child process run to its end left: its stdout, exit code, wall and CPU time, peak RSS."""

    out: str
    code: int
    timed: Timed
    peak_rss_mb: float


def run_child(argv: list[str]) -> Child:
    """Run `argv` to its end (stderr dropped); times and peak RSS from wait4, its reaped children included."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    out = process.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    return Child(out, process.returncode, Timed(seconds, usage.ru_utime + usage.ru_stime), usage.ru_maxrss / 1024)


def _timed(argv: list[str]) -> Timed:
    child = run_child(argv)
    if child.code != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {child.code}: {child.out[-500:]}")
    return child.timed


def tree_sitter_floor(root: Path, workers: int | None = None) -> Timed:
    """The floor of `root` run as a child process with the indexer's worker count."""
    return _timed([sys.executable, str(Path(__file__).resolve()), str(root), "--workers",
                   str(workers or worker_count())])


def ctags(root: Path) -> Timed | None:
    """Universal Ctags over `root` (its state folder excluded), or None when ctags is not on the PATH."""
    found = shutil.which("ctags")
    if found is None:
        return None
    return _timed([found, "-R", f"--exclude={STATE_DIR}", "-f", os.devnull, str(root)])


def main(argv: list[str] | None = None) -> int:
    """Run the floor over one corpus."""
    parser = argparse.ArgumentParser(prog="benchmarks/scale_floor.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--workers", type=int, default=worker_count())
    args = parser.parse_args(argv)
    print(floor(args.root.resolve(), args.workers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
