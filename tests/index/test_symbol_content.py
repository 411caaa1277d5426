"""A symbol's indexed content: the head of its lines, and the humps of the camelCase runs in that head."""

from __future__ import annotations

import pytest

from cruxgate.reference.index.extract import MAX_SYMBOL_CONTENT, extract
from cruxgate.reference.index.source import Source
from cruxgate.reference.index.tokens import with_humps


def test_a_whole_body_gives_the_humps_of_every_run_on_its_lines() -> None:
    src = Source(b"def f():\n    fooBar = bazQux()\n")
    assert src.expanded(1, 2, 800) == with_humps("def f():\n    fooBar = bazQux()", ["fooBar", "bazQux"])


@pytest.mark.parametrize(("cap", "runs"), [
    (22, ["fooBar"]),  # the cut falls after `fooBar = `: `bazQux` is not in the head
    (27, ["fooBar"]),  # the cut splits `bazQux`: what comes after the cut may go on, so it gives no humps
    (28, ["fooBar"]),  # the cut ends the head at `bazQux`'s end: it may still go on past the cut
    (29, ["fooBar", "bazQux"]),
])
@pytest.mark.parametrize("first_line", ["def f():", "def é():"])  # an ASCII file's runs are found by offset
def test_a_cut_body_gives_the_humps_of_the_runs_in_its_head(cap: int, runs: list[str], first_line: str) -> None:
    data = f"{first_line}\n    fooBar = bazQux(tailRun)\n".encode()
    text = data.decode()[:cap]
    assert Source(data).expanded(1, 2, cap) == with_humps(text, runs)


def test_a_one_line_minified_script_gives_each_symbol_its_own_text() -> None:
    # Every definition of a minified script is on its one line: neither the line's head nor its runs are theirs.
    functions = "".join(f"function fn{i}(someArg{i}){{return otherThing{i}(someArg{i})}}" for i in range(400))
    data = functions.encode()
    result = extract("bundle.min.js", data, "javascript", "javascript")
    assert len(result.symbols) == 400
    for i in (0, 7, 399):
        text = f"function fn{i}(someArg{i}){{return otherThing{i}(someArg{i})}}"
        assert result.symbols[i].content == with_humps(text, [f"someArg{i}", f"otherThing{i}"])
    assert all(len(s.content) <= 2 * MAX_SYMBOL_CONTENT for s in result.symbols)
    assert len(result.dumps()) < 10 * len(data)


def test_a_long_line_is_cut_at_the_symbols_own_characters() -> None:
    # Byte columns are not character columns once a line holds a character of two bytes.
    head = "const s = '" + "é" * 500 + "';"
    data = (head + "function later(x){return x}" + "/* " + "y" * 400 + " */\n").encode()
    later = next(s for s in extract("a.js", data, "javascript", "javascript").symbols if s.name == "later")
    assert later.content == "function later(x){return x}"


def test_code_on_lines_of_usual_length_keeps_its_lines_whole() -> None:
    data = b"class Shop:\n    def total(self):  # the sum\n        return addUp(self.items)\n"
    total = next(s for s in extract("a.py", data, "python", "python").symbols if s.name == "total")
    assert total.content == with_humps("    def total(self):  # the sum\n        return addUp(self.items)", ["addUp"])
