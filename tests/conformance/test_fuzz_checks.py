"""Every fuzz check passes one observation and flags another, saying why; each rests on a basis (conformance.model)."""

from __future__ import annotations

import json

import pytest

from cruxgate.conformance.fuzz.calls import Observation
from cruxgate.conformance.fuzz.checks import FUZZ_CHECKS, Context, run_checks
from cruxgate.conformance.fuzz.odd_values import CANARY_MARKER
from cruxgate.conformance.fuzz.validity import Validity
from cruxgate.conformance.spec.model import BASIS_KINDS, DOCUMENT, READING, READING_REF, Basis
from cruxgate.conformance.spec.schemas import schema
from cruxgate.conformance.target.wire import Response, ServerFailure, WireDefect

METADATA = {"cruxe_protocol_version": "1", "freshness_status": "fresh", "indexing_status": "ready",
            "result_completeness": "complete", "ref": "live", "schema_status": "compatible"}
VALID, INVALID = Validity(), Validity(("advertised schema at .query: 42 is not of type 'string'",), True)
SPEC_ONLY = Validity(("spec schema at .query: 42 is not of type 'string'",), False)  # the target may accept it (R21)
DEFINED_BY = Basis(DOCUMENT, "001 > FR-101", "MUST")
OUTPUT = Context(output_schema=schema("search_code.output"), output_basis=DEFINED_BY)


def answer(payload, is_error=False, text=None, structured=None):
    text = json.dumps(payload) if text is None else text
    return Response(payload=payload, structured=structured, text=text, is_error=is_error,
                    raw={"content": [{"type": "text", "text": text}], "isError": is_error})


def envelope(code, is_error=True):
    return answer({"error": {"code": code, "message": "no"}, "metadata": METADATA}, is_error=is_error)


def failed(kind, rpc_code=None):
    return ServerFailure(f"tools/call search_code: {kind}").tagged(kind, rpc_code)


def observe(validity=VALID, response=None, failure=None, recovery=None, defects=()):
    return Observation("search_code", {"query": "x"}, validity, response=response, failure=failure,
                       recovery=recovery, markers=(CANARY_MARKER,), defects=defects)


SUCCESS = answer({"results": [{"path": "src/a.py", "line_start": 1, "line_end": 2}], "metadata": METADATA})
# check id -> (a passing observation, a failing one, words the message must contain)
CASES = {
    "FZ-ALIVE": (observe(response=SUCCESS), observe(failure=failed("hang")), "hang"),
    "FZ-READABLE": (observe(response=SUCCESS), observe(failure=failed("oversized")), "oversized"),
    "FZ-STRUCTURED-TEXT": (observe(response=answer({"a": 1}, structured={"a": 1})),
                           observe(response=answer({"a": 1}, structured={"a": 2})), "structuredContent"),
    "FZ-WIRE": (observe(response=SUCCESS),
                observe(response=SUCCESS, defects=(WireDefect("not_json", "a line that is not JSON: 'DEBUG x'"),)),
                "a line that is not JSON: 'DEBUG x'"),
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
                            "accepted an input its own input schema rejects"),
    "FZ-INVALID-CODE": (observe(INVALID, response=envelope("invalid_input")),
                        observe(INVALID, response=envelope("file_not_found")), "'file_not_found'"),
    "FZ-CONTAINED": (observe(response=SUCCESS),
                     observe(response=answer({"results": [], "metadata": METADATA, "x": CANARY_MARKER})),
                     CANARY_MARKER),
    "FZ-RECOVERS": (observe(response=SUCCESS), observe(response=SUCCESS, recovery=failed("closed")),
                    "known-good call"),
}


def test_every_check_has_a_case_an_id_and_a_basis():
    assert set(CASES) == set(FUZZ_CHECKS)
    for check in FUZZ_CHECKS.values():
        assert isinstance(check.basis, Basis) and check.basis.kind in BASIS_KINDS, check
        if check.basis.kind == READING:  # a reading of ours warns at most and names its entry of spec/readings.yaml
            assert check.basis.level == READING and READING_REF.match(f"reading {check.basis.ref}"), check
        else:
            assert check.basis.level in ("MUST", "SHOULD") and check.basis.ref, check


