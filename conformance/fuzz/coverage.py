"""The coverage phase: before any random draw, every argument gets the hostile values one at a time.

Like Schemathesis' coverage phase: deterministic, cheap, and it finds the common bugs at once. Each case
is the tool's simplest valid argument set with one change (a coverage string in a string argument, an
edge number in a numeric one, a wrong type, an unknown enum value, a required argument dropped, an
unknown property), so a case that breaks the server is already minimal and is reported as it is.
"""

from __future__ import annotations

from typing import Any

from cruxgate.conformance.fuzz.odd_values import COVERAGE_NUMBERS, COVERAGE_STRINGS
from cruxgate.conformance.fuzz.strategies import Shape, shape_of, valid_arguments
from cruxgate.conformance.fuzz.validity import usable


def simplest_valid(advertised: dict[str, Any] | None, spec: dict[str, Any] | None) -> dict[str, Any]:
    """The simplest argument set both schemas accept (hypothesis shrinks one), else {}."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample, Unsatisfiable

    try:
        return find(valid_arguments(advertised, spec), lambda _: True,
                    settings=settings(database=None, max_examples=20, phases=(Phase.generate, Phase.shrink),
                                      suppress_health_check=list(HealthCheck)))
    except (NoSuchExample, Unsatisfiable):
        return {}


def cases(advertised: dict[str, Any] | None, spec: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every coverage case of one tool, in a stable order, without repeats."""
    usable_schemas = [s for s in (advertised, spec) if usable(s)]
    shape = shape_of(*usable_schemas)
    base = simplest_valid(advertised, spec)
    found: list[dict[str, Any]] = [dict(base)]
    for name, value in _changes(shape):
        case = dict(base)
        if value is _DROP:
            for dropped in name:
                case.pop(dropped, None)
        else:
            case[name] = value
        if case not in found:
            found.append(case)
    return found


_DROP = object()


def _changes(shape: Shape) -> list[tuple[Any, Any]]:
    changes: list[tuple[Any, Any]] = []
    for name in shape.names:
        if "x" not in shape.wrong[name] and name not in shape.bad_enum:  # a free string (or of no stated type)
            changes += [(name, value) for value in COVERAGE_STRINGS]
        if name in shape.numeric:
            changes += [(name, value) for value in COVERAGE_NUMBERS]
        changes += [(name, value) for value in shape.wrong[name][:2]]
        changes += [(name, value) for value in shape.bad_enum.get(name, [])[:2]]
    changes += [(tuple(group), _DROP) for group in shape.required]
    changes.append(("cruxgate_unknown", 1))
    return changes
