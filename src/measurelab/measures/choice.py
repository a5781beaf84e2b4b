"""Choosing an operating point on a score table: the threshold that optimises a threshold
measure or a rule, exactly (the core of :func:`measurelab.best_threshold`, here so that a
comparison's page can choose each bootstrap replicate's point with the same code).

The score table's cumulative counts are the confusion counts at every distinct threshold,
so a threshold measure is evaluated at all of them in one vectorized pass. The best value
is then confirmed exactly: the candidates within rounding distance of the float maximum
are recomputed from :class:`fractions.Fraction` counts (exact for every rational formula),
so equal values are recognised as equal and nearly equal ones are told apart. Among
thresholds with exactly the best value the largest is chosen (predict positive iff
``score > threshold``; the candidates are every distinct score and ``-inf``).

Examples
--------
>>> from measurelab.stats.scoretable import ScoreTable
>>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.7])
>>> best_point(t, rule_measure("youden"))[:3]   # threshold, sens, spec
(0.5, 0.6666666666666666, 1.0)
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.measures.base import Measure, registry
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.scoretable import ScoreTable

__all__ = ["RULES", "best_point", "rule_measure"]

#: the rules of :func:`rule_measure` that are not registered measures
RULES = ("closest_topleft", "cost")

_REL = 1e-9  # candidates this close to the float best are decided exactly


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


def _like(x: float, ref: Any) -> Any:
    """``x`` as an exact Fraction when the counts are Fractions (the exact confirmation of
    near-ties), else as it is."""
    return Fraction(x) if isinstance(ref, Fraction) else x


def _topleft(c: BinaryCounts) -> Any:
    """(1 − sens)² + (1 − spec)², written as (FN/P)² + (FP/N)²."""
    return (c.fn / (c.tp + c.fn)) ** 2 + (c.fp / (c.fp + c.tn)) ** 2


def _cost_rule(cost_fn: float, cost_fp: float, prevalence: float | None) -> Any:
    def cost(c: BinaryCounts) -> Any:
        p, n = c.tp + c.fn, c.fp + c.tn
        pi = p / (p + n) if prevalence is None else _like(prevalence, c.tp)
        return (pi * _like(cost_fn, c.tp) * (c.fn / p)
                + (1 - pi) * _like(cost_fp, c.tp) * (c.fp / n))

    return cost


def rule_measure(measure: Any, cost_fn: Any = None, cost_fp: Any = None,
                 prevalence: Any = None) -> Measure:
    """The measure a rule optimises: a registered spec, or one of :data:`RULES` as an
    unregistered :class:`Measure` (lower is better); ``cost_fn``, ``cost_fp`` and
    ``prevalence`` apply to ``'cost'`` only (see :func:`measurelab.best_threshold`).

    Examples
    --------
    >>> rule_measure("youden").name, rule_measure("cost", cost_fn=5.0).name
    ('youden', 'cost')
    """
    from measurelab._util.validation import check_real

    costs = {"cost_fn": cost_fn, "cost_fp": cost_fp, "prevalence": prevalence}
    if measure != "cost":
        given = [k for k, v in costs.items() if v is not None]
        if given:
            raise MeasurelabError(f"{given[0]} applies to measure='cost', not to "
                                  f"measure={measure!r}")
    if measure == "closest_topleft":
        return Measure("closest_topleft", _topleft, "threshold", "counts", (0.0, 2.0), False,
                       source="pROC coords(best.method = 'closest.topleft'): "
                              "(1 − sens)² + (1 − spec)²")
    if measure == "cost":
        c_fn = 1.0 if cost_fn is None else check_real(cost_fn, "cost_fn", low=0,
                                                      low_open=True)
        c_fp = 1.0 if cost_fp is None else check_real(cost_fp, "cost_fp", low=0,
                                                      low_open=True)
        pi = None if prevalence is None else check_real(prevalence, "prevalence", low=0,
                                                        high=1, low_open=True,
                                                        high_open=True)
        return Measure("cost", _cost_rule(c_fn, c_fp, pi), "threshold", "counts",
                       (0.0, math.inf), False,
                       source="pROC best.weights: π·c_FN·(1 − sens) + (1 − π)·c_FP·(1 − spec)")
    m = registry.resolve(measure)[0]
    if m.statistic == "scores":
        raise MeasurelabError(
            f"{m.name} is a {m.kind} measure and does not depend on the threshold; "
            "best_threshold needs a threshold measure (e.g. 'youden', 'acc', 'f1') or one "
            f"of the rules {RULES}"
        )
    return m


def _rates(counts: BinaryCounts) -> tuple[np.ndarray, np.ndarray]:
    """TP/P and TN/N at every candidate (NaN without the class)."""
    tp, tn = np.asarray(counts.tp), np.asarray(counts.tn)
    p, n = tp[-1], np.asarray(counts.fp)[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        sens = tp / p if p > 0 else np.full(tp.size, np.nan)
        spec = tn / n if n > 0 else np.full(tn.size, np.nan)
    return sens, spec


def _choose(table: ScoreTable, m: Measure, min_sens: float | None,
            min_spec: float | None) -> tuple[int | None, str, np.ndarray, BinaryCounts]:
    """The index of the best candidate (None, and why: 'infeasible' or 'undefined'), the
    candidates' thresholds and counts."""
    thresholds, counts = _candidates(table)
    idx = np.arange(thresholds.size)
    if min_sens is not None or min_spec is not None:
        sens, spec = _rates(counts)
        keep = np.ones(idx.size, dtype=bool)
        if min_sens is not None:
            keep &= sens >= min_sens  # NaN (no positives) reaches nothing
        if min_spec is not None:
            keep &= spec >= min_spec
        idx = idx[keep]
        if idx.size == 0:
            return None, "infeasible", thresholds, counts
    if m.name in RULES and (table.n_pos <= 0 or table.n_neg <= 0):
        return None, "undefined", thresholds, counts
    decided = False
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # 0/0 at the extreme thresholds is expected
        for level in _levels(m):
            if level.statistic == "scores":
                continue  # the same at every threshold: ties everywhere
            kept = _best_of_level(level, table, counts, idx)
            if kept.size == 0:  # NaN at every remaining candidate
                if not decided:
                    return None, "undefined", thresholds, counts
                break  # (a second level undefined everywhere does not discriminate)
            idx, decided = kept, True
    # decreasing thresholds: the largest threshold among the best
    return int(idx.min()), "", thresholds, counts


def best_point(table: ScoreTable, m: Measure, min_sens: float | None = None,
               min_spec: float | None = None) -> tuple[float, float, float, Any, str]:
    """The best operating point of ``table`` for the measure ``m`` (:func:`rule_measure`)
    among the thresholds whose sensitivity and specificity reach ``min_sens`` and
    ``min_spec``: threshold, sens, spec, the value there, and why there is none (''
    when there is one; 'infeasible' or 'undefined', the rest NaN).

    Examples
    --------
    >>> from measurelab.stats.scoretable import ScoreTable
    >>> t = ScoreTable.from_arrays([0, 1, 1, 0], [0.2, 0.6, 0.7, 0.9])
    >>> best_point(t, rule_measure("youden"), min_spec=1.0)
    (0.9, 0.0, 1.0, 0.0, '')
    """
    i, why, thresholds, counts = _choose(table, m, min_sens, min_spec)
    if i is None:
        return math.nan, math.nan, math.nan, math.nan, why
    sens, spec = _rates(counts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = _scalar(m, table, counts, i, False)
    return float(thresholds[i]), float(sens[i]), float(spec[i]), value, ""
