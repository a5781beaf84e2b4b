"""The calibration slope and calibration-in-the-large: logistic recalibration of the scores.

Regress the outcome on the logit of the predicted probability (Cox 1958, "Two further
applications of a model for binary regression", Biometrika 45:562; the "weak" and "mean"
levels of Van Calster et al. 2016, J Clin Epidemiol 74:167, as R's ``rms::val.prob``
reports them):

* ``cal_slope`` — β of logit P(y = 1) = α + β·logit(p). 1 for a calibrated model; < 1
  the predictions are too extreme (over-fitted), > 1 too cautious.
* ``cal_intercept`` — α of logit P(y = 1) = α + logit(p), logit(p) an offset
  (calibration-in-the-large). 0 for a calibrated model; > 0 the predictions are on the
  whole too low, < 0 too high.

Both are maximum-likelihood fits with the case weights as frequencies — the values of
statsmodels' ``GLM(y, [1, logit p], family=Binomial(), freq_weights=w)`` (with
``offset=logit p`` and a constant alone for the intercept). The registry records their
targets, 1 and 0 (``Measure.target``): rankings, "best" and scorers order models by the
distance to the target.

**The summary.** The log-likelihood Σᵢ wᵢ[yᵢηᵢ − log(1 + e^ηᵢ)], ηᵢ = α + β·logit(pᵢ),
depends on the data only through the weighted positives and negatives at each distinct
score: the score table is a sufficient statistic, and the fit runs on it (a Newton
iteration over its rows, step-halved when the likelihood would fall). Merging tables of
parts of the data and fitting gives the fit of the whole, up to the rounding of the
iteration (no sum statistic of fixed size carries the fit: the table does).

**Clipping.** Scores of exactly 0 or 1 have no logit; they are clipped to [ε, 1 − ε]
(ε = 2.2e-16) as ``mxe`` clips them (logit ±36.04), with a warning, since such a point
weighs heavily on the slope.

**Undefined.** No case of one class; for the slope also separation — every positive at
a logit at or above every negative's (or at or below), all scores equal among them — where
the maximum-likelihood slope is infinite: NaN with an UndefinedMeasureWarning. So is a fit
that does not converge in :data:`MAX_ITER` steps.
"""

from __future__ import annotations

import math

import numpy as np

from measurelab.measures._rules import EPS
from measurelab.measures.base import measure
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

#: Newton steps before a fit is declared not converged
MAX_ITER = 100
#: a fit has converged when no parameter moves more than this in a step
TOL = 1e-11
#: halvings of a Newton step that would lower the likelihood
_HALVINGS = 40
#: the largest move of a parameter in one step (logit units): far from the maximum, where
#: the information of clipped extreme scores is ~e^−36, a Newton step is astronomically
#: long; capped, the fit walks there in steps the halving can check
MAX_STEP = 8.0


def logits(scores: np.ndarray) -> np.ndarray:
    """logit(p) with p clipped to [ε, 1 − ε] as ``mxe`` clips it (ε = 2.2e-16).

    Examples
    --------
    >>> logits(np.array([0.5, 0.0, 1.0])).round(2).tolist()
    [0.0, -36.04, 36.04]
    """
    p = np.clip(scores, EPS, 1 - EPS)
    return np.log(p) - np.log1p(-p)


