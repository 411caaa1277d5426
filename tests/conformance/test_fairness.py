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

from gate_harness import PROXY, assert_owner_failed, owner_runs, proxied_profile, run_suite

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


def test_the_reference_rewritten_in_every_allowed_way_passes_the_whole_suite(tmp_path):
    done, results = run_suite(tmp_path, proxied_profile(tmp_path))
    failed = {r["id"]: (r["failure_message"] or "")[:400] for r in results["scenarios"] if r["outcome"] == "failed"}
    assert failed == {}, done.stdout[-3000:]
    assert done.returncode == 0, done.stdout[-3000:]
    assert results["summary"]["passed"] > 100
    assert results["target_profile"] == "reference-behind-allowed-rewrites"
    # Dropping isError is allowed, so it is reported as a warning, never a failure.
    assert any(f["check"] == "mcp_is_error" for r in results["scenarios"] for f in r["findings"])


@pytest.fixture(scope="module")
def broken_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """One run per breaker, of the scenario that owns its rule (two at a time: they mostly wait on servers)."""
    return owner_runs(tmp_path_factory.mktemp("breakers"), OWNERS, proxied_profile)


def test_every_breaker_has_an_owner():
    assert set(OWNERS) == set(BREAKERS) and len(BREAKERS) >= 10


@pytest.mark.parametrize("breaker", sorted(OWNERS))
def test_a_one_rule_breakage_fails_the_scenario_that_owns_the_rule(broken_runs, breaker):
    assert_owner_failed(broken_runs[breaker], OWNERS[breaker])
