"""A server's tool surface (its tools/list answer): normalize it, lint it against the spec, diff two.

Lint compares each listed tool with the spec's input schema for it (the
``schemas/`` files whose name says ``input``); diff compares two normalized
snapshots and classifies each change as breaking, risky or additive for a
client written against the older one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

BREAKING, RISKY, ADDITIVE = "breaking", "risky", "additive"
_SEVERITY = {BREAKING: 0, RISKY: 1, ADDITIVE: 2}

# ---------------------------------------------------------------- normalize


def _plain(value: Any) -> Any:
    """Turn SDK models into plain JSON data (by_alias keeps inputSchema's spelling)."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    return value


def normalize(tools_answer: Any) -> dict[str, Any]:
    """A stable form of a tools/list answer: tools sorted by name, keys sorted, descriptions kept."""
    answer = _plain(tools_answer)
    tools = answer.get("tools", []) if isinstance(answer, dict) else answer
    plain = [_plain(tool) for tool in tools]
    # Round-trip through sorted JSON so nested keys are ordered too.
    ordered = sorted(plain, key=lambda tool: str(tool.get("name", "")))
    snapshot: dict[str, Any] = json.loads(json.dumps({"tools": ordered}, sort_keys=True))
    return snapshot


def dumps(snapshot: dict[str, Any]) -> str:
    """Serialize a snapshot the way golden files keep it."""
    return json.dumps(snapshot, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------- lint


@dataclass(frozen=True, order=True)
class Finding:
    """One way a listed tool departs from the spec."""

    tool: str
    path: str
    problem: str

    def __str__(self) -> str:
        where = f"{self.tool}.{self.path}" if self.path else self.tool
        return f"{where}: {self.problem}"


_INPUT_NAME = re.compile(r"^(?:input[-_.])?(?P<tool>[a-z][a-z0-9_]*?)(?:[-_.]input)?(?:\.schema)?\.json$")


def load_expected_inputs(schemas_dir: Path | None = None) -> dict[str, dict[str, Any]]:
    """{tool name: spec input schema} from schemas/**/*input*.json.

    The tool name is the schema's ``x-tool`` keyword when present, else the
    file name without ``input``/``.schema`` decorations
    (``search_code.input.schema.json`` -> ``search_code``).
    """
    if schemas_dir is None:
        from cruxgate.conformance.spec.paths import schemas_dir as locate

        schemas_dir = locate()
    expected: dict[str, dict[str, Any]] = {}
    for path in sorted(schemas_dir.rglob("*.json")):
        if "input" not in path.name:
            continue
        schema = json.loads(path.read_text(encoding="utf-8"))
        tool = schema.get("x-tool") if isinstance(schema, dict) else None
        if tool is None:
            match = _INPUT_NAME.match(path.name.replace("-input.", ".input.").replace("_input.", ".input."))
            tool = match.group("tool") if match else None
        if isinstance(tool, str) and isinstance(schema, dict):
            expected[tool] = schema
    return expected


def _type_set(schema: dict[str, Any]) -> set[str] | None:
    value = schema.get("type")
    if value is None:
        return None
    return {value} if isinstance(value, str) else set(value)


def _documented(schema: Any) -> bool:
    """Whether the documents name this property (its `x-basis` is a seed anchor, not `reading: ...`)."""
    return not (isinstance(schema, dict) and str(schema.get("x-basis", "")).startswith("reading:"))


def _lint_property(tool: str, path: str, want: dict[str, Any], got: Any) -> list[Finding]:
    """A documented property: the target must accept every value the spec allows (accepting more is fine)."""
    if not isinstance(got, dict):
        return [Finding(tool, path, "property schema is not an object")]
    findings: list[Finding] = []
    want_types, got_types = _type_set(want), _type_set(got)
    if want_types is not None and got_types is not None and not _accepts(got_types, want_types):
        findings.append(Finding(tool, f"{path}.type",
                                f"type {sorted(got_types)} where the spec says {sorted(want_types)}"))
    if "enum" in want and "enum" in got:
        missing = [v for v in want["enum"] if v not in got["enum"]]
        if missing:
            findings.append(Finding(tool, f"{path}.enum", f"missing enum value(s) {missing}"))
    if "x-default-basis" in want and "default" in got and got["default"] != want.get("default"):
        findings.append(Finding(tool, f"{path}.default", f"default {got['default']!r} where {want['x-default-basis']} "
                                                         f"says {want.get('default')!r}"))
    if isinstance(want.get("properties"), dict):
        findings += _lint_object(tool, path, want, got)
    return findings


def _accepts(got: set[str], want: set[str]) -> bool:
    """Whether a property typed `got` takes every value of `want` (an integer is a number)."""
    return all(kind in got or (kind == "integer" and "number" in got) for kind in want)


def _lint_object(tool: str, path: str, want: dict[str, Any], got: dict[str, Any]) -> list[Finding]:
    """Properties the documents name must be there and accept what the spec allows; our readings are not linted.

    An extra optional input passes (R21): no document forbids one, not even an argument the spec gives only
    another tool (an optional `ref` everywhere, `kind` on search_code, which 000 lets a tool ignore).
    """
    prefix = f"{path}." if path else ""
    findings: list[Finding] = []
    want_props: dict[str, Any] = want.get("properties", {}) or {}
    got_props: dict[str, Any] = got.get("properties", {}) or {}
    for name, sub in sorted(want_props.items()):
        if not _documented(sub):
            continue  # a name of ours: the target may call it otherwise (profile `names`)
        if name not in got_props:
            findings.append(Finding(tool, f"{prefix}properties.{name}",
                                    f"missing; {sub.get('x-basis', 'the spec')} names it"))
        elif isinstance(sub, dict):
            findings += _lint_property(tool, f"{prefix}properties.{name}", sub, got_props[name])
    for name in sorted(set(got_props) - set(want_props)):
        if want.get("additionalProperties") is False:
            findings.append(Finding(tool, f"{prefix}properties.{name}",
                                    "not in the spec (its schema allows no other properties)"))
    got_required = set(got.get("required", []))
    for name in sorted(got_required & set(want_props) - set(want.get("required", []))):
        if _documented(want_props[name]):
            findings.append(Finding(tool, f"{prefix}required", f"{name} is required; the spec makes it optional"))
    return findings


def lint_tool(tool: dict[str, Any], expected: dict[str, Any] | None) -> list[Finding]:
    """Findings for one listed tool against its spec input schema (None: structure only)."""
    name = str(tool.get("name", "?"))
    findings: list[Finding] = []
    description = tool.get("description")
    if not isinstance(description, str) or not description.strip():
        findings.append(Finding(name, "description", "missing or empty"))
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict):
        return [*findings, Finding(name, "inputSchema", "missing or not an object")]
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        where = ".".join(map(str, exc.absolute_path)) or "(root)"
        findings.append(Finding(name, "inputSchema", f"not valid JSON Schema 2020-12 at {where}: {exc.message}"))
        return findings
    if schema.get("type") != "object":
        findings.append(Finding(name, "inputSchema.type", f"{schema.get('type')!r}; a tool input must be an object"))
    if expected is not None:
        findings += _lint_object(name, "inputSchema", expected, schema)
    return findings


def lint_surface(
    tools_answer: Any,
    expected: dict[str, dict[str, Any]],
    required_tools: Iterable[str] | None = None,
) -> list[Finding]:
    """All findings for a tools/list answer; `required_tools` defaults to every tool in `expected`."""
    tools = normalize(tools_answer)["tools"]
    listed = {str(tool.get("name")): tool for tool in tools}
    unlisted = sorted(set(expected if required_tools is None else required_tools) - set(listed))
    findings = [Finding(name, "", "not listed by tools/list; the spec names it") for name in unlisted]
    for name, tool in sorted(listed.items()):
        findings += lint_tool(tool, expected.get(name))
    return sorted(findings)


def tool_surface_conforms(tools_answer: Any, expected: dict[str, dict[str, Any]] | None = None,
                          required_tools: Iterable[str] | None = None) -> None:
    """Named check: raise AssertionError listing every finding when the surface departs from the spec."""
    findings = lint_surface(tools_answer, load_expected_inputs() if expected is None else expected, required_tools)
    if findings:
        raise AssertionError(
            f"tool surface departs from the spec ({len(findings)} finding(s)):\n"
            + "\n".join(f"  - {finding}" for finding in findings)
        )


# --------------------------------------------------------------------- diff


@dataclass(frozen=True)
class Change:
    """One difference between two snapshots, classified for a client of the old one."""

    kind: str  # breaking | risky | additive
    tool: str
    path: str
    what: str

    def as_dict(self) -> dict[str, str]:
        """Plain dict for --json."""
        return {"kind": self.kind, "tool": self.tool, "path": self.path, "change": self.what}


# keyword -> True when a larger value is looser (a bound a client may hit).
_BOUNDS = {"maximum": True, "exclusiveMaximum": True, "maxLength": True, "maxItems": True,
           "minimum": False, "exclusiveMinimum": False, "minLength": False, "minItems": False}
_HANDLED = {"type", "enum", "properties", "required", "additionalProperties", "default",
            "description", "items", "const", *_BOUNDS}


def _diff_schema(tool: str, path: str, old: Any, new: Any, out: list[Change]) -> None:
    if not isinstance(old, dict) or not isinstance(new, dict):
        if old != new:
            out.append(Change(RISKY, tool, path, f"schema changed from {old!r} to {new!r}"))
        return

    def add(kind: str, sub: str, what: str) -> None:
        out.append(Change(kind, tool, f"{path}.{sub}" if sub else path, what))

    old_t, new_t = _type_set(old), _type_set(new)
    if old_t != new_t:
        if new_t is None:
            add(ADDITIVE, "type", f"type {sorted(old_t or [])} lifted")
        elif old_t is None or new_t < old_t:
            add(BREAKING, "type", f"type narrowed from {sorted(old_t) if old_t else 'any'} to {sorted(new_t)}")
        elif new_t > old_t:
            add(ADDITIVE, "type", f"type widened from {sorted(old_t)} to {sorted(new_t)}")
        else:
            add(BREAKING, "type", f"type changed from {sorted(old_t)} to {sorted(new_t)}")

    if "enum" in old and "enum" in new:
        for value in old["enum"]:
            if value not in new["enum"]:
                add(BREAKING, "enum", f"enum value {value!r} removed")
        for value in new["enum"]:
            if value not in old["enum"]:
                add(ADDITIVE, "enum", f"enum value {value!r} added")
    elif "enum" in new:
        add(RISKY, "enum", f"enum {new['enum']} imposed on a previously free value")
    elif "enum" in old:
        add(ADDITIVE, "enum", f"enum {old['enum']} lifted")

    if old.get("const", None) != new.get("const", None):
        add(BREAKING if "const" in new else ADDITIVE, "const", f"const {old.get('const')!r} -> {new.get('const')!r}")

    # (neither having a default is no change: both sides of each comparison agree)
    if old.get("default") != new.get("default") or ("default" in old) != ("default" in new):
        add(RISKY, "default", f"default {old.get('default', '(none)')!r} -> {new.get('default', '(none)')!r}")

    if old.get("description") != new.get("description") and path.count(".properties.") >= 1:
        add(RISKY, "description", "property description changed")

    for keyword, larger_is_looser in _BOUNDS.items():
        before, after = old.get(keyword), new.get(keyword)
        if before == after:
            continue
        if after is None:
            add(ADDITIVE, keyword, f"{keyword} {before} lifted")
        elif before is None or (after < before) == larger_is_looser:
            add(BREAKING, keyword, f"{keyword} tightened from {before} to {after}")
        else:
            add(ADDITIVE, keyword, f"{keyword} loosened from {before} to {after}")

    old_ap, new_ap = old.get("additionalProperties", True), new.get("additionalProperties", True)
    if old_ap != new_ap:
        if new_ap is False or (old_ap is True and isinstance(new_ap, dict)):
            add(BREAKING, "additionalProperties", f"additionalProperties tightened from {old_ap!r} to {new_ap!r}")
        elif new_ap is True:
            add(ADDITIVE, "additionalProperties", f"additionalProperties loosened from {old_ap!r} to true")
        else:
            add(RISKY, "additionalProperties", f"additionalProperties changed from {old_ap!r} to {new_ap!r}")

    old_props, new_props = old.get("properties") or {}, new.get("properties") or {}
    old_req, new_req = set(old.get("required", [])), set(new.get("required", []))
    for name in sorted(set(old_props) - set(new_props)):
        was = " (it was required)" if name in old_req else ""
        add(BREAKING, f"properties.{name}", f"property {name} removed{was}")
    for name in sorted(set(new_props) - set(old_props)):
        if name in new_req:
            add(BREAKING, f"properties.{name}", f"required property {name} added")
        else:
            add(ADDITIVE, f"properties.{name}", f"optional property {name} added")
    for name in sorted((new_req - old_req) & set(old_props)):
        add(BREAKING, "required", f"{name} became required")
    for name in sorted((new_req - old_req) - set(old_props) - set(new_props)):
        add(BREAKING, "required", f"{name} required but not among the properties")
    for name in sorted((old_req - new_req) & set(new_props)):
        add(ADDITIVE, "required", f"{name} became optional")
    for name in sorted(set(old_props) & set(new_props)):
        _diff_schema(tool, f"{path}.properties.{name}", old_props[name], new_props[name], out)

    if "items" in old or "items" in new:
        _diff_schema(tool, f"{path}.items", old.get("items", {}), new.get("items", {}), out)

    for keyword in sorted((set(old) | set(new)) - _HANDLED):
        if old.get(keyword) != new.get(keyword):
            add(RISKY, keyword, f"keyword {keyword} changed")


def diff_surfaces(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """Classified changes from snapshot `old` to snapshot `new`, breaking first."""
    old_tools = {t["name"]: t for t in normalize(old)["tools"]}
    new_tools = {t["name"]: t for t in normalize(new)["tools"]}
    changes = [Change(BREAKING, name, "", "tool removed") for name in sorted(set(old_tools) - set(new_tools))]
    changes += [Change(ADDITIVE, name, "", "tool added") for name in sorted(set(new_tools) - set(old_tools))]
    for name in sorted(set(old_tools) & set(new_tools)):
        before, after = old_tools[name], new_tools[name]
        if before.get("description") != after.get("description"):
            changes.append(Change(RISKY, name, "description", "tool description changed"))
        _diff_schema(name, "inputSchema", before.get("inputSchema", {}), after.get("inputSchema", {}), changes)
        changes += [Change(RISKY, name, key, f"{key} changed")
                    for key in sorted((set(before) | set(after)) - {"name", "description", "inputSchema"})
                    if before.get(key) != after.get(key)]
    return sorted(changes, key=lambda c: (_SEVERITY[c.kind], c.tool, c.path, c.what))
