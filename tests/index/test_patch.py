"""A patched generation holds what a full run over the same tree holds, edit after edit.

One workspace is edited step by step and re-indexed after each step (a patch of the live generation; the first two
take over a spare copy the full run made of its database, the second replaying the first's row log; from the third
on, its database is the collected generation's brought forward by the two patches' row logs);
after each step its tree is copied and indexed from scratch (`force`), and the two indices are compared:
every file, symbol (by stable id), edge (its source and target by stable id), unresolved-name count,
Tantivy document and semantic row, and the answers of locate_symbol, find_references and the outline.
Ids are per generation (a patch numbers a changed file's symbols after the rest), so symbols are
compared by stable id. search_code's and locate_symbol's rankings are compared on their top 3: Tantivy keeps a
deleted document in its BM25 statistics until its segment merges, so scores drift (on this 36-file fixture a deleted
file is a large share of the documents; lower hits reorder) — docs/index.md has the drift measured on the stdlib.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import tantivy

from cruxgate.reference.index import IndexReader, index_workspace, read_state
from cruxgate.reference.index.rowlog import ROWLOG
from cruxgate.reference.index.semantic.model import SemanticIndex
from cruxgate.reference.index.state import DATABASE, STATE_DIR
from cruxgate.reference.query.engine import QueryEngine
from cruxgate.reference.query.errors import QueryNotFound

from .conftest import built, copy_fixture

Edit = Callable[[Path], None]


def write(path: str, text: str) -> Edit:
    def edit(root: Path) -> None:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return edit


def append(path: str, text: str) -> Edit:
    def edit(root: Path) -> None:
        with open(root / path, "a", encoding="utf-8") as fh:
            fh.write(text)
    return edit


def replace(path: str, old: str, new: str) -> Edit:
    def edit(root: Path) -> None:
        text = (root / path).read_text(encoding="utf-8")
        assert old in text
        (root / path).write_text(text.replace(old, new), encoding="utf-8")
    return edit


def delete(path: str) -> Edit:
    return lambda root: (root / path).unlink()


def rename(path: str, to: str) -> Edit:
    def edit(root: Path) -> None:
        (root / path).rename(root / to)
    return edit


EXTRA = '''"""Extra helpers."""
from .tokens import validate_token


class Helper:
    def run(self) -> int:
        return self.step() + helper_fn()

    def step(self) -> int:
        return 1 if validate_token("x") else 0


def revoke_all() -> None:
    Helper().run()
'''

STEPS: list[tuple[str, list[Edit]]] = [
    ("add a file whose calls resolve into others and stay unresolved", [write("src/auth/extra.py", EXTRA)]),
    ("change a file: a body edited, a function added", [
        replace("src/auth/tokens.py", "return bool(token) and", "return len(token) > 0 and"),
        append("src/auth/tokens.py", "\n\ndef refresh_token(token: str) -> str:\n    return token[::-1]\n")]),
    ("an unresolved call gets its target", [write("src/net/helpers.py", "def helper_fn() -> int:\n    return 2\n")]),
    ("the target turns ambiguous", [write("src/db/more_helpers.py", "def helper_fn() -> int:\n    return 3\n")]),
    ("a symbol moves between files", [
        replace("src/auth/tokens.py", "\n\ndef refresh_token(token: str) -> str:\n    return token[::-1]\n", ""),
        append("src/auth/handler.py", "\n\ndef refresh_token(token: str) -> str:\n    return token[::-1]\n")]),
    ("rename a file", [rename("src/net/retry.py", "src/net/retrying.py")]),
    ("delete a file that others call into", [delete("src/net/helpers.py"), delete("src/db/more_helpers.py")]),
    ("delete a TypeScript file", [delete("src/ui/Thermometer.tsx")]),
    ("delete the added file", [delete("src/auth/extra.py")]),
]
# A package or crate marker that comes or goes moves the modules of the files around it (their qualified names, the
# imports that resolve into them): a patch parses those files again too.
LAYOUT_STEPS: list[tuple[str, list[Edit]]] = [
    ("a tool outside any package imports another module of its folder", [
        write("tools/deploy/app/run.py", "def deploy() -> int:\n    return 1\n"),
        write("tools/deploy/main.py", "from app import run\nfrom app.run import deploy\n\n\ndef main() -> int:\n"
                                      "    return deploy() + run.deploy()\n")]),
    ("its folder becomes a package: its module is counted from above the package, and the import resolves", [
        write("tools/deploy/app/__init__.py", "")]),
    ("a Rust crate's files before its manifest", [
        write("crates/util/src/lib.rs", "pub mod text;\npub mod cli;\n"),
        write("crates/util/src/text.rs", "pub fn shout(s: &str) -> String {\n    s.to_uppercase()\n}\n"),
        write("crates/util/src/cli.rs", "use crate::text::shout;\n\npub fn run() -> String {\n    shout(\"x\")\n}\n")]),
    ("its manifest comes: its modules are counted from the crate", [
        write("crates/util/Cargo.toml", "[package]\nname = \"util\"\n")]),
    ("the crate is renamed in its manifest", [replace("crates/util/Cargo.toml", '"util"', '"util_core"')]),
    ("another crate calls it by paths no `use` binds: its name, the old name, `crate::`", [
        write("apps/cli/Cargo.toml", "[package]\nname = \"cli\"\n"),
        write("apps/cli/src/main.rs", "fn main() {\n    util_core::text::shout(\"y\");\n"
                                      "    util::text::shout(\"z\");\n    crate::helper();\n}\n\nfn helper() {}\n")]),
    ("the crate gets its old name back: the other path names it", [
        replace("crates/util/Cargo.toml", '"util_core"', '"util"')]),
    ("a project manifest comes: the modules outside its packages count from its folder", [
        write("tools/deploy/pyproject.toml", "[project]\nname = \"deploy\"\n")]),
    ("the package marker goes", [delete("tools/deploy/app/__init__.py")]),
    ("a Go module: one package calls another through its import path", [
        write("svc/go.mod", "module example.com/svc\n"),
        write("svc/store/store.go", "package store\n\nfunc Save() {}\n"),
        write("svc/api/api.go", "package api\n\nimport \"example.com/svc/store\"\n\nfunc Post() {\n"
                                "\tstore.Save()\n}\n")]),
    ("the module is renamed in its go.mod: the import path names no folder of the tree", [
        replace("svc/go.mod", "example.com/svc", "example.com/service")]),
]
# Files a step's edits parse beside their own: those whose module a package or crate marker moved.
MOVED = {"its folder becomes a package: its module is counted from above the package, and the import resolves": 1,
         "its manifest comes: its modules are counted from the crate": 3, "the crate is renamed in its manifest": 3,
         "the crate gets its old name back: the other path names it": 3,
         "a project manifest comes: the modules outside its packages count from its folder": 1,
         "the package marker goes": 1}
# A Python module's top-level imports bind names others import from it (a package re-exporting its modules'
# definitions): an edge through such a name resolves to the definition it stands for, and a patch re-resolves the
# edges through an alias that came, went or now stands for another definition.
ALIAS_STEPS: list[tuple[str, list[Edit]]] = [
    ("a package re-exports a function of its module; one caller imports it by that name, one by a name not bound", [
        write("src/auth/checks.py", "def strict_check(token: str) -> bool:\n    return token.isalnum()\n"),
        write("src/auth/__init__.py", '"""Authentication."""\nfrom .checks import strict_check\n'),
        write("src/audit.py", "from auth import strict_check\n\n\ndef audit() -> bool:\n"
                              "    return strict_check(\"x\")\n"),
        write("src/review.py", "from auth import check_token\n\n\ndef review() -> bool:\n"
                               "    return check_token(\"y\")\n")]),
    ("the re-export is renamed: the first caller's name goes, the second's comes", [
        replace("src/auth/__init__.py", "import strict_check", "import strict_check as check_token")]),
    ("the function the renamed re-export stands for goes", [
        replace("src/auth/checks.py", "def strict_check(", "def lenient_check(")]),
    ("it comes back", [replace("src/auth/checks.py", "def lenient_check(", "def strict_check(")]),
    ("the package binds its module by another name, and a caller calls through it", [
        append("src/auth/__init__.py", "from . import checks as chk\n"),
        write("src/ops.py", "from auth import chk\n\n\ndef op() -> bool:\n    return chk.strict_check(\"z\")\n")]),
    ("a second package re-exports the first one's re-export", [
        append("src/settings/__init__.py", "from auth import check_token\n"),
        write("src/gate.py", "from settings import check_token\n\n\ndef gate() -> bool:\n"
                             "    return check_token(\"w\")\n")]),
    ("the first package's re-exports go", [write("src/auth/__init__.py", '"""Authentication."""\n')]),
    ("a package imports all of its module; a caller imports a function of it from the package", [
        write("src/kit/__init__.py", "from .parts import *\n"),
        write("src/kit/parts.py", "def build() -> int:\n    return 1\n"),
        write("src/maker.py", "from kit import build\n\n\ndef make() -> int:\n    return build()\n")]),
    ("the package no longer imports all of it", [write("src/kit/__init__.py", "")]),
    ("a Rust crate's root re-exports a type of its module; another crate imports it by that path", [
        write("rs/searcher/Cargo.toml", "[package]\nname = \"grep-searcher\"\n"),
        write("rs/searcher/src/lib.rs", "pub use crate::searcher::Builder;\n\nmod searcher;\n"),
        write("rs/searcher/src/searcher.rs", "pub struct Builder {}\n\nimpl Builder {\n    pub fn new() -> Builder {\n"
                                             "        Builder {}\n    }\n}\n\npub struct Other {}\n\nimpl Other {\n"
                                             "    pub fn new() -> Other {\n        Other {}\n    }\n}\n"),
        write("rs/printer/Cargo.toml", "[package]\nname = \"grep-printer\"\n"),
        write("rs/printer/src/lib.rs", "use grep_searcher::Builder;\n\npub fn top() {\n    Builder::new();\n}\n")]),
    ("the re-export stands for the other type", [
        replace("rs/searcher/src/lib.rs", "searcher::Builder;", "searcher::Other as Builder;")]),
    ("the re-export goes", [write("rs/searcher/src/lib.rs", "mod searcher;\n")]),
]
# A TypeScript workspace package re-exports its modules' definitions; another file imports them by its name.
ECMA_STEPS: list[tuple[str, list[Edit]]] = [
    ("a package re-exports all of a module; another file imports a function by the package's name", [
        write("packages/kit/package.json", '{"name": "@acme/kit"}\n'),
        write("packages/kit/src/index.ts", "export * from './text';\n"),
        write("packages/kit/src/text.ts", "export function shout(s: string): string {\n  return s;\n}\n"),
        write("web/use.ts", "import { shout } from '@acme/kit';\n\nexport function use(): string {\n"
                            "  return shout('x');\n}\n")]),
    ("the re-export of all of it becomes one of another name", [
        replace("packages/kit/src/index.ts", "export * from './text';", "export { shout as yell } from './text';")]),
    ("it re-exports all of it again", [
        replace("packages/kit/src/index.ts", "export { shout as yell } from './text';", "export * from './text';")]),
    ("the package is renamed in its package.json: the import names no package of the tree", [
        replace("packages/kit/package.json", "@acme/kit", "@acme/toolkit")]),
    ("a tsconfig extends a config that maps `@/` to a folder; a file imports through it", [
        write("apps/site/tsconfig.json", '{"extends": "./tsconfig.base.json"}\n'),
        write("apps/site/tsconfig.base.json", '{"compilerOptions": {"paths": {"@/*": ["./src/*"]}}}\n'),
        write("apps/site/src/lib/text.ts", "export function whisper(s: string): string {\n  return s;\n}\n"),
        write("apps/site/src/page.ts", "import { whisper } from '@/lib/text';\n\nexport function page(): string {\n"
                                       "  return whisper('x');\n}\n")]),
    ("the config it extends maps `@/` elsewhere: the import names nothing", [
        replace("apps/site/tsconfig.base.json", "./src/*", "./lib/*")]),
    ("and back", [replace("apps/site/tsconfig.base.json", "./lib/*", "./src/*")]),
    ("a module declares an interface and a function of one name; a file calls the function through it", [
        write("apps/site/src/lib/make.ts", "export interface make {\n  x: number\n}\n\n"
                                           "export function make(): make {\n  return { x: 1 };\n}\n"),
        write("apps/site/src/maker.ts", "import * as m from './lib/make';\n\nexport function go() {\n"
                                        "  return m.make();\n}\n")]),
    ("the function goes: the name is the interface's alone", [
        replace("apps/site/src/lib/make.ts", "export function make(): make {\n  return { x: 1 };\n}\n", "")]),
    ("an interface and a constant of one name; a parameter of that type calls the interface's method", [
        write("apps/site/src/lib/shape.ts", "export interface Shape {\n  area(): number;\n}\n\n"
                                            "export const Shape: Factory = build();\n"),
        write("apps/site/src/measure.ts", "import { Shape } from './lib/shape';\n\n"
                                          "export function measure(p: Shape) {\n  return p.area();\n}\n")]),
    ("the file declares the interface twice: the name means no one type", [
        append("apps/site/src/lib/shape.ts", "export interface Shape {\n  perimeter(): number;\n}\n")]),
    ("the tsconfig goes", [delete("apps/site/tsconfig.json")]),
    ("a barrel exports the default export its import binds; a file imports it from the barrel", [
        write("web/parts/knob.ts", "export default function Knob(): void {}\n"),
        write("web/parts/index.ts", "import Knob from './knob'\nexport { Knob }\n"),
        write("web/panel.ts", "import { Knob } from './parts'\n\nexport function panel(): void {\n  Knob()\n}\n")]),
    ("the default export is renamed", [replace("web/parts/knob.ts", "function Knob", "function Dial")]),
    ("the barrel no longer exports it", [write("web/parts/index.ts", "import Knob from './knob'\n")]),
]
# A call on a variable names the method of the type the variable is declared with: a patch re-resolves it when that
# type changes, though the call's own text does not name the type.
TYPED_STEPS: list[tuple[str, list[Edit]]] = [
    ("a parameter and a member declared with a class of the tree, by its name alone; calls on them", [
        write("src/shop/__init__.py", ""),
        write("src/shop/basket.py", "class Basket:\n    def total(self) -> int:\n        return 1\n"),
        write("src/checkout.py", "def pay(b: \"Basket\") -> int:\n    return b.total()\n"),
        write("src/shop/ledger.py", "class Ledger:\n    book: \"Basket\"\n\n    def sum(self) -> int:\n"
                                    "        return self.book.total()\n")]),
    ("a second class of that name comes: the type is ambiguous, the calls name nothing", [
        write("src/shop/spare.py", "class Basket:\n    def count(self) -> int:\n        return 2\n")]),
    ("it goes", [delete("src/shop/spare.py")]),
    ("the method is renamed", [replace("src/shop/basket.py", "def total(", "def sum_up(")]),
    ("a class's base is that class, by its name alone; its method calls the method it inherits", [
        write("src/shop/kinds.py", "class Child(Basket):\n    def pay(self) -> int:\n        return self.sum_up()\n")]),
    ("`super()` names the method of a base, here the base's base, both named in one file", [
        write("src/shop/tiers.py", "class Mid(Basket):\n    pass\n\n\nclass Top(Mid):\n    def sum_up(self) -> int:\n"
                                   "        return super().sum_up()\n")]),
    ("the inherited method is renamed: the super call names nothing", [
        replace("src/shop/basket.py", "def sum_up(", "def total(")]),
    ("and back", [replace("src/shop/basket.py", "def total(", "def sum_up(")]),
    ("a second class of that name comes: the base is ambiguous, the inherited call names nothing", [
        write("src/shop/extra.py", "class Basket:\n    def count(self) -> int:\n        return 3\n")]),
    ("a Go receiver's method in another file of its type's package", [
        write("svc/cart/cart.go", "package cart\n\ntype Cart struct{}\n\nfunc (c *Cart) Total() int {\n"
                                  "\treturn c.count()\n}\n"),
        write("svc/cart/count.go", "package cart\n\nfunc (c *Cart) count() int { return 0 }\n")]),
    ("the method's file goes", [delete("svc/cart/count.go")]),
]
# A variable a call makes is of the type the function is declared to return, resolved in the function's own file.
RETURNS_STEPS: list[tuple[str, list[Edit]]] = [
    ("a function of another file returns a class whose method its base gives (also down a chain of calls); Go's "
     "function and method results", [
        write("src/shop/__init__.py", ""),
        write("src/shop/base.py", "class Base:\n    def add(self) -> None:\n        pass\n"),
        write("src/shop/models.py", "from shop.base import Base\n\n\nclass Cart(Base):\n    pass\n\n\n"
                                    "class Other:\n    def add(self) -> None:\n        pass\n\n\n"
                                    "def make() -> Cart:\n    return Cart()\n"),
        write("src/shop/use.py", "from shop.models import make\n\n\ndef run() -> None:\n    c = make()\n    c.add()\n"
                                 "    make().add()\n"),
        write("svc/shop/cart.go", "package shop\n\ntype Cart struct{}\n\nfunc (c *Cart) Add() {}\n\n"
                                  "func (c *Cart) Clone() *Cart { return c }\n"),
        write("svc/shop/make.go", "package shop\n\nfunc NewCart() (*Cart, error) { return &Cart{}, nil }\n"),
        write("svc/shop/use.go", "package shop\n\nfunc Use() {\n\tc, _ := NewCart()\n\tc.Add()\n"
                                 "\td := c.Clone()\n\td.Add()\n\tc.Clone().Add()\n}\n")]),
    ("the function returns the other class; the Go method returns another type, of a new file", [
        replace("src/shop/models.py", "def make() -> Cart:", "def make() -> Other:"),
        replace("svc/shop/cart.go", "func (c *Cart) Clone() *Cart { return c }",
                "func (c *Cart) Clone() *Other { return nil }"),
        write("svc/shop/other.go", "package shop\n\ntype Other struct{}\n\nfunc (o *Other) Add() {}\n")]),
    ("it returns the first class again, whose base's file goes; so does the other Go type's", [
        replace("src/shop/models.py", "def make() -> Other:", "def make() -> Cart:"),
        delete("src/shop/base.py"),
        delete("svc/shop/other.go")]),
]
# A call on a field of a variable's type names the method of the field's declared type, of another file.
FIELD_STEPS: list[tuple[str, list[Edit]]] = [
    ("a class's field is of a class another file calls through a parameter", [
        write("src/till/__init__.py", ""),
        write("src/till/fields.py", "class Pricing:\n    def price(self) -> int:\n        return 0\n\n\n"
                                    "class Other:\n    def price(self) -> int:\n        return 1\n\n\n"
                                    "class Basket:\n    pricing: Pricing\n"),
        write("src/till/run.py", "from till.fields import Basket\n\n\ndef run(b: Basket) -> None:\n"
                                 "    b.pricing.price()\n")]),
    ("the field is of the other class", [
        replace("src/till/fields.py", "    pricing: Pricing\n", "    pricing: Other\n")]),
    ("the field goes", [replace("src/till/fields.py", "    pricing: Other\n", "    pass\n")]),
]
# An attribute a class's methods give a type (`self.pricing = Pricing()`), called on through a variable in another
# file; the attribute's type changes, its class goes, a subclass in a third file inherits it.
ATTRIBUTE_STEPS: list[tuple[str, list[Edit]]] = [
    ("a class's method gives an attribute a type another file calls through a parameter", [
        write("src/shop/__init__.py", ""),
        write("src/shop/pricing.py", "class Pricing:\n    def price(self) -> int:\n        return 0\n"),
        write("src/shop/other.py", "class Other:\n    def price(self) -> int:\n        return 1\n"),
        write("src/shop/basket.py", "import shop.other\nfrom shop.pricing import Pricing\n\n\n"
                                    "class Basket:\n    def __init__(self):\n        self.pricing = Pricing()\n"),
        write("src/shop/run.py", "from shop.basket import Basket\n\n\ndef run(b: Basket) -> None:\n"
                                 "    b.pricing.price()\n")]),
    # Annotated through the module's import: no edge of the file names the class.
    ("the attribute is of the other class", [
        replace("src/shop/basket.py", "self.pricing = Pricing()", "self.pricing: shop.other.Other = None")]),
    ("the attribute's class gets another method", [
        append("src/shop/other.py", "\n    def discount(self) -> int:\n        return 2\n")]),
    ("a subclass in another file inherits it", [
        write("src/shop/gift.py", "from shop.basket import Basket\n\n\nclass Gift(Basket):\n    pass\n\n\n"
                                  "def wrap(g: Gift) -> None:\n    g.pricing.price()\n")]),
    ("the attribute's class goes from its module", [
        write("src/shop/other.py", "class Another:\n    def price(self) -> int:\n        return 1\n")]),
    ("it comes back", [write("src/shop/other.py", "class Other:\n    def price(self) -> int:\n        return 1\n")]),
    ("the attribute is given no type", [
        replace("src/shop/basket.py", "self.pricing: shop.other.Other = None", "self.pricing = None")]),
]
# A Go container type gives its element as an attribute: an element of a variable of it in another file is typed.
ELEMENT_STEPS: list[tuple[str, list[Edit]]] = [
    ("a slice type of one file, a variable of it another file's function makes, its elements' calls", [
        write("src/pool/hosts.go", "package pool\n\ntype Upstream struct{}\n\nfunc (u *Upstream) Mark() {}\n\n"
                                   "type Backend struct{}\n\nfunc (b *Backend) Mark() {}\n\n"
                                   "type Pool []*Upstream\n"),
        write("src/pool/use.go", "package pool\n\nfunc newPool() Pool { return Pool{} }\n\nfunc use() {\n"
                                 "\tp := newPool()\n\tp[0].Mark()\n\tfor _, u := range p {\n\t\tu.Mark()\n\t}\n}\n")]),
    # No definition comes or goes: only the type's element changes.
    ("the slice holds the other type", [replace("src/pool/hosts.go", "type Pool []*Upstream", "type Pool []*Backend")]),
    ("the type is no container", [replace("src/pool/hosts.go", "type Pool []*Backend", "type Pool struct{}")]),
    ("it comes back as a map", [
        replace("src/pool/hosts.go", "type Pool struct{}", "type Pool map[string]*Upstream")]),
]
# A call inherits through classes of other files: each class's bases are resolved in its own file.
INHERIT_STEPS: list[tuple[str, list[Edit]]] = [
    ("a class of another file, and its base of a third, give a typed variable's call its method", [
        write("src/zoo/__init__.py", ""),
        write("src/zoo/animal.py", "class Animal:\n    def feed(self) -> None:\n        pass\n"),
        write("src/zoo/pet.py", "class Pet:\n    def feed(self) -> None:\n        pass\n"),
        write("src/zoo/cat.py", "from zoo.animal import Animal\n\n\nclass Cat(Animal):\n    pass\n"),
        write("src/zoo/keeper.py", "from zoo.cat import Cat\n\n\nclass Lion(Cat):\n    def eat(self) -> None:\n"
                                   "        self.feed()\n\n\ndef visit(c: Cat) -> None:\n    c.feed()\n"),
        # Names only a class that inherits from the middle one.
        write("src/zoo/visitor.py", "from zoo.keeper import Lion\n\n\ndef tour(x: Lion) -> None:\n    x.feed()\n")]),
    # No definition comes or goes: only the class's bases tell the calls two files away to follow them.
    ("the middle class names the other base", [
        replace("src/zoo/cat.py", "from zoo.animal import Animal\n\n\nclass Cat(Animal)",
                "from zoo.pet import Pet\n\n\nclass Cat(Pet)")]),
    ("the base's file goes: nothing inherits `feed`", [delete("src/zoo/pet.py")]),
    ("it comes back without the method; the middle class names both bases", [
        write("src/zoo/pet.py", "class Pet:\n    pass\n"),
        replace("src/zoo/cat.py", "class Cat(Pet)", "class Cat(Pet, Animal)"),
        replace("src/zoo/cat.py", "from zoo.pet import Pet\n",
                "from zoo.pet import Pet\nfrom zoo.animal import Animal\n")]),
    ("a Go struct embeds another: a value's call names the method it promotes", [
        write("svc/parse/dispenser.go", "package parse\n\ntype Dispenser struct{}\n\n"
                                        "func (d *Dispenser) Val() string { return \"\" }\n"),
        write("svc/parse/helper.go", "package parse\n\ntype Helper struct {\n\t*Dispenser\n}\n"),
        write("svc/parse/use.go", "package parse\n\nfunc Use(h Helper) string {\n\treturn h.Val()\n}\n")]),
    ("the struct embeds nothing now", [replace("svc/parse/helper.go", "\t*Dispenser\n", "\tname string\n")]),
    ("it embeds it again", [replace("svc/parse/helper.go", "\tname string\n", "\t*Dispenser\n")]),
]
# Java: a bare call names a method of its class or one it inherits, a field's type names a call's method, and `new`
# names the class, never its constructor.
JAVA_STEPS: list[tuple[str, list[Edit]]] = [
    ("a Java package: calls on a field, inherited, bare and through `new`", [
        write("java/shop/Base.java", "package shop;\n\npublic class Base {\n    protected void audit() {}\n}\n"),
        write("java/shop/Pricing.java", "package shop;\n\npublic class Pricing {\n    public Pricing() {}\n\n"
                                        "    void price() {}\n}\n"),
        write("java/shop/Cart.java", "package shop;\n\npublic class Cart extends Base {\n    Pricing pricing;\n\n"
                                     "    void add() {\n        pricing.price();\n        audit();\n"
                                     "        new Pricing();\n    }\n}\n")]),
    ("the superclass loses the method a bare call inherits", [
        replace("java/shop/Base.java", "    protected void audit() {}\n", "")]),
    ("the class gets it itself; the field's class renames its method", [
        replace("java/shop/Cart.java", "    void add() {", "    void audit() {}\n\n    void add() {"),
        replace("java/shop/Pricing.java", "void price()", "void quote()")]),
    ("the field's class overloads the method a call names now: the first declared", [
        replace("java/shop/Pricing.java", "void quote() {}\n", "void quote() {}\n\n    void quote(int n) {}\n"),
        replace("java/shop/Cart.java", "pricing.price();", "pricing.quote();")]),
]
# C: a plain call names the program's one function of that name (a file's own `static` one first), never a struct.
C_STEPS: list[tuple[str, list[Edit]]] = [
    ("a C program: a header's struct and macro, a function of another file, a file's own helper", [
        write("c/list.h", "struct list { int len; void (*release)(struct list *); };\n"
                          "#define EMPTY(l) (count(l) == 0)\n"),
        write("c/list.c", "#include \"list.h\"\n\nint count(struct list *l) { return l->len; }\n"),
        write("c/main.c", "#include \"list.h\"\n\nstatic int helper(void) { return 1; }\n\n"
                          "int main(void) {\n    struct list *l = 0;\n    count(l);\n    EMPTY(l);\n"
                          "    helper();\n    l->release(l);\n    return 0;\n}\n")]),
    ("a second definition of the function: the call names neither; the header defines its macro again", [
        write("c/extra.c", "int count(struct list *l) { return 0; }\n"),
        replace("c/list.h", "#define EMPTY(l) (count(l) == 0)\n",
                "#ifdef FAST\n#define EMPTY(l) (!(l)->len)\n#else\n#define EMPTY(l) (count(l) == 0)\n#endif\n")]),
    ("the second goes; the struct loses the member a call names, and a struct takes the function's name", [
        delete("c/extra.c"),
        replace("c/list.h", "void (*release)(struct list *);", "int cap;"),
        append("c/list.h", "struct count { int n; };\n")]),
    ("the file's own helper goes: another file's of that name is the program's one", [
        replace("c/main.c", "static int helper(void) { return 1; }\n", ""),
        append("c/list.c", "int helper(void) { return 2; }\n")]),
]
# C++: a method written out of its class's file, found from its caller's scopes and types; a header's language follows
# its text.
CPP_STEPS: list[tuple[str, list[Edit]]] = [
    ("a C++ class in a header, its method in a source file, callers of both and of a C function", [
        write("cpp/cart.h", "#pragma once\nnamespace shop {\nclass Base {\n public:\n  void audit() {}\n};\n"
                            "class Cart : public Base {\n public:\n  void add();\n};\n}\n"),
        write("cpp/cart.cc", "#include \"cart.h\"\nnamespace shop {\nvoid Cart::add() {\n  audit();\n"
                             "  log_line();\n}\n}\n"),
        write("cpp/log.h", "void log_line(void);\n"),
        write("cpp/log.c", "void log_line(void) {}\n"),
        write("cpp/main.cc", "#include \"cart.h\"\nint main() {\n  shop::Cart cart;\n  cart.add();\n"
                             "  return 0;\n}\n")]),
    ("the method moves to another file; the base loses the method a call inherits", [
        replace("cpp/cart.cc", "void Cart::add() {", "void Cart::unused() {"),
        write("cpp/cart_add.cc", "#include \"cart.h\"\nvoid shop::Cart::add() {}\n"),
        replace("cpp/cart.h", "  void audit() {}\n", "")]),
    ("a C header turns C++ (a namespace): its function is C++'s now, and the C one goes", [
        write("cpp/log.h", "namespace logs {\ninline void log_line(void) {}\n}\n"),
        delete("cpp/log.c")]),
    ("the method gets an overload in its file (the first names it), then one in another file (none does)", [
        append("cpp/cart_add.cc", "void shop::Cart::add(int n) {}\n")]),
    ("an overload in another file", [append("cpp/cart.cc", "void shop::Cart::add(long n) {}\n")]),
    ("the base class gets back the method a call inherits, written in a file of its own", [
        write("cpp/base.cc", "#include \"cart.h\"\nvoid shop::Base::audit() {}\n")]),
]
# C#: a class found through a `using` of its namespace, from the caller's namespace, and through `base`.
CSHARP_STEPS: list[tuple[str, list[Edit]]] = [
    ("C# classes of one name in two namespaces, a caller using one of them", [
        write("cs/Util/Helper.cs", "namespace Shop.Util;\n\npublic static class Helper {\n"
                                   "  public static void Log() {}\n}\n"),
        write("cs/Other/Helper.cs", "namespace Shop.Other;\n\npublic static class Helper {\n}\n"),
        write("cs/Core/Base.cs", "namespace Shop.Core;\n\npublic class Base {\n  public void Audit() {}\n}\n"),
        write("cs/Core/Cart.cs", "using Shop.Util;\n\nnamespace Shop.Core;\n\npublic class Cart : Base {\n"
                                 "  void Add() {\n    Helper.Log();\n    base.Audit();\n  }\n}\n")]),
    ("the caller uses the other namespace, whose class gains the method; the base's method gets an overload", [
        replace("cs/Core/Cart.cs", "using Shop.Util;", "using Shop.Other;"),
        replace("cs/Other/Helper.cs", "class Helper {\n", "class Helper {\n  public static void Log() {}\n"),
        replace("cs/Core/Base.cs", "  public void Audit() {}\n",
                "  public void Audit() {}\n  public void Audit(int n) {}\n")]),
    ("the class of the namespace used goes", [delete("cs/Other/Helper.cs")]),
    ("two classes of the name again; a global using brings the first namespace in, for every file below its folder", [
        write("cs/Other/Helper.cs", "namespace Shop.Other;\n\npublic static class Helper {\n"
                                    "  public static void Log() {}\n}\n"),
        replace("cs/Core/Cart.cs", "using Shop.Other;\n", ""),
        write("cs/GlobalUsings.cs", "global using Shop.Util;\n")]),
    ("the global using names the other namespace", [
        write("cs/GlobalUsings.cs", "global using Shop.Other;\n")]),
]
# Kotlin: an object found through a package's `*` import; a class's own method and its base's.
KOTLIN_STEPS: list[tuple[str, list[Edit]]] = [
    ("Kotlin objects of one name in two packages, a caller importing one package whole", [
        write("kt/util/Helper.kt", "package util\n\nobject Helper {\n    fun log() {}\n}\n"),
        write("kt/other/Helper.kt", "package other\n\nobject Helper {\n}\n"),
        write("kt/shop/Base.kt", "package shop\n\nopen class Base {\n    fun audit() {}\n}\n"),
        write("kt/shop/Cart.kt", "package shop\n\nimport util.*\n\nclass Cart : Base() {\n    fun add() {\n"
                                 "        Helper.log()\n        audit()\n    }\n}\n")]),
    ("the caller imports the other package, whose object gains the method; the class overrides the base's", [
        replace("kt/shop/Cart.kt", "import util.*", "import other.*"),
        replace("kt/other/Helper.kt", "object Helper {\n", "object Helper {\n    fun log() {}\n"),
        replace("kt/shop/Cart.kt", "    fun add() {", "    fun audit() {}\n\n    fun add() {")]),
]
# Ruby: a module's method found from the caller's module, a method the superclass gives.
RUBY_STEPS: list[tuple[str, list[Edit]]] = [
    ("Ruby modules of one name in two modules, a class calling its own module's and its superclass's", [
        write("rb/shop/util.rb", "module Shop\n  module Util\n    def self.log\n    end\n  end\nend\n"),
        write("rb/other/util.rb", "module Other\n  module Util\n  end\nend\n"),
        write("rb/shop/base.rb", "module Shop\n  class Base\n    def audit\n    end\n  end\nend\n"),
        write("rb/shop/cart.rb", "module Shop\n  class Cart < Base\n    def add\n      Util.log\n      audit()\n"
                                 "    end\n  end\nend\n")]),
    ("the class moves to the other module; the superclass loses the method", [
        replace("rb/shop/cart.rb", "module Shop\n  class Cart < Base", "module Other\n  class Cart < Shop::Base"),
        replace("rb/other/util.rb", "  module Util\n", "  module Util\n    def self.log\n    end\n"),
        replace("rb/shop/base.rb", "    def audit\n    end\n", "")]),
    ("the superclass includes a module that has it", [
        write("rb/shop/audited.rb", "module Shop\n  module Audited\n    def audit\n    end\n  end\nend\n"),
        replace("rb/shop/base.rb", "  class Base\n", "  class Base\n    include Audited\n")]),
]
# PHP: a class found through a `use`, from the caller's namespace, and through `parent::`.
PHP_STEPS: list[tuple[str, list[Edit]]] = [
    ("PHP classes of one name in two namespaces, a caller using one of them", [
        write("php/Util/Helper.php", "<?php\nnamespace Util;\n\nclass Helper {\n"
                                     "    public static function log() {}\n}\n"),
        write("php/Other/Helper.php", "<?php\nnamespace Other;\n\nclass Helper {\n}\n"),
        write("php/Shop/Base.php", "<?php\nnamespace Shop;\n\nclass Base {\n    public function audit() {}\n}\n"),
        write("php/Shop/Cart.php", "<?php\nnamespace Shop;\n\nuse Util\\Helper;\n\nclass Cart extends Base {\n"
                                   "    public function add() {\n        Helper::log();\n        parent::audit();\n"
                                   "    }\n}\n")]),
    ("the caller uses the other namespace's class, which gains the method; the base loses its own", [
        replace("php/Shop/Cart.php", "use Util\\Helper;", "use Other\\Helper;"),
        replace("php/Other/Helper.php", "class Helper {\n", "class Helper {\n    public static function log() {}\n"),
        replace("php/Shop/Base.php", "    public function audit() {}\n", "")]),
]
# Swift: a method an extension in another file gives, a method the superclass gives.
SWIFT_STEPS: list[tuple[str, list[Edit]]] = [
    ("a Swift class, its superclass and an extension in another file", [
        write("swift/Base.swift", "class Base {\n    func audit() {}\n}\n"),
        write("swift/Cart.swift", "class Cart: Base {\n    func add() {\n        audit()\n        let c = Cart()\n"
                                  "        c.extra()\n    }\n}\n"),
        write("swift/Extra.swift", "extension Cart {\n    func extra() {}\n}\n")]),
    ("the extension's method moves to another extension; the superclass loses its method", [
        write("swift/Extra.swift", "extension Cart {\n}\n"),
        write("swift/More.swift", "extension Cart {\n    func extra() {}\n}\n"),
        write("swift/Base.swift", "class Base {\n}\n")]),
]
# Scala: an object found through an import's selector; a class's own method and its base's.
SCALA_STEPS: list[tuple[str, list[Edit]]] = [
    ("Scala objects of one name in two packages, a caller importing one of them", [
        write("scala/util/Helper.scala", "package util\n\nobject Helper {\n  def log(): Unit = {}\n}\n"),
        write("scala/other/Helper.scala", "package other\n\nobject Helper {\n}\n"),
        write("scala/shop/Base.scala", "package shop\n\nclass Base {\n  def audit(): Unit = {}\n}\n"),
        write("scala/shop/Cart.scala", "package shop\n\nimport util.{Helper}\n\nclass Cart extends Base {\n"
                                       "  def add(): Unit = {\n    Helper.log()\n    audit()\n  }\n}\n")]),
    ("the caller imports the other package's object, which gains the method; the class overrides the base's", [
        replace("scala/shop/Cart.scala", "import util.{Helper}", "import other.{Helper}"),
        replace("scala/other/Helper.scala", "object Helper {\n", "object Helper {\n  def log(): Unit = {}\n"),
        replace("scala/shop/Cart.scala", "  def add(): Unit = {",
                "  def audit(): Unit = {}\n\n  def add(): Unit = {")]),
]
# A module's variable of a known class: calls on it through imports follow the class it is made of.
MODULE_VARIABLE_STEPS: list[tuple[str, list[Edit]]] = [
    ("a module makes an instance another module calls through an import", [
        write("src/keys/__init__.py", ""),
        write("src/keys/kinds.py", "class Keys:\n    def finite(self):\n        pass\n\n\n"
                                   "class Plain:\n    pass\n"),
        write("src/keys/ask.py", "from keys.kinds import Keys, Plain\n\nQ = Keys()\n"),
        write("src/keys/use.py", "from keys.ask import Q\n\n\ndef go():\n    Q.finite()\n")]),
    ("the instance is of another class now", [replace("src/keys/ask.py", "Q = Keys()", "Q = Plain()")]),
    ("that class gets the method", [append("src/keys/kinds.py", "\n    def finite(self):\n        pass\n")]),
    ("the module with the classes goes", [delete("src/keys/kinds.py")]),
]
# A Python name defined again in its one file names its last definition; a stub in a second file makes it ambiguous.
REDEFINED_STEPS: list[tuple[str, list[Edit]]] = [
    ("a function defined twice in its module: a caller names the last", [
        write("src/conv/__init__.py", ""),
        write("src/conv/impl.py", "def conv(x):\n    return 1\n\n\ndef conv(x):\n    return 2\n"),
        write("src/conv/user.py", "from conv.impl import conv\n\n\ndef go():\n    conv(1)\n")]),
    ("a stub beside the module defines it in a second file", [write("src/conv/impl.pyi", "def conv(x): ...\n")]),
    ("the stub goes", [delete("src/conv/impl.pyi")]),
    ("a third definition in the module", [append("src/conv/impl.py", "\n\ndef conv(x):\n    return 3\n")]),
    ("a method defined twice in its class: a caller of the class names the last", [
        write("src/conv/patcher.py", "class Patcher:\n    def set(self):\n        pass\n\n"
                                     "    def set(self):\n        pass\n"),
        write("src/conv/caller.py", "from conv.patcher import Patcher\n\n\ndef go(p: Patcher):\n    p.set()\n")]),
    ("a third definition in the class", [append("src/conv/patcher.py", "\n    def set(self):\n        pass\n")]),
    ("the class defines it once", [write("src/conv/patcher.py", "class Patcher:\n    def set(self):\n        pass\n")]),
]
QUERIES = ["validate_token", "helper_fn", "Helper", "refresh_token", "parse config", "retry", "AuthHandler",
           "Thermometer", "run", "deploy", "shout"]


def _stable(db: sqlite3.Connection) -> dict[int, str]:
    return dict(db.execute("SELECT symbol_id, symbol_stable_id FROM symbols"))


def _tantivy(generation: Path, stable: dict[int, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, key in (("symbols", "symbol_id"), ("snippets", "path"), ("files", "path")):
        index = tantivy.Index.open(str(generation / "tantivy" / name))
        searcher = index.searcher()
        docs = [searcher.doc(address) for _, address in
                searcher.search(tantivy.Query.all_query(), limit=max(searcher.num_docs, 1)).hits]
        if name == "symbols":
            out[name] = sorted(stable[doc["symbol_id"][0]] for doc in docs)
        elif name == "snippets":
            out[name] = sorted((doc["path"][0], doc["line_start"][0], doc["line_end"][0], doc["content"][0])
                               for doc in docs)
        else:
            out[name] = sorted(doc[key][0] for doc in docs)
    return out


def snapshot(workspace: Path) -> dict[str, Any]:
    """Everything a generation holds, with ids replaced by stable ids."""
    generation = read_state(workspace).generation
    assert generation is not None
    db = sqlite3.connect(generation / DATABASE)
    stable = _stable(db)
    parents = dict(db.execute("SELECT symbol_id, parent_symbol_id FROM symbol_relations"))
    symbols = sorted((stable[row[0]], *row[1:], stable.get(parents.get(row[0]) or 0, "")) for row in db.execute(
        "SELECT symbol_id, path, language, name, qualified_name, kind, line_start, line_end, signature, visibility, "
        "doc FROM symbols"))
    edges = sorted((stable.get(f, ""), path, line, kind, stable.get(t, ""), name) for f, path, line, kind, t, name in
                   db.execute("SELECT from_symbol_id, from_path, line, edge_type, to_symbol_id, to_name "
                              "FROM symbol_edges"))
    shot = {
        "files": db.execute("SELECT path, language, size_bytes, content_hash, line_count, parse_error_count "
                            "FROM files ORDER BY path").fetchall(),
        "symbols": symbols,
        "edges": edges,
        "unresolved": db.execute("SELECT name_key, to_name, edges FROM unresolved_names "
                                 "ORDER BY name_key, to_name").fetchall(),
        "aliases": db.execute("SELECT path, language, name, target, renamed FROM import_aliases "
                              "ORDER BY path, name, target").fetchall(),
        "class_bases": sorted((stable[c], position, stable[b]) for c, position, b in
                              db.execute("SELECT symbol_id, position, base_symbol_id FROM class_bases")),
        "attribute_types": sorted((stable[c], name, stable[t]) for c, name, t in
                                  db.execute("SELECT symbol_id, name, type_symbol_id FROM attribute_types")),
        "tantivy": _tantivy(generation, stable),
    }
    semantic = SemanticIndex.open(generation)
    shot["semantic_rows"] = sorted((m.stable_id, m.path, m.line_start, m.line_end, m.language)
                                   for m in (semantic.match(int(row), 1.0) for row in semantic.live_rows()))
    shot["semantic_files"] = semantic.files
    shot["answers"] = answers(workspace, stable)
    db.close()
    return shot


def _identity(hit: Any, stable: dict[int, str]) -> tuple:
    return (hit.path, hit.line_start, hit.line_end, hit.result_type, stable.get(hit.symbol_id))


def answers(workspace: Path, stable: dict[int, str]) -> dict[str, Any]:
    """The query engine's answers (lexical: the semantic channel's model is compared apart)."""
    engine = QueryEngine(IndexReader.open(workspace))
    out: dict[str, Any] = {}
    for query in QUERIES:
        out[f"search {query}"] = [_identity(h, stable) for h in engine.search_code(query, limit=10).hits]
        out[f"locate {query}"] = [_identity(h, stable) for h in engine.locate_symbol(query, limit=10).hits]
        try:
            refs = engine.find_references(query, limit=50)
        except QueryNotFound:
            out[f"references {query}"] = None
        else:
            out[f"references {query}"] = (refs.unresolved_count, [
                (r["path"], r["line"], r["edge_type"], stable.get(r.get("to_symbol_id") or 0))
                for r in refs.references])
    for path in ("src/auth/tokens.py", "src/auth/handler.py"):
        if (workspace / path).exists():
            outline = engine.file_outline(path, "all")
            out[f"outline {path}"] = _nodes(outline.symbols, stable)
    return out


def _nodes(nodes: list[dict[str, Any]], stable: dict[int, str]) -> list[tuple]:
    return [(stable.get(n["symbol_id"]), n["name"], n["kind"], n["line_start"], n["line_end"],
             _nodes(n.get("children") or [], stable)) for n in nodes]


def scores(workspace: Path, query: str) -> list[float]:
    engine = QueryEngine(IndexReader.open(workspace))
    return [h.score for h in engine.search_code(query, limit=10).hits]


@contextmanager
def collected_database(workspace: Path) -> Iterator[Callable[[], bool] | None]:
    """Whether the next run takes over the database of the generation it collects (the one before the replaced
    one): it is held open meanwhile, so its inode cannot be reused by a copy made after it is dropped."""
    state = workspace / STATE_DIR
    names = sorted((p for p in state.iterdir() if p.name.startswith("gen-")), key=lambda p: int(p.name[4:]))
    if len(names) < 3:
        yield None
        return
    fd = os.open(names[-3] / DATABASE, os.O_RDONLY)

    def taken_over() -> bool:
        live = read_state(workspace).generation
        return live is not None and os.fstat(fd).st_ino == (live / DATABASE).stat().st_ino

    try:
        yield taken_over
    finally:
        os.close(fd)


@contextmanager
def taken_database(workspace: Path) -> Iterator[Callable[[], str | None]]:
    """Which database the next run takes over: "collected" (the database of the generation before the replaced
    one), "spare" (a copy a full run left), or None (it copied the live one). Each is held open meanwhile, so its
    inode cannot be reused by a copy made after it is dropped."""
    state = workspace / STATE_DIR
    names = sorted((p for p in state.iterdir() if p.name.startswith("gen-")), key=lambda p: int(p.name[4:]))
    held = [("spare", os.open(spare, os.O_RDONLY)) for name in names for spare in sorted(name.glob(".spare-*.db"))]
    if len(names) >= 3:
        held.append(("collected", os.open(names[-3] / DATABASE, os.O_RDONLY)))

    def taken() -> str | None:
        live = read_state(workspace).generation
        assert live is not None
        inode = (live / DATABASE).stat().st_ino
        return next((kind for kind, fd in held if os.fstat(fd).st_ino == inode), None)

    try:
        yield taken
    finally:
        for _, fd in held:
            os.close(fd)


def _replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, steps: list[tuple[str, list[Edit]]]) -> None:
    """Edit the fixture's copy step by step, patch it after each, and compare it with a full run of the same tree."""
    workspace = copy_fixture(tmp_path / "patched")
    index_workspace(workspace)
    full_builds = built(monkeypatch)
    for step, (title, edits) in enumerate(steps):
        for edit in edits:
            edit(workspace)
        with taken_database(workspace) as taken:
            summary = index_workspace(workspace)
            # The first two patches take over a spare of the full run's database (the second replays the first's log);
            # from the third on, the database is the collected generation's, brought forward by two logs (the first's
            # base is the full run's). The comparison below shows the rows are the ones a full run gives.
            assert taken() == ("spare" if step < 2 else "collected"), f"step {step} ({title}) copied"
        assert full_builds == [], f"step {step} ({title}) ran in full"
        assert (workspace / STATE_DIR / summary.generation / ROWLOG).is_file(), f"step {step} ({title}) logged no rows"
        fresh = tmp_path / f"full-{step}"
        shutil.copytree(workspace, fresh, ignore=shutil.ignore_patterns(STATE_DIR))
        full = index_workspace(fresh, force=True)
        full_builds.clear()
        for key in ("file_count", "symbol_count", "edge_count", "unresolved_edge_count", "parse_error_files"):
            assert getattr(summary, key) == getattr(full, key), (title, key)
        assert summary.manifest["cursor"] == full.manifest["cursor"]
        assert summary.parsed_files <= len(edits) + MOVED.get(title, 0)  # only what the step touched or moved
        patched, rebuilt = snapshot(workspace), snapshot(fresh)
        patched_answers, rebuilt_answers = patched.pop("answers"), rebuilt.pop("answers")
        for part in rebuilt:
            assert patched[part] == rebuilt[part], f"step {step} ({title}): {part} differs"
        for question, answer in rebuilt_answers.items():
            got = patched_answers[question]
            if question.startswith(("search ", "locate ")):
                got, answer = got[:3], answer[:3]
            assert got == answer, f"step {step} ({title}): {question} differs"


