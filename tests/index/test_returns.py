"""A variable a call makes is of the type the called function or method is declared to return: `c = make_cart()`
then `c.add()` names `Cart.add` when `make_cart` is declared `-> Cart` (`func NewCart() (*Cart, error)`, `fun make():
Cart?`, `Cart Make()`...), and so on down a chain of such variables (`d = c.clone()`), of calls (`make().clone()`) and
of fields (`cart.pricing.price()`). A declaration of the variable says more than a call, and a function's own
attributes are not its result's."""

from __future__ import annotations

import pytest

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import _call_chain

from .conftest import resolved_calls, write_tree

TREE = {
    "py/shop/__init__.py": "",
    "py/shop/models.py": "class Cart:\n    def add(self) -> None:\n        pass\n\n"
                         "    def clone(self) -> \"Cart\":\n        return self\n\n\n"
                         "def make() -> Cart:\n    return Cart()\n\n\ndef plain():\n    return Cart()\n\n\n"
                         "async def opened() -> Cart:\n    return Cart()\n",
    "py/use.py": "from shop.models import make, opened, plain\n\n\ndef run() -> None:\n    c = make()\n    c.add()\n"
                 "    d = c.clone()\n    d.add()\n    make.add()\n    p = plain()\n    p.add()\n\n\n"
                 "def chained() -> None:\n    make().add()\n    make().clone().add()\n    c = make()\n"
                 "    c.clone().add()\n    x = make().clone()\n    x.add()\n    plain().add()\n\n\n"
                 "async def awaited() -> None:\n    o = await opened()\n    o.add()\n",
    "go/shop/cart.go": "package shop\n\ntype Cart struct{}\n\nfunc (c *Cart) Add() {}\n\n"
                       "func (c *Cart) Clone() *Cart { return c }\n\n"
                       "func NewCart() (*Cart, error) { return &Cart{}, nil }\n",
    "go/shop/use.go": "package shop\n\nfunc Use(h *Cart) {\n\tc, err := NewCart()\n\tc.Add()\n\t_ = err\n"
                      "\td := c.Clone()\n\td.Add()\n\tif true {\n\t\th := lookup()\n\t\t_ = h\n\t}\n\th.Add()\n}\n",
    "ts/cart.ts": "export class Cart {\n  add(): void {}\n}\n\n"
                  "export function make(): Cart {\n  return new Cart()\n}\n\n"
                  "export interface Shop {\n  build(): Cart\n}\n\nexport type Maker = {\n  build(): Cart\n}\n\n"
                  "export async function load(): Promise<Cart> {\n  return new Cart()\n}\n",
    "ts/use.ts": "import { Cart, load, make, Maker, Shop } from './cart'\n\nexport function run(s: Shop, m: Maker) {\n"
                 "  const c = make()\n  c.add()\n  const d = s.build()\n  d.add()\n  s.add()\n  m.add()\n"
                 "  make().add()\n  s.build()?.add()\n  new Cart().add()\n}\n\n"
                 "export async function loaded() {\n  const l = await load()\n  l.add()\n}\n",
    "java/Shop.java": "class Cart {\n  void add() {}\n}\n\nclass Shop {\n  Cart make() { return new Cart(); }\n\n"
                      "  void use() {\n    var c = make();\n    c.add();\n    new Shop().make().add();\n  }\n}\n",
    "kt/Shop.kt": "class Cart {\n  fun add() {}\n  fun copy(): Cart = this\n}\n\nfun find(): Cart? = null\n\n"
                  "fun use() {\n  val c = find()\n  c.add()\n  find()!!.add()\n  val d = c.copy()\n  d.add()\n"
                  "  val e = find()!!.copy()\n  e.add()\n}\n",
    "swift/Shop.swift": "class Cart {\n  func add() {}\n  func copy() -> Cart { return self }\n}\n\n"
                        "func make() -> Cart? { return nil }\n\n"
                        "func use() {\n  let c = make()\n  c.add()\n  let d = c.copy()\n  d.add()\n}\n",
    "scala/Shop.scala": "class Cart {\n  def add(): Unit = {}\n}\n\nobject Shop {\n  def make(): Cart = new Cart()\n\n"
                        "  def use(p: Path): Unit = {\n    val c = make()\n    c.add()\n    p.add()\n  }\n}\n\n"
                        "trait Path {\n  def /(chunk: String): Cart\n}\n",
    "cs/Shop.cs": "class Cart {\n  public void Add() {}\n}\n\nclass Shop {\n  Cart Make() { return new Cart(); }\n\n"
                  "  void Use() {\n    var c = Make();\n    c.Add();\n  }\n}\n",
    "php/shop.php": "<?php\nclass Cart {\n  public function add() {}\n}\n\n"
                    "function make(): ?Cart { return new Cart(); }\n\n"
                    "function useit() {\n  $c = make();\n  $c->add();\n  make()->add();\n}\n\n"
                    "class Query {\n  public static function make(): static { return new static(); }\n\n"
                    "  public function where(): self { return $this; }\n}\n\n"
                    "function query() {\n  $q = Query::make();\n  $q->where()->where();\n}\n",
    "rs/Cargo.toml": "[package]\nname = \"shop\"\n",
    "rs/src/lib.rs": "struct Cart {}\n\nimpl Cart {\n    fn add(&self) {}\n}\n\nfn make() -> Cart {\n    Cart {}\n}\n\n"
                     "fn use_it() {\n    let c = make();\n    c.add();\n}\n\n"
                     "struct Builder {}\n\nimpl Builder {\n    fn new() -> Self {\n        Builder {}\n    }\n\n"
                     "    fn name(self) -> Self {\n        self\n    }\n\n    fn build(self) -> Cart {\n"
                     "        Cart {}\n    }\n}\n\nfn built() {\n    Builder::new().name().build().add();\n}\n\n"
                     "fn made() {\n    let c = Builder::new().name().build();\n    c.add();\n"
                     "    let b = Builder::new();\n    let d = b.build();\n    d.add();\n}\n",
    "cpp/shop.cc": "class Cart {\n public:\n  void add();\n};\n\nvoid Cart::add() {}\n\n"
                   "Cart make() { return Cart(); }\n\n"
                   "void use() {\n  auto c = make();\n  c.add();\n}\n",
}
# A call on a field of a variable's type (`cart.pricing.price()`): the field's declared type names the method.
TREE.update({
    "java/Fields.java": "class Pricing {\n  int price() { return 0; }\n}\n\nclass Basket {\n  Pricing pricing;\n\n"
                        "  Basket self() { return this; }\n}\n\nclass Till {\n  Basket basket;\n\n"
                        "  void run(Basket b) {\n    b.pricing.price();\n    this.basket.pricing.price();\n"
                        "    basket.pricing.price();\n    b.self().pricing.price();\n  }\n}\n",
    "cs/Fields.cs": "class Sinks {\n  public void Console() {}\n}\n\n"
                    "class Config {\n  public Sinks WriteTo { get; }\n}\n\n"
                    "class Boot {\n  void Run() {\n    new Config().WriteTo.Console();\n  }\n}\n",
    "py/fields.py": "class Pricing:\n    def price(self) -> int:\n        return 0\n\n\nclass Basket:\n"
                    "    pricing: Pricing\n\n\ndef run(b: Basket) -> None:\n    b.pricing.price()\n\n\n"
                    "class Till:\n    def __init__(self, pricing: Pricing, other) -> None:\n"
                    "        self.pricing = pricing\n        self.other = other\n\n    def run(self) -> None:\n"
                    "        self.pricing.price()\n        self.other.price()\n",
})
# A TypeScript interface that extends another: a variable of it has the other's methods too; a method declared to
# return `this` returns the interface; a type written by a name an interface and a constant share is the interface.
TREE.update({
    "ts/schema.ts": "export interface Base {\n  parse(x: unknown): unknown;\n}\n\n"
                    "export interface Text extends Base {\n  min(n: number): Text;\n  trim(): this;\n}\n\n"
                    "export function text(): Text {\n  return null as any;\n}\n\n"
                    "export interface Maker<T> {\n  init(x: T): void;\n}\n\n"
                    "export interface Shape {\n  area(): number;\n}\n\nexport const Shape: Maker<Shape> = make();\n",
    "ts/parse.ts": "import { Shape, text } from './schema'\n\nexport function run() {\n  const s = text()\n"
                   "  s.parse(1)\n  s.min(1).parse(2)\n  s.trim().parse(3)\n}\n\n"
                   "export function measure(p: Shape) {\n  p.area()\n}\n",
})
# A Java method declared to return its own class, in a class whose constructors are named as it is.
TREE["java/Builder.java"] = ("class Builder {\n  Builder() {}\n\n  Builder(int size) {}\n\n"
                             "  Builder lenient() { return this; }\n\n  Cart create() { return new Cart(); }\n}\n\n"
                             "class UseBuilder {\n  void use() {\n    new Builder().lenient().create().add();\n"
                             "  }\n}\n")
