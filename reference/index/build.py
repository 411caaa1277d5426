"""index_workspace: scan, extract in a process pool, write a new generation aside, then flip CURRENT."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import gc
import hashlib
import importlib
import json
import marshal
import os
import posixpath
import queue
import re
import shutil
import sqlite3
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

from cruxgate import __version__

from .background import Background
from .extract import FileExtract, content_hash, extract
from .extracts import ExtractStore
from .git import git_head
from .heap import trim_heap as _trim_heap
from .incremental import Patch, PatchDatabase, PatchUnavailable, link_indices, worth_patching
from .languages import language_of
from .packages import MODULE_LAYOUT, Layout, changed_modules
from .reading import Refused, read_file, settled, signature_text
from .resolve import RESOLUTION, Resolver, registered
from .rowlog import SPARE_LIST, Chain, ancestors, chain_to, make_spares, spare_files, spares
from .scan import Candidate, ScanReport, is_binary, scan
from .seal import link_generation, sealed_files, write_seal
from .semantic_manifest import FORMAT, semantic_format, sentence_identity
from .state import (
    CURRENT,
    DATABASE,
    GENERATION_PREFIX,
    LIVE_REF,
    MANIFEST,
    SCHEMA_VERSION,
    STATE_DIR,
    private_state_dir,
    read_state,
    write_atomic,
)
from .store import GenerationWriter
from .stored_tables import lookup_tables

if TYPE_CHECKING:
    from .semantic.build import SemanticIndexBuilder
    from .semantic.sentence import SentenceModel


TOOL_VERSION = __version__  # the manifest's tool_version: which release wrote the index
POOL_THRESHOLD = 48  # fewer files to parse than this: parse in-process (a pool costs more than it saves)
CHUNK_SIZE = 8

Progress = Callable[[int, int], None]


def _patchable() -> dict[str, str]:
    """What a generation must have been written by to be patched (the release, the module rule, the resolution
    rule), as its manifest names it."""
    return {"tool_version": TOOL_VERSION, "module_layout": MODULE_LAYOUT, "resolution": RESOLUTION}


class WorkspaceError(Exception):
    """The workspace cannot be indexed at all (missing, not a directory, state dir not writable)."""


@dataclass(frozen=True)
class IndexSummary:
    """What one index run did."""

    workspace: Path
    generation: str
    file_count: int
    symbol_count: int
    edge_count: int
    unresolved_edge_count: int
    parsed_files: int
    reused_files: int
    parse_error_files: int
    skipped_files: int
    seconds: float
    manifest: dict
    # One line per file that was skipped as unreadable or did not parse cleanly, and per ignore-file pattern skipped.
    problems: tuple[str, ...] = ()

    def line(self) -> str:
        """A one-line human summary."""
        rate = self.file_count / self.seconds if self.seconds > 0 else 0.0
        return (f"indexed {self.file_count} files, {self.symbol_count} symbols, {self.edge_count} edges "
                f"({self.unresolved_edge_count} unresolved) in {self.seconds:.2f}s ({rate:.0f} files/s): "
                f"{self.parsed_files} parsed, {self.reused_files} unchanged, "
                f"{self.parse_error_files} with parse errors, {self.skipped_files} skipped "
                f"-> {STATE_DIR}/{self.generation}")


# -- worker side -------------------------------------------------------------------------

def _signature_text(st: os.stat_result) -> str | None:
    """The signature a file read now is remembered by (`ExtractStore.signatures`); None when not yet settled."""
    return signature_text(st) if settled(st) else None


Task = tuple[str, str, str | None, str | None]  # (workspace, path, the live generation's hash, module in the layout)


def _text(root: Path, path: str) -> str | None:
    """A workspace file's text, read as the indexer reads every file (None when it cannot be read as UTF-8)."""
    try:
        return read_file(str(root), path).data.decode("utf-8")
    except (OSError, UnicodeDecodeError):  # Refused is an OSError
        return None


def _task(root: Path, layout: Layout, path: str, old_hash: str | None) -> Task:
    """What a worker needs to read and extract `path`."""
    return (str(root), path, old_hash, layout.module(path))


def _work(task: Task) -> tuple:
    """Read, hash and (when the content changed) extract one file. Runs in a pool worker.

    ("error", path, reason), or, with the signature to remember the file's hash by last:
    ("binary", path, signature), ("same", path, hash, signature), ("parsed", path, extract, signature).
    """
    root, path, old_hash, module = task
    try:
        read = read_file(root, path)
    except Refused as refused:
        return ("error", path, refused.reason)
    data, sig = read.data, _signature_text(read.stat)
    if is_binary(data):
        return ("binary", path, sig)
    digest = content_hash(data)
    if digest == old_hash:
        return ("same", path, digest, sig)
    lang = language_of(path, data)
    try:
        language, grammar = lang or (None, None)
        result = extract(path, data, language, grammar, digest=digest, module=module)
    except Exception:  # noqa: BLE001 - a file the extractor chokes on is indexed as text and counted
        result = extract(path, data, None, None, digest=digest)
        result.language = lang[0] if lang else None
        result.parse_errors = max(result.parse_errors, 1)
    return ("parsed", path, result.dumps(), sig)


