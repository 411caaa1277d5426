"""Config normalization: canonical values, legacy debug flag, invalid values -> defaults + warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from cruxgate.reference.config import DEFAULT_MAX_RESPONSE_BYTES, MIN_RESPONSE_BYTES, Config, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cruxgate.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_or_empty_file_gives_defaults(tmp_path: Path) -> None:
    assert load_config(None) == Config()
    assert load_config(tmp_path / "absent.toml") == Config()
    config = load_config(write(tmp_path, ""))
    assert (config.ranking_explain_level, config.freshness_policy, config.default_detail_level,
            config.max_response_bytes, config.warnings) == ("off", "balanced", "signature", 65536, ())


def test_canonical_values_are_read(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[search]\nranking_explain_level = "basic"\nfreshness_policy = "strict"\n'
                                         'default_detail_level = "context"\nmax_response_bytes = 4096\n'))
    assert (config.ranking_explain_level, config.freshness_policy, config.default_detail_level,
            config.max_response_bytes, config.warnings) == ("basic", "strict", "context", 4096, ())


@pytest.mark.parametrize(("legacy", "expected"), [("true", "full"), ("false", "off")])
def test_legacy_debug_flag_maps_deterministically(tmp_path: Path, legacy: str, expected: str) -> None:
    assert load_config(write(tmp_path, f"[debug]\nranking_reasons = {legacy}\n")).ranking_explain_level == expected


def test_explicit_level_beats_legacy_flag(tmp_path: Path) -> None:
    config = load_config(write(tmp_path,
                               '[search]\nranking_explain_level = "basic"\n[debug]\nranking_reasons = true\n'))
    assert config.ranking_explain_level == "basic"


@pytest.mark.parametrize("text", [
    '[search]\nranking_explain_level = "verbose"\n',
    '[search]\nranking_explain_level = 3\n',
    '[debug]\nranking_reasons = "yes"\n',
])
def test_invalid_explain_values_fall_back_with_a_warning(tmp_path: Path, text: str) -> None:
    config = load_config(write(tmp_path, text))
    assert config.ranking_explain_level == "off"
    assert len(config.warnings) == 1


def test_invalid_freshness_detail_and_bytes_fall_back(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[search]\nfreshness_policy = "eventually"\ndefault_detail_level = "all"\n'
                                         'max_response_bytes = -5\n'))
    assert (config.freshness_policy, config.default_detail_level, config.max_response_bytes) == (
        "balanced", "signature", DEFAULT_MAX_RESPONSE_BYTES)
    assert len(config.warnings) == 3


def test_tiny_budget_is_clamped(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "[search]\nmax_response_bytes = 10\n"))
    assert config.max_response_bytes == MIN_RESPONSE_BYTES and config.warnings


def test_broken_toml_does_not_crash(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "[search\nnot toml"))
    assert config.ranking_explain_level == "off" and "could not be read" in config.warnings[0]


def test_case_and_space_are_normalized(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, '[search]\nranking_explain_level = " FULL "\n')).ranking_explain_level == "full"


def test_semantic_defaults_and_values(tmp_path: Path) -> None:
    from cruxgate.reference.config import SemanticConfig

    assert load_config(None).semantic == SemanticConfig(mode="hybrid", ratio=0.75, semantic_limit_multiplier=2,
                                                        lexical_fanout_multiplier=4, semantic_fanout_multiplier=3)
    config = load_config(write(tmp_path, '[search.semantic]\nmode = "OFF"\nratio = 0.5\nsemantic_limit_multiplier = 7\n'
                                         'lexical_fanout_multiplier = 0\nsemantic_fanout_multiplier = 9\n'))
    assert config.semantic == SemanticConfig("off", 0.5, 7, 0, 9) and config.warnings == ()


def test_invalid_semantic_values_fall_back_with_warnings(tmp_path: Path) -> None:
    from cruxgate.reference.config import SemanticConfig

    config = load_config(write(tmp_path, '[search.semantic]\nmode = "vectors"\nratio = 1.5\n'
                                         'semantic_limit_multiplier = -1\nlexical_fanout_multiplier = 2.5\n'
                                         'semantic_fanout_multiplier = true\n'))
    assert config.semantic == SemanticConfig()
    assert len(config.warnings) == 5 and all(w.startswith("search.semantic.") for w in config.warnings)
    assert load_config(write(tmp_path, '[search]\nsemantic = 3\n')).warnings == (
        "[search.semantic] is not a table; ignored",)


def test_the_semantic_backend_is_lsi_unless_a_word_vector_file_is_named(tmp_path: Path) -> None:
    from cruxgate.reference.config import SemanticConfig

    assert load_config(None).semantic.backend == "lsi" and load_config(None).semantic.model is None
    config = load_config(write(tmp_path, '[search.semantic]\nbackend = "Static"\nmodel = "/models/words.vec"\n'))
    assert (config.semantic.backend, config.semantic.model, config.warnings) == ("static", "/models/words.vec", ())
    for body in ('backend = "static"\n', 'backend = "bert"\nmodel = "/m.vec"\n', 'backend = 3\n'):
        config = load_config(write(tmp_path, "[search.semantic]\n" + body))
        assert config.semantic == SemanticConfig() and len(config.warnings) == 1, body
        assert config.warnings[0].startswith("search.semantic.backend=")


HOME_MODEL = str(Path("~/m").expanduser())


@pytest.mark.parametrize(("table", "backend", "model", "warning"), [
    ({}, "lsi", None, None),
    ({"backend": " LSI ", "model": "/ignored.vec"}, "lsi", None, None),  # LSI reads no model
    ({"backend": "Sentence"}, "sentence", None, None),  # the packaged model
    ({"backend": "sentence", "model": " ~/m "}, "sentence", HOME_MODEL, None),
    ({"backend": "sentence", "model": "  "}, "lsi", None, "search.semantic.model="),
    ({"backend": "sentence", "model": 3}, "lsi", None, "search.semantic.model="),
    ({"backend": " static ", "model": " ~/m "}, "static", HOME_MODEL, None),
    ({"backend": "static", "model": ""}, "lsi", None, "search.semantic.backend='static' needs"),
    ({"backend": "static"}, "lsi", None, "search.semantic.backend='static' needs"),
    ({"backend": "bert", "model": "/m"}, "lsi", None, "search.semantic.backend='bert' is not one of"),
    ({"backend": None}, "lsi", None, "search.semantic.backend=None is not one of"),
], ids=str)
def test_each_backend_takes_its_model_once_normalised(table: dict, backend: str, model: str | None,
                                                      warning: str | None) -> None:
    from cruxgate.reference.config import parse_config

    config = parse_config({"search": {"semantic": table}})
    assert (config.semantic.backend, config.semantic.model) == (backend, model)
    assert [w.startswith(warning) for w in config.warnings] == [True] if warning else config.warnings == ()
