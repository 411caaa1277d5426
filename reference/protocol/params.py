"""The typed parameters of each tool: one field per property of its input schema, None when absent.

Fields carry no defaults: `arguments.parse_arguments` fills them from the schema's `default`, the one
place a default is written (a test pins each class's fields to its schema's properties).
"""

from __future__ import annotations

from dataclasses import dataclass

from cruxgate.reference.query.scored.search import ScoredSearchParams


@dataclass(frozen=True, slots=True)
class SearchCodeParams:
    """search_code's arguments."""

    query: str
    limit: int
    language: str | None
    role: str | None
    detail_level: str | None
    compact: bool
    ranking_explain_level: str | None
    freshness_policy: str | None


@dataclass(frozen=True, slots=True)
class LocateSymbolParams:
    """locate_symbol's arguments (`query` is an alias of `name`)."""

    name: str | None
    query: str | None
    kind: str | None
    limit: int
    language: str | None
    role: str | None
    detail_level: str | None
    compact: bool
    ranking_explain_level: str | None
    freshness_policy: str | None

    @property
    def text(self) -> str:
        """The name to locate: `name`, else its alias `query` (the schema requires one of them)."""
        return self.name if self.name is not None else self.query  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class GetFileOutlineParams:
    """get_file_outline's arguments."""

    path: str
    ref: str | None
    depth: str
    language: str | None
    freshness_policy: str | None


@dataclass(frozen=True, slots=True)
class FindReferencesParams:
    """find_references' arguments."""

    name: str | None
    symbol_id: int | None
    limit: int
    freshness_policy: str | None

    @property
    def target(self) -> int | str:
        """What to find references to: `symbol_id` when given, else `name` (the schema requires one of them)."""
        return self.symbol_id if self.symbol_id is not None else self.name  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class IndexRepoParams:
    """index_repo's arguments."""

    force: bool


@dataclass(frozen=True, slots=True)
class NoParams:
    """A tool that takes no arguments."""


@dataclass(frozen=True, slots=True)
class SearchPreviewParams:
    """search_preview's arguments: `search` with scores, previews and context on."""

    query: str
    limit: int
    min_score: float

    def as_search(self) -> ScoredSearchParams:
        """The `search` call this stands for (seed 002, "Companion Tool")."""
        return ScoredSearchParams(query=self.query, limit=self.limit, include_scores=True, preview_mode=True,
                                  min_score=self.min_score, include_context=True)


# `search` takes the scored search's own parameters as they are.
PARAMS: dict[str, type] = {
    "search_code": SearchCodeParams,
    "locate_symbol": LocateSymbolParams,
    "get_file_outline": GetFileOutlineParams,
    "find_references": FindReferencesParams,
    "health_check": NoParams,
    "index_status": NoParams,
    "index_repo": IndexRepoParams,
    "sync_repo": NoParams,
    "search": ScoredSearchParams,
    "search_preview": SearchPreviewParams,
}
