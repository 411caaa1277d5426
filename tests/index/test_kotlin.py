"""Kotlin: symbols qualified by the file's `package`, public unless `private`, KDoc, a companion object's members as its
class's, and calls resolved through imports (`as`, `*`), declared types, constructor properties, `this`, `super`,
inherited methods and constructor calls."""

from __future__ import annotations

from pathlib import Path

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import extract

from .conftest import resolved_calls, write_tree

CART = """package com.example.shop

import com.example.util.Helper

/** A cart of items. */
class Cart(private val pricing: Pricing) : Base(), Priced {
    val items = mutableListOf<Item>()
    companion object { const val MAX = 10; fun make(): Cart = Cart(Pricing()) }

    /** Adds an item. */
    fun add(item: Item) {
        val copy = item
    }

    fun `adds two items`() {}
}

interface Priced { fun price() }
object Registry { fun find() = 1 }
enum class Color { RED }
fun topLevel(x: Int): Int = x
val answer = 42
typealias Id = Long
"""


def test_a_kotlin_file_gives_its_package_qualified_symbols() -> None:
    result = extract("src/main/kotlin/Cart.kt", CART.encode(), "kotlin", "kotlin")
    assert result.module == "com.example.shop"
    assert [(s.name, s.qualified_name, s.kind, s.visibility, s.doc) for s in result.symbols] == [
        ("Cart", "com.example.shop.Cart", "class", "public", "A cart of items."),
        ("pricing", "com.example.shop.Cart.pricing", "field", "private", None),  # a constructor's property
        ("items", "com.example.shop.Cart.items", "field", "public", None),
        ("MAX", "com.example.shop.Cart.MAX", "constant", "public", None),  # a companion's: the class's own
        ("make", "com.example.shop.Cart.make", "method", "public", None),
        ("add", "com.example.shop.Cart.add", "method", "public", "Adds an item."),  # its `val` is a local
        ("adds two items", "com.example.shop.Cart.adds two items", "method", "public", None),  # named in backticks
        ("Priced", "com.example.shop.Priced", "interface", "public", None),
        ("price", "com.example.shop.Priced.price", "method", "public", None),
        ("Registry", "com.example.shop.Registry", "class", "public", None),  # an object
        ("find", "com.example.shop.Registry.find", "method", "public", None),
        ("Color", "com.example.shop.Color", "enum", "public", None),
        ("RED", "com.example.shop.Color.RED", "constant", "public", None),
        ("topLevel", "com.example.shop.topLevel", "function", "public", None),
        ("answer", "com.example.shop.answer", "variable", "public", None),
        ("Id", "com.example.shop.Id", "type_alias", "public", None)]


TREE = {
    "util/Helper.kt": "package com.example.util\n\nobject Helper {\n    fun log(s: String) {}\n}\n\n"
                      "fun shout(s: String) {}\n",
    "other/Shout.kt": "package com.example.other\n\nfun shout(s: String) {}\n",  # a second `shout`
    "shop/Base.kt": "package com.example.shop\n\nopen class Base {\n    fun audit() {}\n"
                    "    open fun add(i: Item) {}\n}\n",
    "shop/Item.kt": "package com.example.shop\n\nclass Item {\n    fun copy(): Item = this\n}\n",
    "shop/Cart.kt": "package com.example.shop\n\nimport com.example.util.Helper as H\nimport com.example.util.*\n\n"
                    "class Cart(private val last: Item) : Base() {\n    override fun add(i: Item) {\n"
                    "        i.copy()\n        last.copy()\n        this.total()\n        super.add(i)\n"
                    "        audit()\n"
                    "        H.log(\"x\")\n        shout(\"y\")\n        val other = Cart(i)\n        other.total()\n"
                    "        missing()\n    }\n\n    fun total(): Int = 0\n}\n",
}


def test_kotlin_calls_resolve_through_imports_types_and_bases(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    index_workspace(tmp_path)
    assert [row for row in resolved_calls(tmp_path) if row[0] == "shop/Cart.kt"] == [
        ("shop/Cart.kt", 8, "i.copy", "com.example.shop.Item.copy"),  # a parameter's type, of the package
        ("shop/Cart.kt", 9, "last.copy", "com.example.shop.Item.copy"),  # a constructor's property
        ("shop/Cart.kt", 10, "this.total", "com.example.shop.Cart.total"),
        ("shop/Cart.kt", 11, "super.add", "com.example.shop.Base.add"),  # the base class's, not its own
        ("shop/Cart.kt", 12, "audit", "com.example.shop.Base.audit"),  # inherited
        ("shop/Cart.kt", 13, "H.log", "com.example.util.Helper.log"),  # an import `as`
        ("shop/Cart.kt", 14, "shout", "com.example.util.shout"),  # the package `*` brings in's
        ("shop/Cart.kt", 15, "Cart", "com.example.shop.Cart"),  # a constructor call names the class
        ("shop/Cart.kt", 16, "other.total", "com.example.shop.Cart.total"),  # `val x = T()`
        ("shop/Cart.kt", 17, "missing", None)]
