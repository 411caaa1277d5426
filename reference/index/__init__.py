"""The reference indexer: tree-sitter extraction into SQLite + Tantivy, one generation per run.

Pinned API (docs/ARCHITECTURE.md): SCHEMA_VERSION, index_workspace, read_state, IndexState,
IndexReader, IndexNotReady. `index_workspace` loads lazily so readers (the server) do not
import the parsers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .reader import IndexNotReady, IndexReader
from .state import SCHEMA_VERSION, IndexState, read_state

if TYPE_CHECKING:
    from .build import IndexSummary, WorkspaceError, index_workspace

__all__ = ["SCHEMA_VERSION", "IndexNotReady", "IndexReader", "IndexState", "IndexSummary", "WorkspaceError",
           "index_workspace", "read_state"]


def __getattr__(name: str) -> Any:
    if name in ("index_workspace", "IndexSummary", "WorkspaceError"):
        from . import build
        return getattr(build, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
