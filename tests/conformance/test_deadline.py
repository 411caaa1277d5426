"""The run's rules that end its waits on a target early (conformance/target/deadline.py), on recorded waits and exits.

The same rules against real hostile servers, end to end, are tests/conformance/test_hostile_servers.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from cruxgate.conformance.target.deadline import EXIT_STREAK, SLOW_SECONDS, Deadline

CALL = 30.0  # the profiles' default call timeout


class Probe:
    """A stand-in for the exit rule's probe: what it reports, and how often it was sent."""

    def __init__(self, sent: str | None, exited: str | None) -> None:
        self.outcome, self.sent = (sent, exited), 0

    def __call__(self) -> tuple[str | None, str | None]:
        self.sent += 1
        return self.outcome


def exits(deadline: Deadline, calls: list[tuple[str, dict[str, Any]]], probe: Probe) -> list[str | None]:
    """The exit rule's answer to each call the server exited on."""
    return [deadline.note_exit(tool, arguments, "the server crashed or exited with status 1", probe)
            for tool, arguments in calls]


def test_the_pace_rule_cuts_a_server_answering_every_request_just_under_ten_seconds_after_four_requests():
    deadline = Deadline(900, call_timeout=CALL)
    assert deadline.slow_after == SLOW_SECONDS == 5.0
    assert [deadline.note_wait(9.9, listing=True), deadline.note_wait(9.9), deadline.note_wait(9.9)] == [None] * 3
    assert not deadline.passed()
    verdict = deadline.note_wait(9.9)
    assert verdict is not None and deadline.passed()
    assert verdict.startswith("the server does not answer within 5s: 4 requests in a row took 9.9s, 9.9s, 9.9s, 9.9s "
                              "(39.6s in all; 5s or more each, or no answer)"), verdict


def test_one_hang_alone_does_not_end_the_run_and_two_do():
    deadline = Deadline(900, call_timeout=CALL)
    assert deadline.note_wait(30.0) is None and not deadline.passed()
    deadline.note_wait(0.01, listing=True)  # the restarted server lists its tools at once: no call answered
    assert deadline.note_wait(30.0) is not None and deadline.passed()


def test_a_call_answered_in_time_breaks_a_slow_streak_and_a_listing_does_not():
    deadline = Deadline(900, call_timeout=CALL)
    for _ in range(10):  # a server fast on some calls (a health check between slow searches) is not cut
        assert deadline.note_wait(20.0) is None
        assert deadline.note_wait(0.2) is None
    assert not deadline.passed()
    deadline.note_wait(20.0)
    deadline.note_wait(0.2, listing=True)
    assert deadline.note_wait(20.0) is not None


def test_requests_under_the_threshold_are_never_cut_however_many():
    # The reference under load: a few seconds on every request, one after the other, for the whole run.
    deadline = Deadline(900, call_timeout=CALL)
    assert all(deadline.note_wait(4.9) is None for _ in range(500)) and not deadline.passed()


@pytest.mark.parametrize(("call", "slow_after"), [(5.0, 5.0), (10.0, 5.0), (30.0, 5.0), (120.0, 20.0)])
def test_the_slow_threshold_is_five_seconds_or_a_sixth_of_a_longer_call_timeout_and_never_above_it(call, slow_after):
    assert Deadline(900, call_timeout=call).slow_after == slow_after


def test_a_server_that_answers_the_probe_exits_on_some_calls_only_and_every_call_keeps_its_own_verdict():
    deadline, probe = Deadline(900, call_timeout=CALL), Probe("health_check {}", None)
    calls = [("locate_symbol", {"name": "Config", "detail_level": "location"}),
             ("search_code", {"query": "validate_token", "detail_level": "context"})] * 5
    assert exits(deadline, calls, probe) == [None] * len(calls)
    assert not deadline.passed()
    assert probe.sent == len(calls) // EXIT_STREAK  # one probe per streak: its answer starts the streak over


def test_a_server_that_exits_on_the_probe_too_ends_the_run_naming_what_it_exited_on():
    deadline, probe = Deadline(900, call_timeout=CALL), Probe("health_check {}", "the server crashed or exited")
    calls: list[tuple[str, dict[str, Any]]] = [("health_check", {}), ("search_code", {"query": "token"}),
                                               ("search_code", {"query": "token", "limit": 5})]
    verdicts = exits(deadline, calls, probe)
    assert verdicts[:-1] == [None] * (EXIT_STREAK - 1) and probe.sent == 1 and deadline.passed()
    assert verdicts[-1] == (
        "the server exits even on a call it has no reason to fail: 3 tools/call requests in a row ended with the "
        "server exiting before it answered (health_check {}, search_code {query}, search_code {limit, query}; the "
        "last: the server crashed or exited with status 1), and so did health_check {} sent to a fresh server as a "
        "probe (the server crashed or exited)")
    assert deadline.why() == verdicts[-1]


def test_an_answered_call_breaks_an_exit_streak_before_any_probe():
    deadline, probe = Deadline(900, call_timeout=CALL), Probe("health_check {}", "exited")
    for _ in range(3):
        exits(deadline, [("search_code", {"query": "a"})] * (EXIT_STREAK - 1), probe)
        deadline.note_wait(0.1)
    assert probe.sent == 0 and not deadline.passed()


def test_without_health_check_only_exits_on_calls_with_nothing_in_common_end_the_run():
    same = Deadline(900, call_timeout=CALL)
    unprobed = Probe(None, None)
    calls = [("locate_symbol", {"name": "a", "detail_level": "context"}),
             ("search_code", {"query": "b", "detail_level": "location"})] * 3
    assert exits(same, calls, unprobed) == [None] * len(calls) and not same.passed()
    assert unprobed.sent == 1  # the listing is asked once: a server does not grow a health_check within a run
    apart, unprobed = Deadline(900, call_timeout=CALL), Probe(None, None)
    verdicts = exits(apart, [("locate_symbol", {"name": "a"}), ("search_code", {"query": "b"}),
                             ("search_code", {"query": "c"})], unprobed)
    assert verdicts[-1] is not None and apart.passed()
    assert verdicts[-1].startswith("the server exits on calls with nothing in common: 3 tools/call requests in a row, "
                                   "to 2 tools with no argument name common to all, ended with the server exiting "
                                   "before it answered (locate_symbol {name}, search_code {query}, search_code "
                                   "{query}; "), verdicts[-1]
    assert verdicts[-1].endswith("; it lists no health_check to probe it with")


def test_no_rule_applies_without_a_deadline():
    deadline, probe = Deadline(0, call_timeout=CALL), Probe("health_check {}", "exited")
    assert exits(deadline, [("search_code", {"query": "a"})] * 10, probe) == [None] * 10
    assert all(deadline.note_wait(30.0) is None for _ in range(10))
    assert probe.sent == 0 and not deadline.passed()
