"""Argument and field names the documents leave open, mapped between ours and a target's (profile `names`).

The spec calls tools with our argument names and reads answers with our
field names. Where the source documents name neither, a target may choose
its own; its profile says which, per tool:

    names:
      find_references:
        tool: references                   # the target's name for the tool
        arguments: {symbol: symbol_name}   # our argument -> the target's
        fields: {line: line_start}         # the target's field -> ours, in every object of the answer
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class NameMap:
    """A profile's `names` table, applied to one call's arguments and answer."""

    def __init__(self, table: Mapping[str, Mapping[str, Any]] | None) -> None:
        self.table = table or {}
        self._ours = {str(spec["tool"]): tool for tool, spec in self.table.items() if (spec or {}).get("tool")}

    def tool(self, ours: str) -> str:
        """The target's name for our tool `ours`."""
        return str((self.table.get(ours) or {}).get("tool") or ours)

    def our_tool(self, theirs: str) -> str:
        """Our name for the target's tool `theirs` (itself when the profile renames nothing to it)."""
        return self._ours.get(theirs, theirs)

    def arguments(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        """`args` with our names replaced by the target's."""
        renames = (self.table.get(tool) or {}).get("arguments") or {}
        return {renames.get(name, name): value for name, value in args.items()} if renames else args

    def fields(self, tool: str, payload: Any) -> Any:
        """`payload` with the target's field names replaced by ours, at every depth (ours wins when both appear)."""
        renames = (self.table.get(tool) or {}).get("fields") or {}
        return _rename(payload, renames) if renames else payload


    def tools(self, listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A tools/list answer with tool and argument names turned back into ours (for the surface lint)."""
        out = []
        for tool in listed:
            if isinstance(tool.get("name"), str) and tool["name"] in self._ours:
                tool = {**tool, "name": self._ours[tool["name"]]}
            back = {theirs: ours for ours, theirs in
                    ((self.table.get(str(tool.get("name"))) or {}).get("arguments") or {}).items()}
            schema = tool.get("inputSchema")
            if back and isinstance(schema, dict):
                schema = {**schema, "properties": {back.get(name, name): sub
                                                   for name, sub in (schema.get("properties") or {}).items()},
                          "required": [back.get(name, name) for name in schema.get("required") or []]}
                tool = {**tool, "inputSchema": schema}
            out.append(tool)
        return out


def _rename(value: Any, renames: Mapping[str, str]) -> Any:
    if isinstance(value, list):
        return [_rename(item, renames) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _rename(item, renames) for key, item in value.items() if key not in renames or renames[key] in value}
    for theirs, ours in renames.items():
        if theirs in value and ours not in value:
            out[ours] = _rename(value[theirs], renames)
    return out
