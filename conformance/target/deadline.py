"""The run's deadline for its target: every wait on the target ends by then, whatever the per-step timeouts allow.

A server that answers each call just inside the profile's `call` timeout (after 20 s of 30) never times out,
and 150 scenarios of such calls take hours: the runner gave no verdict. Three rules end the run's waits:

- the deadline (`--target-deadline`, counted from the first moment the run needs the target) bounds the
  whole run, however the server behaves;
- the pace rule ends it early for a server too slow to judge. A request (tools/list or tools/call; the
  handshake's `initialize` not counted, since a start may open an index) is slow when it waits SLOW_SECONDS or
  more, no answer included (or SLOW_SHARE of the call timeout when a profile raises that past 30 s, so a server
  allowed slower calls is judged by its own allowance; never more than the timeout). 5 s is ten times the
  loosest per-call latency target the documents set (001 SC-104: the first query after a start, p95 < 500 ms;
  they call "> 2000 ms" the cold-start penalty that prewarm removes) and 500 times health_check's (SC-105:
  10 ms). Once at least two slow requests in a row have waited SLOW_BUDGET call timeouts in all (30 s), the
  server does not answer in time. Two, so that one hang alone (a server that hangs on one input and is
  restarted) never ends the run; one call timeout, so that a server slow on every request is cut within 30 s
  of requests plus one more: at the defaults one answering every request after 9.9 s after four (39.6 s),
  one answering after 20 s after two, one that never answers a call after two timeouts. The slowest to cut
  answers just inside the timeout: three waits of about 30 s with its handshake. Only a tools/call answered in
  time breaks a streak: a server restarted after each hung call answers its tools/list at once, and that says
  nothing of its answers to work. The reference's slowest request over the suite was 0.61 s at load 5 and
  3.0 s at load 19 (p95 1.6 s; docs/conformance.md): a loaded machine would have to stall its requests by 5 s
  and more, one after the other, for half a minute to cut its run. A server slow on some requests only (fast
  health checks between slow searches) is not cut by this rule: the deadline bounds it.
- the exit rule ends it for a server that exits even on a call it has no reason to fail. Once EXIT_STREAK
  tools/call requests in a row ended with the server exiting before it answered, the runner probes: it
  starts a fresh server and sends it KNOWN_GOOD (health_check with no arguments), then stops it. A server
  that exits on that too ends the run's waits: each later scenario would only restart it to watch it exit
  again (a server that floods its stderr on every start makes that minutes). One that answers the probe
  exits on some calls only (a crash on an argument it does not know): its streak starts over and every
  scenario gets its own verdict. A server that does not list health_check cannot be probed; its streak ends
  the run only when its calls went to more than one tool with no argument name common to all of them. Any
  tools/call answered breaks the streak.

A wait any rule cuts fails with the reason, and the scenarios after it are not run.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

DEFAULT_SECONDS = 900.0  # the reference's whole suite: about 1 min idle, up to 8 min (HTTP) under heavy load
OPTION = "--target-deadline"
SLOW_SECONDS = 5.0  # a request that waits this long is slow (ten times the documents' loosest per-call target)...
SLOW_SHARE = 1 / 6  # ... or this share of the call timeout when that is more (a profile that allows slower calls)
SLOW_BUDGET = 1.0  # call timeouts: two or more slow requests in a row that wait this long in all end the run's waits
EXIT_STREAK = 3  # tools/call requests in a row that the server exited on, unanswered, before the probe
KNOWN_GOOD: tuple[str, dict[str, Any]] = ("health_check", {})  # a call every server of the documents answers
# The exit rule's probe: (the call it sent to a fresh server, how the server exited on it or None when it answered);
# (None, None) when the server lists no health_check.
Probe = Callable[[], tuple[str | None, str | None]]


def rule_summary() -> str:
    """The pace rule in a sentence, for an option's help."""
    return (f"two or more slow requests in a row (each {SLOW_SECONDS:g}s or more, or 1/{round(1 / SLOW_SHARE)} of the "
            f"call timeout when that is more) have waited {SLOW_BUDGET:g}x the call timeout in all")


