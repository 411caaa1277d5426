"""A name a Python module binds by a top-level import stands for what the import names: `from lib import Thing`
resolves to the class `lib/impl.py` defines when `lib/__init__.py` re-exports it (`from .impl import Thing`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cruxgate.reference.index import build as build_module
from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.resolve import ALIAS_HOPS, LOOKUP_NAMES, Resolver

from .conftest import built, resolved_edges, write_tree

TREE = {
    "lib/__init__.py": "from .impl import Thing, helper as assist\nfrom . import impl as engine\n\n\n"
                       "def local() -> None:\n    from .impl import hidden\n",
    "lib/impl.py": "class Thing:\n    def run(self) -> None:\n        pass\n\n\ndef helper() -> None:\n    pass\n\n\n"
                   "def hidden() -> None:\n    pass\n",
    "top/__init__.py": "from lib import Thing\n",
    "cyc/__init__.py": "",
    "cyc/a.py": "from cyc.b import X\n",
    "cyc/b.py": "from cyc.a import X\n",
    "own/__init__.py": "from lib.impl import helper\n\n\ndef helper() -> None:\n    pass\n",
    "star/__init__.py": "from .fields import *\nfrom .more import *\nfrom .loop import *\n",
    "star/fields.py": "class CharField:\n    def clean(self) -> None:\n        pass\n\n\ndef _hidden() -> None:\n"
                      "    pass\n\n\ndef twice() -> None:\n    pass\n",
    "star/more.py": "def twice() -> None:\n    pass\n",
    "star/loop.py": "from star import *\n",  # two modules importing all of each other
    "app.py": "import lib\nfrom lib import Thing, assist, engine, hidden\nfrom top import Thing as T2\n"
              "from cyc.a import X\nfrom own import helper\n\n\ndef main() -> None:\n    Thing()\n    assist()\n"
              "    engine.helper()\n    lib.Thing.run()\n    T2()\n    hidden()\n    X()\n    helper()\n",
    "forms.py": "from star import CharField, _hidden, twice, missing\nimport star\n\n\ndef form() -> None:\n"
                "    star.CharField.clean()\n    _hidden()\n",
}
# app.py's edges: (line, type, target text, the qualified name of the definition it resolves to or None).
EXPECTED = [
    (1, "import", "lib", None),  # a package: no definition
    (2, "import", "lib.Thing", "lib.impl.Thing"),  # re-exported by the package
    (2, "import", "lib.assist", "lib.impl.helper"),  # re-exported under another name
    (2, "import", "lib.engine", None),  # a module bound by another name: no definition
    (2, "import", "lib.hidden", None),  # imported inside a function: not a name of the module
    (3, "import", "top.Thing", "lib.impl.Thing"),  # a re-export of a re-export
    (4, "import", "cyc.a.X", None),  # two modules importing it from each other: no definition at the end
    (5, "import", "own.helper", "own.helper"),  # the module's own definition, not the one it imports
    (9, "call", "Thing", "lib.impl.Thing"),
    (10, "call", "assist", "lib.impl.helper"),
    (11, "call", "engine.helper", "lib.impl.helper"),  # through the module the alias stands for
    (12, "call", "lib.Thing.run", "lib.impl.Thing.run"),  # a member of the class a package re-exports
    (13, "call", "T2", "lib.impl.Thing"),
    (14, "call", "lib.hidden", None),  # an unresolved call of an imported name: named as the import names it
    (15, "call", "cyc.a.X", None),
    (16, "call", "helper", "own.helper"),
]


def test_names_resolve_through_the_imports_of_the_modules_they_pass(tmp_path: Path) -> None:
    root = write_tree(tmp_path, TREE)
    index_workspace(root)
    edges = resolved_edges(root)[1]
    assert [edge[1:] for edge in edges if edge[0] == "app.py"] == EXPECTED
    # `from m import *`: the public names of the modules imported all of, when only one of them defines the name.
    assert [edge[1:] for edge in edges if edge[0] == "forms.py"] == [
        (1, "import", "star.CharField", "star.fields.CharField"),
        (1, "import", "star._hidden", None),  # a private name: `import *` leaves it out
        (1, "import", "star.missing", None),  # none defines it: the search ends, the cycle notwithstanding
        (1, "import", "star.twice", None),  # two of them define it
        (2, "import", "star", None),
        (6, "call", "star.CharField.clean", "star.fields.CharField.clean"),  # a member, through the module
        (7, "call", "star._hidden", None)]
    assert [edge[1:] for edge in edges if edge[0] == "star/__init__.py"] == [  # the module, all of it: no definition
        (1, "import", "star.fields", None), (2, "import", "star.more", None), (3, "import", "star.loop", None)]


def test_a_generation_resolved_by_another_rule_is_not_patched(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Its unchanged files' edges were resolved without the aliases, and its database has none to read."""
    root = write_tree(tmp_path, TREE)
    for i in range(20):  # a tree where one edited file is a patch's to make (at most a tenth of it)
        (root / f"notes/{i}.md").parent.mkdir(exist_ok=True)
        (root / f"notes/{i}.md").write_text(f"note {i}\n", encoding="utf-8")
    with monkeypatch.context() as older:
        older.setattr(build_module, "RESOLUTION", "older")
        index_workspace(root)
    (root / "notes/0.md").write_text("edited\n", encoding="utf-8")
    full = built(monkeypatch)
    index_workspace(root)
    assert len(full) == 1
    (root / "notes/1.md").write_text("edited\n", encoding="utf-8")
    index_workspace(root)
    assert len(full) == 1  # the same rule now: a patch


