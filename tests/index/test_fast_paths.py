"""The extractor's fast paths give exactly what the plain versions they replace gave."""

from __future__ import annotations

import random

import pytest

from reference.index.extract import _QUOTES, _Source, _strip_quotes, extract
from reference.index.tokens import _CAMEL, _camel_findall, expand, with_humps


def plain_expand(text: str) -> str:
    """`expand` as a regex over the whole text."""
    runs = _CAMEL.findall(text) if text else []
    return with_humps(text, runs) if runs else text


def random_texts(alphabet: list[str], count: int, longest: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    return ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, longest))) for _ in range(count)]


@pytest.mark.parametrize("text", [
    '"""One line."""', "'''Two\n   lines.\n   '''", 'r"raw"', "b'x'", '"""', '""', "'", 'rb"""x""""',
    'u"trailing newline"\n', '"""x"""\n', "plain", "", 'f"a" "b"',
])
def test_strip_quotes_is_the_quotes_substitution(text: str) -> None:
    assert _strip_quotes(text) == _QUOTES.sub("", text)


def test_strip_quotes_on_random_literals() -> None:
    for text in random_texts(['"', "'", '"""', "'''", "r", "b", "U", "f", "x", " ", "\n"], 20000, 12, 7):
        assert _strip_quotes(text) == _QUOTES.sub("", text), repr(text)


@pytest.mark.parametrize("text", [
    "validateToken and HTTPServerError in parseV2Config, INET6 TL7 x2Y ABc" * 2,
    "café naïveWord über-CamelCase ünicodeRun" * 3,
    "lone \ud800surrogate nextWord here and some padding to be long enough" * 2,
    "no humps at all, only lower case words and UPPER ones, 42 digits" * 2,
])
def test_expand_of_long_text_is_the_regex_expansion(text: str) -> None:
    assert len(text) >= 64
    assert expand(text) == plain_expand(text)
    assert sorted(set(_camel_findall(text))) == sorted(set(_CAMEL.findall(text)))


def test_expand_on_random_text() -> None:
    alphabet = list("aAzZ09 _-.\n") + ["é", "\u00ff", "\ud800", "xY", "ABc", "v2C"]
    for text in random_texts(alphabet, 20000, 120, 11):
        assert expand(text) == plain_expand(text), repr(text)


def test_source_slices_are_the_joined_lines() -> None:
    data = "first line\nsecond fooBar line\n\nfourth é line\nlast".encode()
    src = _Source(data)
    lines = data.decode().split("\n")
    for start in range(1, 8):
        for end in range(0, 8):
            joined = "\n".join(lines[start - 1:end])
            assert src.line_text(start, end) == joined
            for cap in (0, 3, 12, 100):
                assert src._slice(start, end, cap) == joined[:cap]


def test_extract_takes_the_callers_digest() -> None:
    data = b"def f():\n    return 1\n"
    assert extract("a.py", data, "python", "python", digest="given").content_hash == "given"
    assert extract("a.py", data, "python", "python").content_hash == extract("a.py", data, None, None).content_hash
