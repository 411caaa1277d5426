"""get_file_outline and find_references on the polyglot fixture."""

from __future__ import annotations

import pytest

from cruxgate.reference.query.engine import QueryEngine
from cruxgate.reference.query.errors import QueryInputError, QueryNotFound


def test_outline_nests_members_under_their_class(polyglot: QueryEngine) -> None:
    outline = polyglot.file_outline("src/auth/handler.py", depth="all")
    top = {n["name"]: n for n in outline.symbols}
    assert set(top) == {"AuthHandler", "make_handler"}
    members = [c["name"] for c in top["AuthHandler"]["children"]]
    assert members[:2] == ["realm", "__init__"] and len(members) >= 3
    assert outline.language == "python" and outline.depth == "all"
    assert outline.count() == 2 + len(members)
    assert [n["line_start"] for n in outline.symbols] == sorted(n["line_start"] for n in outline.symbols)


def test_outline_top_depth_has_only_parentless_symbols(polyglot: QueryEngine) -> None:
    outline = polyglot.file_outline("src/auth/handler.py", depth="top")
    assert [n["name"] for n in outline.symbols] == ["AuthHandler", "make_handler"]
    assert all("children" not in n for n in outline.symbols)


def test_outline_of_200_symbols(polyglot: QueryEngine) -> None:
    assert polyglot.file_outline("src/big_module.py", depth="all").count() == 200


def test_outline_of_a_file_without_grammar_is_empty(polyglot: QueryEngine) -> None:
    outline = polyglot.file_outline("config/settings.ini", depth="all")
    assert outline.symbols == [] and outline.count() == 0


def test_outline_language_filter(polyglot: QueryEngine) -> None:
    assert polyglot.file_outline("src/auth/handler.py", depth="all", language="rust").symbols == []
    assert polyglot.file_outline("src/auth/handler.py", depth="all", language="PY").symbols == \
        polyglot.file_outline("src/auth/handler.py", depth="all").symbols != []


def test_outline_normalizes_the_path(polyglot: QueryEngine) -> None:
    assert polyglot.file_outline("./src//auth/handler.py", depth="all").path == "src/auth/handler.py"


@pytest.mark.parametrize("path", ["/etc/passwd", "../outside.py", "src/../../x.py", "", "C:/x.py", "."])
def test_outline_paths_never_escape(polyglot: QueryEngine, path: str) -> None:
    with pytest.raises(QueryInputError) as err:
        polyglot.file_outline(path, depth="all")
    assert err.value.field == "path"


def test_outline_of_an_unknown_file(polyglot: QueryEngine) -> None:
    with pytest.raises(QueryNotFound) as err:
        polyglot.file_outline("src/nope.py", depth="all")
    assert err.value.code == "file_not_found"


def test_create_pool_three_resolved_five_unresolved(polyglot: QueryEngine) -> None:
    refs = polyglot.find_references("createPool", limit=50)
    assert refs.unresolved_count == 5
    assert refs.total == 3
    assert [(r["path"], r["line"], r["edge_type"]) for r in refs.references] == [
        ("src/db/client.ts", 1, "import"), ("src/db/client.ts", 3, "call"), ("src/db/pool.ts", 13, "call")]
    assert refs.references[2]["from_symbol"]["name"] == "defaultPool"


def test_zero_unresolved_is_explicit(polyglot: QueryEngine) -> None:
    refs = polyglot.find_references("parse_config", limit=50)
    assert refs.unresolved_count == 0 and refs.total >= 1


def test_limit_caps_the_list_not_the_total(polyglot: QueryEngine) -> None:
    refs = polyglot.find_references("createPool", limit=1)
    assert len(refs.references) == 1 and refs.total == 3


def test_by_symbol_id_and_stable_id_agree(polyglot: QueryEngine) -> None:
    target = polyglot.locate_symbol("createPool", limit=10).hits[0]
    assert target.symbol_id is not None and target.symbol_stable_id is not None
    by_name = polyglot.find_references("createPool", limit=50)
    assert polyglot.find_references(target.symbol_id, limit=50).references == by_name.references
    assert polyglot.find_references(target.symbol_stable_id, limit=50).references == by_name.references


def test_unknown_symbol(polyglot: QueryEngine) -> None:
    with pytest.raises(QueryNotFound) as err:
        polyglot.find_references("noSuchSymbolAnywhere", limit=50)
    assert err.value.code == "symbol_not_found"
    with pytest.raises(QueryNotFound):
        polyglot.find_references(10**9, limit=50)


@pytest.mark.parametrize("symbol_id", [2**63 - 1, 2**63, 2**64 + 5, 10**40])
def test_a_symbol_id_beyond_sqlite_integers_is_not_found(polyglot: QueryEngine, symbol_id: int) -> None:
    # The input schema allows any integer >= 1; SQLite stores at most 2**63 - 1, so a larger id names no symbol.
    with pytest.raises(QueryNotFound) as err:
        polyglot.find_references(symbol_id, limit=50)
    assert err.value.code == "symbol_not_found" and str(symbol_id) in err.value.message


def test_outline_is_read_once_per_engine_and_never_holds_none(polyglot: QueryEngine) -> None:
    outline = polyglot.file_outline("src/big_module.py", depth="all")
    assert polyglot.file_outline("src/big_module.py", depth="all") is outline  # the generation never changes: kept
    assert polyglot.file_outline("src/big_module.py", depth="top") is not outline

    def walk(nodes: list) -> int:
        for node in nodes:
            assert None not in node.values(), node
        return sum(1 + walk(n.get("children", [])) for n in nodes)
    assert walk(outline.symbols) == outline.count() == 200


def test_reader_connect_is_a_second_connection(polyglot: QueryEngine) -> None:
    with polyglot.reader.connect() as db:
        assert db is not polyglot.db
        cursor = polyglot.db.execute("SELECT symbol_id FROM symbols")  # a statement left open on the shared one
        cursor.fetchone()
        assert db.execute("SELECT COUNT(*) FROM symbols").fetchone()[0] > 0
    db.close()