def test_a_patched_generation_answers_as_a_full_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, STEPS)


def test_a_patch_follows_the_modules_a_package_or_crate_marker_moves(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, LAYOUT_STEPS)


def test_a_patch_follows_the_names_a_module_binds_by_its_imports(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, ALIAS_STEPS)


def test_a_patch_follows_what_a_typescript_package_and_its_re_exports_name(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, ECMA_STEPS)


def test_a_patch_follows_the_types_calls_on_variables_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, TYPED_STEPS)


def test_a_patch_follows_the_class_of_a_module_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, MODULE_VARIABLE_STEPS)


def test_a_patch_follows_a_name_defined_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, REDEFINED_STEPS)


def test_a_patch_follows_what_java_calls_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, JAVA_STEPS)


def test_a_patch_follows_what_c_calls_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, C_STEPS)


def test_a_patch_follows_what_cpp_calls_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, CPP_STEPS)


def test_a_patch_follows_what_csharp_calls_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, CSHARP_STEPS)


def test_a_patch_follows_what_kotlin_calls_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, KOTLIN_STEPS)


def test_a_patch_follows_what_ruby_calls_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, RUBY_STEPS)


def test_a_patch_follows_what_php_calls_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, PHP_STEPS)


def test_a_patch_follows_what_swift_calls_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, SWIFT_STEPS)


def test_a_patch_follows_what_scala_calls_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, SCALA_STEPS)


def test_a_patch_follows_the_types_functions_return(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, RETURNS_STEPS)


def test_a_patch_follows_the_types_fields_are_declared_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, FIELD_STEPS)


def test_a_patch_follows_the_types_attributes_are_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, ATTRIBUTE_STEPS)


def test_a_patch_follows_the_elements_container_types_give(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, ELEMENT_STEPS)


def test_a_patch_follows_what_a_call_inherits_through_other_files(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(tmp_path, monkeypatch, INHERIT_STEPS)
