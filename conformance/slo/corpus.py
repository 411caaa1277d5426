"""The benchmark corpora: the Python standard library's own source (the real corpus) and query sets drawn from text."""

from __future__ import annotations

import random
import re
import shutil
import sysconfig
from pathlib import Path

QUERY_SEED = 20261123
# Definitions in the languages of the corpora, read from the text (no index, no server involved).
DEFINITION = re.compile(r"^\s*(?:export\s+)?(?:pub(?:\([a-z]+\))?\s+)?(?:async\s+)?"
                        r"(?:def|class|function|fn|func|struct|interface|trait|enum)\s+([A-Za-z_][A-Za-z0-9_]{2,})",
                        re.MULTILINE)
SOURCE_SUFFIXES = (".py", ".ts", ".js", ".rs", ".go")


def copy_stdlib(target: Path) -> int:
    """Copy the stdlib's Python sources (no site-packages, no caches) into `target`; return the file count."""
    root = Path(sysconfig.get_paths()["stdlib"])
    count = 0
    for source in sorted(root.rglob("*.py")):
        rel = source.relative_to(root)
        if rel.parts[0] in ("site-packages", "dist-packages") or "__pycache__" in rel.parts:
            continue
        dest = target / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, dest)
        count += 1
    return count


def defined_names(root: Path) -> list[str]:
    """Every distinct name a def/class/function/fn/func/struct/... line defines under `root`, sorted."""
    names: set[str] = set()
    for path in sorted(root.rglob("*")):
        if path.suffix in SOURCE_SUFFIXES and ".cruxgate" not in path.parts and path.is_file():
            names.update(DEFINITION.findall(path.read_text(encoding="utf-8", errors="replace")))
    return sorted(name for name in names if name.strip("_"))


def name_queries(root: Path, size: int) -> list[str]:
    """A fixed-seed sample of defined names: the locate_symbol query set."""
    names = defined_names(root)
    return random.Random(QUERY_SEED).sample(names, min(size, len(names)))


def search_queries(root: Path, size: int) -> list[str]:
    """The search_code query set: a name for every other query, its words (`parse config`) for the rest."""
    queries = []
    for i, name in enumerate(name_queries(root, size)):
        words = [w for w in re.split(r"_+|(?<=[a-z0-9])(?=[A-Z])", name) if w]
        queries.append(" ".join(words).lower() if i % 2 and len(words) > 1 else name)
    return queries
