"""Per-file extraction with tree-sitter: symbols, reference edges and the text the search indices need.

What differs between languages (queries, module prefixes, visibility, kinds a query cannot say,
docs, imports) is each language's `LanguageRules` (reference/index/languages/); this module applies
them the same way to every language. Qualified names are the language's module prefix (Python and
Rust: the file's module path), the enclosing definitions and, for methods of an `impl` or with a Go
receiver, their type, joined by the language's separator (docs/index.md).
"""

from __future__ import annotations

import hashlib
import marshal
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from operator import itemgetter
from typing import NamedTuple

from tree_sitter import Node, QueryCursor

from .kinds import kinds_of
from .languages import LANGUAGES
from .languages.grammar import grammar
from .languages.rules import LanguageRules
from .source import Source
from .tokens import expand, words

MAX_SIGNATURE = 240
MAX_SYMBOL_CONTENT = 800  # body text indexed per symbol (its head); the snippets carry the rest
SNIPPET_LINES = 40
MAX_IMPORTS_TEXT = 2000
CONTENT_HEAD = 2000

TYPE_KINDS = kinds_of("type")
CONTAINER_KINDS = kinds_of("type", "namespace")
SCOPE_KINDS = kinds_of("type", "namespace", "callable") | {"impl"}  # a Rust impl block is a scope, not a kind
CALLABLE_KINDS = kinds_of("callable")
VALUE_KINDS = kinds_of("value")
# The languages whose files declare container types of their own (the locals query's `@container`: Go's `type Pool
# []*Upstream`), whose variables hold that type's element.
NAMED_CONTAINERS = frozenset(name for name, rules in LANGUAGES.items() if "@container" in rules.locals_query)
SELF_NAMES = frozenset({"self", "this", "cls", "Self"})  # what a method calls the instance (or class) it is called on
_SIMPLE_RECV = re.compile(r"^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*$")
# A receiver that is one element of a container a name or a member names (`carts[0]`, `self.carts[i]`).
_INDEXED_RECV = re.compile(r"^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\[[^\[\]]*\]$")
# Python's `super()` / `super(Cls, self)` as a receiver: the call names a method of the class's bases, as `super.m()`
# does in TypeScript and JavaScript (no other language here parses `super(...)` as a receiver).
_SUPER_CALL = re.compile(r"super\([^()]*\)\Z")
# What a type's text may start with that is not its name: Go's and Rust's pointers and references, `mut`, `dyn`.
_TYPE_PREFIX = re.compile(r"^(?:[*&]\s*|(?:mut|dyn|const)\s+)+")
MAX_TYPE_TEXT = 200


class Symbol(NamedTuple):
    """One definition found in a file (parent is an index into the file's symbol list, -1 at top level)."""

    name: str
    qualified_name: str
    kind: str
    line_start: int
    line_end: int
    signature: str
    visibility: str | None
    doc: str | None
    parent: int
    stable_id: str
    content: str           # expanded body text (containers: their head only) for the search index
    search_name: str       # expanded name, qualified name and signature for the search index
    search_qualified: str
    search_signature: str


class Edge(NamedTuple):
    """A call or import at `line`, made from symbol index `source` (-1 at file level).

    `hint` says how the target may be resolved once every file is known:
    ("call", callee, receiver|None[, the receiver's type]) or ("import", target[, name]).
    `binding` is the local name an import introduces (None for calls).
    """

    source: int
    line: int
    edge_type: str
    to_name: str
    hint: tuple
    binding: str | None = None


@dataclass(slots=True)
class FileExtract:
    """Everything the index stores about one file."""

    path: str
    language: str | None
    size: int
    content_hash: str
    line_count: int
    parse_errors: int = 0
    module: str = ""
    symbols: list[Symbol] = field(default_factory=list)
    edges: list[tuple] = field(default_factory=list)  # plain tuples in Edge field order
    snippets: list[tuple[int, int, str]] = field(default_factory=list)  # (line_start, line_end, expanded text)
    imports_text: str = ""   # expanded
    content_head: str = ""   # expanded
    search_path: str = ""    # expanded
    search_filename: str = ""
    # (exported name, local name) of what the file exports without `from` (`export { a as b }`, `export default`)
    exports: list[tuple[str, str]] = field(default_factory=list)
    # (symbol index of a class, the names of its bases as written: `Base`, `mod.Mixin`), for the classes that have any;
    # of a variable of the file's level or a field, the name of its type (`_variable_types`); and of a type, an
    # attribute its methods give a type, marked, and that type (`_attribute_types`)
    bases: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)

    def dumps(self) -> bytes:
        """A compact record of the extract (marshal: fast to write, to read and to store)."""
        return marshal.dumps((
            self.path, self.language, self.size, self.content_hash, self.line_count, self.parse_errors, self.module,
            [tuple(x) for x in self.symbols], self.edges, self.snippets, self.imports_text,
            self.content_head, self.search_path, self.search_filename, self.exports, self.bases))

    @classmethod
    def loads(cls, blob: bytes) -> FileExtract:
        """The extract `dumps` wrote; symbols and edges stay plain tuples (in Symbol / Edge field order)."""
        return cls(*marshal.loads(blob))


def content_hash(data: bytes) -> str:
    """The sha256 of a file's bytes (the incremental index key)."""
    return hashlib.sha256(data).hexdigest()


