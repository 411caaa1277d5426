"""The target options, declared once: the pytest plugin, `cruxgate run` and `cruxgate slo` are each made from them.

Each says how to reach the server under test (transport, profile, command, URL and its token), how long the
run may wait on it, and where the fixtures are. `cruxgate fuzz` takes them too.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cruxgate.conformance.target import deadline

SERVER_TOKEN_ENV = "CRUXGATE_SERVER_TOKEN"  # the bearer token for --server-url, where no other user can read it


@dataclass(frozen=True)
class TargetOption:
    """One target option: its flag, its value's kind (text | path | seconds | choice) and its help."""

    flag: str
    kind: str
    metavar: str | None
    help: str
    choices: tuple[str, ...] = ()
    default: Any = None  # the pytest option's default (the commands leave an option out when it is not given)

    @property
    def dest(self) -> str:
        """The attribute name argparse and pytest give the option."""
        return self.flag.removeprefix("--").replace("-", "_")

    @property
    def key(self) -> str:
        """Its key in `cruxgate run`'s config file (the flag without its dashes)."""
        return self.flag.removeprefix("--")


OPTIONS: tuple[TargetOption, ...] = (
    TargetOption("--target", "choice", None, "transport to reach the target over: stdio (default) or http (the "
                 "server is started on a free loopback port)", choices=("stdio", "http"), default="stdio"),
    TargetOption("--target-profile", "path", "FILE", "target profile YAML (schemas/target-profile.schema.json): "
                 "how to start, index and configure the server; default: the bundled reference"),
    TargetOption("--server-cmd", "text", "CMD", "the server's launch command ({workspace}, {config}, {state}, "
                 "{port} placeholders): with a profile it replaces only the launch command, alone it is the "
                 "whole target (no index command, no hooks)"),
    TargetOption("--server-url", "text", "URL", "a running Streamable HTTP server (with --target=http): nothing "
                 "is prepared, and scenarios that change its workspace or config skip"),
    TargetOption("--server-token-file", "path", "FILE", "with --server-url: send `Authorization: Bearer <token>`, "
                 f"the token read from FILE (the reference's: WORKSPACE/.cruxgate/http-token); "
                 f"${SERVER_TOKEN_ENV} gives the token instead"),
    TargetOption("--target-deadline", "seconds", "SECONDS", "every wait on the target ends by then, counted from "
                 f"its first use, and sooner once {deadline.rule_summary()}; later "
                 f"scenarios are not run (default: {deadline.DEFAULT_SECONDS:g} for the gate, none for the SLO "
                 "harness; 0: none)"),
    TargetOption("--fixtures-dir", "path", "DIR", "fixture repositories (default: the bundled golden/fixtures/)"),
)


def _seconds(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text}: seconds must be 0 or more")
    return value


def add_to_pytest(group: Any) -> None:
    """Each option on a pytest option group."""
    for option in OPTIONS:
        extra: dict[str, Any] = {"choices": option.choices} if option.choices else {"metavar": option.metavar}
        if option.kind == "seconds":
            extra["type"] = _seconds
        group.addoption(option.flag, default=option.default, help=option.help, **extra)


def add_to_argparse(parser: argparse.ArgumentParser) -> None:
    """Each option on a command's parser; an option not given is None (pytest's default then applies)."""
    group = parser.add_argument_group("target (as for pytest conformance/)")
    for option in OPTIONS:
        extra: dict[str, Any] = {"choices": option.choices} if option.choices else {"metavar": option.metavar}
        if option.kind == "seconds":
            extra["type"] = _seconds
        group.add_argument(option.flag, dest=option.dest, default=None, help=option.help, **extra)


def pytest_words(values: dict[str, Any]) -> list[str]:
    """The pytest words for the options given in `values` (by dest; None: not given)."""
    words: list[str] = []
    for option in OPTIONS:
        value = values.get(option.dest)
        if value is not None:
            words += [option.flag, f"{value:g}" if isinstance(value, float) else str(value)]
    return words


def server_token(token_file: str | None) -> str | None:
    """The bearer token for --server-url: the file's text, else $CRUXGATE_SERVER_TOKEN, else None (OSError, or
    ValueError for an empty one)."""
    if token_file:
        token = Path(token_file).read_text(encoding="utf-8", errors="replace").strip()
        if not token:
            raise ValueError(f"--server-token-file {token_file} is empty")
        return token
    return os.environ.get(SERVER_TOKEN_ENV, "").strip() or None
