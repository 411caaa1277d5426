"""Every fuzz check passes one observation and flags another, saying why; each declares its level and basis."""

from __future__ import annotations

import json

import pytest

from conformance.fuzz.calls import Observation
from conformance.fuzz.checks import FUZZ_CHECKS, Context, run_checks
from conformance.fuzz.odd_values import CANARY_MARKER
from conformance.fuzz.validity import Validity
from conformance.schema_registry import schema
from conformance.wire import Response, ServerFailure

METADATA = {"cruxe_protocol_version": "1", "freshness_status": "fresh", "indexing_status": "ready",
            "result_completeness": "complete", "ref": "live", "schema_status": "compatible"}
VALID, INVALID = Validity(), Validity(("advertised schema at .query: 42 is not of type 'string'",))
OUTPUT = Context(output_schema=schema("search_code.output"))


def answer(payload, is_error=False, text=None):
    text = json.dumps(payload) if text is None else text
    return Response(payload=payload, structured=None, text=text, is_error=is_error,
                    raw={"content": [{"type": "text", "text": text}], "isError": is_error})


def envelope(code, is_error=True):
    return answer({"error": {"code": code, "message": "no"}, "metadata": METADATA}, is_error=is_error)


def failed(kind, rpc_code=None):
    return ServerFailure(f"tools/call search_code: {kind}").tagged(kind, rpc_code)


def observe(validity=VALID, response=None, failure=None, recovery=None):
    return Observation("search_code", {"query": "x"}, validity, response=response, failure=failure,
                       recovery=recovery, markers=(CANARY_MARKER,))


SUCCESS = answer({"results": [{"path": "src/a.py", "line_start": 1, "line_end": 2}], "metadata": METADATA})
# check id -> (a passing observation, a failing one, words the message must contain)
CASES = {
    "FZ-ALIVE": (observe(response=SUCCESS), observe(failure=failed("hang")), "hang"),
    "FZ-READABLE": (observe(response=SUCCESS), observe(failure=failed("oversized")), "oversized"),
    "FZ-NO-RPC-ERROR": (observe(INVALID, failure=failed("rpc_error", -32602)),
                        observe(VALID, failure=failed("rpc_error", -32602)), "rpc_error"),
    "FZ-ENVELOPE": (observe(INVALID, response=envelope("invalid_input")),
                    observe(INVALID, response=envelope("bad_request")), "breaks the error envelope"),
    "FZ-ISERROR": (observe(INVALID, response=envelope("invalid_input")),
                   observe(INVALID, response=envelope("invalid_input", is_error=False)), "isError is not true"),
    "FZ-NO-INTERNAL-ERROR": (observe(response=envelope("symbol_not_found")),
                             observe(response=envelope("internal_error")), "internal_error"),
    "FZ-OUTPUT": (observe(response=SUCCESS), observe(response=answer({"results": []})),
                  "'metadata' is a required property"),
    "FZ-OUTPUT-ADVERTISED": (observe(response=SUCCESS), observe(failure=failed("invalid_output")), "invalid_output"),
    "FZ-INVALID-REJECTED": (observe(INVALID, response=envelope("invalid_input")), observe(INVALID, response=SUCCESS),
                            "accepted an input the schemas reject"),
    "FZ-INVALID-CODE": (observe(INVALID, response=envelope("invalid_input")),
                        observe(INVALID, response=envelope("file_not_found")), "'file_not_found'"),
    "FZ-CONTAINED": (observe(response=SUCCESS),
                     observe(response=answer({"results": [], "metadata": METADATA, "x": CANARY_MARKER})),
                     CANARY_MARKER),
    "FZ-RECOVERS": (observe(response=SUCCESS), observe(response=SUCCESS, recovery=failed("closed")),
                    "known-good call"),
}


def test_every_check_has_a_case_an_id_a_level_and_a_basis():
    assert set(CASES) == set(FUZZ_CHECKS)
    for check in FUZZ_CHECKS.values():
        assert check.level in ("MUST", "SHOULD")
        assert check.basis.split(" ", 1)[0].rstrip(":") in ("seed", "registry", "mcp", "reading"), check.basis


@pytest.mark.parametrize("check_id", sorted(CASES))
def test_check_passes_and_flags(check_id):
    passing, failing, words = CASES[check_id]
    check = FUZZ_CHECKS[check_id]
    assert check(passing, OUTPUT) is None
    message = check(failing, OUTPUT)
    assert message and words in message, message


def test_conventions_only_warn():
    assert FUZZ_CHECKS["FZ-ISERROR"].level == "SHOULD"
    assert FUZZ_CHECKS["FZ-INVALID-REJECTED"].level == "SHOULD"
    assert FUZZ_CHECKS["FZ-NO-INTERNAL-ERROR"].level == "MUST"


def test_two_kinds_of_internal_error_are_two_bugs_and_quoted_values_do_not_count():
    def kind(message):
        response = answer({"error": {"code": "internal_error", "message": message}}, is_error=True)
        return FUZZ_CHECKS["FZ-NO-INTERNAL-ERROR"].signature(observe(response=response))

    overflow = kind("find_references failed: OverflowError: Python int too large to convert to SQLite INTEGER")
    assert overflow != kind("find_references failed: OperationalError: LIKE or GLOB pattern too complex")
    assert kind("KeyError: 'abc' at 12") == kind("KeyError: 'xyz' at 345")
    assert FUZZ_CHECKS["FZ-ALIVE"].signature(observe(failure=failed("hang"))) == "FZ-ALIVE"


def test_an_excluded_check_is_not_run():
    broken = observe(response=answer({"results": []}))
    assert [check.id for check, _ in run_checks(broken, OUTPUT)] == ["FZ-OUTPUT"]
    assert run_checks(broken, OUTPUT, frozenset({"FZ-OUTPUT"})) == []


def test_a_valid_answer_passes_every_check():
    assert run_checks(observe(response=SUCCESS), OUTPUT) == []
    assert run_checks(observe(INVALID, failure=failed("rpc_error", -32602)), OUTPUT) == []