def stable_id(language: str, path: str, kind: str, qualified_name: str, ordinal: int) -> str:
    """Deterministic id from what identifies a symbol, never its lines (ordinal separates overloads)."""
    key = f"{language}\x00{path}\x00{kind}\x00{qualified_name}\x00{ordinal}"
    # 64 bits: unique enough for any workspace, and half the tokens of a longer id in every result.
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def _signature(src: Source, node: Node, body: Node | None, start: int | None = None) -> str:
    """The definition's head (from `start`, else its first byte, up to its `body` node), whitespace squeezed."""
    begin = node.start_byte if start is None else start
    if body is not None and body.start_byte > begin:
        text = src.data[begin:body.start_byte].decode("utf-8", "replace")
    else:
        text = src.data[begin:min(node.end_byte, begin + 400)].decode("utf-8", "replace")
        text = text.split("\n", 1)[0]
    text = " ".join(text.split()).rstrip("{:").rstrip()  # whitespace runs squeezed to one space, ends stripped
    return text[:MAX_SIGNATURE]


class _Def:
    __slots__ = ("end", "extra", "index", "kind", "name", "node", "owner", "parent", "scoped_name", "scopes", "start")

    def __init__(self, start: int, end: int, kind: str, name: str, node: Node, extra: dict[str, Node]) -> None:
        self.start, self.end, self.kind, self.name, self.node, self.extra = start, end, kind, name, node, extra
        self.parent: _Def | None = None  # enclosing definition or impl scope
        self.index = -1                  # position in the symbol list (impl scopes have none)
        self.owner: str | None = None    # Rust impl type / Go receiver type
        self.scopes: list[str] = []      # every scope a name is written with (C++'s `shop::Cart::add`), the owner last
        self.scoped_name = ""            # its qualified name but for the module prefix, once known


def _receiver_type(src: Source, node: Node | None) -> str | None:
    """The bare type name a receiver or an `impl` names (`*Server` -> `Server`, `Config<T>` -> `Config`)."""
    if node is None:
        return None
    text = src.text(node).lstrip("*&").strip()
    text = text.split("<", 1)[0].split("[", 1)[0]
    return text.rsplit("::", 1)[-1].rsplit(".", 1)[-1] or None


_NOT_KINDS = frozenset({"name", "recv", "body"})  # and a capture named `_...`, which only a predicate reads


def _definitions(rules: LanguageRules, src: Source, matches: list[tuple[int, dict]]) -> list[_Def]:
    """The definitions of the matches, in source order, each with its enclosing scope as parent."""
    kind_of = rules.kind_of
    defs: list[_Def] = []
    seen: set[int] = set()
    for _, caps in matches:
        for kind in caps:  # the capture named after the kind
            if kind not in _NOT_KINDS and kind[0] != "_":
                break
        else:
            continue
        if not caps.get("name"):
            continue
        node = caps[kind][0]
        if node.id in seen:
            continue
        seen.add(node.id)
        name_node = caps["name"][0]
        extra = {k: v[-1] for k, v in caps.items() if k in ("recv", "body")}  # a receiver's last part: the type
        if kind == "impl":
            d = _Def(node.start_byte, node.end_byte, "impl", "", node, extra)
            d.owner = _receiver_type(src, name_node)
        else:
            name = src.text(name_node)
            if len(name) > 2 and name[0] == name[-1] == "`":  # Kotlin's, Scala's, Swift's quoted name: `adds an item`
                name = name[1:-1]
            d = _Def(node.start_byte, node.end_byte, kind_of(kind, name, node, extra), name, node, extra)
            if "recv" in extra:
                d.owner = _receiver_type(src, extra["recv"])
                if len(caps["recv"]) > 1:
                    d.scopes = [scope for node in caps["recv"] if (scope := _receiver_type(src, node))]
        defs.append(d)
    defs.sort(key=lambda d: (d.start, -d.end))
    stack: list[_Def] = []
    for d in defs:
        while stack and not (stack[-1].start <= d.start and d.end <= stack[-1].end):
            stack.pop()
        if stack:
            d.parent = stack[-1]
        if d.kind in SCOPE_KINDS:
            stack.append(d)
    return defs


