"""Curves as data: ROC, precision-recall, DET, lift, cumulative gain and Drummond &
Holte cost curves, each read off the score table.

Every curve is a function of the binary score table (:class:`~measurelab.ScoreTable`):
its cumulative counts at the distinct scores are the confusion counts at every threshold,
so no curve sorts the data again once the table is built, and a table merged from chunks
or processes gives the same curve as the whole data.

The ROC, precision-recall and DET curves return exactly what scikit-learn's
``roc_curve(drop_intermediate=False)``, ``precision_recall_curve`` and ``det_curve``
return — same arrays, shapes, order, first point and threshold convention, with examples
of zero weight left out as scikit-learn does. The results are named tuples, so they unpack
like scikit-learn's tuples.

The threshold rule
------------------
Every curve takes ``inclusive`` (default True, scikit-learn's convention): point *i*
predicts positive the examples with ``score >= thresholds[i]`` (``thresholds[i]`` is the
lowest score predicted positive; ``inf`` where none is), and with ``inclusive=False`` those
with ``score > thresholds[i]`` (the same points, each threshold moved down to the next
lower distinct score: the highest score predicted negative, ``-inf`` where none is). This
is the rule of :func:`measurelab.evaluate`'s ``threshold`` and ``inclusive`` (whose
default is ``inclusive=False``) and of :func:`measurelab.best_threshold` (``>``), so
``evaluate(y, s, threshold=thresholds[i], inclusive=inclusive)`` gives point *i*.

References
----------
Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27.
Drummond, C. & Holte, R. C. (2006). Cost curves: an improved method for visualizing
classifier performance. Machine Learning 65, 95–130.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from measurelab._util.validation import (
    as_1d,
    binarize,
    binary_score_vector,
    check_flag,
    check_same_length,
    check_scores,
    check_weights,
    warn_undefined,
)
from measurelab.exceptions import MeasurelabError
from measurelab.pickling import versioned_pickle
from measurelab.stats.scoretable import ScoreTable

__all__ = [
    "CostCurve",
    "DetCurve",
    "GainCurve",
    "LiftCurve",
    "OneVsRestCurves",
    "PrecisionRecallCurve",
    "RocCurve",
    "cost_curve",
    "cumulative_gain_curve",
    "det_curve",
    "lift_curve",
    "precision_recall_curve",
    "roc_convex_hull",
    "roc_curve",
]



# ----------------------------------------------------------------------------- results
@versioned_pickle
class RocCurve(NamedTuple):
    """``fpr``, ``tpr`` (increasing) and ``thresholds`` (decreasing: first ``inf``, or
    with ``inclusive=False`` the highest score and last ``-inf``)."""

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


@versioned_pickle
class PrecisionRecallCurve(NamedTuple):
    """``precision``, ``recall`` (decreasing; last point (1, 0)) and increasing
    ``thresholds`` (one fewer; with ``inclusive=False`` the first is ``-inf``)."""

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray


@versioned_pickle
class DetCurve(NamedTuple):
    """``fpr`` (decreasing), ``fnr`` (increasing) and increasing ``thresholds``."""

    fpr: np.ndarray
    fnr: np.ndarray
    thresholds: np.ndarray


@versioned_pickle
class GainCurve(NamedTuple):
    """``depth`` (fraction of cases targeted), ``gain`` (fraction of positives among them)
    and ``thresholds`` (as :class:`RocCurve`'s); starts at (0, 0), ends at (1, 1)."""

    depth: np.ndarray
    gain: np.ndarray
    thresholds: np.ndarray


@versioned_pickle
class LiftCurve(NamedTuple):
    """``depth`` (fraction of cases targeted, > 0), ``lift`` = gain / depth, and
    ``thresholds``."""

    depth: np.ndarray
    lift: np.ndarray
    thresholds: np.ndarray


@versioned_pickle
class CostCurve(NamedTuple):
    """Drummond & Holte cost curve: one line per operating point and the lower envelope.

    Operating point *i* (a ROC point; ``thresholds`` as :func:`roc_curve`) is the line
    ``NE[C](pc) = fnr[i]·pc + fpr[i]·(1 − pc)`` over the probability cost ``pc`` in [0, 1].
    The lower envelope is piecewise linear through ``(pc, cost)``; on ``[pc[j], pc[j+1]]``
    the operating point ``segment_points[j]`` (an index into ``fpr``) is optimal; its
    threshold is ``thresholds[segment_points[j]]``.
    """

    fpr: np.ndarray
    fnr: np.ndarray
    thresholds: np.ndarray
    pc: np.ndarray
    cost: np.ndarray
    segment_points: np.ndarray

    def envelope(self, pc: Any) -> np.ndarray:
        """The lower envelope (minimal normalized expected cost) at probability costs."""
        return np.interp(np.asarray(pc, dtype=np.float64), self.pc, self.cost)

    def line(self, i: int, pc: Any) -> np.ndarray:
        """Normalized expected cost of operating point ``i`` at probability costs."""
        pc = np.asarray(pc, dtype=np.float64)
        return self.fnr[i] * pc + self.fpr[i] * (1.0 - pc)


@versioned_pickle
@dataclass(frozen=True)
class OneVsRestCurves:
    """The k-class curves of :func:`roc_curve` or :func:`precision_recall_curve`: one
    class against the rest for every class, and the micro and macro averages
    (:mod:`measurelab.curves._ovr` defines them).

    Attributes
    ----------
    kind : 'roc' or 'pr'
    classes : the class labels, in column order
    per_class : the curve of each class (a :class:`RocCurve` or
        :class:`PrecisionRecallCurve`), in column order; ``curves[label]`` finds one
    micro : the curve of all (case, class) pairs pooled
    macro : the macro average (its ``thresholds`` are NaN: an average has none)
    """

    kind: str
    classes: tuple[Any, ...]
    per_class: tuple[Any, ...]
    micro: Any
    macro: Any

    def __getitem__(self, label: Any) -> Any:
        """The curve of class ``label`` (or ``'micro'``, ``'macro'``)."""
        if isinstance(label, str) and label in ("micro", "macro") and label not in \
                self.classes:
            return getattr(self, label)
        try:
            return self.per_class[self.classes.index(label)]
        except ValueError:
            raise MeasurelabError(f"no class {label!r}; the classes are "
                                  f"{list(self.classes)}") from None

    def to_frame(self) -> Any:
        """Every point as a row: ``curve`` (a class label, 'micro' or 'macro'), the two
        coordinates (``fpr, tpr`` or ``recall, precision``) and ``threshold``.

        Examples
        --------
        >>> import numpy as np
        >>> c = roc_curve([0, 1, 2], np.eye(3))
        >>> c.to_frame().groupby("curve", sort=False).size().tolist()   # 0, 1, 2, micro, macro
        [3, 3, 3, 3, 3]
        """
        import pandas as pd

        x, y = ("fpr", "tpr") if self.kind == "roc" else ("recall", "precision")
        parts = []
        for name, c in [*zip(self.classes, self.per_class, strict=True),
                        ("micro", self.micro), ("macro", self.macro)]:
            thr = np.asarray(c.thresholds, dtype=np.float64)
            xs = np.asarray(getattr(c, x))
            if thr.size < xs.size:  # a precision-recall curve's last point has none
                thr = np.concatenate([thr, np.full(xs.size - thr.size, np.nan)])
            parts.append(pd.DataFrame({"curve": [name] * xs.size, x: xs,
                                       y: np.asarray(getattr(c, y)), "threshold": thr}))
        return pd.concat(parts, ignore_index=True)


def _one_vs_rest(kind: str, y_true: Any, y_score: Any, labels: Any, sample_weight: Any,
                 inclusive: bool) -> OneVsRestCurves:
    """The k-class curves (see :mod:`measurelab.curves._ovr`)."""
    import warnings

    from measurelab.curves import _ovr

    classes, per, micro = _ovr.class_tables(y_true, y_score, labels, sample_weight)
    curve = _roc if kind == "roc" else _precision_recall
    with warnings.catch_warnings(record=True) as caught:  # one warning per class at most
        warnings.simplefilter("always")
        curves: list[Any] = [curve(t, inclusive) for t in per]
    for w in {str(w.message): w for w in caught}.values():
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    pooled = curve(micro, inclusive)
    if kind == "roc":
        fpr, tpr = _ovr.macro_roc([(c.fpr, c.tpr) for c in curves], classes)
        macro: Any = RocCurve(fpr, tpr, np.full(fpr.size, np.nan))
    else:
        p, r = _ovr.macro_pr([(c.precision, c.recall) for c in curves], classes)
        macro = PrecisionRecallCurve(p, r, np.full(max(p.size - 1, 0), np.nan))
    return OneVsRestCurves(kind, classes, tuple(curves), pooled, macro)


# --------------------------------------------------------------------------- the table
def _table(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any, *,
           name: str = "y_score") -> ScoreTable:
    """Validate binary input and build its score table (the one sort), or take a table
    already built (for example merged from chunks by :class:`~measurelab.Evaluator`);
    ``name`` is what messages call the scores."""
    if isinstance(y_true, ScoreTable):
        if y_score is not None or sample_weight is not None:
            raise MeasurelabError(
                "a ScoreTable already holds the scores and weights; omit y_score and "
                "sample_weight"
            )
        return y_true
    if y_score is None:
        raise MeasurelabError("y_score is missing: give y_true and y_score, or a ScoreTable")
    y_raw = as_1d(y_true, "y_true")
    y_score = binary_score_vector(y_score, y_raw, pos_label, name)[0]  # predict_proba's
    s_raw = as_1d(y_score, name)
    check_same_length(("y_true", y_raw), (name, s_raw))
    y = binarize(y_raw, pos_label)
    s = check_scores(s_raw, name)
    w = check_weights(sample_weight, y.size)
    return ScoreTable.from_arrays(y, s, w)


def _shifted(thr: np.ndarray, inclusive: bool) -> np.ndarray:
    """Decreasing thresholds of the points ``[nothing positive, top 1 distinct score, ...,
    all]`` from the decreasing distinct scores ``thr``: ``[inf, *thr]`` for
    ``score >= t`` (each the lowest score predicted positive) or ``[*thr, -inf]`` for
    ``score > t`` (each the highest score predicted negative)."""
    if check_flag(inclusive, "inclusive"):
        return np.concatenate([[np.inf], thr])
    return np.concatenate([thr, [-np.inf]])


def _descending(t: ScoreTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Decreasing distinct scores with the positives and negatives scoring >= each.

    Scores carrying no weight are left out (scikit-learn drops zero-weight examples).
    """
    keep = (t.pos + t.neg) > 0
    if keep.all():
        return t.scores[::-1], t.cum_pos_desc, t.cum_neg_desc
    if not keep.any():
        raise MeasurelabError("sample_weight is zero for every example: no curve to draw")
    pos, neg = t.pos[keep][::-1], t.neg[keep][::-1]
    return t.scores[keep][::-1], np.cumsum(pos), np.cumsum(neg)


def _rates(counts: np.ndarray, total: float, what: str) -> np.ndarray:
    if total <= 0:
        warn_undefined(f"no {what} examples in y_true: rates over them are NaN", 5)
        return np.full(counts.shape, np.nan)
    return counts / total


# ------------------------------------------------------------------------------ curves
def roc_curve(
    y_true: Any, y_score: Any = None, *, pos_label: Any = 1, sample_weight: Any = None,
    inclusive: bool = True, labels: Any = None,
) -> Any:
    """ROC curve at every distinct threshold, as scikit-learn's
    ``roc_curve(..., drop_intermediate=False)``; of every class of k-class scores.

    Threshold rule: point *i* predicts positive ``score >= thresholds[i]`` (default,
    scikit-learn's output), or ``score > thresholds[i]`` with ``inclusive=False``, exactly
    as ``evaluate(..., threshold=thresholds[i], inclusive=inclusive)``.

    Parameters
    ----------
    y_true : array-like of shape (n,), two labels; or a :class:`~measurelab.ScoreTable`
        (then omit ``y_score``): every curve function takes a table built elsewhere,
        e.g. merged from chunks, and gives the curve of all the data.
    y_score : array-like of shape (n,), higher = more likely positive
    pos_label : label of the positive class, default 1
    sample_weight : array-like of shape (n,), optional
    inclusive : bool, default True
        True: ``thresholds[i]`` is the lowest score point *i* predicts positive (``inf``
        for the first point, (0, 0)) — scikit-learn's thresholds. False: the highest score
        it predicts negative (``-inf`` for the last point, (1, 1)).
    labels : the class of each column of k-class scores (default: the sorted labels)

    Returns
    -------
    RocCurve
        ``(fpr, tpr, thresholds)``, thresholds decreasing. A rate without examples of its
        class is NaN with an :class:`~measurelab.UndefinedMeasureWarning`.
    OneVsRestCurves
        for k-class scores (n, k ≥ 3) or a :class:`~measurelab.MultiScoreTable`: the curve
        of every class against the rest (scikit-learn's ``roc_curve(y == c, P[:, c])``),
        the micro average (all (case, class) pairs pooled) and the macro average (the mean
        TPR at each FPR, whose area is the mean of the classes' AUCs).

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.35, 0.1])
    >>> roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], inclusive=False).thresholds.tolist()
    [0.8, 0.4, 0.35, 0.1, -inf]
    >>> P = [[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .4, .3], [.2, .3, .5]]
    >>> c = roc_curve(["a", "b", "c", "a", "b"], P)   # a and c ranked perfectly, b not
    >>> c.classes, c["b"].tpr.tolist(), c["b"].fpr.round(3).tolist()
    (('a', 'b', 'c'), [0.0, 0.5, 0.5, 1.0, 1.0], [0.0, 0.0, 0.333, 0.667, 1.0])
    >>> c.macro.fpr.round(3).tolist(), c.macro.tpr.round(3).tolist()
    ([0.0, 0.0, 0.25, 0.333, 0.667, 0.75, 1.0], [0.0, 0.833, 0.833, 0.833, 1.0, 1.0, 1.0])
    """
    from measurelab.curves._ovr import is_class_scores

    if is_class_scores(y_true, y_score):
        return _one_vs_rest("roc", y_true, y_score, labels, sample_weight, inclusive)
    if labels is not None:
        raise MeasurelabError("labels= names the columns of k-class scores; binary scores "
                              "take pos_label")
    return _roc(_table(y_true, y_score, pos_label, sample_weight), inclusive)


def _with_start(t: ScoreTable, inclusive: bool = True
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_descending` with the all-negative point in front, thresholds by
    :func:`_shifted`."""
    thr, tps, fps = _descending(t)
    return (_shifted(thr, inclusive), np.concatenate([[0.0], tps]),
            np.concatenate([[0.0], fps]))


def _roc(t: ScoreTable, inclusive: bool = True) -> RocCurve:
    thr, tps, fps = _with_start(t, inclusive)
    return RocCurve(_rates(fps, fps[-1], "negative"), _rates(tps, tps[-1], "positive"), thr)


def precision_recall_curve(
    y_true: Any, y_score: Any = None, *, pos_label: Any = 1, sample_weight: Any = None,
    inclusive: bool = True, labels: Any = None,
) -> Any:
    """Precision and recall at every distinct threshold, as scikit-learn's
    ``precision_recall_curve``; of every class of k-class scores.

    Threshold rule: element *i* predicts positive ``score >= thresholds[i]`` (default,
    scikit-learn's output), or ``score > thresholds[i]`` with ``inclusive=False``, exactly
    as ``evaluate(..., threshold=thresholds[i], inclusive=inclusive)``.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight : as :func:`roc_curve`
    inclusive : bool, default True
        True: ``thresholds[i]`` is the lowest score predicted positive (scikit-learn's
        thresholds). False: the highest score predicted negative, ``-inf`` for the first
        element (every example positive).

    Returns
    -------
    PrecisionRecallCurve
        ``(precision, recall, thresholds)``, thresholds increasing; the last point is
        (precision 1, recall 0) and has no threshold. With no positive example recall is
        1 everywhere (scikit-learn's rule) with an
        :class:`~measurelab.UndefinedMeasureWarning`.
    OneVsRestCurves
        for k-class scores (n, k ≥ 3, columns named by ``labels``) or a
        :class:`~measurelab.MultiScoreTable`: every class against the rest
        (scikit-learn's ``precision_recall_curve(y == c, P[:, c])``), the micro average
        (all (case, class) pairs pooled) and the macro average (at each recall, the mean of
        the classes' largest precision at that recall or more).

    Examples
    --------
    >>> p, r, thr = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(4).tolist(), r.tolist(), thr.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    >>> precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8],
    ...                        inclusive=False).thresholds.tolist()
    [-inf, 0.1, 0.35, 0.4]
    """
    from measurelab.curves._ovr import is_class_scores

    if is_class_scores(y_true, y_score):
        return _one_vs_rest("pr", y_true, y_score, labels, sample_weight, inclusive)
    if labels is not None:
        raise MeasurelabError("labels= names the columns of k-class scores; binary scores "
                              "take pos_label")
    return _precision_recall(_table(y_true, y_score, pos_label, sample_weight), inclusive)


def _precision_recall(t: ScoreTable, inclusive: bool = True) -> PrecisionRecallCurve:
    thr, tps, fps = _descending(t)
    ps = tps + fps
    precision = np.divide(tps, ps, out=np.zeros_like(tps), where=ps != 0)
    if tps[-1] == 0:
        warn_undefined("no positive examples in y_true: recall is set to 1 everywhere", 4)
        recall = np.ones_like(tps)
    else:
        recall = tps / tps[-1]
    return PrecisionRecallCurve(
        np.concatenate([precision[::-1], [1.0]]),
        np.concatenate([recall[::-1], [0.0]]),
        _shifted(thr, inclusive)[:0:-1].copy(),  # the points after the all-negative one
    )


def det_curve(
    y_true: Any, y_score: Any = None, *, pos_label: Any = 1, sample_weight: Any = None,
    inclusive: bool = True,
) -> DetCurve:
    """Detection error trade-off (false positive vs false negative rate), as
    scikit-learn's ``det_curve`` (≥ 1.7: the all-negative point at threshold ``inf`` is
    included unless fpr = 0 is reached at a finite threshold).

    Only the points from the last one with fpr = 0 to the first one with fnr = 0 are
    returned, in order of increasing threshold. Threshold rule: point *i* predicts positive
    ``score >= thresholds[i]`` (default, scikit-learn's output), or
    ``score > thresholds[i]`` with ``inclusive=False`` (thresholds as :func:`roc_curve`'s),
    exactly as ``evaluate(..., threshold=thresholds[i], inclusive=inclusive)``.

    Examples
    --------
    >>> fpr, fnr, thr = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), fnr.tolist(), thr.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    >>> det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], inclusive=False).thresholds.tolist()
    [0.1, 0.35, 0.4]
    """
    return _det(_table(y_true, y_score, pos_label, sample_weight), inclusive)


def _both_classes(t: ScoreTable, curve: str) -> None:
    if t.n_pos <= 0 or t.n_neg <= 0:
        raise MeasurelabError(
            f"y_true has only one class: the {curve} needs positive and negative examples"
        )


def _det(t: ScoreTable, inclusive: bool = True) -> DetCurve:
    _both_classes(t, "DET curve")
    thr, tps, fps = _with_start(t, inclusive)
    first = int(np.searchsorted(fps, fps[0], side="right")) - 1  # last point with fp = 0
    last = int(np.searchsorted(tps, tps[-1])) + 1  # through the first with fn = 0
    sl = slice(first, last)
    return DetCurve(
        fps[sl][::-1] / fps[-1], (tps[-1] - tps)[sl][::-1] / tps[-1], thr[sl][::-1].copy()
    )


def cumulative_gain_curve(
    y_true: Any, y_score: Any = None, *, pos_label: Any = 1, sample_weight: Any = None,
    inclusive: bool = True,
) -> GainCurve:
    """Cumulative gain: the fraction of all positives among the top-scored fraction of cases.

    Threshold rule: point *i* targets the cases with ``score >= thresholds[i]`` (default),
    or ``score > thresholds[i]`` with ``inclusive=False`` (thresholds as
    :func:`roc_curve`'s), as ``evaluate(..., threshold=thresholds[i],
    inclusive=inclusive)`` predicts them positive. ``depth`` is their share of all cases
    and ``gain`` their share of all positives (weighted when ``sample_weight`` is given).
    A random ranking gives gain = depth; at the depth of each distinct score,
    lift = gain / depth (:func:`lift_curve`).

    Examples
    --------
    >>> d, g, thr = cumulative_gain_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> d.tolist(), g.tolist(), thr.tolist()
    ([0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.9, 0.8, 0.7, 0.1])
    """
    return _gain(_table(y_true, y_score, pos_label, sample_weight), inclusive)


def _gain(t: ScoreTable, inclusive: bool = True) -> GainCurve:
    thr, tps, fps = _with_start(t, inclusive)
    cases = tps + fps
    return GainCurve(cases / cases[-1], _rates(tps, tps[-1], "positive"), thr)


def lift_curve(
    y_true: Any, y_score: Any = None, *, pos_label: Any = 1, sample_weight: Any = None,
    inclusive: bool = True,
) -> LiftCurve:
    """Lift at every distinct threshold: (positive rate among the cases targeted) /
    (positive rate of all cases).

    Threshold rule: point *i* targets the cases with ``score >= thresholds[i]`` (default),
    or ``score > thresholds[i]`` with ``inclusive=False``, as ``evaluate(...,
    threshold=thresholds[i], inclusive=inclusive)`` predicts them positive. At
    ``depth[i]`` the lift equals Caruana's ``lift@q`` with ``q = depth[i]``. Undefined
    (NaN with a warning) when there is no positive example.

    Examples
    --------
    >>> d, lift, thr = lift_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> d.tolist(), lift.tolist()
    ([0.25, 0.5, 0.75, 1.0], [2.0, 1.0, 1.3333333333333333, 1.0])
    >>> thr.tolist(), lift_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1],
    ...                          inclusive=False).thresholds.tolist()
    ([0.9, 0.8, 0.7, 0.1], [0.8, 0.7, 0.1, -inf])
    """
    return _lift(_table(y_true, y_score, pos_label, sample_weight), inclusive)


def _lift(t: ScoreTable, inclusive: bool = True) -> LiftCurve:
    depth, gain, thr = _gain(t, inclusive)
    return LiftCurve(depth[1:], gain[1:] / depth[1:], thr[1:])


def roc_convex_hull(fps: np.ndarray, tps: np.ndarray) -> np.ndarray:
    """Indices of the vertices of the ROC convex hull (upper-left hull), left to right.

    ``fps`` and ``tps`` are non-decreasing (a ROC curve in counts or rates, from (0, 0)
    to the last point). Collinear points are not vertices. Vectorized passes first drop
    every point that does not turn clockwise between its current neighbours (it lies on
    or below the chord of two points of the set, so it is no vertex); a monotone chain
    over what is left finishes. Cross products of counts are exact for integer counts
    below about 9·10^7.

    Examples
    --------
    >>> roc_convex_hull(np.array([0, 0, 1, 1, 2.]), np.array([0, 1, 1, 2, 2.])).tolist()
    [0, 1, 3, 4]
    """
    idx = np.arange(fps.size)
    for _ in range(64):
        if idx.size <= 2:
            break
        x, y = fps[idx], tps[idx]
        cross = (x[1:-1] - x[:-2]) * (y[2:] - y[:-2]) - (y[1:-1] - y[:-2]) * (x[2:] - x[:-2])
        keep = np.concatenate([[True], cross < 0, [True]])
        if keep.all():
            break
        idx = idx[keep]
    hull: list[int] = []
    for i in idx.tolist():
        while len(hull) >= 2:
            o, a = hull[-2], hull[-1]
            cross = (fps[a] - fps[o]) * (tps[i] - tps[o]) - (tps[a] - tps[o]) * (fps[i] - fps[o])
            if cross >= 0:  # a is not strictly above the chord o -> i
                hull.pop()
            else:
                break
        hull.append(i)
    return np.asarray(hull, dtype=np.int64)


def cost_curve(
    y_true: Any, y_score: Any = None, *, pos_label: Any = 1, sample_weight: Any = None,
    inclusive: bool = True,
) -> CostCurve:
    """Drummond & Holte's cost curve: normalized expected cost over probability cost, with
    its lower envelope.

    With ``PC(+) = p(+)·C(−|+) / (p(+)·C(−|+) + p(−)·C(+|−))`` (the probability cost of
    the positive class), an operating point with rates (FPR, FNR) has normalized expected
    cost ``NE[C] = FNR·PC(+) + FPR·(1 − PC(+))``: a line from (0, FPR) to (1, FNR). Every
    ROC point (every distinct threshold, including "all negative" and "all positive") is
    one line; the lower envelope, the best cost reachable by choosing the threshold, is
    the ROC convex hull mapped to cost space: a hull vertex is a segment of the envelope,
    a hull edge between vertices a and b a breakpoint at
    ``PC = ΔFPR / (ΔFPR + ΔTPR)``.

    Threshold rule: operating point *i* predicts positive ``score >= thresholds[i]``
    (default) or ``score > thresholds[i]`` with ``inclusive=False`` (thresholds as
    :func:`roc_curve`'s), exactly as ``evaluate(..., threshold=thresholds[i],
    inclusive=inclusive)``.

    Returns
    -------
    CostCurve
        ``fpr``, ``fnr``, ``thresholds`` per operating point (those of :func:`roc_curve`),
        the envelope's breakpoints ``pc`` (0 to 1, increasing) and values ``cost``, and
        ``segment_points``, the operating point optimal on each envelope segment.

    Examples
    --------
    >>> cc = cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> cc.pc.tolist(), cc.cost.tolist(), cc.thresholds[cc.segment_points].tolist()
    ([0.0, 0.5, 1.0], [0.0, 0.25, 0.0], [0.8, 0.35])
    """
    return _cost(_table(y_true, y_score, pos_label, sample_weight), inclusive)


def _cost(t: ScoreTable, inclusive: bool = True) -> CostCurve:
    _both_classes(t, "cost curve")
    thr, tps, fps = _with_start(t, inclusive)
    P, N = tps[-1], fps[-1]
    fpr, fnr = fps / N, (P - tps) / P
    hull = roc_convex_hull(fps, tps)
    # breakpoint between consecutive hull vertices, from counts: ΔFPR/(ΔFPR + ΔTPR)
    dfp = np.diff(fps[hull]) * P
    dtp = np.diff(tps[hull]) * N
    inner = dfp / (dfp + dtp)
    pc = np.concatenate([[0.0], inner, [1.0]])
    # segment j lies between pc[j] and pc[j+1] and belongs to hull vertex j
    cost = np.empty(pc.size)
    cost[0] = fpr[hull[0]]
    cost[-1] = fnr[hull[-1]]
    cost[1:-1] = fnr[hull[:-1]] * inner + fpr[hull[:-1]] * (1.0 - inner)
    keep_seg = pc[1:] > pc[:-1]  # a vertical or horizontal hull edge: zero-length segment
    keep_pt = np.concatenate([[True], keep_seg])
    return CostCurve(fpr, fnr, thr, pc[keep_pt], cost[keep_pt], hull[keep_seg])
