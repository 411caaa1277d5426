"""`python3 benchmarks/patch_drift.py`: how far a patched index's search_code answers drift from a full run's.

On demand, not a test. Copies the stdlib's sources into a temporary directory, indexes them, appends a
function to `--edits` files drawn with a fixed seed, patching the index after each (the time of every
patch is printed), copies the tree and indexes the copy from scratch, then asks both indices the same
search_code queries (names and word queries, drawn as the other benchmarks draw them; lexical) and prints
how many answers are identical at top 1, 3 and 10 and how far the scores moved. docs/index.md quotes it.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from cruxgate.conformance.slo.corpus import copy_stdlib, name_queries, search_queries
from cruxgate.reference.index import IndexReader, index_workspace
from cruxgate.reference.query.engine import QueryEngine

SEED = 20261125


def _answers(workspace: Path, queries: list[str]) -> list[list[tuple]]:
    """Each query's top 10 as (path, lines, type, stable id, score)."""
    engine = QueryEngine(IndexReader.open(workspace))
    stable = dict(engine.db.execute("SELECT symbol_id, symbol_stable_id FROM symbols"))
    return [[(h.path, h.line_start, h.line_end, h.result_type, stable.get(h.symbol_id), h.score)
             for h in engine.search_code(query, limit=10).hits] for query in queries]


def main(argv: list[str] | None = None) -> int:
    """Patch, rebuild, compare; print the figures."""
    parser = argparse.ArgumentParser(prog="benchmarks/patch_drift.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=20, help="files edited, one patch each")
    parser.add_argument("--queries", type=int, default=100, help="names and as many word queries")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cruxgate-drift-") as tmp:
        patched, full = Path(tmp) / "patched", Path(tmp) / "full"
        copy_stdlib(patched)
        index_workspace(patched)
        files = sorted(p for p in patched.rglob("*.py") if ".cruxgate" not in p.parts)
        for i, path in enumerate(random.Random(SEED).sample(files, args.edits)):
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(f"\n\ndef patch_drift_helper_{i}(value):\n    return value\n")
            summary = index_workspace(patched)
            print(f"patch {i + 1}: {path.relative_to(patched)}: {summary.seconds:.2f} s, "
                  f"{summary.parsed_files} parsed", flush=True)
        shutil.copytree(patched, full, ignore=shutil.ignore_patterns(".cruxgate"))
        started = time.perf_counter()
        index_workspace(full, force=True)
        print(f"full run over the same tree: {time.perf_counter() - started:.1f} s", flush=True)
        queries = name_queries(patched, args.queries) + search_queries(patched, args.queries)
        mine, theirs = _answers(patched, queries), _answers(full, queries)
    same = {k: sum(1 for a, b in zip(mine, theirs, strict=True) if [h[:5] for h in a[:k]] == [h[:5] for h in b[:k]])
            for k in (1, 3, 10)}
    overlap = statistics.mean(len({h[:5] for h in a} & {h[:5] for h in b}) / max(len(b), 1)
                              for a, b in zip(mine, theirs, strict=True))
    # Score by score at the same rank (a list may be shorter when fewer hits exist).
    drift = [abs(x[5] - y[5]) / y[5] for a, b in zip(mine, theirs, strict=True)
             for x, y in zip(a, b, strict=False) if y[5]]
    print(f"{len(queries)} queries: identical top-1 {same[1]}, top-3 {same[3]}, top-10 {same[10]}; "
          f"mean top-10 overlap {overlap:.3f}; score drift median {100 * statistics.median(drift):.2f}%, "
          f"max {100 * max(drift):.2f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
