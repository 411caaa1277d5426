"""The target options are declared once (conformance/target/options.py): the pytest plugin, `cruxgate run`,
`cruxgate slo` and `cruxgate fuzz` accept the same set and hand each to pytest unchanged."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from _pytest.config.argparsing import Parser

from cruxgate.conformance import plugin, run
from cruxgate.conformance.fuzz import command as fuzz_command
from cruxgate.conformance.slo import command as slo_command
from cruxgate.conformance.spec.paths import schemas_dir
from cruxgate.conformance.target import options as target_options

# pytest's Parser is built directly, as pytest builds it for a plugin's pytest_addoption.
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestDeprecationWarning")
# Written out, not read from the table: dropping one from the table must fail here.
TARGET_OPTIONS = {"--target", "--target-profile", "--server-cmd", "--server-url", "--server-token-file",
                  "--target-deadline", "--fixtures-dir"}
GIVEN = ["--target", "http", "--target-profile", "p.yaml", "--server-cmd", "srv {port}", "--server-url",
         "http://127.0.0.1:1/mcp", "--server-token-file", "token", "--target-deadline", "90", "--fixtures-dir", "fx"]


def pytest_flags() -> set[str]:
    parser = Parser()
    plugin.pytest_addoption(parser)
    return {name for option in parser.getgroup("cruxgate").options for name in option.names()}


def command_parser(module) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    module.add_arguments(parser, "x")
    return parser


def command_flags(module) -> set[str]:
    return {name for action in command_parser(module)._actions for name in action.option_strings}


@pytest.mark.parametrize("flags", [pytest_flags, lambda: command_flags(run), lambda: command_flags(slo_command),
                                   lambda: command_flags(fuzz_command)], ids=["pytest", "run", "slo", "fuzz"])
def test_each_entry_point_accepts_every_target_option(flags):
    assert flags() >= TARGET_OPTIONS


def test_the_commands_hand_every_target_option_to_pytest_as_given():
    expected = dict(zip(GIVEN[::2], GIVEN[1::2], strict=True))
    slo_words = slo_command.pytest_arguments(command_parser(slo_command).parse_args(GIVEN))
    fuzz_words = fuzz_command.pytest_arguments(command_parser(fuzz_command).parse_args(GIVEN))
    chosen = run.settings(command_parser(run).parse_args(GIVEN), cwd=Path("/nonexistent"))
    run_words = run.pytest_arguments(chosen.values)
    for words in (slo_words, fuzz_words, run_words):
        pairs = {words[i]: words[i + 1] for i in range(len(words) - 1) if words[i] in TARGET_OPTIONS}
        assert pairs == expected, words


def test_the_pytest_options_take_the_same_values():
    parser = Parser()
    plugin.pytest_addoption(parser)
    values = parser.parse(GIVEN)
    assert (values.target, values.server_token_file, values.target_deadline) == ("http", "token", 90.0)
    assert parser.parse([]).target_deadline is None  # the gate's default (900 s) and the SLO harness's (none) apply


def test_the_runner_docs_have_a_row_for_every_target_option():
    # docs/conformance.md's Options table says more of each than its help, so it is written by hand: this keeps
    # its rows and the table's options the same set.
    text = (schemas_dir().parent / "docs" / "conformance.md").read_text(encoding="utf-8")
    table = text.split("\n## Options\n", 1)[1].split("\n## ", 1)[0]
    rows = {match[1] for line in table.splitlines() if (match := re.match(r"\| `(--[a-z-]+)", line))}
    assert {option.flag for option in target_options.OPTIONS} <= rows
    assert {flag for flag in rows if flag.startswith(("--target", "--server"))} | {"--fixtures-dir"} == \
        {option.flag for option in target_options.OPTIONS}
