"""What the engine answers: ranked hits, the result page and the deterministic tie-break."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from .ranking import Breakdown

# Among equal scores a definition comes before a snippet, a snippet before a whole file.
RESULT_TYPE_ORDER = {"symbol": 0, "snippet": 1, "file": 2}


class HitDetails(Protocol):
    """Loads a hit's descriptive fields on first use (see `details.py`)."""

    def body_preview(self, hit: Hit) -> str | None: ...
    def parent(self, hit: Hit) -> dict[str, Any] | None: ...
    def related_symbols(self, hit: Hit) -> list[dict[str, Any]]: ...


@dataclass(eq=False, slots=True)
class Hit:
    """One ranked result; `body_preview`, `parent` and `related_symbols` load lazily, so ranking never pays for them."""

    result_type: str
    result_id: str
    path: str
    line_start: int
    line_end: int
    score: float
    bm25_score: float = 0.0
    symbol_id: int | None = None
    symbol_stable_id: str | None = None
    kind: str | None = None
    name: str | None = None
    qualified_name: str | None = None
    signature: str | None = None
    language: str | None = None
    visibility: str | None = None
    snippet: str | None = None
    semantic_similarity: float | None = None
    semantic_score: float = 0.0  # similarity in BM25 units, part of `score` (semantic/fusion.py)
    signals: tuple[float, ...] = ()  # the raw ranking signals its score was built from (SIGNALS order)
    breakdown: Breakdown | None = None
    details: HitDetails | None = field(default=None, repr=False)
    _loaded: dict[str, Any] = field(default_factory=dict, repr=False)

    def _load(self, name: str, default: Any) -> Any:
        if name not in self._loaded:
            self._loaded[name] = default if self.details is None else getattr(self.details, name)(self)
        return self._loaded[name]

    @property
    def body_preview(self) -> str | None:
        """The first lines of the result's span, truncated (None when unreadable)."""
        return self._load("body_preview", None)

    @property
    def parent(self) -> dict[str, Any] | None:
        """The enclosing symbol (kind, name, path, line), or None at top level."""
        return self._load("parent", None)

    @property
    def related_symbols(self) -> list[dict[str, Any]]:
        """Nearby symbols: a container's members, else its siblings."""
        return self._load("related_symbols", [])


def sort_key(hit: Hit) -> tuple:
    """Stable order: score desc, then path, line_start, line_end, result type, result_id (all ascending)."""
    return (-hit.score, hit.path, hit.line_start, hit.line_end, RESULT_TYPE_ORDER.get(hit.result_type, 9),
            hit.result_id)


@dataclass(slots=True)
class QueryResult:
    """A ranked, deduplicated page of hits plus what the metadata needs."""

    hits: list[Hit]
    suppressed_duplicate_count: int = 0
    semantic: dict[str, Any] = field(default_factory=dict)
