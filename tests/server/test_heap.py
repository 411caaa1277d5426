"""GC settings of the serving process."""

from __future__ import annotations

import gc

from cruxgate.reference.server.heap import YOUNG_THRESHOLD, settle_startup, settle_warm


def test_settle_freezes_what_exists_and_raises_the_young_threshold() -> None:
    before = gc.get_threshold()
    try:
        settle_startup()
        assert gc.get_threshold() == (YOUNG_THRESHOLD, *before[1:])
        frozen = gc.get_freeze_count()
        assert frozen > 0
        # containers made after start-up are frozen by the warm step
        kept: list[list[object]] = [[] for _ in range(100)]
        settle_warm()
        assert gc.get_freeze_count() >= frozen + len(kept)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