def _symbols(rules: LanguageRules, path: str, module: str, src: Source, defs: list[_Def]) -> list[Symbol]:
    """The file's symbols, qualified, with their texts for the search index."""
    language, sep, visibility_of, doc_of = rules.name, rules.separator, rules.visibility, rules.doc
    signature_start, body_of = rules.signature_start, rules.body_of
    symbols: list[tuple] = []  # Symbol fields in order, content and search_signature still empty
    columns: list[tuple[int, int | None]] = []  # each symbol's first column, and its last (None: its last line whole)
    # A container's body text is its members' text: index only its head (up to the first member).
    first_child: dict[int, int] = {}  # symbol index -> line_start of its first member
    outer_humps: dict[str, str] = {}  # a scope's qualified name -> what `expand` appends to it
    ordinals: dict[tuple[str, str], int] = {}
    # Types by name, for Rust impl blocks and Go receivers whose methods live outside the type's node.
    types: dict[str, _Def] = {}
    for d in defs:
        if d.kind in TYPE_KINDS and d.name not in types:
            types[d.name] = d
    for d in defs:
        if d.kind == "impl":
            continue
        parent = d.parent
        owner_name = d.owner
        if parent is not None and parent.kind == "impl":
            owner_name = parent.owner
            parent = _owner(types.get(owner_name or ""), d) or parent.parent
            while parent is not None and parent.kind == "impl":
                parent = parent.parent
        elif rules.methods_by_receiver and d.kind == "method" and d.owner:
            parent = _owner(types.get(d.owner), d) or parent
        kind = d.kind
        if kind == "function" and (d.parent is not None and d.parent.kind in ("impl", "trait", "class", "interface")):
            kind = "method"
        d.parent = parent  # from here on: the parent symbol (impl scopes resolved)
        chain: list[str] = []
        probe = parent
        while probe is not None:
            if probe.scopes:  # written with its scopes (`class Shop::Util::Helper`): its name under them holds them all
                chain.append(probe.scoped_name)
                break
            chain.append(probe.name)
            probe = probe.parent
        chain.reverse()
        if owner_name and (parent is None or parent.name != owner_name):
            chain.extend(d.scopes or [owner_name])
        d.scoped_name = sep.join((*chain, d.name))
        prefix = [module] if module else []
        outer = sep.join(prefix + chain)  # the qualified name of the scope the symbol is in
        qualified = f"{outer}{sep}{d.name}" if outer else d.name
        key = (kind, qualified)
        ordinal = ordinals.get(key, 0)
        ordinals[key] = ordinal + 1
        node = d.node
        line_start = node.start_point.row + 1
        end_point = node.end_point
        line_end = end_point.row + 1
        last_column: int | None = end_point.column
        if end_point.column == 0 and line_end > line_start:
            line_end, last_column = line_end - 1, None
        columns.append((node.start_point.column, last_column))
        d.index = len(symbols)
        parent_index = parent.index if parent is not None else -1
        if parent_index >= 0 and parent_index not in first_child:
            first_child[parent_index] = line_start
        body = node.child_by_field_name("body") if body_of is None else body_of(node)
        doc = doc_of(src, body) if doc_of is not None and kind in SCOPE_KINDS else None
        # A constructor (a method named as its type: Java's, C#'s, C++'s) is searched by its type's qualified name, so
        # that its name written twice (`gson.TypeAdapter.TypeAdapter`) does not score it above the type itself.
        constructor = kind == "method" and parent is not None and parent.name == d.name and parent.kind in TYPE_KINDS
        symbols.append((
            d.name, qualified, kind, line_start, line_end,
            _signature(src, node, body, None if signature_start is None else signature_start(node)),
            visibility_of(d.name, node, kind), (doc[:MAX_SIGNATURE] or None) if doc is not None else None,
            parent_index, stable_id(language, path, kind, qualified, ordinal), "",
            expand(d.name),
            symbols[parent_index][12] if constructor else _expand_qualified(qualified, outer, d.name, outer_humps), ""))
    out: list[Symbol] = []
    for i, (name, qualified, kind, line_start, line_end, signature, visibility, doc, parent, stable, _,
            search_name, search_qualified, _) in enumerate(symbols):
        end, (first_column, last_column) = line_end, columns[i]
        if i in first_child and kind in CONTAINER_KINDS:
            end, last_column = max(line_start, min(end, first_child[i] - 1)), None
        out.append(Symbol(name, qualified, kind, line_start, line_end, signature, visibility, doc, parent, stable,
                          src.expanded(line_start, end, MAX_SYMBOL_CONTENT, first_column, last_column), search_name,
                          search_qualified, expand(signature)))
    return out


def _owner(found: _Def | None, d: _Def) -> _Def | None:
    """The type `found` by name as the parent of `d`, unless `d` is already among its parents: a type inside the
    method or impl that names it (`impl T { type T = u8; }`) would make `d` its own ancestor, and every walk up the
    parents endless."""
    probe = found
    while probe is not None:
        if probe is d:
            return None
        probe = probe.parent
    return found


def _expand_qualified(qualified: str, outer: str, name: str, outer_humps: dict[str, str]) -> str:
    """`expand(qualified)`: a name without capitals adds no camelCase run, so the scope's humps are the answer."""
    if not outer or name.lower() != name:
        return expand(qualified)
    humps = outer_humps.get(outer)
    if humps is None:
        humps = outer_humps[outer] = expand(outer)[len(outer):]
    return qualified + humps


def _enclosing(defs: list[_Def], positions: list[int]) -> list[int]:
    """For each byte position (ascending), the symbol index of the innermost definition containing it."""
    out: list[int] = []
    stack: list[_Def] = []
    i = 0
    real = [d for d in defs if d.index >= 0]
    for pos in positions:
        while i < len(real) and real[i].start <= pos:
            while stack and stack[-1].end <= real[i].start:
                stack.pop()
            stack.append(real[i])
            i += 1
        while stack and stack[-1].end <= pos:
            stack.pop()
        out.append(stack[-1].index if stack else -1)
    return out


_CHAIN_NOISE = re.compile(r"\s+|!!|\?(?=\.)")  # blanks, Kotlin's `!!`, the `?` of `?.`
MAX_CHAIN_TEXT = 200


def _call_chain(text: str) -> str | None:
    """The names a chain of calls is made of, its calls' arguments, type arguments and trailing bodies left out
    (`Moshi.Builder().build()` -> `Moshi.Builder.build`, `new Cart().items()` -> `Cart.items`, `moshi.adapter<Foo>()`
    -> `moshi.adapter`, `new TypeToken<List<Foo>>() {}.getType()` -> `TypeToken.getType`), or None when it is not such
    a chain (an index, anything but names between the argument lists)."""
    if len(text) > MAX_CHAIN_TEXT:
        return None
    kept: list[str] = []
    depth = angle = 0  # inside `(...)` or `{...}` (a lambda, an anonymous class's body); inside `<...>` between them
    for ch in _CHAIN_NOISE.sub("", text.replace("->", ".").replace("::<", "<").removeprefix("new ")):
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0:  # `<`, `>` only here: in the arguments they may be operators (`x => x.y()`, `a < b`)
            if ch == "<":
                angle += 1
            elif ch == ">":
                angle -= 1
                if angle < 0:
                    return None
            elif angle == 0:
                kept.append(ch)
    chain = "".join(kept)
    return chain if depth == angle == 0 and chain and _SIMPLE_RECV.match(chain) else None


