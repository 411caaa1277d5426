"""Words of code and of questions, reduced to the same terms: sub-tokens, lower case, no stop words, light stemming.

The semantic index and the queries it answers go through `terms()` alike, so `parseaddr`'s docstring
("Parse addr into ... email address parts"), a `parse_address` identifier and the question "where do
we parse an email address" meet on `pars`, `addr`/`address` and `email`.
"""

from __future__ import annotations

import re

# Identifier sub-tokens: a capitalised or lower-case word, an acronym, or digits (`HTTPServer` -> HTTP, Server).
_WORD = re.compile(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])|[0-9]+")
# English function words and the words every Python body repeats: they carry no topic.
STOP_WORDS = frozenset("""
a an the of to in on for and or is are be by with as at it its this that from we do does where how what which
into can when not no if else all any our you your get set self cls def return none true false there their than
then these those so such will would should may might must have has had was were been being also only each per
via use used using i me my one two new
""".split())  # noqa: SIM905 - a word list reads best as text


def stem(word: str) -> str:
    """A light suffix stripper (plural, -ation, -ator, -ing, -ed, final -e): `parses`, `parsed`, `parsing`,
    `parse` -> `pars`; `validation`, `validator`, `validate` -> `validat`."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("sses"):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 6 and word.endswith(("ation", "ator")):
        word = word[: -3 if word.endswith("ation") else -2]
    elif len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]
    return word


class Terms:
    """`terms(text)`: the text's terms in order; each distinct raw word is reduced once (bodies repeat words)."""

    def __init__(self) -> None:
        self._seen: dict[str, str] = {}  # raw word -> its term, "" for a word that gives none

    def __call__(self, text: str) -> list[str]:
        words = _WORD.findall(text)
        seen = self._seen
        found = list(map(seen.get, words))  # looked up in C; None only for a word not met before
        if None in found:
            for i, raw in enumerate(words):
                if found[i] is None:
                    term = seen.get(raw)
                    if term is None:
                        lower = raw.lower()
                        term = seen[raw] = "" if len(lower) < 2 or lower.isdigit() or lower in STOP_WORDS \
                            else stem(lower)
                    found[i] = term
        return list(filter(None, found))  # a term is never empty: "" marks the words without one


def terms(text: str) -> list[str]:
    """The terms of one text (a query: no cache kept)."""
    return Terms()(text)
