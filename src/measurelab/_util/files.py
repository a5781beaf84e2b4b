"""Writing files atomically, with the permissions the user's umask asks for.

A low module (it imports nothing of measurelab) shared by the study store, cross-validation,
the reports and the demo: a file appears whole under its name or not at all, because it is
written to a unique temporary name in the same folder and moved into place with
``os.replace``. Temporary files of :func:`tempfile.mkstemp` are private (0600); before the
move they get ``0666 & ~umask``, the mode ``open()`` would have given them.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    """The process's umask (read without changing it for other threads' file creations).

    Examples
    --------
    >>> 0 <= current_umask() <= 0o777
    True
    """
    try:  # Linux: read it without touching it
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode a new regular file gets from ``open()``: ``0o666 & ~umask``."""
    return 0o666 & ~current_umask()


@contextmanager
def atomic_path(path: str | os.PathLike[str], suffix: str = ".tmp") -> Iterator[Path]:
    """A temporary path beside ``path``; on success it is moved onto ``path``.

    The caller writes the temporary file; if the block raises (or the process is killed)
    ``path`` is untouched and the temporary file removed (or left with a ``.tmp`` name that
    readers skip).

    Examples
    --------
    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "a.txt"
    >>> with atomic_path(target) as tmp:
    ...     _ = tmp.write_text("hello")
    >>> target.read_text(), oct(target.stat().st_mode & 0o777) == oct(file_mode())
    ('hello', True)
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, file_mode())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_path`).

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "b.bin"
    >>> atomic_write_bytes(p, b"\\x00\\x01"); p.read_bytes()
    b'\\x00\\x01'
    """
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` via a temporary file and ``os.replace``.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "sub" / "c.json"
    >>> atomic_write_text(p, "{}"); p.read_text()
    '{}'
    """
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def atomic_write_with(path: str | os.PathLike[str], write: Callable[[Path], object],
                      suffix: str = ".tmp") -> None:
    """Call ``write(tmp_path)`` and move the result onto ``path`` atomically.

    ``suffix`` keeps writers that look at the extension (``np.savez`` adds ``.npz``)
    writing exactly the temporary name.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "d.txt"
    >>> atomic_write_with(p, lambda t: t.write_text("x")); p.read_text()
    'x'
    """
    with atomic_path(path, suffix=suffix) as tmp:
        write(tmp)
