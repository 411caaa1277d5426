"""An option table: options declared once, each spelled for a `cruxgate` command's parser and for a pytest plugin.

The target options (target/options.py) and the SLO harness's (slo/options.py) are two such tables. A command
passes on to pytest only the options it was given (`pytest_words`), so pytest's own default applies otherwise.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


def seconds(text: str) -> float:
    """A number of seconds, 0 or more (argparse's and pytest's `type` for a seconds option)."""
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text}: seconds must be 0 or more")
    return value


# The keywords each kind of value adds, the same for argparse's add_argument and pytest's addoption.
KIND_KEYWORDS: dict[str, dict[str, Any]] = {
    "switch": {"action": "store_true"},  # given or not: no value
    "count": {"type": int},
    "seconds": {"type": seconds},
    "path": {},
    "text": {},
    "choice": {},  # one of the option's choices
}


@dataclass(frozen=True)
class Option:
    """One option: its name (the flag without dashes), its value's kind (KIND_KEYWORDS), metavar and help."""

    name: str
    kind: str
    metavar: str | None
    help: str
    choices: tuple[str, ...] = ()
    default: Any = None  # pytest's default; None: off for a switch, else not set (the plugin's own default applies)

    @property
    def flag(self) -> str:
        """A command's spelling of the option."""
        return f"--{self.name}"

    @property
    def dest(self) -> str:
        """The attribute a command's parser gives the option."""
        return self.name.replace("-", "_")

    @property
    def not_given(self) -> Any:
        """The value a command's parser gives the option when it is not on the command line."""
        return False if self.kind == "switch" else None

    @property
    def pytest_default(self) -> Any:
        """The value pytest gives the option when it is not on the command line."""
        return self.not_given if self.default is None else self.default

    def keywords(self) -> dict[str, Any]:
        """add_argument's and addoption's keywords for the option's value (its kind's, its choices or metavar)."""
        spelled: dict[str, Any] = {"choices": self.choices} if self.choices else {}
        if self.metavar and not self.choices:
            spelled["metavar"] = self.metavar
        return {**KIND_KEYWORDS[self.kind], **spelled}


@dataclass(frozen=True)
class OptionTable:
    """Options a command spells `--NAME` in one argument group and a pytest plugin `--PREFIXNAME`."""

    group: str  # the title of the command's argument group
    options: tuple[Option, ...]
    pytest_prefix: str = ""  # pytest's options share one namespace: a plugin's own may carry a prefix

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def named(self, name: str) -> Option:
        """The option of that name (KeyError when there is none)."""
        found = next((option for option in self.options if option.name == name), None)
        if found is None:
            raise KeyError(name)
        return found

    def pytest_flag(self, option: Option) -> str:
        """The pytest plugin's spelling of the option."""
        return f"--{self.pytest_prefix}{option.name}"

    def add_to_pytest(self, group: Any) -> None:
        """Each option on a pytest option group."""
        for option in self.options:
            group.addoption(self.pytest_flag(option), default=option.pytest_default, help=option.help,
                            **option.keywords())

    def add_to_argparse(self, parser: argparse.ArgumentParser) -> None:
        """Each option on a command's parser, as `--NAME`, in a group of its own."""
        group = parser.add_argument_group(self.group)
        for option in self.options:
            group.add_argument(option.flag, dest=option.dest, default=option.not_given, help=option.help,
                               **option.keywords())

    def pytest_words(self, values: dict[str, Any]) -> list[str]:
        """The pytest words for the options given in `values` (by dest; a switch off or a value None: not given)."""
        words: list[str] = []
        for option in self.options:
            value = values.get(option.dest)
            if value is None or value is False:
                continue
            flag = self.pytest_flag(option)
            words += [flag] if option.kind == "switch" else [flag, _word(value)]
        return words


def _word(value: Any) -> str:
    """A value as pytest's word: a whole float without its ".0", any other float exactly as given."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)
