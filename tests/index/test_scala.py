"""Scala: symbols qualified by the file's `package` (an `object` a module, so that a companion leaves its class's
name to the class), public unless `private`, Scaladoc, and calls resolved through imports (selectors, renames, `_`),
declared types, `new`, `this`, `super`, inherited methods and an object's members."""

from __future__ import annotations

from pathlib import Path

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import extract

from .conftest import resolved_calls, write_tree

CART = """package com.example.shop

/** A cart of items. */
class Cart(private val pricing: Pricing) extends Base with Priced {
  val items = List[Item]()
  def add(item: Item): Unit = {}
  private def total(): Int = 0
}
object Cart { def make(): Cart = new Cart(null) }
trait Priced { def price(item: Item): Int }
case class Point(x: Int)
type Id = Long
"""


def test_a_scala_file_gives_its_package_qualified_symbols() -> None:
    result = extract("src/main/scala/Cart.scala", CART.encode(), "scala", "scala")
    assert result.module == "com.example.shop"
    # A class's superclass and traits; a method's or a function's declared return type (what a call of it makes); a
    # field's declared type (what a call on it names a method of).
    assert result.bases == [(0, ("Base", "Priced")), (3, ("Unit",)), (4, ("Int",)), (6, ("Cart",)), (8, ("Int",)),
                            (1, ("Pricing",)), (10, ("Int",))]
    assert [(s.name, s.qualified_name, s.kind, s.visibility, s.doc) for s in result.symbols] == [
        ("Cart", "com.example.shop.Cart", "class", "public", "A cart of items."),
        ("pricing", "com.example.shop.Cart.pricing", "field", "private", None),  # a class parameter
        ("items", "com.example.shop.Cart.items", "field", "public", None),
        ("add", "com.example.shop.Cart.add", "method", "public", None),
        ("total", "com.example.shop.Cart.total", "method", "private", None),
        ("Cart", "com.example.shop.Cart", "module", "public", None),  # the companion object
        ("make", "com.example.shop.Cart.make", "function", "public", None),
        ("Priced", "com.example.shop.Priced", "trait", "public", None),
        ("price", "com.example.shop.Priced.price", "method", "public", None),
        ("Point", "com.example.shop.Point", "class", "public", None),
        ("x", "com.example.shop.Point.x", "field", "public", None),
        ("Id", "com.example.shop.Id", "type_alias", "public", None)]


TREE = {
    "util/Helper.scala": "package com.example.util\n\nobject Helper {\n  def log(s: String): Unit = {}\n}\n\n"
                         "object Logger {\n  def info(s: String): Unit = {}\n}\n",
    "shop/Base.scala": "package com.example.shop\n\nclass Base {\n  def audit(): Unit = {}\n}\n",
    "shop/Item.scala": "package com.example.shop\n\nclass Item {\n  def copy(): Item = this\n}\n",
    "shop/Cart.scala": "package com.example.shop\n\nimport com.example.util.{Helper, Logger => Log}\n\n"
                       "class Cart(last: Item) extends Base {\n  def add(item: Item): Unit = {\n    item.copy()\n"
                       "    last.copy()\n    this.total()\n    audit()\n    Helper.log(\"x\")\n    Log.info(\"y\")\n"
                       "    val other = new Cart(item)\n    other.total()\n    missing()\n  }\n\n"
                       "  def total(): Int = 0\n}\n",
}


def test_scala_calls_resolve_through_imports_types_and_bases(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    index_workspace(tmp_path)
    assert [row for row in resolved_calls(tmp_path) if row[0] == "shop/Cart.scala"] == [
        ("shop/Cart.scala", 7, "item.copy", "com.example.shop.Item.copy"),  # a parameter's type
        ("shop/Cart.scala", 8, "last.copy", "com.example.shop.Item.copy"),  # a class parameter
        ("shop/Cart.scala", 9, "this.total", "com.example.shop.Cart.total"),
        ("shop/Cart.scala", 10, "audit", "com.example.shop.Base.audit"),  # inherited
        ("shop/Cart.scala", 11, "Helper.log", "com.example.util.Helper.log"),  # an import's selector, an object's
        ("shop/Cart.scala", 12, "Log.info", "com.example.util.Logger.info"),  # a renamed selector
        ("shop/Cart.scala", 13, "Cart", "com.example.shop.Cart"),  # `new`: the class
        ("shop/Cart.scala", 14, "other.total", "com.example.shop.Cart.total"),  # `val x = new T()`
        ("shop/Cart.scala", 15, "missing", None)]