# A method an extension in another file writes, declared to return its own type (`-> Self`): the extended type.
TREE["swift/Touched.swift"] = ("extension Cart {\n  func touched() -> Self { return self }\n}\n\n"
                               "func touch() {\n  Cart().touched().add()\n}\n")
# Each file's calls on a variable (line, target text, the qualified name it resolves to, or None).
EXPECTED: dict[str, list[tuple[int, str, str | None]]] = {
    "py/use.py": [(6, "c.add", "shop.models.Cart.add"),
                  (8, "d.add", "shop.models.Cart.add"),  # down the chain: `clone` returns a `Cart`
                  (9, "make.add", None),  # the function's attribute, not its result's
                  (11, "p.add", None),  # a function that declares no result
                  (15, "add", "shop.models.Cart.add"),  # a call's receiver is a call: `make().add()`
                  (16, "add", "shop.models.Cart.add"),  # `make().clone().add()`
                  (18, "add", "shop.models.Cart.add"),  # `c.clone().add()`: a variable's method's result
                  (20, "x.add", "shop.models.Cart.add"),  # `x = make().clone()`
                  (21, "add", None),  # `plain().add()`
                  (26, "o.add", "shop.models.Cart.add")],  # `o = await opened()`: what the `async def` gives
    "go/shop/use.go": [(5, "c.Add", "Cart.Add"),  # the first of the function's results
                       (8, "d.Add", "Cart.Add"),
                       (13, "h.Add", "Cart.Add")],  # the parameter's declared type, not a call's in a block
    "ts/use.ts": [(5, "c.add", "Cart.add"), (7, "d.add", "Cart.add"),  # an interface's method's result
                  (8, "s.add", None),  # which the interface does not inherit from
                  (9, "m.add", None),  # nor an object type whose method returns one
                  (10, "add", "Cart.add"), (11, "add", "Cart.add"),  # chains, `?.` too
                  (12, "add", "Cart.add"),  # `new Cart().add()`
                  (17, "l.add", "Cart.add")],  # `await` of what is declared `Promise<Cart>`
    "java/Shop.java": [(10, "c.add", "Cart.add"), (11, "add", "Cart.add")],
    "ts/parse.ts": [(5, "s.parse", "Base.parse"),  # what the interface extends
                    (6, "parse", "Base.parse"),  # through a chain
                    (7, "parse", "Base.parse"),  # `trim(): this`: the interface's own type
                    (11, "p.area", "Shape.area")],  # the interface, not the constant of its name (`Maker<Shape>`)
    "java/Builder.java": [(13, "add", "Cart.add"),  # `lenient()` returns the class, not a constructor of that name
                          (13, "create", "Builder.create")],
    "kt/Shop.kt": [(10, "c.add", "Cart.add"), (11, "add", "Cart.add"),  # a nullable result, `!!` too
                   (13, "d.add", "Cart.add"),  # a variable's method's result
                   (15, "e.add", "Cart.add")],  # a chain's
    "swift/Shop.swift": [(10, "c.add", "Cart.add"), (12, "d.add", "Cart.add")],
    "swift/Touched.swift": [(6, "add", "Cart.add")],
    "scala/Shop.scala": [(10, "c.add", "Cart.add"),
                         (11, "p.add", None)],  # an operator method is no symbol: its trait does not return a `Cart`
    "cs/Shop.cs": [(10, "c.Add", "Cart.Add")],
    "php/shop.php": [(10, "c\\add", "Cart\\add"), (11, "add", "Cart\\add"),
                     (22, "q\\where", "Query\\where"),  # `: static`, made by `Query::make()`
                     (22, "where", "Query\\where")],  # `: self`
    "java/Fields.java": [(15, "b.pricing.price", "Pricing.price"),  # a parameter's type's field
                         (16, "this.basket.pricing.price", "Pricing.price"),  # a member's
                         (17, "basket.pricing.price", "Pricing.price"),  # named bare
                         (18, "price", "Pricing.price")],  # a method's result's field
    "cs/Fields.cs": [(11, "Console", "Sinks.Console")],  # a property of what `new` makes
    "py/fields.py": [(11, "b.pricing.price", "py.fields.Pricing.price"),  # a class's annotated attribute
                     (20, "self.pricing.price", "py.fields.Pricing.price"),  # a typed parameter copied into a member
                     (21, "self.other.price", None)],  # an untyped one
    "rs/src/lib.rs": [(13, "c::add", "shop::Cart::add"),
                      (33, "add", "shop::Cart::add"),  # `-> Self` is the `impl`'s type
                      (38, "c::add", "shop::Cart::add"),  # `let c = Builder::new().name().build()`
                      (41, "d::add", "shop::Cart::add")],  # `let d = b.build()`
    "cpp/shop.cc": [(12, "c::add", "Cart::add")],
}


