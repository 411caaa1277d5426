"""The registry of named checks: relations JSON Schema cannot express, each a small function.

The vocabulary is declared here once: ``ARGUMENTS`` says what each argument
name is (an operand: a ``$capture`` or a JMESPath expression, resolved before
the check runs; or a literal, passed as written) and which values the spec
format accepts for it; a check's own arguments are its function's parameters
(required when they have no default), and ``named_check(empty_ok=...)`` names
the operands that may select nothing (null or an empty list) and still be
judged. A parameter named ``response`` receives the whole tool answer. The
spec format's check part (schemas/spec-format.schema.json) and the table in
docs/spec.md are generated from this module (``vocabulary``). A check returns
nothing and raises ``CheckFailed`` with a message that says what was required
and what came back.
"""

from __future__ import annotations

import inspect
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, overload

from cruxgate.conformance.spec.model import OPERAND_ARGS


@dataclass(frozen=True, slots=True)
class Argument:
    """One argument name of the check vocabulary: operand or literal, the values the spec accepts, what it is."""

    name: str
    operand: bool
    schema: dict[str, Any]
    doc: str


_OPERAND = {"$ref": "#/$defs/operand"}
ARGUMENTS: dict[str, Argument] = {argument.name: argument for argument in (
    Argument("path", True, _OPERAND, "the values judged"),
    Argument("a", True, _OPERAND, "the first value"),
    Argument("b", True, _OPERAND, "the second value"),
    Argument("total", True, _OPERAND, "the sum"),
    Argument("parts", True, {"type": "array", "minItems": 1,
                             "items": {"oneOf": [_OPERAND, {"type": "number"}]}},
             "operands or number literals, summed"),
    Argument("limit", False, {"type": "number", "exclusiveMinimum": 0}, "a positive number"),
    Argument("pattern", False, {"type": "string", "format": "regex"}, "a regular expression"),
    Argument("allowed", False, {"type": "array", "minItems": 1}, "a list of literals"),
    Argument("n", False, {"type": "integer", "minimum": 0}, "a count or a byte size"),
    Argument("value", False, {}, "a literal"),
    Argument("tolerance", False, {"type": "number", "minimum": 0}, "an absolute tolerance"),
    Argument("fields", False, {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}},
             "field names"),
)}
assert {name for name, argument in ARGUMENTS.items() if argument.operand} == {*OPERAND_ARGS, "parts"}


@dataclass(frozen=True, slots=True)
class CheckRule:
    """A registered check: its function, its arguments (required ones first) and the operands that may be empty."""

    name: str
    function: Callable[..., None]
    required: tuple[str, ...]
    optional: tuple[str, ...]
    empty_ok: tuple[str, ...]
    takes_response: bool

    @property
    def arguments(self) -> tuple[str, ...]:
        """Every argument the spec may give the check."""
        return self.required + self.optional

    @property
    def operands(self) -> tuple[str, ...]:
        """The arguments resolved against the answer or the captures."""
        return tuple(name for name in self.arguments if ARGUMENTS[name].operand)

    @property
    def summary(self) -> str:
        """What the check requires, from its docstring (the first paragraph, joined)."""
        return " ".join((self.function.__doc__ or "").strip().split("\n\n")[0].split())


CHECKS: dict[str, Callable[..., None]] = {}
RULES: dict[str, CheckRule] = {}


class CheckFailed(AssertionError):
    """A named check that does not hold; the message says why."""


def _rule(function: Callable[..., None], empty_ok: tuple[str, ...]) -> CheckRule:
    required: list[str] = []
    optional: list[str] = []
    takes_response = False
    for name, parameter in inspect.signature(function).parameters.items():
        if name == "response":
            takes_response = True
            continue
        if name not in ARGUMENTS:
            raise TypeError(f"check {function.__name__}: argument {name!r} is not in the vocabulary (ARGUMENTS)")
        (required if parameter.default is inspect.Parameter.empty else optional).append(name)
    unknown = set(empty_ok) - set(required + optional)
    if unknown:
        raise TypeError(f"check {function.__name__}: empty_ok names no argument of it: {sorted(unknown)}")
    return CheckRule(function.__name__, function, tuple(required), tuple(optional), empty_ok, takes_response)


Check = Callable[..., None]


@overload
def named_check(function: Check, *, empty_ok: tuple[str, ...] = ()) -> Check: ...


@overload
def named_check(function: None = None, *, empty_ok: tuple[str, ...] = ()) -> Callable[[Check], Check]: ...


def named_check(function: Check | None = None, *,
                empty_ok: tuple[str, ...] = ()) -> Check | Callable[[Check], Check]:
    """Register a check under its own name; `empty_ok` names operands that may select nothing and still judge."""
    def register(check: Check) -> Check:
        RULES[check.__name__] = _rule(check, empty_ok)
        CHECKS[check.__name__] = check
        return check
    return register(function) if function is not None else register


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _as_list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise CheckFailed(f"{what}: expected a list of values, the expression selected {_short(value)}")
    return value


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CheckFailed(f"{what}: expected a number, got {_short(value)}")
    return float(value)


