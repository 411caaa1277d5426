"""Where the contract's data lives: the checkout first, then the installed package."""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]  # conformance/ (cruxgate/conformance/ in the wheel)
_CHECKOUT = _PACKAGE.parent
# The installed package that holds conformance/suite.yaml: `pytest --pyargs cruxgate.conformance` finds the suite
# from any directory, and never a `conformance` package of the repository it runs in.
SUITE_PACKAGE = __name__.rsplit(".", 2)[0]


def _locate(checkout_rel: str, packaged_rel: str) -> Path:
    for candidate in (_CHECKOUT / checkout_rel, _PACKAGE / "data" / packaged_rel):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"cruxgate data folder {checkout_rel!r} not found in {_CHECKOUT} or {_PACKAGE / 'data'}"
    )


def packaged_data_dir() -> Path:
    """The wheel's copy of spec/, schemas/ and the fixtures (absent in a checkout)."""
    return _PACKAGE / "data"


def spec_dir() -> Path:
    """The folder of spec/*.yaml documents."""
    return _locate("spec", "spec")


def schemas_dir() -> Path:
    """The folder of JSON Schemas (schemas/*.json)."""
    return _locate("schemas", "schemas")


def fixtures_dir() -> Path:
    """The folder of golden fixture repositories."""
    return _locate("golden/fixtures", "fixtures")


def semantic_dir() -> Path:
    """The labeled questions in words (stdlib-queries.yaml) the SLO harness and the quality benchmark ask."""
    return _locate("golden/semantic", "semantic")


def scored_search_dir() -> Path:
    """The labeled match-reason cases (match-reasons.yaml) of SS-REASONS-04."""
    return _locate("golden/scored-search", "scored-search")


def profiles_dir() -> Path:
    """The folder of bundled target profiles (the reference's is the default)."""
    return _PACKAGE / "profiles"


def user_cache_root() -> Path:
    """Where the gate keeps what it may reuse across runs outside pytest's cache (the spec's format verdicts,
    the benchmarks' corpora without `cacheprovider`): $CRUXGATE_CACHE_DIR, else $XDG_CACHE_HOME/cruxgate, else
    ~/.cache/cruxgate."""
    if explicit := os.environ.get("CRUXGATE_CACHE_DIR"):
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cruxgate"
