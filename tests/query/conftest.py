"""Real indices built once per session: the polyglot fixture and a small workspace shaped for the ranking scenarios."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reference.query.engine import QueryEngine

FIXTURE = Path(__file__).resolve().parents[2] / "golden" / "fixtures" / "polyglot"

# One file per scenario family of seed 000's ranking requirements.
RANKING_FILES = {
    "src/config.py": "class Config:\n    \"\"\"Settings.\"\"\"\n\n    debug = False\n\n\nconfig = Config()\n",
    "src/handler.py": "class Handler:\n    pass\n\n\ndef handler():\n    return Handler()\n",
    "src/lib.rs": (
        "pub mod utils {\n    pub fn helper() -> i32 { 1 }\n}\n\n"
        "pub const UTILS: i32 = 1;\n\n"
        "pub struct Handler;\n\n"
        "pub enum Mode { Fast, Slow }\n"
    ),
    "web/service.ts": (
        "export let UserService = makeService();\n\n"
        "export class UserServiceFactory {\n  build() { return UserService; }\n}\n\n"
        "function makeService() { return {}; }\n"
    ),
    "pkg/handler.go": "package pkg\n\nfunc Serve() int {\n\treturn 1\n}\n",
    "pkg/handler_test.go": "package pkg\n\nfunc Serve() int {\n\treturn 2\n}\n",
    "pkg/attestation.go": "package pkg\n\nfunc Attest() int {\n\treturn 3\n}\n",
}


def index_workspace(workspace: Path) -> None:
    """Build the workspace's index (imported here so the pure unit tests do not need the indexer)."""
    from reference.index import index_workspace as build

    build(workspace)


def open_engine(workspace: Path) -> QueryEngine:
    """A query engine over the workspace's index."""
    from reference.index import IndexReader

    return QueryEngine(IndexReader.open(workspace))


@pytest.fixture(scope="session")
def polyglot_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private, indexed copy of the polyglot fixture."""
    workspace = tmp_path_factory.mktemp("query") / "polyglot"
    shutil.copytree(FIXTURE, workspace)
    index_workspace(workspace)
    return workspace


@pytest.fixture(scope="session")
def polyglot(polyglot_workspace: Path) -> QueryEngine:
    """The engine over the polyglot fixture."""
    return open_engine(polyglot_workspace)


@pytest.fixture(scope="session")
def ranked_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ranking workspace, written and indexed."""
    workspace = tmp_path_factory.mktemp("query") / "ranking"
    for rel, text in RANKING_FILES.items():
        (workspace / rel).parent.mkdir(parents=True, exist_ok=True)
        (workspace / rel).write_text(text, encoding="utf-8")
    index_workspace(workspace)
    return workspace


@pytest.fixture(scope="session")
def ranked(ranked_workspace: Path) -> QueryEngine:
    """The engine over the ranking workspace."""
    return open_engine(ranked_workspace)
