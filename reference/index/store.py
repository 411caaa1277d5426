"""Writing one generation: the SQLite tables and the three Tantivy indices (schemas per docs/ARCHITECTURE.md)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import tantivy

from .background import Background
from .extract import FileExtract
from .extracts import ExtractStore
from .names import edge_names, edge_targets, name_key
from .resolve import alias_part, import_aliases
from .state import LIVE_REF

SQL_SCHEMA = """
CREATE TABLE files(file_id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, language TEXT, size_bytes INTEGER,
                   content_hash TEXT, line_count INTEGER, parse_error_count INTEGER NOT NULL DEFAULT 0);
CREATE TABLE symbols(symbol_id INTEGER PRIMARY KEY, symbol_stable_id TEXT UNIQUE NOT NULL, file_id INTEGER NOT NULL,
                     path TEXT NOT NULL, language TEXT NOT NULL, name TEXT NOT NULL, qualified_name TEXT NOT NULL,
                     kind TEXT NOT NULL, line_start INTEGER NOT NULL, line_end INTEGER NOT NULL,
                     signature TEXT, visibility TEXT, doc TEXT);
CREATE TABLE symbol_relations(symbol_id INTEGER PRIMARY KEY, parent_symbol_id INTEGER);
CREATE TABLE symbol_edges(edge_id INTEGER PRIMARY KEY, repo TEXT NOT NULL, "ref" TEXT NOT NULL,
                          from_symbol_id INTEGER, from_path TEXT NOT NULL, line INTEGER NOT NULL,
                          edge_type TEXT NOT NULL, to_symbol_id INTEGER, to_name TEXT NOT NULL);
-- The unresolved edges counted by target name, keyed by its last part, lower-cased (names.py): find_references
-- counts them through an index (a scan of symbol_edges grows with the tree: the name is matched as a suffix).
CREATE TABLE unresolved_names(name_key TEXT NOT NULL, to_name TEXT NOT NULL, edges INTEGER NOT NULL);
-- The names a module gives others through its imports (resolve.import_aliases: a Python module's top-level imports,
-- a Rust module's top-level `use`s, a TypeScript/JavaScript file's re-exports): a patch resolves names through them as
-- a full run does. `renamed`: the binding is not the last part of its target (`as`).
CREATE TABLE import_aliases(path TEXT NOT NULL, language TEXT NOT NULL, name TEXT NOT NULL, target TEXT NOT NULL,
                            renamed INTEGER NOT NULL);
