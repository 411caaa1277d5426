"""The spec's reranking formula as pure functions: additive signals on top of the BM25 score.

total_boost = exact_match_boost + qualified_name_boost + kind_weight + query_intent_boost
              + definition_boost + path_affinity + test_file_penalty
final_score = bm25_score + semantic_score + total_boost

semantic_score is 0 unless search_code's semantic channel found the result (query/semantic/fusion.py).

The engine keeps each hit's `raw_signals()` (its score is their sum plus BM25),
so an explanation asked for is a `breakdown()` of values already computed, or for
the `basic` view alone, `basic_view()` of them with no Breakdown built;
`boost()` and `explain()` compute the same from scratch.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import le
from typing import Any

from cruxgate.reference.index.kinds import kinds_of

EXACT_MATCH_BOOST = 5.0
QUALIFIED_NAME_BOOST = 2.0
DEFINITION_BOOST = 1.0
PATH_AFFINITY = 1.0
TEST_FILE_PENALTY = -0.5
TYPE_INTENT_BOOST = 1.0
CALLABLE_INTENT_BOOST = 0.5

# Kind weight tiers (seed 000, "Tiered symbol kind scoring"). A kind not in the
# table (`field`, say, or None for an unenriched result) weighs 0.0.
KIND_WEIGHTS: dict[str, float] = {
    "class": 2.0, "interface": 2.0, "trait": 2.0,
    "struct": 1.8, "enum": 1.8,
    "type_alias": 1.5, "function": 1.5, "method": 1.5,
    "constant": 1.0,
    "module": 0.8,
    "variable": 0.5,
}

# Intent categories are the roles: a type query favours the type role, a callable query the callable role.
TYPE_KINDS = kinds_of("type")
CALLABLE_KINDS = kinds_of("callable")

# Test-file patterns, matched case-insensitively on the relative path (seed 000).
TEST_PATH_PATTERNS = ("_test.", ".test.", ".spec.", "/test/", "/tests/", "test_")

# Each signal's range, in formula order; a raw value is clamped into it.
SIGNAL_RANGES: dict[str, tuple[float, float]] = {
    "exact_match_boost": (0.0, EXACT_MATCH_BOOST),
    "qualified_name_boost": (0.0, QUALIFIED_NAME_BOOST),
    "kind_weight": (0.0, max(KIND_WEIGHTS.values())),
    "query_intent_boost": (0.0, TYPE_INTENT_BOOST),
    "definition_boost": (0.0, DEFINITION_BOOST),
    "path_affinity": (0.0, PATH_AFFINITY),
    "test_file_penalty": (TEST_FILE_PENALTY, 0.0),
}
SIGNALS = tuple(SIGNAL_RANGES)


def kind_weight(kind: str | None) -> float:
    """The kind's tier weight; 0.0 for a kind outside the table or no kind."""
    return KIND_WEIGHTS.get(kind, 0.0) if kind else 0.0


def query_intent(query: str) -> str | None:
    """'type' (uppercase first char, no underscore), 'callable' (lowercase first char or any underscore) or None."""
    text = query.strip()
    if not text:
        return None
    if "_" in text or text[0].islower():
        return "callable"
    if text[0].isupper():
        return "type"
    return None  # starts with a digit or a symbol: no convention to read


def intent_boost(intent: str | None, kind: str | None) -> float:
    """+1.0 for a type query on a type kind, +0.5 for a callable query on a callable kind, else 0.0."""
    if intent == "type" and kind in TYPE_KINDS:
        return TYPE_INTENT_BOOST
    if intent == "callable" and kind in CALLABLE_KINDS:
        return CALLABLE_INTENT_BOOST
    return 0.0


def is_test_path(path: str) -> bool:
    """True when the relative path matches a test-file pattern (a leading `/` lets a top-level `tests/` count)."""
    probe = "/" + path.lower()
    return any(pattern in probe for pattern in TEST_PATH_PATTERNS)


def test_file_penalty(path: str) -> float:
    """-0.5 once for a test file, however many patterns match; else 0.0."""
    return TEST_FILE_PENALTY if is_test_path(path) else 0.0


