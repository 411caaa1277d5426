"""`cruxgate hook NAME W`: put a workspace's index into a state only the implementation can produce (conformance)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

from .state import (
    DATABASE,
    MANIFEST,
    SCHEMA_VERSION,
    STATE_DIR,
    TANTIVY_DIR,
    current_generation,
    read_state,
    write_atomic,
)


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


# The conformance fixture's symbol that semantic_orphan takes out of the lexical index: a question in words
# about retrying with backoff finds it through its semantic row alone.
ORPHAN = "net.retry.retry_with_backoff"


def semantic_orphan(workspace: Path) -> None:
    """The fixture's ORPHAN leaves the lexical symbol index (Tantivy and its SQLite rows); its semantic row stays.

    A semantic hit on it then cannot be enriched (000: "symbol not found in index"). Both stores are
    rewritten through new inodes, so files the generation shares by hard link stay as they were.
    """
    import tantivy

    from .seal import write_seal
    from .store import WRITER_HEAP

    generation = _live_manifest(workspace).parent
    database = generation / DATABASE
    copy = database.with_name(f".{DATABASE}.tmp")
    shutil.copyfile(database, copy)
    with sqlite3.connect(copy) as db:
        ids = [row[0] for row in db.execute("SELECT symbol_id FROM symbols WHERE qualified_name = ?", (ORPHAN,))]
        if not ids:
            raise SystemExit(f"semantic_orphan: the index holds no symbol {ORPHAN} (not the conformance fixture?)")
        db.execute("DELETE FROM symbols WHERE qualified_name = ?", (ORPHAN,))
    os.replace(copy, database)
    symbols = generation / TANTIVY_DIR / "symbols"
    staged = symbols.with_name(".symbols.tmp")
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(symbols, staged)
    writer = tantivy.Index.open(str(staged)).writer(heap_size=WRITER_HEAP, num_threads=1)
    for symbol_id in ids:
        writer.delete_documents_by_term("symbol_id", symbol_id)
    writer.commit()
    writer.wait_merging_threads()
    retired = symbols.with_name(".symbols.old")
    os.replace(symbols, retired)
    os.replace(staged, symbols)
    shutil.rmtree(retired)
    write_seal(generation, linkable=False)  # the new sizes are the state the hook means, not damage


def legacy_status_idle(workspace: Path) -> None:
    """The manifest uses the legacy status `idle` (read as ready)."""
    _edit_manifest(workspace, status="idle")


def legacy_status_partial_available(workspace: Path) -> None:
    """The manifest uses the legacy status `partial_available` (read as ready)."""
    _edit_manifest(workspace, status="partial_available")


HOOKS: dict[str, Callable[[Path], None]] = {f.__name__: f for f in (
    corrupt_manifest, reindex_required, not_indexed, legacy_status_idle, legacy_status_partial_available,
    corrupt_index_segment, semantic_backend_failure, semantic_orphan)}


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
