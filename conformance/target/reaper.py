"""No server outlives the runner: servers are tracked by process group and reaped on close, SIGTERM and exit.

Every server runs in its own session (`start_new_session`), so Ctrl-C in a terminal does not reach it, and a
runner killed with SIGTERM used to leave an HTTP server behind. SIGTERM and SIGHUP now raise KeyboardInterrupt
in the runner, so pytest's interrupted-session path closes every environment as usual; the lifecycle's close,
a second signal and the interpreter's exit kill whatever group is still tracked.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import threading
import time
from typing import Any

_tracked: set[int] = set()
_lock = threading.Lock()
_previous: dict[int, Any] = {}
_signalled = False
_atexit_registered = False
SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
GRACE_SECONDS = 2.0


def track(pid: int) -> None:
    """Reap the process group `pid` leads when the runner closes, is interrupted or exits."""
    with _lock:
        _tracked.add(pid)


def untrack(pid: int) -> None:
    """Forget a server that has exited (its pid may be reused)."""
    with _lock:
        _tracked.discard(pid)


def tracked() -> set[int]:
    """The process groups tracked now."""
    with _lock:
        return set(_tracked)


def _alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a reused pid of someone else's process: not ours to kill
        return False
    return True


def reap(grace: float = GRACE_SECONDS) -> list[int]:
    """SIGTERM every tracked group still running, SIGKILL it after `grace` s; returns the groups signalled."""
    groups = [pgid for pgid in tracked() if _alive(pgid)]
    for pgid in groups:
        _kill(pgid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(_alive(pgid) for pgid in groups):
        time.sleep(0.05)
        for pgid in groups:
            _collect(pgid)
    for pgid in groups:
        if _alive(pgid):
            _kill(pgid, signal.SIGKILL)
            _collect(pgid)
    with _lock:
        _tracked.clear()
    return groups


def _collect(pid: int) -> None:
    """Reap the zombie of a child nobody else waits for (a zombie still counts as alive to killpg)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def _kill(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _on_signal(signum: int, frame: Any) -> None:
    global _signalled
    if _signalled:  # the second signal: no more waiting for a graceful close
        reap(grace=0.5)
        os._exit(128 + signum)
    _signalled = True
    raise KeyboardInterrupt(f"cruxgate: received signal {signum}; stopping the servers it started")


def install() -> None:
    """Turn SIGTERM/SIGHUP into KeyboardInterrupt (pytest then tears down) and reap at exit; main thread only."""
    global _atexit_registered
    if not _atexit_registered:
        atexit.register(reap, 0.5)
        _atexit_registered = True
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in SIGNALS:
        if sig not in _previous:
            _previous[sig] = signal.signal(sig, _on_signal)


def uninstall() -> None:
    """Restore the signal handlers `install` replaced."""
    global _signalled
    if threading.current_thread() is not threading.main_thread():
        return
    for sig, handler in list(_previous.items()):
        signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        del _previous[sig]
    _signalled = False
