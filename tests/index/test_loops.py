"""A loop's variable is of the element type of the container it iterates: `for c in carts` with `carts: list[Cart]`
(Python), `for _, c := range s.carts` with a field `carts []*Cart` (Go), `for (const c of carts)` with `Cart[]`
(TypeScript), `for c in &carts` with `&[Cart]` (Rust), `foreach (var c in carts)` (C#), `for (var c : carts)` (Java);
so `c.add()` names the element type's method. A container of two types (a map's keys and values, a pair) gives none,
and neither does a loop over a map's keys."""

from __future__ import annotations

import pytest

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import _element_name, _iterated

from .conftest import resolved_calls, write_tree

TREE = {
    "shop.py": "class Cart:\n    def add(self) -> None:\n        pass\n\n\nclass Till:\n    carts: list[Cart]\n\n"
               "    def run(self, more: list[Cart], named: dict[str, Cart]) -> None:\n"
               "        for c in self.carts:\n            c.add()\n        for d in more:\n            d.add()\n"
               "        for k in named:\n            k.add()\n        for o in more:\n            o.add()\n"
               "        o: Till = self\n\n    def twice(self, items: list[Cart]) -> None:\n        for i in items:\n"
               "            i.add()\n        items: list[Till] = []\n",
    "go.mod": "module example.com/shop\n",
    "shop.go": "package shop\n\ntype Cart struct{}\n\nfunc (c *Cart) Add() {}\n\n"
               "type Till struct {\n\tcarts []*Cart\n\tbyName map[string]*Cart\n}\n\n"
               "func (t *Till) Run(more [4]Cart) {\n\tfor _, c := range t.carts {\n\t\tc.Add()\n\t}\n"
               "\tfor _, v := range t.byName {\n\t\tv.Add()\n\t}\n\tfor i := range more {\n\t\ti.Add()\n\t}\n"
               "\tfor _, m := range more {\n\t\tm.Add()\n\t}\n}\n",
    # Types the file declares as a slice and as a map: their variables hold the element type.
    "pool/pool.go": "package pool\n\ntype Upstream struct{}\n\nfunc (u *Upstream) Mark() {}\n\n"
                    "type Pool []*Upstream\n\ntype ByName map[string]*Upstream\n\n"
                    "func (p Pool) Each() {\n\tfor _, u := range p {\n\t\tu.Mark()\n\t}\n\tp[0].Mark()\n}\n\n"
                    "func named(m ByName) {\n\tfor _, u := range m {\n\t\tu.Mark()\n\t}\n}\n\n"
                    "type Ring [4]*Upstream\n\n"
                    "func (r *Ring) Each() {\n\tfor _, u := range r {\n\t\tu.Mark()\n\t}\n}\n",
    "web/till.ts": "export class Cart {\n  add(): void {}\n}\n\nexport class Till {\n  carts: Cart[] = []\n\n"
                   "  run(more: Array<Cart>) {\n    for (const c of this.carts) {\n      c.add()\n    }\n"
                   "    for (const d of more) {\n      d.add()\n    }\n    for (const k in more) {\n      k.add()\n"
                   "    }\n  }\n}\n",
    "rs/Cargo.toml": "[package]\nname = \"shop\"\n",
    "rs/src/lib.rs": "struct Cart {}\n\nimpl Cart {\n    fn add(&self) {}\n}\n\n"
                     "fn run(carts: &[Cart], more: Vec<Cart>) {\n    for c in carts {\n        c.add();\n    }\n"
                     "    for d in more.iter() {\n        d.add();\n    }\n}\n",
    "cs/Till.cs": "class Cart {\n  public void Add() {}\n}\n\nclass Till {\n  List<Cart> carts;\n\n"
                  "  void Run(Cart[] more) {\n    foreach (var c in carts) {\n      c.Add();\n    }\n"
                  "    foreach (var d in more) {\n      d.Add();\n    }\n  }\n}\n",
    "java/Till.java": "class Cart {\n  void add() {}\n}\n\nclass Till {\n  List<Cart> carts;\n\n"
                      "  void run() {\n    for (var c : carts) {\n      c.add();\n    }\n  }\n}\n",
}
# Each file's calls (line, target text, the qualified name it resolves to, or None).
EXPECTED: dict[str, list[tuple[int, str, str | None]]] = {
    "shop.py": [(11, "c.add", "shop.Cart.add"),  # a member the class annotates
                (13, "d.add", "shop.Cart.add"),  # a parameter
                (15, "k.add", None),  # a dict's keys
                (17, "o.add", None),  # a variable given two types
                (22, "i.add", None)],  # a container given two element types
    "shop.go": [(14, "c.Add", "Cart.Add"),  # a field of the receiver's type, a slice of pointers
                (17, "v.Add", "Cart.Add"),  # a map's values
                (20, "i.Add", None),  # the index, not the element
                (23, "m.Add", "Cart.Add")],  # an array
    "pool/pool.go": [(13, "u.Mark", "Upstream.Mark"),  # the receiver, of a slice type the file declares
                     (15, "Mark", "Upstream.Mark"),  # an element of it
                     (20, "u.Mark", "Upstream.Mark"),  # a parameter of a map type the file declares
                     (28, "u.Mark", "Upstream.Mark")],  # a pointer to an array type the file declares
    "web/till.ts": [(10, "c.add", "Cart.add"), (13, "d.add", "Cart.add"),
                    (16, "k.add", None)],  # `for ... in`: the keys
    "rs/src/lib.rs": [(9, "c::add", "shop::Cart::add"),  # a borrowed slice
                      (11, "more::iter", None), (12, "d::add", "shop::Cart::add")],  # `.iter()` of a `Vec`
    "cs/Till.cs": [(10, "c.Add", "Cart.Add"),  # a field named bare
                   (13, "d.Add", "Cart.Add")],  # an array
    "java/Till.java": [(10, "c.add", "Cart.add")],
}