def _type_name(text: str) -> str | None:
    """The name a declared type's text gives (`*pkg.Server` -> `pkg.Server`, `&mut Config<T>` -> `Config`, Python's
    `"Foo"` -> `Foo`), None when it is not one named type (`[]T`, `Foo[]`, `A | B`, `map[K]V`)."""
    text = text.strip()
    if len(text) > MAX_TYPE_TEXT:
        return None
    if len(text) > 1 and text[0] in "\"'" and text[-1] == text[0]:  # a Python annotation written as a string
        text = text[1:-1].strip()
    text = _TYPE_PREFIX.sub("", text).replace("->", ".")  # C++'s `p->make` (a call's callee) as `p.make`
    if text.endswith(">") and "<" in text:  # generic arguments
        text = text[:text.index("<")].removesuffix("::")
    elif text.endswith("]") and 0 < (open_at := text.find("[")) < len(text) - 2:  # `Foo[int]`, not `Foo[]`
        text = text[:open_at]
    return text if _SIMPLE_RECV.match(text) else None


class _Scopes(NamedTuple):
    """For each symbol index: `local`, the innermost function, method or type it is or is in (where a variable
    declared in it lives); `owner`, the innermost type (whose members `self.x` names); -1: none, the file's level."""

    local: list[int]
    owner: list[int]
    is_type: list[bool]


def _scopes(symbols: list[Symbol]) -> _Scopes:
    """The scopes of each symbol index (`_Scopes`)."""
    kinds, parents = [s[2] for s in symbols], [s[8] for s in symbols]
    is_type = [kind in TYPE_KINDS for kind in kinds]
    local, owner = [], []
    for index in range(len(symbols)):
        scope = index
        while scope >= 0 and not is_type[scope] and kinds[scope] not in CALLABLE_KINDS:
            scope = parents[scope]
        local.append(scope)
        while scope >= 0 and not is_type[scope]:
            scope = parents[scope]
        owner.append(scope)
    return _Scopes(local, owner, is_type)


def _declared(scopes: _Scopes, index: int, name: str, on: str | None) -> tuple[int, str] | None:
    """The key of a variable `name` declared at symbol index `index` (-1: the file's level): `(type, ".name")` for a
    member (declared in a type's body, as `self.name` or `this.name` (`on`), or as a constructor's parameter
    property, `on` ""), else `(function, name)`; None for an attribute of anything else."""
    if on is not None:
        owner = scopes.owner[index] if index >= 0 and (on == "" or on in SELF_NAMES) else -1
        return (owner, f".{name}") if owner >= 0 else None
    scope = scopes.local[index] if index >= 0 else -1
    return (scope, f".{name}") if scope >= 0 and scopes.is_type[scope] else (scope, name)


def _called_on(scopes: _Scopes, index: int, recv: str) -> tuple[int, str] | None:
    """The key (`_declared`'s) of the variable a call's receiver `recv` names from symbol index `index`: a name, or a
    member of the type the call is in (`self.x`, `this.x`); None for any other receiver."""
    head, dot, member = recv.partition(".")
    if not dot:
        return (scopes.local[index] if index >= 0 else -1, recv)
    if head in SELF_NAMES and index >= 0 and scopes.owner[index] >= 0 and member.isidentifier():
        return (scopes.owner[index], f".{member}")
    return None


def _typed_locals(src: Source, matches: list[tuple[int, dict]], defs: list[_Def], scopes: _Scopes,
                  symbols: list[Symbol], implicit_this: bool = False, indexed: bool = False,
                  named_containers: bool = False,
                  ) -> tuple[dict[tuple[int, str], str | None], dict[tuple[int, str], str | None]]:
    """(`_declared` key) -> the type a variable or a member is declared with or constructed from (`_type_name`); None
    when it is given more than one type, or one that is not a name. A variable a function's call makes (`@made_by`:
    `x := f()`, typed by what `f` returns) or another variable is copied into (`@copied`: `self.repo = repo`) is typed
    so only where nothing declares it: blocks are not told apart, and a declaration says more than a call whose
    function may return anything. A loop's variable (`@local` of `@iterated`: `for c in carts`) is declared of the
    element type of its container's declared type (`_element_name`), where this file declares the container. The
    elements are given too (key -> element type, None for two), where the file has loops or `indexed` receivers.
    With `named_containers` (a language whose files declare container types: `_container_elements`), a variable of
    a named type holds that type's element (`T.[]`: an attribute of the type, which the resolver reads in the file
    that declares it)."""
    found, loops = [], []
    for _, caps in matches:
        local = caps.get("local")
        if not local:
            continue
        if iterated := caps.get("iterated"):
            loops.append((local[0].start_byte, src.text(local[0]), _iterated(src.text(iterated[0]))))
            continue
        made, weak, copied = caps.get("type"), False, False
        if made is None:
            made, weak = caps.get("made_by"), True
            if made is None:
                made, copied = caps.get("copied"), True
                if made is None:
                    continue
        text = src.text(made[0])
        found.append((local[0].start_byte, src.text(local[0]).lstrip("@"),  # Ruby's `@pricing`
                      text if copied else _call_chain(text) if "(" in text else _type_name(text),  # a chain: `B().c()`
                      "" if caps.get("member") else src.text(caps["object"][0]) if caps.get("object") else None, weak,
                      copied, None if weak or copied else text))
    found.sort(key=_EDGE_BYTE)  # by position alone (`_enclosing` wants them in order); ties keep match order
    typed: dict[tuple[int, str], str | None] = {}
    elements: dict[tuple[int, str], str | None] = {}  # (`_declared` key) -> the element type of its container
    inferred: set[tuple[int, str]] = set()  # the keys typed by calls only (so far)
    for (_, name, type_name, on, weak, copied, declared), index in zip(found, _enclosing(defs, [f[0] for f in found]),
                                                                       strict=True):
        if copied:  # `self.repo = repo`: the copied variable's type, as typed so far (a parameter's, above it)
            of_copied = _called_on(scopes, index, type_name) if type_name is not None else None
            type_name = typed.get(of_copied) if of_copied is not None else None
            if type_name is None:
                continue
            weak = True
        elif type_name is not None and "." in type_name:  # made by a method of a variable typed above (`c.clone()`)
            variable, rest = _chain_head(type_name)
            of_variable = _called_on(scopes, index, variable)
            known = typed.get(of_variable) if of_variable is not None else None
            if known is not None:
                type_name = ".".join((known, *rest))
        key = _declared(scopes, index, name, on)
        if key is None:
            continue
        # A container's element is read only where the file has loops or indexed receivers (`declared`: the declared
        # type's text).
        element = None
        if loops or indexed:
            if declared is not None:
                element = _element_name(declared)
            if element is None and named_containers and type_name is not None:
                # A container type of this file or another, or what a function returns (`pool := testPool()`).
                element = f"{type_name}{ATTRIBUTE_MARK}{ELEMENT}"
        if element is not None and elements.setdefault(key, element) != element:
            elements[key] = None
        _give_type(typed, inferred, key, type_name, weak)
    if loops and elements:  # after every declaration: a field may be declared below the method that loops on it
        loops.sort(key=_EDGE_BYTE)
        types = _types_by_name(symbols, scopes)
        for (_, name, container), index in zip(loops, _enclosing(defs, [loop[0] for loop in loops]), strict=True):
            of = _container_key(scopes, typed, types, index, container, implicit_this) if container else None
            if (element := elements.get(of) if of is not None else None) is not None:
                _give_type(typed, inferred, _declared(scopes, index, name, None), element, False)
    return typed, elements


