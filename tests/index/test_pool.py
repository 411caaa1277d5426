"""The indexer's fork pool: its worker handler sleeps while results wait to be read, and the pool still ends."""

from __future__ import annotations

import multiprocessing.pool
import threading
import time

import pytest

from cruxgate.reference.index.pool import fork_pool


def _result(_: int) -> bytes:
    return b"x" * 200_000  # larger than a pipe's buffer: it waits in the pipe until read


def test_worker_handler_does_not_spin_while_results_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """CPython's own pool goes round its worker handler thousands of times here (3,170 measured)."""
    rounds: list[int] = []
    maintain = getattr(multiprocessing.pool.Pool, "_maintain_pool")  # noqa: B009 - private to CPython's Pool

    def counted(*args: object) -> None:
        rounds.append(1)
        maintain(*args)

    monkeypatch.setattr(multiprocessing.pool.Pool, "_maintain_pool", staticmethod(counted))
    with fork_pool(2) as pool:
        results = 0
        for result in pool.imap(_result, range(40), chunksize=1):
            results += len(result) > 0
            busy_until = time.perf_counter() + 0.01
            while time.perf_counter() < busy_until:  # a consumer holding the GIL, as the index writer does
                pass
    assert results == 40
    assert len(rounds) <= 5


def test_a_closed_pool_finishes_its_tasks_and_ends() -> None:
    pool = fork_pool(2)
    answers = pool.map_async(abs, range(-50, 0))
    assert answers.get(timeout=30) == list(range(50, 0, -1))
    pool.close()
    joining = threading.Thread(target=pool.join, daemon=True)  # the handler must wake on close: no result will
    joining.start()
    joining.join(timeout=30)
    assert not joining.is_alive()


def test_a_pool_whose_notifier_is_not_found_uses_cpythons_own_sentinels(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python whose Pool renamed its change notifier gets the stock handler (busy wait and all), not an error."""
    with fork_pool(2) as pool:
        notifier = getattr(pool, "_change_notifier")  # noqa: B009 - private to CPython's Pool
        assert getattr(pool, "_get_sentinels")() == [notifier._reader]  # noqa: B009
        stock = [notifier._reader]  # what the handler thread may also see meanwhile: a sentinel it can wait on
        monkeypatch.setattr(multiprocessing.pool.Pool, "_get_sentinels", lambda self: stock)
        monkeypatch.setattr(pool, "_change_notifier", object())  # the handler thread holds the real one
        found = getattr(pool, "_get_sentinels")()  # noqa: B009
        monkeypatch.undo()
        assert found is stock
        assert sorted(pool.map(abs, [-1, -2])) == [1, 2]
