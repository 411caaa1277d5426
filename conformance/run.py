"""`cruxgate run`: the gate in one command. It builds a pytest command line and calls pytest.main.

    cruxgate run [--target-profile FILE | --server-cmd CMD | --server-url URL] [--baseline FILE]
                 [--reports DIR] [--strict] [--fuzz] [--config FILE] [-- PYTEST_ARGS]

Options come from the command line, else from a config file: `--config FILE`, else `cruxgate.toml`,
else `[tool.cruxgate]` of `pyproject.toml`, both looked up in the current directory. Keys are the
long option names without their dashes (`target-profile = "my-server.yaml"`); paths in a file are
read relative to that file. pytest stays the engine: everything after `--` goes to it unchanged.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cruxgate.conformance.fuzz import options as fuzz_options
from cruxgate.conformance.spec.paths import SUITE_PACKAGE
from cruxgate.conformance.target import options as target_options

# key -> (kind, help). kind: "path" (relative to the config file), "text", "int", "float", "flag", "list".
# The target options first, as target/options.py declares them for every command; the fuzz options a run takes
# as fuzz/options.py declares them.
KINDS = {"choice": "text", "text": "text", "path": "path", "seconds": "float", "count": "int"}
FUZZ_KEYS = ("fuzz-examples", "fuzz-seed", "fuzz-out")
OPTIONS: dict[str, tuple[str, str]] = {
    **{option.name: (KINDS[option.kind], option.help) for option in target_options.OPTIONS},
    "baseline": ("path", "the scenarios you know you fail, each with a reason (docs/gate.md)"),
    "write-baseline": ("path", "record today's failures to this file, to start a baseline from"),
    "reports": ("path", "write conformance.xml (JUnit), conformance.json and conformance.md into this folder"),
    "strict": ("flag", "warnings fail too: SHOULDs, MCP conventions and the gate's readings"),
    "fuzz": ("flag", "add the fuzz phase: hostile and generated arguments for every listed tool"),
    **{option.name: (KINDS[option.kind], option.help) for option in fuzz_options.OPTIONS if option.name in FUZZ_KEYS},
    "spec-dir": ("path", "spec documents to run (default: the bundled spec)"),
    "pytest-args": ("list", "more pytest arguments, as a list of strings"),
}
REPORTS = (("--junitxml", "conformance.xml"), ("--conformance-json", "conformance.json"),
           ("--conformance-report", "conformance.md"))
CONFIG_FILE, PYPROJECT = "cruxgate.toml", "pyproject.toml"


class ConfigError(Exception):
    """A config file that cannot be used; the message names the file and the key."""


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Every config key as an option, plus --config and the pytest words after `--`."""
    parser.add_argument("words", nargs="*", metavar="-- PYTEST_ARGS", help="arguments for pytest, after `--`")
    parser.add_argument("--config", metavar="FILE", default=None,
                        help=f"config file (default: ./{CONFIG_FILE}, else [tool.cruxgate] in ./{PYPROJECT})")
    for key, (kind, help_text) in OPTIONS.items():
        if kind == "list":
            continue  # the words after `--` are the command line's pytest-args
        dest = key.replace("-", "_")
        if kind == "flag":
            parser.add_argument(f"--{key}", dest=dest, action="store_true", default=None, help=help_text)
        else:
            parser.add_argument(f"--{key}", dest=dest, metavar=key.split("-")[-1].upper(), default=None,
                                type={"int": int, "float": float}.get(kind, str), help=help_text)
    parser.epilog = "Exit status: pytest's (0 green, 1 a regression or stale baseline entry, 4 a usage error)."


@dataclass
class Settings:
    """The run's options: the command line's over the config file's."""

    values: dict[str, Any]
    source: str  # where the file-borne options came from, for the progress line


def find_config(explicit: str | None, cwd: Path) -> tuple[Path, Any] | None:
    """The config file's path and its cruxgate table, or None when there is none."""
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise ConfigError(f"config file {path} not found")
        data = _load(path)
        return path, data.get("tool", {}).get("cruxgate", {}) if path.name == PYPROJECT else data
    for path in (cwd / CONFIG_FILE, cwd / PYPROJECT):
        if path.is_file():
            data = _load(path)
            if path.name == CONFIG_FILE:
                return path, data
            if "cruxgate" in data.get("tool", {}):
                return path, data["tool"]["cruxgate"]
    return None


