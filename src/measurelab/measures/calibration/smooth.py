"""Smooth ECE: the calibration error of a kernel-smoothed calibration curve (Błasiok &
Nakkiran 2023).

Binned ECE (:func:`measurelab.measures.calibration.binned.ece`) depends on its bins and is biased;
smooth ECE replaces the bins by a smoother of the labels over the predicted
probability, as its reference implementation (relplot) defines it. It is a function of the
score table (the distinct probabilities with the weight of positives and negatives at
each), so it merges exactly across chunks; weights are frequencies.

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

Cost: 'sort' (:attr:`~measurelab.measures.base.Measure.cost`): one pass over the score
table's rows per grid its bandwidth search visits (compiled from 2¹⁸ rows with the same
bits). The loess family (ICI, E50, E90, Emax) is :mod:`.loess`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab._util.validation import warn_undefined
from measurelab.measures.base import measure
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

__all__ = ["smece", "smece_bandwidth", "smece_block"]


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
