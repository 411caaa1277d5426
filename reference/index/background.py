"""A function run in a daemon thread, whose caller later waits for it and gets what it returned or raised."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Background(Generic[T]):
    """`function` run in a daemon thread; `join()` waits, then returns what it returned or raises what it raised."""

    def __init__(self, name: str, function: Callable[[], T]) -> None:
        self.error: BaseException | None = None
        self._value: T | None = None

        def run() -> None:
            try:
                self._value = function()
            except BaseException as err:  # noqa: BLE001 - re-raised by join() in the thread that waits
                self.error = err

        self.thread = threading.Thread(target=run, name=name, daemon=True)
        self.thread.start()

    def wait(self) -> None:
        """Wait for the function to end, whatever it raised."""
        self.thread.join()

    def join(self) -> T:
        """Wait for the function; return what it returned, or raise what it raised."""
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self._value  # type: ignore[return-value]  # set by run() whenever it raised nothing
