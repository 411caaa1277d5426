"""Comments and docstrings name the document statement or the behaviour, never our tracker's issue numbers.

Users of the gate cannot see that tracker, so a reference to one of its issues explains nothing to them.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("conformance", "reference", "cruxgate", "benchmarks", "tests", ".ci")
TRACKER_REFERENCE = re.compile(r"\bissues?\s+#?\d+|\(#\d+\)", re.IGNORECASE)


def python_files() -> list[Path]:
    """Every Python source of the checkout's own folders (symlinked copies under cruxgate/ read once)."""
    seen: dict[Path, Path] = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            seen.setdefault(path.resolve(), path)
    return sorted(seen.values())


def tracker_references(source: str) -> list[tuple[int, str]]:
    """(line, text) of each comment or string token of one source that names an issue by number."""
    return [(token.start[0], token.string.strip()[:100])
            for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type in (tokenize.COMMENT, tokenize.STRING) and TRACKER_REFERENCE.search(token.string)]


def test_the_scanner_finds_comments_and_docstrings_that_name_an_issue() -> None:
    # The word is put in by format, so this file's own source names no issue.
    source = '"""Docstring ({} 12)."""\nx = 1  # see {} #7\ny = "plain"  # issues are files\n'.format("issue", "Issue")
    assert [line for line, _ in tracker_references(source)] == [1, 2]


def test_no_comment_or_docstring_names_a_tracker_issue() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {text}" for path in python_files()
             for line, text in tracker_references(path.read_text(encoding="utf-8"))]
    assert found == []
