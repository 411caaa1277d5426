"""Each request's time on the wire: from its last byte written to its answer's last byte read.

The runner's transports stamp both ends with `time.perf_counter` (the clock the SLO harness times whole calls
with, so a wire time sits inside its call's total); what the client does with the answer after that (the SDK
parsing it and checking structuredContent against the tool's outputSchema) is not the server's time.
"""

from __future__ import annotations

import json
import time
from typing import Any


def _field(message: Any, name: str) -> Any:
    """A field of a JSON-RPC message, parsed (a dict) or as the SDK's message object."""
    return message.get(name) if isinstance(message, dict) else getattr(message, name, None)


def _id(message: Any) -> int | str | None:
    found = _field(message, "id")
    return found if isinstance(found, (int, str)) and not isinstance(found, bool) else None


def request_id(message: Any) -> int | str | None:
    """The id of a JSON-RPC request (a method and an id), else None (a notification, an answer, not a message)."""
    return _id(message) if _field(message, "method") is not None else None


def answer_id(message: Any) -> int | str | None:
    """The id of a JSON-RPC answer (an id and no method), else None."""
    return _id(message) if _field(message, "method") is None else None


def body_request_id(body: bytes) -> int | str | None:
    """The request id of an HTTP body holding one JSON-RPC request, else None."""
    try:
        return request_id(json.loads(body))
    except ValueError:
        return None


class WireClock:
    """Send and answer stamps for the first request sent since `begin`: the call being timed.

    Not the last request answered: the SDK lists the tools after a call to a tool whose outputSchema it has
    not seen. Either stamp may come first: the transport's reader can see an answer before its writer notes
    the send, so answers are kept by id until then. Nothing is kept unless a caller began timing (a gate's
    connection never does).
    """

    def __init__(self) -> None:
        self._armed = False
        self._first: int | str | None = None
        self._sent: float | None = None
        self._answers: dict[int | str, float] = {}

    @property
    def awaiting_request(self) -> bool:
        """Whether a caller began timing and no request was sent since: only then is a request's id worth reading."""
        return self._armed and self._first is None

    def begin(self) -> None:
        """Forget earlier stamps: the next request sent is the one a caller is about to time."""
        self._armed, self._first, self._sent = True, None, None
        self._answers.clear()

    def sent(self, message_id: int | str | None, at: float | None = None) -> None:
        """The request's last byte was written (at `at`, else now)."""
        if self._armed and message_id is not None and self._first is None:
            self._first, self._sent = message_id, time.perf_counter() if at is None else at

    def answered(self, message_id: int | str | None, at: float) -> None:
        """The answer to `message_id` was read in full at `at` (perf_counter)."""
        if self._armed and message_id is not None:
            self._answers.setdefault(message_id, at)

    def call_ms(self) -> float:
        """Milliseconds on the wire of the first request sent since `begin` (which this reading ends)."""
        self._armed = False
        answered = self._answers.get(self._first) if self._first is not None else None
        self._answers.clear()
        if self._sent is None or answered is None:
            raise RuntimeError("no request was sent and answered on this connection since the clock began")
        return (answered - self._sent) * 1000.0
