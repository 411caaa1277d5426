"""What TypeScript and JavaScript share: functions, methods and top-level variables, calls, ES imports, `export`."""

from __future__ import annotations

from tree_sitter import Node

from ..source import Source, required_child
from .rules import CONSTANT_NAME, Import

DEFINITIONS = """
(function_declaration name: (identifier) @name) @function
(generator_function_declaration name: (identifier) @name) @function
(method_definition name: (property_identifier) @name) @method
(program (lexical_declaration (variable_declarator name: (identifier) @name) @variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @variable))
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @variable)))
(program (export_statement declaration: (variable_declaration
  (variable_declarator name: (identifier) @name) @variable)))
"""
CALLS = """
(call_expression function: (identifier) @callee)
(call_expression function: (member_expression object: (_) @recv property: (property_identifier) @callee))
(new_expression constructor: (identifier) @callee)
"""
IMPORTS = """
(import_statement source: (string (string_fragment) @source)) @import
(export_statement source: (string (string_fragment) @source)) @import
"""
# What a file exports without `from`: `export { a, b as c }`, `export default` a function, a class or a name.
EXPORTS = """
(export_statement !source (export_clause (export_specifier name: (_) @local alias: (_)? @exported)))
(export_statement "default" @default declaration: [(function_declaration name: (_) @local)
                                                   (class_declaration name: (_) @local)])
(export_statement "default" @default value: (identifier) @local)
"""
# A variable, or a member (`this.x = new C()`), `new` gives a value of a class.
LOCALS = """
(variable_declarator name: (identifier) @local value: (new_expression constructor: (_) @type))
(assignment_expression left: (member_expression object: (this) @object property: (property_identifier) @local)
  right: (new_expression constructor: (_) @type))
"""

_FUNCTION_VALUES = ("arrow_function", "function_expression", "function", "generator_function")


def visibility(name: str, node: Node, kind: str) -> str:
    """Members by their accessibility modifier or `#` name; top-level definitions by `export`."""
    if kind in ("method", "field"):
        if name.startswith("#"):
            return "private"
        for c in node.children:
            if c.type == "accessibility_modifier":
                return c.text.decode() if c.text else "public"
        return "public"
    probe = node.parent
    while probe is not None and probe.type in ("lexical_declaration", "variable_declaration"):
        probe = probe.parent
    return "public" if probe is not None and probe.type == "export_statement" else "private"


def kind_of(capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """A variable holding a function is a function; a `const` with an UPPER-case name a constant."""
    if capture == "variable":
        value = node.child_by_field_name("value")
        if value is not None and value.type in _FUNCTION_VALUES:
            return "function"
        decl = node.parent
        is_const = decl is not None and decl.child_count > 0 and decl.children[0].type == "const"
        return "constant" if is_const and CONSTANT_NAME.match(name) else "variable"
    return capture


def imports_of(src: Source, node: Node, caps: dict[str, list[Node]], path: str, module: str) -> list[Import]:
    """The default, namespace and named imports of an ES import (the module itself when it names none), and what an
    `export ... from` re-exports."""
    source = src.text(caps["source"][0])
    if node.type == "export_statement":
        return _reexports(src, node, source)
    out: list[Import] = []
    clause = next((c for c in node.named_children if c.type == "import_clause"), None)
    if clause is None:
        return [(source, ("import", source, None), None)]
    for part in clause.named_children:
        if part.type == "identifier":
            out.append((f"{source}.default", ("import", source, "default"), src.text(part)))
        elif part.type == "namespace_import":
            ident = next((c for c in part.named_children if c.type == "identifier"), None)
            out.append((source, ("import", source, None), src.text(ident) if ident is not None else None))
        elif part.type == "named_imports":
            for spec in part.named_children:
                if spec.type != "import_specifier":
                    continue
                name = src.text(required_child(spec, "name"))
                alias = spec.child_by_field_name("alias")
                binding = src.text(alias) if alias is not None else name
                out.append((f"{source}.{name}", ("import", source, name), binding))
    return out


def _reexports(src: Source, node: Node, source: str) -> list[Import]:
    """What `export { a, b as c } from './m'` (a name of `./m`, and the name it is exported as), `export * from './m'`
    (every name: `*`) and `export * as ns from './m'` (the module, as `ns`) bring in. The hint is an import's with the
    exported name after it; the file binds no local name."""
    clause = next((c for c in node.named_children if c.type in ("export_clause", "namespace_export")), None)
    if clause is None:  # export * from
        return [(source, ("import", source, "*", "*"), None)]
    if clause.type == "namespace_export":
        ident = next((c for c in clause.named_children if c.type in ("identifier", "string")), None)
        return [(source, ("import", source, None, src.text(ident) if ident is not None else None), None)]
    out: list[Import] = []
    for spec in clause.named_children:
        if spec.type != "export_specifier":
            continue
        name = src.text(required_child(spec, "name"))
        alias = spec.child_by_field_name("alias")
        out.append((f"{source}.{name}", ("import", source, name, src.text(alias) if alias is not None else name),
                    None))
    return out
