"""Calibration error of a smoothed calibration curve: smooth ECE (Błasiok & Nakkiran 2023)
and ICI, E50, E90, Emax (Austin & Steyerberg 2019).

Binned ECE (:func:`measurelab.measures.probability.ece`) depends on its bins and is biased;
these measures replace the bins by a smoother of the labels over the predicted
probability, each as its reference implementation defines it. All are functions of the
score table (the distinct probabilities with the weight of positives and negatives at
each), so they merge exactly across chunks; weights are frequencies.

Smooth ECE (``smece``)
    Residuals ``r = p − y`` smoothed over ``p`` with a Gaussian kernel reflected at 0 and
    1, at bandwidth σ: ``smECE_σ = ∫₀¹ |Σᵢ wᵢ rᵢ K_σ(t, pᵢ)| dt / ∫₀¹ Σᵢ wᵢ K_σ(t, pᵢ) dt``;
    smooth ECE is ``smECE_σ*`` at the bandwidth where ``σ* = smECE_σ*`` (Błasiok &
    Nakkiran 2023, "Smooth ECE: principled reliability diagrams via kernel smoothing").
    Computed as relplot 1.0 (``relplot.smECE``) computes it: the
    cases are split linearly onto a grid of ``E = max(2000, round(20/σ)) // 2 + 1`` points
    of [0, 1], convolved with the kernel sampled on the grid (truncated to ±0.5, reflected
    once at each end), read by linear interpolation at ``T = max(round(10/σ), 200)``
    equally spaced points whose sums replace the integrals; σ* is located as relplot
    locates it, by ten halvings of [0, 1] keeping the upper end (σ < 0.001 counts as
    below the fixed point), so σ* is within 2⁻¹⁰ above the fixed point; and, as relplot,
    with 1e-4 added to the smoothed density at every evaluation point (weights count
    cases: a relative effect of about 2e-5·5/n on n cases). Agreement with relplot's
    ``smECE``: 1e-16 measured, 1e-9 asserted (tests/measures/test_smooth_calibration.py).
    Locating the exact fixed point instead would change the value by up to about 3e-4 on
    the same data. A bootstrap block runs the bandwidth searches of all its tables in
    step (one batch of FFTs per halving).
    k classes: the top-label (confidence) reduction relplot provides
    (``multiclass_logits_to_confidences``): smooth ECE of the arg-max probability against
    "the arg-max class is the true one".

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

Cost: each measure here is 'sort' (:attr:`~measurelab.measures.base.Measure.cost`): a
fixed number of passes over the score table's rows (smooth ECE: one per grid its
bandwidth search visits, compiled from 2¹⁸ rows with the same bits).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from measurelab._util.validation import warn_undefined
from measurelab.measures._loess import Surface, loess_surface, surface_at, use_compiled
from measurelab.measures.base import measure
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

__all__ = ["e50", "e90", "emax", "ici", "loess_curve", "smece", "smece_bandwidth"]


def _rows(t: ScoreTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scores, positive and negative weights of the rows that carry weight (the table's
    own arrays when every row does)."""
    if t.all_rows_weighted:
        return t.scores, t.pos, t.neg
    keep = (t.pos + t.neg) > 0
    return t.scores[keep], t.pos[keep], t.neg[keep]


# ------------------------------------------------------------------------- smooth ECE
#: relplot adds this to the smoothed density at every evaluation point (weights count cases)
_DENSITY_FLOOR = 1e-4
#: spectra of the sampled kernels by (σ, grid size): the bandwidth search of every table
#: visits the same few σ (halvings of [0, 1]), so a bootstrap computes each once
_KERNELS: dict[tuple[float, int], np.ndarray] = {}
_KERNELS_MAX = 512
#: the linear interpolation from the grid to the evaluation points, by their sizes
_READ: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
#: tables of a block searched together (memory: about 66 kB of spectra per table)
_SMOOTH_TABLES = 256


def _sizes(sigma: float) -> tuple[int, int, int]:
    """relplot's grid size e and number of evaluation points at bandwidth σ, and the FFT
    length: the convolution of the grid reflected by e // 2 points at each end with the
    e-point kernel (relplot's reflection and alignment, for odd and even e) needs e of its
    outputs only, free of wrap-around from a circular convolution of length >= 2e − 1."""
    e = max(2000, round(20 / sigma)) // 2 + 1
    return e, max(round(10 / sigma), 200), 1 << (2 * e - 2).bit_length()


