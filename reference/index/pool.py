"""The indexer's process pool: `multiprocessing`'s fork pool, without its worker handler's busy wait."""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
from collections.abc import Callable
from typing import Any


class _Pool(multiprocessing.pool.Pool):
    """A pool whose worker handler wakes when a worker exits or the pool closes, not when a result arrives.

    CPython's handler also waits on the results pipe, so while a result waits there to be read it goes round
    without sleeping: about 60 rounds a result on a busy machine, 1.2 CPU-s of a 5,000-file index run. Its
    rounds only replace workers that exited, which the workers' own sentinels announce.
    """

    def _get_sentinels(self) -> list[Any]:
        notifier = getattr(self, "_change_notifier", None)  # private to CPython's Pool (3.8 to this day)
        reader = getattr(notifier, "_reader", None)
        if reader is None:  # a Python whose Pool changed: its own sentinels, busy wait and all
            stock: Callable[[], list[Any]] = getattr(super(), "_get_sentinels")  # noqa: B009 - not in the stubs
            return stock()
        return [reader]


def fork_pool(workers: int, initializer: Callable[[], Any] | None = None) -> multiprocessing.pool.Pool:
    """A pool of `workers` forked processes (each running `initializer` first)."""
    return _Pool(workers, initializer=initializer, context=multiprocessing.get_context("fork"))