@pytest.fixture(scope="module")
def calls(tmp_path_factory: pytest.TempPathFactory) -> list[tuple]:
    """Every call of the tree, resolved by a full run."""
    root = write_tree(tmp_path_factory.mktemp("returns"), TREE)
    index_workspace(root)
    return resolved_calls(root)


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_a_variable_a_call_makes_is_of_the_type_the_function_returns(calls: list[tuple], path: str) -> None:
    asked = {(line, name) for line, name, _ in EXPECTED[path]}
    assert [(line, name, target) for from_path, line, name, target in calls
            if from_path == path and (line, name) in asked] == EXPECTED[path]


# (description, a receiver's text, the chain of names it gives or None): JSON-Schema-Test-Suite style, a case a row.
CHAINS = [
    ("a call's name", "make()", "make"),
    ("a chain of calls, their arguments left out", "Moshi.Builder().add(Factory()).build()", "Moshi.Builder.add.build"),
    ("`new` before a class's name", "new Cart()", "Cart"),
    ("Kotlin's `!!` and `?.`", "find()!!.items()?.first()", "find.items.first"),
    ("C++'s and PHP's `->`", "p->clone()", "p.clone"),
    ("lines and blanks between the links", "builder\n    .add(1)\n    .build()", "builder.add.build"),
    ("a lambda inside the arguments goes with them", "xs.map(x => x.y()).first()", "xs.map.first"),
    ("a call's type arguments", "moshi.adapter<Foo>().lenient()", "moshi.adapter.lenient"),
    ("nested type arguments", "Map<String, List<Foo>>()", "Map"),
    ("Rust's turbofish", "it.collect::<Vec<_>>().len()", "it.collect.len"),
    ("an anonymous class's body", "new TypeToken<List<Foo>>() { }.getType()", "TypeToken.getType"),
    ("a trailing lambda", "list.map { it.name }.first()", "list.map.first"),
    ("a comparison in the arguments", "xs.filter(a < b).first()", "xs.filter.first"),
    ("type arguments left open", "f<A()", None),
    ("type arguments closed twice", "f<A>>()", None),
    ("an index is no name", "items[0].get()", None),
    ("an argument list left open", "f(()", None),
    ("an argument list closed twice", "f())", None),
    ("longer than a chain is read", "a()." * 60 + "b()", None),
]


@pytest.mark.parametrize(("text", "chain"), [case[1:] for case in CHAINS], ids=[case[0] for case in CHAINS])
def test_the_names_a_chain_of_calls_gives(text: str, chain: str | None) -> None:
    assert _call_chain(text) == chain
