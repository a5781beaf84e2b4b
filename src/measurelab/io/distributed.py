"""Evaluate a partitioned Parquet data set on a Dask distributed cluster.

Every Parquet row group becomes one task that reads two (or three) columns and builds the
row group's :class:`~measurelab.stats.scoretable.ScoreTable`; the tables are merged on the
cluster in a balanced tree and the measures are computed once from the merged table. The
score table of disjoint parts merges into the table of the union, so the result equals a
single-machine :func:`measurelab.evaluate` on all rows exactly: counts (and integer weights)
add exactly in floating point. With fractional ``weight_col`` values the weight sums may
differ from a one-pass sum in the last bit (addition order).

k-class data (one probability column per class, :func:`evaluate_parquet_multi`) works the
same way with :class:`~measurelab.stats.bundle.MultiStats` per row group, merged in
partition order.

:func:`compare_parquet` compares several binary models (one score column each) with
intervals and paired tests in two passes over the row groups
(:mod:`measurelab.inference.classifiers.distributed`): the values equal the one-machine
comparison's exactly, the intervals to rounding.

The workers read the files themselves, so every worker must see ``path`` (a shared or
local disk; the loopback ``LocalCluster`` of the tests does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from measurelab._util.cluster import CONNECT_TIMEOUT, connect  # noqa: F401  (their public face)
from measurelab.exceptions import MeasurelabError
from measurelab.io.frames import (
    _label_column,
    _numeric_column,
    _parquet_dataset,
    check_parts,
    check_unique_columns,
)
from measurelab.io.sources import _short
from measurelab.measures.compute import EvaluationResult, MeasureSpec, compute_measures
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.scoretable import ScoreTable


def _check_path(path: Any) -> str:
    """A Parquet file or folder given as a non-empty str or PathLike."""
    import os

    from measurelab._util.validation import short_repr
    from measurelab.exceptions import MeasurelabTypeError

    if not isinstance(path, str | os.PathLike) or isinstance(os.fspath(path), bytes):
        raise MeasurelabTypeError(f"path must be a Parquet file or folder (str or Path), got "
                                  f"{type(path).__name__} {short_repr(path)}")
    if not os.fspath(path).strip():
        raise MeasurelabError("path is empty; give a Parquet file or folder")
    return os.fspath(path)


def _check_scheduler(scheduler: Any) -> Any:
    """None, a scheduler address (non-empty text) or a ``distributed`` Client/cluster."""
    from measurelab._util.validation import short_repr
    from measurelab.exceptions import MeasurelabTypeError

    if scheduler is None or hasattr(scheduler, "submit") or hasattr(scheduler, "scheduler"):
        return scheduler
    if not isinstance(scheduler, str):
        raise MeasurelabTypeError(f"scheduler must be an address such as tcp://host:8786, a "
                                  f"distributed Client or None, got {type(scheduler).__name__}"
                                  f" {short_repr(scheduler)}")
    if not scheduler.strip():
        raise MeasurelabError("scheduler is empty; give an address such as tcp://host:8786")
    return scheduler


def parquet_parts(path: str | Path) -> list[tuple[str, int]]:
    """``(file, row_group)`` pairs of a Parquet file or a folder of them (recursively; the
    files every reader of :mod:`measurelab.io` reads: names beginning with ``.`` or ``_``,
    such as ``_SUCCESS``, are left out).

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> d = Path(tempfile.mkdtemp())
    >>> pd.DataFrame({"y": [0, 1], "s": [0.2, 0.9]}).to_parquet(d / "a.parquet")
    >>> [(Path(f).name, g) for f, g in parquet_parts(d)]
    [('a.parquet', 0)]
    """
    return _row_groups(_parquet_dataset(path).files, path)


def _row_groups(files: list[str], path: str | Path) -> list[tuple[str, int]]:
    """``(file, row_group)`` of every row group of ``files`` (those of ``path``); a file
    that is not Parquet is an error naming it."""
    import pyarrow.parquet as pq

    parts: list[tuple[str, int]] = []
    for f in files:
        try:
            n = pq.ParquetFile(f).metadata.num_row_groups
        except (OSError, ValueError) as exc:  # ArrowInvalid is a ValueError
            raise MeasurelabError(f"{f}: not a readable Parquet file ({_short(exc)})") from None
        parts.extend((str(f), g) for g in range(n))
    if not parts:
        raise MeasurelabError(f"no Parquet row groups under {str(path)!r}")
    return parts


def _read_row_group(file: str, row_group: int, cols: list[str]) -> Any:
    """The columns ``cols`` of one row group of ``file`` (a pyarrow Table), or a one-line
    error naming the part: a column it lacks (with the columns it has), a column given
    twice, damaged data."""
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(file)
    names = list(pf.schema_arrow.names)
    missing = [c for c in cols if c not in names]
    if missing:
        raise MeasurelabError(
            f"{file}: no column {missing[0]!r} in this part (its columns: "
            f"{', '.join(names[:20])})"
        )
    check_unique_columns(names, cols, file)
    try:
        return pf.read_row_group(row_group, columns=cols)
    except (OSError, ValueError) as exc:  # a damaged page: ArrowInvalid, OSError
        raise MeasurelabError(
            f"{file}, row group {row_group}: damaged Parquet data ({_short(exc)})"
        ) from None


def part_table(
    file: str, row_group: int, label_col: str, score_col: str, pos_label: Any,
    weight_col: str | None = None,
) -> tuple[ScoreTable, list[Any]]:
    """The score table of one row group and the labels it holds.

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> f = Path(tempfile.mkdtemp()) / "a.parquet"
    >>> pd.DataFrame({"y": [0, 1, 1], "s": [0.2, 0.9, 0.9]}).to_parquet(f)
    >>> table, labels = part_table(str(f), 0, "y", "s", 1)
    >>> labels, table.scores.tolist(), table.pos.tolist()
    ([0, 1], [0.2, 0.9], [0.0, 2.0])
    """
    from measurelab._util.validation import binarize, unique_labels

    t = _read_row_group(file, row_group,
                        [label_col, score_col] + ([weight_col] if weight_col else []))
    if t.num_rows == 0:
        return ScoreTable.empty(), []
    where = f"{file}, row group {row_group}"
    y_raw = _label_column(t.column(label_col).to_numpy(zero_copy_only=False), label_col,
                          where, 1, "row")
    labels = unique_labels(y_raw).tolist()
    if len(labels) > 2:  # the driver reports it
        return ScoreTable.empty(), labels
    y = binarize(y_raw, pos_label)
    s = _numeric_column(t.column(score_col).to_numpy(zero_copy_only=False), "score",
                        score_col, where, 1, "row")
    w = (_numeric_column(t.column(weight_col).to_numpy(zero_copy_only=False), "weight",
                         weight_col, where, 1, "row", nonnegative=True)
         if weight_col else None)
    return ScoreTable.from_arrays(y, s, w), labels


def _merge(*parts: tuple[ScoreTable, list[Any]]) -> tuple[ScoreTable, list[Any]]:
    table = ScoreTable.empty()
    labels: set[Any] = set()
    for t, lab in parts:
        table = table.merge(t)
        labels.update(lab)
    return table, sorted(labels, key=repr)


def evaluate_parquet(
    path: str | Path,
    *,
    scheduler: Any,
    label_col: str,
    score_col: str,
    measures: Iterable[MeasureSpec] | MeasureSpec | None = None,
    threshold: float = 0.5,
    pos_label: Any = 1,
    weight_col: str | None = None,
    inclusive: bool = False,
) -> EvaluationResult:
    """Binary evaluation of a (partitioned) Parquet data set, one task per row group.

    Parameters
    ----------
    path : a Parquet file or a folder of Parquet files (searched recursively)
    scheduler : a Dask scheduler address (``"tcp://127.0.0.1:8786"``), a
        ``distributed.Client`` or ``LocalCluster``, or ``None`` to run in this process
    label_col, score_col : columns of the true label and the score
    measures, threshold, pos_label, inclusive : as in :func:`measurelab.evaluate`
    weight_col : optional column of sample weights

    Returns
    -------
    EvaluationResult
        Equal to ``measurelab.evaluate`` on all rows at once.

    Examples
    --------
    >>> import tempfile, pandas as pd, measurelab as ml
    >>> d = Path(tempfile.mkdtemp())
    >>> df = pd.DataFrame({"y": [0, 1, 1, 0], "s": [0.2, 0.7, 0.4, 0.1]})
    >>> df[:2].to_parquet(d / "p0.parquet"); df[2:].to_parquet(d / "p1.parquet")
    >>> r = evaluate_parquet(d, scheduler=None, label_col="y", score_col="s",
    ...                      measures=["acc", "auc"])
    >>> dict(r) == dict(ml.evaluate(df.y, df.s, measures=["acc", "auc"]))
    True
    """
    from measurelab._util.validation import check_flag, check_threshold
    from measurelab.io.sources import check_column

    path = _check_path(path)
    scheduler = _check_scheduler(scheduler)
    for col, what in ((label_col, "label_col"), (score_col, "score_col")):
        if check_column(col, what) is None:
            raise MeasurelabError(f"{what} is None; name the column (parquet_columns finds "
                                  "the usual names)")
    check_column(weight_col, "weight_col")
    threshold = check_threshold(threshold)
    inclusive = check_flag(inclusive, "inclusive")
    dset = _parquet_dataset(path)
    parts = _row_groups(dset.files, path)
    check_parts(dset, [c for c in (label_col, score_col, weight_col) if c is not None],
                str(path))
    args = (label_col, score_col, pos_label, weight_col)
    if scheduler is None:
        table, labels = _merge(*(part_table(f, g, *args) for f, g in parts))
    else:
        table, labels = _on_cluster(scheduler, parts, args)
    if len(labels) > 2:
        raise MeasurelabError(
            f"{label_col!r} holds {len(labels)} classes; binary evaluation needs two"
        )
    if len(labels) == 2 and pos_label not in labels:
        raise MeasurelabError(
            f"pos_label={pos_label!r} is not a valid label. It should be one of {labels}"
        )
    stats = BinaryStats(table=table, threshold=float(threshold), inclusive=inclusive)
    return compute_measures(stats, measures)


def _on_cluster(scheduler: Any, parts: list[tuple[str, int]], args: tuple[Any, ...]
                ) -> tuple[ScoreTable, list[Any]]:
    return _reduce_on_cluster(scheduler, parts, part_table, _merge, args)


def _reduce_on_cluster(scheduler: Any, parts: list[tuple[str, int]], part: Any, merge: Any,
                       args: tuple[Any, ...]) -> Any:
    """``part(file, row_group, *args)`` for every part on the cluster, merged by ``merge``
    in a balanced tree in partition order (one part is passed through ``merge`` too)."""
    from distributed import Client

    if isinstance(scheduler, Client):
        client, own = scheduler, False
    else:
        client, own = connect(scheduler), True
    try:
        futs = [client.submit(part, f, g, *args, pure=False) for f, g in parts]
        while len(futs) > 1:  # balanced tree of merges, in partition order
            futs = [client.submit(merge, *futs[i:i + 2], pure=False)
                    for i in range(0, len(futs), 2)]
        if len(futs) == 1 and len(parts) == 1:
            futs = [client.submit(merge, futs[0], pure=False)]
        return futs[0].result()
    finally:
        if own:
            client.close()


def part_multi_stats(
    file: str, row_group: int, label_col: str, proba_cols: list[str],
    classes: list[str] | None, weight_col: str | None = None,
) -> Any:
    """The k-class statistics (:class:`~measurelab.stats.bundle.MultiStats`) of one row
    group, or None when it is empty; rows are numbered within the row group.

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> f = Path(tempfile.mkdtemp()) / "a.parquet"
    >>> pd.DataFrame({"y": ["a", "b"], "a": [.8, .3], "b": [.2, .7]}).to_parquet(f)
    >>> part_multi_stats(str(f), 0, "y", ["a", "b"], None).counts.matrix.tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    from measurelab.io import ClassMatcher, multi_frame_stats

    t = _read_row_group(file, row_group, [label_col, *proba_cols]
                        + ([weight_col] if weight_col else []))
    if t.num_rows == 0:
        return None
    matcher = ClassMatcher(classes if classes is not None else proba_cols,
                           strip_prefix=classes is None)
    return multi_frame_stats(t.to_pandas(), label_col=label_col, proba_cols=proba_cols,
                             matcher=matcher, weight_col=weight_col,
                             name=f"{Path(file).name}, row group {row_group}", first=1)


