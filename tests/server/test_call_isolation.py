"""No call holds the others: query tools run off the event loop, with a deadline and a bounded answer.

These drive the server's own dispatch in-process (the SDK spawns one task per request over both transports),
with a handler that blocks the way a FIFO read or a huge page would.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from cruxgate.reference.config import Config
from cruxgate.reference.index import index_workspace
from cruxgate.reference.protocol.arguments import parse_arguments
from cruxgate.reference.server import tools as tools_module
from cruxgate.reference.server.app import dispatch
from cruxgate.reference.server.prewarm import Prewarm
from cruxgate.reference.server.runtime import Runtime
from cruxgate.reference.server.tools.search_scored import search

# Far above a health_check's cost (SC-105: p95 < 10 ms) and far below the blocked call's hold.
HEALTH_BOUND_SECONDS = 2.0
HOLD_SECONDS = 8.0


@pytest.fixture
def runtime(polyglot_copy: Callable[[str], Path]) -> Runtime:
    rt = Runtime(polyglot_copy("isolation"), Config())
    rt.prewarm = Prewarm(rt, enabled=False)
    return rt


@pytest.fixture
def blocked_search(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """`search`'s handler blocks until released (or HOLD_SECONDS pass), as a read of a FIFO would."""
    release = threading.Event()

    def hold(rt: Runtime, params: Any) -> dict[str, Any]:
        release.wait(HOLD_SECONDS)
        return {"results": [], "metadata": rt.metadata()}
    spec = dataclasses.replace(tools_module.TOOLS["search"], handler=hold)
    monkeypatch.setitem(tools_module.TOOLS, "search", spec)
    yield release
    release.set()


def test_health_check_answers_while_a_query_is_blocked(runtime: Runtime, blocked_search: threading.Event) -> None:
    async def scenario() -> tuple[float, tuple[dict[str, Any], str, bool]]:
        async with anyio.create_task_group() as tg:
            tg.start_soon(dispatch, runtime, "search", {"query": "x"})
            started = time.perf_counter()
            await anyio.sleep(0.05)  # the search is under way
            health = await dispatch(runtime, "health_check", {})
            elapsed = time.perf_counter() - started
            blocked_search.set()
        return elapsed, health
    elapsed, (_, text, is_error) = anyio.run(scenario)
    assert not is_error and json.loads(text)["status"] in ("ready", "warming")
    assert elapsed < HEALTH_BOUND_SECONDS, f"health_check waited {elapsed:.1f}s behind a blocked search"


def test_a_query_past_its_deadline_is_answered_and_abandoned(runtime: Runtime, blocked_search: threading.Event,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    spec = dataclasses.replace(tools_module.TOOLS["search"], deadline=0.3)
    monkeypatch.setitem(tools_module.TOOLS, "search", spec)

    async def scenario() -> tuple[float, tuple[dict[str, Any], str, bool]]:
        started = time.perf_counter()
        answer = await dispatch(runtime, "search", {"query": "x"})
        return time.perf_counter() - started, answer
    elapsed, (_, text, is_error) = anyio.run(scenario)
    blocked_search.set()
    error = json.loads(text)["error"]
    assert is_error and error["code"] == "internal_error" and "deadline" in error["message"]
    assert error["data"]["deadline_seconds"] == 0.3 and "remediation" in error["data"]
    assert elapsed < HEALTH_BOUND_SECONDS


def test_every_query_tool_runs_off_the_loop_with_a_deadline() -> None:
    for name in ("search_code", "locate_symbol", "get_file_outline", "find_references", "search", "search_preview"):
        spec = tools_module.TOOLS[name]
        assert spec.blocking and spec.deadline == tools_module.QUERY_DEADLINE_SECONDS, name


def test_a_huge_page_is_not_built_past_the_response_budget(tmp_path: Path) -> None:
    """Ten 300 KB functions that all match: the handler stops building once past the 64 KB budget."""
    body = "".join(f"    value_{i} = {i}\n" for i in range(20_000))
    for n in range(10):
        (tmp_path / f"m{n}.py").write_text(f"def holder_{n}():\n{body}    return 1\n", encoding="utf-8")
    index_workspace(tmp_path)
    rt = Runtime(tmp_path, Config())
    rt.prewarm = Prewarm(rt, enabled=False)
    payload = search(rt, parse_arguments("search", {"query": "holder", "limit": 100}))
    size = len(json.dumps(payload))
    one = len(body)
    assert payload["results"] and size < rt.config.max_response_bytes + 2 * one, size
