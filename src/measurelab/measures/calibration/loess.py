"""ICI, E50, E90, Emax: the calibration error of R's loess calibration curve (Austin &
Steyerberg 2019).

Binned ECE (:func:`measurelab.measures.calibration.binned.ece`) depends on its bins and is biased;
these measures replace the bins by a smoother of the labels over the predicted
probability, as the reference code (R's ``loess``) defines it. All are functions of the
score table (the distinct probabilities with the weight of positives and negatives at
each), so they merge exactly across chunks; weights are frequencies.

ICI, E50, E90, Emax (``ici``, ``e50``, ``e90``, ``emax``)
    ``|p − ŷ(p)|`` at every case, ``ŷ`` the loess fit of y on p with R's ``loess``
    defaults (span 0.75, degree 2, gaussian family, interpolated surface; :mod:`._loess`)
    **clipped to [0, 1]**: R's ``loess`` does not clip, and on extreme probabilities
    (naive Bayes) its local quadratics leave [0, 1], so that |p − ŷ| can exceed 1; a
    calibration curve is a probability, so ŷ is clipped and the four values lie in
    [0, 1] on any input. Where R's fit lies inside [0, 1], ŷ is R's. Then
    its weighted mean (ICI, the integrated calibration index), median (E50), 90th
    percentile (E90) and maximum (Emax) over the cases (Austin & Steyerberg 2019,
    "The Integrated Calibration Index (ICI) and related metrics for quantifying the
    calibration of logistic regression models", Stat Med 38:4051–4065, whose code calls
    ``loess(y ~ p)``, ``median`` and ``quantile(, 0.9)``). Percentiles are R's default
    (type 7) over the cases, whole weights counting as repeated cases. Undefined (NaN)
    where R's fit is: fewer than 4 cases in the span, or a zero-width neighbourhood (a
    tie group holding at least 75 % of the cases at a vertex of the k-d tree). Binary
    only: the references define no multi-class form. The four are computed together, in
    time linear in the distinct probabilities (:mod:`._loess`), with one array of errors:
    percentiles count the errors into 2¹² bins and sort only the bin holding the wanted
    case, so nothing sorts all errors. With real weights the cumulative weights that
    place a percentile are rounded to about 1e-11 of the total first, so that weights
    such as tenths, which add up to a whole number or one ulp beside it depending on the
    order of the sums, give the same percentile in every order (merged chunks included).

Cost: each measure here is declared 'heavy'
(:attr:`~measurelab.measures.base.Measure.cost`), so ``evaluate(y, p)`` computes them only
when named. The work is linear — a fixed number of passes over the score table's rows —
but the loess's constant (nine vertices, each a local fit over 75 % of the rows) costs
about half of one sort of the scores on large input, which alone put the default set
below its budget (ten times scikit-learn's six measures at 10⁷ cases). Smooth ECE is
:mod:`.smooth`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from measurelab._util.validation import warn_undefined
from measurelab.measures.base import measure
from measurelab.measures.calibration._loess import Surface, loess_surface, surface_at, use_compiled
from measurelab.measures.calibration._rows import weighted_rows
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

__all__ = ["e50", "e90", "emax", "ici", "loess_curve"]


# ----------------------------------------------------------------- ICI and its kin
#: points of one numpy step along the curve (bounded temporaries)
_CHUNK = 1 << 16
#: the errors (in [0, 1]) are counted into this many equal bins to find the bins that
#: hold a percentile, whose few values alone are then sorted (the counts fit a core's
#: fastest cache)
_BINS = 1 << 12


def _curve(t: ScoreTable) -> tuple[np.ndarray, np.ndarray, np.ndarray, Surface] | None:
    """The rows of positive weight (scores, positive and negative weight) and R's loess
    surface over them, or None where the fit is undefined."""
    s, pos, neg = weighted_rows(t)
    if s.size == 0:
        return None
    # whole weights: as the table knows it, else found while the loess adds them up
    known = t.integer if t.integer is not None else t.memo.get("is_integer")
    surface = loess_surface(s, pos, neg, integer=known)
    return None if surface is None else (s, pos, neg, surface)


def loess_curve(t: ScoreTable) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The loess calibration curve of a table: its distinct probabilities (rows of
    positive weight), their weights and R's ``loess(y ~ p)`` fit at each, clipped to
    [0, 1]; None where the fit is undefined.

    R's ``loess`` does not clip: on extreme probabilities its local quadratic can leave
    [0, 1] (a fitted "probability" of −0.3 or 1.4). A calibration curve is a probability,
    so the curve is clipped, and the fit equals R's wherever R's lies inside [0, 1].

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> p = rng.random(50)
    >>> x, w, fit = loess_curve(ScoreTable.from_arrays(rng.random(50) < p, p))
    >>> x.shape == fit.shape == (50,), bool(fit.min() >= 0 and fit.max() <= 1)
    (True, True)
    """
    got = _curve(t)
    if got is None:
        return None
    s, pos, neg, surface = got
    fit = np.empty(s.size)
    for a in range(0, s.size, _CHUNK):
        fit[a:a + _CHUNK] = np.clip(surface_at(surface, s[a:a + _CHUNK]), 0.0, 1.0)
    return s, pos + neg, fit


