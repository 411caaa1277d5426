"""YAML text to plain Python values, through libyaml's parser when PyYAML was built with it.

Every runner process parses the whole spec at collection: PyYAML's pure-Python parser takes about a second
of it, libyaml's a sixth of that, for the same values (tests/spec/test_yaml_text.py compares them).
"""

from __future__ import annotations

from typing import Any

import yaml

# The C loader is the same safe loader (plain tags only) with libyaml's scanner and parser underneath.
SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """`yaml.safe_load(text)`, with the fastest safe loader this PyYAML has; errors are yaml.YAMLError."""
    return yaml.load(text, Loader=SafeLoader)
