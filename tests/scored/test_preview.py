"""Preview excerpts: 2-3 lines around the first match, `...` where cut, else the first lines."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cruxgate.reference.query.scored.preview import CUT, MAX_LINE_CHARS, excerpt, matching_line
from cruxgate.reference.query.scored.terms import compact, squeeze, words

FIVE = "Line 1\nLine 2\nLine 3\nLine 4\nLine 5"


def test_match_in_the_middle_gets_one_line_each_side_and_both_markers() -> None:
    assert excerpt(FIVE, "Line 3") == "...\nLine 2\nLine 3\nLine 4\n..."


def test_match_on_the_first_line_takes_two_after_and_no_leading_marker() -> None:
    assert excerpt(FIVE, "line 1") == "Line 1\nLine 2\nLine 3\n..."


def test_match_on_the_last_line_takes_two_before_and_no_trailing_marker() -> None:
    assert excerpt(FIVE, "Line 5") == "...\nLine 3\nLine 4\nLine 5"


def test_no_match_gives_the_first_three_lines() -> None:
    assert excerpt(FIVE, "absent") == "Line 1\nLine 2\nLine 3\n..."


def test_short_content_comes_back_whole_without_markers() -> None:
    assert excerpt("a = 1\nb = 2", "b") == "a = 1\nb = 2"
    assert excerpt("", "x") == ""


def test_identifier_forms_of_the_query_match() -> None:
    code = "import os\n\n\ndef validate_token(raw):\n    return raw\n"
    assert matching_line(code.splitlines(), "validate token") == 3
    assert matching_line(code.splitlines(), "validateToken") == 3
    # Fallback: the line with the most query words.
    assert matching_line(["x = 1", "token = raw", "check(token, raw)"], "raw token check") == 2


def test_long_lines_are_clipped_around_the_match() -> None:
    line = "a" * 500 + " needle " + "b" * 500
    out = excerpt(line, "needle")
    assert "needle" in out and out.startswith(CUT) and out.endswith(CUT)
    assert len(out) <= MAX_LINE_CHARS + 2 * len(CUT)


@settings(database=None)  # keep the checkout free of .hypothesis/
@given(st.lists(st.text(alphabet="abc xyz_", max_size=30), min_size=1, max_size=40),
       st.text(alphabet="abcxyz", min_size=1, max_size=4))
def test_excerpt_has_two_to_three_content_lines(lines: list[str], query: str) -> None:
    content = "\n".join(lines)
    n = len(content.splitlines())
    if n == 0:
        assert excerpt(content, query) == ""
        return
    out = excerpt(content, query).split("\n")
    body = [ln for ln in out if ln != CUT]
    assert len(body) == min(n, 3)
    assert (CUT in (out[0], out[-1])) == (n > 3)


# Text that exercises the shortcuts: camel humps, separators, digits, and characters whose lower case
# is ASCII or longer than one character (Kelvin sign, dotted I).
TRICKY = "aAbBtT_ .:/-09 \u212a\u0130\u03a3\u00e9"


def first_match_by_the_rule(lines: list[str], query: str) -> int | None:
    """The documented rule, line by line and nothing skipped: the oracle for matching_line's shortcuts."""
    needle = query.strip().lower()
    for i, line in enumerate(lines):
        if needle and needle in line.lower():
            return i
    packed = compact(query)
    for i, line in enumerate(lines):
        if packed and packed in compact(line):
            return i
    counts = [len(set(words(query)) & set(words(line))) for line in lines]
    return counts.index(max(counts)) if counts and max(counts) > 0 else None


@settings(database=None)  # keep the checkout free of .hypothesis/
@given(st.lists(st.text(alphabet=TRICKY, max_size=20), max_size=12), st.text(alphabet=TRICKY, min_size=1, max_size=8))
def test_matching_line_finds_what_the_rule_finds(lines: list[str], query: str) -> None:
    assert matching_line(lines, query) == first_match_by_the_rule(lines, query)


@settings(database=None)  # keep the checkout free of .hypothesis/
@given(st.text(alphabet=TRICKY, max_size=30))
def test_compact_and_squeeze_of_ascii_text_agree_with_the_word_split(text: str) -> None:
    assert compact(text) == "".join(words(text))
    assert squeeze(text.lower()) == "".join(c for c in text.lower() if c in "abcdefghijklmnopqrstuvwxyz0123456789")
