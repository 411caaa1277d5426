"""C++: namespaces, classes and their access labels, methods written in the class or out of it, pure virtual methods,
templates and `using` aliases as `::`-qualified symbols; a `.h` file that reads as C++ is C++'s; calls resolved from the
calling definition's scopes outwards, through declared types, `this`, a class's bases and `new`, and into C."""

from __future__ import annotations

from pathlib import Path

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import extract
from cruxgate.reference.index.languages import language_of

from .conftest import edge_targets, resolved_calls, write_tree

CART = """#include "item.h"
namespace shop {
/// A cart of items.
class SHOP_EXPORT Cart : public Base {
  int count_;
 public:
  Cart();
  void add(int item);
  int size() const { return count_; }
  virtual bool empty() const = 0;
 private:
  int a_, b_;
};
struct Point { int x; void move() {} };
enum class Color { Red };
using Id = unsigned long;
template <typename T> T biggest(T a, T b) { return a > b ? a : b; }
void Cart::add(int item) {}
Cart::~Cart() {}
bool operator==(const Point& a, const Point& b) { return true; }
}
namespace { int hidden = 0; }
static void secret() {}
void ns::deep::Thing::run() {}
"""


def test_a_cpp_file_gives_its_scoped_symbols() -> None:
    result = extract("src/cart.cc", CART.encode(), "cpp", "cpp")
    assert result.parse_errors == 0  # the export macro between `class` and the name is read past
    assert [(s.name, s.qualified_name, s.kind, s.visibility, s.doc, s.parent) for s in result.symbols] == [
        ("shop", "shop", "module", "public", None, -1),
        ("Cart", "shop::Cart", "class", "public", "A cart of items.", 0),
        ("count_", "shop::Cart::count_", "field", "private", None, 1),  # a class's members: private until a label
        ("size", "shop::Cart::size", "method", "public", None, 1),  # written in the class
        ("empty", "shop::Cart::empty", "method", "public", None, 1),  # pure virtual: its declaration is all there is
        ("a_", "shop::Cart::a_", "field", "private", None, 1),
        ("b_", "shop::Cart::b_", "field", "private", None, 1),
        ("Point", "shop::Point", "struct", "public", None, 0),
        ("x", "shop::Point::x", "field", "public", None, 7),  # a struct's: public
        ("move", "shop::Point::move", "method", "public", None, 7),
        ("Color", "shop::Color", "enum", "public", None, 0),
        ("Red", "shop::Color::Red", "constant", "public", None, 10),
        ("Id", "shop::Id", "type_alias", "public", None, 0),
        ("biggest", "shop::biggest", "function", "public", None, 0),  # a template
        ("add", "shop::Cart::add", "method", "public", None, 1),  # written out of the class, under it in this file
        ("~Cart", "shop::Cart::~Cart", "method", "public", None, 1),
        ("operator==", "shop::operator==", "function", "public", None, 0),
        ("hidden", "hidden", "variable", "private", None, -1),  # an unnamed namespace's
        ("secret", "secret", "function", "private", None, -1),  # `static`
        ("run", "ns::deep::Thing::run", "method", "public", None, -1)]  # every scope its name is written with
    signatures = {s.qualified_name: s.signature for s in result.symbols}
    assert signatures["shop::Cart"] == "class SHOP_EXPORT Cart : public Base"  # the file's own text
    assert signatures["shop::Cart::add"] == "void Cart::add(int item)"


def test_a_header_is_cpp_when_it_reads_as_cpp() -> None:
    assert language_of("include/list.h") == ("c", "c")
    assert language_of("include/list.h", b"struct list { int len; };\nint list_len(struct list *l);\n") == ("c", "c")
    assert language_of("include/cart.h", b"#pragma once\nnamespace shop {\nclass Cart {};\n}\n") == ("cpp", "cpp")
    assert language_of("include/cart.h", b"#include <vector>\nstruct Cart { std::vector<int> items; };\n") == (
        "cpp", "cpp")
    assert language_of("src/cart.cpp") == language_of("src/cart.hpp") == ("cpp", "cpp")


