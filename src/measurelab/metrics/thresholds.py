"""Choosing the decision threshold by any measure, exactly, from the score table.

The score table's cumulative counts are the confusion counts at every distinct threshold,
so a threshold measure is evaluated at all of them in one vectorized pass (the formulas
are plain arithmetic and take arrays). The best value is then confirmed exactly: the
candidates within rounding distance of the float maximum are recomputed from
:class:`fractions.Fraction` counts (exact for every rational formula), so equal values
are recognised as equal and nearly equal ones are told apart.

Conventions
-----------
* Hard prediction: positive iff ``score > threshold`` (the library's convention). The
  candidates are every distinct score (the threshold is the *highest score predicted
  negative*) and ``-inf`` (everything positive); every partition of the ranking into a
  positive top and a negative rest that respects ties is one candidate.
* Ties: among thresholds with exactly the best value, the **largest** threshold is
  returned — the fewest positive predictions, the operating point
  ``thresholds[np.argmax(values)]`` picks on scikit-learn's decreasing threshold order.
* Direction from the registry: lower-is-better measures (``err``, ``lr_neg``, ...) are
  minimized; two-level ``f:g`` values compare lexicographically.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from measurelab._util.validation import warn_undefined
from measurelab.exceptions import MeasurelabError
from measurelab.measures.base import Measure, registry
from measurelab.measures.compute import check_total
from measurelab.stats.bundle import BinaryStats, MultiStats
from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.scoretable import ScoreTable

__all__ = ["BestThreshold", "best_threshold"]

_REL = 1e-9  # candidates this close to the float best are decided exactly


class BestThreshold(NamedTuple):
    """The chosen threshold (predict positive iff ``score > threshold``) and the value."""

    threshold: float
    value: Any


def _candidates(t: ScoreTable) -> tuple[np.ndarray, BinaryCounts]:
    """Thresholds (decreasing: every distinct score, then -inf) and the counts at each."""
    tp = np.concatenate([[0.0], t.cum_pos_desc])
    fp = np.concatenate([[0.0], t.cum_neg_desc])
    thresholds = np.concatenate([t.scores[::-1], [-np.inf]])
    # totals from the same cumulative sums, so fn = tn = 0 exactly at "all positive"
    return thresholds, BinaryCounts(tp, fp, tp[-1] - tp, fp[-1] - fp)


def _levels(m: Measure) -> list[Measure]:
    """The measures compared in turn: ``[m]``, or ``[f, g]`` for a two-level ``f:g``."""
    from measurelab.measures.twolevel import two_level_parts

    parts = two_level_parts(m)
    return [m] if parts is None else list(parts)


def _subset(counts: BinaryCounts, idx: np.ndarray) -> BinaryCounts:
    return BinaryCounts(*(np.asarray(v)[idx] for v in counts.to_dict().values()))


def _scalar(m: Measure, table: ScoreTable, counts: BinaryCounts, i: int, exact: bool) -> Any:
    conv = Fraction if exact else float
    c = BinaryCounts(*(conv(float(np.asarray(v)[i])) for v in counts.to_dict().values()))
    v = m.compute(BinaryStats(table=table, given_counts=c))
    return v.item() if isinstance(v, np.generic) else v


def _exact(m: Measure, table: ScoreTable, counts: BinaryCounts, i: int) -> Any:
    """The value from Fraction counts (exact for a rational formula); a formula that
    does not take Fractions gives its float value."""
    try:
        return _scalar(m, table, counts, i, True)
    except (TypeError, ValueError):
        return _scalar(m, table, counts, i, False)


def _values(m: Measure, table: ScoreTable, counts: BinaryCounts) -> np.ndarray:
    """One level's float values at the given counts: one vectorized call (the formulas
    take arrays), or threshold by threshold for a formula written for scalars."""
    n = np.asarray(counts.tp).size
    try:
        v = np.asarray(m.compute(BinaryStats(table=table, given_counts=counts)), dtype=float)
        if v.ndim == 0:
            v = np.full(n, float(v))
        if v.shape == (n,):
            return v
    except (TypeError, ValueError, ZeroDivisionError):
        pass
    return np.array([float(_scalar(m, table, counts, i, False)) for i in range(n)])


def _best_of_level(
    m: Measure, table: ScoreTable, counts: BinaryCounts, idx: np.ndarray
) -> np.ndarray:
    """The candidates of ``idx`` where ``m`` is exactly best (NaN never best; a measure
    with a target value: the nearest to it)."""
    v = m.goodness(_values(m, table, _subset(counts, idx)))
    ok = ~np.isnan(v)
    if not ok.any():
        return idx[:0]
    top = v[ok].max()
    near = ok & ((v >= top - _REL * max(1.0, abs(top))) if np.isfinite(top) else (v == top))
    cand = idx[near]
    if cand.size == 1:
        return cand
    exact = [_exact(m, table, counts, int(i)) for i in cand]
    exact = [m.goodness(Fraction(e) if m.target is not None and isinstance(e, float)
                        and math.isfinite(e) else e) for e in exact]
    best = max(exact)
    return cand[[e == best for e in exact]]


def best_threshold(
    y_true: Any,
    y_score: Any = None,
    measure: str | Measure = "youden",
    *,
    pos_label: Any = 1,
    sample_weight: Any = None,
) -> BestThreshold:
    """The threshold that optimizes a threshold measure, exactly, over every distinct score.

    Parameters
    ----------
    y_true : array-like of shape (n,), two labels; or a :class:`~measurelab.ScoreTable`
        (then omit ``y_score``)
    y_score : array-like of shape (n,)
    measure : registered name, alias, ``name@param`` or two-level ``f:g`` spec
        Any measure computed from the confusion counts (``youden``, ``acc``, ``f1``,
        ``f_beta@2``, ``mcc``, ``kappa``, ``oarp``, user-registered ones, ``auc:acc``, ...).
        Lower-is-better measures are minimized; a measure with a target value
        (``Measure.target``) is brought nearest to it. Rank and probability measures do
        not depend on the threshold and are refused.
    pos_label : label of the positive class, default 1
    sample_weight : array-like of shape (n,), optional

    Returns
    -------
    BestThreshold
        ``(threshold, value)``: predicting positive iff ``score > threshold`` gives
        ``value`` (= ``evaluate(y_true, y_score, threshold=threshold)[measure]``). The
        threshold is a distinct score, or ``-inf`` when everything positive is best.
        Among equally good thresholds the largest is returned (see the module notes).

    Examples
    --------
    >>> import measurelab as ml
    >>> t, v = ml.best_threshold([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.7])
    >>> t, round(v, 4)         # Youden's J = 2/3 predicting positive above 0.5
    (0.5, 0.6667)
    >>> ml.best_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], "acc")   # 0.4 ties 0.1
    BestThreshold(threshold=0.4, value=0.75)
    """
    from measurelab.metrics.evaluation import build_stats

    m = registry.resolve(measure)[0]
    if m.statistic == "scores":
        raise MeasurelabError(
            f"{m.name} is a {m.kind} measure and does not depend on the threshold; "
            "best_threshold needs a threshold measure (e.g. 'youden', 'acc', 'f1')"
        )
    if isinstance(y_true, ScoreTable):  # a table built elsewhere (merged chunks)
        if y_score is not None or sample_weight is not None:
            raise MeasurelabError(
                "a ScoreTable already holds the scores and weights; omit y_score and "
                "sample_weight"
            )
        stats: BinaryStats | MultiStats = BinaryStats(table=y_true)
    else:
        stats = build_stats(y_true, y_score, pos_label=pos_label,
                            sample_weight=sample_weight)
    if not isinstance(stats, BinaryStats):
        raise MeasurelabError(
            "best_threshold needs binary y_true and one score per example, got "
            f"{stats.counts.k} classes"
        )
    check_total(stats)  # every weight 0: nothing to choose a threshold from
    table = stats.table
    assert table is not None  # built from scores
    thresholds, counts = _candidates(table)
    idx = np.arange(thresholds.size)
    undefined, decided = False, False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 0/0 at the extreme thresholds is expected
        for level in _levels(m):
            if level.statistic == "scores":
                continue  # the same at every threshold: ties everywhere
            kept = _best_of_level(level, table, counts, idx)
            if kept.size == 0:  # NaN at every remaining candidate
                undefined = not decided
                break  # (a second level undefined everywhere does not discriminate)
            idx, decided = kept, True
    if undefined:
        warn_undefined(f"{m.name} is undefined (NaN) at every threshold; returning NaN", 2)
        return BestThreshold(float("nan"), float("nan"))
    best = int(idx.min())  # decreasing thresholds: the largest threshold among the best
    return BestThreshold(float(thresholds[best]), _scalar(m, table, counts, best, False))
