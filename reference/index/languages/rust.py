"""Rust: module paths from the file, `pub` items, `use` trees, `::`-qualified names (impl methods under their type)."""

from __future__ import annotations

from tree_sitter import Node

from ..source import Source, required_child
from .rules import Import, LanguageRules

DEFINITIONS = """
(function_item name: (identifier) @name) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name) @struct
(union_item name: (type_identifier) @name) @struct
(enum_item name: (type_identifier) @name) @enum
(trait_item name: (type_identifier) @name) @trait
(type_item name: (type_identifier) @name) @type_alias
(const_item name: (identifier) @name) @constant
(static_item name: (identifier) @name) @variable
(mod_item name: (identifier) @name) @module
(field_declaration name: (field_identifier) @name) @field
(impl_item type: (_) @name) @impl
"""
CALLS = """
(call_expression function: (identifier) @callee)
(call_expression function: (scoped_identifier path: (_) @recv name: (identifier) @callee))
(call_expression function: (field_expression value: (_) @recv field: (field_identifier) @callee))
"""
IMPORTS = """
(use_declaration argument: (_) @use) @import
"""
# Parameters and `let`s by their types; `let x = T { .. }` and `let x = T::new(..)` by the type they make, `let x =
# make()`, `let x = b.build()` and `let x = B::new().build()` by the type the function or the chain's last method is
# declared to return (`@returns`); a struct's fields (what `self.field` is); a
# `for` loop's variable by its container's element type (`@iterated`: `for c in &carts`, `carts: Vec<Cart>`).
LOCALS = """
(field_declaration name: (field_identifier) @local type: (_) @type)
(parameter pattern: (identifier) @local type: (_) @type)
(for_expression pattern: (identifier) @local value: (_) @iterated)
(let_declaration pattern: (identifier) @local type: (_) @type)
(let_declaration pattern: (identifier) @local !type value: (struct_expression name: (_) @type))
(let_declaration pattern: (identifier) @local !type value: (call_expression
  function: (scoped_identifier path: (_) @type name: (identifier) @constructor (#eq? @constructor "new"))))
(let_declaration pattern: (identifier) @local !type value: (call_expression function: (identifier) @made_by))
(let_declaration pattern: (identifier) @local !type value: (call_expression
  function: (scoped_identifier name: (identifier) @_called (#not-eq? @_called "new")) @made_by))
(let_declaration pattern: (identifier) @local !type value: (call_expression function: (field_expression) @made_by))
(function_item return_type: (_) @returns)
(function_signature_item return_type: (_) @returns)
"""


def module_of(path: str) -> str:
    """Module path of a Rust file: `src/app/config.rs` -> `app::config`, `src/lib.rs` -> ``."""
    parts = path.split("/")
    if len(parts) > 1 and parts[0] == "src":
        parts = parts[1:]
    last = parts[-1].rsplit(".", 1)[0]
    # `mod.rs` is its folder's module; `lib.rs` and `main.rs` at the crate root are the crate itself.
    names_folder = last in ("mod", "lib", "main") and (last == "mod" or len(parts) == 1)
    parts = parts[:-1] if names_folder else [*parts[:-1], last]
    return "::".join(parts)


def visibility(name: str, node: Node, kind: str) -> str:
    """An item with a `pub` modifier is public."""
    return "public" if any(c.type == "visibility_modifier" for c in node.children) else "private"


def _use_paths(src: Source, node: Node, prefix: str) -> list[tuple[str, str]]:
    """(full path, binding) of every name a `use` argument brings in."""
    t = node.type
    if t == "use_as_clause":
        path = src.text(required_child(node, "path"))
        return [(prefix + path, src.text(required_child(node, "alias")))]
    if t == "scoped_use_list":
        path_node = node.child_by_field_name("path")
        head = prefix + (src.text(path_node) + "::" if path_node is not None else "")
        return _use_paths(src, required_child(node, "list"), head)
    if t == "use_list":
        out: list[tuple[str, str]] = []
        for child in node.named_children:
            out.extend(_use_paths(src, child, prefix))
        return out
    if t == "use_wildcard":
        return []
    path = prefix + src.text(node)
    last = path.rsplit("::", 1)[-1]
    if last == "self":
        path = path[: -len("::self")]
        last = path.rsplit("::", 1)[-1]
    return [(path, last)]


def imports_of(src: Source, node: Node, caps: dict[str, list[Node]], path: str, module: str) -> list[Import]:
    """The names a `use` declaration brings in."""
    return [(p, ("import", p), b) for p, b in _use_paths(src, caps["use"][0], "")]


RULES = LanguageRules(
    name="rust", grammars={".rs": "rust"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=IMPORTS, separator="::",
    visibility=visibility, imports_of=imports_of, module_of=module_of, locals_query=LOCALS,
)
