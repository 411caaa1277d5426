"""A patch's row log: every row change it made to its generation's database, so an older generation's database can
be brought forward to a newer one's rows instead of copying the newer one.

A patch edits a new generation's database in one transaction; `Recording` (the connection the patch writes
through) keeps each INSERT, UPDATE and DELETE with its parameters and the number of rows it changed, and
`write_log` stores them beside the database as `rows.log`:

- line 1, the header (JSON): `format` and `version` (this module's), the `tool_version` that wrote it, the
  `generation` it belongs to and its `parent` (the generation whose database the patch started from), the
  parent database's `[size, mtime_ns, inode]` when the patch read it, the `result` (the highest file, symbol
  and edge id after the patch), the number of `changes` and the SHA-256 of line 2;
- line 2, the body (JSON): `[sql, rows changed, [parameters, ...]]` for each statement, in order.

Ids are explicit or follow from the rows already there (SQLite gives a new row the highest id plus one), so
the same statements on the same rows give the same rows. `replay` checks every statement against the tables
of the index (nothing but INSERT, UPDATE or DELETE of them runs), every row count and each log's result, and
raises `LogMismatch` on the first difference: the caller then copies the live database instead, never keeps
rows a log did not vouch for.

The database brought forward is one no reader may hold: that of a generation the run collects, or a spare, a copy
a full run makes of its database (`make_spares`) for the first two patches after it, which find no collected
generation their logs reach (a full run writes no log).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cruxgate import __version__

from .reading import Refused, read_regular
from .seal import sealed_files, stamp
from .state import DATABASE, GENERATION_PREFIX, write_atomic

ROWLOG = "rows.log"
FORMAT = "cruxgate-rowlog"
VERSION = 1
MAX_LOG_BYTES = 1 << 30  # a patch touches at most a tenth of the tree: its log is far smaller
# The only statements a log may hold: a row change of one of the index's tables.
_STATEMENT = re.compile(r"\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(files|symbols|symbol_relations|symbol_edges|"
                        r"unresolved_names|import_aliases|class_bases|attribute_types)\b[^;]*", re.IGNORECASE)
_RESULT = ("SELECT (SELECT COALESCE(MAX(file_id), 0) FROM files), (SELECT COALESCE(MAX(symbol_id), 0) FROM symbols), "
           "(SELECT COALESCE(MAX(edge_id), 0) FROM symbol_edges)")


class LogMismatch(Exception):
    """A row log that cannot bring this database forward (missing, another format, damaged, or not its rows)."""


def _writes(sql: str) -> bool:
    return sql.lstrip()[:6].upper() in ("INSERT", "UPDATE", "DELETE")


class Recording(sqlite3.Connection):
    """A connection (`sqlite3.connect(..., factory=Recording)`) that keeps every row change made through it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.statements: list[tuple[str, int, list[tuple]]] = []
        self.changes = 0  # the rows changed through this connection, as SQLite counts them (read as it closes)
        self.scripts = 0  # scripts run: a script's changes cannot be logged

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        cursor = super().execute(sql, parameters)
        if _writes(sql):
            if isinstance(parameters, dict):
                self.scripts += 1  # named parameters: not logged, so the log is not written
            else:
                self.statements.append((sql, cursor.rowcount, [tuple(parameters)]))
        return cursor

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> sqlite3.Cursor:
        rows = [tuple(row) for row in parameters]
        cursor = super().executemany(sql, rows)
        if _writes(sql) and rows:
            self.statements.append((sql, cursor.rowcount, rows))
        return cursor

    def executescript(self, script: str, /) -> sqlite3.Cursor:
        if any(_writes(part) for part in script.split(";")):
            self.scripts += 1
        return super().executescript(script)

    def close(self) -> None:
        self.changes = self.total_changes
        super().close()

    def complete(self) -> bool:
        """Every row change made through this connection is in `statements` (none bypassed them)."""
        return self.scripts == 0 and self.changes == sum(count for _, count, _ in self.statements)


