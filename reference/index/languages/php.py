"""PHP: names qualified by the file's `namespace` and joined by `\\`, members public unless `private`,
`/** */` docs, `use` imports, `$this` and `parent`, and `new`."""

from __future__ import annotations

from tree_sitter import Node

from ..source import Source
from .rules import Import, LanguageRules, doc_comment_above

DEFINITIONS = """
(namespace_definition name: (namespace_name) @name body: (compound_statement)) @module
(class_declaration name: (name) @name) @class
(interface_declaration name: (name) @name) @interface
(trait_declaration name: (name) @name) @trait
(enum_declaration name: (name) @name) @enum
(method_declaration name: (name) @name) @method
(function_definition name: (name) @name) @function
(const_element (name) @name) @constant
(property_element name: (variable_name (name) @name)) @field
(enum_case name: (name) @name) @constant
"""
# A function by its name (a namespace's: its last part), a method on an object (`$this`, a variable, a member), a
# static call on a class or `parent`/`self`, and the class `new` makes.
CALLS = """
(function_call_expression function: (name) @callee)
(function_call_expression function: (qualified_name (name) @callee .))
(member_call_expression object: (_) @recv name: (name) @callee)
(scoped_call_expression scope: [(name) (relative_scope)] @recv name: (name) @callee)
(object_creation_expression (name) @callee)
(object_creation_expression (qualified_name (name) @callee .))
"""
IMPORTS = """
(namespace_use_clause) @import
"""
# Parameters, properties and variables by their declared types (`$c = new Cart()` by the class it makes, `$c =
# make()` by the type the function is declared to return, `@returns`); a class's
# parent class, interfaces and traits (`@base`: what `$this->m()` and `parent::m()` may inherit).
LOCALS = """
(simple_parameter type: (named_type (name) @type) name: (variable_name (name) @local))
(property_declaration type: (named_type (name) @type) (property_element name: (variable_name (name) @local)))
(assignment_expression left: (variable_name (name) @local) right: (object_creation_expression (name) @type))
(assignment_expression left: (variable_name (name) @local) right: (function_call_expression
  function: [(name) (qualified_name)] @made_by))
(assignment_expression left: (variable_name (name) @local) right: (scoped_call_expression) @made_by)
(function_definition return_type: [(named_type (name) @returns) (optional_type (named_type (name) @returns))])
(method_declaration return_type: [(named_type (name) @returns) (optional_type (named_type (name) @returns))])
(base_clause (name) @base)
(class_interface_clause (name) @base)
(use_declaration (name) @base)
"""


def _declaration(node: Node) -> Node:
    """The declaration a definition's node is: itself, or a property's or a constant's declaration."""
    return node.parent if node.type in ("property_element", "const_element") and node.parent is not None else node


def signature_start(node: Node) -> int:
    """A property's or a constant's signature starts with its declaration (`private array $items = []`)."""
    return _declaration(node).start_byte


def visibility(name: str, node: Node, kind: str) -> str:
    """`private` is private; `public`, `protected` and no modifier (PHP's default) are public."""
    for child in _declaration(node).children:
        if child.type == "visibility_modifier" and child.text == b"private":
            return "private"
    return "public"


def package_of(src: Source, root: Node) -> str | None:
    """The namespace the file declares for all of it (`namespace App\\Shop;`); None without one (a braced
    `namespace X { }` is the definition its members are in)."""
    for child in root.named_children:
        if child.type == "namespace_definition" and child.child_by_field_name("body") is None:
            name = child.child_by_field_name("name")
            return src.text(name) if name is not None else None
    return None


def receiver(text: str) -> str:
    """A receiver as the resolver reads it: `$this->items` is `this.items`, `$cart` is `cart`."""
    return text.replace("->", ".").replace("$", "")


def imports_of(src: Source, node: Node, caps: dict[str, list[Node]], path: str, module: str) -> list[Import]:
    """The class, function or constant a `use` clause names (`use App\\Util\\Helper;`, `use function ...`), bound to
    its last part or its `as` alias."""
    named = [c for c in node.named_children if c.type in ("qualified_name", "name")]
    if not named:
        return []
    target = src.text(named[0]).lstrip("\\")
    alias = node.child_by_field_name("alias")
    return [(target, ("import", target), src.text(alias) if alias is not None else target.rsplit("\\", 1)[-1])]


RULES = LanguageRules(
    name="php", grammars={".php": "php"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=IMPORTS, separator="\\",
    visibility=visibility, imports_of=imports_of, doc=doc_comment_above("comment"), locals_query=LOCALS,
    package_of=package_of,
    super_name="parent", receiver=receiver, signature_start=signature_start,
)
