"""Python: module paths from the file, `_private` names, UPPER-case constants, docstrings, import targets."""

from __future__ import annotations

import re

from tree_sitter import Node

from ..source import Source, required_child
from .rules import CONSTANT_NAME, Import, LanguageRules

DEFINITIONS = """
(function_definition name: (identifier) @name) @function
(class_definition name: (identifier) @name) @class
(module (assignment left: (identifier) @name) @variable)
(module (expression_statement (assignment left: (identifier) @name) @variable))
(class_definition body: (block (assignment left: (identifier) @name) @field))
(class_definition body: (block (expression_statement (assignment left: (identifier) @name) @field)))
"""
CALLS = """
(call function: (identifier) @callee)
(call function: (attribute object: (_) @recv attribute: (identifier) @callee))
"""
IMPORTS = """
(import_statement) @import
(import_from_statement) @import
"""
# A parameter's or variable's annotation, or the class a plain assignment constructs (what the call is decides); the
# same of an attribute of `self` (a member of the class); a class's bases (`@base`: what `self.m()` may inherit); a
# function's return annotation (`@returns`: the type of what a call of it makes, `c = make_cart()`, or an `await` of
# it, `c = await open_cart()`: an `async def`'s annotation is what its awaited call gives); a member a variable is
# copied into (`self.repo = repo`, `@copied`: of the variable's type, where nothing declares the member); a `for`
# loop's variable by its container's element type (`@iterated`: `for c in carts`, `carts: list[Cart]`)
LOCALS = """
(class_definition superclasses: (argument_list [(identifier) (attribute)] @base))
(function_definition return_type: (type) @returns)
(typed_parameter (identifier) @local type: (type) @type)
(for_statement left: (identifier) @local right: [(identifier) (attribute)] @iterated)
(typed_default_parameter name: (identifier) @local type: (type) @type)
(assignment left: (identifier) @local type: (type) @type)
(assignment left: (identifier) @local !type right: (call function: [(identifier) (attribute)] @type))
(assignment left: (identifier) @local !type right: (await (call function: [(identifier) (attribute)] @type)))
(assignment left: (attribute object: (identifier) @object attribute: (identifier) @local) type: (type) @type)
(assignment left: (attribute object: (identifier) @object attribute: (identifier) @local) !type
  right: (call function: [(identifier) (attribute)] @type))
(assignment left: (attribute object: (identifier) @object attribute: (identifier) @local) !type
  right: (await (call function: [(identifier) (attribute)] @type)))
(assignment left: (attribute object: (identifier) @object attribute: (identifier) @local) !type
  right: (identifier) @copied)
"""

# A string literal's prefix and opening quote, and its closing quote (see _strip_quotes).
_OPENING_QUOTE = re.compile(r"[rRbBuUfF]*(?:\"\"\"|\'\'\'|\"|')")
_CLOSING_QUOTE = re.compile(r"(?:\"\"\"|\'\'\'|\"|')$")


def module_of(path: str) -> str:
    """Dotted module path of a Python file outside any package: `src/auth/tokens.py` -> `auth.tokens`."""
    return dotted(path.removeprefix("src/"))


def dotted(rel: str) -> str:
    """`app/models/user.py` -> `app.models.user`; a package's `__init__.py` is the package."""
    parts = rel.split("/")
    stem = parts[-1].rsplit(".", 1)[0]
    return ".".join(parts[:-1] + ([] if stem == "__init__" else [stem]))


def visibility(name: str, node: Node, kind: str) -> str:
    """`_name` is private, `__dunder__` and the rest public."""
    return "private" if name.startswith("_") and not name.endswith("__") else "public"


def kind_of(capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """A module-level assignment to an UPPER-case name is a constant."""
    if capture == "variable":
        return "constant" if CONSTANT_NAME.match(name) else "variable"
    return capture


def _strip_quotes(text: str) -> str:
    """A string literal's text without its prefix and opening quote and its closing quote.

    What substituting one regex of both quotes away did, without trying the closing quote at every
    position of a long docstring (tests/index/test_fast_paths.py keeps that regex and pins the two equal).
    """
    head = _OPENING_QUOTE.match(text)
    begin = head.end() if head else 0
    # A closing quote ends at the end (or before a final newline): it starts in the last five characters.
    tail = _CLOSING_QUOTE.search(text, max(begin, len(text) - 5))
    return text[begin:tail.start()] + text[tail.end():] if tail else text[begin:]


def doc(src: Source, body: Node | None) -> str | None:
    """The first line of the docstring opening `body`."""
    if body is None or body.named_child_count == 0:
        return None
    first = body.named_child(0)
    if first.type == "expression_statement" and first.named_child_count:
        first = first.named_child(0)
    if first.type == "string":
        return _strip_quotes(src.text(first)).strip().split("\n", 1)[0].strip()
    return None


def _imported_name(src: Source, name: Node) -> tuple[str, str | None]:
    """(imported dotted name, alias or None) of one name of an import."""
    if name.type == "aliased_import":
        return src.text(required_child(name, "name")), src.text(required_child(name, "alias"))
    return src.text(name), None


def imports_of(src: Source, node: Node, caps: dict[str, list[Node]], path: str, module: str) -> list[Import]:
    """The names an `import` or `from ... import` statement brings in; relative imports made absolute."""
    out: list[Import] = []
    if node.type == "import_statement":
        for name in node.children_by_field_name("name"):
            target, alias = _imported_name(src, name)
            out.append((target, ("import", target), alias or target.split(".", 1)[0]))
        return out
    mod_node = node.child_by_field_name("module_name")
    if mod_node is None:
        return out
    raw = src.text(mod_node)
    level = len(raw) - len(raw.lstrip("."))
    rest = raw[level:]
    if level:
        is_package = path.rsplit("/", 1)[-1].startswith("__init__.")
        package = module.split(".") if is_package else module.split(".")[:-1]
        base = package[:len(package) - (level - 1)] if level > 1 else package
        target_module = ".".join(base + ([rest] if rest else []))
    else:
        target_module = rest
    if target_module and any(child.type == "wildcard_import" for child in node.children):
        # `from m import *`: the module, and every public name of it (the hint's third part); no local name known.
        return [(target_module, ("import", target_module, "*"), None)]
    for name in node.children_by_field_name("name"):
        imported, alias = _imported_name(src, name)
        binding = alias or imported
        target = f"{target_module}.{imported}" if target_module else imported
        out.append((target, ("import", target), binding))
    return out


RULES = LanguageRules(
    name="python", grammars={".py": "python", ".pyi": "python"},
    definitions_query=DEFINITIONS, calls_query=CALLS, imports_query=IMPORTS, separator=".",
    visibility=visibility, imports_of=imports_of, kind_of=kind_of, module_of=module_of, doc=doc,
    locals_query=LOCALS,
)