def _merge_multi(*parts: Any) -> Any:
    out: Any = None
    for p in parts:
        if p is not None:
            out = p if out is None else out.merge(p)
    return out


def evaluate_parquet_multi(
    path: str | Path,
    *,
    scheduler: Any,
    proba_cols: list[str],
    classes: list[str] | None = None,
    label_col: str | None = None,
    weight_col: str | None = None,
    measures: Iterable[MeasureSpec] | MeasureSpec | None = None,
    average: str | None = "macro",
) -> EvaluationResult:
    """k-class evaluation of a (partitioned) Parquet data set with one probability column
    per class, one task per row group; the statistics merge in partition order, so the
    result equals :func:`measurelab.io.evaluate_multi_file` on the same data.

    Examples
    --------
    >>> import tempfile, pandas as pd, measurelab as ml
    >>> d = Path(tempfile.mkdtemp())
    >>> df = pd.DataFrame({"y": [0, 1, 2, 2], "c0": [.6, .2, .1, .3], "c1": [.3, .5, .1, .4],
    ...                    "c2": [.1, .3, .8, .3]})
    >>> df[:2].to_parquet(d / "p0.parquet"); df[2:].to_parquet(d / "p1.parquet")
    >>> r = evaluate_parquet_multi(d, scheduler=None, proba_cols=["c0", "c1", "c2"],
    ...                            measures=["acc", "mxe"])
    >>> r["mxe"] == ml.evaluate(df.y, df[["c0", "c1", "c2"]], measures=["mxe"])["mxe"]
    True
    """
    from measurelab.io import multi_columns
    from measurelab.io.multiclass import check_names
    from measurelab.io.sources import check_column

    path = _check_path(path)
    scheduler = _check_scheduler(scheduler)
    proba_cols = check_names(proba_cols, "proba_cols")  # type: ignore[assignment]
    classes = check_names(classes, "classes", optional=True)
    label_col = check_column(label_col, "label_col")
    weight_col = check_column(weight_col, "weight_col")
    dset = _parquet_dataset(path)
    parts = _row_groups(dset.files, path)
    label_col, weight_col = multi_columns(dset.schema.names, proba_cols, label_col, weight_col,
                                          str(path))
    check_parts(dset, [label_col, *proba_cols, *([weight_col] if weight_col else [])],
                str(path))
    if classes is not None and len(classes) != len(proba_cols):
        raise MeasurelabError(
            f"--classes names {len(classes)} classes but --proba-cols {len(proba_cols)} columns"
        )
    args = (label_col, proba_cols, classes, weight_col)
    if scheduler is None:
        stats = _merge_multi(*(part_multi_stats(f, g, *args) for f, g in parts))
    else:
        stats = _on_cluster_multi(scheduler, parts, args)
    if stats is None:
        raise MeasurelabError(f"{str(path)!r} holds no rows to evaluate")
    return compute_measures(stats, measures, average=average)