# A TypeScript workspace: `@acme/core` re-exports what its modules define; `app` imports it by the package's name.
CORE = "packages/core/src"
WORKSPACE = {
    "packages/core/package.json": '{"name": "@acme/core", "main": "dist/index.js",\n'
                                  ' "exports": {".": {"source": "./src/index.ts", "default": "./dist/index.js"}}}\n',
    f"{CORE}/index.ts": "export { Client } from './client';\nexport * from './util';\nexport * from './more';\n"
                        "export { helper as assist, default as Main } from './util';\nexport * from './loop';\n",
    f"{CORE}/loop.ts": "export * from './index';\n",  # two modules re-exporting all of each other
    f"{CORE}/client.ts": "export class Client {\n  static make(): Client {\n    return new Client();\n  }\n}\n",
    f"{CORE}/util.ts": "export function helper(): number {\n  return 1;\n}\n\n"
                       "export function twice(): number {\n  return 2;\n}\n",
    f"{CORE}/more.ts": "export function twice(): number {\n  return 3;\n}\n\nexport function extra(): void {}\n",
    f"{CORE}/deep/tool.ts": "export function tool(): void {}\n",
    "packages/app/src/main.ts": "import { Client, helper, assist, twice, extra, Main, nothing } from '@acme/core';\n"
                                "import * as core from '@acme/core';\nimport { tool } from '@acme/core/deep/tool';\n"
                                "import { Client as Local } from '../../core/src';\nimport { it } from 'vitest';\n\n"
                                "export function main(): void {\n  Client.make();\n  helper();\n  assist();\n"
                                "  twice();\n  extra();\n  core.helper();\n  new Local();\n  tool();\n  Main();\n}\n",
}
# main.ts's edges: (line, type, target text, the qualified name of the definition it resolves to or None).
WORKSPACE_EXPECTED = [
    (1, "import", "@acme/core.Client", "Client"),  # the package's entry re-exports it by name
    (1, "import", "@acme/core.Main", None),  # the default export of a module that has none
    (1, "import", "@acme/core.assist", "helper"),  # re-exported under another name
    (1, "import", "@acme/core.extra", "extra"),  # through one `export * from`
    (1, "import", "@acme/core.helper", "helper"),
    (1, "import", "@acme/core.nothing", None),  # no module defines it: the search ends, the cycle notwithstanding
    (1, "import", "@acme/core.twice", None),  # two `export * from` modules define it
    (2, "import", "@acme/core", None),  # a namespace import: the module itself
    (3, "import", "@acme/core/deep/tool.tool", "tool"),  # a path in the package (its `src/`)
    (4, "import", "../../core/src.Client", "Client"),  # a folder: its index
    (5, "import", "vitest.it", None),  # a package outside the tree
    (8, "call", "Client.make", "Client.make"),  # a member of the class the import resolved to
    (9, "call", "helper", "helper"),
    (10, "call", "assist", "helper"),
    (11, "call", "@acme/core.twice", None),
    (12, "call", "extra", "extra"),
    (13, "call", "core.helper", "helper"),  # through the namespace's re-exports
    (14, "call", "Local", "Client"),
    (15, "call", "tool", "tool"),
    (16, "call", "@acme/core.Main", None),
]


