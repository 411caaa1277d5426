"""Structured answers: every tool advertises an outputSchema and sends structuredContent equal to its text.

The official SDK client (`mcp.ClientSession`) over real stdio judges them: it validates a success result
against the advertised schema itself; error results it skips, so the test asks its `validate_tool_result`
for those too (the TypeScript SDK validates them). The published schemas resolve no `$ref` outside
themselves (the SDK client refuses that), and they are the spec's schemas/ files: a payload the spec's
schema rejects, the published one rejects.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from referencing import Registry

from cruxgate.conformance.spec.schemas import schema, validator_for
from cruxgate.reference.protocol.output_schemas import tool_output_schemas

from .bad_inputs import BAD_CALLS

# One call per tool that succeeds on the polyglot fixture, then failures that come from the workspace.
GOOD_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("search_code", {"query": "validate_token"}),
    ("search_code", {"query": "parse the config file", "detail_level": "context", "ranking_explain_level": "full"}),
    ("locate_symbol", {"name": "validate_token", "compact": True}),
    ("get_file_outline", {"path": "src/big_module.py"}),
    ("find_references", {"name": "validate_token"}),
    ("health_check", {}),
    ("index_status", {}),
    ("search", {"query": "validate token", "include_scores": True, "preview_mode": True}),
    ("search_preview", {"query": "validate token"}),
    ("sync_repo", {}),
]
WORKSPACE_ERRORS: list[tuple[str, dict[str, Any]]] = [
    ("get_file_outline", {"path": "no/such/file.py"}),
    ("get_file_outline", {"path": "src/big_module.py", "ref": "other-branch"}),
    ("find_references", {"symbol_id": 987654321}),
]
TIMEOUT = 60.0


async def _answers(workspace: Path, calls: list[tuple[str, dict[str, Any]]]) -> tuple[dict[str, Any], list[Any]]:
    """tools/list and one CallToolResult per call, every result validated by the SDK client's own check."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "cruxgate", "serve-mcp", "--workspace",
                                                                 str(workspace), "--no-prewarm"],
                                   cwd=str(workspace), env=dict(os.environ))
    results = []
    with anyio.fail_after(TIMEOUT * (len(calls) + 1)), open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            listed = {tool.name: tool for tool in (await session.list_tools()).tools}
            for name, arguments in calls:
                result = await session.call_tool(name, arguments)  # validates a success result
                await session.validate_tool_result(name, result)  # and an error result too
                results.append(result)
    return listed, results


def test_every_answer_is_structured_and_valid_for_the_sdk_client(fresh_workspace: Callable[[], Path]) -> None:
    calls = GOOD_CALLS + WORKSPACE_ERRORS + [(tool, args) for tool, args, _ in BAD_CALLS if tool in
                                             tool_output_schemas()]
    listed, results = anyio.run(_answers, fresh_workspace(), calls)
    assert {name: tool.output_schema for name, tool in listed.items()} == tool_output_schemas()
    errors = 0
    for (name, arguments), result in zip(calls, results, strict=True):
        assert [item.type for item in result.content] == ["text"], (name, arguments)
        assert result.structured_content == json.loads(result.content[0].text), (name, arguments)
        failed = (name, arguments) in WORKSPACE_ERRORS or (name, arguments) not in GOOD_CALLS
        assert result.is_error is failed, (name, arguments, result.structured_content)
        assert ("error" in result.structured_content) is failed
        errors += failed
    assert errors == len(WORKSPACE_ERRORS) + len(BAD_CALLS) - 1  # every failure but the unknown tool's


def _self_contained(tool: str) -> Draft202012Validator:
    """The published schema as the SDK client compiles it: `$ref` resolves within the document only."""
    schema = tool_output_schemas()[tool]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=Registry())


GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "snapshots"


def _unmask(value: Any) -> Any:
    """A golden payload with its masked timings (`"<ms>"`, docs/snapshots.md) numbers again."""
    if isinstance(value, dict):
        return {key: _unmask(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_unmask(item) for item in value]
    return 0 if value == "<ms>" else value


def _recorded() -> list[tuple[str, dict[str, Any]]]:
    """(tool, payload) of every golden answer: real successes and failures of every tool."""
    answers = []
    for path in sorted(GOLDEN.glob("*/*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if record["call"]["tool"] in tool_output_schemas():
            answers.append((record["call"]["tool"], _unmask(record["payload"])))
    return answers


@pytest.mark.parametrize("tool", sorted(tool_output_schemas()))
def test_the_published_schema_is_self_contained_and_covers_both_outcomes(tool: str) -> None:
    validator = _self_contained(tool)
    recorded = [payload for name, payload in _recorded() if name == tool]
    assert recorded, f"no golden answer of {tool}"
    for payload in recorded:
        assert not list(validator.iter_errors(payload)), payload
        if "error" in payload:  # an envelope with a code outside the registry
            broken = {**payload, "error": {**payload["error"], "code": "no_such_code"}}
        else:  # a success payload without the first field its spec schema requires
            broken = {key: value for key, value in payload.items() if key != _first_required(tool)}
        assert list(validator.iter_errors(broken)), broken


def _first_required(tool: str) -> str:
    """The first field the spec's output schema of `tool` requires (the reference's own job tools: metadata)."""
    try:
        return str(schema(f"{tool}.output")["required"][0])
    except KeyError:  # no spec schema (index_repo, sync_repo); NoSuchResource is a KeyError
        return "metadata"


def test_the_published_schema_is_the_spec_schema() -> None:
    validator = _self_contained("search_code")
    good = dict(_recorded_of("search_code"))
    spec_success, spec_envelope = validator_for("search_code.output"), validator_for("error-envelope")
    # A result without its path breaks the spec's success schema, a made-up code the registry: both rejected.
    broken = {**good, "results": [{key: v for key, v in good["results"][0].items() if key != "path"}]}
    assert list(spec_success.iter_errors(broken)) and list(validator.iter_errors(broken))
    envelope = {"error": {"code": "no_such_code", "message": "x"}}
    assert list(spec_envelope.iter_errors(envelope)) and list(validator.iter_errors(envelope))
    assert not list(validator.iter_errors({"error": {"code": "internal_error", "message": "x"}}))


def _recorded_of(tool: str) -> dict[str, Any]:
    return next(payload for name, payload in _recorded() if name == tool and payload.get("results"))