def _resolved(tmp_path_factory: pytest.TempPathFactory, tree: dict[str, str]) -> list[tuple]:
    """Every call of `tree`, resolved by a full run."""
    root = write_tree(tmp_path_factory.mktemp("loops"), tree)
    index_workspace(root)
    return resolved_calls(root)


@pytest.fixture(scope="module")
def calls(tmp_path_factory: pytest.TempPathFactory) -> list[tuple]:
    """Every call of `TREE`, resolved by a full run."""
    return _resolved(tmp_path_factory, TREE)


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_a_loop_variable_is_of_its_containers_element_type(calls: list[tuple], path: str) -> None:
    assert [(line, name, target) for from_path, line, name, target in calls if from_path == path] == EXPECTED[path]


# A call on one element of a container (`carts[0].add()`) names the element type's method as the loop's variable does.
INDEXED = {
    "shop.py": "class Cart:\n    def add(self) -> None:\n        pass\n\n\nclass Till:\n    carts: list[Cart]\n\n"
               "    def run(self, more: list[Cart], named: dict[str, Cart], i: int) -> None:\n"
               "        self.carts[0].add()\n        more[i].add()\n        named['a'].add()\n"
               "        more[0][1].add()\n",
    "go.mod": "module example.com/shop\n",
    "shop.go": "package shop\n\ntype Cart struct{}\n\nfunc (c *Cart) Add() {}\n\n"
               "type Till struct {\n\tcarts []*Cart\n\tbyName map[string]*Cart\n}\n\n"
               "func (t *Till) Run() {\n\tt.carts[0].Add()\n\tt.byName[\"a\"].Add()\n}\n",
    "web/till.ts": "export class Cart {\n  add(): void {}\n}\n\nexport class Till {\n  carts: Cart[] = []\n\n"
                   "  run() {\n    this.carts[0].add()\n  }\n}\n",
}
INDEXED_EXPECTED: dict[str, list[tuple[int, str, str | None]]] = {
    "shop.py": [(10, "add", "shop.Cart.add"),  # a member the class annotates
                (11, "add", "shop.Cart.add"),  # a parameter
                (12, "add", None),  # a dict's value: two parameters
                (13, "add", None)],  # an element's element
    "shop.go": [(13, "Add", "Cart.Add"), (14, "Add", "Cart.Add")],  # a slice's and a map's
    "web/till.ts": [(9, "add", "Cart.add")],
}


@pytest.fixture(scope="module")
def element_calls(tmp_path_factory: pytest.TempPathFactory) -> list[tuple]:
    """Every call of `INDEXED`, resolved by a full run."""
    return _resolved(tmp_path_factory, INDEXED)


@pytest.mark.parametrize("path", sorted(INDEXED_EXPECTED))
def test_a_call_on_an_element_of_a_container_names_its_element_types_method(element_calls: list[tuple],
                                                                           path: str) -> None:
    assert [(line, name, target) for from_path, line, name, target in element_calls
            if from_path == path] == INDEXED_EXPECTED[path]


