"""`cruxgate hook NAME W`: put a workspace's index into a state only the implementation can produce (conformance)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from .state import MANIFEST, SCHEMA_VERSION, STATE_DIR, TANTIVY_DIR, current_generation, read_state, write_atomic


def _live_manifest(workspace: Path) -> Path:
    """The live manifest's path; a workspace without a readable index is (re)built first."""
    if read_state(workspace).status in ("not_indexed", "corrupt_manifest"):
        from .build import index_workspace

        index_workspace(workspace, force=True)
    generation = current_generation(workspace)
    assert generation is not None
    return generation / MANIFEST


def _edit_manifest(workspace: Path, **changes: object) -> None:
    path = _live_manifest(workspace)
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest.update(changes)
    write_atomic(path, json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def corrupt_manifest(workspace: Path) -> None:
    """The live manifest becomes unreadable JSON."""
    write_atomic(_live_manifest(workspace), f'{{"schema_version": {SCHEMA_VERSION}, "status": "ready", "cursor": ')


def reindex_required(workspace: Path) -> None:
    """The live manifest claims an older schema version."""
    _edit_manifest(workspace, schema_version=SCHEMA_VERSION - 1)


def not_indexed(workspace: Path) -> None:
    """No index at all."""
    shutil.rmtree(workspace / STATE_DIR, ignore_errors=True)


def corrupt_index_segment(workspace: Path) -> None:
    """Every segment file of the live symbols index is overwritten with garbage of the same size (manifest intact).

    Each file is replaced through a new inode, so a server that still maps the old one keeps reading it.
    """
    segments = _live_manifest(workspace).parent / TANTIVY_DIR / "symbols"
    for path in sorted(segments.iterdir()):
        if path.name == "meta.json" or path.name.startswith(".") or not path.is_file():
            continue
        garbage = bytes((i * 7 + 3) % 256 for i in range(path.stat().st_size))
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_bytes(garbage)
        os.replace(tmp, path)


def semantic_backend_failure(workspace: Path) -> None:
    """Every file of the live semantic index is overwritten with garbage (lexical indices and manifest intact).

    A server that opens the semantic index after this (the first semantic query of a generation does)
    degrades search_code to lexical results with semantic_fallback and semantic_degraded true.
    """
    from .semantic import SEMANTIC_DIR

    folder = _live_manifest(workspace).parent / SEMANTIC_DIR
    for path in sorted(folder.iterdir()) if folder.is_dir() else ():
        if path.is_file():
            tmp = path.with_name(f".{path.name}.tmp")
            tmp.write_bytes(b"\x93NUMPY garbage " * max(1, path.stat().st_size // 64 % 64))
            os.replace(tmp, path)


def legacy_status_idle(workspace: Path) -> None:
    """The manifest uses the legacy status `idle` (read as ready)."""
    _edit_manifest(workspace, status="idle")


def legacy_status_partial_available(workspace: Path) -> None:
    """The manifest uses the legacy status `partial_available` (read as ready)."""
    _edit_manifest(workspace, status="partial_available")


HOOKS: dict[str, Callable[[Path], None]] = {f.__name__: f for f in (
    corrupt_manifest, reindex_required, not_indexed, legacy_status_idle, legacy_status_partial_available,
    corrupt_index_segment, semantic_backend_failure)}


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Arguments of the hook command."""
    parser.add_argument("hook", choices=sorted(HOOKS), help="the state to produce")
    parser.add_argument("workspace", type=Path, help="the indexed workspace")


def run(args: argparse.Namespace) -> int:
    """Apply the hook; exit 2 when the workspace does not exist."""
    workspace = args.workspace
    if not workspace.is_dir():
        print(f"cruxgate hook: error: workspace {workspace} does not exist", file=sys.stderr)
        return 2
    HOOKS[args.hook](workspace.resolve())
    print(f"{args.hook}: {read_state(workspace).status}")
    return 0