def byte_size(value: Any) -> int:
    """UTF-8 length of compact, key-sorted JSON: the byte rule of docs/spec.md."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True).encode("utf-8"))


@named_check
def sorted_descending(path: Any) -> None:
    """The list at `path` is non-increasing (a one-item list passes)."""
    values = _as_list(path, "sorted_descending")
    for index in range(1, len(values)):
        if values[index] > values[index - 1]:
            raise CheckFailed(
                f"sorted_descending: value {index} ({_short(values[index])}) is greater than value "
                f"{index - 1} ({_short(values[index - 1])}) in {_short(values)}"
            )


@named_check
def same_sequence(a: Any, b: Any) -> None:
    """`a` and `b` are lists with the same items in the same order."""
    first, second = _as_list(a, "same_sequence a"), _as_list(b, "same_sequence b")
    if first == second:
        return
    for index, (x, y) in enumerate(zip(first, second, strict=False)):  # unequal lengths are reported below
        if x != y:
            raise CheckFailed(f"same_sequence: item {index} differs: {_short(x)} vs {_short(y)}")
    raise CheckFailed(
        f"same_sequence: lengths differ ({len(first)} vs {len(second)}): {_short(first)} vs {_short(second)}")


@named_check
def equal(a: Any, b: Any) -> None:
    """The two values are equal (exact JSON equality)."""
    if a != b:
        raise CheckFailed(f"equal: {_short(a)} != {_short(b)}")


@named_check
def not_equal(a: Any, b: Any) -> None:
    """The two values differ."""
    if a == b:
        raise CheckFailed(f"not_equal: both are {_short(a)}")


@named_check
def sum_equals(total: Any, parts: list[Any], tolerance: float = 1e-6) -> None:
    """`total` (a number) equals the sum of all `parts`, a part being a number or a list of numbers
    (summed), within `tolerance` (default 1e-6, growing with the magnitude at 7 significant digits).

    The tolerance grows with the magnitude, so a server that adds in 32-bit floats passes. Per-result sums are
    written per index (`metadata.ranking_reasons[0].final_score`) or over all results with JMESPath `sum(...)`.
    """
    flat: list[float] = []
    for part in parts:
        items = part if isinstance(part, list) else [part]
        flat += [_number(item, "sum_equals part") for item in items]
    expected = math.fsum(flat)
    actual = _number(total, "sum_equals total")
    if abs(actual - expected) > max(tolerance, 1e-6 * max(abs(actual), abs(expected))):
        raise CheckFailed(
            f"sum_equals: total {actual} != sum of parts {expected} ({_short(flat)}), tolerance {tolerance}")


@named_check
def ratio_at_most(a: Any, b: Any, limit: float) -> None:
    """`a / b <= limit` (numbers; `b > 0`)."""
    numerator, denominator = _number(a, "ratio_at_most a"), _number(b, "ratio_at_most b")
    if denominator == 0:
        raise CheckFailed("ratio_at_most: b is 0, the ratio is undefined")
    ratio = numerator / denominator
    if ratio > limit:
        raise CheckFailed(f"ratio_at_most: {numerator} / {denominator} = {ratio:.4f} > {limit}")


@named_check
def byte_ratio_at_most(a: Any, b: Any, limit: float) -> None:
    """`bytes(a) / bytes(b) <= limit`, bytes being the UTF-8 length of compact, key-sorted JSON
    (`json.dumps(v, separators=(",", ":"), ensure_ascii=False, sort_keys=True)`)."""
    size_a, size_b = byte_size(a), byte_size(b)
    if size_b == 0:
        raise CheckFailed("byte_ratio_at_most: b is empty, the ratio is undefined")
    ratio = size_a / size_b
    if ratio > limit:
        raise CheckFailed(f"byte_ratio_at_most: {size_a} B / {size_b} B = {ratio:.4f} > {limit}")


@named_check
def unique(path: Any) -> None:
    """The list at `path` has no repeated item."""
    seen: list[Any] = []
    for value in _as_list(path, "unique"):
        if value in seen:
            raise CheckFailed(f"unique: {_short(value)} occurs more than once in {_short(path)}")
        seen.append(value)


@named_check
def all_match(path: Any, pattern: str) -> None:
    """Every item of the list at `path` is a string the regular expression matches (`re.search`, like JSON Schema)."""
    regex = re.compile(pattern)
    for index, value in enumerate(_as_list(path, "all_match")):
        if not isinstance(value, str) or not regex.search(value):
            raise CheckFailed(f"all_match: value {index} {_short(value)} does not match /{pattern}/")


@named_check
def each_in(path: Any, allowed: list[Any]) -> None:
    """Every item of the list at `path` is in `allowed`."""
    for index, value in enumerate(_as_list(path, "each_in")):
        if value not in allowed:
            raise CheckFailed(f"each_in: value {index} {_short(value)} is not one of {_short(allowed)}")


@named_check(empty_ok=("path",))
def count_equals(path: Any, n: int) -> None:
    """The list at `path` has exactly `n` items (nothing selected counts as 0)."""
    values = [] if path is None else _as_list(path, "count_equals")
    if len(values) != n:
        raise CheckFailed(f"count_equals: {len(values)} value(s) where {n} were required: {_short(values)}")


@named_check
def payload_bytes_at_most(response: Any, n: int) -> None:
    """bytes(payload) <= `n` (the same byte rule)."""
    size = byte_size(response.payload)
    if size > n:
        raise CheckFailed(f"payload_bytes_at_most: the payload is {size} bytes, more than {n}")


@named_check
def structured_matches_text(response: Any) -> None:
    """When both are present, `structuredContent` equals the JSON object parsed from the first `text` content item."""
    if response.structured is None or response.text is None:
        return
    try:
        from_text = json.loads(response.text)
    except ValueError as exc:
        raise CheckFailed(
            f"structured_matches_text: the first text item is not JSON ({exc}): {response.text[:160]!r}") from None
    if from_text != response.structured:
        raise CheckFailed(
            "structured_matches_text: structuredContent and the text item differ: "
            f"{_short(response.structured)} vs {_short(from_text)}"
        )


@named_check
def prefix_of(a: Any, b: Any) -> None:
    """`a` is a non-empty list whose items are the first items of the list `b`, in the same order."""
    first, second = _as_list(a, "prefix_of a"), _as_list(b, "prefix_of b")
    if not first:
        raise CheckFailed("prefix_of: a is empty, so it is no evidence of a prefix")
    if len(first) > len(second):
        raise CheckFailed(f"prefix_of: a has {len(first)} items, b only {len(second)}")
    for index, (x, y) in enumerate(zip(first, second, strict=False)):
        if x != y:
            raise CheckFailed(f"prefix_of: item {index} is {_short(x)}, the full list has {_short(y)} there")


@named_check
def keeps_fields(a: Any, b: Any, fields: list[str]) -> None:
    """`a` and `b` are lists of objects of one length, and every field of `fields` that item i of `a`
    carries, item i of `b` carries with the same value (at least one such field must be there to judge).
    """
    first, second = _as_list(a, "keeps_fields a"), _as_list(b, "keeps_fields b")
    if len(first) != len(second):
        raise CheckFailed(f"keeps_fields: lengths differ ({len(first)} vs {len(second)})")
    judged = 0
    for index, (x, y) in enumerate(zip(first, second, strict=True)):
        if not isinstance(x, dict) or not isinstance(y, dict):
            raise CheckFailed(f"keeps_fields: item {index} is not an object: {_short(x)} / {_short(y)}")
        for name in fields:
            if name not in x:
                continue
            judged += 1
            if name not in y:
                raise CheckFailed(f"keeps_fields: item {index} dropped {name!r} ({_short(x[name])}): {_short(y)}")
            if y[name] != x[name]:
                raise CheckFailed(f"keeps_fields: item {index} {name!r} is {_short(y[name])}, was {_short(x[name])}")
    if not judged:
        raise CheckFailed(f"keeps_fields: no item of a carries any of {fields}: nothing to compare")


@named_check
def first_equals(path: Any, value: Any) -> None:
    """The list at `path` is non-empty and its first item equals `value`."""
    values = _as_list(path, "first_equals")
    if not values:
        raise CheckFailed(f"first_equals: nothing selected, expected the first value to be {_short(value)}")
    if values[0] != value:
        raise CheckFailed(f"first_equals: the first value is {_short(values[0])}, expected {_short(value)}")


def _holds(container: Any, value: Any) -> bool:
    if isinstance(container, str) and isinstance(value, str):
        return value in container
    if isinstance(container, (list, dict)):
        return value in container
    raise CheckFailed(f"contains: expected a list, object or string, the expression selected {_short(container)}")


@named_check
def contains(path: Any, value: Any) -> None:
    """The list (or object's keys) at `path` holds `value` as an item; a string holds it as a substring."""
    if not _holds(path, value):
        raise CheckFailed(f"contains: {_short(value)} not found in {_short(path)}")


@named_check(empty_ok=("path",))
def not_contains(path: Any, value: Any) -> None:
    """The opposite of `contains`; nothing selected (null) passes."""
    if path is not None and _holds(path, value):
        raise CheckFailed(f"not_contains: {_short(value)} found in {_short(path)}")


@named_check
def tool_surface_conforms(response: Any, value: Any = None) -> None:
    """In a `list_tools` step: each tool `value` names (a name or a list; else every tool the spec's
    input schemas name) is listed with a description and an input schema that is valid JSON Schema
    2020-12 and matches the spec's (docs/gate.md, the tool surface).

    Without `value`, every listed tool is linted (conformance/surface/lint.py).
    """
    from cruxgate.conformance.surface import lint

    tools = response.payload.get("tools", []) if isinstance(response.payload, dict) else []
    answer, required = response.payload, None
    if value is not None:
        required = [value] if isinstance(value, str) else list(value)
        answer = {"tools": [tool for tool in tools if tool.get("name") in required]}
    try:
        lint.tool_surface_conforms(answer, required_tools=required)
    except AssertionError as exc:
        raise CheckFailed(str(exc)) from None
