"""The on-disk state of a workspace's index: `.cruxgate/CURRENT` -> `gen-<n>/manifest.json`, read without trust."""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .reading import Refused, read_regular

# 2: symbol stable ids are 16 hex digits (were 32); an index of another version must be rebuilt.
SCHEMA_VERSION = 2
STATE_DIR = ".cruxgate"
CURRENT = "CURRENT"
MANIFEST = "manifest.json"
DATABASE = "index.db"
TANTIVY_DIR = "tantivy"
TANTIVY_INDICES = ("symbols", "snippets", "files")
GENERATION_PREFIX = "gen-"
# What CURRENT may hold: one generation's name (a newline after it); anything else is damage.
_GENERATION_NAME = re.compile(rb"gen-[0-9]{1,18}")
CURRENT_BYTES = 64
MANIFEST_BYTES = 1_000_000  # a manifest is a few hundred bytes
# The files read through read_small_text (.git/HEAD, refs, packed-refs, CURRENT) are far smaller.
SMALL_FILE_BYTES = 16_000_000
# The ref of the working tree, the only one an index holds (manifest `ref`, the edges' `ref`).
LIVE_REF = "live"
# Legacy manifest statuses that readers map to `ready` (seed 004).
READY_STATUSES = frozenset({"ready", "idle", "partial_available"})


@dataclass(frozen=True)
class IndexState:
    """What a reader finds: status ready | not_indexed | reindex_required | corrupt_manifest."""

    status: str
    manifest: dict[str, Any] | None
    current_schema_version: int | None
    required_schema_version: int = SCHEMA_VERSION
    generation: Path | None = None
    reason: str = ""


def read_small_text(path: str, limit: int = SMALL_FILE_BYTES) -> str:
    """A small regular file's UTF-8 text, read with bare os calls (the server does it per call).

    Read as the workspace's files are (reference/index/reading.py): a link, a FIFO or a file past
    `limit` raises Refused, an OSError, as does text that is not UTF-8.
    """
    data = read_regular(path, limit).data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused("not UTF-8 text") from None


def state_dir(workspace: Path | str) -> Path:
    """`<workspace>/.cruxgate`."""
    return Path(workspace) / STATE_DIR


GITIGNORE = ".gitignore"
GITIGNORE_TEXT = "*\n"  # git ignores everything in the folder, this file included


def private_state_dir(workspace: Path | str) -> Path:
    """`<workspace>/.cruxgate`, made 0700 (an existing folder too) and holding a `.gitignore` of `*`.

    The folder holds the workspace's source text and the HTTP token: only its owner may enter, and git
    never offers any of it for a commit, whether or not the workspace ignores `.cruxgate`.
    """
    state = state_dir(workspace)
    state.mkdir(mode=0o700, exist_ok=True)
    os.chmod(state, 0o700)
    ignore = state / GITIGNORE
    try:
        current = read_small_text(str(ignore), CURRENT_BYTES)
    except FileNotFoundError:
        current = None
    except OSError:
        current = ""  # a link, a FIFO or garbage where the file belongs: replaced
    if current != GITIGNORE_TEXT:
        write_atomic(ignore, GITIGNORE_TEXT)
        os.chmod(ignore, 0o600)  # like everything else in the folder, whatever the umask
    return state


def generation_dir(workspace: Path | str, name: str) -> Path:
    """The directory of generation `name` (as CURRENT names it); a name that is no generation's maps nowhere."""
    if not name.startswith(GENERATION_PREFIX) or "/" in name or "\\" in name or name in (".", ".."):
        return state_dir(workspace) / "\x00invalid"
    return state_dir(workspace) / name


class BadPointer(ValueError):
    """CURRENT exists but names no generation (garbage bytes, a path, a link, a FIFO)."""


def read_current(workspace: Path | str) -> str | None:
    """The generation name CURRENT holds; None when there is no CURRENT; BadPointer when it holds anything else."""
    path = os.path.join(workspace, STATE_DIR, CURRENT)
    try:
        data = read_regular(path, CURRENT_BYTES).data
    except Refused as err:
        if not os.path.lexists(path):
            return None
        raise BadPointer(f"{STATE_DIR}/{CURRENT} cannot be read: {err.reason}") from None
    name = data.strip()
    if not _GENERATION_NAME.fullmatch(name):
        raise BadPointer(f"{STATE_DIR}/{CURRENT} names no generation: {data[:CURRENT_BYTES]!r}")
    return name.decode("ascii")


def current_generation(workspace: Path | str) -> Path | None:
    """The directory CURRENT names, or None when there is no (valid) CURRENT."""
    try:
        name = read_current(workspace)
    except BadPointer:
        return None
    return None if name is None else generation_dir(workspace, name)


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and os.replace (readers see old or new, never half)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    # Created afresh (O_EXCL never follows a link): a leftover under this pid, or a link planted to
    # make the write land elsewhere, is removed first.
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    with open(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def read_state(workspace: Path | str, generation_name: str | None = None) -> IndexState:
    """Classify the workspace's live index without opening it.

    `generation_name` classifies that generation instead of the one CURRENT names now: a reader that
    has already read CURRENT (the server's snapshot key) describes the very generation it read.
    """
    if generation_name is None:
        try:
            generation_name = read_current(workspace)
        except BadPointer as err:
            return IndexState("corrupt_manifest", None, None, reason=f"{err}; rebuild with --force")
        if generation_name is None:
            return IndexState("not_indexed", None, None, reason="no .cruxgate/CURRENT")
    generation = generation_dir(workspace, generation_name)
    try:
        # Read like CURRENT: a cloned tree may bring a `.cruxgate` of its own, with a FIFO for a manifest.
        manifest = json.loads(read_small_text(str(generation / MANIFEST), MANIFEST_BYTES))
    except (OSError, ValueError) as err:
        return IndexState("corrupt_manifest", None, None, generation=generation, reason=f"manifest unreadable: {err}")
    if not isinstance(manifest, dict):
        return IndexState("corrupt_manifest", None, None, generation=generation, reason="manifest is not an object")
    version = manifest.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int):
        return IndexState("corrupt_manifest", manifest, None, generation=generation,
                          reason="manifest has no integer schema_version")
    if version != SCHEMA_VERSION:
        return IndexState("reindex_required", manifest, version, generation=generation,
                          reason=f"index schema {version}, this build needs {SCHEMA_VERSION}")
    if manifest.get("status") not in READY_STATUSES:
        return IndexState("corrupt_manifest", manifest, version, generation=generation,
                          reason=f"manifest status {manifest.get('status')!r} is not a complete index")
    missing = [name for name in (DATABASE, *(f"{TANTIVY_DIR}/{n}" for n in TANTIVY_INDICES))
               if not (generation / name).exists()]
    if missing:
        return IndexState("corrupt_manifest", manifest, version, generation=generation,
                          reason=f"manifest names a generation without {', '.join(missing)}")
    return IndexState("ready", manifest, version, generation=generation)
