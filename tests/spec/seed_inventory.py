"""An independent reading of the seeds' Markdown: every anchor the spec must cover, by the rules of docs/spec.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

_HEADING = re.compile(r"^(#{1,4})\s+(.*\S)\s*$")
_MOJIBAKE = re.compile(r"[\u0080-\u02ff]{2}")
_ID_BULLET = re.compile(r"^\s*- ((?:FR|SC)-\d{3}[a-z]?):")
_RUST_STRUCT = re.compile(r"^pub (struct|enum) (\w+)")
_RUST_FIELD = re.compile(r"^\s+pub (\w+):")
_RUST_VARIANT = re.compile(r"^\s+([A-Z]\w*),")
_TEST_FN = re.compile(r"async fn (test_\w+)")
_BOLD = re.compile(r"[*]{2}(.*?)[*]{2}")


def clean(text: str) -> str:
    """Drop leading emoji/markup, cut where the garbled (mojibake) text starts, trim."""
    text = re.sub(r"^[^A-Za-z0-9`\"]+", "", text.replace("**", ""))
    match = _MOJIBAKE.search(text)
    if match:
        text = text[: match.start()]
    return text.strip().rstrip(" -:").strip()


def lead(text: str) -> str:
    """A bullet's label: its text up to the first ': ' outside backticks, else all of it (no final period)."""
    text = clean(text)
    in_code = False
    for index, char in enumerate(text):
        if char == "`":
            in_code = not in_code
        elif char == ":" and not in_code and text[index + 1: index + 2] in (" ", ""):
            return text[:index].strip()
    return text.rstrip(".:").strip()


def _blocks(lines: list[str]):
    """(line, inside_code_fence, fence_language) for every line."""
    fence = None
    for line in lines:
        if line.strip().startswith("```"):
            fence = None if fence is not None else (line.strip()[3:] or "text")
            yield line, True, fence
            continue
        yield line, fence is not None, fence


def _join_wrapped(lines: list[str]) -> list[str]:
    """Join a top-level bullet's wrapped continuation lines (indented, not a bullet) onto it."""
    out: list[str] = []
    for line in lines:
        wrapped = (out and out[-1].startswith("- ") and line.startswith("  ")
                   and not line.lstrip().startswith(("- ", "`")) and line.strip())
        if wrapped:
            out[-1] = f"{out[-1]} {line.strip()}"
        else:
            out.append(line)
    return out


def _json_tool_inputs(text: str) -> list[str]:
    """'Input <tool>.<arg>' for each JSON tool definition in a ```json fence."""
    anchors = []
    for block in re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL):
        try:
            data = json.loads(block)
        except ValueError:
            continue
        if isinstance(data, dict) and "inputSchema" in data:
            anchors += [f"Input {data['name']}.{arg}" for arg in data["inputSchema"]["properties"]]
    return anchors


def inventory(ref: str, path: Path) -> list[str]:
    """Every anchor of one seed, as '<ref> > <label>', in document order, without duplicates."""
    text = path.read_text(encoding="utf-8")
    labels: list[str] = []
    section: list[str] = ["", "", "", ""]
    rust_owner = None
    for line, in_code, fence in _blocks(_join_wrapped(text.splitlines())):
        if in_code:
            if fence == "rust":
                if m := _RUST_STRUCT.match(line):
                    rust_owner = m.group(2)
                elif line.startswith("}"):
                    rust_owner = None
                elif rust_owner and (m := _RUST_FIELD.match(line)):
                    labels.append(f"Field {rust_owner}.{m.group(1)}")
                elif rust_owner == "MatchReason" and (m := _RUST_VARIANT.match(line)):
                    labels.append(f"MatchReason {m.group(1)}")
                if m := _TEST_FN.search(line):
                    labels.append(f"Unit test: {m.group(1)}")
            continue
        if m := _HEADING.match(line):
            depth, title = len(m.group(1)), m.group(2)
            section[depth - 1:] = [title] + [""] * (4 - depth)
            if title.startswith(("Requirement: ", "Scenario: ")):
                labels.append(title)
            elif clean(title):
                labels.append(f"§ {clean(title)}")
            continue
        if m := _ID_BULLET.match(line):
            labels.append(m.group(1))
            continue
        bullet = re.match(r"^- (.*\S)", line)  # top-level bullets only
        if not bullet:
            if ref == "004" and line.strip() in ("**Goals:**", "**Non-Goals:**"):
                section[3] = line.strip().strip("*:")
            continue
        body = bullet.group(1)
        heading = section[2] or section[1]
        if heading == "Edge Cases":
            labels.append(f"Edge case: {lead(body)}")
        elif heading == "Performance Impact":
            labels.append(f"Performance impact: {lead(body)}")
        elif ref == "004" and section[1] == "Goals / Non-Goals":
            labels.append(f"{'Goal' if section[3] == 'Goals' else 'Non-goal'}: {lead(body)}")
        elif ref == "004" and section[1] == "Resolved Questions":
            labels.append("Resolved: " + _BOLD.match(body).group(1))
        elif ref == "004" and section[1] == "Risks / Trade-offs":
            labels.append("Risk: " + _BOLD.match(body).group(1).strip("[]"))
        elif ref == "002" and heading in ("Goals", "Non-Goals"):
            labels.append(f"{'Goal' if heading == 'Goals' else 'Non-goal'}: {clean(body)}")
        elif ref == "002" and "Acceptance Criteria" in section[1]:
            labels.append(f"Acceptance: {clean(body.removeprefix('[ ] '))}")
        elif ref == "002" and "Success Metrics" in section[1]:
            labels.append(f"Metric: {section[2]} > {lead(body)}")
    if ref == "002":
        labels += _json_tool_inputs(text)
    seen: dict[str, None] = {}
    for label in labels:
        seen.setdefault(f"{ref} > {label}", None)
    return list(seen)


def seeds_dir() -> Path | None:
    """/work/shared/seeds or ../shared/seeds next to the checkout, when present."""
    repo = Path(__file__).resolve().parents[2]
    for candidate in (repo.parent / "shared" / "seeds", Path("/work/shared/seeds")):
        if candidate.is_dir() and any(candidate.glob("000_*.txt")):
            return candidate
    return None
