"""A patch takes over the database of the generation it collects and brings it forward by the row logs since.

From the third patch after a full run, the new generation's database is not a copy of the live one's: it is
the database of the generation before the replaced one (the run collects it; no reader may hold it), with the
row changes of the two patches since replayed from their logs (`rows.log`). These tests hold that to what a
full run over the same tree gives when a log or that database does not hold (the run copies instead), when the
run is killed at any point (the previous generation stays live, the next run is right), and that a reader of
the generation a run replaces keeps reading its own rows.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cruxgate.reference.index import IndexReader, index_workspace, read_state
from cruxgate.reference.index.incremental import worth_replaying
from cruxgate.reference.index.rowlog import ROWLOG, Chain, Recording, RowLog, read_log, write_log
from cruxgate.reference.index.state import DATABASE, STATE_DIR

from .conftest import built
from .test_patch import collected_database, snapshot

REPO = Path(__file__).resolve().parents[2]


def edit(workspace: Path, n: int) -> None:
    """One agent's edit: a small module added (a new symbol, a call that resolves). One definition folded into the
    semantic model a patch: many more would pass the share a patch may fold, and the run would refit in full."""
    (workspace / f"src/auth/added_{n}.py").write_text(
        f"from .tokens import validate_token\n\n\ndef added_{n}(token: str) -> bool:\n"
        "    return validate_token(token)\n", encoding="utf-8")


def generations(workspace: Path) -> list[Path]:
    state = workspace / STATE_DIR
    return sorted((p for p in state.iterdir() if p.name.startswith("gen-")), key=lambda p: int(p.name[4:]))


def live(workspace: Path) -> Path:
    generation = read_state(workspace).generation
    assert generation is not None
    return generation


def ready_to_take_over(tmp_path: Path) -> Path:
    """A workspace after a full run and two patches: the next patch may take over the full run's database."""
    workspace = tmp_path / "ws"
    shutil.copytree(REPO / "golden" / "fixtures" / "polyglot", workspace, ignore=shutil.ignore_patterns(STATE_DIR))
    index_workspace(workspace)
    for n in (1, 2):
        edit(workspace, n)
        index_workspace(workspace)
    assert [p.name for p in generations(workspace)] == ["gen-1", "gen-2", "gen-3"]
    return workspace


def rows(workspace: Path, tmp_path: Path, name: str) -> None:
    """The live generation holds what a full run over a copy of the same tree holds."""
    fresh = tmp_path / name
    shutil.copytree(workspace, fresh, ignore=shutil.ignore_patterns(STATE_DIR))
    index_workspace(fresh, force=True)
    patched, rebuilt = snapshot(workspace), snapshot(fresh)
    patched.pop("answers")
    rebuilt.pop("answers")
    for part, value in rebuilt.items():
        assert patched[part] == value, f"{part} differs from a full run's"


def _rewrite_log(generation: Path, change: Callable[[dict[str, Any], list[Any]], None]) -> None:
    """Change a log's header or statements and sign it again (its digest holds: the other checks must refuse it)."""
    head, body = (generation / ROWLOG).read_bytes().split(b"\n", 1)
    header, statements = json.loads(head), json.loads(body)
    change(header, statements)
    encoded = json.dumps(statements).encode()
    header["body_sha256"] = hashlib.sha256(encoded).hexdigest()
    (generation / ROWLOG).write_bytes(json.dumps(header).encode() + b"\n" + encoded + b"\n")


# The replaced generation's log is spoiled: the live one's is under its seal (a change there breaks the seal, and
# the run is a full one).
def _missing(gens: list[Path]) -> None:
    (gens[-2] / ROWLOG).unlink()


def _damaged(gens: list[Path]) -> None:
    data = bytearray((gens[-2] / ROWLOG).read_bytes())
    data[-20] ^= 0x01  # one bit of the body: its digest no longer holds
    (gens[-2] / ROWLOG).write_bytes(bytes(data))


def _another_version(gens: list[Path]) -> None:
    _rewrite_log(gens[-2], lambda header, _: header.update(version=header["version"] + 1))


def _not_a_row_change(gens: list[Path]) -> None:
    _rewrite_log(gens[-2], lambda _, statements: statements.insert(0, ["DROP TABLE files", 0, [[]]]))


