"""Traceability: the coverage report, the command's exit codes, spec/README.md, and the seeds cross-check."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from cruxgate.conformance.cli import main
from cruxgate.conformance.spec import coverage
from cruxgate.conformance.spec.loader import load_documents
from cruxgate.conformance.spec.paths import spec_dir
from seed_inventory import inventory, seeds_dir

DOCUMENTS = load_documents()


def test_bundled_spec_covers_every_anchor() -> None:
    report = coverage.build(DOCUMENTS)
    assert (report.missing, report.dangling, report.duplicated) == ([], [], [])
    counts = report.counts()
    assert counts["anchors"] == counts["anchors_covered"] > 200
    assert counts["scenarios"] == sum(counts["scenarios_by_coverage"].values())
    assert counts["over_the_wire_share"] >= 0.9


def test_every_informative_entry_says_why_and_no_scenario_is_left_unrun() -> None:
    for document in DOCUMENTS:
        for requirement in document["requirements"]:
            if requirement["coverage"] == "informative":
                assert len(requirement["reason"]) > 40, requirement["id"]
            for scenario in requirement.get("scenarios", []):
                if scenario["coverage"] == "informative":
                    assert len(scenario["reason"]) > 40, scenario["id"]


def test_spec_readme_is_current() -> None:
    """spec/README.md is generated: regenerate with `cruxgate spec coverage --format md > spec/README.md`."""
    expected = coverage.to_markdown(coverage.build(DOCUMENTS)) + "\n"
    current = (spec_dir() / "README.md").read_text(encoding="utf-8")
    assert current == expected, "spec/README.md is stale: run `cruxgate spec coverage --format md > spec/README.md`"


def copy_spec(tmp_path: Path) -> Path:
    """A writable copy of spec/ to break on purpose."""
    folder = tmp_path / "spec"
    folder.mkdir()
    for path in spec_dir().glob("*.yaml"):
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def edit(folder: Path, name: str, change) -> None:
    """Load one spec file, change it, write it back."""
    path = folder / f"{name}.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8")


def run(capsys, folder: Path, fmt: str = "json") -> tuple[int, str, str]:
    """`cruxgate spec coverage --spec-dir folder`, with its outputs."""
    code = main(["spec", "coverage", "--format", fmt, "--spec-dir", str(folder)])
    out, err = capsys.readouterr()
    return code, out, err


def test_command_passes_on_the_bundled_spec(capsys) -> None:
    code, out, err = run(capsys, spec_dir())
    data = json.loads(out)
    assert (code, data["ok"], err) == (0, True, "")
    assert data["anchors"]["001 > FR-105a"]


def drop_requirement(document: dict) -> None:
    document["requirements"] = [r for r in document["requirements"] if r["id"] != "FR-117"]


def cite_unknown_anchor(document: dict) -> None:
    document["requirements"][0]["also"] = ["001 > FR-999"]


def duplicate_requirement_source(document: dict) -> None:
    clone = copy.deepcopy(next(r for r in document["requirements"] if r["id"] == "FR-102"))
    clone["id"] = "FR-102-COPY"
    for index, scenario in enumerate(clone.get("scenarios", [])):
        scenario["id"] = f"FR-102-COPY-{index}"
    document["requirements"].append(clone)


@pytest.mark.parametrize(("change", "problem"), [
    (drop_requirement, "missing: 001 > FR-117"),
    (cite_unknown_anchor, "dangling: PROP-CONTEXT cites '001 > FR-999'"),
    (duplicate_requirement_source, "duplicated: '001 > FR-102' is the source of requirements FR-102 and FR-102-COPY"),
])
def test_command_fails_on_gaps(tmp_path: Path, capsys, change, problem: str) -> None:
    folder = copy_spec(tmp_path)
    edit(folder, "agent-protocol-proposal", change)
    code, out, err = run(capsys, folder, fmt="md")
    assert code == 1
    assert problem in err
    assert "## Problems" in out


def test_command_reports_a_broken_spec_file(tmp_path: Path, capsys) -> None:
    folder = copy_spec(tmp_path)
    edit(folder, "runtime-contract", lambda d: d["requirements"][0].update(level="OPTIONAL"))
    code, _, err = run(capsys, folder)
    assert code == 2 and "runtime-contract.yaml: requirements[0].level" in err


SEEDS = seeds_dir()


@pytest.mark.skipif(SEEDS is None, reason="the source documents (../shared/seeds) are not next to this checkout")
def test_inventories_match_an_independent_reading_of_the_seeds() -> None:
    """Both ways: every anchor parsed from the seeds is in spec/, and spec/ lists nothing else."""
    from_seeds = {}
    for path in sorted(SEEDS.glob("0*.txt")):
        from_seeds[path.name[:3]] = inventory(path.name[:3], path)
    from_spec = {source["ref"]: source["inventory"] for d in DOCUMENTS for source in d["sources"]}
    assert sorted(from_spec) == sorted(from_seeds) == ["000", "001", "002", "003", "004"]
    for ref, anchors in from_seeds.items():
        assert set(anchors) - set(from_spec[ref]) == set(), f"{ref}: in the seed, not in spec/"
        assert set(from_spec[ref]) - set(anchors) == set(), f"{ref}: in spec/, not in the seed"
    files = {source["ref"]: source["file"] for d in DOCUMENTS for source in d["sources"]}
    assert all((SEEDS / name).is_file() for name in files.values())


@pytest.mark.skipif(SEEDS is None, reason="the source documents (../shared/seeds) are not next to this checkout")
def test_seed_counts_are_the_ones_the_sources_state() -> None:
    """Spot checks of the independent reader against counts a person can verify in the seeds."""
    text = {p.name[:3]: p.read_text(encoding="utf-8") for p in SEEDS.glob("0*.txt")}
    inv = {ref: inventory(ref, SEEDS / next(p.name for p in SEEDS.glob(f"{ref}_*.txt"))) for ref in text}
    requirements = sum(a.split(" > ")[1].startswith("Requirement: ") for a in inv["000"])
    assert requirements == text["000"].count("### Requirement:") == 14
    assert sum(a.split(" > ")[1].startswith("Scenario: ") for a in inv["000"]) == text["000"].count("#### Scenario:")
    assert sum(a.split(" > ")[1].startswith("Requirement: ") for a in inv["003"]) == 6
    assert len([a for a in inv["001"] if a.startswith("001 > FR-")]) == 27
    assert len([a for a in inv["001"] if a.startswith("001 > SC-")]) == 8
    assert len([a for a in inv["001"] if a.startswith("001 > Edge case: ")]) == 6
    assert len([a for a in inv["002"] if a.startswith("002 > Acceptance: ")]) == text["002"].count("- [ ]") == 11
    assert len([a for a in inv["002"] if a.startswith("002 > MatchReason ")]) == 7