def _on_cluster_multi(scheduler: Any, parts: list[tuple[str, int]], args: tuple[Any, ...]
                      ) -> Any:
    return _reduce_on_cluster(scheduler, parts, part_multi_stats, _merge_multi, args)


# ----------------------------------------------------------------- comparing models
def comparison_part(file: str, row_group: int, label_col: str, score_cols: list[str],
                    weight_col: str | None = None) -> tuple[Any, list[Any], Any]:
    """Labels, every model's scores and the weights of one row group (what a comparison
    over parts reads on a worker), checked as :func:`part_table` checks them.

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> f = Path(tempfile.mkdtemp()) / "a.parquet"
    >>> pd.DataFrame({"y": [0, 1], "a": [.2, .9], "b": [.4, .6]}).to_parquet(f)
    >>> y, (a, b), w = comparison_part(str(f), 0, "y", ["a", "b"])
    >>> y.tolist(), b.tolist(), w
    ([0, 1], [0.4, 0.6], None)
    """
    t = _read_row_group(file, row_group,
                        [label_col, *score_cols] + ([weight_col] if weight_col else []))
    where = f"{file}, row group {row_group}"
    y = _label_column(t.column(label_col).to_numpy(zero_copy_only=False), label_col,
                      where, 1, "row")
    scores = [_numeric_column(t.column(c).to_numpy(zero_copy_only=False), "score", c, where,
                              1, "row") for c in score_cols]
    w = (_numeric_column(t.column(weight_col).to_numpy(zero_copy_only=False), "weight",
                         weight_col, where, 1, "row", nonnegative=True)
         if weight_col else None)
    return y, scores, w


