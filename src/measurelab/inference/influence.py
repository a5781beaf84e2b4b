"""Large-sample intervals from influence functions: the standard error of a measure (or of
a paired difference of two models' measures) as a sum over the cases, with no resampling.

For a measure θ = T(F) of the distribution of (score, class), θ̂ − θ ≈ (1/W) Σᵢ wᵢ·IF(zᵢ),
W = Σᵢ wᵢ, so Var(θ̂) ≈ Σᵢ wᵢ²·IF(zᵢ)² / W², and a paired difference has the influence
IF_A(zᵢ) − IF_B(zᵢ) of each case. Every case at one row of a score table (one distinct
score) and of one class has the same influence, so the influence is a pair of arrays over
the table's rows — :func:`row_influence` — computed from the exact table in one pass; the
sums over the cases are a second pass, and both merge over parts of the data.

* **Measures of the confusion counts** (F1, MCC, precision, kappa, …): the delta method.
  With g the measure of the counts n = (tp, fp, fn, tn) and N their total, a case in cell
  c has IF = N·∂g/∂n_c − Σ_c' n_c'·∂g/∂n_c' (the gradient by central differences of the
  measure's own formula, step 10⁻⁶·N).
* **AUC**: DeLong's placements, IF = (V₁₀ − AUC)·W/P for a positive and
  (V₀₁ − AUC)·W/N for a negative (P, N the class totals).
* **Average precision** AP = Σ_r pos_r·prec_r / P over the rows r (prec_r the precision
  at the threshold s_r, ties one step): IF = W·∂AP/∂w, its derivative in the weight of a
  case's row and class, which is W/P·(prec_k − AP + A_k) for a positive at row k and
  −W/P·B_k for a negative, A_k and B_k the sums over the rows at or below k of
  pos_r·fp_r/d_r² and pos_r·tp_r/d_r² (tp_r, fp_r, d_r = tp_r + fp_r the counts at or
  above s_r).
* **Means of a per-case loss** (Brier, log loss): IF = loss − mean; RMS = √Brier:
  IF_Brier / (2·RMS).

A random sample (class counts vary) sums the squares as they are; fixed class counts
centre the influence within each class. The interval is θ̂ ± z·SE (clipped to the
measure's range); the paired test is the z-test of the difference on the same standard
error, so the interval excludes 0 exactly when p < 1 − level.

Examples
--------
>>> import numpy as np
>>> from measurelab.measures.base import registry
>>> from measurelab.stats.scoretable import ScoreTable
>>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.9])
>>> ifp, ifn = row_influence(registry.get("brier"), t)
>>> round(float(table_variance(t, ifp, ifn)), 6)
0.003768
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.scoretable import ScoreTable

__all__ = ["case_influence", "case_variance", "has_influence", "influence_interval",
           "row_influence", "table_variance"]

#: relative step of the central differences of a counts measure (× the total)
_STEP = 1e-6


def _formulas() -> dict[str, Callable[..., Any]]:
    from measurelab.measures import probability, ranking

    return {"auc": ranking.auc, "ap": ranking.ap, "brier": probability.brier,
            "rms": probability.rms, "mxe": probability.mxe}


def _kind_of(measure: Any) -> str | None:
    """'auc', 'ap', 'brier', 'rms', 'mxe', 'counts' or None (no influence function here)."""
    for key, f in _formulas().items():
        if measure.formula is f:
            return key
    if measure.statistic == "counts" and measure.kind == "threshold" and \
            measure.levels is None:
        return "counts"
    return None


def has_influence(measure: Any) -> bool:
    """Whether the binary ``measure`` has an influence function here (the counts
    measures, AUC, AP, Brier, RMS, log loss).

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> [has_influence(registry.get(k)) for k in ("f1", "ap", "mxe", "lift")]
    [True, True, True, False]
    """
    return _kind_of(measure) is not None


def row_influence(measure: Any, table: ScoreTable, *, threshold: float = 0.5,
                  inclusive: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The influence of one positive and of one negative case at each row of ``table``
    (two arrays over its rows, scores ascending); NaN where the measure is undefined.

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> t = ScoreTable.from_arrays([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> ifp, ifn = row_influence(registry.get("auc"), t)
    >>> ifp.tolist(), ifn.tolist()   # rows at 0.1, 0.7, 0.8, 0.9
    ([nan, -0.5, nan, 0.5], [0.5, nan, -0.5, nan])
    """
    kind = _kind_of(measure)
    if kind is None:
        raise ValueError(f"{measure.name} has no influence function here")
    nan = np.full(table.size, math.nan)
    if table.total <= 0:
        return nan, nan.copy()
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "counts":
            ifp, ifn = _counts(measure, table, threshold, inclusive)
        elif kind == "auc":
            ifp, ifn = _auc(table)
        elif kind == "ap":
            ifp, ifn = _ap(table)
        else:
            ifp, ifn = _loss(kind, measure, table)
    # rows without a case of a class have no influence of that class
    return np.where(table.pos > 0, ifp, np.nan), np.where(table.neg > 0, ifn, np.nan)


