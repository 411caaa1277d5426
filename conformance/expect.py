"""Judging one answer: outcome, error code, JSON Schema, named checks, and JMESPath captures."""

from __future__ import annotations

import inspect
import json
import re
from typing import Any

import jmespath
from jsonschema.exceptions import best_match

from conformance.checks import CHECKS, CheckFailed
from conformance.schema_registry import validator_for

ERROR_CODES_ID = "https://cruxgate.dev/schemas/error-codes.json"
OPERANDS = ("path", "a", "b", "total")
_CAPTURE = re.compile(r"^\$([a-z][a-z0-9_]*)$")


class ExpectationFailed(AssertionError):
    """An answer that breaks what the scenario requires; the message names the rule and the value."""


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def resolve(operand: Any, root: Any, captures: dict[str, Any]) -> Any:
    """`$name` -> a captured value; any other string -> JMESPath over `root`; anything else as is."""
    if not isinstance(operand, str):
        return operand
    match = _CAPTURE.match(operand)
    if match:
        if match.group(1) not in captures:
            raise ExpectationFailed(f"{operand} was never captured (an earlier step did not run or capture it)")
        return captures[match.group(1)]
    try:
        return jmespath.search(operand, root)
    except jmespath.exceptions.JMESPathError as exc:
        raise ExpectationFailed(f"bad JMESPath expression {operand!r}: {exc}") from None


def run_check(spec: dict[str, Any], response: Any, root: Any, captures: dict[str, Any]) -> None:
    """Resolve a check's arguments and run it; raises ExpectationFailed naming the check."""
    name = spec["check"]
    function = CHECKS.get(name)
    if function is None:
        raise ExpectationFailed(f"unknown check {name!r} (known: {', '.join(sorted(CHECKS))})")
    kwargs: dict[str, Any] = {}
    for param in inspect.signature(function).parameters:
        if param == "response":
            if response is None:
                raise ExpectationFailed(f"check {name} needs a tool answer; it cannot run in a compare step")
            kwargs[param] = response
        elif param in OPERANDS and param in spec:
            kwargs[param] = resolve(spec[param], root, captures)
        elif param == "parts" and "parts" in spec:
            kwargs[param] = [resolve(part, root, captures) for part in spec["parts"]]
        elif param in spec:
            kwargs[param] = spec[param]  # a literal, as written
    try:
        function(**kwargs)
    except CheckFailed as exc:
        arguments = {k: v for k, v in spec.items() if k != "check"}
        raise ExpectationFailed(f"check {name} {_short(arguments)} failed: {exc}") from None
    except TypeError as exc:
        raise ExpectationFailed(f"check {name}: bad arguments {_short(spec)}: {exc}") from None


def validate(instance: Any, schema: Any, what: str) -> None:
    """JSON Schema validation with the failing path and keyword, not a dump of both documents."""
    error = best_match(validator_for(schema).iter_errors(instance))
    if error is None:
        return
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "(root)"
    raise ExpectationFailed(
        f"{what} breaks the schema at {where} (keyword {error.validator}): {error.message[:500]}"
    )


def check_outcome(expect: dict[str, Any], response: Any) -> None:
    """Success, error or any, as expected; an error always with the envelope, isError and a registry code."""
    payload = response.payload
    wanted = expect.get("outcome", "error" if "error_code" in expect else "success")
    error = payload.get("error")
    if error is not None or response.is_error:
        if not isinstance(error, dict) or not isinstance(error.get("code"), str):
            raise ExpectationFailed(f"a failure must carry the envelope {{error: {{code, message}}}}; got {_short(payload)}")
        validate(error["code"], {"$ref": ERROR_CODES_ID}, f"error code {error['code']!r}")
        if not response.is_error:
            raise ExpectationFailed(f"the answer carries error {error['code']!r} but isError is not true")
        if wanted == "success":
            raise ExpectationFailed(f"expected success, the tool failed with {error['code']!r}: {error.get('message')!r}")
        if "error_code" in expect and error["code"] != expect["error_code"]:
            raise ExpectationFailed(f"expected error code {expect['error_code']!r}, got {error['code']!r}: {error.get('message')!r}")
    elif wanted == "error":
        raise ExpectationFailed(f"expected an error{' ' + repr(expect['error_code']) if 'error_code' in expect else ''}, "
                                f"the tool succeeded: {_short(payload)}")


def check_answer(expect: dict[str, Any] | None, response: Any, captures: dict[str, Any], outcome: bool = True) -> None:
    """Everything a step's `expect` asks of one answer (plus the wire rules every answer obeys)."""
    expect = expect or {}
    if response.structured is not None and response.text is not None:
        run_check({"check": "structured_matches_text"}, response, response.payload, captures)
    if outcome:
        check_outcome(expect, response)
    if "schema" in expect:
        validate(response.payload, expect["schema"], "the payload")
    for spec in expect.get("checks", []):
        run_check(spec, response, response.payload, captures)


def capture(spec: dict[str, str] | None, payload: Any, captures: dict[str, Any]) -> None:
    """Store each `name: JMESPath` of a step's capture block."""
    for name, expression in (spec or {}).items():
        captures[name] = resolve(expression, payload, captures)