test_file_penalty.__test__ = False  # type: ignore[attr-defined]  # pytest reads it: a ranking signal, not a test


@dataclass(frozen=True, slots=True)
class QueryFeatures:
    """What the signals need from the query, computed once per request."""

    text: str
    lower: str
    intent: str | None

    @classmethod
    def of(cls, query: str) -> QueryFeatures:
        """Features of a raw query string."""
        text = query.strip()
        return cls(text=text, lower=text.lower(), intent=query_intent(text))


def raw_signals(q: QueryFeatures, result_type: str, name: str | None, qualified_name: str | None,
                kind: str | None, path: str) -> tuple[float, ...]:
    """Each signal's raw value for one result, in `SIGNALS` order."""
    lower = q.lower
    return (
        EXACT_MATCH_BOOST if name and lower and name.lower() == lower else 0.0,
        QUALIFIED_NAME_BOOST if qualified_name and lower and lower in qualified_name.lower() else 0.0,
        kind_weight(kind),
        intent_boost(q.intent, kind),
        # 000: "Result is a symbol definition", which the symbols index tells by the kind it holds; a semantic-only
        # result it does not hold (000:201's unenriched case, no kind) is not known to be one: no boost.
        DEFINITION_BOOST if result_type == "symbol" and kind else 0.0,
        PATH_AFFINITY if lower and lower in path.lower() else 0.0,
        test_file_penalty(path),
    )


def boost(q: QueryFeatures, result_type: str, name: str | None, qualified_name: str | None,
          kind: str | None, path: str) -> float:
    """total_boost for one result (every rule yields a value inside its range, so no clamping is needed)."""
    return sum(raw_signals(q, result_type, name, qualified_name, kind, path))


def total_boost(signals: dict[str, float]) -> float:
    """The arithmetic sum of the given signal values (missing signals count 0.0)."""
    return sum(signals.get(name, 0.0) for name in SIGNALS)


@dataclass(frozen=True, slots=True)
class SignalValue:
    """One signal: what its rule computed, that value clamped to its range, and what was added."""

    raw: float
    clamped: float
    effective: float

    def as_dict(self) -> dict[str, float]:
        """The three values as a JSON-ready dict."""
        return {"raw": self.raw, "clamped": self.clamped, "effective": self.effective}


