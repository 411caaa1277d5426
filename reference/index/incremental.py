"""A run that patches the live generation for the files added, changed and deleted since it was built.

The new generation shares what did not change: each Tantivy index's segment files are hard-linked from
the live generation (a segment is never written again once committed; deletions go to new files), the
semantic model is linked and only its rows are rewritten, and the SQLite database holds the live one's rows
(the database of the generation this run collects, or a spare copy a full run left, brought forward by the row
logs of the patches since, or else a copy of the live one) and is edited in one transaction, whose row changes
are logged in turn. The file extractions live outside the generations (`extracts.py`), so nothing of an unchanged
file is read, parsed or copied but its row in the database. The generation then flips like any other: a reader
sees the old generation or the new one, never a mix.

What a patch does, for the files that changed (added, edited, deleted):

- their old rows go (files, symbols, relations, the edges from them) and their Tantivy documents are
  deleted; their new extractions are added with ids after the live generation's highest ones;
- edges are resolved again for those files and for every unchanged file whose edges name (as a dotted or
  `::` part of the target) a symbol name that appeared or disappeared, or a name an import alias (a Python
  module's top-level import, a TypeScript/JavaScript re-export) binds that appeared, disappeared or now stands for
  another (or an alias renaming one of those), or point at a symbol that went (or whose class names one as a
  base); a class that stays but whose bases resolve otherwise now, the files that name it or a class that
  inherits from it (a call inherits through it only where one of those is named); a TypeScript/JavaScript file
  added
  or deleted, a package.json added, edited or deleted, or an `export * from` that comes or goes re-resolves every
  such file (their imports name paths and packages), a `from m import *` that comes or goes every Python file (a C#
  `global using`, every C# file), and
  a go.mod added, edited or deleted every Go file (its module path names the directories Go imports find);
- the unresolved-name counts are adjusted by the edges removed and added.

The result holds the same files, symbols, edges (targets included) and counts as a full run over the same
tree; ids differ (a changed file's symbols are numbered after the rest: ids name a symbol for the life
of a generation only). Two figures are not a full run's: Tantivy keeps a deleted document in its BM25
statistics (document frequencies, average field length) until its segment is merged, so scores drift
slightly from a full run's; and the semantic channel folds new definitions into the model fitted by the
last full run (`semantic/fold.py`) until the rows folded in pass a share of it, when a full run refits.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import sqlite3
import threading
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

import tantivy

from .extract import ATTRIBUTE_MARK, FileExtract
from .extracts import ExtractStore
from .names import name_key
from .packages import GO_MODULE, JS_PACKAGE, TS_CONFIGS, Layout
from .resolve import alias_part, import_aliases
from .rowlog import Chain, LogMismatch, Recording, replay, vouches, write_log
from .seal import stamp
from .state import DATABASE
from .store import INDICES, LIVE_REF, REPO, GenerationWriter
from .stored_tables import stored_resolver

# A patch is worth it while the changed files are few: past this share of the tree a full run, which
# reuses every unchanged file's extraction anyway, costs about the same and refits the semantic model.
MAX_CHANGED_SHARE = 0.10
MIN_CHANGED_LIMIT = 32
_LOCKS = (".tantivy-meta.lock", ".tantivy-writer.lock")
_JS_LANGUAGES = frozenset(("typescript", "javascript"))


def worth_patching(changed: int, files: int) -> bool:
    """Whether `changed` added, edited and deleted files out of `files` are few enough to patch."""
    return 0 < changed <= max(MIN_CHANGED_LIMIT, int(files * MAX_CHANGED_SHARE))


def link_indices(previous: Path, generation: Path) -> None:
    """The live generation's Tantivy files linked into the empty `generation` (its database is `PatchDatabase`'s)."""
    for name in INDICES:
        source, target = previous / "tantivy" / name, generation / "tantivy" / name
        target.mkdir(parents=True)
        for entry in os.scandir(source):
            if entry.name in _LOCKS or not entry.is_file(follow_symlinks=False):
                continue
            if entry.name.endswith(".json"):  # meta.json and .managed.json are rewritten by the commit
                shutil.copyfile(entry.path, target / entry.name)
            else:
                os.link(entry.path, target / entry.name)


# Replaying a log runs its statements (about 8 MB of log a second here), the kernel copies a database at hundreds of MB
# a second: logs longer than this share of the live database, and than REPLAY_FLOOR (about 0.1 s of replay), are not
# replayed. A one-file patch logs about 25 KB at 20k files; one that re-resolves a few thousand files' edges logs tens
# of MB.
REPLAY_SHARE = 64
REPLAY_FLOOR = 1 << 20


def worth_replaying(chain: Chain, live: Path) -> bool:
    """The chain's logs are short enough that replaying them costs less than copying the live database."""
    try:
        size = live.stat().st_size
    except OSError:
        return False
    return sum(len(log.body) for log in chain.logs) <= max(REPLAY_FLOOR, size // REPLAY_SHARE)


class PatchDatabase:
    """The new generation's database, made in a thread while the patch reads the live generation and folds the
    semantic rows (SQLite and the kernel's copy run outside the GIL); `join` before writing it.

    With a `chain` (`rowlog.chain_to`: a database no reader may hold, that vouches for itself), that database is
    moved into `generation` and brought forward to the live generation's rows by replaying the logs; otherwise, or
    when a log does not hold (`rowlog.LogMismatch`), or the logs are too long to be worth replaying (`worth_replaying`),
    the live generation's database is copied, as every patch did before logs.
    """

    def __init__(self, previous: Path, generation: Path, chain: Chain | None) -> None:
        self._error: BaseException | None = None
        self.taken = False  # the chain's database was taken over (False: copied)
        self.replayed = 0  # logs replayed into it
        self.mismatch: str | None = None  # why a taken-over database was dropped for a copy
        self._thread = threading.Thread(target=self._make, args=(previous, generation / DATABASE, chain),
                                        name="patch-database", daemon=True)
        self._thread.start()

    def _make(self, previous: Path, target: Path, chain: Chain | None) -> None:
        try:
            if chain is not None and worth_replaying(chain, previous / DATABASE) and vouches(chain):
                os.rename(chain.database, target)
                try:
                    replay(target, chain.logs)
                    self.taken, self.replayed = True, len(chain.logs)
                    return
                except LogMismatch as err:
                    self.mismatch = str(err)
                    target.unlink()
            shutil.copyfile(previous / DATABASE, target)
        except BaseException as err:  # noqa: BLE001 - handed to the thread that joins
            self._error = err

    def join(self) -> None:
        """Wait for the database; raise what making it raised."""
        self._thread.join()
        if self._error is not None:
            raise self._error


class PatchUnavailable(Exception):
    """The live generation lacks what a patch needs (an unchanged file's stored extraction): run in full."""


def _last_ids(db: sqlite3.Connection, generation: Path) -> tuple[int, int, int]:
    """The highest file, symbol and snippet id `generation` holds (`db` is its database)."""
    files, symbols = db.execute("SELECT (SELECT COALESCE(MAX(file_id), 0) FROM files), "
                                "(SELECT COALESCE(MAX(symbol_id), 0) FROM symbols)").fetchone()
    searcher = tantivy.Index.open(str(generation / "tantivy" / "snippets")).searcher()
    hits = searcher.search(tantivy.Query.all_query(), limit=1, order_by_field="snippet_id").hits
    snippets = searcher.doc(hits[0][1])["snippet_id"][0] if hits else 0
    return files, symbols, snippets


def _chunks(items: list, size: int = 500) -> Iterable[list]:
    """`items` in slices of at most `size` (SQLite bounds the parameters of one statement)."""
    return (items[start:start + size] for start in range(0, len(items), size))


def _rows(db: sqlite3.Connection, sql: str, keys: list) -> list[tuple]:
    """The rows of `sql` with its `{}` filled by one parameter per key (none without keys)."""
    if not keys:
        return []
    return db.execute(sql.format(",".join("?" * len(keys))), keys).fetchall()


def _execute(db: sqlite3.Connection, sql: str, keys: list) -> int:
    """Run `sql` with its `{}` filled by the keys, a slice of them at a time (`_chunks`); how many rows it changed."""
    return sum(db.execute(sql.format(",".join("?" * len(chunk))), chunk).rowcount for chunk in _chunks(keys))


def _file_ids(db: sqlite3.Connection, paths: list[str]) -> list[int]:
    """The ids of these files (of those the database has)."""
    return [file_id for chunk in _chunks(paths)
            for (file_id,) in _rows(db, "SELECT file_id FROM files WHERE path IN ({})", chunk)]


def _inheriting_otherwise(old: dict[str, tuple[str, ...]], new: dict[str, tuple[str, ...]],
                          old_symbols: Collection[str], new_symbols: Collection[str]) -> list[str]:
    """The stable ids of the classes that stay but inherit otherwise now (`_stable_bases` before and after; a changed
    file's symbols before and after, by stable id): their bases, or what their names name, changed."""
    return sorted(c for c in old.keys() | new.keys() if old.get(c, ()) != new.get(c, ())
                  and (c in old_symbols) == (c in new_symbols))  # a class of both generations (re-resolved: of neither)


def _heirs(db: sqlite3.Connection, stable_ids: list[str]) -> set[str]:
    """The names of these classes and of every class that inherits from one of them (`class_bases` as it is now)."""
    found = {sid for chunk in _chunks(stable_ids)
             for (sid,) in _rows(db, "SELECT symbol_id FROM symbols WHERE symbol_stable_id IN ({})", chunk)}
    frontier = set(found)
    while frontier:
        frontier = {sid for chunk in _chunks(sorted(frontier)) for (sid,) in _rows(
            db, "SELECT DISTINCT symbol_id FROM class_bases WHERE base_symbol_id IN ({})", chunk)} - found
        found |= frontier
    return {name for chunk in _chunks(sorted(found))
            for (name,) in _rows(db, "SELECT DISTINCT name FROM symbols WHERE symbol_id IN ({})", chunk)}


def _stable_bases(db: sqlite3.Connection, file_ids: list[int]) -> dict[str, tuple[str, ...]]:
    """The `class_bases` of the classes of these files, by stable ids: class -> its bases'."""
    found: dict[str, tuple[str, ...]] = {}
    for chunk in _chunks(file_ids):
        for stable, base in _rows(
                db, "SELECT s.symbol_stable_id, b.symbol_stable_id FROM class_bases c "
                    "JOIN symbols s ON s.symbol_id = c.symbol_id JOIN symbols b ON b.symbol_id = c.base_symbol_id "
                    "WHERE s.file_id IN ({}) ORDER BY c.symbol_id, c.position", chunk):
            found[stable] = (*found.get(stable, ()), base)
    return found


def _stable_attributes(db: sqlite3.Connection, file_ids: list[int]) -> dict[tuple[str, str], str]:
    """The `attribute_types` of the types of these files, by stable ids: (type, attribute) -> the attribute's type."""
    return {(stable, name): found for chunk in _chunks(file_ids) for stable, name, found in _rows(
        db, "SELECT s.symbol_stable_id, a.name, t.symbol_stable_id FROM attribute_types a "
            "JOIN symbols s ON s.symbol_id = a.symbol_id JOIN symbols t ON t.symbol_id = a.type_symbol_id "
            "WHERE s.file_id IN ({})", chunk)}


def _alias_changes(db: sqlite3.Connection, gone_paths: list[str], changed: list[FileExtract]) -> set[tuple]:
    """The (language, name, target) import aliases (`resolve.import_aliases`) the changed and deleted files dropped
    or gained."""
    old = set(_rows(db, "SELECT language, name, target FROM import_aliases WHERE path IN ({})", gone_paths))
    return old ^ {(result.language, *alias) for result in changed for alias in import_aliases(result)}


def _alias_names(db: sqlite3.Connection, changes: set[tuple], affected: set[str]) -> set[str]:
    """The names whose edges may resolve otherwise through the import aliases: the bindings of the aliases that
    `changes` dropped or gained, and, through every alias that renames (`import x as y`), the binding of one whose
    target ends in a name affected."""
    names = {alias_part(name) for _, name, _ in changes}
    if not names and not affected:  # an edit inside bodies: nothing to follow through a rename
        return set()
    renames = {(alias_part(name), alias_part(target))
               for name, target in (*db.execute("SELECT name, target FROM import_aliases WHERE renamed"),
                                    *((name, target) for _, name, target in changes))}
    renames = {(binding, last) for binding, last in renames if binding != last}
    reached = affected | names
    while grown := {binding for binding, last in renames if last in reached and binding not in reached}:
        reached |= grown
    return reached - affected


@dataclass
class PatchPlan:
    """What a patch changes, read from the live generation before the new generation's database is written."""

    changed: list[FileExtract]
    gone_paths: list[str]  # the changed and deleted files
    file_ids: list[int]  # their rows in the live generation
    old_symbols: dict[str, tuple[int, str]]  # their symbols: stable id -> (symbol id, name)
    rerun: list[str]  # unchanged files whose edges are resolved again
    last_ids: tuple[int, int, int]
    parent_stamp: list[int]  # the live database's [size, mtime_ns, inode]: what the patch's row log starts from

    @property
    def removed_stable_ids(self) -> list[int]:
        """The symbols of the changed and deleted files before the patch."""
        return [int(stable, 16) for stable in self.old_symbols]


class Patch:
    """One patch of the live generation `previous` into `generation` (its Tantivy files linked, `link_indices`;
    its database holding the live one's rows, `PatchDatabase`): `plan` reads `previous` only, `write` edits
    `generation` and logs its row changes there (`rowlog.py`)."""

    def __init__(self, previous: Path, generation: Path, store: ExtractStore,
                 layout: Layout | None = None) -> None:
        self.previous = previous
        self.generation = generation
        self.store = store
        self.layout = layout  # the tree's now (its Go modules and TypeScript/JavaScript packages)

    def plan(self, changed: list[FileExtract], deleted: Iterable[str], live: dict[str, str]) -> PatchPlan:
        """What replacing the files of `changed` (new and edited) and dropping `deleted` changes, against the live
        generation, whose files and content hashes are `live`."""
        db = sqlite3.connect(f"file:{self.previous / DATABASE}?mode=ro", uri=True)
        try:
            deleted = set(deleted)
            gone_paths = sorted({*deleted, *(result.path for result in changed)})
            old_files = _rows(db, "SELECT file_id, path, language FROM files WHERE path IN ({})", gone_paths)
            file_ids = [f[0] for f in old_files]
            old_symbols = {stable: (sid, name) for sid, name, stable in _rows(
                db, "SELECT symbol_id, name, symbol_stable_id FROM symbols WHERE file_id IN ({})", file_ids)}
            new_symbols = {symbol[9]: symbol[0] for result in changed for symbol in result.symbols}
            # A symbol with the same stable id is the same definition (language, path, kind, qualified name): it
            # keeps every key the resolver looks it up by, so an edge into it only follows its new id. Edges that
            # name a symbol that appeared or went may resolve otherwise now.
            affected = {old_symbols[s][1] for s in old_symbols.keys() - new_symbols.keys()}
            affected.update(new_symbols[s] for s in new_symbols.keys() - old_symbols.keys())
            changes = _alias_changes(db, gone_paths, changed)
            affected |= _alias_names(db, changes, affected)
            # A module imported or re-exported all of (`from m import *`, `export * from`) that comes or goes: any
            # name through the file that did so.
            stars = {language for language, name, _ in changes if alias_part(name) == "*"}
            gone_ids = [old_symbols[s][0] for s in old_symbols.keys() - new_symbols.keys()]
            # A TypeScript/JavaScript path that appears or goes can change what a relative import names.
            old_paths = {path: language for _, path, language in old_files}
            moved = [language for path, language in old_paths.items() if path in deleted]
            moved += [r.language for r in changed if r.path not in old_paths]
            languages = set(_JS_LANGUAGES) if not _JS_LANGUAGES.isdisjoint(moved) else set()
            # A go.mod that comes, goes or changes can change the directory every Go import path names; a
            # package.json, the file a package's name names.
            manifests = {posixpath.basename(path) for path in gone_paths}
            if GO_MODULE in manifests:
                languages.add("go")
            # A tsconfig.json, or a config one extends, what a path alias names.
            configs = self.layout.ts_config_files if self.layout is not None else frozenset()
            if JS_PACKAGE in manifests or not stars.isdisjoint(_JS_LANGUAGES) or not TS_CONFIGS.isdisjoint(manifests) \
                    or not configs.isdisjoint(gone_paths):
                languages.update(_JS_LANGUAGES)
            languages.update(stars & {"python", "csharp"})
            rerun = self._affected_files(db, affected, gone_ids, languages, live) - set(gone_paths)
            return PatchPlan(changed, gone_paths, file_ids, old_symbols, sorted(rerun),
                             _last_ids(db, self.previous), stamp(self.previous / DATABASE))
        finally:
            db.close()

    def write(self, plan: PatchPlan, blobs: list[bytes]) -> tuple[int, int, int, int]:
        """Edit the database and the linked indices of `generation` as `plan` says (`blobs`: the stored
        extractions of `plan.changed`), and write its row log; how many files, symbols, edges and unresolved edges
        the generation gained (negative: lost)."""
        changed, gone_paths, file_ids, old_symbols, rerun = (plan.changed, plan.gone_paths, plan.file_ids,
                                                             plan.old_symbols, plan.rerun)
        writer: GenerationWriter | None = None
        try:
            writer = GenerationWriter(self.generation, self.store, plan.last_ids, factory=Recording)
            wdb = writer.db
            assert isinstance(wdb, Recording)
            removed_edges = self._edge_names(wdb, [*gone_paths, *rerun])
            removed = Counter[str]()
            # The bases of the classes of the changed, deleted and re-resolved files are made again (`add_bases`).
            rerun_ids = _file_ids(wdb, rerun)
            touched = [*file_ids, *rerun_ids]
            old_bases, old_attributes = _stable_bases(wdb, touched), _stable_attributes(wdb, touched)
            for keys, sql in ((touched, "DELETE FROM class_bases WHERE symbol_id IN "
                                        "(SELECT symbol_id FROM symbols WHERE file_id IN ({}))"),
                              (touched, "DELETE FROM attribute_types WHERE symbol_id IN "
                                        "(SELECT symbol_id FROM symbols WHERE file_id IN ({}))"),
                              (file_ids, "DELETE FROM symbol_relations WHERE symbol_id IN "
                                         "(SELECT symbol_id FROM symbols WHERE file_id IN ({}))"),
                              (file_ids, "DELETE FROM symbols WHERE file_id IN ({})"),
                              (file_ids, "DELETE FROM files WHERE file_id IN ({})"),
                              ([*gone_paths, *rerun], "DELETE FROM symbol_edges WHERE from_path IN ({})"),
                              (gone_paths, "DELETE FROM import_aliases WHERE path IN ({})")):
                removed[sql.split()[2]] += _execute(wdb, sql, keys)
            writer.remove(file_ids, [sid for sid, _ in old_symbols.values()])
            added = [writer.add(result, blob)[:2] for result, blob in zip(changed, blobs, strict=True)]
            firsts = [first for _, first in added]
            writer.commit_search_indices()
            writer.flush()  # the new symbols must be in the tables the resolver reads
            renumbered = [(first + i, old_symbols[symbol[9]][0]) for result, first in zip(changed, firsts, strict=True)
                          for i, symbol in enumerate(result.symbols) if symbol[9] in old_symbols]
            wdb.executemany("UPDATE symbol_edges SET to_symbol_id = ? WHERE to_symbol_id = ?", renumbered)
            wdb.executemany("UPDATE class_bases SET base_symbol_id = ? WHERE base_symbol_id = ?", renumbered)
            wdb.executemany("UPDATE attribute_types SET type_symbol_id = ? WHERE type_symbol_id = ?", renumbered)
            resolver = stored_resolver(wdb, self.layout)
            # Every class's bases before any edge: a call may inherit through any of them. An unchanged file's
            # extraction is read again for its edges, not held: a re-resolved language may be most of the tree.
            for result, first in chain(zip(changed, firsts, strict=True), (self._stored(wdb, p) for p in rerun)):
                resolver.add_bases(result, first)
                attributes = [(first + index, names[0][1:]) for index, names in result.bases
                              if names[0].startswith(ATTRIBUTE_MARK)]
                writer.add_class_bases([(first + index, resolver.class_bases.get(first + index, ()))
                                        for index, names in result.bases if not names[0].startswith(ATTRIBUTE_MARK)])
                writer.add_attribute_types([(key, found) for key in attributes
                                            if (found := resolver.attribute_types.get(key)) is not None])
            # A class that stays but inherits otherwise now changes what a call inherits through it or through any
            # class that inherits from it: the files that name one of those classes (a call on `self` in it names
            # it as a base, a call on a variable of it as its type, a call on it by its name) are resolved again.
            now = [*(file_id for file_id, _ in added), *rerun_ids]
            inheriting = _inheriting_otherwise(
                old_bases, _stable_bases(wdb, now),
                old_symbols.keys(), {symbol[9] for result in changed for symbol in result.symbols})
            # An attribute typed otherwise now (or no longer) changes what a call on it names: the files that name
            # the attribute are resolved again.
            new_attributes = _stable_attributes(wdb, now)
            retyped = {name for (_, name), _ in old_attributes.items() ^ new_attributes.items()}
            done = {*gone_paths, *rerun}
            more = sorted(self._affected_files(wdb, _heirs(wdb, inheriting) | retyped, [], set(), dict(
                wdb.execute("SELECT path, content_hash FROM files"))) - done) if inheriting or retyped else []
            removed_edges += self._edge_names(wdb, more)
            removed["symbol_edges"] += _execute(wdb, "DELETE FROM symbol_edges WHERE from_path IN ({})", more)
            edges: list[tuple] = []
            for result, first in chain(zip(changed, firsts, strict=True),
                                       (self._stored(wdb, p) for p in [*rerun, *more])):
                edges.extend(resolver.edges(result, first))
            wdb.executemany(
                "INSERT INTO symbol_edges(repo, \"ref\", from_symbol_id, from_path, line, edge_type, to_symbol_id, "
                f"to_name) VALUES ('{REPO}', '{LIVE_REF}', ?, ?, ?, ?, ?, ?)", edges)
            unresolved = Counter(e[5] for e in edges if e[4] is None)
            self._count_unresolved(wdb, removed_edges, unresolved)
            writer.finish()
            writer = None
            write_log(self.generation, self.previous, plan.parent_stamp, wdb)
            return (len(changed) - removed["files"], sum(len(r.symbols) for r in changed) - removed["symbols"],
                    len(edges) - removed["symbol_edges"], unresolved.total() - removed_edges.total())
        except BaseException:
            if writer is not None:
                writer.abort()
            raise

    def _affected_files(self, db: sqlite3.Connection, names: set[str], gone_ids: list[int], languages: set[str],
                        live: dict[str, str]) -> set[str]:
        """Files of the live generation (path -> hash `live`) with an edge whose target text names one of `names`
        (as a dotted or `::` part), or whose target, or a base of whose class, is among `gone_ids`; and every file
        of `languages`."""
        paths: set[str] = set()
        if names:
            # The store answers from each extraction's names (not the generation's edges: 160 MB at 20k files); it
            # must hold every live file's, or a file that names one would be missed.
            found = self.store.naming(names) if self.store.names_of() == self.previous.name else None
            if found is None:
                raise PatchUnavailable("the extraction store lacks a live file's edge names")
            paths.update(path for path, digest in found if live.get(path) == digest)
        for chunk in _chunks(gone_ids):
            paths.update(p for (p,) in _rows(
                db, "SELECT DISTINCT from_path FROM symbol_edges WHERE to_symbol_id IN ({})", chunk))
            paths.update(p for (p,) in _rows(
                db, "SELECT DISTINCT s.path FROM class_bases c JOIN symbols s ON s.symbol_id = c.symbol_id "
                    "WHERE c.base_symbol_id IN ({})", chunk))
        if languages:
            paths.update(p for (p,) in _rows(db, "SELECT path FROM files WHERE language IN ({})", sorted(languages)))
        return paths

    @staticmethod
    def _edge_names(db: sqlite3.Connection, paths: list[str]) -> Counter[str]:
        """The unresolved target names of the edges from `paths`, counted (they are about to go)."""
        counts: Counter[str] = Counter()
        for chunk in _chunks(paths):
            counts.update(dict(_rows(db, "SELECT to_name, COUNT(*) FROM symbol_edges WHERE to_symbol_id IS NULL "
                                         "AND from_path IN ({}) GROUP BY to_name", chunk)))
        return counts

    @staticmethod
    def _count_unresolved(db: sqlite3.Connection, removed: Counter[str], added: Counter[str]) -> None:
        """Apply the change of unresolved edges per target name to `unresolved_names`."""
        delta = Counter(added)
        delta.subtract(removed)
        for to_name, change in delta.items():
            if change == 0:
                continue
            key = name_key(to_name)
            row = db.execute("SELECT rowid, edges FROM unresolved_names WHERE name_key = ? AND to_name = ?",
                             (key, to_name)).fetchone()
            count = (row[1] if row else 0) + change
            if row is None:
                db.execute("INSERT INTO unresolved_names VALUES (?,?,?)", (key, to_name, count))
            elif count > 0:
                db.execute("UPDATE unresolved_names SET edges = ? WHERE rowid = ?", (count, row[0]))
            else:
                db.execute("DELETE FROM unresolved_names WHERE rowid = ?", (row[0],))

    def _stored(self, db: sqlite3.Connection, path: str) -> tuple[FileExtract, int]:
        """An unchanged file's stored extraction and its first symbol id, to resolve again."""
        file_id, digest = db.execute("SELECT file_id, content_hash FROM files WHERE path = ?", (path,)).fetchone()
        blob = self.store.get(path, digest)
        if blob is None:
            raise PatchUnavailable(f"{path}: no stored extraction")
        first = db.execute("SELECT MIN(symbol_id) FROM symbols WHERE file_id = ?", (file_id,)).fetchone()[0]
        return FileExtract.loads(blob), first or 0
