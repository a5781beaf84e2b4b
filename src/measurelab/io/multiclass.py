"""Multi-class prediction files (one probability column per class): the column and
class-name checks, :class:`ClassMatcher`, and :func:`read_multi_stats` /
:func:`evaluate_multi_file` into merged :class:`~measurelab.stats.bundle.MultiStats`."""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from measurelab._util.validation import short_repr
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.io.binary import _label_list
from measurelab.io.frames import (
    CSV_FLOATS,
    LABEL_NAMES,
    _label_column,
    _numeric_column,
    _parquet_dataset,
    _parquet_frames,
    check_header,
    check_parts,
    check_unique_columns,
    csv_header,
)
from measurelab.io.sources import (
    DEFAULT_CHUNK_ROWS,
    Source,
    _check_text,
    _is_regular,
    _open_binary,
    _Prefixed,
    _read_some,
    check_chunk_rows,
    check_column,
    check_source,
    detect_format,
    source_name,
)


def check_names(values: Any, name: str, *, optional: bool = False) -> list[str] | None:
    """A list of column or class names: non-empty text, each once (``optional``: None
    too), or a one-line error naming ``name``.

    Examples
    --------
    >>> check_names(("a", "b"), "proba_cols")
    ['a', 'b']
    >>> check_names("ab", "proba_cols")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabTypeError: proba_cols must be a list of names, got str 'ab'
    """
    if values is None and optional:
        return None
    if isinstance(values, str | bytes) or not isinstance(values, list | tuple):
        raise MeasurelabTypeError(f"{name} must be a list of names, got "
                                  f"{type(values).__name__} {short_repr(values)}")
    out = list(values)
    for v in out:
        if not isinstance(v, str):
            raise MeasurelabTypeError(f"{name} must hold names (str), got "
                                      f"{type(v).__name__} {short_repr(v)}")
        if not v:
            raise MeasurelabError(f"{name} holds an empty name")
    if len(set(out)) != len(out):
        dup = next(t for t in out if out.count(t) > 1)
        raise MeasurelabError(f"{name} names {dup!r} twice")
    return out


def parse_names(text: str | None, flag: str) -> list[str] | None:
    """A comma-separated list of names (``--proba-cols``, ``--classes``), or None.

    Examples
    --------
    >>> parse_names("c0, c1,c2", "--proba-cols")
    ['c0', 'c1', 'c2']
    """
    if text is None:
        return None
    if not isinstance(text, str):
        raise MeasurelabTypeError(f"{flag} must be text such as a,b,c, got "
                                  f"{type(text).__name__} {short_repr(text)}")
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
    check_unique_columns(columns, [label_col, *proba_cols, *([weight_col] if weight_col
                                                              else [])], name)
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
        if not isinstance(source, str | os.PathLike):
            raise MeasurelabError("Parquet input must be a file or directory, not a stream")
        dset = _parquet_dataset(source)
        cols = needed(list(dset.schema.names))
        check_parts(dset, cols, name)
        yield from _parquet_frames(dset, cols, chunk_rows, name)
        return
    is_path = isinstance(source, str | os.PathLike) and os.fspath(source) != "-"
    path = os.fspath(source) if is_path else ""  # type: ignore[arg-type]
    gz = is_path and path.endswith(".gz")
    sep = "\t" if path.lower().removesuffix(".gz").endswith(".tsv") else ","
    fh, opened = _open_binary(source)
    try:
        # the first bytes: compressed or binary content is named, not parsed as text
        head = _read_some(fh)
        _check_text(head, name, gz)
        # the whole first line: the header as written (pandas renames repeated names)
        while not (head.strip() and b"\n" in head.lstrip()):
            more = _read_some(fh)
            if not more:
                break
            head += more
        raw = csv_header(head, sep)

        def pick(columns: Any) -> list[str]:
            got = [str(c) for c in columns]
            cols = needed(got)
            check_header(raw, got, cols, name)
            return cols

        if is_path and _is_regular(path):
            # a regular file may be opened again: pandas reads the header, then the rows
            if opened:
                fh.close()
                opened = False
            with _csv_errors(name):
                header = pd.read_csv(path, sep=sep, nrows=0, float_precision=CSV_FLOATS)
                cols = pick(header.columns)
                yield from pd.read_csv(path, sep=sep, usecols=cols, chunksize=chunk_rows,
                                       low_memory=False, float_precision=CSV_FLOATS)
            return
        # a stream, stdin or a named pipe: read once, the header with the first chunk
        if not head.strip():
            raise MeasurelabError(f"{name} is empty: no header and no rows")
        first_line = head.lstrip().split(b"\n", 1)[0]
        if kind == "auto" and b"," not in first_line:
            raise MeasurelabError(
                f"{name}: multi-class input (--proba-cols) must be CSV with a header; the "
                "first line has no comma"
            )
        stream = io.BufferedReader(_Prefixed(head, fh))
        checked = False
        with _csv_errors(name):
            for df in pd.read_csv(stream, sep=sep, chunksize=chunk_rows, low_memory=False,
                                  float_precision=CSV_FLOATS):
                if not checked:
                    cols = pick(df.columns)
                    checked = True
                yield df[cols]
        if not checked:
            raise MeasurelabError(f"{name} is empty: no header and no rows")
    finally:
        if opened:
            fh.close()


