"""Reading predictions from files in chunks: perf-style text, CSV, Parquet, standard input.

Every reader yields :class:`Chunk` objects of at most ``chunk_rows`` rows, so memory is
bounded by one chunk plus the score table (distinct scores), never by the number of rows.
:func:`read_score_table` turns the chunks into one merged :class:`ScoreTable`, and
:func:`evaluate_file` evaluates it — exactly the result of :func:`measurelab.evaluate` on
the whole data, because score tables of disjoint parts merge exactly.

Formats
-------
``perf``
    Caruana's ``perf`` input: one case per line, ``target prediction`` separated by
    spaces or tabs; blank lines are skipped. Errors name the line number.
``csv``
    A header line, then rows; the label and score columns are chosen by name
    (``label_col``, ``score_col``) or found among common names (``target``, ``label``,
    ``y``, ... / ``prediction``, ``score``, ``prob``, ...), or are the two columns of a
    two-column file. Errors name the data row (1 = the row after the header).
``parquet``
    A Parquet file or a directory of Parquet parts; columns as for CSV.

Multi-class (k probability columns, ``proba_cols``): CSV, Parquet or CSV on standard input,
read by :func:`read_multi_stats` / :func:`evaluate_multi_file` into merged
:class:`~measurelab.stats.bundle.MultiStats`.

``auto`` chooses by the file name (``.csv``, ``.tsv``, ``.parquet``/``.pq`` or a
directory; anything else is perf text); standard input (``-``) is CSV when its first line
holds a comma, else perf text. Text files ending in ``.gz`` are decompressed.

Examples
--------
>>> import io
>>> data = io.BytesIO(b"1 0.9\\n0 0.4\\n\\n1 0.4\\n0 0.1\\n")
>>> t = read_score_table(data, fmt="perf")
>>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
([0.1, 0.4, 0.9], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0])
"""

from __future__ import annotations

import gzip
import io
import math
import os
import sys
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from measurelab._validation import (
    MeasurelabError,
    binary_content,
    check_threshold,
    parse_number,
    quote,
    short_list,
    short_repr,
)
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.scoretable import ScoreTable

#: rows per chunk unless the caller says otherwise
DEFAULT_CHUNK_ROWS = 1 << 20
#: bytes read from a text stream at a time (perf text: fewer, larger parser calls)
_BLOCK_BYTES = 1 << 22

FORMATS = ("auto", "perf", "csv", "parquet")
LABEL_NAMES = ("target", "label", "labels", "y", "y_true", "class", "truth", "actual")
SCORE_NAMES = ("prediction", "predictions", "score", "scores", "y_score", "prob",
               "probability", "p", "pred", "y_pred")

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


# ----------------------------------------------------------------------------- sources
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
    if fmt not in FORMATS:
        raise MeasurelabError(f"format {fmt!r} is not known; expected one of {FORMATS}")
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
        return (gzip.open(p, "rb") if s.endswith(".gz") else open(p, "rb")), True
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


# ----------------------------------------------------------------------------- perf text
_WS = bytes.maketrans(b"\t\r\v\f", b"    ")


def _perf_pieces(fh: IO[bytes], chunk_rows: int, first: bytes = b"") -> Iterator[tuple[int, bytes]]:
    """Split a text stream into pieces of at most ``chunk_rows`` whole lines.

    Yields ``(line number of the piece's first line, bytes)``.
    """
    line = 1
    rest = first
    eof = False
    while not eof:
        data = fh.read(_BLOCK_BYTES)
        eof = not data
        buf = rest + data if rest else data
        end = len(buf) if eof else buf.rfind(b"\n") + 1
        rest = buf[end:]
        start = 0
        while start < end:
            n_lines = buf.count(b"\n", start, end)
            if n_lines <= chunk_rows:
                stop = end
                n_lines += not buf.endswith(b"\n", start, end)  # a last line without newline
            else:
                nl = np.flatnonzero(np.frombuffer(buf, np.uint8, end - start, start) == 10)
                stop = start + int(nl[chunk_rows - 1]) + 1
                n_lines = chunk_rows
            yield line, buf[start:stop]
            line += n_lines
            start = stop


def _scan_perf(piece: bytes, line0: int, name: str) -> tuple[np.ndarray, np.ndarray]:
    """The slow, exact parser: raises naming the first bad line, else returns the arrays."""
    ys: list[float] = []
    ss: list[float] = []
    for k, raw in enumerate(piece.split(b"\n")):
        fields = raw.split()
        if not fields:
            continue
        where = f"{name}, line {line0 + k}"
        if len(fields) != 2:
            what = "one column" if len(fields) == 1 else f"{len(fields)} columns"
            raise MeasurelabError(
                f"{where}: expected two columns 'target prediction', got {what}: "
                f"{quote(raw.strip())}"
            )
        vals = []
        for role, f in zip(("target", "prediction"), fields, strict=True):
            v = parse_number(f)
            if v is None:
                raise MeasurelabError(
                    f"{where}: the {role} {quote(f)} is not a number (expected plain "
                    "decimal notation such as 1, 0.25 or 1e-3)"
                )
            if not math.isfinite(v):
                raise MeasurelabError(f"{where}: the {role} is {quote(f)}; it must be finite")
            vals.append(v)
        ys.append(vals[0])
        ss.append(vals[1])
    return np.array(ys, dtype=np.float64), np.array(ss, dtype=np.float64)


