"""Scored search (seed 002): the engine's hits as `search` results with scores, reasons, previews and context.

This layer turns typed parameters (parsed and checked by the protocol layer)
into a payload without `metadata`; the server's tool module adds the metadata.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cruxgate.reference.index.extract import CONTENT_HEAD

from ..hits import RESULT_TYPE_ORDER
from ..workspace_files import FileView, WorkspaceFiles
from .context import context_name
from .facts import FactsStore, FileFacts, Span
from .normalize import Strength, page_scores, rank_key
from .preview import excerpt
from .reasons import (
    MatchReason,
    QueryText,
    classify,
    defs_in_hit,
    name_strength,
    reasons,
    text_strength,
    with_docs,
)

# A call scores a pool of the engine's top max(limit, MIN_POOL) hits: the score
# bands reorder hits inside the pool, and one pool for every limit up to
# MIN_POOL keeps those pages prefixes of one another. Each pooled hit is
# classified, so the pool is what a call costs. The tools' largest limit is at
# most MAX_POOL (a test holds it): page_scores never ties within MAX_POOL results.
MIN_POOL = 30


@dataclass(frozen=True, slots=True)
class ScoredSearchParams:
    """The arguments of `search` (the protocol layer parses and checks them; defaults are the tool schema's)."""

    query: str
    limit: int
    include_scores: bool
    preview_mode: bool
    min_score: float
    include_context: bool


def head(lines: list[str]) -> list[str]:
    """The lines a file result was matched on: those starting within the CONTENT_HEAD characters the index keeps."""
    kept, used = [], 0
    for line in lines:
        if used >= CONTENT_HEAD:
            break
        kept.append(line)
        used += len(line) + 1
    return kept


@dataclass(frozen=True)
class Seen:
    """A hit's lines as read now (its content, joined only for the page), the lines its evidence is looked
    for in, and their span."""

    content_lines: list[str]
    lines: list[str]
    span: Span

    def content(self) -> str:
        """The hit's text: its lines as the workspace has them now, or what the index stored."""
        return "\n".join(self.content_lines)


@dataclass(frozen=True)
class Judged:
    """One engine hit with what scored search found out about it."""

    hit: Any
    seen: Seen
    reason: MatchReason | None  # None when the call did not ask for match reasons and the name alone decided
    strength: Strength
    facts: FileFacts  # the symbols over the hit's lines: those around its first line give `context`

    def rank_key(self) -> tuple:
        """Its place in the documented total order."""
        h = self.hit
        return rank_key(self.strength, float(h.score), h.path, h.line_start,
                        RESULT_TYPE_ORDER.get(h.result_type, len(RESULT_TYPE_ORDER)), str(h.result_id))


@dataclass(frozen=True)
class Kept:
    """What scored search keeps across calls on one open index: the index's answers and the workspace's files."""

    facts: FactsStore
    files: WorkspaceFiles

    @classmethod
    def open(cls, conn: sqlite3.Connection, workspace: Path) -> Kept:
        """Empty caches over the index's SQLite and the workspace."""
        return cls(FactsStore(conn), WorkspaceFiles(Path(workspace)))


class ScoredSearch:
    """`search` over a QueryEngine, the index's SQLite and the workspace files.

    Pass the same `kept` to every ScoredSearch of one open index (or call one
    ScoredSearch again): the index never changes, and files are re-read only
    when they do.
    """

    def __init__(self, engine: Any, conn: sqlite3.Connection, workspace: Path,
                 clock: Callable[[], float] = time.perf_counter, kept: Kept | None = None) -> None:
        self._engine = engine
        self._kept = kept or Kept.open(conn, workspace)
        self._conn = conn
        self._clock = clock
        self.changed: frozenset[str] = frozenset()

    def run(self, params: ScoredSearchParams, budget: int | None = None) -> dict[str, Any]:
        """The `search` payload (without metadata) for validated `params`.

        With a `budget` (bytes), results stop at the first one that takes the page's content past it:
        the safety limit will cut the page to what fits, and nothing further is built (one 1 MB file
        per result would otherwise make a 100 MB answer). `changed` then names every file read that
        differs from what the index holds.
        """
        started = self._clock()
        pool = self._engine.search_code(params.query, limit=max(params.limit, MIN_POOL)).hits
        files = FileView(self._kept.files, self._conn)
        seen = [self._read(hit, files) for hit in pool]
        facts = self._kept.facts.facts(s.span for s in seen)
        query = QueryText(params.query)
        judged = sorted((self._judge(hit, s, query, facts[s.span], files, params.include_scores)
                         for hit, s in zip(pool, seen, strict=True)), key=Judged.rank_key)
        scores = page_scores([(j.strength, float(j.hit.score)) for j in judged])
        results = []
        used = 0
        for j, score in zip(judged[: params.limit], scores, strict=False):  # the page: a prefix of the pool
            if score < params.min_score:
                break  # scores strictly decrease: the rest are lower still
            result = self._result(j, score, params)
            results.append(result)
            used += len(result["content"]) + len(result.get("preview", ""))
            if budget is not None and used > budget:
                break
        self.changed = frozenset(files.changed)
        return {
            "query": params.query,
            "total_results": len(results),
            "results": results,
            "search_time_ms": int((self._clock() - started) * 1000),
        }

    @staticmethod
    def _read(hit: Any, files: FileView) -> Seen:
        """A hit's content as the workspace has it now, and the lines its evidence is looked for in."""
        line_end = hit.line_end or hit.line_start
        lines = files.span(hit.path, hit.line_start, line_end)
        if lines is None:  # gone, or no longer a file that may be read: fall back to what the index stored
            lines = (hit.snippet or hit.body_preview or "").splitlines()
        content = lines
        if hit.result_type == "file":  # the engine matched its path and head: the evidence is there
            lines = head(lines)
            line_end = hit.line_start + max(len(lines) - 1, 0)
        return Seen(content, lines, (hit.path, hit.line_start, line_end))

    @staticmethod
    def _judge(hit: Any, seen: Seen, query: QueryText, file_facts: FileFacts, files: FileView,
               with_reason: bool) -> Judged:
        """A hit's strength (every hit: the strength orders the pool) and, `with_reason`, its match reason."""
        _, line_start, line_end = seen.span
        defs = defs_in_hit(file_facts, hit.symbol_id if hit.result_type == "symbol" else None, line_start, line_end)
        by_name = name_strength(query, defs)
        if by_name is not None and not with_reason:  # the docs and lines would only name the reason
            return Judged(hit, seen, None, by_name, file_facts)
        defs = with_docs(defs, files.whole(hit.path))
        found = reasons(query, defs, list(enumerate(seen.lines, start=line_start)), file_facts.import_lines)
        return Judged(hit, seen, classify(found), by_name if by_name is not None else text_strength(found),
                      file_facts)

    @staticmethod
    def _result(j: Judged, score: float, params: ScoredSearchParams) -> dict[str, Any]:
        """One result: file, line, content and the optional fields the flags ask for."""
        hit = j.hit
        content = j.seen.content()
        result: dict[str, Any] = {"file": hit.path, "line": hit.line_start, "content": content}
        if params.include_scores:
            result["score"] = score
            assert j.reason is not None  # judged with its reason: the call asked for scores
            result["match_reason"] = j.reason.value
        if params.include_context:
            name = context_name(j.facts, hit.line_start)
            if name is not None:
                result["context"] = name
        if params.preview_mode:
            preview = excerpt(content, params.query)
            result["content"] = preview
            result["preview"] = preview
        return result
