"""The gate's verdict on a server it did not write, both ways, with the reference behind a rewriting proxy.

Fair: the proxy (servers/allowed_rewrites_proxy.py) applies every rewrite the documents allow at once to
every answer; the whole suite is replayed through it over stdio, and no scenario may fail.
Biting: the same proxy breaks one rule at a time; the scenario that owns the rule must fail.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from gate_harness import PROXY, assert_owner_failed, owner_jobs, proxied_profile, run_suite, selected, side_by_side

sys.path.insert(0, str(PROXY.parent))
from allowed_rewrites_proxy import BREAKERS, ENVELOPE_REWRITES, REWRITES, rewrite_result

# Each breaker and the scenario that owns the rule it breaks.
OWNERS = {
    "legacy_idle": "RC-ENUMS-01", "reasons_when_off": "AP-EXPLAIN-01",
    "wrong_error_code": "AP-EXPLAIN-05", "compact_keeps_body": "AP-COMPACT-02", "compact_reorders": "AP-COMPACT-01",
    "duplicates": "AP-DEDUP-01", "unresolved_missing": "AP-REFS-02", "location_extra": "FR-102-01",
    "module_weight": "AP-KIND-04", "safety_silent": "AP-SAFETY-01",
    "outline_ignores_schema": "FR-123-01", "legacy_flag_overrides_off": "RC-PRECEDENCE-02",
}


def test_the_proxy_has_at_least_ten_kinds_of_allowed_rewrite_and_each_changes_an_answer():
    assert len(REWRITES) + len(ENVELOPE_REWRITES) >= 10
    payload = {"results": [{"path": "a", "line_start": 1, "line_end": 2, "kind": "function", "name": "f",
                            "signature": "f()", "score": 0.1}],
               "metadata": {"cruxe_protocol_version": "1", "ranking_reasons": [{"bm25_score": 1.1}]},
               "suggested_next_actions": ["locate f"], "startup_checks": {}, "error": {"code": "x", "message": "m"}}
    bare: dict[str, Any] = {"results": [], "metadata": {}}
    for name in [*REWRITES, *ENVELOPE_REWRITES]:
        changed = []
        for sample in (payload, bare):
            before = json.dumps({"content": [{"type": "text", "text": json.dumps(sample)}], "isError": True})
            changed.append(json.dumps(rewrite_result(json.loads(before), {name})) != before)
        assert any(changed), name


WHOLE = "test_the_reference_rewritten_in_every_allowed_way_passes_the_whole_suite"
BROKEN = "test_a_one_rule_breakage_fails_the_scenario_that_owns_the_rule"


@pytest.fixture(scope="module")
def fairness_runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The whole suite through every allowed rewrite, and one run per breaker of the scenario that owns its rule
    (those the session selects), two at a time: the whole-suite run on one worker, the breakers' short runs
    taking turns on the other."""
    base = tmp_path_factory.mktemp("fairness")
    jobs: dict[str, Any] = {}
    if selected(request, WHOLE):
        jobs[WHOLE] = lambda: run_suite(base / "allowed", proxied_profile(base / "allowed"))
    breakers = {name: owner for name, owner in OWNERS.items() if name in selected(request, BROKEN)}
    return side_by_side({**jobs, **owner_jobs(base / "breakers", breakers, proxied_profile)})


def test_the_reference_rewritten_in_every_allowed_way_passes_the_whole_suite(fairness_runs):
    done, results = fairness_runs[WHOLE]
    failed = {r["id"]: (r["failure_message"] or "")[:400] for r in results["scenarios"] if r["outcome"] == "failed"}
    assert failed == {}, done.stdout[-3000:]
    assert done.returncode == 0, done.stdout[-3000:]
    assert results["summary"]["passed"] > 100
    assert results["target_profile"] == "reference-behind-allowed-rewrites"
    # Dropping isError is allowed, so it is reported as a warning, never a failure.
    assert any(f["check"] == "mcp_is_error" for r in results["scenarios"] for f in r["findings"])


def test_every_breaker_has_an_owner():
    assert set(OWNERS) == set(BREAKERS) and len(BREAKERS) >= 10


@pytest.mark.parametrize("breaker", sorted(OWNERS))
def test_a_one_rule_breakage_fails_the_scenario_that_owns_the_rule(fairness_runs, breaker):
    assert_owner_failed(fairness_runs[breaker], OWNERS[breaker])
