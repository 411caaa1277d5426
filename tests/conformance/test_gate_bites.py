"""The gate bites: each deliberately broken fake server fails exactly the scenarios that own its rule."""

from __future__ import annotations

import pytest

ALL_RUN = {"HC-META-01", "HC-META-02", "HC-META-03", "HC-META-04", "SC-SEARCH-01", "SC-SEARCH-02", "SC-SEARCH-03",
           "SC-SEARCH-04", "SC-SEARCH-05", "SC-SEARCH-06", "SC-SEARCH-07", "SC-SEARCH-08", "MCP-WIRE-01"}
REPORTED_NOT_RUN = {"SC-SEARCH-09", "SC-PERF"}
ERROR_FLAW_SCOPE = ALL_RUN - {"HC-META-03", "SC-SEARCH-06"}  # see conftest.gate_runs
FLAW_SCOPE = ERROR_FLAW_SCOPE - {"SC-SEARCH-07"}


def test_conforming_server_passes_every_executable_scenario(gate_runs):
    run = gate_runs["conforming"]
    assert run.returncode == 0, run.output
    assert run.outcomes("passed") == ALL_RUN
    assert run.outcomes("informative") == {"SC-SEARCH-09"}
    assert run.record("SC-SEARCH-09")["skip_reason"].startswith("informative: ")
    assert run.record("SC-PERF")["skip_reason"].startswith("benchmark: ")
    assert run.results["server_info"] == {"name": "fake-code-search", "version": "0.0.1"}
    assert run.results["target_profile"] == "fake-code-search"


def test_conforming_server_passes_over_http(gate_runs):
    run = gate_runs["conforming_http"]
    assert run.returncode == 0, run.output
    assert run.outcomes("passed") == ERROR_FLAW_SCOPE - {"MCP-WIRE-01"}
    assert run.record("MCP-WIRE-01")["skip_reason"] == "the wire scenario judges stdout; this run uses http"
    assert run.results["scenarios"][0]["transport"] in ("http", "stdio+http")


@pytest.mark.parametrize(("flaw", "failing"), [
    ("legacy_idle", {"HC-META-02"}),
    ("missing_metadata", {"HC-META-01"}),
    ("reasons_when_off", {"SC-SEARCH-02"}),
    ("compact_order", {"SC-SEARCH-03"}),
    ("bad_error_code", {"SC-SEARCH-04", "SC-SEARCH-07"}),
    ("crash_on_bad_input", {"SC-SEARCH-04", "SC-SEARCH-07"}),
])
def test_each_broken_rule_fails_exactly_its_scenarios(gate_runs, flaw, failing):
    run = gate_runs[flaw]
    assert run.returncode == 1, run.output
    assert run.outcomes("failed") == failing
    scope = ERROR_FLAW_SCOPE if "SC-SEARCH-07" in failing else FLAW_SCOPE
    assert run.outcomes("passed") == scope - failing
    for scenario_id in failing:
        assert f"{scenario_id} [MUST]" in run.output


def test_failure_messages_name_the_rule(gate_runs):
    assert "'idle' is not one of" in gate_runs["legacy_idle"].record("HC-META-02")["failure_message"] or \
        '"idle" is not one of' in gate_runs["legacy_idle"].record("HC-META-02")["failure_message"]
    assert "'ref' is a required property" in gate_runs["missing_metadata"].record("HC-META-01")["failure_message"]
    assert "same_sequence" in gate_runs["compact_order"].record("SC-SEARCH-03")["failure_message"]
    message = gate_runs["bad_error_code"].record("SC-SEARCH-04")["failure_message"]
    assert "error code 'bad_request'" in message and "WHEN search_code is called with an empty query" in message


def test_a_crash_fails_the_call_with_the_stderr_tail_and_the_next_scenario_gets_a_fresh_server(gate_runs):
    run = gate_runs["crash_on_bad_input"]
    message = run.record("SC-SEARCH-04")["failure_message"]
    assert "connection closed without an answer" in message
    assert "fake server: crashing on an empty query" in message  # the server's stderr tail
    assert {"SC-SEARCH-05", "SC-SEARCH-08"} <= run.outcomes("passed")  # same environment, restarted server


def test_a_hang_times_out_instead_of_hanging_the_run(gate_runs):
    run = gate_runs["hang"]
    assert run.outcomes("failed") == {"SC-SEARCH-04"}
    assert "no answer within 2s (the server hangs)" in run.record("SC-SEARCH-04")["failure_message"]
    assert run.outcomes("passed") == {"SC-SEARCH-01"}


@pytest.mark.parametrize(("flaw", "kind", "detail"), [
    ("garbage_stdout", "not_json", "a line that is not JSON: 'this is not JSON-RPC'"),
    ("log_stdout", "not_json", "a line that is not JSON: 'INFO fake_server: handling initialize'"),
    ("notification_reply", "notification_reply", "a response with id null: a reply to a notification"),
])
def test_one_wire_defect_is_one_finding_of_the_wire_scenario_and_every_other_scenario_is_judged(
        gate_runs, flaw, kind, detail):
    run = gate_runs[flaw]
    assert run.returncode == 0, run.output  # stdout hygiene is an MCP rule: a warning unless --strict
    assert run.outcomes("passed") == {"HC-META-01", "SC-SEARCH-01"}
    assert run.outcomes("warned") == {"MCP-WIRE-01"}
    findings = run.record("MCP-WIRE-01")["findings"]
    assert {finding["check"] for finding in findings} == {kind}
    assert any(detail in finding["message"] for finding in findings), findings
    assert all(finding["basis"]["kind"] == "mcp" for finding in findings)


