"""The run's deadline for its target: every wait on the target ends by then, whatever the per-step timeouts allow.

A server that answers each call just inside the profile's `call` timeout (after 20 s of 30) never times out,
and 150 scenarios of such calls take hours: the runner gave no verdict. The deadline
(`--target-deadline`, counted from the first moment the run needs the target) bounds the whole run: a wait it
cuts fails with the deadline as its reason, and the scenarios after it are not run.
"""

from __future__ import annotations

import math
import time

DEFAULT_SECONDS = 900.0  # the reference's whole suite: about 1 min idle, up to 8 min (HTTP) under heavy load
OPTION = "--target-deadline"


class DeadlinePassed(Exception):
    """A wait was cut by the run's deadline for its target."""


class Deadline:
    """A point in monotonic time after which the runner waits on the target no more (none: `seconds` 0)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds if seconds > 0 else math.inf

    def remaining(self) -> float:
        """Seconds left (inf without a deadline, 0 once passed)."""
        return max(0.0, self.at - time.monotonic())

    def passed(self) -> bool:
        """Whether the deadline has passed."""
        return time.monotonic() >= self.at

    def bound(self, timeout: float) -> tuple[float, bool]:
        """The wait to allow instead of `timeout`, and whether it is the deadline (not the timeout) that limits it."""
        left = self.remaining()
        return (left, True) if left < timeout else (timeout, False)

    def describe(self) -> str:
        """The deadline as failure messages name it."""
        return f"the run's deadline for the target ({OPTION} {self.seconds:g}s)"


NO_DEADLINE = Deadline(0)
