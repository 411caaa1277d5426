"""The inputs nobody writes down: odd strings, edge numbers, wrong-typed values and odd property names.

Each list is ordered simplest first: hypothesis shrinks a draw from a list towards its first item, so a
finding reports the plainest value that still breaks the server ("" before " " before "\\x00").
`OUTSIDE` in a value stands for the folder that holds the workspace (see `outside_files`): the fuzz
run and `cruxgate fuzz replay` substitute it, so a finding replays in any environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

OUTSIDE = "{outside}"
CANARY_NAME = "cruxgate-canary.py"
# Written into a file beside the workspace: an answer that carries it read a file outside the workspace.
CANARY_MARKER = "CRUXGATE_CANARY_OUTSIDE_THE_WORKSPACE"
CANARY_TEXT = f'"""{CANARY_MARKER}"""\n\n\ndef cruxgate_canary_outside_the_workspace():\n    return "{CANARY_MARKER}"\n'
# The first line of /etc/passwd on nearly every Unix: file content no tool of a workspace may return.
SYSTEM_MARKERS = ("root:x:0:0:",)

ODD_STRINGS: tuple[str, ...] = (
    "",
    " ",
    "\x00",
    "a\x00b",
    "\n",
    " \t\r\n ",
    "0",
    "-1",
    "null",
    "é",
    "日本語",
    "🙂",
    "e\u0301",  # a combining accent
    "\u200b",  # zero-width space
    "\u202eevil",  # right-to-left override
    "\ufeff",  # byte-order mark
    "\x1b[31m",  # a terminal escape
    "%s%n%x",
    "{}",
    "${HOME}",
    "'",
    '"',
    '"unterminated',
    "\\",
    "*",
    "?",
    "(",
    "[",
    "a:b",
    "*:*",
    "AND",
    "OR NOT",
    "-",
    "'; DROP TABLE files; --",
    "<script>",
    ".",
    "..",
    "./",
    "../",
    "../../etc/passwd",
    "..\\..\\windows\\win.ini",
    "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/",
    "/etc/passwd",
    "file:///etc/passwd",
    "~",
    "~/.ssh/id_rsa",
    "C:\\Windows\\win.ini",
    "\\\\server\\share",
    "src/../../" + CANARY_NAME,
    "../" + CANARY_NAME,
    OUTSIDE + "/" + CANARY_NAME,
    "a" * 256,
    "a" * 10_000,
    "🙂" * 10_000,
    "x" * 1_000_000,  # 1 MB
)

# The coverage phase sends each of these to every string argument (the fuzzing phase draws from all of the above).
COVERAGE_STRINGS: tuple[str, ...] = (
    "", " ", "\x00", "\n", "🙂", "\u202eevil", "*", '"unterminated', "(", "../", "../../etc/passwd", "/etc/passwd",
    "../" + CANARY_NAME, OUTSIDE + "/" + CANARY_NAME, "a" * 10_000, "x" * 1_000_000,
)
COVERAGE_NUMBERS: tuple[int | float, ...] = (0, -1, 0.5, 2**31, 2**63, 2**64, -(2**63) - 1, 1e308)

EDGE_NUMBERS: tuple[int | float, ...] = (
    0,
    -1,
    1,
    2,
    0.5,
    -0.0,
    2**31 - 1,
    2**31,
    2**32,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64,
    -(2**63) - 1,
    10**30,
    -(10**30),
    1e-300,
    1e308,
    -1e308,
)

# One value per JSON type; a property gets those its schema rejects.
WRONG_TYPED: tuple[object, ...] = (None, True, False, 0, 1.5, "x", [], {}, ["x"], {"a": 1})

ODD_NAMES: tuple[str, ...] = ("cruxgate_unknown", "", "\x00", "../x", "__proto__", "constructor", "a" * 1000)


def substitute(value: Any, outside: str) -> Any:
    """`value` with OUTSIDE replaced by `outside` in every string it holds (same shape, so same type)."""
    if isinstance(value, str):
        return value.replace(OUTSIDE, outside)
    if isinstance(value, list):
        return [substitute(item, outside) for item in value]
    if isinstance(value, dict):
        return {substitute(key, outside): substitute(item, outside) for key, item in value.items()}
    return value


def outside_files(root: Path) -> tuple[str, ...]:
    """Write the canary beside the workspace in `root`; return the markers no answer may carry."""
    (root / CANARY_NAME).write_text(CANARY_TEXT, encoding="utf-8")
    return (CANARY_MARKER, *SYSTEM_MARKERS)
