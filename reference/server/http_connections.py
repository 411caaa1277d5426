"""HTTP connections that must deliver each request within a deadline (uvicorn has none for a slow request).

uvicorn's options bound an idle keep-alive connection (`timeout_keep_alive`) and the size of a request's
head (`h11_max_incomplete_event_size`), but nothing bounds how long a client may take to send it: a
connection that trickles its headers, or never sends any, is held open for good (500 of them were). This
protocol closes a connection whose request has not fully arrived `request_timeout` seconds after the
connection opened or the request's first byte came.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

# h11's states of the client's side while its request is still arriving: no request line and headers yet,
# or the body under way. DONE (the whole request is in, a response or a stream may run for long) is not one.
_READING = (h11.IDLE, h11.SEND_BODY)


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol plus a deadline on reading each request."""

    request_timeout: float  # set by with_timeout

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_deadline: asyncio.TimerHandle | None = None

    @classmethod
    def with_timeout(cls, seconds: float) -> type[DeadlineH11Protocol]:
        """This protocol with its deadline set to `seconds` (uvicorn takes a class, not an instance)."""
        return type(cls.__name__, (cls,), {"request_timeout": seconds})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the clock: a connection that sends nothing is as slow as one that trickles."""
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Keep the first byte's deadline while a request is arriving; drop it once the request is in."""
        super().data_received(data)
        if self.conn.their_state in _READING and not self.transport.is_closing():
            self._arm()
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        """No deadline outlives its connection."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._read_deadline is None:
            self._read_deadline = self.loop.call_later(self.request_timeout, self._expired)

    def _disarm(self) -> None:
        if self._read_deadline is not None:
            self._read_deadline.cancel()
            self._read_deadline = None

    def _expired(self) -> None:
        self._read_deadline = None
        if self.conn.their_state in _READING and not self.transport.is_closing():
            self.transport.close()
