"""Golden answers of the indexing tools (index_repo, sync_repo) and of the status tools around a job.

They change the server's state, so they have their own server, and one test walks the whole sequence
(job ids and generations follow from the order of the calls).
"""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion


def test_job_lifecycle(golden_server, snapshot: SnapshotAssertion) -> None:
    # index_repo waits for its run: nothing changed since `cruxgate index`, so every file is unchanged.
    assert golden_server.answer("index_repo", {}) == snapshot(name="index_repo-unchanged")
    golden_server.settle()
    assert golden_server.answer("index_status") == snapshot(name="index_status-after-index_repo")

    # sync_repo answers at once with the running job. The sync of 35 unchanged files takes a few hundred
    # ms (its own run), the next two calls a few ms, so they meet the job still running.
    assert golden_server.answer("sync_repo") == snapshot(name="sync_repo-started")
    assert golden_server.answer("sync_repo") == snapshot(name="sync_repo-sync_in_progress")
    assert golden_server.answer("index_repo", {"force": True}) == snapshot(name="index_repo-index_in_progress")
    golden_server.settle()
    assert golden_server.answer("index_status") == snapshot(name="index_status-after-sync_repo")

    assert golden_server.answer("index_repo", {"force": True}) == snapshot(name="index_repo-force")
    golden_server.settle()
    assert golden_server.answer("health_check") == snapshot(name="health_check-after-jobs")
