"""index_repo / sync_repo: one job at a time, and the registry codes when one already runs."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from cruxgate.reference.config import Config
from cruxgate.reference.protocol.errors import ToolError
from cruxgate.reference.protocol.params import IndexRepoParams, NoParams
from cruxgate.reference.server.prewarm import Prewarm
from cruxgate.reference.server.runtime import Runtime
from cruxgate.reference.server.tools.indexing import index_repo, sync_repo


@pytest.fixture
def runtime(tmp_path: Path) -> tuple[Runtime, threading.Event]:
    gate = threading.Event()
    rt = Runtime(tmp_path, Config(), index=lambda workspace, force: gate.wait(10) and {"force": force})
    rt.prewarm = Prewarm(rt, enabled=False)
    return rt, gate


def test_sync_then_sync_in_progress_then_index_in_progress(runtime: tuple[Runtime, threading.Event]) -> None:
    rt, gate = runtime
    started = sync_repo(rt, NoParams())
    assert started["job"]["status"] == "running" and started["metadata"]["indexing_status"] == "indexing"
    with pytest.raises(ToolError) as again:
        sync_repo(rt, NoParams())
    assert again.value.code == "sync_in_progress" and again.value.data["job"]["job_id"] == started["job"]["job_id"]
    with pytest.raises(ToolError) as index:
        index_repo(rt, IndexRepoParams(force=True))
    assert index.value.code == "index_in_progress"
    with pytest.raises(ToolError) as query:
        rt.require_ready(rt.snapshot())
    assert query.value.code == "index_in_progress"  # no index yet, but one is being built
    gate.set()
    assert rt.jobs.last is not None or rt.jobs.active() is not None


def test_index_repo_waits_and_reports(runtime: tuple[Runtime, threading.Event]) -> None:
    rt, gate = runtime
    gate.set()
    done = index_repo(rt, IndexRepoParams(force=True))
    assert done["job"]["status"] == "completed" and done["job"]["summary"] == {"force": True}
    assert done["startup_checks"]["index"]["status"] == "not_indexed"  # the stand-in built nothing
