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
* **The debiased calibration terms** (``brier_mcb``, ``brier_dsc``, ``logloss_dsc``,
  :mod:`measurelab.measures.calibration.debiased`): the derivative of the raw estimate in
  the weight of a case, its probability cells held (:func:`calibration_influence`). Each
  is the empirical form of the population influence, a difference of per-case losses
  minus the term: for the recalibration map c(p) = P(y = 1 | p), a loss minimiser, the
  first-order effect of re-fitting it vanishes (the envelope argument), so
  MCB = E[S(p, y) − S(c(p), y)] has IF = S(p, y) − S(c(p), y) − MCB and
  DSC = E[S(π, y) − S(c(p), y)] has IF = S(π, y) − S(c(p), y) − DSC (S the Brier or
  log score). The Brier miscalibration of a calibrated model (c = p) has influence 0:
  its estimate is a degenerate U-statistic there, and the derivative keeps only its
  noise (an overestimate of its variance, about twice it).
* **The calibration slope and intercept** (M-estimators: the logistic recalibration's
  score equations Σᵢ wᵢ(yᵢ − μᵢ)zᵢ = 0, zᵢ = (1, logit pᵢ)): IF = W·I⁻¹(y − μ)z, I the
  fit's information Σ w·μ(1 − μ)z zᵀ; the slope's is its second entry, the intercept's
  (logit p an offset, z = 1) W(y − μ)/Σ w·μ(1 − μ). Its variance is the sandwich
  I⁻¹(Σ w(y − μ)²z zᵀ)I⁻¹, which is I⁻¹ when the logistic recalibration model holds.

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

__all__ = ["CALIBRATION_TERMS", "calibration_influence", "case_influence", "case_variance",
           "distance_sign", "has_influence", "influence_interval", "multi_kind",
           "row_influence", "table_variance"]

#: the debiased calibration terms with an influence function here (the log-loss
#: miscalibration has none: its bias correction fails for extreme probabilities, so no
#: standard error would make its interval cover)
CALIBRATION_TERMS = ("brier_mcb", "brier_dsc", "logloss_dsc")

#: relative step of the central differences of a counts measure (× the total)
_STEP = 1e-6


def _formulas() -> dict[str, Callable[..., Any]]:
    from measurelab.measures import probability, ranking
    from measurelab.measures.calibration import logistic

    return {"auc": ranking.auc, "ap": ranking.ap, "brier": probability.brier,
            "rms": probability.rms, "mxe": probability.mxe,
            "cal_slope": logistic.cal_slope, "cal_intercept": logistic.cal_intercept}


def _kind_of(measure: Any) -> str | None:
    """'auc', 'ap', 'brier', 'rms', 'mxe', 'cal_slope', 'cal_intercept', 'counts', a
    calibration term or None (no influence function here)."""
    for key, f in _formulas().items():
        if measure.formula is f:
            return key
    from measurelab.measures.calibration import debiased

    for key in CALIBRATION_TERMS:
        if measure.formula is getattr(debiased, key):
            return key
    if measure.statistic == "counts" and measure.kind == "threshold" and \
            measure.levels is None:
        return "counts"
    return None


def has_influence(measure: Any) -> bool:
    """Whether the binary ``measure`` has an influence function here (the counts
    measures, AUC, AP, Brier, RMS, log loss, the calibration slope and intercept, the
    debiased Brier miscalibration and the Brier and log-loss discrimination).

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> [has_influence(registry.get(k)) for k in ("f1", "ap", "mxe", "lift")]
    [True, True, True, False]
    """
    return _kind_of(measure) is not None


#: counts measures whose k-class value reads the probability rows, not the confusion cells
READS_ROWS = ("top_k_acc",)


