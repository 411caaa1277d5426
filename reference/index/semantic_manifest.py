"""Where a generation's semantic index keeps its manifest, and the manifest's entry for sentence vectors: which
model made them. This module writes that entry's keys and reads them; nothing else spells them.

Outside `semantic/` because that package imports numpy when it loads: an index run over an unchanged tree reads
the live generation's model here and links the generation without ever importing numpy (docs/semantic.md).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

SEMANTIC_DIR = "semantic"
MANIFEST = "manifest.json"
# The semantic index's files and what they hold (semantic/model.py reads them): an index of another format is
# rebuilt, never linked into a new generation, folded into or read.
FORMAT = 3
SENTENCE = "sentence"  # the manifest's key for the entry; absent: the index has no sentence vectors (LSI only)


@dataclass(frozen=True)
class SentenceEntry:
    """The manifest's `sentence` entry: which model (and row text) made the vectors, their width, the model's folder."""

    model: str  # the model's identity (its files' hash and the row-text recipe): what a reuse or a fold compares
    dimensions: int
    folder: str  # where the model was read from: for messages only

    def add_to(self, manifest: dict[str, Any]) -> None:
        """Put this entry into `manifest` (a semantic index's, about to be written)."""
        manifest[SENTENCE] = asdict(self)


def sentence_entry(manifest: Any, where: Path | str) -> SentenceEntry | None:
    """The `sentence` entry of a parsed manifest (None: the index has no sentence vectors); raises ValueError when
    the entry names no model or gives a width that is no whole number (`where`: the manifest's path, for messages)."""
    entry = manifest.get(SENTENCE) if isinstance(manifest, dict) else None
    if entry is None:
        return None
    if not isinstance(entry, dict) or "model" not in entry:
        raise ValueError(f"{where}: a `{SENTENCE}` entry without its model")
    dimensions = entry.get("dimensions", 0)
    if not isinstance(dimensions, int):
        raise ValueError(f"{where}: the `{SENTENCE}` entry's dimensions are {dimensions!r}")
    return SentenceEntry(str(entry["model"]), dimensions, str(entry.get("folder", "")))


def sentence_identity(generation: Path) -> str | None:
    """The identity of the sentence model whose vectors `generation`'s semantic index carries (None: it has none);
    raises OSError or ValueError when its manifest cannot be read or its `sentence` entry names no model."""
    entry = sentence_entry(_manifest(generation), generation / SEMANTIC_DIR / MANIFEST)
    return entry.model if entry is not None else None


def semantic_format(generation: Path) -> Any:
    """The format `generation`'s semantic index was written in, as its manifest says (None: it does not say); raises
    OSError or ValueError when the manifest cannot be read."""
    manifest = _manifest(generation)
    return manifest.get("format") if isinstance(manifest, dict) else None


def _manifest(generation: Path) -> Any:
    """`generation`'s semantic manifest, parsed (OSError, ValueError: it cannot be read)."""
    return json.loads((generation / SEMANTIC_DIR / MANIFEST).read_text(encoding="utf-8"))