def _base_written(gens: list[Path]) -> None:
    st = (gens[0] / DATABASE).stat()
    os.utime(gens[0] / DATABASE, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))


def _rows_that_do_not_fit(gens: list[Path]) -> None:
    # The base gains a row no log touches, its stamp (size, mtime, inode) kept: only the replay's own checks (each
    # statement's row count, each log's result) can tell; kept, it would be a file no full run has.
    path = gens[0] / DATABASE
    st = path.stat()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("INSERT INTO files VALUES (999999, 'ghost.py', 'python', 1, 'x', 1, 0)")
    db.commit()
    db.close()
    assert path.stat().st_size == st.st_size
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


@pytest.mark.parametrize("spoil", [_missing, _damaged, _another_version, _not_a_row_change, _base_written,
                                   _rows_that_do_not_fit])
def test_a_log_or_base_that_does_not_hold_means_a_copy_never_other_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: Callable[[list[Path]], None]) -> None:
    workspace = ready_to_take_over(tmp_path)
    spoil(generations(workspace))
    full_builds = built(monkeypatch)
    edit(workspace, 3)
    with collected_database(workspace) as taken_over:
        summary = index_workspace(workspace)
        assert taken_over is not None and not taken_over()  # a copy of gen-3's
    assert full_builds == [] and summary.generation == "gen-4"  # still a patch
    assert [p.name for p in generations(workspace)] == ["gen-2", "gen-3", "gen-4"]
    rows(workspace, tmp_path, "full")


def test_the_chain_holds_through_an_unchanged_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An unchanged tree links the live generation, its log included: the chain reads that log as the linked-from
    # generation's (the same database file), so the next patch takes over. The one after copies: the only database
    # with those rows that no reader holds would be the linked-from generation's, which the linked one still shares.
    workspace = ready_to_take_over(tmp_path)
    full_builds = built(monkeypatch)
    linked = index_workspace(workspace)
    assert (live(workspace) / DATABASE).stat().st_ino == (generations(workspace)[-2] / DATABASE).stat().st_ino
    taken = []
    for n in (3, 4, 5):
        edit(workspace, n)
        with collected_database(workspace) as taken_over:
            index_workspace(workspace)
            taken.append(taken_over is not None and taken_over())
    assert full_builds == [] and linked.generation == "gen-4" and taken == [True, False, True]
    rows(workspace, tmp_path, "full")


_KILLED = """
import json, os, signal, sqlite3, sys
from pathlib import Path
from cruxgate.reference.index import build, incremental, index_workspace

def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

real = incremental.replay

def halfway(database, logs):
    real(database, logs[:1])  # the first log replayed and committed, then the second's first statement
    db = sqlite3.connect(database)
    db.execute("PRAGMA journal_mode=OFF")
    sql, count, rows = json.loads(logs[1].body)[0]
    db.executemany(sql, rows)
    db.commit()
    die()

stage = sys.argv[2]
if stage == "taken over":
    incremental.replay = die
elif stage == "replaying":
    incremental.replay = halfway
else:
    build._before_flip = die
index_workspace(sys.argv[1])
"""