def write_log(generation: Path, parent: Path, parent_stamp: list[int], recording: Recording) -> bool:
    """Store `recording`'s row changes (made, once it closed, to `parent`'s rows, whose database was stamped
    `parent_stamp` then) as `generation`'s log; False, and no log, when they cannot be replayed exactly."""
    if not recording.complete():
        return False
    try:
        encoded = json.dumps(recording.statements, ensure_ascii=False, separators=(",", ":"),
                             allow_nan=False).encode("utf-8")
    except (TypeError, ValueError):  # a parameter JSON cannot carry exactly (bytes, a float that is not finite)
        return False
    db = sqlite3.connect(f"file:{generation / DATABASE}?mode=ro", uri=True)
    try:
        result = list(db.execute(_RESULT).fetchone())
    finally:
        db.close()
    header = {"format": FORMAT, "version": VERSION, "tool_version": __version__, "generation": generation.name,
              "parent": parent.name, "parent_database": parent_stamp, "result": result, "changes": recording.changes,
              "body_sha256": hashlib.sha256(encoded).hexdigest()}
    (generation / ROWLOG).write_bytes(json.dumps(header, sort_keys=True).encode("utf-8") + b"\n" + encoded + b"\n")
    return True


@dataclass(frozen=True)
class RowLog:
    """One generation's log as read: its header (checked) and its body (checked when replayed)."""

    generation: Path
    parent: str
    parent_stamp: list[int]
    result: list[int]
    digest: str
    body: bytes


def read_log(generation: Path) -> RowLog | None:
    """`generation`'s row log when its header is this format's, this release's and names `generation`; else None."""
    try:
        data = read_regular(str(generation / ROWLOG), MAX_LOG_BYTES).data
        head, body = data.split(b"\n", 1)
        header = json.loads(head)
        if header.get("format") != FORMAT or header.get("version") != VERSION:
            return None
        if header.get("tool_version") != __version__ or header.get("generation") != generation.name:
            return None
        parent, stamped, result, digest = (header["parent"], header["parent_database"], header["result"],
                                           header["body_sha256"])
        if not (isinstance(parent, str) and isinstance(digest, str) and _ints(stamped, 3) and _ints(result, 3)):
            return None
    except (Refused, OSError, ValueError, KeyError, AttributeError):
        return None
    return RowLog(generation, parent, stamped, result, digest, body.rstrip(b"\n"))


def _ints(value: object, size: int) -> bool:
    return isinstance(value, list) and len(value) == size and all(type(item) is int for item in value)


@dataclass(frozen=True)
class Chain:
    """A database no reader may hold, with the rows of generation `base`, that the logs bring forward to the live
    generation's rows: the database of a generation this run collects, or a spare (`make_spares`)."""

    base: Path
    database: Path  # the file taken over: `base`'s own database or one of its spares
    logs: list[RowLog]  # oldest first: the first one's parent is `base`, the last one is the live generation's
    collected: bool  # `base` is a generation this run collects: held back from its collector until `database` is taken


CHAIN_DEPTH = 4  # how many logs back a chain reaches


def chain_to(live: Path, collectable: list[Path], depth: int = CHAIN_DEPTH) -> Chain | None:
    """The newest database that vouches for itself (`vouches`) and that the live generation's logs reach (each log's
    parent the generation of the one before): a spare of a generation on the way, the live one first (no log to
    replay), or the database of one of the `collectable` generations; None when none is reached."""
    by_name = {path.name: path for path in collectable}
    logs: list[RowLog] = []
    generation = live
    for _ in range(depth):
        found = spares(generation)
        if found:
            return Chain(generation, found[0], logs[::-1], collected=False)
        log = read_log(generation) or _linked_log(generation)
        if log is None:
            return None
        logs.append(log)
        if log.parent in by_name:
            base = by_name[log.parent]
            chain = Chain(base, base / DATABASE, logs[::-1], collected=True)
            if vouches(chain):
                return chain
            found = spares(base)
            return Chain(base, found[0], chain.logs, collected=True) if found else None
        parent = _parent(live, log)
        if parent is None or not parent.is_dir():
            return None
        generation = parent
    return None


def _parent(generation: Path, log: RowLog) -> Path | None:
    """The generation `log` was written over, beside `generation`; None when its parent is not a generation's name
    (never a path)."""
    number = log.parent[len(GENERATION_PREFIX):]
    if not (log.parent.startswith(GENERATION_PREFIX) and number.isascii() and number.isdigit()):
        return None
    return generation.parent / log.parent


def ancestors(generation: Path, depth: int = CHAIN_DEPTH) -> list[Path]:
    """The generations `generation`'s logs lead back to, its parent first (`chain_to` walks the same way): a spare of
    any of them, brought forward by those logs, holds its rows."""
    found = []
    for _ in range(depth):
        log = read_log(generation) or _linked_log(generation)
        parent = _parent(generation, log) if log is not None else None
        if parent is None:
            break
        generation = parent
        found.append(generation)
    return found