def _kernel_spectrum(sigma: float, e: int, nfft: int) -> np.ndarray:
    """FFT of the Gaussian kernel of bandwidth σ sampled at the e grid offsets −½ .. ½."""
    key = (sigma, e)
    got = _KERNELS.get(key)
    if got is None:
        u = np.linspace(0, 1, e) - 0.5
        with np.errstate(under="ignore"):  # the far tails of a narrow kernel are 0
            kernel = np.exp(-u * u / (2 * sigma * sigma)) / (math.sqrt(2 * math.pi) * sigma)
            got = np.fft.rfft(kernel, nfft)
        if len(_KERNELS) >= _KERNELS_MAX:
            _KERNELS.clear()
        _KERNELS[key] = got
    return got


def _reader(e: int, n_eval: int) -> tuple[np.ndarray, np.ndarray]:
    """Grid index and weight of linear interpolation at n_eval points evenly spaced on
    [0, 1] from e grid points (np.interp's)."""
    key = (e, n_eval)
    if key not in _READ:
        t = np.linspace(0, 1, n_eval)
        grid = np.arange(e) / (e - 1)
        j = np.clip(np.searchsorted(grid, t, side="right") - 1, 0, e - 2)
        _READ[key] = (j, (t - grid[j]) / (grid[j + 1] - grid[j]))
    return _READ[key]


