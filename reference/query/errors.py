"""The one error the query engine raises for bad arguments."""

from __future__ import annotations


class QueryInputError(ValueError):
    """An argument of a query tool is invalid; `field` names it (maps to `invalid_input`)."""

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
