"""The named checks on every fuzz answer, each with an id and the basis it rests on (conformance.model.Basis).

A check takes one Observation (conformance/fuzz/calls.py) and the tool's Context and returns None, or a
one-line message saying what broke. Verdicts follow the gate's rule for every check: a basis that gates
(a document MUST, the error registry) fails the fuzz item; any other (a SHOULD, an MCP rule, a reading of
ours) is a warning, and pytest's `--strict` fails it too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jsonschema.exceptions import best_match

from cruxgate.conformance.checks.registry import CheckFailed, structured_matches_text
from cruxgate.conformance.fuzz.calls import Observation
from cruxgate.conformance.spec.model import (
    DOCUMENT,
    MCP,
    MCP_IS_ERROR,
    MCP_STDIO,
    MCP_STRUCTURED_TEXT,
    REGISTRY,
    REGISTRY_ENVELOPE,
    Basis,
    Quote,
    reading,
)
from cruxgate.conformance.spec.schemas import validator_for

ENVELOPE_ID = "https://cruxgate.dev/schemas/error-envelope.json"
INVALID_PARAMS = -32602  # JSON-RPC "Invalid params": MCP's answer to arguments that break the input schema
AP_ERRORS = "000 > Requirement: Protocol error registry conformance is transport-consistent"

# The bases of the checks (docs/conformance.md, "The fuzz phase"; the readings are R22 in docs/readings.md).
NO_ENVELOPE = Basis(DOCUMENT, f"{AP_ERRORS}: a crash, a hang or a JSON-RPC error in place of the tool result "
                    "emits no envelope", "MUST",
                    Quote("000", 86, "All MCP tool failures MUST emit the canonical error envelope"))
READABLE = Basis(REGISTRY, "error registry: a tool answers its payload or, on a hard failure, the envelope "
                 "{error: {code, message, data?}} (seeds/README.md, 'Referenced but not provided'); an answer "
                 "the client cannot read as either is neither", "MUST", REGISTRY_ENVELOPE.quote)
# Each tool's own basis replaces it (basis_in): the sentence its spec `tools` entry quotes as `output`, or a reading.
OUTPUT_CONTRACT = Basis(DOCUMENT, "the sentence the spec's tools table quotes as the tool's output (spec/*.yaml "
                        "tools); its payload contract is schemas/<tool>.output.schema.json", "MUST")
MCP_OUTPUT_SCHEMA = Basis(MCP, "MCP specification, tools: a tool that declares an outputSchema MUST return "
                          "structured results that conform to it", "MUST")
MCP_VALIDATE = Basis(MCP, "MCP specification, tools, security: servers MUST validate all tool inputs", "MUST")
MCP_ACCESS = Basis(MCP, "MCP specification, tools, security: servers MUST implement proper access controls "
                   "(a path outside the workspace gets an error, never file content)", "MUST")
# Readings of R22 (spec/readings.yaml): internal_error reports a fault of the server, which no input may trigger;
# the registry's validation code for bad arguments is invalid_input (000's scenario 'Equivalent invalid input
# maps to same protocol error code' asks only for one canonical code); one bad input must not poison the server
# for the next call.
NO_INTERNAL_ERROR = INVALID_INPUT_CODE = RECOVERS = reading("R22")


@dataclass(frozen=True)
class Context:
    """What the checks know about the tool besides one observation."""

    output_schema: dict[str, Any] | None = None  # the spec's success payload schema, when it has one
    output_basis: Basis | None = None  # the tool's `output` basis in the spec's tools table (FZ-OUTPUT's)


@dataclass(frozen=True)
class FuzzCheck:
    """A named check: id, what it requires, the basis of the rule, and the function that judges."""

    id: str
    title: str
    basis: Basis
    function: Callable[[Observation, Context], str | None]
    kind: Callable[[Observation], str] | None = None  # tells distinct bugs of this check apart (default: one)

    def __call__(self, observation: Observation, context: Context) -> str | None:
        """None when the observation passes, else what broke."""
        return self.function(observation, context)

    def basis_in(self, context: Context) -> Basis:
        """The basis for one tool: FZ-OUTPUT rests on the tool's `output` (quoted or a reading), the rest on theirs."""
        return context.output_basis if self.basis is OUTPUT_CONTRACT and context.output_basis else self.basis

    def signature(self, observation: Observation) -> str:
        """What makes a finding of this check a bug of its own: the id, plus the kind of failure where it tells."""
        return f"{self.id}: {self.kind(observation)}" if self.kind is not None else self.id


