"""The spec format's verdicts kept across runs: trusted only for the same text, schemas and validator."""

from __future__ import annotations

import functools
import os
import threading
from pathlib import Path

import pytest
from test_spec_loader import MINIMAL, broken, write  # type: ignore[import-not-found]

from cruxgate.conformance.spec import format_verdicts, loader, schemas


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user cache of its own and a process that has seen no verdict yet."""
    monkeypatch.setenv("CRUXGATE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(format_verdicts, "_known", set())
    monkeypatch.setattr(format_verdicts, "_read", set())
    return tmp_path / "cache" / format_verdicts.FILE


def a_new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget what this process saw, as the next runner process starts: only the cache file is left."""
    monkeypatch.setattr(format_verdicts, "_known", set())
    monkeypatch.setattr(format_verdicts, "_read", set())


def validator_must_not_run(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make the format schema's validator record each use (and find nothing wrong)."""
    used: list[str] = []

    class Recording:
        def iter_errors(self, document: object) -> list[object]:
            used.append("validated")
            return []

    monkeypatch.setattr(loader, "validator_for", lambda _id: Recording())
    return used


def test_a_text_that_met_the_schema_is_not_validated_again_by_the_next_process(
        cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "spec").mkdir()
    write(tmp_path / "spec", MINIMAL)
    first = loader.load_documents(tmp_path / "spec")
    assert len(cache.read_text(encoding="utf-8").split()) == 1
    a_new_process(monkeypatch)
    used = validator_must_not_run(monkeypatch)
    assert loader.load_documents(tmp_path / "spec") == first
    assert used == []


def test_other_schemas_or_another_validator_version_validate_again(
        cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "spec").mkdir()
    write(tmp_path / "spec", MINIMAL)
    loader.load_documents(tmp_path / "spec")
    a_new_process(monkeypatch)
    used = validator_must_not_run(monkeypatch)
    monkeypatch.setattr(schemas, "digest", lambda folder=None: b"other schemas or jsonschema")
    loader.load_documents(tmp_path / "spec")
    assert used == ["validated"]


def test_the_schema_digest_covers_every_schema_file_the_validator_version_and_its_construction(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "schemas"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.json").write_text('{"$id": "a"}', encoding="utf-8")
    (folder / "sub" / "b.json").write_text('{"$id": "b"}', encoding="utf-8")
    monkeypatch.setattr(schemas, "_digest_for", functools.lru_cache(maxsize=None)(schemas._digest_for.__wrapped__))
    digests = {schemas.digest(folder)}
    assert schemas.digest(folder) in digests
    (folder / "sub" / "b.json").write_text('{"$id": "b", "type": "object"}', encoding="utf-8")
    schemas._digest_for.cache_clear()
    digests.add(schemas.digest(folder))
    monkeypatch.setattr(schemas, "version", lambda _name: "0.0.0")
    schemas._digest_for.cache_clear()
    digests.add(schemas.digest(folder))
    source = tmp_path / "schemas_module.py"
    source.write_bytes(schemas.VALIDATOR_SOURCE.read_bytes() + b"\n# the validator built another way\n")
    monkeypatch.setattr(schemas, "VALIDATOR_SOURCE", source)
    schemas._digest_for.cache_clear()
    digests.add(schemas.digest(folder))
    assert len(digests) == 4


def test_a_broken_text_is_never_recorded_and_an_unreadable_cache_costs_only_the_validation(
        cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "spec").mkdir()
    write(tmp_path / "spec", broken(lambda d: d["requirements"][0].update(level="MUSTN'T")))
    with pytest.raises(loader.SpecError):
        loader.load_documents(tmp_path / "spec")
    assert not cache.exists()
    cache.parent.mkdir(parents=True)
    cache.write_bytes(b"\xff\xfe not a digest\n")
    a_new_process(monkeypatch)
    write(tmp_path / "spec", MINIMAL)
    loader.load_documents(tmp_path / "spec")
    assert len(cache.read_text(encoding="utf-8").split()) == 1


def test_the_cache_keeps_the_newest_verdicts(cache: Path) -> None:
    for number in range(format_verdicts.KEEP + 5):
        format_verdicts.remember(f"{number:064x}")
    kept = cache.read_text(encoding="utf-8").split()
    assert len(kept) == format_verdicts.KEEP and kept[-1] == f"{format_verdicts.KEEP + 4:064x}"
    assert f"{0:064x}" not in kept


@pytest.mark.parametrize("kind", ["fifo", "link"])
def test_a_fifo_or_link_in_place_of_the_cache_is_not_read_and_the_run_goes_on(
        kind: str, cache: Path, tmp_path: Path) -> None:
    cache.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(cache)  # opened for reading without a writer, a blocking read would wait for ever
    else:
        target = tmp_path / "elsewhere.txt"
        target.write_text(f"{1:064x}\n", encoding="utf-8")
        cache.symlink_to(target)
    answers: list[bool] = []
    # In a thread of its own: a reader that blocks on the FIFO fails the test instead of hanging the suite.
    reader = threading.Thread(target=lambda: answers.append(format_verdicts.known(f"{1:064x}")), daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert answers == [False]
    format_verdicts.remember(f"{2:064x}")
    assert cache.is_file() and not cache.is_symlink()  # replaced by a regular file of its own
    assert cache.read_text(encoding="utf-8").split() == [f"{2:064x}"]
    assert [p.name for p in cache.parent.iterdir()] == [format_verdicts.FILE]  # no scratch file left
