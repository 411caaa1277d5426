"""schema_registry: every schema has an $id, is a valid 2020-12 schema, and $refs resolve by id."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from cruxgate.conformance.spec.paths import schemas_dir
from cruxgate.conformance.spec.schemas import registry, schema, validator_for

SCHEMA_FILES = sorted(schemas_dir().rglob("*.json"))


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: p.name)
def test_each_schema_is_valid_2020_12_with_an_id(path) -> None:
    contents = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(contents)
    assert contents["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert registry().contents(contents["$id"]) == contents


def test_ref_to_another_schema_resolves_by_id() -> None:
    validator = validator_for({"$ref": "https://cruxgate.dev/schemas/error-codes.json"})
    assert validator.is_valid("index_incompatible")
    assert not validator.is_valid("idle")


def test_short_name_expands_to_cruxgate_id() -> None:
    assert schema("error-codes")["$id"] == "https://cruxgate.dev/schemas/error-codes.json"


def test_schema_without_id_is_refused(tmp_path) -> None:
    (tmp_path / "x.json").write_text('{"type": "object"}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"must have an \$id"):
        registry(tmp_path)
