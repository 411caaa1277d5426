"""Per-file extraction with tree-sitter: symbols, reference edges and the text the search indices need.

Qualified names (one rule per language, documented in docs/index.md):
- Python: the dotted module path of the file (a leading `src/` dropped, `__init__` is the
  package) + enclosing classes/functions: `settings.config.Config.parse`.
- Rust: the module path from the file (`src/` dropped; `lib.rs`/`main.rs` are the crate root,
  `mod.rs` its directory) + `mod` items + the `impl` type: `app::config::Config::new`.
- TypeScript, JavaScript, Go: parent-qualified: `UserServiceFactory.build`, `Server.Handle`.
"""

from __future__ import annotations

import bisect
import hashlib
import marshal
import re
from dataclasses import dataclass, field
from itertools import accumulate, count, repeat
from operator import add, itemgetter
from typing import NamedTuple

from tree_sitter import Node, QueryCursor

from .kinds import kinds_of
from .languages import grammar
from .tokens import camel_runs, expand, with_humps

MAX_SIGNATURE = 240
MAX_SYMBOL_CONTENT = 800  # body text indexed per symbol (its head); the snippets carry the rest
SNIPPET_LINES = 40
MAX_IMPORTS_TEXT = 2000
CONTENT_HEAD = 2000

TYPE_KINDS = kinds_of("type")
CONTAINER_KINDS = kinds_of("type", "namespace")
SCOPE_KINDS = kinds_of("type", "namespace", "callable") | {"impl"}  # a Rust impl block is a scope, not a kind
_SIMPLE_RECV = re.compile(r"^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*$")
_UPPER = re.compile(r"^_*[A-Z][A-Z0-9_]*$")
# A string literal's prefix and opening quote, and its closing quote (see _strip_quotes).
_OPENING_QUOTE = re.compile(r"[rRbBuUfF]*(?:\"\"\"|\'\'\'|\"|')")
_CLOSING_QUOTE = re.compile(r"(?:\"\"\"|\'\'\'|\"|')$")


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
    ("call", callee, receiver|None) or ("import", target[, name]).
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

    def dumps(self) -> bytes:
        """A compact record of the extract (marshal: fast to write, to read and to store)."""
        return marshal.dumps((
            self.path, self.language, self.size, self.content_hash, self.line_count, self.parse_errors, self.module,
            [tuple(x) for x in self.symbols], self.edges, self.snippets, self.imports_text,
            self.content_head, self.search_path, self.search_filename))

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


def python_module(path: str) -> str:
    """Dotted module path of a Python file: `src/auth/tokens.py` -> `auth.tokens`."""
    parts = path.split("/")
    if len(parts) > 1 and parts[0] == "src":
        parts = parts[1:]
    last = parts[-1].rsplit(".", 1)[0]
    parts = parts[:-1] + ([] if last == "__init__" else [last])
    return ".".join(parts)


def rust_module(path: str) -> str:
    """Module path of a Rust file: `src/app/config.rs` -> `app::config`, `src/lib.rs` -> ``."""
    parts = path.split("/")
    if len(parts) > 1 and parts[0] == "src":
        parts = parts[1:]
    last = parts[-1].rsplit(".", 1)[0]
    if last in ("mod", "lib", "main") and (last == "mod" or len(parts) == 1):
        parts = parts[:-1]
    else:
        parts = parts[:-1] + [last]
    return "::".join(parts)