-- The classes of the tree a class names as its bases (a Go struct: its embedded types; a variable of a module's
-- level: the class it is made of), in order (resolve.Resolver.class_bases): a patch resolves a
-- method inherited from another file's class as a full run does.
CREATE TABLE class_bases(symbol_id INTEGER NOT NULL, position INTEGER NOT NULL, base_symbol_id INTEGER NOT NULL);
-- The type the methods of a type give an attribute it declares no member for (`self.stdout = LineMatcher()`;
-- resolve.Resolver.attribute_types), and a container type's element (name `[]`: Go's `type Pool []*Upstream`): a
-- patch resolves a call on another file's attribute, or on an element, as a full run does.
CREATE TABLE attribute_types(symbol_id INTEGER NOT NULL, name TEXT NOT NULL, type_symbol_id INTEGER NOT NULL);
"""
# The lookups the query engine makes (outline by file/path, references by target, names). The line
# columns after a path serve scored search: the symbols over a hit's lines are found in the index, a
# file's import lines read from it alone. An index built before them answers the same, only slower.
SQL_INDICES = """
CREATE INDEX symbols_file ON symbols(file_id);
CREATE INDEX symbols_name ON symbols(name);
CREATE INDEX symbols_qualified ON symbols(qualified_name);
CREATE INDEX symbols_path ON symbols(path, line_start, line_end);
CREATE INDEX relations_parent ON symbol_relations(parent_symbol_id);
CREATE INDEX edges_to ON symbol_edges(to_symbol_id);
CREATE INDEX edges_from_path ON symbol_edges(from_path, edge_type, line);
CREATE INDEX unresolved_names_key ON unresolved_names(name_key);
CREATE INDEX import_aliases_name ON import_aliases(language, name);
CREATE INDEX import_aliases_path ON import_aliases(path);
CREATE INDEX import_aliases_renamed ON import_aliases(renamed) WHERE renamed;
CREATE INDEX class_bases_symbol ON class_bases(symbol_id);
CREATE INDEX class_bases_base ON class_bases(base_symbol_id);
CREATE INDEX attribute_types_symbol ON attribute_types(symbol_id, name);
CREATE INDEX attribute_types_type ON attribute_types(type_symbol_id);
"""
REPO = "workspace"
WRITER_HEAP = 32_000_000  # per index (the indexer holds three); tantivy wants >= 15 MB per indexing thread
# Text fields keep each term's frequency per document, not its positions: BM25 reads only the frequencies, and no
# query is a phrase (a query term is a run of letters and digits, which the tokenizer never splits: retrieval.py).
# Positions were 30% of the lexical indices' size (54 -> 38 MB at 5,000 files), written and merged for nothing.
TEXT_INDEXING = "freq"
# Rows `add` takes wait in lists and go to SQLite together (one executemany a table) once this many symbols, or this
# many bytes of extractions (about 26 KB a file), wait. The bytes bound what a batch holds: 20,000 symbols are about
# 1,300 files, whose extractions alone held 33 MB until the next batch (or, for the last one, the end of the run).
PENDING_SYMBOLS = 20_000
PENDING_BYTES = 4_000_000


def symbols_schema() -> tantivy.Schema:
    """Symbols: id (fast), the boosted text fields, raw language and kind for filters."""
    b = tantivy.SchemaBuilder()
    b.add_integer_field("symbol_id", stored=True, indexed=True, fast=True)
    for name in ("symbol_exact", "qualified_name", "signature", "path", "content"):
        b.add_text_field(name, stored=False, index_option=TEXT_INDEXING)
    b.add_text_field("language", stored=True, tokenizer_name="raw")
    b.add_text_field("kind", stored=True, tokenizer_name="raw")
    return b.build()


def snippets_schema() -> tantivy.Schema:
    """Snippets: a region of a file with its text and the file's imports."""
    b = tantivy.SchemaBuilder()
    b.add_integer_field("snippet_id", stored=True, indexed=True, fast=True)
    b.add_integer_field("file_id", stored=True, indexed=True, fast=True)
    b.add_text_field("path", stored=True, index_option=TEXT_INDEXING)
    b.add_integer_field("line_start", stored=True)
    b.add_integer_field("line_end", stored=True)
    b.add_text_field("content", stored=True, index_option=TEXT_INDEXING)
    b.add_text_field("imports", stored=False, index_option=TEXT_INDEXING)
    b.add_text_field("language", stored=True, tokenizer_name="raw")
    return b.build()


def files_schema() -> tantivy.Schema:
    """Files: path, file name and the head of the content."""
    b = tantivy.SchemaBuilder()
    b.add_integer_field("file_id", stored=True, indexed=True, fast=True)
    b.add_text_field("path", stored=True, index_option=TEXT_INDEXING)
    b.add_text_field("filename", stored=False, index_option=TEXT_INDEXING)
    b.add_text_field("content_head", stored=False, index_option=TEXT_INDEXING)
    b.add_text_field("language", stored=True, tokenizer_name="raw")
    return b.build()


INDICES = ("symbols", "snippets", "files")


