"""The runner's stdio transport for the SDK client: the server as a subprocess, newline-delimited messages, read in
linear time and capped in size.

The SDK's `stdio_client` re-joins its buffer with every 64 KB chunk, so one 50 MB answer costs it ~35 s of CPU
(quadratic), and it reads any size. Here a line is found with one scan of the new bytes, a message over
`MAX_MESSAGE_BYTES` ends the session at once (the pending call fails with a clear reason), and the process is
ours, so the reaper knows its tree. Messages are still parsed and handled by the SDK (`mcp_types` and the
`Client` session); only bytes move here. Shutdown follows the MCP spec for stdio: close stdin, wait, SIGTERM the
process group, then SIGKILL; then whatever else of the server's tree still runs.

MCP messages are UTF-8. An answer that is not fails its request at once with that reason (the SDK would drop the
line, and the call would wait for its timeout as if the server hung); any other such line is a wire defect. The
process the runner started is the server: when it exits, its tree is stopped, so the connection ends even when a
process it left behind holds stdout open.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import anyio

from cruxgate.conformance.target import reaper
from cruxgate.conformance.target.wire_clock import WireClock, answer_id, request_id

MAX_MESSAGE_BYTES = 16 * 1024 * 1024  # no code-search answer a client can use is this big
EXIT_GRACE_SECONDS = 2.0  # after stdin closes, before SIGTERM; then as long again before SIGKILL
ORPHAN_GRACE_SECONDS = 1.0  # after the server exits, for the rest of its output to arrive, before its tree is stopped
UNDECODABLE_CODE = -32700  # JSON-RPC's parse error: the code of the error the runner puts in place of such an answer
UNDECODABLE_PREFIX = "cruxgate: the answer is not valid UTF-8"


class OversizedMessage(Exception):
    """The server sent one message longer than MAX_MESSAGE_BYTES."""

    def __init__(self, size: int) -> None:
        super().__init__(f"the server sent a message of more than {size:,} bytes, over the runner's limit of "
                         f"{MAX_MESSAGE_BYTES:,} bytes (MAX_MESSAGE_BYTES); the connection was closed")
        self.size = size


class NotUtf8(ValueError):
    """A line on stdout that is not valid UTF-8 (MCP: JSON-RPC messages are UTF-8 encoded)."""

    def __init__(self, line: bytes, error: UnicodeDecodeError) -> None:
        self.detail = (f"byte 0x{line[error.start]:02x} at offset {error.start:,} of a {len(line):,}-byte line: "
                       f"{line[:200].decode('utf-8', errors='replace')!r}")
        super().__init__(f"a line that is not valid UTF-8 ({self.detail})")


def load_sdk() -> None:
    """Import the SDK's client and message types (seconds on a loaded machine, not to be charged to a server)."""
    import mcp.shared.message  # noqa: F401 - imports mcp too
    import mcp_types  # noqa: F401


def _undecodable(line: bytes, error: UnicodeDecodeError) -> Any:
    """What the session gets for a line that is not UTF-8: an error for the request it answers, else the defect."""
    import mcp_types
    from mcp.shared.message import SessionMessage

    defect = NotUtf8(line, error)
    try:
        message = json.loads(line.decode("utf-8", errors="replace"))
    except ValueError:
        return defect
    answer_id = message.get("id") if isinstance(message, dict) and "method" not in message else None
    if not isinstance(answer_id, (int, str)) or isinstance(answer_id, bool):
        return defect
    error_data = mcp_types.ErrorData(code=UNDECODABLE_CODE, message=f"{UNDECODABLE_PREFIX}: {defect.detail}")
    return SessionMessage(mcp_types.JSONRPCError(jsonrpc="2.0", id=answer_id, error=error_data))


def _parse(line: bytes) -> Any:
    """A SessionMessage, or the parse error (not JSON-RPC: the session hands it to the client's message handler)."""
    import mcp_types  # the SDK loads only when a server starts: importing it costs every pytest run ~2 s
    from mcp.shared.message import SessionMessage

    try:
        return SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        return exc


