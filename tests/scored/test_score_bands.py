"""Scores on the real fixture index: exact definitions above 0.8, body-only hits below 0.5, no ties, stable pages."""

from __future__ import annotations

from itertools import pairwise

import pytest

from cruxgate.reference.protocol.arguments import parse_arguments
from cruxgate.reference.query.scored.search import MIN_POOL, ScoredSearch

NAME_REASONS = {"FunctionName", "ClassName", "TypeDefinition"}
# Queries that name no variable, constant, field or module: here a CodeContent result matched body code only.
QUERIES = ["validate_token", "createPool", "retry backoff jitter", "UserServiceFactory", "gzipSync",
           "statistics", "daylight saving", "Minutes", "token"]


def search(scored: ScoredSearch, query: str, **args: object) -> list[dict]:
    return scored.run(parse_arguments("search", {"query": query, "include_scores": True, **args}))["results"]


@pytest.mark.parametrize(("query", "file", "line"), [
    ("validate_token", "src/auth/tokens.py", 7),
    ("UserServiceFactory", "src/services/user_service.ts", 20),
    ("ParseCrontab", "src/sched/cron.go", 23),
    ("Digest32", "src/archive/checksum.rs", 6),
])
def test_an_exact_definition_tops_the_page_above_0_8(scored_polyglot: ScoredSearch, query: str, file: str,
                                                    line: int) -> None:
    top = search(scored_polyglot, query)[0]
    assert (top["file"], top["line"]) == (file, line) and top["score"] > 0.8


@pytest.mark.parametrize("query", QUERIES)
def test_weaker_kinds_of_match_score_lower(scored_polyglot: ScoredSearch, query: str) -> None:
    results = search(scored_polyglot, query, limit=50)
    assert results
    for r in results:
        if r["match_reason"] == "CodeContent":
            assert r["score"] < 0.5, r
        elif r["match_reason"] in NAME_REASONS:
            assert r["score"] >= 0.65 - 0.01, r  # a partial name at least (minus the tie-break walk)
        elif r["match_reason"] in ("DocComment", "ImportStatement"):
            assert 0.5 - 0.01 <= r["score"] < 0.8, r


def test_a_query_that_names_no_definition_scores_below_0_8(scored_polyglot: ScoredSearch) -> None:
    assert search(scored_polyglot, "retry backoff jitter")[0]["score"] < 0.8


@pytest.mark.parametrize("query", ["config", "validate_token", "createPool"])
def test_scores_strictly_decrease_and_pages_are_prefixes(scored_polyglot: ScoredSearch, query: str) -> None:
    wide = search(scored_polyglot, query, limit=MIN_POOL)
    scores = [r["score"] for r in wide]
    assert all(0.0 < s < 1.0 for s in scores) and all(a > b for a, b in pairwise(scores))
    for limit in (1, 3, 20):
        assert search(scored_polyglot, query, limit=limit) == wide[:limit]
    assert search(scored_polyglot, query, limit=MIN_POOL) == wide  # deterministic
    kept = search(scored_polyglot, query, limit=MIN_POOL, min_score=0.7)
    assert kept == [r for r in wide if r["score"] >= 0.7]