FUZZ_CHECKS: dict[str, FuzzCheck] = {}


def fuzz_check(check_id: str, title: str, basis: Basis,
               kind: Callable[[Observation], str] | None = None) -> Callable[[Callable[..., str | None]], FuzzCheck]:
    """Register a check function under `check_id`."""
    def register(function: Callable[..., str | None]) -> FuzzCheck:
        check = FuzzCheck(check_id, title, basis, function, kind)
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


def _strings(value: Any) -> list[str]:
    """Every string `value` holds, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (*_strings(key), *_strings(item))]
    return []


def _is_error(observation: Observation) -> bool:
    response = observation.response
    return response is not None and (response.is_error or "error" in response.payload)


def _schema_problem(instance: Any, schema: Any) -> str | None:
    error = best_match(validator_for(schema).iter_errors(instance))
    if error is None:
        return None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "(root)"
    return f"at {where} (keyword {error.validator}): {error.message[:300]}"


@fuzz_check("FZ-ALIVE", "The server neither dies nor hangs on a call", NO_ENVELOPE)
def alive(observation: Observation, context: Context) -> str | None:
    failure = observation.failure
    if failure is not None and failure.kind in ("hang", "closed"):
        return _first_line(failure)
    return None


@fuzz_check("FZ-READABLE", "The answer is a readable tool result with one JSON object payload", READABLE)
def readable(observation: Observation, context: Context) -> str | None:
    failure = observation.failure
    if failure is not None and failure.kind in ("unreadable", "malformed", "oversized"):
        return _first_line(failure)
    return None


@fuzz_check("FZ-STRUCTURED-TEXT", "structuredContent and the text item carry the same object", MCP_STRUCTURED_TEXT)
def structured_text(observation: Observation, context: Context) -> str | None:
    response = observation.response
    if response is None or response.structured is None or response.text is None:
        return None
    try:
        structured_matches_text(response)
    except CheckFailed as exc:
        return str(exc)
    return None


def _defect_kind(observation: Observation) -> str:
    return observation.defects[0].kind if observation.defects else ""


@fuzz_check("FZ-WIRE", "The call leaves stdout clean: only JSON-RPC messages, no reply to a notification", MCP_STDIO,
            kind=_defect_kind)
def wire(observation: Observation, context: Context) -> str | None:
    if not observation.defects:
        return None
    more = f" (and {len(observation.defects) - 1} more)" if len(observation.defects) > 1 else ""
    return f"while answering, the server wrote {observation.defects[0].detail}{more}"


@fuzz_check("FZ-NO-RPC-ERROR", "No JSON-RPC error in place of a tool result (-32602 only for schema-invalid input)",
            NO_ENVELOPE)
def no_rpc_error(observation: Observation, context: Context) -> str | None:
    failure = observation.failure
    if failure is None or failure.kind != "rpc_error":
        return None
    if failure.rpc_code == INVALID_PARAMS and not observation.validity.valid:
        return None  # MCP lets a server refuse schema-invalid arguments at the protocol level
    return _first_line(failure)


@fuzz_check("FZ-ENVELOPE", "A tool failure is the canonical error envelope with a registry code", REGISTRY_ENVELOPE)
def envelope(observation: Observation, context: Context) -> str | None:
    if observation.response is None or not _is_error(observation):
        return None
    problem = _schema_problem(observation.response.payload, {"$ref": ENVELOPE_ID})
    if problem:
        return f"the failure payload breaks the error envelope {problem}: {_short(observation.response.payload)}"
    return None


@fuzz_check("FZ-ISERROR", "An error envelope comes with isError: true", MCP_IS_ERROR)
def is_error_flag(observation: Observation, context: Context) -> str | None:
    response = observation.response
    if response is not None and isinstance(response.payload.get("error"), dict) and not response.is_error:
        return f"the answer carries error {observation.error_code()!r} but isError is not true"
    return None


def _internal_error_kind(observation: Observation) -> str:
    """The server's message without the values it quotes: an overflow and a bad pattern are two bugs."""
    message = str(observation.response.payload["error"].get("message")) if observation.response else ""
    return re.sub(r"\d+", "0", re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", message))[:120]


@fuzz_check("FZ-NO-INTERNAL-ERROR", "No input makes the server fail with internal_error", NO_INTERNAL_ERROR,
            kind=_internal_error_kind)
def no_internal_error(observation: Observation, context: Context) -> str | None:
    if observation.response is not None and observation.error_code() == "internal_error":
        return f"internal_error: {observation.response.payload['error'].get('message')!r}"
    return None


@fuzz_check("FZ-OUTPUT", "A success payload matches the spec's output schema for the tool", OUTPUT_CONTRACT)
def output(observation: Observation, context: Context) -> str | None:
    if observation.response is None or _is_error(observation) or context.output_schema is None:
        return None
    problem = _schema_problem(observation.response.payload, context.output_schema)
    return f"the success payload breaks {context.output_schema.get('$id', 'the output schema')} {problem}" \
        if problem else None


@fuzz_check("FZ-OUTPUT-ADVERTISED", "structuredContent matches the outputSchema the tool advertises", MCP_OUTPUT_SCHEMA)
def output_advertised(observation: Observation, context: Context) -> str | None:
    failure = observation.failure
    return _first_line(failure) if failure is not None and failure.kind == "invalid_output" else None


@fuzz_check("FZ-INVALID-REJECTED", "Input the tool's own input schema rejects is refused, not answered as a success",
            MCP_VALIDATE)
def invalid_rejected(observation: Observation, context: Context) -> str | None:
    # Only the schema the server publishes binds it here: a target may accept more than the spec's (R21).
    if not observation.validity.rejected_by_own or observation.response is None or _is_error(observation):
        return None
    return f"accepted an input its own input schema rejects ({observation.validity.describe()})"


@fuzz_check("FZ-INVALID-CODE", "Schema-invalid input is refused with invalid_input", INVALID_INPUT_CODE)
def invalid_code(observation: Observation, context: Context) -> str | None:
    code = observation.error_code()
    if observation.validity.valid or code in (None, "invalid_input", "internal_error"):
        return None  # internal_error is FZ-NO-INTERNAL-ERROR's
    return f"refused with {code!r} where the registry's code for bad arguments is invalid_input " \
           f"({observation.validity.describe()})"


@fuzz_check("FZ-CONTAINED", "No file content from outside the workspace reaches an answer", MCP_ACCESS)
def contained(observation: Observation, context: Context) -> str | None:
    text = observation.answer_text()
    # An answer may quote its input (an error naming the ref, a query echoed back): a marker the arguments
    # hold is no leak. (Hypothesis draws string constants from the code it runs, the markers among them.)
    echoed = _strings(observation.arguments)
    leaked = [marker for marker in observation.markers
              if marker in text and not any(marker in value for value in echoed)]
    return f"the answer carries {', '.join(map(repr, leaked))}, content of a file outside the workspace" \
        if leaked else None


@fuzz_check("FZ-RECOVERS", "The server still answers a known-good call afterwards", RECOVERS)
def recovers(observation: Observation, context: Context) -> str | None:
    return f"the known-good call after it failed: {_first_line(observation.recovery)}" \
        if observation.recovery is not None else None