@asynccontextmanager
async def stdio_transport(argv: list[str], *, cwd: Path | None, env: dict[str, str], stderr: int,
                          on_oversize: Callable[[OversizedMessage], None],
                          on_exit: Callable[[int, int], None],
                          clock: WireClock | None = None) -> AsyncIterator[tuple[Any, Any]]:
    """Start `argv` in its own process group and yield the (read, write) streams the SDK `Client` takes.

    `stderr` is the descriptor the server's stderr goes to; `env` carries the server's reaper mark;
    `on_exit` hears the server's exit status, and how many processes it left running, when it exits while the
    connection is open; `clock`, when given, gets each request's send stamp and its answer's read stamp.
    """
    mark = env.get(reaper.MARK)
    process = await anyio.open_process(argv, cwd=cwd, env=env, stderr=stderr, start_new_session=True)
    reaper.track(process.pid, mark)
    read_writer, read_stream = anyio.create_memory_object_stream[Any](0)
    write_stream, write_reader = anyio.create_memory_object_stream[Any](0)
    stdout, stdin = process.stdout, process.stdin
    assert stdout is not None and stdin is not None  # both piped (open_process' defaults)

    async def read_lines() -> None:
        buffer: bytearray | None = bytearray()  # None: no longer delivering, only draining
        with suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            async for chunk in stdout:
                arrived = time.perf_counter()  # the chunk that ends a line holds that message's last byte
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
                            line.decode("utf-8")
                        except UnicodeDecodeError as error:
                            item = _undecodable(line, error)
                        else:
                            item = _parse(line)
                            if clock is not None:
                                clock.answered(answer_id(getattr(item, "message", None)), arrived)
                        try:
                            await read_writer.send(item)
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
                    written = time.perf_counter()  # a request is one small write: the pipe takes it at once, and
                    await stdin.send(data.encode("utf-8"))  # its answer cannot be read before this stamp
                    if clock is not None:
                        clock.sent(request_id(message.message), written)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                await read_writer.aclose()  # the server is gone: let the session see the connection end

    async def watch_exit() -> None:
        """When the server exits, stop what it left running, so its stdout ends even if an orphan held it."""
        returncode = await process.wait()
        await anyio.sleep(ORPHAN_GRACE_SECONDS)
        left = await anyio.to_thread.run_sync(reaper.tree, None, mark)
        on_exit(returncode, len(left))
        await anyio.to_thread.run_sync(reaper.stop_tree, None, mark, 0.5)

    async with anyio.create_task_group() as group:
        group.start_soon(read_lines)
        group.start_soon(write_messages)
        group.start_soon(watch_exit)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):
                await _stop(process, mark)
            group.cancel_scope.cancel()


async def _stop(process: Any, mark: str | None) -> None:
    """Close stdin and give the server EXIT_GRACE_SECONDS to exit; then SIGTERM its tree (group, session, descendants,
    marked processes) and SIGKILL it after as long again; then stop whatever of the tree is left (an orphan)."""
    with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        await process.stdin.aclose()
    with anyio.move_on_after(EXIT_GRACE_SECONDS):
        while process.returncode is None:
            await anyio.sleep(0.02)
    if process.returncode is None:  # its pid is still ours (not yet waited for), so its group and session are too
        await anyio.to_thread.run_sync(reaper.stop_tree, process.pid, mark, EXIT_GRACE_SECONDS)
        with anyio.move_on_after(EXIT_GRACE_SECONDS):
            while process.returncode is None:
                await anyio.sleep(0.02)
    await anyio.to_thread.run_sync(reaper.stop_tree, None, mark, 0.5)
    if process.returncode is not None:
        with suppress(Exception):
            await process.aclose()  # closes the pipes and the asyncio transport (else it warns at exit)
        reaper.untrack(process.pid)
    else:  # a kill survivor: the reaper tries again at exit
        with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await process.stdout.aclose()
