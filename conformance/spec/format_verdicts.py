"""The spec format's verdicts kept across runs: the digests of the spec texts that met schemas/spec-format.

Validating the bundled spec against the format schema is most of a runner's collection (0.8 of 1.3 CPU-s on the
2-core VM), and every runner process loads the same texts (the project's tests start about a hundred). A digest
covers the text, every schemas/** file, jsonschema's version and schemas.py (how the validator is built): a text
whose digest met the schema once meets it again, and a change to any of them is a new digest, validated again.
Kept in the process and in `user_cache_root()/FILE` (newest last, at most KEEP); a cache file that cannot be
read or written only costs the validation.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile

from cruxgate.conformance.spec import schemas
from cruxgate.conformance.spec.paths import user_cache_root

FILE = "spec-format-valid.txt"
KEEP = 64  # a few spec versions' documents
READ_LIMIT = KEEP * 65  # KEEP lines of a digest and a newline
_known: set[str] = set()
_read: set[str] = set()  # the cache files this process has read (by path)


def digest(text: str) -> str:
    """The text's digest under the current schemas and validator."""
    return hashlib.sha256(schemas.digest() + text.encode("utf-8")).hexdigest()


def _recorded() -> list[str]:
    """The digests in the cache file; none when it is missing, unreadable or not a regular file."""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        return [line for line in _cache_text().split() if len(line) == 64]
    return []


def _cache_text() -> str:
    """The cache file's text. A FIFO, device or link put there would block or feed the reader: the open does not
    wait (O_NONBLOCK), does not follow a link (O_NOFOLLOW), and only a regular file is read, at most READ_LIMIT."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(user_cache_root() / FILE, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{FILE} is not a regular file")
        return os.read(fd, READ_LIMIT).decode("utf-8")
    finally:
        os.close(fd)


def known(text_digest: str) -> bool:
    """Whether a text with this digest met the format schema, in this process or a run before."""
    where = str(user_cache_root() / FILE)
    if text_digest not in _known and where not in _read:
        _read.add(where)
        _known.update(_recorded())
    return text_digest in _known


def remember(text_digest: str) -> None:
    """Record that a text with this digest met the format schema."""
    _known.add(text_digest)
    root = user_cache_root()
    kept = [line for line in _recorded() if line != text_digest][-(KEEP - 1):]
    lines = [*kept, text_digest]
    with contextlib.suppress(OSError):  # a read-only or missing home: the next run validates again
        root.mkdir(parents=True, exist_ok=True)
        # A new file of a name of its own (O_EXCL): never one already there, which could be a FIFO.
        fd, temporary = tempfile.mkstemp(dir=root, prefix=f".{FILE}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write("\n".join(lines) + "\n")
            os.replace(temporary, root / FILE)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