def _linked_log(generation: Path) -> RowLog | None:
    """The log of the generation `generation` was linked from by an unchanged run (its log is that one's, and so are
    its rows: the same database file), read as that generation's; None when it is not that."""
    try:
        head = json.loads(read_regular(str(generation / ROWLOG), MAX_LOG_BYTES).data.split(b"\n", 1)[0])
        source = generation.parent / head["generation"]
        if not (isinstance(head["generation"], str) and head["generation"].startswith(GENERATION_PREFIX)
                and "/" not in head["generation"]):
            return None
        if (source / DATABASE).stat().st_ino != (generation / DATABASE).stat().st_ino:
            return None
    except (Refused, OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return read_log(source)


def vouches(chain: Chain) -> bool:
    """The taken database is what it was written as and linked nowhere else (a write would show through another
    generation): a collected generation's exactly what its seal recorded and what the first log's patch found, a
    spare what its generation's spare list recorded."""
    if chain.database != chain.base / DATABASE:
        return chain.database in spares(chain.base)
    sealed = sealed_files(chain.base)
    try:
        now = stamp(chain.base / DATABASE)
        links = (chain.base / DATABASE).stat().st_nlink
    except OSError:
        return False
    return (links == 1 and sealed is not None and bool(chain.logs)
            and sealed.get(DATABASE) == now == chain.logs[0].parent_stamp)


# A spare: a copy of a full run's database that no reader opens (a dot-file: neither sealed nor linked by an unchanged
# run), so that the first patches after a full run, which have no collected generation to take over, copy nothing.
SPARE_LIST = ".spares.json"
SPARE_COUNT = 2  # the first two patches after a full run; from the third the collected generation's database serves


def make_spares(generation: Path, count: int = SPARE_COUNT) -> None:
    """Copy `generation`'s finished database `count` times beside it and list the copies' stamps (written last:
    an unlisted copy is never taken); none on a disk with less room than twice the copies take."""
    disk = os.statvfs(generation)
    if disk.f_bavail * disk.f_frsize < 2 * count * (generation / DATABASE).stat().st_size:
        return
    made = {}
    for n in range(1, count + 1):
        spare = generation / f".spare-{n}.db"
        shutil.copyfile(generation / DATABASE, spare)
        made[spare.name] = stamp(spare)
    write_atomic(generation / SPARE_LIST, json.dumps(made, sort_keys=True))


def spares(generation: Path) -> list[Path]:
    """The spares of `generation` that vouch for themselves: listed, as stamped then, and linked nowhere else."""
    try:
        listed = json.loads(read_regular(str(generation / SPARE_LIST), 1 << 16).data)
        items = sorted(listed.items())
    except (Refused, OSError, ValueError, AttributeError):
        return []
    found = []
    for name, stamped in items:
        spare = generation / str(name)
        if not (isinstance(name, str) and name.startswith(".spare-") and "/" not in name):
            continue
        try:
            if stamp(spare) == stamped and spare.stat().st_nlink == 1:
                found.append(spare)
        except OSError:
            continue  # taken by an earlier patch
    return found


def spare_files(generation: Path) -> list[Path]:
    """Every spare file of `generation`, listed or not (what dropping its spares removes)."""
    return [generation / SPARE_LIST, *sorted(generation.glob(".spare-*.db"))]


def replay(database: Path, logs: list[RowLog]) -> None:
    """Apply `logs`, oldest first, to `database` in one transaction; LogMismatch on the first difference (the
    database is then part-written: the caller discards it)."""
    db = sqlite3.connect(database, timeout=0)  # a reader's lock: give up and copy rather than wait
    try:
        db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
        for log in logs:
            if hashlib.sha256(log.body).hexdigest() != log.digest:
                raise LogMismatch(f"{log.generation.name}/{ROWLOG}: its body is not the one its header names")
            for statement in json.loads(log.body):
                sql, count, rows = statement
                if not isinstance(sql, str) or _STATEMENT.fullmatch(sql) is None:
                    raise LogMismatch(f"{log.generation.name}/{ROWLOG}: a statement that is no row change")
                if db.executemany(sql, rows).rowcount != count:
                    raise LogMismatch(f"{log.generation.name}/{ROWLOG}: {sql.split('(')[0]} changed other rows")
            if list(db.execute(_RESULT).fetchone()) != log.result:
                raise LogMismatch(f"{log.generation.name}/{ROWLOG}: the rows do not end as its result says")
        db.commit()
    except (sqlite3.Error, ValueError, TypeError) as err:
        raise LogMismatch(f"{type(err).__name__}: {err}") from err
    finally:
        db.close()
