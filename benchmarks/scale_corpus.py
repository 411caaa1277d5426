"""The scale benchmark's corpora: the stdlib plus pinned pure-source packages, sampled to nested sizes.

Set-up (`install`) is the only step that reaches a registry: `pip install --no-deps --target` of exact
versions into the benchmark cache, once. Building a corpus copies a fixed-seed sample of the pooled
source files; every smaller corpus is a prefix of the same shuffled list, so each size holds the
smaller ones and a query drawn from the smallest corpus finds its definition at every size.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from cruxgate.reference.index.scan import MAX_FILE_BYTES, SKIP_DIRS

# Exact versions: the corpus must be the same on every run. Pure source (no build step), large,
# and of different shapes: a web framework, a computer algebra system, thousands of small modules.
PACKAGES = ("django==6.1.3", "sympy==1.14.0", "ansible==14.5.0", "homeassistant==2026.11.0")
# What the reference parses; other files (data, docs, templates) would measure the text path only.
SOURCE_SUFFIXES = frozenset({".py", ".pyi", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx",
                             ".rs", ".go"})
SAMPLE_SEED = 20261125
SIZES = (1_000, 5_000, 20_000)


@dataclass(frozen=True)
class Corpus:
    """One built corpus: where it is and what it holds."""

    size: int
    root: Path
    files: int
    bytes: int


def site_dir(cache: Path) -> Path:
    """Where the pinned packages are installed."""
    return cache / "site"


def install(cache: Path) -> None:
    """Install the pinned packages into the cache (set-up only: never while measuring); a no-op once done."""
    site = site_dir(cache)
    marker = cache / "site.json"
    if marker.exists() and json.loads(marker.read_text(encoding="utf-8")) == list(PACKAGES):
        return
    shutil.rmtree(site, ignore_errors=True)
    # --ignore-requires-python: the sources are indexed, never imported, so a newer floor does not matter.
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                    "--no-compile", "--ignore-requires-python", "--target", str(site), *PACKAGES], check=True)
    marker.write_text(json.dumps(list(PACKAGES)), encoding="utf-8")


def pool(cache: Path) -> list[tuple[str, Path]]:
    """Every source file of the stdlib and the installed packages: (path in the corpus, file), sorted."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    roots = [("stdlib", stdlib, ("site-packages", "dist-packages")), ("site", site_dir(cache), ("bin", "share"))]
    found: list[tuple[str, Path]] = []
    for prefix, root, skipped in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            rel_dir = Path(dirpath).relative_to(root)
            # Folders the indexer skips (build, vendor, ...) would hold files that never count.
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".dist-info")
                                 and not (rel_dir == Path(".") and d in skipped))
            for name in filenames:
                path = Path(dirpath) / name
                # Larger files are skipped by the indexer too.
                if path.suffix in SOURCE_SUFFIXES and not path.is_symlink() \
                        and path.stat().st_size <= MAX_FILE_BYTES:
                    found.append((f"{prefix}/{(rel_dir / name).as_posix()}", path))
    return sorted(found)


def sample(files: list[tuple[str, Path]], size: int) -> list[tuple[str, Path]]:
    """The first `size` files of the pool in a fixed-seed order (a smaller sample is a prefix of a larger one)."""
    order = list(files)
    random.Random(SAMPLE_SEED).shuffle(order)
    if size > len(order):
        raise ValueError(f"the pool holds {len(order)} source files, fewer than {size}")
    return sorted(order[:size])


def build(cache: Path, size: int, files: list[tuple[str, Path]]) -> Corpus:
    """The corpus of `size` files under the cache, copied once (a finished copy is reused)."""
    root = cache / f"corpus-{size}"
    marker = cache / f"corpus-{size}.json"
    chosen = sample(files, size)
    if marker.exists():
        recorded = json.loads(marker.read_text(encoding="utf-8"))
        if recorded.get("packages") == list(PACKAGES) and recorded.get("files") == size:
            return Corpus(size, root, recorded["files"], recorded["bytes"])
    shutil.rmtree(root, ignore_errors=True)
    total = 0
    for rel, source in chosen:
        dest = root / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, dest)
        total += dest.stat().st_size
    marker.write_text(json.dumps({"packages": list(PACKAGES), "files": size, "bytes": total}), encoding="utf-8")
    return Corpus(size, root, size, total)