@contextmanager
def _csv_errors(name: str) -> Iterator[None]:
    """pandas' and the text decoder's errors as one-line :class:`MeasurelabError`s."""
    import pandas as pd

    try:
        yield
    except pd.errors.EmptyDataError:
        raise MeasurelabError(f"{name} is empty: no header and no rows") from None
    except pd.errors.ParserError as exc:
        msg = str(exc).strip().splitlines()[-1] if str(exc).strip() else "malformed CSV"
        raise MeasurelabError(f"{name}: {msg}") from None
    except UnicodeDecodeError as exc:
        raise MeasurelabError(
            f"{name} is not UTF-8 text (byte {exc.start} cannot be decoded); expected CSV"
        ) from None


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
    from measurelab.metrics.evaluation import check_two_columns, multi_stats_from_indices
    from measurelab.stats.probrows import SUM_TOLERANCE, settle_rows, sum_message

    y = _label_column(df[label_col].to_numpy(), label_col, name, first, "row")
    yi = matcher.indices(y, label_col, name, first)
    P = _probability_matrix(df, proba_cols, name, first)
    P, _ = settle_rows(P, name, first)
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
                f"{name}, row {first + i}: the two --proba-cols sum to "
                f"{sum_message(P[i].sum())}, not 1 (tolerance {SUM_TOLERANCE:g}), so they "
                "are not class probabilities; to compare two models pass several "
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
    source = check_source(source)
    proba_cols = check_names(proba_cols, "proba_cols")  # type: ignore[assignment]
    classes = check_names(classes, "classes", optional=True)
    label_col = check_column(label_col, "label_col")
    weight_col = check_column(weight_col, "weight_col")
    chunk_rows = check_chunk_rows(chunk_rows)
    detect_format(source, fmt)
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
    from measurelab.measures.compute import compute_measures, resolve_measures

    chosen = resolve_measures(measures)  # unknown names fail before any reading
    stats = read_multi_stats(source, proba_cols=proba_cols, classes=classes,
                             label_col=label_col, weight_col=weight_col, fmt=fmt,
                             chunk_rows=chunk_rows)
    return compute_measures(stats, chosen, average=average)


def parse_proba_groups(texts: list[str] | None, flag: str = "--proba-cols"
                       ) -> list[tuple[str | None, list[str]]]:
    """Column groups of repeated ``--proba-cols [NAME=]C1,C2,...`` options: one model's
    probability columns each, with the model's name when given.

    Examples
    --------
    >>> parse_proba_groups(["lr=lr_a,lr_b,lr_c", "rf_a,rf_b,rf_c"])
    [('lr', ['lr_a', 'lr_b', 'lr_c']), (None, ['rf_a', 'rf_b', 'rf_c'])]
    """
    out: list[tuple[str | None, list[str]]] = []
    for text in texts or []:
        name: str | None = None
        cols = text
        if "=" in text:
            name, cols = (t.strip() for t in text.split("=", 1))
            if not name:
                raise MeasurelabError(f"{flag} {text!r} has an empty model name before '='; "
                                      "give NAME=C1,C2,...")
        names = parse_names(cols, flag)
        assert names is not None
        out.append((name, names))
    return out


