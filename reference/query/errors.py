"""The engine's two errors: a value it cannot take, and a file or symbol the index does not hold."""

from __future__ import annotations


class QueryInputError(ValueError):
    """A value no query may take (a path leaving the workspace); `field` names the argument (-> `invalid_input`).

    Types, ranges and enums are the input schemas' to check (reference/protocol/arguments.py), not the engine's.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


class QueryNotFound(LookupError):
    """The thing asked for is not in the index; `code` is the registry code (`file_not_found`, `symbol_not_found`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
