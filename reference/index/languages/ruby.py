"""Ruby: modules and classes nesting `::`-qualified names, methods private after a `private` line, `#` comments as
docs, `require`s, `Foo.new` naming the class, and a class's superclass and included modules as its bases."""

from __future__ import annotations

from tree_sitter import Node

from ..source import Source
from .rules import LanguageRules, unbound_import

# A module or class named with its scopes (`class Shop::Cart`) is named by its last part, under the others.
_NAMED = ("name: [(constant) @name (scope_resolution scope: (constant) @recv name: (constant) @name) (scope_resolution"
          " scope: (scope_resolution scope: (constant) @recv name: (constant) @recv) name: (constant) @name)]")
DEFINITIONS = f"""
(module {_NAMED}) @module
(class {_NAMED}) @class
(method name: (_) @name) @function
(singleton_method name: (_) @name) @method
(assignment left: (constant) @name) @constant
"""
# A method called on nothing (the object's own, or a function of the file's level), on a receiver, and a class `new`
# makes (`Cart.new`, `Shop::Cart.new`: the class).
CALLS = """
(call !receiver method: (identifier) @callee)
(call receiver: (_) @recv method: (identifier) @callee (#not-eq? @callee "new"))
(call receiver: (constant) @callee method: (identifier) @_new (#eq? @_new "new"))
(call receiver: (scope_resolution scope: (_) @recv name: (constant) @callee) method: (identifier) @_new
  (#eq? @_new "new"))
"""
IMPORTS = """
(call !receiver method: (identifier) @_require (#any-of? @_require "require" "require_relative")
  arguments: (argument_list . (string (string_content) @path))) @import
"""
# A variable made by `Foo.new`, and an instance variable (`@pricing = Pricing.new` in any method: a member of the
# class); a class's superclass and the modules it includes (`@base`: what `self.m()`, `super` and a bare `m()` may
# inherit).
LOCALS = """
(assignment left: (identifier) @local right: (call receiver: [(constant) (scope_resolution)] @type
  method: (identifier) @_new (#eq? @_new "new")))
(assignment left: (instance_variable) @member @local right: (call receiver: [(constant) (scope_resolution)] @type
  method: (identifier) @_new (#eq? @_new "new")))
(superclass [(constant) (scope_resolution)] @base)
(call !receiver method: (identifier) @_include (#any-of? @_include "include" "prepend")
  arguments: (argument_list [(constant) (scope_resolution)] @base))
"""

# The lines that make the methods below them private or public (`private`, `protected`, `public` alone on a line).
_SECTIONS = frozenset({"private", "protected", "public"})


def visibility(name: str, node: Node, kind: str) -> str:
    """A method is private when a `private` line comes before it in its class or module (a later `public` ends it), or
    when it is an argument of `private` (`private def helper`); `protected` counts as public. Those lines make no
    constant or class private."""
    if node.type not in ("method", "singleton_method"):
        return "public"
    parent = node.parent
    if parent is not None and parent.type == "argument_list" and parent.parent is not None:
        called = parent.parent.child_by_field_name("method")
        if called is not None and called.text == b"private":
            return "private"
    probe = node.prev_named_sibling
    while probe is not None:
        if probe.type == "identifier" and probe.text is not None and probe.text.decode() in _SECTIONS:
            return "private" if probe.text == b"private" else "public"
        probe = probe.prev_named_sibling
    return "public"


def kind_of(capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """A `def` in a module's body is a method too (of the module, or of what includes it), as in a class's."""
    body = node.parent
    owner = body.parent if body is not None and body.type == "body_statement" else None
    if capture == "function" and owner is not None and owner.type in ("module", "class", "singleton_class"):
        return "method"
    return capture


def doc(src: Source, body: Node | None) -> str | None:
    """The first line of the `#` comment lines just above the definition whose body is `body` (above a class that
    opens its module's body, the module's comment after the module's name)."""
    definition = body.parent if body is not None else None
    if definition is None:
        return None
    comment = definition.prev_named_sibling
    if comment is None and definition.parent is not None and definition.parent.type == "body_statement":
        comment = definition.parent.prev_named_sibling
    lines: list[str] = []
    row = definition.start_point.row
    while comment is not None and comment.type == "comment" and comment.end_point.row == row - 1:
        lines.append(src.text(comment))
        row = comment.start_point.row
        comment = comment.prev_named_sibling
    for line in reversed(lines):
        text = line.lstrip("#").strip()
        if text:
            return text
    return None


def receiver(text: str) -> str:
    """A receiver as the resolver reads it: an instance variable (`@pricing`) is the object's member, `self.pricing`."""
    return f"self.{text[1:]}" if text.startswith("@") and not text.startswith("@@") else text


def body_of(node: Node) -> Node | None:
    """What a module's, a class's or a method's signature ends before: its body, a comment between its head and its
    body (the grammar puts `# ...` after `module Shop` inside the module), or, empty, its `end`."""
    for child in node.named_children:
        if child.type in ("comment", "body_statement"):
            return child
    last = node.children[-1] if node.children else None
    return last if last is not None and last.type == "end" else None


RULES = LanguageRules(
    name="ruby", grammars={".rb": "ruby"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=IMPORTS, separator="::",
    visibility=visibility, imports_of=unbound_import, kind_of=kind_of, doc=doc, locals_query=LOCALS, implicit_this=True,
    body_of=body_of, receiver=receiver,
)