#: perf text pieces shorter than this are parsed by the exact scan (no pyarrow import)
_SMALL_PIECE_BYTES = 1 << 16


def _column_numpy(col: Any) -> np.ndarray:
    """A float64 pyarrow column (ChunkedArray) as one numpy array, read from its data
    buffers (``to_numpy`` would import pandas)."""
    chunks = []
    for c in col.chunks:
        if c.null_count:
            raise ValueError("missing values")  # the exact scan names the line
        chunks.append(np.frombuffer(c.buffers()[1], dtype=np.float64, count=len(c),
                                    offset=8 * c.offset))
    if len(chunks) == 1:
        return chunks[0]
    return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float64)


def _parse_perf(piece: bytes, line0: int, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Parse a piece of perf text fast (pyarrow); on any doubt fall back to the exact scan.

    Small pieces go straight to the exact scan: for a few thousand lines it is quicker
    than importing pyarrow (the command line on a small file stays fast)."""
    if len(piece) < _SMALL_PIECE_BYTES:
        return _scan_perf(piece, line0, name)
    import pyarrow as pa
    import pyarrow.csv as pacsv

    # other white space becomes a space (checked first: most files have none)
    text = piece.translate(_WS) if any(c in piece for c in (b"\t", b"\r", b"\v", b"\f")) \
        else piece
    try:
        tbl = pacsv.read_csv(
            io.BytesIO(text),
            read_options=pacsv.ReadOptions(column_names=["y", "s"]),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types={"y": pa.float64(), "s": pa.float64()}
            ),
        )
        # per chunk: ChunkedArray.to_numpy would import pandas
        y = _column_numpy(tbl.column("y"))
        s = _column_numpy(tbl.column("s"))
    except (pa.ArrowInvalid, ValueError):
        return _scan_perf(piece, line0, name)
    if not (np.isfinite(s).all() and np.isfinite(y).all()):
        return _scan_perf(piece, line0, name)
    return y, s


def _read_perf(fh: IO[bytes], name: str, chunk_rows: int, first: bytes = b"") -> Iterator[Chunk]:
    for line0, piece in _perf_pieces(fh, chunk_rows, first):
        y, s = _parse_perf(piece, line0, name)
        if s.size:
            blank = s.size != piece.count(b"\n") + (not piece.endswith(b"\n"))
            yield Chunk(y, s, None, first=line0, unit="line", _lines=piece if blank else None)
    if "pyarrow" in sys.modules:  # hand the parser's cached buffers back to the system
        import pyarrow as pa

        pa.default_memory_pool().release_unused()


# ----------------------------------------------------------------------------- columns
def _pick_columns(
    columns: list[str], label_col: str | None, score_col: str | None, weight_col: str | None,
    name: str,
) -> tuple[str, str, str | None]:
    def find(given: str | None, candidates: tuple[str, ...], role: str, flag: str) -> str:
        if given is not None:
            if given not in columns:
                import difflib

                close = difflib.get_close_matches(given, columns, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise MeasurelabError(
                    f"{name}: no column {quote(given)}{hint} (columns: {_some(columns)})"
                )
            return given
        lower = {c.lower(): c for c in columns}
        for c in candidates:
            if c in lower:
                return lower[c]
        if len(columns) == 2:
            return columns[0] if role == "label" else columns[1]
        raise MeasurelabError(
            f"{name}: cannot tell which column holds the {role}s; pass {flag} "
            f"(columns: {_some(columns)})"
        )

    lab = find(label_col, LABEL_NAMES, "label", "--label-col")
    sc = find(score_col, SCORE_NAMES, "score", "--score-col")
    if lab == sc:
        raise MeasurelabError(f"{name}: the label and score columns are both {lab!r}")
    w = None if weight_col is None else find(weight_col, (), "weight", "--weight-col")
    return lab, sc, w


def _some(columns: list[str], limit: int = 8) -> str:
    """The first few column names (messages stay short for wide files)."""
    shown = ", ".join(quote(c, 30)[1:-1] if len(c) <= 30 else quote(c, 30) for c in
                      columns[:limit])
    return shown + (f", ... ({len(columns)} columns)" if len(columns) > limit else "")


def _numeric_column(
    values: Any, role: str, col: str, name: str, first: int, unit: str,
    *, nonnegative: bool = False,
) -> np.ndarray:
    """A finite float64 vector, or an error naming the first bad row."""
    import pandas as pd

    arr = np.asarray(values)
    if arr.dtype.kind in "biu":
        out = arr.astype(np.float64)
    elif arr.dtype.kind == "f":
        out = arr.astype(np.float64, copy=False)
    else:
        out = pd.to_numeric(pd.Series(arr), errors="coerce").to_numpy(dtype=np.float64)
        bad = np.isnan(out) & ~pd.isna(pd.Series(arr)).to_numpy()
        if not bad.any() and arr.dtype.kind in "OSU":
            bad = np.array([isinstance(v, str) and parse_number(v.strip()) is None
                            for v in arr.tolist()])
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise MeasurelabError(
                f"{name}, {unit} {first + i}: the {role} {quote(arr[i])} in column "
                f"{quote(col)} is not a number"
            )
    ok = np.isfinite(out)
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        what = "missing" if np.isnan(out[i]) else repr(float(out[i]))
        raise MeasurelabError(
            f"{name}, {unit} {first + i}: the {role} in column {col!r} is {what}; "
            "it must be a finite number"
        )
    if nonnegative and (out < 0).any():
        i = int(np.flatnonzero(out < 0)[0])
        raise MeasurelabError(
            f"{name}, {unit} {first + i}: the {role} {float(out[i])!r} in column {col!r} "
            "is negative"
        )
    return out


def _label_column(values: Any, col: str, name: str, first: int, unit: str) -> np.ndarray:
    import pandas as pd

    arr = np.asarray(values)
    missing = pd.isna(pd.Series(arr)).to_numpy() if arr.dtype.kind in "fOUSMm" else None
    if missing is not None and missing.any():
        i = int(np.flatnonzero(missing)[0])
        raise MeasurelabError(f"{name}, {unit} {first + i}: the label in column {col!r} is missing")
    if arr.dtype.kind == "f" and np.isinf(arr).any():
        i = int(np.flatnonzero(np.isinf(arr))[0])
        raise MeasurelabError(f"{name}, {unit} {first + i}: the label {arr[i]!r} is not finite")
    return arr


def _frame_chunks(
    frames: Iterable[Any], name: str, label_col: str | None, score_col: str | None,
    weight_col: str | None,
) -> Iterator[Chunk]:
    """Chunks from an iterable of DataFrames (CSV, Parquet); rows count from 1."""
    cols: tuple[str, str, str | None] | None = None
    first = 1
    for df in frames:
        if cols is None:
            cols = _pick_columns([str(c) for c in df.columns], label_col, score_col,
                                 weight_col, name)
        lab, sc, wc = cols
        n = len(df)
        if n:
            y = _label_column(df[lab].to_numpy(), lab, name, first, "row")
            s = _numeric_column(df[sc].to_numpy(), "score", sc, name, first, "row")
            w = None
            if wc is not None:
                w = _numeric_column(df[wc].to_numpy(), "weight", wc, name, first, "row",
                                    nonnegative=True)
            yield Chunk(y, s, w, first=first, unit="row")
        first += n
    if cols is None:
        raise MeasurelabError(f"{name} is empty: no header and no rows")


def _read_csv(
    fh: IO[bytes] | str, name: str, chunk_rows: int, label_col: str | None,
    score_col: str | None, weight_col: str | None, sep: str = ",",
) -> Iterator[Chunk]:
    import pandas as pd

    if isinstance(fh, str):  # a path: check the header before reading the rows
        try:
            header = pd.read_csv(fh, sep=sep, nrows=0)
        except pd.errors.EmptyDataError:
            raise MeasurelabError(f"{name} is empty: no header and no rows") from None
        except (UnicodeDecodeError, pd.errors.ParserError) as exc:
            raise MeasurelabError(f"{name}: not readable as CSV text ({_short(exc)})") from None
        _pick_columns([str(c) for c in header.columns], label_col, score_col, weight_col,
                      name)
    # every column is read (no usecols) so that a row with more fields than the header is
    # an error, and index_col=False so that pandas does not take a first row with one
    # field too many as an index
    try:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            reader = pd.read_csv(fh, sep=sep, chunksize=chunk_rows, low_memory=False,
                                 index_col=False)
            yield from _frame_chunks(reader, name, label_col, score_col, weight_col)
    except pd.errors.EmptyDataError:
        raise MeasurelabError(f"{name} is empty: no header and no rows") from None
    except pd.errors.ParserWarning:
        raise MeasurelabError(
            f"{name}, row 1: more fields than the header has columns"
        ) from None
    except pd.errors.ParserError as exc:
        problem = _csv_problem(exc)
        sep_ = ", " if problem.startswith("line ") else ": "
        raise MeasurelabError(f"{name}{sep_}{problem}") from None
    except UnicodeDecodeError as exc:
        raise MeasurelabError(f"{name}: not readable as UTF-8 CSV text ({_short(exc)})") from None


def _short(exc: BaseException, limit: int = 80) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _csv_problem(exc: BaseException) -> str:
    """pandas' tokenizer message as 'line N: expected K fields (as the header), got M'."""
    import re

    text = " ".join(str(exc).split())
    m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", text)
    if m:
        k, line, got = m.groups()
        return f"line {line}: expected {k} fields (as the header), got {got}"
    return _short(exc) or "malformed CSV"


def _read_parquet(
    path: str, name: str, chunk_rows: int, label_col: str | None, score_col: str | None,
    weight_col: str | None,
) -> Iterator[Chunk]:
    import pyarrow.dataset as ds

    lab, sc, wc = parquet_columns(path, label_col, score_col, weight_col)
    dset = ds.dataset(path, format="parquet")
    cols = [c for c in (lab, sc, wc) if c is not None]

    def frames() -> Iterator[Any]:
        import pyarrow as pa

        batches = dset.to_batches(columns=cols, batch_size=chunk_rows)
        while True:
            try:
                batch = next(batches)
            except StopIteration:
                return
            except (pa.ArrowException, OSError) as exc:
                raise MeasurelabError(
                    f"{name}: damaged Parquet data ({_short(exc)})"
                ) from None
            yield batch.to_pandas()

    yield from _frame_chunks(frames(), name, lab, sc, wc)


def parquet_columns(
    path: str | os.PathLike[str],
    label_col: str | None = None,
    score_col: str | None = None,
    weight_col: str | None = None,
) -> tuple[str, str, str | None]:
    """The label, score and weight columns of a Parquet data set (chosen as for CSV).

    Examples
    --------
    >>> import tempfile, os, pandas as pd
    >>> d = tempfile.mkdtemp()
    >>> pd.DataFrame({"id": [1, 2], "target": [0, 1], "prob": [.2, .9]}).to_parquet(
    ...     os.path.join(d, "part-0.parquet"))
    >>> parquet_columns(d)
    ('target', 'prob', None)
    """
    import pyarrow as pa
    import pyarrow.dataset as ds

    name = os.fspath(path)
    if not Path(name).exists():
        raise MeasurelabError(f"{name}: no such file or directory")
    try:
        schema = ds.dataset(name, format="parquet").schema
    except (pa.ArrowException, OSError) as exc:
        raise MeasurelabError(
            f"{name}: not a readable Parquet data set ({_short(exc)})"
        ) from None
    return _pick_columns(schema.names, label_col, score_col, weight_col, name)


def read_chunks(
    source: Source,
    *,
    fmt: str = "auto",
    label_col: str | None = None,
    score_col: str | None = None,
    weight_col: str | None = None,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
) -> Iterator[Chunk]:
    """Yield validated chunks of (labels, scores[, weights]) from a file or stream.

    Parameters
    ----------
    source : path, ``'-'`` (standard input) or a binary file object
    fmt : 'auto', 'perf', 'csv' or 'parquet'
    label_col, score_col, weight_col : column names (CSV and Parquet)
    chunk_rows : int
        Most rows per chunk (perf text: most lines per chunk).

    Raises
    ------
    MeasurelabError
        One line naming the problem and where: a missing file, a non-numeric field, a
        NaN or infinite score, a line with one column, an unknown column.

    Examples
    --------
    >>> import io
    >>> [len(c) for c in read_chunks(io.BytesIO(b"1 .9\\n0 .2\\n1 .5\\n"), chunk_rows=2)]
    [2, 1]
    """
    if chunk_rows < 1:
        raise MeasurelabError(f"chunk_rows must be at least 1, got {chunk_rows}")
    name = source_name(source)
    kind = detect_format(source, fmt)
    if kind == "parquet":
        if not isinstance(source, str | os.PathLike):
            raise MeasurelabError("Parquet input must be a file or directory, not a stream")
        yield from _read_parquet(os.fspath(source), name, chunk_rows, label_col, score_col,
                                 weight_col)
        return
    is_path = isinstance(source, str | os.PathLike) and os.fspath(source) != "-"
    sep = ","
    if is_path:
        p = os.fspath(source)
        if not Path(p).exists():
            raise MeasurelabError(f"{p}: no such file")
        sep = "\t" if p.lower().removesuffix(".gz").endswith(".tsv") else ","
    fh, opened = _open_binary(source)
    try:
        yield from _read_text(source, fh, kind, name, is_path, sep, chunk_rows, label_col,
                              score_col, weight_col)
    except (OSError, EOFError, zlib.error) as exc:  # a damaged .gz, an I/O error
        raise MeasurelabError(f"{name}: cannot be read ({_short(exc)})") from None
    finally:
        if opened:
            fh.close()


def _read_text(source: Source, fh: IO[bytes], kind: str, name: str, is_path: bool, sep: str,
               chunk_rows: int, label_col: str | None, score_col: str | None,
               weight_col: str | None) -> Iterator[Chunk]:
    """Chunks of a text source (perf text or CSV), opened as ``fh``."""
    # the first bytes: compressed or binary content is named, not parsed as text;
    # read1 returns what a slow pipe has so far instead of waiting for a full block
    head = _read_some(fh)
    gz = is_path and os.fspath(source).endswith(".gz")  # type: ignore[arg-type]
    _check_text(head, name, gz)
    path = os.fspath(source) if is_path else ""  # type: ignore[arg-type]
    if kind == "csv" and is_path and not gz and _is_regular(path):
        yield from _read_csv(path, name, chunk_rows, label_col, score_col, weight_col, sep)
        return
    if kind == "auto":
        # decide on the first non-blank line: a comma means CSV
        while not (head.strip() and b"\n" in head.lstrip()):
            more = _read_some(fh)
            if not more:
                break
            head += more
        first_line = head.lstrip().split(b"\n", 1)[0]
        kind = "csv" if b"," in first_line else "perf"
    if kind == "csv":
        stream = io.BufferedReader(_Prefixed(head, fh))
        yield from _read_csv(stream, name, chunk_rows,  # type: ignore[arg-type]
                             label_col, score_col, weight_col, sep)
    else:
        given = [f for f, c in (("--label-col", label_col), ("--score-col", score_col),
                                ("--weight-col", weight_col)) if c is not None]
        if given:
            raise MeasurelabError(
                f"{name} is perf text ('target prediction' lines) with no columns to name; "
                f"{given[0]} applies to CSV and Parquet (pass --format csv if it is CSV)"
            )
        yield from _read_perf(fh, name, chunk_rows, head)


def _read_some(fh: IO[bytes], size: int = 1 << 16) -> bytes:
    """Up to ``size`` bytes, returning as soon as some are available (pipes, slow stdin)."""
    read1 = getattr(fh, "read1", None)
    return read1(size) if read1 is not None else fh.read(size)


# ----------------------------------------------------------------------------- tables
class TableAccumulator:
    """Merges score tables of many chunks in a balanced way (like a binary counter), so
    the total merge work is O(N log(chunks)) rather than quadratic in the number of chunks.

    Examples
    --------
    >>> acc = TableAccumulator()
    >>> for y, s in [([True], [0.2]), ([False], [0.2]), ([True], [0.7])]:
    ...     acc.add(ScoreTable.from_arrays(y, s))
    >>> acc.result().pos.tolist()
    [1.0, 1.0]
    """

    #: unweighted rows kept as class scores (8 bytes a row) before one table is built of
    #: them, when the scores are mostly distinct (a table row takes 24 bytes, and one
    #: build of many rows is cheaper than merging many small tables)
    RAW_ROWS = 1 << 24

    def __init__(self) -> None:
        self._stack: list[tuple[int, ScoreTable]] = []
        self._pos: list[np.ndarray] = []
        self._neg: list[np.ndarray] = []
        self._raw = 0
        self._distinct: bool | None = None  # decided on the first unweighted chunk

    def add_rows(self, y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None) -> None:
        """Add a chunk's rows (boolean labels, scores, optional weights)."""
        if w is not None:
            self.add(ScoreTable.from_arrays(y, s, w))
            return
        if self._distinct is None:
            t = ScoreTable.from_arrays(y, s)
            self._distinct = 2 * t.size > s.size
            if not self._distinct:
                self.add(t)
                return
        if not self._distinct:
            self.add(ScoreTable.from_arrays(y, s))
            return
        self._pos.append(s[y])
        self._neg.append(s[~y])
        self._raw += s.size
        if self._raw >= self.RAW_ROWS:
            self._flush()

    def _flush(self) -> None:
        if self._raw:
            self._raw = 0
            self.add(ScoreTable.from_class_scores(self._pos, self._neg))

    def add(self, table: ScoreTable) -> None:
        level = 0
        while self._stack and self._stack[-1][0] == level:
            _, prev = self._stack.pop()
            table = prev.merge(table)
            level += 1
        self._stack.append((level, table))

    def result(self) -> ScoreTable:
        self._flush()
        out = ScoreTable.empty()
        for _, t in self._stack:
            out = out.merge(t)
        return out


def _coerce_pos_label(pos_label: Any, y: np.ndarray) -> Any:
    """Match a label given as text (command line) to the labels' type."""
    if isinstance(pos_label, str) and y.dtype.kind in "biuf":
        try:
            return float(pos_label)
        except ValueError:
            raise MeasurelabError(
                f"pos_label={pos_label!r} is not a valid label; the labels are numbers"
            ) from None
    if y.dtype.kind == "b" and isinstance(pos_label, str):
        low = pos_label.lower()
        if low in ("true", "1"):
            return True
        if low in ("false", "0"):
            return False
    return pos_label


def _in_order(y: np.ndarray) -> list[Any]:
    """Distinct labels in order of first appearance (numpy; no pandas on the CLI's path)."""
    try:
        vals, first = np.unique(y, return_index=True)
    except TypeError:  # labels of mixed types cannot be sorted
        return list(dict.fromkeys(y.tolist()))
    return vals[np.argsort(first, kind="stable")].tolist()


def _label_list(labels: list[Any]) -> list[Any]:
    out = []
    for v in labels:
        v = v.item() if isinstance(v, np.generic) else v
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        out.append(v)
    try:
        return sorted(out)
    except TypeError:
        return sorted(out, key=str)


def read_score_table(
    source: Source,
    *,
    pos_label: Any = 1,
    fmt: str = "auto",
    label_col: str | None = None,
    score_col: str | None = None,
    weight_col: str | None = None,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    progress: bool = False,
) -> ScoreTable:
    """Read a binary prediction file chunk by chunk into one merged score table.

    Checks across all chunks that there are at most two classes (naming where a third
    appears) and that ``pos_label`` is one of them when there are two. ``progress`` shows
    the rows read (a bar after 2 s on a terminal, a line every 20 s otherwise).

    Examples
    --------
    >>> import io
    >>> t = read_score_table(io.BytesIO(b"y,p\\nyes,0.8\\nno,0.3\\n"), pos_label="yes")
    >>> t.n_pos, t.n_neg
    (1.0, 1.0)
    """
    name = source_name(source)
    acc = TableAccumulator()
    seen: list[Any] = []
    label = pos_label
    coerced = False
    n = 0
    from measurelab._progress import progress_bar

    bar = progress_bar(None, desc=f"reading {name}", unit="row", enabled=progress,
                       delay=2, unit_scale=True)
    for chunk in read_chunks(source, fmt=fmt, label_col=label_col, score_col=score_col,
                             weight_col=weight_col, chunk_rows=chunk_rows):
        bar.update(len(chunk))
        if not coerced:
            label, coerced = _coerce_pos_label(pos_label, chunk.y), True
        new = [v for v in _in_order(chunk.y) if v not in seen]
        if new:
            seen.extend(new)
            if len(seen) > 2:
                # the third label in order of appearance, at its first row
                i = int(np.flatnonzero(chunk.y == seen[2])[0])
                shown = ", ".join(map(short_repr, _label_list(seen[:2])))
                third = short_repr(_label_list([chunk.y[i]])[0])
                raise MeasurelabError(
                    f"{name}, {chunk.locate(i)}: a third class {third}"
                    f" (after {shown}); binary evaluation needs exactly two classes in the "
                    "label column"
                )
        y = np.asarray(chunk.y == label, dtype=bool)
        acc.add_rows(y, chunk.score, chunk.weight)
        n += len(chunk)
    bar.close()
    if n == 0:
        raise MeasurelabError(f"{name} is empty: no predictions to evaluate")
    if len(seen) == 2 and label not in seen:
        raise MeasurelabError(
            f"pos_label={short_repr(pos_label)} is not a valid label. "
            f"It should be one of {short_list(_label_list(seen))}"
        )
    return acc.result()


def evaluate_file(
    source: Source,
    *,
    measures: Any = None,
    threshold: float = 0.5,
    pos_label: Any = 1,
    inclusive: bool = False,
    fmt: str = "auto",
    label_col: str | None = None,
    score_col: str | None = None,
    weight_col: str | None = None,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    progress: bool = False,
) -> Any:
    """Evaluate a prediction file with every applicable measure (or the chosen ones).

    Reads in chunks (memory bounded by the score table); the result equals
    :func:`measurelab.evaluate` on the whole data.

    Returns
    -------
    EvaluationResult

    Examples
    --------
    >>> import io
    >>> r = evaluate_file(io.BytesIO(b"0 0.1\\n0 0.4\\n1 0.35\\n1 0.8\\n"),
    ...                   measures=["acc", "auc"])
    >>> dict(r)
    {'acc': 0.75, 'auc': 0.75}
    """
    from measurelab.api import _resolve_all, compute_measures

    chosen = _resolve_all(measures)  # unknown names fail before any reading
    threshold = check_threshold(threshold)
    table = read_score_table(source, pos_label=pos_label, fmt=fmt, label_col=label_col,
                             score_col=score_col, weight_col=weight_col, chunk_rows=chunk_rows,
                             progress=progress)
    stats = BinaryStats(table=table, threshold=float(threshold), inclusive=inclusive)
    return compute_measures(stats, chosen)


# ----------------------------------------------------------------------------- multi-class
def parse_names(text: str | None, flag: str) -> list[str] | None:
    """A comma-separated list of names (``--proba-cols``, ``--classes``), or None.

    Examples
    --------
    >>> parse_names("c0, c1,c2", "--proba-cols")
    ['c0', 'c1', 'c2']
    """
    if text is None:
        return None
    names = [t.strip() for t in text.split(",")]
    if any(not t for t in names):
        raise MeasurelabError(f"{flag} {text!r} has an empty name; give names such as a,b,c")
    if len(set(names)) != len(names):
        dup = next(t for t in names if names.count(t) > 1)
        raise MeasurelabError(f"{flag} names {dup!r} twice")
    return names


def multi_columns(
    columns: list[str], proba_cols: list[str], label_col: str | None, weight_col: str | None,
    name: str,
) -> tuple[str, str | None]:
    """Check the probability columns of a multi-class file and find the label column
    (``label_col`` or a usual label name) and the weight column.

    Examples
    --------
    >>> multi_columns(["id", "target", "a", "b"], ["a", "b"], None, None, "f.csv")
    ('target', None)
    """
    import difflib

    if len(proba_cols) < 2:
        raise MeasurelabError(
            f"--proba-cols names {len(proba_cols)} column ({', '.join(proba_cols)}); give one "
            "probability column per class, at least two (for one binary score use --score-col)"
        )
    for c in [*proba_cols, *(x for x in (label_col, weight_col) if x is not None)]:
        if c not in columns:
            close = difflib.get_close_matches(c, columns, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise MeasurelabError(
                f"{name}: no column {c!r}{hint} (columns: {', '.join(columns)})"
            )
    if label_col is None:
        lower = {c.lower(): c for c in columns if c not in proba_cols}
        label_col = next((lower[c] for c in LABEL_NAMES if c in lower), None)
        if label_col is None:
            raise MeasurelabError(
                f"{name}: cannot tell which column holds the labels; pass --label-col "
                f"(columns: {', '.join(columns)})"
            )
    if label_col in proba_cols:
        raise MeasurelabError(f"{name}: the label column {label_col!r} is also in --proba-cols")
    return label_col, weight_col


def _common_prefix(names: list[str]) -> str:
    """The longest text all names start with (character by character)."""
    if not names:
        return ""
    lo, hi = min(names), max(names)
    n = 0
    while n < min(len(lo), len(hi)) and lo[n] == hi[n]:
        n += 1
    return lo[:n]


class ClassMatcher:
    """Maps labels to probability columns: a label names class i when it equals class name
    i as text or as a number (``1`` and ``"1.0"``), or — with class names taken from the
    column names — the column name without the prefix all columns share (``p_a``, ``p_b``
    → ``a``, ``b``; ``c0``, ``c1`` → ``0``, ``1``).

    Examples
    --------
    >>> m = ClassMatcher(["c0", "c1", "c2"])
    >>> m.indices(np.array([2, 0, 0]), "y", "f.csv", 1).tolist()
    [2, 0, 0]
    >>> ClassMatcher(["p_a", "p_b"]).indices(np.array(["b", "p_a"]), "y", "f", 1).tolist()
    [1, 0]
    >>> ClassMatcher(["c1", "c10"]).stripped
    ['1', '10']
    """

    def __init__(self, names: list[str], *, strip_prefix: bool = True) -> None:
        self.names = list(names)
        prefix = _common_prefix(self.names) if strip_prefix else ""
        rest = [n[len(prefix):] for n in self.names]
        while prefix and not all(rest):  # c1, c10: strip 'c', not 'c1'
            prefix = prefix[:-1]
            rest = [n[len(prefix):] for n in self.names]
        self.stripped = rest if prefix else None
        self._cache: dict[Any, int] = {}

    @staticmethod
    def _same(label: Any, text: str) -> bool:
        if isinstance(label, str):
            return label == text
        if isinstance(label, bool | np.bool_):
            return str(label).lower() == text.lower()
        try:
            return float(text) == float(label)
        except (TypeError, ValueError):
            return str(label) == text

    def index(self, label: Any) -> int:
        """The class index of one label, or -1."""
        if label in self._cache:
            return self._cache[label]
        found = -1
        for names in (self.names, self.stripped or []):
            hits = [i for i, t in enumerate(names) if self._same(label, t)]
            if hits:
                found = hits[0]
                break
        self._cache[label] = found
        return found

    def indices(self, y: np.ndarray, col: str, name: str, first: int) -> np.ndarray:
        """Class index of every label; an unknown label is an error naming its row."""
        uniq, inv = np.unique(y, return_inverse=True)
        idx = np.array([self.index(u.item() if isinstance(u, np.generic) else u)
                        for u in uniq], dtype=np.int64)
        bad = idx[inv] < 0
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            shown = _label_list([y[i]])[0]
            raise MeasurelabError(
                f"{name}, row {first + i}: the label {shown!r} in column {col!r} has no "
                f"probability column (classes: {', '.join(self.names)}); name the columns' "
                "classes with --classes"
            )
        return idx[inv].reshape(-1)


def _probability_matrix(df: Any, proba_cols: list[str], name: str, first: int) -> np.ndarray:
    cols = [_numeric_column(df[c].to_numpy(), "probability", c, name, first, "row")
            for c in proba_cols]
    P = np.column_stack(cols)
    for test, what in ((P < 0, "negative"), (P > 1, "greater than 1")):
        if test.any():
            i, j = np.argwhere(test)[0]
            raise MeasurelabError(
                f"{name}, row {first + i}: the probability {float(P[i, j])!r} in column "
                f"{proba_cols[j]!r} is {what}; probabilities must be in [0, 1]"
            )
    return P


def _multi_frames(source: Source, fmt: str, chunk_rows: int, needed: Any) -> Iterator[Any]:
    """DataFrames of at most ``chunk_rows`` rows from a CSV or Parquet source.
    ``needed(columns)`` returns the columns to read (and checks them)."""
    import pandas as pd

    name = source_name(source)
    kind = detect_format(source, fmt)
    if kind == "perf":
        raise MeasurelabError(
            f"{name}: multi-class input (--proba-cols) must be CSV or Parquet with a header"
        )
    if kind == "parquet":
        import pyarrow as pa
        import pyarrow.dataset as ds

        if not isinstance(source, str | os.PathLike):
            raise MeasurelabError("Parquet input must be a file or directory, not a stream")
        if not Path(name).exists():
            raise MeasurelabError(f"{name}: no such file or directory")
        try:
            dset = ds.dataset(os.fspath(source), format="parquet")
        except (pa.ArrowInvalid, OSError) as exc:
            raise MeasurelabError(f"{name}: not a readable Parquet data set ({exc})") from None
        cols = needed(list(dset.schema.names))
        for batch in dset.to_batches(columns=cols, batch_size=chunk_rows):
            yield batch.to_pandas()
        return
    is_path = isinstance(source, str | os.PathLike) and os.fspath(source) != "-"
    if is_path:
        p = os.fspath(source)
        if not Path(p).exists():
            raise MeasurelabError(f"{p}: no such file")
        sep = "\t" if p.lower().removesuffix(".gz").endswith(".tsv") else ","
        try:
            header = pd.read_csv(p, sep=sep, nrows=0)
            cols = needed([str(c) for c in header.columns])
            yield from pd.read_csv(p, sep=sep, usecols=cols, chunksize=chunk_rows,
                                   low_memory=False)
        except pd.errors.EmptyDataError:
            raise MeasurelabError(f"{name} is empty: no header and no rows") from None
        except pd.errors.ParserError as exc:
            msg = str(exc).strip().splitlines()[-1] if str(exc).strip() else "malformed CSV"
            raise MeasurelabError(f"{name}: {msg}") from None
        return
    fh, opened = _open_binary(source)
    try:
        head = fh.read(1 << 16)
        if not head.strip():
            raise MeasurelabError(f"{name} is empty: no header and no rows")
        first_line = head.lstrip().split(b"\n", 1)[0]
        if kind == "auto" and b"," not in first_line:
            raise MeasurelabError(
                f"{name}: multi-class input (--proba-cols) must be CSV with a header; the "
                "first line has no comma"
            )
        stream = io.BufferedReader(_Prefixed(head, fh))
        try:
            checked = False
            for df in pd.read_csv(stream, chunksize=chunk_rows, low_memory=False):
                if not checked:
                    cols = needed([str(c) for c in df.columns])
                    checked = True
                yield df[cols]
            if not checked:
                raise MeasurelabError(f"{name} is empty: no header and no rows")
        except pd.errors.EmptyDataError:
            raise MeasurelabError(f"{name} is empty: no header and no rows") from None
        except pd.errors.ParserError as exc:
            msg = str(exc).strip().splitlines()[-1] if str(exc).strip() else "malformed CSV"
            raise MeasurelabError(f"{name}: {msg}") from None
    finally:
        if opened:
            fh.close()


def multi_frame_stats(
    df: Any, *, label_col: str, proba_cols: list[str], matcher: ClassMatcher,
    weight_col: str | None, name: str, first: int,
) -> Any:
    """Validated :class:`~measurelab.stats.bundle.MultiStats` of one frame of rows
    (``first`` = number of its first row, for messages).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": ["a", "b"], "pa": [.9, .4], "pb": [.1, .6]})
    >>> s = multi_frame_stats(df, label_col="y", proba_cols=["pa", "pb"],
    ...                       matcher=ClassMatcher(["pa", "pb"]), weight_col=None,
    ...                       name="f.csv", first=1)
    >>> s.counts.matrix.tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    from measurelab.api import check_two_columns, multi_stats_from_indices

    y = _label_column(df[label_col].to_numpy(), label_col, name, first, "row")
    yi = matcher.indices(y, label_col, name, first)
    P = _probability_matrix(df, proba_cols, name, first)
    w = None
    if weight_col is not None:
        w = _numeric_column(df[weight_col].to_numpy(), "weight", weight_col, name, first, "row",
                            nonnegative=True)
    if P.shape[1] == 2:
        try:
            check_two_columns(P)
        except MeasurelabError:
            i = int(np.argmax(np.abs(P.sum(axis=1) - 1.0)))
            raise MeasurelabError(
                f"{name}, row {first + i}: the two --proba-cols sum to {P[i].sum():.6g}, not "
                "1, so they are not class probabilities; to compare two models pass several "
                "--score-col (measurelab.compare_classifiers)"
            ) from None
    return multi_stats_from_indices(yi, P, tuple(matcher.names), w)


def _merge_in_order(parts: Iterable[Any]) -> Any:
    """Merge statistics in a balanced tree, keeping their order (a binary counter)."""
    stack: list[tuple[int, Any]] = []
    for part in parts:
        level = 0
        while stack and stack[-1][0] == level:
            part = stack.pop()[1].merge(part)
            level += 1
        stack.append((level, part))
    if not stack:
        return None
    out = stack[0][1]
    for _, part in stack[1:]:
        out = out.merge(part)
    return out


def read_multi_stats(
    source: Source,
    *,
    proba_cols: list[str],
    classes: list[str] | None = None,
    label_col: str | None = None,
    weight_col: str | None = None,
    fmt: str = "auto",
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
) -> Any:
    """Read a k-class prediction file (one probability column per class) chunk by chunk
    into merged :class:`~measurelab.stats.bundle.MultiStats`.

    Class names are ``classes`` or the column names; a label matches a class as described
    in :class:`ClassMatcher`. Probabilities must be finite and in [0, 1].

    Examples
    --------
    >>> import io
    >>> s = read_multi_stats(io.BytesIO(b"y,a,b,c\\na,.7,.2,.1\\nc,.1,.3,.6\\n"),
    ...                      proba_cols=["a", "b", "c"])
    >>> s.counts.labels, float(s.counts.matrix.trace())
    (('a', 'b', 'c'), 2.0)
    """
    name = source_name(source)
    if classes is not None and len(classes) != len(proba_cols):
        raise MeasurelabError(
            f"--classes names {len(classes)} classes but --proba-cols {len(proba_cols)} columns"
        )
    matcher = ClassMatcher(classes if classes is not None else proba_cols,
                           strip_prefix=classes is None)
    chosen: dict[str, Any] = {}

    def needed(columns: list[str]) -> list[str]:
        lab, wc = multi_columns(columns, proba_cols, label_col, weight_col, name)
        chosen.update(label=lab, weight=wc)
        return [lab, *proba_cols, *([wc] if wc else [])]

    def parts() -> Iterator[Any]:
        first = 1
        for df in _multi_frames(source, fmt, chunk_rows, needed):
            if len(df):
                yield multi_frame_stats(df, label_col=chosen["label"], proba_cols=proba_cols,
                                        matcher=matcher, weight_col=chosen["weight"],
                                        name=name, first=first)
            first += len(df)

    if chunk_rows < 1:
        raise MeasurelabError(f"chunk_rows must be at least 1, got {chunk_rows}")
    stats = _merge_in_order(parts())
    if stats is None:
        raise MeasurelabError(f"{name} is empty: no predictions to evaluate")
    return stats


def evaluate_multi_file(
    source: Source,
    *,
    proba_cols: list[str],
    classes: list[str] | None = None,
    measures: Any = None,
    average: str | None = "macro",
    label_col: str | None = None,
    weight_col: str | None = None,
    fmt: str = "auto",
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
) -> Any:
    """Evaluate a k-class prediction file (see :func:`read_multi_stats`); equal to
    :func:`measurelab.evaluate` on the whole data with ``labels`` = the classes.

    Examples
    --------
    >>> import io
    >>> r = evaluate_multi_file(io.BytesIO(b"y,p0,p1,p2\\n0,.7,.2,.1\\n2,.1,.3,.6\\n"),
    ...                         proba_cols=["p0", "p1", "p2"], measures=["acc", "mxe"])
    >>> round(r["acc"], 3), r.classes
    (1.0, ('p0', 'p1', 'p2'))
    """
    from measurelab.api import _resolve_all, compute_measures

    chosen = _resolve_all(measures)  # unknown names fail before any reading
    stats = read_multi_stats(source, proba_cols=proba_cols, classes=classes,
                             label_col=label_col, weight_col=weight_col, fmt=fmt,
                             chunk_rows=chunk_rows)
    return compute_measures(stats, chosen, average=average)
