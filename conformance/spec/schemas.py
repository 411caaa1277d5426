"""Every schemas/** file in one `referencing.Registry`, and Draft 2020-12 validators that resolve `$ref` to it."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from cruxgate.conformance.spec.paths import schemas_dir


@lru_cache(maxsize=4)
def _registry_for(folder: Path) -> Registry:
    """Registry of every *.json schema under `folder`, keyed by its `$id`."""
    resources = []
    for path in sorted(folder.rglob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(contents, dict) or "$id" not in contents:
            raise ValueError(f"{path}: a schema in schemas/ must have an $id")
        resources.append((contents["$id"], Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources).crawl()


def registry(folder: Path | None = None) -> Registry:
    """A `referencing.Registry` of every schemas/** file by `$id` (cached per folder)."""
    return _registry_for(Path(folder or schemas_dir()).resolve())


# How the validator is built (its class, registry and format checker) is this module's code: a verdict rests on it too.
VALIDATOR_SOURCE = Path(__file__)


@lru_cache(maxsize=4)
def _digest_for(folder: Path) -> bytes:
    digest = hashlib.sha256(f"jsonschema {version('jsonschema')}\0".encode())
    digest.update(VALIDATOR_SOURCE.read_bytes())
    for path in sorted(folder.rglob("*.json")):
        digest.update(f"\0{path.relative_to(folder).as_posix()}\0".encode())
        digest.update(path.read_bytes())
    return digest.digest()


def digest(folder: Path | None = None) -> bytes:
    """SHA-256 of the schemas/** files, the validator's version and this module: what a verdict rests on."""
    return _digest_for(Path(folder or schemas_dir()).resolve())


def expand_id(schema_id: str) -> str:
    """`metadata` -> `https://cruxgate.dev/schemas/metadata.json`; full ids (with #fragments) unchanged."""
    if "/" in schema_id or schema_id.endswith(".json") or "#" in schema_id:
        return schema_id
    return f"https://cruxgate.dev/schemas/{schema_id}.json"


def schema(schema_id: str, folder: Path | None = None) -> dict[str, Any]:
    """The schema whose `$id` is `schema_id` (short names `<name>` expand to the cruxgate id)."""
    contents: dict[str, Any] = registry(folder).contents(expand_id(schema_id))
    return contents


def validator_for(schema_or_id: dict[str, Any] | bool | str, folder: Path | None = None) -> Draft202012Validator:
    """A Draft 2020-12 validator (formats checked) whose `$ref`s resolve to schemas/ by `$id`."""
    # A string names a schema by id, optionally with a #fragment: reach it through a $ref.
    target = {"$ref": expand_id(schema_or_id)} if isinstance(schema_or_id, str) else schema_or_id
    return Draft202012Validator(target, registry=registry(folder), format_checker=Draft202012Validator.FORMAT_CHECKER)
