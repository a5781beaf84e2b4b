"""Miscalibration and discrimination of the population, estimated without the in-sample
bias: the Brier and log-loss MCB and DSC as estimators of population values.

**Targets.** With c(p) = P(y = 1 | p) the population's recalibration map and π = P(y = 1):

* Brier miscalibration ``E (p − c(p))²`` (the ℓ2 calibration error; 0 for a calibrated
  model), Brier discrimination ``Var c(p) = E c(p)² − π²``;
* log-loss miscalibration ``E KL(c(p) ‖ p)``, log-loss discrimination
  ``H(π) − E H(c(p))`` (H the binary entropy in nats).

The in-sample CORP values (PAV fitted and scored on the same cases,
:mod:`measurelab.measures.calibration.corp`, ``brier_mcb_insample`` …) describe the sample;
as estimators of these targets they are biased upwards by about one standard error at
n = 1,000, so an interval built around them excludes the truth of a calibrated model every
time. The measures here remove that bias.

**Bins.** The cases are grouped by their probability into cells that depend on the score
table alone (so the estimate merges exactly over chunks and is the same in any row order):
the cut points of ``B`` equal-mass groups (B the even number nearest ``n^0.4``, at least 2,
n the total weight; a row of tied cases is never split) together with the cut points of a
grid of width 1/min(B, 20) on [0, 1]. Both sets of cut points are placed symmetrically about the
middle (of the mass and of [0, 1]), so swapping the classes (y → 1 − y, p → 1 − p) gives
the mirror cells and the same value. The equal-mass cuts let the number of cells grow with
n, so the estimate's bias from pooling unequal cases in a cell vanishes; the grid keeps a
cell from spanning a wide range of probabilities where the cases are sparse (the tails of
an over-confident model). Measured in the calibration study (benchmarks/
calibration_study.py): n^0.4 balances the pooling bias against the variance better than
n^(1/3) or n^0.5, and the grid halves the worst pooling bias of the Brier miscalibration.

**Brier miscalibration** (``brier_mcb``). With r = p − y and, in cell b of weight n_b,
S_b = Σ r and Q_b = Σ r², the U-statistic ``(S_b² − Q_b) / (n_b (n_b − 1))`` averages
r_i·r_j over the pairs of distinct cases of the cell; since E r_i r_j = (p_i − c_i)(p_j −
c_j) for independent cases, its expectation is the cell's squared mean miscalibration,
**exactly 0 for a calibrated model** whatever the cell. The estimate is
``Σ_b (n_b/n)·U_b`` — for a cell of equal probabilities it is the debiased ℓ2 calibration
error of Kumar, Liang & Ma (2019, "Verified uncertainty calibration", NeurIPS),
``(p̄_b − ȳ_b)² − ȳ_b(1 − ȳ_b)/(n_b − 1)``. Being unbiased for a non-negative target it
can fall below 0; the measure reports its positive part (0: no miscalibration the data
can show), :func:`estimates` the raw value. Cells of weight at most 1 hold no pair and
add nothing.

**Log-loss miscalibration** (``logloss_mcb``). Per cell, the mean log loss of p minus the
entropy of the cell's positive share ȳ_b, less the first-order bias of that entropy,
1/(2 n_b) (the entropy of a share of n_b cases is low by about that much; Miller 1955):
``Σ_b (n_b/n)·[mean log loss_b − H(ȳ_b) − 1/(2 n_b)]``. Close to unbiased for moderate
miscalibration; where probabilities are extreme (an over-confident model) the cell
entropy's expansion fails and the estimate stays low — so it carries no interval
(the calibration study measures why).

**Discrimination** (``brier_dsc``, ``logloss_dsc``) from the identity S = MCB − DSC + UNC of
the score decomposition, with every term estimated without bias: ``DSC = MCB + UNC − S``,
S the mean score, UNC the uncertainty with its own small-sample correction
(``ȳ(1 − ȳ)·n/(n − 1)`` for Brier, ``H(ȳ) + 1/(2n)`` for log loss).

Weights are frequencies (a case of weight 3 counts three times). Binary only.

Examples
--------
A calibrated and an over-confident model of the same 5,000 cases (population values 0 and
E(over − q)² = 0.0042); the in-sample CORP value of the calibrated model is not 0:

>>> import measurelab as ml
>>> rng = np.random.default_rng(0)
>>> q = rng.beta(2, 2, 5000)                          # true probabilities
>>> y = rng.random(5000) < q
>>> over = q**1.5 / (q**1.5 + (1 - q)**1.5)           # logit × 1.5
>>> ml.metrics.brier_mcb(y, q), round(ml.metrics.brier_mcb(y, over), 4)
(0.0, 0.0038)
>>> round(ml.metrics.brier_mcb_insample(y, q), 4)
0.0017
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from measurelab._util.validation import warn_undefined
from measurelab.measures._rules import EPS
from measurelab.measures.base import measure
from measurelab.pickling import versioned_pickle
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

__all__ = ["BinnedCalibration", "Estimates", "binned", "estimates", "grid_cells",
           "mass_cells", "n_bins"]

#: the number of equal-mass groups grows as n to this power (the even number nearest it)
BIN_POWER = 0.4
#: the probability grid has min(B, GRID_CELLS) cells (cuts every 1/20 from n ≈ 1,800 on)
GRID_CELLS = 20
_MEMO = "debiased_calibration.binned"


def n_bins(n: np.ndarray | float) -> np.ndarray:
    """The number of equal-mass groups for a total weight ``n``: the even number nearest
    ``n^0.4``, at least 2.

    Examples
    --------
    >>> n_bins(np.array([10.0, 200.0, 1000.0, 5000.0])).tolist()
    [2, 8, 16, 30]
    """
    x = np.maximum(np.asarray(n, dtype=np.float64), 1.0) ** BIN_POWER
    return np.maximum(2, 2 * np.round(x / 2.0)).astype(np.int64)


def _symmetric_cell(c: np.ndarray) -> np.ndarray:
    """The cell of an offset ``c`` from a centre in units of the cell width: the unit
    intervals (k − 1, k] above the centre (cell k), their mirror images [−k, −(k − 1))
    below it (cell −k), and the centre itself (cell 0); an offset within 1e-9 above a
    whole number counts as that number (a probability on a grid cut, up to rounding).
    Returned as floats holding whole numbers."""
    a = np.abs(c)
    a -= 1e-9
    np.ceil(a, out=a)
    np.maximum(a, 0.0, out=a)
    return np.copysign(a, c, out=a)


def grid_cells(scores: np.ndarray, cells: int = GRID_CELLS) -> np.ndarray:
    """The grid cell of each probability on a grid of ``cells`` equal cells of [0, 1]
    (an even number), symmetric about ½.

    Examples
    --------
    >>> grid_cells(np.array([0.0, 0.45, 0.5, 0.55, 0.56, 1.0])).tolist()
    [-10.0, -1.0, 0.0, 1.0, 2.0, 10.0]
    >>> grid_cells(np.array([0.1, 0.5, 0.9]), cells=2).tolist()
    [-1.0, 0.0, 1.0]
    """
    return _symmetric_cell((np.asarray(scores, dtype=np.float64) - 0.5) * cells)


def mass_cells(m: np.ndarray) -> np.ndarray:
    """The equal-mass group of each row of weights ``m`` (shape (R,) or (T, R), rows in
    increasing probability): the row's mid-point in cumulative weight, in units of n/B
    from the middle of the mass (B from :func:`n_bins`), so a row of tied cases is never
    split and the mirror table gets the mirror groups.

    Examples
    --------
    >>> mass_cells(np.ones(8)).tolist()          # n = 8: B = 2 groups of 4
    [-1.0, -1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0]
    """
    m = np.asarray(m, dtype=np.float64)
    two = m.ndim == 2
    m2 = m if two else m[None, :]
    n = m2.sum(axis=1)
    b = n_bins(n)
    x = np.cumsum(m2, axis=1)
    x -= 0.5 * m2  # the mid-point of each row's weight
    x *= (b / np.where(n > 0, n, 1.0))[:, None]
    x -= (0.5 * b)[:, None]
    out = _symmetric_cell(x)
    return out if two else out[0]


@versioned_pickle
class BinnedCalibration(NamedTuple):
    """Per-cell sums of a stack of tables, each of shape (T, K) (K cells at most), and the
    total weight ``n`` (T,): weight ``w``, positives ``y``, Σ r and Σ r² of r = p − y,
    and the log loss."""

    n: np.ndarray
    w: np.ndarray
    y: np.ndarray
    r: np.ndarray
    r2: np.ndarray
    logloss: np.ndarray


#: rows summed at once: the temporaries of a large table stay a few MB, and the sums of a
#: table are the same bits alone or in a block of replicates (the same chunks, the same
#: order of additions)
_ROWS = 1 << 16


def _logs(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """log p and log(1 − p) of a chunk of probabilities, clipped to [EPS, 1 − EPS]:
    formed by numpy for both routes, chunk by chunk (the same bits in each)."""
    clipped = np.clip(s, EPS, 1.0 - EPS)
    return np.log(clipped), np.log1p(-clipped)


def binned(scores: np.ndarray, pos: np.ndarray, neg: np.ndarray, *,
           whole: bool = False) -> BinnedCalibration:
    """The cell sums of tables with rows ``pos``, ``neg`` (shape (T, R)) over the increasing
    probabilities ``scores`` (R,): the cells are where the equal-mass group or the grid cell
    changes along the rows (:func:`mass_cells`; :func:`grid_cells` with min(B, 20) cells).

    The rows are read in chunks of 65,536, each cell's sum built from its pieces (a
    piece: a difference of running sums within the chunk) in row order, so memory stays
    bounded and a table gives the same bits alone as in a block. Large work (tables ×
    rows from 2**18, or from 2**12 once numba is loaded: the ``"debiased_cells"`` route
    of :mod:`measurelab._kernels.routing`) goes to a compiled pass that gives the same
    bits without row-sized temporaries. ``whole``: every weight is known to be a whole
    number (a bootstrap's multiplicities), so the totals are exact in any order of
    addition.

    Examples
    --------
    >>> b = binned(np.array([0.1, 0.2, 0.8, 0.9]), np.array([[0.0, 1, 1, 1]]),
    ...            np.array([[1.0, 0, 0, 0]]))
    >>> b.w.tolist(), b.r.round(12).tolist()
    ([[2.0, 2.0]], [[-0.7, -0.3]])
    """
    from measurelab._kernels.routing import use_compiled

    pos = np.asarray(pos, dtype=np.float64)
    neg = np.asarray(neg, dtype=np.float64)
    s = np.asarray(scores, dtype=np.float64)
    t, rows = pos.shape
    chunks = [(a, min(rows, a + _ROWS)) for a in range(0, rows, _ROWS)]
    compiled = bool(t) and use_compiled("debiased_cells", t * rows)
    if compiled:
        from measurelab._kernels.debiased import totals

        pos, neg = np.ascontiguousarray(pos), np.ascontiguousarray(neg)
        n = totals(pos, neg, _ROWS, whole)
    else:
        n = np.zeros(t)
        for a, b in chunks:
            n += (pos[:, a:b] + neg[:, a:b]).sum(axis=1)
    groups = n_bins(n)
    per_unit = np.minimum(groups, GRID_CELLS)
    k = int(groups.max()) + int(per_unit.max()) + 3 if t else 1  # cells per table, at most
    scale = groups / np.where(n > 0, n, 1.0)
    sums = np.zeros((5, t, k))  # weight, positives, Σ r, Σ r², log loss
    route = _compiled_sums if compiled else _numpy_sums
    used = route(s, pos, neg, chunks, groups, per_unit, scale, sums)
    sums = sums[:, :, :max(used, 1)]
    return BinnedCalibration(n=n, w=sums[0], y=sums[1], r=sums[2], r2=sums[3],
                             logloss=sums[4])


def _compiled_sums(s: np.ndarray, pos: np.ndarray, neg: np.ndarray,
                   chunks: list[tuple[int, int]], groups: np.ndarray, per_unit: np.ndarray,
                   scale: np.ndarray, sums: np.ndarray) -> int:
    """:func:`binned`'s cell sums by the compiled pass (``_kernels.debiased``), chunk by
    chunk into ``sums``; returns the number of cells used."""
    from measurelab._kernels.debiased import chunk_sums
    from measurelab._kernels.debiased import grid_cells as compiled_grid

    t = pos.shape[0]
    units = np.unique(per_unit)
    unit = np.searchsorted(units, per_unit)
    unit_sizes = units.astype(np.float64)
    groups_f = groups.astype(np.float64)
    carry = np.zeros(t)
    prev_mass = np.full(t, np.nan)
    prev_grid = np.full(t, np.nan)
    cell = np.full(t, -1, dtype=np.int64)
    for a, b in chunks:
        sc = s[a:b]
        log_p, log_q = _logs(sc)
        chunk_sums(sc, log_p, log_q, pos, neg, a, compiled_grid(sc, unit_sizes), unit,
                   groups_f, scale, sums, carry, prev_mass, prev_grid, cell)
    return int(cell.max()) + 1


def _numpy_sums(s: np.ndarray, pos: np.ndarray, neg: np.ndarray,
                chunks: list[tuple[int, int]], groups: np.ndarray, per_unit: np.ndarray,
                scale: np.ndarray, sums: np.ndarray) -> int:
    """:func:`binned`'s cell sums by numpy, chunk by chunk into ``sums``; returns the
    number of cells used."""
    t = pos.shape[0]
    units = np.unique(per_unit).tolist()
    carry = np.zeros(t)
    prev_mass = np.full(t, np.nan)
    prev_grid = np.full(t, np.nan)
    started = np.zeros(t, dtype=np.int64)
    for a, b in chunks:
        p_c, n_c = np.ascontiguousarray(pos[:, a:b]), np.ascontiguousarray(neg[:, a:b])
        m = p_c + n_c
        x = np.cumsum(m, axis=1)
        x += carry[:, None]
        carry = x[:, -1].copy()
        x -= 0.5 * m  # the mid-point of each row's weight
        x *= scale[:, None]
        x -= (0.5 * groups)[:, None]
        mass = _symmetric_cell(x)
        sc = s[a:b]
        grid = np.empty_like(mass)
        for g in units:
            grid[per_unit == g] = grid_cells(sc, g)
        new = np.empty(m.shape, dtype=bool)
        new[:, 0] = (mass[:, 0] != prev_mass) | (grid[:, 0] != prev_grid)
        np.not_equal(mass[:, 1:], mass[:, :-1], out=new[:, 1:])
        new[:, 1:] |= grid[:, 1:] != grid[:, :-1]
        prev_mass, prev_grid = mass[:, -1].copy(), grid[:, -1].copy()
        cell = np.cumsum(new, axis=1)
        cell += (started - 1)[:, None]
        started = cell[:, -1] + 1  # cells begun so far
        new[:, 0] = True  # a piece of the running cell starts every chunk
        width = b - a
        starts = np.flatnonzero(new.ravel())
        ends = np.empty_like(starts)
        ends[:-1] = starts[1:] - 1
        ends[-1] = new.size - 1
        first = starts % width == 0  # a piece that begins the chunk's row
        before = np.where(first, 0, starts - 1)
        table_of = starts // width
        cell_of = cell.ravel()[starts]
        log_p, log_q = _logs(sc)
        for i, v in enumerate((m, p_c, sc * m - p_c, p_c * (1.0 - sc) ** 2 + n_c * (sc * sc),
                               -(p_c * log_p + n_c * log_q))):
            run = np.cumsum(v, axis=1).ravel()  # running sums within the chunk's rows
            sums[i, table_of, cell_of] += run[ends] - np.where(first, 0.0, run[before])
    return int(started.max()) if t else 0


def _entropy(x: np.ndarray) -> np.ndarray:
    """Binary entropy in nats, 0 at 0 and 1."""
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(x * np.log(x) + (1.0 - x) * np.log1p(-x))
    return np.where((x > 0) & (x < 1), h, 0.0)


@versioned_pickle
class Estimates(NamedTuple):
    """The raw (unclipped) estimates of every table, shape (T,) each, the cell-wise
    Brier U-statistics ``u`` (T, K), and the variance of the Brier miscalibration's
    estimate: ``var_null``, its value for a calibrated model (the quadratic part), and
    ``var``, the whole estimated variance (:func:`_brier_mcb_variance`)."""

    brier_mcb: np.ndarray
    logloss_mcb: np.ndarray
    brier_dsc: np.ndarray
    logloss_dsc: np.ndarray
    u: np.ndarray
    var_null: np.ndarray
    var: np.ndarray
    slope: np.ndarray


def _estimates(b: BinnedCalibration) -> Estimates:
    w, n = b.w, b.n
    pair = w > 1
    den = np.where(pair, w * (w - 1.0), 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        u = np.where(pair, (b.r * b.r - b.r2) / den, 0.0)
        share = w / np.where(n > 0, n, 1.0)[:, None]
        ybar = np.where(w > 0, b.y / np.where(w > 0, w, 1.0), 0.0)
        cell_log = np.where(pair, b.logloss / np.where(w > 0, w, 1.0) - _entropy(ybar)
                            - 0.5 / np.where(pair, w, 1.0), 0.0)
        brier_mcb = (share * u).sum(axis=1)
        logloss_mcb = (share * cell_log).sum(axis=1)
        pi = b.y.sum(axis=1) / n
        brier_dsc = brier_mcb + pi * (1.0 - pi) * n / (n - 1.0) - b.r2.sum(axis=1) / n
        logloss_dsc = logloss_mcb + _entropy(pi) + 0.5 / n - b.logloss.sum(axis=1) / n
    undefined = ~pair.any(axis=1)  # no two cases in one cell: nothing to estimate from
    var_null, var, slope = _brier_mcb_variance(b, u, brier_mcb)
    out = [np.where(undefined, np.nan, v) for v in (brier_mcb, logloss_mcb, brier_dsc,
                                                      logloss_dsc, var_null, var, slope)]
    return Estimates(out[0], out[1], out[2], out[3], u, out[4], out[5], out[6])


def _brier_mcb_variance(b: BinnedCalibration, u: np.ndarray, theta: np.ndarray
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Variance of the raw Brier miscalibration estimate: (for a calibrated model, whole).

    With r = d + e (d = p − c(p) fixed, e = c − y of mean 0 and variance v), the cell's
    pair sum Σ_{i≠j} r_i r_j has a linear part 2 Σ_i e_i (D − d_i) and a quadratic part
    Σ_{i≠j} e_i e_j, uncorrelated: its variance is 4 Σ_i v_i (D − d_i)² + 2 Σ_{i≠j} v_i v_j.
    Per cell v is estimated by ȳ(1 − ȳ)·n_b/(n_b − 1) and d² by the cell's U (its
    positive part), giving (n_b/n)²·Var U_b ≈ (4 n_b v d² + 2 n_b v²/(n_b − 1)) / n²; the
    cases' own spread adds Var d²/n, estimated by the spread of the cells' d² about the
    estimate. The quadratic part alone is the variance of a calibrated model's estimate
    (the degenerate case, where the estimate has mean exactly 0)."""
    w, n = b.w, b.n[:, None]
    pair = w > 1
    with np.errstate(invalid="ignore", divide="ignore"):
        ybar = np.where(w > 0, b.y / np.where(w > 0, w, 1.0), 0.0)
        v = np.where(pair, ybar * (1.0 - ybar) * w / np.where(pair, w - 1.0, 1.0), 0.0)
        d2 = np.maximum(u, 0.0)
        quad = np.where(pair, 2.0 * w * v * v / np.where(pair, w - 1.0, 1.0), 0.0)
        lin = 4.0 * w * v * d2
        spread = (w * (d2 - theta[:, None]) ** 2).sum(axis=1)
        nn = n[:, 0] * n[:, 0]
        null = quad.sum(axis=1) / nn
        var = null + (lin.sum(axis=1) + spread) / nn
        # the linear part per unit of miscalibration when every cell is off alike
        slope = 4.0 * (w * v).sum(axis=1) / nn
    return np.maximum(null, 0.0), np.maximum(var, 0.0), slope


def block_estimates(blk: TableBlock) -> Estimates:
    """The estimates of every table of a block (kept in its memo: the four measures of one
    bootstrap block share one binning)."""
    if _MEMO not in blk.memo:
        blk.memo[_MEMO] = _estimates(binned(blk.scores, blk.pos, blk.neg,
                                                 whole=blk.integer is True))
    return blk.memo[_MEMO]


def estimates(t: ScoreTable) -> Estimates:
    """The raw estimates of a table (each an array of one value), memoized on the table.

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1, 1, 1], [.1, .2, .3, .4, .6, .7, .8, .9])
    >>> e = estimates(t)
    >>> round(float(e.brier_mcb[0]), 6), round(float(np.sqrt(e.var[0])), 6)
    (-0.016667, 0.089357)
    """
    if _MEMO not in t.memo:
        t.memo[_MEMO] = _estimates(binned(t.scores, t.pos[None, :], t.neg[None, :],
                                               whole=t.integer is True))
    return t.memo[_MEMO]


def _value(t: ScoreTable, part: str, name: str) -> float:
    v = float(getattr(estimates(t), part)[0])
    if math.isnan(v):
        warn_undefined(f"{name} is undefined with fewer than two cases of similar "
                       "probability; returning NaN")
        return v
    return max(v, 0.0)


def _block_value(blk: TableBlock, part: str) -> np.ndarray:
    v = getattr(block_estimates(blk), part)
    return np.where(np.isnan(v), np.nan, np.maximum(v, 0.0))


def brier_mcb_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`brier_mcb`: one binning per table, all tables at once."""
    return _block_value(blk, "brier_mcb")


def logloss_mcb_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`logloss_mcb`."""
    return _block_value(blk, "logloss_mcb")


def brier_dsc_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`brier_dsc`."""
    return _block_value(blk, "brier_dsc")


def logloss_dsc_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`logloss_dsc`."""
    return _block_value(blk, "logloss_dsc")


_SOURCE = ("the score decomposition S = MCB − DSC + UNC (Dimitriadis, Gneiting & Jordan "
           "2021) with each term estimated without its in-sample bias: pairs of cases "
           "in probability cells (Kumar, Liang & Ma 2019)")


@measure("brier_mcb", kind="probability", statistic="scores", range=(0.0, 1.0),
         higher_is_better=False, aliases=("l2_calibration_error", "debiased_ece2"),
         source=_SOURCE + ": Brier miscalibration E(p − c(p))²", block=brier_mcb_block)
def brier_mcb(t: ScoreTable) -> float:
    """Brier miscalibration of the population, E(p − c(p))² (the ℓ2 calibration error),
    estimated without bias (the positive part of the estimate); lower is better, 0 for a
    calibrated model.

    The estimator is in the module docstring; ``evaluate(..., ci=0.95)`` gives its
    interval, whose lower end reaches 0 when the data are consistent with calibration.

    Examples
    --------
    One probability, 0.9, for 20 cases of which 10 are positive: one cell, and the
    estimate is (0.9 − 0.5)² − 0.5·0.5/19:

    >>> import measurelab as ml
    >>> round(ml.metrics.brier_mcb([1, 0] * 10, [0.9] * 20), 6)
    0.146842

    On 5,000 cases (the module's example) the calibrated model gets 0 and an over-confident
    one 0.0038, where the population values are 0 and 0.0042.
    """
    return _value(t, "brier_mcb", "brier_mcb")


@measure("logloss_mcb", kind="probability", statistic="scores", range=(0.0, math.inf),
         higher_is_better=False, aliases=("mxe_mcb",),
         source=_SOURCE + ": log-loss miscalibration E KL(c(p) ‖ p)",
         block=logloss_mcb_block)
def logloss_mcb(t: ScoreTable) -> float:
    """Log-loss miscalibration of the population, E KL(c(p) ‖ p) in nats, estimated with a
    first-order bias correction (the positive part); lower is better. No interval: the
    estimate stays low where probabilities are extreme (see the module docstring).

    Examples
    --------
    One probability, 0.9, for 20 cases of which 10 are positive: the mean log loss
    −(log 0.9 + log 0.1)/2, less the entropy of ½, less 1/40:

    >>> import measurelab as ml
    >>> round(ml.metrics.logloss_mcb([1, 0] * 10, [0.9] * 20), 6)
    0.485826
    """
    return _value(t, "logloss_mcb", "logloss_mcb")


@measure("brier_dsc", kind="probability", statistic="scores", range=(0.0, 0.25),
         higher_is_better=True,
         source=_SOURCE + ": Brier discrimination Var c(p)", block=brier_dsc_block)
def brier_dsc(t: ScoreTable) -> float:
    """Brier discrimination of the population, Var c(p) (how much the recalibrated
    probabilities spread), estimated as MCB + UNC − Brier with each term unbiased (the
    positive part); higher is better, at most π(1 − π).

    Examples
    --------
    A constant prediction discriminates nothing; two distinct predictions that split the
    classes perfectly reach π(1 − π) = 0.25 (up to the small-sample terms):

    >>> import measurelab as ml
    >>> ml.metrics.brier_dsc([1, 0] * 10, [0.9] * 20)
    0.0
    >>> round(ml.metrics.brier_dsc([1, 0] * 10, [0.9, 0.1] * 10), 6)
    0.263158
    """
    return _value(t, "brier_dsc", "brier_dsc")


@measure("logloss_dsc", kind="probability", statistic="scores", range=(0.0, math.log(2)),
         higher_is_better=True, aliases=("mxe_dsc",),
         source=_SOURCE + ": log-loss discrimination H(π) − E H(c(p))",
         block=logloss_dsc_block)
def logloss_dsc(t: ScoreTable) -> float:
    """Log-loss discrimination of the population, H(π) − E H(c(p)) in nats, estimated as
    MCB + UNC − log loss with small-sample corrections (the positive part); higher is
    better, at most the entropy of the base rate.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.logloss_dsc([1, 0] * 10, [0.9] * 20)
    0.0
    """
    return _value(t, "logloss_dsc", "logloss_dsc")