class _Smoother:
    """smECE_σ of a stack of tables over the same distinct probabilities (one bootstrap
    block, or one table) at one σ per table (relplot's discretisation). Each table's
    numbers come from the same operations whatever the size of the stack, so a block
    equals its tables one by one, bit for bit."""

    def __init__(self, s: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> None:
        self.s = s
        self.pos = pos
        self.neg = neg
        self.n_tables = pos.shape[0]
        self._weights: np.ndarray | None = None
        self._common: np.ndarray | None = None  # the spectra on the coarsest grid

    @property
    def weights(self) -> np.ndarray:
        """(B, 2, R): the residual p − y and the weight of every row (the numpy route)."""
        if self._weights is None:
            m = self.pos + self.neg
            self._weights = np.stack([self.s * m - self.pos, m], axis=1)
        return self._weights

    def _grid(self, e: int, rows: np.ndarray | None) -> np.ndarray:
        """(tables, 2, e): the residual and weight sums of tables ``rows`` (None: all)
        split linearly onto the e grid points of [0, 1]. Compiled from 2¹⁸ rows (the
        ``"smece_grid"`` route: the same sums bit for bit, no row-sized temporaries)."""
        from measurelab._kernels.routing import use_compiled

        if use_compiled("smece_grid", self.s.size):
            from measurelab._kernels.smece import split_onto_grid

            every = rows is None or rows.size == self.n_tables  # rows: sorted, distinct
            pos, neg = (self.pos, self.neg) if every else (self.pos[rows], self.neg[rows])
            return split_onto_grid(self.s, pos, neg, e)
        w = self.weights if rows is None else self.weights[rows]
        at = self.s * (e - 1)
        b = np.clip(at.astype(np.int64), 0, e - 2)
        frac = at - b
        n = w.shape[0] * 2
        flat = w.reshape(n, -1)
        idx = (np.arange(n)[:, None] * e + b[None, :]).ravel()
        return (np.bincount(idx, (flat * (1 - frac)).ravel(), minlength=n * e)
                + np.bincount(idx + 1, (flat * frac).ravel(), minlength=n * e)
                ).reshape(-1, 2, e)

    def _spectrum(self, e: int, nfft: int, rows: np.ndarray) -> np.ndarray:
        """The FFT of the residual and weight sums of tables ``rows`` split linearly onto
        the e grid points of [0, 1] and reflected by e // 2 points at both ends; the
        coarsest grid (σ ≥ 0.01, every search starts there) is kept for all tables."""
        common = e == _sizes(1.0)[0]
        if common and self._common is not None:
            return self._common[rows]
        v = self._grid(e, None if common else rows)
        c = e // 2
        ext = np.concatenate([v[..., c:0:-1], v, v[..., -2:-2 - c:-1]], axis=-1)
        with np.errstate(under="ignore"):
            spectrum = np.fft.rfft(ext, nfft, axis=-1)
        if not common:
            return spectrum
        self._common = spectrum
        return spectrum[rows]

    def values(self, sigma: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """smECE at bandwidth sigma[i] of table rows[i]."""
        out = np.empty(rows.size)
        for sig in np.unique(sigma).tolist():
            at_sig = np.flatnonzero(sigma == sig)
            e, n_eval, nfft = _sizes(sig)
            # the convolution by FFT (numpy's: no scipy import), its e central values read
            # at the evaluation points
            spectrum = self._spectrum(e, nfft, rows[at_sig])
            with np.errstate(under="ignore"):
                full = np.fft.irfft(spectrum * _kernel_spectrum(sig, e, nfft), nfft, axis=-1)
            j, r = _reader(e, n_eval)
            j = j + 2 * (e // 2)  # grid point i is output 2·(e // 2) + i (odd or even e)
            at = full[..., j] * (1 - r) + full[..., j + 1] * r
            out[at_sig] = np.abs(at[:, 0]).sum(axis=-1) / (at[:, 1].sum(axis=-1)
                                                           + _DENSITY_FLOOR * n_eval)
        return out

    def _below(self, sigma: np.ndarray) -> np.ndarray:
        """σ is below the fixed point: σ < 0.001 (then smECE_σ is not computed, as
        relplot's ``or``), or σ < smECE_σ."""
        out = sigma < 0.001
        rest = np.flatnonzero(~out)
        if rest.size:
            out[rest] = sigma[rest] < self.values(sigma[rest], rest)
        return out

    def bandwidth(self) -> np.ndarray:
        """relplot's σ* of each table: ten halvings of [0, 1] towards σ = smECE_σ, the
        upper end kept (1 when σ = 1 is already below the fixed point)."""
        n = self.n_tables
        hi, lo = np.ones(n), np.zeros(n)
        at_one = self._below(np.ones(n))
        for _ in range(10):
            mid = (hi + lo) / 2
            below = self._below(mid)
            lo = np.where(below, mid, lo)
            hi = np.where(below, hi, mid)
        return np.where(at_one, 1.0, hi)


def _smece_block_values(scores: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """smece of each table (rows of pos, neg over the same scores); NaN for no cases."""
    out = np.full(pos.shape[0], np.nan)
    ok = np.flatnonzero(pos.sum(axis=1) + neg.sum(axis=1) > 0)
    for a in range(0, ok.size, _SMOOTH_TABLES):  # chunks bound the spectra's memory
        rows = ok[a:a + _SMOOTH_TABLES]
        if rows[-1] - rows[0] == rows.size - 1:  # consecutive tables: views, no copies
            sm = _Smoother(scores, pos[rows[0]:rows[-1] + 1], neg[rows[0]:rows[-1] + 1])
        else:
            sm = _Smoother(scores, pos[rows], neg[rows])
        out[rows] = sm.values(sm.bandwidth(), np.arange(rows.size))
    return out


def _smece_value(t: ScoreTable) -> float:
    return float(_smece_block_values(t.scores, t.pos[None, :], t.neg[None, :])[0])


def smece_bandwidth(t: ScoreTable) -> float:
    """The bandwidth σ* at which :func:`smece` smooths (relplot's search).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 1, 1, 0, 1], [0.1, 0.8, 0.6, 0.3, 0.9])
    >>> round(smece_bandwidth(t), 6)
    0.167969
    """
    if not t.total > 0:
        return math.nan
    return float(_Smoother(t.scores, t.pos[None, :], t.neg[None, :]).bandwidth()[0])


def smece_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`smece`: the bandwidth searches of all tables in step."""
    return _smece_block_values(blk.scores, blk.pos, blk.neg)


def _smece_multi(stats: Any, average: str | None = "macro") -> float:
    return smece(stats.rows.confidence)


@measure(
    "smece",
    kind="probability",
    statistic="scores",
    higher_is_better=False,
    aliases=("smooth_ece",),
    multiclass=_smece_multi,
    source="Błasiok & Nakkiran 2023 smooth ECE (reflected Gaussian kernel, σ = smECE_σ; "
    "relplot 1.0 smECE); k classes: top-label confidence",
    block=smece_block,
)
def smece(t: ScoreTable) -> float:
    """Smooth ECE: kernel-smoothed |p − y| at the bandwidth σ = smECE_σ (Błasiok &
    Nakkiran 2023; relplot's ``smECE``); lower is better. k classes: of the arg-max
    confidence (top-label).

    The formula and its discretisation are in the module docstring.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.smece([0, 1, 1, 0, 1], [0.1, 0.8, 0.6, 0.3, 0.9]), 6)
    0.166961
    """
    v = _smece_value(t)
    if math.isnan(v):
        warn_undefined("smece is undefined with no cases; returning NaN")
    return v


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
    s, pos, neg = _rows(t)
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
        a = order_stat(lo)
        b = order_stat(lo + 1) if frac else a
        out[name] = a if b == a else (1 - frac) * a + frac * b
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


@measure("ici", kind="probability", statistic="scores", range=(0.0, 1.0),
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


@measure("e50", kind="probability", statistic="scores", range=(0.0, 1.0),
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


@measure("e90", kind="probability", statistic="scores", range=(0.0, 1.0),
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


@measure("emax", kind="probability", statistic="scores", range=(0.0, 1.0),
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
