"""The Tantivy indices hold the documented fields, with code-aware expanded text."""

from __future__ import annotations

import json

import pytest
import tantivy

from cruxgate.reference.index import IndexReader
from cruxgate.reference.index.extract import extract
from cruxgate.reference.index.tokens import expand, parts


@pytest.mark.parametrize(("text", "expected"), [
    ("validateToken", "validateToken\nvalidate Token"),
    ("UserServiceFactory", "UserServiceFactory\nUser Service Factory"),
    ("HTTPServerError", "HTTPServerError\nHTTP Server Error"),
    ("validate_token", "validate_token"),          # the tokenizer splits at `_` by itself
    ("app::config::Config", "app::config::Config"),
    ("", ""),
    ("x.parseV2Config and getX", "x.parseV2Config and getX\nget X parse V2 Config"),
])
def test_expand(text: str, expected: str) -> None:
    assert expand(text) == expected


def test_parts_split_at_every_separator_and_hump() -> None:
    assert parts("src/auth/handler.rs") == ["src", "auth", "handler", "rs"]
    assert parts("app::config::Config") == ["app", "config", "Config"]
    assert parts("validate_token-validateToken") == ["validate", "token", "validate", "Token"]


def schema_of(reader: IndexReader, name: str) -> dict[str, tuple[str, str | None]]:
    """field -> (type, tokenizer) as Tantivy recorded it in the index's meta.json."""
    meta = json.loads((reader.generation / "tantivy" / name / "meta.json").read_text(encoding="utf-8"))
    return {f["name"]: (f["type"], (f["options"].get("indexing") or {}).get("tokenizer")) for f in meta["schema"]}


TEXT = ("text", "default")
RAW = ("text", "raw")
INT = ("i64", None)


@pytest.mark.parametrize(("name", "fields"), [
    ("symbols", {"symbol_id": INT, "symbol_exact": TEXT, "qualified_name": TEXT, "signature": TEXT, "path": TEXT,
                 "content": TEXT, "language": RAW, "kind": RAW}),
    ("snippets", {"snippet_id": INT, "file_id": INT, "path": TEXT, "line_start": INT, "line_end": INT,
                  "content": TEXT, "imports": TEXT, "language": RAW}),
    ("files", {"file_id": INT, "path": TEXT, "filename": TEXT, "content_head": TEXT, "language": RAW}),
])
def test_schema_fields(reader: IndexReader, name: str, fields: dict) -> None:
    assert schema_of(reader, name) == fields


def symbol_names(reader: IndexReader, field: str, words: str, **filters: str) -> list[str]:
    index = reader.index("symbols")
    query = index.parse_query(words, [field])
    for key, value in filters.items():
        query = tantivy.Query.boolean_query([(tantivy.Occur.Must, query), (
            tantivy.Occur.Must, tantivy.Query.term_query(index.schema, key, value))])
    searcher = reader.searcher("symbols")
    hits = searcher.search(query, limit=50).hits
    ids = searcher.fast_field_values("symbol_id", [a for _, a in hits])
    marks = ",".join("?" * len(ids))
    return sorted({n for (n,) in reader.db.execute(f"SELECT name FROM symbols WHERE symbol_id IN ({marks})", ids)})


def test_identifiers_are_found_by_their_parts(reader: IndexReader) -> None:
    assert "validate_token" in symbol_names(reader, "symbol_exact", "validate")
    assert {"UserService", "UserServiceFactory", "userService"} <= set(symbol_names(reader, "symbol_exact", "service"))
    assert "Config" in symbol_names(reader, "qualified_name", "app", language="rust")
    assert "normalize_key" in symbol_names(reader, "path", "lib")


def test_raw_filters(reader: IndexReader) -> None:
    assert symbol_names(reader, "symbol_exact", "config", kind="struct") == ["Config"]
    assert symbol_names(reader, "symbol_exact", "config", language="python", kind="class") == ["Config"]
    assert symbol_names(reader, "symbol_exact", "config", language="java") == []