def _give_type(typed: dict[tuple[int, str], str | None], inferred: set[tuple[int, str]],
               key: tuple[int, str] | None, type_name: str | None, weak: bool) -> None:
    """Give `key` the type `type_name` in `typed`: a declaration (not `weak`) wins over calls' results (`inferred`),
    a call's result is kept only where nothing declares the variable, and two types are None."""
    if key is None or (weak and key in typed and key not in inferred):
        return
    if not weak and key in inferred:
        inferred.discard(key)
        typed[key] = type_name
    elif typed.setdefault(key, type_name) != type_name:
        typed[key] = None
    if weak:
        inferred.add(key)


def _types_by_name(symbols: list[Symbol], scopes: _Scopes) -> dict[str, int]:
    """A type's name -> its symbol index, for the types this file declares once by that name."""
    seen: dict[str, int] = {}
    for index, symbol in enumerate(symbols):
        if scopes.is_type[index]:
            seen[symbol[0]] = -1 if symbol[0] in seen else index
    return {name: index for name, index in seen.items() if index >= 0}


def _container_key(scopes: _Scopes, typed: dict[tuple[int, str], str | None], types: dict[str, int], index: int,
                   container: str, implicit_this: bool) -> tuple[int, str] | None:
    """The key (`_declared`'s) of the container a loop at symbol index `index` iterates: a variable, a member of the
    type it is in (`self.carts`; a bare name, where methods name their members bare), or a member of a variable's type
    this file declares (Go's `s.handlers`, `s` of type `Server`)."""
    key = _variable_key(scopes, typed, index, container, implicit_this)
    if key is not None:
        return key
    head, _, member = container.partition(".")
    of_head = _called_on(scopes, index, head)
    owner = types.get(typed.get(of_head) or "") if of_head is not None else None
    return (owner, f".{member}") if owner is not None and member.isidentifier() else None


# A loop's container, read as a variable: Rust's borrows and iterator calls around it (`&self.carts`, `carts.iter()`).
_ITERATED = re.compile(r"^(?:&\s*(?:mut\s+)?)?(.+?)(?:\.(?:iter|iter_mut|into_iter)\(\))?$", re.DOTALL)


def _iterated(text: str) -> str | None:
    """The variable or member a loop iterates (`&self.carts` -> `self.carts`), None for anything else."""
    found = _ITERATED.match(text.strip())
    return found[1] if found and len(found[1]) <= MAX_CHAIN_TEXT and _SIMPLE_RECV.match(found[1]) else None


# A container's element in a declared type: Go's `[]T`, `[N]T` and `map[K]V`; `T[]`; Swift's `[T]`, Rust's `[T; N]`.
_GO_SEQUENCE = re.compile(r"^(?:\[[^\]]*\]|map\[[^\]]*\])(.+)$", re.DOTALL)


def _element_name(text: str) -> str | None:
    """The type of what a loop over a container of the declared type `text` gives (`list[Cart]`, `List<Cart>`,
    `[]*Cart`, `Cart[]`, `&[Cart]`, `map[string]*Cart` -> `Cart`), None when it is not a container of one named type
    (`dict[str, Cart]`, `Cart`, `[String: Cart]`)."""
    text = _TYPE_PREFIX.sub("", text.strip()).removesuffix("?")
    if len(text) > MAX_TYPE_TEXT:
        return None
    if sequence := _GO_SEQUENCE.match(text):
        inner = sequence[1]
    elif text.endswith("[]"):
        inner = text[:-2]
    elif text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].partition(";")[0]
        if ":" in inner:
            return None
    else:  # a generic of one parameter: `list[Cart]`, `List<Cart>`, `Vec<Cart>`
        opened = min((at for at in (text.find("<"), text.find("[")) if at > 0), default=0)
        if not opened or not text.endswith((">", "]")):
            return None
        inner = text[opened + 1:-1]  # two parameters (a map's keys and values, a pair) are no one name below
    return _type_name(inner)


