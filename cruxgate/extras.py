"""Which optional dependency groups (extras) of the installed cruxgate distribution are missing."""

from __future__ import annotations

from importlib import metadata

from packaging.requirements import Requirement  # pytest's own dependency, so every install has it

DISTRIBUTION = "cruxgate"
REFERENCE = "reference"


def install_hint(extra: str) -> str:
    """The command that installs `extra`."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def missing(extra: str) -> list[str]:
    """The distributions `extra` requires that are not installed ([] when cruxgate runs from a bare checkout)."""
    try:
        requires = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return []
    absent = []
    for line in requires:
        requirement = Requirement(line)
        marker = requirement.marker
        if requirement.name == DISTRIBUTION or marker is None or not marker.evaluate({"extra": extra}) \
                or marker.evaluate({"extra": ""}):
            continue  # not this extra's own requirement
        try:
            metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            absent.append(requirement.name)
    return absent
