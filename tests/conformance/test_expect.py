"""Judging one answer: outcome and registry code, schema errors with their path, checks with captures."""

from __future__ import annotations

import json

import pytest

from conformance.expect import ExpectationFailed, capture, check_answer, resolve, run_check
from conformance.wire import Response, ServerFailure, to_response


def answer(payload, is_error=False, text=None):
    return Response(payload=payload, structured=payload, text=json.dumps(payload) if text is None else text,
                    is_error=is_error, raw={})


ERROR = {"error": {"code": "invalid_input", "message": "query must not be empty"}}


def test_resolve_reads_captures_and_jmespath():
    captures = {"ids": [1, 2]}
    assert resolve("$ids", None, captures) == [1, 2]
    assert resolve("results[*].score", {"results": [{"score": 2}, {"score": 1}]}, captures) == [2, 1]
    assert resolve(3, None, captures) == 3
    with pytest.raises(ExpectationFailed, match=r"\$nope was never captured"):
        resolve("$nope", None, captures)


def test_expected_error_with_registry_code_passes():
    check_answer({"outcome": "error", "error_code": "invalid_input"}, answer(ERROR, is_error=True), {})


@pytest.mark.parametrize(("expect", "response", "message"), [
    ({}, answer(ERROR, is_error=True), "expected success, the tool failed with 'invalid_input'"),
    ({"outcome": "error"}, answer({"results": []}), "expected an error, the tool succeeded"),
    ({"error_code": "file_not_found"}, answer(ERROR, is_error=True), "expected error code 'file_not_found', got 'invalid_input'"),
    ({"outcome": "error"}, answer({"error": {"code": "bad_request", "message": "m"}}, is_error=True),
     "error code 'bad_request' breaks the schema"),
    ({"outcome": "error"}, answer(ERROR, is_error=False), "isError is not true"),
    ({"outcome": "error"}, answer({"error": "boom"}, is_error=True), "must carry the envelope"),
])
def test_outcome_rules(expect, response, message):
    with pytest.raises(ExpectationFailed) as info:
        check_answer(expect, response, {})
    assert message in str(info.value)


def test_outcome_any_accepts_success_or_a_canonical_error():
    check_answer({"outcome": "any"}, answer({"results": []}), {})
    check_answer({"outcome": "any"}, answer(ERROR, is_error=True), {})
    with pytest.raises(ExpectationFailed, match="isError is not true"):
        check_answer({"outcome": "any"}, answer(ERROR), {})


def test_schema_failure_names_path_and_keyword():
    schema = {"properties": {"metadata": {"properties": {"indexing_status": {"enum": ["ready"]}}}}}
    with pytest.raises(ExpectationFailed) as info:
        check_answer({"schema": schema}, answer({"metadata": {"indexing_status": "idle"}}), {})
    assert "at .metadata.indexing_status (keyword enum)" in str(info.value)


def test_schema_ref_resolves_to_a_schemas_id():
    check_answer({"outcome": "error", "schema": {"properties": {"error": {"properties": {
        "code": {"$ref": "https://cruxgate.dev/schemas/error-codes.json"}}}}}}, answer(ERROR, is_error=True), {})


def test_structured_and_text_must_agree_on_every_answer():
    with pytest.raises(ExpectationFailed, match="structuredContent and the text item differ"):
        check_answer({}, answer({"results": []}, text='{"results": [1]}'), {})


def test_checks_and_captures_chain_across_steps():
    captures: dict = {}
    capture({"ids": "results[*].id"}, {"results": [{"id": "a"}, {"id": "b"}]}, captures)
    capture({"ids_compact": "results[*].id"}, {"results": [{"id": "b"}, {"id": "a"}]}, captures)
    with pytest.raises(ExpectationFailed, match="check same_sequence"):
        run_check({"check": "same_sequence", "a": "$ids", "b": "$ids_compact"}, None, captures, captures)
    run_check({"check": "equal", "a": "ids[0]", "b": "ids_compact[1]"}, None, captures, captures)


def test_unknown_check_and_response_check_in_compare_fail():
    with pytest.raises(ExpectationFailed, match="unknown check"):
        run_check({"check": "nope"}, None, {}, {})
    with pytest.raises(ExpectationFailed, match="cannot run in a compare step"):
        run_check({"check": "structured_matches_text"}, None, {}, {})


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
