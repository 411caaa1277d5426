"""Swift: classes, structs, enums, actors and protocols by their declaration keyword, an extension's members as its
type's, public unless `private` or `fileprivate`, `///` docs, and constructor calls by the type's name."""

from __future__ import annotations

from tree_sitter import Node

from ..source import Source
from .rules import LanguageRules, doc_comment_line, unbound_import

# A type's kind is its keyword (`class`, `struct`, `enum`, `actor`); an extension is a scope of the type it names, as
# a Rust `impl` is; a property is a type's or the file's (a function's `let` is a local).
DEFINITIONS = """
(class_declaration declaration_kind: ["class" "struct" "enum" "actor"] name: (type_identifier) @name) @class
(class_declaration declaration_kind: "extension" name: (user_type . (type_identifier) @name)) @impl
(protocol_declaration name: (type_identifier) @name) @interface
(function_declaration name: (simple_identifier) @name) @function
(protocol_function_declaration name: (simple_identifier) @name) @method
(init_declaration name: _ @name) @method
(class_body (property_declaration (pattern bound_identifier: (simple_identifier) @name)) @field)
(source_file (property_declaration (pattern bound_identifier: (simple_identifier) @name)) @field)
(enum_entry name: (simple_identifier) @name @constant)
(typealias_declaration name: (type_identifier) @name) @type_alias
"""
# A function or a type (constructed) by its name, a member through a receiver (`self`, `super`, a variable, a type).
CALLS = """
(call_expression . (simple_identifier) @callee)
(call_expression . (navigation_expression target: (_) @recv suffix: (navigation_suffix suffix: (simple_identifier)
  @callee)))
"""
IMPORTS = """
(import_declaration (identifier) @path) @import
"""
# Parameters and properties by their declared types, a property made by calling a type (`let c = Cart()`) or a
# function (by the type it is declared to return, `@returns`), or a method or a chain of calls (`let r =
# s.validate()`: `@made_by`, what the last one returns); a type's superclass and protocols (`@base`).
LOCALS = """
(parameter name: (simple_identifier) @local . (user_type . (type_identifier) @type))
(property_declaration (pattern bound_identifier: (simple_identifier) @local) (type_annotation (user_type .
  (type_identifier) @type)))
(property_declaration (pattern bound_identifier: (simple_identifier) @local) value: (call_expression .
  (simple_identifier) @type))
(property_declaration (pattern bound_identifier: (simple_identifier) @local) value: (call_expression .
  (navigation_expression) @made_by))
(function_declaration [(user_type . (type_identifier) @returns)
  (optional_type wrapped: (user_type . (type_identifier) @returns))])
(protocol_function_declaration [(user_type . (type_identifier) @returns)
  (optional_type wrapped: (user_type . (type_identifier) @returns))])
(inheritance_specifier inherits_from: (user_type . (type_identifier) @base))
"""


def _keyword(node: Node) -> str:
    """A type declaration's keyword (`class`, `struct`, `enum`, `actor`, `extension`)."""
    found = node.child_by_field_name("declaration_kind")
    return found.text.decode() if found is not None and found.text is not None else ""


def visibility(name: str, node: Node, kind: str) -> str:
    """`private` and `fileprivate` are private; the rest (Swift's default `internal`, the module's, which a repository
    holds) public."""
    declaration = node.parent if node.type == "simple_identifier" and node.parent is not None else node
    for child in declaration.children:
        if child.type == "modifiers" and {m.text for m in child.named_children} & {b"private", b"fileprivate"}:
            return "private"
    return "public"


def kind_of(capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """A type declaration is what its keyword says (an actor a class); a function in a type's body (a struct's, an
    enum's too) a method; a property of the file's level a variable."""
    if capture == "function" and node.parent is not None and node.parent.type in ("class_body", "enum_class_body"):
        return "method"
    if capture == "class":
        keyword = _keyword(node)
        return "struct" if keyword == "struct" else "enum" if keyword == "enum" else "class"
    if capture == "field" and node.parent is not None and node.parent.type == "source_file":
        return "variable"
    return capture


def doc(src: Source, body: Node | None) -> str | None:
    """The first line of the `///` lines, or of the `/** ... */` comment, just above the declaration whose body is
    `body`."""
    declaration = body.parent if body is not None else None
    comment = declaration.prev_named_sibling if declaration is not None else None
    lines: list[str] = []
    while comment is not None and comment.type == "comment" and src.text(comment).startswith("///"):
        lines.append(src.text(comment)[3:].strip())
        comment = comment.prev_named_sibling
    if lines:
        return next((line for line in reversed(lines) if line), None)
    if comment is not None and comment.type == "multiline_comment":
        return doc_comment_line(src.text(comment))
    return None


RULES = LanguageRules(
    name="swift", grammars={".swift": "swift"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=IMPORTS, separator=".",
    visibility=visibility, imports_of=unbound_import, kind_of=kind_of, doc=doc, locals_query=LOCALS,
    implicit_this=True,
)
