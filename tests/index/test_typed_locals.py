"""A call on a variable names the method of the type the variable is declared with or constructed from: `c.total()`
after `def f(c: Cart)` or `c = Cart()` (Python), `func (c *Cart)` or `c := &cart.Cart{}` (Go), `(c: Cart)` or
`new Cart()` (TypeScript, JavaScript), `c: &Cart` or `Cart::new()` (Rust)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import _type_name, extract

from .conftest import resolved_edges, write_tree

TREE = {
    "shop/__init__.py": "",
    "shop/cart.py": "class Cart:\n    def total(self) -> int:\n        return 0\n\n\nclass Other:\n"
                    "    def total(self) -> int:\n        return 1\n\n\ndef make() -> Cart:\n    return Cart()\n",
    "app.py": "from shop.cart import Cart, make\nfrom shop import cart\n\n\n"
              "def typed(c: Cart, d: \"Cart\", e: \"cart.Cart\" = None, f: Optional[Cart] = None) -> None:\n"
              "    c.total()\n    d.total()\n    e.total()\n    f.total()\n\n\n"
              "def built() -> None:\n    a = Cart()\n    b = cart.Other()\n    m = make()\n"
              "    a.total()\n    b.total()\n    m.total()\n\n\n"
              "def twice(flag: bool) -> None:\n    x = Cart()\n    if flag:\n        x = cart.Other()\n"
              "    x.total()\n\n\n"
              "def annotated() -> None:\n    y: Cart = make()\n    y.total()\n\n\n"
              "def elsewhere() -> None:\n    a.total()\n",
    "go.mod": "module example.com/shop\n",
    "cart/cart.go": "package cart\n\ntype Cart struct{ items []int }\n\nfunc (c *Cart) Total() int {\n"
                    "\treturn c.count()\n}\n",
    "cart/count.go": "package cart\n\nfunc (c *Cart) count() int { return 0 }\n\ntype Other struct{}\n\n"
                     "func (o Other) Total() int { return 1 }\n",
    "main.go": "package main\n\nimport \"example.com/shop/cart\"\n\n"
               "func use(c *cart.Cart, s []cart.Cart, o cart.Other) {\n"
               "\tc.Total()\n\ts.Total()\n\to.Total()\n\tn := &cart.Cart{}\n\tn.Total()\n\tvar v cart.Other\n"
               "\tv.Total()\n\ta, ok := any(o).(*cart.Cart)\n\t_ = ok\n\ta.Total()\n\tb := new(cart.Other)\n"
               "\tb.Total()\n\tvar t cart.Till\n\tt.cart.Total()\n}\n",
    "cart/till.go": "package cart\n\ntype Till struct {\n\tcart  *Cart\n\tother Other\n}\n\n"
                    "func (t *Till) Run() {\n\tt.cart.Total()\n\tt.other.Total()\n}\n",
    "web/client.ts": "export class Client {\n  fetch(): number {\n    return 1\n  }\n}\n",
    "web/app.ts": "import { Client } from './client'\n\n"
                  "export function run(c: Client, d?: Client, e: Client[] = []) {\n"
                  "  c.fetch()\n  d.fetch()\n  e.fetch()\n  const n = new Client()\n  n.fetch()\n}\n",
    "web/plain.js": "import { Client } from './client'\n\nconst k = new Client()\nk.fetch()\n",
    "rs/Cargo.toml": "[package]\nname = \"shop\"\n",
    "rs/src/lib.rs": "pub mod cart;\nuse crate::cart::Cart;\n\n"
                     "fn run(c: &Cart, m: &mut crate::cart::Cart, v: Vec<Cart>) {\n"
                     "    c.total();\n    m.total();\n    v.total();\n    let n = Cart::new();\n    n.total();\n"
                     "    let s = Cart { items: 0 };\n    s.total();\n}\n",
    "rs/src/cart.rs": "pub struct Cart {\n    pub items: u32,\n}\n\nimpl Cart {\n    pub fn new() -> Self {\n"
                      "        Cart { items: 0 }\n    }\n\n    pub fn total(&self) -> u32 {\n        self.items\n"
                      "    }\n}\n",
}
# Each file's calls: (line, target text, the qualified name of the definition it resolves to, or None).
EXPECTED = {
    "app.py": [
        (6, "c.total", "shop.cart.Cart.total"),  # a parameter's annotation
        (7, "d.total", "shop.cart.Cart.total"),  # written as a string
        (8, "e.total", "shop.cart.Cart.total"),  # through the module an import binds
        (9, "f.total", None),  # `Optional[Cart]`: `Optional`, no type of the tree
        (13, "Cart", "shop.cart.Cart"),
        (14, "cart.Other", "shop.cart.Other"),
        (15, "make", "shop.cart.make"),
        (16, "a.total", "shop.cart.Cart.total"),  # constructed
        (17, "b.total", "shop.cart.Other.total"),
        (18, "m.total", "shop.cart.Cart.total"),  # a function's result: the type it is declared to return
        (22, "Cart", "shop.cart.Cart"),
        (24, "cart.Other", "shop.cart.Other"),
        (25, "x.total", None),  # given two types
        (29, "make", "shop.cart.make"),
        (30, "y.total", "shop.cart.Cart.total"),  # the annotation, not the value
        (34, "a.total", None),  # another function's variable
    ],
    "cart/cart.go": [(6, "c.count", "Cart.count")],  # a receiver; the method is in another file of the package
    "main.go": [
        (6, "c.Total", "Cart.Total"),  # a parameter, its type in the package an import path names
        (7, "s.Total", None),  # a slice
        (8, "o.Total", "Other.Total"),
        (10, "n.Total", "Cart.Total"),  # `&cart.Cart{}`
        (12, "v.Total", "Other.Total"),  # `var v cart.Other`
        (13, "any", None),
        (15, "a.Total", "Cart.Total"),  # a type assertion, `v.(*cart.Cart)`
        (16, "new", None),
        (17, "b.Total", "Other.Total"),  # `new(cart.Other)`
        (19, "t.cart.Total", "Cart.Total"),  # a struct's field, through a variable of another package
    ],
    "cart/till.go": [(9, "t.cart.Total", "Cart.Total"), (10, "t.other.Total", "Other.Total")],  # the receiver's fields
    "web/app.ts": [
        (4, "c.fetch", "Client.fetch"),
        (5, "d.fetch", "Client.fetch"),  # optional
        (6, "e.fetch", None),  # an array
        (7, "Client", "Client"),
        (8, "n.fetch", "Client.fetch"),  # `new Client()`
    ],
    "web/plain.js": [(3, "Client", "Client"), (4, "k.fetch", "Client.fetch")],  # at the file's level
    "rs/src/lib.rs": [
        (5, "c::total", "shop::cart::Cart::total"),  # `&Cart`
        (6, "m::total", "shop::cart::Cart::total"),  # `&mut crate::cart::Cart`
        (7, "v::total", None),  # `Vec<Cart>`: `Vec`, no type of the tree
        (8, "Cart::new", "shop::cart::Cart::new"),
        (9, "n::total", "shop::cart::Cart::total"),  # `Cart::new()`
        (11, "s::total", "shop::cart::Cart::total"),  # a struct expression
    ],
}


# Members: what a type's body, its constructor's parameter properties or `self.x = ...` declare `self.x` to be.
MEMBERS = {
    "shop/__init__.py": "",
    "shop/parts.py": "class Client:\n    def fetch(self) -> int:\n        return 0\n\n\nclass Cache:\n"
                     "    def find(self) -> int:\n        return 1\n",
    "shop/service.py": "from shop.parts import Cache, Client\n\n\nclass Service:\n    cache: Cache\n\n"
                       "    def __init__(self, other: Client) -> None:\n        self.client = Client()\n"
                       "        other.spare = Cache()\n\n    def run(self) -> None:\n        self.client.fetch()\n"
                       "        self.cache.find()\n        self.spare.find()\n\n\ncache.find()\n",
    "web/parts.ts": "export class Http {\n  get(): number {\n    return 1\n  }\n}\n",
    "web/service.ts": "import { Http } from './parts'\n\nexport class Service {\n  private spare: Http\n"
                      "  made = new Http()\n\n  constructor(private http: Http) {\n    this.other = new Http()\n  }\n\n"
                      "  run(): void {\n    this.http.get()\n    this.spare.get()\n    this.made.get()\n"
                      "    this.other.get()\n  }\n}\n",
    "rs/Cargo.toml": "[package]\nname = \"shop\"\n",
    "rs/src/lib.rs": "struct State;\n\nimpl State {\n    fn go(&self) {}\n}\n\n"
                     "struct Machine {\n    state: State,\n}\n\n"
                     "impl Machine {\n    fn step(&self) {\n        self.state.go();\n    }\n}\n",
}
MEMBERS_EXPECTED = {
    "shop/service.py": [
        (8, "Client", "shop.parts.Client"),
        (9, "Cache", "shop.parts.Cache"),
        (12, "self.client.fetch", "shop.parts.Client.fetch"),  # `self.client = Client()` in another method
        (13, "self.cache.find", "shop.parts.Cache.find"),  # the class body's annotation
        (14, "self.spare.find", None),  # an attribute of another object: not a member
        (17, "cache.find", None),  # the class's `cache` is not a variable of the module
    ],
    "web/service.ts": [
        (5, "Http", "Http"), (8, "Http", "Http"),
        (12, "this.http.get", "Http.get"),  # a constructor's parameter property
        (13, "this.spare.get", "Http.get"),  # a field's annotation
        (14, "this.made.get", "Http.get"),  # a field's `new`
        (15, "this.other.get", "Http.get"),  # `this.other = new Http()`
    ],
    "rs/src/lib.rs": [(13, "self.state::go", "shop::State::go")],  # a field's type
}


# Methods a class inherits from the bases its file names: `self.m()` is the first base's that has `m`.
INHERITED = {
    "shop/__init__.py": "",
    "shop/base.py": "class Base:\n    def run(self) -> None:\n        pass\n\n    def both(self) -> None:\n"
                    "        pass\n\n\nclass Mixin:\n    def mix(self) -> None:\n        pass\n\n"
                    "    def both(self) -> None:\n        pass\n",
    "shop/child.py": "from shop import base\nfrom shop.base import Base\n\n\nclass Child(Base, base.Mixin):\n"
                     "    def run(self) -> None:\n        self.run()\n        self.mix()\n        self.both()\n"
                     "        self.walk()\n\n    @classmethod\n    def make(cls) -> None:\n        cls.mix()\n\n\n"
                     "class Other(Unknown):\n    def go(self) -> None:\n        self.run()\n",
    "web/base.ts": "export class Base {\n  run(): void {}\n}\n",
    "web/child.ts": "import { Base } from './base'\n\nexport class Child extends Base {\n  go(): void {\n"
                    "    this.run()\n  }\n}\n",
    "web/kid.js": "import { Base } from './base'\n\nexport class Kid extends Base {\n  go() {\n"
                  "    this.run()\n  }\n}\n",
}
INHERITED_EXPECTED = {
    "shop/child.py": [
        (7, "self.run", "shop.child.Child.run"),  # its own method first
        (8, "self.mix", "shop.base.Mixin.mix"),  # the second base's, named through the module
        (9, "self.both", "shop.base.Base.both"),  # both bases have it: the first's
        (10, "self.walk", None),  # none has it
        (14, "cls.mix", "shop.base.Mixin.mix"),
        (19, "self.run", None),  # a base that is no class of the tree
    ],
    "web/child.ts": [(5, "this.run", "Base.run")],
    "web/kid.js": [(5, "this.run", "Base.run")],
}

# `super().m()` (Python) and `super.m()` (TypeScript, JavaScript) name a base's method, never the class's own; a base
# of a class of the same file is followed up its own bases, for `self.m()`, `super` and a typed variable alike.
SUPER = {
    "shop/__init__.py": "",
    "shop/base.py": "class Base:\n    def __init__(self) -> None:\n        pass\n\n    def run(self) -> None:\n"
                    "        pass\n\n    def stop(self) -> None:\n        pass\n",
    "shop/child.py": "from shop.base import Base\n\n\nclass Child(Base):\n    def __init__(self) -> None:\n"
                     "        super().__init__()\n\n    def run(self) -> None:\n        super(Child, self).run()\n"
                     "\n    def own(self) -> None:\n        super().own()\n\n\nclass Grand(Child):\n"
                     "    def go(self) -> None:\n        self.run()\n        super().run()\n        self.own()\n"
                     "        self.stop()\n\n\ndef use() -> None:\n    g = Grand()\n    g.own()\n\n\n"
                     "class A(B):\n    pass\n\n\n"
                     "class B(A):\n    def go(self) -> None:\n        self.gone()\n\n\n"
                     "class Out(Exception):\n    def __init__(self) -> None:\n        super().__init__()\n",
    "web/base.ts": "export class Base {\n  run(): void {}\n}\n",
    "web/child.ts": "import { Base } from './base'\n\nexport class Child extends Base {\n  run(): void {\n"
                    "    super.run()\n  }\n}\n",
    "web/kid.js": "import { Base } from './base'\n\nexport class Kid extends Base {\n  run() {\n"
                  "    super.run()\n  }\n}\n",
}
SUPER_EXPECTED = {
    "shop/child.py": [
        (6, "super", None),  # the builtin itself
        (6, "super.__init__", "shop.base.Base.__init__"),
        (9, "super", None),
        (9, "super.run", "shop.base.Base.run"),  # `super(Child, self)` as `super()`
        (12, "super", None),
        (12, "super.own", None),  # the class's own `own` is not its base's
        (17, "self.run", "shop.child.Child.run"),
        (18, "super", None),
        (18, "super.run", "shop.child.Child.run"),
        (19, "self.own", "shop.child.Child.own"),
        (20, "self.stop", "shop.base.Base.stop"),  # two classes up: the base's base, as this file names it
        (24, "Grand", "shop.child.Grand"),
        (25, "g.own", "shop.child.Child.own"),  # a typed variable's inherited method
        (34, "self.gone", None),  # bases in a cycle: looked up a bounded number of classes up
        (39, "super", None),
        (39, "super.__init__", None),  # a base outside the tree
    ],
    "web/child.ts": [(5, "super.run", "Base.run")],
    "web/kid.js": [(5, "super.run", "Base.run")],
}

# Bases of classes of other files, each named as its own file names it; Python's order of a diamond (C3).
ACROSS = {
    "zoo/__init__.py": "",
    "zoo/animal.py": "class Animal:\n    def feed(self) -> None:\n        pass\n\n    def sleep(self) -> None:\n"
                     "        pass\n",
    "zoo/cat.py": "from zoo import animal\n\n\nclass Cat(animal.Animal):\n    pass\n\n\n"
                  "class Tame(animal.Animal):\n    def sleep(self) -> None:\n        pass\n",
    "zoo/keeper.py": "from zoo.cat import Cat, Tame\n\n\nclass Lion(Cat):\n    def eat(self) -> None:\n"
                     "        self.feed()\n        super().feed()\n\n\ndef visit(c: Cat) -> None:\n    c.feed()\n\n\n"
                     "class House(Cat, Tame):\n    def rest(self) -> None:\n        self.sleep()\n\n\n"
                     "def make() -> None:\n    Cat.feed(None)\n    Lion.sleep(None)\n",
    "web/base.ts": "export class Base {\n  run(): void {}\n}\n",
    "web/mid.ts": "import { Base } from './base'\n\nexport class Mid extends Base {}\n",
    "web/top.ts": "import { Mid } from './mid'\n\nexport class Top extends Mid {\n  go(): void {\n"
                  "    this.run()\n  }\n}\n",
    "web/use.ts": "import { Top } from './top'\n\nTop.run()\n",
    # A base named through an inherited member names nothing: which classes' bases were known before would decide.
    "zoo/nested.py": "from zoo.cat import Cat\n\n\nclass Holder:\n    class Inner:\n        def m(self) -> None:\n"
                     "            pass\n\n\nclass Outer(Holder):\n    pass\n\n\nclass X(Outer.Inner):\n"
                     "    def f(self) -> None:\n        self.m()\n",
}
ACROSS_EXPECTED = {
    "zoo/keeper.py": [
        (6, "self.feed", "zoo.animal.Animal.feed"),  # two classes up, through another file's import of the module
        (7, "super", None),
        (7, "super.feed", "zoo.animal.Animal.feed"),
        (11, "c.feed", "zoo.animal.Animal.feed"),
        (16, "self.sleep", "zoo.cat.Tame.sleep"),  # House, Cat, Tame, Animal: not Cat's Animal first
        (20, "Cat.feed", "zoo.animal.Animal.feed"),  # on the class an import binds
        (21, "Lion.sleep", "zoo.animal.Animal.sleep"),  # on a class of the file
    ],
    "web/top.ts": [(5, "this.run", "Base.run")],
    "web/use.ts": [(3, "Top.run", "Base.run")],
    "zoo/nested.py": [(16, "self.m", None)],
}

# A Go struct's embedded types promote their methods (a struct's own method first, then its embedded types', up
# through theirs), each embedded type named as the struct's own file names it.
EMBEDDED = {
    "go.mod": "module example.com/web\n",
    "parse/dispenser.go": "package parse\n\ntype Dispenser struct{}\n\n"
                          "func (d *Dispenser) Val() string { return \"\" }\n\n"
                          "func (d *Dispenser) Next() bool { return false }\n",
    "parse/dispenser_args.go": "package parse\n\nfunc (d *Dispenser) Args() []string { return nil }\n",
    "parse/lexer.go": "package parse\n\ntype Lexer struct {\n\tDispenser\n}\n\n"
                      "func (l Lexer) Next() bool { return true }\n",
    "conf/helper.go": "package conf\n\nimport \"example.com/web/parse\"\n\ntype Helper struct {\n\t*parse.Dispenser\n"
                      "\tState map[string]any\n}\n\ntype Outer struct {\n\tHelper\n}\n\n"
                      "func Use(h Helper, o *Outer, l parse.Lexer) {\n\th.Val()\n\to.Val()\n\tl.Next()\n\tl.Val()\n"
                      "\th.Args()\n\th.Missing()\n}\n",
}
EMBEDDED_EXPECTED = {
    "conf/helper.go": [
        (15, "h.Val", "Dispenser.Val"),  # through an embedded pointer of another package
        (16, "o.Val", "Dispenser.Val"),  # two structs down
        (17, "l.Next", "Lexer.Next"),  # its own method, not the one its embedded type promotes
        (18, "l.Val", "Dispenser.Val"),
        (19, "h.Args", "Dispenser.Args"),  # a method of the embedded type written in another file of its package
        (20, "h.Missing", None),
    ],
}

# A variable of a module's level whose class is known (`Q = Keys()`): a call on it through an import, however the
# import names it, names a method of that class or of its bases.
MODULE_VARIABLES = {
    "pkg/__init__.py": "from pkg.keys import Q\n",
    "pkg/keys.py": "class Base:\n    def real(self):\n        pass\n\n\nclass Keys(Base):\n    def finite(self):\n"
                   "        pass\n\n\nQ = Keys()\n",
    "main.py": "from pkg import Q\nfrom pkg.keys import Q as K\nimport pkg.keys\n\n\ndef f():\n    Q.finite()\n"
               "    K.real()\n    pkg.keys.Q.finite()\n    Q.missing()\n",
    "web/client.ts": "export class Client {\n  get(): void {}\n}\n\nexport const client = new Client()\n",
    "web/use.ts": "import { client } from './client'\n\nclient.get()\n",
}
MODULE_VARIABLES_EXPECTED = {
    "main.py": [
        (7, "Q.finite", "pkg.keys.Keys.finite"),  # re-exported by the package
        (8, "K.real", "pkg.keys.Base.real"),  # renamed; a method of the class's base
        (9, "pkg.keys.Q.finite", "pkg.keys.Keys.finite"),  # through the module
        (10, "Q.missing", None),
    ],
    "web/use.ts": [(3, "client.get", "Client.get")],
}

# An attribute a class's methods give a type (`self.stdout = LineMatcher()`, `this.client = new Client()`), called on
# in another file through a variable of the class, of a subclass, or of what a method returns; an attribute given two
# types, or none, or one the class declares a member for, is no such attribute.
ATTRIBUTES = {
    "run/__init__.py": "",
    "run/lines.py": "class LineMatcher:\n    def fnmatch_lines(self, lines):\n        pass\n\n\n"
                    "class Other:\n    def fnmatch_lines(self, lines):\n        pass\n",
    "run/result.py": "from run.lines import LineMatcher, Other\n\n\nclass RunResult:\n    stderr = None\n\n"
                     "    def __init__(self, flag):\n        self.stdout = LineMatcher()\n"
                     "        self.stderr = Other()\n"
                     "        self.both = LineMatcher() if flag else Other()\n        self.code = 0\n\n\n"
                     "class Runner:\n    def run(self) -> RunResult:\n        return RunResult(True)\n\n\n"
                     "class SubResult(RunResult):\n    pass\n",
    "run/test_run.py": "from run.result import Runner, SubResult\n\n\ndef test_it(runner: Runner, sub: SubResult):\n"
                       "    result = runner.run()\n    result.stdout.fnmatch_lines([])\n"
                       "    sub.stdout.fnmatch_lines([])\n"
                       "    runner.run().stdout.fnmatch_lines([])\n    result.stderr.fnmatch_lines([])\n"
                       "    result.both.fnmatch_lines([])\n    result.code.fnmatch_lines([])\n",
    "web/client.js": "export class Client {\n  get() {}\n}\n",
    "web/service.js": "import { Client } from './client'\n\nexport class Service {\n  constructor() {\n"
                      "    this.client = new Client()\n  }\n}\n",
    "web/use.js": "import { Service } from './service'\n\nexport function go() {\n  const s = new Service()\n"
                  "  s.client.get()\n}\n",
}
ATTRIBUTES_EXPECTED = {
    "run/test_run.py": [
        (5, "runner.run", "run.result.Runner.run"),
        (6, "result.stdout.fnmatch_lines", "run.lines.LineMatcher.fnmatch_lines"),
        (7, "sub.stdout.fnmatch_lines", "run.lines.LineMatcher.fnmatch_lines"),  # inherited
        (8, "fnmatch_lines", "run.lines.LineMatcher.fnmatch_lines"),  # on a call's result, through the chain
        (8, "runner.run", "run.result.Runner.run"),
        (9, "result.stderr.fnmatch_lines", "run.lines.Other.fnmatch_lines"),  # a member the class declares
        (10, "result.both.fnmatch_lines", None),  # given two types
        (11, "result.code.fnmatch_lines", None),  # given no type
    ],
    "web/use.js": [(4, "Service", "Service"), (5, "s.client.get", "Client.get")],
}


@pytest.mark.parametrize(("tree", "expected"), [(TREE, EXPECTED), (MEMBERS, MEMBERS_EXPECTED),
                                                (INHERITED, INHERITED_EXPECTED), (SUPER, SUPER_EXPECTED),
                                                (ACROSS, ACROSS_EXPECTED), (EMBEDDED, EMBEDDED_EXPECTED),
                                                (MODULE_VARIABLES, MODULE_VARIABLES_EXPECTED),
                                                (ATTRIBUTES, ATTRIBUTES_EXPECTED)],
                         ids=["variables", "members", "inherited", "super", "across", "embedded", "module-variables",
                              "attributes"])
def test_a_call_on_a_variable_a_member_or_self_names_the_method_of_its_type(
        tmp_path: Path, tree: dict[str, str], expected: dict[str, list[tuple[int, str, str | None]]]) -> None:
    root = write_tree(tmp_path, tree)
    index_workspace(root)
    edges = resolved_edges(root)[1]
    for path, calls in expected.items():
        assert [(line, name, target) for from_path, line, kind, name, target in edges
                if from_path == path and kind == "call"] == calls, path


def test_an_attribute_is_kept_with_its_type_where_its_class_declares_no_member_of_its_name() -> None:
    result = extract("run/result.py", ATTRIBUTES["run/result.py"].encode(), "python", "python", module="run.result")
    names = [s.name for s in result.symbols]
    attributes = [entry for entry in result.bases if entry[1][0].startswith(".")]
    # `stderr` is declared in the class's body: it is a field, kept with its type as one (not as an attribute too).
    assert attributes == [(names.index("RunResult"), (".stdout", "LineMatcher"))]
    assert (names.index("stderr"), ("Other",)) in result.bases


def test_a_call_on_a_variable_no_declaration_types_carries_no_type() -> None:
    """The hint of a call on `self` or on a variable of another function stays as it was; one on an attribute of a
    typed variable carries the attribute on the variable's type (what the resolver looks the field up in)."""
    source = b"class A:\n    def f(self, a: A) -> None:\n        self.g()\n        a.g.h()\n\n\ndef k() -> None:\n" \
             b"    a.g()\n"
    hints = [edge[4] for edge in extract("m.py", source, "python", "python").edges]
    assert hints == [("call", "g", "self"), ("call", "h", "a.g", "A.g"), ("call", "g", "a")]


TYPE_TEXTS = [
    ("*pkg.Server", "pkg.Server", "a Go pointer"),
    ("&mut Config<T>", "Config", "a Rust reference, its generic arguments"),
    ("&dyn Trait", "Trait", "a trait object"),
    ("Vec::<u8>", "Vec", "a turbofish"),
    ("'Cart'", "Cart", "a Python annotation as a string"),
    ("List[int]", "List", "a generic's arguments"),
    ("[]T", None, "a Go slice"),
    ("map[K]V", None, "a Go map"),
    ("Foo[]", None, "a TypeScript array"),
    ("A | B", None, "a union"),
    ("(a: number) => void", None, "a function type"),
    ("x" * 201, None, "longer than a type name is read"),
]


@pytest.mark.parametrize(("text", "name"), [case[:2] for case in TYPE_TEXTS], ids=[case[2] for case in TYPE_TEXTS])
def test_the_name_a_declared_type_gives(text: str, name: str | None) -> None:
    assert _type_name(text) == name
