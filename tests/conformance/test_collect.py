"""Collection: one item per scenario named by its id, markers for -m, --pyargs, and --lf re-running a failure."""

from __future__ import annotations

import os
import subprocess
import sys

from gate_harness import DATA, LEAN, SERVE, SUITE, write_profile


def pytest_run(cwd, *args):
    done = subprocess.run([sys.executable, "-m", "pytest", *LEAN, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)
    return done.returncode, done.stdout + done.stderr


def test_pyargs_collects_one_item_per_scenario_named_by_its_id(tmp_path):
    code, out = pytest_run(tmp_path, "--pyargs", "cruxgate.conformance", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "--spec-dir", str(DATA / "spec"))
    assert code == 0, out
    ids = sorted(line.rsplit("::", 1)[1] for line in out.splitlines() if "suite.yaml::" in line)
    assert ids == sorted(["HC-META-01", "HC-META-02", "HC-META-03", "HC-META-04", "SC-PERF", "MCP-WIRE-01"]
                         + [f"SC-SEARCH-0{n}" for n in range(1, 10)])  # the wire scenario is built in


def test_markers_select_by_level_tool_requirement_and_coverage(tmp_path):
    def selected(expression):
        _code, out = pytest_run(tmp_path, str(SUITE), "--collect-only", "-q", "-p", "no:cacheprovider",
                               "--spec-dir", str(DATA / "spec"), "-m", expression)
        return sorted(line.rsplit("::", 1)[1] for line in out.splitlines() if "suite.yaml::" in line)

    assert selected("should") == ["SC-PERF", "SC-SEARCH-05"]
    assert selected("tool(name='locate_symbol')") == ["SC-SEARCH-08"]
    assert selected("requirement(id='HC-META') and hook") == ["HC-META-03"]
    assert selected("level(name='MUST') and informative") == ["SC-SEARCH-09"]
    assert selected("document(name='fake') and must and not executable") == ["HC-META-03", "SC-SEARCH-09"]


def test_bad_spec_is_a_usage_error_naming_the_file(tmp_path):
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "broken.yaml").write_text("document: broken\nrequirements: 3\n")
    code, out = pytest_run(tmp_path, str(SUITE), "--collect-only", "-p", "no:cacheprovider",
                           "--spec-dir", str(tmp_path / "spec"))
    assert code == 4 and "ERROR: cruxgate: the spec does not load" in out and "broken.yaml" in out, out
    assert "collect.py" not in out and "Traceback" not in out  # the message alone, no runner frames


def test_a_missing_profile_is_a_usage_error_without_frames(tmp_path):
    for extra in ([], ["--fuzz"]):
        code, out = pytest_run(tmp_path, "--pyargs", "cruxgate.conformance", "-p", "no:cacheprovider",
                               "--target-profile", str(tmp_path / "nonexistent.yaml"), *extra)
        assert code == 4, out
        assert f"ERROR: cruxgate: cannot read target profile {tmp_path / 'nonexistent.yaml'}" in out, out
        assert "collect.py" not in out and "Traceback" not in out


def test_last_failed_reruns_only_the_failing_scenario(tmp_path):
    profile = write_profile(tmp_path)
    common = [str(SUITE), "-q", "-o", f"cache_dir={tmp_path / 'cache'}", "--spec-dir", str(DATA / "spec"),
              "--fixtures-dir", str(DATA / "fixtures"), "--target-profile", str(profile),
              "--server-cmd", SERVE + " --flaw legacy_idle"]
    code, out = pytest_run(tmp_path, *common, "-k", "HC-META-01 or HC-META-02")
    assert code == 1 and "1 failed, 1 passed" in out, out
    code, out = pytest_run(tmp_path, *common, "--lf")
    assert code == 1 and "1 failed, 14 deselected" in out, out


FAKE_XDIST = '''
def pytest_addoption(parser):  # pytest-xdist's own option, without its machinery
    parser.getgroup("xdist")._addoption("-n", "--numprocesses", dest="numprocesses", default=None)
'''


def test_pytest_xdist_is_refused_for_the_suite_and_left_alone_for_other_tests(tmp_path):
    (tmp_path / "fake_xdist.py").write_text(FAKE_XDIST, encoding="utf-8")
    (tmp_path / "test_other.py").write_text("def test_one():\n    pass\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}

    def run(*args):
        done = subprocess.run([sys.executable, "-m", "pytest", *LEAN, "-p", "no:cacheprovider", "-p", "fake_xdist",
                               *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        return done.returncode, done.stdout + done.stderr

    code, out = run("-n", "2", "--pyargs", "cruxgate.conformance", "--spec-dir", str(DATA / "spec"))
    assert code == 4 and "the conformance suite does not run under pytest-xdist (-n/--dist)" in out, out
    code, out = run("-n", "2", str(SUITE), "--collect-only")
    assert code == 4, out
    code, out = run("-n", "2", "test_other.py")
    assert code == 0, out