def multi_kind(measure: Any, average: str | None) -> str | None:
    """How a k-class measure's influence function is formed here, or None (none here):
    'counts' (the delta method over the k × k confusion cells, any average), 'hand_till'
    (AUC, ``average='macro'``: the pairs' placements), 'ovr' (a binary measure with an
    influence function on each class against the rest, ``average`` macro or None:
    AUC, AP), 'brier', 'rms' or 'mxe' (a mean of a per-case loss).

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> [multi_kind(registry.get(k), "macro") for k in ("f1", "auc", "ap", "mxe", "ece")]
    ['counts', 'hand_till', 'ovr', 'mxe', None]
    >>> multi_kind(registry.get("auc"), None), multi_kind(registry.get("auc"), "micro")
    ('ovr', None)
    """
    kind = _kind_of(measure)
    if measure.multiclass is None or kind is None or measure.name in READS_ROWS:
        return None
    if kind in ("counts", "brier", "rms", "mxe"):   # the k-class value: any average
        return kind
    if average not in ("macro", None):
        return None
    if kind == "auc" and average == "macro":   # Hand & Till's M
        return "hand_till"
    return "ovr"


def distance_sign(measure: Any, value: float) -> float:
    """The factor on a model's influence in a paired or unpaired difference of ``measure``:
    1, or for a measure with a target t (a comparison reports |a − t| − |b − t|) the
    derivative of |v − t| at the model's value, sign(v − t) (0 at the target itself, the
    kink). A single model's variance does not depend on it.

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> distance_sign(registry.get("cal_slope"), 0.8), distance_sign(registry.get("ap"), 0.8)
    (-1.0, 1.0)
    """
    if measure.target is None:
        return 1.0
    return float(np.sign(value - measure.target)) if math.isfinite(value) else math.nan


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
    if table.total <= 0:
        return np.full(table.size, math.nan), np.full(table.size, math.nan)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "counts":
            ifp, ifn = _counts(measure, table, threshold, inclusive)
        elif kind == "auc":
            ifp, ifn = _auc(table)
        elif kind == "ap":
            ifp, ifn = _ap(table)
        elif kind in CALIBRATION_TERMS:
            ifp, ifn = calibration_influence(kind, table)[1:]
        elif kind in ("cal_slope", "cal_intercept"):
            ifp, ifn = _logistic(table, kind == "cal_slope")
        else:
            ifp, ifn = _loss(kind, measure, table)
    # rows without a case of a class have no influence of that class (the arrays are this
    # call's own: marked in place)
    ifp[~(table.pos > 0)] = np.nan
    ifn[~(table.neg > 0)] = np.nan
    return ifp, ifn


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
    v10 -= auc   # (v − AUC)·W/n, in place
    v10 *= w
    v10 /= n1
    v01 -= auc
    v01 *= w
    v01 /= n0
    return v10, v01


