"""Module paths count from where each language's imports start: above a Python package chain, at a Rust crate."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cruxgate.reference.index import build as build_module
from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.packages import Layout, changed_modules, go_package, js_package, ts_path_map

from .conftest import resolved_calls, resolved_edges, write_tree

# (description, the tree's files, path, module)
CASES = [
    ("a package at the top counts from the top",
     ["app/__init__.py", "app/models/__init__.py"], "app/models/user.py", "app.models.user"),
    ("a package inside a monorepo counts from above its chain",
     ["services/api/app/__init__.py", "services/api/app/models/__init__.py"],
     "services/api/app/models/user.py", "app.models.user"),
    ("a package's __init__ is the package",
     ["services/api/app/__init__.py"], "services/api/app/__init__.py", "app"),
    ("a gap in the chain starts a new chain below it",
     ["a/__init__.py", "a/b/c/__init__.py"], "a/b/c/d.py", "c.d"),
    ("a file outside any package counts from the top, a leading src/ dropped",
     ["src/auth/__init__.py"], "src/net/retry.py", "net.retry"),
    ("a file in a src/ layout package counts from src/",
     ["src/auth/__init__.py"], "src/auth/tokens.py", "auth.tokens"),
    ("a package marker of another folder changes nothing",
     ["other/__init__.py"], "tools/run.py", "tools.run"),
    ("a module outside any package counts from its project's folder, its src/ dropped",
     ["services/api/pyproject.toml"], "services/api/src/app/main.py", "app.main"),
    ("a script beside a project's setup.py counts from it",
     ["tools/setup.py"], "tools/run.py", "run"),
    ("the nearest project decides",
     ["pyproject.toml", "services/api/pyproject.toml"], "services/api/tests/test_app.py", "tests.test_app"),
    ("a package chain counts from above itself, inside a project too",
     ["proj/pyproject.toml", "proj/src/app/__init__.py"], "proj/src/app/views.py", "app.views"),
    ("a crate's file counts from its src/",
     ["crates/util/Cargo.toml"], "crates/util/src/text/case.rs", "text::case"),
    ("a crate's lib.rs is the crate root",
     ["crates/util/Cargo.toml"], "crates/util/src/lib.rs", ""),
    ("a crate's mod.rs names its folder",
     ["crates/util/Cargo.toml"], "crates/util/src/text/mod.rs", "text"),
    ("the nearest manifest decides, not a workspace manifest above it",
     ["Cargo.toml", "crates/util/Cargo.toml"], "crates/util/src/text.rs", "text"),
    ("a crate's file outside src/ keeps its folder",
     ["crates/util/Cargo.toml"], "crates/util/tests/smoke.rs", "tests::smoke"),
    ("a Rust file without a manifest counts from the top",
     [], "crates/util/src/text.rs", "crates::util::src::text"),
    ("a language without module paths has none",
     ["web/__init__.py", "web/Cargo.toml"], "web/app.ts", ""),
    ("a file indexed as text has none", ["docs/__init__.py"], "docs/readme.md", ""),
]


@pytest.mark.parametrize(("files", "path", "module"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_module_of_a_file_in_its_tree(files: list[str], path: str, module: str) -> None:
    assert Layout([*files, path]).module(path) == module


# (description, crates/util/Cargo.toml's text or None when unreadable, the module of crates/util/src/text.rs)
CRATE_NAMES = [
    ("the package's name begins the module path, - read as _",
     '[package]\nname = "my-util"\nversion = "0.1.0"\n', "my_util::text"),
    ("the library's name wins over the package's",
     '[package]\nname = "my-util"\n\n[lib]\nname = "util_core"\n', "util_core::text"),
    ("a workspace's manifest names no crate", '[workspace]\nmembers = ["a"]\n', "text"),
    ("a manifest that is not TOML names no crate", "[package\nname = ", "text"),
    ("a name that is no identifier is not used", '[package]\nname = "9lives"\n', "text"),
    ("an unreadable manifest names no crate", None, "text"),
    ("a manifest nested deeper than the parser goes names no crate",
     '[package]\nname = "deep"\nv = ' + "[" * 100_000 + "]" * 100_000 + "\n", "text"),
]


@pytest.mark.parametrize(("manifest", "module"), [case[1:] for case in CRATE_NAMES],
                         ids=[case[0] for case in CRATE_NAMES])
def test_a_crate_is_named_by_its_manifest(manifest: str | None, module: str) -> None:
    files = {"crates/util/Cargo.toml": manifest}
    layout = Layout([*files, "crates/util/src/text.rs", "crates/util/src/lib.rs"], read=files.get)
    assert layout.module("crates/util/src/text.rs") == module
    assert layout.module("crates/util/src/lib.rs") == module.removesuffix("text").removesuffix("::")


_BINARY = '[package]\nname = "rg"\n\n[[bin]]\nname = "rg"\npath = "crates/core/main.rs"\n'
# (description, the top Cargo.toml's text, a file of the crate, its module)
CRATE_ROOTS = [
    ("a binary's root file outside src/ is the crate root", _BINARY, "crates/core/main.rs", "rg"),
    ("a file below it counts from the root's folder", _BINARY, "crates/core/flags/parse.rs", "rg::flags::parse"),
    ("a mod.rs below it names its folder", _BINARY, "crates/core/flags/mod.rs", "rg::flags"),
    ("a file outside the root's folder keeps its folders", _BINARY, "tests/util.rs", "rg::tests::util"),
    ("a root file of another name is the crate root",
     '[package]\nname = "x"\n\n[[bin]]\nname = "t"\npath = "cli/app.rs"\n', "cli/app.rs", "x"),
    ("the library's root file outside src/", '[package]\nname = "x"\n\n[lib]\npath = "lib/x.rs"\n', "lib/a/b.rs",
     "x::a::b"),
    ("a root inside src/ counts from src/ as before",
     '[package]\nname = "x"\n\n[[bin]]\nname = "tool"\npath = "src/bin/tool.rs"\n', "src/bin/tool.rs", "x::bin::tool"),
    ("a root that leaves the crate is none", '[package]\nname = "x"\n\n[lib]\npath = "../y/lib.rs"\n', "y/a.rs",
     "x::y::a"),
    ("a target whose path is no string is none", '[package]\nname = "x"\n\n[[bin]]\nname = "t"\npath = 1\n',
     "t/a.rs", "x::t::a"),
]


@pytest.mark.parametrize(("manifest", "path", "module"), [case[1:] for case in CRATE_ROOTS],
                         ids=[case[0] for case in CRATE_ROOTS])
def test_a_crate_counts_modules_from_the_root_files_its_manifest_names(manifest: str, path: str, module: str) -> None:
    files = {"Cargo.toml": manifest}
    assert Layout([*files, path], read=files.get).module(path) == module


# (description, the tree's go.mod files and what each declares, an import path, the directory it names or None)
GO_IMPORTS = [
    ("a package of the module at the top", {"go.mod": "module example.com/m\n"}, "example.com/m/util", "util"),
    ("the module's own folder", {"go.mod": "module example.com/m\n"}, "example.com/m", ""),
    ("a module in a folder", {"svc/go.mod": "module example.com/svc\n"}, "example.com/svc/a/b", "svc/a/b"),
    ("the longest module path that begins the import", {"go.mod": "module example.com/m\n",
                                                        "tools/go.mod": "module example.com/m/tools\n"},
     "example.com/m/tools/lint", "tools/lint"),
    ("a major version's path", {"go.mod": "module example.com/m/v2\n"}, "example.com/m/v2/x", "x"),
    ("a quoted path, a comment after it", {"go.mod": '// the module\nmodule "example.com/q" // q\n'},
     "example.com/q/x", "x"),
    ("a module path that only begins like it", {"go.mod": "module example.com/m\n"}, "example.com/mm/x", None),
    ("the standard library", {"go.mod": "module example.com/m\n"}, "net/http", None),
    ("a go.mod without a module directive", {"go.mod": "go 1.22\n"}, "example.com/m/x", None),
]


@pytest.mark.parametrize(("manifests", "imported", "directory"), [case[1:] for case in GO_IMPORTS],
                         ids=[case[0] for case in GO_IMPORTS])
def test_a_go_import_path_names_a_folder_of_its_module(manifests: dict[str, str], imported: str,
                                                       directory: str | None) -> None:
    layout = Layout([*manifests, "main.go"], read=manifests.get)
    assert go_package(layout.go_modules, imported) == directory


# (description, a package.json's text, the package's name and entry candidates, or None: it names no package)
JS_PACKAGES = [
    ("a name alone: the usual source entries", '{"name": "lib"}', ("lib", ("src/index", "index"))),
    ("the export of `.` under each condition, in order, then the entry fields",
     '{"name": "@a/b", "main": "dist/b.cjs", "exports": {".": {"source": "./src/b.ts", "import": {"default": '
     '"./dist/b.js"}}, "./package.json": "./package.json"}}',
     ("@a/b", ("src/b.ts", "dist/b.js", "dist/b.cjs", "src/index", "index"))),
    ("exports that are the conditions of `.`", '{"name": "c", "exports": {"import": "./c.mjs"}}',
     ("c", ("c.mjs", "src/index", "index"))),
    ("an export that is one path", '{"name": "d", "exports": "./lib/d.js", "types": "./lib/d.d.ts"}',
     ("d", ("lib/d.js", "lib/d.d.ts", "src/index", "index"))),
    ("no name", '{"private": true}', None),
    ("JSON that does not parse", '{"name": ', None),
    ("not an object", '["x"]', None),
    ("nested deeper than the decoder goes", '{"name": "e", "exports": ' + "[" * 100_000 + "]" * 100_000 + "}", None),
    ("nested deep within the decoder's reach", '{"name": "f", "exports": ' + "[" * 400 + '"./f.js"' + "]" * 400 + "}",
     ("f", ("f.js", "src/index", "index"))),
]


@pytest.mark.parametrize(("text", "package"), [case[1:] for case in JS_PACKAGES], ids=[case[0] for case in JS_PACKAGES])
def test_a_package_json_names_its_package_and_entries(text: str, package: tuple | None) -> None:
    assert js_package(lambda path: text, "package.json") == package


# (description, the tree's configs (path -> text), the config read, an import, the paths it may name in order, every
# config read or named)
TS_PATHS = [
    ("a pattern and `baseUrl`: the pattern's paths, then the import below baseUrl",
     {"web/tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./src/*", "./gen/*"]}}}'},
     "web/tsconfig.json", "@/lib/utils", ["web/src/lib/utils", "web/gen/lib/utils", "web/@/lib/utils"],
     {"web/tsconfig.json"}),
    ("paths without baseUrl are read from the config's folder; an import no pattern matches names nothing",
     {"tsconfig.json": '{"compilerOptions": {"paths": {"~/*": ["app/*"]}}}'},
     "tsconfig.json", "react", [], {"tsconfig.json"}),
    ("a pattern without `*` before any with it; of those, the one with the longest part before `*`",
     {"tsconfig.json": '{"compilerOptions": {"paths": {"@app/*": ["a/*"], "@app/core/*": ["core/*"], '
                       '"@app/core/x": ["exact/x"]}}}'},
     "tsconfig.json", "@app/core/x", ["exact/x"], {"tsconfig.json"}),
    ("the longest part before `*`", {"tsconfig.json": '{"compilerOptions": {"paths": {"@app/*": ["a/*"], '
                                                      '"@app/core/*": ["core/*"]}}}'},
     "tsconfig.json", "@app/core/y", ["core/y"], {"tsconfig.json"}),
    ("comments and trailing commas, as TypeScript reads a config",
     {"tsconfig.json": '{\n  // aliases\n  "compilerOptions": {/* here */ "paths": {"@/*": ["src/*",],},},\n}'},
     "tsconfig.json", "@/a", ["src/a"], {"tsconfig.json"}),
    ("`extends`: the options of the config it names, its own over them; baseUrl read from the config that sets it",
     {"apps/web/tsconfig.json": '{"extends": "../../tsconfig.base", "compilerOptions": {"baseUrl": "."}}',
      "tsconfig.base.json": '{"compilerOptions": {"baseUrl": "src", "paths": {"@lib/*": ["libs/*"]}}}'},
     "apps/web/tsconfig.json", "@lib/a", ["apps/web/libs/a", "apps/web/@lib/a"],
     {"apps/web/tsconfig.json", "tsconfig.base.json"}),
    ("paths a config extends, without baseUrl, are read from the folder of the config that sets them",
     {"apps/web/tsconfig.json": '{"extends": "../../tsconfig.base.json"}',
      "tsconfig.base.json": '{"compilerOptions": {"paths": {"@lib/*": ["libs/*"]}}}'},
     "apps/web/tsconfig.json", "@lib/a", ["libs/a"], {"apps/web/tsconfig.json", "tsconfig.base.json"}),
    ("a list of `extends`: a later one's options over an earlier one's; a package's config is not read",
     {"tsconfig.json": '{"extends": ["./one.json", "@tsconfig/node20/tsconfig.json", "./two.json"]}',
      "one.json": '{"compilerOptions": {"paths": {"x/*": ["one/*"]}}}',
      "two.json": '{"compilerOptions": {"paths": {"x/*": ["two/*"]}}}'},
     "tsconfig.json", "x/a", ["two/a"], {"tsconfig.json", "one.json", "two.json"}),
    ("a chain of `extends` that loops ends; one that leaves the tree is not read",
     {"a/tsconfig.json": '{"extends": "../b/tsconfig.json"}',
      "b/tsconfig.json": '{"extends": ["../a/tsconfig.json", "../../out.json"], '
                         '"compilerOptions": {"paths": {"b": ["b/b"]}}}'},
     "a/tsconfig.json", "b", ["b/b/b"], {"a/tsconfig.json", "b/tsconfig.json"}),
    ("a path that leaves the tree names nothing",
     {"tsconfig.json": '{"compilerOptions": {"paths": {"*": ["../*"]}}}'},
     "tsconfig.json", "a", [], {"tsconfig.json"}),
    ("nested deeper than the parser goes",
     {"tsconfig.json": '{"compilerOptions": ' + "[" * 100_000 + "]" * 100_000 + "}"},
     "tsconfig.json", "a", None, {"tsconfig.json"}),
    ("neither paths nor baseUrl", {"tsconfig.json": '{"compilerOptions": {"strict": true}}'},
     "tsconfig.json", "a", None, {"tsconfig.json"}),
]


@pytest.mark.parametrize(("configs", "config", "imported", "paths", "read"), [case[1:] for case in TS_PATHS],
                         ids=[case[0] for case in TS_PATHS])
def test_a_tsconfig_maps_a_bare_import_to_paths_of_the_tree(configs: dict[str, str], config: str, imported: str,
                                                            paths: list[str] | None, read: set[str]) -> None:
    files: set[str] = set()
    mapping = ts_path_map(configs.get, config, files)
    assert (None if mapping is None else mapping.candidates(imported)) == paths
    assert files == read


def test_changed_modules_names_the_files_a_marker_moved() -> None:
    files = ["tools/app/run.py", "tools/main.py", "crates/u/src/a.rs", "README.md"]
    before = Layout(files)
    assert changed_modules(before, Layout(files), files) == []
    after = Layout([*files, "tools/app/__init__.py", "crates/u/Cargo.toml"])
    assert changed_modules(before, after, files) == ["tools/app/run.py", "crates/u/src/a.rs"]
    assert changed_modules(before, Layout([*files, "tools/pyproject.toml"]), files) == ["tools/app/run.py",
                                                                                       "tools/main.py"]
    # A manifest edited in place may have renamed its crate: every file inside it is named again.
    assert changed_modules(after, after, files, edited=["crates/u/Cargo.toml"]) == ["crates/u/src/a.rs"]


MONOREPO = {
    "services/api/app/__init__.py": "",
    "services/api/app/tokens.py": "def issue() -> str:\n    return 'x'\n",
    "services/api/app/views.py": "from app.tokens import issue\nfrom .tokens import issue as again\n\n\n"
                                 "def login() -> str:\n    return issue() + again()\n",
    "libs/util/Cargo.toml": "[package]\nname = \"util\"\n",
    "libs/util/src/lib.rs": "pub mod text;\npub mod cli;\n",
    "libs/util/src/text.rs": "pub fn shout(s: &str) -> String {\n    s.to_uppercase()\n}\n",
    "libs/util/src/cli.rs": "use crate::text::shout;\n\npub fn run() -> String {\n    shout(\"x\")\n}\n",
    "apps/cli/Cargo.toml": "[package]\nname = \"cli-main\"\n",
    "apps/cli/src/main.rs": "use util::text::shout;\n\nfn main() {\n    shout(\"y\");\n}\n",
}
# A binary whose root file is outside src/ (its manifest's `[[bin]] path`): `crate::` paths count from its folder.
BINARY = {
    "Cargo.toml": "[package]\nname = \"tool\"\n\n[[bin]]\nname = \"tool\"\npath = \"crates/core/main.rs\"\n",
    "crates/core/main.rs": "mod flags;\n\nfn main() {\n    crate::flags::parse::low();\n}\n",
    "crates/core/flags/mod.rs": "pub mod parse;\n",
    "crates/core/flags/parse.rs": "pub fn low() {}\n",
}


def test_imports_of_a_monorepo_resolve(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "mono", MONOREPO)
    index_workspace(root)
    names, edges = resolved_edges(root)
    assert (names["issue"], names["login"], names["shout"], names["run"], names["main"]) == (
        "app.tokens.issue", "app.views.login", "util::text::shout", "util::cli::run", "cli_main::main")
    assert [e for e in edges if e[0] == "services/api/app/views.py"] == [
        ("services/api/app/views.py", 1, "import", "app.tokens.issue", "app.tokens.issue"),
        ("services/api/app/views.py", 2, "import", "app.tokens.issue", "app.tokens.issue"),
        ("services/api/app/views.py", 6, "call", "again", "app.tokens.issue"),  # the alias is the name called
        ("services/api/app/views.py", 6, "call", "issue", "app.tokens.issue")]
    assert ("libs/util/src/cli.rs", 1, "import", "crate::text::shout", "util::text::shout") in edges
    assert ("libs/util/src/cli.rs", 4, "call", "shout", "util::text::shout") in edges
    # Another crate of the workspace names it by its crate's name.
    assert ("apps/cli/src/main.rs", 1, "import", "util::text::shout", "util::text::shout") in edges
    assert ("apps/cli/src/main.rs", 4, "call", "shout", "util::text::shout") in edges


# A crate's root re-exports its module's types (`pub use`): another crate imports them by the root's path.
REEXPORTS = {
    "Cargo.toml": "[workspace]\nmembers = [\"searcher\", \"printer\"]\n",
    "searcher/Cargo.toml": "[package]\nname = \"grep-searcher\"\n",
    "searcher/src/lib.rs": "pub use crate::searcher::Builder;\npub use sinks::Lossy;\n\nmod searcher;\nmod sinks;\n",
    "searcher/src/searcher.rs": "pub struct Builder {}\n\nimpl Builder {\n    pub fn new() -> Builder {\n"
                                "        Builder {}\n    }\n}\n",
    "searcher/src/sinks.rs": "pub fn Lossy() {}\n",
    "printer/Cargo.toml": "[package]\nname = \"grep-printer\"\n",
    "printer/src/lib.rs": "use grep_searcher::Lossy;\n\npub fn top() {\n    Lossy();\n}\n\n#[cfg(test)]\nmod tests {\n"
                          "    use grep_searcher::Builder;\n\n    fn t() {\n        Builder::new();\n    }\n}\n",
}


def test_a_crate_roots_re_exports_name_what_they_stand_for(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "grep", REEXPORTS)
    index_workspace(root)
    assert [edge for edge in resolved_edges(root)[1] if edge[0] == "printer/src/lib.rs"] == [
        ("printer/src/lib.rs", 1, "import", "grep_searcher::Lossy", "grep_searcher::sinks::Lossy"),  # a module's
        ("printer/src/lib.rs", 4, "call", "Lossy", "grep_searcher::sinks::Lossy"),
        ("printer/src/lib.rs", 9, "import", "grep_searcher::Builder", "grep_searcher::searcher::Builder"),  # `crate::`
        ("printer/src/lib.rs", 12, "call", "Builder::new", "grep_searcher::searcher::Builder::new")]


def test_a_binarys_crate_paths_count_from_its_root_files_folder(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "tool", BINARY)
    index_workspace(root)
    assert ("crates/core/main.rs", 4, "call", "crate::flags::parse::low", "tool::flags::parse::low") \
        in resolved_edges(root)[1]


# An app whose tsconfig sets its baseUrl and extends a base config whose paths map `@/` to the app's folder and
# `~lib/` to a library's.
ALIASED = {
    "tsconfig.base.json": '{"compilerOptions": {"paths": {"@/*": ["./*"], "~lib/*": ["../../libs/ui/src/*"]}}}',
    "libs/ui/src/button.ts": "export function Button() {}\n",
    "apps/web/tsconfig.json": '{\n  // the app\n  "extends": "../../tsconfig.base.json",\n'
                              '  "compilerOptions": {"baseUrl": ".",},\n}\n',
    "apps/web/lib/utils.ts": "export function cn() {}\n",
    "apps/web/types/index.d.ts": "export interface Plan {}\n",
    "apps/web/page.tsx": "import { cn } from '@/lib/utils'\nimport { Button } from '~lib/button'\n"
                         "import { Plan } from 'types'\nimport { z } from 'zod'\n\nexport function Page() {\n"
                         "  cn()\n  Button()\n}\n",
    "apps/other/page.ts": "import { cn } from '@/lib/utils'\n",  # no tsconfig.json above it
}


def test_a_path_alias_names_the_file_the_nearest_tsconfig_maps_it_to(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "mono", ALIASED)
    index_workspace(root)
    edges = resolved_edges(root)[1]
    assert [e[1:] for e in edges if e[0] == "apps/web/page.tsx"] == [
        (1, "import", "@/lib/utils.cn", "cn"),  # the `paths` of the config it extends, read from its own baseUrl
        (2, "import", "~lib/button.Button", "Button"),
        (3, "import", "types.Plan", "Plan"),  # baseUrl alone; a declaration file
        (4, "import", "zod.z", None),  # a package outside the tree
        (7, "call", "cn", "cn"), (8, "call", "Button", "Button")]
    assert [e[1:] for e in edges if e[0] == "apps/other/page.ts"] == [(1, "import", "@/lib/utils.cn", None)]


def test_a_generation_of_another_module_rule_is_extracted_again(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """An index an older release wrote (modules from the path alone) is neither patched nor reused as it is."""
    root = write_tree(tmp_path / "mono", MONOREPO)
    for i in range(20):  # a tree where one edited file is a patch's to make (at most a tenth of it)
        (root / f"notes/{i}.md").parent.mkdir(exist_ok=True)
        (root / f"notes/{i}.md").write_text(f"note {i}\n", encoding="utf-8")
    with monkeypatch.context() as older:
        older.setattr(build_module, "MODULE_LAYOUT", "path-only")
        older.setattr(Layout, "module", lambda self, path: "")
        index_workspace(root)
    assert resolved_edges(root)[0]["issue"] == "issue"
    (root / "notes/0.md").write_text("edited\n", encoding="utf-8")  # a patch's edit, were the rule the same
    summary = index_workspace(root)
    # The edited note, and all but the crates' two manifests (text, without a module).
    assert (summary.parsed_files, summary.reused_files) == (len(MONOREPO) - 2 + 1, 2 + 19)
    fresh = write_tree(tmp_path / "fresh", MONOREPO)
    shutil.copytree(root / "notes", fresh / "notes")
    index_workspace(fresh)
    assert resolved_edges(root) == resolved_edges(fresh)


THROUGH_IMPORTS = {
    "app/__init__.py": "",
    "app/tokens.py": "def issue() -> str:\n    return 'x'\n\n\nclass Issuer:\n    @classmethod\n"
                     "    def make(cls) -> 'Issuer':\n        return cls()\n",
    "app/views.py": "import app.tokens\nimport app.tokens as tk\nfrom app import tokens\n"
                    "from app.tokens import Issuer\nimport os.path\n\n\ndef login() -> None:\n    app.tokens.issue()\n"
                    "    tk.issue()\n"
                    "    tokens.issue()\n    Issuer.make()\n    os.path.join('a')\n    tokens.missing()\n",
    "Cargo.toml": "[package]\nname = \"util\"\n",
    "src/lib.rs": "pub mod text;\npub mod cli;\n",
    "src/text.rs": "pub fn shout() {}\n\npub struct Shouter;\n\nimpl Shouter {\n    pub fn new() -> Self {\n"
                   "        Shouter\n    }\n}\n",
    "src/cli.rs": "use crate::text;\nuse crate::text::Shouter;\n\npub fn run() {\n    text::shout();\n"
                  "    Shouter::new();\n}\n",
    "web/util.ts": "export function f(): number {\n  return 1;\n}\n\nexport class Foo {\n"
                   "  static create(): Foo {\n    return new Foo();\n  }\n}\n",
    "web/main.ts": "import * as u from './util';\nimport { Foo } from './util';\n\n"
                   "export function main(): void {\n  u.f();\n  Foo.create();\n  u.missing();\n}\n",
    "shop/go.mod": "module example.com/shop/v2\n\ngo 1.22\n",
    "shop/shop.go": "package shop\n\nfunc Open() {}\n",
    "shop/cart/cart.go": "package cart\n\nimport \"example.com/shop/v2\"\n\nfunc Total() int {\n\tshop.Open()\n"
                         "\treturn 1\n}\n",
    "shop/cmd/main.go": "package main\n\nimport (\n\tc \"example.com/shop/v2/cart\"\n\t\"fmt\"\n)\n\n"
                        "func main() {\n\tc.Total()\n\tfmt.Println()\n\tc.Missing()\n}\n",
}


def test_calls_through_an_imported_module_or_type_resolve(tmp_path: Path) -> None:
    """`tokens.issue()` after `from app import tokens`, `Shouter::new()` after `use crate::text::Shouter`,
    `cart.Total()` after `import "example.com/shop/v2/cart"`: the call names a definition through what the import
    brought in."""
    write_tree(tmp_path, THROUGH_IMPORTS)
    index_workspace(tmp_path)
    calls = resolved_calls(tmp_path)
    assert [c for c in calls if c[0] == "app/views.py"] == [
        ("app/views.py", 9, "app.tokens.issue", "app.tokens.issue"),  # import a.b: the call spells the module
        ("app/views.py", 10, "tk.issue", "app.tokens.issue"),  # import a.b as m
        ("app/views.py", 11, "tokens.issue", "app.tokens.issue"),  # from a import b
        ("app/views.py", 12, "Issuer.make", "app.tokens.Issuer.make"),  # a class brought in
        ("app/views.py", 13, "os.path.join", None),  # outside the tree
        ("app/views.py", 14, "tokens.missing", None)]  # no such definition
    assert [c for c in calls if c[0] == "src/cli.rs"] == [
        ("src/cli.rs", 5, "text::shout", "util::text::shout"),
        ("src/cli.rs", 6, "Shouter::new", "util::text::Shouter::new")]
    assert [c for c in calls if c[0] == "web/main.ts"] == [
        ("web/main.ts", 5, "u.f", "f"),  # import * as u
        ("web/main.ts", 6, "Foo.create", "Foo.create"),  # a class imported by name: its member
        ("web/main.ts", 7, "u.missing", None)]
    assert [c for c in calls if c[0].endswith(".go")] == [
        ("shop/cart/cart.go", 6, "shop.Open", "Open"),  # `example.com/shop/v2` is package shop, in go.mod's folder
        ("shop/cmd/main.go", 9, "c.Total", "Total"),  # an alias, the module's path, then `cart/`
        ("shop/cmd/main.go", 10, "fmt.Println", None),  # outside the tree's modules
        ("shop/cmd/main.go", 11, "c.Missing", None)]


# Rust calls by a path no `use` binds: an item of another crate of the workspace, of the crate (`crate::`), of the
# parent module (`super::`), of this module (`self::`), of a module this one declares; and a variable's method,
# which `row.get()` writes as `row::get` too.
RUST_PATHS = {
    "libs/util/Cargo.toml": "[package]\nname = \"util\"\n",
    "libs/util/src/lib.rs": "pub mod text;\n\npub fn version() {}\n",
    "libs/util/src/text/mod.rs": "pub mod case;\n\npub fn shout() {}\n\npub fn loud() {\n    case::upper();\n"
                                 "    self::case::upper();\n    self::shout();\n}\n",
    "libs/util/src/text/case.rs": "pub fn upper() {}\n\npub fn lower() {\n    super::shout();\n"
                                  "    crate::text::shout();\n    crate::version();\n    let text = Voice {};\n"
                                  "    text.shout();\n}\n",
    "apps/cli/Cargo.toml": "[package]\nname = \"cli-main\"\n",
    "apps/cli/src/main.rs": "pub mod text {\n    pub fn upper() {}\n}\n\nfn main() {\n    util::text::shout();\n"
                            "    util::version();\n    util::missing();\n    std::process::exit(0);\n"
                            "    let case = Row {};\n    case.upper();\n}\n",
}


def test_a_rust_path_names_its_item_without_a_use(tmp_path: Path) -> None:
    write_tree(tmp_path, RUST_PATHS)
    index_workspace(tmp_path)
    calls = resolved_calls(tmp_path)
    assert calls == [
        ("apps/cli/src/main.rs", 6, "util::text::shout", "util::text::shout"),  # another crate of the tree
        ("apps/cli/src/main.rs", 7, "util::version", "util::version"),  # its top
        ("apps/cli/src/main.rs", 8, "util::missing", None),
        ("apps/cli/src/main.rs", 9, "std::process::exit", None),  # outside the tree
        ("apps/cli/src/main.rs", 11, "case::upper", None),  # a variable: `case` names no module here
        ("libs/util/src/text/case.rs", 4, "super::shout", "util::text::shout"),
        ("libs/util/src/text/case.rs", 5, "crate::text::shout", "util::text::shout"),
        ("libs/util/src/text/case.rs", 6, "crate::version", "util::version"),
        # A variable: `text` is no module of this one (only of the crate, as 2015's paths would read it).
        ("libs/util/src/text/case.rs", 8, "text::shout", None),
        ("libs/util/src/text/mod.rs", 6, "case::upper", "util::text::case::upper"),  # a module it declares
        ("libs/util/src/text/mod.rs", 7, "self::case::upper", "util::text::case::upper"),
        ("libs/util/src/text/mod.rs", 8, "self::shout", "util::text::shout")]


# A Go package with a function and a method of one name: a call without a receiver, or on the package, names the
# function; a call on a value of the type names the method.
GO_SAME_NAMES = {
    "go.mod": "module example.com/web\n",
    "errs/errs.go": "package errs\n\nfunc Error() error { return nil }\n\ntype HandlerError struct{}\n\n"
                    "func (e HandlerError) Error() string { return \"\" }\n\nfunc wrap() {\n\tError()\n}\n",
    "api/api.go": "package api\n\nimport \"example.com/web/errs\"\n\nfunc Post(h errs.HandlerError) {\n"
                  "\terrs.Error()\n\th.Error()\n}\n",
}


def test_a_go_call_without_a_receiver_names_no_method(tmp_path: Path) -> None:
    write_tree(tmp_path, GO_SAME_NAMES)
    index_workspace(tmp_path)
    calls = resolved_calls(tmp_path)
    assert calls == [
        ("api/api.go", 6, "errs.Error", "Error"),
        ("api/api.go", 7, "h.Error", "HandlerError.Error"),
        ("errs/errs.go", 10, "Error", "Error")]
