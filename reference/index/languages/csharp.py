"""C#: names qualified by their namespaces (blocks or the file's one), members by their modifiers, `///` XML docs,
`using` directives, `new`, and `base` as the class's bases."""

from __future__ import annotations

import re

from tree_sitter import Node

from ..source import Source
from .rules import Import, LanguageRules, named_child_text

DEFINITIONS = """
(namespace_declaration name: (_) @name) @module
(class_declaration name: (identifier) @name) @class
(record_declaration name: (identifier) @name) @class
(struct_declaration name: (identifier) @name) @struct
(interface_declaration name: (identifier) @name) @interface
(enum_declaration name: (identifier) @name) @enum
(delegate_declaration name: (identifier) @name) @type_alias
(method_declaration name: (identifier) @name) @method
(constructor_declaration name: (identifier) @name) @method
(local_function_statement name: (identifier) @name) @function
(property_declaration name: (identifier) @name) @field
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @field
(field_declaration (variable_declaration (variable_declarator) (variable_declarator name: (identifier) @name) @field))
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @field
(enum_member_declaration name: (identifier) @name) @constant
"""
# A method called on nothing (the class's own or inherited, or a local function), on a receiver (`this`, `base`, a
# variable, a class), and the class `new` makes.
CALLS = """
(invocation_expression function: (identifier) @callee)
(invocation_expression function: (generic_name (identifier) @callee))
(invocation_expression function: (member_access_expression expression: _ @recv name: (identifier) @callee))
(invocation_expression function: (member_access_expression expression: _ @recv name: (generic_name (identifier)
  @callee)))
(object_creation_expression type: (identifier) @callee)
(object_creation_expression type: (generic_name (identifier) @callee))
(object_creation_expression type: (qualified_name name: (identifier) @callee))
"""
IMPORTS = """
(using_directive) @import
"""
# Parameters, locals (`var x = new T()` by the class it makes, `var x = Make()` by the type the method is declared to
# return, `@returns`), fields and properties by their declared types; `foreach (var c in carts)` by the element type
# of the container's (`@iterated`: `List<Cart>`, `Cart[]`); a
# class's, a struct's, a record's and an interface's bases (`@base`: what `this.M()`, `base.M()` and `M()` may inherit).
LOCALS = """
(parameter type: (_) @type name: (identifier) @local)
(foreach_statement type: (implicit_type) left: (identifier) @local right: [(identifier) (member_access_expression)]
  @iterated)
(local_declaration_statement (variable_declaration type: (_) @type (#not-eq? @type "var")
  (variable_declarator name: (identifier) @local)))
(local_declaration_statement (variable_declaration type: (implicit_type) (variable_declarator name: (identifier) @local
  (object_creation_expression type: (_) @type))))
(field_declaration (variable_declaration type: (_) @type (variable_declarator name: (identifier) @local)))
(property_declaration type: (_) @type name: (identifier) @local)
(local_declaration_statement (variable_declaration type: (implicit_type) (variable_declarator name: (identifier) @local
  (invocation_expression function: [(identifier) (member_access_expression)] @made_by))))
(method_declaration returns: (_) @returns)
(base_list (_) @base)
"""


def _modifiers(node: Node) -> set[str]:
    """The words of a declaration's modifiers (`public`, `static`, `const`...); for a field's second name, the
    field's."""
    while node.type in ("variable_declarator", "variable_declaration"):
        if node.parent is None:
            break
        node = node.parent
    return {child.text.decode() for child in node.children if child.type == "modifier" and child.text is not None}


def visibility(name: str, node: Node, kind: str) -> str:
    """`public`, `protected` and `internal` (the assembly's, which a repository holds) are public, as is every member
    of an interface and every enum member; `private` and no modifier (a member's default) are private, but a type
    without one is `internal`: public."""
    found = _modifiers(node)
    if found & {"public", "protected", "internal"} or node.type == "enum_member_declaration":
        return "public"
    if "private" in found:
        return "private"
    parent = node.parent
    while parent is not None and parent.type in ("variable_declaration", "field_declaration", "declaration_list"):
        if parent.type == "declaration_list":
            owner = parent.parent
            if owner is not None and owner.type == "interface_declaration":
                return "public"
            return "public" if owner is not None and owner.type.endswith("namespace_declaration") else "private"
        parent = parent.parent
    return "public" if parent is None or parent.type.endswith(("compilation_unit", "namespace_declaration")) \
        else "private"


def kind_of(capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """A `const` field, or a `static readonly` one, is a constant."""
    found = _modifiers(node) if capture == "field" else set()
    if "const" in found or {"static", "readonly"} <= found:
        return "constant"
    return capture


_TAG = re.compile(r"<[^>]*>")


def doc(src: Source, body: Node | None) -> str | None:
    """The first line of text of the `///` comment lines just above the declaration whose body is `body` (its XML tags
    left out: `/// <summary>Adds an item.</summary>` is `Adds an item.`)."""
    declaration = body.parent if body is not None else None
    comment = declaration.prev_named_sibling if declaration is not None else None
    lines: list[str] = []
    while comment is not None and comment.type == "comment" and src.text(comment).startswith("///"):
        lines.append(src.text(comment))
        comment = comment.prev_named_sibling
    for line in reversed(lines):
        text = _TAG.sub("", line[3:]).strip()
        if text:
            return text
    return None


def package_of(src: Source, root: Node) -> str | None:
    """The file's namespace when it declares one for the whole file (`namespace Shop.Core;`); None otherwise (block
    namespaces are the definitions their members are in)."""
    return named_child_text(src, root, "file_scoped_namespace_declaration")


def imports_of(src: Source, node: Node, caps: dict[str, list[Node]], path: str, module: str) -> list[Import]:
    """`using A.B;` brings a namespace in whole, binding no name (as does `using static A.B.C;`), and `global using
    A.B;` for every file of the project too (its hint says `global`); `using X = A.B.C;` binds `X` to what it
    names."""
    names = [child for child in node.named_children if child.type in ("qualified_name", "identifier", "generic_name")]
    if not names:
        return []
    alias = node.child_by_field_name("name")
    target = src.text(names[-1])
    if alias is not None and len(names) > 1:
        return [(target, ("import", target), src.text(alias))]
    if any(child.type == "global" for child in node.children):
        return [(target, ("import", target, "*", GLOBAL), None)]
    return [(target, ("import", target, "*"), None)]


# The last part of a `global using`'s hint.
GLOBAL = "global"


RULES = LanguageRules(
    name="csharp", grammars={".cs": "csharp"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=IMPORTS, separator=".",
    visibility=visibility, imports_of=imports_of, kind_of=kind_of, doc=doc, locals_query=LOCALS,
    package_of=package_of, implicit_this=True, super_name="base",
)
