"""Where a generation's semantic index keeps its manifest, and which sentence model made its vectors.

Outside `semantic/` because that package imports numpy when it loads: an index run over an unchanged tree reads
the live generation's model here and links the generation without ever importing numpy (docs/semantic.md).
"""

from __future__ import annotations

import json
from pathlib import Path

SEMANTIC_DIR = "semantic"
MANIFEST = "manifest.json"


def sentence_identity(generation: Path) -> str | None:
    """The identity of the sentence model whose vectors `generation`'s semantic index carries (None: it has none);
    raises OSError or ValueError when its manifest cannot be read or its `sentence` entry names no model."""
    manifest = json.loads((generation / SEMANTIC_DIR / MANIFEST).read_text(encoding="utf-8"))
    entry = manifest.get("sentence") if isinstance(manifest, dict) else None
    if entry is None:
        return None
    if not isinstance(entry, dict) or "model" not in entry:
        raise ValueError(f"{generation / SEMANTIC_DIR / MANIFEST}: a `sentence` entry without its model")
    return str(entry["model"])
