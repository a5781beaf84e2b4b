"""Intervals of any function of the confusion matrix from the posterior of its cells: the
method that keeps its level with a handful of cases in a class or of predicted positives
(docs/METHODS.md#small-counts).

With 5–20 positives the bootstrap of a threshold measure lives on the few values the
sample allows (it collapses to a point when TP or FP is 0), and its percentile or BCa
interval misses the population value far more often than 5%. The cells of the confusion
matrix are multinomial; under a Dirichlet prior their posterior is Dirichlet, and any
measure of the cells — F1, MCC, kappa, balanced accuracy, likelihood ratios, … — has a
posterior too: draw cell vectors, evaluate the measure on each, and take equal-tailed
quantiles (Caelen 2017, "A Bayesian interpretation of the confusion matrix", Ann Math
Artif Intell 81:429; Tötsch & Hoffmann 2021, "Classifier uncertainty: evidence, potential
impact, and probabilistic treatment", PeerJ Comput Sci 7:e398). The prior is 0.5 a cell
(Jeffreys-type), which keeps every cell's posterior proper and pulls an empty cell off 0.

The designs:

* ``'random'`` (a random sample of cases): one Dirichlet over the 4 cells of one model,
  or over the 8 joint cells class × decision of A × decision of B of a pair;
* ``'fixed'`` (class counts fixed by design): one Dirichlet per class (the 2 cells of one
  model, the 4 joint cells of a pair), scaled to the class's count;
* unpaired (two test sets): each set's own posterior, drawn independently.

The test of a difference is its posterior tail at 0, p = 2·min(share ≤ 0, share ≥ 0), and
its interval the matching order statistics of the same draws, so the interval excludes 0
exactly when p < 1 − level (:func:`tail_interval`). At large counts the posterior is the
delta method's normal and agrees with the bootstrap.

Examples
--------
>>> import numpy as np
>>> from measurelab.measures.base import registry
>>> from measurelab.stats.confusion import BinaryCounts
>>> c = BinaryCounts(tp=6, fp=3, fn=2, tn=89)
>>> draws = single_draws(c, "random", np.random.default_rng(0))
>>> lo, hi = equal_tailed(measure_draws(registry.get("f1"), draws), 0.95)
>>> bool(lo < 12 / 17 < hi), round(lo, 2), round(hi, 2)   # F1 = 2·6 / (2·6 + 3 + 2)
(True, 0.41, 0.88)
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.stats.confusion import BinaryCounts

__all__ = [
    "DRAWS",
    "PRIOR",
    "equal_tailed",
    "joint_counts",
    "measure_draws",
    "paired_draws",
    "single_draws",
    "tail_interval",
]

#: posterior draws of the cells per interval (Monte Carlo error of a 2.5% tail ≈ 0.0016)
DRAWS = 10_000
#: the Dirichlet prior's weight on each cell (Jeffreys-type)
PRIOR = 0.5


def _design(design: str) -> str:
    if design not in ("random", "fixed"):
        raise MeasurelabError(f"design={design!r} is not valid for the posterior of the "
                              "confusion cells; expected 'random' or 'fixed'")
    return design


def single_draws(counts: BinaryCounts, design: str, rng: np.random.Generator,
                 draws: int = DRAWS) -> BinaryCounts:
    """Posterior draws of one model's confusion cells, scaled to the sample's counts: a
    :class:`BinaryCounts` of arrays of length ``draws``.

    Parameters
    ----------
    counts : BinaryCounts
        The model's whole confusion counts.
    design : {'random', 'fixed'}
        A random sample (one Dirichlet over the 4 cells, scaled to n) or fixed class counts
        (a Beta per class, scaled to that class's count).
    rng : numpy.random.Generator
    draws : int, default :data:`DRAWS`

    Examples
    --------
    >>> import numpy as np
    >>> d = single_draws(BinaryCounts(3, 1, 2, 4), "fixed", np.random.default_rng(1), 5)
    >>> np.allclose(d.tp + d.fn, 5), np.allclose(d.fp + d.tn, 5)
    (True, True)
    """
    cells = np.array([counts.tp, counts.fp, counts.fn, counts.tn], dtype=np.float64)
    if _design(design) == "random":
        g = rng.dirichlet(cells + PRIOR, size=draws) * cells.sum()
        return BinaryCounts(g[:, 0], g[:, 1], g[:, 2], g[:, 3])
    pos, neg = cells[0] + cells[2], cells[1] + cells[3]
    s = rng.beta(cells[0] + PRIOR, cells[2] + PRIOR, size=draws)
    f = rng.beta(cells[1] + PRIOR, cells[3] + PRIOR, size=draws)
    return BinaryCounts(pos * s, neg * f, pos * (1.0 - s), neg * (1.0 - f))


def joint_counts(y: np.ndarray, pred_a: np.ndarray, pred_b: np.ndarray) -> np.ndarray:
    """The 8 joint cells of a pair: ``out[c, i, j]`` = cases of class c (1 = positive)
    that A decides i and B decides j (1 = positive), whole counts.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([1, 1, 0, 0, 1]); a = np.array([1, 0, 0, 1, 1]); b = np.array([1, 1, 0, 0, 0])
    >>> joint_counts(y, a, b)[1].tolist()    # positives: (A, B) = (1, 1), (0, 1), (1, 0)
    [[0, 1], [1, 1]]
    """
    idx = (np.asarray(y, dtype=bool).astype(np.int64) * 4
           + np.asarray(pred_a, dtype=bool).astype(np.int64) * 2
           + np.asarray(pred_b, dtype=bool).astype(np.int64))
    return np.bincount(idx, minlength=8).reshape(2, 2, 2)


def paired_draws(joint: np.ndarray, design: str, rng: np.random.Generator,
                 draws: int = DRAWS) -> tuple[BinaryCounts, BinaryCounts]:
    """Posterior draws of two models' confusion cells on the same cases, from their joint
    cells (:func:`joint_counts`): one Dirichlet over the 8 cells (``'random'``) or one over
    the 4 cells of each class (``'fixed'``), scaled to the counts; returns A's and B's
    counts as :class:`BinaryCounts` of arrays.

    Examples
    --------
    >>> import numpy as np
    >>> j = np.arange(1, 9).reshape(2, 2, 2)
    >>> a, b = paired_draws(j, "random", np.random.default_rng(2), 4)
    >>> np.allclose(a.tp + a.fp + a.fn + a.tn, 36), np.allclose(a.tp + a.fn, b.tp + b.fn)
    (True, True)
    """
    joint = np.asarray(joint, dtype=np.float64).reshape(2, 2, 2)
    if _design(design) == "random":
        g = rng.dirichlet(joint.ravel() + PRIOR, size=draws) * joint.sum()
        g = g.reshape(draws, 2, 2, 2)
    else:
        g = np.empty((draws, 2, 2, 2))
        for c in (0, 1):
            g[:, c] = (rng.dirichlet(joint[c].ravel() + PRIOR, size=draws)
                       * joint[c].sum()).reshape(draws, 2, 2)
    neg, pos = g[:, 0], g[:, 1]
    a = BinaryCounts(pos[:, 1].sum(axis=1), neg[:, 1].sum(axis=1), pos[:, 0].sum(axis=1),
                     neg[:, 0].sum(axis=1))
    b = BinaryCounts(pos[:, :, 1].sum(axis=1), neg[:, :, 1].sum(axis=1),
                     pos[:, :, 0].sum(axis=1), neg[:, :, 0].sum(axis=1))
    return a, b


def measure_draws(measure: Any, draws: BinaryCounts) -> np.ndarray:
    """``measure`` (a registered measure over counts) on every drawn cell vector, without
    warnings: NaN where it is undefined.

    Examples
    --------
    >>> import numpy as np
    >>> from measurelab.measures.base import registry
    >>> d = BinaryCounts(np.array([1.0, 2.0]), np.ones(2), np.ones(2), np.array([3.0, 4.0]))
    >>> measure_draws(registry.get("acc"), d).tolist()
    [0.6666666666666666, 0.75]
    """
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            out = np.asarray(measure.formula(draws, **measure.params), dtype=np.float64)
        except (TypeError, ValueError):
            out = None
        n = np.asarray(draws.tp).shape[0]
        if out is None or out.shape != (n,):   # a formula that does not take arrays
            out = np.array([float(measure.formula(BinaryCounts(
                *(float(np.asarray(v)[i]) for v in (draws.tp, draws.fp, draws.fn,
                                                   draws.tn))), **measure.params))
                for i in range(n)])
    return out


def _order(m: int, alpha: float) -> int:
    """The smallest j ≥ 1 with 2·j/m ≥ alpha: a tail count c is below it exactly when
    2·c/m < alpha (the same floating-point expression as the p-value)."""
    j = max(1, math.ceil(alpha * m / 2.0))
    while j > 1 and 2.0 * (j - 1) / m >= alpha:
        j -= 1
    while 2.0 * j / m < alpha:
        j += 1
    return j


def equal_tailed(values: np.ndarray, level: float,
                 bounds: tuple[float, float] = (-math.inf, math.inf)) -> tuple[float, float]:
    """The equal-tailed interval of posterior draws at ``level``; an undefined draw (NaN)
    counts at both ends of ``bounds`` (the measure's range), never dropped.

    Examples
    --------
    >>> equal_tailed(np.arange(1, 101) / 100, 0.9)
    (0.05, 0.96)
    """
    lo, hi, _p = tail_interval(values, level, bounds, centre=None)
    return lo, hi


def tail_interval(values: np.ndarray, level: float,
                  bounds: tuple[float, float] = (-math.inf, math.inf), *,
                  centre: float | None = 0.0) -> tuple[float, float, float]:
    """The equal-tailed interval of posterior draws and the two-sided posterior tail at
    ``centre``: p = min(1, 2·min(#{v ≤ centre}, #{v ≥ centre}) / m) over the m draws (an
    undefined draw counts on both sides). The ends are order statistics chosen with the
    same arithmetic, so ``lo > centre or hi < centre`` exactly when ``p < 1 − level``.
    ``centre=None``: no test (p is NaN).

    Examples
    --------
    >>> v = np.linspace(0.01, 0.2, 100)
    >>> lo, hi, p = tail_interval(v, 0.95)
    >>> bool(lo > 0), p
    (True, 0.0)
    >>> lo, hi, p = tail_interval(v - 0.19, 0.95)    # 6 of 100 draws at or above 0
    >>> bool(hi < 0), p
    (False, 0.12)
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    m = v.size
    if m == 0:
        raise MeasurelabError("tail_interval needs at least one draw")
    alpha = 1.0 - level
    j = _order(m, alpha)
    nan = np.isnan(v)
    if j > m:
        lo, hi = float(bounds[0]), float(bounds[1])
    elif not nan.any():   # the two order statistics in linear time, no sort
        part = np.partition(v, [j - 1, m - j])
        lo, hi = float(part[j - 1]), float(part[m - j])
    else:
        lo = float(np.partition(np.where(nan, bounds[0], v), j - 1)[j - 1])
        hi = float(np.partition(np.where(nan, bounds[1], v), m - j)[m - j])
    if centre is None:
        return lo, hi, math.nan
    le = int(np.count_nonzero(nan | (v <= centre)))
    ge = int(np.count_nonzero(nan | (v >= centre)))
    p = min(1.0, 2.0 * min(le, ge) / m)
    return lo, hi, p
