"""Role / kind filters and near-duplicate suppression as pure functions."""

from __future__ import annotations

from types import SimpleNamespace

from cruxgate.reference.index.kinds import KINDS, KINDS_OF_ROLE
from cruxgate.reference.query.dedup import top_k_unique
from cruxgate.reference.query.filters import allowed_kinds


def test_no_filter() -> None:
    assert allowed_kinds() is None


def test_kind_only_is_exact() -> None:
    assert allowed_kinds(kind="struct") == {"struct"}


def test_role_only_is_every_kind_of_the_role() -> None:
    assert allowed_kinds(role="type") == {"class", "struct", "enum", "trait", "interface", "type_alias"}
    assert allowed_kinds(role="callable") == {"function", "method"}
    assert allowed_kinds(role="value") == {"constant", "variable", "field"}
    assert allowed_kinds(role="namespace") == {"module"}


def test_kind_and_role_intersect() -> None:
    assert allowed_kinds(kind="struct", role="type") == {"struct"}
    assert allowed_kinds(kind="function", role="type") == frozenset()


def test_every_kind_has_exactly_one_role() -> None:
    owners = [role for kind in KINDS for role, kinds in KINDS_OF_ROLE.items() if kind in kinds]
    assert len(owners) == len(KINDS)


def hit(path: str, start: int, end: int, stable: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(path=path, line_start=start, line_end=end, symbol_stable_id=stable)


def test_dedup_keeps_the_first_representative_per_identity() -> None:
    ranked = [hit("a.py", 1, 5, "s1"), hit("a.py", 1, 5, "s1"), hit("a.py", 1, 5), hit("b.py", 2, 3),
              hit("a.py", 9, 9, "s1"), hit("c.py", 1, 1, "s2")]
    kept, suppressed = top_k_unique(ranked, limit=10)
    assert kept == [ranked[0], ranked[3], ranked[5]]
    assert suppressed == 3


def test_dedup_counts_only_while_filling_the_page() -> None:
    ranked = [hit("a.py", 1, 5, "s1"), hit("b.py", 1, 1), hit("a.py", 1, 5, "s1")]
    assert top_k_unique(ranked, limit=2) == ([ranked[0], ranked[1]], 0)
    assert top_k_unique(ranked, limit=3) == ([ranked[0], ranked[1]], 1)


def test_no_duplicates_no_suppression() -> None:
    ranked = [hit("a.py", 1, 5, "s1"), hit("a.py", 6, 9, "s2")]
    assert top_k_unique(ranked, limit=5) == (ranked, 0)
