"""The runner's stdio transport for the SDK client: the server as a subprocess, newline-delimited messages, read in
linear time and capped in size.

The SDK's `stdio_client` re-joins its buffer with every 64 KB chunk, so one 50 MB answer costs it ~35 s of CPU
(quadratic), and it reads any size. Here a line is found with one scan of the new bytes, a message over
`MAX_MESSAGE_BYTES` ends the session at once (the pending call fails with a clear reason), and the process is
ours, so the reaper knows its group. Messages are still parsed and handled by the SDK (`mcp_types` and the
`Client` session); only bytes move here. Shutdown follows the MCP spec for stdio: close stdin, wait, SIGTERM the
process group, then SIGKILL. (Lives in conformance/fuzz/ with the other issue-17 code; it serves every scenario.)
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, TextIO

import anyio

from cruxgate.conformance.target import reaper

MAX_MESSAGE_BYTES = 16 * 1024 * 1024  # no code-search answer a client can use is this big
EXIT_GRACE_SECONDS = 2.0  # after stdin closes, before SIGTERM; then as long again before SIGKILL


class OversizedMessage(Exception):
    """The server sent one message longer than MAX_MESSAGE_BYTES."""

    def __init__(self, size: int) -> None:
        super().__init__(f"the server sent a message of more than {size:,} bytes, over the runner's limit of "
                         f"{MAX_MESSAGE_BYTES:,} bytes (MAX_MESSAGE_BYTES); the connection was closed")
        self.size = size


def _parse(line: bytes) -> Any:
    """A SessionMessage, or the parse error (not JSON-RPC: the session hands it to the client's message handler)."""
    import mcp_types  # the SDK loads only when a server starts: importing it costs every pytest run ~2 s
    from mcp.shared.message import SessionMessage

    try:
        return SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        return exc


@asynccontextmanager
async def stdio_transport(argv: list[str], *, cwd: Path | None, env: dict[str, str], errlog: TextIO,
                          on_oversize: Callable[[OversizedMessage], None]) -> AsyncIterator[tuple[Any, Any]]:
    """Start `argv` in its own process group and yield the (read, write) streams the SDK `Client` takes."""
    process = await anyio.open_process(argv, cwd=cwd, env=env, stderr=errlog, start_new_session=True)
    reaper.track(process.pid)
    read_writer, read_stream = anyio.create_memory_object_stream[Any](0)
    write_stream, write_reader = anyio.create_memory_object_stream[Any](0)
    stdout, stdin = process.stdout, process.stdin
    assert stdout is not None and stdin is not None  # both piped (open_process' defaults)

    async def read_lines() -> None:
        buffer: bytearray | None = bytearray()  # None: no longer delivering, only draining
        with suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            async for chunk in stdout:
                if buffer is None:
                    continue  # drained, so a server blocked writing the rest can read its stdin's end and exit
                scan = len(buffer)  # only the new bytes can hold the next newline
                buffer += chunk
                start = 0
                while (end := buffer.find(b"\n", scan)) >= 0:
                    line = bytes(buffer[start:end])
                    start = scan = end + 1
                    if line.strip():
                        try:
                            await read_writer.send(_parse(line))
                        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                            buffer = None  # the session is gone
                            break
                if buffer is None:
                    continue
                del buffer[:start]  # once per chunk: deleting per line would move the rest each time
                if len(buffer) > MAX_MESSAGE_BYTES:
                    on_oversize(OversizedMessage(len(buffer)))
                    buffer = None
                    await read_writer.aclose()  # the pending request fails at once
        await read_writer.aclose()

    async def write_messages() -> None:
        async with write_reader:
            try:
                async for message in write_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    await stdin.send(data.encode("utf-8"))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                await read_writer.aclose()  # the server is gone: let the session see the connection end

    async with anyio.create_task_group() as group:
        group.start_soon(read_lines)
        group.start_soon(write_messages)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):
                await _stop(process)
            group.cancel_scope.cancel()


async def _stop(process: Any) -> None:
    """Close stdin, give the server EXIT_GRACE_SECONDS to exit, then SIGTERM and SIGKILL its process group."""
    with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        await process.stdin.aclose()
    for sig in (None, signal.SIGTERM, signal.SIGKILL):
        if sig is not None:
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, sig)
        with anyio.move_on_after(EXIT_GRACE_SECONDS):
            while process.returncode is None:
                await anyio.sleep(0.02)
        if process.returncode is not None:
            break
    if process.returncode is not None:
        with suppress(Exception):
            await process.aclose()  # closes the pipes and the asyncio transport (else it warns at exit)
        reaper.untrack(process.pid)
    else:  # a kill survivor: the reaper tries again at exit
        with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await process.stdout.aclose()
