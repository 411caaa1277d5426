"""The one error the query engine raises for bad arguments."""

from __future__ import annotations


class QueryInputError(ValueError):
    """An argument of a query tool is invalid; `field` names it (maps to `invalid_input`)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