def test_body_text_is_searchable(reader: IndexReader) -> None:
    assert {"retry_with_backoff", "with_jitter"} <= set(symbol_names(reader, "content", "jitter"))


def test_snippets_and_files_carry_their_positions(reader: IndexReader) -> None:
    searcher = reader.searcher("snippets")
    index = reader.index("snippets")
    hits = searcher.search(index.parse_query("jitter", ["content"]), limit=20).hits
    docs = [searcher.doc(a) for _, a in hits]
    assert {d.get_first("path") for d in docs} == {"src/net/retry.py"}
    docs = [d for d in docs if d.get_first("path") == "src/net/retry.py"]
    regions = {(d.get_first("line_start"), d.get_first("line_end")) for d in docs}
    symbol_regions = set(reader.db.execute(
        "SELECT s.line_start, s.line_end FROM symbols s JOIN symbol_relations r USING (symbol_id) "
        "WHERE s.path = 'src/net/retry.py' AND r.parent_symbol_id IS NULL"))
    assert regions & symbol_regions  # a top-level definition's snippet is its own region (dedup identity)
    files = reader.searcher("files")
    found = files.search(reader.index("files").parse_query("attestation", ["filename"]), limit=5).hits
    ids = files.fast_field_values("file_id", [a for _, a in found])
    assert [p for (p,) in reader.db.execute(f"SELECT path FROM files WHERE file_id IN ({','.join('?' * len(ids))})",
                                            ids)] == ["src/attestation.go"]


def imports_terms(reader: IndexReader, *terms: str) -> dict[str, int]:
    """How many snippets hold each term in their imports field."""
    searcher = reader.searcher("snippets")
    return {term: searcher.doc_freq("imports", term) for term in terms}


def test_imports_field_holds_what_is_imported(reader: IndexReader) -> None:
    found = imports_terms(reader, "dataclasses", "aiomysql", "deadpool", "promise", "createpool", "from", "import",
                          "use")
    assert all(found[name] for name in ("dataclasses", "aiomysql", "deadpool", "promise", "createpool")), found
    # The statements' keywords are in every file's imports: a question's `from` would match them all.
    assert (found["from"], found["import"], found["use"]) == (0, 0, 0)


IMPORT_CASES = [
    pytest.param("python", "from os.path import join as pjoin, exists\nimport numpy as np\n",
                 "os path join pjoin exists\nnumpy np", id="python-from-import-as"),
    pytest.param("typescript", 'import * as path from "node:path";\nimport { readFile as rf } from "fs/promises";\n',
                 "path node path\nreadFile rf fs promises", id="typescript-import-from"),
    pytest.param("rust", "use std::collections::{HashMap, BTreeSet as Set};\n",
                 "std collections HashMap BTreeSet Set", id="rust-use-as"),
    pytest.param("java", "package p;\nimport static org.junit.Assert.assertEquals;\n",
                 "org junit Assert assertEquals", id="java-import-static"),
    pytest.param("c", "#include <stdio.h>\n", "stdio h", id="c-include"),
    pytest.param("ruby", "require_relative 'lib/thing'\n", "lib thing", id="ruby-require-relative"),
    # A statement the rules read no name from keeps its text.
    pytest.param("python", "from . import *\n", "from . import *", id="python-star-keeps-text"),
    pytest.param("rust", "use super::*;\n", "use super::*;", id="rust-glob-keeps-text"),
]


@pytest.mark.parametrize(("language", "source", "expected"), IMPORT_CASES)
def test_import_statement_words(language: str, source: str, expected: str) -> None:
    suffix = {"python": "py", "typescript": "ts", "rust": "rs", "java": "java", "c": "c", "ruby": "rb"}[language]
    assert extract(f"m.{suffix}", source.encode(), language, language).imports_text == expand(expected)