def _bases(src: Source, matches: list[tuple[int, dict]], defs: list[_Def], symbols: list[Symbol],
           separator: str) -> list[tuple[int, tuple[str, ...]]]:
    """(class's symbol index, its bases' names in order) from the locals matches that capture `@base`: the class is
    the innermost definition around the base's name; a base that is not a type's name (`mixin(A)`) is left out. A
    function's declared return type (`@returns`) is kept the same way, as its one base: what a variable it makes is
    (only a function's or a method's: a declaration that is no symbol gives its enclosing type none)."""
    found = []
    for _, caps in matches:
        node, returned = caps.get("base"), False
        if node is None:
            node, returned = caps.get("returns"), True
            if node is None:
                continue
        name = _type_name(src.text(node[0]))
        if name is not None and not (returned and name in _NO_RESULT):
            found.append((node[0].start_byte, name, returned))
    found.sort()
    bases: dict[int, list[str]] = {}
    by_index: dict[int, _Def] = {}
    for (_, name, returned), index in zip(found, _enclosing(defs, [f[0] for f in found]), strict=True):
        if index >= 0 and returned and name in _OWN_TYPE:
            # `-> Self`, `: static`: the method's own type, the scope it is written in (an `impl`'s, in any file)
            by_index = by_index or {d.index: d for d in defs if d.index >= 0}
            name = by_index[index].scoped_name.rpartition(separator)[0]
        if index >= 0 and name and (not returned or symbols[index][2] in CALLABLE_KINDS):
            bases.setdefault(index, []).append(name)
    return [(index, tuple(names)) for index, names in bases.items()]


# What a function declares it returns when it returns nothing (`-> None`, `void`): no type to keep.
_NO_RESULT = frozenset({"None", "void"})
# What a method declares it returns when it returns its own type: Rust's and Swift's `Self`, PHP's `self` and `static`,
# TypeScript's `this`.
_OWN_TYPE = frozenset({"Self", "self", "static", "this"})
# How a `bases` entry of an attribute marks its name: (type's index, (".stdout", "LineMatcher")); a base is never
# written so.
ATTRIBUTE_MARK = "."
# The attribute a container type gives its element by (`type UpstreamPool []*Upstream`: (".[]", "Upstream")): no
# member is named so.
ELEMENT = "[]"


def _container_elements(src: Source, matches: list[tuple[int, dict]],
                        symbols: list[Symbol]) -> list[tuple[int, tuple[str, ...]]]:
    """(type's symbol index, (".[]", its element type's name)) of each container type the file declares at its top
    level (`@container`: Go's `type UpstreamPool []*Upstream`): kept with the bases, as an attribute, so that an
    element of a variable of it, in this file or another (`pool[1]`, `for _, u := range pool`), is of the element
    type."""
    elements = {src.text(caps["container"][0]): element for _, caps in matches
                if "container" in caps and (element := _element_name(src.text(caps["type"][0]))) is not None}
    return [(index, (ATTRIBUTE_MARK + ELEMENT, elements[symbol[0]])) for index, symbol in enumerate(symbols)
            if symbol[8] < 0 and symbol[0] in elements and symbol[2] in TYPE_KINDS]


def _variable_types(symbols: list[Symbol], typed: dict[tuple[int, str], str | None],
                    ) -> list[tuple[int, tuple[str, ...]]]:
    """(symbol index, (its type's name,)) of each variable of the file's level and each field whose type is known (`Q =
    AssumptionKeys()`, `export const client = new QueryClient()`, `private Pricing pricing;`): kept with the classes'
    bases, a call on it through an import (`Q.finite()` after `from sympy import Q`) names a method of that type, and
    so does a call on a field of a variable's type (`cart.pricing.price()`)."""
    return [(index, (type_name,)) for index, symbol in enumerate(symbols) if symbol[2] in VALUE_KINDS
            and (type_name := typed.get((-1, symbol[0]) if symbol[8] < 0 else (symbol[8], f".{symbol[0]}")))]


def _attribute_types(symbols: list[Symbol], typed: dict[tuple[int, str], str | None],
                     ) -> list[tuple[int, tuple[str, ...]]]:
    """(type's symbol index, (".attribute", its type's name)) of each attribute the type's methods give a known type
    where the type declares no member of that name (Python's `self.stdout = LineMatcher()`, JavaScript's `this.client
    = new Client()`): kept with the bases, a call on the attribute of a variable of the type in another file
    (`result.stdout.fnmatch_lines()`) names a method of the attribute's type."""
    members = {(symbol[8], symbol[0]) for symbol in symbols if symbol[8] >= 0}
    return sorted((owner, (member, type_name)) for (owner, member), type_name in typed.items()
                  if owner >= 0 and type_name and member.startswith(ATTRIBUTE_MARK)
                  and (owner, member[1:]) not in members)


