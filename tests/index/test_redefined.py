"""A Python name defined more than once in its one file (a branch's definition, `@overload` stubs before the
implementation) names its last definition, as running the file leaves it; defined in two files, it stays ambiguous."""

from __future__ import annotations

from pathlib import Path

from cruxgate.reference.index import index_workspace

from .conftest import edge_targets, write_tree

TOOLS = '''from typing import overload
import sys

if sys.platform == "win32":
    def raises(e):
        return 1
else:
    def raises(e):
        return 2


@overload
def conv(x: int) -> int: ...
@overload
def conv(x: str) -> str: ...
def conv(x):
    return x


def use():
    raises(1)
    conv(1)
'''
TREE = {
    "pkg/__init__.py": "",
    "pkg/tools.py": TOOLS,
    "pkg/main.py": "from pkg.tools import raises, conv\nfrom pkg import tools\nfrom pkg.stubbed import f\n\n\n"
                   "def run():\n    raises(ValueError)\n    conv('a')\n    tools.conv(2)\n    f()\n",
    # A module and its stub define one name in two files: which one a call means is not known.
    "pkg/stubbed.py": "def f():\n    pass\n\n\ndef f():\n    pass\n",
    "pkg/stubbed.pyi": "def f() -> None: ...\n",
}


def _calls(root: Path, tree: dict[str, str]) -> list[tuple]:
    """(path, line, name, the target's path and first line) of every call of `tree`, written at `root` and indexed."""
    write_tree(root, tree)
    index_workspace(root)
    return [(path, line, name, target, first) for path, line, kind, name, target, _, _, first
            in edge_targets(root) if kind == "call"]


def test_a_name_defined_again_in_its_file_names_its_last_definition(tmp_path: Path) -> None:
    assert _calls(tmp_path, TREE) == [
        ("pkg/main.py", 7, "raises", "pkg/tools.py", 8),  # the `else` branch's: the last
        ("pkg/main.py", 8, "conv", "pkg/tools.py", 16),  # the implementation after the overloads
        ("pkg/main.py", 9, "tools.conv", "pkg/tools.py", 16),
        ("pkg/main.py", 10, "pkg.stubbed.f", None, None),  # unresolved: named by the import's target
        ("pkg/tools.py", 21, "raises", "pkg/tools.py", 8),  # a call in the file itself
        ("pkg/tools.py", 22, "conv", "pkg/tools.py", 16)]


# TypeScript: a function's overload signatures before its body, a method's too, an interface and a function of one
# name (declaration merging); and a barrel's `export *`. The member `str` of a constant's annotation below them is no
# definition of the file's level: the calls of `str` still name the function.
TYPESCRIPT = {
    "web/schemas.ts": "export function str(p: string): string;\nexport function str(p: number): number;\n"
                      "export function str(p: any): any {\n  return p\n}\n\n"
                      "export class Doc {\n  write(s: string): void;\n  write(n: number): void;\n"
                      "  write(x: any): void {}\n}\n\n"
                      "export function use() {\n  str(1)\n  new Doc().write(1)\n}\n\n"
                      "export interface make {\n  x: number\n}\n\n"
                      "export function make(): make {\n  return { x: 1 }\n}\n\n"
                      "export const Kinds: {\n  str: \"str\";\n} = { str: \"str\" };\n",  # an annotation's member
    "web/index.ts": "export * from './schemas'\n",
    "web/app.ts": "import * as z from './index'\nimport { str } from './schemas'\n\n"
                  "export function run() {\n  z.str('a')\n  str(2)\n  z.make()\n}\n",
}


def test_a_typescript_functions_overloads_name_its_last_definition(tmp_path: Path) -> None:
    assert _calls(tmp_path, TYPESCRIPT) == [
        ("web/app.ts", 5, "z.str", "web/schemas.ts", 3),  # through the barrel's `export *`: the body, the last
        ("web/app.ts", 6, "str", "web/schemas.ts", 3),  # imported by name
        ("web/app.ts", 7, "z.make", "web/schemas.ts", 22),  # an interface and a function of one name: the last
        ("web/schemas.ts", 14, "str", "web/schemas.ts", 3),  # in its own file
        ("web/schemas.ts", 15, "Doc", "web/schemas.ts", 7),
        ("web/schemas.ts", 15, "write", "web/schemas.ts", 8)]  # a method's overloads: the first declared


# A class's members: Python's `@overload` stubs before a method's implementation, a branch's definitions in the class
# body, a JavaScript class's method written twice. Each class's namespace keeps the last.
MEMBERS = {
    "app/__init__.py": "",
    "app/patch.py": "from typing import overload\nimport sys\n\n\nclass Patch:\n    @overload\n"
                    "    def set(self, target: str) -> None: ...\n    @overload\n"
                    "    def set(self, target: object, name: str) -> None: ...\n"
                    "    def set(self, target, name=None):\n        self.undo()\n\n"
                    "    if sys.platform == 'win32':\n        def undo(self):\n            pass\n"
                    "    else:\n        def undo(self):\n            pass\n",
    "app/test_patch.py": "from app.patch import Patch\n\n\ndef test_set(patch: Patch) -> None:\n"
                         "    patch.set('a')\n    patch.undo()\n",
    "web/shape.js": "export class Shape {\n  area() { return 0 }\n  area() { return 1 }\n}\n\n"
                    "export function use() {\n  new Shape().area()\n}\n",
}


def test_a_member_a_class_defines_again_names_its_last_definition(tmp_path: Path) -> None:
    assert _calls(tmp_path, MEMBERS) == [
        ("app/patch.py", 11, "self.undo", "app/patch.py", 17),  # the `else` branch's: the last
        ("app/test_patch.py", 5, "patch.set", "app/patch.py", 10),  # the implementation after the overloads
        ("app/test_patch.py", 6, "patch.undo", "app/patch.py", 17),
        ("web/shape.js", 7, "Shape", "web/shape.js", 1),
        ("web/shape.js", 7, "area", "web/shape.js", 3)]