# Files handed to the workers whose results the run has not taken yet. The workers parse faster than the run stores
# (one writer), and results they run ahead with wait in memory: this many at most, never the tree's.
IN_FLIGHT = 256


class _Window:
    """Hands tasks to the pool only while fewer than `size` results wait to be taken."""

    def __init__(self, tasks: list[Task], size: int) -> None:
        self.tasks, self.room, self.open = tasks, threading.Semaphore(size), True

    def feed(self) -> Iterator[Task]:
        """The tasks, each once there is room for its result (read by the pool's task thread)."""
        for task in self.tasks:
            self.room.acquire()
            if not self.open:
                return
            yield task

    def taken(self, results: Iterator[tuple]) -> Iterator[tuple]:
        """`results`, making room for one more task as each is taken."""
        for item in results:
            self.room.release()
            yield item

    def close(self) -> None:
        """No more tasks: a feed waiting for room stops (the pool's task thread must end for the pool to)."""
        self.open = False
        self.room.release()


@contextmanager
def _extraction(tasks: list[Task], workers: int) -> Iterator[Iterator[tuple]]:
    """The workers' results in task order; the pool (if any) is forked on entry and stopped on exit."""
    if workers <= 1 or len(tasks) < POOL_THRESHOLD:
        yield map(_work, tasks)
        return
    # Here, not at the top: multiprocessing's pool (and the socket and selector modules it pulls in) is a full run's
    # only, and a one-file patch would import it for nothing.
    from .pool import fork_pool

    window = _Window(tasks, max(IN_FLIGHT, CHUNK_SIZE))  # the pool sends whole chunks: room for one at least
    with fork_pool(workers, initializer=gc.disable) as pool:
        try:
            yield window.taken(pool.imap(_work, window.feed(), chunksize=CHUNK_SIZE))
        finally:
            window.close()


def worker_count() -> int:
    """One worker per usable core."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


# -- generations ---------------------------------------------------------------------------

def _generations(state: Path) -> list[tuple[int, Path]]:
    out = []
    for child in state.iterdir() if state.is_dir() else ():
        suffix = child.name[len(GENERATION_PREFIX):]
        if child.name.startswith(GENERATION_PREFIX) and suffix.isdigit() and child.is_dir():
            out.append((int(suffix), child))
    return sorted(out)


def _previous_hashes(generation: Path | None) -> dict[str, str]:
    """path -> content hash of the live generation's files (their extractions are in the ExtractStore)."""
    if generation is None:
        return {}
    try:
        db = sqlite3.connect(f"file:{generation / DATABASE}?mode=ro", uri=True)
        try:
            return dict(db.execute("SELECT path, content_hash FROM files"))
        finally:
            db.close()
    except sqlite3.Error:
        return {}


def _lock(state: Path):
    """The state folder's lock file, held (flock) for the whole run; never a link or a FIFO (a tree may bring
    a `.cruxgate` of its own: opening a FIFO for writing would wait for a reader for ever)."""
    fd = os.open(state / "lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file", str(state / "lock"))
    handle = open(fd, "a+")  # noqa: SIM115 - held for the whole run
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


# -- the run -------------------------------------------------------------------------------

def index_workspace(workspace: Path | str, force: bool = False, progress: Progress | None = None,
                    workers: int | None = None, sentence: SentenceModel | None = None) -> IndexSummary:
    """Index `workspace` into a new generation; incremental by content hash unless `force`. With `sentence` (the
    semantic channel's sentence backend), its semantic index also holds each row's vector from that model."""
    started = time.perf_counter()
    root = Path(workspace)
    if not root.exists():
        raise WorkspaceError(f"workspace {root} does not exist")
    if not root.is_dir():
        raise WorkspaceError(f"workspace {root} is not a directory")
    root = root.resolve()
    state = root / STATE_DIR
    try:
        private_state_dir(root)
        lock = _lock(state)
    except OSError as err:
        raise WorkspaceError(f"cannot write {state}: {err.strerror or err}") from err
    # The run allocates millions of small, acyclic objects: the cyclic GC would rescan them
    # over and over (seconds on a large tree) and never free anything.
    gc_enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(root, state, force, progress, workers or worker_count(), started, sentence)
    finally:
        if gc_enabled:
            gc.enable()
        lock.close()


