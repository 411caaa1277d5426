"""Is an argument set valid? Judged against the tool's advertised input schema and against the spec's.

The answer decides what the server may say: a valid input gets a success or a registry error; an
input either schema rejects should get `invalid_input` (or JSON-RPC -32602). Only the schema the server
publishes binds it to refuse an input (a target may accept more than the spec's schema, R21); when it
publishes none that judges anything, the spec's stands in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, best_match
from jsonschema.validators import validator_for


@dataclass(frozen=True)
class Validity:
    """What the two schemas say about one argument set: no problems means valid for both."""

    problems: tuple[str, ...] = ()
    rejected_by_own: bool = False  # the tool's own advertised schema (or, without one, the spec's) rejects it

    @property
    def valid(self) -> bool:
        """Whether both schemas accept the arguments."""
        return not self.problems

    def describe(self) -> str:
        """One line for a report."""
        return "valid for both schemas" if self.valid else "invalid: " + "; ".join(self.problems)


class Judge:
    """Validators for one tool's advertised and spec input schemas, compiled once."""

    def __init__(self, advertised: dict[str, Any] | None, spec: dict[str, Any] | None) -> None:
        self.validators = [(name, _compile(schema)) for name, schema in (("advertised", advertised), ("spec", spec))
                           if usable(schema)]

    def __call__(self, arguments: dict[str, Any]) -> Validity:
        """The problems each schema finds with `arguments` (the most relevant error of each)."""
        problems, own = [], False
        binding = self.validators[0][0] if self.validators else ""  # "advertised" when usable, else "spec"
        for name, validator in self.validators:
            error = best_match(validator.iter_errors(arguments))
            if error is not None:
                where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "(root)"
                problems.append(f"{name} schema at {where}: {error.message[:200]}")
                own = own or name == binding
        return Validity(tuple(problems), own)


def usable(schema: Any) -> TypeGuard[dict[str, Any]]:
    """Whether `schema` is a JSON Schema object its own draft accepts (a broken one judges nothing)."""
    if not isinstance(schema, dict):
        return False
    try:
        validator_for(schema, default=Draft202012Validator).check_schema(schema)
    except SchemaError:
        return False
    return True


def _compile(schema: dict[str, Any]) -> Any:
    # A server may publish another draft; formats stay annotations, as JSON Schema says for inputs.
    cls = validator_for(schema, default=Draft202012Validator)
    return cls(schema)
