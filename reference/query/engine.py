"""QueryEngine: search_code, locate_symbol, file_outline and find_references over one open index.

Arguments arrive typed and checked (the protocol layer parses tool arguments against their input
schemas), so the engine does not check them again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from cruxgate.reference.index.languages import canonical_language

from . import retrieval
from .dedup import top_k_unique
from .details import HitDetailsLoader
from .filters import allowed_kinds
from .hits import Hit, QueryResult, sort_key
from .outline import Outline, file_outline
from .ranking import QueryFeatures, breakdown, raw_signals
from .references import References, find_references
from .semantic import DisabledSemanticChannel, SemanticCandidate, SemanticChannel, SemanticOutcome, enrich, fuse
from .semantic.channel import NO_MATCHES
from .workspace_files import FileView, WorkspaceFiles

# Candidates fetched per channel before reranking: the boosts (exact name +5, kind, intent)
# reorder BM25's list, so each channel looks further than the page it fills.
SEARCH_FANOUT = (3, 30)   # symbols: max(limit * 3, 30)
LOCATE_FANOUT = (5, 50)   # max(limit * 5, 50)
# Outlines kept per open index: a generation never changes, so an outline read once stays true for its life.
OUTLINES_KEPT = 32

_SYMBOL_SQL = """SELECT symbol_id, symbol_stable_id, path, language, name, qualified_name, kind,
                        line_start, line_end, signature, visibility
                 FROM symbols WHERE symbol_id IN ({})"""
_FILE_SQL = "SELECT file_id, path, language, line_count FROM files WHERE file_id IN ({})"
# Definitions spelled exactly as asked (both columns are indexed); BM25's top-k can miss them
# when many near-namesakes share their terms (`test__close` among hundreds of `test_close`).
_EXACT_SQL = "SELECT symbol_id FROM symbols WHERE (name = ? OR qualified_name = ?){filters} ORDER BY symbol_id LIMIT ?"
EXACT_LIMIT = 200


def _spelled_as_asked(hit: Hit, text: str) -> bool:
    """The hit's name or qualified name is the query exactly, case included."""
    return hit.name == text or hit.qualified_name == text


def _is_name_match(hit: Hit, lower: str) -> bool:
    """The hit is the symbol asked for: its name, or its qualified name (whole or a trailing part), equals the query."""
    if hit.name and hit.name.lower() == lower:
        return True
    qualified = (hit.qualified_name or "").lower()
    return qualified == lower or qualified.endswith(("." + lower, "::" + lower))


