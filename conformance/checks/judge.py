"""Judging answers: outcome, error code, JSON Schema and named checks, each recorded on its basis.

A check whose basis gates (a document MUST, the error registry) stops the
scenario; any other (a SHOULD, an MCP convention, a reading of ours) is kept
as a warning and the scenario goes on.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

import jmespath
from jsonschema.exceptions import best_match

from cruxgate.conformance.checks import registry
from cruxgate.conformance.checks.registry import ARGUMENTS, CHECKS, RULES, CheckFailed
from cruxgate.conformance.spec.model import (
    CAPTURE_REF,
    MCP_IS_ERROR,
    MCP_STRUCTURED_TEXT,
    REGISTRY_ENVELOPE,
    Basis,
    Check,
    Expect,
)
from cruxgate.conformance.spec.schemas import validator_for

ERROR_CODES_ID = "https://cruxgate.dev/schemas/error-codes.json"
FINDING = "cruxgate_finding"  # the user property (and JUnit property) a scenario records each finding under
NOT_JUDGED = "cruxgate_not_judged"  # the user property a scenario records each check it could not judge under
NOTHING_JUDGED = "nothing_judged"  # the finding of a scenario whose checks all selected nothing


class ExpectationFailed(AssertionError):
    """An answer that breaks what the scenario requires; the message names the rule and the value."""


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def resolve(operand: Any, root: Any, captures: dict[str, Any]) -> Any:
    """`$name` -> a captured value; any other string -> JMESPath over `root`; anything else as is."""
    if not isinstance(operand, str):
        return operand
    match = CAPTURE_REF.match(operand)
    if match:
        if match.group(1) not in captures:
            raise ExpectationFailed(f"{operand} was never captured (an earlier step did not run or capture it)")
        return captures[match.group(1)]
    try:
        return jmespath.search(operand, root)
    except jmespath.exceptions.JMESPathError as exc:
        raise ExpectationFailed(f"bad JMESPath expression {operand!r}: {exc}") from None


def _nothing(value: Any) -> bool:
    """Whether a resolved operand selected nothing to judge: null, or an empty list (a projection over nothing)."""
    return value is None or value == []


def run_check(check: Check, response: Any, root: Any, captures: dict[str, Any]) -> str | None:
    """Resolve a check's arguments and run it; None when it judged, else why it could not (its `when_present`).

    An operand that selects nothing (null or an empty list) fails the check, unless the check declares that
    operand may be empty or the spec marks the check `when_present`: then it is not judged, and that is said.
    Raises ExpectationFailed naming the check.
    """
    name, spec = check.name, check.args
    rule = RULES.get(name)
    if rule is None:
        raise ExpectationFailed(f"unknown check {name!r} (known: {', '.join(sorted(CHECKS))})")
    kwargs: dict[str, Any] = {}
    if rule.takes_response:
        if response is None:
            raise ExpectationFailed(f"check {name} needs a tool answer; it cannot run in a compare step")
        kwargs["response"] = response
    empty: list[str] = []
    for param in rule.arguments:
        if param not in spec:
            continue
        written = spec[param]
        if param == "parts":
            kwargs[param] = [resolve(part, root, captures) for part in written]
            empty += [part for part, value in zip(written, kwargs[param], strict=True)
                      if isinstance(part, str) and _nothing(value)]
        elif ARGUMENTS[param].operand:
            kwargs[param] = resolve(written, root, captures)
            if isinstance(written, str) and _nothing(kwargs[param]) and param not in rule.empty_ok:
                empty.append(written)
        else:
            kwargs[param] = written  # a literal, as written
    if empty:
        what = ", ".join(repr(operand) for operand in empty)
        if check.when_present:
            return f"{what} selected nothing (when_present)"
        raise ExpectationFailed(f"check {name} {_short(dict(spec))}: {what} selected nothing (null or an empty "
                                f"list), so nothing was judged; the rule needs the value to be there")
    try:
        function = CHECKS[name]
        function(**kwargs)
    except CheckFailed as exc:
        raise ExpectationFailed(f"check {name} {_short(dict(spec))} failed: {exc}") from None
    except TypeError as exc:
        raise ExpectationFailed(f"check {name}: bad arguments {_short(dict(spec))}: {exc}") from None
    return None


def validate(instance: Any, schema: Any, what: str) -> None:
    """JSON Schema validation with the failing path and keyword, not a dump of both documents."""
    error = best_match(validator_for(schema).iter_errors(instance))
    if error is None:
        return
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "(root)"
    raise ExpectationFailed(
        f"{what} breaks the schema at {where} (keyword {error.validator}): {error.message[:500]}"
    )


def canonical_numbers(value: Any) -> Any:
    """Floats at the precision a 32-bit float carries (7 significant digits), so f32 and f64 servers compare alike."""
    if isinstance(value, float):
        return float(f"{value:.7g}") if math.isfinite(value) else value
    if isinstance(value, list):
        return [canonical_numbers(item) for item in value]
    if isinstance(value, dict):
        return {key: canonical_numbers(item) for key, item in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Finding:
    """One check that did not hold: which check, on what basis, in which step, and what came back."""

    check: str
    basis: Basis
    message: str
    step: int | None = None

    @property
    def severity(self) -> str:
        """'error' (gates by default) or 'warning'."""
        return self.basis.severity

    def describe(self) -> str:
        """One line: severity, check, step, message and basis."""
        where = f"step {self.step + 1} " if self.step is not None else ""
        return f"{self.severity}: {where}{self.check}: {self.message} (basis: {self.basis})"

    def record_id(self, scenario_id: str) -> str:
        """`SCENARIO/check`; a reading's finding carries the reading id and the step: `SCENARIO/R8/step-2/check`."""
        if self.basis.reading is None:
            return f"{scenario_id}/{self.check}"
        step = f"/step-{self.step + 1}" if self.step is not None else ""
        return f"{scenario_id}/{self.basis.reading}{step}/{self.check}"

    def as_record(self, scenario_id: str) -> dict[str, Any]:
        """The JSON form the reports carry."""
        basis: dict[str, Any] = {"kind": self.basis.kind, "ref": self.basis.ref, "level": self.basis.level}
        if self.basis.quote is not None:
            basis["quote"] = str(self.basis.quote)
        if self.basis.reading is not None:
            basis["reading"] = self.basis.reading
        return {"id": self.record_id(scenario_id), "check": self.check, "severity": self.severity,
                "step": None if self.step is None else self.step + 1, "message": self.message, "basis": basis}


