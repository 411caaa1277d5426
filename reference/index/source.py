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

    __slots__ = ("data", "decoded", "lines", "offsets", "run_lines", "run_words")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.lines: list[str] | None = None
        self.run_lines: list[int] = []
        self.run_words: list[str] = []
        self.decoded = ""
        self.offsets: list[int] = []  # where each line starts in `decoded` (and one past the end)

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
            starts = self.offsets if data.isascii() else _line_starts(data.split(b"\n"))
            self.run_lines = list(map(bisect.bisect_right, repeat(starts, len(positions)), positions))
            self.run_words = list(words)
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

    def expanded(self, start: int, end: int, cap: int | None = None) -> str:
        """Lines start..end (cut at `cap` characters) plus the humps of the camelCase runs on those lines."""
        text = self._slice(start, end, cap)
        lo = bisect.bisect_left(self.run_lines, start)
        hi = bisect.bisect_right(self.run_lines, end)
        return with_humps(text, self.run_words[lo:hi]) if hi > lo else text


def _line_starts(lines: list) -> list[int]:
    """Where each of `lines` starts once joined with one-character separators, and one past the end."""
    return [0, *map(add, accumulate(map(len, lines)), count(1))]
