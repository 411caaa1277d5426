"""get_file_outline and find_references over a real index."""

from __future__ import annotations

import pytest

from reference.query.engine import QueryEngine
from reference.query.errors import QueryInputError, QueryNotFound


def test_outline_nests_members_under_their_class(ranked: QueryEngine) -> None:
    outline = ranked.file_outline("web/service.ts")
    top = {n["name"]: n for n in outline.symbols}
    assert {"UserService", "UserServiceFactory", "makeService"} <= set(top)
    assert [c["name"] for c in top["UserServiceFactory"]["children"]] == ["build"]
    assert outline.language == "typescript" and outline.count() >= 4
    lines = [n["line_start"] for n in outline.symbols]
    assert lines == sorted(lines)


def test_outline_top_depth_has_only_parentless_symbols(ranked: QueryEngine) -> None:
    outline = ranked.file_outline("web/service.ts", depth="top")
    assert "build" not in [n["name"] for n in outline.symbols]
    assert all("children" not in n for n in outline.symbols)
    rows = ranked.db.execute(
        "SELECT COUNT(*) FROM symbols s JOIN symbol_relations r ON r.symbol_id = s.symbol_id "
        "WHERE s.path = 'web/service.ts' AND r.parent_symbol_id IS NULL").fetchone()[0]
    assert len(outline.symbols) == rows


def test_outline_normalizes_the_path(ranked: QueryEngine) -> None:
    assert ranked.file_outline("./web//service.ts").path == "web/service.ts"


@pytest.mark.parametrize("path", ["/etc/passwd", "../outside.py", "web/../../x.py", "", "C:/x.py"])
def test_outline_paths_never_escape(ranked: QueryEngine, path: str) -> None:
    with pytest.raises(QueryInputError) as err:
        ranked.file_outline(path)
    assert err.value.field == "path"


def test_outline_of_an_unknown_file(ranked: QueryEngine) -> None:
    with pytest.raises(QueryNotFound) as err:
        ranked.file_outline("nope.py")
    assert err.value.code == "file_not_found"


def test_outline_rejects_a_bad_depth(ranked: QueryEngine) -> None:
    with pytest.raises(QueryInputError) as err:
        ranked.file_outline("web/service.ts", depth="deep")
    assert err.value.field == "depth"


def test_references_resolve_calls_and_count_zero_unresolved(ranked: QueryEngine) -> None:
    refs = ranked.find_references("makeService")
    assert refs.unresolved_count == 0
    assert [(r["path"], r["edge_type"]) for r in refs.references] == [("web/service.ts", "call")]
    assert refs.total == 1 and refs.targets[0]["name"] == "makeService"


def test_references_by_symbol_id_and_stable_id_agree(ranked: QueryEngine) -> None:
    target = ranked.locate_symbol("makeService").hits[0]
    by_name = ranked.find_references("makeService").references
    assert ranked.find_references(target.symbol_id).references == by_name
    assert ranked.find_references(target.symbol_stable_id).references == by_name


def test_references_count_unresolved_edges_by_name(ranked: QueryEngine) -> None:
    edges = ranked.db.execute(
        "SELECT to_name, COUNT(*) FROM symbol_edges WHERE to_symbol_id IS NULL GROUP BY to_name ORDER BY to_name"
    ).fetchall()
    assert edges, "the ranking workspace has unresolved edges"
    name, count = edges[0]
    assert ranked.find_references(name.split("::")[-1].split(".")[-1]).unresolved_count >= count


def test_unknown_symbol(ranked: QueryEngine) -> None:
    with pytest.raises(QueryNotFound) as err:
        ranked.find_references("noSuchSymbolAnywhere")
    assert err.value.code == "symbol_not_found"
    with pytest.raises(QueryNotFound):
        ranked.find_references(10**9)
