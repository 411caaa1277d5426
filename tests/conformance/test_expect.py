"""Judging answers: every check on its basis. Registry and MUST breaches stop the scenario; MCP conventions,
SHOULDs and our readings are kept as warnings (failures under strict)."""

from __future__ import annotations

import json

import pytest

from cruxgate.conformance.checks.judge import ExpectationFailed, Judge, canonical_numbers, resolve, run_check
from cruxgate.conformance.spec.model import MCP, READING, Basis, Check, parse_expect
from cruxgate.conformance.target.wire import Response, ServerFailure, to_response

MUST = Basis("document", "000 > Scenario: x", "MUST")
SHOULD = Basis("document", "000 > Scenario: y", "SHOULD")


def answer(payload, is_error=False, text=None):
    return Response(payload=payload, structured=payload, text=json.dumps(payload) if text is None else text,
                    is_error=is_error, raw={})


def judged(expect: dict, response: Response, strict: bool = False) -> Judge:
    judge = Judge(strict=strict)
    judge.answer(parse_expect(expect, MUST), response, {})
    return judge


ERROR = {"error": {"code": "invalid_input", "message": "query must not be empty"}}


def test_resolve_reads_captures_and_jmespath():
    captures = {"ids": [1, 2]}
    assert resolve("$ids", None, captures) == [1, 2]
    assert resolve("results[*].score", {"results": [{"score": 2}, {"score": 1}]}, captures) == [2, 1]
    assert resolve(3, None, captures) == 3
    with pytest.raises(ExpectationFailed, match=r"\$nope was never captured"):
        resolve("$nope", None, captures)


def test_expected_error_with_registry_code_and_is_error_has_no_finding():
    assert judged({"outcome": "error", "error_code": "invalid_input"}, answer(ERROR, is_error=True)).findings == []


@pytest.mark.parametrize(("expect", "response", "check", "message"), [
    ({}, answer(ERROR, is_error=True), "outcome", "expected success, the tool failed with 'invalid_input'"),
    ({"outcome": "error"}, answer({"results": []}), "outcome", "expected an error, the tool succeeded"),
    ({"error_code": "file_not_found"}, answer(ERROR, is_error=True), "error_code",
     "expected error code 'file_not_found', got 'invalid_input'"),
    ({"outcome": "error"}, answer({"error": {"code": "bad_request", "message": "m"}}, is_error=True),
     "registry_code", "error code 'bad_request' breaks the schema"),
    ({"outcome": "error"}, answer({"error": "boom"}, is_error=True), "error_envelope", "must carry the envelope"),
])
def test_gating_breaches_stop_the_scenario_and_name_their_basis(expect, response, check, message):
    judge = Judge()
    with pytest.raises(ExpectationFailed) as info:
        judge.answer(parse_expect(expect, MUST), response, {})
    assert message in str(info.value) and "basis: " in str(info.value)
    assert [finding.check for finding in judge.findings] == [check]


def test_a_missing_is_error_flag_is_an_mcp_warning_and_judging_goes_on():
    judge = judged({"outcome": "error", "error_code": "invalid_input"}, answer(ERROR, is_error=False))
    assert [(f.check, f.basis.kind, f.severity) for f in judge.findings] == [("mcp_is_error", MCP, "warning")]
    with pytest.raises(ExpectationFailed, match=r"wrong_code|expected error code"):
        judged({"error_code": "file_not_found"}, answer(ERROR, is_error=False))


def test_strict_turns_a_warning_into_a_failure():
    with pytest.raises(ExpectationFailed, match="failing under --strict"):
        judged({"outcome": "error"}, answer(ERROR, is_error=False), strict=True)


def test_outcome_any_accepts_success_or_a_canonical_error():
    assert judged({"outcome": "any"}, answer({"results": []})).findings == []
    assert judged({"outcome": "any"}, answer(ERROR, is_error=True)).findings == []
    assert [f.check for f in judged({"outcome": "any"}, answer(ERROR)).findings] == ["mcp_is_error"]


def test_schema_failure_names_path_and_keyword():
    schema = {"properties": {"metadata": {"properties": {"indexing_status": {"enum": ["ready"]}}}}}
    with pytest.raises(ExpectationFailed) as info:
        judged({"schema": schema}, answer({"metadata": {"indexing_status": "idle"}}))
    assert "at .metadata.indexing_status (keyword enum)" in str(info.value)


def test_a_schema_on_a_reading_basis_warns():
    schema = {"properties": {"ref": {"const": "live"}}}
    judge = judged({"schema": schema, "basis": "reading R1"}, answer({"ref": "main"}))  # R1: no `ref` literal
    assert [(f.check, f.basis.kind, f.basis.ref) for f in judge.findings] == [("schema", READING, "R1")]


def test_a_should_scenario_warns():
    judge = Judge()
    judge.answer(parse_expect({"checks": [{"check": "count_equals", "path": "results", "n": 1}]}, SHOULD),
                 answer({"results": []}), {})
    assert [(f.check, f.severity) for f in judge.findings] == [("count_equals", "warning")]