# A Go container type declared in another file, or another package, gives its element as well: the type's file keeps
# it (an attribute of the type), and a variable of it is of it whether declared, made by a literal or by a function.
ACROSS = {
    "go.mod": "module example.com/m\n",
    "rp/hosts.go": "package rp\n\ntype Upstream struct{}\n\nfunc (u *Upstream) Mark() {}\n\n"
                   "type UpstreamPool []*Upstream\n\nfunc testPool() UpstreamPool { return UpstreamPool{} }\n",
    "rp/pool_test.go": "package rp\n\nfunc check() {\n\tpool := testPool()\n\tpool[1].Mark()\n"
                       "\tfor _, u := range pool {\n\t\tu.Mark()\n\t}\n\tvar more UpstreamPool\n\tmore[0].Mark()\n}\n",
    "other/use.go": "package other\n\nimport \"example.com/m/rp\"\n\nfunc use() {\n\tpool := rp.UpstreamPool{}\n"
                    "\tpool[0].Mark()\n\tvar s struct{}\n\t_ = s\n}\n",
}
ACROSS_EXPECTED: dict[str, list[tuple[int, str, str | None]]] = {
    "rp/pool_test.go": [(4, "testPool", "testPool"), (5, "Mark", "Upstream.Mark"),  # made by a function
                        (7, "u.Mark", "Upstream.Mark"),  # a loop over it
                        (10, "Mark", "Upstream.Mark")],  # declared of it
    "other/use.go": [(7, "Mark", "Upstream.Mark")],  # a literal of another package's type
}


@pytest.fixture(scope="module")
def across_calls(tmp_path_factory: pytest.TempPathFactory) -> list[tuple]:
    """Every call of `ACROSS`, resolved by a full run."""
    return _resolved(tmp_path_factory, ACROSS)


@pytest.mark.parametrize("path", sorted(ACROSS_EXPECTED))
def test_an_element_of_a_container_type_of_another_file_names_its_method(across_calls: list[tuple],
                                                                         path: str) -> None:
    assert [(line, name, target) for from_path, line, name, target in across_calls
            if from_path == path] == ACROSS_EXPECTED[path]


# (description, a declared type's text, the element type a loop over it gives or None): a case a row.
ELEMENTS = [
    ("a Python generic", "list[Cart]", "Cart"),
    ("a string annotation inside", "list[\"Cart\"]", "Cart"),
    ("a generic in angle brackets", "List<Cart>", "Cart"),
    ("a nullable container", "IEnumerable<Cart>?", "Cart"),
    ("Go's slice of pointers", "[]*Cart", "Cart"),
    ("Go's array of a package's type", "[5]pkg.Cart", "pkg.Cart"),
    ("Go's map: its values", "map[string]*Cart", "Cart"),
    ("an array", "Cart[]", "Cart"),
    ("Swift's array", "[Cart]", "Cart"),
    ("Rust's borrowed slice", "&[Cart]", "Cart"),
    ("Rust's array", "[Cart; 4]", "Cart"),
    ("Rust's borrowed vector", "&mut Vec<Cart>", "Cart"),
    ("two parameters", "dict[str, Cart]", None),
    ("two parameters, one generic", "Map<String, List<Cart>>", None),
    ("Swift's dictionary", "[String: Cart]", None),
    ("no container", "Cart", None),
    ("a container of no named type", "list[int | str]", None),
]


@pytest.mark.parametrize(("text", "element"), [case[1:] for case in ELEMENTS], ids=[case[0] for case in ELEMENTS])
def test_the_element_type_a_declared_container_gives(text: str, element: str | None) -> None:
    assert _element_name(text) == element


# (description, a loop's container text, the variable it reads or None).
ITERATED = [
    ("a variable", "carts", "carts"),
    ("a member", "self.carts", "self.carts"),
    ("Rust's borrow", "&self.carts", "self.carts"),
    ("Rust's mutable borrow", "&mut carts", "carts"),
    ("Rust's iterator", "carts.iter()", "carts"),
    ("an index", "carts[0]", None),
    ("a call", "load()", None),
]


@pytest.mark.parametrize(("text", "variable"), [case[1:] for case in ITERATED], ids=[case[0] for case in ITERATED])
def test_the_variable_a_loop_iterates(text: str, variable: str | None) -> None:
    assert _iterated(text) == variable
