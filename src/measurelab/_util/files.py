"""Writing files atomically, with the permissions the user's umask asks for, and checking
an output path before any work is done.

A low module shared by every writer (the study store, cross-validation, the comparison and
evaluation pages, the reports and the demo; public as :mod:`measurelab.io.files`): a file
appears whole under its name or not at all, because it is
written to a unique temporary name in the same folder and moved into place with
``os.replace``. Temporary files of :func:`tempfile.mkstemp` are private (0600); before the
move they get ``0666 & ~umask``, the mode ``open()`` would have given them.
"""

from __future__ import annotations

import errno
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from measurelab.exceptions import MeasurelabError, MeasurelabTypeError

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
    if path.is_dir():  # refused up front: the error names the user's path, not a temp name
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a file", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, str(path)) from None
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, file_mode())
        os.replace(tmp, path)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.filename is not None and \
                os.path.basename(str(exc.filename)).startswith(f".{path.name}."):
            raise type(exc)(exc.errno, exc.strerror, str(path)) from None
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


def check_output_path(path: Any, name: str) -> Path:
    """``path`` as a Path a file can be written to, or a one-line :class:`MeasurelabError`
    naming ``name``, before any work is done: not empty, not a folder, not inside a file.
    A missing folder is fine (it is created when the file is written).

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> check_output_path(d / "new" / "page.html", "path").name
    'page.html'
    >>> check_output_path(d, "path")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: path '...' is a folder; give a file name inside it
    """
    if not isinstance(path, str | os.PathLike):
        raise MeasurelabTypeError(f"{name} must be a file path (str or Path), got "
                                  f"{type(path).__name__}")
    text = os.fspath(path)
    if isinstance(text, bytes) or not str(text).strip():
        raise MeasurelabError(f"{name} is empty; give a file name such as report.html")
    p = Path(text)
    if p.is_dir() or str(text).endswith(("/", os.sep)):
        raise MeasurelabError(f"{name} {str(p)!r} is a folder; give a file name inside it")
    _check_parents(p, f"{name} {str(p)!r}", writable=True)
    return p


def _check_parents(p: Path, label: str, *, writable: bool) -> None:
    """Refuse ``p`` when its nearest existing parent is a file or (``writable``) cannot be
    written; ``label`` starts the message (the parameter and the path)."""
    for parent in p.parents:
        if parent.exists():
            if not parent.is_dir():
                raise MeasurelabError(f"{label}: {str(parent)!r} is a file, not a folder")
            if writable and not os.access(parent, os.W_OK | os.X_OK):
                raise MeasurelabError(f"{label}: the folder {str(parent)!r} is not writable")
            return


def check_output_folder(path: Any, name: str,
                        need: str = "is a file; give a folder") -> Path:
    """``path`` as a Path of a folder output can be written to, or a one-line
    :class:`MeasurelabError` naming ``name``, before any work is done: a non-empty str or
    PathLike, not a file (the message then says ``name``, the path and ``need``), not inside
    a file, and creatable (its nearest existing folder is writable). A missing folder is
    fine (it is created).

    Examples
    --------
    >>> check_output_folder("", "out")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: out is empty; give a folder such as out/run1
    """
    from measurelab._util.validation import quote, short_repr

    if not isinstance(path, str | os.PathLike) or isinstance(os.fspath(path), bytes):
        raise MeasurelabTypeError(f"{name} must be a folder path (str or Path), got "
                                  f"{type(path).__name__} {short_repr(path)}")
    text = os.fspath(path)
    if not text.strip():
        raise MeasurelabError(f"{name} is empty; give a folder such as out/run1")
    p = Path(text)
    if p.exists() and not p.is_dir():
        raise MeasurelabError(f"{name} {quote(text)} {need}")
    _check_parents(p, f"{name} {quote(text)}", writable=not p.exists())
    if p.exists() and not os.access(p, os.W_OK | os.X_OK):
        raise MeasurelabError(f"{name} {quote(text)}: the folder is not writable")
    return p
