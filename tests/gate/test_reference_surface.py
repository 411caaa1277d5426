"""The reference's live tool surface equals golden/surface/reference.json: no change of any class slips by."""

from __future__ import annotations

import json
from pathlib import Path

from cruxgate.conformance import cli
from cruxgate.conformance.surface import lint
from cruxgate.conformance.surface.command import render_table

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "surface" / "reference.json"
REGENERATE = "cruxgate surface snapshot --out golden/surface/reference.json"


def test_reference_surface_matches_golden(tmp_path: Path) -> None:
    live_path = tmp_path / "reference.json"
    # The same command the golden file is written with: the bundled reference profile, over stdio.
    assert cli.main(["surface", "snapshot", "--out", str(live_path)]) == 0
    golden, live = json.loads(GOLDEN.read_text(encoding="utf-8")), json.loads(live_path.read_text(encoding="utf-8"))

    changes = lint.diff_surfaces(golden, live)
    assert not changes, (
        "the reference's tool surface departs from golden/surface/reference.json "
        f"(breaking, risky and additive changes all count):\n{render_table(changes)}"
        f"If the change is intended, regenerate the file with `{REGENERATE}` and commit it.")
    # The diff classifies what clients see; byte equality also catches what it does not classify.
    assert live_path.read_text(encoding="utf-8") == GOLDEN.read_text(encoding="utf-8"), (
        f"golden/surface/reference.json is not the normalized snapshot of the live surface; regenerate it with "
        f"`{REGENERATE}` and commit it.")


def test_golden_surface_passes_the_spec_lint() -> None:
    findings = lint.lint_surface(json.loads(GOLDEN.read_text(encoding="utf-8")), lint.load_expected_inputs())
    assert findings == [], "\n".join(map(str, findings))
