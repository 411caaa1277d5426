"""The expected-failures baseline: expected failure, regression, stale entry, bad file, write."""

from __future__ import annotations

import pytest
import yaml

from cruxgate.conformance.report.baseline import (
    EXPECTED_FAILURE,
    STALE,
    BaselineError,
    baseline_outcome,
    load_baseline,
)

RUN = ("-p", "no:cruxgate")  # the synthetic conftest stands in for the runner plugin


def test_listed_failure_is_expected_and_run_passes(pytester, scenarios):
    scenarios("AP-X-01 fail", "AP-X-02 pass")
    pytester.path.joinpath("base.yaml").write_text("- {id: AP-X-01, reason: known ranking gap}\n")
    result = pytester.runpytest(*RUN, "--baseline", "base.yaml", "-rx")
    result.assert_outcomes(passed=1, xfailed=1)
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*AP-X-01*expected-failure: known ranking gap*"])


def test_unlisted_failure_is_a_regression(pytester, scenarios):
    scenarios("AP-X-01 fail", "AP-X-02 fail")
    pytester.path.joinpath("base.yaml").write_text("- {id: AP-X-01, reason: known}\n")
    result = pytester.runpytest(*RUN, "--baseline", "base.yaml")
    result.assert_outcomes(failed=1, xfailed=1)
    assert result.ret == 1


def test_listed_scenario_that_passes_is_a_stale_entry(pytester, scenarios):
    scenarios("AP-X-01 pass")
    pytester.path.joinpath("base.yaml").write_text("- {id: AP-X-01, reason: was broken}\n")
    result = pytester.runpytest(*RUN, "--baseline", "base.yaml")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*stale baseline: remove the entry AP-X-01*"])


def test_each_call_report_names_what_the_baseline_made_of_it(pytester, scenarios):
    # Other plugins read the verdict from the report's user properties, never from ad-hoc attributes.
    scenarios("AP-X-01 fail", "AP-X-02 pass", "AP-X-03 fail")
    pytester.path.joinpath("base.yaml").write_text("- {id: AP-X-01, reason: r}\n- {id: AP-X-02, reason: r}\n")
    recorded = pytester.inline_run(*RUN, "--baseline", "base.yaml")
    calls = {r.nodeid.rsplit("::", 1)[-1]: r for r in recorded.getreports("pytest_runtest_logreport")
             if r.when == "call"}
    assert {sid: baseline_outcome(report) for sid, report in calls.items()} == {
        "AP-X-01": EXPECTED_FAILURE, "AP-X-02": STALE, "AP-X-03": None}


def test_listed_skipped_scenario_is_neither_stale_nor_failed(pytester, scenarios):
    scenarios("AP-X-01 skip")
    pytester.path.joinpath("base.yaml").write_text("- {id: AP-X-01, reason: r}\n")
    result = pytester.runpytest(*RUN, "--baseline", "base.yaml")
    result.assert_outcomes(skipped=1)
    assert result.ret == 0


def test_unmatched_entry_is_a_warning_not_a_failure(pytester, scenarios):
    scenarios("AP-X-01 pass")
    pytester.path.joinpath("base.yaml").write_text("- {id: AP-GONE-09, reason: r}\n")
    result = pytester.runpytest(*RUN, "--baseline", "base.yaml")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*baseline entry AP-GONE-09 matches no collected scenario*",
                                 "*entries matching no collected scenario*", "*AP-GONE-09*"])


def test_write_baseline_records_failures_with_first_line(pytester, scenarios):
    scenarios("AP-X-02 fail", "AP-X-01 fail", "AP-X-03 pass", "AP-X-04 skip")
    result = pytester.runpytest(*RUN, "--write-baseline", "new.yaml")
    assert result.ret == 1
    written = yaml.safe_load(pytester.path.joinpath("new.yaml").read_text())
    assert written == [
        {"id": "AP-X-01", "reason": "AP-X-01: THEN metadata carries ranking_reasons"},
        {"id": "AP-X-02", "reason": "AP-X-02: THEN metadata carries ranking_reasons"},
    ]
    # The written file is a valid baseline that makes the same run pass.
    again = pytester.runpytest(*RUN, "--baseline", "new.yaml")
    again.assert_outcomes(passed=1, skipped=1, xfailed=2)
    assert again.ret == 0


def test_bad_baseline_file_is_a_usage_error(pytester, scenarios):
    scenarios("AP-X-01 pass")
    pytester.path.joinpath("base.yaml").write_text("- {id: AP-X-01}\n")
    result = pytester.runpytest(*RUN, "--baseline", "base.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*entry 1 (AP-X-01): 'reason' must be a non-empty string*"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{id: A-1, reason: r}\n", "expected a list"),
        ("- just-a-string\n", "expected a mapping"),
        ("- {reason: r}\n", "'id' must be a non-empty string"),
        ("- {id: A-1, reason: r, owner: me}\n", "unknown key(s) owner"),
        ("- {id: A-1, reason: r}\n- {id: A-1, reason: s}\n", "duplicate id A-1"),
        ("- [unclosed\n", "not valid YAML"),
    ],
)
def test_load_baseline_rejects_bad_files(tmp_path, text, message):
    path = tmp_path / "b.yaml"
    path.write_text(text)
    with pytest.raises(BaselineError, match=r".*" + message.replace("(", r"\(").replace(")", r"\)")):
        load_baseline(path)


def test_load_baseline_accepts_empty_file(tmp_path):
    path = tmp_path / "b.yaml"
    path.write_text("# nothing yet\n")
    assert load_baseline(path) == {}
    with pytest.raises(BaselineError, match="cannot read baseline"):
        load_baseline(tmp_path / "missing.yaml")


def test_expected_failure_reaches_junitxml_as_skipped_with_its_reason(pytester, scenarios):
    scenarios("AP-X-01 fail")
    pytester.path.joinpath("base.yaml").write_text("- {id: AP-X-01, reason: known ranking gap}\n")
    result = pytester.runpytest(*RUN, "--baseline", "base.yaml", "--junitxml", "j.xml")
    assert result.ret == 0
    xml = pytester.path.joinpath("j.xml").read_text()
    assert '<skipped type="pytest.xfail" message="expected-failure: known ranking gap"' in xml
