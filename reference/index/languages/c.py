"""C: one namespace for the whole program, `static` items private to their file, `#define`s, `typedef`s and
`#include`s; a definition's doc is the comment just above it."""

from __future__ import annotations

from tree_sitter import Node

from ..source import Source
from .rules import Import, LanguageRules


def _declarator(inner: str) -> str:
    """A declarator around `inner` (a pattern): itself, or under up to two `*`s, one `[]` or both."""
    return (f"[{inner} (pointer_declarator declarator: {inner}) (array_declarator declarator: {inner})"
            f" (pointer_declarator declarator: (pointer_declarator declarator: {inner}))"
            f" (pointer_declarator declarator: (array_declarator declarator: {inner}))]")


_FUNCTION = _declarator("(function_declarator declarator: (identifier) @name)")
_VARIABLE = _declarator("(identifier) @name")
_FIELD = _declarator("(field_identifier) @name")
# A function pointer's name: `void (*cb)(int)`.
POINTER_TO = "(function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: {})))"
# Where a variable of the file's level is declared: at the top, or in a conditional block of the preprocessor.
TOP = ("translation_unit", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif")
# An `extern` declaration names a variable another file defines.
DEFINED = '(storage_class_specifier)? @_storage (#not-eq? @_storage "extern")'
_DECLARED = f"[{_VARIABLE} (init_declarator declarator: {_VARIABLE})]"


def shared_definitions(aliased: str) -> str:
    """The definitions C and C++ share: macros (with parameters a `function`), structs, unions and enums, `typedef`s
    (of an unnamed struct, union or enum: that type, by the `typedef`'s name) and enumerators; `aliased`: the other
    types a `typedef` may name in the language."""
    return f"""
(preproc_function_def name: (identifier) @name) @function
(preproc_def name: (identifier) @name) @constant
(struct_specifier name: (type_identifier) @name body: (_)) @struct
(union_specifier name: (type_identifier) @name body: (_)) @struct
(enum_specifier name: (type_identifier) @name body: (_)) @enum
(type_definition type: [(struct_specifier !name body: (_)) (union_specifier !name body: (_))]
  declarator: (type_identifier) @name) @struct
(type_definition type: (enum_specifier !name body: (_)) declarator: (type_identifier) @name) @enum
(type_definition type: [(struct_specifier name: (_) body: (_)) (union_specifier name: (_) body: (_))
  (enum_specifier name: (_) body: (_))] declarator: (type_identifier) @name @type_alias)
(type_definition type: [(primitive_type) (type_identifier) (sized_type_specifier) {aliased}
  (struct_specifier !body) (union_specifier !body) (enum_specifier !body)]
  declarator: [{_declarator("(type_identifier) @name")} {POINTER_TO.format("(type_identifier) @name")}]) @type_alias
(enumerator name: (identifier) @name) @constant
"""


# A definition's prototypes (`int f(int);`) and `extern` declarations are not symbols: the definition is.
DEFINITIONS = f"""
(function_definition declarator: {_FUNCTION}) @function
{shared_definitions("(macro_type_specifier)")}
(field_declaration declarator: [{_FIELD} {POINTER_TO.format("(field_identifier) @name")}]) @field
(field_declaration declarator: (_) declarator: {_FIELD} @field)
""" + "".join(f"""
({top} (declaration {DEFINED} declarator: {_DECLARED}) @variable)
({top} (declaration {DEFINED} declarator: (_) declarator: {_DECLARED} @variable))""" for top in TOP) + "\n"
# A function called by its name (or a macro), and a call through a member (`ops->read()`, a function pointer's).
CALLS = """
(call_expression function: (identifier) @callee)
(call_expression function: (field_expression argument: (_) @recv field: (field_identifier) @callee))
"""
IMPORTS = """
(preproc_include path: (_) @path) @import
"""
# Parameters and variables by the struct or the `typedef` name they are declared with (`struct list *l`, `buf_t b`):
# what a call through their members (`l->free(l)`) names.
_LOCAL = _declarator("(identifier) @local")
_TYPE = "[(struct_specifier name: (type_identifier) @type) (union_specifier name: (type_identifier) @type) " \
        "(type_identifier) @type]"
LOCALS = f"""
(parameter_declaration type: {_TYPE} declarator: {_LOCAL})
(declaration type: {_TYPE} declarator: [{_LOCAL} (init_declarator declarator: {_LOCAL})])
"""


def declaration_of(node: Node) -> Node:
    """The declaration a definition's node is: itself, or for a declaration's second name (`int a, b;`) the
    declaration's."""
    return node.parent if node.type in ("init_declarator", "identifier", "pointer_declarator", "array_declarator",
                                        "field_identifier") and node.parent is not None else node


def _keywords(node: Node) -> set[str]:
    """The storage classes and qualifiers (`static`, `extern`, `const`) a declaration is written with."""
    return {child.text.decode() for child in declaration_of(node).children
            if child.type in ("storage_class_specifier", "type_qualifier") and child.text is not None}


def visibility(name: str, node: Node, kind: str) -> str:
    """A `static` function or variable is its file's own; everything else is the program's."""
    return "private" if "static" in _keywords(node) else "public"


def kind_of(capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """A variable declared `const` (not a pointer to `const`) is a constant."""
    if capture == "variable" and "const" in _keywords(node):
        declarator = node if node.type != "declaration" else node.child_by_field_name("declarator")
        if declarator is not None and "pointer_declarator" not in _types_down(declarator):
            return "constant"
    return capture


def _types_down(node: Node) -> set[str]:
    """The node types along a declarator's chain of `declarator` fields."""
    found: set[str] = set()
    probe: Node | None = node
    while probe is not None:
        found.add(probe.type)
        probe = probe.child_by_field_name("declarator")
    return found


# What a definition's node may be wrapped in, which its doc comment is above: a `typedef`, C++'s `template <...>`.
WRAPPERS = ("type_definition", "template_declaration")


def doc(src: Source, body: Node | None) -> str | None:
    """The first line of the comment that ends on the line just above the definition whose body is `body` (of a
    run of `//` lines, the first)."""
    declaration = body.parent if body is not None else None
    if declaration is not None and declaration.parent is not None and declaration.parent.type in WRAPPERS:
        declaration = declaration.parent
    if declaration is None:
        return None
    comment, top = declaration.prev_named_sibling, declaration.start_point.row
    if comment is None or comment.type != "comment" or comment.end_point.row < top - 1:
        return None
    while ((above := comment.prev_named_sibling) is not None and above.type == "comment"
           and src.text(comment).startswith("//") and src.text(above).startswith("//")
           and above.end_point.row == comment.start_point.row - 1):
        comment = above
    text = src.text(comment)
    lines = text[2:].splitlines() if text.startswith("//") else text[2:-2].splitlines()
    for line in lines:
        line = line.strip().lstrip("*/!").strip()
        if line:
            return line
    return None


def imports_of(src: Source, node: Node, caps: dict[str, list[Node]], path: str, module: str) -> list[Import]:
    """The file an `#include` names (`"util.h"`, `<stdio.h>`); it binds no name."""
    target = src.text(caps["path"][0]).strip("\"<>")
    return [(target, ("import", target), None)]


RULES = LanguageRules(
    name="c", grammars={".c": "c", ".h": "c"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=IMPORTS, separator=".",
    visibility=visibility, imports_of=imports_of, kind_of=kind_of, doc=doc, locals_query=LOCALS,
)
