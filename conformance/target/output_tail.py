"""A child's stderr (or stdout) kept as a bounded tail in memory: a flood of output costs no disk and no memory.

The runner used to send a server's stderr to a file in its temp folder; a server that writes without end filled
the disk in about a second, and the run's failures became the runner's own out-of-space errors. Now the child
writes into a pipe; a thread reads it as fast as it comes, keeps the last `TAIL_BYTES` and counts the rest.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading

TAIL_BYTES = 64 * 1024  # far more than a failure message shows (workspace.TAIL_CHARS), small enough to never matter
CHUNK = 1024 * 1024


class OutputTail:
    """A pipe for a child's output; `fileno()` is the end to hand the child, `text()` the last bytes it wrote."""

    def __init__(self, limit: int = TAIL_BYTES) -> None:
        self.limit = limit
        self.total = 0  # bytes the child wrote
        self._kept = bytearray()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._read_fd, self._write_fd = os.pipe()
        self._thread = threading.Thread(target=self._drain, name="cruxgate-output-tail", daemon=True)
        self._thread.start()

    def fileno(self) -> int:
        """The write end, for the child's stderr/stdout (call `started()` once the child has it)."""
        return self._write_fd

    def started(self) -> None:
        """Close the runner's copy of the write end: the pipe ends when the child's last copy closes."""
        if self._write_fd >= 0:
            os.close(self._write_fd)
            self._write_fd = -1

    def _drain(self) -> None:
        try:
            while True:
                ready, _, _ = select.select([self._read_fd], [], [], 0.2)
                if not ready:
                    if self._stop.is_set():
                        return  # a process still holding the pipe after close(): it is being reaped
                    continue
                data = os.read(self._read_fd, CHUNK)
                if not data:
                    return
                with self._lock:
                    self.total += len(data)
                    self._kept += data[-self.limit:]
                    if len(self._kept) > self.limit:
                        del self._kept[:len(self._kept) - self.limit]
        finally:
            os.close(self._read_fd)

    def text(self, chars: int | None = None) -> str:
        """The end of what the child wrote (its last `chars` characters), after a note of how much is not shown."""
        with self._lock:
            kept, total = bytes(self._kept), self.total
        whole = kept.decode("utf-8", errors="replace").strip()
        text = whole[-chars:] if chars is not None and len(whole) > chars else whole
        # Bytes never kept, and those the character cut drops (surrounding whitespace is not counted as hidden).
        hidden = total - len(kept) + len(whole.encode("utf-8", errors="replace")) - len(text.encode("utf-8",
                                                                                               errors="replace"))
        if hidden > 0:
            return f"[... the first {hidden:,} of {total:,} bytes are not shown]\n{text}"
        return text

    def wait_for_end(self, seconds: float) -> None:
        """Wait up to `seconds` for the child's last copy of the pipe to close and its last bytes to be read."""
        self._thread.join(seconds)

    def close(self, wait: float = 1.0) -> None:
        """Stop reading once the pipe is drained or `wait` s have passed."""
        self.started()
        self._stop.set()
        self._thread.join(wait)

    def __enter__(self) -> OutputTail:
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(OSError):
            self.close()
