"""A failed index run said in words: a full disk is named as such, whichever layer hit it."""

from __future__ import annotations

import errno
import re

# How each writer reports a full disk: the OS error numbers, SQLite's message, NumPy's short write
# ("31298 requested and 22496 written", raised with no errno), Tantivy's io error text.
_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
_FULL_TEXT = re.compile(r"disk is full|no space left on device|quota exceeded|^\d+ requested and \d+ written$",
                        re.IGNORECASE)
DISK_FULL = "the disk is full (no space left for the index)"


def disk_full(err: BaseException) -> bool:
    """`err`, or an error it was raised from, says that the disk or the quota is full."""
    seen: set[int] = set()
    current: BaseException | None = err
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in _FULL_ERRNOS:
            return True
        if _FULL_TEXT.search(str(current)):
            return True
        current = current.__cause__ or current.__context__
    return False


def describe_failure(err: BaseException) -> str:
    """One line for a failed run: the full disk first when that is what happened, then the error itself."""
    detail = f"{type(err).__name__}: {err}"
    return f"{DISK_FULL}; {detail}" if disk_full(err) else detail
