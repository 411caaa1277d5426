"""One file's bytes with cheap line and text access for the extractor; camelCase runs are found once per file."""

from __future__ import annotations

import bisect
from itertools import accumulate, count, repeat
from operator import add

from tree_sitter import Node

from .tokens import camel_runs, with_humps


def required_child(node: Node, field: str) -> Node:
    """`node`'s child `field`, one its grammar requires (tree-sitter types every field as optional)."""
    child = node.child_by_field_name(field)
    if child is None:  # a tree the parser could not make sense of: build.py indexes the file as text
        raise ValueError(f"a {node.type} node without its {field}")
    return child


class Source:
    """The file's bytes; lines, their offsets and the camelCase runs are computed on first use."""

    __slots__ = ("byte_offsets", "data", "decoded", "lines", "offsets", "run_lines", "run_starts", "run_words")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.lines: list[str] | None = None
        self.run_lines: list[int] = []
        self.run_starts: list[int] = []  # where each run starts in `decoded`, in an ASCII file (empty in others)
        self.run_words: list[str] = []
        self.decoded = ""
        self.offsets: list[int] = []  # where each line starts in `decoded` (and one past the end)
        self.byte_offsets: list[int] | None = None  # the same in `data` (`_byte_offsets`)

    def text(self, node: Node) -> str:
        """The source text of `node`."""
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def _load(self) -> list[str]:
        data = self.data
        self.decoded = data.decode("utf-8", "replace")
        self.lines = self.decoded.split("\n")  # rows as tree-sitter counts them
        self.offsets = _line_starts(self.lines)
        runs = camel_runs(data)
        if runs:
            # A run's line: how many lines start at or before its byte offset (bisected in C, run by run).
            positions, words = zip(*runs, strict=True)
            starts = self._byte_offsets()
            self.run_lines = list(map(bisect.bisect_right, repeat(starts, len(positions)), positions))
            self.run_words = list(words)
            if starts is self.offsets:  # an ASCII file: a byte offset is a character offset
                self.run_starts = list(positions)
        return self.lines

    def line_text(self, start: int, end: int) -> str:
        """Lines start..end (1-based, inclusive)."""
        return self._slice(start, end, None)

    def _slice(self, start: int, end: int, cap: int | None) -> str:
        # One slice of the decoded text, not a join of the lines: the same string, cut at `cap` up front.
        lines = self.lines if self.lines is not None else self._load()
        if start < 1:
            text = "\n".join(lines[start - 1:end])
            return text if cap is None else text[:cap]
        end = min(end, len(lines))
        if start > end:
            return ""
        begin, stop = self.offsets[start - 1], self.offsets[end] - 1
        if cap is not None:
            stop = min(stop, begin + cap)
        return self.decoded[begin:stop]

    def expanded(self, start: int, end: int, cap: int | None = None, first: int = 0, last: int | None = None) -> str:
        """Lines start..end plus the humps of the camelCase runs in the text kept. With `cap`: at most `cap`
        characters, and where the first or the last line alone is longer than that (a minified file's one line), from
        byte column `first` of the first line and up to byte column `last` of the last: a symbol's own text, not the
        line's head, which every symbol on the line would share."""
        lines = self.lines if self.lines is not None else self._load()
        lo = bisect.bisect_left(self.run_lines, start)
        hi = bisect.bisect_right(self.run_lines, end)
        end = min(end, len(lines))
        if cap is None or start < 1 or start > end:
            text = self._slice(start, end, cap)
            return with_humps(text, self.run_words[lo:hi]) if hi > lo else text
        begin, stop = self.offsets[start - 1], self.offsets[end] - 1
        whole_lines = True  # the runs on the lines are then the runs in the text
        if first and len(lines[start - 1]) > cap:
            begin, whole_lines = begin + self._column(start, first), False
        if last is not None and len(lines[end - 1]) > cap:
            stop, whole_lines = min(stop, self.offsets[end - 1] + self._column(end, last)), False
        cut = stop - begin > cap
        text = self.decoded[begin:begin + cap] if cut else self.decoded[begin:stop]
        if hi <= lo:
            return text
        if whole_lines and not cut:
            return with_humps(text, self.run_words[lo:hi])
        # A run the cut ends may go on past it: it gives no humps.
        if self.run_starts:  # the file's runs that lie in the text
            stop = begin + len(text)
            first_run = bisect.bisect_left(self.run_starts, begin, lo, hi)
            past = bisect.bisect_left(self.run_starts, stop, first_run, hi)
            limit = stop - 1 if cut else stop  # where a run kept may end
            words = [word for at, word in zip(self.run_starts[first_run:past], self.run_words[first_run:past],
                                              strict=True) if at + len(word) <= limit]
            return with_humps(text, words)
        kept = text.encode()
        runs = camel_runs(kept)
        if cut and runs and runs[-1][0] + len(runs[-1][1]) == len(kept):
            runs.pop()
        return with_humps(text, [word for _, word in runs])

    def _byte_offsets(self) -> list[int]:
        """Where each line starts in `data` (and one past the end): `offsets` itself in an ASCII file."""
        if self.byte_offsets is None:
            data = self.data
            self.byte_offsets = self.offsets if data.isascii() else _line_starts(data.split(b"\n"))
        return self.byte_offsets

    def _column(self, line: int, column: int) -> int:
        """The character offset in line `line` (1-based) of its byte `column`."""
        starts = self._byte_offsets()
        if starts is self.offsets:
            return column
        return len(self.data[starts[line - 1]:starts[line - 1] + column].decode("utf-8", "replace"))


def _line_starts(lines: list) -> list[int]:
    """Where each of `lines` starts once joined with one-character separators, and one past the end."""
    return [0, *map(add, accumulate(map(len, lines)), count(1))]
