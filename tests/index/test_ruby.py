"""Ruby: modules and classes as `::`-qualified scopes (a class named with its scopes under them all), methods private
after a `private` line, `#` comments as docs, and calls resolved from the caller's scopes, through `self`, the
superclass and included modules, a variable or an instance variable `Foo.new` made, and `Foo.new` naming the class."""

from __future__ import annotations

from pathlib import Path

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import extract

from .conftest import resolved_calls, write_tree

CART = """require "shop/base"

module Shop
  # A cart of items.
  class Cart < Base
    MAX = 10

    # Adds an item.
    def add(item)
    end

    def self.make
      new
    end

    private

    def total
      0
    end

    LIMIT = 5
  end
end

class Shop::Util::Helper
  def self.log(s)
  end
end

def helper(x)
  x
end
"""


def test_a_ruby_file_gives_its_scoped_symbols() -> None:
    result = extract("lib/shop/cart.rb", CART.encode(), "ruby", "ruby")
    assert [(s.name, s.qualified_name, s.kind, s.visibility, s.doc, s.signature) for s in result.symbols] == [
        ("Shop", "Shop", "module", "public", None, "module Shop"),
        ("Cart", "Shop::Cart", "class", "public", "A cart of items.", "class Cart < Base"),
        ("MAX", "Shop::Cart::MAX", "constant", "public", None, "MAX = 10"),
        ("add", "Shop::Cart::add", "method", "public", "Adds an item.", "def add(item)"),
        ("make", "Shop::Cart::make", "method", "public", None, "def self.make"),  # the class's own
        ("total", "Shop::Cart::total", "method", "private", None, "def total"),  # after `private`
        ("LIMIT", "Shop::Cart::LIMIT", "constant", "public", None, "LIMIT = 5"),  # `private` makes no constant private
        ("Helper", "Shop::Util::Helper", "class", "public", None, "class Shop::Util::Helper"),
        ("log", "Shop::Util::Helper::log", "method", "public", None, "def self.log(s)"),  # under every scope
        ("helper", "helper", "function", "public", None, "def helper(x)")]
    assert [(e[1], e[2], e[3]) for e in result.edges if e[2] == "import"] == [(1, "import", "shop/base")]


TREE = {
    "lib/shop/util.rb": "module Shop\n  module Util\n    def self.log(s)\n    end\n  end\nend\n",
    "lib/other/util.rb": "module Other\n  module Util\n    def self.log(s)\n    end\n  end\nend\n",
    "lib/shop/base.rb": "module Shop\n  module Audited\n    def audit\n    end\n  end\n\n  class Base\n"
                        "    include Audited\n  end\nend\n",
    "lib/helpers.rb": "def helper(x)\n  x\nend\n",
    "lib/shop/cart.rb": "module Shop\n  class Cart < Base\n    def add(item)\n      Util.log(\"x\")\n      audit()\n"
                        "      self.total\n      c = Cart.new\n      c.total\n      helper(1)\n      missing(1)\n"
                        "      @pricing.price\n      @items.total\n    end\n\n    def total\n      0\n    end\n\n"
                        "    def initialize\n      @pricing = Pricing.new\n    end\n  end\n\n"
                        "  class Pricing\n    def price\n    end\n  end\nend\n",
}


def test_ruby_calls_resolve_from_their_scopes_and_bases(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    index_workspace(tmp_path)
    assert [row for row in resolved_calls(tmp_path) if row[0] == "lib/shop/cart.rb"] == [
        ("lib/shop/cart.rb", 4, "Util::log", "Shop::Util::log"),  # the caller's module's, not another's
        ("lib/shop/cart.rb", 5, "audit", "Shop::Audited::audit"),  # a module the superclass includes
        ("lib/shop/cart.rb", 6, "self::total", "Shop::Cart::total"),
        ("lib/shop/cart.rb", 7, "Cart", "Shop::Cart"),  # `Cart.new`: the class
        ("lib/shop/cart.rb", 8, "c::total", "Shop::Cart::total"),  # a variable `Cart.new` made
        ("lib/shop/cart.rb", 9, "helper", "helper"),  # a method of the file's level
        ("lib/shop/cart.rb", 10, "missing", None),
        ("lib/shop/cart.rb", 11, "self.pricing::price", "Shop::Pricing::price"),  # an instance variable, any method's
        ("lib/shop/cart.rb", 12, "self.items::total", None),  # one no method makes with `new`
        ("lib/shop/cart.rb", 20, "Pricing", "Shop::Pricing")]
