"""`cruxgate index W [--force] [--quiet]`: build or refresh a workspace's index and print a one-line summary."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .semantic.sentence import SentenceModel

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
MAX_PROBLEM_LINES = 20
READING = "indexing"
FINISHING = "indexing: resolving edges, writing indices"


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Arguments of the index command."""
    parser.add_argument("workspace", type=Path, help="directory to index (state goes to WORKSPACE/.cruxgate/)")
    parser.add_argument("--force", action="store_true",
                        help="rebuild from scratch (the remedy for an incompatible index)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar (the summary line is still printed)")
    parser.add_argument("--config", help="the server's TOML config: with [search.semantic] backend = 'sentence', "
                                         "the semantic index also holds the model's vectors (docs/semantic.md)")


def run(args: argparse.Namespace) -> int:
    """Index the workspace; exit 2 when it does not exist, 1 when the run fails (the previous index stays live)."""
    from .build import WorkspaceError, index_workspace
    from .failure import describe_failure

    bar = None
    progress = None
    if not args.quiet and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=0, unit="file", desc=READING, file=sys.stderr, leave=False)

        def progress(done: int, total: int) -> None:
            if done < bar.n:  # the unchanged-tree check found a change: the build reads every file again
                bar.reset(total)  # the count, the rate and the ETA start over
                bar.set_description(READING, refresh=False)
            if bar.total != total:
                bar.total = total
            bar.update(done - bar.n)
            if done == total:
                # Every file is read; edges, SQLite, Tantivy and the semantic index still take a while (a
                # fifth of a run on 5,000 files), and a bar standing at 100% would look hung.
                bar.set_description(FINISHING, refresh=False)
                bar.refresh()  # show the finished count even when the run beat tqdm's refresh interval
    try:
        summary = index_workspace(args.workspace, force=args.force, progress=progress,
                                  sentence=_sentence(args.config))
    except WorkspaceError as err:
        print(f"cruxgate index: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as err:  # noqa: BLE001 - one clear line; the previous generation is still live
        print(f"cruxgate index: failed: {describe_failure(err)} (the previous index, if any, is unchanged)",
              file=sys.stderr)
        return EXIT_FAILED
    finally:
        if bar is not None:
            bar.close()
    for line in summary.problems[:MAX_PROBLEM_LINES]:
        print(f"cruxgate index: warning: {line}", file=sys.stderr)
    if len(summary.problems) > MAX_PROBLEM_LINES:
        print(f"cruxgate index: warning: ... and {len(summary.problems) - MAX_PROBLEM_LINES} more", file=sys.stderr)
    print(summary.line())
    return EXIT_OK


def _sentence(config: str | None) -> SentenceModel | None:
    """The sentence backend's model when the config asks for it; a model that cannot be found is a warning (the
    index is built without its vectors, and search_code answers lexically with semantic_backend_error)."""
    if config is None:  # the defaults: the LSI backend, which reads no model (and no TOML parser to import)
        return None
    from cruxgate.reference.config import load_config

    settings = load_config(config)
    for warning in settings.warnings:
        print(f"cruxgate index: config warning: {warning}", file=sys.stderr)
    if settings.semantic.backend != "sentence":
        return None
    from .semantic import SemanticIndexError
    from .semantic.sentence import sentence_model

    try:
        return sentence_model(settings.semantic.model)
    except SemanticIndexError as err:
        print(f"cruxgate index: warning: no sentence vectors: {err}", file=sys.stderr)
        return None
