"""Swift: types by their keyword, an extension's members as its type's, public unless `private` or `fileprivate`,
`///` docs, and calls resolved through declared types, `self`, `super`, inherited methods, a type's name called and the
variable it makes."""

from __future__ import annotations

from pathlib import Path

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import extract

from .conftest import resolved_calls, write_tree

CART = """import Foundation

/// A cart of items.
public class Cart: Base {
    private var items: [Item] = []
    let pricing: Pricing

    init(pricing: Pricing) { self.pricing = pricing }

    /// Adds an item.
    func add(_ item: Item) {
        let copy = item
    }
}

struct Point { var x: Int; func moved() -> Point { self } }
protocol Priced { func price() -> Int }
enum Color { case red, green }
extension Cart { fileprivate func extra() {} }
func topLevel() {}
typealias Id = Int
"""


def test_a_swift_file_gives_its_symbols() -> None:
    result = extract("Sources/Shop/Cart.swift", CART.encode(), "swift", "swift")
    assert [(s.name, s.qualified_name, s.kind, s.visibility, s.doc) for s in result.symbols] == [
        ("Cart", "Cart", "class", "public", "A cart of items."),
        ("items", "Cart.items", "field", "private", None),
        ("pricing", "Cart.pricing", "field", "public", None),  # `internal`: the module's
        ("init", "Cart.init", "method", "public", None),
        ("add", "Cart.add", "method", "public", "Adds an item."),  # its `let` is a local
        ("Point", "Point", "struct", "public", None),
        ("x", "Point.x", "field", "public", None),
        ("moved", "Point.moved", "method", "public", None),  # a struct's
        ("Priced", "Priced", "interface", "public", None),  # a protocol
        ("price", "Priced.price", "method", "public", None),
        ("Color", "Color", "enum", "public", None),
        ("red", "Color.red", "constant", "public", None),
        ("green", "Color.green", "constant", "public", None),  # a `case`'s second name
        ("extra", "Cart.extra", "method", "private", None),  # an extension's: its type's
        ("topLevel", "topLevel", "function", "public", None),
        ("Id", "Id", "type_alias", "public", None)]


TREE = {
    "Sources/Shop/Base.swift": "class Base {\n    func audit() {}\n    func add(_ item: Item) {}\n}\n",
    "Sources/Shop/Item.swift": "struct Item {\n    func copy() -> Item { self }\n}\n",
    "Sources/Shop/Helper.swift": "enum Helper {\n    static func log(_ s: String) {}\n}\n",
    "Sources/Shop/Extra.swift": "extension Cart {\n    func extra() {}\n}\n",
    "Sources/Shop/Cart.swift": "class Cart: Base {\n    let last: Item\n\n"
                               "    override func add(_ item: Item) {\n"
                               "        item.copy()\n        last.copy()\n        self.total()\n"
                               "        super.add(item)\n"
                               "        audit()\n        Helper.log(\"x\")\n        let other = Cart()\n"
                               "        other.extra()\n        missing()\n    }\n\n    func total() -> Int { 0 }\n}\n",
}


def test_swift_calls_resolve_through_types_self_and_bases(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    index_workspace(tmp_path)
    assert [row for row in resolved_calls(tmp_path) if row[0] == "Sources/Shop/Cart.swift"] == [
        ("Sources/Shop/Cart.swift", 5, "item.copy", "Item.copy"),  # a parameter's type
        ("Sources/Shop/Cart.swift", 6, "last.copy", "Item.copy"),  # a property, without `self.`
        ("Sources/Shop/Cart.swift", 7, "self.total", "Cart.total"),
        ("Sources/Shop/Cart.swift", 8, "super.add", "Base.add"),  # the superclass's, not its own
        ("Sources/Shop/Cart.swift", 9, "audit", "Base.audit"),  # inherited
        ("Sources/Shop/Cart.swift", 10, "Helper.log", "Helper.log"),  # on a type
        ("Sources/Shop/Cart.swift", 11, "Cart", "Cart"),  # a type's name called: the type
        ("Sources/Shop/Cart.swift", 12, "other.extra", "Cart.extra"),  # an extension's, in another file
        ("Sources/Shop/Cart.swift", 13, "missing", None)]