@pytest.mark.parametrize("check_id", sorted(CASES))
def test_check_passes_and_flags(check_id):
    passing, failing, words = CASES[check_id]
    check = FUZZ_CHECKS[check_id]
    assert check(passing, OUTPUT) is None
    message = check(failing, OUTPUT)
    assert message and words in message, message


def test_only_document_musts_and_the_registry_gate():
    gating = {check.id for check in FUZZ_CHECKS.values() if check.basis_in(OUTPUT).gates}
    assert gating == {"FZ-ALIVE", "FZ-READABLE", "FZ-NO-RPC-ERROR", "FZ-ENVELOPE", "FZ-OUTPUT"}
    # MCP rules and readings warn, as they do in the scenarios; pytest's --strict fails them.
    assert FUZZ_CHECKS["FZ-ISERROR"].basis.kind == "mcp" and FUZZ_CHECKS["FZ-WIRE"].basis.kind == "mcp"
    assert FUZZ_CHECKS["FZ-NO-INTERNAL-ERROR"].basis.kind == "reading"


def test_the_output_contract_rests_on_the_document_that_defines_the_tool():
    assert FUZZ_CHECKS["FZ-OUTPUT"].basis_in(OUTPUT) == DEFINED_BY
    assert FUZZ_CHECKS["FZ-OUTPUT"].basis_in(Context()).kind == DOCUMENT  # the generic anchor, still a MUST
    assert FUZZ_CHECKS["FZ-ALIVE"].basis_in(OUTPUT) is FUZZ_CHECKS["FZ-ALIVE"].basis


def test_only_the_tools_own_schema_binds_it_to_refuse_an_input():
    assert FUZZ_CHECKS["FZ-INVALID-REJECTED"](observe(SPEC_ONLY, response=SUCCESS), OUTPUT) is None
    assert FUZZ_CHECKS["FZ-INVALID-CODE"](observe(SPEC_ONLY, response=envelope("file_not_found")), OUTPUT)


def test_an_answer_that_quotes_its_input_is_no_leak():
    # A 2,000-example run against the reference drew "root:x:0:0:" into a ref and a query (hypothesis mines
    # string constants from the code it runs); the answers quoted them back.
    quoted = Observation("search_preview", {"query": "root:x:0:0:"}, VALID, markers=("root:x:0:0:",),
                         response=answer({"query": "root:x:0:0:", "results": []}))
    assert FUZZ_CHECKS["FZ-CONTAINED"](quoted, OUTPUT) is None
    leaked = Observation("get_file_outline", {"path": "/etc/passwd"}, VALID, markers=("root:x:0:0:",),
                         response=answer({"symbols": [{"signature": "root:x:0:0:root:/root:/bin/bash"}]}))
    assert FUZZ_CHECKS["FZ-CONTAINED"](leaked, OUTPUT)


def test_a_wire_defect_of_each_kind_is_a_bug_of_its_own():
    def kind(defect_kind):
        return FUZZ_CHECKS["FZ-WIRE"].signature(observe(defects=(WireDefect(defect_kind, "x"),)))

    assert kind("not_json") != kind("notification_reply")


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


def test_each_defined_tool_judges_its_payload_on_a_quoted_sentence_or_warns_on_a_reading():
    from cruxgate.conformance.fuzz.session import Tool
    from cruxgate.conformance.spec.loader import load_documents, tool_rules

    rules = tool_rules(load_documents())
    bases = {name: Tool(name, None, None, schema(f"{name}.output"), rule).context.output_basis
             for name, rule in rules.items()}
    for name, basis in bases.items():
        assert basis is not None and (basis.quote is not None and basis.quote.normative if basis.gates
                                      else basis.kind == READING), name
    assert bases["get_file_outline"].quote.line == 19 and bases["get_file_outline"].gates
    # 002 states its payloads without a normative word: a scored-search payload off its schema warns.
    broken = observe(response=answer({"query": "q", "results": "none"}))
    search = Context(output_schema=schema("search.output"), output_basis=bases["search"])
    [(check, _)] = [(check, message) for check, message in run_checks(broken, search) if check.id == "FZ-OUTPUT"]
    assert not check.basis_in(search).gates and check.basis_in(search).reading == "R36"
