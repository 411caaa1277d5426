"""Go: Capitalised names are exported, a type's body decides its kind, methods belong to their receiver's type."""

from __future__ import annotations

from tree_sitter import Node

from ..source import Source
from .rules import Import, LanguageRules

DEFINITIONS = """
(function_declaration name: (identifier) @name) @function
(method_declaration receiver: (parameter_list (parameter_declaration type: (_) @recv))
  name: (field_identifier) @name) @method
(type_spec name: (type_identifier) @name type: (_) @body) @type
(type_alias name: (type_identifier) @name) @type_alias
(source_file (const_declaration (const_spec name: (identifier) @name) @constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @variable))
(field_declaration name: (field_identifier) @name) @field
(method_elem name: (field_identifier) @name) @method
"""
CALLS = """
(call_expression function: (identifier) @callee)
(call_expression function: (selector_expression operand: (_) @recv field: (field_identifier) @callee))
"""
IMPORTS = """
(import_spec path: (_) @path) @import
"""
# Receivers, parameters and a struct's fields by their types; `x := T{}`, `x := &T{}`, `x := new(T)`, `var x T` and
# `x, ok := v.(*T)` by theirs, `x := f()` and `x, err := pkg.F()` by what the function returns; a range loop's value
# (`for _, h := range s.handlers`: `@iterated`) by its container's element type; a struct's embedded types (`@base`:
# the methods they promote); a function's result, its first when it has several (`@returns`); a type the file
# declares as a slice, an array or a map (`@container`: `type UpstreamPool []*Upstream`), whose element a loop over
# a variable of it, or an index of one, gives.
LOCALS = """
(type_spec name: (type_identifier) @container type: [(slice_type) (array_type) (map_type)] @type)
(field_declaration !name type: (_) @base)
(field_declaration name: (field_identifier) @local type: (_) @type)
(short_var_declaration left: (expression_list . (identifier) @local) right: (expression_list .
  (type_assertion_expression type: (_) @type) .))
(short_var_declaration left: (expression_list . (identifier) @local .) right: (expression_list . (call_expression
  function: (identifier) @_new (#eq? @_new "new")
  arguments: (argument_list . [(type_identifier) (qualified_type)] @type .)) .))
(range_clause left: (expression_list . (_) . (identifier) @local .)
  right: [(identifier) (selector_expression)] @iterated)
(parameter_declaration name: (identifier) @local type: (_) @type)
(short_var_declaration left: (expression_list . (identifier) @local .) right: (expression_list .
  [(composite_literal type: (_) @type) (unary_expression operand: (composite_literal type: (_) @type))] .))
(var_spec name: (identifier) @local . type: (_) @type)
(var_spec name: (identifier) @local !type value: (expression_list .
  [(composite_literal type: (_) @type) (unary_expression operand: (composite_literal type: (_) @type))] .))
(short_var_declaration left: (expression_list . (identifier) @local) right: (expression_list .
  (call_expression function: [(identifier) (selector_expression)] @made_by) .))
""" + "".join(f"""({definition} result: [(parameter_list . (parameter_declaration type: (_) @returns)) (_) @returns])
""" for definition in ("function_declaration", "method_declaration", "method_elem"))


def visibility(name: str, node: Node, kind: str) -> str:
    """A name that starts with a capital letter is exported."""
    return "public" if name[:1].isupper() else "private"


def kind_of(capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """A `type` spec is a struct, an interface or an alias of another type, as its body says."""
    if capture == "type":
        body = extra.get("body")
        btype = body.type if body is not None else ""
        return "struct" if btype == "struct_type" else "interface" if btype == "interface_type" else "type_alias"
    return capture


def imports_of(src: Source, node: Node, caps: dict[str, list[Node]], path: str, module: str) -> list[Import]:
    """The package an import spec brings in, bound to its alias or the last segment of its path."""
    target = src.text(caps["path"][0]).strip("\"`")
    alias = node.child_by_field_name("name")
    return [(target, ("import", target), src.text(alias) if alias is not None else target.rsplit("/", 1)[-1])]


RULES = LanguageRules(
    name="go", grammars={".go": "go"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=IMPORTS, separator=".",
    visibility=visibility, imports_of=imports_of, kind_of=kind_of, methods_by_receiver=True,
    locals_query=LOCALS,
)
