"""The extractor's fast paths give exactly what the plain versions they replace gave."""

from __future__ import annotations

import random
import re

import pytest

from cruxgate.reference.index.extract import _expand_qualified, extract
from cruxgate.reference.index.languages.python import _strip_quotes
from cruxgate.reference.index.source import Source
from cruxgate.reference.index.tokens import _CAMEL, _HUMP, _camel_findall, camel_runs, expand, with_humps

# The substitution _strip_quotes replaced: a literal's prefix and opening quote, or its closing quote.
QUOTES = re.compile(r"^[rRbBuUfF]*(?:\"\"\"|\'\'\'|\"|')|(?:\"\"\"|\'\'\'|\"|')$")


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
    assert _strip_quotes(text) == QUOTES.sub("", text)


def test_strip_quotes_on_random_literals() -> None:
    for text in random_texts(['"', "'", '"""', "'''", "r", "b", "U", "f", "x", " ", "\n"], 20000, 12, 7):
        assert _strip_quotes(text) == QUOTES.sub("", text), repr(text)


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
    alphabet = [*"aAzZ09 _-.\n", "é", "\u00ff", "\ud800", "xY", "ABc", "v2C"]
    for text in random_texts(alphabet, 20000, 120, 11):
        assert expand(text) == plain_expand(text), repr(text)


def test_source_slices_are_the_joined_lines() -> None:
    data = "first line\nsecond fooBar line\n\nfourth é line\nlast".encode()
    src = Source(data)
    lines = data.decode().split("\n")
    for start in range(1, 8):
        for end in range(8):
            joined = "\n".join(lines[start - 1:end])
            assert src.line_text(start, end) == joined
            for cap in (0, 3, 12, 100):
                assert src._slice(start, end, cap) == joined[:cap]


def test_extract_takes_the_callers_digest() -> None:
    data = b"def f():\n    return 1\n"
    assert extract("a.py", data, "python", "python", digest="given").content_hash == "given"
    assert extract("a.py", data, "python", "python").content_hash == extract("a.py", data, None, None).content_hash


def plain_run_lines(data: bytes) -> list[int]:
    """The line of each camelCase run, counted newline by newline."""
    out, line, last = [], 1, 0
    for pos, _ in camel_runs(data):
        line += data.count(b"\n", last, pos)
        last = pos
        out.append(line)
    return out


@pytest.mark.parametrize("data", [
    b"fooBar\n\nbazQux = someThing\nend",
    "caf\u00e9 fooBar\n\u00fcber bazQux\n\nlastRun".encode(),
    b"bad \xff byte fooBar\n\xe2\x82 truncated bazQux\nx",
    b"", b"noRunsHere" b"\n" * 3, b"\n\nendRun",
])
def test_run_lines_are_counted_lines(data: bytes) -> None:
    src = Source(data)
    src.line_text(1, 1)  # loads the lines and runs
    assert list(src.run_lines) == plain_run_lines(data)
    assert list(src.run_words) == [run for _, run in camel_runs(data)]


@pytest.mark.parametrize("text", [
    "def f(a,\n      b):\n    ", "class A(B):\n\t", "  x =\u00a0 1\u2003\n", "fn main() {", "", " \n ",
])
def test_signature_whitespace_is_squeezed_as_by_the_regex(text: str) -> None:
    assert " ".join(text.split()) == re.sub(r"\s+", " ", text).strip()


def test_humps_are_the_same_from_the_cache() -> None:
    runs = ["fooBar", "HTTPServer", "parseV2Config", "fooBar"]
    first = with_humps("text", runs)
    assert first == "text\n" + " ".join(" ".join(_HUMP.findall(r)) for r in sorted(set(runs)))
    assert with_humps("text", runs) == first


@pytest.mark.parametrize(("outer", "sep", "name"), [
    ("asyncio.base_events.BaseEventLoop", ".", "run_forever"), ("app::config::Config", "::", "new"),
    ("http.server", ".", "HTTPServer"), ("", ".", "main"), ("a.HTTPServerError" * 5, ".", "x_y2"),
    ("pkg.parseV2Config", ".", "_private"), ("mod", ".", "café"),
])
def test_qualified_expansion_reuses_the_scope(outer: str, sep: str, name: str) -> None:
    qualified = f"{outer}{sep}{name}" if outer else name
    cache: dict[str, str] = {}
    assert _expand_qualified(qualified, outer, name, cache) == expand(qualified)
    assert _expand_qualified(qualified, outer, name, cache) == expand(qualified)  # from the cache