def test_under_strict_a_wire_defect_fails_exactly_the_wire_scenario(gate_runs):
    run = gate_runs["notification_reply_strict"]
    assert run.returncode == 1
    assert run.outcomes("failed") == {"MCP-WIRE-01"}
    assert run.outcomes("passed") == {"HC-META-01", "SC-SEARCH-01"}
    assert "a response with id null" in run.record("MCP-WIRE-01")["failure_message"]


def test_a_server_that_cannot_start_fails_once_with_its_stderr(gate_runs):
    run = gate_runs["crash_on_start"]
    (first,) = run.outcomes("failed")  # its workspace differs from the other's: still one cause, one verdict
    message = run.record(first)["failure_message"]
    assert "failed to start or to complete the MCP handshake" in message
    assert "fake server: refusing to start (crash_on_start)" in message
    (other,) = {"HC-META-01", "HC-META-02"} - {first}
    assert run.record(other)["skip_reason"] == f"not run: target did not start; see {first}"


def test_should_failure_is_a_warning_with_its_id_and_basis_in_every_report(gate_runs):
    run = gate_runs["no_clamp_warning"]
    assert run.outcomes("warned") == {"SC-SEARCH-05"}
    assert run.outcomes("passed") == {"SC-SEARCH-01"}
    assert run.returncode == 0, run.output
    assert run.results["exit_status"] == 0
    finding = run.record("SC-SEARCH-05")["findings"][0]
    assert finding["id"] == "SC-SEARCH-05/count_equals" and finding["severity"] == "warning"
    assert "cruxgate: 1 warning(s)" in run.output and "SC-SEARCH-05/count_equals [document SHOULD]" in run.output
    assert finding["basis"]["level"] == "SHOULD" and finding["basis"]["ref"].startswith("000 > ")
    assert "| SC-SEARCH | SHOULD | SC-SEARCH-05 |" in run.report and "| warned |" in run.report
    assert "## Warnings" in run.report and "| SC-SEARCH-05/count_equals |" in run.report
    case = next(case for case in run.junit.iter("testcase") if case.get("name") == "SC-SEARCH-05")
    assert any(p.get("name") == "cruxgate_finding" for p in case.iter("property"))


def test_strict_makes_a_warning_fail(gate_runs):
    run = gate_runs["strict"]
    assert run.outcomes("failed") == {"SC-SEARCH-05"}
    assert "failing under --strict" in run.record("SC-SEARCH-05")["failure_message"]
    assert run.returncode == 1


def test_server_lacking_tools_gets_passes_and_reasoned_skips(gate_runs):
    run = gate_runs["lacking_tools"]
    assert run.returncode == 0, run.output
    assert run.outcomes("skipped") == {"SC-SEARCH-08", "SC-PERF"}
    assert run.record("SC-SEARCH-08")["skip_reason"] == \
        "blocked: target fake-code-search does not list the needed tool locate_symbol (tools/list)"
    assert run.outcomes("informative") == {"SC-SEARCH-09"}
    assert run.outcomes("passed") == {"SC-SEARCH-01"}
    assert run.outcomes("failed") == set()


def test_baseline_turns_a_known_failure_into_an_expected_one(gate_runs):
    run = gate_runs["baseline"]
    assert run.returncode == 0, run.output
    assert run.outcomes("expected-failure") == {"SC-SEARCH-02"}
    assert run.outcomes("passed") == {"SC-SEARCH-01"}
    assert run.outcomes("failed") == set()


def test_a_stale_baseline_entry_gates_even_for_a_should_scenario(gate_runs):
    run = gate_runs["stale_should"]
    assert run.returncode == 1, run.output
    assert "stale baseline: remove the entry SC-SEARCH-05" in run.output


def test_reports_show_requirement_scenario_outcome_and_counts(gate_runs):
    run = gate_runs["legacy_idle"]
    report = run.report
    assert "target: **fake-code-search** over **stdio**" in report
    assert "**Verdict: FAIL** (1 failure(s))" in report
    assert "| MUST | 8 | 0 | 1 | 0 | 0 | 1 | 10 |" in report  # the wire scenario is the eighth pass
    assert "| HC-META | MUST | HC-META-02 | indexing_status is canonical | failed |" in report
    cases = {case.get("name"): case for case in run.junit.iter("testcase")}
    assert set(cases) == FLAW_SCOPE | REPORTED_NOT_RUN
    assert cases["HC-META-02"].find("failure") is not None
    assert cases["SC-SEARCH-09"].find("skipped") is not None


@pytest.mark.parametrize("name", ["conforming", "baseline", "lacking_tools", "crash_on_bad_input"])
def test_json_results_of_real_runs_follow_their_schema(gate_runs, name):
    import json

    from cruxgate.conformance.spec.paths import schemas_dir
    from cruxgate.conformance.spec.schemas import validator_for

    schema = json.loads((schemas_dir() / "conformance-results.schema.json").read_text(encoding="utf-8"))
    errors = sorted(validator_for(schema).iter_errors(gate_runs[name].results), key=str)
    assert errors == [], errors[0].message if errors else ""


def test_an_invalid_input_schema_fails_the_surface_lint_scenario(gate_runs):
    run = gate_runs["broken_schema"]
    assert run.returncode == 1, run.output
    assert run.outcomes("failed") == {"HC-META-04"}
    assert run.outcomes("passed") == {"HC-META-01"}
    message = run.record("HC-META-04")["failure_message"]
    assert "tool_surface_conforms" in message and "not valid JSON Schema 2020-12" in message
