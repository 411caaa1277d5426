"""The fuzz inputs: strategies drawn from both schemas, one-rule mutations, validity, and how a case is replayed."""

from __future__ import annotations

import argparse
import json
import shlex

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cruxgate.conformance.fuzz import command, database, odd_values, replay
from cruxgate.conformance.fuzz.strategies import applicable_mutations, arguments_for, shape_of
from cruxgate.conformance.fuzz.validity import Judge, usable
from cruxgate.conformance.surface.lint import load_expected_inputs

SPEC = load_expected_inputs()
# As the reference publishes find_references: closed, with a maximum the spec does not state.
ADVERTISED = {"type": "object", "additionalProperties": False,
              "properties": {"name": {"type": "string", "minLength": 1}, "symbol_id": {"type": "integer", "minimum": 1},
                             "limit": {"type": "integer", "minimum": 1, "maximum": 500},
                             "freshness_policy": {"type": "string", "enum": ["strict", "balanced", "best_effort"]}},
              "anyOf": [{"required": ["name"]}, {"required": ["symbol_id"]}]}
FAST = settings(max_examples=150, database=None, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


def test_the_shape_reads_both_schemas():
    shape = shape_of(ADVERTISED, SPEC["find_references"])
    assert shape.required == [["name", "symbol_id"]]  # anyOf: only dropping both breaks it
    assert shape.names[:2] == ["name", "symbol_id"]  # required first: hypothesis shrinks towards them
    assert set(shape.numeric) == {"symbol_id", "limit"}
    assert "balanced " in shape.bad_enum["freshness_policy"] and "balanced" not in shape.bad_enum["freshness_policy"]
    assert None in shape.wrong["name"] and "x" not in shape.wrong["name"]
    assert applicable_mutations(shape) == ("odd_string", "wrong_type", "drop_required", "edge_number", "unknown_enum",
                                           "unknown_property")
    assert applicable_mutations(shape_of({"type": "object", "properties": {}})) == ("unknown_property",)


def test_drawn_arguments_are_objects_both_valid_and_not():
    judge = Judge(ADVERTISED, SPEC["find_references"])
    seen = {"valid": 0, "invalid": 0}

    @FAST
    @given(arguments_for(ADVERTISED, SPEC["find_references"]))
    def draw(arguments):
        assert isinstance(arguments, dict)
        json.dumps(arguments)  # every draw can cross the wire
        seen["valid" if judge(arguments).valid else "invalid"] += 1

    draw()
    assert seen["valid"] > 20 and seen["invalid"] > 20, seen


def test_validity_names_the_schema_and_the_place():
    judge = Judge(ADVERTISED, SPEC["find_references"])
    assert judge({"symbol_id": 2**63}).valid  # the overflow the fuzz phase found: a valid input
    problems = judge({"symbol_id": 7, "limit": 501}).problems
    assert problems == ("advertised schema at .limit: 501 is greater than the maximum of 500",)
    assert "spec schema" in judge({"name": ""}).describe()
    assert not usable({"type": "flag"}) and Judge({"type": "flag"}, None)({"any": 1}).valid


def test_odd_values_put_the_plainest_first_and_cover_the_hostile_kinds():
    assert odd_values.ODD_STRINGS[0] == "" and "\x00" in odd_values.ODD_STRINGS
    assert {"../", "/etc/passwd", "x" * 1_000_000, "🙂"} <= set(odd_values.ODD_STRINGS)
    assert 2**63 in odd_values.EDGE_NUMBERS and -(2**63) - 1 in odd_values.EDGE_NUMBERS
    assert odd_values.substitute({"p": ["{outside}/c.py"]}, "/tmp/r") == {"p": ["/tmp/r/c.py"]}


def test_the_canary_lies_beside_the_workspace(tmp_path):
    markers = odd_values.outside_files(tmp_path)
    assert odd_values.CANARY_MARKER in (tmp_path / odd_values.CANARY_NAME).read_text(encoding="utf-8")
    assert markers[0] == odd_values.CANARY_MARKER


def test_a_case_replays_inline_or_from_a_file(tmp_path):
    short = database.arguments_reference(tmp_path, "search_code", {"query": "\x00"})
    assert short == '{"query":"\\u0000"}' and database.read_arguments(short) == {"query": "\x00"}
    long = database.arguments_reference(tmp_path, "search_code", {"query": "x" * 1_000_000})
    assert long.startswith("@") and database.read_arguments(long) == {"query": "x" * 1_000_000}


def test_the_replay_command_is_one_shell_line_with_the_run_options():
    options = {"target": "stdio", "server_cmd": "python s.py {workspace}"}
    line = replay.command_line("search_code", '{"query":""}', options)
    assert "\n" not in line
    assert shlex.split(line) == ["cruxgate", "fuzz", "replay", "search_code", '{"query":""}',
                                 "--server-cmd", "python s.py {workspace}"]


def test_cruxgate_fuzz_stands_for_pytest_with_the_fuzz_phase_only():
    parser = argparse.ArgumentParser()
    command.add_arguments(parser, "fuzz")
    args = parser.parse_args(["--tool", "search_code", "--fuzz-examples", "5", "--", "--junitxml", "x.xml"])
    assert command.pytest_arguments(args) + args.words == [
        "--pyargs", "cruxgate.conformance", "--fuzz", "-m", "fuzz", "--fuzz-examples", "5",  # pytest's --target: stdio
        "-k", "fuzz[search_code]", "--junitxml", "x.xml"]
    assert parser.parse_args(["replay", "search_code", "{}"]).words == ["replay", "search_code", "{}"]


@given(st.data())
@settings(max_examples=20, database=None, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_every_spec_input_schema_yields_arguments(data):
    tool = data.draw(st.sampled_from(sorted(SPEC)))
    assert isinstance(data.draw(arguments_for(None, SPEC[tool])), dict)
