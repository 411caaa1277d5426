"""Prewarm after the handshake: open the index, touch every Tantivy index, run warm-up queries (in a thread)."""

from __future__ import annotations

import threading
import time
import traceback
from typing import Any

from cruxgate.reference.index.state import TANTIVY_INDICES
from cruxgate.reference.protocol.errors import ToolError

from .checks import index_checks
from .heap import settle_warm
from .runtime import Runtime

WARMUP_QUERIES = ("main", "config", "test")


class Prewarm:
    """Status `disabled | pending | warming | ready | skipped | error`; `skipped` means no usable index."""

    def __init__(self, runtime: Runtime, enabled: bool) -> None:
        self._runtime = runtime
        self.status = "pending" if enabled else "disabled"
        self.enabled = enabled
        self.duration_ms: int | None = None
        self.diagnostics: dict[str, Any] | None = None
        self._lock = threading.Lock()
        self._started = False
        runtime.on_index_changed.append(self.rewarm)

    def start(self) -> None:
        """Start once (idempotent); called when the client's handshake is accepted."""
        with self._lock:
            if not self.enabled or self._started:
                return
            self._started = True
            self.status = "warming"
        threading.Thread(target=self._first_run, name="cruxgate-prewarm", daemon=True).start()

    def _first_run(self) -> None:
        self._run()
        # Only after the first warm-up: a re-warm follows an index job, and freezing then would keep
        # the previous generation's cyclic garbage forever.
        settle_warm()

    def rewarm(self) -> None:
        """Warm a freshly built index generation (runs in the job's thread)."""
        if self.enabled:
            self._run()

    def _run(self) -> None:
        started = time.perf_counter()
        try:
            self.status = "warming"
            warm(self._runtime)
            self.status, self.diagnostics = "ready", None
        except ToolError as exc:  # nothing to warm: no index or an incompatible one
            self.diagnostics = {"code": exc.code, "message": exc.message}
            self.status = "skipped"
        except Exception as exc:  # noqa: BLE001 - a broken index: report it, queries still run cold
            # Diagnostics before status: health_check reads both from another thread, and format_exc
            # (it reads source files) left `error` visible without its diagnostics for milliseconds.
            self.diagnostics = {"error": f"{type(exc).__name__}: {exc}",
                                "traceback": traceback.format_exc(limit=3).splitlines()[-3:]}
            self.status = "error"
        self.duration_ms = int((time.perf_counter() - started) * 1000)

    def as_dict(self) -> dict[str, Any]:
        """Prewarm status for health_check."""
        out: dict[str, Any] = {"status": self.status}
        if self.duration_ms is not None:
            out["duration_ms"] = self.duration_ms
        if self.diagnostics:
            out["diagnostics"] = self.diagnostics
        return out


def warm(runtime: Runtime) -> None:
    """Touch segment metadata of each index and run the query paths once so pages and caches are hot."""
    engine = runtime.engine()
    reader = engine.reader
    for name in TANTIVY_INDICES:
        _ = reader.searcher(name).num_docs  # loads the segment readers (mmap) of each index
    for query in WARMUP_QUERIES:
        engine.search_code(query, limit=5, explain=True)
        engine.locate_symbol(query, limit=5)
    # Opens the semantic index (a broken one is recorded by the channel, not raised) and maps its vectors.
    engine.search_code("read the configuration from a file", limit=5, semantic=True)
    row = reader.db.execute("SELECT path FROM files ORDER BY file_id LIMIT 1").fetchone()
    if row is not None:
        engine.file_outline(row[0], depth="all")
    index_checks(runtime, runtime.snapshot())  # so that the first health_check is as cheap as the rest
