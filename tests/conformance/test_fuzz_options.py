"""The fuzz options are declared once (conformance/fuzz/options.py): pytest's `--fuzz-*` and `cruxgate fuzz`'s
are the same set (`cruxgate run` takes three of them), a value given to a command reaches pytest as the same value,
and one not given leaves pytest's default in place."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from _pytest.config.argparsing import Parser

from cruxgate.conformance import plugin, run
from cruxgate.conformance.fuzz import command
from cruxgate.conformance.fuzz import options as fuzz_options
from cruxgate.conformance.spec.paths import schemas_dir

# pytest's Parser is built directly, as pytest builds it for a plugin's pytest_addoption.
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestDeprecationWarning")
# Written out, not read from the table: dropping one from the table must fail here.
GIVEN = ["--fuzz-examples", "7", "--fuzz-seed", "17", "--fuzz-phases", "coverage", "--fuzz-exclude-checks",
         "FZ-OUTPUT", "--fuzz-call-timeout", "2.5", "--fuzz-fixture", "tiny", "--fuzz-out", "out/fuzz"]
PARSED = {"fuzz_examples": 7, "fuzz_seed": 17, "fuzz_phases": "coverage", "fuzz_exclude_checks": "FZ-OUTPUT",
          "fuzz_call_timeout": 2.5, "fuzz_fixture": "tiny", "fuzz_out": "out/fuzz"}
DEFAULTS = {"fuzz_examples": 100, "fuzz_seed": None, "fuzz_phases": "coverage,fuzzing", "fuzz_exclude_checks": "",
            "fuzz_call_timeout": 10.0, "fuzz_fixture": "polyglot", "fuzz_out": ".cruxgate-fuzz"}


def pytest_parser() -> Parser:
    parser = Parser()
    plugin.pytest_addoption(parser)
    return parser


def command_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(exit_on_error=False)
    command.add_arguments(parser, "fuzz")
    return parser


def run_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(exit_on_error=False)
    run.add_arguments(parser, "run")
    return parser


def fuzz_values(namespace: argparse.Namespace) -> dict[str, object]:
    return {dest: value for dest, value in vars(namespace).items() if dest in PARSED}


def test_pytest_and_the_command_accept_the_same_fuzz_options() -> None:
    pytest_flags = {name for option in pytest_parser().getgroup("cruxgate").options for name in option.names()}
    command_flags = {name for action in command_parser()._actions for name in action.option_strings}
    fuzz_flags = set(GIVEN[::2])
    assert {flag for flag in pytest_flags if flag.startswith("--fuzz")} == fuzz_flags | {"--fuzz"}
    assert {flag for flag in command_flags if flag.startswith("--fuzz")} == fuzz_flags  # it always passes --fuzz


def test_a_value_given_to_the_command_reaches_pytest_as_the_same_value() -> None:
    words = command.pytest_arguments(command_parser().parse_args(GIVEN))
    assert words[words.index("--fuzz-examples"):] == GIVEN
    assert fuzz_values(pytest_parser().parse(words[words.index("--fuzz-examples"):])) == PARSED
    assert fuzz_values(pytest_parser().parse(GIVEN)) == PARSED


def test_an_option_not_given_is_not_passed_on_and_pytest_default_applies() -> None:
    args = command_parser().parse_args([])
    assert not any(word.startswith("--fuzz-") for word in command.pytest_arguments(args))
    assert fuzz_values(pytest_parser().parse([])) == DEFAULTS


def test_cruxgate_run_hands_its_fuzz_options_to_pytest_as_given(tmp_path: Path) -> None:
    # `cruxgate run` takes three of them, from its command line or its config file.
    taken = GIVEN[:4] + GIVEN[-2:]
    chosen = run.settings(run_parser().parse_args(taken), cwd=tmp_path)
    words = run.pytest_arguments(chosen.values)
    start = words.index("--fuzz-examples")
    assert words[start:start + 6] == taken
    given = {dest: PARSED[dest] for dest in ("fuzz_examples", "fuzz_seed", "fuzz_out")}
    assert fuzz_values(pytest_parser().parse(words[start:start + 6])) == {**DEFAULTS, **given}
    (tmp_path / "cruxgate.toml").write_text("fuzz-examples = 7\nfuzz-seed = 17\n", encoding="utf-8")
    assert run.settings(run_parser().parse_args([]), cwd=tmp_path).values == {"fuzz-examples": 7, "fuzz-seed": 17}


@pytest.mark.parametrize("words", [["--fuzz-call-timeout", "-1"], ["--fuzz-examples", "x"], ["--fuzz-seed", "1.5"]])
def test_both_refuse_the_same_bad_value(words: list[str]) -> None:
    with pytest.raises(argparse.ArgumentError):
        command_parser().parse_args(words)
    with pytest.raises(pytest.UsageError):
        pytest_parser().parse(words)


def test_the_fuzz_docs_have_a_row_for_every_fuzz_option() -> None:
    # docs/conformance.md's fuzz option table says more of each than its help, so it is written by hand: this keeps
    # its rows (flag and metavar) and the option table's the same set.
    text = (schemas_dir().parent / "docs" / "conformance.md").read_text(encoding="utf-8")
    section = text.split("\n## The fuzz phase\n", 1)[1].split("\n## ", 1)[0]
    rows = {match[1] for line in section.splitlines() if (match := re.match(r"\| `(--fuzz-[^`]+)`", line))}
    assert rows == {f"{option.flag} {option.metavar}" for option in fuzz_options.OPTIONS}
