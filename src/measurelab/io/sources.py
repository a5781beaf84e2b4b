"""Sources of prediction files: the :class:`Chunk` every reader yields, source names,
format detection, opening paths, standard input, named pipes and gzip, and the check that
text input is not compressed or binary."""

from __future__ import annotations

import gzip
import io
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, cast

import numpy as np

from measurelab._util.validation import binary_content, check_int, short_repr
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError

#: rows per chunk unless the caller says otherwise
DEFAULT_CHUNK_ROWS = 1 << 20

#: most rows per chunk: more is no faster, and the parsers count a chunk's rows in C longs
MAX_CHUNK_ROWS = 2**31 - 1

FORMATS = ("auto", "perf", "csv", "parquet")

Source = str | os.PathLike[str] | IO[bytes]


@dataclass
class Chunk:
    """Rows of one chunk: labels, finite float64 scores, optional weights.

    ``locate(i)`` describes where row ``i`` of the chunk came from (``"line 12"``,
    ``"row 7"``) for error messages.
    """

    y: np.ndarray
    score: np.ndarray
    weight: np.ndarray | None = None
    first: int = 1
    unit: str = "row"
    _lines: bytes | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return int(self.score.size)

    def locate(self, i: int) -> str:
        """Where row ``i`` of this chunk is in its source."""
        if self._lines is None:
            return f"{self.unit} {self.first + i}"
        # perf text: count data lines, skipping blank ones
        seen = -1
        for k, raw in enumerate(self._lines.split(b"\n")):
            if raw.strip():
                seen += 1
                if seen == i:
                    return f"line {self.first + k}"
        return f"line {self.first}"  # pragma: no cover - i is always a data row


def check_source(source: Any, name: str = "source") -> Source:
    """``source`` when it is a path (str or PathLike), ``'-'`` or a binary file object
    (with ``read``), or a one-line error naming ``name``.

    Examples
    --------
    >>> check_source("preds.txt")
    'preds.txt'
    >>> check_source("")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: source is empty; give a file path or '-' (standard input)
    """
    if isinstance(source, str | os.PathLike):
        text = os.fspath(source)
        if isinstance(text, bytes):
            raise MeasurelabTypeError(f"{name} must be a str or Path, not bytes: "
                                      f"{short_repr(text)}")
        if not text.strip():
            raise MeasurelabError(f"{name} is empty; give a file path or '-' (standard input)")
        return source
    if isinstance(source, bool) or not callable(getattr(source, "read", None)):
        raise MeasurelabTypeError(
            f"{name} must be a file path, '-' or a binary file object, got "
            f"{type(source).__name__} {short_repr(source)}")
    return source  # type: ignore[no-any-return]


def check_column(value: Any, name: str) -> str | None:
    """A column name: None (found by its usual names) or non-empty text.

    Examples
    --------
    >>> check_column("y", "label_col") is None, check_column(None, "label_col") is None
    (False, True)
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise MeasurelabTypeError(f"{name} must be a column name (str) or None, got "
                                  f"{type(value).__name__} {short_repr(value)}")
    if not value:
        raise MeasurelabError(f"{name} is empty; give a column name or None")
    return value


def check_chunk_rows(chunk_rows: Any) -> int:
    """``chunk_rows`` as an integer in [1, :data:`MAX_CHUNK_ROWS`].

    Examples
    --------
    >>> check_chunk_rows(1000)
    1000
    """
    return check_int(chunk_rows, "chunk_rows", minimum=1, maximum=MAX_CHUNK_ROWS)


def source_name(source: Source) -> str:
    """A short name of the source for messages: the path, or ``<stdin>``."""
    if isinstance(source, str | os.PathLike):
        s = os.fspath(source)
        return "<stdin>" if s == "-" else s
    return getattr(source, "name", None) or "<stream>"


def detect_format(source: Source, fmt: str = "auto") -> str:
    """The format of ``source``: ``fmt`` itself unless it is ``'auto'``.

    Streams (and ``-``) return ``'auto'`` when ``fmt`` is ``'auto'``: their format is
    decided on their first line.

    Examples
    --------
    >>> detect_format("preds.csv"), detect_format("run.parquet"), detect_format("a.txt")
    ('csv', 'parquet', 'perf')
    >>> detect_format("a.txt", "csv")
    'csv'
    """
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise MeasurelabError(f"format {short_repr(fmt)} is not known; expected one of "
                              f"{FORMATS}")
    if fmt != "auto":
        return fmt
    if not isinstance(source, str | os.PathLike) or os.fspath(source) == "-":
        return "auto"
    p = Path(source)
    name = p.name.lower().removesuffix(".gz")
    if p.is_dir() or name.endswith((".parquet", ".pq", ".parq")):
        return "parquet"
    if name.endswith((".csv", ".tsv")):
        return "csv"
    if not _is_regular(os.fspath(source)):
        return "auto"  # a pipe such as <(...): decided on the first line, as stdin
    return "perf"


def _open_binary(source: Source) -> tuple[IO[bytes], bool]:
    """A binary stream for ``source`` and whether we opened it (so must close it)."""
    if not isinstance(source, str | os.PathLike):
        return source, False
    s = os.fspath(source)
    if s == "-":
        return sys.stdin.buffer, False
    p = Path(s)
    if not p.exists():
        raise MeasurelabError(f"{s}: no such file")
    if p.is_dir():
        raise MeasurelabError(f"{s} is a directory; only Parquet data sets may be directories")
    try:  # returned to the caller, who closes it
        stream = gzip.open(p, "rb") if s.endswith(".gz") else open(p, "rb")
        return cast(IO[bytes], stream), True
    except OSError as exc:
        raise MeasurelabError(f"{s}: cannot be read ({exc.strerror or exc})") from None


def _is_regular(path: str) -> bool:
    """Whether ``path`` is a regular file (not a named pipe, ``<(...)`` or device), which
    may be opened twice; anything else is read once, as a stream."""
    import stat

    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # let the reader report a missing file


def _check_text(head: bytes, name: str, gz: bool) -> None:
    """Raise if the first bytes of a text source show it is compressed or binary."""
    what = binary_content(head)
    if what is not None:
        if gz and what.startswith("looks gzip"):
            what = "is gzip-compressed twice"
        raise MeasurelabError(f"{name} {what}")


class _Prefixed(io.RawIOBase):
    """A stream that first returns ``head`` and then the rest of ``tail``."""

    def __init__(self, head: bytes, tail: IO[bytes]) -> None:
        self._head = memoryview(head)
        self._tail = tail

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        if self._head.nbytes:
            n = min(len(b), self._head.nbytes)
            b[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._tail.read(len(b))
        b[: len(data)] = data
        return len(data)


def _read_some(fh: IO[bytes], size: int = 1 << 16) -> bytes:
    """Up to ``size`` bytes, returning as soon as some are available (pipes, slow stdin)."""
    read1 = getattr(fh, "read1", None)
    return read1(size) if read1 is not None else fh.read(size)


def _short(exc: BaseException, limit: int = 80) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