def _ici_summaries(t: ScoreTable) -> dict[str, float] | None:
    """ICI, E50, E90 and Emax of a table at once (memoized; None where the fit is
    undefined): one loess surface, the errors |p − clipped curve| in one array, and no
    other row-sized array."""
    key = "smooth_calibration.ici"
    if key not in t.memo:
        got = _curve(t)
        t.memo[key] = None if got is None else _summaries(*got)
    return t.memo[key]


def _summaries(s: np.ndarray, pos: np.ndarray, neg: np.ndarray,
               surface: Surface) -> dict[str, float]:
    """Mean, median, 90th percentile and maximum over the cases of the errors
    |p − curve(p)| (curve clipped to [0, 1], so errors in [0, 1]) at rows of weight
    ``pos + neg``. Percentiles are R's ``quantile`` (type 7): value i repeated weight[i]
    times (real weights: the same formula over cumulative weight). The k-th case is found
    without sorting all errors: their weight is counted in ``_BINS`` equal bins (the bin
    of e is ⌊e·_BINS⌋, exact, so bins are ordered as their values), and only the errors
    in the bins holding the wanted cases are sorted. Compiled with the loess sums
    (:func:`measurelab._kernels.loess.errors`: one pass)."""
    err = np.empty(s.size)
    hist = np.zeros(_BINS)
    compiled = use_compiled(s.size)
    if compiled:
        from measurelab._kernels.loess import errors

        wsum, total, top = errors(s, pos, neg, surface.verts, surface.vals, surface.slopes,
                                  err, hist)
    else:
        wsum = total = 0.0
        for a in range(0, s.size, _CHUNK):
            x = s[a:a + _CHUNK]
            e = np.abs(x - np.clip(surface_at(surface, x), 0.0, 1.0))
            m = pos[a:a + _CHUNK] + neg[a:a + _CHUNK]
            err[a:a + _CHUNK] = e
            wsum += float(m.sum())
            total += float((m * e).sum())
            hist += np.bincount(_bin(e), m, minlength=_BINS)
        top = float(err.max())
    out = {"mean": total / wsum, "max": float(top)}
    snap = _no_snap if surface.whole else _snapper(wsum)
    raw = np.cumsum(hist)
    cum = snap(raw)
    wanted: dict[str, tuple[float, int, float]] = {}
    for name, q in (("median", 0.5), ("p90", 0.9)):
        # the case below the position decided on the rounded total, the share of the next
        # one from the total itself (the same, on whole weights)
        lo = math.floor(max(float(cum[-1]) - 1.0, 0.0) * q)
        h = max(float(raw[-1]) - 1.0, 0.0) * q
        wanted[name] = (h, lo, min(max(h - lo, 0.0), 1.0))
    ks = {k for _, lo, frac in wanted.values() for k in ((lo, lo + 1) if frac else (lo,))}
    bins = {k: min(int(np.searchsorted(cum, k, side="right")), _BINS - 1) for k in ks}
    flags = np.zeros(_BINS, dtype=np.bool_)
    flags[list(bins.values())] = True
    if compiled:
        from measurelab._kernels.loess import in_bins

        v, w = in_bins(err, pos, neg, flags)
    else:
        vals, wts = [], []
        for a in range(0, err.size, _CHUNK):
            e = err[a:a + _CHUNK]
            hit = flags[_bin(e)]
            vals.append(e[hit])
            wts.append(pos[a:a + _CHUNK][hit] + neg[a:a + _CHUNK][hit])
        v, w = np.concatenate(vals), np.concatenate(wts)
    order = np.argsort(v, kind="stable")
    v, w = v[order], w[order]
    vb = _bin(v)

    def order_stat(k: int) -> float:  # the k-th case (0-based) in increasing order
        j = bins[k]
        inside = np.flatnonzero(vb == j)
        run = snap((float(cum[j - 1]) if j else 0.0) + np.cumsum(w[inside]))
        return float(v[inside[min(int(np.searchsorted(run, k, side="right")),
                                  inside.size - 1)]])

    for name, (_, lo, frac) in wanted.items():
        x0 = order_stat(lo)
        x1 = order_stat(lo + 1) if frac else x0
        out[name] = x0 if x1 == x0 else (1 - frac) * x0 + frac * x1
    return out


def _no_snap(v: np.ndarray) -> np.ndarray:
    return v