# Position of each signal in the tuples a Breakdown holds, and each one's range, in `SIGNALS` order.
SIGNAL_INDEX: dict[str, int] = {name: index for index, name in enumerate(SIGNALS)}
_LOWS = tuple(SIGNAL_RANGES[name][0] for name in SIGNALS)
_HIGHS = tuple(SIGNAL_RANGES[name][1] for name in SIGNALS)
_EXACT, _KIND, _INTENT, _DEFINITION, _PATH = (SIGNAL_INDEX[name] for name in (
    "exact_match_boost", "kind_weight", "query_intent_boost", "definition_boost", "path_affinity"))


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Every signal of one ranked result, with the basic and full views of the spec.

    The signals are two tuples in `SIGNALS` order (as computed, and clamped: what was added); the
    per-signal objects of `signals` are built only when asked for (the full view, tests). A `basic`
    explanation of a page of ten results then costs tuples, not seventy objects.
    """

    result_index: int
    bm25_score: float
    raw: tuple[float, ...]
    values: tuple[float, ...]
    semantic_similarity: float | None = None
    semantic_score: float = 0.0

    @property
    def signals(self) -> dict[str, SignalValue]:
        """Each signal by name: raw, clamped and effective (= clamped) value."""
        return {name: SignalValue(raw=raw, clamped=value, effective=value)
                for name, raw, value in zip(SIGNALS, self.raw, self.values, strict=True)}

    def effective(self, name: str) -> float:
        """The contribution signal `name` made to total_boost."""
        return self.values[SIGNAL_INDEX[name]]

    @property
    def kind_match(self) -> float:
        """kind_weight + query_intent_boost, as added."""
        return self.values[_KIND] + self.values[_INTENT]

    @property
    def total_boost(self) -> float:
        """Sum of the effective signal values."""
        return sum(self.values)

    @property
    def final_score(self) -> float:
        """bm25_score + semantic_score + total_boost."""
        return self.bm25_score + self.semantic_score + sum(self.values)

    def at(self, result_index: int) -> Breakdown:
        """The same breakdown at another position of the emitted list (itself when already there)."""
        if result_index == self.result_index:
            return self
        return Breakdown(result_index, self.bm25_score, self.raw, self.values, self.semantic_similarity,
                         self.semantic_score)

    def full(self) -> dict[str, Any]:
        """The `full` view: the spec's fields plus each signal's raw / clamped / effective value (and the
        semantic similarity and score of a result the semantic channel found)."""
        view = {
            "result_index": self.result_index,
            "exact_match_boost": self.effective("exact_match_boost"),
            "qualified_name_boost": self.effective("qualified_name_boost"),
            "path_affinity": self.effective("path_affinity"),
            "definition_boost": self.effective("definition_boost"),
            "kind_match": self.kind_match,
            "kind_weight": self.effective("kind_weight"),
            "query_intent_boost": self.effective("query_intent_boost"),
            "test_file_penalty": self.effective("test_file_penalty"),
            "bm25_score": self.bm25_score,
            "total_boost": self.total_boost,
            "final_score": self.final_score,
            "signals": {name: value.as_dict() for name, value in self.signals.items()},
        }
        if self.semantic_similarity is not None:
            view["semantic_similarity"] = self.semantic_similarity
            view["semantic_score"] = self.semantic_score
        return view

    def basic(self) -> dict[str, Any]:
        """The `basic` view: factors normalized to 0..1 (value / the signal's maximum) and the final score."""
        return basic_view(self.values, self.bm25_score, self.semantic_similarity, self.result_index,
                          self.semantic_score)


def basic_view(values: tuple[float, ...], bm25_score: float, semantic_similarity: float | None,
               result_index: int, semantic_score: float = 0.0) -> dict[str, Any]:
    """The `basic` view of clamped signal values (`clamp_all`), without building a Breakdown."""
    return {
        "result_index": result_index,
        "exact_match": values[_EXACT] / EXACT_MATCH_BOOST,
        "path_boost": values[_PATH] / PATH_AFFINITY,
        "definition_boost": values[_DEFINITION] / DEFINITION_BOOST,
        "semantic_similarity": min(max(semantic_similarity or 0.0, 0.0), 1.0),
        "final_score": bm25_score + semantic_score + sum(values),
    }


def signal_values(raw: tuple[float, ...] | dict[str, float]) -> tuple[float, ...]:
    """Raw signal values as floats in `SIGNALS` order (a tuple, or a dict by name; missing ones are 0.0)."""
    if isinstance(raw, dict):
        return tuple([float(raw.get(name, 0.0)) for name in SIGNALS])
    if len(raw) == len(SIGNALS):
        return tuple(map(float, raw))
    return tuple(map(float, raw[:len(SIGNALS)])) + (0.0,) * (len(SIGNALS) - len(raw))


def clamp_all(values: tuple[float, ...]) -> tuple[float, ...]:
    """Each value (in `SIGNALS` order) clamped into its signal's range; the rules' own values always are, so that
    is checked first."""
    if all(map(le, _LOWS, values)) and all(map(le, values, _HIGHS)):
        return values
    return tuple(map(min, map(max, values, _LOWS), _HIGHS))


def breakdown(raw: tuple[float, ...] | dict[str, float], bm25_score: float, result_index: int = 0,
              semantic_similarity: float | None = None, semantic_score: float = 0.0) -> Breakdown:
    """A Breakdown from raw signal values (a tuple in `SIGNALS` order, or a dict by name; missing ones are 0.0)."""
    values = signal_values(raw)
    return Breakdown(result_index, float(bm25_score), values, clamp_all(values), semantic_similarity,
                     float(semantic_score))


def explain(q: QueryFeatures, bm25_score: float, result_type: str, name: str | None,
            qualified_name: str | None, kind: str | None, path: str, result_index: int = 0,
            semantic_similarity: float | None = None) -> Breakdown:
    """The Breakdown of one result (called only when explain is on)."""
    raw = raw_signals(q, result_type, name, qualified_name, kind, path)
    return breakdown(raw, bm25_score, result_index, semantic_similarity)
