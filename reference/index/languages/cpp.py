"""C++: C's definitions, macros and `#include`s, plus namespaces, classes with their access labels, methods written in
the class or out of it (`void Cart::add()`), templates, `using` aliases and `new`; `::`-qualified names."""

from __future__ import annotations

import re

from tree_sitter import Node

from . import c
from .rules import LanguageRules

# The alternatives a function's name may be (flat: tree-sitter matches an alternation nested first in another for its
# first alternative only).
_NAMES = "(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name"
# A function's name, plain or qualified by its class or namespaces (`Cart::add`, `ns::Thing::run`: every scope a
# `@recv`, the class last), up to three scopes deep.
_QUALIFIED = f"(qualified_identifier scope: (_) @recv name: [{_NAMES}])"
_FUNCTION_NAME = (f"[{_NAMES} {_QUALIFIED} (qualified_identifier scope: (_) @recv name: {_QUALIFIED})"
                  f" (qualified_identifier scope: (_) @recv name: (qualified_identifier scope: (_) @recv"
                  f" name: {_QUALIFIED}))]")


def _declarator(inner: str) -> str:
    """A declarator around `inner`: itself, or under a `*`, a `&`, a `&&` or `[]`, or two `*`s."""
    return (f"[{inner} (pointer_declarator declarator: {inner}) (reference_declarator {inner})"
            f" (array_declarator declarator: {inner}) (pointer_declarator declarator: (pointer_declarator"
            f" declarator: {inner}))]")


_FUNCTION = _declarator(f"(function_declarator declarator: {_FUNCTION_NAME})")
_VARIABLE = _declarator("(identifier) @name")
_FIELD = _declarator("(field_identifier) @name")
_DECLARED = f"[{_VARIABLE} (init_declarator declarator: {_VARIABLE})]"
# Where a variable of a namespace's level is declared: the file's top, a namespace's body, a block of the preprocessor.
_TOP = (*c.TOP, "declaration_list")
# In-class method declarations, like C's prototypes, are not symbols: the definition is (in the class or out of it);
# but a pure virtual method (`virtual bool Valid() const = 0;`) has none, and is one.
DEFINITIONS = f"""
(namespace_definition name: (namespace_identifier) @name) @module
(function_definition declarator: {_FUNCTION}) @function
{c.shared_definitions("(qualified_identifier) (template_type) (class_specifier !body)")}
(class_specifier name: (type_identifier) @name body: (_)) @class
(type_definition type: (class_specifier !name body: (_)) declarator: (type_identifier) @name) @class
(type_definition type: (class_specifier name: (_) body: (_)) declarator: (type_identifier) @name @type_alias)
(alias_declaration name: (type_identifier) @name) @type_alias
(field_declaration declarator: [{_FIELD} {c.POINTER_TO.format("(field_identifier) @name")}]) @field
(field_declaration declarator: (_) declarator: {_FIELD} @field)
(field_declaration declarator: {_declarator("(function_declarator declarator: (field_identifier) @name)")}
  default_value: (number_literal)) @method
""" + "".join(f"""
({top} (declaration {c.DEFINED} declarator: {_DECLARED}) @variable)
({top} (declaration {c.DEFINED} declarator: (_) declarator: {_DECLARED} @variable))""" for top in _TOP) + "\n"
# A function or a class's method by its name, a member through an object or a pointer, a qualified name
# (`Base::run()`, `shop::total()`, `shop::Cart::make()`: its scopes captured one by one), a function template
# (`max<int>()`), and the class `new` makes.
CALLS = """
(call_expression function: (identifier) @callee)
(call_expression function: (field_expression argument: (_) @recv field: (field_identifier) @callee))
(call_expression function: (qualified_identifier scope: (_) @recv name: (identifier) @callee))
(call_expression function: (qualified_identifier scope: (_) @recv name: (qualified_identifier scope: (_) @recv
  name: (identifier) @callee)))
(call_expression function: (qualified_identifier scope: (_) @recv name: (qualified_identifier scope: (_) @recv
  name: (qualified_identifier scope: (_) @recv name: (identifier) @callee))))
(call_expression function: (template_function name: (identifier) @callee))
(new_expression type: (type_identifier) @callee)
"""
# Parameters, variables and fields by their declared types (`auto p = new T()` by the class it makes, `auto c =
# make()` by the type the function is declared to return, `@returns`); a class's bases (`@base`: what `this->m()` and
# a bare `m()` may inherit).
_TYPE = "[(type_identifier) (qualified_identifier) (template_type)] @type"
_LOCAL = _declarator("(identifier) @local")
LOCALS = f"""
(parameter_declaration type: {_TYPE} declarator: {_LOCAL})
(declaration type: {_TYPE} declarator: [{_LOCAL} (init_declarator declarator: {_LOCAL})])
(declaration type: (placeholder_type_specifier) declarator: (init_declarator declarator: (identifier) @local
  value: (new_expression type: (_) @type)))
(field_declaration type: {_TYPE} declarator: [{_declarator("(field_identifier) @local")}])
(declaration type: (placeholder_type_specifier) declarator: (init_declarator declarator: (identifier) @local
  value: (call_expression function: [(identifier) (qualified_identifier) (field_expression)] @made_by)))
(function_definition type: [(type_identifier) (qualified_identifier)] @returns)
(base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base)
"""