def _load(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config file {path} cannot be read as TOML: {exc}") from None


def read_table(path: Path, table: Any) -> dict[str, Any]:
    """The table's options checked against OPTIONS, paths made relative to the file's folder."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: the cruxgate settings must be a table")
    values: dict[str, Any] = {}
    items: dict[str, Any] = table
    for key, value in items.items():
        if key not in OPTIONS:
            raise ConfigError(f"{path}: unknown key {key!r} (known: {', '.join(OPTIONS)})")
        kind = OPTIONS[key][0]
        if not _fits(kind, value):
            raise ConfigError(f"{path}: {key} must be {KIND_NAMES[kind]}")
        values[key] = str(path.parent / value) if kind == "path" else value
    return values


KIND_NAMES = {"path": "a string", "text": "a string", "int": "an integer", "float": "a number",
              "flag": "true or false", "list": "a list of strings"}


def _fits(kind: str, value: Any) -> bool:
    if kind == "flag":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
    if kind == "list":
        return isinstance(value, list) and all(isinstance(word, str) for word in value)
    return isinstance(value, str)


def settings(args: argparse.Namespace, cwd: Path) -> Settings:
    """The config file's options overridden by those given on the command line."""
    found = find_config(args.config, cwd)
    values = read_table(*found) if found else {}
    for key in OPTIONS:
        given = getattr(args, key.replace("-", "_"), None)
        if given is not None:
            values[key] = given
    if args.words:
        values["pytest-args"] = [*values.get("pytest-args", []), *args.words]
    return Settings(values, str(found[0]) if found else "the command line")


def pytest_arguments(values: dict[str, Any]) -> list[str]:
    """The pytest command line a run stands for."""
    words = ["--pyargs", SUITE_PACKAGE, "-q"]
    if values.get("server-url") and not values.get("target"):
        values = {**values, "target": "http"}  # a running server is reached over Streamable HTTP
    for key, (kind, _) in OPTIONS.items():
        value = values.get(key)
        if value is None or value is False or key in ("reports", "pytest-args"):
            continue
        words += [f"--{key}"] if kind == "flag" else [f"--{key}", f"{value:g}" if kind == "float" else str(value)]
    if values.get("reports"):
        words += [word for option, name in REPORTS for word in (option, str(Path(values["reports"]) / name))]
    return words + list(values.get("pytest-args", []))


class Progress:
    """The run's phases, one short line each on stderr: what is gated, then the verdict and where the reports are."""

    def __init__(self, values: dict[str, Any], source: str) -> None:
        self.values, self.source = values, source
        self.fuzz_started = False
        self.exitstatus: int | None = None

    def pytest_collection_finish(self, session: Any) -> None:
        scenarios = sum(1 for item in session.items if not item.name.startswith("fuzz["))
        fuzz = len(session.items) - scenarios
        target = (self.values.get("target-profile") or self.values.get("server-cmd")
                  or self.values.get("server-url") or "the bundled reference server")
        extra = f" + {fuzz} fuzz item(s)" if fuzz else ""
        _say(f"collected {scenarios} scenario(s){extra}; target {target} over "
             f"{self.values.get('target') or 'stdio'} (options from {self.source})")

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        if "::fuzz[" in nodeid and not self.fuzz_started:
            self.fuzz_started = True
            _say("scenarios done; fuzz phase")

    def pytest_sessionfinish(self, session: Any, exitstatus: int) -> None:
        self.exitstatus = int(exitstatus)

    def pytest_unconfigure(self, config: Any) -> None:
        # After pytest's own summary, so the verdict is the last line.
        if self.exitstatus is None:
            return
        reports = self.values.get("reports")
        where = f"; reports in {reports}" if reports else ""
        _say(f"verdict: {'green' if self.exitstatus == 0 else 'red'} (exit status {self.exitstatus}){where}")


def _say(line: str) -> None:
    print(f"cruxgate run: {line}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Read the options, then run the gate under pytest."""
    try:
        chosen = settings(args, Path.cwd())
    except ConfigError as exc:
        print(f"cruxgate run: {exc}", file=sys.stderr)
        return 4  # pytest's usage-error status, as for a bad option
    if chosen.values.get("reports"):
        Path(chosen.values["reports"]).mkdir(parents=True, exist_ok=True)
    import pytest

    return int(pytest.main(pytest_arguments(chosen.values), plugins=[Progress(chosen.values, chosen.source)]))
