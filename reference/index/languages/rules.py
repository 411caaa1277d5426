"""What each language module gives the extractor (`LanguageRules`), and the naming convention several share."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from ..source import Source

# An upper-case name (`MAX_SIZE`, `_TTL`): a constant where the language has no constant declaration.
CONSTANT_NAME = re.compile(r"^_*[A-Z][A-Z0-9_]*$")

# One name an import brings in: (to_name, resolution hint ("import", target[, name]), local binding or None).
Import = tuple[str, tuple, str | None]


def doc_comment_line(text: str) -> str | None:
    """The first line of text of a `/** ... */` doc comment (Javadoc, KDoc), its `*` margins left out; None for any
    other comment."""
    if not text.startswith("/**"):
        return None
    for line in text[3:-2].splitlines():
        line = line.strip().lstrip("*").strip()
        if line:
            return line
    return None


def doc_comment_above(comment_type: str) -> Callable[[Source, Node | None], str | None]:
    """A language's `doc`: the first line of the `/** ... */` comment (a node of `comment_type`) just before the
    declaration whose body is given (PHPDoc, Scaladoc)."""
    def doc(src: Source, body: Node | None) -> str | None:
        declaration = body.parent if body is not None else None
        comment = declaration.prev_named_sibling if declaration is not None else None
        return doc_comment_line(src.text(comment)) if comment is not None and comment.type == comment_type else None
    return doc


def unbound_import(src: Source, node: Node, caps: dict[str, list[Node]], path: str, module: str) -> list[Import]:
    """The file or module an import's `@path` names (Ruby's `require`, Swift's `import`); it binds no name of the
    tree."""
    target = src.text(caps["path"][0])
    return [(target, ("import", target), None)]


def named_child_text(src: Source, root: Node, node_type: str) -> str | None:
    """The `name` of the file's first top-level node of `node_type` (a `package` clause, a file's namespace); None
    without one."""
    for child in root.named_children:
        if child.type == node_type:
            name = child.child_by_field_name("name")
            return src.text(name) if name is not None else None
    return None


def capture_kind(capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """The kind a definition capture names, as is (for languages whose queries say it all)."""
    return capture


def no_module(path: str) -> str:
    """No module prefix: names are qualified by their enclosing definitions only."""
    return ""


@dataclass(frozen=True, slots=True)
class LanguageRules:
    """One language: its files, its tree-sitter queries (five groups, run as one), and the rules they cannot say.

    - `grammars`: file extension -> grammar name in tree-sitter-language-pack, in the order an
      extensionless import tries them.
    - the definitions query puts a capture named after the kind on the definition node, plus `@name`
      (`@recv` for a receiver, `@body` where the body decides the kind; a capture named `@_...` is only for a
      predicate, as C's `@_storage` that is not `extern`); the calls query captures
      `@callee` and an optional `@recv`; the imports query captures `@import` and what `imports_of` reads;
      the locals query captures `@local`, a variable's name, and `@type`, the type it is declared with or
      constructed from (a parameter's annotation, `x = Foo()`), so that a call on it names that type's method,
      and `@base`, a class's base (whose methods `self.m()` may name); `@container` with `@type`, a type the file
      declares as a container of another (Go's `type Pool []*Upstream`), whose element its variables hold;
      the exports query captures `@local`, a name the file exports of its own or of an import, with `@exported`,
      the name it is exported as, or `@default` for `export default`.
    - `visibility(name, node, kind)`; `imports_of(src, import node, captures, path, module)`;
      `kind_of(capture, name, node, {recv, body})` the canonical kind; `module_of(path)` the module
      prefix of qualified names; `doc(src, body)` the first line of a definition's doc, uncut.
    - `methods_by_receiver`: a method belongs to the type its receiver names (Go), wherever it is.
    - `package_of(src, root)`: the module prefix the file's own text declares (Java's `package`), over the one its
      path gives; None where it declares none.
    - `implicit_this`: a bare name in a method may be a member of its class (Java's `items.add()` is
      `this.items.add()` when no local or parameter is called `items`).
    - `signature_start(node)`: where a definition's signature begins, when not at its first byte (Java's
      annotations, which its declaration node holds, left out).
    - `super_name`: the word a method calls its class's bases by, where it is not `super` (C#'s `base`).
    - `receiver(text)`: a call's receiver as the resolver reads it, where the language writes it otherwise (PHP's
      `$this->items` is `this.items`).
    - `body_of(node)`: a definition's body where the grammar names no `body` field (Kotlin's): what its signature
      ends before and its doc is read around.
    - `parse_text(data)`: the bytes the parser reads instead of the file's, of the same length so that every position
      holds (C++'s export macros blanked: `class API Name {`); the file's own bytes are what every text is cut from.
    """

    name: str
    grammars: dict[str, str]
    definitions_query: str
    calls_query: str
    imports_query: str
    separator: str
    visibility: Callable[[str, Node, str], str | None]
    imports_of: Callable[[Source, Node, dict[str, list[Node]], str, str], list[Import]]
    kind_of: Callable[[str, str, Node, dict[str, Node]], str] = capture_kind
    module_of: Callable[[str], str] = no_module
    doc: Callable[[Source, Node | None], str | None] | None = None
    methods_by_receiver: bool = False
    locals_query: str = ""
    exports_query: str = ""
    package_of: Callable[[Source, Node], str | None] | None = None
    implicit_this: bool = False
    signature_start: Callable[[Node], int] | None = None
    parse_text: Callable[[bytes], bytes] | None = None
    super_name: str | None = None
    body_of: Callable[[Node], Node | None] | None = None
    receiver: Callable[[str], str] | None = None
