"""Java: symbols qualified by the file's `package`, kinds and visibility from modifiers, Javadoc, and calls resolved
through imports, static imports, declared types, fields (with or without `this.`), `super` and inherited methods."""

from __future__ import annotations

from pathlib import Path

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import extract

from .conftest import edge_targets, resolved_edges, write_tree

CART = """package com.example.shop;

import java.util.List;

/**
 * A cart of items.
 */
public class Cart {
    public static final int MAX_ITEMS = 10;
    private final List<Item> items = new ArrayList<>();
    int a, b;

    public Cart() {}

    /** Adds an item. */
    // a note between the Javadoc and the declaration
    @Deprecated // a note among the annotations
    @SuppressWarnings("unchecked") protected void add(Item item) {}

    enum Kind { BIG }

    interface Priced { int SCALE = 100; void price(); }
}
"""


def test_a_java_file_gives_its_package_qualified_symbols() -> None:
    result = extract("src/main/java/com/example/shop/Cart.java", CART.encode(), "java", "java")
    assert result.module == "com.example.shop"  # the `package` declaration, not the path
    assert [(s.name, s.qualified_name, s.kind, s.visibility, s.doc) for s in result.symbols] == [
        ("Cart", "com.example.shop.Cart", "class", "public", "A cart of items."),
        ("MAX_ITEMS", "com.example.shop.Cart.MAX_ITEMS", "constant", "public", None),  # static final
        ("items", "com.example.shop.Cart.items", "field", "private", None),
        ("a", "com.example.shop.Cart.a", "field", "private", None),  # the package's own: private here
        ("b", "com.example.shop.Cart.b", "field", "private", None),  # a declaration's second name
        ("Cart", "com.example.shop.Cart.Cart", "method", "public", None),  # a constructor
        ("add", "com.example.shop.Cart.add", "method", "public", "Adds an item."),  # protected
        ("Kind", "com.example.shop.Cart.Kind", "enum", "private", None),
        ("BIG", "com.example.shop.Cart.Kind.BIG", "constant", "public", None),
        ("Priced", "com.example.shop.Cart.Priced", "interface", "private", None),
        ("SCALE", "com.example.shop.Cart.Priced.SCALE", "constant", "public", None),  # an interface's members
        ("price", "com.example.shop.Cart.Priced.price", "method", "public", None)]
    assert [(e[1], e[2], e[3]) for e in result.edges] == [(3, "import", "java.util.List"), (10, "call", "ArrayList")]
    # A signature leaves the annotations out.
    assert {s.name: s.signature for s in result.symbols}["add"] == "protected void add(Item item)"


def test_a_java_file_without_a_package_is_in_the_default_one() -> None:
    result = extract("Main.java", b"class Main {\n    void run() {}\n}\n", "java", "java")
    assert [s.qualified_name for s in result.symbols] == ["Main", "Main.run"]


TREE = {
    "src/main/java/com/example/util/Util.java": "package com.example.util;\n\npublic class Util {\n"
        "    public static void log(String s) {}\n}\n",
    "src/main/java/com/example/shop/Base.java": "package com.example.shop;\n\npublic class Base {\n"
        "    public void add(Item i) {}\n\n    protected void audit() {}\n}\n",
    "src/main/java/com/example/shop/Item.java": "package com.example.shop;\n\npublic class Item {\n"
        "    public Item copy() {\n        return this;\n    }\n\n    Cart cart() {\n        return new Cart(null);\n"
        "    }\n}\n",
    "src/main/java/com/example/shop/Pricing.java": "package com.example.shop;\n\npublic interface Pricing {\n"
        "    void price(Item i);\n\n    default void reset() {}\n}\n",
    "src/main/java/com/example/shop/Cart.java": "package com.example.shop;\n\nimport com.example.util.Util;\n"
        "import static com.example.util.Util.log;\n\npublic class Cart extends Base {\n    private Pricing pricing;\n\n"
        "    public Cart(Pricing pricing) {\n        this.pricing = pricing;\n    }\n\n"
        "    public void add(Item item) {\n"
        "        Item copy = item.copy();\n        pricing.price(copy);\n        this.pricing.reset();\n"
        "        super.add(copy);\n        audit();\n        Util.log(\"x\");\n        log(\"y\");\n"
        "        var other = new Item();\n        other.copy();\n        total();\n        missing();\n    }\n\n"
        "    int total() {\n        return 0;\n    }\n\n    void check(Item pricing) {\n        pricing.price(null);\n"
        "    }\n}\n",
}


def test_java_calls_resolve_through_imports_types_fields_and_bases(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    index_workspace(tmp_path)
    edges = [e[1:] for e in resolved_edges(tmp_path)[1] if e[0].endswith("Cart.java")]
    assert edges == [
        (3, "import", "com.example.util.Util", "com.example.util.Util"),
        (4, "import", "com.example.util.Util.log", "com.example.util.Util.log"),  # `import static`
        (14, "call", "item.copy", "com.example.shop.Item.copy"),  # a parameter's type, of the same package
        (15, "call", "pricing.price", "com.example.shop.Pricing.price"),  # a field, without `this.`
        (16, "call", "this.pricing.reset", "com.example.shop.Pricing.reset"),  # an interface's default method
        (17, "call", "super.add", "com.example.shop.Base.add"),  # the superclass's, not its own
        (18, "call", "audit", "com.example.shop.Base.audit"),  # a bare call: a method it inherits
        (19, "call", "Util.log", "com.example.util.Util.log"),  # on an imported class
        (20, "call", "log", "com.example.util.Util.log"),  # a static import
        (21, "call", "Item", "com.example.shop.Item"),  # `new`: the class
        (22, "call", "other.copy", "com.example.shop.Item.copy"),  # `var x = new T()`
        (23, "call", "total", "com.example.shop.Cart.total"),  # a bare call: its own method
        (24, "call", "missing", None),
        (32, "call", "pricing.price", None)]  # a parameter hides the field: an Item, which has no `price`
    # `new` of a class of another file names the class, never its constructor (a method: only a receiver calls one).
    assert [e[1:] for e in resolved_edges(tmp_path)[1] if e[0].endswith("Item.java")] == [
        (9, "call", "Cart", "com.example.shop.Cart")]


OVERLOADED = {
    "a/Util.java": "package a;\n\npublic class Util {\n    public static void log(String s) {}\n\n"
                   "    public static void log(String s, Object arg) {}\n\n    int size;\n\n    int size() {\n"
                   "        return size;\n    }\n}\n",
    "b/Main.java": "package b;\n\nimport a.Util;\nimport static a.Util.log;\n\nclass Main {\n    void run(Util u) {\n"
                   "        Util.log(\"x\", 1);\n        log(\"y\");\n        u.size();\n    }\n}\n",
}


def test_an_overloaded_java_method_is_named_by_its_first_declaration(tmp_path: Path) -> None:
    """A call gives no argument types to choose an overload by: it names the first declared (a field of the same
    name is no method)."""
    write_tree(tmp_path, OVERLOADED)
    index_workspace(tmp_path)
    rows = [(line, name, qualified, kind, first) for path, line, _, name, _, qualified, kind, first
            in edge_targets(tmp_path) if path == "b/Main.java"]
    assert rows == [
        (3, "a.Util", "a.Util", "class", 3),
        (4, "a.Util.log", "a.Util.log", "method", 4),  # `import static` of an overloaded name
        (8, "Util.log", "a.Util.log", "method", 4),
        (9, "log", "a.Util.log", "method", 4),
        (10, "u.size", "a.Util.size", "method", 10)]
