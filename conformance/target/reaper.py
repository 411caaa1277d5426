"""No process of a target outlives the runner: servers and commands are found by group, session, parentage and mark,
and stopped on close, SIGTERM and exit.

Every server runs in its own session (`start_new_session`), so Ctrl-C in a terminal does not reach it, and a
runner killed with SIGTERM used to leave an HTTP server behind. SIGTERM and SIGHUP now raise KeyboardInterrupt
in the runner, so pytest's interrupted-session path closes every environment as usual; the lifecycle's close,
a second signal and the interpreter's exit kill whatever is still tracked.

A process group is not the whole tree: a child may call setsid() and keep the server's stdout open after the
server exits. So every process the runner starts for a target gets an environment variable, `MARK`, with a
value of its own (`<session>.<n>`, a child's `<parent>.<n>`), which its descendants inherit; on Linux the runner
is also a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so an orphaned descendant becomes the runner's child
rather than init's and its exit status is collected here. A tree is: the leader's process group and session,
its descendants by parent pid, and every process whose mark is the tree's or under it. Elsewhere (no /proc,
no prctl) only process groups are signalled; `subreaper_note()` says why.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import itertools
import os
import signal
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MARK = "CRUXGATE_PROCESS_MARK"
_session = uuid.uuid4().hex[:16]
_serials = itertools.count(1)
_tracked: dict[int, str | None] = {}  # leader pid -> its mark
_lock = threading.Lock()
_previous: dict[int, Any] = {}
_signalled = False
_atexit_registered = False
_subreaper: dict[str, Any] = {"previous": None, "note": None, "users": 0}  # users: lifecycles installed
SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
GRACE_SECONDS = 2.0
PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37
PROC = Path("/proc")


def new_mark(parent: str | None = None) -> str:
    """A fresh mark: under `parent` when given (a server under its workspace), else under this run's session."""
    return f"{parent or _session}.{next(_serials)}"


def track(pid: int, mark: str | None = None) -> None:
    """Reap the process group `pid` leads (and the processes carrying `mark`) when the runner closes or exits."""
    with _lock:
        _tracked[pid] = mark


def untrack(pid: int) -> None:
    """Forget a server that has exited (its pid may be reused)."""
    with _lock:
        _tracked.pop(pid, None)


def tracked() -> set[int]:
    """The process groups tracked now."""
    with _lock:
        return set(_tracked)


@dataclass(frozen=True)
class Process:
    """One row of the process table."""

    pid: int
    ppid: int
    pgid: int
    sid: int
    zombie: bool
    mark: str | None


def snapshot() -> dict[int, Process]:
    """The process table read from /proc (empty where there is none); marks are read where permitted."""
    table: dict[int, Process] = {}
    if not PROC.is_dir():
        return table
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            state, ppid, pgid, sid = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
        except (OSError, IndexError, ValueError):
            continue
        mark = None
        with contextlib.suppress(OSError):  # another user's process, or gone
            for item in (entry / "environ").read_bytes().split(b"\0"):
                if item.startswith(MARK.encode() + b"="):
                    mark = item.split(b"=", 1)[1].decode(errors="replace")
        table[int(entry.name)] = Process(int(entry.name), ppid, pgid, sid, state == "Z", mark)
    return table


def _under(mark: str | None, root: str) -> bool:
    return mark is not None and (mark == root or mark.startswith(root + "."))


def tree(leader: int | None, mark: str | None, table: dict[int, Process] | None = None) -> set[int]:
    """The pids of a target's tree: `leader`'s group, session and descendants, and every process under `mark`."""
    table = snapshot() if table is None else table
    members = {p.pid for p in table.values()
               if (leader is not None and (p.pid == leader or p.pgid == leader or p.sid == leader))
               or (mark is not None and _under(p.mark, mark))}
    children: dict[int, list[int]] = {}
    for p in table.values():
        children.setdefault(p.ppid, []).append(p.pid)
    stack = list(members)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in members:
                members.add(child)
                stack.append(child)
    return members - _ancestry(table)


def _ancestry(table: dict[int, Process]) -> set[int]:
    """This process and its ancestors: never part of a target's tree, whatever a mark says."""
    chain, pid = set(), os.getpid()
    while pid > 1 and pid not in chain:
        chain.add(pid)
        pid = table[pid].ppid if pid in table else 0
    return chain


def stop_tree(leader: int | None, mark: str | None, grace: float = GRACE_SECONDS) -> set[int]:
    """SIGTERM a target's tree, SIGKILL what is left after `grace` s, collect orphans; returns the pids signalled."""
    members = _signal_tree(leader, mark, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while members and time.monotonic() < deadline:
        time.sleep(0.05)
        _collect_orphans(members, leader)
        if not _living(members):
            break
    if _living(members) or (leader is not None and _alive(leader)):
        members |= _signal_tree(leader, mark, signal.SIGKILL)
    _collect_orphans(members, leader, wait=0.5)
    return members


def _signal_tree(leader: int | None, mark: str | None, sig: int) -> set[int]:
    members = tree(leader, mark)
    if leader is not None:
        _kill(leader, sig)
    for pid in members:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)
    return members


