"""Measure one scale corpus: full, unchanged and one-file edit index runs (time, CPU, peak RSS) beside the
tree-sitter floor and Universal Ctags, index size, warm latency over stdio.

The indexer runs as `python -m cruxgate index` in a child process, as a user runs it: its wall time
includes the interpreter's start, its CPU time (from wait4) that of its pool workers too, and its peak
RSS that of its largest process, the main one or a pool worker. The floor (`scale_floor.py`) and ctags
run the same way, alternated with the full runs: a floor run before the first full run and after each, so
every full run sits between two floor runs (`bracketed`). The server is the bundled reference over stdio, driven
by the conformance runner's own connection; its peak RSS is read from /proc after the timed calls. Every size's
server is up at once and their calls alternate (`serve_and_time`), so a slower spell of the machine falls on every
size alike instead of on the size measured while it lasted: the growth from the smallest to the largest corpus is
what the latency targets judge.
"""

from __future__ import annotations

import gc
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import scale_floor
from anyio.from_thread import start_blocking_portal

from cruxgate.conformance.slo.sampling import Figures, Sample, timed
from cruxgate.conformance.target.profile import DEFAULT_TIMEOUTS
from cruxgate.conformance.target.wire import Connection
from cruxgate.reference.index import read_state

SUMMARY = re.compile(r"^indexed (\d+) files, (\d+) symbols")
TOOLS = ("search_code", "locate_symbol", "find_references", "get_file_outline")
QUERY_SEED = 20261125
MISS = "symbol_not_found"


@dataclass(frozen=True)
class IndexRun:
    """One `cruxgate index` run."""

    seconds: float
    peak_rss_mb: float
    files: int
    symbols: int
    cpu_seconds: float = 0.0


@dataclass
class Queries:
    """The calls timed at every size, drawn once from the smallest corpus (present at every size)."""

    names: list[str]
    searches: list[str]
    paths: list[str]

    def arguments(self, tool: str, i: int) -> dict[str, Any]:
        """The arguments of call `i` of `tool`."""
        if tool == "search_code":
            return {"query": self.searches[i % len(self.searches)], "limit": 10}
        if tool == "get_file_outline":
            return {"path": self.paths[i % len(self.paths)]}
        return {"name": self.names[i % len(self.names)], "limit": 10}


@dataclass
class Latency:
    """A tool's warm calls: on the wire (what the SLO harness judges: the server's part) and whole, as the client
    saw them (the SDK client's check of each answer against the tool's outputSchema included)."""

    wire: Figures
    client: Figures


@dataclass
class Result:
    """The figures of one corpus size."""

    size: int
    files: int
    bytes: int
    symbols: int
    full: list[IndexRun]
    reindex: list[IndexRun]
    edits: list[IndexRun]
    floors: list[scale_floor.Timed]
    ctags: list[scale_floor.Timed]
    index_mb: float
    server_rss_mb: float = float("nan")  # and what follows: filled in by `serve_all`, every size together
    latency: dict[str, Latency] = field(default_factory=dict)
    after_pause: Latency | None = None
    pause_s: float = 0.0

    def record(self) -> dict[str, Any]:
        """The JSON row of this size (what docs/scale.json keeps and scale_report.table reads)."""
        def median(runs: list, attribute: str = "seconds") -> float:
            return round(statistics.median(getattr(r, attribute) for r in runs), 3)

        def each(runs: list, attribute: str = "seconds") -> list[float]:
            return [round(getattr(r, attribute), 3) for r in runs]

        return {"size": self.size, "files": self.files, "bytes": self.bytes, "symbols": self.symbols,
                "full_s": median(self.full), "full_runs_s": each(self.full),
                "full_cpu_s": median(self.full, "cpu_seconds"), "full_cpu_runs_s": each(self.full, "cpu_seconds"),
                "reindex_s": median(self.reindex), "reindex_runs_s": each(self.reindex),
                "edit_s": median(self.edits), "edit_runs_s": each(self.edits),
                "edit_cpu_s": median(self.edits, "cpu_seconds"),
                "floor_s": median(self.floors), "floor_runs_s": each(self.floors),
                "floor_cpu_s": median(self.floors, "cpu_seconds"), "floor_cpu_runs_s": each(self.floors, "cpu_seconds"),
                "floor_ratio_range": bracket_range(self.full, self.floors, "seconds"),
                "floor_ratio_cpu_range": bracket_range(self.full, self.floors, "cpu_seconds"),
                "ctags_s": median(self.ctags) if self.ctags else None,
                "indexer_rss_mb": round(max(r.peak_rss_mb for r in self.full), 1),
                "index_mb": round(self.index_mb, 1), "server_rss_mb": round(self.server_rss_mb, 1),
                "latency": {tool: {"p50": round(f.wire.p50, 3), "p95": round(f.wire.p95, 3),
                                   "client_p50": round(f.client.p50, 3), "client_p95": round(f.client.p95, 3),
                                   "count": f.wire.count}
                            for tool, f in self.latency.items()},
                **({"search_code_after_pause": {"pause_s": self.pause_s, "p50": round(self.after_pause.wire.p50, 3),
                                                "p95": round(self.after_pause.wire.p95, 3),
                                                "count": self.after_pause.wire.count}}
                   if self.after_pause is not None else {})}


