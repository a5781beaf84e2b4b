"""Binary prediction files: :func:`read_chunks` dispatches a source to its reader, and
:func:`read_score_table` / :func:`evaluate_file` merge the chunks into one score table."""

from __future__ import annotations

import io
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np

from measurelab._util.validation import check_threshold, short_list, short_repr
from measurelab.exceptions import MeasurelabError
from measurelab.io.frames import _read_csv, _read_parquet, csv_header
from measurelab.io.perf import _read_perf
from measurelab.io.sources import (
    DEFAULT_CHUNK_ROWS,
    Chunk,
    Source,
    _check_text,
    _is_regular,
    _open_binary,
    _Prefixed,
    _read_some,
    _short,
    check_chunk_rows,
    check_column,
    check_source,
    detect_format,
    source_name,
)
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.scoretable import ScoreTable


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
    source = check_source(source)
    chunk_rows = check_chunk_rows(chunk_rows)
    label_col = check_column(label_col, "label_col")
    score_col = check_column(score_col, "score_col")
    weight_col = check_column(weight_col, "weight_col")
    kind = detect_format(source, fmt)
    # the checks above run at the call; the reading when the chunks are asked for
    return _chunks(source, kind, label_col, score_col, weight_col, chunk_rows)


def _chunks(source: Source, kind: str, label_col: str | None, score_col: str | None,
            weight_col: str | None, chunk_rows: int) -> Iterator[Chunk]:
    name = source_name(source)
    if kind == "parquet":
        if not isinstance(source, str | os.PathLike):
            raise MeasurelabError("Parquet input must be a file or directory, not a stream")
        yield from _read_parquet(os.fspath(source), name, chunk_rows, label_col, score_col,
                                 weight_col)
        return
    is_path = isinstance(source, str | os.PathLike) and os.fspath(source) != "-"
    sep = ","
    if is_path:
        p = os.fspath(source)  # type: ignore[arg-type]
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
    if kind in ("auto", "csv"):
        # the whole first non-blank line: it decides the format and holds the header
        while not (head.strip() and b"\n" in head.lstrip()):
            more = _read_some(fh)
            if not more:
                break
            head += more
    if kind == "csv" and is_path and not gz and _is_regular(path):
        yield from _read_csv(path, name, chunk_rows, label_col, score_col, weight_col, sep,
                             csv_header(head, sep))
        return
    if kind == "auto":
        # decide on the first non-blank line: a comma means CSV
        first_line = head.lstrip().split(b"\n", 1)[0]
        kind = "csv" if b"," in first_line else "perf"
    if kind == "csv":
        stream = io.BufferedReader(_Prefixed(head, fh))
        yield from _read_csv(stream, name, chunk_rows,  # type: ignore[arg-type]
                             label_col, score_col, weight_col, sep, csv_header(head, sep))
    else:
        given = [f for f, c in (("--label-col", label_col), ("--score-col", score_col),
                                ("--weight-col", weight_col)) if c is not None]
        if given:
            raise MeasurelabError(
                f"{name} is perf text ('target prediction' lines) with no columns to name; "
                f"{given[0]} applies to CSV and Parquet (pass --format csv if it is CSV)"
            )
        yield from _read_perf(fh, name, chunk_rows, head)


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


def coerce_pos_label(pos_label: Any, y: np.ndarray) -> Any:
    """Match a positive label given as text (command line) to the type of the labels ``y``.

    Text becomes a float when the labels are numbers or booleans (an error when it is not a
    number); any other label is returned unchanged.

    Examples
    --------
    >>> import numpy as np
    >>> coerce_pos_label("1", np.array([0, 1])), coerce_pos_label("yes", np.array(["yes"]))
    (1.0, 'yes')
    """
    if isinstance(pos_label, str) and y.dtype.kind in "biuf":
        from measurelab._util.validation import parse_number

        value = parse_number(pos_label.strip())  # the one rule: '1_0' is not 10
        if value is None:
            raise MeasurelabError(
                f"pos_label={short_repr(pos_label)} is not a valid label; the labels are "
                "numbers"
            )
        return value
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
    from measurelab._util.validation import check_flag

    progress = check_flag(progress, "progress")
    chunks = read_chunks(source, fmt=fmt, label_col=label_col, score_col=score_col,
                         weight_col=weight_col, chunk_rows=chunk_rows)
    name = source_name(source)
    acc = TableAccumulator()
    seen: list[Any] = []
    label = pos_label
    coerced = False
    n = 0
    from measurelab.progress import progress_bar

    bar = progress_bar(None, desc=f"reading {name}", unit="row", enabled=progress,
                       delay=2, unit_scale=True)
    for chunk in chunks:
        bar.update(len(chunk))
        if not coerced:
            label, coerced = coerce_pos_label(pos_label, chunk.y), True
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
    from measurelab._util.validation import check_flag
    from measurelab.measures.compute import compute_measures, resolve_measures

    chosen = resolve_measures(measures)  # unknown names fail before any reading
    threshold = check_threshold(threshold)
    inclusive = check_flag(inclusive, "inclusive")
    table = read_score_table(source, pos_label=pos_label, fmt=fmt, label_col=label_col,
                             score_col=score_col, weight_col=weight_col, chunk_rows=chunk_rows,
                             progress=progress)
    stats = BinaryStats(table=table, threshold=float(threshold), inclusive=inclusive)
    return compute_measures(stats, chosen)
