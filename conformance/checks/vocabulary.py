"""The check vocabulary written out from the registry: the spec format's check arguments and docs/spec.md's table.

    python -m cruxgate.conformance.checks.vocabulary          # rewrite both from conformance/checks/registry.py

The registry is the one place a check's name, arguments and meaning live; a test keeps the two generated
parts equal to what this module writes.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from cruxgate.conformance.checks.registry import ARGUMENTS, RULES
from cruxgate.conformance.spec.paths import schemas_dir

DEFINITION = "check_arguments"  # the generated $defs entry of schemas/spec-format.schema.json
TABLE_BEGIN = "<!-- check table: generated from conformance/checks/registry.py; do not edit -->"
TABLE_END = "<!-- end of the check table -->"


def arguments_schema() -> dict[str, Any]:
    """The `$defs` entry that names every check and, per check, its required and allowed arguments."""
    branches = []
    for rule in RULES.values():
        then: dict[str, Any] = {"properties": {name: ARGUMENTS[name].schema for name in rule.arguments}}
        if rule.required:
            then = {"required": list(rule.required), **then}
        branches.append({"if": {"required": ["check"], "properties": {"check": {"const": rule.name}}},
                         "then": then})
    return {"description": "Generated from conformance/checks/registry.py (python -m "
                           "cruxgate.conformance.checks.vocabulary): each check and its arguments.",
            "properties": {"check": {"enum": list(RULES)}},
            "allOf": branches}


def _argument(name: str, required: bool, empty_ok: bool) -> str:
    kind = "operand" if ARGUMENTS[name].operand else "literal"
    marks = [kind] + (["may select nothing"] if empty_ok else [])
    return f"`{name}{'' if required else '?'}` ({', '.join(marks)}: {ARGUMENTS[name].doc})"


def markdown_table() -> str:
    """docs/spec.md's table of named checks, between its markers."""
    lines = [TABLE_BEGIN, "", "| check | arguments | passes when |", "| --- | --- | --- |"]
    for rule in RULES.values():
        arguments = [_argument(name, name in rule.required, name in rule.empty_ok) for name in rule.arguments]
        if rule.takes_response:
            arguments.append("(the whole tool answer)")
        lines.append(f"| `{rule.name}` | {'; '.join(arguments) or 'none'} | {rule.summary.replace('|', '&#124;')} |")
    return "\n".join([*lines, "", TABLE_END])


def schema_path() -> Path:
    """schemas/spec-format.schema.json."""
    return schemas_dir() / "spec-format.schema.json"


def docs_path() -> Path:
    """docs/spec.md (in a checkout)."""
    return schemas_dir().parent / "docs" / "spec.md"


def one(value: Any) -> str:
    """JSON on one line."""
    return json.dumps(value, ensure_ascii=False)


def _render(definition: dict[str, Any]) -> str:
    """The entry as the schema file writes it: one line per key, one per check."""
    branches = ",\n        ".join(one(branch) for branch in definition["allOf"])
    return ("{\n"
            f'      "description": {one(definition["description"])},\n'
            f'      "properties": {one(definition["properties"])},\n'
            f'      "allOf": [\n        {branches}\n      ]\n'
            "    }")


def write() -> None:
    """Rewrite the generated $defs entry of the spec format and the table in docs/spec.md."""
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    text = schema_path().read_text(encoding="utf-8")
    start = text.index(f'    "{DEFINITION}": ')
    end = text.index("\n    }", start) + len("\n    }")
    text = text[:start] + f'    "{DEFINITION}": {_render(arguments_schema())}' + text[end:]
    assert json.loads(text)["$defs"].keys() == schema["$defs"].keys()
    schema_path().write_text(text, encoding="utf-8")
    docs = docs_path().read_text(encoding="utf-8")
    pattern = re.compile(re.escape(TABLE_BEGIN) + ".*?" + re.escape(TABLE_END), re.DOTALL)
    docs_path().write_text(pattern.sub(lambda _: markdown_table(), docs), encoding="utf-8")


if __name__ == "__main__":
    write()
    sys.exit(0)
