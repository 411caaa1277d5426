"""Retrieval on a real index: code-aware terms, syntax-proof queries, determinism, dedup (semantic: test_semantic)."""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
import tantivy
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cruxgate.reference.index import IndexReader
from cruxgate.reference.query import retrieval
from cruxgate.reference.query.engine import QueryEngine
from cruxgate.reference.query.retrieval import query_terms


def names(hits) -> list[str | None]:
    return [h.name for h in hits if h.result_type == "symbol"]


@pytest.mark.parametrize("query", ["validate token", "validate_token", "validateToken", "ValidateToken", "token"])
def test_identifiers_are_found_by_their_parts(polyglot: QueryEngine, query: str) -> None:
    assert {"validate_token", "ValidateToken"} <= set(names(polyglot.search_code(query, limit=20).hits))


def test_qualified_names_are_found_by_their_parts(polyglot: QueryEngine) -> None:
    top = polyglot.search_code("app::config::Config", limit=10).hits[0]
    assert (top.qualified_name, top.kind) == ("app::config::Config", "struct")


def test_paths_are_found_by_their_parts(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("src/auth/handler.py", limit=5).hits
    assert hits[0].path == "src/auth/handler.py"


def test_query_terms_drop_syntax() -> None:
    terms = query_terms('foo"bar (x AND -y) title:^2 app::config::Config')
    assert all(t.isalnum() and t == t.lower() for t in terms)
    assert {"foo", "bar", "and", "config", "app"} <= set(terms)


@pytest.mark.parametrize("query", ['"', "(", "a:b", "AND", "+-", "title:", "^2", "*", "~", "[1 TO 2]", "!!!", "_"])
def test_query_syntax_never_raises(polyglot: QueryEngine, query: str) -> None:
    polyglot.search_code(query, limit=10)
    polyglot.locate_symbol(query, limit=10)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(min_size=1, max_size=40))
def test_any_text_is_answered(polyglot: QueryEngine, text: str) -> None:
    # Blank text never gets here over the wire (the input schema wants a non-space character); it finds nothing.
    result = polyglot.search_code(text, limit=10, explain=True)
    assert len(result.hits) <= 10 and (text.strip() or not result.hits)


# Tantivy's default tokenizer, which every text field uses.
DEFAULT_TOKENIZER = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple()).filter(
    tantivy.Filter.remove_long(40)).filter(tantivy.Filter.lowercase()).build()


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=40))
@example("foo-bar a.b::c src/x.py")
@example("\u0130stanbul x\u00b2 e\u0301x \u2160\u2161 \u01c5ungla \ufb01le stra\u00dfe na\u00efve-caf\u00e9 a\u200db")
def test_no_query_term_is_a_phrase(text: str) -> None:
    """The text fields keep no positions (store.py), so a term the tokenizer split in two (a phrase) would fail."""
    for term in query_terms(text):
        assert len(DEFAULT_TOKENIZER.analyze(term)) <= 1, term


def test_same_query_same_answer(polyglot: QueryEngine, polyglot_workspace: Path) -> None:
    def answer(engine: QueryEngine) -> list[tuple]:
        hits = engine.search_code("handler serve", limit=30, explain=True).hits
        return [(h.result_id, h.score, h.breakdown.full()["final_score"]) for h in hits]

    first = answer(polyglot)
    assert answer(polyglot) == first
    assert answer(QueryEngine(IndexReader.open(polyglot_workspace))) == first


class _MeetingSearcher:
    """A searcher whose search returns only once the other channel's search has started too."""

    def __init__(self, meeting: threading.Barrier, hits: list) -> None:
        self.meeting, self.hits = meeting, hits

    def search(self, query, limit, count):
        self.meeting.wait()  # raises BrokenBarrierError when the other search never starts beside this one
        return SimpleNamespace(hits=self.hits[:limit])


def test_channel_searches_run_side_by_side() -> None:
    meeting = threading.Barrier(2, timeout=5)

    def meeting_lookup(hits: list, limit: int) -> retrieval.Lookup:
        searcher = cast(tantivy.Searcher, _MeetingSearcher(meeting, hits))
        return retrieval.Lookup(searcher, tantivy.Query.all_query(), limit)

    lookups = [meeting_lookup([(2.0, "a"), (1.0, "b")], 1), None, meeting_lookup([(3.0, "c")], 5)]
    assert retrieval.run_together(lookups) == [[(2.0, "a")], [], [(3.0, "c")]]


def test_channels_searched_together_find_what_each_finds_alone(polyglot: QueryEngine) -> None:
    terms = query_terms("handler serve token")
    lookups = [polyglot._lookup(name, terms, boosts, 20, None) for name, boosts in (
        ("symbols", retrieval.SYMBOL_FIELD_BOOSTS), ("snippets", retrieval.SNIPPET_FIELD_BOOSTS),
        ("files", retrieval.FILE_FIELD_BOOSTS))]
    alone = [lookup.run() for lookup in lookups if lookup is not None]
    assert len(alone) == 3 and all(alone)
    assert [[(bm25, (a.segment_ord, a.doc)) for bm25, a in found] for found in retrieval.run_together(lookups)] == \
        [[(bm25, (a.segment_ord, a.doc)) for bm25, a in found] for found in alone]


def test_ties_are_broken_by_the_documented_key(polyglot: QueryEngine) -> None:
    hits = polyglot.search_code("handler serve", limit=30).hits
    keys = [(-h.score, h.path, h.line_start, h.line_end) for h in hits]
    assert keys == sorted(keys)


