"""The one way the reference reads a workspace file, at index time and at query time.

A tree is not trusted: between the scan and the read (or the index and the query) a file can become
a link to /etc/passwd, a FIFO that blocks its reader, /dev/zero, or grow past the size limit. So a
read never follows a link in the last component (`O_NOFOLLOW`), never blocks on opening (`O_NONBLOCK`:
a FIFO without a writer opens at once), checks on the open descriptor (`fstat`) that it holds a regular
file, checks that the file it opened lies inside the workspace (a directory on the way may have become
a link), and stops one byte past the limit. Whatever fails a check is `Refused`, with a reason.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from dataclasses import dataclass

MAX_FILE_BYTES = 1_000_000
# Coarser than any file system's timestamp granularity (FAT's 2 s included): see `settled`.
RACY_SECONDS = 3
_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
          | getattr(os, "O_CLOEXEC", 0))
_CHUNK = 1 << 20
# Where Linux shows the file an open descriptor is for, links resolved.
_FD_PATH = "/proc/self/fd/{}"

_KINDS = ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
          (stat.S_ISSOCK, "socket"), (stat.S_ISDIR, "directory"))


class Refused(OSError):
    """A file the reference will not read; `reason` says why in a few words ("a symbolic link ...").

    An OSError, so a caller that treats an unreadable file as absent treats a refused one the same way.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class FileBytes:
    """A file's bytes and the stat of the descriptor they were read from."""

    data: bytes
    stat: os.stat_result


def utf8_text(text: str) -> bool:
    """`text` has a UTF-8 form: no lone surrogates (how a name os read with bytes that are not UTF-8 comes
    back, and what JSON's "\\udce9" decodes to). The index, SQLite and JSON answers carry only such text."""
    if text.isascii():  # as most names are: no encoding to try (the scan asks for every name of the tree)
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def signature(st: os.stat_result) -> tuple[int, ...]:
    """What identifies one version of a file without reading it: device, inode, size, mtime, ctime."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def signature_text(st: os.stat_result) -> str:
    """`signature` as the text a file's hash is remembered by (`ExtractStore.signatures`), made without the tuple: a
    run makes one per file of the tree."""
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"


def settled(st: os.stat_result, now_ns: int | None = None) -> bool:
    """Whether a file read now with this stat will change `signature` on its next edit.

    A signature can miss an edit made within one tick of the file system's clock after the file was read
    (same size, same timestamps). A file whose ctime is older than RACY_SECONDS when it is read cannot be
    edited within that tick any more: its next edit lands on a later one (ctime cannot be set by hand;
    only a clock stepped backwards defeats this).
    """
    now = time.time_ns() if now_ns is None else now_ns
    return now - st.st_ctime_ns >= RACY_SECONDS * 1_000_000_000


def refusal(st: os.stat_result, limit: int = MAX_FILE_BYTES) -> str | None:
    """Why a file of this (lstat) mode and size is not read, or None when it may be."""
    mode = st.st_mode
    if stat.S_ISLNK(mode):
        return "a symbolic link (links are not followed)"
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "special file")
        return f"not a regular file ({kind})"
    if st.st_size > limit:
        return f"larger than the {limit:,}-byte limit"
    return None


def _inside(root: str, fd: int, absolute: str) -> bool:
    """The open file lies under `root` (a resolved path): asked of the descriptor itself where the OS tells."""
    try:
        real = os.readlink(_FD_PATH.format(fd))
    except OSError:
        real = os.path.realpath(absolute)
    return real.startswith(root.rstrip("/") + "/")


def read_regular(path: str, limit: int = MAX_FILE_BYTES) -> FileBytes:
    """The bytes of the regular file at `path`, the last component not followed; Refused otherwise."""
    fd, st = _open(path, limit)
    try:
        return _read(fd, st, limit)
    finally:
        os.close(fd)


def read_file(root: str, rel: str, limit: int = MAX_FILE_BYTES) -> FileBytes:
    """The bytes of `rel` (a relative path) under the resolved workspace `root`; Refused when it may not be read."""
    absolute = os.path.join(root, rel)
    fd, st = _open(absolute, limit)
    try:
        if not _inside(root, fd, absolute):
            raise Refused("outside the workspace (a directory on its path is a link)")
        return _read(fd, st, limit)
    finally:
        os.close(fd)


def _open(path: str, limit: int) -> tuple[int, os.stat_result]:
    """A descriptor on `path` and its fstat: a regular file within the limit when opened; Refused otherwise."""
    try:
        # Checked before opening too: opening a device node can have effects of its own.
        reason = refusal(os.lstat(path), limit)
        if reason is not None:
            raise Refused(reason)
        fd = os.open(path, _FLAGS)
    except Refused:
        raise
    except (OSError, ValueError) as err:  # ValueError: a NUL in the path
        if getattr(err, "errno", None) in (errno.ELOOP, errno.EMLINK):  # O_NOFOLLOW met a link (EMLINK: FreeBSD)
            raise Refused("a symbolic link (links are not followed)") from None
        raise Refused(f"unreadable ({getattr(err, 'strerror', None) or err})") from None
    try:
        st = os.fstat(fd)  # what was opened, which a swap may have changed since the lstat
        reason = refusal(st, limit)
    except OSError as err:
        reason = f"unreadable ({err.strerror or err})"
    if reason is not None:
        os.close(fd)
        raise Refused(reason)
    return fd, st


def _read(fd: int, st: os.stat_result, limit: int) -> FileBytes:
    """Up to `limit` bytes of the open regular file; Refused when it holds more (it grew since the stat)."""
    try:
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # one byte past the limit tells a file that grew after the stat
            chunk = os.read(fd, min(_CHUNK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as err:
        raise Refused(f"unreadable ({err.strerror or err})") from None
    if size > limit:
        raise Refused(f"larger than the {limit:,}-byte limit")
    return FileBytes(b"".join(chunks), st)
