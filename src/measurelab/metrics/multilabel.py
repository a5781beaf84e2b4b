"""Evaluating multi-label predictions: :func:`evaluate` with an (n, L) ``y_true`` comes here
(docs/MULTILABEL.md).

The input is read once (:mod:`measurelab.stats.labelsets`), summarised exactly
(:class:`~measurelab.stats.multilabel.MultiLabelStats`) and every measure computed from the
summary (:mod:`measurelab.measures.multilabel`); with ``ci`` the intervals are those of a
one-model :class:`~measurelab.inference.classifiers.multilabel.MultiLabelComparison`.

Examples
--------
>>> import measurelab as ml
>>> Y = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]]
>>> S = [[.9, .2, .6], [.4, .7, .1], [.8, .3, .2], [.3, .1, .4]]
>>> r = ml.evaluate(Y, S, measures=["hamming_loss", "subset_acc", "f1"], average="micro")
>>> r
EvaluationResult(multi-label, 3 labels: hamming_loss=0.166667, subset_acc=0.5, f1=0.8)
"""

from __future__ import annotations

from typing import Any

from measurelab._util.validation import check_flag, check_weights
from measurelab.exceptions import MeasurelabError
from measurelab.measures.compute import EvaluationResult
from measurelab.measures.multilabel import check_ml_average, compute_multilabel, resolve_ml
from measurelab.stats.labelsets import read_label_scores, read_label_sets, read_thresholds
from measurelab.stats.multilabel import MultiLabelStats

__all__ = ["evaluate_multilabel", "multilabel_stats"]


def multilabel_stats(y_true: Any, y_score: Any, *, labels: Any = None, threshold: Any = 0.5,
                     inclusive: bool = False, sample_weight: Any = None) -> MultiLabelStats:
    """Read multi-label input and build its exact summary.

    Examples
    --------
    >>> st = multilabel_stats([{"a"}, {"a", "b"}], [[.8, .1], [.6, .7]])
    >>> st.labels, st.counts.tp.tolist()
    (('a', 'b'), [2.0, 1.0])
    """
    Y, labs = read_label_sets(y_true, labels)
    n, L = Y.shape
    if L == 0:
        raise MeasurelabError("y_true has no labels (0 columns)")
    S = read_label_scores(y_score, n, L)
    w = check_weights(sample_weight, n)
    return MultiLabelStats.from_arrays(Y, S, w, thresholds=read_thresholds(threshold, L),
                                       inclusive=check_flag(inclusive, "inclusive"),
                                       labels=labs)


def evaluate_multilabel(
    y_true: Any, y_score: Any, *, measures: Any = None, threshold: Any = 0.5,
    sample_weight: Any = None, inclusive: bool = False, average: str | None = "macro",
    labels: Any = None, ci: float | None = None, ci_method: str | None = None,
    n_boot: int = 2000, random_state: Any = 0, progress: bool | None = None,
    n_jobs: int | None = None, stratify: bool = False,
) -> EvaluationResult:
    """:func:`measurelab.evaluate` of multi-label input (its docstring has the options).

    Examples
    --------
    >>> r = evaluate_multilabel([[1, 0], [0, 1], [1, 1]], [[.9, .2], [.3, .8], [.6, .4]],
    ...                         measures=["sens"], average=None)
    >>> r["sens"].tolist(), r.classes
    ([1.0, 0.5], (0, 1))
    """
    average = check_ml_average(average)
    st = multilabel_stats(y_true, y_score, labels=labels, threshold=threshold,
                          inclusive=inclusive, sample_weight=sample_weight)
    chosen = resolve_ml(measures)
    values = compute_multilabel(st, chosen, average=average)
    ms = {m.name: m for m in chosen}
    if ci is None:
        if check_flag(stratify, "stratify"):
            raise MeasurelabError("stratify=True does not apply to multi-label input")
        return EvaluationResult(values, ms, classes=st.labels, task="multi-label")
    if average is None:
        raise MeasurelabError(
            "ci= gives intervals of single values; it does not combine with average=None "
            "(compare_classifiers(Y, {'m': S}, average=None) gives a row per label)")
    from measurelab.inference import intervals as iv
    from measurelab.inference.classifiers.multilabel import (
        MultiLabelComparison,
        prepare_multilabel,
    )

    cmp = MultiLabelComparison(**prepare_multilabel(
        y_true, [("model", y_score)], measures=chosen, average=average, ci=ci,
        n_boot=n_boot, random_state=random_state, ci_method=ci_method,
        sample_weight=sample_weight, labels=labels, threshold=threshold,
        inclusive=inclusive, progress=progress, n_jobs=n_jobs, stratify=stratify))
    out: dict[str, Any] = {}
    shares: dict[str, tuple[float, float]] = {}
    for r in cmp.intervals().itertuples(index=False):
        out[str(r.measure)] = iv.Interval(float(values[str(r.measure)]), float(r.lo),
                                          float(r.hi), str(r.method), float(r.se))
        shares[str(r.measure)] = (float(r.infinite), float(r.undefined))
    return EvaluationResult(values, ms, classes=st.labels, intervals=out, shares=shares,
                            task="multi-label")
