"""`python3 benchmarks/index_rss.py WORKSPACE`: a full index run's resident memory, step by step.

On demand, not a test. Runs `index_workspace(WORKSPACE, force=True)` in this process (index a copy: the run
writes `WORKSPACE/.cruxgate`), reads VmRSS every 10 ms and prints the highest value seen in each step of the
run: the write phase, Tantivy's commit, the semantic fit (its SVD and its graph), the resolver's tables, the edges'
resolution, each with the highest anonymous part seen (the rest is mapped files: Tantivy's segments, the page
cache the kernel can take back) and its wall time between the first and last sample; then the process's peak
(getrusage; scale.py's figure, which also counts the interpreter's start) and CPU time. docs/benchmarks.md
quotes it. A sample every 10 ms can miss a peak shorter than that: the getrusage figure is the whole-run one.
"""

from __future__ import annotations

import argparse
import os
import resource
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from cruxgate.reference.index import build, store
from cruxgate.reference.index.semantic import build as semantic_build
from cruxgate.reference.index.semantic import graph

INTERVAL = 0.01


def _rss_mb() -> tuple[float, float]:
    """This process's resident set now and its anonymous part (the rest is mapped files: the page cache), in MB."""
    found = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(("VmRSS:", "RssAnon:")):
                found[line.split(":")[0]] = int(line.split()[1]) / 1024
    return found.get("VmRSS", 0.0), found.get("RssAnon", 0.0)


class _Steps:
    """The step the run is in, and the highest resident set sampled in each."""

    def __init__(self) -> None:
        self.step = "extract and write"
        self.peaks: dict[str, tuple[float, float]] = {}  # step -> (highest VmRSS, highest RssAnon)
        self.spans: dict[str, tuple[float, float]] = {}  # step -> (first, last sample's time)
        self.done = threading.Event()

    def sample(self) -> None:
        """Sample until `done` (run in a thread)."""
        while not self.done.is_set():
            (rss, anon), step = _rss_mb(), self.step
            high = self.peaks.get(step, (0.0, 0.0))
            self.peaks[step] = (max(high[0], rss), max(high[1], anon))
            now = time.perf_counter()
            self.spans[step] = (self.spans.get(step, (now, now))[0], now)
            time.sleep(INTERVAL)

    def around(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """`function`, with the step set to `name` while it runs."""
        def step(*args: Any, **kwargs: Any) -> Any:
            self.step = name
            try:
                return function(*args, **kwargs)
            finally:
                self.step = f"after {name}"
        return step

    def resolving(self, function: Callable[..., Iterator[list[tuple]]]) -> Callable[..., Iterator[list[tuple]]]:
        """`build._resolved_edges`, with the step set while it yields."""
        def step(*args: Any) -> Iterator[list[tuple]]:
            self.step = "resolve edges"
            yield from function(*args)
            self.step = "store edges, SQLite indices"
        return step


def main(argv: list[str] | None = None) -> int:
    """Index the workspace once, fully, and print the peaks."""
    parser = argparse.ArgumentParser(prog="benchmarks/index_rss.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("workspace", type=Path, help="the tree to index (a copy: its .cruxgate is rewritten)")
    args = parser.parse_args(argv)
    steps = _Steps()
    semantic_build.SemanticIndexBuilder.write = steps.around(  # type: ignore[method-assign]
        "semantic fit", semantic_build.SemanticIndexBuilder.write)
    store.GenerationWriter.wait_search_indices = steps.around(  # type: ignore[method-assign]
        "Tantivy commit", store.GenerationWriter.wait_search_indices)
    semantic_build._lsi = steps.around("semantic fit: SVD", semantic_build._lsi)
    graph.build = steps.around("semantic fit: graph", graph.build)
    build._resolver = steps.around("resolver tables", build._resolver)
    build._resolved_edges = steps.resolving(build._resolved_edges)
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    sampler = threading.Thread(target=steps.sample, daemon=True)
    sampler.start()
    summary = build.index_workspace(args.workspace, force=True)
    steps.done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print(summary.line())
    print(f"  {'step':30s} {'RSS':>7s}    {'anonymous':>9s}  wall s")
    for step, (peak, anon) in steps.peaks.items():
        first, last = steps.spans[step]
        print(f"  {step:30s} {peak:7.0f} MB {anon:7.0f} MB {last - first:7.1f}")
    cpu = [a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime for a, b in zip(after, before, strict=True)]
    print(f"peak RSS {after[0].ru_maxrss / 1024:.0f} MB (getrusage); CPU {cpu[0]:.1f} s this process + "
          f"{cpu[1]:.1f} s its workers; load average (1 min) {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