def group_names(groups: list[tuple[str | None, list[str]]]) -> list[str]:
    """A model name for every column group: the name given, else the text its columns
    share at the start without a trailing separator (``lr_a, lr_b`` → ``lr``), else
    ``model1``, ``model2``, ...; names must differ.

    Examples
    --------
    >>> group_names([(None, ["lr_a", "lr_b"]), ("forest", ["c1", "c2"]), (None, ["x", "y"])])
    ['lr', 'forest', 'model3']
    """
    names: list[str] = []
    for i, (given, cols) in enumerate(groups):
        name = given
        if name is None:
            name = _common_prefix(cols).rstrip("_-.: ")
            if not name or name in cols:
                name = f"model{i + 1}"
        if name in names:
            raise MeasurelabError(
                f"--proba-cols: two column groups are both named {name!r}; name each model "
                "with NAME=C1,C2,...")
        names.append(name)
    return names


def group_classes(groups: list[tuple[str | None, list[str]]], names: list[str],
                  classes: list[str] | None, k: int
                  ) -> tuple[list[str], ClassMatcher, str | None]:
    """The class names of ``--proba-cols`` groups (``classes``, or the text of the first
    group's columns after what they share; a group naming them in another order is put in
    that order, in place), the matcher of labels to classes, and the message of groups
    naming different classes (None: they agree).

    Examples
    --------
    >>> g = [(None, ["a_x", "a_y", "a_z"]), (None, ["b_z", "b_x", "b_y"])]
    >>> group_classes(g, ["a", "b"], None, 3)[0], g[1][1]
    (['x', 'y', 'z'], ['b_x', 'b_y', 'b_z'])
    """
    mismatch = None
    if classes is not None:
        if len(classes) != k:
            raise MeasurelabError(
                f"--classes names {len(classes)} classes but each --proba-cols group has {k} "
                "columns")
        matcher = ClassMatcher(classes, strip_prefix=False)
        class_names = list(classes)
    else:
        stripped = []
        for _g, cols in groups:
            m = ClassMatcher(cols)
            stripped.append(m.stripped if m.stripped is not None else list(cols))
        class_names = list(stripped[0])
        for i, s in enumerate(stripped[1:], start=1):
            if s == class_names:
                continue
            if sorted(s) == sorted(class_names):  # the same classes in another order
                given, cols = groups[i]
                groups[i] = (given, [cols[s.index(c)] for c in class_names])
                continue
            mismatch = (
                f"--proba-cols: the column groups name different classes ({names[0]!r}: "
                f"{', '.join(class_names)}; {names[i]!r}: {', '.join(s)}); give the class "
                "names with --classes")
            break
        matcher = ClassMatcher(class_names, strip_prefix=False) if len(groups) > 1 \
            else ClassMatcher(groups[0][1])
    return class_names, matcher, mismatch