def _living(pids: set[int]) -> set[int]:
    """The pids among `pids` still running (a zombie has exited)."""
    living = set()
    for pid in pids:
        try:
            state = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            living.add(pid)
    return living


def _collect_orphans(pids: set[int], leader: int | None, wait: float = 0.0) -> None:
    """Collect the exit status of the runner's children among `pids` other than `leader` (its owner waits for it):
    orphans the subreaper adopted, which nobody else waits for."""
    deadline = time.monotonic() + wait
    pending = {pid for pid in pids if pid != leader}
    while pending:
        for pid in list(pending):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not (or no longer) the runner's child
                pending.discard(pid)
                continue
            if done:
                pending.discard(pid)
        if not pending or time.monotonic() >= deadline:
            return
        time.sleep(0.02)


def _alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a reused pid of someone else's process: not ours to kill
        return False
    return True


def reap(grace: float = GRACE_SECONDS, root: str | None = None) -> list[int]:
    """Stop every tracked tree and every marked process still running, or only those under the mark `root`;
    returns the leaders signalled."""
    with _lock:
        leaders = {pid: mark for pid, mark in _tracked.items() if root is None or _under(mark, root)}
    running = [pid for pid in leaders if _alive(pid)]
    for pid in running:
        _kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(_alive(pid) for pid in running):
        time.sleep(0.05)
        for pid in running:
            _collect(pid)
    for pid, mark in leaders.items():
        stop_tree(pid if pid in running else None, mark, grace=0.2)
        _collect(pid)
    stop_tree(None, root or _session, grace=0.2)  # a profile command's leftovers, a server's escaped descendants
    with _lock:
        for pid in leaders:
            _tracked.pop(pid, None)
    return running


def _collect(pid: int) -> None:
    """Reap the zombie of a child nobody else waits for (a zombie still counts as alive to killpg)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def _kill(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _prctl(option: int, value: Any) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    result: int = libc.prctl(option, value, 0, 0, 0)
    if result != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return result


def become_subreaper() -> str | None:
    """Make this process the subreaper of its descendants (Linux); None when done, else the reason it is not."""
    if not sys.platform.startswith("linux"):
        return f"no child subreaper on {sys.platform} (Linux only): a process that leaves its server's group and " \
               "session is stopped only while its mark is readable"
    if _subreaper["previous"] is not None:
        return None
    try:
        previous = ctypes.c_int(0)
        _prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(previous))
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
    except (OSError, AttributeError) as exc:
        return f"prctl(PR_SET_CHILD_SUBREAPER) failed: {exc}"
    _subreaper["previous"] = previous.value
    return None


def restore_subreaper() -> None:
    """Give back the subreaper setting `become_subreaper` changed."""
    previous = _subreaper["previous"]
    if previous is not None:
        with contextlib.suppress(OSError, AttributeError):
            _prctl(PR_SET_CHILD_SUBREAPER, previous)
        _subreaper["previous"] = None


def subreaper_note() -> str | None:
    """Why the runner is not a subreaper in this run (None when it is, or has not tried)."""
    note: str | None = _subreaper["note"]
    return note


def _on_signal(signum: int, frame: Any) -> None:
    global _signalled
    if _signalled:  # the second signal: no more waiting for a graceful close
        reap(grace=0.5)
        os._exit(128 + signum)
    _signalled = True
    raise KeyboardInterrupt(f"cruxgate: received signal {signum}; stopping the servers it started")


def install() -> None:
    """Turn SIGTERM/SIGHUP into KeyboardInterrupt (pytest then tears down), become a subreaper, reap at exit."""
    global _atexit_registered
    if not _atexit_registered:
        atexit.register(reap, 0.5)
        _atexit_registered = True
    _subreaper["users"] += 1
    _subreaper["note"] = become_subreaper()
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in SIGNALS:
        if sig not in _previous:
            _previous[sig] = signal.signal(sig, _on_signal)


def uninstall() -> None:
    """Restore the signal handlers and the subreaper setting `install` replaced (the subreaper with the last user)."""
    global _signalled
    _subreaper["users"] = max(0, _subreaper["users"] - 1)
    if not _subreaper["users"]:
        restore_subreaper()
    if threading.current_thread() is not threading.main_thread():
        return
    for sig, handler in list(_previous.items()):
        signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        del _previous[sig]
    _signalled = False
