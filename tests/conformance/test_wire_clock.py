"""The wire clock times the first request sent since it began, whichever stamp comes first."""

from __future__ import annotations

import pytest

from cruxgate.conformance.target.wire_clock import WireClock, answer_id, body_request_id, request_id


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
