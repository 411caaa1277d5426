"""Folders the benchmarks keep across sessions (copied and indexed corpora).

pytest's cache (`.pytest_cache/d/`) is the natural home, but it exists only while the
`cacheprovider` plugin is loaded: with `-p no:cacheprovider` (a read-only checkout, a CI
that forbids writes beside the sources) `config.cache` is missing. The benchmarks then keep
their folders in the user's cache instead, so they run and still reuse the corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cruxgate.conformance.spec.paths import user_cache_root


def cache_dir(config: pytest.Config, name: str) -> Path:
    """The folder `name`, created if needed: in pytest's cache when it is on, else under `user_cache_root()`."""
    cache = getattr(config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir(name))
    path = user_cache_root() / "benchmarks" / name
    path.mkdir(parents=True, exist_ok=True)
    return path
