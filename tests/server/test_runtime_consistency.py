"""An answer's freshness_status describes the generation its results came from, whatever the timing.

In process, with the races injected through seams: a HEAD check slowed as on a loaded machine, and a
state key read just before an index job flips CURRENT. Both once answered `fresh` with the results
of an index a commit had outdated (test_states.py::test_git_workspace_freshness_follows_head, under load).
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from cruxgate.reference.config import Config
from cruxgate.reference.index import index_workspace
from cruxgate.reference.protocol.errors import ToolError
from cruxgate.reference.server import freshness
from cruxgate.reference.server.runtime import Runtime

from .harness import FIXTURES


def git(workspace: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=workspace, check=True,
                   capture_output=True, timeout=30)


@pytest.fixture
def git_workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    shutil.copytree(FIXTURES / "polyglot", workspace)
    git(workspace, "init", "-q")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "-m", "fixture")
    index_workspace(workspace)
    return workspace.resolve()


def commit_symbol(workspace: Path, name: str) -> None:
    (workspace / "src" / f"{name}.py").write_text(f"def {name}():\n    return 1\n", encoding="utf-8")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "-m", name)


def runtime(workspace: Path) -> Runtime:
    return Runtime(workspace, Config(), index=lambda ws, force: index_workspace(ws, force=force))


def names(rt: Runtime, policy: str, name: str) -> tuple[str, list[str | None]]:
    """One query as a tool runs it: (its freshness_status, the names it found)."""
    snap, engine, status = rt.for_query(policy)
    assert engine.reader.manifest == snap.manifest  # the engine reads the generation freshness was judged on
    return status, [hit.name for hit in engine.locate_symbol(name, limit=5).hits]


def settle(rt: Runtime) -> None:
    job = rt.jobs.active()
    if job is not None:
        assert job.done.wait(120)
    assert rt.jobs.last is None or rt.jobs.last.status == "completed"


def test_a_slow_head_check_never_answers_fresh_after_a_commit(git_workspace: Path, monkeypatch) -> None:
    real_git_head = freshness.git_head

    def descheduled(workspace):
        time.sleep(freshness.CACHE_ABOVE_SECONDS * 4)  # as a loaded machine (or prewarm's GIL) makes it
        return real_git_head(workspace)

    monkeypatch.setattr(freshness, "git_head", descheduled)
    rt = runtime(git_workspace)
    assert names(rt, "balanced", "validate_token")[0] == "fresh"
    commit_symbol(git_workspace, "committed_later")
    with pytest.raises(ToolError) as strict:
        rt.for_query("strict")
    assert strict.value.code == "index_stale"
    status, found = names(rt, "balanced", "committed_later")
    assert status != "fresh" and "committed_later" not in found  # stale, and a sync has started
    settle(rt)
    status, found = names(rt, "balanced", "committed_later")
    assert status == "fresh" and found[0] == "committed_later"


def test_a_state_key_read_before_a_flip_never_mixes_generations(git_workspace: Path, monkeypatch) -> None:
    rt = runtime(git_workspace)
    assert names(rt, "balanced", "validate_token")[0] == "fresh"  # the engine of gen-1 is kept
    old_key = rt.snapshot().key
    commit_symbol(git_workspace, "committed_later")
    index_workspace(git_workspace)  # a sync job's child process: gen-2 is live
    new = rt.snapshot()  # another thread (the job's re-warm) has already read the new state ...
    assert new.key != old_key and new.key[0] == "gen-2"
    real_state_key = rt._state_key
    reads = iter([old_key])  # ... while this request read the key just before the flip

    monkeypatch.setattr(rt, "_state_key", lambda: next(reads, None) or real_state_key())
    snap, engine, status = rt.for_query("balanced")
    hits = [hit.name for hit in engine.locate_symbol("committed_later", limit=5).hits]
    assert status != "fresh" or hits[:1] == ["committed_later"]
    assert engine.reader.manifest == snap.manifest
    assert engine.reader.generation == snap.state.generation
    settle(rt)


def test_an_engine_for_an_outdated_snapshot_is_not_kept(git_workspace: Path) -> None:
    rt = runtime(git_workspace)
    old = rt.snapshot()
    commit_symbol(git_workspace, "committed_later")
    index_workspace(git_workspace)
    new = rt.snapshot()
    live = rt.engine(new)
    late = rt.engine(old)  # a request that read the state before the flip: answered from gen-1 ...
    assert late.reader.generation.name == "gen-1" and late is not live
    assert rt.engine(new) is live  # ... and the live generation's engine is still the kept one
