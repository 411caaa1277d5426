"""A generation's seal: the files it was written with (size, mtime, inode), so an unchanged tree can link them.

An unchanged re-index makes a new generation whose database and indices would be byte-for-byte what
the live one holds. Rebuilding them costs about half a full run; hard-linking them costs milliseconds.
Linking is safe only while the live generation is exactly as it was written: the conformance hooks
damage a generation by replacing files through new inodes, and a damaged generation must be rebuilt
from the sources, not copied on. The seal records every file's size, mtime and inode at the end of the
build; any file that no longer matches (or is missing) breaks the seal and the run rebuilds.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

SEAL = "seal.json"
_UNSEALED = frozenset({SEAL, "manifest.json"})  # the manifest is written per run, after the seal


def stamp(path: Path) -> list[int]:
    """A file's [size, mtime_ns, inode]: what it was written as."""
    st = path.stat()
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def write_seal(generation: Path, linkable: bool = True) -> None:
    """Record every file now in `generation` (dot-files, the manifest and the seal itself excepted).

    Not `linkable`: the sizes stand (the reader's damage check passes) but no stamp matches a file, so the
    next run rebuilds rather than links; for a generation a hook changed on purpose.
    """
    files = {}
    for path in sorted(generation.rglob("*")):
        rel = path.relative_to(generation).as_posix()
        if path.is_file() and not path.name.startswith(".") and rel not in _UNSEALED:
            files[rel] = stamp(path) if linkable else [path.stat().st_size, -1, -1]
    (generation / SEAL).write_text(json.dumps({"files": files}, sort_keys=True), encoding="utf-8")


def sealed_files(generation: Path) -> dict[str, list[int]] | None:
    """The sealed files of `generation` when every one is still as written; None when the seal is missing or broken."""
    try:
        files = json.loads((generation / SEAL).read_text(encoding="utf-8"))["files"]
        if not isinstance(files, dict) or not files:
            return None
        for rel, written in files.items():
            if stamp(generation / rel) != written:
                return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return files


def sealed_sizes(generation: Path) -> dict[str, int] | None:
    """Every sealed file of `generation` and the size it was written with; None without a (readable) seal."""
    try:
        files = json.loads((generation / SEAL).read_text(encoding="utf-8"))["files"]
        return {rel: int(written[0]) for rel, written in files.items()}
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None


def link_generation(old: Path, new: Path, files: dict[str, list[int]]) -> bool:
    """Hard-link the sealed `files` of `old` into the empty directory `new`, seal included; False if a link fails."""
    try:
        for rel in sorted(files):
            target = new / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(old / rel, target)
        # The same inodes, sizes and mtimes: the old seal is the new generation's seal.
        shutil.copyfile(old / SEAL, new / SEAL)
    except OSError:
        return False
    return True
