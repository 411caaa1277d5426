"""The release, up to the upload: the artefacts the workflow builds are valid; the workflow publishes them."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from email.parser import BytesParser
from pathlib import Path

import pytest
import yaml
from packaging.metadata import Metadata

import cruxgate

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel, built as the workflow builds them (hatchling, offline)."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-d", str(out)], cwd=ROOT, check=True,
                   capture_output=True, timeout=300)
    return out


def wheel_metadata(dist: Path) -> Metadata:
    (wheel,) = dist.glob("cruxgate-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        raw = archive.read(f"cruxgate-{cruxgate.__version__}.dist-info/METADATA")
    return Metadata.from_email(raw, validate=True)  # what PyPI (and twine check) refuse raises here


def test_the_wheel_metadata_is_valid_and_declares_two_installs(dist: Path) -> None:
    metadata = wheel_metadata(dist)
    assert metadata.name == "cruxgate" and str(metadata.version) == cruxgate.__version__
    assert metadata.description_content_type == "text/markdown" and metadata.description
    assert {"reference", "dev"} <= set(metadata.provides_extra or [])
    requires = [str(r) for r in metadata.requires_dist or []]
    gate = [r for r in requires if "extra ==" not in r]
    assert any(r.startswith("hypothesis") for r in gate) and not any(r.startswith("tantivy") for r in gate)
    assert any(r.startswith("tantivy") and 'extra == "reference"' in r for r in requires)


def test_the_sdist_holds_what_the_wheel_is_built_from(dist: Path) -> None:
    (sdist,) = dist.glob("cruxgate-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
        pkg_info = archive.extractfile(f"cruxgate-{cruxgate.__version__}/PKG-INFO")
        assert pkg_info is not None
        info = BytesParser().parse(pkg_info)
    assert info["Name"] == "cruxgate" and info["Version"] == cruxgate.__version__
    for needed in ("pyproject.toml", "README.md", "conformance/plugin.py", "reference/__main__.py",
                   "spec/agent-protocol.yaml", "schemas/target-profile.schema.json", "cruxgate/__init__.py"):
        assert needed in names, needed


def test_a_wheel_built_from_the_sdist_is_the_wheel(dist: Path, tmp_path: Path) -> None:
    # pip builds from the sdist where no wheel fits; that build must find every folder the wheel maps.
    (sdist,) = dist.glob("cruxgate-*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "src", filter="data")
    assert not list((tmp_path / "src").rglob(".hypothesis"))
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path / "out")],
                   cwd=tmp_path / "src" / f"cruxgate-{cruxgate.__version__}", check=True, capture_output=True,
                   timeout=300)
    (rebuilt,) = (tmp_path / "out").glob("cruxgate-*.whl")
    (wheel,) = dist.glob("cruxgate-*.whl")
    assert sorted(zipfile.ZipFile(rebuilt).namelist()) == sorted(zipfile.ZipFile(wheel).namelist())


def test_the_workflow_builds_checks_and_publishes_by_trusted_publishing() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert triggers == {"push": {"tags": ["v*"]}}
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    runs = [step.get("run", "") for step in build["steps"]]
    assert "python -m hatchling build -d dist" in runs  # what the dist fixture above runs
    assert any("twine check --strict dist/*" in run for run in runs)
    assert any(".ci/wheel" in run for run in runs)
    assert publish["needs"] == "build" and publish["permissions"] == {"id-token": "write"}
    (upload,) = [step for step in publish["steps"] if "gh-action-pypi-publish" in step.get("uses", "")]
    assert "with" not in upload or not {"password", "user"} & set(upload["with"])  # no stored token