def test_schema_ref_resolves_to_a_schemas_id():
    assert judged({"outcome": "error", "schema": {"properties": {"error": {"properties": {
        "code": {"$ref": "https://cruxgate.dev/schemas/error-codes.json"}}}}}},
        answer(ERROR, is_error=True)).findings == []


def test_structured_and_text_disagreeing_is_an_mcp_warning():
    judge = judged({}, answer({"results": []}, text='{"results": [1]}'))
    assert [(f.check, f.basis.kind) for f in judge.findings] == [("structured_matches_text", MCP)]
    assert "structuredContent and the text item differ" in judge.findings[0].message


def test_checks_chain_across_steps_through_captures():
    captures = {"ids": ["a", "b"], "ids_compact": ["b", "a"]}
    with pytest.raises(ExpectationFailed, match="check same_sequence"):
        run_check(Check("same_sequence", {"a": "$ids", "b": "$ids_compact"}, MUST), None, captures, captures)
    run_check(Check("equal", {"a": "ids[0]", "b": "ids_compact[1]"}, MUST), None, captures, captures)


def test_unknown_check_and_response_check_in_compare_fail():
    with pytest.raises(ExpectationFailed, match="unknown check"):
        run_check(Check("nope", {}, MUST), None, {}, {})
    with pytest.raises(ExpectationFailed, match="cannot run in a compare step"):
        run_check(Check("structured_matches_text", {}, MUST), None, {}, {})


def test_numbers_compare_at_32_bit_precision():
    f32_point_eight = 0.800000011920929  # what a server scoring in f32 sends for 0.8
    assert canonical_numbers({"a": [f32_point_eight, 5.0, 2, True, "x"]}) == {"a": [0.8, 5.0, 2, True, "x"]}
    assert canonical_numbers(12.345678901) == 12.34568


class _Result:
    def __init__(self, raw):
        self.raw = raw

    def model_dump(self, **_):
        return self.raw


def test_payload_is_structured_content_else_the_first_text_item():
    assert to_response(_Result({"structuredContent": {"a": 1}, "content": []})).payload == {"a": 1}
    from_text = to_response(_Result({"content": [{"type": "text", "text": '{"b": 2}'}], "isError": True}))
    assert from_text.payload == {"b": 2} and from_text.is_error and from_text.structured is None


@pytest.mark.parametrize(("raw", "message"), [
    ({"content": []}, "no structuredContent and no text content item"),
    ({"content": [{"type": "text", "text": "hello"}]}, "the first text item is not JSON"),
    ({"content": [{"type": "text", "text": "[1, 2]"}]}, "expected a JSON object"),
])
def test_malformed_payloads_are_server_failures(raw, message):
    with pytest.raises(ServerFailure, match=message):
        to_response(_Result(raw))


# ---------------------------------------------------------------- nothing selected is nothing judged

def test_a_check_whose_operand_selects_nothing_fails_instead_of_passing():
    judge = Judge()
    for path in ("results[*].result_id", "metadata.startup_checks"):  # an empty projection, a missing field
        with pytest.raises(ExpectationFailed, match="selected nothing"):
            judge.answer(parse_expect({"checks": [{"check": "unique", "path": path}]}, MUST),
                         answer({"results": [{"path": "a"}], "metadata": {}}), {})
    with pytest.raises(ExpectationFailed, match="selected nothing"):
        run_check(Check("equal", {"a": "$x", "b": "$y"}, MUST), None, {}, {"x": None, "y": None})


def test_when_present_leaves_the_check_unjudged_and_says_so():
    judge = judged({"checks": [{"check": "unique", "path": "results[*].result_id", "when_present": True},
                               {"check": "count_equals", "path": "results", "n": 1}]},
                   answer({"results": [{"path": "a"}]}))
    assert judge.findings == []
    assert [(note.check, note.reason) for note in judge.not_judged] == \
        [("unique", "'results[*].result_id' selected nothing (when_present)")]
    judge.conclude(MUST)  # count_equals judged: the scenario judged something


def test_an_operand_the_check_declares_may_be_empty_is_judged():
    assert run_check(Check("count_equals", {"path": "metadata.ranking_reasons", "n": 0}, MUST),
                     None, {"metadata": {}}, {}) is None
    assert run_check(Check("not_contains", {"path": "metadata.warnings", "value": "x"}, MUST),
                     None, {"metadata": {}}, {}) is None


def test_a_scenario_whose_checks_all_selected_nothing_fails_as_nothing_judged():
    judge = judged({"checks": [{"check": "each_in", "path": "results[*].result_type", "allowed": ["symbol"],
                                "when_present": True}]}, answer({"results": []}))
    with pytest.raises(ExpectationFailed, match="nothing judged"):
        judge.conclude(MUST)
    assert judge.findings[-1].check == "nothing_judged"


def test_a_scenario_judged_by_its_expected_error_alone_is_judged():
    judge = judged({"error_code": "invalid_input"}, answer(ERROR, is_error=True))
    judge.conclude(MUST)
    assert judge.findings == []
