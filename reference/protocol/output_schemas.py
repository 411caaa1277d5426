"""The output schema of every tool, as published in tools/list: the spec's schemas/, bundled into one document.

A tool's answer is its success payload or the error envelope, and both go out as `structuredContent`, so
the published schema is `anyOf: [success, envelope]`: MCP requires every structured result to conform to
the advertised schema, and the TypeScript SDK client validates structuredContent on error results too (the
Python one skips them). The success schema is the spec's `schemas/<tool>.output.schema.json`, the envelope
`schemas/error-envelope.schema.json`: the files the gate judges payloads by, never a copy. SDK clients
resolve `$ref` only inside the schema document, so every schema a tool's schema refers to is embedded under
`$defs` and each reference rewritten to point there. `index_repo` and `sync_repo` have no spec schema: theirs
are the reference's own below, built on the same metadata schema.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from cruxgate.conformance.spec.schemas import registry

from .input_schemas import tool_schemas

SCHEMA_BASE = "https://cruxgate.dev/schemas/"
ENVELOPE = "error-envelope"
# Values that are data, not subschemas: a `$ref` key inside them is not a reference.
_DATA_KEYWORDS = frozenset(("const", "enum", "default", "examples"))

_JOB = {"type": "object", "required": ["job_id", "kind", "status"],
        "properties": {"job_id": {"type": "integer", "minimum": 1}, "kind": {"enum": ["index", "sync"]},
                       "status": {"enum": ["running", "completed", "failed"]}}}
_METADATA = {"$ref": f"{SCHEMA_BASE}metadata.json"}
# The tools the spec does not define: the job they started and the metadata every answer carries.
OWN_SUCCESS: dict[str, dict[str, Any]] = {
    "index_repo": {"title": "index_repo success payload", "type": "object", "required": ["job", "metadata"],
                   "properties": {"job": _JOB, "startup_checks": {"type": "object"}, "metadata": _METADATA},
                   "not": {"required": ["error"]}},
    "sync_repo": {"title": "sync_repo success payload", "type": "object", "required": ["job", "metadata"],
                  "properties": {"job": _JOB, "metadata": _METADATA}, "not": {"required": ["error"]}},
}


def _short(schema_id: str) -> str:
    """`https://cruxgate.dev/schemas/metadata.json` -> `metadata` (the key under `$defs`)."""
    if not (schema_id.startswith(SCHEMA_BASE) and schema_id.endswith(".json")):
        raise ValueError(f"{schema_id!r} is not a cruxgate schema id")
    return schema_id[len(SCHEMA_BASE):-len(".json")]


def _rewrite(node: Any, key: str, found: set[str]) -> Any:
    """A copy of schema `key`'s `node` with every `$ref` local to the bundle; external ids land in `found`."""
    if isinstance(node, list):
        return [_rewrite(item, key, found) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for name, value in node.items():
        if name == "$ref" and isinstance(value, str):
            base, _, fragment = value.partition("#")
            target = key if not base else _short(base)
            if base:
                found.add(target)
            out[name] = f"#/$defs/{target}{fragment}"
        elif name in ("$id", "$schema"):
            continue  # an embedded `$id` would re-base its `#` references; MCP's default dialect is 2020-12
        elif name in _DATA_KEYWORDS:
            out[name] = copy.deepcopy(value)
        else:
            out[name] = _rewrite(value, key, found)
    return out


def bundle(tool: str, success: dict[str, Any] | None = None) -> dict[str, Any]:
    """One self-contained schema: `tool`'s success payload (the spec's, or `success`) or the error envelope."""
    contents = registry()
    root = f"{tool}.output"
    defs: dict[str, Any] = {}
    pending = {root, ENVELOPE}
    while pending:
        key = pending.pop()
        source = success if key == root and success is not None else contents.contents(f"{SCHEMA_BASE}{key}.json")
        found: set[str] = set()
        defs[key] = _rewrite(source, key, found)
        pending |= found - set(defs) - pending
    return {"title": f"{tool} answer: its success payload or the canonical error envelope",
            "type": "object",
            "anyOf": [{"$ref": f"#/$defs/{root}"}, {"$ref": f"#/$defs/{ENVELOPE}"}],
            "$defs": dict(sorted(defs.items()))}


@lru_cache(maxsize=1)
def tool_output_schemas() -> dict[str, dict[str, Any]]:
    """Output schema of every tool, by tool name (each tool of the input schemas has one)."""
    return {name: bundle(name, OWN_SUCCESS.get(name)) for name in tool_schemas()}
