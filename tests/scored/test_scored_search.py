"""The search payload over a stand-in engine: flags, min_score, context, previews, search_preview."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import pytest

from cruxgate.reference.index.extract import content_hash
from cruxgate.reference.protocol.arguments import parse_arguments
from cruxgate.reference.query.scored.search import MIN_POOL, ScoredSearch

SOURCE = '''import hashlib


class TokenValidator:
    """Checks bearer tokens."""

    def validate_token(self, raw):
        """Validate a raw token."""
        digest = hashlib.sha256(raw)
        return digest


def helper():
    return 1
'''


@dataclass
class FakeHit:
    path: str
    line_start: int
    line_end: int
    score: float
    result_type: str = "symbol"
    symbol_id: int | None = None
    result_id: str = ""
    snippet: str | None = None
    body_preview: str | None = None


@dataclass
class FakeResult:
    hits: list[FakeHit]
    suppressed_duplicate_count: int = 0


@dataclass
class FakeEngine:
    hits: list[FakeHit]
    calls: list[tuple[str, int]] = field(default_factory=list)

    def search_code(self, query: str, limit: int = 10, **_: object) -> FakeResult:
        self.calls.append((query, limit))
        return FakeResult(self.hits[:limit])


HITS = [
    FakeHit("auth.py", 7, 10, 30.0, symbol_id=2),
    FakeHit("auth.py", 4, 10, 6.0, symbol_id=1),
    FakeHit("auth.py", 1, 1, 3.0, result_type="snippet"),
    FakeHit("auth.py", 13, 14, 1.0, symbol_id=3),
]


@pytest.fixture
def scored(tmp_path: Path) -> ScoredSearch:
    (tmp_path / "auth.py").write_text(SOURCE, encoding="utf-8")
    conn = sqlite3.connect(":memory:")
    conn.executescript(
        """
        CREATE TABLE symbols(symbol_id INTEGER PRIMARY KEY, symbol_stable_id TEXT, file_id INTEGER, path TEXT,
            language TEXT, name TEXT, qualified_name TEXT, kind TEXT, line_start INTEGER, line_end INTEGER,
            signature TEXT, visibility TEXT, doc TEXT);
        CREATE TABLE symbol_relations(symbol_id INTEGER PRIMARY KEY, parent_symbol_id INTEGER);
        CREATE TABLE symbol_edges(edge_id INTEGER PRIMARY KEY, repo TEXT, "ref" TEXT, from_symbol_id INTEGER,
            from_path TEXT, line INTEGER, edge_type TEXT, to_symbol_id INTEGER, to_name TEXT);
        CREATE TABLE files(file_id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, content_hash TEXT);
        INSERT INTO symbols VALUES (1, 'a', 1, 'auth.py', 'python', 'TokenValidator', 'TokenValidator', 'class',
            4, 10, NULL, NULL, 'Checks bearer tokens with validate_token.');
        INSERT INTO symbols VALUES (2, 'b', 1, 'auth.py', 'python', 'validate_token', 'TokenValidator.validate_token',
            'method', 7, 10, NULL, NULL, 'Validate a raw token.');
        INSERT INTO symbols VALUES (3, 'c', 1, 'auth.py', 'python', 'helper', 'helper', 'function',
            13, 14, NULL, NULL, NULL);
        INSERT INTO symbol_relations VALUES (2, 1);
        INSERT INTO symbol_edges VALUES (1, 'r', 'live', NULL, 'auth.py', 1, 'import', NULL, 'hashlib');
        """
    )
    conn.execute("INSERT INTO files VALUES (1, 'auth.py', ?)", (content_hash(SOURCE.encode()),))
    return ScoredSearch(FakeEngine(list(HITS)), conn, tmp_path)


def run(scored: ScoredSearch, **args: object) -> dict:
    return scored.run(parse_arguments("search", {"query": "validate_token", **args}))


def test_plain_call_is_backward_compatible(scored: ScoredSearch) -> None:
    out = run(scored, include_context=False)
    assert set(out) == {"query", "total_results", "results", "search_time_ms"}
    assert out["query"] == "validate_token" and out["total_results"] == 4
    assert isinstance(out["search_time_ms"], int) and out["search_time_ms"] >= 0
    first = out["results"][0]
    assert set(first) == {"file", "line", "content"}
    assert (first["file"], first["line"]) == ("auth.py", 7)
    assert first["content"] == "\n".join(SOURCE.splitlines()[6:10])  # the full lines 7..10


def test_scores_sorted_strictly_descending_in_unit_range(scored: ScoredSearch) -> None:
    scores = [r["score"] for r in run(scored, include_scores=True)["results"]]
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert all(a > b for a, b in pairwise(scores))
    assert scores[0] > 0.8  # the exact definition


def test_equal_raw_scores_order_by_file_then_line(tmp_path: Path, scored: ScoredSearch) -> None:
    scored._engine.hits = [FakeHit("auth.py", 13, 14, 5.0, symbol_id=3), FakeHit("auth.py", 4, 10, 5.0, symbol_id=1)]
    out = run(scored, include_scores=True)["results"]
    assert [r["line"] for r in out] == [4, 13] and out[0]["score"] > out[1]["score"]


def test_match_reasons_come_with_scores_only(scored: ScoredSearch) -> None:
    plain = run(scored)["results"]
    assert all("match_reason" not in r and "score" not in r for r in plain)
    scored_out = run(scored, include_scores=True)["results"]
    assert [r["match_reason"] for r in scored_out] == ["FunctionName", "DocComment", "CodeContent", "CodeContent"]


def test_import_hit_reason(scored: ScoredSearch) -> None:
    out = scored.run(parse_arguments("search", {"query": "hashlib", "include_scores": True}))["results"]
    assert [r["match_reason"] for r in out if r["line"] == 1] == ["ImportStatement"]


def test_min_score_drops_the_tail(scored: ScoredSearch) -> None:
    every = run(scored, include_scores=True)["results"]
    kept = run(scored, include_scores=True, min_score=0.5)["results"]
    assert kept == [r for r in every if r["score"] >= 0.5] and 0 < len(kept) < len(every)
    assert run(scored, min_score=0.5)["total_results"] == len(kept)  # filters without include_scores too


def test_include_context_names_the_enclosing_function_or_class(scored: ScoredSearch) -> None:
    out = run(scored)["results"]
    assert [r.get("context") for r in out] == ["TokenValidator.validate_token", "TokenValidator", None, "helper"]
    assert all("context" not in r for r in run(scored, include_context=False)["results"])


def test_preview_mode_replaces_content_with_the_excerpt(scored: ScoredSearch) -> None:
    out = run(scored, preview_mode=True)["results"]
    top = out[0]
    assert top["preview"] == top["content"]
    assert top["content"] == ('    def validate_token(self, raw):\n        """Validate a raw token."""\n'
                              '        digest = hashlib.sha256(raw)\n...')


def test_search_preview_is_search_with_the_flags(scored: ScoredSearch) -> None:
    for args in ({"query": "validate_token"}, {"query": "validate_token", "limit": 3, "min_score": 0.2}):
        shortcut = scored.run(parse_arguments("search_preview", args).as_search())
        full = scored.run(parse_arguments("search", {
            "limit": 20, "min_score": 0.5, **args,
            "include_scores": True, "preview_mode": True, "include_context": True,
        }))
        shortcut.pop("search_time_ms"), full.pop("search_time_ms")
        assert shortcut == full


def test_every_limit_up_to_the_pool_scores_the_same_pool(scored: ScoredSearch) -> None:
    run(scored, limit=3)
    run(scored, limit=MIN_POOL + 5)
    assert scored._engine.calls == [("validate_token", MIN_POOL), ("validate_token", MIN_POOL + 5)]


def test_a_stronger_match_outranks_a_higher_raw_score(scored: ScoredSearch) -> None:
    # The helper() body hit has the highest raw score but matches no name: the exact definition ranks first.
    scored._engine.hits = [FakeHit("auth.py", 13, 14, 90.0, symbol_id=3), FakeHit("auth.py", 7, 10, 9.0, symbol_id=2)]
    out = run(scored, include_scores=True)["results"]
    assert [(r["line"], r["match_reason"]) for r in out] == [(7, "FunctionName"), (13, "CodeContent")]
    assert out[0]["score"] > 0.8 > 0.5 > out[1]["score"]


def test_content_follows_the_file_as_it_is_now(tmp_path: Path, scored: ScoredSearch) -> None:
    # The same ScoredSearch keeps files between calls; an edit of the same size right after a call shows.
    before = run(scored)["results"][0]["content"]
    source = tmp_path / "auth.py"
    source.write_text(SOURCE.replace("digest = hashlib", "hashed = hashlib").replace("return digest", "return hashed"),
                      encoding="utf-8")
    after = run(scored)["results"][0]["content"]
    assert "digest" in before and "hashed = hashlib.sha256(raw)" in after and "digest" not in after


def test_a_file_changed_since_indexing_is_named_not_an_error(scored: ScoredSearch, tmp_path: Path) -> None:
    run(scored, include_scores=True)
    assert scored.changed == frozenset()
    (tmp_path / "auth.py").write_text("x\n", encoding="utf-8")  # shrunk below the indexed lines
    out = run(scored, include_scores=True, include_context=True)
    assert scored.changed == frozenset({"auth.py"}) and out["results"]


def test_results_stop_once_past_the_budget(scored: ScoredSearch) -> None:
    whole = run(scored)
    assert whole["total_results"] > 1
    first = len(whole["results"][0]["content"])
    cut = scored.run(parse_arguments("search", {"query": "validate_token"}), budget=first - 1)
    assert cut["results"] == whole["results"][:1]  # the first result is past the budget: nothing more is built
