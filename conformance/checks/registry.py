"""The registry of named checks: relations JSON Schema cannot express, each a small function.

A check receives its arguments already resolved: an operand argument
(``path``, ``a``, ``b``, ``total``, ``parts``) arrives as the value its
``$capture`` or JMESPath expression selects, a literal (``value``,
``pattern``, ``allowed``, ``n``, ``limit``, ``tolerance``) as written, and a
parameter named ``response`` as the whole tool answer (see
conformance/expect.py). A check returns nothing and raises ``CheckFailed``
with a message that says what was required and what came back.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

CHECKS: dict[str, Callable[..., None]] = {}


class CheckFailed(AssertionError):
    """A named check that does not hold; the message says why."""


def named_check(function: Callable[..., None]) -> Callable[..., None]:
    """Register `function` under its own name."""
    CHECKS[function.__name__] = function
    return function


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
    """The selected values never increase."""
    values = _as_list(path, "sorted_descending")
    for index in range(1, len(values)):
        if values[index] > values[index - 1]:
            raise CheckFailed(
                f"sorted_descending: value {index} ({_short(values[index])}) is greater than value "
                f"{index - 1} ({_short(values[index - 1])}) in {_short(values)}"
            )


@named_check
def same_sequence(a: Any, b: Any) -> None:
    """Two lists hold the same items in the same order."""
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
    """Two values are equal."""
    if a != b:
        raise CheckFailed(f"equal: {_short(a)} != {_short(b)}")


@named_check
def not_equal(a: Any, b: Any) -> None:
    """Two values differ."""
    if a == b:
        raise CheckFailed(f"not_equal: both are {_short(a)}")


@named_check
def sum_equals(total: Any, parts: list[Any], tolerance: float = 1e-6) -> None:
    """`total` equals the sum of `parts` (each a number or a list of numbers) within `tolerance`.

    The tolerance grows with the magnitude (7 significant digits), so a server that adds in 32-bit floats passes.
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
    """a / b is at most `limit`."""
    numerator, denominator = _number(a, "ratio_at_most a"), _number(b, "ratio_at_most b")
    if denominator == 0:
        raise CheckFailed("ratio_at_most: b is 0, the ratio is undefined")
    ratio = numerator / denominator
    if ratio > limit:
        raise CheckFailed(f"ratio_at_most: {numerator} / {denominator} = {ratio:.4f} > {limit}")


@named_check
def byte_ratio_at_most(a: Any, b: Any, limit: float) -> None:
    """The JSON size of a over that of b is at most `limit`."""
    size_a, size_b = byte_size(a), byte_size(b)
    if size_b == 0:
        raise CheckFailed("byte_ratio_at_most: b is empty, the ratio is undefined")
    ratio = size_a / size_b
    if ratio > limit:
        raise CheckFailed(f"byte_ratio_at_most: {size_a} B / {size_b} B = {ratio:.4f} > {limit}")


@named_check
def unique(path: Any) -> None:
    """The selected values hold no duplicates."""
    seen: list[Any] = []
    for value in _as_list(path, "unique"):
        if value in seen:
            raise CheckFailed(f"unique: {_short(value)} occurs more than once in {_short(path)}")
        seen.append(value)


@named_check
def all_match(path: Any, pattern: str) -> None:
    """Every selected value is a string that the regular expression matches (search semantics, like JSON Schema)."""
    regex = re.compile(pattern)
    for index, value in enumerate(_as_list(path, "all_match")):
        if not isinstance(value, str) or not regex.search(value):
            raise CheckFailed(f"all_match: value {index} {_short(value)} does not match /{pattern}/")


@named_check
def each_in(path: Any, allowed: list[Any]) -> None:
    """Every selected value is one of `allowed`."""
    for index, value in enumerate(_as_list(path, "each_in")):
        if value not in allowed:
            raise CheckFailed(f"each_in: value {index} {_short(value)} is not one of {_short(allowed)}")


@named_check
def count_equals(path: Any, n: int) -> None:
    """The expression selects exactly `n` values (nothing selected counts as 0)."""
    values = [] if path is None else _as_list(path, "count_equals")
    if len(values) != n:
        raise CheckFailed(f"count_equals: {len(values)} value(s) where {n} were required: {_short(values)}")


@named_check
def payload_bytes_at_most(response: Any, n: int) -> None:
    """The answer's payload is at most `n` bytes (compact, key-sorted JSON)."""
    size = byte_size(response.payload)
    if size > n:
        raise CheckFailed(f"payload_bytes_at_most: the payload is {size} bytes, more than {n}")


@named_check
def structured_matches_text(response: Any) -> None:
    """structuredContent and the JSON of the first text item carry the same object."""
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
def first_equals(path: Any, value: Any) -> None:
    """The first selected value equals `value`."""
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
    """The selected list (or object keys, or string) holds `value`."""
    if not _holds(path, value):
        raise CheckFailed(f"contains: {_short(value)} not found in {_short(path)}")


@named_check
def not_contains(path: Any, value: Any) -> None:
    """The selected list (or object keys, or string) does not hold `value`; nothing selected passes."""
    if path is not None and _holds(path, value):
        raise CheckFailed(f"not_contains: {_short(value)} found in {_short(path)}")


@named_check
def tool_surface_conforms(response: Any, value: Any = None) -> None:
    """A tools/list answer matches the spec's tool input schemas (conformance/surface.py lint).

    `value` names the tool (or list of tools) to lint, each required; without it every
    tool the spec's input schemas name is required and every listed tool is linted.
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
