"""Kotlin: names qualified by the file's `package`, public unless `private`, KDoc, `import` (with `as`
and `*`), constructor calls by the class's name, and a companion object's members as its class's."""

from __future__ import annotations

from tree_sitter import Node

from ..source import Source
from .rules import Import, LanguageRules, doc_comment_line

# The grammar names no fields: a definition's name is its only direct identifier child. A companion object is no
# definition, so its members are its class's (`Cart.make()`); a property is a class's or the file's (a function's
# `val` is a local).
DEFINITIONS = """
(class_declaration (type_identifier) @name) @class
(object_declaration (type_identifier) @name) @class
(function_declaration (simple_identifier) @name) @function
(class_body (property_declaration (variable_declaration (simple_identifier) @name)) @field)
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @field)
(class_parameter (binding_pattern_kind) (simple_identifier) @name) @field
(enum_entry (simple_identifier) @name) @constant
(type_alias (type_identifier) @name) @type_alias
"""
# A function called by its name (or a class, constructed), a member through a receiver (`this`, `super`, a variable,
# a class or an object).
CALLS = """
(call_expression . (simple_identifier) @callee)
(call_expression . (navigation_expression . (_) @recv . (navigation_suffix (simple_identifier) @callee)))
"""
IMPORTS = """
(import_header) @import
"""
# Parameters, constructor properties and properties by their declared types, a property made by calling a class
# (`val c = Cart()`) or a function (by the type it is declared to return, `@returns`), or a method or a chain of calls
# (`val moshi = Moshi.Builder().build()`, `val a = moshi.adapter<Foo>()`: `@made_by`, what the last one returns); a
# class's superclass and interfaces (`@base`).
LOCALS = """
(parameter (simple_identifier) @local (user_type . (type_identifier) @type))
(class_parameter (simple_identifier) @local (user_type . (type_identifier) @type))
(property_declaration (variable_declaration (simple_identifier) @local (user_type . (type_identifier) @type)))
(property_declaration (variable_declaration (simple_identifier) @local) . (call_expression . (simple_identifier) @type))
(property_declaration (variable_declaration (simple_identifier) @local) . (call_expression . (navigation_expression)
  @made_by))
(function_declaration (function_value_parameters) . [(user_type . (type_identifier) @returns)
  (nullable_type (user_type . (type_identifier) @returns))])
(delegation_specifier (constructor_invocation (user_type . (type_identifier) @base)))
(delegation_specifier (user_type . (type_identifier) @base))
"""


def _modifier_words(node: Node) -> set[str]:
    """The words of a declaration's modifiers (`private`, `const`, `data`...)."""
    for child in node.children:
        if child.type == "modifiers":
            return {word.text.decode() for modifier in child.named_children for word in [modifier]
                    if word.text is not None}
    return set()


def visibility(name: str, node: Node, kind: str) -> str:
    """Kotlin's members and declarations are public unless `private`; `protected` and `internal` (the module's, which
    a repository holds) count as public."""
    return "private" if "private" in _modifier_words(node) else "public"


def kind_of(capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """A `class` is an interface or an enum as its keyword or body says; a property of the file's level is a
    variable, a `const` one a constant."""
    if capture == "class" and node.type == "class_declaration":
        if any(child.type == "interface" for child in node.children):
            return "interface"
        if any(child.type == "enum_class_body" for child in node.children):
            return "enum"
    if capture == "field" and node.type == "property_declaration":
        if "const" in _modifier_words(node):
            return "constant"
        if node.parent is not None and node.parent.type == "source_file":
            return "variable"
    return capture


_BODIES = frozenset({"class_body", "enum_class_body", "function_body"})


def body_of(node: Node) -> Node | None:
    """A class's, an object's or a function's body (the grammar names no fields)."""
    for child in node.children:
        if child.type in _BODIES:
            return child
    return None


def doc(src: Source, body: Node | None) -> str | None:
    """The first line of the KDoc comment (`/** ... */`) that ends just above the declaration whose body is `body`."""
    declaration = body.parent if body is not None else None
    comment = declaration.prev_named_sibling if declaration is not None else None
    while comment is not None and comment.type in ("import_list", "import_header") and comment.named_children:
        comment = comment.named_children[-1]  # the grammar keeps a comment after the imports in the last of them
    if declaration is None or comment is None or comment.type != "multiline_comment" \
            or comment.end_point.row < declaration.start_point.row - 1:
        return None
    return doc_comment_line(src.text(comment))


def package_of(src: Source, root: Node) -> str | None:
    """The name the file's `package` header gives (None without one)."""
    for child in root.named_children:
        if child.type == "package_header":
            named = [c for c in child.named_children if c.type == "identifier"]
            return src.text(named[0]) if named else None
    return None


def imports_of(src: Source, node: Node, caps: dict[str, list[Node]], path: str, module: str) -> list[Import]:
    """The class or member an import names, bound to its last part or its `as` alias; `a.b.*` brings in a package or
    a class whole, binding no name."""
    named = [c for c in node.named_children if c.type == "identifier"]
    if not named:
        return []
    target = src.text(named[0])
    if any(c.type == "wildcard_import" for c in node.named_children):
        return [(target, ("import", target, "*"), None)]
    alias = [c for c in node.named_children if c.type == "import_alias"]
    binding = src.text(alias[0]).split()[-1] if alias else target.rsplit(".", 1)[-1]
    return [(target, ("import", target), binding)]


RULES = LanguageRules(
    name="kotlin", grammars={".kt": "kotlin", ".kts": "kotlin"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=IMPORTS, separator=".",
    visibility=visibility, imports_of=imports_of, kind_of=kind_of, doc=doc, locals_query=LOCALS,
    package_of=package_of, implicit_this=True, body_of=body_of,
)
