"""C#: symbols qualified by their namespaces, kinds and visibility from modifiers, `///` docs, and calls resolved from
the caller's scopes, through `using` directives, declared types, `this`, `base`, inherited and overloaded methods."""

from __future__ import annotations

from pathlib import Path

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import extract

from .conftest import resolved_calls, write_tree

CART = """using System.Collections.Generic;
using Alias = Shop.Util.Helper;

namespace Shop.Core {
/// <summary>A cart of items.</summary>
public class Cart : Base, IPriced {
  private readonly List<Item> items = new List<Item>();
  public const int Max = 10;
  static readonly int Min = 1;
  public int Count { get; set; }
  public Cart() {}
  /// <summary>
  /// Adds an item.
  /// </summary>
  public void Add(Item item) {}
  internal int Total() => 0;
  int a, b;
}
interface IPriced { int Price(); }
enum Color { Red }
public record Person(string Name);
}
"""


def test_a_csharp_file_gives_its_namespace_qualified_symbols() -> None:
    result = extract("src/Cart.cs", CART.encode(), "csharp", "csharp")
    assert [(s.name, s.qualified_name, s.kind, s.visibility, s.doc) for s in result.symbols] == [
        ("Shop.Core", "Shop.Core", "module", "public", None),
        ("Cart", "Shop.Core.Cart", "class", "public", "A cart of items."),  # the XML tags left out
        ("items", "Shop.Core.Cart.items", "field", "private", None),
        ("Max", "Shop.Core.Cart.Max", "constant", "public", None),  # `const`
        ("Min", "Shop.Core.Cart.Min", "constant", "private", None),  # `static readonly`; a member's default
        ("Count", "Shop.Core.Cart.Count", "field", "public", None),  # a property
        ("Cart", "Shop.Core.Cart.Cart", "method", "public", None),  # a constructor
        ("Add", "Shop.Core.Cart.Add", "method", "public", "Adds an item."),
        ("Total", "Shop.Core.Cart.Total", "method", "public", None),  # `internal`: the assembly's
        ("a", "Shop.Core.Cart.a", "field", "private", None),
        ("b", "Shop.Core.Cart.b", "field", "private", None),  # a declaration's second name
        ("IPriced", "Shop.Core.IPriced", "interface", "public", None),  # a type's default: `internal`
        ("Price", "Shop.Core.IPriced.Price", "method", "public", None),  # an interface's members
        ("Color", "Shop.Core.Color", "enum", "public", None),
        ("Red", "Shop.Core.Color.Red", "constant", "public", None),
        ("Person", "Shop.Core.Person", "class", "public", None)]  # a record
    assert [(e[1], e[2], e[3], e[5]) for e in result.edges if e[2] == "import"] == [
        (1, "import", "System.Collections.Generic", None), (2, "import", "Shop.Util.Helper", "Alias")]


def test_a_file_scoped_namespace_qualifies_the_whole_file() -> None:
    result = extract("Main.cs", b"namespace App.Cli;\n\nclass Main {\n  void Run() {}\n}\n", "csharp", "csharp")
    assert [s.qualified_name for s in result.symbols] == ["App.Cli.Main", "App.Cli.Main.Run"]


TREE = {
    "src/Util/Helper.cs": "namespace Shop.Util;\n\npublic static class Helper {\n"
                          "  public static void Log(string s) {}\n  public static void Log(string s, int n) {}\n}\n",
    "src/Other/Helper.cs": "namespace Shop.Other;\n\npublic static class Helper {\n"
                           "  public static void Log(string s) {}\n}\n",
    "src/Core/Base.cs": "namespace Shop.Core;\n\npublic class Base {\n  protected void Audit() {}\n"
                        "  public virtual void Add(Item item) {}\n}\n",
    "src/Core/Item.cs": "namespace Shop.Core;\n\npublic class Item {\n  public Item Copy() => this;\n}\n",
    "src/Core/Cart.cs": "using Shop.Util;\nusing H = Shop.Other.Helper;\n\nnamespace Shop.Core;\n\n"
                        "public class Cart : Base {\n  private Item last;\n\n  public override void Add(Item item) {\n"
                        "    Item copy = item.Copy();\n    last.Copy();\n    this.Total();\n    base.Add(copy);\n"
                        "    Audit();\n    Helper.Log(\"x\");\n    H.Log(\"y\");\n    var other = new Cart();\n"
                        "    other.Total();\n    Missing();\n  }\n\n  int Total() => 0;\n}\n",
}


def test_csharp_calls_resolve_through_scopes_usings_types_and_bases(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    index_workspace(tmp_path)
    assert [row for row in resolved_calls(tmp_path) if row[0] == "src/Core/Cart.cs"] == [
        ("src/Core/Cart.cs", 10, "item.Copy", "Shop.Core.Item.Copy"),  # a parameter's type, of the namespace
        ("src/Core/Cart.cs", 11, "last.Copy", "Shop.Core.Item.Copy"),  # a field, without `this.`
        ("src/Core/Cart.cs", 12, "this.Total", "Shop.Core.Cart.Total"),
        ("src/Core/Cart.cs", 13, "super.Add", "Shop.Core.Base.Add"),  # `base`: the base class's, not its own
        ("src/Core/Cart.cs", 14, "Audit", "Shop.Core.Base.Audit"),  # inherited
        ("src/Core/Cart.cs", 15, "Helper.Log", "Shop.Util.Helper.Log"),  # through `using Shop.Util;`: overloaded,
        ("src/Core/Cart.cs", 16, "H.Log", "Shop.Other.Helper.Log"),  # the first declared; an alias
        ("src/Core/Cart.cs", 17, "Cart", "Shop.Core.Cart"),  # `new`: the class
        ("src/Core/Cart.cs", 18, "other.Total", "Shop.Core.Cart.Total"),  # `var x = new T()`
        ("src/Core/Cart.cs", 19, "Missing", None)]


GLOBAL = {
    "lib/Util/Helper.cs": "namespace Shop.Util;\n\npublic static class Helper {\n  public static void Log() {}\n}\n",
    "lib/Other/Helper.cs": "namespace Shop.Other;\n\npublic static class Helper {\n  public static void Log() {}\n}\n",
    "app/GlobalUsings.cs": "global using Shop.Util;\n",
    "app/Jobs/Job.cs": "namespace App.Jobs;\n\nclass Job {\n  void Run() {\n    Helper.Log();\n  }\n}\n",
    "tools/Tool.cs": "namespace Tools;\n\nclass Tool {\n  void Run() {\n    Helper.Log();\n  }\n}\n",
}


def test_a_global_using_reaches_every_file_below_its_folder(tmp_path: Path) -> None:
    """A project's `global using` (its `GlobalUsings.cs`) holds in every file of the project's folder and below it,
    not in another project's."""
    write_tree(tmp_path, GLOBAL)
    index_workspace(tmp_path)
    assert resolved_calls(tmp_path) == [
        ("app/Jobs/Job.cs", 5, "Helper.Log", "Shop.Util.Helper.Log"),
        ("tools/Tool.cs", 5, "Helper.Log", None)]  # two classes `Helper`, neither brought in