def test_locate_returns_exact_names_first_and_only(polyglot: QueryEngine) -> None:
    hits = polyglot.locate_symbol("config", limit=10).hits
    assert {(h.name, h.kind, h.language) for h in hits} == {
        ("Config", "class", "python"), ("config", "variable", "python"), ("Config", "struct", "rust"),
        ("config", "module", "rust")}


def test_locate_puts_the_exact_spelling_first(polyglot: QueryEngine) -> None:
    hits = polyglot.locate_symbol("config", limit=10, explain=True).hits
    assert [h.name for h in hits] == ["config", "config", "Config", "Config"]
    for tier in (hits[:2], hits[2:]):  # each tier keeps the ranking order
        assert [h.score for h in tier] == sorted((h.score for h in tier), reverse=True)
    assert all(h.breakdown.effective("exact_match_boost") == 5.0 for h in hits)


def test_locate_falls_back_to_nearest_names(polyglot: QueryEngine) -> None:
    hits = polyglot.locate_symbol("UserServ", limit=10).hits  # no symbol has this name: the closest ones come back
    assert "UserService" in names(hits)


def test_hits_carry_identity_and_location(polyglot: QueryEngine) -> None:
    hit = polyglot.locate_symbol("validate_token", limit=10).hits[0]
    assert hit.result_id == f"symbol:{hit.symbol_id}" and hit.symbol_stable_id
    assert (hit.path, hit.line_start, hit.line_end, hit.kind, hit.language) == \
        ("src/auth/tokens.py", 7, 9, "function", "python")
    assert hit.body_preview.startswith("def validate_token(token: str) -> bool:")
    assert hit.body_preview.count("\n") == 2


def test_context_fields_load_lazily(polyglot: QueryEngine) -> None:
    method = polyglot.locate_symbol("build", limit=10).hits[0]
    assert method.parent["name"] == "UserServiceFactory"
    cls = polyglot.locate_symbol("UserServiceFactory", limit=10).hits[0]
    assert [r["name"] for r in cls.related_symbols] == ["options", "constructor", "build"]
    assert cls.parent is None


def test_symbol_and_snippet_of_one_region_are_one_result(polyglot: QueryEngine) -> None:
    result = polyglot.search_code("retry backoff jitter", limit=10)
    regions = [(h.path, h.line_start, h.line_end) for h in result.hits]
    assert len(regions) == len(set(regions))
    assert result.suppressed_duplicate_count > 0


def test_explain_off_never_calls_the_explainer(polyglot: QueryEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    import cruxgate.reference.query.engine as engine_module

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a breakdown was built with explain off")

    monkeypatch.setattr(engine_module, "breakdown", refuse)
    assert polyglot.search_code("Config", limit=10).hits and polyglot.locate_symbol("Config", limit=10).hits


def test_explanations_reuse_the_ranking_signals(polyglot: QueryEngine) -> None:
    from cruxgate.reference.query.ranking import QueryFeatures, explain

    q = QueryFeatures.of("Config")
    for hit in polyglot.search_code("Config", limit=20, explain=True).hits:
        fresh = explain(q, hit.bm25_score, hit.result_type, hit.name, hit.qualified_name, hit.kind, hit.path,
                        result_index=hit.breakdown.result_index, semantic_similarity=hit.semantic_similarity)
        assert hit.breakdown.full() == fresh.full() and hit.score == hit.bm25_score + sum(hit.signals)


def test_locate_finds_an_exact_name_hidden_by_namesakes(tmp_path: Path) -> None:
    from cruxgate.reference.index import index_workspace

    # 80 short namesakes with the same terms outscore a method deep in a long-named class on BM25 alone.
    for i in range(80):
        (tmp_path / f"m{i}.py").write_text("def test_close():\n    pass\n", encoding="utf-8")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "target_module.py").write_text(
        "class UnixReadPipeTransportTests:\n    def test__close(self):\n        pass\n", encoding="utf-8")
    index_workspace(tmp_path)
    hits = QueryEngine(IndexReader.open(tmp_path)).locate_symbol("test__close", limit=3).hits
    assert [h.name for h in hits] == ["test__close"]


JAVA_EXCEPTION = ("package g;\n\n/** Thrown when JSON cannot be parsed. */\n"
                  "public class JsonParseException extends RuntimeException {\n"
                  "  public JsonParseException(String msg) {\n    super(msg);\n  }\n\n"
                  "  public JsonParseException(String msg, Throwable cause) {\n    super(msg, cause);\n  }\n}\n")


def test_a_type_comes_before_its_constructors(tmp_path: Path) -> None:
    from cruxgate.reference.index import index_workspace

    # A constructor's qualified name writes the type's name twice (`g.JsonParseException.JsonParseException`), which
    # counts once the name is rare, as in a real tree: among many other files.
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "JsonParseException.java").write_text(JAVA_EXCEPTION, encoding="utf-8")
    for i in range(150):
        (tmp_path / "src" / f"Other{i}.java").write_text(
            f"package g;\n\npublic class Other{i} {{\n  public void run{i}() {{}}\n}}\n", encoding="utf-8")
    index_workspace(tmp_path)
    engine = QueryEngine(IndexReader.open(tmp_path))
    for hits in (engine.locate_symbol("JsonParseException", limit=5).hits,
                 engine.search_code("JsonParseException", limit=5).hits):
        assert next(h.kind for h in hits if h.result_type == "symbol") == "class"
