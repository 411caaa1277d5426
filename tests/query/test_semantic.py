"""The semantic channel end to end on a real index (the polyglot fixture's own semantic index, no stand-ins)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cruxgate.reference.config import SemanticConfig
from cruxgate.reference.index import IndexReader
from cruxgate.reference.index.semantic import SEMANTIC_DIR
from cruxgate.reference.query.engine import QueryEngine
from cruxgate.reference.query.ranking import KIND_WEIGHTS
from cruxgate.reference.query.semantic import SemanticCandidate, channel_for
from cruxgate.reference.query.semantic.channel import SemanticChannel

FIXTURE = Path(__file__).resolve().parents[2] / "golden" / "fixtures" / "polyglot"


def hybrid(workspace: Path, **settings: Any) -> QueryEngine:
    reader = IndexReader.open(workspace)
    return QueryEngine(reader, semantic=channel_for(SemanticConfig(**settings), reader.generation))


@pytest.fixture(scope="module")
def engine(polyglot_workspace: Path) -> QueryEngine:
    return hybrid(polyglot_workspace)


def test_a_question_in_words_runs_the_channel_with_its_effective_budget(engine: QueryEngine) -> None:
    result = engine.search_code("retry with exponential backoff", limit=10, semantic=True)
    meta = result.semantic
    assert meta["semantic_triggered"] is True and "semantic_skipped_reason" not in meta
    assert (meta["semantic_mode"], meta["semantic_enabled"], meta["semantic_ratio_used"]) == ("hybrid", True, 0.75)
    # limit 10 x (2, 4, 3) = 20, 40, 30: exactly the floors.
    assert (meta["semantic_limit_used"], meta["lexical_fanout_used"], meta["semantic_fanout_used"]) == (20, 40, 30)
    assert meta["semantic_fallback"] is False and meta["semantic_degraded"] is False
    assert isinstance(meta["semantic_budget_exhausted"], bool)
    assert result.hits[0].qualified_name == "net.retry.retry_with_backoff"
    similarity = result.hits[0].semantic_similarity
    assert similarity is not None and similarity > 0.5


def test_configured_multipliers_are_floored_and_capped(polyglot_workspace: Path) -> None:
    big = hybrid(polyglot_workspace, semantic_limit_multiplier=1000, lexical_fanout_multiplier=1000,
                 semantic_fanout_multiplier=0).search_code("retry with backoff", limit=50, semantic=True).semantic
    assert (big["semantic_limit_used"], big["lexical_fanout_used"], big["semantic_fanout_used"]) == (1000, 2000, 30)


def test_budget_exhaustion_is_reported_when_the_semantic_branch_fills_its_cap(polyglot_workspace: Path) -> None:
    # 25 symbols of the fixture are similar to this question: they fill a cap of 20, not one of 1000.
    query = "load settings from the environment"
    small = hybrid(polyglot_workspace).search_code(query, limit=10, semantic=True).semantic
    large = hybrid(polyglot_workspace, semantic_limit_multiplier=100, semantic_fanout_multiplier=100).search_code(
        query, limit=10, semantic=True).semantic
    assert small["semantic_budget_exhausted"] is True and large["semantic_budget_exhausted"] is False


@pytest.mark.parametrize(("query", "settings", "reason"), [
    ("retry with backoff", {"mode": "off"}, "semantic_disabled"),
    ("retry with backoff", {"ratio": 0.0}, "semantic_ratio_zero"),
    ("validate_token", {}, "identifier_query"),
    ("the handler", {}, "too_few_query_terms"),
    ("zzqx wwvy", {}, "too_few_query_terms"),
])
def test_skip_reasons_are_deterministic(polyglot_workspace: Path, query: str, settings: dict, reason: str) -> None:
    engine = hybrid(polyglot_workspace, **settings)
    metas = [engine.search_code(query, limit=10, semantic=True).semantic for _ in range(2)]
    assert metas[0] == metas[1]
    meta = metas[0]
    assert meta["semantic_skipped_reason"] == reason and meta["semantic_triggered"] is False
    assert meta["semantic_ratio_used"] == 0.0 and meta["semantic_fallback"] is False
    assert "semantic_limit_used" not in meta and "semantic_budget_exhausted" not in meta
    assert meta["semantic_enabled"] is (settings.get("mode") != "off")


def test_role_admitting_no_kind_skips_the_channel(engine: QueryEngine) -> None:
    assert engine.search_code("retry with backoff", limit=10, role="alias", semantic=True).semantic[
        "semantic_skipped_reason"] == "no_symbol_kinds"


def test_semantic_false_keeps_the_lexical_answer(engine: QueryEngine, polyglot: QueryEngine) -> None:
    query = "retry with exponential backoff"
    lexical = [h.result_id for h in polyglot.search_code(query, limit=10).hits]
    assert [h.result_id for h in engine.search_code(query, limit=10).hits] == lexical
    assert engine.search_code(query, limit=10).semantic == {}


def test_fused_scores_add_up_and_explain_names_the_semantic_part(engine: QueryEngine) -> None:
    hits = engine.search_code("retry with exponential backoff", limit=20, explain=True, semantic=True).hits
    semantic = [h for h in hits if h.semantic_similarity is not None]
    assert semantic
    for hit in hits:
        full = hit.breakdown.full()
        assert hit.score == pytest.approx(hit.bm25_score + hit.semantic_score + sum(hit.signals))
        assert full["final_score"] == pytest.approx(full["bm25_score"] + hit.semantic_score + full["total_boost"])
        assert ("semantic_similarity" in full) is (hit.semantic_similarity is not None)
        assert 0.0 <= hit.breakdown.basic()["semantic_similarity"] <= 1.0
    assert all(h.breakdown.full()["semantic_score"] > 0 for h in semantic)


def test_semantic_only_results_are_enriched_before_their_signals(tmp_path: Path) -> None:
    from cruxgate.reference.index import index_workspace

    # The lexical channel does not stem: "parsing addresses" shares no term with this code, the semantic one does.
    (tmp_path / "mail.py").write_text(
        'def parse_address(text):\n    """Parse an email address."""\n\n\n'
        'def format_address(name, addr):\n    """Format an address for a header."""\n\n\n'
        'def parse_date(text):\n    """Parse a date."""\n\n\n'
        'class Mailbox:\n    """A folder of messages."""\n', encoding="utf-8")
    index_workspace(tmp_path)
    engine = hybrid(tmp_path)
    assert engine.search_code("parsing addresses", limit=10).hits == []
    result = engine.search_code("parsing addresses", limit=10, explain=True, semantic=True)
    assert result.semantic["semantic_triggered"] is True
    top = result.hits[0]
    assert (top.qualified_name, top.kind, top.name, top.path, top.line_start) == (
        "mail.parse_address", "function", "parse_address", "mail.py", 1)
    assert top.bm25_score == 0.0 and top.semantic_similarity is not None and top.semantic_similarity > 0.5
    assert top.breakdown.effective("kind_weight") == KIND_WEIGHTS["function"]
    assert top.breakdown.effective("query_intent_boost") == 0.5  # a lower-case query on a callable
    assert top.score == pytest.approx(top.semantic_score + sum(top.signals))


def test_filters_apply_to_semantic_candidates(engine: QueryEngine) -> None:
    hits = engine.search_code("retry with exponential backoff", limit=30, role="type", semantic=True).hits
    assert hits and all(h.kind in ("class", "struct", "enum", "trait", "interface", "type_alias") for h in hits)
    go = engine.search_code("retry with exponential backoff", limit=30, language="go", semantic=True).hits
    assert all(h.language == "go" for h in go)


def test_identifier_answers_do_not_move(engine: QueryEngine, polyglot: QueryEngine) -> None:
    for name in ("validate_token", "UserService", "app::config::Config"):
        assert [h.result_id for h in engine.search_code(name, limit=10, semantic=True).hits] == \
            [h.result_id for h in polyglot.search_code(name, limit=10).hits]


class OneCandidate:
    """A backend that knows every term and returns one fixed stable id (for the unenrichable case only)."""

    def known_terms(self, terms: list[str]) -> list[str]:
        return list(dict.fromkeys(terms))

    def search(self, terms: list[str], limit: int, min_similarity: float, *, text: str | None = None) -> list:
        from cruxgate.reference.index.semantic import Match

        return [Match("ffffffffffffffff", 0.5)]


def test_a_candidate_the_index_does_not_hold_gets_no_kind_or_definition_signal(polyglot_workspace: Path) -> None:
    engine = QueryEngine(IndexReader.open(polyglot_workspace),
                         semantic=SemanticChannel(SemanticConfig(), lambda: OneCandidate()))
    hit = next(h for h in engine.search_code("retry with backoff", limit=10, explain=True, semantic=True).hits
               if h.symbol_stable_id == "ffffffffffffffff")
    assert hit.kind is None and hit.result_id == "symbol:ffffffffffffffff"
    assert hit.breakdown.effective("kind_weight") == 0.0 and hit.breakdown.effective("query_intent_boost") == 0.0
    # Nor a definition boost: the index cannot say it is a definition (an enriched one gets it: test_ranking).
    assert hit.breakdown.effective("definition_boost") == 0.0
    assert hit.score == hit.semantic_score + hit.breakdown.total_boost


def test_enrich_fills_only_candidates_without_a_kind(polyglot: QueryEngine) -> None:
    from cruxgate.reference.query.semantic import enrich

    mode = polyglot.locate_symbol("Mode", limit=10).hits[0]
    assert mode.symbol_stable_id is not None
    bare, known = SemanticCandidate(mode.symbol_stable_id, 0.7), SemanticCandidate("x", 0.1, kind="function")
    enriched = enrich([bare, known], polyglot.db)
    assert (enriched[0].kind, enriched[0].name, enriched[0].path) == ("enum", "Mode", "src/app/config.rs")
    assert enriched[1] is known


@pytest.mark.parametrize("damage", ["missing", "corrupt", "hook"])
def test_a_broken_semantic_index_degrades_to_lexical(
        polyglot_copy: Callable[[str], Path], polyglot: QueryEngine, damage: str) -> None:
    from cruxgate.reference.index.hooks import semantic_backend_failure

    workspace = polyglot_copy("damaged")
    folder = IndexReader.open(workspace).generation / SEMANTIC_DIR
    if damage == "missing":
        shutil.rmtree(folder)
    elif damage == "corrupt":
        (folder / "doc_vectors.npy").write_bytes(b"not numpy at all")
    else:
        semantic_backend_failure(workspace)
    engine = hybrid(workspace)
    query = "retry with exponential backoff"
    result = engine.search_code(query, limit=10, semantic=True)
    meta = result.semantic
    assert meta["semantic_fallback"] is True and meta["semantic_degraded"] is True
    assert meta["semantic_triggered"] is False and meta["semantic_ratio_used"] == 0.0
    reason = "semantic_index_missing" if damage == "missing" else "semantic_backend_error"
    assert meta["semantic_skipped_reason"] == reason
    # Still a valid, lexical answer, and the same one on every call of this generation.
    assert [h.result_id for h in result.hits] == [h.result_id for h in polyglot.search_code(query, limit=10).hits]
    assert engine.search_code("validate_token", limit=10, semantic=True).semantic == {**meta}