class GenerationWriter:
    """Streams extracted files into a generation's SQLite database and Tantivy indices.

    A new generation starts empty; `last_ids` opens one that holds the live generation's rows instead (its
    database copied or brought forward, its Tantivy segments linked: see `incremental.py`), whose ids continue
    after (file_id, symbol_id, snippet_id) `last_ids`.
    """

    def __init__(self, generation: Path, extracts: ExtractStore, last_ids: tuple[int, int, int] | None = None,
                 factory: type[sqlite3.Connection] = sqlite3.Connection) -> None:
        self.generation = generation
        self.extract_store = extracts
        # Not bound to this thread: finish_in_thread hands the connection to a thread of its own. A patch passes a
        # `factory` that logs its row changes (rowlog.py).
        self.db = sqlite3.connect(generation / "index.db", check_same_thread=False, factory=factory)
        if last_ids is None:
            self.db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + SQL_SCHEMA)
        else:
            self.db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
        tdir = generation / "tantivy"
        self.indices: dict[str, tantivy.Index] = {}
        self.writers: dict[str, tantivy.IndexWriter] = {}
        for name, schema in zip(INDICES, (symbols_schema(), snippets_schema(), files_schema()), strict=True):
            if last_ids is None:
                (tdir / name).mkdir(parents=True)
                self.indices[name] = tantivy.Index(schema, path=str(tdir / name))
            else:
                self.indices[name] = tantivy.Index.open(str(tdir / name))
            self.writers[name] = self.indices[name].writer(heap_size=WRITER_HEAP, num_threads=1)
        self._committer: Background[None] | None = None
        self._finisher: Background[None] | None = None
        self.files: list[tuple] = []
        self.symbols: list[tuple] = []
        self.relations: list[tuple] = []
        self.aliases: list[tuple] = []
        self.extracts: list[tuple] = []
        self.pending_bytes = 0  # of the extractions in `extracts`
        self.edge_count = 0  # edges stored by add_edges, and their unresolved targets counted by name
        self.unresolved: Counter[str] = Counter()
        # The last id given so far; for a new generation, also how many files, symbols and snippets it holds.
        self.file_count, self.symbol_count, self.snippet_count = last_ids or (0, 0, 0)

    def add(self, result: FileExtract, payload: bytes) -> tuple[int, int, list[tuple[str, str]]]:
        """Store one file; returns (file_id, symbol_id of its first symbol, its `import_aliases`)."""
        self.file_count += 1
        file_id = self.file_count
        first_symbol = self.symbol_count + 1
        path = result.path
        language = result.language
        self.files.append((file_id, path, language, result.size, result.content_hash, result.line_count,
                           result.parse_errors))
        self.extracts.append((path, result.content_hash, payload, edge_names(edge_targets(result.edges, result.bases))))
        aliases = import_aliases(result)
        self.aliases.extend((path, language, name, target, alias_part(name) != alias_part(target))
                            for name, target in aliases)
        self.pending_bytes += len(payload)
        path_text = result.search_path
        writer = self.writers["symbols"]
        # Unpacked, not by attribute: after FileExtract.loads the symbols are plain tuples (fast to load).
        for symbol_id, (name, qualified, kind, line_start, line_end, signature, visibility, doc, parent, stable,
                        content, search_name, search_qualified, search_signature) in enumerate(result.symbols,
                                                                                               first_symbol):
            self.symbols.append((symbol_id, stable, file_id, path, language, name, qualified, kind,
                                 line_start, line_end, signature, visibility, doc))
            self.relations.append((symbol_id, None if parent < 0 else first_symbol + parent))
            writer.add_document(tantivy.Document(
                symbol_id=symbol_id, symbol_exact=search_name, qualified_name=search_qualified,
                signature=search_signature, path=path_text, content=content, language=language, kind=kind))
        self.symbol_count += len(result.symbols)
        snippet_writer = self.writers["snippets"]
        imports = result.imports_text
        for start, end, text in result.snippets:
            self.snippet_count += 1
            snippet = tantivy.Document(snippet_id=self.snippet_count, file_id=file_id, path=path, line_start=start,
                                       line_end=end, content=text, imports=imports)
            if language:
                snippet.add_text("language", language)
            snippet_writer.add_document(snippet)
        file_doc = tantivy.Document(file_id=file_id, path=path_text, filename=result.search_filename,
                                    content_head=result.content_head)
        if language:
            file_doc.add_text("language", language)
        self.writers["files"].add_document(file_doc)
        if len(self.symbols) > PENDING_SYMBOLS or self.pending_bytes > PENDING_BYTES:
            self._flush_rows()
        return file_id, first_symbol, aliases

    def flush(self) -> None:
        """Write the rows added so far to SQLite (uncommitted; visible to this writer's connection)."""
        self._flush_rows()

    def _flush_rows(self) -> None:
        self.db.executemany("INSERT INTO files VALUES (?,?,?,?,?,?,?)", self.files)
        self.db.executemany("INSERT INTO symbols VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", self.symbols)
        self.db.executemany("INSERT INTO symbol_relations VALUES (?,?)", self.relations)
        self.db.executemany("INSERT INTO import_aliases VALUES (?,?,?,?,?)", self.aliases)
        self.extract_store.put(self.extracts)
        self.files, self.symbols, self.relations, self.aliases, self.extracts = [], [], [], [], []
        self.pending_bytes = 0

    def remove(self, file_ids: list[int], symbol_ids: list[int]) -> None:
        """Delete the Tantivy documents of these files and symbols (their SQLite rows are the caller's)."""
        for symbol_id in symbol_ids:
            self.writers["symbols"].delete_documents_by_term("symbol_id", symbol_id)
        for file_id in file_ids:
            self.writers["snippets"].delete_documents_by_term("file_id", file_id)
            self.writers["files"].delete_documents_by_term("file_id", file_id)

    def add_edges(self, edges: list[tuple]) -> None:
        """Insert (from_symbol_id, from_path, line, edge_type, to_symbol_id, to_name) rows; the unresolved ones are
        counted by target name, for `unresolved_names` (written once every edge is in)."""
        self.db.executemany(
            "INSERT INTO symbol_edges(repo, \"ref\", from_symbol_id, from_path, line, edge_type, to_symbol_id, to_name)"
            f" VALUES ('{REPO}', '{LIVE_REF}', ?, ?, ?, ?, ?, ?)", edges)
        self.edge_count += len(edges)
        self.unresolved.update(e[5] for e in edges if e[4] is None)

    def add_class_bases(self, bases: Iterable[tuple[int, tuple[int, ...]]]) -> None:
        """Insert the `class_bases` rows of (class id, its bases' ids in order) pairs."""
        self.db.executemany("INSERT INTO class_bases VALUES (?,?,?)",
                            ((sid, position, base) for sid, found in bases for position, base in enumerate(found)))

    def add_attribute_types(self, types: Iterable[tuple[tuple[int, str], int]]) -> None:
        """Insert the `attribute_types` rows of ((type id, attribute), the attribute's type id) pairs."""
        self.db.executemany("INSERT INTO attribute_types VALUES (?,?,?)",
                            ((sid, name, found) for (sid, name), found in types))

    def _add_unresolved_names(self) -> None:
        self.db.executemany("INSERT INTO unresolved_names VALUES (?,?,?)",
                            ((name_key(name), name, count) for name, count in self.unresolved.items()))

    def commit_search_indices(self) -> None:
        """Start committing the Tantivy indices in a thread (no document may be added after this)."""
        def commit() -> None:
            for writer in self.writers.values():
                writer.commit()
                writer.wait_merging_threads()

        self._committer = Background("tantivy-commit", commit)

    def wait_search_indices(self) -> None:
        """Wait for the commit `commit_search_indices` started (its merges included); raise what it raised."""
        assert self._committer is not None
        self._committer.join()

    def finish(self) -> None:
        """Commit everything: SQLite rows and indices while the Tantivy commit runs, then wait for it."""
        if self._committer is None:
            self.commit_search_indices()
        self._flush_rows()
        self.extract_store.commit()
        if self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'symbols_file'").fetchone() is None:
            self.db.executescript(SQL_INDICES)
        self.db.commit()
        self.db.close()
        assert self._committer is not None
        committer, self._committer = self._committer, None
        committer.join()
        self.writers.clear()

    def finish_in_thread(self, edges: Iterable[list[tuple]]) -> None:
        """`add_edges` of each chunk `edges` yields, the unresolved counts, then `finish()`, in a thread: SQLite runs
        outside the GIL beside the caller's Python, and the caller hands the chunks over as it resolves them, so
        the edges of the whole tree are never in memory at once.

        Nothing else may touch the writer until `join()`.
        """
        def run() -> None:
            for chunk in edges:
                self.add_edges(chunk)
            self._add_unresolved_names()
            self.finish()

        self._finisher = Background("sqlite-finish", run)

    def finishing(self) -> bool:
        """`finish_in_thread`'s thread is still running."""
        return self._finisher is not None and self._finisher.thread.is_alive()

    def join(self) -> None:
        """Wait for `finish_in_thread`; raise what it raised."""
        if self._finisher is not None:
            finisher, self._finisher = self._finisher, None
            finisher.join()

    def abort(self) -> None:
        """Drop what was written (the caller removes the directory)."""
        for background in (self._finisher, self._committer):
            if background is not None:
                background.wait()  # the failure path: a thread's own error adds nothing to the one being handled
        self._finisher = self._committer = None
        with contextlib.suppress(sqlite3.Error):
            self.db.close()
        for writer in self.writers.values():
            with contextlib.suppress(Exception):  # best effort on the failure path
                writer.rollback()
        self.writers.clear()
