"""The spec's YAML parser: libyaml's safe loader where PyYAML has it, giving the pure-Python loader's values."""

from __future__ import annotations

import pytest
import yaml

from cruxgate.conformance.spec.paths import spec_dir
from cruxgate.conformance.spec.yaml_text import SafeLoader, safe_load


def test_the_spec_loads_to_the_same_values_as_with_the_pure_python_loader():
    files = sorted(spec_dir().glob("*.yaml"))
    assert len(files) >= 4
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert safe_load(text) == yaml.safe_load(text), file.name


def test_the_fast_loader_is_used_when_pyyaml_has_libyaml():
    # The lock's PyYAML wheel carries libyaml: the loader is the C one, and it stays safe (no Python objects).
    if not yaml.__with_libyaml__:
        pytest.skip("this PyYAML was built without libyaml")
    assert SafeLoader is yaml.CSafeLoader
    with pytest.raises(yaml.YAMLError):
        safe_load("!!python/object/apply:os.system ['true']\n")
    with pytest.raises(yaml.YAMLError):
        safe_load("- [unclosed\n")