def _snapper(total: float) -> Callable[[np.ndarray], np.ndarray]:
    """Real weights: cumulative weights rounded to multiples of 2⁻³⁶ of the total's
    power of two (about 1e-11 relative). A percentile's position ((W − 1)·q) and the case
    at it are decided by comparing cumulative weights with whole numbers, and weights such
    as tenths add up to a whole number or to one ulp beside it depending on the order of
    the sums (chunks merged in another order); rounding first makes the decision the same
    for every order, as the exact sums would."""
    quantum = math.ldexp(1.0, math.frexp(max(total, 1e-300))[1] - 36)
    return lambda v: np.round(np.asarray(v) / quantum) * quantum


def _bin(e: np.ndarray) -> np.ndarray:
    """The bin of each error in [0, 1]: ⌊e·_BINS⌋, the last bin closed."""
    return np.minimum((e * _BINS).astype(np.int64), _BINS - 1)


def _ici_formula(t: ScoreTable, stat: str, name: str) -> float:
    got = _ici_summaries(t)
    v = math.nan if got is None else got[stat]
    if math.isnan(v):
        warn_undefined(
            f"{name} is undefined here: R's loess(y ~ p) needs at least 4 cases in its "
            "span (0.75 of the cases) and no tie group holding 75 % of them at a vertex; "
            "returning NaN"
        )
    return v


def _ici_block(blk: TableBlock, stat: str) -> np.ndarray:
    """One summary of every table of the block; the four summaries of each table are kept
    in the block's memo, so ICI, E50, E90 and Emax of a block share one loess per table."""
    key = "smooth_calibration.ici"
    if key not in blk.memo:
        blk.memo[key] = [_ici_summaries(blk.table(b)) for b in range(blk.n_blocks)]
    return np.array([math.nan if e is None else e[stat] for e in blk.memo[key]],
                    dtype=np.float64)


def ici_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`ici` (the formula is in the module docstring)."""
    return _ici_block(blk, "mean")


def e50_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`e50` (the formula is in the module docstring)."""
    return _ici_block(blk, "median")


def e90_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`e90` (the formula is in the module docstring)."""
    return _ici_block(blk, "p90")


def emax_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`emax` (the formula is in the module docstring)."""
    return _ici_block(blk, "max")


_SOURCE = ("Austin & Steyerberg 2019 (Stat Med 38:4051), |p − loess(y ~ p)| with R's "
           "loess defaults (span .75, degree 2, interpolated surface), curve clipped to "
           "[0, 1]")


@measure("ici", kind="probability", statistic="scores", range=(0.0, 1.0), cost="heavy",
         higher_is_better=False, aliases=("integrated_calibration_index",),
         source=_SOURCE + ": mean", block=ici_block)
def ici(t: ScoreTable) -> float:
    """Integrated calibration index: the mean over the cases of |p − loess(y ~ p)|
    (Austin & Steyerberg 2019), the loess curve clipped to [0, 1]; lower is better, in
    [0, 1].

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.ici([0, 0, 1, 0, 1, 1, 0, 1, 1, 1],
    ...                      [.1, .2, .3, .35, .5, .6, .65, .7, .8, .9]), 6)
    0.097245
    """
    return _ici_formula(t, "mean", "ici")


@measure("e50", kind="probability", statistic="scores", range=(0.0, 1.0), cost="heavy",
         higher_is_better=False, source=_SOURCE + ": median",
         block=e50_block)
def e50(t: ScoreTable) -> float:
    """E50: the median over the cases of |p − loess(y ~ p)| (Austin & Steyerberg 2019),
    the loess curve clipped to [0, 1]; lower is better, in [0, 1].

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.e50([0, 0, 1, 0, 1, 1, 0, 1, 1, 1],
    ...                      [.1, .2, .3, .35, .5, .6, .65, .7, .8, .9]), 6)
    0.1
    """
    return _ici_formula(t, "median", "e50")


@measure("e90", kind="probability", statistic="scores", range=(0.0, 1.0), cost="heavy",
         higher_is_better=False, source=_SOURCE + ": 90th percentile",
         block=e90_block)
def e90(t: ScoreTable) -> float:
    """E90: the 90th percentile over the cases of |p − loess(y ~ p)| (R's type 7; Austin
    & Steyerberg 2019), the loess curve clipped to [0, 1]; lower is better, in [0, 1].

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.e90([0, 0, 1, 0, 1, 1, 0, 1, 1, 1],
    ...                      [.1, .2, .3, .35, .5, .6, .65, .7, .8, .9]), 6)
    0.190312
    """
    return _ici_formula(t, "p90", "e90")


@measure("emax", kind="probability", statistic="scores", range=(0.0, 1.0), cost="heavy",
         higher_is_better=False, source=_SOURCE + ": maximum",
         block=emax_block)
def emax(t: ScoreTable) -> float:
    """Emax: the largest |p − loess(y ~ p)| over the cases (Austin & Steyerberg 2019),
    the loess curve clipped to [0, 1]; lower is better, in [0, 1].

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.emax([0, 0, 1, 0, 1, 1, 0, 1, 1, 1],
    ...                       [.1, .2, .3, .35, .5, .6, .65, .7, .8, .9]), 6)
    0.313118
    """
    return _ici_formula(t, "max", "emax")
