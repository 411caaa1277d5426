"""get_file_outline's wire nodes: qualified name, stable id, implied `language` and empty `children` left out,
the JSON kept and spliced."""

from __future__ import annotations

import json
from typing import Any

from cruxgate.reference.protocol.encoding import to_json_bytes
from cruxgate.reference.query.outline import Outline
from cruxgate.reference.server.tools.structure import WIRE_OUTLINES, WireOutlines, encode_outline, wire_nodes

from .harness import Connection


def node(name: str, language: str = "python", children: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """An engine node as reference.query.outline builds it at depth all."""
    return {"symbol_id": len(name), "symbol_stable_id": f"s{len(name)}", "name": name, "qualified_name": f"m.{name}",
            "kind": "class", "line_start": 1, "line_end": 2, "language": language, "children": children or []}


def walk(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every node of a tree, depth first."""
    return [n for top in nodes for n in [top, *walk(top.get("children", []))]]


def test_wire_nodes_keep_the_handle_and_drop_what_the_tree_implies() -> None:
    engine_nodes = [node("A", children=[node("a1"), node("a2", language="sql")]), node("B")]
    wire = wire_nodes(engine_nodes, "python")
    assert wire == [
        {"symbol_id": 1, "name": "A", "kind": "class", "line_start": 1, "line_end": 2,
         "children": [{"symbol_id": 2, "name": "a1", "kind": "class", "line_start": 1, "line_end": 2},
                      {"symbol_id": 2, "name": "a2", "kind": "class", "line_start": 1, "line_end": 2,
                       "language": "sql"}]},
        {"symbol_id": 1, "name": "B", "kind": "class", "line_start": 1, "line_end": 2},
    ]
    # The engine's (cached) nodes are left as they were.
    assert engine_nodes[0]["language"] == "python" and engine_nodes[1]["children"] == []
    # A file the grammar does not name (language None) keeps every node's language.
    assert all("language" in n for n in walk(wire_nodes(engine_nodes, None)))


def test_wire_outlines_keep_nodes_and_json_per_outline() -> None:
    kept = WireOutlines(size=2)
    outlines = [Outline(path=f"f{i}.py", language="python", line_count=3, depth="all", symbols=[node(f"N{i}")])
                for i in range(3)]
    first = kept.nodes(outlines[0])
    assert kept.nodes(outlines[0]) is first  # the same outline again: the same wire nodes
    encoded = kept.encoded(first)
    assert encoded is not None and json.loads(encoded) == first
    assert kept.encoded(list(first)) is None  # an equal list it did not hand out has no kept JSON
    kept.nodes(outlines[1])
    kept.nodes(outlines[2])  # evicts the least recently used (outline 0)
    assert kept.encoded(first) is None and kept.nodes(outlines[0]) is not first


def test_encode_outline_is_the_payload_json() -> None:
    outline = Outline(path="a.py", language="python", line_count=3, depth="all",
                      symbols=[node("A", children=[node("a1")])])
    payload = {"path": "a.py", "language": "python", "metadata": {"freshness_status": "fresh"},
               "symbols": WIRE_OUTLINES.nodes(outline)}
    assert json.loads(encode_outline(payload)) == payload
    assert encode_outline(payload) == to_json_bytes(payload)  # same compact bytes, same key order
    truncated = {**payload, "symbols": payload["symbols"][:0], "suggested_next_actions": ["x"]}
    assert json.loads(encode_outline(truncated)) == truncated  # not the kept list: encoded in full


def test_outline_over_stdio_has_no_implied_fields(stdio_server: Connection) -> None:
    payload, is_error = stdio_server.payload("get_file_outline", {"path": "src/big_module.py"})
    assert not is_error and payload["language"] == "python"
    nodes = walk(payload["symbols"])
    assert len(nodes) == payload["symbol_count"] == 200
    assert all("language" not in n and n.get("children", [None]) for n in nodes)
    assert any(n.get("children") for n in payload["symbols"])  # classes still nest their members
    again, _ = stdio_server.payload("get_file_outline", {"path": "src/big_module.py"})
    assert again == payload  # the kept encoding answers the same
