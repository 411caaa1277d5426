"""The folder layout is the architecture: these tests keep the import rules true."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Layers of the reference server, in the one direction data flows.
REFERENCE_LAYERS = ["config", "index", "query", "protocol", "server", "cli"]


def module_name(path: Path) -> str:
    """Dotted module name of a file in the checkout."""
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def imported_modules(source: str, module: str) -> set[str]:
    """Absolute module names imported by one module's source (relative imports resolved)."""
    tree = ast.parse(source)
    package = module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                found.add(node.module)
    return found


def layer_of(module: str) -> str | None:
    """The reference layer a `reference.*` module belongs to, or None."""
    parts = module.split(".")
    if parts[0] != "reference" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in REFERENCE_LAYERS else None


def python_files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", python_files("conformance"), ids=lambda p: str(p.relative_to(ROOT)))
def test_conformance_never_imports_reference(path: Path) -> None:
    imported = imported_modules(path.read_text(encoding="utf-8"), module_name(path))
    offenders = sorted(m for m in imported if m.split(".")[0] == "reference")
    assert not offenders, f"{path.relative_to(ROOT)} imports {offenders}: conformance tests servers only over the wire"


@pytest.mark.parametrize("path", python_files("reference"), ids=lambda p: str(p.relative_to(ROOT)))
def test_reference_layers_import_only_leftwards(path: Path) -> None:
    own = layer_of(module_name(path))
    if own is None:
        return  # package roots and __main__ sit above the layers
    rank = REFERENCE_LAYERS.index(own)
    backwards = sorted(
        m
        for m in imported_modules(path.read_text(encoding="utf-8"), module_name(path))
        if (layer := layer_of(m)) and REFERENCE_LAYERS.index(layer) > rank
    )
    assert not backwards, f"{path.relative_to(ROOT)} ({own}) imports later layers {backwards}"


def test_import_scanner_sees_relative_and_absolute_imports() -> None:
    source = "from ..server import x\nimport reference.protocol.errors\nfrom . import signals\n"
    assert imported_modules(source, "reference.query.engine") == {
        "reference.server",
        "reference.protocol.errors",
        "reference.query",
    }
    assert layer_of("reference.server.app") == "server" and layer_of("reference") is None