class _Source:
    """The file's bytes with cheap line/text access; camelCase runs are found once per file."""

    __slots__ = ("data", "lines", "run_lines", "run_words", "decoded", "offsets")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.lines: list[str] | None = None
        self.run_lines: list[int] = []
        self.run_words: list[str] = []
        self.decoded = ""
        self.offsets: list[int] = []  # where each line starts in `decoded` (and one past the end)

    def text(self, node: Node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def _load(self) -> list[str]:
        data = self.data
        self.decoded = data.decode("utf-8", "replace")
        self.lines = self.decoded.split("\n")  # rows as tree-sitter counts them
        self.offsets = _line_starts(self.lines)
        runs = camel_runs(data)
        if runs:
            # A run's line: how many lines start at or before its byte offset (bisected in C, run by run).
            positions, words = zip(*runs)
            starts = self.offsets if data.isascii() else _line_starts(data.split(b"\n"))
            self.run_lines = list(map(bisect.bisect_right, repeat(starts, len(positions)), positions))
            self.run_words = list(words)
        return self.lines

    def line_text(self, start: int, end: int) -> str:
        """Lines start..end (1-based, inclusive)."""
        return self._slice(start, end, None)

    def _slice(self, start: int, end: int, cap: int | None) -> str:
        # One slice of the decoded text, not a join of the lines: the same string, cut at `cap` up front.
        lines = self.lines if self.lines is not None else self._load()
        if start < 1:
            text = "\n".join(lines[start - 1:end])
            return text if cap is None else text[:cap]
        end = min(end, len(lines))
        if start > end:
            return ""
        begin, stop = self.offsets[start - 1], self.offsets[end] - 1
        if cap is not None:
            stop = min(stop, begin + cap)
        return self.decoded[begin:stop]

    def expanded(self, start: int, end: int, cap: int | None = None) -> str:
        """Lines start..end (cut at `cap` characters) plus the humps of the camelCase runs on those lines."""
        text = self._slice(start, end, cap)
        lo = bisect.bisect_left(self.run_lines, start)
        hi = bisect.bisect_right(self.run_lines, end)
        return with_humps(text, self.run_words[lo:hi]) if hi > lo else text


def _line_starts(lines: list) -> list[int]:
    """Where each of `lines` starts once joined with one-character separators, and one past the end."""
    return [0, *map(add, accumulate(map(len, lines)), count(1))]


def _signature(src: _Source, node: Node, body: Node | None) -> str:
    """The definition's head (up to its `body` node), whitespace squeezed."""
    if body is not None and body.start_byte > node.start_byte:
        text = src.data[node.start_byte:body.start_byte].decode("utf-8", "replace")
    else:
        text = src.data[node.start_byte:min(node.end_byte, node.start_byte + 400)].decode("utf-8", "replace")
        text = text.split("\n", 1)[0]
    text = " ".join(text.split()).rstrip("{:").rstrip()  # whitespace runs squeezed to one space, ends stripped
    return text[:MAX_SIGNATURE]


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


def _python_doc(src: _Source, body: Node | None) -> str | None:
    """The first line of the docstring opening `body`."""
    if body is None or body.named_child_count == 0:
        return None
    first = body.named_child(0)
    if first.type == "expression_statement" and first.named_child_count:
        first = first.named_child(0)
    if first.type == "string":
        text = _strip_quotes(src.text(first))
        return text.strip().split("\n", 1)[0].strip()[:MAX_SIGNATURE] or None
    return None


def _visibility(language: str, name: str, node: Node, kind: str) -> str | None:
    if language == "python":
        return "private" if name.startswith("_") and not name.endswith("__") else "public"
    if language == "go":
        return "public" if name[:1].isupper() else "private"
    if language == "rust":
        return "public" if any(c.type == "visibility_modifier" for c in node.children) else "private"
    # TypeScript / JavaScript: members by modifier, top level by `export`.
    if kind in ("method", "field"):
        if name.startswith("#"):
            return "private"
        for c in node.children:
            if c.type == "accessibility_modifier":
                return c.text.decode() if c.text else "public"
        return "public"
    probe = node.parent
    while probe is not None and probe.type in ("lexical_declaration", "variable_declaration"):
        probe = probe.parent
    return "public" if probe is not None and probe.type == "export_statement" else "private"


def _node_kind(language: str, capture: str, name: str, node: Node, extra: dict[str, Node]) -> str:
    """The canonical kind of a definition capture (language rules that a query cannot say)."""
    if capture == "type":  # Go type_spec: the body's type decides
        body = extra.get("body")
        btype = body.type if body is not None else ""
        return "struct" if btype == "struct_type" else "interface" if btype == "interface_type" else "type_alias"
    if capture == "variable":
        if language == "python":
            return "constant" if _UPPER.match(name) else "variable"
        if language in ("typescript", "javascript"):
            value = node.child_by_field_name("value")
            if value is not None and value.type in ("arrow_function", "function_expression", "function",
                                                    "generator_function"):
                return "function"
            decl = node.parent
            is_const = decl is not None and decl.child_count > 0 and decl.children[0].type == "const"
            return "constant" if is_const and _UPPER.match(name) else "variable"
    return capture


class _Def:
    __slots__ = ("start", "end", "kind", "name", "node", "extra", "parent", "index", "owner")

    def __init__(self, start: int, end: int, kind: str, name: str, node: Node, extra: dict[str, Node]) -> None:
        self.start, self.end, self.kind, self.name, self.node, self.extra = start, end, kind, name, node, extra
        self.parent: _Def | None = None  # enclosing definition or impl scope
        self.index = -1                  # position in the symbol list (impl scopes have none)
        self.owner: str | None = None    # Rust impl type / Go receiver type


def _receiver_type(src: _Source, node: Node | None) -> str | None:
    if node is None:
        return None
    text = src.text(node).lstrip("*&").strip()
    text = text.split("<", 1)[0].split("[", 1)[0]
    return text.rsplit("::", 1)[-1].rsplit(".", 1)[-1] or None


_NOT_KINDS = frozenset({"name", "recv", "body"})


def _definitions(language: str, src: _Source, matches: list[tuple[int, dict]]) -> list[_Def]:
    defs: list[_Def] = []
    seen: set[int] = set()
    for _, caps in matches:
        for kind in caps:  # the capture named after the kind
            if kind not in _NOT_KINDS:
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
        extra = {k: v[0] for k, v in caps.items() if k in ("recv", "body")}
        if kind == "impl":
            d = _Def(node.start_byte, node.end_byte, "impl", "", node, extra)
            d.owner = _receiver_type(src, name_node)
        else:
            name = src.text(name_node)
            d = _Def(node.start_byte, node.end_byte, _node_kind(language, kind, name, node, extra), name, node, extra)
            if "recv" in extra:
                d.owner = _receiver_type(src, extra["recv"])
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


def _symbols(language: str, path: str, module: str, src: _Source, defs: list[_Def]) -> list[Symbol]:
    sep = "::" if language == "rust" else "."
    symbols: list[tuple] = []  # Symbol fields, content and search_signature still empty
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
            parent = types.get(owner_name or "") or parent.parent
            while parent is not None and parent.kind == "impl":
                parent = parent.parent
        elif language == "go" and d.kind == "method" and d.owner:
            parent = types.get(d.owner)
        kind = d.kind
        if kind == "function" and (d.parent is not None and d.parent.kind in ("impl", "trait", "class", "interface")):
            kind = "method"
        d.parent = parent  # from here on: the parent symbol (impl scopes resolved)
        chain: list[str] = []
        probe = parent
        while probe is not None:
            chain.append(probe.name)
            probe = probe.parent
        chain.reverse()
        if owner_name and (parent is None or parent.name != owner_name):
            chain.append(owner_name)
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
        if end_point.column == 0 and line_end > line_start:
            line_end -= 1
        d.index = len(symbols)
        body = node.child_by_field_name("body")
        # Positional, in Symbol field order (content and search_signature are filled in below).
        symbols.append((
            d.name, qualified, kind, line_start, line_end, _signature(src, node, body),
            _visibility(language, d.name, node, kind),
            _python_doc(src, body) if language == "python" and kind in SCOPE_KINDS else None,
            parent.index if parent is not None else -1, stable_id(language, path, kind, qualified, ordinal), "",
            expand(d.name), _expand_qualified(qualified, outer, d.name, outer_humps), ""))
    # A container's body text is its members' text: index only its head (up to the first member).
    first_child: dict[int, int] = {}
    for sym in symbols:
        if sym[8] >= 0 and sym[8] not in first_child:
            first_child[sym[8]] = sym[3]
    out: list[Symbol] = []
    for i, (name, qualified, kind, line_start, line_end, signature, visibility, doc, parent, stable, _,
            search_name, search_qualified, _) in enumerate(symbols):
        end = line_end
        if i in first_child and kind in CONTAINER_KINDS:
            end = max(line_start, min(end, first_child[i] - 1))
        out.append(Symbol(name, qualified, kind, line_start, line_end, signature, visibility, doc, parent, stable,
                          src.expanded(line_start, end, MAX_SYMBOL_CONTENT), search_name, search_qualified,
                          expand(signature)))
    return out


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


def _imported_name(src: _Source, name: Node) -> tuple[str, str | None]:
    """(imported dotted name, alias or None) of one name of a Python import."""
    if name.type == "aliased_import":
        return src.text(name.child_by_field_name("name")), src.text(name.child_by_field_name("alias"))
    return src.text(name), None


def _python_imports(src: _Source, node: Node, module: str, is_package: bool) -> list[tuple[str, tuple, str | None]]:
    out: list[tuple[str, tuple, str | None]] = []
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
        package = module.split(".") if is_package else module.split(".")[:-1]
        base = package[:len(package) - (level - 1)] if level > 1 else package
        target_module = ".".join(base + ([rest] if rest else []))
    else:
        target_module = rest
    for name in node.children_by_field_name("name"):
        imported, alias = _imported_name(src, name)
        binding = alias or imported
        target = f"{target_module}.{imported}" if target_module else imported
        out.append((target, ("import", target), binding))
    return out


def _rust_use_paths(src: _Source, node: Node, prefix: str) -> list[tuple[str, str]]:
    """(full path, binding) of every name a `use` argument brings in."""
    t = node.type
    if t == "use_as_clause":
        path = src.text(node.child_by_field_name("path"))
        return [(prefix + path, src.text(node.child_by_field_name("alias")))]
    if t == "scoped_use_list":
        path_node = node.child_by_field_name("path")
        head = prefix + (src.text(path_node) + "::" if path_node is not None else "")
        return _rust_use_paths(src, node.child_by_field_name("list"), head)
    if t == "use_list":
        out: list[tuple[str, str]] = []
        for child in node.named_children:
            out.extend(_rust_use_paths(src, child, prefix))
        return out
    if t in ("use_wildcard",):
        return []
    path = prefix + src.text(node)
    last = path.rsplit("::", 1)[-1]
    if last == "self":
        path = path[: -len("::self")]
        last = path.rsplit("::", 1)[-1]
    return [(path, last)]


def _js_imports(src: _Source, node: Node, source: str) -> list[tuple[str, tuple, str | None]]:
    out: list[tuple[str, tuple, str | None]] = []
    clause = next((c for c in node.named_children if c.type == "import_clause"), None)
    if clause is None:
        return [(source, ("import", source, None), None)]
    for part in clause.named_children:
        if part.type == "identifier":
            out.append((f"{source}.default", ("import", source, "default"), src.text(part)))
        elif part.type == "namespace_import":
            ident = next((c for c in part.named_children if c.type == "identifier"), None)
            out.append((source, ("import", source, None), src.text(ident) if ident is not None else None))
        elif part.type == "named_imports":
            for spec in part.named_children:
                if spec.type != "import_specifier":
                    continue
                name = src.text(spec.child_by_field_name("name"))
                alias = spec.child_by_field_name("alias")
                out.append((f"{source}.{name}", ("import", source, name), src.text(alias) if alias is not None else name))
    return out


def _edges(language: str, src: _Source, calls: list[tuple[int, dict]], imports: list[tuple[int, dict]],
           defs: list[_Def], module: str, is_package: bool) -> tuple[list[tuple], str]:
    """Edges as plain tuples in Edge field order (they are the bulk of a file's record: kept cheap)."""
    sep = "::" if language == "rust" else "."
    raw: list[tuple] = []  # (byte, 0 import | 1 call, line, type, to_name, hint, binding)
    import_texts: list[str] = []
    for _, caps in imports:
        node = caps["import"][0]
        line = node.start_point.row + 1
        import_texts.append(src.text(node))
        if language == "python":
            found = _python_imports(src, node, module, is_package)
        elif language == "rust":
            found = [(p, ("import", p), b) for p, b in _rust_use_paths(src, caps["use"][0], "")]
        elif language == "go":
            path = src.text(caps["path"][0]).strip("\"`")
            alias = node.child_by_field_name("name")
            found = [(path, ("import", path), src.text(alias) if alias is not None else path.rsplit("/", 1)[-1])]
        else:
            found = _js_imports(src, node, src.text(caps["source"][0]))
        for to_name, hint, binding in found:
            raw.append((node.start_byte, 0, line, "import", to_name, hint, binding))
    data = src.data
    simple = _SIMPLE_RECV.match
    append = raw.append
    for _, caps in calls:
        callee_node = caps["callee"][0]  # the reference's position: where the called name is written
        start = callee_node.start_byte
        callee = data[start:callee_node.end_byte].decode("utf-8", "replace")
        line = callee_node.start_point.row + 1
        recv_nodes = caps.get("recv")
        if recv_nodes:
            r = recv_nodes[0]
            r_start, r_end = r.start_byte, r.end_byte
            if r_end - r_start <= 80:
                recv = data[r_start:r_end].decode("utf-8", "replace")
                if recv != "?" and simple(recv):
                    append((start, 1, line, "call", f"{recv}{sep}{callee}", ("call", callee, recv), None))
                    continue
            append((start, 1, line, "call", callee, ("call", callee, "?"), None))
        else:
            append((start, 1, line, "call", callee, ("call", callee, None), None))
    # Imports before calls at one position; the sort is stable, so ties keep match order.
    raw.sort(key=_EDGE_ORDER)
    sources = _enclosing(defs, [r[0] for r in raw])
    edges = [(source, r[2], r[3], r[4], r[5], r[6]) for r, source in zip(raw, sources)]
    return edges, "\n".join(import_texts)[:MAX_IMPORTS_TEXT]


_EDGE_ORDER = itemgetter(0, 1)  # (byte, 0 import | 1 call)


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


def _partition(matches: list[tuple[int, dict]], calls_from: int,
               imports_from: int) -> tuple[list[tuple[int, dict]], list[tuple[int, dict]], list[tuple[int, dict]]]:
    """The matches of the definitions, calls and imports patterns, each in match order."""
    defs: list[tuple[int, dict]] = []
    calls: list[tuple[int, dict]] = []
    imports: list[tuple[int, dict]] = []
    for match in matches:
        index = match[0]
        (defs if index < calls_from else calls if index < imports_from else imports).append(match)
    return defs, calls, imports


def extract(path: str, data: bytes, language: str | None, grammar_name: str | None,
            digest: str | None = None) -> FileExtract:
    """Extract one file (`digest`: its content_hash when the caller has it); parse errors are counted."""
    text_lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    result = FileExtract(path=path, language=language, size=len(data), content_hash=digest or content_hash(data),
                         line_count=text_lines)
    src = _Source(data)
    result.content_head = expand(data[:CONTENT_HEAD].decode("utf-8", "ignore"))
    result.search_path = expand(path)
    result.search_filename = expand(path.rsplit("/", 1)[-1])
    if language is not None and grammar_name is not None:
        g = grammar(grammar_name)
        tree = g.parser.parse(data)
        root = tree.root_node
        if root.has_error:
            result.parse_errors = max(1, len(QueryCursor(g.errors).captures(root).get("error", [])))
        is_package = path.rsplit("/", 1)[-1].startswith("__init__.")
        if language == "python":
            result.module = python_module(path)
        elif language == "rust":
            result.module = rust_module(path)
        defs_m, calls_m, imports_m = _partition(QueryCursor(g.query).matches(root), g.calls_from, g.imports_from)
        defs = _definitions(language, src, defs_m)
        result.symbols = _symbols(language, path, result.module, src, defs)
        result.edges, imports_text = _edges(language, src, calls_m, imports_m, defs, result.module, is_package)
        result.imports_text = expand(imports_text)
    for start, end in _snippet_regions(result.symbols, text_lines):
        body = src.expanded(start, end)
        if body.strip():
            result.snippets.append((start, end, body))
    return result
