"""k-class ROC and precision–recall curves, one class against the rest: the binary tables
of every class and of all (case, class) pairs pooled, and the macro averages of the
curves.

* **Per class**: the table of column c with "the case is of class c" positive, so its
  curve is scikit-learn's ``roc_curve(y == c, P[:, c])`` point for point.
* **Micro**: one table of every (case, class) pair — column c's score, positive when the
  case is of class c —, scikit-learn's ``roc_curve(label_binarize(y).ravel(),
  P.ravel())``.
* **Macro ROC**: the vertical average of the classes' curves (Fawcett 2006): the mean
  TPR at each FPR, each curve linear between its points, computed at every FPR where
  any curve has a point (where the average is not linear) with both ends of each vertical
  step, so its trapezoid area is the mean of the classes' AUCs exactly.
* **Macro precision–recall**: at each recall where any class has an operating point, the
  mean over the classes of each one's interpolated precision there — the largest precision
  at that recall or more (the IR convention of 11-point AP; a PR curve is not linear
  between its points, so its linear average would be no class's operating points).

Classes whose rates are undefined (no case of the class, or every case of it) are left
out of the macro average, with a warning, as the macro average of a measure leaves out
the classes where it is undefined.

Examples
--------
>>> fpr, tpr = macro_roc([(np.array([0., 0., 1.]), np.array([0., 1., 1.])),
...                       (np.array([0., 1.]), np.array([0., 1.]))])
>>> fpr.tolist(), tpr.tolist()
([0.0, 0.0, 1.0], [0.0, 0.5, 1.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from measurelab._util.validation import (
    as_1d,
    check_same_length,
    check_weights,
    show,
    unique_labels,
    warn_undefined,
)
from measurelab.exceptions import MeasurelabError
from measurelab.stats.confusion import class_indices
from measurelab.stats.multiscore import MultiScoreTable
from measurelab.stats.scoretable import ScoreTable

__all__ = ["class_tables", "is_class_scores", "macro_pr", "macro_roc"]


def is_class_scores(y_true: Any, y_score: Any) -> bool:
    """Whether the input is k-class: a :class:`MultiScoreTable`, or scores of three or
    more columns (two columns stay binary: ``predict_proba``'s positive column).

    Examples
    --------
    >>> is_class_scores([0, 1, 2], np.eye(3)), is_class_scores([0, 1], np.eye(2))
    (True, False)
    """
    if isinstance(y_true, MultiScoreTable):
        return True
    if y_score is None or isinstance(y_score, ScoreTable):
        return False
    shape = np.shape(y_score.to_numpy() if hasattr(y_score, "to_numpy") else y_score)
    return len(shape) == 2 and shape[1] >= 3


def class_tables(y_true: Any, y_score: Any, labels: Any = None, sample_weight: Any = None
                 ) -> tuple[tuple[Any, ...], list[ScoreTable], ScoreTable]:
    """The class labels, the one-vs-rest table of every class (column order) and the
    micro table of all (case, class) pairs.

    Examples
    --------
    >>> labels, per, micro = class_tables(["a", "b", "c", "b"], np.eye(3)[[0, 1, 2, 1]])
    >>> labels, [t.n_pos for t in per], micro.n_pos, micro.n_neg
    (('a', 'b', 'c'), [1.0, 2.0, 1.0], 4.0, 8.0)
    """
    if isinstance(y_true, MultiScoreTable):
        if y_score is not None or sample_weight is not None or labels is not None:
            raise MeasurelabError("a MultiScoreTable already holds the scores, weights and "
                                  "labels; omit y_score, labels and sample_weight")
        t = y_true
        return t.labels, [t.ovr_table(i) for i in range(t.k)], t.micro_table()
    y = as_1d(y_true, "y_true")
    raw = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if raw.dtype.kind not in "biuf":
        raise MeasurelabError(f"y_score must be numbers, one column per class; got "
                              f"{raw.dtype.name} values")
    P = np.asarray(raw, dtype=np.float64)
    check_same_length(("y_true", y), ("y_score", P))
    if not np.isfinite(P).all():
        i, j = np.argwhere(~np.isfinite(P))[0]
        raise MeasurelabError(f"y_score must be finite, got {show(P[i, j])} at row {i}, "
                              f"column {j}")
    w = check_weights(sample_weight, y.size)
    k = P.shape[1]
    if labels is None:
        labels = unique_labels(y)
        if labels.size != k:
            raise MeasurelabError(
                f"y_score has {k} columns but y_true has {labels.size} classes "
                f"({labels.tolist()}); pass labels= to name the columns")
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.size != k:
        raise MeasurelabError(f"labels has {labels.size} entries but y_score has {k} "
                              "columns; expected one label per column")
    yi = class_indices(y, labels)
    per = [ScoreTable.from_arrays(yi == c, P[:, c], w) for c in range(k)]
    hit = (yi[:, None] == np.arange(k)[None, :]).ravel()
    micro = ScoreTable.from_arrays(hit, P.ravel(), None if w is None else np.repeat(w, k))
    return tuple(labels.tolist()), per, micro


def _defined(curves: list[tuple[np.ndarray, np.ndarray]], labels: Any, what: str
             ) -> list[tuple[np.ndarray, np.ndarray]]:
    """The curves whose points are all numbers; warns about the others."""
    ok = [c for c in curves if np.isfinite(c[0]).all() and np.isfinite(c[1]).all()]
    if len(ok) < len(curves):
        bad = [lab for lab, c in zip(labels, curves, strict=True)
               if not (np.isfinite(c[0]).all() and np.isfinite(c[1]).all())]
        warn_undefined(f"the macro {what} leaves out the classes {bad}, whose rates are "
                       "undefined (no case of the class, or no case outside it)", 5)
    return ok


def macro_roc(curves: list[tuple[np.ndarray, np.ndarray]], labels: Any = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """The vertical average of ROC curves ``(fpr, tpr)`` (fpr non-decreasing), exact: at
    every FPR where a curve has a point, the mean of each curve's lowest and of its highest
    TPR there (linear between its points), the two kept where they differ.

    Examples
    --------
    >>> fpr, tpr = macro_roc([(np.array([0., .5, 1.]), np.array([0., 1., 1.])),
    ...                       (np.array([0., 1.]), np.array([0., 1.]))])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.5, 1.0], [0.0, 0.75, 1.0])
    """
    labels = list(range(len(curves))) if labels is None else list(labels)
    curves = _defined(curves, labels, "ROC curve")
    if not curves:
        return np.array([np.nan]), np.array([np.nan])
    grid = np.unique(np.concatenate([c[0] for c in curves]))
    low = np.zeros(grid.size)
    high = np.zeros(grid.size)
    for fpr, tpr in curves:
        first = np.searchsorted(fpr, grid, side="left")   # first point at or right of x
        last = np.searchsorted(fpr, grid, side="right") - 1  # last point at or left of x
        at = (first < fpr.size) & (fpr[np.minimum(first, fpr.size - 1)] == grid)
        a, b = np.maximum(last, 0), np.minimum(first, fpr.size - 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(fpr[b] > fpr[a], (grid - fpr[a]) / (fpr[b] - fpr[a]), 0.0)
        between = tpr[a] + t * (tpr[b] - tpr[a])
        low += np.where(at, tpr[np.minimum(first, fpr.size - 1)], between)
        high += np.where(at, tpr[a], between)
    low /= len(curves)
    high /= len(curves)
    step = high != low
    x = np.repeat(grid, np.where(step, 2, 1))
    y = np.empty(x.size)
    pos = np.cumsum(np.where(step, 2, 1)) - np.where(step, 2, 1)
    y[pos] = low
    y[pos[step] + 1] = high[step]
    return x, y


def macro_pr(curves: list[tuple[np.ndarray, np.ndarray]], labels: Any = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """The macro precision–recall curve of curves ``(precision, recall)`` in the library's
    (scikit-learn's) order — recall decreasing, the last point the artificial (1, 0): at
    every recall of an operating point of any class, the mean over the classes of the
    largest precision at that recall or more; recall decreasing, ending, as every
    precision–recall curve here, at (precision 1, recall 0).

    Examples
    --------
    >>> p, r = macro_pr([(np.array([.5, 1., 1.]), np.array([1., .5, 0.])),
    ...                  (np.array([1., 1.]), np.array([1., 0.]))])
    >>> p.tolist(), r.tolist()
    ([0.75, 1.0, 1.0], [1.0, 0.5, 0.0])
    """
    labels = list(range(len(curves))) if labels is None else list(labels)
    curves = _defined(curves, labels, "precision-recall curve")
    if not curves:
        return np.array([np.nan]), np.array([np.nan])
    real = [(p[:-1], r[:-1]) for p, r in curves]  # without the artificial (1, 0)
    grid = np.unique(np.concatenate([r for _, r in real]))[::-1]  # decreasing recall
    total = np.zeros(grid.size)
    for p, r in real:
        # recall decreasing along the curve: the running maximum of precision from the
        # high-recall end gives, at point j, the largest precision at recall >= r[j]
        best = np.maximum.accumulate(p)
        n_at_least = np.searchsorted(-r, -grid, side="right")  # points with recall >= x
        total += np.where(n_at_least > 0, best[np.maximum(n_at_least - 1, 0)], 0.0)
    return (np.concatenate([total / len(curves), [1.0]]),
            np.concatenate([grid, [0.0]]))
