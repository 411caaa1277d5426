"""The upstream twin: the reference reshaped into the upstream server's choices passes the whole suite with warnings.

The proxy (servers/allowed_rewrites_proxy.py --twin, reshapes in servers/upstream_twin.py) answers the way the
upstream server does wherever the documents are silent, each reshape read from its source; the profile maps
the names it chooses. One run of the whole suite is shared by the assertions: no failure, every finding a
warning that names its reading. Upstream's real deviations stay failures: each is proven by a one-rule
breaker through the same twin, killed by the scenario that owns the rule.

Over HTTP (upstream's own transport, servers/upstream_http.py, in front of the same reshapes) the twin must get
the verdicts it gets over stdio. The default run takes a sample of scenarios over HTTP, one per reading the
twin departs from plus passes and skips; CRUXGATE_TWIN=all runs the whole suite over HTTP too. --strict is judged
on that sample over both transports (what it does to a scenario depends on the scenario's findings, which the sample
meets reading by reading, not on how many scenarios run); CRUXGATE_TWIN=all judges it on the whole suite.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import cruxgate.conformance.target.profile as target
from cruxgate.conformance.spec.paths import spec_dir
from cruxgate.conformance.spec.readings import load_readings
from gate_harness import PROXY, assert_owner_failed, owner_jobs, run_suite, selected, side_by_side

# The names the upstream server chooses where the documents name nothing (spec/readings.yaml R9-R12, R26).
GUIDANCE = {"suggestion": "remediation"}
TWIN_NAMES: dict[str, dict[str, dict[str, str]]] = {
    "find_references": {"arguments": {"name": "symbol_name"}, "fields": GUIDANCE},
    "get_file_outline": {"fields": {"file_path": "path", **GUIDANCE}},
    "health_check": {"fields": {"tantivy_ok": "tantivy", "sqlite_ok": "sqlite", "prewarm_status": "prewarm",
                                "active_job": "active_jobs"}},
    "search_code": {"fields": GUIDANCE},
    "locate_symbol": {"fields": GUIDANCE},
}
# Readings the twin must be seen departing from (each reshape that a check of ours notices).
DEPARTS = {"R3", "R8", "R12", "R13", "R14", "R23", "R24", "R25", "R27"}
# Over HTTP by default: one warned scenario per reading the twin departs from (AP-ERRORS-01 compares both
# transports' errors), some passes, a skip, and the wire scenario (skipped over HTTP).
HTTP_SAMPLE = {"AP-ERRORS-01", "AP-INTENT-01", "FR-110-01", "RC-ENUMS-02", "FR-112-01", "FR-115a-01", "FR-101-02",
               "FR-107-02", "AP-REFS-03", "FR-101-01", "FR-102-01", "FR-107-03", "AP-COMPACT-01", "RC-SURFACE-01",
               "AP-SAFETY-01", "MCP-WIRE-01"}
HTTP_ALL = os.environ.get("CRUXGATE_TWIN", "sample") == "all"
# Upstream's real deviations: the breaker that commits each (on top of the twin) and the scenario that owns it.
DEVIATIONS = {"location_extra": "FR-102-01", "module_weight": "AP-KIND-04",
              "outline_ignores_schema": "FR-123-01", "legacy_flag_overrides_off": "RC-PRECEDENCE-02"}


def twin_profile(directory: Path, breaker: str | None = None) -> Path:
    """The reference profile behind the twin proxy, with upstream's names, claiming no scored-search tools."""
    profile: dict[str, Any] = yaml.safe_load(target.default_profile_path().read_text(encoding="utf-8"))
    breaking = ["--break", breaker] if breaker else []
    serve = profile["transports"]["stdio"]["command"]
    profile["transports"] = {
        "stdio": {"command": ["{python}", str(PROXY), "--twin", *breaking, "--", *serve]},
        # Upstream's HTTP transport (servers/upstream_http.py) in front of the same reshapes; its one route is `/`.
        "http": {"command": ["{python}", str(PROXY), "--twin", "--http", "{port}", *breaking, "--", *serve],
                 "url": "http://127.0.0.1:{port}/"},
    }
    profile["name"] = f"upstream-twin-breaking-{breaker}" if breaker else "upstream-twin"
    profile["names"] = TWIN_NAMES
    profile.pop("tools", None)  # upstream serves 000/001's tools only
    profile["payload_budget"] = {"fixed": "upstream hard-codes 64 KB; it reads no config key for it"}
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "twin.yaml"
    path.write_text(yaml.safe_dump(profile, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def twin_runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The suite against the twin, shared by the assertions below: the whole suite over stdio, the sample over HTTP,
    and the sample under --strict over both (with CRUXGATE_TWIN=all, the whole suite each time); then one run per
    deviation breaker of the scenario that owns its rule. Two at a time (they mostly wait on servers), the long
    one first; only the runs the session's selected tests read."""
    base = tmp_path_factory.mktemp("twin")
    sample = () if HTTP_ALL else ("-k", " or ".join(sorted(HTTP_SAMPLE)))
    http = ("--target=http", *sample)
    plans = {"stdio": (), "stdio-strict": (*sample, "--strict"), "http": http, "http-strict": (*http, "--strict")}
    readers = [item for item in request.session.items
               if "twin_runs" in getattr(item, "fixturenames", ()) and getattr(item, "originalname", "") != DEVIATION]
    if not readers:  # only deviation tests selected
        plans = {}

    def job(name: str) -> Any:
        directory = base / name
        directory.mkdir()
        return lambda: run_suite(directory, twin_profile(directory), *plans[name])

    deviations = {name: owner for name, owner in DEVIATIONS.items() if name in selected(request, DEVIATION)}
    return side_by_side({**{name: job(name) for name in plans},
                          **owner_jobs(base / "breakers", deviations, twin_profile)})


@pytest.fixture(scope="module")
def twin_run(twin_runs):
    """The whole suite against the twin over stdio."""
    return twin_runs["stdio"]


def test_the_upstream_twin_passes_the_whole_suite_with_warnings_only(twin_run):
    done, results = twin_run
    failed = {r["id"]: (r["failure_message"] or "")[:400] for r in results["scenarios"] if r["outcome"] == "failed"}
    assert failed == {}, done.stdout[-3000:]
    assert done.returncode == 0
    summary = results["summary"]
    assert summary["passed"] + summary["warned"] > 100 and summary["warned"] > 10  # its readings are seen
    assert results["target_profile"] == "upstream-twin"
    skipped = {r["id"]: r.get("skip_reason") or "" for r in results["scenarios"] if r["outcome"] == "skipped"}
    assert "cannot set its payload budget" in skipped["AP-SAFETY-01"]  # R34: the profile says how, or it skips


def test_every_finding_on_the_twin_is_a_warning_naming_its_reading(twin_run):
    _, results = twin_run
    findings = [f for r in results["scenarios"] for f in r["findings"]]
    assert findings
    readings = set(load_readings(spec_dir()).readings)
    for finding in findings:
        assert finding["severity"] == "warning", finding
        assert finding["basis"].get("reading") in readings, finding
    departed = {f["basis"]["reading"] for f in findings}
    assert departed >= DEPARTS, sorted(DEPARTS - departed)


def test_the_run_summary_lists_each_reading_the_twin_departs_from(twin_run):
    done, results = twin_run
    departed = {f["basis"]["reading"] for r in results["scenarios"] for f in r["findings"]}
    assert "departs from" in done.stdout
    for reading in departed:
        assert f"  {reading}: " in done.stdout


def outcomes(results: dict[str, Any]) -> dict[str, str]:
    """Each scenario's outcome."""
    return {record["id"]: record["outcome"] for record in results["scenarios"]}


def readings_of(results: dict[str, Any]) -> dict[str, list[str]]:
    """Each scenario's readings its findings name."""
    return {record["id"]: sorted({f["basis"].get("reading") for f in record["findings"]})
            for record in results["scenarios"]}


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_strict_fails_each_scenario_that_warned_on_the_twin_and_nothing_else(twin_runs, transport):
    _, results = twin_runs[transport]
    done, strict = twin_runs[f"{transport}-strict"]
    normal, under_strict = outcomes(results), outcomes(strict)
    if not HTTP_ALL:  # the sample: a warned scenario per reading the twin departs from, passes and a skip
        assert set(under_strict) == HTTP_SAMPLE
    normal = {scenario: normal[scenario] for scenario in under_strict}
    warned = {scenario for scenario, outcome in normal.items() if outcome == "warned"}
    assert warned and done.returncode == 1, done.stdout[-2000:]
    assert {scenario for scenario, outcome in under_strict.items() if outcome == "failed"} == warned
    assert {scenario for scenario, outcome in under_strict.items() if outcome == "passed"} == \
        {scenario for scenario, outcome in normal.items() if outcome == "passed"}
    readings = set(load_readings(spec_dir()).readings)
    for record in strict["scenarios"]:
        if record["outcome"] == "failed":  # on its first reading the twin departs from, which the message names
            first = record["findings"][0]
            assert first["basis"].get("reading") in readings, record
            assert "(a warning, failing under --strict)" in record["failure_message"], record["failure_message"]
    assert "departs from" in done.stdout  # the summary still lists the readings


def test_over_http_the_twin_gets_the_verdicts_it_gets_over_stdio(twin_runs):
    done, over_http = twin_runs["http"]
    _, over_stdio = twin_runs["stdio"]
    assert done.returncode == 0, done.stdout[-3000:]
    assert over_http["transport"] == "http" and over_http["target_profile"] == "upstream-twin"
    ran = outcomes(over_http)
    if not HTTP_ALL:
        assert set(ran) == HTTP_SAMPLE
    # The one scenario that differs by design: the wire scenario reads a server's stdout, which HTTP has none of.
    wire = next(record for record in over_http["scenarios"] if record["id"] == "MCP-WIRE-01")
    assert ran.pop("MCP-WIRE-01") == "skipped" and "this run uses http" in wire["skip_reason"]
    assert ran == {scenario: outcomes(over_stdio)[scenario] for scenario in ran}
    over_stdio_readings = readings_of(over_stdio)
    assert {scenario: found for scenario, found in readings_of(over_http).items() if scenario in ran} == \
        {scenario: over_stdio_readings[scenario] for scenario in ran}


def test_the_http_sample_meets_every_reading_the_twin_departs_from(twin_runs):
    _, over_stdio = twin_runs["stdio"]
    _, over_http = twin_runs["http"]
    departed = [{reading for found in readings_of(results).values() for reading in found}
                for results in (over_http, over_stdio)]
    assert departed[0] == departed[1]
    assert {"passed", "warned", "skipped"} <= set(outcomes(over_http).values())


def test_every_deviation_is_listed_in_readings_yaml_and_has_a_breaker():
    listed = {deviation.scenario for deviation in load_readings(spec_dir()).deviations}
    assert set(DEVIATIONS.values()) == listed


DEVIATION = "test_an_upstream_deviation_on_the_twin_fails_the_scenario_that_owns_the_rule"


@pytest.mark.parametrize("breaker", sorted(DEVIATIONS))
def test_an_upstream_deviation_on_the_twin_fails_the_scenario_that_owns_the_rule(twin_runs, breaker):
    assert_owner_failed(twin_runs[breaker], DEVIATIONS[breaker])


if __name__ == "__main__":  # a profile to run the suite against the twin by hand: python3 test_twin.py DIR
    print(twin_profile(Path(sys.argv[1])))