def _counts(measure: Any, table: ScoreTable, threshold: float, inclusive: bool
            ) -> tuple[np.ndarray, np.ndarray]:
    c = table.counts_at(threshold, inclusive=inclusive)
    n = np.array([c.tp, c.fp, c.fn, c.tn], dtype=np.float64)
    total = float(n.sum())
    h = _STEP * total
    g = np.empty(4)
    for i in range(4):
        up, down = n.copy(), n.copy()
        up[i] += h
        if n[i] >= h:
            down[i] -= h
            g[i] = (_value(measure, up) - _value(measure, down)) / (2 * h)
        else:   # a cell at 0: the one-sided difference
            g[i] = (_value(measure, up) - _value(measure, n)) / h
    infl = total * g - float(np.dot(n, g))   # tp, fp, fn, tn
    flagged = table.scores >= threshold if inclusive else table.scores > threshold
    return (np.where(flagged, infl[0], infl[2]), np.where(flagged, infl[1], infl[3]))


def _value(measure: Any, n: np.ndarray) -> float:
    return float(measure.formula(BinaryCounts(*(float(v) for v in n)), **measure.params))


def _auc(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    from measurelab.inference.delong import delong_placements

    v10, v01 = delong_placements(table)
    n1, n0 = table.n_pos, table.n_neg
    auc = float(np.dot(table.pos, v10) / n1)
    w = table.total
    return (v10 - auc) * w / n1, (v01 - auc) * w / n0


def _ap(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    pos, neg = table.pos[::-1], table.neg[::-1]   # descending scores
    tp, fp = np.cumsum(pos), np.cumsum(neg)
    d = tp + fp
    prec = np.divide(tp, d, out=np.zeros_like(d), where=d > 0)
    n1 = float(tp[-1]) if tp.size else 0.0
    ap = float(np.dot(pos, prec)) / n1
    d2 = np.where(d > 0, d * d, 1.0)
    a = np.where(pos > 0, pos * fp / d2, 0.0)
    b = np.where(pos > 0, pos * tp / d2, 0.0)
    big_a = np.cumsum(a[::-1])[::-1]   # rows at or below (in score) each row
    big_b = np.cumsum(b[::-1])[::-1]
    scale = table.total / n1
    ifp = scale * (prec - ap + big_a)
    ifn = -scale * big_b
    return ifp[::-1], ifn[::-1]


def _loss(kind: str, measure: Any, table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    s = table.scores
    if kind == "mxe":
        from measurelab.measures.probability import EPS

        p = np.clip(s, EPS, 1 - EPS)
        scale = 1.0 / math.log(float(measure.params.get("base", math.e)))
        lp, ln = -np.log(p) * scale, -np.log1p(-p) * scale
    else:
        lp, ln = (1.0 - s) ** 2, s * s
    mean = (float(np.dot(table.pos, lp)) + float(np.dot(table.neg, ln))) / table.total
    ifp, ifn = lp - mean, ln - mean
    if kind == "rms":
        root = math.sqrt(mean)
        return ifp / (2 * root), ifn / (2 * root)
    return ifp, ifn


def table_variance(table: ScoreTable, ifp: np.ndarray, ifn: np.ndarray, *,
                   design: str = "random") -> float:
    """Var(θ̂) of whole-count cases from the rows' influence: Σ_r (pos_r·ifp_r² +
    neg_r·ifn_r²) / N², centred within each class when the class counts are fixed
    (``design='fixed'``). NaN where a case's influence is undefined.

    Examples
    --------
    >>> t = ScoreTable.from_arrays([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> table_variance(t, np.array([0., 0., 0., 0.]), np.array([1., 0., 1., 0.]))
    0.125
    """
    p = np.where(table.pos > 0, ifp, 0.0)
    q = np.where(table.neg > 0, ifn, 0.0)
    if np.isnan(p).any() or np.isnan(q).any():
        return math.nan
    if design == "fixed":
        p = p - float(np.dot(table.pos, p)) / max(table.n_pos, 1e-300)
        q = q - float(np.dot(table.neg, q)) / max(table.n_neg, 1e-300)
    ss = float(np.dot(table.pos, p * p)) + float(np.dot(table.neg, q * q))
    return ss / table.total ** 2


def case_influence(ifp: np.ndarray, ifn: np.ndarray, rows: np.ndarray, y: np.ndarray
                   ) -> np.ndarray:
    """Each case's influence from its row and class.

    Examples
    --------
    >>> case_influence(np.array([1., 2.]), np.array([-1., -2.]), np.array([1, 0, 1]),
    ...                np.array([True, False, False])).tolist()
    [2.0, -1.0, -2.0]
    """
    return np.where(y, ifp[rows], ifn[rows])


def case_variance(infl: np.ndarray, y: np.ndarray, weight: np.ndarray | None = None, *,
                  design: str = "random") -> float:
    """Var(θ̂) ≈ Σᵢ wᵢ²(IFᵢ − m)² / W² from each case's influence (of one model, or the
    difference of two models' for a paired difference), m its weighted mean (0 up to
    rounding), within each class when the class counts are fixed.

    Examples
    --------
    >>> case_variance(np.array([1., -1., 1., -1.]), np.array([True, True, False, False]))
    0.25
    """
    w = np.ones(infl.size) if weight is None else np.asarray(weight, dtype=np.float64)
    if infl.size == 0 or np.isnan(infl).any():
        return math.nan
    total = float(w.sum())
    groups = [y, ~y] if design == "fixed" else [np.ones(y.size, dtype=bool)]
    ss = 0.0
    for g in groups:
        wg, ig = w[g], infl[g]
        if wg.size == 0:
            continue
        m = float(np.dot(wg, ig)) / float(wg.sum())
        r = wg * (ig - m)
        ss += float(np.dot(r, r))
    return ss / total ** 2


def influence_interval(value: float, var: float, level: float,
                       bounds: tuple[float, float] = (-math.inf, math.inf)
                       ) -> tuple[float, float, float]:
    """(lo, hi, se): value ± z·SE at ``level``, clipped to ``bounds``; NaN where the value
    or the variance is undefined.

    Examples
    --------
    >>> [round(x, 4) for x in influence_interval(0.9, 0.0004, 0.95, (0.0, 1.0))]
    [0.8608, 0.9392, 0.02]
    """
    if not (math.isfinite(value) and math.isfinite(var)):
        return math.nan, math.nan, math.nan
    from measurelab.inference._base import _z

    se = math.sqrt(max(var, 0.0))
    half = _z(level) * se
    return max(bounds[0], value - half), min(bounds[1], value + half), se
