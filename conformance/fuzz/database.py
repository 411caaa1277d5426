"""Where the fuzz phase keeps what it found, under the run's output folder (--fuzz-out, default .cruxgate-fuzz/).

    examples.json    the example database: each target's tools' minimal failing arguments, tried first by the
                     next run (like hypothesis' own database, but of arguments: a case found by the coverage
                     phase or shrunk by hypothesis replays the same whatever the strategies became)
    findings.json    the last run's findings and warnings: check, level, minimal arguments, answer, replay command
    cases/           arguments too long for a command line, read by `cruxgate fuzz replay TOOL @FILE`
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

EXAMPLES = "examples.json"
FINDINGS = "findings.json"
INLINE_LIMIT = 2000  # characters of JSON that still read well inline in a replay command


class ExampleDatabase:
    """The failing examples of earlier runs, by target and tool, in `out`/examples.json."""

    def __init__(self, out: Path) -> None:
        self.path = out / EXAMPLES
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        self.data: dict[str, dict[str, list[dict[str, Any]]]] = data if isinstance(data, dict) else {}

    def examples(self, target: str, tool: str) -> list[dict[str, Any]]:
        """The saved failing arguments of `tool` on `target`."""
        found = self.data.get(target, {}).get(tool, [])
        return [example for example in found if isinstance(example, dict)]

    def record(self, target: str, tool: str, examples: list[dict[str, Any]]) -> None:
        """Keep exactly `examples` for `tool` (a fixed one is dropped, like hypothesis drops a passing example)."""
        tools = self.data.setdefault(target, {})
        if examples:
            tools[tool] = examples
        else:
            tools.pop(tool, None)
        if not tools:
            self.data.pop(target, None)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.data, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")


def write_findings(out: Path, records: list[dict[str, Any]]) -> Path:
    """Write this run's findings (sorted by tool and check) to `out`/findings.json."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / FINDINGS
    ordered = sorted(records, key=lambda r: (r["tool"], r["check"]))
    path.write_text(json.dumps({"findings": ordered}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def arguments_reference(out: Path, tool: str, arguments: dict[str, Any]) -> str:
    """The arguments as a replay command takes them: inline JSON, or `@FILE` when they are long."""
    text = json.dumps(arguments, ensure_ascii=True, separators=(",", ":"))
    if len(text) <= INLINE_LIMIT:
        return text
    digest = hashlib.sha256(text.encode("ascii")).hexdigest()[:12]
    path = out / "cases" / f"{tool}-{digest}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="ascii")
    return f"@{path}"


def read_arguments(reference: str) -> dict[str, Any]:
    """Inline JSON or `@FILE` back to the arguments (a replay command's argument)."""
    text = Path(reference[1:]).read_text(encoding="ascii") if reference.startswith("@") else reference
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"arguments must be a JSON object, got {text[:100]}")
    return value
