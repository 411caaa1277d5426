"""The wire clock times the first request sent since it began, whichever stamp comes first; over real HTTP on
loopback its stamps sit inside the call as the client timed it, and no request body is parsed unless it began."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import anyio.from_thread
import pytest

from cruxgate.conformance.target import http_client
from cruxgate.conformance.target.wire import Connection, free_port
from cruxgate.conformance.target.wire_clock import WireClock, answer_id, body_request_id, request_id

HOSTILE = Path(__file__).resolve().parent / "servers" / "hostile_server.py"
DELAY = 0.2  # the slow server's wait before each answer, after it has read the whole request


def test_the_call_timed_is_the_first_request_not_a_later_one_the_client_sends() -> None:
    clock = WireClock()
    clock.begin()
    clock.sent(7, at=1.0)  # tools/call
    clock.sent(8, at=1.5)  # the SDK's tools/list, to check the answer against the tool's outputSchema
    clock.answered(8, at=1.7)
    clock.answered(7, at=1.25)
    assert clock.call_ms() == pytest.approx(250.0)


def test_an_answer_read_before_its_send_is_noted_still_pairs() -> None:
    clock = WireClock()
    clock.begin()
    clock.answered(3, at=2.5)
    clock.sent(3, at=2.0)
    assert clock.call_ms() == pytest.approx(500.0)


def test_nothing_is_kept_unless_a_caller_began_and_a_reading_ends_it() -> None:
    clock = WireClock()
    clock.sent(1, at=1.0)
    clock.answered(1, at=2.0)
    clock.begin()
    with pytest.raises(RuntimeError, match="no request was sent and answered"):
        clock.call_ms()
    clock.begin()
    clock.sent(2, at=1.0)
    clock.answered(2, at=1.001)
    assert clock.call_ms() == pytest.approx(1.0)
    clock.sent(3, at=5.0)  # after the reading: not armed
    assert clock._answers == {} and clock._first == 2


def test_ids_of_requests_and_answers_parsed_or_sdk_shaped() -> None:
    class Answer:
        id = 4

    assert request_id({"jsonrpc": "2.0", "id": 1, "method": "ping"}) == 1
    assert request_id({"jsonrpc": "2.0", "method": "notifications/initialized"}) is None
    assert request_id({"jsonrpc": "2.0", "id": 1, "result": {}}) is None
    assert answer_id({"jsonrpc": "2.0", "id": "a", "result": {}}) == "a"
    assert answer_id(Answer()) == 4
    assert answer_id({"jsonrpc": "2.0", "id": True, "result": {}}) is None
    assert body_request_id(b'{"jsonrpc":"2.0","id":9,"method":"tools/call"}') == 9
    assert body_request_id(b"not json") is None


@pytest.fixture(scope="module", params=["json", "sse"])
def slow_http(request: pytest.FixtureRequest) -> Iterator[Connection]:
    """A connection over Streamable HTTP on loopback to a server that answers each request DELAY s after reading it,
    as a JSON body or as one SSE event."""
    port = free_port()
    argv = [sys.executable, str(HOSTILE), "slow", "--port", str(port)] + (["--sse"] if request.param == "sse" else [])
    with anyio.from_thread.start_blocking_portal() as portal:
        connection = Connection(portal, "http", argv=argv, url=f"http://127.0.0.1:{port}/mcp",
                                env={"HOSTILE_DELAY": str(DELAY)}, timeouts={"start": 30.0, "call": 30.0})
        connection.open()
        try:
            yield connection
        finally:
            connection.close()


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every request body the HTTP client parses for its id."""
    seen: list[bytes] = []

    def counted(body: bytes) -> int | str | None:
        seen.append(body)
        return body_request_id(body)

    monkeypatch.setattr(http_client, "body_request_id", counted)
    return seen


def test_http_stamps_time_the_call_inside_the_client_side_time(slow_http: Connection, parses: list[bytes]) -> None:
    slow_http.wire_clock.begin()
    started = time.perf_counter()
    slow_http.call_tool("search_code", {"query": "x"})
    client_ms = (time.perf_counter() - started) * 1000.0
    wire_ms = slow_http.wire_clock.call_ms()
    # Sent before the server read the request, answered after it waited DELAY: the wait sits inside the stamps,
    # and both stamps inside the call as the client timed it.
    assert DELAY * 1000.0 <= wire_ms <= client_ms
    assert len(parses) == 1 and b'"tools/call"' in parses[0]  # the call's body, and no later request's


def test_over_http_nothing_is_parsed_unless_the_clock_began(slow_http: Connection, parses: list[bytes]) -> None:
    slow_http.call_tool("search_code", {"query": "x"})
    slow_http.list_tools(refresh=True)
    assert parses == [] and not slow_http.wire_clock.awaiting_request
    slow_http.wire_clock.begin()
    assert slow_http.wire_clock.awaiting_request
    slow_http.list_tools(refresh=True)
    slow_http.wire_clock.call_ms()  # the reading ends the timing: what follows is not parsed either
    slow_http.call_tool("search_code", {"query": "x"})
    assert len(parses) == 1 and b'"tools/list"' in parses[0]
