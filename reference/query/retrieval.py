"""Lexical retrieval over the Tantivy indices: safe query text, the spec's field boosts and filters."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import tantivy

from cruxgate.reference.index.tokens import expand, words

# Symbol fields and their boosts (seed 000, "Search field boost weights").
SYMBOL_FIELD_BOOSTS = {"symbol_exact": 10.0, "qualified_name": 3.0, "signature": 1.5, "path": 1.0, "content": 0.5}
# locate_symbol looks a name up: body and signature words would only add noise.
LOCATE_FIELD_BOOSTS = {"symbol_exact": 10.0, "qualified_name": 3.0}
SNIPPET_FIELD_BOOSTS = {"content": 1.0, "path": 1.0, "imports": 1.0}
FILE_FIELD_BOOSTS = {"path": 1.0, "filename": 1.0, "content_head": 1.0}

# Terms are runs of letters and digits only (`words`): nothing the query parser reads as syntax
# (quotes, brackets, `:`, `+`/`-`, `^`, `*`, `~`) survives, and lowercase words are
# never the AND/OR/NOT operators, so user text can never raise a parse error.
MAX_TERMS = 32


def query_terms(text: str) -> list[str]:
    """The distinct lowercase index terms of `text` after code-aware expansion, in first-seen order."""
    seen: dict[str, None] = {}
    for term in words(expand(text).lower()):
        seen.setdefault(term, None)
        if len(seen) >= MAX_TERMS:
            break
    return list(seen)


def text_query(index: tantivy.Index, terms: list[str], boosts: dict[str, float]) -> tantivy.Query | None:
    """A disjunction of `terms` over the boosted fields (None when there is nothing to search for)."""
    if not terms:
        return None
    return index.parse_query(" ".join(terms), list(boosts), field_boosts=boosts)


def with_filters(query: tantivy.Query, schema: tantivy.Schema, language: str | None = None,
                 kinds: Iterable[str] | None = None, symbol_ids: Iterable[int] | None = None) -> tantivy.Query:
    """`query` restricted to a language, a kind set and a symbol_id set; the filters add nothing to the score."""
    clauses = [(tantivy.Occur.Must, query)]
    if symbol_ids is not None:
        id_set = tantivy.Query.term_set_query(schema, "symbol_id", sorted(symbol_ids))
        clauses.append((tantivy.Occur.Must, tantivy.Query.const_score_query(id_set, 0.0)))
    if language is not None:
        term = tantivy.Query.term_query(schema, "language", language)
        clauses.append((tantivy.Occur.Must, tantivy.Query.const_score_query(term, 0.0)))
    if kinds is not None:
        kind_set = tantivy.Query.term_set_query(schema, "kind", sorted(kinds))
        clauses.append((tantivy.Occur.Must, tantivy.Query.const_score_query(kind_set, 0.0)))
    return query if len(clauses) == 1 else tantivy.Query.boolean_query(clauses)


Found = list[tuple[float, tantivy.DocAddress]]

# Tantivy scores a query's postings outside the GIL, so one search_code's channel searches can run
# side by side: on 2 cores, two at a time. The threads start on first use.
_SEARCHES = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cruxgate-search")


@dataclass(frozen=True)
class Lookup:
    """One channel's search: a query over one index's searcher and how many hits it keeps."""

    searcher: tantivy.Searcher
    query: tantivy.Query
    limit: int

    def run(self) -> Found:
        """Top `limit` (bm25, address) pairs, best first."""
        return self.searcher.search(self.query, limit=self.limit, count=False).hits


def run_together(lookups: Sequence[Lookup | None]) -> list[Found]:
    """Each lookup's hits (none for None), the first searched on this thread while the others run beside it."""
    pending = [(i, _SEARCHES.submit(lookup.run)) for i, lookup in enumerate(lookups) if lookup is not None and i]
    found: list[Found] = [[] for _ in lookups]
    if lookups and lookups[0] is not None:
        found[0] = lookups[0].run()
    for i, future in pending:
        found[i] = future.result()
    return found
