"""Files from outside: read as bounded data, written so that nothing is lost or half-written.

Every file fairplay opens on a user's word (a config and the files it `extends`, a strategy file,
a result, a baseline, a sweep, a tune or roles file) is read here: it must be a regular file of
bounded size, in UTF-8, and JSON may not nest without bound. A FIFO, a device, a folder or a huge
file is one line, never a hang or a MemoryError. Reading never runs anything.

Outputs are written atomically (a temporary file beside the target, synced, then renamed over
it), and a run holds a lock beside its output so that two runs never write one file. What a
saved file claims is updated with Ctrl-C held off (`signals_held`), so a stop never saves half
of a change.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import signal
import stat
import tempfile
import threading
from pathlib import Path

# Bounds on what is read. A config or a strategy file is a few kilobytes; a result a few hundred;
# a sweep holds one result per cell (at most 10,000 cells of well under 25 KiB each).
TEXT_LIMIT = 1 << 20  # configs (with each file they extend) and strategy files: 1 MiB
JSON_LIMIT = 256 << 20  # results, baselines, sweeps, tune and roles files: 256 MiB
JSON_DEPTH = 64  # the deepest nesting any file of ours has is under 10


@contextlib.contextmanager
def signals_held(signums=(signal.SIGINT, signal.SIGTERM)):
    """Ctrl-C or SIGTERM arriving inside the block takes effect when it ends (with the handler
    that was in place), so a block that changes several things together (a chunk's tallies and
    its number) is never left half done. Outside the main thread signals cannot arrive there, and
    the block just runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []
    previous = {}
    try:
        for signum in signums:
            previous[signum] = signal.signal(signum, lambda number, _frame: arrived.append(number))
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if arrived:
            handler = previous[arrived[0]]
            if callable(handler):
                handler(arrived[0], None)  # e.g. raises KeyboardInterrupt
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), arrived[0])


# The characters that end a line (str.splitlines), shown escaped in a one-line message.
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def one_line(text: str) -> str:
    """`text` (a message that may quote what a user typed or a file held) on one line: each
    character that would end a line is shown escaped, as Python writes it (\\n, \\r, ...)."""
    if not any(ch in text for ch in _LINE_BREAKS):
        return text
    return "".join(repr(ch)[1:-1] if ch in _LINE_BREAKS else ch for ch in text)


class FileRefused(Exception):
    """A file that cannot be read as data: one line saying why (without the path: the caller
    names the file in its own error)."""


def read_bytes(path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. Opened without blocking (a FIFO
    would wait forever for a writer) and checked on the open handle, so what is checked is what
    is read."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except IsADirectoryError:
        raise FileRefused("is a folder, not a file") from None
    except OSError as exc:
        raise FileRefused(f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileRefused("is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"is not a regular file (a {_kind(info.st_mode)}); only plain "
                              f"files are read")
        if info.st_size > limit:
            raise FileRefused(f"is {_size(info.st_size)}, more than the {_size(limit)} such a "
                              f"file may have")
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while size <= limit:
            block = os.read(fd, min(1 << 20, limit + 1 - size))
            if not block:
                break
            chunks.append(block)
            size += len(block)
        if size > limit:  # it grew while being read
            raise FileRefused(f"is more than the {_size(limit)} such a file may have")
        return b"".join(chunks)
    except OSError as exc:
        raise FileRefused(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(path, limit: int = TEXT_LIMIT) -> str:
    """A regular file's UTF-8 text (see read_bytes)."""
    return decode(read_bytes(path, limit))


def decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileRefused(f"is not UTF-8 text (byte {exc.start})") from None


def read_json(path, limit: int = JSON_LIMIT):
    """A regular file's JSON, nested at most JSON_DEPTH deep."""
    return parse_json(read_text(path, limit))


def parse_json(text: str):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FileRefused(f"is corrupt JSON ({exc.msg}, line {exc.lineno})") from None
    except RecursionError:
        raise FileRefused(f"nests deeper than {JSON_DEPTH} levels") from None
    if depth(data) > JSON_DEPTH:
        raise FileRefused(f"nests deeper than {JSON_DEPTH} levels")
    return data


def depth(value) -> int:
    """How deeply lists and objects nest in a JSON value (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if level > JSON_DEPTH:
                return level
            stack.extend((child, level + 1) for child in
                         (item.values() if isinstance(item, dict) else item))
    return deepest


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


def _size(count: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.3g} {unit}"
    return f"{count} bytes"


# --- writing ---------------------------------------------------------------------------------------
def write_atomically(path, text: str) -> Path:
    """Write `text` to a temporary file beside `path`, sync it, then rename it over `path`.

    The rename is atomic, so readers see the old file or the new one, never a mix, and a failed
    write (a full disk) leaves the old file as it was. The file gets the usual permissions
    (mkstemp would leave it private to the owner). A symbolic link stays a link: the file it
    points to is written.
    """
    path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def same_file(a, b) -> bool:
    """Do two paths name one file (the same path, a link to it, or the same inode)?"""
    a, b = Path(a), Path(b)
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


class Busy(Exception):
    """Another fairplay process holds the lock of an output."""


class OutputLock:
    """An exclusive lock on an output file for as long as a run writes it: a file
    `.<name>.lock` beside it, locked with flock (the kernel releases it when the process ends,
    however it ends, so a killed run never leaves a stale lock). Removed when released."""

    def __init__(self, path):
        self.path = Path(path)
        # the file itself is locked, whatever name (a symbolic link) a run writes it by
        real = Path(os.path.realpath(path))
        self.lock_path = real.with_name(f".{real.name}.lock")
        self.fd: int | None = None

    def acquire(self) -> "OutputLock":
        self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise Busy(f"{self.path} is being written by another fairplay run; wait "
                               f"for it, or choose another output") from None
                raise
            # the holder before us may have removed the file after we opened it: lock the file
            # that is there now
            try:
                if os.fstat(fd).st_ino == os.stat(self.lock_path).st_ino:
                    break
            except FileNotFoundError:
                pass
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self.fd = fd
        return self

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            os.unlink(self.lock_path)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()