def index(root: Path, force: bool) -> IndexRun:
    """Run `python -m cruxgate index root` (with `--force` for a full rebuild) and measure it."""
    argv = [sys.executable, "-m", "cruxgate", "index", str(root), "--quiet", *(["--force"] if force else [])]
    child = scale_floor.run_child(argv)
    match = SUMMARY.search(child.out)
    if child.code != 0 or match is None:
        raise RuntimeError(f"{' '.join(argv)} exited {child.code}: {child.out[-500:]}")
    return IndexRun(child.timed.seconds, child.peak_rss_mb, int(match[1]), int(match[2]), child.timed.cpu_seconds)


def index_bytes(root: Path) -> int:
    """Bytes of the live generation on disk."""
    generation = read_state(root).generation
    assert generation is not None
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(generation) for f in files)


def queries(root: Path, count: int) -> Queries:
    """Names, search queries and outline paths drawn with a fixed seed from `root`'s text."""
    from cruxgate.conformance.slo.corpus import name_queries, search_queries

    paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py") if ".cruxgate" not in p.parts)
    return Queries(name_queries(root, count), search_queries(root, count),
                   random.Random(QUERY_SEED).sample(paths, min(count, len(paths))))


def _server_pid(workspace: Path) -> int | None:
    """The pid of the serve-mcp process serving `workspace` (the stdio transport does not expose it)."""
    wanted = str(workspace).encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
        except OSError:
            continue
        if b"serve-mcp" in argv and wanted in argv:
            return int(entry)
    return None


def peak_rss_mb(pid: int) -> float:
    """VmHWM (peak resident set) of `pid`, in MB."""
    with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmHWM for pid {pid}")


@dataclass(frozen=True)
class Served:
    """One size's server: its tools' warm latencies, its peak RSS, and search_code's after pauses (None: not
    measured)."""

    latency: dict[str, Latency]
    rss_mb: float
    after_pause: Latency | None


def serve_and_time(roots: list[Path], plan: Queries, rounds: int, warmup: int, pauses: int = 0,
                   pause_s: float = 1.0) -> list[Served]:
    """Start the reference over stdio on every root at once, wait for each one's prewarm, time every tool with the
    roots' calls alternating (`_time_tool`), then `pauses` search_code calls per root each after `pause_s` seconds
    without a call (`_time_after_pauses`)."""
    timeouts = {**DEFAULT_TIMEOUTS, "start": 120.0}
    with start_blocking_portal() as portal:
        connections: list[Connection] = []
        try:
            for root in roots:
                argv = [sys.executable, "-m", "cruxgate", "serve-mcp", "--workspace", str(root)]
                connections.append(Connection(portal, "stdio", argv=argv, timeouts=timeouts).open())
            for connection in connections:
                _wait_ready(connection, timeouts["start"])
            by_tool = {tool: _time_tool(connections, plan, tool, rounds, warmup) for tool in TOOLS}
            paused = _time_after_pauses(connections, plan, pauses, pause_s) if pauses else [None] * len(roots)
            served = []
            for n, root in enumerate(roots):
                pid = _server_pid(root)
                served.append(Served({tool: by_tool[tool][n] for tool in TOOLS},
                                     peak_rss_mb(pid) if pid is not None else float("nan"), paused[n]))
        finally:
            for connection in connections:
                connection.close()
    return served


