"""An option table (conformance/target/option_table.py) spells each option for a command and for pytest: a value
given to the command reaches pytest's parser as the same value, and an option not given is not passed on."""

from __future__ import annotations

import argparse

import pytest
from _pytest.config.argparsing import Parser

from cruxgate.conformance.target.option_table import KIND_KEYWORDS, Option, OptionTable

# pytest's Parser is built directly, as pytest builds it for a plugin's pytest_addoption.
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestDeprecationWarning")
TABLE = OptionTable("demo", (
    Option("on", "switch", None, "a switch"),
    Option("rounds", "count", "N", "a count"),
    Option("wait", "seconds", "SECONDS", "seconds"),
    Option("out", "path", "FILE", "a path"),
    Option("cmd", "text", "CMD", "a text"),
    Option("via", "choice", None, "a choice", choices=("a", "b"), default="a"),
), pytest_prefix="demo-")


def command_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(exit_on_error=False)
    TABLE.add_to_argparse(parser)
    return parser


def pytest_parser() -> Parser:
    parser = Parser()
    TABLE.add_to_pytest(parser.getgroup("demo"))
    return parser


def test_the_table_covers_every_kind() -> None:
    assert {option.kind for option in TABLE} == set(KIND_KEYWORDS)


def test_a_value_given_to_the_command_reaches_pytest_as_the_same_value() -> None:
    given = command_parser().parse_args(["--on", "--rounds", "7", "--wait", "0.5", "--out", "r.md", "--cmd", "srv",
                                         "--via", "b"])
    words = TABLE.pytest_words(vars(given))
    assert words == ["--demo-on", "--demo-rounds", "7", "--demo-wait", "0.5", "--demo-out", "r.md", "--demo-cmd",
                     "srv", "--demo-via", "b"]
    values = vars(pytest_parser().parse(words))
    assert {option.name: values[f"demo_{option.dest}"] for option in TABLE} == \
        {"on": True, "rounds": 7, "wait": 0.5, "out": "r.md", "cmd": "srv", "via": "b"}


def test_an_option_not_given_is_not_passed_on_and_pytest_default_applies() -> None:
    assert TABLE.pytest_words(vars(command_parser().parse_args([]))) == []
    values = vars(pytest_parser().parse([]))
    assert (values["demo_on"], values["demo_rounds"], values["demo_via"]) == (False, None, "a")


def test_zero_seconds_is_given_not_absent() -> None:
    # `--target-deadline 0` turns the deadline off: a 0 must reach pytest, not read as "not given".
    assert TABLE.pytest_words({"wait": 0.0, "rounds": 0}) == ["--demo-rounds", "0", "--demo-wait", "0"]


def test_a_fractional_value_reaches_pytest_exactly() -> None:
    # A seconds value is handed on as given, not rounded to a few significant digits.
    assert TABLE.pytest_words({"wait": 0.1234567}) == ["--demo-wait", "0.1234567"]


@pytest.mark.parametrize("words", [["--wait", "-1"], ["--rounds", "x"], ["--via", "c"]])
def test_both_spellings_refuse_the_same_bad_value(words: list[str]) -> None:
    with pytest.raises(argparse.ArgumentError):
        command_parser().parse_args(words)
    with pytest.raises(pytest.UsageError):
        pytest_parser().parse([words[0].replace("--", "--demo-"), words[1]])


def test_an_option_is_found_by_name() -> None:
    assert TABLE.named("wait").metavar == "SECONDS"
    with pytest.raises(KeyError):
        TABLE.named("nope")