TREE = {
    "include/cart.h": "#pragma once\nnamespace shop {\nclass Base {\n public:\n  void audit() {}\n"
                      "  void check();\n};\n"
                      "class Store {\n public:\n  virtual int stock() const = 0;\n};\n"
                      "class Cart : public Base {\n public:\n  void add(int item);\n  int size() const { return n_; }\n"
                      "  static Cart* make();\n private:\n  int n_;\n};\nint total(const Cart& c);\n}\n",
    "src/cart.cc": "#include \"../include/cart.h\"\nnamespace shop {\nvoid Cart::add(int item) {\n  size();\n"
                   "  this->size();\n  audit();\n  total(*this);\n  log_line(\"add\");\n}\n"
                   "Cart* Cart::make() { return new Cart(); }\nint total(const Cart& c) { return c.size(); }\n}\n",
    "src/log.c": "void log_line(const char *s) {}\n",
    "src/base.cc": "#include \"../include/cart.h\"\nvoid shop::Base::check() {}\n",
    "src/main.cc": "#include \"../include/cart.h\"\nint main() {\n  shop::Cart cart;\n  cart.add(1);\n"
                   "  shop::Cart* p = shop::Cart::make();\n  p->size();\n  shop::total(cart);\n  size();\n"
                   "  shop::Store* store = nullptr;\n  store->stock();\n  p->check();\n  printf(\"x\");\n"
                   "  return 0;\n}\n",
}


def test_cpp_calls_resolve_from_their_scopes_types_and_bases(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    index_workspace(tmp_path)
    assert resolved_calls(tmp_path) == [
        ("src/cart.cc", 4, "size", "shop::Cart::size"),  # a method's own class, written elsewhere
        ("src/cart.cc", 5, "this::size", "shop::Cart::size"),
        ("src/cart.cc", 6, "audit", "shop::Base::audit"),  # what the class inherits
        ("src/cart.cc", 7, "total", "shop::total"),  # its namespace's
        ("src/cart.cc", 8, "log_line", "log_line"),  # a C function
        ("src/cart.cc", 10, "Cart", "shop::Cart"),  # `new`: the class
        ("src/cart.cc", 11, "c::size", "shop::Cart::size"),  # a parameter's type
        ("src/main.cc", 4, "cart::add", "shop::Cart::add"),  # a method written out of its class
        ("src/main.cc", 5, "shop::Cart::make", "shop::Cart::make"),
        ("src/main.cc", 6, "p::size", "shop::Cart::size"),  # through a pointer
        ("src/main.cc", 7, "shop::total", "shop::total"),
        ("src/main.cc", 8, "size", None),  # a plain call outside a class names no method
        ("src/main.cc", 10, "store::stock", "shop::Store::stock"),  # a pure virtual method
        ("src/main.cc", 11, "p::check", "shop::Base::check"),  # inherited, written out of its class elsewhere
        ("src/main.cc", 12, "printf", None)]


OVERLOADED = {
    "log.hpp": "namespace shop {\nclass Log {\n public:\n  void write(int n) {}\n  void write(const char* s) {}\n"
               "  void flush();\n  void flush(int n);\n};\n}\n",
    "log.cpp": "#include \"log.hpp\"\nnamespace shop {\nvoid Log::flush() {}\nvoid Log::flush(int n) {}\n"
               "void run(Log& log) {\n  log.write(1);\n  log.flush();\n}\n}\n",
}


def test_an_overloaded_cpp_method_is_named_by_its_first_definition(tmp_path: Path) -> None:
    """A call gives no argument types to choose an overload by: it names the first, written in the class or out of it
    (in another file than the class)."""
    write_tree(tmp_path, OVERLOADED)
    index_workspace(tmp_path)
    assert [(path, line, name, qualified, first) for path, line, kind, name, _, qualified, _, first
            in edge_targets(tmp_path) if kind == "call"] == [
        ("log.cpp", 6, "log::write", "shop::Log::write", 4),
        ("log.cpp", 7, "log::flush", "shop::Log::flush", 3)]