@dataclass(frozen=True, slots=True)
class NotJudged:
    """A `when_present` check whose operand selected nothing: not a pass, not a failure, said in the report."""

    check: str
    reason: str
    step: int | None = None

    def as_record(self) -> dict[str, Any]:
        """The JSON form the reports carry."""
        return {"check": self.check, "reason": self.reason, "step": None if self.step is None else self.step + 1}


def recorded_findings(user_properties: Iterable[tuple[str, object]]) -> list[dict[str, Any]]:
    """The finding records a scenario left in its report's user properties (each FINDING value is its JSON)."""
    return [json.loads(cast(str, value)) for name, value in user_properties if name == FINDING]


def recorded_not_judged(user_properties: Iterable[tuple[str, object]]) -> list[dict[str, Any]]:
    """The checks a scenario could not judge (when_present, nothing there), from its report's user properties."""
    return [json.loads(cast(str, value)) for name, value in user_properties if name == NOT_JUDGED]


class Judge:
    """Collects a scenario's findings: a gating one stops the scenario at once, a warning is kept and it goes on."""

    def __init__(self, strict: bool = False) -> None:
        self.strict = strict
        self.findings: list[Finding] = []
        self.step: int | None = None
        self.declared = 0  # schema fragments, named checks and error expectations met so far
        self.judged = 0    # of those, the ones that judged a value (a when_present check may not)
        self.not_judged: list[NotJudged] = []

    def breach(self, check: str, basis: Basis, message: str) -> None:
        """Record a check that did not hold; raise ExpectationFailed when its basis gates."""
        self.findings.append(Finding(check, basis, message, self.step))
        if basis.gates or self.strict:
            strict = "" if basis.gates else " (a warning, failing under --strict)"
            raise ExpectationFailed(f"{check}: {message}\nbasis: {basis}{strict}")

    def warnings(self) -> list[Finding]:
        """The findings that did not stop the scenario."""
        return [finding for finding in self.findings if not finding.basis.gates and not self.strict]

    def run_check(self, check: Check, response: Any, root: Any, captures: dict[str, Any]) -> None:
        """A named check, its failure recorded on the check's basis; one that could not judge is noted."""
        self.declared += 1
        try:
            reason = run_check(check, response, root, captures)
        except ExpectationFailed as exc:
            self.judged += 1
            self.breach(check.name, check.basis, str(exc))
            return
        if reason is None:
            self.judged += 1
        else:
            self.not_judged.append(NotJudged(check.name, reason, self.step))

    def conclude(self, basis: Basis) -> None:
        """The scenario's own verdict: checks were declared, but none of them judged anything."""
        if self.declared and not self.judged:
            skipped = "; ".join(f"{note.check}: {note.reason}" for note in self.not_judged)
            self.step = None
            self.breach(NOTHING_JUDGED, basis, f"nothing judged: every check of the scenario selected nothing "
                                               f"({skipped or 'no check ran'}), so it cannot pass")

    def schema(self, instance: Any, schema: Any, basis: Basis, what: str = "the payload") -> None:
        """A JSON Schema fragment, its failure recorded on `basis`."""
        self.declared += 1
        self.judged += 1
        try:
            validate(instance, schema, what)
        except ExpectationFailed as exc:
            self.breach("schema", basis, str(exc))

    def outcome(self, expect: Expect, response: Any) -> None:
        """Success, error or any, as expected; a failure with the registry envelope (and, by MCP, isError)."""
        payload = response.payload
        basis = expect.schema_basis or REGISTRY_ENVELOPE
        error = payload.get("error")
        if expect.outcome == "error":  # an expected failure is a judgement of its own
            self.declared += 1
            self.judged += 1
        if error is not None or response.is_error:
            if not isinstance(error, dict) or not isinstance(error.get("code"), str):
                self.breach("error_envelope", REGISTRY_ENVELOPE,
                            f"a failure must carry the envelope {{error: {{code, message}}}}; got {_short(payload)}")
                return
            try:
                validate(error["code"], {"$ref": ERROR_CODES_ID}, f"error code {error['code']!r}")
            except ExpectationFailed as exc:
                self.breach("registry_code", REGISTRY_ENVELOPE, str(exc))
            if not response.is_error:
                self.breach("mcp_is_error", MCP_IS_ERROR,
                            f"the answer carries error {error['code']!r} but the result's isError is not true")
            if expect.outcome == "success":
                self.breach("outcome", basis, f"expected success, the tool failed with {error['code']!r}: "
                                              f"{error.get('message')!r}")
            elif expect.error_code is not None and error["code"] != expect.error_code:
                self.breach("error_code", basis, f"expected error code {expect.error_code!r}, got {error['code']!r}: "
                                                 f"{error.get('message')!r}")
        elif expect.outcome == "error":
            wanted = f" {expect.error_code!r}" if expect.error_code else ""
            self.breach("outcome", basis, f"expected an error{wanted}, the tool succeeded: {_short(payload)}")

    def answer(self, expect: Expect, response: Any, captures: dict[str, Any], outcome: bool = True) -> None:
        """Everything an expect block asks of one answer, plus the wire rules every answer obeys."""
        if response.structured is not None and response.text is not None:
            try:
                registry.structured_matches_text(response)
            except CheckFailed as exc:
                self.breach("structured_matches_text", MCP_STRUCTURED_TEXT, str(exc))
        if outcome:
            self.outcome(expect, response)
        if expect.schema is not None:
            self.schema(response.payload, expect.schema, expect.schema_basis or REGISTRY_ENVELOPE)
        for check in expect.checks:
            self.run_check(check, response, response.payload, captures)