def kind_of(capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """A function written in a class's body, or qualified by one (`void Cart::add()`), is a method; `const`
    variables are constants as in C."""
    if capture == "function" and node.type == "function_definition" and (
            "recv" in extra or _member_list(node) is not None):
        return "method"
    return c.kind_of(capture, name, node, extra)


def _member_list(node: Node) -> Node | None:
    """The class body (`field_declaration_list`) a declaration is written in (through a `template`), if any."""
    parent = node.parent
    if parent is not None and parent.type == "template_declaration":
        parent = parent.parent
    return parent if parent is not None and parent.type == "field_declaration_list" else None


def visibility(name: str, node: Node, kind: str) -> str:
    """A member is as its last access label above it says (`public:`), else as its class's default (a `class`'s
    private, a `struct`'s or a `union`'s public); anything else is private when `static` or in an unnamed namespace."""
    declaration = c.declaration_of(node)
    members = _member_list(declaration)
    if members is not None:
        label = declaration if declaration.parent == members else declaration.parent
        while label is not None and label.type != "access_specifier":
            label = label.prev_named_sibling
        if label is not None and label.text is not None:
            return "public" if label.text.decode() == "public" else "private"
        owner = members.parent
        return "private" if owner is not None and owner.type == "class_specifier" else "public"
    if c.visibility(name, node, kind) == "private":
        return "private"
    scope = declaration.parent
    while scope is not None:
        if scope.type == "namespace_definition" and scope.child_by_field_name("name") is None:
            return "private"
        scope = scope.parent
    return "public"


# An export macro between `class` (`struct`, `union`) and the name (`class LEVELDB_EXPORT Status {`), which the
# grammar, knowing no macro, reads as a function named `Status` returning `class LEVELDB_EXPORT`.
_EXPORT_MACRO = re.compile(rb"\b((?:class|struct|union)\s+)([A-Z][A-Z0-9_]*)(?=\s+(?!final\b)[A-Za-z_]\w*\s*"
                           rb"(?:final\b\s*)?[:{])")


def parse_text(data: bytes) -> bytes:
    """The file with each export macro of a class's head blanked (`_EXPORT_MACRO`), every position kept."""
    if b"class" not in data and b"struct" not in data and b"union" not in data:
        return data
    return _EXPORT_MACRO.sub(lambda m: m.group(1) + b" " * len(m.group(2)), data)


# What only C++ writes: a class, a namespace or a template at a line's start, an access label, `std::`, a C++ standard
# header, `extern "C++"` (a `.h` file is C's unless it reads so).
_CPP_ONLY = re.compile(rb"^[ \t]*(?:class|namespace|template)\b|^[ \t]*(?:public|private|protected)[ \t]*:|\bstd::"
                       rb"|^[ \t]*#[ \t]*include[ \t]*<(?:string|vector|memory|map|iostream|cstdint|cstddef|cstdio"
                       rb"|cstring|cstdlib|algorithm|utility|functional|atomic|mutex|thread)>|extern \"C\+\+\"",
                       re.MULTILINE)


def reads_as_cpp(data: bytes) -> bool:
    """A header (`.h`) written in C++ (`_CPP_ONLY`)."""
    return _CPP_ONLY.search(data) is not None


RULES = LanguageRules(
    name="cpp", grammars={".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=c.IMPORTS, separator="::",
    visibility=visibility, imports_of=c.imports_of, kind_of=kind_of, doc=c.doc, locals_query=LOCALS,
    methods_by_receiver=True, implicit_this=True, parse_text=parse_text,
)