def _wait_ready(connection: Connection, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if connection.call_tool("health_check", {}).payload.get("status") != "warming":
            return
        time.sleep(0.05)


def _call(connection: Connection, plan: Queries, tool: str, i: int) -> float:
    """Call `i` of `tool` on `connection`; its time on the wire, ms."""
    connection.wire_clock.begin()
    response = connection.call_tool(tool, plan.arguments(tool, i))
    # A name drawn from the text that no definition and no reference carries (a `def` in a docstring) is
    # answered symbol_not_found by find_references: the same indexed lookups, an answer, not a failure.
    if response.is_error and (response.payload.get("error") or {}).get("code") != MISS:
        raise RuntimeError(f"{tool} {plan.arguments(tool, i)} answered a tool error: {response.payload}")
    return connection.wire_clock.call_ms()


# Calls a server answers back to back before the next size's turn: a block is about 50 ms, fine enough that a slow
# spell of the machine falls on every size; one call at a time instead left each server idle between its calls, and
# what a server does on a timer (a memo's window) then differed from a stream of calls (the calls after a pause have
# their own series).
BLOCK = 10


def _time_tool(connections: list[Connection], plan: Queries, tool: str, rounds: int, warmup: int) -> list[Latency]:
    """`rounds` timed calls of `tool` on each connection, after `warmup` untimed ones, in blocks of BLOCK calls: each
    block goes to every connection in turn, starting one further along each time (no connection always follows the
    same one)."""
    for i in range(warmup):
        for connection in connections:
            _call(connection, plan, tool, i)
    samples: list[list[Sample]] = [[] for _ in connections]
    count = len(connections)
    gc.disable()  # a collection in the client would time the client, not the server (as sampling.py says)
    try:
        for block, first in enumerate(range(0, rounds, BLOCK)):
            for turn in range(count):
                n = (block + turn) % count
                samples[n].extend(timed(partial(_call, connections[n], plan, tool), i)
                                  for i in range(first, min(first + BLOCK, rounds)))
    finally:
        gc.enable()
    return [Latency(Figures.wire(series), Figures.client(series)) for series in samples]


def _time_after_pauses(connections: list[Connection], plan: Queries, pauses: int, pause_s: float,
                       sleep: Callable[[float], None] = time.sleep) -> list[Latency]:
    """`pauses` search_code calls on each connection in turn, each after `pause_s` seconds without any call: an
    agent's pace (it thinks between calls), where what a server defers or lets lapse while idle shows."""
    samples: list[list[Sample]] = [[] for _ in connections]
    for i in range(pauses):
        for n, connection in enumerate(connections):
            sleep(pause_s)
            samples[n].append(timed(partial(_call, connection, plan, "search_code"), i))
    return [Latency(Figures.wire(series), Figures.client(series)) for series in samples]


def bracket_range(full: list[IndexRun], floors: list[scale_floor.Timed], attribute: str) -> list[float]:
    """[lowest, highest] ratio of each full run to the floor runs on either side of it (`bracketed`'s order)."""
    ratios = [getattr(run, attribute) / getattr(floor, attribute)
              for i, run in enumerate(full) for floor in floors[i:i + 2] if getattr(floor, attribute)]
    return [round(min(ratios), 3), round(max(ratios), 3)] if ratios else []


def bracketed(root: Path, repeats: int, say: Callable[[str], None], size: int
              ) -> tuple[list[IndexRun], list[scale_floor.Timed], list[scale_floor.Timed]]:
    """`repeats` full runs, the tree-sitter floor before the first and after each, ctags after each; (full runs,
    floor runs, ctags runs), in the order run.

    One floor run beside one full run moved the ratio by a third at 20k (32.8 and 43.3 CPU-s in two runs of the
    same code): the floor runs either side of every full run give a median at any `repeats` and a range that
    shows that noise."""
    floors = [scale_floor.tree_sitter_floor(root)]
    say(f"  {size}: tree-sitter floor 1/{repeats + 1}: {floors[0].seconds:.1f} s ({floors[0].cpu_seconds:.1f} CPU-s)")
    full, tags = [], []
    for i in range(repeats):
        full.append(index(root, force=True))
        floors.append(scale_floor.tree_sitter_floor(root))
        found = scale_floor.ctags(root)
        if found is not None:
            tags.append(found)
        say(f"  {size}: full index {i + 1}/{repeats}: {full[-1].seconds:.1f} s ({full[-1].cpu_seconds:.1f} CPU-s), "
            f"peak RSS {full[-1].peak_rss_mb:.0f} MB; tree-sitter floor {i + 2}/{repeats + 1}: "
            f"{floors[-1].seconds:.1f} s ({floors[-1].cpu_seconds:.1f} CPU-s); ctags "
            + (f"{found.seconds:.1f} s" if found else "not installed"))
    return full, floors, tags


def measure(size: int, root: Path, corpus_bytes: int, plan: Queries, repeats: int, edit_repeats: int,
            say: Callable[[str], None]) -> Result:
    """The index figures of one corpus: `repeats` full runs between `repeats + 1` tree-sitter floor runs
    (`bracketed`), as many unchanged runs, `edit_repeats` one-file edit runs (medians); the latencies come after
    every size is indexed (`serve_all`)."""
    full, floors, tags = bracketed(root, repeats, say, size)
    again = []
    for i in range(repeats):
        again.append(index(root, force=False))
        say(f"  {size}: unchanged re-index {i + 1}/{repeats}: {again[-1].seconds:.2f} s")
    edited = root / plan.paths[0]
    original = edited.read_bytes()
    edits = []
    try:
        for i in range(edit_repeats):
            # One line appended to one file, as an agent's edit: a new module-level name, parsed and patched in.
            edited.write_bytes(original + f"\nscale_benchmark_edit_{i} = {i}\n".encode())
            edits.append(index(root, force=False))
            say(f"  {size}: one-file edit re-index {i + 1}/{edit_repeats}: {edits[-1].seconds:.2f} s "
                f"({edits[-1].cpu_seconds:.2f} CPU-s)")
    finally:
        edited.write_bytes(original)
    index(root, force=False)  # the served index is the corpus's own again
    return Result(size=size, files=full[-1].files, bytes=corpus_bytes, symbols=full[-1].symbols, full=full,
                  reindex=again, edits=edits, floors=floors, ctags=tags, index_mb=index_bytes(root) / 1e6)


def serve_all(results: list[Result], roots: list[Path], plan: Queries, rounds: int, warmup: int,
              say: Callable[[str], None], pauses: int = 0, pause_s: float = 1.0) -> None:
    """The warm latencies, search_code's after pauses and the server peak RSS of every size (`serve_and_time`),
    into `results`."""
    say(f"serving {', '.join(str(r.size) for r in results)} files at once, their calls alternating"
        + (f"; then {pauses} search_code calls each after {pause_s:g} s without a call" if pauses else ""))
    for result, served in zip(results, serve_and_time(roots, plan, rounds, warmup, pauses, pause_s), strict=True):
        result.latency, result.server_rss_mb = served.latency, served.rss_mb
        result.after_pause, result.pause_s = served.after_pause, pause_s
        after = served.after_pause
        say(f"  {result.size}: served, peak RSS {served.rss_mb:.0f} MB; "
            + ", ".join(f"{tool} p95 {f.wire.p95:.1f} ms ({f.client.p95:.1f} whole)"
                        for tool, f in served.latency.items())
            + (f"; search_code after pauses p50 / p95 {after.wire.p50:.1f} / {after.wire.p95:.1f} ms"
               if after is not None else ""))
