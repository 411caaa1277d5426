"""Java: qualified names from the `package` declaration, members by their modifiers, Javadoc, `import` and `new`."""

from __future__ import annotations

from tree_sitter import Node

from ..source import Source
from .rules import Import, LanguageRules, doc_comment_line

DEFINITIONS = """
(class_declaration name: (identifier) @name) @class
(record_declaration name: (identifier) @name) @class
(interface_declaration name: (identifier) @name) @interface
(annotation_type_declaration name: (identifier) @name) @interface
(enum_declaration name: (identifier) @name) @enum
(method_declaration name: (identifier) @name) @method
(constructor_declaration name: (identifier) @name) @method
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @field
(field_declaration declarator: (_) declarator: (variable_declarator name: (identifier) @name) @field)
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @constant
(enum_constant name: (identifier) @name) @constant
"""
# A method called on nothing (a method of the class, or a static import), on a receiver, and a class `new` makes.
CALLS = """
(method_invocation !object name: (identifier) @callee)
(method_invocation object: (_) @recv name: (identifier) @callee)
(object_creation_expression type: (type_identifier) @callee)
(object_creation_expression type: (generic_type (type_identifier) @callee))
"""
IMPORTS = """
(import_declaration) @import
"""
# Parameters, locals and fields by their declared types (`var x = new T()` by the class it makes, `var x = make()` by
# what the method is declared to return, `@returns`; `for (var c : carts)` by the element type of the container's,
# `@iterated`); a class's
# superclass and interfaces, and an interface's own (`@base`: what `this.m()` and a bare `m()` may inherit).
LOCALS = """
(formal_parameter type: (_) @type name: (identifier) @local)
(local_variable_declaration type: (_) @type (#not-eq? @type "var") declarator: (variable_declarator
  name: (identifier) @local))
(local_variable_declaration type: (type_identifier) @inferred (#eq? @inferred "var") declarator: (variable_declarator
  name: (identifier) @local value: (object_creation_expression type: (_) @type)))
(enhanced_for_statement type: (_) @type (#not-eq? @type "var") name: (identifier) @local)
(enhanced_for_statement type: (type_identifier) @inferred (#eq? @inferred "var") name: (identifier) @local
  value: [(identifier) (field_access)] @iterated)
(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @local))
(local_variable_declaration type: (type_identifier) @inferred (#eq? @inferred "var") declarator: (variable_declarator
  name: (identifier) @local value: (method_invocation !object name: (identifier) @made_by)))
(method_declaration type: (_) @returns)
(superclass (_) @base)
(super_interfaces (type_list (_) @base))
(extends_interfaces (type_list (_) @base))
"""


def _declaration(node: Node) -> Node:
    """The declaration a definition's node is: itself, or for a field's second name (`int a, b;`) the field's."""
    return node.parent if node.type == "variable_declarator" and node.parent is not None else node


def _modifiers(node: Node) -> set[str]:
    """The keywords of a declaration's modifiers (`public`, `static`, `final`...), annotations left out."""
    for child in _declaration(node).children:
        if child.type == "modifiers":
            return {c.type for c in child.children if not c.is_named}
    return set()


def visibility(name: str, node: Node, kind: str) -> str:
    """`public` and `protected` are public, as is every member of an interface and every enum constant; `private`
    and the package's own (no modifier) are private."""
    found = _modifiers(node)
    if found & {"public", "protected"} or node.type == "enum_constant":
        return "public"
    parent = _declaration(node).parent
    if "private" not in found and parent is not None and parent.type in ("interface_body", "annotation_type_body"):
        return "public"
    return "private"


def kind_of(capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """A `static final` field is a constant."""
    if capture == "field" and {"static", "final"} <= _modifiers(node):
        return "constant"
    return capture


def doc(src: Source, body: Node | None) -> str | None:
    """The first line of the Javadoc comment (`/** ... */`) just before the declaration whose body is `body`."""
    declaration = body.parent if body is not None else None
    comment = declaration.prev_named_sibling if declaration is not None else None
    while comment is not None and comment.type == "line_comment":  # `//` notes between the Javadoc and it
        comment = comment.prev_named_sibling
    if comment is None or comment.type != "block_comment":
        return None
    return doc_comment_line(src.text(comment))


def signature_start(node: Node) -> int:
    """The first byte of a declaration after its annotations and the comments among them (`@Override public String
    toString()` reads from `public`)."""
    for child in node.children:
        if child.type in _SKIPPED:
            continue
        if child.type != "modifiers":
            return child.start_byte
        for modifier in child.children:
            if modifier.type not in _SKIPPED:
                return modifier.start_byte
    return node.start_byte


# What a signature leaves out before a declaration's first keyword.
_SKIPPED = frozenset({"annotation", "marker_annotation", "line_comment", "block_comment"})


def package_of(src: Source, root: Node) -> str | None:
    """The name the file's `package` declaration gives (None without one: the default package)."""
    for child in root.named_children:
        if child.type == "package_declaration":
            named = [c for c in child.named_children if c.type in ("scoped_identifier", "identifier")]
            return src.text(named[0]) if named else None
        if child.type not in ("line_comment", "block_comment"):
            return None
    return None


def imports_of(src: Source, node: Node, caps: dict[str, list[Node]], path: str, module: str) -> list[Import]:
    """The class (or, `import static`, the member) an import names, bound to its last part; `a.b.*` brings in a
    package or class whole, binding no name."""
    named = [c for c in node.named_children if c.type in ("scoped_identifier", "identifier")]
    if not named:
        return []
    target = src.text(named[0])
    if any(c.type == "asterisk" for c in node.named_children):
        return [(target, ("import", target, "*"), None)]
    return [(target, ("import", target), target.rsplit(".", 1)[-1])]


RULES = LanguageRules(
    name="java", grammars={".java": "java"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=IMPORTS, separator=".",
    visibility=visibility, imports_of=imports_of, kind_of=kind_of, doc=doc, locals_query=LOCALS,
    package_of=package_of, implicit_this=True, signature_start=signature_start,
)
