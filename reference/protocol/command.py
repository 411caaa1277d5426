"""`cruxgate search QUERY` / `cruxgate locate NAME`: search_code and locate_symbol from the shell.

The arguments are the tool's, parsed by its input schema (the same limits, enums and messages);
the hits are printed for people or as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cruxgate.reference.query.hits import Hit

from .arguments import parse_arguments
from .errors import ToolError
from .input_schemas import tool_schemas

TOOL_OF_COMMAND = {"search": "search_code", "locate": "locate_symbol"}

HIT_FIELDS = ("result_type", "result_id", "symbol_id", "symbol_stable_id", "path", "line_start", "line_end",
              "kind", "name", "qualified_name", "signature", "language", "visibility", "score")


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Arguments of `search` (QUERY) or `locate` (NAME)."""
    inputs = tool_schemas()[TOOL_OF_COMMAND[name]]["properties"]
    limit = inputs["limit"]
    parser.add_argument("text", metavar="QUERY" if name == "search" else "NAME")
    parser.add_argument("--workspace", default=".", help="indexed workspace (default: the current directory)")
    parser.add_argument("--limit", type=int,
                        help=f"number of results ({limit['minimum']}..{limit['maximum']}, default {limit['default']})")
    parser.add_argument("--language", help="only results in this language")
    parser.add_argument("--role", help=" | ".join(inputs["role"]["enum"]))
    if name == "locate":
        parser.add_argument("--kind", help="only symbols of exactly this kind")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--explain", action="store_true", help="show each result's full ranking breakdown")


def hit_dict(hit: Hit, explain: bool) -> dict[str, Any]:
    """A hit as JSON-ready data (None fields omitted)."""
    out = {name: getattr(hit, name) for name in HIT_FIELDS if getattr(hit, name) is not None}
    if hit.snippet is not None:
        out["snippet"] = hit.snippet
    if explain and hit.breakdown is not None:
        out["ranking"] = hit.breakdown.full()
    return out


def hit_line(rank: int, hit: Hit) -> str:
    """One result as a line for people: rank, score, location, kind and name."""
    first_line = (hit.snippet or "").strip().split("\n", 1)[0][:60]
    label = hit.qualified_name or hit.name or first_line
    kind = hit.kind or hit.result_type
    return f"{rank:>3}. {hit.score:8.3f}  {hit.path}:{hit.line_start}-{hit.line_end}  {kind}  {label}"


def explain_line(hit: Hit) -> str:
    """The breakdown of one hit on one indented line."""
    assert hit.breakdown is not None, "explain_line needs a hit scored with explain=True"
    b = hit.breakdown.full()
    parts = [f"{name}={b[name]:g}" for name in ("bm25_score", "exact_match_boost", "qualified_name_boost",
                                                "kind_match", "definition_boost", "path_affinity",
                                                "test_file_penalty", "final_score")]
    return "       " + " ".join(parts)


def run(args: argparse.Namespace) -> int:
    """Open the workspace's index, run the query and print the page."""
    from cruxgate.reference.index import IndexNotReady, IndexReader
    from cruxgate.reference.query.engine import QueryEngine

    try:
        reader = IndexReader.open(args.workspace)
    except IndexNotReady as err:
        status = getattr(getattr(err, "state", None), "status", "unknown")
        print(f"cruxgate: {args.workspace} has no usable index ({status}); run `cruxgate index {args.workspace}`",
              file=sys.stderr)
        return 1
    search = args.command == "search"
    given = {"limit": args.limit, "language": args.language, "role": args.role, "kind": getattr(args, "kind", None)}
    arguments = {"query" if search else "name": args.text, **{k: v for k, v in given.items() if v is not None}}
    try:
        params = parse_arguments(TOOL_OF_COMMAND[args.command], arguments)
    except ToolError as err:
        field = err.data["field"] if err.data else "arguments"  # invalid_input, the one it raises, names it
        print(f"cruxgate: invalid {field}: {err.message}", file=sys.stderr)
        return 2
    engine = QueryEngine(reader)
    if search:
        result = engine.search_code(params.query, limit=params.limit, language=params.language, role=params.role,
                                    explain=args.explain)
    else:
        result = engine.locate_symbol(params.text, limit=params.limit, language=params.language, kind=params.kind,
                                      role=params.role, explain=args.explain)
    if args.json:
        payload = {"results": [hit_dict(h, args.explain) for h in result.hits],
                   "suppressed_duplicate_count": result.suppressed_duplicate_count}
        print(json.dumps(payload, indent=2))
        return 0
    if not result.hits:
        print("no results")
    for rank, hit in enumerate(result.hits, start=1):
        print(hit_line(rank, hit))
        if args.explain:
            print(explain_line(hit))
    if result.suppressed_duplicate_count:
        print(f"({result.suppressed_duplicate_count} duplicate(s) suppressed)")
    return 0