class Deadline:
    """A point in monotonic time after which the runner waits on the target no more (none: `seconds` 0).

    With `call_timeout` (seconds), the pace rule may bring that point forward to the moment two or more slow
    requests in a row have waited SLOW_BUDGET call timeouts, and the exit rule to the moment a server that
    exited on EXIT_STREAK calls in a row exits on the probe too; `seconds` 0 turns all of them off.
    """

    def __init__(self, seconds: float, call_timeout: float = math.inf) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds if seconds > 0 else math.inf
        self.slow_after = min(call_timeout, max(SLOW_SECONDS, call_timeout * SLOW_SHARE)) if seconds > 0 \
            else math.inf
        self.slow_budget = call_timeout * SLOW_BUDGET
        self.too_slow: str | None = None  # why a rule ended the waits, once one has
        self._streak: list[float] = []
        self._exits: list[tuple[str, tuple[str, ...], str]] = []  # (tool, argument names, how it exited) in a row
        self._probing = False
        self._unprobed = False  # the probe found no health_check to send
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
            if len(self._streak) < 2 or sum(self._streak) < self.slow_budget or self.too_slow is not None:
                return None
            waits = ", ".join(f"{wait:.1f}s" for wait in self._streak)
            self.too_slow = (f"the server does not answer within {self.slow_after:.3g}s: {len(self._streak)} "
                             f"requests in a row took {waits} ({sum(self._streak):.1f}s in all; "
                             f"{self.slow_after:.3g}s or more each, or no answer)")
            self.at = min(self.at, time.monotonic())
            return self.too_slow

    def note_exit(self, tool: str, arguments: dict[str, Any], how: str, probe: Probe) -> str | None:
        """Record a tools/call of `tool` with `arguments` that the server exited on before answering (`how`: its
        exit, as the failure words it); when that completes an exit streak, call `probe` and judge what it saw.
        The exit rule's verdict when it ends the run's waits (the deadline has then passed), else None."""
        with self._lock:
            self._exits.append((tool, tuple(sorted(arguments)), how))
            if len(self._exits) < EXIT_STREAK or self._probing or self.too_slow is not None or self.seconds <= 0:
                return None
            if self._unprobed:
                return self._judge_exits(None, None)
            self._probing = True
        try:
            sent, exited = probe()
        finally:
            with self._lock:
                self._probing = False
        with self._lock:
            return self._judge_exits(sent, exited)

    def _judge_exits(self, probe: str | None, exited: str | None) -> str | None:
        """The exit rule on the streak and its probe (`probe`: the call sent, None when the server lists no
        health_check; `exited`: how the server exited on it, None when it answered). Called with the lock held."""
        exits, streak = self._exits, f"{len(self._exits)} tools/call requests in a row"
        calls = ", ".join(f"{tool} {{{', '.join(names)}}}" for tool, names, _ in exits)
        if not exits or (probe is not None and exited is None):
            self._exits = []  # it answered the probe: it exits on some calls only
            return None
        if probe is None:
            self._unprobed = True  # a server's listing does not change within a run: no fresh start to ask again
            tools = {tool for tool, _, _ in exits}
            if len(tools) < 2 or set(exits[0][1]).intersection(*(names for _, names, _ in exits[1:])):
                return None  # nothing tells a crash on one argument from an exit on every call
            verdict = (f"the server exits on calls with nothing in common: {streak}, to {len(tools)} tools with "
                       f"no argument name common to all, ended with the server exiting before it answered "
                       f"({calls}; the last: {exits[-1][2]}); it lists no {KNOWN_GOOD[0]} to probe it with")
        else:
            verdict = (f"the server exits even on a call it has no reason to fail: {streak} ended with the server "
                       f"exiting before it answered ({calls}; the last: {exits[-1][2]}), and so did {probe} sent "
                       f"to a fresh server as a probe ({exited})")
        if self.too_slow is None:
            self.too_slow = verdict
            self.at = min(self.at, time.monotonic())
        return self.too_slow

    def describe(self) -> str:
        """The deadline as failure messages name it."""
        return f"the run's deadline for the target ({OPTION} {self.seconds:g}s)"

    def why(self) -> str:
        """Why the runner waits no more, once it does: a rule's verdict, or the deadline that passed."""
        return self.too_slow or f"{self.describe()} passed"


NO_DEADLINE = Deadline(0)
