"""Per-process server state: the index state and engine (reopened when the index changes), jobs, freshness."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cruxgate.reference.config import Config
from cruxgate.reference.index import SCHEMA_VERSION, IndexReader, IndexState, read_state
from cruxgate.reference.index.state import LIVE_REF, MANIFEST, STATE_DIR, BadPointer, read_current
from cruxgate.reference.protocol.errors import ToolError
from cruxgate.reference.protocol.metadata import build_metadata, canonical_status
from cruxgate.reference.query.engine import QueryEngine
from cruxgate.reference.query.semantic import channel_for

from .freshness import StalenessCheck
from .jobs import JobRunner

INDEX_TIMEOUT_SECONDS = 1800
# Reads of the state when the key moved while it was read (an index job flipping CURRENT meanwhile).
SNAPSHOT_READS = 3


@dataclass(frozen=True)
class Snapshot:
    """The index as one request sees it."""

    status: str  # canonical: ready | not_indexed | reindex_required | corrupt_manifest
    manifest: dict[str, Any] | None
    current_schema_version: int | None
    required_schema_version: int
    manifest_mtime_ns: int
    key: tuple[Any, ...]
    state: IndexState  # what was read: the generation the manifest came from
    reason: str = ""  # why the index is not ready (the state's reason, or the damage found in it)

    @property
    def ref(self) -> str:
        """The indexed ref (`live` for the working tree)."""
        return str((self.manifest or {}).get("ref") or LIVE_REF)


def _remediation(workspace: Path, force: bool) -> str:
    flag = " --force" if force else ""
    return f"run `cruxgate index {workspace}{flag}` (or call the index_repo tool{' with force=true' if force else ''})"


class Runtime:
    """What every tool call shares: workspace, config, the open index, background jobs and prewarm status."""

    def __init__(self, workspace: Path, config: Config, index: Any = None) -> None:
        """`index(workspace, force)` runs one index job; by default `cruxgate index` in a child process."""
        self.workspace = workspace.resolve()
        self.config = config
        self._lock = threading.RLock()
        self._snapshot: Snapshot | None = None
        self._engine: QueryEngine | None = None
        self._engine_key: tuple[Any, ...] | None = None
        self._is_stale = StalenessCheck(renew=True)
        self._damaged: dict[tuple[Any, ...], str] = {}  # snapshot key -> damage found in that generation
        self.jobs = JobRunner(self.workspace, index or self._index, after=self._after_job)
        self.on_index_changed: list[Any] = []  # callbacks (prewarm) after a completed job
        self.checks: dict[tuple[Any, ...], dict[str, Any]] = {}  # health checks of the live generation
        self.prewarm: Any = None  # set by the app (reference.server.prewarm.Prewarm)
        self.query_threads: Any = None  # the query tools' thread limiter (the app makes it in its event loop)

    # -- index state -------------------------------------------------------
    def _state_key(self) -> tuple[Any, ...]:
        """Cheap identity of the live index: CURRENT's content and the manifest's stat."""
        state = os.path.join(self.workspace, STATE_DIR)
        try:
            current = read_current(self.workspace)
        except BadPointer as err:
            return (f"bad: {err}",)  # read_state classifies it (one element: no generation to name)
        if current is None:
            return ("none",)
        try:
            info = os.stat(os.path.join(state, current, MANIFEST))
        except OSError:
            return (current, None)
        return (current, info.st_ino, info.st_size, info.st_mtime_ns)

    def snapshot(self) -> Snapshot:
        """The index state, re-read only when CURRENT or the manifest changed.

        The state is read from the generation the key names, and the key is read again after it:
        a snapshot's manifest (its freshness) and the generation its engine opens are always those
        its key identifies, even when an index job flips CURRENT meanwhile.
        """
        key = self._state_key()
        snap = self._snapshot
        if snap is not None and snap.key == key:
            return snap
        for _ in range(SNAPSHOT_READS):
            state = read_state(self.workspace, key[0] if len(key) > 1 else None)
            again = self._state_key()
            if again == key:
                break
            key = again
        else:
            key = ("unsettled", id(state))  # never matches a later key: the next call reads again
        snap = Snapshot(
            status=canonical_status(state.status),
            manifest=state.manifest,
            current_schema_version=state.current_schema_version,
            required_schema_version=getattr(state, "required_schema_version", SCHEMA_VERSION),
            manifest_mtime_ns=key[3] if len(key) == 4 else 0,
            key=key,
            state=state,
            reason=state.reason,
        )
        damage = self._damaged.get(key)
        if damage is not None and snap.status == "ready":
            snap = replace(snap, status="corrupt_manifest", reason=damage)
        self._snapshot = snap
        return snap

    def mark_damaged(self, snap: Snapshot, reason: str) -> Snapshot:
        """Record that `snap`'s generation is damaged: until the index changes, it reads as corrupt, not ready."""
        damaged = replace(snap, status="corrupt_manifest", reason=reason)
        with self._lock:
            self._damaged = {snap.key: reason}  # only the live generation's damage matters
            if self._snapshot is None or self._snapshot.key == snap.key:
                self._snapshot = damaged
            if self._engine_key == snap.key:
                self._engine, self._engine_key = None, None
            self.checks = {}
        return damaged

    def damage_error(self, snap: Snapshot | None, exc: Exception) -> ToolError | None:
        """The registry error for a query that failed on a damaged index (None when the index is sound).

        Runs where the query ran (a worker thread): the deep check reads the whole database file.
        """
        if snap is None or snap.status != "ready":
            return None
        engine = self._engine if self._engine_key == snap.key else None
        reason = engine.reader.damage(deep=True) if engine is not None else None
        if reason is None and isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
            reason = f"{type(exc).__name__}: {exc}"  # SQLite's own word for a damaged file (malformed, not a db)
        if reason is None:
            return None
        try:
            self.require_ready(self.mark_damaged(snap, reason))
        except ToolError as error:
            return error
        return None

    def startup_index_check(self) -> dict[str, Any]:
        """`startup_checks.index`: status and the two schema versions."""
        snap = self.snapshot()
        check = {"status": snap.status, "current_schema_version": snap.current_schema_version,
                 "required_schema_version": snap.required_schema_version}
        if snap.status != "ready" and snap.reason:
            check["reason"] = snap.reason
        return check

    def require_ready(self, snap: Snapshot) -> None:
        """Raise the registry error for an index that cannot answer queries."""
        if snap.status == "ready":
            return
        if snap.status == "not_indexed":
            code = "index_in_progress" if self.jobs.active() else "index_not_ready"
            raise ToolError(code, "the workspace has no index yet",
                            {"remediation": _remediation(self.workspace, False), "index_status": snap.status})
        if snap.status == "reindex_required":
            reason = "the index was built with another schema version"
        elif snap.reason:
            reason = f"the index is damaged or inconsistent ({snap.reason})"
        else:
            reason = "the index manifest is unreadable or inconsistent"
        raise ToolError("index_incompatible", f"{reason}; rebuild it", {
            "remediation": _remediation(self.workspace, True),
            "index_status": snap.status,
            "current_schema_version": snap.current_schema_version,
            "required_schema_version": snap.required_schema_version,
        })

    def engine(self, snap: Snapshot | None = None) -> QueryEngine:
        """The query engine over the generation `snap` read (opened once per index generation).

        Never the one CURRENT names by the time the engine opens: the answer must come from the
        generation whose manifest its freshness was judged by. An engine for a snapshot that is
        no longer the latest (a request that read the state just before a flip) serves that
        request only; the kept engine stays the live generation's.
        """
        snap = snap or self.snapshot()
        self.require_ready(snap)
        with self._lock:
            if self._engine is not None and self._engine_key == snap.key:
                return self._engine
            reader = IndexReader(self.workspace, snap.state)
            damage = reader.damage()
            if damage is not None:
                reader.close()
                self.require_ready(self.mark_damaged(snap, damage))
            engine = QueryEngine(reader, semantic=channel_for(self.config.semantic, reader.generation))
            latest = self._snapshot
            if self._engine is None or latest is None or latest.key == snap.key:
                self._engine, self._engine_key = engine, snap.key
            return engine

    def for_query(self, policy: str | None) -> tuple[Snapshot, QueryEngine, str]:
        """What a query tool needs: the snapshot, the engine and the freshness status under `policy`."""
        snap = self.snapshot()
        engine = self.engine(snap)
        return snap, engine, self.freshness(snap, policy or self.config.freshness_policy)

    # -- freshness and metadata -------------------------------------------
    def freshness(self, snap: Snapshot, policy: str) -> str:
        """Apply the freshness policy: strict raises index_stale, balanced starts a sync; returns the status."""
        if snap.status != "ready" or snap.manifest is None:
            return "fresh"
        stale = self._is_stale(self.workspace, snap.manifest, snap.manifest_mtime_ns, snap.key,
                               exact=policy == "strict")
        if not stale:
            return "syncing" if self.jobs.active() else "fresh"
        return self._stale(policy, "the index is older than the workspace")

    def files_changed(self, freshness: str, policy: str, changed: set[str] | frozenset[str]) -> str:
        """A call's freshness once it has read files: one that differs from the index makes the call stale.

        The tree check above sees HEAD or mtimes only; a file edited, swapped for a link or a FIFO, or
        removed since indexing is caught when a call reads it, and treated as a stale tree is.
        """
        if not changed or freshness == "stale":
            return freshness
        return self._stale(policy, f"{min(changed)} changed since it was indexed")

    def _stale(self, policy: str, why: str) -> str:
        """The policy's answer to a stale index: strict raises index_stale, balanced starts a sync."""
        if policy == "strict":
            raise ToolError("index_stale", f"{why} and freshness_policy is strict",
                            {"remediation": "call sync_repo (or `cruxgate index`) and retry, or use "
                                            "freshness_policy=balanced", "freshness_policy": "strict"})
        if policy == "balanced":
            self.jobs.start("sync")
        return "stale"

    def metadata(self, snap: Snapshot | None = None, *, freshness: str = "fresh",
                 semantic: bool = False) -> dict[str, Any]:
        """Protocol v1 metadata for the current state (the builder in reference.protocol.metadata)."""
        snap = snap or self.snapshot()
        meta = build_metadata(snap.status, syncing=self.jobs.active() is not None, freshness=freshness,
                              ref=snap.ref, semantic=semantic)
        if self.config.warnings:
            meta["warnings"] = list(self.config.warnings)
        return meta

    # -- jobs ---------------------------------------------------------------
    def _index(self, workspace: Path, force: bool) -> Any:
        """Run `cruxgate index` in a child process: no GIL contention with queries, no fork of this process."""
        argv = [sys.executable, "-m", "cruxgate", "index", str(workspace), "--quiet"] + (["--force"] if force else [])
        if self.config.source is not None:  # the semantic backend may need the index to hold its vectors
            argv += ["--config", self.config.source]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=INDEX_TIMEOUT_SECONDS, check=False)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise RuntimeError(f"`cruxgate index` exited with {done.returncode}: {' | '.join(tail)}")
        lines = done.stdout.strip().splitlines()
        return {"output": lines[-1] if lines else ""}

    def _after_job(self) -> None:
        for callback in self.on_index_changed:
            callback()
