"""The semantic channel of search_code: whether it runs, its budget, its candidates, and the metadata that says so.

Skip reasons, checked in this order (the first that applies is reported):

    semantic_disabled        mode is off
    semantic_ratio_zero      ratio is 0: similarity would weigh nothing
    no_symbol_kinds          the role filter admits no kind (the channel returns symbols only)
    semantic_index_missing   the generation has no semantic index        -> fallback, degraded
    semantic_backend_error   the index is unreadable or the search failed -> fallback, degraded
    identifier_query         the query is one token (`validate_token`, `UserService`, `app::config::Config`):
                             an identifier lookup, which the lexical channel answers exactly
    too_few_query_terms      fewer than two distinct query terms the index knows
    semantic_no_matches      no symbol above the similarity floor passed the filters
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from cruxgate.reference.config import SemanticConfig
from cruxgate.reference.index.semantic import Match, SemanticIndex, SemanticIndexError
from cruxgate.reference.index.semantic.embedding import open_embedding_index
from cruxgate.reference.index.semantic.sentence import open_sentence_index
from cruxgate.reference.index.semantic.text import terms as text_terms

from .budget import Budget, budget
from .candidates import SemanticCandidate

DISABLED = "semantic_disabled"
RATIO_ZERO = "semantic_ratio_zero"
NO_SYMBOL_KINDS = "no_symbol_kinds"
INDEX_MISSING = "semantic_index_missing"
BACKEND_ERROR = "semantic_backend_error"
IDENTIFIER_QUERY = "identifier_query"
TOO_FEW_QUERY_TERMS = "too_few_query_terms"
NO_MATCHES = "semantic_no_matches"
MIN_QUERY_TERMS = 2
# Below this a match shares little more than a common word with the query.
MIN_SIMILARITY = 0.05
# At ratio 1 lexical evidence would weigh nothing at all; the effective ratio stops short of it.
MAX_RATIO = 0.95

log = logging.getLogger("cruxgate.semantic")


class Backend(Protocol):
    """What the channel asks of a semantic index (reference.index.semantic.SemanticIndex)."""

    def known_terms(self, terms: list[str]) -> list[str]: ...

    def search(self, terms: list[str], limit: int, min_similarity: float, *, text: str | None = None) -> list[Match]:
        """The best rows for the question (`text`: its words as asked, which a sentence model reads)."""
        ...


@dataclass(frozen=True, slots=True)
class SemanticOutcome:
    """One call's semantic state: the candidates when it runs, else the reason it did not."""

    mode: str
    enabled: bool
    ratio: float
    reason: str | None = None
    fallback: bool = False
    budget: Budget | None = None
    retrieved: int = 0
    candidates: list[SemanticCandidate] = field(default_factory=list)

    @property
    def triggered(self) -> bool:
        """The channel ran and its candidates join the ranking."""
        return self.reason is None

    def skip(self, reason: str, fallback: bool = False) -> SemanticOutcome:
        """The same call, skipped for `reason` (fallback: the backend failed, so the answer is lexical only)."""
        return replace(self, reason=reason, fallback=fallback, budget=None, retrieved=0, candidates=[])

    def metadata(self) -> dict[str, Any]:
        """search_code's semantic metadata (seed 000); the budget fields only when the channel ran."""
        meta: dict[str, Any] = {
            "semantic_mode": self.mode, "semantic_enabled": self.enabled,
            "semantic_ratio_used": self.ratio if self.triggered else 0.0,
            "semantic_triggered": self.triggered, "semantic_fallback": self.fallback,
            "semantic_degraded": self.fallback,
        }
        if self.reason is not None:
            meta["semantic_skipped_reason"] = self.reason
        if self.budget is not None and self.triggered:
            meta.update(self.budget.metadata())
            meta["semantic_budget_exhausted"] = self.retrieved >= self.budget.semantic_cap
        return meta


class SemanticChannel:
    """The configured channel over one generation's semantic index, opened on first use; shared by threads."""

    def __init__(self, settings: SemanticConfig, open_backend: Callable[[], Backend]) -> None:
        self.settings = settings
        self._open = open_backend
        self._backend: Backend | None = None
        self._failure: SemanticIndexError | None = None
        self._lock = threading.Lock()

    def backend(self) -> Backend:
        """The loaded index; a load failure is kept, so every call of this generation reports the same reason."""
        with self._lock:
            if self._backend is None and self._failure is None:
                try:
                    self._backend = self._open()
                except SemanticIndexError as err:
                    log.warning("semantic channel degraded to lexical: %s", err)
                    self._failure = err
            if self._failure is not None:
                raise self._failure
            assert self._backend is not None
            return self._backend

    def run(self, text: str, limit: int, symbols: bool = True) -> SemanticOutcome:
        """Decide whether the channel runs for this query and, if it does, fetch its candidates (best first)."""
        s = self.settings
        outcome = SemanticOutcome(mode=s.mode, enabled=s.mode != "off", ratio=min(s.ratio, MAX_RATIO))
        if s.mode == "off":
            return outcome.skip(DISABLED)
        if s.ratio <= 0.0:
            return outcome.skip(RATIO_ZERO)
        if not symbols:
            return outcome.skip(NO_SYMBOL_KINDS)
        try:
            backend = self.backend()
        except SemanticIndexError as err:
            return outcome.skip(err.reason, fallback=True)
        if len(text.split()) < 2:
            return outcome.skip(IDENTIFIER_QUERY)
        words = text_terms(text)
        if len(backend.known_terms(words)) < MIN_QUERY_TERMS:
            return outcome.skip(TOO_FEW_QUERY_TERMS)
        plan = budget(limit, s.semantic_limit_multiplier, s.lexical_fanout_multiplier, s.semantic_fanout_multiplier)
        try:
            matches = backend.search(words, plan.semantic_limit, MIN_SIMILARITY, text=text)
        except Exception as err:  # noqa: BLE001 - any backend failure degrades to lexical, never fails the call
            log.warning("semantic search failed, answering lexically: %s: %s", type(err).__name__, err)
            return outcome.skip(BACKEND_ERROR, fallback=True)
        if not matches:
            return outcome.skip(NO_MATCHES)
        return replace(outcome, budget=plan, retrieved=len(matches),
                       candidates=[SemanticCandidate(m.stable_id, m.similarity, path=m.path, line_start=m.line_start,
                                                 line_end=m.line_end, language=m.language) for m in matches])


class DisabledSemanticChannel(SemanticChannel):
    """The channel with mode off: nothing is opened, every call reports `semantic_disabled`."""

    def __init__(self) -> None:
        super().__init__(SemanticConfig(mode="off"), _no_backend)


def _no_backend() -> Backend:
    raise SemanticIndexError(INDEX_MISSING, "no semantic index configured")


def channel_for(settings: SemanticConfig, generation: Path) -> SemanticChannel:
    """The configured channel over `generation`'s semantic index (opened on the first query that needs it): LSI,
    the static word vectors of `settings.model` (a local file), or the vectors of a sentence model, over the same
    index."""
    if settings.backend == "sentence":
        return SemanticChannel(settings, lambda: open_sentence_index(generation, settings.model))
    if settings.backend == "static" and settings.model:
        model = Path(settings.model)
        return SemanticChannel(settings, lambda: open_embedding_index(generation, model))
    return SemanticChannel(settings, lambda: SemanticIndex.open(generation))