def _terms(eta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """μ = 1/(1 + e^−η), 1 − μ and log(1 + e^−η), each accurate far into the tails (η
    clipped to ±700, where e^−η stays finite): one exp and one log1p an entry."""
    e = np.exp(-np.clip(eta, -700.0, 700.0))
    mu = 1.0 / (1.0 + e)
    return mu, e * mu, np.log1p(e)


def _loglik(eta: np.ndarray, log1pe: np.ndarray, w: np.ndarray, neg: np.ndarray
            ) -> np.ndarray:
    # Σ pos·log μ + neg·log(1 − μ) = −Σ w·log(1 + e^−η) − Σ neg·η, by rows
    return -(w * log1pe).sum(axis=1) - (neg * eta).sum(axis=1)


def _expit(eta: np.ndarray) -> np.ndarray:
    # 1 / (1 + e^−η)
    return _terms(eta)[0]


def _undefined_rows(x: np.ndarray, pos: np.ndarray, neg: np.ndarray,
                    slope: bool) -> np.ndarray:
    """Rows whose fit has no finite maximum: one class absent; for the slope also
    (quasi-)separation of the logits."""
    has_p, has_n = pos > 0, neg > 0
    bad = np.asarray(~has_p.any(axis=1) | ~has_n.any(axis=1))
    if slope:
        lo_p = np.where(has_p, x, np.inf).min(axis=1)
        hi_p = np.where(has_p, x, -np.inf).max(axis=1)
        lo_n = np.where(has_n, x, np.inf).min(axis=1)
        hi_n = np.where(has_n, x, -np.inf).max(axis=1)
        bad = bad | (lo_p >= hi_n) | (hi_p <= lo_n)
    return np.asarray(bad)


def fit_block(blk: TableBlock, *, slope: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The logistic recalibration of every table of ``blk``: (α, β) of shape (B,) each.
    ``slope=False``: the intercept with logit(p) as offset (β = 1). NaN where the fit is
    undefined (one class, separation) or does not converge.

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 1, 0, 1, 1], [0.2, 0.3, 0.6, 0.7, 0.9])
    >>> a, b = fit_block(TableBlock(t.scores, t.pos[None], t.neg[None]))
    >>> round(float(a[0]), 6), round(float(b[0]), 6)
    (0.326529, 0.92032)
    """
    x = blk.score_cached("logistic_logits", logits)
    pos = np.asarray(blk.pos, dtype=np.float64)
    neg = np.asarray(blk.neg, dtype=np.float64)
    n_b = pos.shape[0]
    bad = _undefined_rows(x, pos, neg, slope)
    if not slope:
        return _intercepts(x, pos, neg, bad), np.where(bad, np.nan, 1.0)
    a, b = np.zeros(n_b), np.ones(n_b)
    if n_b > 1 and not bad.all():   # resamples of one table: start all at the pooled fit
        pa, pb = fit_block(TableBlock(blk.scores, pos[~bad].sum(axis=0)[None],
                                      neg[~bad].sum(axis=0)[None]), slope=slope)
        if np.isfinite(pa[0]) and np.isfinite(pb[0]):
            a[:], b[:] = pa[0], pb[0]
    active = ~bad
    done = np.zeros(n_b, dtype=bool)
    with np.errstate(all="ignore"):
        idx = np.flatnonzero(active)
        p, q = pos[idx], neg[idx]
        w = p + q
        eta = a[idx, None] + b[idx, None] * x
        mu, nu, l1p = _terms(eta)
        old = _loglik(eta, l1p, w, q)
        for _ in range(MAX_ITER):
            if idx.size == 0:
                break
            r = p * nu - q * mu                  # = pos − w·μ, without cancellation
            v = w * mu * nu
            g0 = r.sum(axis=1)
            h00 = v.sum(axis=1)
            if slope:
                g1 = r @ x
                h01 = v @ x
                h11 = v @ (x * x)
                det = h00 * h11 - h01 * h01
                da = (h11 * g0 - h01 * g1) / det
                db = (h00 * g1 - h01 * g0) / det
            else:
                da = g0 / h00
                db = np.zeros_like(da)
            longest = np.maximum(np.abs(da), np.abs(db))
            step = np.where(longest > MAX_STEP, MAX_STEP / longest, 1.0)
            worse = np.zeros(idx.size, dtype=bool)
            for _h in range(_HALVINGS):   # halve the steps that would lower the likelihood
                eta = (a[idx] + step * da)[:, None] + (b[idx] + step * db)[:, None] * x
                mu, nu, l1p = _terms(eta)
                new = _loglik(eta, l1p, w, q)
                worse = ~(new >= old - 1e-12 * np.abs(old))
                if not worse.any():
                    break
                step[worse] *= 0.5
            if worse.any():   # no ascent left at this precision: stay (the maximum)
                step[worse] = 0.0
                eta = a[idx, None] + b[idx, None] * x
                mu, nu, l1p = _terms(eta)
                new = _loglik(eta, l1p, w, q)
            old = new
            a[idx] += step * da
            b[idx] += step * db
            moved = np.maximum(np.abs(step * da), np.abs(step * db))
            conv = moved <= TOL * (1.0 + np.maximum(np.abs(a[idx]), np.abs(b[idx])))
            stuck = ~np.isfinite(moved)
            done[idx[conv]] = True
            active[idx[stuck]] = False
            keep = ~(conv | stuck)
            if not keep.all():   # go on with the rows still moving
                idx = idx[keep]
                p, q, w, eta, mu, nu, old = p[keep], q[keep], w[keep], eta[keep], mu[keep], \
                    nu[keep], old[keep]
    ok = active & done
    a[~ok] = np.nan
    b[~ok] = np.nan
    if not slope:
        b[ok] = 1.0
    return a, b


def _intercepts(x: np.ndarray, pos: np.ndarray, neg: np.ndarray, bad: np.ndarray
                ) -> np.ndarray:
    """α of logit P(y = 1) = α + x for every row: the root of the score equation
    g(α) = Σ pos − Σ w·expit(α + x), which falls in α, by Newton's method kept inside a
    bracket of the root (a bisection step where Newton's would leave it). The bracket:
    with L = logit(Σ pos / Σ w), g ≥ 0 at L − max x and ≤ 0 at L − min x (every μ below,
    or above, the share of positives)."""
    n_b = pos.shape[0]
    out = np.full(n_b, np.nan)
    idx = np.flatnonzero(~bad)
    if idx.size == 0:
        return out
    p, q = pos[idx], neg[idx]
    w = p + q
    held = w > 0
    share = p.sum(axis=1) / w.sum(axis=1)
    lg = np.log(share) - np.log1p(-share)
    lo = lg - np.where(held, x, -np.inf).max(axis=1)
    hi = lg - np.where(held, x, np.inf).min(axis=1)
    a = np.clip(np.zeros(idx.size), lo, hi)
    done = np.zeros(idx.size, dtype=bool)
    with np.errstate(all="ignore"):
        for _ in range(4 * MAX_ITER):   # bisection alone halves a width of 72 in ~50
            live = np.flatnonzero(~done)
            if live.size == 0:
                break
            mu, nu, _l = _terms(a[live, None] + x)
            g = (p[live] * nu).sum(axis=1) - (q[live] * mu).sum(axis=1)
            h = (w[live] * mu * nu).sum(axis=1)
            lo[live] = np.where(g > 0, a[live], lo[live])   # the root lies above a
            hi[live] = np.where(g < 0, a[live], hi[live])
            new = a[live] + g / h
            inside = np.isfinite(new) & (new > lo[live]) & (new < hi[live])
            new = np.where(inside, new, 0.5 * (lo[live] + hi[live]))
            moved = np.abs(new - a[live])
            a[live] = new
            # converged: a Newton step this short (the next would be far shorter), or a
            # bracket as narrow as the rounding of α
            done[live] = (g == 0) | (inside & (moved <= TOL * (1.0 + np.abs(new)))) | \
                (hi[live] - lo[live] <= 4e-16 * (1.0 + np.abs(new)))
    out[idx] = np.where(done, a, np.nan)
    return out


def information(t: ScoreTable, a: float, b: float, *, slope: bool = True) -> np.ndarray:
    """The observed (= expected) information of the fit at (α, β): Σ w·μ(1 − μ)·z zᵀ
    with z = (1, logit p) — a 2 × 2 matrix; 1 × 1 (Σ w·μ(1 − μ)) for the intercept.

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 1], [0.5, 0.5])
    >>> information(t, 0.0, 1.0).tolist()
    [[0.5, 0.0], [0.0, 0.0]]
    """
    x = logits(t.scores)
    eta = a + b * x
    v = (t.pos + t.neg) * _expit(eta) * _expit(-eta)
    if not slope:
        return np.array([[float(v.sum())]])
    return np.array([[float(v.sum()), float(v @ x)], [float(v @ x), float(v @ (x * x))]])


def _warn_scalar(t: ScoreTable, name: str, value: float, slope: bool) -> None:
    from measurelab._util.validation import warn_undefined

    weighted = (t.pos + t.neg) > 0
    if weighted.any():
        s = t.scores[weighted]
        if s[0] < EPS or s[-1] > 1 - EPS:
            import warnings

            warnings.warn(f"{name}: scores of exactly 0 or 1 (or within 2.2e-16 of them) are "
                          "clipped to [2.2e-16, 1 − 2.2e-16] as mxe clips them, logit ±36.04;"
                          " such a score weighs heavily on the fit", UserWarning, stacklevel=4)
    if not math.isnan(value):
        return
    if t.n_pos <= 0 or t.n_neg <= 0:
        why = "the cases hold one class only"
    elif slope and bool(_undefined_rows(logits(t.scores), t.pos[None], t.neg[None], True)[0]):
        why = ("the positives' and the negatives' scores do not overlap (separation; or all "
               "scores are equal), so the maximum-likelihood slope is infinite")
    else:
        why = f"the logistic fit did not converge in {MAX_ITER} steps"
    warn_undefined(f"{name} is undefined: {why}; returning NaN", 4)


def cal_slope_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`cal_slope`."""
    return fit_block(blk, slope=True)[1]