def _run(root: Path, state: Path, force: bool, progress: Progress | None, workers: int,
         started: float, sentence: SentenceModel | None = None) -> IndexSummary:
    live = read_state(root)
    previous = live.generation if live.status == "ready" and not force else None
    # HEAD before the scan: a commit made while the run reads the tree leaves the manifest behind
    # (the server syncs again), never ahead of what was indexed (`fresh` with the older files).
    head = git_head(root) or None  # none for a branch with no commit yet
    report = scan(root)
    old = _previous_hashes(previous)
    sealed = None
    # A generation whose modules were counted, or names resolved, by another rule (an older release's) is not
    # patched: a full run extracts again every file whose stored module differs.
    patchable = _patchable()
    if previous is not None and {key: (live.manifest or {}).get(key) for key in patchable} == patchable:
        sealed = sealed_files(previous)
    layout = Layout((candidate.path for candidate in report.files), read=partial(_text, root))
    gens = _generations(state)
    number = (gens[-1][0] + 1) if gens else 1
    name = f"{GENERATION_PREFIX}{number}"  # past every generation there is, a leftover's too: names are never reused
    _remove_leftovers(state, live.generation if live.status != "not_indexed" else None)
    # The generations before the one the live generation replaced go in a thread, beside this run's
    # patch, not on the critical path of the run that replaced them. The newest of them whose database the live
    # generation's row logs bring forward goes once a patch has taken its database over (or has not).
    superseded = _superseded(state, live.generation)
    chain = chain_to(previous, superseded) if previous is not None and sealed is not None else None
    collector = _Collector([path for path in superseded if chain is None or not chain.collected or path != chain.base])
    generation = state / name
    generation.mkdir()
    store = ExtractStore(state, TOOL_VERSION)
    names_complete = previous is not None and store.names_of() == previous.name
    try:
        known = store.signatures() if sealed else None
        tree = _classify(root, report.files, old, known, progress) if known is not None else None
        if tree is not None:
            tree.with_modules_of(layout)
        remembered = tree.remembered if tree is not None else []
        totals = None
        if _sentence_of(previous) != (sentence.identity if sentence is not None else None) \
                or _format_of(previous) != FORMAT:
            tree = None  # sentence vectors of another model, or none where they are wanted; another format: a full run
        if tree is not None and sealed is not None and previous is not None:
            if tree.unchanged(old):
                if link_generation(previous, generation, sealed):
                    totals = _linked_totals(generation, (tree.hashes, tree.binary), _counts(live.manifest))
                    _move_spares(previous, generation)  # the same rows: the patches after this run take them
            elif tree.readable and worth_patching(len(tree.changed) + len(tree.deleted), len(report.files)):
                totals = _patch(root, previous, tree, old, generation, store, chain, _counts(live.manifest),
                                layout, sentence)
        _collect_base(chain, collector)
        if totals is None:
            collector.join()  # no thread under way when the full run forks its pool
            shutil.rmtree(generation)  # a link or patch that stopped half-way leaves files behind
            generation.mkdir()
            totals = _build(root, previous, report, old, generation, store, layout, progress, workers, sentence)
            remembered = totals.remembered
        cursor = totals.cursor or _cursor(totals.hashes)
        manifest = {
            "schema_version": SCHEMA_VERSION,
            "status": "ready",
            "cursor": cursor,
            "git_head": head,
            "file_count": totals.file_count,
            "symbol_count": totals.symbol_count,
            "edge_count": totals.edge_count,
            "unresolved_edge_count": totals.unresolved_edge_count,
            "indexed_at": datetime.now(UTC).isoformat(timespec="seconds"),
            **_patchable(),
            "ref": LIVE_REF,
            # What git tracks although an ignore pattern matches it: the server's staleness walk reads it as the scan.
            **({"tracked_ignored": report.tracked_ignored} if report.tracked_ignored else {}),
        }
        if not totals.linked:
            write_seal(generation)
        write_atomic(generation / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        _before_flip(generation)
        write_atomic(state / CURRENT, name + "\n")
    except BaseException:
        _collect_base(chain, collector)
        collector.join()
        shutil.rmtree(generation, ignore_errors=True)
        store.close()
        raise
    # A full run's spares are copied once it is live (nothing the run needs is written after them: on a disk
    # short of room, they are what fails), beside what the run does last.
    spare = _Spares(generation) if not totals.linked and totals.touched is None else None
    # A full build stored every file's edge names; a patch or a link adds to a store that held the previous ones.
    store.record_names_of(name if names_complete or not (totals.linked or totals.touched is not None) else None)
    if totals.touched is None:
        store.prune(totals.hashes)
    else:  # only these paths' extractions can have gone stale
        touched = set(totals.touched)
        store.prune([(path, digest) for path, digest in totals.hashes if path in touched], touched)
    # An empty `known` may be a read that failed: the table is read then.
    store.put_signatures(remembered, {candidate.path for candidate in report.files}, known or None)
    store.close()
    # Spares serve the next two patches: those of this generation and, after a patch or a link, of the one it
    # replaced and of those its logs lead back to (the next patches' log chains reach them: after an unchanged run
    # that linked a patched generation, the full run's spare the patch left); any other's never serve again.
    keep = {generation} if spare is not None or previous is None else {generation, previous, *ancestors(generation)}
    for _, path in _generations(state):
        if path not in keep and path not in superseded:
            for file in spare_files(path):
                collector.add(file)
    if spare is not None:
        spare.join()
    collector.join()
    return IndexSummary(workspace=root, generation=name, file_count=totals.file_count,
                        symbol_count=totals.symbol_count, edge_count=totals.edge_count,
                        unresolved_edge_count=totals.unresolved_edge_count, parsed_files=totals.parsed,
                        reused_files=totals.reused, parse_error_files=totals.errors,
                        skipped_files=totals.skipped + report.skipped,
                        seconds=time.perf_counter() - started, manifest=manifest,
                        problems=tuple(sorted(report.problems + report.notes + totals.problems)))


@dataclass
class _Totals:
    """What a run wrote, whether built or linked."""

    file_count: int
    symbol_count: int
    edge_count: int
    unresolved_edge_count: int
    parsed: int
    reused: int
    errors: int
    skipped: int
    problems: list[str]
    hashes: list[tuple[str, str]]  # (path, content hash) of every indexed file, in path order
    linked: bool = False
    remembered: list[tuple[str, str, str | None]] = field(default_factory=list)  # signatures read (ExtractStore)
    touched: list[str] | None = None  # a patch's files added, edited and deleted (the rest are as the run before)
    cursor: str | None = None  # the manifest's cursor when the run computed it already


def _build(root: Path, previous: Path | None, report: ScanReport, old: dict[str, str], generation: Path,
           store: ExtractStore, layout: Layout, progress: Progress | None, workers: int,
           sentence: SentenceModel | None = None) -> _Totals:
    """Extract (or reuse) every file and write the database and indices of `generation`."""
    # Here, not at the top: numpy and scipy take a second to import, which an unchanged re-index never needs.
    from .semantic.build import SemanticIndexBuilder

    tasks = [_task(root, layout, c.path, old.get(c.path)) for c in report.files]
    writer: GenerationWriter | None = None
    # Each file's edges wait on disk for the symbols of every other file (a target may come later in the tree), and
    # the symbols' names wait there too: the resolver's tables are made after the semantic index is written, so
    # the fit's arrays and the tables are never in memory together (the peak is the larger of the two, not the sum).
    with tempfile.TemporaryFile(dir=generation.parent) as spill, \
            tempfile.TemporaryFile(dir=generation.parent) as names, \
            tempfile.TemporaryFile(dir=generation.parent) as classes, \
            tempfile.TemporaryFile(dir=generation.parent) as vectors, contextlib.ExitStack() as stack:
        try:
            # The pool forks on entry, before the writer starts Tantivy's threads.
            with _extraction(tasks, workers) as results:
                writer = GenerationWriter(generation, store)
                semantic = SemanticIndexBuilder(_spill(sentence, vectors), scratch=generation.parent)
                counts, hashes, problems, remembered = _write(root, store, tasks, results, writer, semantic,
                                                              (spill, names, classes), progress)
            # Tantivy's commit and merges hold about 100 MB at 20k files (its writers' heaps and the merged segments):
            # they end before the fit, so that the run's peak is the larger of the two, not their sum.
            writer.wait_search_indices()
            _trim_heap()
            semantic.write(generation, _cursor(hashes), previous)  # beside the lexical indices, so it flips with them
            del semantic
            _trim_heap()
            scratch = stack.enter_context(_scratch_database(generation.parent))
            resolver = _resolver(names, counts["stored"], scratch, layout)
            _add_bases(classes, counts["classes"], resolver)
            writer.add_class_bases(resolver.class_bases.items())
            writer.add_attribute_types(resolver.attribute_types.items())
            # SQLite stores the edges as they are resolved here, in its thread (outside the GIL), then builds its
            # indices.
            chunks: queue.Queue[list[tuple] | None] = queue.Queue(maxsize=EDGE_QUEUE)
            writer.finish_in_thread(iter(chunks.get, None))
            for chunk in _resolved_edges(spill, names, counts["stored"], resolver):
                _hand_over(chunks, chunk, writer)
            _hand_over(chunks, None, writer)
            del resolver
            writer.join()
        except BaseException:
            if writer is not None:
                writer.abort()
            raise
    return _Totals(writer.file_count, writer.symbol_count, writer.edge_count, sum(writer.unresolved.values()),
                   counts["parsed"], counts["reused"], counts["errors"], counts["skipped"], problems, hashes,
                   remembered=remembered)


def _spill(sentence: SentenceModel | None, file: BinaryIO) -> Any:
    """The sentence backend's vectors, encoded as the files stream in and kept in `file` (None without it)."""
    if sentence is None:
        return None
    from .semantic.sentence import VectorSpill

    return VectorSpill(sentence, file)


def _sentence_of(generation: Path | None) -> str | None:
    """The model identity of `generation`'s sentence vectors (None: none, or a manifest it cannot read)."""
    if generation is None:
        return None
    try:
        return sentence_identity(generation)
    except (OSError, ValueError):
        return None


def _format_of(generation: Path | None) -> Any:
    """The format of `generation`'s semantic index (None: no generation, or a manifest it cannot read)."""
    if generation is None:
        return None
    try:
        return semantic_format(generation)
    except (OSError, ValueError):
        return None


# How many edges a chunk the resolving thread hands to SQLite holds, and how many chunks may wait for SQLite's
# thread: memory for that many rows, never the tree's (the resolver outruns the inserts).
EDGE_CHUNK = 20_000
EDGE_QUEUE = 2


def _hand_over(chunks: queue.Queue[list[tuple] | None], chunk: list[tuple] | None, writer: GenerationWriter) -> None:
    """Queue `chunk` for SQLite's thread, waiting while the queue is full; raises what that thread raised when it
    stopped (a full queue would then wait for ever)."""
    while True:
        try:
            chunks.put(chunk, timeout=0.25)
            return
        except queue.Full:
            if not writer.finishing():
                writer.join()
                raise RuntimeError("the SQLite thread stopped before it took every edge") from None


def _spill_record(file: BinaryIO, record: tuple) -> None:
    """Append `record` to a spill file: its marshal bytes after their length."""
    data = marshal.dumps(record)
    file.write(len(data).to_bytes(4, "little"))
    file.write(data)


def _unspill(file: BinaryIO) -> Any:
    """The next record `_spill_record` wrote. Read whole, then decoded: marshal.load from a file reads it a field at
    a time, ten times slower (0.38 s against 0.03 s for the names of 5,000 files)."""
    return marshal.loads(file.read(int.from_bytes(file.read(4), "little")))


@contextmanager
def _scratch_database(folder: Path) -> Iterator[sqlite3.Connection]:
    """A SQLite database in an unlinked file of `folder` (nothing is left behind, not even by a killed run)."""
    fd, path = tempfile.mkstemp(dir=folder, suffix=".db")
    os.close(fd)
    db = sqlite3.connect(path)
    try:
        os.unlink(path)  # the connection keeps the file; no journal is written beside it
        db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
        yield db
    finally:
        db.close()


def _resolver(names: BinaryIO, files: int, scratch: sqlite3.Connection, layout: Layout) -> Resolver:
    """The resolver's tables of every file's symbols, from the names `_write` spilled: kinds, parents and Go's
    directories in memory (`Resolver`), the tables keyed by name in `scratch`, the file-local table made as each
    file's edges resolve (`_resolved_edges`)."""
    go: set[str] = set()

    def records() -> Iterator[tuple[str, str | None, list[tuple], int, list[tuple[str, str]]]]:
        names.seek(0)
        for _ in range(files):
            record = _unspill(names)
            if record[1] == "go":
                go.add(posixpath.dirname(record[0]))
            yield record

    tables = lookup_tables(scratch, records())
    resolver = Resolver(go_directories=go, layout=layout)
    names.seek(0)
    for _ in range(files):
        path, language, symbols, first, _ = _unspill(names)
        resolver.add_symbols(path, symbols, first, language)
    for attribute, table in tables.items():
        setattr(resolver, attribute, table)
    return resolver


def _add_bases(classes: BinaryIO, files: int, resolver: Resolver) -> None:
    """Give the resolver the bases of every class `_write` spilled to `classes` (a call may be resolved through a
    base's base, which another file names): each file's names and imports, then its classes' bases."""
    classes.seek(0)
    for _ in range(files):
        path, language, module, imports, first, bases, symbols = _unspill(classes)
        resolver.enter(path, symbols, first, language)
        resolver.add_bases(FileExtract(path, language, 0, "", 0, module=module, edges=imports, bases=bases), first)


def _resolved_edges(spill: BinaryIO, names: BinaryIO, files: int, resolver: Resolver) -> Iterator[list[tuple]]:
    """The spilled files' edges resolved against every file's symbols, in chunks of about EDGE_CHUNK rows."""
    spill.seek(0)
    names.seek(0)
    chunk: list[tuple] = []
    for _ in range(files):
        path, language, module, edges, first, bases = _unspill(spill)
        _, _, symbols, _, _ = _unspill(names)
        resolver.enter(path, symbols, first, language)
        chunk.extend(resolver.edges(FileExtract(path, language, 0, "", 0, module=module, edges=edges, bases=bases),
                                    first))
        if len(chunk) >= EDGE_CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


@dataclass
class _Tree:
    """The tree as read now, against the live generation: every text file's hash, and what differs."""

    hashes: list[tuple[str, str]]  # (path, content hash) of every text file, in path order
    binary: int
    changed: list[str]  # text files added or edited since the live generation
    readable: bool  # False when a file could not be read (a full run names it among the problems)
    remembered: list[tuple[str, str, str | None]]  # (path, signature, hash) of the files read settled
    old: dict[str, str]  # path -> content hash of the live generation's files

    @cached_property
    def deleted(self) -> list[str]:
        """Paths the live generation indexed (`old`) that are no text file now."""
        now = {path for path, _ in self.hashes}
        return sorted(path for path in self.old if path not in now)

    def unchanged(self, old: dict[str, str]) -> bool:
        """Exactly the files and contents the live generation indexed."""
        return self.readable and not self.changed and len(self.hashes) == len(old)

    def with_modules_of(self, layout: Layout) -> None:
        """Count as changed, too, the files whose module `layout` (the tree's now) counts otherwise than the live
        generation's layout did: a package or crate marker came or went around them."""
        changed = set(self.changed)
        moved = changed_modules(Layout(self.old, names=layout.crates), layout,
                                (path for path, _ in self.hashes if path in self.old and path not in changed),
                                edited=self.changed)
        if moved:
            self.changed = sorted({*self.changed, *moved})


def _classify(root: Path, files: list[Candidate], old: dict[str, str], known: dict[str, tuple[str, str | None]],
              progress: Progress | None) -> _Tree:
    """Hash every file: which text files are new or edited against `old` (path -> hash).

    A file whose scanned signature is the one `known` remembers it by is not read: its hash (None: binary)
    is the one read under that signature. Any other file is read and hashed.
    """
    hashes: list[tuple[str, str]] = []
    changed: list[str] = []
    remembered: list[tuple[str, str, str | None]] = []
    binary = 0
    readable = True
    for done, candidate in enumerate(files, 1):
        path = candidate.path
        kept = known.get(path)
        if kept is not None and kept[0] == candidate.signature:
            digest = kept[1]
        else:
            try:
                read = read_file(str(root), path)
            except Refused:
                readable = False  # a full run names it among the problems
                continue
            digest = None if is_binary(read.data) else content_hash(read.data)
            sig = _signature_text(read.stat)
            if sig is not None:
                remembered.append((path, sig, digest))
        if digest is None:
            binary += 1
        else:
            if old.get(path) != digest:
                changed.append(path)
            hashes.append((path, digest))
        if progress is not None:
            progress(done, len(files))
    return _Tree(hashes, binary, changed, readable, remembered, old)


def _patch(root: Path, previous: Path, tree: _Tree, old: dict[str, str], generation: Path,
           store: ExtractStore, chain: Chain | None, counts: _Counts | None, layout: Layout,
           sentence: SentenceModel | None = None) -> _Totals | None:
    """The live generation patched for the changed files (`incremental.py`); None when a full run must do it."""
    # The semantic fold's modules (numpy: a quarter of a one-file patch's time) import in a thread while the
    # changed files are parsed and the database is copied and edited, much of which runs outside the GIL.
    preload = threading.Thread(target=importlib.import_module, args=(f"{__package__}.semantic.fold",),
                               name="import-fold", daemon=True)
    preload.start()
    try:
        return _patched(root, previous, tree, old, generation, store, chain, counts, layout, sentence)
    finally:
        preload.join()  # no import under way when a full run forks its pool


def _patched(root: Path, previous: Path, tree: _Tree, old: dict[str, str], generation: Path,
             store: ExtractStore, chain: Chain | None, counts: _Counts | None, layout: Layout,
             sentence: SentenceModel | None = None) -> _Totals | None:
    results: list[FileExtract] = []
    blobs: list[bytes] = []
    for path in tree.changed:
        item = _work(_task(root, layout, path, None))
        if item[0] != "parsed":
            return None  # turned binary or unreadable since it was hashed: a full run sorts it out
        results.append(FileExtract.loads(item[2]))
        blobs.append(item[2])
    deleted = tree.deleted
    link_indices(previous, generation)
    # The database (hundreds of MB on a large tree) is taken over and brought forward, or copied, while the patch
    # reads the live one and folds the semantic rows: both read only the live generation.
    database = PatchDatabase(previous, generation, chain)
    try:
        patch = Patch(previous, generation, store, layout)
        plan = patch.plan(results, deleted, old)
        from .semantic.build import definition_rows
        from .semantic.fold import fold, foldable

        rows = [row for result in results for row in definition_rows(result.path, result.symbols, result.language)]
        semantic = foldable(previous, len(rows), sentence)
        if semantic is None:
            return None  # the caller rebuilds the generation from scratch
        cursor = _cursor(tree.hashes)
        # The semantic rows are folded in a thread while the database and the lexical indices are written (SQLite,
        # Tantivy's commit and its syncs run outside the GIL): each writes files of its own in the generation.
        folding = Background("fold", lambda: fold(previous, generation, plan.removed_stable_ids, rows, cursor,
                                                  semantic, sentence))
        try:
            database.join()
            change = patch.write(plan, blobs)
        except BaseException:
            folding.wait()  # never a fold under way when the caller removes the generation
            raise
        folding.join()
    except PatchUnavailable:
        return None
    finally:
        database.join()  # never a copy or replay under way when the caller removes the generation
    after = None if counts is None else _Counts(*(before + delta for before, delta in zip(counts, change, strict=True)))
    totals = _linked_totals(generation, (tree.hashes, tree.binary), after)
    totals.parsed, totals.reused, totals.linked = len(results), totals.file_count - len(results), False
    totals.touched, totals.cursor = sorted({*tree.changed, *deleted}), cursor
    return totals


class _Counts(NamedTuple):
    """A generation's files, symbols, edges and unresolved edges, as its manifest states them."""

    files: int
    symbols: int
    edges: int
    unresolved: int


def _counts(manifest: dict | None) -> _Counts | None:
    """The counts the live generation's manifest states; None when it lacks one (written before it kept them)."""
    found = [(manifest or {}).get(key) for key in ("file_count", "symbol_count", "edge_count", "unresolved_edge_count")]
    numbers = [value for value in found if type(value) is int]
    return _Counts(*numbers) if len(numbers) == len(found) else None


def _linked_totals(generation: Path, unchanged: tuple[list[tuple[str, str]], int],
                   counts: _Counts | None = None) -> _Totals:
    """The figures of a linked or patched generation: `counts` when known (the linked generation's manifest, or the
    patched one's plus the patch's changes), else counted in its database (1.3M edges at 20k files: 0.1 CPU-s)."""
    hashes, binary = unchanged
    db = sqlite3.connect(f"file:{generation / DATABASE}?mode=ro", uri=True)
    try:
        if counts is None:
            files = db.execute("SELECT COUNT(*) FROM files").fetchone()[0]
            symbols = db.execute("SELECT COUNT(*) FROM symbols").fetchone()[0]
            edges, resolved = db.execute("SELECT COUNT(*), COUNT(to_symbol_id) FROM symbol_edges").fetchone()
            counts = _Counts(files, symbols, edges, edges - resolved)
        broken = db.execute("SELECT path, parse_error_count FROM files WHERE parse_error_count > 0 "
                            "ORDER BY file_id").fetchall()
    finally:
        db.close()
    problems = [f"{path}: {count} syntax error(s), indexed as far as it parses" for path, count in broken]
    return _Totals(counts.files, counts.symbols, counts.edges, counts.unresolved, 0, counts.files, len(broken), binary,
                   problems, hashes, linked=True)


def _write(root: Path, store: ExtractStore, tasks: list, results: Iterator[tuple], writer: GenerationWriter,
           semantic: SemanticIndexBuilder, spills: tuple[BinaryIO, BinaryIO, BinaryIO], progress: Progress | None,
           ) -> tuple[dict[str, int], list[tuple[str, str]], list[str], list[tuple[str, str, str | None]]]:
    """Store each result as it arrives (in path order): its rows and documents written, its definitions counted by
    the semantic builder; to the three `spills`, its edges, what the resolver registers of its symbols and, for a
    file whose classes name bases, its imports and bases (the edges are resolved once every file is in)."""
    spill, names, classes = spills
    hashes: list[tuple[str, str]] = []
    remembered: list[tuple[str, str, str | None]] = []
    parsed = reused = errors = skipped = with_bases = 0
    problems: list[str] = []
    for done, item in enumerate(results, 1):  # in path order, written while workers parse on
        if progress is not None:
            progress(done, len(tasks))
        kind, path = item[0], item[1]
        result = None
        if kind == "same":
            blob = store.get(path, item[2])
            result = None if blob is None else FileExtract.loads(blob)
            # The previous generation lost it, or it was extracted for another module (a package or crate marker
            # came or went around it): parse now.
            root_text, _, _, module = tasks[done - 1]
            if result is None or result.module != module:
                item = _work((root_text, path, None, module))
                kind, result = item[0], None
        if kind in ("binary", "error"):
            skipped += 1
            if kind == "error":
                problems.append(f"{path}: not indexed, {item[2]}")
            elif item[2] is not None:
                remembered.append((path, item[2], None))
            continue
        if kind == "parsed":
            blob = item[2]
        assert blob is not None  # "same" read its blob from the cache or was parsed again above
        if result is None:
            result = FileExtract.loads(blob)
        if kind == "parsed":
            parsed += 1
        else:
            reused += 1
        if result.parse_errors:
            errors += 1
            problems.append(f"{path}: {result.parse_errors} syntax error(s), indexed as far as it parses")
        _, first, aliases = writer.add(result, blob)
        semantic.add_file(result.path, result.symbols, result.language)
        symbols = list(map(registered, result.symbols))
        _spill_record(names, (result.path, result.language, symbols, first, aliases))
        if result.bases:
            imports = [edge for edge in result.edges if edge[2] == "import"]
            _spill_record(classes, (result.path, result.language, result.module, imports, first, result.bases, symbols))
            with_bases += 1
        _spill_record(spill, (result.path, result.language, result.module, result.edges, first, result.bases))
        hashes.append((result.path, result.content_hash))
        if item[-1] is not None:
            remembered.append((path, item[-1], result.content_hash))
    writer.commit_search_indices()  # in a thread, beside the pool's shutdown (the fit waits for it)
    writer.flush()  # the last batch's rows and extractions, not held through the fit and the resolution
    counts = {"parsed": parsed, "reused": reused, "errors": errors, "skipped": skipped, "stored": len(hashes),
              "classes": with_bases}
    return counts, hashes, problems, remembered


def _cursor(hashes: list[tuple[str, str]]) -> str:
    """The manifest's cursor: a hash of every indexed (path, content hash), in path order."""
    return hashlib.sha256("".join(f"{p}\0{h}\n" for p, h in hashes).encode()).hexdigest()


def _before_flip(generation: Path) -> None:
    """Seam for the interrupted-run tests: the generation is complete but not yet live."""


# A temporary file of write_atomic: `.<name>.<pid>.tmp`.
_TEMPORARY = re.compile(r"\..+\.(?P<pid>[0-9]+)\.tmp")


def _alive(pid: int) -> bool:
    """A process with this id exists (it may be another user's)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _remove_leftovers(state: Path, live: Path | None) -> None:
    """Remove what killed runs left: generations never made live and temporary files whose writer is gone.

    Runs under the state lock, so no other index run is writing. A generation newer than the live one,
    or without a manifest, was never flipped to; one older with a manifest may still be read by a server
    (the end of the run collects it). A temporary file whose process is alive (a hook) is left alone.
    """
    live_number = int(live.name[len(GENERATION_PREFIX):]) if live is not None and live.name[
        len(GENERATION_PREFIX):].isdigit() else None
    generations = _generations(state)
    for number, path in generations:
        if path == live:
            continue
        if not (path / MANIFEST).exists() or (live_number is not None and number > live_number):
            shutil.rmtree(path, ignore_errors=True)
    for folder in (state, *(path for _, path in _generations(state))):
        for entry in folder.iterdir():
            found = _TEMPORARY.fullmatch(entry.name)
            if found is not None and not _alive(int(found["pid"])):
                with contextlib.suppress(OSError):
                    entry.unlink()


def _superseded(state: Path, live: Path | None) -> list[Path]:
    """The generations a run may remove: all but the live one and the one it replaced (a server may still read
    it: a request that read CURRENT just before the flip), which is the newest older one (the leftovers of
    killed runs are gone by now); without a live generation, all but the newest."""
    generations = [path for _, path in _generations(state)]
    if live in generations:
        older = generations[:generations.index(live)]
        keep = {live, *older[-1:]}
    else:
        keep = set(generations[-1:])
    return [path for path in generations if path not in keep]


def _remove(path: Path) -> None:
    """Remove a generation or a file (a spare), whatever of it is still there."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


class _Spares:
    """A full run's spares (`rowlog.make_spares`), copied in a thread (the kernel's copy holds no GIL) while the run
    prunes the extraction store; a copy that fails leaves no spare (the next patches copy the live database, as
    before spares)."""

    def __init__(self, generation: Path) -> None:
        self._thread = threading.Thread(target=self._make, args=(generation,), name="spares", daemon=True)
        self._thread.start()

    @staticmethod
    def _make(generation: Path) -> None:
        try:
            make_spares(generation)
        except OSError:
            for file in spare_files(generation):
                _remove(file)

    def join(self) -> None:
        """Wait for the copies."""
        self._thread.join()


def _collect_base(chain: Chain | None, collector: _Collector) -> None:
    """Collect the generation whose database the chain took over, unless a spare of it is left: after an unchanged
    run that linked a patched generation (its database shared, so never taken), the patch after next takes that
    spare, brought forward by the logs, instead of copying the live database."""
    if chain is not None and chain.collected and not spares(chain.base):
        collector.add(chain.base)


def _move_spares(live: Path, generation: Path) -> None:
    """Move the live generation's spares into `generation`, linked from it by an unchanged run: the same rows."""
    found = spares(live)
    with contextlib.suppress(OSError):
        for spare in found:
            os.rename(spare, generation / spare.name)
        if found:
            os.rename(live / SPARE_LIST, generation / SPARE_LIST)


class _Collector:
    """Removes `paths`, and those `add`ed later, in a thread (unlinking a generation's files is kernel time: no GIL
    held); `join` waits."""

    def __init__(self, paths: list[Path]) -> None:
        self._paths: queue.SimpleQueue[Path | None] = queue.SimpleQueue()
        for path in paths:
            self._paths.put(path)
        self._joined = False
        self._thread = threading.Thread(target=self._remove, name="remove-generations", daemon=True)
        self._thread.start()

    def _remove(self) -> None:
        for path in iter(self._paths.get, None):
            _remove(path)

    def add(self, path: Path) -> None:
        """Remove `path` too (at once, once joined)."""
        if self._joined:
            _remove(path)
        else:
            self._paths.put(path)

    def join(self) -> None:
        """Wait until every path is removed (or given up on)."""
        if not self._joined:
            self._joined = True
            self._paths.put(None)
        self._thread.join()
