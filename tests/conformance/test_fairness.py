"""Fairness beside the gate-bites test: the reference rewritten in every way the documents allow still passes.

The proxy (servers/allowed_rewrites_proxy.py) applies all of its rewrites at once to every answer of the
bundled reference; the whole suite is replayed through it over stdio, and no scenario may fail. The
one-rule breakers of test_gate_bites.py keep proving the other direction.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gate_harness import LEAN, SUITE

import conformance.target as target

HERE = Path(__file__).resolve().parent
PROXY = HERE / "servers" / "allowed_rewrites_proxy.py"
sys.path.insert(0, str(PROXY.parent))
from allowed_rewrites_proxy import ENVELOPE_REWRITES, REWRITES, rewrite_result  # noqa: E402


def proxied_profile(directory: Path) -> Path:
    """The reference profile with its stdio server behind the proxy."""
    text = target.default_profile_path().read_text(encoding="utf-8")
    serve = '["{python}", "-m", "reference", "serve-mcp"'
    assert serve in text
    text = text.replace(serve, f'["{{python}}", "{PROXY}", "--", "{{python}}", "-m", "reference", "serve-mcp"', 1)
    text = text.replace("name: cruxgate-reference", "name: reference-behind-allowed-rewrites")
    path = directory / "proxied.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_proxy_has_at_least_ten_kinds_of_allowed_rewrite_and_each_changes_an_answer():
    assert len(REWRITES) + len(ENVELOPE_REWRITES) >= 10
    payload = {"results": [{"path": "a", "line_start": 1, "line_end": 2, "kind": "function", "name": "f",
                            "signature": "f()", "score": 0.1}],
               "metadata": {"cruxe_protocol_version": "1", "ranking_reasons": [{"bm25_score": 1.1}]},
               "suggested_next_actions": ["locate f"], "startup_checks": {}, "error": {"code": "x", "message": "m"}}
    bare = {"results": [], "metadata": {}}
    for name in [*REWRITES, *ENVELOPE_REWRITES]:
        changed = []
        for sample in (payload, bare):
            before = json.dumps({"content": [{"type": "text", "text": json.dumps(sample)}], "isError": True})
            changed.append(json.dumps(rewrite_result(json.loads(before), {name})) != before)
        assert any(changed), name


def test_the_reference_rewritten_in_every_allowed_way_passes_the_whole_suite(tmp_path):
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, "-m", "pytest", str(SUITE), *LEAN, "-p", "no:cacheprovider", "-q",
                           "--target-profile", str(proxied_profile(tmp_path)), "--conformance-json", str(out)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    results = json.loads(out.read_text(encoding="utf-8"))
    failed = {r["id"]: (r["failure_message"] or "")[:400] for r in results["scenarios"] if r["outcome"] == "failed"}
    assert failed == {}, done.stdout[-3000:]
    assert done.returncode == 0, done.stdout[-3000:]
    assert results["summary"]["passed"] > 100
    assert results["target_profile"] == "reference-behind-allowed-rewrites"
    # Dropping isError is allowed, so it is reported as a warning, never a failure.
    assert any(f["check"] == "mcp_is_error" for r in results["scenarios"] for f in r["findings"])