def _edges(rules: LanguageRules, src: Source, calls: list[tuple[int, dict]], imports: list[tuple[int, dict]],
           defs: list[_Def], path: str, module: str, typed: dict[tuple[int, str], str | None] | None = None,
           scopes: _Scopes | None = None, elements: dict[tuple[int, str], str | None] | None = None,
           symbols: list[Symbol] | None = None) -> tuple[list[tuple], str]:
    """Edges as plain tuples in Edge field order (they are the bulk of a file's record: kept cheap). A call on a
    variable `typed` knows (`_typed_locals`; `scopes`: `_scopes`) carries the variable's type in its hint, and a call
    on an element of a container (`carts[0].total()`) the container's element type (`elements`; `symbols`: the
    file's, for a container that is a member of a variable's type)."""
    sep = rules.separator
    raw: list[tuple] = []  # (byte, 0 import | 1 call, line, type, to_name, hint, binding)
    import_texts: list[str] = []
    for _, caps in imports:
        node = caps["import"][0]
        line = node.start_point.row + 1
        named: set[str] = set()
        for to_name, hint, binding in rules.imports_of(src, node, caps, path, module):
            raw.append((node.start_byte, 0, line, "import", to_name, hint, binding))
            named.update(word.lower() for word in words(f"{to_name} {binding or ''}"))
        import_texts.append(_imported(src.text(node), named))
    data = src.data
    simple = _SIMPLE_RECV.match
    append = raw.append
    indexed: dict[int, str] = {}  # a call's byte -> the container its receiver indexes (`carts` of `carts[0]`)
    for _, caps in calls:
        callee_node = caps["callee"][0]  # the reference's position: where the called name is written
        start = callee_node.start_byte
        callee = data[start:callee_node.end_byte].decode("utf-8", "replace")
        line = callee_node.start_point.row + 1
        recv_nodes = caps.get("recv")
        if recv_nodes:
            r = recv_nodes[0]
            r_start, r_end = r.start_byte, r.end_byte
            if r_end - r_start <= MAX_CHAIN_TEXT:
                recv = data[r_start:r_end].decode("utf-8", "replace")
                if len(recv_nodes) > 1:  # captured in parts (C++'s `shop::Cart::make()`): joined
                    recv = sep.join(data[n.start_byte:n.end_byte].decode("utf-8", "replace") for n in recv_nodes)
                if rules.receiver is not None:
                    recv = rules.receiver(recv)
                if _SUPER_CALL.match(recv) or recv == rules.super_name:
                    recv = "super"
                if recv != "?" and r_end - r_start <= 80 and simple(recv):
                    append((start, 1, line, "call", f"{recv}{sep}{callee}", ("call", callee, recv), None))
                    continue
                if elements and (of_index := _INDEXED_RECV.match(recv)):
                    indexed[start] = of_index[1]
                # A receiver that is a call (`make_cart().add()`, `Builder().build().adapter()`): the type its chain
                # names (what `Builder.build` returns) goes in the hint; the target's text stays the callee's.
                chain = _call_chain(recv) if "(" in recv and recv != "super" else None
                if chain is not None:
                    append((start, 1, line, "call", callee, ("call", callee, "?", chain), None))
                    continue
            append((start, 1, line, "call", callee, ("call", callee, "?"), None))
        else:
            append((start, 1, line, "call", callee, ("call", callee, None), None))
    # Imports before calls at one position; the sort is stable, so ties keep match order.
    raw.sort(key=_EDGE_ORDER)
    sources = _enclosing(defs, list(map(_EDGE_BYTE, raw)))
    edges = [(source, line, edge_type, to_name, hint, binding)
             for (_, _, line, edge_type, to_name, hint, binding), source in zip(raw, sources, strict=True)]
    if typed and scopes is not None:
        names = {name.lstrip(".") for _, name in typed}  # what a receiver typed ends with: a quick test first
        types = _types_by_name(symbols, scopes) if indexed and symbols is not None else {}
        for k, (source, line, edge_type, to_name, hint, binding) in enumerate(edges):
            receiver = hint[2] if edge_type == "call" else None
            if (container := indexed.get(raw[k][0]) if indexed and edge_type == "call" else None) is not None:
                of = _container_key(scopes, typed, types, source, container, rules.implicit_this)
                if (element := elements.get(of) if elements and of is not None else None) is not None:
                    edges[k] = (source, line, edge_type, to_name, (*hint[:3], element), binding)
                continue
            if receiver == "?" and len(hint) > 3:  # a chain whose first name may be a variable typed above
                type_name = _chain_type(rules, scopes, typed, names, source, hint[3])
                if type_name is not None:
                    edges[k] = (source, line, edge_type, to_name, (*hint[:3], type_name), binding)
            elif receiver is not None:
                type_name = _variable_type(rules, scopes, typed, source, receiver) \
                    if receiver.rpartition(".")[2] in names else None
                if type_name is None and "." in receiver:  # a field of a variable's type: `cart.pricing.price()`
                    type_name = _chain_type(rules, scopes, typed, names, source, receiver)
                if type_name is not None:
                    edges[k] = (source, line, edge_type, to_name, (*hint, type_name), binding)
    return edges, "\n".join(import_texts)[:MAX_IMPORTS_TEXT]


def _imported(statement: str, named: set[str]) -> str:
    """The words of an import statement that name what it imports (`named`: its modules, names and aliases), as the
    snippets' imports field indexes them. Its keywords (`from`, `import`, `as`, `use`, `#include`) are in nearly every
    file's imports, so they tell no two apart, and a question's `from` or `as` matched every snippet of a Python file.
    A statement the rules read no name from keeps its text."""
    if not named:
        return statement
    return " ".join(word for word in words(statement) if word.lower() in named)


def _chain_head(chain: str) -> tuple[str, list[str]]:
    """A dotted chain's first variable (a name, or `self.x`) and the names after it."""
    parts = chain.split(".")
    cut = 2 if parts[0] in SELF_NAMES and len(parts) > 2 else 1
    return ".".join(parts[:cut]), parts[cut:]


def _chain_type(rules: LanguageRules, scopes: _Scopes, typed: dict[tuple[int, str], str | None], names: set[str],
                source: int, chain: str) -> str | None:
    """A dotted chain with its first variable (`_chain_head`) put as the type `typed` knows it by (`c.clone` ->
    `Cart.clone`), or None when no type is known for it (`names`: the last parts of `typed`'s names, a quick test)."""
    variable, rest = _chain_head(chain)
    head = _variable_type(rules, scopes, typed, source, variable) if variable.rpartition(".")[2] in names else None
    return None if head is None else ".".join((head, *rest))


