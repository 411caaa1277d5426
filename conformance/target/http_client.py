"""The runner's HTTP client for Streamable HTTP: the profile's headers, and every answer's body checked to be UTF-8.

MCP: JSON-RPC messages MUST be UTF-8 encoded. The SDK's client reads an SSE answer as text with bad bytes
replaced (the answer would pass as if it were valid) and fails a JSON answer with a parse error for its request
(which would read as the server's own JSON-RPC error). The client below passes every body on unchanged and
notes the first byte that is not UTF-8; the connection then fails the request with that reason.
"""

from __future__ import annotations

import codecs
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from cruxgate.conformance.target.wire_clock import WireClock, body_request_id

CHECKED_TYPES = ("application/json", "text/event-stream")  # the bodies that carry JSON-RPC messages


def utf8_checked_client(headers: dict[str, str], on_not_utf8: Callable[[str], None],
                        on_refused: Callable[[str], None], clock: WireClock | None = None) -> Any:
    """An httpx2 AsyncClient as the SDK makes one (its timeouts), sending `headers`, reporting a body that is not
    UTF-8 to `on_not_utf8` with where its first bad byte is, and a 401 or 403 to `on_refused` (the SDK's error
    does not say the status); `clock`, when given and begun, gets the first POSTed request's send stamp (its body's
    last byte handed to the connection) and its answer's read stamp (the answer body's last byte)."""
    import httpx2
    from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT

    class CheckedBody(httpx2.AsyncByteStream):
        """A response body passed on as it comes, decoded alongside until its first byte that is not UTF-8."""

        def __init__(self, inner: Any, what: str, answers: int | str | None = None) -> None:
            self.inner, self.what, self.answers = inner, what, answers
            self.last_read: float | None = None

        async def __aiter__(self) -> AsyncIterator[bytes]:
            decoder = codecs.getincrementaldecoder("utf-8")()
            seen, head, reported = 0, b"", False
            async for chunk in self.inner:
                self.last_read = time.perf_counter()
                if not reported:
                    head += chunk[:200 - len(head)]
                    pending = len(decoder.getstate()[0])  # bytes of a character the last chunk began
                    try:
                        decoder.decode(chunk)
                    except UnicodeDecodeError as error:  # error.object: those bytes, then this chunk
                        reported = True
                        on_not_utf8(f"byte 0x{error.object[error.start]:02x} at offset "
                                    f"{seen - pending + error.start:,} of the {self.what} body: "
                                    f"{head.decode('utf-8', errors='replace')!r}")
                    seen += len(chunk)
                yield chunk
            self._stamp()

        def _stamp(self) -> None:
            """The body is done (read to its end, or closed by the SDK once it had the answer)."""
            if clock is not None and self.answers is not None and self.last_read is not None:
                clock.answered(self.answers, self.last_read)
                self.answers = None

        async def aclose(self) -> None:
            self._stamp()
            await self.inner.aclose()

    class TimedRequestBody(httpx2.AsyncByteStream):
        """A request body passed on as it is, stamped on the clock once its last chunk has been written."""

        def __init__(self, inner: Any, request_id: int | str) -> None:
            self.inner, self.request_id = inner, request_id

        async def __aiter__(self) -> AsyncIterator[bytes]:
            async for chunk in self.inner:
                yield chunk  # resumed once the connection has written it
            if clock is not None:
                clock.sent(self.request_id)

    class CheckedTransport(httpx2.AsyncBaseTransport):
        """The default transport, each JSON or SSE body checked on its way to the SDK."""

        def __init__(self) -> None:
            self.inner = httpx2.AsyncHTTPTransport()

        async def handle_async_request(self, request: Any) -> Any:
            request_id = None
            # Only the first request after the clock began is timed: the gate's connections, which never begin,
            # and the requests after that one are passed on without their bodies parsed.
            if clock is not None and clock.awaiting_request and request.method == "POST":
                try:
                    request_id = body_request_id(request.content)
                except Exception:  # noqa: BLE001 - a streamed body (httpx2 RequestNotRead): not one to time
                    request_id = None
            if request_id is not None:
                request.stream = TimedRequestBody(request.stream, request_id)
            response = await self.inner.handle_async_request(request)
            if response.status_code in (401, 403):
                challenge = response.headers.get("www-authenticate")
                on_refused(f"HTTP {response.status_code}" + (f" (WWW-Authenticate: {challenge})" if challenge else ""))
            kind = response.headers.get("content-type", "").partition(";")[0].strip().lower()
            if kind not in CHECKED_TYPES:
                return response
            return httpx2.Response(status_code=response.status_code, headers=response.headers,
                                   stream=CheckedBody(response.stream, kind, request_id),
                                   extensions=response.extensions)

        async def aclose(self) -> None:
            await self.inner.aclose()

    return httpx2.AsyncClient(headers=headers, transport=CheckedTransport(),
                              timeout=httpx2.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT))