def test_typescript_names_resolve_through_workspace_packages_and_re_exports(tmp_path: Path) -> None:
    write_tree(tmp_path, WORKSPACE)
    index_workspace(tmp_path)
    _, edges = resolved_edges(tmp_path)
    assert [edge[1:] for edge in edges if edge[0] == "packages/app/src/main.ts"] == WORKSPACE_EXPECTED
    # The re-exports are edges of the index file too (find_references counts them), resolved as imports are.
    assert [edge[1:] for edge in edges if edge[0] == "packages/core/src/index.ts"] == [
        (1, "import", "./client.Client", "Client"), (2, "import", "./util", None), (3, "import", "./more", None),
        (4, "import", "./util.default", None), (4, "import", "./util.helper", "helper"), (5, "import", "./loop", None)]


class _Counted(dict):
    """A resolver table that counts the keys it is asked for."""

    asked = 0

    def get(self, key, default=None):
        self.asked += 1
        return super().get(key, default)


def test_a_name_no_module_defines_is_looked_for_once_in_each_module() -> None:
    """Six barrels that each re-export all of the other five: a name none defines is looked for in each once, not
    along every path of re-exports (5 ** 8 of them within the hop limit)."""
    files = [f"b{i}.ts" for i in range(6)]
    resolver = Resolver()
    resolver.paths = set(files)
    resolver.stars = _Counted({("typescript", f"{file}:*"): tuple(f"/b{j}:*" for j in range(6) if f"b{j}.ts" != file)
                               for file in files})
    resolver.top_level = {("b5.ts", "found"): 7}
    assert resolver._js_definition("b0.ts", "missing") is None
    assert resolver.stars.asked == len(files)
    assert resolver._js_definition("b0.ts", "found") == 7  # through any of the paths: one definition


def test_a_python_lookup_through_a_module_that_imports_all_of_its_own_submodules_ends() -> None:
    """`from .a import *` in `m` (and `.b`, `.c`) makes `m.a.x` also `m.a.a.x`, `m.b.a.x`...: a name none defines
    is looked for in a bounded number of names (3 ** 8 of them within the hop limit), and a definition one of the
    modules gives is still found."""
    resolver = Resolver()
    resolver.stars = _Counted({("python", "m.*"): ("m.a.*", "m.b.*", "m.c.*")})
    resolver.by_qualified = {("python", "m.c.found"): 5}
    assert resolver._python_definition("m.missing") is None
    # Each name asks for the modules of each of its prefixes, and a name grows by a part a hop.
    assert resolver.stars.asked <= LOOKUP_NAMES * (ALIAS_HOPS + 2)
    assert resolver._python_definition("m.found") == 5


# What a file exports without `from`: its own definitions under another name (`export default`, `export { a as b }`)
# and what its imports bind (`import Button from './button'; export { Button }`).
EXPORTS = {
    "web/button.ts": "export default function Button(): void {}\n",
    "web/card.ts": "class Card {\n  open(): void {}\n}\nexport default Card\n",
    "web/helpers.ts": "function helper(): void {}\nexport { helper as assist, helper as default }\n",
    "web/index.ts": "import Button from './button'\nimport { default as Card } from './card'\n"
                    "import { assist } from './helpers'\nexport { Button, Card as Panel, assist }\n",
    "web/page.ts": "import Button from './button'\nimport Card from './card'\nimport help from './helpers'\n"
                   "import { Button as B, Panel, assist } from './index'\nimport Missing from './index'\n\n"
                   "export function page(): void {\n  Button()\n  const c = new Card()\n  c.open()\n  help()\n"
                   "  B()\n  Panel.open()\n  assist()\n  Missing()\n}\n",
}
EXPORTS_EXPECTED = [
    (1, "import", "./button.default", "Button"),  # `export default function Button`
    (2, "import", "./card.default", "Card"),  # `export default Card`
    (3, "import", "./helpers.default", "helper"),  # `export { helper as default }`
    (4, "import", "./index.Button", "Button"),  # the barrel exports what its import binds
    (4, "import", "./index.Panel", "Card"),  # ... under another name
    (4, "import", "./index.assist", "helper"),  # ... the name of a name
    (5, "import", "./index.default", None),  # the barrel has no default export
    (8, "call", "Button", "Button"),
    (9, "call", "Card", "Card"),
    (10, "call", "c.open", "Card.open"),
    (11, "call", "help", "helper"),
    (12, "call", "B", "Button"),
    (13, "call", "Panel.open", "Card.open"),
    (14, "call", "assist", "helper"),
    (15, "call", "./index.default", None),  # unresolved: named as its import names it
]


def test_typescript_names_resolve_through_what_a_file_exports_without_from(tmp_path: Path) -> None:
    write_tree(tmp_path, EXPORTS)
    index_workspace(tmp_path)
    edges = resolved_edges(tmp_path)[1]
    assert [edge[1:] for edge in edges if edge[0] == "web/page.ts"] == EXPORTS_EXPECTED
