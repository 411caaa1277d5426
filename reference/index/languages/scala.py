"""Scala: names qualified by the file's `package`, public unless `private`, Scaladoc, imports with
selectors and `_`, `new`, and an `object` as a module (a class's companion keeps the class's name for the class)."""

from __future__ import annotations

from tree_sitter import Node

from ..source import Source
from .rules import Import, LanguageRules, doc_comment_above, named_child_text

# A companion `object Cart` beside `class Cart` is a module, so that the name calls and types name is the class's.
DEFINITIONS = """
(class_definition name: (identifier) @name) @class
(object_definition name: (identifier) @name) @module
(trait_definition name: (identifier) @name) @trait
(enum_definition name: (identifier) @name) @enum
(function_definition name: (identifier) @name) @function
(function_declaration name: (identifier) @name) @function
(class_parameter name: (identifier) @name) @field
(template_body (val_definition pattern: (identifier) @name) @field)
(template_body (var_definition pattern: (identifier) @name) @field)
(compilation_unit (val_definition pattern: (identifier) @name) @variable)
(compilation_unit (var_definition pattern: (identifier) @name) @variable)
(type_definition name: (type_identifier) @name) @type_alias
"""
# A function by its name, a member through a receiver (`this`, `super`, a variable, an object), and the class `new`
# makes.
CALLS = """
(call_expression function: (identifier) @callee)
(call_expression function: (field_expression value: (_) @recv field: (identifier) @callee))
(instance_expression (type_identifier) @callee)
"""
IMPORTS = """
(import_declaration) @import
"""
# Parameters, class parameters and values by their declared types (`val c = new Cart()` by the class it makes,
# `val c = make()` by the type the function is declared to return, `@returns`); a class's superclass and traits
# (`@base`).
LOCALS = """
(parameter name: (identifier) @local type: (type_identifier) @type)
(class_parameter name: (identifier) @local type: (type_identifier) @type)
(val_definition pattern: (identifier) @local type: (type_identifier) @type)
(val_definition pattern: (identifier) @local value: (instance_expression (type_identifier) @type))
(val_definition pattern: (identifier) @local !type value: (call_expression
  function: [(identifier) (field_expression)] @made_by))
(function_definition return_type: (type_identifier) @returns)
(function_declaration return_type: (type_identifier) @returns)
(extends_clause (type_identifier) @base)
"""


def visibility(name: str, node: Node, kind: str) -> str:
    """`private` (and `private[pkg]`) is private; `protected` (a subclass's, as in Java) and no modifier public."""
    for child in node.children:
        if child.type == "modifiers":
            for modifier in child.named_children:
                if modifier.type == "access_modifier" and modifier.text is not None \
                        and modifier.text.startswith(b"private"):
                    return "private"
    return "public"


def package_of(src: Source, root: Node) -> str | None:
    """The name the file's `package` clause gives (None without one)."""
    return named_child_text(src, root, "package_clause")


def imports_of(src: Source, node: Node, caps: dict[str, list[Node]], path: str, module: str) -> list[Import]:
    """What an import names: `a.b.C` bound to `C`; `a.b._` a package or an object whole, binding no name; each of
    `a.b.{C, D => E}` bound to its name or its new one."""
    parts = [src.text(child) for child in node.named_children if child.type == "identifier"]
    if not parts:
        return []
    prefix = ".".join(parts)
    last = node.named_children[-1]
    if last.type == "namespace_wildcard":
        return [(prefix, ("import", prefix, "*"), None)]
    if last.type == "namespace_selectors":
        found: list[Import] = []
        for selector in last.named_children:
            if selector.type == "identifier":
                selected = src.text(selector)
                found.append((f"{prefix}.{selected}", ("import", f"{prefix}.{selected}"), selected))
            elif selector.type == "arrow_renamed_identifier":
                original, alias = selector.child_by_field_name("name"), selector.child_by_field_name("alias")
                if original is not None and alias is not None:
                    target = f"{prefix}.{src.text(original)}"
                    found.append((target, ("import", target), src.text(alias)))
        return found
    return [(prefix, ("import", prefix), parts[-1])]


RULES = LanguageRules(
    name="scala", grammars={".scala": "scala", ".sc": "scala"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=IMPORTS, separator=".",
    visibility=visibility, imports_of=imports_of, doc=doc_comment_above("block_comment"), locals_query=LOCALS,
    package_of=package_of,
    implicit_this=True,
)