def _ap(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    # in place where the arithmetic allows, each array released once used: a table of 10**7
    # rows holds a few of them at a time, not a dozen
    pos, neg = table.pos[::-1], table.neg[::-1]   # descending scores
    tp, fp = np.cumsum(pos), np.cumsum(neg)
    d = tp + fp
    some = d > 0
    prec = np.divide(tp, d, out=np.zeros_like(d), where=some)
    n1 = float(tp[-1]) if tp.size else 0.0
    d2 = np.multiply(d, d, out=d)   # d², 1 where there is no case at or above
    d2[~some] = 1.0
    del some
    none = ~(pos > 0)
    a = np.multiply(pos, fp, out=fp)
    a /= d2
    a[none] = 0.0
    b = np.multiply(pos, tp, out=tp)
    b /= d2
    b[none] = 0.0
    del d2, none, d
    ap = float(np.dot(pos, prec)) / n1
    big_a = np.cumsum(a[::-1])[::-1]   # rows at or below (in score) each row
    del a, fp
    big_b = np.cumsum(b[::-1])[::-1]
    del b, tp
    scale = table.total / n1
    prec -= ap
    prec += big_a
    prec *= scale
    del big_a
    big_b *= -scale
    return prec[::-1], big_b[::-1]


def _loss(kind: str, measure: Any, table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    s = table.scores
    if kind == "mxe":
        from measurelab.measures.probability import EPS

        scale = 1.0 / math.log(float(measure.params.get("base", math.e)))
        # −log(p)·scale and −log1p(−p)·scale, in place (two arrays of the table's length)
        lp = np.clip(s, EPS, 1 - EPS)
        ln = np.negative(lp)
        np.log(lp, out=lp)
        np.negative(lp, out=lp)
        lp *= scale
        np.log1p(ln, out=ln)
        np.negative(ln, out=ln)
        ln *= scale
    else:
        lp = np.subtract(1.0, s)
        lp **= 2
        ln = s * s
    mean = (float(np.dot(table.pos, lp)) + float(np.dot(table.neg, ln))) / table.total
    lp -= mean
    ln -= mean
    if kind == "rms":
        root = math.sqrt(mean)
        lp /= 2 * root
        ln /= 2 * root
    return lp, ln


#: the memo key of a table's probability cells and their sums
_CELLS_MEMO = "influence.calibration_cells"


def _cell_sums(table: ScoreTable) -> tuple[np.ndarray, ...]:
    """The rows of each probability cell (as the debiased estimates bin the table: the
    cells are runs of rows) — their first row and their number — and the cells' sums:
    weight, positives, Σ r, Σ r² (r = p − y) and the log loss (clipped as the estimates
    clip it). Arrays over the cells, memoized on the table: the three terms share one
    pass."""
    if _CELLS_MEMO in table.memo:
        return table.memo[_CELLS_MEMO]
    from measurelab.inference.calibration import _cell_starts
    from measurelab.measures.probability import EPS

    starts = _cell_starts(table)
    counts = np.diff(np.append(starts, table.size))
    s, p, q = table.scores, table.pos, table.neg

    def per_cell(x: np.ndarray) -> np.ndarray:
        return np.add.reduceat(x, starts) if starts.size else np.zeros(0)

    m = p + q
    w, y = per_cell(m), per_cell(p)
    m *= s
    m -= p   # Σ r = Σ (s·(p + q) − p)
    r = per_cell(m)
    m = q * (s * s)
    m += p * (1.0 - s) ** 2
    r2 = per_cell(m)
    c = np.clip(s, EPS, 1.0 - EPS)   # as the estimates clip before the logs
    m = np.log(c)
    m *= p
    np.log1p(-c, out=c)
    c *= q
    m += c
    loss = -per_cell(m)
    out = (starts, counts, w, y, r, r2, loss)
    table.memo[_CELLS_MEMO] = out
    return out


def _xlogy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x·log y, 0 where x is 0."""
    return np.where(x != 0, x * np.log(np.where(x != 0, y, 1.0)), 0.0)


def calibration_influence(name: str, table: ScoreTable
                          ) -> tuple[float, np.ndarray, np.ndarray]:
    """The raw (unclipped) estimate of the debiased calibration term ``name``
    ('brier_mcb', 'brier_dsc' or 'logloss_dsc') and the influence of one positive and of
    one negative case at each row of ``table``: n times the derivative of the estimate in
    that case's weight, its cells held.

    With n the total weight, π = P/n the positive share and, in the case's cell b of
    weight n_b, S_b = Σ r, Q_b = Σ r² (r = p − y) and ȳ_b its positive share:

    * MCB = (1/n) Σ_b (S_b² − Q_b)/(n_b − 1): IF = (2 S_b r − r²)/(n_b − 1) −
      (S_b² − Q_b)/(n_b − 1)² − MCB → 2 r·d_b − d_b² − MCB, d_b = S_b/n_b (that is
      (p − y)² − (c − y)² − MCB with c = p − d_b, the cell's recalibrated probability);
    * Brier DSC = MCB + π(1 − π)·n/(n − 1) − Σ Q/n: the MCB's influence plus the
      uncertainty's, (y(n − P) + P(1 − y) − (2n − 1)·π(1 − π)·n/(n − 1))/(n − 1), less
      r² − Σ Q/n;
    * log-loss DSC = LMCB + H(π) + 1/(2n) − L/n, LMCB = (1/n) Σ_b (L_b − n_b H(ȳ_b) −
      ½) (L the log loss, H the binary entropy): IF = −ℓ(ȳ_b, y) + H'(π)(y − π) + L/n
      − LMCB − 1/(2n) (ℓ the log loss of a probability) — the cell's log loss of its
      own share, a loss minimiser, where the log loss of p cancels.

    A cell of weight at most 1 holds no pair and adds nothing (its cases' terms from
    the cell are 0).

    Examples
    --------
    One probability, 0.9, for 20 cases of which 10 are positive: one cell with S = 8,
    Q = 8.2, so a positive (r = −0.1) has (2·8·(−0.1) − 0.01)/19 − (64 − 8.2)/19² −
    0.146842 (near its limit 2r·d − d² − MCB, d = 0.4):

    >>> t = ScoreTable.from_arrays([1, 0] * 10, [0.9] * 20)
    >>> raw, ifp, ifn = calibration_influence("brier_mcb", t)
    >>> round(raw, 6), round(float(ifp[0]), 5), round(float(ifn[0]), 5)
    (0.146842, -0.38615, 0.41385)
    """
    if name not in CALIBRATION_TERMS:
        raise ValueError(f"{name} is not a calibration term with an influence function")
    _starts, counts, w, y, r, r2, loss = _cell_sums(table)
    n, big_p = float(w.sum()), float(y.sum())
    s = table.scores
    pair = w > 1
    den = np.where(pair, w - 1.0, 1.0)

    def rows(x: np.ndarray) -> np.ndarray:   # a value of each cell at each of its rows
        return np.repeat(x, counts)

    with np.errstate(divide="ignore", invalid="ignore"):
        if name == "logloss_dsc":
            share = np.where(w > 0, y / np.where(w > 0, w, 1.0), 0.0)
            ent = -(_xlogy(share, share) + _xlogy(1.0 - share, 1.0 - share))
            lmcb = float(np.sum(np.where(pair, loss - w * ent - 0.5, 0.0))) / n
            pi = big_p / n
            h_pi = -(_xlogy(np.array(pi), np.array(pi))
                     + _xlogy(np.array(1.0 - pi), np.array(1.0 - pi)))
            raw = lmcb + float(h_pi) + 0.5 / n - float(loss.sum()) / n
            slope = math.log((1.0 - pi) / pi) if 0 < pi < 1 else 0.0   # H'(π)
            base = float(loss.sum()) / n - lmcb - 0.5 / n
            # −ℓ(ȳ_b, y) = y log ȳ_b + (1 − y) log(1 − ȳ_b), where the cell holds a pair
            own_p = rows(np.log(np.where(share > 0, share, 1.0)))
            own_n = rows(np.log(np.where(share < 1, 1.0 - share, 1.0)))
            if not pair.all():   # outside a pair cell a case keeps −ℓ(p, y), its own loss's
                from measurelab.measures.probability import EPS

                inside = rows(pair)
                c = np.clip(s, EPS, 1.0 - EPS)
                own_p = np.where(inside, own_p, np.log(c))
                own_n = np.where(inside, own_n, np.log1p(-c))
            own_p += slope * (1.0 - pi) + base
            own_n += base - slope * pi
            return raw, own_p, own_n
        u = np.where(pair, (r * r - r2) / den, 0.0)
        mcb = float(u.sum()) / n
        # a case's MCB influence is a + b·r − r²/(n_b − 1) in its cell (0 + 0 outside a
        # pair cell), less MCB: a = −U_b/(n_b − 1), b = 2 S_b/(n_b − 1)
        a_c = np.where(pair, -u / den, 0.0) - mcb
        b_c = np.where(pair, 2.0 * r / den, 0.0)
        c_c = np.where(pair, -1.0 / den, 0.0)
        if name == "brier_dsc":
            g = big_p * (n - big_p) / (n * (n - 1.0))   # π(1 − π)·n/(n − 1)
            brier = float(r2.sum()) / n
            a_c = a_c + brier   # the Brier score's −(r² − Σ Q/n): its constant here
            c_c = c_c - 1.0     # ... and its −r²
            unc_p = ((n - big_p) - g * (2.0 * n - 1.0)) / (n - 1.0)
            unc_n = (big_p - g * (2.0 * n - 1.0)) / (n - 1.0)
        else:
            unc_p = unc_n = 0.0
        a_r, b_r, c_r = rows(a_c), rows(b_c), rows(c_c)
        out = []
        for rr, unc in ((s - 1.0, unc_p), (s, unc_n)):   # r of a positive, a negative
            infl = c_r * rr
            infl += b_r
            infl *= rr
            infl += a_r
            infl += unc
            out.append(infl)
        raw = mcb if name == "brier_mcb" else mcb + g - brier
        return raw, out[0], out[1]


def _logistic(table: ScoreTable, slope: bool) -> tuple[np.ndarray, np.ndarray]:
    from measurelab.measures.calibration import logistic

    a, b = logistic.fit(table, slope=slope)
    if math.isnan(a):
        return np.full(table.size, math.nan), np.full(table.size, math.nan)
    x = logistic.logits(table.scores)
    info = logistic.information(table, a, b, slope=slope)
    mu = 1.0 / (1.0 + np.exp(-(a + b * x)))
    if slope:
        row = np.linalg.inv(info)[1]   # the slope's row of I⁻¹
        lever = table.total * (row[0] + row[1] * x)
    else:
        lever = np.full(table.size, table.total / float(info[0, 0]))
    return lever * (1.0 - mu), lever * (-mu)


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
    ss = 0.0
    for count, infl, n_class in ((table.pos, ifp, table.n_pos), (table.neg, ifn, table.n_neg)):
        x = np.where(count > 0, infl, 0.0)   # one class at a time: one array at a time
        if np.isnan(x).any():
            return math.nan
        if design == "fixed":
            x -= float(np.dot(count, x)) / max(n_class, 1e-300)
        x *= x
        ss += float(np.dot(count, x))
        del x
    return ss / table.total ** 2


#: cases a pass over the cases handles at a time (its temporaries are this long, not n)
_CHUNK = 1 << 20


def _chunks(n: int) -> range:
    return range(0, n, _CHUNK) if n else range(0, 1)


def case_influence(ifp: np.ndarray, ifn: np.ndarray, rows: np.ndarray, y: np.ndarray, *,
                   minus: np.ndarray | None = None, n0: int | None = None) -> np.ndarray:
    """Each case's influence from its row and class (``minus``: subtracted from that array
    in place and returned — a paired difference without a second n-sized array; ``n0``:
    the cases are the ``n0`` negatives, then the positives, as a
    :class:`~measurelab.inference.bootstrap.CaseDesign` holds them — one gather a case).

    Examples
    --------
    >>> case_influence(np.array([1., 2.]), np.array([-1., -2.]), np.array([1, 0, 1]),
    ...                np.array([True, False, False])).tolist()
    [2.0, -1.0, -2.0]
    >>> case_influence(np.array([1., 2.]), np.array([-1., -2.]), np.array([0, 1, 1]),
    ...                np.array([False, False, True]), n0=2).tolist()
    [-1.0, -2.0, 2.0]
    """
    out = np.empty(rows.size) if minus is None else minus
    for i in _chunks(rows.size):
        r = rows[i:i + _CHUNK]
        if n0 is None:
            yc = y[i:i + _CHUNK]
            value = np.where(yc, ifp[r], ifn[r])
        else:   # the chunk's negatives, then its positives
            cut = min(max(n0 - i, 0), r.size)
            value = np.empty(r.size)
            np.take(ifn, r[:cut], out=value[:cut])
            np.take(ifp, r[cut:], out=value[cut:])
        if minus is None:
            out[i:i + _CHUNK] = value
        else:
            out[i:i + _CHUNK] -= value
    return out


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
    n = infl.size
    if n == 0 or any(np.isnan(infl[i:i + _CHUNK]).any() for i in _chunks(n)):
        return math.nan
    # by chunks of _CHUNK cases (the sums of a test set of at most _CHUNK cases are the
    # single dot products of the arrays; larger ones add the chunks' in order)
    w = None if weight is None else np.asarray(weight, dtype=np.float64)
    ones = np.ones(min(n, _CHUNK))

    def parts(g: Any) -> Any:
        for i in _chunks(n):
            ig = infl[i:i + _CHUNK]
            wg = ones[:ig.size] if w is None else w[i:i + _CHUNK]
            if g is not None:
                gc = g[i:i + _CHUNK]
                wg, ig = wg[gc], ig[gc]
            yield wg, ig

    total = float(n) if w is None else float(w.sum())   # (a sum of ones is exact)
    ss = 0.0
    for g in ([y, ~y] if design == "fixed" else [None]):
        count, sw, sdot = 0, 0.0, 0.0
        for wg, ig in parts(g):
            count += wg.size
            sdot += float(np.dot(wg, ig))
            sw += float(wg.sum())
        if count == 0:
            continue
        m = sdot / sw
        for wg, ig in parts(g):
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
