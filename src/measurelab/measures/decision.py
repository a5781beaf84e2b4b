"""Net benefit of acting on a model's risks (Vickers & Elkin 2006, decision curve analysis).

A case is treated when its predicted probability is at least the threshold probability
``t`` (the rule of decision curve analysis, ``p >= t``; the library's hard predictions use
``score > threshold`` instead, so net benefit carries its own ``t``). With n cases, of which
TP positives and FP negatives are treated,

    NB(t) = TP/n − FP/n · t/(1 − t):

a true positive counts 1, a false positive ``t/(1 − t)`` — the odds at which a patient
(or a decision maker) is indifferent between treating and not treating. Treating no one
gives 0; treating everyone π − (1 − π)·t/(1 − t), π the prevalence. The standardized net
benefit divides by π, so 1 is a perfect model whatever the prevalence.

Both measures are formulas over the score table (the cases with ``p >= t`` are the rows
from one ``searchsorted`` up), with block forms over a block of bootstrap weightings: the
same index for every table of the block, one row sum per table. :func:`net_benefit_curve`
and :func:`net_benefit_curve_block` give NB at many thresholds from one cumulative sum.

Examples
--------
>>> import measurelab as ml
>>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.8, 0.6, 0.2]
>>> ml.evaluate(y, p, measures=["net_benefit@0.3"])["net_benefit@0.3"]   # (2 − 2·3/7) / 6
0.19047619047619047
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab._util.validation import warn_undefined
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.measures._block import quiet_div, row_integer
from measurelab.measures.base import measure
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

__all__ = [
    "check_threshold_probability",
    "check_thresholds",
    "net_benefit",
    "net_benefit_block",
    "net_benefit_curve",
    "net_benefit_curve_block",
    "snb",
    "snb_block",
    "treat_all",
]


def check_threshold_probability(t: Any, name: str = "t") -> float:
    """A threshold probability as a float in [0, 1), or a one-line error naming ``name``.

    Examples
    --------
    >>> check_threshold_probability(0.2)
    0.2
    >>> check_threshold_probability(1.0)
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: t must be a threshold probability 0 <= t < 1, got 1
    """
    if isinstance(t, bool | np.bool_) or not isinstance(t, int | float | np.integer
                                                         | np.floating):
        from measurelab._util.validation import show

        raise MeasurelabTypeError(f"{name} must be a number (a threshold probability), got "
                                  f"{show(t)[:60]}")
    v = float(t)
    if not (0.0 <= v < 1.0):
        raise MeasurelabError(f"{name} must be a threshold probability 0 <= t < 1, got {v:g}")
    return v


def _odds(t: float) -> float:
    """The weight of a false positive against a true positive: t / (1 − t)."""
    return t / (1.0 - t)


def _treated_block(blk: TableBlock, i: int) -> tuple[np.ndarray, np.ndarray]:
    """Positives and negatives at rows ``i`` and above of every table, summed as
    :meth:`ScoreTable.counts_at` sums them (whole counts: a plain sum, exact; real weights:
    from the top down, so a table of the block gives the bits of the table alone)."""
    pos, neg = blk.pos[:, i:], blk.neg[:, i:]
    if pos.shape[1] == 0:
        z = np.zeros(blk.n_blocks)
        return z, z.copy()
    whole = row_integer(blk) & (blk.total < 2.0**53)
    if whole.all():
        return pos.sum(axis=1), neg.sum(axis=1)
    tp = np.cumsum(pos[:, ::-1], axis=1)[:, -1]
    fp = np.cumsum(neg[:, ::-1], axis=1)[:, -1]
    if whole.any():
        tp = np.where(whole, pos.sum(axis=1), tp)
        fp = np.where(whole, neg.sum(axis=1), fp)
    return tp, fp


def _benefit_block(blk: TableBlock, t: Any) -> np.ndarray:
    """TP − FP · t/(1 − t) of every table of a block, treating p ≥ t (the numerator both
    net benefit and its standardized form divide)."""
    t = check_threshold_probability(t)
    tp, fp = _treated_block(blk, int(np.searchsorted(blk.scores, t, side="left")))
    return tp - fp * _odds(t)


def net_benefit_block(blk: TableBlock, t: float = 0.5) -> np.ndarray:
    """Block form of :func:`net_benefit`: NB at ``t`` of every table of the block, shape
    (B,); NaN for a table of no cases.

    Examples
    --------
    >>> blk = TableBlock(np.array([0.1, 0.4, 0.9]), np.array([[0., 1, 1], [0, 2, 0]]),
    ...                  np.array([[1., 1, 0], [1, 1, 0]]))
    >>> net_benefit_block(blk, t=0.2).round(4).tolist()   # (2 − 1/4) / 4, (2 − 1/4) / 4
    [0.4375, 0.4375]
    """
    return quiet_div(_benefit_block(blk, t), blk.total)


@measure(
    "net_benefit",
    kind="probability",
    statistic="scores",
    range=(-math.inf, 1.0),
    aliases=("nb",),
    main_param="t",
    source="Vickers & Elkin 2006: TP/n − FP/n·t/(1 − t), treating p >= t",
    block=net_benefit_block,
)
def net_benefit(table: ScoreTable, t: float = 0.5) -> float:
    """Net benefit at threshold probability t: TP/n − FP/n · t/(1 − t), treating p ≥ t.

    A true positive counts 1 and a false positive t/(1 − t); treating no one scores 0,
    treating everyone π − (1 − π)·t/(1 − t). Compare a model with both (a model is worth
    using at t where it beats both) and with other models at the same t. ``t`` is the main
    parameter: ``net_benefit@0.1``. NaN (with a warning) for no cases.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.net_benefit([0, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.8, 0.6, 0.2],
    ...                        t=0.5)   # treat 0.8 and 0.6: (1 − 1) / 6
    0.0
    >>> ml.metrics.net_benefit([0, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.8, 0.6, 0.2],
    ...                        t=0.3)   # treat 0.3 and up: (2 − 2·3/7) / 6
    0.19047619047619047
    """
    t = check_threshold_probability(t)
    n = table.total
    if n <= 0:
        warn_undefined("net benefit is undefined with no cases; returning NaN")
        return math.nan
    c = table.counts_at(t, inclusive=True)
    return float((c.tp - c.fp * _odds(t)) / n)


def snb_block(blk: TableBlock, t: float = 0.5) -> np.ndarray:
    """Block form of :func:`snb`: (TP − FP·t/(1 − t)) / P of every table, shape (B,);
    NaN for a table without positives.

    Examples
    --------
    >>> blk = TableBlock(np.array([0.1, 0.4, 0.9]), np.array([[0., 1, 1], [0, 2, 0]]),
    ...                  np.array([[1., 1, 0], [1, 1, 0]]))
    >>> snb_block(blk, t=0.2).tolist()
    [0.875, 0.875]
    """
    return quiet_div(_benefit_block(blk, t), blk.n_pos)


@measure(
    "snb",
    kind="probability",
    statistic="scores",
    range=(-math.inf, 1.0),
    aliases=("standardized_net_benefit",),
    main_param="t",
    source="Kerr et al. 2016 (standardized net benefit): NB(t) / prevalence",
    block=snb_block,
)
def snb(table: ScoreTable, t: float = 0.5) -> float:
    """Standardized net benefit at threshold probability t: NB(t) / π, 1 for a perfect
    model at any prevalence, treating p ≥ t.

    Equals (TP − FP·t/(1 − t)) / P, P the number of positives: the net true positives per
    positive. NaN (with a warning) without positives.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.snb([0, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.8, 0.6, 0.2],
    ...                t=0.3)   # (2 − 2·3/7) / 3
    0.38095238095238093
    """
    t = check_threshold_probability(t)
    if table.n_pos <= 0:
        warn_undefined("standardized net benefit is undefined with no positive cases; "
                       "returning NaN")
        return math.nan
    c = table.counts_at(t, inclusive=True)
    return float((c.tp - c.fp * _odds(t)) / table.n_pos)


def treat_all(table: ScoreTable, thresholds: Any) -> np.ndarray:
    """Net benefit of treating every case at each threshold probability:
    π − (1 − π)·t/(1 − t), computed as (P − N·t/(1 − t)) / n.

    Examples
    --------
    >>> t = ScoreTable.from_arrays([True, False, False, True], [0.9, 0.4, 0.2, 0.3])
    >>> treat_all(t, [0.0, 0.5]).tolist()
    [0.5, 0.0]
    """
    ts = check_thresholds(thresholds)
    n = table.total
    if n <= 0:
        return np.full(ts.size, np.nan)
    return (table.n_pos - table.n_neg * (ts / (1.0 - ts))) / n


def check_thresholds(thresholds: Any, name: str = "thresholds") -> np.ndarray:
    """Threshold probabilities as a 1-d float array, each in [0, 1), or a one-line error.

    Examples
    --------
    >>> check_thresholds([0.1, 0.2]).tolist(), check_thresholds(0.3).tolist()
    ([0.1, 0.2], [0.3])
    """
    from measurelab._util.validation import short_repr
    from measurelab.exceptions import MeasurelabTypeError

    raw = np.asarray(thresholds, dtype=object)
    if thresholds is None or isinstance(thresholds, str | bytes) or any(
            isinstance(v, str | bytes | bool) or v is None for v in raw.reshape(-1).tolist()):
        raise MeasurelabTypeError(f"{name} must be threshold probabilities (numbers in "
                                  f"[0, 1)), got {short_repr(thresholds)}")
    try:
        ts = np.asarray(thresholds, dtype=np.float64)
    except (TypeError, ValueError):
        raise MeasurelabError(f"{name} must be threshold probabilities (numbers in [0, 1)), "
                              f"got {short_repr(thresholds)}") from None
    if ts.ndim == 0:
        ts = ts.reshape(1)
    if ts.ndim != 1 or ts.size == 0:
        raise MeasurelabError(f"{name} must be a non-empty list of threshold probabilities, "
                              f"got shape {ts.shape}")
    bad = ~((ts >= 0.0) & (ts < 1.0))
    if bad.any():
        raise MeasurelabError(f"{name} must lie in [0, 1), got {ts[bad][0]:g} at position "
                              f"{int(np.flatnonzero(bad)[0])}")
    return ts


def net_benefit_curve(table: ScoreTable, thresholds: Any) -> np.ndarray:
    """NB at each threshold probability (the values of ``net_benefit@t``, bit for bit),
    from one cumulative sum of the table in decreasing score order.

    Examples
    --------
    >>> t = ScoreTable.from_arrays([False, False, True, True, False, True],
    ...                            [0.1, 0.3, 0.35, 0.8, 0.6, 0.2])
    >>> net_benefit_curve(t, [0.3, 0.5]).round(4).tolist()
    [0.1905, 0.0]
    """
    ts = check_thresholds(thresholds)
    return net_benefit_curve_block(TableBlock.of_table(table), ts)[0]


def net_benefit_curve_block(blk: TableBlock, thresholds: Any) -> np.ndarray:
    """NB of every table of the block at each threshold probability, shape (B, T): the
    treated cases at ``t`` are the rows from ``searchsorted(scores, t)`` up, read off the
    cumulative sums from the top; each value equals :func:`net_benefit_block`'s.

    Examples
    --------
    >>> blk = TableBlock(np.array([0.1, 0.4, 0.9]), np.array([[0., 1, 1], [0, 2, 0]]),
    ...                  np.array([[1., 1, 0], [1, 1, 0]]))
    >>> net_benefit_curve_block(blk, [0.2, 0.5]).tolist()
    [[0.4375, 0.25], [0.4375, 0.0]]
    """
    ts = check_thresholds(thresholds)
    r = blk.size
    b = blk.n_blocks
    k = r - np.searchsorted(blk.scores, ts, side="left")  # rows treated at each threshold
    if r == 0:
        tp = np.zeros((b, ts.size))
        fp = np.zeros((b, ts.size))
    else:
        cp = np.concatenate([np.zeros((b, 1)), blk.cum_pos_desc], axis=1)
        cn = np.concatenate([np.zeros((b, 1)), blk.cum_neg_desc], axis=1)
        # (the running sums from the top: the bits of counts_at's sums for real weights;
        # whole counts are exact in any order)
        tp, fp = cp[:, k], cn[:, k]
    w = ts / (1.0 - ts)
    n = blk.total[:, None]
    out = np.full((b, ts.size), np.nan)
    np.divide(tp - fp * w, n, out=out, where=n != 0)
    return out