class QueryEngine:
    """The query side of the reference server; one per open index, safe to share between requests."""

    def __init__(self, reader: Any, semantic: SemanticChannel | None = None) -> None:
        self.reader = reader
        self.db = reader.db
        self.root = Path(reader.workspace).resolve()
        self.files = WorkspaceFiles(self.root)  # the workspace's files as queries read them, kept across calls
        self.semantic: SemanticChannel = semantic or DisabledSemanticChannel()
        # Per engine, so the kept outlines go with the generation they were read from.
        self._outline = lru_cache(maxsize=OUTLINES_KEPT)(self._read_outline)

    # -- public API -----------------------------------------------------------------

    def search_code(self, query: str, limit: int, language: str | None = None, role: str | None = None,
                    explain: bool = False, semantic: bool = False) -> QueryResult:
        """Symbols, snippets and files for free text; with `role`, symbols of that role only.

        `semantic=True` lets the configured semantic channel add and rerank symbols (search_code's tool
        does; `search` and the CLI stay lexical).
        """
        text = query.strip()
        language = canonical_language(language)
        kinds = allowed_kinds(role=role)
        q = QueryFeatures.of(text)
        terms = retrieval.query_terms(text)
        outcome = self._semantic(text, limit, language, kinds) if semantic else None
        hits: list[Hit] = []
        if kinds != frozenset() and terms:
            fanout = max(limit * SEARCH_FANOUT[0], SEARCH_FANOUT[1])
            if outcome is not None and outcome.budget is not None:
                fanout = outcome.budget.lexical_fanout
            lookups = [self._lookup("symbols", terms, retrieval.SYMBOL_FIELD_BOOSTS, fanout, language, kinds)]
            if kinds is None:  # snippets and files carry no role: a role query leaves them out
                lookups += [self._lookup("snippets", terms, retrieval.SNIPPET_FIELD_BOOSTS, limit, language),
                            self._lookup("files", terms, retrieval.FILE_FIELD_BOOSTS, limit, language)]
            found = retrieval.run_together(lookups)
            hits += self._symbol_hits(q, lookups[0], found[0])
            if kinds is None:
                hits += self._snippet_hits(q, lookups[1], found[1])
                hits += self._file_hits(q, lookups[2], found[2])
        if outcome is not None and outcome.triggered:
            hits = fuse(q, hits, outcome.candidates, outcome.ratio)
        return self._page(q, hits, limit, explain, semantic=outcome.metadata() if outcome else None)

    def locate_symbol(self, name: str, limit: int, language: str | None = None, kind: str | None = None,
                      role: str | None = None, explain: bool = False) -> QueryResult:
        """Definitions named `name` (or whose qualified name ends with it); the closest names when none is exact."""
        text = name.strip()
        language = canonical_language(language)
        kinds = allowed_kinds(kind=kind, role=role)
        q = QueryFeatures.of(text)
        terms = retrieval.query_terms(text)
        hits: list[Hit] = []
        if kinds != frozenset() and terms:
            fanout = max(limit * LOCATE_FANOUT[0], LOCATE_FANOUT[1])
            hits = self._symbols(q, terms, retrieval.LOCATE_FIELD_BOOSTS, fanout, language, kinds)
            spelled = sum(1 for h in hits if _spelled_as_asked(h, text))
            missing = [] if spelled >= limit else self._exact_ids(text, language, kinds, {h.symbol_id for h in hits})
            if missing:
                hits += self._symbols(q, terms, retrieval.LOCATE_FIELD_BOOSTS, len(missing), language, kinds,
                                      symbol_ids=missing)
            exact = [h for h in hits if _is_name_match(h, q.lower)]
            hits = exact or hits
        # Identifiers are case-sensitive in every supported language: a definition spelled exactly
        # as asked comes before one that matches only case-insensitively; each tier keeps the ranking.
        return self._page(q, hits, limit, explain, tier=lambda h: 0 if _spelled_as_asked(h, text) else 1)

    def file_outline(self, path: str, depth: str, language: str | None = None) -> Outline:
        """The nested symbol tree (`depth` top or all) of one indexed file; shared between calls, so never mutated.

        Reading 200 symbols' rows costs about as much as the rest of a get_file_outline call; an agent
        asks for the outline of the files it works on again and again, so the last ones are kept.
        """
        return self._outline(path, depth, language)

    def _read_outline(self, path: str, depth: str, language: str | None) -> Outline:
        return file_outline(self.db, path, depth, language)

    def find_references(self, name_or_symbol_id: int | str, limit: int) -> References:
        """Resolved references to a symbol plus the unresolved edges that match its name."""
        return find_references(self.db, name_or_symbol_id, limit)

    # -- channels -------------------------------------------------------------------

    def _exact_ids(self, text: str, language: str | None, kinds: frozenset[str] | None,
                   known: set[int | None]) -> list[int]:
        """Symbols whose name or qualified name is `text` exactly and that retrieval did not already return."""
        filters, params = "", [text, text]
        if language is not None:
            filters += " AND language = ?"
            params.append(language)
        if kinds is not None:
            filters += f" AND kind IN ({','.join('?' * len(kinds))})"
            params.extend(sorted(kinds))
        rows = self.db.execute(_EXACT_SQL.format(filters=filters), [*params, EXACT_LIMIT])
        return [symbol_id for (symbol_id,) in rows if symbol_id not in known]

    def _lookup(self, name: str, terms: list[str], boosts: dict[str, float], limit: int, language: str | None,
                kinds: frozenset[str] | None = None, symbol_ids: list[int] | None = None) -> retrieval.Lookup | None:
        """The search of index `name` for `terms` under the filters (None when there is nothing to search for)."""
        index = self.reader.index(name)
        text = retrieval.text_query(index, terms, boosts)
        if text is None:
            return None
        query = retrieval.with_filters(text, index.schema, language, kinds, symbol_ids)
        return retrieval.Lookup(self.reader.searcher(name), query, limit)

    def _rows(self, lookup: retrieval.Lookup | None, found: retrieval.Found, id_field: str,
              sql: str) -> list[tuple[float, tuple]]:
        """(bm25, SQLite row) of each hit `lookup` found, rows fetched by the docs' id fast field."""
        if lookup is None or not found:
            return []
        ids = lookup.searcher.fast_field_values(id_field, [address for _, address in found])
        rows = {r[0]: r for r in self.db.execute(sql.format(",".join("?" * len(ids))), ids)}
        # A doc without its SQLite row means an index replaced under us: skip it.
        return [(bm25, rows[i]) for (bm25, _), i in zip(found, ids, strict=True) if i in rows]

    def _symbols(self, q: QueryFeatures, terms: list[str], boosts: dict[str, float], fanout: int,
                 language: str | None, kinds: frozenset[str] | None, symbol_ids: list[int] | None = None) -> list[Hit]:
        """The symbols channel searched alone."""
        lookup = self._lookup("symbols", terms, boosts, fanout, language, kinds, symbol_ids)
        return self._symbol_hits(q, lookup, retrieval.run_together([lookup])[0])

    def _symbol_hits(self, q: QueryFeatures, lookup: retrieval.Lookup | None, found: retrieval.Found) -> list[Hit]:
        hits = []
        for bm25, r in self._rows(lookup, found, "symbol_id", _SYMBOL_SQL):
            signals = raw_signals(q, "symbol", r[4], r[5], r[6], r[2])
            hits.append(Hit(result_type="symbol", result_id=f"symbol:{r[0]}", path=r[2], line_start=r[7],
                            line_end=r[8], score=bm25 + sum(signals), bm25_score=bm25, signals=signals,
                            symbol_id=r[0], symbol_stable_id=r[1],
                            kind=r[6], name=r[4], qualified_name=r[5], signature=r[9], language=r[3],
                            visibility=r[10]))
        return hits

    def _snippet_hits(self, q: QueryFeatures, lookup: retrieval.Lookup | None, found: retrieval.Found) -> list[Hit]:
        if lookup is None:
            return []
        hits = []
        for bm25, address in found:
            # The writer stores every one of these fields on every snippet doc.
            doc: Any = lookup.searcher.doc(address)
            path = doc.get_first("path")
            start, end = doc.get_first("line_start"), doc.get_first("line_end")
            signals = raw_signals(q, "snippet", None, None, None, path)
            hits.append(Hit(result_type="snippet", result_id=f"snippet:{path}:{start}-{end}", path=path,
                            line_start=start, line_end=end, score=bm25 + sum(signals), bm25_score=bm25,
                            signals=signals, language=doc.get_first("language"), snippet=doc.get_first("content")))
        return hits

    def _file_hits(self, q: QueryFeatures, lookup: retrieval.Lookup | None, found: retrieval.Found) -> list[Hit]:
        hits = []
        for bm25, r in self._rows(lookup, found, "file_id", _FILE_SQL):
            signals = raw_signals(q, "file", None, None, None, r[1])
            hits.append(Hit(result_type="file", result_id=f"file:{r[1]}", path=r[1], line_start=1,
                            line_end=max(r[3] or 1, 1), score=bm25 + sum(signals), bm25_score=bm25,
                            signals=signals, language=r[2]))
        return hits

    def _semantic(self, text: str, limit: int, language: str | None,
                  kinds: frozenset[str] | None) -> SemanticOutcome:
        """The channel's outcome, its candidates enriched by symbol_stable_id, filtered and cut to the fan-out."""
        outcome = self.semantic.run(text, limit, symbols=kinds != frozenset())
        budget = outcome.budget
        if not outcome.triggered or budget is None:  # a triggered outcome always carries its budget
            return outcome
        kept: list[SemanticCandidate] = []
        for c in enrich(outcome.candidates, self.db):
            if (kinds is not None and c.kind not in kinds) or (language is not None and c.language != language):
                continue  # a filter the index could not apply before enrichment told the kind and language
            kept.append(c)
            if len(kept) == budget.semantic_fanout:
                break
        return replace(outcome, candidates=kept) if kept else outcome.skip(NO_MATCHES)

    # -- assembly -------------------------------------------------------------------

    def _page(self, q: QueryFeatures, hits: list[Hit], limit: int, want_explain: bool,
              semantic: dict[str, Any] | None = None, tier: Callable[[Hit], int] | None = None) -> QueryResult:
        """Rank (within `tier` groups, when given), dedup to the top `limit`, attach details and breakdowns."""
        hits.sort(key=sort_key if tier is None else (lambda h: (tier(h), *sort_key(h))))
        page, suppressed = top_k_unique(hits, limit)
        details = HitDetailsLoader(FileView(self.files, self.db), self.db)
        for index, hit in enumerate(page):
            hit.details = details
            if want_explain:  # from the signals ranking already computed, not computed again
                hit.breakdown = breakdown(hit.signals, hit.bm25_score, result_index=index,
                                          semantic_similarity=hit.semantic_similarity,
                                          semantic_score=hit.semantic_score)
        return QueryResult(hits=page, suppressed_duplicate_count=suppressed, semantic=semantic or {})
