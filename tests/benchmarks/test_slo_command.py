"""`cruxgate slo`: the pytest command line it stands for, and token counts without tiktoken."""

from __future__ import annotations

import argparse
from itertools import pairwise
from pathlib import Path

import pytest

from cruxgate.conformance.slo import command, harness, tokens


def parsed(*words: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser, "slo")
    return parser.parse_args(list(words))


def test_the_command_runs_the_packaged_harness_with_the_target_options() -> None:
    words = command.pytest_arguments(parsed("--target-profile", "p.yaml", "--gate", "--report", "r/slo.md",
                                            "--smoke", "--rounds", "7", "-k", "sc105"))
    assert words[0] == str(Path(harness.__file__)) and not Path(words[0]).name.startswith("test_")
    assert words[1:3] == ["-p", "cruxgate.conformance.slo.plugin"]
    pairs = dict(pairwise(words))
    assert pairs["--target-profile"] == "p.yaml" and pairs["--slo-report"] == "r/slo.md"
    assert pairs["--slo-rounds"] == "7" and pairs["-k"] == "sc105"
    assert "--slo-gate" in words and "--slo-smoke" in words
    plain = command.pytest_arguments(parsed("--server-cmd", "srv {workspace}"))
    assert "--slo-gate" not in plain and dict(pairwise(plain))["--server-cmd"] == "srv {workspace}"


def test_without_tiktoken_tokens_are_estimated_and_the_report_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    assert tokens.count("def validate_token(token): return token") > 0
    monkeypatch.setattr(tokens, "_encoding", lambda: None)
    assert tokens.count("x" * 9) == 3  # 9 bytes / 4, rounded up
    assert tokens.count("é") == 1
    assert tokens.method() == tokens.ESTIMATE and "estimated" in tokens.method()