def cal_intercept_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`cal_intercept`."""
    return fit_block(blk, slope=False)[0]


def _one(t: ScoreTable, slope: bool) -> tuple[float, float]:
    a, b = fit_block(TableBlock(t.scores, t.pos[None], t.neg[None]), slope=slope)
    return float(a[0]), float(b[0])


_SOURCE = ("Cox 1958 (Biometrika 45:562) logistic recalibration; the calibration hierarchy "
           "of Van Calster et al. 2016 (J Clin Epidemiol 74:167), as R's rms::val.prob")


@measure("cal_slope", kind="probability", statistic="scores", range=(-math.inf, math.inf),
         higher_is_better=False, target=1.0, cost="heavy",
         aliases=("calibration_slope",), block=cal_slope_block,
         source=_SOURCE + ": β of logit P(y=1) = α + β·logit(p); 1 = calibrated")
def cal_slope(t: ScoreTable) -> float:
    """Calibration slope: β of the logistic regression logit P(y = 1) = α + β·logit(p),
    weights as frequencies; 1 when calibrated, < 1 too extreme, > 1 too cautious (target
    1: ranked by |β − 1|). p clipped to [ε, 1 − ε] as ``mxe`` clips it.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.cal_slope([0, 1, 0, 1, 1], [0.2, 0.3, 0.6, 0.7, 0.9]), 6)
    0.92032
    """
    v = _one(t, True)[1]
    _warn_scalar(t, "cal_slope", v, True)
    return v


@measure("cal_intercept", kind="probability", statistic="scores",
         range=(-math.inf, math.inf), higher_is_better=False, target=0.0, cost="heavy",
         aliases=("calibration_in_the_large", "citl"), block=cal_intercept_block,
         source=_SOURCE + ": α of logit P(y=1) = α + logit(p), logit(p) an offset; "
         "0 = calibrated in the large")
def cal_intercept(t: ScoreTable) -> float:
    """Calibration-in-the-large: α of logit P(y = 1) = α + logit(p), logit(p) an offset,
    weights as frequencies; 0 when calibrated in the large, > 0 the predictions too low,
    < 0 too high (target 0: ranked by |α|). p clipped to [ε, 1 − ε] as ``mxe`` clips it.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.cal_intercept([0, 1, 0, 1, 1], [0.2, 0.3, 0.6, 0.7, 0.9]), 6)
    0.332244
    """
    v = _one(t, False)[0]
    _warn_scalar(t, "cal_intercept", v, False)
    return v


def fit(t: ScoreTable, *, slope: bool = True) -> tuple[float, float]:
    """(α, β) of the logistic recalibration of ``t`` (β = 1 for ``slope=False``); NaN where
    undefined (no warning: the measures warn).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 1, 0, 1, 1], [0.2, 0.3, 0.6, 0.7, 0.9])
    >>> [round(v, 6) for v in fit(t, slope=False)]
    [0.332244, 1.0]
    """
    return _one(t, slope)
