"""CSV and Parquet: choosing the label, score and weight columns, validating numeric and
label columns, and turning DataFrames of rows into chunks."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np

from measurelab._util.validation import parse_number_array, quote
from measurelab.exceptions import MeasurelabError
from measurelab.io.sources import Chunk, _short

#: how pandas turns CSV text into floats: ``round_trip`` is the correctly rounded
#: conversion (the float Python's ``float()`` gives), in every pandas version. The
#: default converter of pandas 2 ("high") is off by one or two units in the last place for
#: a third to a half of random 17-digit decimals (``0.08333333333333333`` became
#: ``0.0833333333333333``), so a file read on one machine gave other bits than the same
#: numbers in memory, or the same file on a machine with another pandas
#: (docs/DECISIONS.md, "Issue 28 fixes": same bits from a file and from memory).
CSV_FLOATS = "round_trip"

LABEL_NAMES = ("target", "label", "labels", "y", "y_true", "class", "truth", "actual")
SCORE_NAMES = ("prediction", "predictions", "score", "scores", "y_score", "prob",
               "probability", "p", "pred", "y_pred")


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
    check_unique_columns(columns, [c for c in (lab, sc, w) if c is not None], name)
    return lab, sc, w


def check_unique_columns(columns: list[str], used: list[str], name: str) -> None:
    """Refuse when the header names a column that is to be read more than once: which of
    the two is meant cannot be told (a header ``y,p,p``).

    Examples
    --------
    >>> check_unique_columns(["y", "p", "q", "q"], ["y", "p"], "f.csv")
    >>> check_unique_columns(["y", "p", "p"], ["y", "p"], "f.csv")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: f.csv: column 'p' appears 2 times in the header...
    """
    for c in used:
        n = columns.count(c)
        if n > 1:
            raise MeasurelabError(
                f"{name}: column {quote(c)} appears {n} times in the header; which one is "
                "meant cannot be told: give every column its own name"
            )


def check_header(raw: list[str] | None, names: list[str], used: list[str], name: str) -> None:
    """Refuse when a column to be read (``used``, by pandas' name ``names``) is named more
    than once in the header as written (``raw``; pandas reads ``y,p,p`` as ``y, p, p.1``).

    Examples
    --------
    >>> check_header(["y", "p", "p"], ["y", "p", "p.1"], ["y", "p.1"], "f.csv")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: f.csv: column 'p' appears 2 times in the header...
    """
    if raw is None or len(raw) != len(names):
        return
    check_unique_columns(raw, [raw[names.index(c)] for c in used if c in names], name)


def csv_header(head: bytes, sep: str = ",") -> list[str] | None:
    """The column names of the first non-blank line of CSV text ``head`` exactly as
    written (pandas renames a repeated name ``p`` to ``p.1``), or None when ``head`` does
    not hold a whole first line.

    Examples
    --------
    >>> csv_header(b"y,p,p\\n1,0.5,0.2\\n")
    ['y', 'p', 'p']
    >>> csv_header(b'\\n"a b",c\\r\\n')
    ['a b', 'c']
    """
    import csv

    text = head.removeprefix(b"\xef\xbb\xbf").lstrip(b"\r\n \t")
    end = text.find(b"\n")
    if end < 0:
        return None
    line = text[:end].rstrip(b"\r").decode("utf-8", errors="replace")
    try:
        return next(csv.reader([line], delimiter=sep), None)
    except csv.Error:
        return None


def _some(columns: list[str], limit: int = 8) -> str:
    """The first few column names (messages stay short for wide files)."""
    shown = ", ".join(quote(c, 30)[1:-1] if len(c) <= 30 else quote(c, 30) for c in
                      columns[:limit])
    return shown + (f", ... ({len(columns)} columns)" if len(columns) > limit else "")


#: what a column of dates, times or durations holds, by numpy kind
_TIME_KINDS = {"M": "a date or time", "m": "a duration"}


def _numeric_column(
    values: Any, role: str, col: str, name: str, first: int, unit: str,
    *, nonnegative: bool = False,
) -> np.ndarray:
    """A finite float64 vector, or an error naming the first bad row."""
    arr = np.asarray(values)
    if arr.dtype.kind in "biu":
        out = arr.astype(np.float64)
    elif arr.dtype.kind == "f":
        out = arr.astype(np.float64, copy=False)
    elif arr.dtype.kind in _TIME_KINDS and arr.size:
        raise MeasurelabError(
            f"{name}, {unit} {first}: the {role} column {quote(col)} holds "
            f"{_TIME_KINDS[arr.dtype.kind]} ({quote(arr[0])}), not a number"
        )
    else:
        out, bad = parse_number_array(arr)
        if bad is not None:
            v = arr[bad]
            what = "" if isinstance(v, str | bytes) else f" (a {type(v).__name__})"
            raise MeasurelabError(
                f"{name}, {unit} {first + bad}: the {role} {quote(v)}{what} in column "
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


#: kinds of values (pandas' ``infer_dtype``) that are not class labels
_NOT_LABELS = {"datetime64": "a date or time", "datetime": "a date or time",
               "date": "a date", "time": "a time of day", "timedelta64": "a duration",
               "timedelta": "a duration", "period": "a period", "interval": "an interval",
               "complex": "a complex number"}


def _bad_label(v: Any) -> str | None:
    """What a label value is when it cannot be a class label (a list, a mapping, an
    array, a date), else None."""
    import datetime

    if isinstance(v, list | tuple | dict | set | frozenset | np.ndarray):
        return f"a {type(v).__name__}"
    if isinstance(v, datetime.date | datetime.time | datetime.timedelta | np.datetime64
                  | np.timedelta64):
        return "a date or time"
    if isinstance(v, complex | np.complexfloating):
        return "a complex number"
    return None


def _label_column(values: Any, col: str, name: str, first: int, unit: str) -> np.ndarray:
    """Class labels: numbers, text or booleans; a missing label, an infinite one, or a
    date, list, mapping or complex number is an error naming its row."""
    import pandas as pd

    arr = np.asarray(values)
    if arr.dtype.kind in "mMc" and arr.size:
        what = _TIME_KINDS.get(arr.dtype.kind, "a complex number")
        raise MeasurelabError(
            f"{name}, {unit} {first}: the label column {quote(col)} holds {what} "
            f"({quote(arr[0])}); class labels are numbers, text or booleans"
        )
    if arr.dtype.kind == "O" and arr.size:
        kind = pd.api.types.infer_dtype(arr, skipna=True)
        bad = [i for i in range(arr.size) if _bad_label(arr[i]) is not None][:1] \
            if kind in ("mixed", *_NOT_LABELS) else []
        if bad:
            i = bad[0]
            raise MeasurelabError(
                f"{name}, {unit} {first + i}: the label {quote(arr[i])} in column "
                f"{quote(col)} is {_bad_label(arr[i])}; class labels are numbers, text or "
                "booleans"
            )
    missing = pd.isna(pd.Series(arr)).to_numpy() if arr.dtype.kind in "fOUS" else None
    if missing is not None and missing.any():
        i = int(np.flatnonzero(missing)[0])
        raise MeasurelabError(f"{name}, {unit} {first + i}: the label in column {col!r} is missing")
    if arr.dtype.kind == "f" and np.isinf(arr).any():
        i = int(np.flatnonzero(np.isinf(arr))[0])
        raise MeasurelabError(f"{name}, {unit} {first + i}: the label {arr[i]!r} is not finite")
    return arr


def _frame_chunks(
    frames: Iterable[Any], name: str, label_col: str | None, score_col: str | None,
    weight_col: str | None, header: list[str] | None = None,
) -> Iterator[Chunk]:
    """Chunks from an iterable of DataFrames (CSV, Parquet); rows count from 1.
    ``header`` is the CSV header as written (pandas renames repeated names)."""
    cols: tuple[str, str, str | None] | None = None
    first = 1
    for df in frames:
        if cols is None:
            names = [str(c) for c in df.columns]
            cols = _pick_columns(names, label_col, score_col, weight_col, name)
            check_header(header, names, [c for c in cols if c is not None], name)
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
    header: list[str] | None = None,
) -> Iterator[Chunk]:
    import pandas as pd

    if isinstance(fh, str):  # a path: check the header before reading the rows
        try:
            first = pd.read_csv(fh, sep=sep, nrows=0, float_precision=CSV_FLOATS)
        except pd.errors.EmptyDataError:
            raise MeasurelabError(f"{name} is empty: no header and no rows") from None
        except (UnicodeDecodeError, pd.errors.ParserError) as exc:
            raise MeasurelabError(f"{name}: not readable as CSV text ({_short(exc)})") from None
        names = [str(c) for c in first.columns]
        picked = _pick_columns(names, label_col, score_col, weight_col, name)
        check_header(header, names, [c for c in picked if c is not None], name)
    # every column is read (no usecols) so that a row with more fields than the header is
    # an error, and index_col=False so that pandas does not take a first row with one
    # field too many as an index
    try:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            reader = pd.read_csv(fh, sep=sep, chunksize=chunk_rows, low_memory=False,
                                 index_col=False, float_precision=CSV_FLOATS)
            yield from _frame_chunks(reader, name, label_col, score_col, weight_col, header)
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
    dset = _parquet_dataset(path)
    lab, sc, wc = _pick_columns(dset.schema.names, label_col, score_col, weight_col, path)
    cols = [c for c in (lab, sc, wc) if c is not None]
    check_parts(dset, cols, name)
    yield from _frame_chunks(_parquet_frames(dset, cols, chunk_rows, name), name, lab, sc, wc)


def check_parts(dset: Any, cols: list[str], name: str) -> None:
    """Every part (file) of a Parquet data set holds ``cols``, once each and of the type
    the data set has, or an error naming the part (a folder's schema is its first part's:
    a part without a column would be read as missing values).

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> d = Path(tempfile.mkdtemp())
    >>> pd.DataFrame({"y": [0, 1], "p": [.2, .9]}).to_parquet(d / "a.parquet")
    >>> pd.DataFrame({"y": [0, 1], "q": [.2, .9]}).to_parquet(d / "b.parquet")
    >>> check_parts(_parquet_dataset(d), ["y", "p"], str(d))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: .../b.parquet: no column 'p' in this part of ...
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = list(dset.files)
    if len(files) < 2:
        return
    want = {c: dset.schema.field(c).type for c in cols if c in dset.schema.names}
    for f in files:
        try:
            schema = pq.read_schema(f)
        except (pa.ArrowException, OSError) as exc:
            raise MeasurelabError(f"{f}: not a readable Parquet file ({_short(exc)})") from None
        names = list(schema.names)
        for c in cols:
            if c not in names:
                raise MeasurelabError(
                    f"{f}: no column {quote(c)} in this part of {name} (its columns: "
                    f"{_some(names)})"
                )
            check_unique_columns(names, [c], f)
            got = schema.field(c).type
            if c in want and got != want[c] and not (pa.types.is_null(got)
                                                     or _both_numeric(got, want[c])):
                raise MeasurelabError(
                    f"{f}: column {quote(c)} holds {got} in this part but {want[c]} in the "
                    f"first part of {name}"
                )


def _both_numeric(a: Any, b: Any) -> bool:
    import pyarrow as pa

    def num(t: Any) -> bool:
        return bool(pa.types.is_integer(t) or pa.types.is_floating(t))

    return num(a) and num(b)


def _parquet_frames(dset: Any, cols: list[str], chunk_rows: int, name: str) -> Iterator[Any]:
    """The ``cols`` of a Parquet data set as pandas frames of up to ``chunk_rows`` rows; a
    damaged page is one line naming ``name``."""
    import pyarrow as pa

    batches = dset.to_batches(columns=cols, batch_size=chunk_rows)
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (pa.ArrowException, OSError) as exc:
            raise MeasurelabError(f"{name}: damaged Parquet data ({_short(exc)})") from None
        yield batch.to_pandas()


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
    schema = _parquet_dataset(path).schema
    return _pick_columns(schema.names, label_col, score_col, weight_col, os.fspath(path))


def _parquet_dataset(path: str | os.PathLike[str]) -> Any:
    """The ``pyarrow.dataset.Dataset`` of a Parquet file or folder: the one place that
    decides which files a folder holds, for every reader (``.files``, sorted by path).

    A folder holds every file below it, in sub-folders too, except those whose name or a
    folder's name on the way begins with ``.`` or ``_`` (pyarrow's rule: Spark's and
    Hadoop's ``_SUCCESS``, ``_temporary/`` and ``.crc`` files).

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> d = Path(tempfile.mkdtemp())
    >>> (d / "sub").mkdir(); (d / "_temporary").mkdir(); (d / "_SUCCESS").write_text("")
    0
    >>> for f in ("b.parquet", "sub/a.pq", "_temporary/c.parquet"):
    ...     pd.DataFrame({"y": [0, 1]}).to_parquet(d / f)
    >>> [Path(f).relative_to(d).as_posix() for f in _parquet_dataset(d).files]
    ['b.parquet', 'sub/a.pq']
    """
    import pyarrow as pa
    import pyarrow.dataset as ds

    name = os.fspath(path)
    if not Path(name).exists():
        raise MeasurelabError(f"{name}: no such file or directory")
    try:
        return ds.dataset(name, format="parquet")
    except (pa.ArrowException, OSError) as exc:
        raise MeasurelabError(
            f"{name}: not a readable Parquet data set ({_short(exc)})"
        ) from None
