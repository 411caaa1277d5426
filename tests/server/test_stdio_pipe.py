"""serve-mcp widens its stdout pipe so a large answer goes out in one write."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from cruxgate.reference.server.command import STDOUT_PIPE_BYTES, widen_stdout_pipe


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="F_SETPIPE_SZ is Linux's")
def test_widen_stdout_pipe_raises_a_pipes_capacity() -> None:
    import fcntl

    read, write = os.pipe()
    try:
        assert fcntl.fcntl(write, fcntl.F_GETPIPE_SZ) < STDOUT_PIPE_BYTES
        assert widen_stdout_pipe(write) == STDOUT_PIPE_BYTES == fcntl.fcntl(write, fcntl.F_GETPIPE_SZ)
        # A 110 KB answer now fits without a reader: the write does not block.
        os.set_blocking(write, False)
        assert os.write(write, b"x" * 110_000) == 110_000
    finally:
        os.close(read)
        os.close(write)


def test_widen_stdout_pipe_leaves_a_file_alone(tmp_path: Path) -> None:
    fd = os.open(tmp_path / "out", os.O_CREAT | os.O_WRONLY)
    try:
        assert widen_stdout_pipe(fd) is None
    finally:
        os.close(fd)
