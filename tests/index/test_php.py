"""PHP: symbols qualified by the file's `namespace`, visibility from modifiers, `/** */` docs, and calls resolved
through `use` imports (and their aliases), the caller's namespace, `$this` and its typed properties, `parent::`,
`self::`, a variable `new` made, and `new` naming the class."""

from __future__ import annotations

from pathlib import Path

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import extract

from .conftest import resolved_calls, write_tree

CART = """<?php
namespace App\\Shop;

use App\\Util\\Helper;

/**
 * A cart of items.
 */
class Cart extends Base
{
    const MAX = 10;
    private array $items = [];
    protected Pricing $pricing;

    /** Adds an item. */
    public function add(Item $item): void {}

    private function total(): int { return 0; }
}

interface Priced { public function price(): int; }
trait Audited { public function audit() {} }
enum Color { case Red; }
function helper($x) { return $x; }
"""


def test_a_php_file_gives_its_namespace_qualified_symbols() -> None:
    result = extract("src/Shop/Cart.php", CART.encode(), "php", "php")
    assert result.module == "App\\Shop"
    assert [(s.name, s.qualified_name, s.kind, s.visibility, s.doc) for s in result.symbols] == [
        ("Cart", "App\\Shop\\Cart", "class", "public", "A cart of items."),
        ("MAX", "App\\Shop\\Cart\\MAX", "constant", "public", None),
        ("items", "App\\Shop\\Cart\\items", "field", "private", None),
        ("pricing", "App\\Shop\\Cart\\pricing", "field", "public", None),  # protected
        ("add", "App\\Shop\\Cart\\add", "method", "public", "Adds an item."),
        ("total", "App\\Shop\\Cart\\total", "method", "private", None),
        ("Priced", "App\\Shop\\Priced", "interface", "public", None),
        ("price", "App\\Shop\\Priced\\price", "method", "public", None),
        ("Audited", "App\\Shop\\Audited", "trait", "public", None),
        ("audit", "App\\Shop\\Audited\\audit", "method", "public", None),
        ("Color", "App\\Shop\\Color", "enum", "public", None),
        ("Red", "App\\Shop\\Color\\Red", "constant", "public", None),
        ("helper", "App\\Shop\\helper", "function", "public", None)]
    assert {s.name: s.signature for s in result.symbols}["items"] == "private array $items = []"
    assert [(e[1], e[3], e[5]) for e in result.edges if e[2] == "import"] == [(4, "App\\Util\\Helper", "Helper")]


TREE = {
    "src/Util/Helper.php": "<?php\nnamespace App\\Util;\n\nclass Helper {\n"
                           "    public static function log($s) {}\n}\n\nfunction shout($s) {}\n",
    "src/Other/Helper.php": "<?php\nnamespace App\\Other;\n\nclass Helper {\n"
                            "    public static function log($s) {}\n}\n",
    "src/Shop/Base.php": "<?php\nnamespace App\\Shop;\n\nclass Base {\n"
                         "    public function audit() {}\n}\n",
    "src/Shop/Pricing.php": "<?php\nnamespace App\\Shop;\n\nclass Pricing {\n"
                            "    public function price($i) {}\n}\n",
    "src/Shop/Cart.php": "<?php\nnamespace App\\Shop;\n\nuse App\\Util\\Helper as H;\n"
                         "use function App\\Util\\shout;\n\n"
                         "class Cart extends Base {\n    protected Pricing $pricing;\n\n"
                         "    public function add($item) {\n"
                         "        $this->pricing->price($item);\n        $this->total();\n"
                         "        parent::audit();\n"
                         "        self::make();\n        H::log(\"x\");\n        shout(\"y\");\n"
                         "        $c = new Cart();\n"
                         "        $c->total();\n        missing();\n    }\n\n    private function total() {}\n\n"
                         "    public static function make() {}\n}\n",
}


def test_php_calls_resolve_through_uses_namespaces_and_this(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    index_workspace(tmp_path)
    assert [row for row in resolved_calls(tmp_path) if row[0] == "src/Shop/Cart.php"] == [
        ("src/Shop/Cart.php", 11, "this.pricing\\price", "App\\Shop\\Pricing\\price"),  # a typed property
        ("src/Shop/Cart.php", 12, "this\\total", "App\\Shop\\Cart\\total"),
        ("src/Shop/Cart.php", 13, "super\\audit", "App\\Shop\\Base\\audit"),  # `parent::`
        ("src/Shop/Cart.php", 14, "self\\make", "App\\Shop\\Cart\\make"),
        ("src/Shop/Cart.php", 15, "H\\log", "App\\Util\\Helper\\log"),  # a `use ... as`, of two classes `Helper`
        ("src/Shop/Cart.php", 16, "shout", "App\\Util\\shout"),  # `use function`
        ("src/Shop/Cart.php", 17, "Cart", "App\\Shop\\Cart"),  # `new`: the class, of the caller's namespace
        ("src/Shop/Cart.php", 18, "c\\total", "App\\Shop\\Cart\\total"),  # `$c = new Cart()`
        ("src/Shop/Cart.php", 19, "missing", None)]
