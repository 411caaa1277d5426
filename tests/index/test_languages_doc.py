"""docs/index.md names every file extension the indexer reads with a grammar, and none it does not."""

from __future__ import annotations

import re
from pathlib import Path

from cruxgate.reference.index.languages import EXTENSIONS

INDEX_DOC = Path(__file__).resolve().parents[2] / "docs" / "index.md"


def test_the_languages_paragraph_names_every_extension() -> None:
    text = INDEX_DOC.read_text(encoding="utf-8")
    start = text.index("Languages with a grammar")
    paragraph = text[start:text.index("\n\n", start)]
    named = {word for span in re.findall(r"`([^`]+)`", paragraph) for word in span.split() if word.startswith(".")}
    assert named == set(EXTENSIONS)