@pytest.mark.parametrize("stage", ["taken over", "replaying", "written"])
def test_a_killed_takeover_leaves_the_previous_generation_live_and_the_next_run_right(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stage: str) -> None:
    workspace = ready_to_take_over(tmp_path)
    before = snapshot(workspace)
    edit(workspace, 3)
    done = subprocess.run([sys.executable, "-c", _KILLED, str(workspace), stage], cwd=REPO, timeout=120,
                          capture_output=True, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()
    assert live(workspace).name == "gen-3"
    after = snapshot(workspace)
    assert after == before  # the previous generation, as it was
    # The next run patches (a copy: for the first two stages the base's database went with the killed run) and is
    # right; the one after takes over again.
    full_builds = built(monkeypatch)
    index_workspace(workspace)
    assert full_builds == []
    rows(workspace, tmp_path, "full-1")
    full_builds.clear()
    edit(workspace, 4)
    with collected_database(workspace) as taken_over:
        index_workspace(workspace)
        assert taken_over is not None and taken_over()
    assert full_builds == []
    rows(workspace, tmp_path, "full-2")


def _own_rows(reader: IndexReader) -> tuple[list[tuple], list[tuple], str]:
    symbols = reader.db.execute("SELECT symbol_id, symbol_stable_id, name, path FROM symbols "
                                "ORDER BY symbol_id").fetchall()
    edges = reader.db.execute("SELECT edge_id, from_path, line, to_symbol_id, to_name FROM symbol_edges "
                              "ORDER BY edge_id").fetchall()
    digest = hashlib.sha256((reader.generation / DATABASE).read_bytes()).hexdigest()
    return symbols, edges, digest


def test_a_reader_of_the_replaced_generation_keeps_its_own_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                ) -> None:
    workspace = ready_to_take_over(tmp_path)
    reader = IndexReader.open(workspace)  # gen-3: replaced by the next run, collected by the one after next
    full_builds = built(monkeypatch)
    try:
        own = _own_rows(reader)
        assert any(name == "added_2" for _, _, name, _ in own[0])
        for n in (3, 4):
            edit(workspace, n)
            with collected_database(workspace) as taken_over:
                index_workspace(workspace)
                assert taken_over is not None and taken_over()  # gen-1's, then gen-2's
            assert _own_rows(reader) == own
            assert not any(name == f"added_{n}" for _, _, name, _ in _own_rows(reader)[0])
        assert full_builds == []
    finally:
        reader.close()


def test_a_log_is_written_only_when_it_holds_every_row_change(tmp_path: Path) -> None:
    # A change the recording connection did not see (a script) or cannot carry exactly (bytes) leaves no log: the
    # next patches copy rather than replay a log that misses a row.
    def record(last: Callable[[Recording], object] | None) -> bool:
        generation = tmp_path / f"gen-{len(list(tmp_path.iterdir())) + 2}"
        generation.mkdir()
        db = sqlite3.connect(generation / DATABASE, factory=Recording)
        db.executescript("CREATE TABLE files(file_id INTEGER PRIMARY KEY, path TEXT);"
                         "CREATE TABLE symbols(symbol_id INTEGER PRIMARY KEY);"
                         "CREATE TABLE symbol_edges(edge_id INTEGER PRIMARY KEY);")
        db.executemany("INSERT INTO files VALUES (?, ?)", [(1, "a.py"), (2, "b.py")])
        db.execute("DELETE FROM files WHERE file_id = ?", (1,))
        if last is not None:
            last(db)
        db.commit()
        db.close()
        assert isinstance(db, Recording)
        written = write_log(generation, tmp_path / "gen-1", [1, 2, 3], db)
        assert written == (generation / ROWLOG).exists()
        log = read_log(generation)
        assert written == (log is not None)
        assert log is None or (log.parent, log.parent_stamp, log.result) == ("gen-1", [1, 2, 3], [2, 0, 0])
        return written

    assert record(None)
    assert not record(lambda db: db.executescript("INSERT INTO files VALUES (3, 'c.py');"))
    assert not record(lambda db: db.execute("INSERT INTO files VALUES (?, ?)", (4, b"bytes")))


@pytest.mark.parametrize(("database_bytes", "log_bytes", "replayed"), [
    (64 << 20, (512 << 10, 512 << 10), True),  # at the floor: about 0.1 s of replay
    (64 << 20, (1 << 20, 1), False),
    (640 << 20, (5 << 20, 5 << 20), True),  # a sixty-fourth of the database
    (640 << 20, (5 << 20, (5 << 20) + 1), False),
], ids=["floor", "past-the-floor", "share", "past-the-share"])
def test_logs_longer_than_a_share_of_the_database_are_not_replayed(tmp_path: Path, database_bytes: int,
                                                                   log_bytes: tuple[int, ...], replayed: bool) -> None:
    """The live database is copied instead when replaying the chain's logs would cost more (`worth_replaying`)."""
    live = tmp_path / DATABASE
    with live.open("wb") as file:
        file.truncate(database_bytes)  # sparse: its size is what counts
    logs = [RowLog(tmp_path, "gen-1", [0], [0, 0, 0], "", b"x" * size) for size in log_bytes]
    assert worth_replaying(Chain(tmp_path, live, logs, collected=True), live) is replayed
