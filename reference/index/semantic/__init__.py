"""The semantic index: LSI over identifier sub-tokens, docstrings and comments, built from the indexed code.

`SemanticIndexBuilder` runs inside an index run and writes `gen-<n>/semantic/` before the flip;
`SemanticIndex.open(generation)` loads it for the query side (docs/semantic.md).
"""

from .model import SEMANTIC_DIR, Match, SemanticIndex, SemanticIndexError

__all__ = ["SEMANTIC_DIR", "Match", "SemanticIndex", "SemanticIndexError"]