def read_multi_models(
    source: Source,
    *,
    groups: list[tuple[str | None, list[str]]],
    classes: list[str] | None = None,
    label_col: str | None = None,
    weight_col: str | None = None,
    fmt: str = "auto",
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
) -> tuple[np.ndarray, dict[str, np.ndarray], list[str], np.ndarray | None]:
    """Read a k-class prediction file holding several models' probability columns (one
    group of k columns per model) in one pass, for a comparison.

    Class names are ``classes``, or each group's column names without the text the group's
    columns share (``lr_a, lr_b, lr_c`` → a, b, c), which must name the same classes in
    every group (a group naming them in another order is put in the first group's order);
    a label matches a class as :class:`ClassMatcher` says. Every probability is checked
    (finite, in [0, 1]) with its row and column named.

    Returns
    -------
    y : ndarray of the class names of each row's label
    models : {name: (n, k) probabilities}
    classes : the class names, in column order
    weight : ndarray or None

    Examples
    --------
    >>> import io
    >>> data = b"y,a0,a1,a2,b0,b1,b2\\n0,.7,.2,.1,.5,.3,.2\\n2,.1,.3,.6,.2,.2,.6\\n"
    >>> y, models, classes, w = read_multi_models(
    ...     io.BytesIO(data), groups=[(None, ["a0", "a1", "a2"]), (None, ["b0", "b1", "b2"])])
    >>> y.tolist(), list(models), classes
    (['0', '2'], ['a', 'b'], ['0', '1', '2'])
    """
    source = check_source(source)
    if isinstance(groups, str | bytes) or not isinstance(groups, list | tuple):
        raise MeasurelabTypeError(f"groups must be a list of (name, columns) pairs, got "
                                  f"{type(groups).__name__} {short_repr(groups)}")
    for g in groups:
        if not isinstance(g, list | tuple) or len(g) != 2 or \
                not (g[0] is None or isinstance(g[0], str)):
            raise MeasurelabTypeError(f"groups must hold (name or None, columns) pairs, got "
                                      f"{short_repr(g)}")
        check_names(g[1], "groups' columns")
    classes = check_names(classes, "classes", optional=True)
    label_col = check_column(label_col, "label_col")
    weight_col = check_column(weight_col, "weight_col")
    chunk_rows = check_chunk_rows(chunk_rows)
    detect_format(source, fmt)
    name = source_name(source)
    if not groups:
        raise MeasurelabError("--proba-cols: give one column group per model")
    groups = [(g[0], list(g[1])) for g in groups]
    names = group_names(groups)
    widths = {len(cols) for _n, cols in groups}
    if len(widths) > 1:
        shown = ", ".join(f"{n!r} {len(c)}" for n, (_g, c) in zip(names, groups, strict=True))
        raise MeasurelabError(
            f"--proba-cols: the models give different numbers of classes (columns: {shown}); "
            "give every model one column per class, in the same class order")
    k = widths.pop()
    if k < 3:
        raise MeasurelabError(
            f"--proba-cols names {k} columns per model; a k-class comparison needs at least "
            "three (for binary scores use one --score-col per model)")
    seen: set[str] = set()
    for (_given, cols), model in zip(groups, names, strict=True):
        for c in cols:
            if c in seen:
                raise MeasurelabError(
                    f"--proba-cols: column {c!r} is in two column groups (model {model!r} "
                    "and another); every model needs its own columns")
            seen.add(c)
    class_names, matcher, mismatch = group_classes(groups, names, classes, k)
    every = [c for _n, cols in groups for c in cols]
    chosen: dict[str, Any] = {}

    def needed(columns: list[str]) -> list[str]:
        for (_g, cols), model in zip(groups, names, strict=True):
            try:
                multi_columns(columns, cols, label_col, weight_col, name)
            except MeasurelabError as exc:
                msg = str(exc)
                if "no column" in msg and any(f"{c!r}" in msg for c in cols):
                    msg += f" — in the --proba-cols group of model {model!r}"
                raise MeasurelabError(msg) from None
        if mismatch is not None:  # after the columns: a missing one is the clearer answer
            raise MeasurelabError(mismatch)
        lab, wc = multi_columns(columns, every, label_col, weight_col, name)
        chosen.update(label=lab, weight=wc)
        return [lab, *every, *([wc] if wc else [])]

    ys: list[np.ndarray] = []
    Ps: dict[str, list[np.ndarray]] = {n: [] for n in names}
    ws: list[np.ndarray] = []
    first = 1
    for df in _multi_frames(source, fmt, chunk_rows, needed):
        if len(df):
            y = _label_column(df[chosen["label"]].to_numpy(), chosen["label"], name, first,
                              "row")
            ys.append(matcher.indices(y, chosen["label"], name, first))
            for (_g, cols), model in zip(groups, names, strict=True):
                Ps[model].append(_probability_matrix(df, cols, name, first))
            if chosen["weight"] is not None:
                ws.append(_numeric_column(df[chosen["weight"]].to_numpy(), "weight",
                                          chosen["weight"], name, first, "row",
                                          nonnegative=True))
        first += len(df)
    if not ys:
        raise MeasurelabError(f"{name} is empty: no predictions to evaluate")
    yi = np.concatenate(ys)
    labels = np.array(class_names, dtype=object)
    return (labels[yi], {n: np.concatenate(p) for n, p in Ps.items()}, class_names,
            np.concatenate(ws) if ws else None)
