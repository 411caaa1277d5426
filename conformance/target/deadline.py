"""The run's deadline for its target: every wait on the target ends by then, whatever the per-step timeouts allow.

A server that answers each call just inside the profile's `call` timeout (after 20 s of 30) never times out,
and 150 scenarios of such calls take hours: the runner gave no verdict. Two rules end the run's waits:

- the deadline (`--target-deadline`, counted from the first moment the run needs the target) bounds the
  whole run, however the server behaves;
- the pace rule ends it early: a request (tools/list or tools/call, the handshake's `initialize` not counted)
  is slow when it waits SLOW_SHARE of the call timeout or more, no answer included; once the slow requests in
  a row have waited SLOW_BUDGET call timeouts in all, the server does not answer in time. Only a tools/call
  answered in time breaks a streak: a server restarted after each hung call answers its tools/list at once,
  and that says nothing of its answers to work. At the default 30 s timeout: three answers after 20 s, or two
  requests with no answer, end the run. A healthy server answers in milliseconds, so a machine loaded to a
  standstill would have to stall a run's requests by 10 s and more, one after the other, for a minute.
  Likewise, once EXIT_STREAK tools/call requests in a row ended with the server exiting before it answered,
  the server exits on every call: each later scenario would only restart it to watch it exit again (a server
  that floods its stderr on every start makes that minutes). Any tools/call answered breaks that streak.

A wait either rule cuts fails with the reason, and the scenarios after it are not run.
"""

from __future__ import annotations

import math
import threading
import time

DEFAULT_SECONDS = 900.0  # the reference's whole suite: about 1 min idle, up to 8 min (HTTP) under heavy load
OPTION = "--target-deadline"
SLOW_SHARE = 1 / 3  # of the call timeout: a request that waits this long is slow
SLOW_BUDGET = 2.0  # call timeouts: the slow requests in a row that wait this long in all end the run's waits
EXIT_STREAK = 5  # tools/call requests in a row that the server exited on, unanswered


class Deadline:
    """A point in monotonic time after which the runner waits on the target no more (none: `seconds` 0).

    With `call_timeout` (seconds), the pace rule may bring that point forward to the moment the slow requests
    in a row have waited SLOW_BUDGET call timeouts; `seconds` 0 turns both rules off.
    """

    def __init__(self, seconds: float, call_timeout: float = math.inf) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds if seconds > 0 else math.inf
        self.slow_after = call_timeout * SLOW_SHARE if seconds > 0 else math.inf
        self.slow_budget = call_timeout * SLOW_BUDGET
        self.too_slow: str | None = None  # why the pace rule ended the waits, once it has
        self._streak: list[float] = []
        self._exits: list[str] = []  # how the server exited on each tools/call of the current streak
        self._lock = threading.Lock()  # servers prepared ahead answer in other threads

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

    def note_wait(self, seconds: float, listing: bool = False) -> str | None:
        """Record how long one request waited (its whole timeout when unanswered; `listing`: a tools/list); the
        pace rule's verdict when this request completes a slow streak (the deadline has then passed), else None."""
        with self._lock:
            if not listing:
                self._exits.clear()  # it answered (or hung): it does not exit on every call
            if seconds < self.slow_after:
                if not listing:
                    self._streak.clear()
                return None
            self._streak.append(seconds)
            if sum(self._streak) < self.slow_budget or self.too_slow is not None:
                return None
            waits = ", ".join(f"{wait:.1f}s" for wait in self._streak)
            self.too_slow = (f"the server does not answer within {self.slow_after:.3g}s: {len(self._streak)} "
                             f"requests in a row took {waits} ({sum(self._streak):.1f}s in all; a third of the call "
                             "timeout or more each, or no answer)")
            self.at = min(self.at, time.monotonic())
            return self.too_slow

    def note_exit(self, how: str) -> str | None:
        """Record a tools/call the server exited on before answering (`how`: its exit, as the failure words it);
        the verdict when this completes an exit streak (the deadline has then passed), else None."""
        with self._lock:
            self._exits.append(how)
            if len(self._exits) < EXIT_STREAK or self.too_slow is not None or self.seconds <= 0:
                return None
            self.too_slow = (f"the server exits on every call: {EXIT_STREAK} requests in a row ended with the "
                             f"server exiting before it answered (the last: {how})")
            self.at = min(self.at, time.monotonic())
            return self.too_slow

    def describe(self) -> str:
        """The deadline as failure messages name it."""
        return f"the run's deadline for the target ({OPTION} {self.seconds:g}s)"

    def why(self) -> str:
        """Why the runner waits no more, once it does: the pace rule's verdict, or the deadline that passed."""
        return self.too_slow or f"{self.describe()} passed"


NO_DEADLINE = Deadline(0)
