"""CSV and Parquet: choosing the label, score and weight columns, validating numeric and
label columns, and turning DataFrames of rows into chunks."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np

from measurelab._util.validation import parse_number, quote
from measurelab.exceptions import MeasurelabError
from measurelab.io.sources import Chunk, _short

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
    yield from _frame_chunks(_parquet_frames(dset, cols, chunk_rows, name), name, lab, sc, wc)


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