def _apply(task: Any, index: int, part: Any, shared: tuple[Any, ...]) -> Any:
    return task(index, part, *shared)


class _OnCluster:
    """The ``map_reduce`` of :func:`~measurelab.inference.classifiers.distributed.
    compare_parts` on a ``distributed`` Client: the shared arguments are sent to every
    worker once, each part is one task, the results merge in a balanced tree in part
    order (the tree :func:`~measurelab.inference.classifiers.partitioned.tree_merge`
    builds on one machine)."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def __call__(self, task: Any, parts: Sequence[Any], merge: Any, shared: tuple) -> Any:
        c = self.client
        sent = c.scatter([shared], broadcast=True, hash=False)[0]
        futs = [c.submit(_apply, task, i, p, sent, pure=False) for i, p in enumerate(parts)]
        if len(futs) == 1:
            futs = [c.submit(merge, futs[0], pure=False)]
        while len(futs) > 1:
            futs = [c.submit(merge, *futs[i:i + 2], pure=False)
                    for i in range(0, len(futs), 2)]
        return futs[0].result()


def compare_parquet(
    path: str | Path,
    *,
    scheduler: Any,
    score_cols: list[str],
    label_col: str | None = None,
    weight_col: str | None = None,
    **options: Any,
) -> Any:
    """Compare binary models stored as score columns of a (partitioned) Parquet data set,
    one task per row group in each of two passes (:func:`~measurelab.inference.
    classifiers.distributed.compare_parts`).

    Parameters
    ----------
    path : a Parquet file or a folder of Parquet files (searched recursively)
    scheduler : a Dask scheduler address, a ``distributed.Client`` or ``LocalCluster``,
        or ``None`` to run in this process
    score_cols : one score column per model (the models are named by them)
    label_col, weight_col : the label column (found among the usual names when None) and
        an optional weight column
    **options : ``measures``, ``ci``, ``n_boot``, ``random_state``, ``ci_method``,
        ``threshold``, ``pos_label``, ``inclusive``, ``stratify`` as in
        :func:`measurelab.compare_classifiers`

    Returns
    -------
    DistributedComparison
        Values equal to ``compare_classifiers`` on all rows exactly; intervals and tests
        equal to rounding (the Poisson bootstrap where a method resamples).

    Examples
    --------
    >>> import tempfile, numpy as np, pandas as pd, measurelab as ml
    >>> d = Path(tempfile.mkdtemp())
    >>> df = pd.DataFrame({"y": [0, 1, 1, 0] * 10, "a": np.linspace(0, 1, 40),
    ...                    "b": np.linspace(1, 0, 40)})
    >>> df[:20].to_parquet(d / "p0.parquet"); df[20:].to_parquet(d / "p1.parquet")
    >>> r = compare_parquet(d, scheduler=None, score_cols=["a", "b"], measures=["acc"])
    >>> whole = ml.compare_classifiers(df.y, {"a": df.a, "b": df.b}, measures=["acc"])
    >>> r.to_json() == whole.to_json()
    True
    """
    from functools import partial

    from measurelab.inference.classifiers.distributed import compare_parts
    from measurelab.io.frames import _pick_columns
    from measurelab.io.multiclass import check_names
    from measurelab.io.sources import check_column

    path = _check_path(path)
    scheduler = _check_scheduler(scheduler)
    score_cols = check_names(score_cols, "score_cols")  # type: ignore[assignment]
    if not score_cols:
        raise MeasurelabError("score_cols is empty; give one score column per model")
    label_col = check_column(label_col, "label_col")
    weight_col = check_column(weight_col, "weight_col")
    dset = _parquet_dataset(path)
    for c in score_cols:
        label, _s, weight = _pick_columns(dset.schema.names, label_col, c, weight_col,
                                          str(path))
    parts = _row_groups(dset.files, path)
    check_parts(dset, [label, *score_cols, *([weight] if weight else [])], str(path))
    loaders = [partial(comparison_part, f, g, label, list(score_cols), weight)
               for f, g in parts]
    return _compare_on(scheduler, partial(compare_parts, loaders, list(score_cols),
                                          **options))


def _compare_on(scheduler: Any, compare: Any) -> Any:
    """``compare(map_reduce=...)`` in this process (``scheduler`` None) or on the cluster
    (a Client, or one connected to the address for this call)."""
    from measurelab.inference.classifiers.distributed import in_process

    if scheduler is None:
        return compare(map_reduce=in_process)
    from distributed import Client

    if isinstance(scheduler, Client):
        client, own = scheduler, False
    else:   # an address, or a cluster object (LocalCluster)
        client = connect(getattr(scheduler, "scheduler_address", scheduler))
        own = True
    try:
        return compare(map_reduce=_OnCluster(client))
    finally:
        if own:
            client.close()


def comparison_part_multi(file: str, row_group: int, label_col: str,
                          groups: list[list[str]], matcher: Any,
                          weight_col: str | None = None) -> tuple[Any, list[Any], Any]:
    """Class indices, every k-class model's probabilities and the weights of one row
    group, read as :func:`~measurelab.io.read_multi_models` reads a file (``matcher``: the
    :class:`~measurelab.io.ClassMatcher` of its labels to the classes).

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> f = Path(tempfile.mkdtemp()) / "a.parquet"
    >>> pd.DataFrame({"y": ["b", "a"], "p_a": [.2, .7], "p_b": [.8, .3]}).to_parquet(f)
    >>> from measurelab.io import ClassMatcher
    >>> yi, (P,), w = comparison_part_multi(str(f), 0, "y", [["p_a", "p_b"]],
    ...                                     ClassMatcher(["p_a", "p_b"]))
    >>> yi.tolist(), P.tolist()
    ([1, 0], [[0.2, 0.8], [0.7, 0.3]])
    """
    from measurelab.io.multiclass import _probability_matrix

    every = [c for cols in groups for c in cols]
    t = _read_row_group(file, row_group,
                        [label_col, *every] + ([weight_col] if weight_col else []))
    where = f"{file}, row group {row_group}"
    df = t.to_pandas()
    y = _label_column(df[label_col].to_numpy(), label_col, where, 1, "row")
    yi = matcher.indices(y, label_col, where, 1)
    Ps = [_probability_matrix(df, cols, where, 1) for cols in groups]
    w = (_numeric_column(df[weight_col].to_numpy(), "weight", weight_col, where, 1, "row",
                         nonnegative=True) if weight_col else None)
    return yi, Ps, w


def compare_parquet_multi(
    path: str | Path,
    *,
    scheduler: Any,
    proba_groups: list[tuple[str | None, list[str]]],
    classes: list[str] | None = None,
    label_col: str | None = None,
    weight_col: str | None = None,
    **options: Any,
) -> Any:
    """Compare k-class models stored as probability columns of a (partitioned) Parquet
    data set — one group of k columns per model, as ``measurelab versus --proba-cols`` —
    one task per row group in each of two passes (:func:`~measurelab.inference.
    classifiers.multi_parts.compare_multi_parts`).

    ``options``: ``measures``, ``ci``, ``n_boot``, ``random_state``, ``ci_method``,
    ``stratify``, ``average`` as in :func:`measurelab.compare_classifiers`.

    Examples
    --------
    >>> import tempfile, numpy as np, pandas as pd, measurelab as ml
    >>> d = Path(tempfile.mkdtemp())
    >>> P = np.eye(3)[[0, 1, 2, 1] * 5] * 0.8 + 0.2 / 3
    >>> df = pd.DataFrame(P, columns=["m_0", "m_1", "m_2"]).assign(y=[0, 1, 2, 2] * 5)
    >>> df[:8].to_parquet(d / "p0.parquet"); df[8:].to_parquet(d / "p1.parquet")
    >>> r = compare_parquet_multi(d, scheduler=None, proba_groups=[(None, ["m_0", "m_1",
    ...                           "m_2"])], label_col="y", measures=["acc"], ci=None)
    >>> float(r.values().loc["acc", "m"])
    0.75
    """
    from functools import partial

    from measurelab.inference.classifiers.multi_parts import compare_multi_parts
    from measurelab.io.multiclass import group_classes, group_names, multi_columns
    from measurelab.io.sources import check_column

    path = _check_path(path)
    scheduler = _check_scheduler(scheduler)
    label_col = check_column(label_col, "label_col")
    weight_col = check_column(weight_col, "weight_col")
    groups = [(g, list(cols)) for g, cols in proba_groups]
    names = group_names(groups)
    k = len(groups[0][1])
    if any(len(cols) != k for _g, cols in groups) or k < 3:
        raise MeasurelabError("--proba-cols: give every model the same number (3 or more) "
                              "of probability columns, one per class")
    class_names, matcher, mismatch = group_classes(groups, names, classes, k)
    if mismatch is not None:
        raise MeasurelabError(mismatch)
    dset = _parquet_dataset(path)
    every = [c for _g, cols in groups for c in cols]
    label, weight = multi_columns(dset.schema.names, every, label_col, weight_col, str(path))
    check_parts(dset, [label, *every, *([weight] if weight else [])], str(path))
    loaders = [partial(comparison_part_multi, f, g, label, [c for _g, c in groups],
                       matcher, weight) for f, g in _row_groups(dset.files, path)]
    return _compare_on(scheduler, partial(compare_multi_parts, loaders, names,
                                          labels=class_names, indexed=True, **options))
