"""What a scenario asked and what came back: call records for the reports, each answer cut by size.

A scenario's runner keeps every answer whole while it runs; the reports keep the last
``MAX_CALLS`` calls, each answer within a byte budget that depends on the outcome (a failure's
story is told in full, a pass only needs enough to recognise the answer). Answers are cut by
bytes at a line boundary, with the size of the whole, never at a fixed number of characters.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CALLS = "cruxgate_calls"  # the report attribute (call phase) carrying a scenario's call records
MAX_CALLS = 20  # a wait step polls: the last calls tell the story
FULL_BUDGET = 32 * 1024  # bytes of one answer for a scenario that did not pass
BRIEF_BUDGET = 2 * 1024  # bytes of one answer for one that passed


def answer_text(payload: Any) -> str:
    """A payload as a person reads it: indented JSON (a string as is)."""
    if isinstance(payload, str):
        return payload
    return json.dumps(payload, indent=2, ensure_ascii=False, default=str)


def cut(text: str, budget: int) -> tuple[str, bool]:
    """`text` within `budget` UTF-8 bytes, cut at the last line break before it; (text, whether it was cut)."""
    data = text.encode("utf-8")
    if len(data) <= budget:
        return text, False
    head = data[:budget].decode("utf-8", errors="ignore")
    newline = head.rfind("\n")
    return (head[:newline] if newline > budget // 2 else head), True


def trimmed(record: dict[str, Any], budget: int) -> dict[str, Any]:
    """A call record with its answer within `budget` bytes (`answer_bytes` keeps the whole's size)."""
    text, was_cut = cut(record["answer"], budget)
    return {**record, "answer": text, "truncated": record.get("truncated", False) or was_cut}


def trimmed_calls(records: list[dict[str, Any]], passed: bool) -> list[dict[str, Any]]:
    """The records as the reports keep them: the brief budget for a pass, the full one otherwise."""
    return [trimmed(record, BRIEF_BUDGET if passed else FULL_BUDGET) for record in records]


class Transcript:
    """The calls of one scenario in order, the last MAX_CALLS kept."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.dropped = 0

    @contextmanager
    def call(self, step: int | None, method: str, tool: str | None, arguments: dict[str, Any] | None,
             transport: str) -> Iterator[dict[str, Any]]:
        """Time one request; the caller fills `answer`, `is_error` and `error_code` in the record it is given."""
        record: dict[str, Any] = {"step": None if step is None else step + 1, "method": method, "tool": tool,
                                  "arguments": arguments, "transport": transport, "is_error": False,
                                  "error_code": None, "answer": "", "truncated": False}
        started = time.perf_counter()
        try:
            yield record
        except Exception as exc:  # the request failed on the wire: the failure is what came back
            record["answer"] = f"no answer: {exc}"
            raise
        finally:
            record["ms"] = round((time.perf_counter() - started) * 1000.0, 3)
            record["answer_bytes"] = len(record["answer"].encode("utf-8"))
            self.records.append(record)
            if len(self.records) > MAX_CALLS:
                self.records.pop(0)
                self.dropped += 1

    def answered(self, record: dict[str, Any], payload: Any, is_error: bool) -> None:
        """Fill a record with the answer the target gave."""
        error = payload.get("error") if isinstance(payload, dict) else None
        record["is_error"] = is_error
        record["error_code"] = error.get("code") if isinstance(error, dict) and isinstance(error.get("code"),
                                                                                            str) else None
        record["answer"] = answer_text(payload)
