"""A full run waits for Tantivy's commit, then gives the C heap's free pages back before the semantic fit and before
the resolver's tables: no two of the three are in memory together."""

from __future__ import annotations

from pathlib import Path

import pytest

from cruxgate.reference.index import build as build_module
from cruxgate.reference.index import heap, index_workspace, store
from cruxgate.reference.index.semantic import build as semantic_build

from .conftest import copy_fixture


def test_the_commit_ends_and_the_heap_is_trimmed_before_the_fit_and_before_the_resolver_tables(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    steps: list[str] = []
    trim, write, resolver = build_module._trim_heap, semantic_build.SemanticIndexBuilder.write, build_module._resolver

    def traced(name, function):
        def step(*args, **kwargs):
            steps.append(name)
            return function(*args, **kwargs)
        return step

    monkeypatch.setattr(build_module, "_trim_heap", traced("trim", trim))
    monkeypatch.setattr(semantic_build.SemanticIndexBuilder, "write", traced("fit", write))
    monkeypatch.setattr(build_module, "_resolver", traced("tables", resolver))
    monkeypatch.setattr(store.GenerationWriter, "wait_search_indices",
                        traced("commit", store.GenerationWriter.wait_search_indices))
    index_workspace(copy_fixture(tmp_path / "ws"), force=True, workers=1)
    assert steps == ["commit", "trim", "fit", "trim", "tables"]


def test_without_malloc_trim_the_trim_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoTrim:  # a C library without glibc's malloc_trim (musl, macOS)
        def __getattr__(self, name: str):
            raise AttributeError(name)

    monkeypatch.setattr(heap.ctypes, "CDLL", lambda _name: NoTrim())
    heap.trim_heap()  # returns instead of raising
