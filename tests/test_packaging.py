"""Packaging habits: ranges in pyproject, an exact lock that covers them, and the version written once."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement  # pytest's own dependency
from packaging.utils import canonicalize_name
from packaging.version import Version

import cruxgate

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCK = ROOT / "requirements" / "lock.txt"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel hatchling builds from this checkout (offline: the backend is a dev dependency)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(out)],
                   cwd=ROOT, check=True, capture_output=True, timeout=120)
    (built,) = out.glob("cruxgate-*.whl")
    return built


def declared() -> list[Requirement]:
    """Every runtime dependency and every entry of the reference and dev extras (not dev's `cruxgate[reference]`)."""
    project, extras = PYPROJECT["project"], PYPROJECT["project"]["optional-dependencies"]
    return [Requirement(r) for r in project["dependencies"] + extras["reference"] + extras["dev"]
            if Requirement(r).name != project["name"]]


def test_the_gate_installs_without_the_reference_and_dev_brings_it() -> None:
    gate = {canonicalize_name(Requirement(r).name) for r in PYPROJECT["project"]["dependencies"]}
    extra = PYPROJECT["project"]["optional-dependencies"]["reference"]
    reference = {canonicalize_name(Requirement(r).name) for r in extra}
    assert not gate & {"tantivy", "tree-sitter", "tree-sitter-language-pack", "numpy", "scipy", "threadpoolctl",
                       "usearch", "pathspec", "pyjson5"}
    assert {"tantivy", "tree-sitter-language-pack", "numpy", "scipy"} <= reference
    assert "cruxgate[reference]" in PYPROJECT["project"]["optional-dependencies"]["dev"]


# The reference extra's own modules (uvicorn and pydantic-core come with the MCP SDK to every install).
REFERENCE_ONLY = ("tantivy", "tree_sitter", "tree_sitter_language_pack", "numpy", "scipy", "threadpoolctl", "tqdm",
                  "usearch", "pathspec", "pyjson5")
BLOCK = f"""
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {REFERENCE_ONLY!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Block())
"""


def test_the_gate_imports_nothing_of_the_reference_extra() -> None:
    script = BLOCK + """
import pkgutil, importlib, cruxgate.conformance, cruxgate.cli
for module in pkgutil.walk_packages(cruxgate.conformance.__path__, "cruxgate.conformance."):
    importlib.import_module(module.name)
sys.exit(cruxgate.cli.main(["index", "."]))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr  # every gate module imported; the reference refused
    assert "the reference server is not installed" in done.stderr and "pip install 'cruxgate[reference]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_ranges_exclude_the_hypothesis_that_breaks_hypothesis_jsonschema() -> None:
    # From 6.170.10 every object hypothesis-jsonschema 0.23.1 generates fails ("'many' object has no attribute
    # 'more'"); 6.170.9 works. The bound keeps a fresh install by the ranges from fuzzing with a broken pair.
    (hypothesis,) = [r for r in declared() if r.name == "hypothesis"]
    (jsonschema,) = [r for r in declared() if r.name == "hypothesis-jsonschema"]
    if jsonschema.specifier.contains("0.23.1"):
        assert hypothesis.specifier.contains("6.170.9") and not hypothesis.specifier.contains("6.170.10")
        assert not hypothesis.specifier.contains("6.170.17")


def locked() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = Version(version)
    return pins


@pytest.mark.parametrize("requirement", declared(), ids=str)
def test_each_dependency_is_a_range_with_a_tested_floor_and_a_major_ceiling(requirement: Requirement) -> None:
    lows = [s for s in requirement.specifier if s.operator == ">="]
    highs = [s for s in requirement.specifier if s.operator == "<"]
    assert len(lows) == 1, f"{requirement}: one lower bound (>=), the version .ci/min-versions installs"
    if requirement.name.startswith("types-"):
        return  # stubs version with their library; their ceiling, where given, is the library's major
    assert len(highs) == 1, f"{requirement}: an upper bound at the next major (the next minor for 0.x)"
    low, high = Version(lows[0].version), Version(highs[0].version)
    ceiling = Version(f"0.{low.minor + 1}") if low.major == 0 else Version(f"{low.major + 1}")
    assert high <= ceiling, f"{requirement}: the ceiling may not pass {ceiling}, where breaking changes may come"


def test_tree_sitter_language_pack_stays_below_1() -> None:
    # 1.x downloads its grammars at run time: the index would need the network.
    (pack,) = [r for r in declared() if r.name == "tree-sitter-language-pack"]
    assert not pack.specifier.contains("1.0.0") and not pack.specifier.contains("1.0.0rc1", prereleases=True)


@pytest.mark.parametrize("requirement", declared(), ids=str)
def test_the_lock_pins_each_dependency_inside_its_range(requirement: Requirement) -> None:
    version = locked().get(canonicalize_name(requirement.name))
    assert version is not None, f"{requirement.name} is declared but not in requirements/lock.txt: run .ci/lock"
    assert requirement.specifier.contains(version, prereleases=True), (
        f"requirements/lock.txt pins {requirement.name}=={version}, outside {requirement.specifier}: run .ci/lock")


def test_ci_and_the_readme_install_with_the_lock() -> None:
    assert "-c requirements/lock.txt -e '.[dev]'" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -c requirements/lock.txt -e '.[dev]'" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_version_is_written_once_in_cruxgate_init() -> None:
    assert "version" not in PYPROJECT["project"] and "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "cruxgate/__init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+", cruxgate.__version__)


def test_the_reference_reports_that_version() -> None:
    # serverInfo.version and the index manifest's tool_version read it; they hold no literal of their own.
    from cruxgate.reference.index.build import TOOL_VERSION
    from cruxgate.reference.server.app import SERVER_VERSION

    assert SERVER_VERSION is cruxgate.__version__ and TOOL_VERSION is cruxgate.__version__
    for module in ("reference/server/app.py", "reference/index/build.py"):
        assert f'"{cruxgate.__version__}"' not in (ROOT / module).read_text(encoding="utf-8"), module


def test_the_docs_install_the_current_release() -> None:
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for pinned in re.findall(r"cruxgate==(\d[^\s`]*)", doc.read_text(encoding="utf-8")):
            assert pinned == cruxgate.__version__, f"{doc.relative_to(ROOT)} installs cruxgate=={pinned}"


def test_the_wheel_installs_only_cruxgate_names(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"cruxgate", f"cruxgate-{cruxgate.__version__}.dist-info"}
    for packaged in ("cruxgate/conformance/plugin.py", "cruxgate/conformance/suite.yaml",
                     "cruxgate/conformance/profiles/reference.yaml", "cruxgate/reference/__main__.py",
                     "cruxgate/conformance/data/schemas/", "cruxgate/conformance/data/spec/",
                     "cruxgate/conformance/data/fixtures/polyglot/"):
        assert any(n.startswith(packaged) for n in names), f"the wheel lacks {packaged}"
    assert not [n for n in names if "__pycache__" in n]


def test_pyargs_from_the_wheel_collects_the_suite_and_no_fixture_test(wheel: Path, tmp_path: Path) -> None:
    # The polyglot fixture holds a test_*.py of its own: it is data to index, never a test of the gate.
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--pyargs", "cruxgate.conformance", "--target=stdio",
         "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    assert len(ids) > 100 and all(i.split("::")[0].endswith("cruxgate/conformance/suite.yaml") for i in ids), ids[:5]
