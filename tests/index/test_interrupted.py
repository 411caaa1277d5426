"""An interrupted or failed run never leaves a half-written index that claims to be ready."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cruxgate.reference.index import IndexReader, index_workspace, read_state
from cruxgate.reference.index import build as build_module
from cruxgate.reference.index import state as state_module
from cruxgate.reference.index.store import GenerationWriter


def live(workspace: Path) -> str:
    return (workspace / ".cruxgate" / "CURRENT").read_text(encoding="utf-8").strip()


def generations(workspace: Path) -> list[str]:
    return sorted(p.name for p in (workspace / ".cruxgate").iterdir() if p.name.startswith("gen-"))


class Boom(Exception):
    pass


def test_failure_before_the_flip_keeps_the_previous_generation(workspace: Path, monkeypatch) -> None:
    first = index_workspace(workspace)
    assert live(workspace) == "gen-1"
    (workspace / "src/auth/tokens.py").write_text("def replaced():\n    pass\n", encoding="utf-8")

    def fail(generation: Path) -> None:
        assert (generation / "manifest.json").is_file()  # complete, but not live yet
        raise Boom("disk full")

    monkeypatch.setattr(build_module, "_before_flip", fail)
    with pytest.raises(Boom):
        index_workspace(workspace)
    assert live(workspace) == "gen-1" and generations(workspace) == ["gen-1"]
    state = read_state(workspace)
    assert state.status == "ready" and state.generation.name == "gen-1"
    reader = IndexReader.open(workspace)
    assert reader.db.execute("SELECT COUNT(*) FROM symbols WHERE name = 'validate_token'").fetchone() == (1,)
    assert reader.db.execute("SELECT COUNT(*) FROM symbols WHERE name = 'replaced'").fetchone() == (0,)
    # The failed run patched a copy whose Tantivy segments are links to these: its deletions are not here.
    assert reader.searcher("symbols").num_docs == first.symbol_count


def test_failure_mid_run_keeps_the_previous_generation(workspace: Path, monkeypatch) -> None:
    index_workspace(workspace)
    real_add = GenerationWriter.add
    calls = {"n": 0}

    def add(self, result, payload):
        calls["n"] += 1
        if calls["n"] == 5:
            raise Boom("interrupted while writing")
        return real_add(self, result, payload)

    monkeypatch.setattr(GenerationWriter, "add", add)
    with pytest.raises(Boom):
        index_workspace(workspace, force=True)
    assert live(workspace) == "gen-1" and generations(workspace) == ["gen-1"]
    assert read_state(workspace).status == "ready"


class _FailingCommit:
    """Stands in for a Tantivy writer whose commit fails."""

    def commit(self) -> None:
        raise Boom("tantivy-commit")


@pytest.mark.parametrize("stage", ["sqlite-finish", "tantivy-commit"])
def test_a_failure_in_a_writer_thread_fails_the_run_and_keeps_the_previous_generation(
        workspace: Path, monkeypatch, stage: str) -> None:
    # SQLite's edges and indices, and the Tantivy commit, run in threads of their own: their errors reach the run.
    index_workspace(workspace)
    if stage == "sqlite-finish":
        def add_edges(self, edges):
            raise Boom(stage)

        monkeypatch.setattr(GenerationWriter, "add_edges", add_edges)
    else:
        real_commit = GenerationWriter.commit_search_indices

        def commit_search_indices(self):
            self.writers = dict.fromkeys(self.writers, _FailingCommit())
            real_commit(self)

        monkeypatch.setattr(GenerationWriter, "commit_search_indices", commit_search_indices)
    with pytest.raises(Boom, match=stage):
        index_workspace(workspace, force=True)
    assert live(workspace) == "gen-1" and generations(workspace) == ["gen-1"]
    assert read_state(workspace).status == "ready"


def test_a_failed_sqlite_thread_stops_the_resolver_waiting_on_a_full_queue(workspace: Path, monkeypatch) -> None:
    # One edge a chunk and one chunk of room: the resolver fills the queue at once, and the thread that would empty
    # it has failed on its first chunk. The run raises that failure instead of waiting for ever.
    index_workspace(workspace)
    monkeypatch.setattr(build_module, "EDGE_CHUNK", 1)
    monkeypatch.setattr(build_module, "EDGE_QUEUE", 1)
    taken = []

    def add_edges(self, edges):
        taken.append(len(edges))
        raise Boom("sqlite-finish")

    monkeypatch.setattr(GenerationWriter, "add_edges", add_edges)
    with pytest.raises(Boom, match="sqlite-finish"):
        index_workspace(workspace, force=True)
    assert taken == [1]
    assert live(workspace) == "gen-1" and generations(workspace) == ["gen-1"]


def test_first_run_failing_leaves_not_indexed(workspace: Path, monkeypatch) -> None:
    monkeypatch.setattr(build_module, "_before_flip", lambda generation: (_ for _ in ()).throw(Boom("x")))
    with pytest.raises(Boom):
        index_workspace(workspace)
    assert read_state(workspace).status == "not_indexed"
    assert generations(workspace) == []


def test_a_killed_runs_leftover_is_not_live_and_is_collected(workspace: Path) -> None:
    index_workspace(workspace)
    # What a SIGKILL mid-run leaves: a newer generation dir, half written, that CURRENT does not name.
    stray = workspace / ".cruxgate" / "gen-2"
    (stray / "tantivy").mkdir(parents=True)
    (stray / "index.db").write_bytes(b"half")
    (stray / "manifest.json").write_text(json.dumps({"schema_version": 1, "status": "ready"}), encoding="utf-8")
    assert read_state(workspace).generation.name == "gen-1"
    assert IndexReader.open(workspace).db.execute("SELECT COUNT(*) FROM files").fetchone()[0] > 0
    summary = index_workspace(workspace)
    assert summary.generation == "gen-3" and live(workspace) == "gen-3"
    assert "gen-2" not in generations(workspace)


def test_current_is_replaced_atomically(workspace: Path, monkeypatch) -> None:
    """CURRENT is written through a temporary file and os.replace, never rewritten in place."""
    index_workspace(workspace)
    replaced: list[tuple[str, str]] = []
    real_replace = os.replace

    def spy(src, dst):
        replaced.append((Path(src).name, Path(dst).name))
        return real_replace(src, dst)

    monkeypatch.setattr(state_module.os, "replace", spy)
    index_workspace(workspace)
    targets = [dst for _, dst in replaced]
    # The semantic index's own manifest (gen-<n>/semantic/) lands first, inside the generation.
    assert targets[-2:] == ["manifest.json", "CURRENT"] and targets.count("CURRENT") == 1
    assert all(src.startswith(".") and src.endswith(".tmp") for src, _ in replaced)


def test_sigkill_mid_run_leaves_the_previous_index_live(tmp_path: Path) -> None:
    """A real interruption: the index process (and its workers) killed while the new generation is being built."""
    import signal
    import subprocess
    import sys
    import time

    workspace = tmp_path / "big"
    body = "".join(f"def f{i}(x):\n    return g{i}(x) + {i}\n\n\n" for i in range(60))
    for n in range(400):
        (workspace / f"pkg{n % 8}").mkdir(parents=True, exist_ok=True)
        (workspace / f"pkg{n % 8}" / f"m{n}.py").write_text(body, encoding="utf-8")
    index_workspace(workspace)
    assert live(workspace) == "gen-1"
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-m", "cruxgate", "index", str(workspace), "--force", "--quiet"],
                            cwd=repo, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not (workspace / ".cruxgate" / "gen-2").exists():
            assert proc.poll() is None and time.monotonic() < deadline, "the run ended before it could be killed"
            time.sleep(0.005)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert live(workspace) == "gen-1"
    state = read_state(workspace)
    assert state.status == "ready" and state.generation.name == "gen-1"
    assert IndexReader.open(workspace).db.execute("SELECT COUNT(*) FROM files").fetchone() == (400,)
    summary = index_workspace(workspace)
    assert summary.generation == "gen-3" and generations(workspace) == ["gen-1", "gen-3"]