def _variable_type(rules: LanguageRules, scopes: _Scopes, typed: dict[tuple[int, str], str | None], source: int,
                   receiver: str) -> str | None:
    """The type `typed` knows the variable or member `receiver` by, from the symbol `source` (`_variable_key`)."""
    key = _variable_key(scopes, typed, source, receiver, rules.implicit_this)
    return typed.get(key) if key is not None else None


def _variable_key(scopes: _Scopes, typed: dict[tuple[int, str], str | None], source: int, receiver: str,
                  implicit_this: bool) -> tuple[int, str] | None:
    """The key (`_declared`'s) of the variable or member `receiver` names from the symbol `source` (`_called_on`; a
    bare name no local has, where methods name their members bare (`implicit_this`): the class's member)."""
    key = _called_on(scopes, source, receiver)
    if implicit_this and key is not None and key not in typed and source >= 0 and scopes.owner[source] >= 0 \
            and "." not in receiver:
        return (scopes.owner[source], f".{receiver}")  # no local of that name: the class's member
    return key


_EDGE_ORDER = itemgetter(0, 1)  # (byte, 0 import | 1 call)
_EDGE_BYTE = itemgetter(0)


def _snippet_regions(symbols: list[Symbol], line_count: int) -> list[tuple[int, int]]:
    """Top-level symbol spans (long ones windowed), and the lines between them in windows."""
    regions: list[tuple[int, int]] = []
    covered_to = 0

    def windows(start: int, end: int) -> None:
        while start <= end:
            stop = min(end, start + SNIPPET_LINES - 1)
            regions.append((start, stop))
            start = stop + 1

    for s in symbols:
        if s.parent != -1 or s.line_end <= covered_to:
            continue
        if s.line_start > covered_to + 1:
            windows(covered_to + 1, s.line_start - 1)
        start = max(s.line_start, covered_to + 1)
        if s.line_end - start < SNIPPET_LINES * 3:
            regions.append((start, s.line_end))
        else:
            windows(start, s.line_end)
        covered_to = s.line_end
    if covered_to < line_count:
        windows(covered_to + 1, line_count)
    return regions


def _partition(matches: list[tuple[int, dict]], *firsts: int) -> list[list[tuple[int, dict]]]:
    """The matches of each group of patterns (`firsts`: the first pattern index of each group after the first), each
    in match order."""
    groups: list[list[tuple[int, dict]]] = [[] for _ in range(len(firsts) + 1)]
    for match in matches:
        groups[bisect_right(firsts, match[0])].append(match)
    return groups


def _exports(src: Source, matches: list[tuple[int, dict]]) -> list[tuple[str, str]]:
    """(exported name, local name) of each exports match: `default` for `export default`."""
    found = []
    for _, caps in matches:
        local = src.text(caps["local"][0])
        exported = "default" if caps.get("default") else src.text(caps["exported"][0]) if caps.get("exported") \
            else local
        found.append((exported, local))
    return found


def extract(path: str, data: bytes, language: str | None, grammar_name: str | None,
            digest: str | None = None, module: str | None = None) -> FileExtract:
    """Extract one file (`digest`: its content_hash when the caller has it; `module`: its module path in the tree's
    layout, `packages.Layout`, else the one its path alone gives); parse errors are counted."""
    text_lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    result = FileExtract(path=path, language=language, size=len(data), content_hash=digest or content_hash(data),
                         line_count=text_lines)
    src = Source(data)
    result.content_head = expand(data[:CONTENT_HEAD].decode("utf-8", "ignore"))
    result.search_path = expand(path)
    result.search_filename = expand(path.rsplit("/", 1)[-1])
    if language is not None and grammar_name is not None:
        g = grammar(grammar_name)
        rules = LANGUAGES[language]
        tree = g.parser.parse(data if rules.parse_text is None else rules.parse_text(data))
        root = tree.root_node
        if root.has_error:
            result.parse_errors = max(1, len(QueryCursor(g.errors).captures(root).get("error", [])))
        result.module = rules.module_of(path) if module is None else module
        if rules.package_of is not None:
            result.module = rules.package_of(src, root) or result.module
        defs_m, calls_m, imports_m, locals_m, exports_m = _partition(
            QueryCursor(g.query).matches(root), g.calls_from, g.imports_from, g.locals_from, g.exports_from)
        defs = _definitions(rules, src, defs_m)
        result.symbols = _symbols(rules, path, result.module, src, defs)
        scopes = _scopes(result.symbols) if locals_m else None
        named_containers = language in NAMED_CONTAINERS
        typed, elements = _typed_locals(src, locals_m, defs, scopes, result.symbols, rules.implicit_this,
                                        b"]." in data, named_containers) if scopes is not None else (None, None)
        result.edges, imports_text = _edges(rules, src, calls_m, imports_m, defs, path, result.module, typed, scopes,
                                            elements, result.symbols)
        result.imports_text = expand(imports_text)
        result.exports = _exports(src, exports_m)
        result.bases = _bases(src, locals_m, defs, result.symbols, rules.separator) if locals_m else []
        if typed:
            result.bases.extend(_variable_types(result.symbols, typed))
            result.bases.extend(_attribute_types(result.symbols, typed))
        if named_containers:
            result.bases.extend(_container_elements(src, locals_m, result.symbols))
    for start, end in _snippet_regions(result.symbols, text_lines):
        body = src.expanded(start, end)
        if body.strip():
            result.snippets.append((start, end, body))
    return result
