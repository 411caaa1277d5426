"""The named checks on every fuzz answer, each with an id, a level and the basis it rests on.

A check takes one Observation (conformance/fuzz/calls.py) and the tool's Context and returns None, or a
one-line message saying what broke. Levels follow the gate: a MUST finding fails the run; a SHOULD
finding (conventions, and rules we read into the documents) is a warning unless --gate-levels makes
SHOULD gate. A basis is `seed <anchor>`, `registry: <file>`, `mcp: <rule>` (the MCP specification) or
`reading: <why>` (a rule of ours, said why).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable

from jsonschema.exceptions import best_match

from conformance.checks import CheckFailed, structured_matches_text
from conformance.fuzz.calls import Observation
from conformance.schema_registry import validator_for

ENVELOPE_ID = "https://cruxgate.dev/schemas/error-envelope.json"
INVALID_PARAMS = -32602  # JSON-RPC "Invalid params": MCP's answer to arguments that break the input schema
AP_ERRORS = "seed 000 > Requirement: Protocol error registry conformance is transport-consistent"
AP_ERRORS_SCENARIO = "seed 000 > Scenario: Equivalent invalid input maps to same protocol error code"


@dataclass(frozen=True)
class Context:
    """What the checks know about the tool besides one observation."""

    output_schema: dict[str, Any] | None = None  # the spec's success payload schema, when it has one


@dataclass(frozen=True)
class FuzzCheck:
    """A named check: id, what it requires, its level and the basis of the rule."""

    id: str
    title: str
    level: str
    basis: str
    function: Callable[[Observation, Context], str | None]
    kind: Callable[[Observation], str] | None = None  # tells distinct bugs of this check apart (default: one)

    def __call__(self, observation: Observation, context: Context) -> str | None:
        """None when the observation passes, else what broke."""
        return self.function(observation, context)

    def signature(self, observation: Observation) -> str:
        """What makes a finding of this check a bug of its own: the id, plus the kind of failure where it tells."""
        return f"{self.id}: {self.kind(observation)}" if self.kind is not None else self.id


FUZZ_CHECKS: dict[str, FuzzCheck] = {}


def fuzz_check(check_id: str, title: str, level: str, basis: str,
               kind: Callable[[Observation], str] | None = None) -> Callable[[Callable[..., str | None]], FuzzCheck]:
    """Register a check function under `check_id`."""
    def register(function: Callable[..., str | None]) -> FuzzCheck:
        check = FuzzCheck(check_id, title, level, basis, function, kind)
        FUZZ_CHECKS[check_id] = check
        return check
    return register


def run_checks(observation: Observation, context: Context,
               excluded: frozenset[str] = frozenset()) -> list[tuple[FuzzCheck, str]]:
    """Every check (but the excluded ids) that fails on `observation`, with its message, in registry order."""
    found = []
    for check in FUZZ_CHECKS.values():
        if check.id in excluded:
            continue
        message = check(observation, context)
        if message:
            found.append((check, message))
    return found


def _first_line(failure: BaseException) -> str:
    return (str(failure).splitlines() or [""])[0]


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _is_error(observation: Observation) -> bool:
    response = observation.response
    return response is not None and (response.is_error or "error" in response.payload)


def _schema_problem(instance: Any, schema: Any) -> str | None:
    error = best_match(validator_for(schema).iter_errors(instance))
    if error is None:
        return None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "(root)"
    return f"at {where} (keyword {error.validator}): {error.message[:300]}"


@fuzz_check("FZ-ALIVE", "The server neither dies nor hangs on a call", "MUST",
            "mcp: every request gets a response (base protocol; lifecycle: timeouts)")
def alive(observation: Observation, context: Context) -> str | None:
    failure = observation.failure
    if failure is not None and failure.kind in ("hang", "closed"):
        return _first_line(failure)
    return None


@fuzz_check("FZ-READABLE", "The answer is a readable tool result with one JSON payload", "MUST",
            "mcp: tools/call answers a CallToolResult on a clean stdout; reading: the payload is structuredContent "
            "or the JSON object of the first text item, equal when both (docs/conformance.md)")
def readable(observation: Observation, context: Context) -> str | None:
    failure = observation.failure
    if failure is not None and failure.kind in ("unreadable", "garbage", "malformed", "oversized"):
        return _first_line(failure)
    if observation.response is not None:
        try:
            structured_matches_text(observation.response)
        except CheckFailed as exc:
            return str(exc)
    return None


@fuzz_check("FZ-NO-RPC-ERROR", "No JSON-RPC error in place of a tool result (-32602 only for schema-invalid input)",
            "MUST", f"{AP_ERRORS} (transports add no protocol-level codes); mcp: -32602 for invalid arguments")
def no_rpc_error(observation: Observation, context: Context) -> str | None:
    failure = observation.failure
    if failure is None or failure.kind != "rpc_error":
        return None
    if failure.rpc_code == INVALID_PARAMS and not observation.validity.valid:
        return None  # MCP lets a server refuse schema-invalid arguments at the protocol level
    return _first_line(failure)


@fuzz_check("FZ-ENVELOPE", "A tool failure is the canonical error envelope with a registry code", "MUST",
            "registry: schemas/error-envelope.schema.json, schemas/error-codes.schema.json")
def envelope(observation: Observation, context: Context) -> str | None:
    if not _is_error(observation):
        return None
    problem = _schema_problem(observation.response.payload, {"$ref": ENVELOPE_ID})
    if problem:
        return f"the failure payload breaks the error envelope {problem}: {_short(observation.response.payload)}"
    return None


@fuzz_check("FZ-ISERROR", "An error envelope comes with isError: true", "SHOULD",
            "mcp: tool errors are reported in the result with isError (a convention the registry assumes)")
def is_error_flag(observation: Observation, context: Context) -> str | None:
    response = observation.response
    if response is not None and isinstance(response.payload.get("error"), dict) and not response.is_error:
        return f"the answer carries error {observation.error_code()!r} but isError is not true"
    return None


def _internal_error_kind(observation: Observation) -> str:
    """The server's message without the values it quotes: an overflow and a bad pattern are two bugs."""
    message = str(observation.response.payload["error"].get("message")) if observation.response else ""
    return re.sub(r"\d+", "0", re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", message))[:120]


@fuzz_check("FZ-NO-INTERNAL-ERROR", "No input makes the server fail with internal_error", "MUST",
            "reading: internal_error reports a fault of the server, which no input may trigger "
            "(Schemathesis' not_a_server_error); a bad input is invalid_input", kind=_internal_error_kind)
def no_internal_error(observation: Observation, context: Context) -> str | None:
    if observation.error_code() == "internal_error":
        return f"internal_error: {observation.response.payload['error'].get('message')!r}"
    return None


@fuzz_check("FZ-OUTPUT", "A success payload matches the spec's output schema for the tool", "MUST",
            "seed: the payload contract, schemas/<tool>.output.schema.json")
def output(observation: Observation, context: Context) -> str | None:
    if observation.response is None or _is_error(observation) or context.output_schema is None:
        return None
    problem = _schema_problem(observation.response.payload, context.output_schema)
    return f"the success payload breaks {context.output_schema.get('$id', 'the output schema')} {problem}" \
        if problem else None


@fuzz_check("FZ-OUTPUT-ADVERTISED", "structuredContent matches the outputSchema the tool advertises", "MUST",
            "mcp: a tool with an outputSchema MUST return structured results that conform to it")
def output_advertised(observation: Observation, context: Context) -> str | None:
    failure = observation.failure
    return _first_line(failure) if failure is not None and failure.kind == "invalid_output" else None


@fuzz_check("FZ-INVALID-REJECTED", "Schema-invalid input is refused, not answered as a success", "SHOULD",
            f"mcp: servers MUST validate all tool inputs; {AP_ERRORS_SCENARIO}")
def invalid_rejected(observation: Observation, context: Context) -> str | None:
    if observation.validity.valid or observation.response is None or _is_error(observation):
        return None
    return f"accepted an input the schemas reject ({observation.validity.describe()})"


@fuzz_check("FZ-INVALID-CODE", "Schema-invalid input is refused with invalid_input", "SHOULD",
            f"{AP_ERRORS_SCENARIO} (a wrong type, a missing argument, an unknown enum value: invalid_input)")
def invalid_code(observation: Observation, context: Context) -> str | None:
    code = observation.error_code()
    if observation.validity.valid or code in (None, "invalid_input", "internal_error"):
        return None  # internal_error is FZ-NO-INTERNAL-ERROR's
    return f"refused with {code!r} where the registry's code for bad arguments is invalid_input " \
           f"({observation.validity.describe()})"


@fuzz_check("FZ-CONTAINED", "No file content from outside the workspace reaches an answer", "MUST",
            f"{AP_ERRORS_SCENARIO} (a path outside the workspace: an error, never file content)")
def contained(observation: Observation, context: Context) -> str | None:
    text = observation.answer_text()
    leaked = [marker for marker in observation.markers if marker in text]
    return f"the answer carries {', '.join(map(repr, leaked))}, content of a file outside the workspace" \
        if leaked else None


@fuzz_check("FZ-RECOVERS", "The server still answers a known-good call afterwards", "MUST",
            "reading: one bad input must not poison the server for the next client call (docs/server.md: "
            "the server keeps serving)")
def recovers(observation: Observation, context: Context) -> str | None:
    return f"the known-good call after it failed: {_first_line(observation.recovery)}" \
        if observation.recovery is not None else None
