"""The module tables of the docs list every module of the package they describe, and none that is gone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def section(doc: str, heading: str) -> str:
    """The text of one `## heading` section of a doc (up to the next heading of that level or above)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    start = text.index(f"## {heading}\n")
    after = re.search(r"^#{1,2} ", text[start + 3:], re.MULTILINE)
    return text[start: start + 3 + after.start()] if after else text[start:]


def table_cells(text: str, column: int) -> list[str]:
    """One column of every Markdown table row in `text` (header and rule rows left out)."""
    rows = [line for line in text.splitlines() if line.startswith("|") and not line.startswith("| ---")]
    return [re.split(r"(?<!\\)\|", row)[column + 1] for row in rows[1:] if not row.startswith("| module")]


def named_paths(cells: list[str], base: str) -> set[str]:
    """The `.py` files and folders (`name/`) the cells name in backticks, as paths under `base`."""
    names = {name for cell in cells for name in re.findall(r"`([\w/.*]+)`", cell)}
    return {f"{base}/{name}" if not name.startswith(base) else name
            for name in names if name.endswith((".py", "/")) or "*" in name}


def covered(path: Path, named: set[str]) -> bool:
    """Whether a module file is named by the table, itself or through a folder or glob it sits in."""
    rel = path.relative_to(ROOT).as_posix()
    return rel in named or any(n.endswith("/") and rel.startswith(n) for n in named) or any(
        "*" in n and path.match(n) and path.parent == ROOT / Path(n).parent for n in named)


def modules(*folders: str) -> list[Path]:
    """The modules of the folders (package markers and bundled data left out), recursing into sub-packages."""
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py")
                  if p.name != "__init__.py" and "data" not in p.relative_to(ROOT).parts)


TABLES = [
    # doc, section, column holding the module, base folder of relative names, the folders it describes
    ("docs/conformance.md", "Modules", 0, "conformance", ["conformance"]),
    ("docs/query.md", None, 1, "reference/query", ["reference/query"]),
    ("docs/server.md", None, 1, "reference", ["reference/server", "reference/protocol"]),
]


def table_of(doc: str, heading: str | None, column: int, base: str) -> set[str]:
    """The paths the tables of one section name (heading None: the page's opening, before its first `##`)."""
    opening = (ROOT / doc).read_text(encoding="utf-8").split("\n## ", 1)[0]
    text = opening if heading is None else section(doc, heading)
    return named_paths(table_cells(text, column), base)


@pytest.mark.parametrize(("doc", "heading", "column", "base", "folders"), TABLES, ids=[t[0] for t in TABLES])
def test_every_module_has_a_row_and_every_row_a_module(doc: str, heading: str | None, column: int, base: str,
                                                       folders: list[str]) -> None:
    named = table_of(doc, heading, column, base)
    if doc == "docs/conformance.md":  # the SLO harness's modules have their table in benchmarks.md
        named |= named_paths(table_cells(section("docs/benchmarks.md", "Modules").split("In `benchmarks/`")[0], 0),
                             "conformance/slo")
    missing = [p.relative_to(ROOT).as_posix() for p in modules(*folders) if not covered(p, named)]
    assert not missing, f"{doc} has no row for {missing}"
    gone = sorted(n for n in named if not (list(ROOT.glob(n)) if "*" in n else (ROOT / n).exists()))
    assert not gone, f"{doc} names modules that do not exist: {gone}"
