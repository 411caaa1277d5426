"""The benchmarks' kept folders work with and without pytest's cacheprovider plugin."""

from __future__ import annotations

from pathlib import Path

import pytest

from cruxgate.conformance.slo.cache import cache_dir
from cruxgate.conformance.spec.paths import user_cache_root

pytest_plugins = ["pytester"]


def test_with_the_cache_plugin_the_folder_is_in_pytests_cache(pytestconfig: pytest.Config) -> None:
    if getattr(pytestconfig, "cache", None) is None:
        pytest.skip("this run has no cacheprovider")
    path = cache_dir(pytestconfig, "cruxgate-test-bench-cache")
    assert path.is_dir() and path == pytestconfig.cache.mkdir("cruxgate-test-bench-cache")


def test_without_the_cache_plugin_the_folder_is_in_the_user_cache(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    class NoCache:  # a Config as `-p no:cacheprovider` leaves it: no `cache` attribute
        pass

    monkeypatch.setenv("CRUXGATE_CACHE_DIR", str(tmp_path / "kept"))
    path = cache_dir(NoCache(), "corpus")  # type: ignore[arg-type]
    assert path == tmp_path / "kept" / "benchmarks" / "corpus" and path.is_dir()


def test_user_cache_root_follows_xdg_then_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CRUXGATE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert user_cache_root() == tmp_path / "xdg" / "cruxgate"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_cache_root() == tmp_path / "home" / ".cache" / "cruxgate"


def test_a_fixture_using_it_runs_under_no_cacheprovider(pytester: pytest.Pytester, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CRUXGATE_CACHE_DIR", str(tmp_path / "kept"))
    # The file names benchmarks/ itself: inside the whole suite, pytester's in-process run may not see it
    # on sys.path; and a module name no test of the session has (the in-process run shares sys.modules,
    # where tests/scored/test_kept.py already is `test_kept`).
    pytester.makepyfile(test_inner_bench_cache_dir=f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parents[2] / "benchmarks")!r})
from cruxgate.conformance.slo.cache import cache_dir

def test_inner(pytestconfig):
    assert cache_dir(pytestconfig, "corpus").is_dir()
""")
    pytester.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert (tmp_path / "kept" / "benchmarks" / "corpus").is_dir()
