"""Folders the benchmarks keep across sessions (copied and indexed corpora).

pytest's cache (`.pytest_cache/d/`) is the natural home, but it exists only while the
`cacheprovider` plugin is loaded: with `-p no:cacheprovider` (a read-only checkout, a CI
that forbids writes beside the sources) `config.cache` is missing. The benchmarks then keep
their folders in the user's cache instead, so they run and still reuse the corpus.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def fallback_root() -> Path:
    """Where the folders go without pytest's cache.

    $CRUXGATE_CACHE_DIR, else $XDG_CACHE_HOME/cruxgate, else ~/.cache/cruxgate.
    """
    if explicit := os.environ.get("CRUXGATE_CACHE_DIR"):
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cruxgate"


def cache_dir(config: pytest.Config, name: str) -> Path:
    """The folder `name`, created if needed: in pytest's cache when it is on, else under `fallback_root()`."""
    cache = getattr(config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir(name))
    path = fallback_root() / "benchmarks" / name
    path.mkdir(parents=True, exist_ok=True)
    return path
