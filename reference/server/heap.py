"""Garbage-collector settings of the serving process: what start-up built is frozen, young collections are rarer.

A `tools/call` on a 200-symbol file builds a few thousand short-lived containers (the outline's nodes,
then the SDK's validated and dumped copies of the payload). With CPython's default young threshold (700
net allocations) a collection runs in the middle of most such calls while all of them are alive, and
every tenth one scans the middle generation too (~2 ms); a full collection walks the ~500k objects the
imports and the index left behind (~40 ms). Those pauses land on the calls' latency, not on garbage:
request objects are freed by reference counting as soon as the answer is written.
"""

from __future__ import annotations

import gc

# Net container allocations before a young collection: above a whole request's peak, so most calls run
# without one; cyclic garbage is still collected, only less often.
YOUNG_THRESHOLD = 20_000


def settle_startup() -> None:
    """Freeze what exists now (modules, schemas, the SDK) out of every collection and raise the young threshold."""
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)


def settle_warm() -> None:
    """Freeze what the first warm-up built (the open index, caches): full collections stay small."""
    gc.freeze()
