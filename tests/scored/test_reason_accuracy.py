"""Match-reason accuracy on the labeled set golden/scored-search/match-reasons.yaml (our bar: >= 90%).

The set and the fixture are fixed and the classifier is deterministic, so the
figure is exact: this is a test, not a benchmark. A case counts as right when
the first result in its file (at its line, when given) of
search(query, limit=20, include_scores=true) carries the labeled reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from cruxgate.reference.protocol.arguments import parse_arguments
from cruxgate.reference.query.scored.reasons import MatchReason
from cruxgate.reference.query.scored.search import ScoredSearch

LABELS = Path(__file__).resolve().parents[2] / "golden" / "scored-search" / "match-reasons.yaml"
MIN_ACCURACY = 0.9
MIN_CASES = 40


def load_cases() -> list[dict[str, Any]]:
    """The labeled cases of the set."""
    data = yaml.safe_load(LABELS.read_text(encoding="utf-8"))
    assert data["fixture"] == "polyglot"
    return data["cases"]


def judged(results: list[dict[str, Any]], case: dict[str, Any]) -> dict[str, Any] | None:
    """The first result in the case's file (and at its line when the case gives one)."""
    for result in results:
        if result["file"] == case["file"] and case.get("line") in (None, result["line"]):
            return result
    return None


def test_labeled_set_is_large_and_covers_every_reason() -> None:
    cases = load_cases()
    assert len(cases) >= MIN_CASES
    assert {c["reason"] for c in cases} == {r.value for r in MatchReason}
    assert all(c["description"].strip() and c["query"].strip() for c in cases)


def test_match_reason_accuracy(scored_polyglot: ScoredSearch) -> None:
    cases = load_cases()
    wrong = []
    for case in cases:
        params = parse_arguments("search", {"query": case["query"], "limit": 20, "include_scores": True})
        result = judged(scored_polyglot.run(params)["results"], case)
        got = None if result is None else result["match_reason"]
        if got != case["reason"]:
            where = f"{case['file']}:{case.get('line', '*')}"
            wrong.append(f"{case['query']!r} {where}: labeled {case['reason']}, got {got or 'no such result'}")
    accuracy = 1 - len(wrong) / len(cases)
    assert accuracy >= MIN_ACCURACY, (f"accuracy {accuracy:.1%} < {MIN_ACCURACY:.0%}; misclassified:\n"
                                      + "\n".join(wrong))
