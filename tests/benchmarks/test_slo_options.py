"""The SLO harness's own options are declared once (conformance/slo/options.py): its pytest plugin and
`cruxgate slo` expose exactly that table, with the same defaults and help, and docs/benchmarks.md shows it."""

from __future__ import annotations

import argparse

import pytest
from _pytest.config.argparsing import Parser

from cruxgate.conformance.slo import command, plugin
from cruxgate.conformance.slo import options as slo_options

# pytest's Parser is built directly, as pytest builds it for a plugin's pytest_addoption.
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestDeprecationWarning")
# Written out, not read from the table: dropping one from the table must fail here.
NAMES = {"gate", "report", "smoke", "rounds", "match-reasons"}
GIVEN = ["--gate", "--report", "r/slo.md", "--smoke", "--rounds", "7", "--match-reasons", "cases.yaml"]


def pytest_parser() -> Parser:
    parser = Parser()
    plugin.pytest_addoption(parser)
    return parser


def pytest_surface() -> dict[str, tuple[object, str]]:
    """The plugin's options: flag -> (default, help)."""
    return {name: (option.attrs().get("default"), option.attrs()["help"])
            for option in pytest_parser().getgroup("cruxgate-slo").options for name in option.names()}


def command_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser, "slo")
    return parser


def command_surface() -> dict[str, tuple[object, str]]:
    """`cruxgate slo`'s own group: flag -> (default, help)."""
    group = next(g for g in command_parser()._action_groups if g.title == "SLO harness")
    return {flag: (action.default, action.help or "") for action in group._group_actions
            for flag in action.option_strings}


def test_the_table_is_the_harness_options() -> None:
    assert {option.name for option in slo_options.OPTIONS} == NAMES


def test_both_surfaces_expose_exactly_the_table_with_its_defaults_and_help() -> None:
    in_pytest = {option.name: (option.pytest_default, option.help) for option in slo_options.OPTIONS}
    in_command = {option.name: (option.not_given, option.help) for option in slo_options.OPTIONS}
    assert in_pytest == in_command  # the harness's own defaults apply to an option not given, either way
    assert {flag.removeprefix("--slo-"): value for flag, value in pytest_surface().items()} == in_pytest
    assert {flag.removeprefix("--"): value for flag, value in command_surface().items()} == in_command


def test_no_harness_option_is_declared_outside_the_table() -> None:
    flags = {flag for action in command_parser()._actions for flag in action.option_strings}
    harness_flags = {f"--{name}" for name in NAMES}
    # what the command takes besides the table: the target options, pytest's -k and argparse's help
    others = flags - harness_flags
    assert all(flag.startswith(("--target", "--server", "--fixtures")) or flag in {"-k", "-h", "--help"}
               for flag in others), others


def test_what_the_command_is_given_reaches_the_plugin_as_the_same_values() -> None:
    words = command.pytest_arguments(command_parser().parse_args(GIVEN))
    plugin_words = [word for word in words if word.startswith("--slo-")]
    assert plugin_words == ["--slo-gate", "--slo-report", "--slo-smoke", "--slo-rounds", "--slo-match-reasons"]
    values = pytest_parser().parse(words[words.index("--slo-gate"):])
    assert (values.slo_gate, values.slo_report, values.slo_smoke, values.slo_rounds, values.slo_match_reasons) \
        == (True, "r/slo.md", True, 7, "cases.yaml")
    assert not [word for word in command.pytest_arguments(command_parser().parse_args([])) if "slo-" in word]
    plain = pytest_parser().parse([])
    assert (plain.slo_gate, plain.slo_report, plain.slo_smoke, plain.slo_rounds) == (False, None, False, None)


def test_the_docs_table_is_the_one_the_table_writes() -> None:
    text = slo_options.docs_path().read_text(encoding="utf-8")
    assert slo_options.markdown_table() in text, "run python -m cruxgate.conformance.slo.options"
    assert slo_options.rewrite(text) == text
