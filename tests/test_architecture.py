"""The folder layout is the architecture: these tests keep the import rules true."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("conformance", "reference")  # top-level folders that install as cruxgate.conformance / cruxgate.reference

# Layers of the reference server, in the one direction data flows.
REFERENCE_LAYERS = ["config", "index", "query", "protocol", "server", "cli"]

# Sub-packages of the conformance runner, in the order a run flows: each may import only those before it.
# The spec model is the floor (it knows no server); the pytest plugin and the CLI sit above them all.
CONFORMANCE_FLOORS = ["spec", "surface", "target", "checks", "report", "runner", "fuzz", "slo"]


def module_name(path: Path) -> str:
    """Dotted module name of a file in the checkout, as installed (conformance/x.py is cruxgate.conformance.x)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("cruxgate", *parts) if parts[0] in PARTS else parts)


def imported_modules(source: str, module: str, *, is_package: bool = False) -> set[str]:
    """Absolute module names imported at run time by one module's source (relative imports resolved).

    Imports under `if TYPE_CHECKING:` are left out: they name types, and never run.
    """
    tree = ast.parse(source)
    typing_only = {id(node) for block in ast.walk(tree)
                   if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
                   for node in ast.walk(block)}
    package = module if is_package else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                found.add(node.module)
    return found


def imports_of(path: Path) -> set[str]:
    """What one file of the checkout imports at run time."""
    return imported_modules(path.read_text(encoding="utf-8"), module_name(path), is_package=path.name == "__init__.py")


def layer_of(module: str) -> str | None:
    """The reference layer a `cruxgate.reference.*` module belongs to, or None."""
    parts = module.split(".")
    if parts[:2] != ["cruxgate", "reference"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in REFERENCE_LAYERS else None


def floor_of(module: str) -> str | None:
    """The conformance sub-package a `cruxgate.conformance.*` module belongs to, or None."""
    parts = module.split(".")
    if parts[:2] != ["cruxgate", "conformance"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in CONFORMANCE_FLOORS else None


def python_files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py") if "data" not in p.parts)


@pytest.mark.parametrize("path", python_files("conformance"), ids=lambda p: str(p.relative_to(ROOT)))
def test_conformance_never_imports_reference(path: Path) -> None:
    offenders = sorted(m for m in imports_of(path) if m.startswith("cruxgate.reference"))
    assert not offenders, f"{path.relative_to(ROOT)} imports {offenders}: conformance tests servers only over the wire"


@pytest.mark.parametrize("path", python_files("reference"), ids=lambda p: str(p.relative_to(ROOT)))
def test_reference_layers_import_only_leftwards(path: Path) -> None:
    own = layer_of(module_name(path))
    if own is None:
        return  # package roots and __main__ sit above the layers
    rank = REFERENCE_LAYERS.index(own)
    backwards = sorted(m for m in imports_of(path) if (layer := layer_of(m)) and REFERENCE_LAYERS.index(layer) > rank)
    assert not backwards, f"{path.relative_to(ROOT)} ({own}) imports later layers {backwards}"


@pytest.mark.parametrize("path", python_files("conformance"), ids=lambda p: str(p.relative_to(ROOT)))
def test_conformance_floors_import_only_earlier_floors(path: Path) -> None:
    own = floor_of(module_name(path))
    if own is None:
        return  # the plugin and the CLI stand above every floor
    rank = CONFORMANCE_FLOORS.index(own)
    later = sorted(m for m in imports_of(path) if (floor := floor_of(m)) and CONFORMANCE_FLOORS.index(floor) > rank)
    assert not later, f"{path.relative_to(ROOT)} ({own}) imports later floors {later}"


def test_every_conformance_floor_is_a_package_that_says_what_it_owns() -> None:
    folders = {p.name for p in (ROOT / "conformance").iterdir() if (p / "__init__.py").is_file() and p.name != "data"}
    assert folders == set(CONFORMANCE_FLOORS)
    for floor in CONFORMANCE_FLOORS:
        assert ast.get_docstring(ast.parse((ROOT / "conformance" / floor / "__init__.py").read_text("utf-8")))


@pytest.mark.parametrize("path", python_files("conformance", "reference", "cruxgate", "tests", "benchmarks"),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_code_imports_the_parts_by_their_installed_names(path: Path) -> None:
    # The wheel installs only cruxgate; a bare `import conformance` works in a checkout and fails once installed
    # (and in a checkout it would load a second copy of the module beside the cruxgate.* one).
    bare = sorted(m for m in imports_of(path) if m.split(".")[0] in PARTS)
    assert not bare, f"{path.relative_to(ROOT)} imports {bare}: write cruxgate.{bare[0]}"


def test_the_checkout_reaches_the_parts_through_cruxgate() -> None:
    for part in PARTS:
        link = ROOT / "cruxgate" / part
        assert link.is_symlink() and link.resolve() == (ROOT / part).resolve()


def test_import_scanner_sees_relative_absolute_and_skips_typing_only_imports() -> None:
    source = ("from typing import TYPE_CHECKING\nfrom ..server import x\nimport cruxgate.reference.protocol.errors\n"
              "from . import signals\nif TYPE_CHECKING:\n    from ..protocol import y\n")
    assert imported_modules(source, "cruxgate.reference.query.engine") == {
        "typing",
        "cruxgate.reference.server",
        "cruxgate.reference.protocol.errors",
        "cruxgate.reference.query",
    }
    assert layer_of("cruxgate.reference.server.app") == "server" and layer_of("reference.server") is None
    assert floor_of("cruxgate.conformance.spec.model") == "spec" and floor_of("cruxgate.conformance.plugin") is None
    assert module_name(ROOT / "conformance" / "spec" / "__init__.py") == "cruxgate.conformance.spec"
