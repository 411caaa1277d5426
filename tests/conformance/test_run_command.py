"""`cruxgate run`: one command for the gate, its options from a config file, pytest as the engine."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cruxgate.conformance import run as run_command
from gate_harness import DATA, SERVE


def parse(*words: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    run_command.add_arguments(parser, "run")
    return parser.parse_args(list(words))


def test_pyproject_options_become_pytest_arguments_with_paths_from_the_file(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.cruxgate]\ntarget-profile = "ci/my-server.yaml"\nbaseline = "base.yaml"\n'
        'reports = "out"\nstrict = true\npytest-args = ["-x"]\n', encoding="utf-8")
    chosen = run_command.settings(parse("--reports", "elsewhere", "--", "-k", "HC-META"), tmp_path)
    assert run_command.pytest_arguments(chosen.values) == [
        "--pyargs", "cruxgate.conformance", "-q", "--target-profile", str(tmp_path / "ci" / "my-server.yaml"),
        "--baseline", str(tmp_path / "base.yaml"), "--strict",
        "--junitxml", "elsewhere/conformance.xml", "--conformance-json", "elsewhere/conformance.json",
        "--conformance-report", "elsewhere/conformance.md", "-x", "-k", "HC-META"]  # the command line wins
    assert chosen.source == str(tmp_path / "pyproject.toml")


def test_cruxgate_toml_comes_before_pyproject_and_a_pyproject_without_the_table_is_no_config(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert run_command.find_config(None, tmp_path) is None
    (tmp_path / "cruxgate.toml").write_text('server-cmd = "my-server {workspace}"\nfuzz = true\n', encoding="utf-8")
    values = run_command.settings(parse(), tmp_path).values
    assert values == {"server-cmd": "my-server {workspace}", "fuzz": True}


def test_a_server_url_is_reached_over_http():
    words = run_command.pytest_arguments({"server-url": "http://127.0.0.1:9/mcp"})
    assert words[words.index("--target") + 1] == "http"


@pytest.mark.parametrize(("text", "message"), [
    ("target_profile = 'x.yaml'\n", "unknown key 'target_profile'"),
    ("fuzz-examples = '10'\n", "fuzz-examples must be an integer"),
    ("strict = 'yes'\n", "strict must be true or false"),
    ("server-cmd = [\n", "cannot be read as TOML"),
])
def test_a_bad_config_file_is_a_usage_error_naming_the_key(tmp_path, monkeypatch, capsys, text, message):
    (tmp_path / "cruxgate.toml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run_command.run(parse()) == 4
    assert message in capsys.readouterr().err


def test_cruxgate_run_gates_a_server_named_in_cruxgate_toml_and_writes_every_report(tmp_path):
    (tmp_path / "cruxgate.toml").write_text(
        f"server-cmd = {json.dumps(SERVE + ' --index-on-start')}\nspec-dir = {json.dumps(str(DATA / 'spec'))}\n"
        f"fixtures-dir = {json.dumps(str(DATA / 'fixtures'))}\nreports = \"reports\"\n"
        'pytest-args = ["-k", "HC-META-01 or SC-SEARCH-01 or HC-META-03", "-p", "no:cacheprovider"]\n',
        encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "cruxgate", "run"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    progress = [line for line in done.stderr.splitlines() if line.startswith("cruxgate run: ")]
    assert progress[0].startswith("cruxgate run: collected 3 scenario(s); target {python} ")
    assert progress[-1] == "cruxgate run: verdict: green (exit status 0); reports in " + str(tmp_path / "reports")
    results = json.loads((tmp_path / "reports" / "conformance.json").read_text(encoding="utf-8"))
    assert {r["id"]: r["outcome"] for r in results["scenarios"]} == {
        "HC-META-01": "passed", "SC-SEARCH-01": "passed", "HC-META-03": "skipped"}
    assert (tmp_path / "reports" / "conformance.xml").is_file() and (tmp_path / "reports" / "conformance.md").is_file()


def test_the_version_option():
    done = subprocess.run([sys.executable, "-m", "cruxgate", "-V"], capture_output=True, text=True, timeout=60)
    from cruxgate import __version__

    assert done.returncode == 0 and done.stdout == f"cruxgate {__version__}\n"


def test_docs_gate_lists_every_config_key() -> None:
    # docs/gate.md "One command" names the keys a config file may hold; run.OPTIONS owns them.
    page = (Path(__file__).resolve().parents[2] / "docs" / "gate.md").read_text(encoding="utf-8")
    keys = page.split("\nKeys: ", 1)[1].split("\n\n", 1)[0]
    named = set(re.findall(r"`([a-z-]+)`", keys))
    assert named == set(run_command.OPTIONS), (set(run_command.OPTIONS) - named, named - set(run_command.OPTIONS))
