"""Block formulas of the multi-class measures: one value per replicate of a
:class:`~measurelab.stats.multiblock.MultiBlock`, with array operations over the cases (a
loop over classes or class pairs, never over replicates).

Each formula follows the measure's scalar multi-class formula (the ``multiclass=`` callable
of its definition, or the one-vs-rest average of :meth:`Measure._compute_multiclass`) and
returns NaN where the scalar returns NaN, without warning (the caller counts the undefined
replicates). :func:`block_value` picks the formula of a measure; the public entry is
:func:`measurelab.measures.compute.compute_multi_block`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError, UndefinedMeasureWarning
from measurelab.measures._rules import ece_bins
from measurelab.measures.agreement import (
    _gwet_matrix,
    _gwet_terms,
    _kappa_linear_matrix,
    _kappa_matrix,
    _kappa_quadratic_matrix,
    _matrix_terms,
    _mcc_matrix,
    _scott_matrix,
    _scott_terms,
    _weighted_kappa_terms,
)
from measurelab.measures.base import Measure, average_rows
from measurelab.measures.basic import _multiclass_acc, _multiclass_bacc, _multiclass_err, sens
from measurelab.measures.calibration.binned import ece_multi
from measurelab.measures.probability import (
    EPS,
    _brier_multi,
    _mxe_multi,
    _rms_multi,
    _top_k_multi,
)
from measurelab.measures.ranking import _hand_till, auc_block
from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.multiblock import MultiBlock


def _div(num: Any, den: Any, zero_division: float = math.nan) -> np.ndarray:
    """``num / den`` elementwise as the scalar ``div``: x/0 is ±inf, 0/0 is
    ``zero_division`` (no warning).

    Examples
    --------
    >>> _div(np.array([1.0, 0.0, -2.0]), np.array([2.0, 0.0, 0.0]), 0.0).tolist()
    [0.5, 0.0, -inf]
    """
    num, den = np.broadcast_arrays(np.asarray(num, dtype=np.float64),
                                   np.asarray(den, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / den
    return np.where((num == 0) & (den == 0), zero_division, out)


def _whole_rows(m: np.ndarray) -> np.ndarray:
    """Whether every entry of each matrix of the block is a whole number, shape (B,)."""
    return np.all(np.isfinite(m) & (m == np.round(m)), axis=(1, 2))


# --------------------------------------------------------------- confusion matrix
def acc_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of the k-class accuracy: trace / total."""
    m = blk.counts
    return _div(np.trace(m, axis1=1, axis2=2), m.sum(axis=(1, 2)))


def err_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of the k-class error rate: 1 − accuracy."""
    return 1.0 - acc_multi_block(blk)


def _matrix_sums(m: np.ndarray) -> tuple[np.ndarray, ...]:
    t = m.sum(axis=2)
    p = m.sum(axis=1)
    return np.trace(m, axis1=1, axis2=2), m.sum(axis=(1, 2)), t, p


def mcc_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of Gorodkin's R_K (as the scalar ``_mcc_matrix``; 0 when 0/0)."""
    m = blk.counts
    c, n, t, p = _matrix_sums(m)
    cov = c * n - np.einsum("ij,ij->i", t, p)
    den2 = (n * n - np.einsum("ij,ij->i", p, p)) * (n * n - np.einsum("ij,ij->i", t, t))
    whole = _whole_rows(m)
    with np.errstate(invalid="ignore", divide="ignore"):
        # whole counts: the scalar rounds sqrt(cov² / den²) once; here two roundings
        exact = np.copysign(np.sqrt(cov * cov / den2), cov)
        real = cov / np.sqrt(den2)
    out = np.where(whole, exact, real)
    return np.where(den2 == 0, _div(cov, np.zeros_like(cov), 0.0), out)


def kappa_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of Cohen's kappa of a k×k matrix (as the scalar ``_kappa_matrix``)."""
    m = blk.counts
    c, n, t, p = _matrix_sums(m)
    tp_ = np.einsum("ij,ij->i", t, p)
    exact = _div(n * c - tp_, n * n - tp_)
    with np.errstate(invalid="ignore", divide="ignore"):
        po = c / n
        pe = tp_ / (n * n)
    real = _div(po - pe, 1 - pe)
    return np.where(_whole_rows(m), exact, real)


def scott_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of Scott's π of a k×k matrix (the scalar's num / den, in floats)."""
    return _div(*_matrix_terms(blk.counts, _scott_terms))


def gwet_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of Gwet's AC1 of a k×k matrix (the scalar's num / den, in floats)."""
    return _div(*_matrix_terms(blk.counts, _gwet_terms))


def kappa_linear_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of the linearly weighted kappa (the scalar's num / den, in floats)."""
    return _div(*_weighted_kappa_terms(blk.counts, 1))


def kappa_quadratic_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of the quadratically weighted kappa (the scalar's num / den)."""
    return _div(*_weighted_kappa_terms(blk.counts, 2))


def _ovr_counts(blk: MultiBlock) -> BinaryCounts:
    """One-vs-rest counts of every class, arrays of shape (B, k)."""
    m = blk.counts
    tp = np.diagonal(m, axis1=1, axis2=2).astype(np.float64)
    fn = m.sum(axis=2) - tp
    fp = m.sum(axis=1) - tp
    tn = m.sum(axis=(1, 2))[:, None] - tp - fn - fp
    return BinaryCounts(tp, fp, fn, tn)


def _average(values: np.ndarray, support: np.ndarray, average: str | None) -> np.ndarray:
    """Per-class values (B, k) combined as :func:`average_values` combines one row: over
    the classes whose value is defined in each replicate (:func:`average_rows`)."""
    if average is None:
        return values
    return average_rows(values, support, average)


def bacc_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of the k-class balanced accuracy: the mean recall over the classes
    present in each replicate (as the scalar ``_multiclass_bacc``)."""
    ovr = _ovr_counts(blk)
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = np.asarray(sens(ovr), dtype=np.float64)
    return average_rows(recall, blk.counts.sum(axis=2), "macro")


def ovr_counts_block(measure: Measure, blk: MultiBlock, average: str | None,
                     **kw: Any) -> np.ndarray | None:
    """A one-vs-rest count measure over the block; None when its formula does not take
    arrays (then the caller evaluates replicate by replicate)."""
    ovr = _ovr_counts(blk)
    b, k = ovr.tp.shape
    try:
        if average == "micro":
            summed = BinaryCounts(*(v.sum(axis=1) for v in (ovr.tp, ovr.fp, ovr.fn, ovr.tn)))
            out = np.asarray(measure.formula(summed, **kw), dtype=np.float64)
            return out if out.shape == (b,) else None
        values = np.asarray(measure.formula(ovr, **kw), dtype=np.float64)
    except (TypeError, ValueError):
        return None
    if values.shape != (b, k):
        return None
    return _average(values, blk.counts.sum(axis=2), average)


# ------------------------------------------------------------------- rank measures
def _ovr_table_values(blk: MultiBlock, formula: Callable[..., np.ndarray],
                      **kw: Any) -> np.ndarray:
    """A binary block formula on the one-vs-rest table of every class, shape (B, k)."""
    return np.stack([np.asarray(formula(blk.ovr_table_block(i), **kw), dtype=np.float64)
                     for i in range(blk.k)], axis=1)


def auc_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of the multi-class AUC (as the scalar ``_hand_till``): Hand & Till's M
    over the class pairs present in each replicate ('macro'), the class-weighted
    one-vs-rest AUC ('weighted'), the pooled one-vs-rest AUC ('micro'), or the per-class
    one-vs-rest AUCs (None, shape (B, k))."""
    if average == "micro":
        return auc_block(blk.micro_table_block())
    if average is None:
        return _ovr_table_values(blk, auc_block)
    w = blk.class_weight
    present = w > 0
    if average == "weighted":
        vals = _ovr_table_values(blk, auc_block)
        return np.where(present, vals * w, 0.0).sum(axis=1) / w.sum(axis=1)
    total = np.zeros(blk.n_blocks)
    n_pairs = np.zeros(blk.n_blocks)
    for i in range(blk.k):
        for j in range(i + 1, blk.k):
            both = present[:, i] & present[:, j]
            val = (_pair_auc(blk, i, j) + _pair_auc(blk, j, i)) / 2
            total += np.where(both, val, 0.0)
            n_pairs += both
    return _div(total, n_pairs)


#: largest (cases of class i) × (cases of class j) for which a pair's AUC is one matrix
#: product with the pair's comparison matrix (:func:`_pair_auc`); larger pairs sort class
#: j's scores once and count by cumulative sums (:func:`_pair_auc_sorted`), B·(n_i + n_j)
#: work instead of B·n_i·n_j
PAIR_SORTED_CELLS = 1 << 12


def _pair_auc_sorted(blk: MultiBlock, i: int, a: np.ndarray, d: np.ndarray) -> np.ndarray:
    """:func:`_pair_auc` by one sort of class j's scores in column i: for each case of
    class i, the weight of class-j cases scored below it plus half the weight of those
    scored equal (the same comparisons of the same floats as the comparison matrix)."""
    sa = blk.P[a, i]
    order = np.argsort(blk.P[d, i], kind="stable")
    sd = blk.P[d, i][order]
    lo = np.searchsorted(sd, sa, side="left")
    hi = np.searchsorted(sd, sa, side="right")
    wd = blk.W[:, d[order]]
    cum = np.zeros((wd.shape[0], wd.shape[1] + 1))
    np.cumsum(wd, axis=1, out=cum[:, 1:])
    below = cum[:, lo]
    tied = cum[:, hi] - below
    wa = blk.W[:, a]
    num = np.einsum("ba,ba->b", wa, below + 0.5 * tied)
    n_pos, n_neg = wa.sum(axis=1), cum[:, -1]
    return np.where((n_pos > 0) & (n_neg > 0), _div(num, n_pos * n_neg), np.nan)


def _pair_auc(blk: MultiBlock, i: int, j: int) -> np.ndarray:
    """AUC of column i with class i positive and class j negative, shape (B,) (NaN where
    either class is absent): Σ over case pairs of w_a·w_d·([s_a > s_d] + ½[s_a = s_d]) /
    (n_i·n_j), one matrix product when the pair's comparison matrix is small."""
    a = np.flatnonzero(blk.yi == i)
    d = np.flatnonzero(blk.yi == j)
    if a.size * d.size > PAIR_SORTED_CELLS:
        return _pair_auc_sorted(blk, i, a, d)
    sa, sd = blk.P[a, i][:, None], blk.P[d, i][None, :]
    h = (sa > sd) + 0.5 * (sa == sd)  # (n_i, n_j), exact halves
    wa, wd = blk.W[:, a], blk.W[:, d]
    num = np.einsum("ba,ba->b", wa, wd @ h.T)
    n_pos, n_neg = wa.sum(axis=1), wd.sum(axis=1)
    return np.where((n_pos > 0) & (n_neg > 0), _div(num, n_pos * n_neg), np.nan)


def ovr_scores_block(measure: Measure, blk: MultiBlock, average: str | None,
                     **kw: Any) -> np.ndarray:
    """A one-vs-rest score measure with a binary block formula, over the block: its
    formula on each class's one-vs-rest table (or on the pooled table for 'micro')."""
    formula = measure.block
    assert formula is not None  # chosen for measures with a block formula only
    if average == "micro":
        return np.asarray(formula(blk.micro_table_block(), **kw), dtype=np.float64)
    return _average(_ovr_table_values(blk, formula, **kw), blk.counts.sum(axis=2), average)


# ------------------------------------------------------------ probability measures
def mxe_multi_block(blk: MultiBlock, average: str | None = "macro",
                    base: float = math.e) -> np.ndarray:
    """Block form of the k-class MXE: −Σ w·log p(true class) / total, p clipped to
    [EPS, 1 − EPS]."""
    logs = np.log(np.clip(blk.true_prob, EPS, 1 - EPS))
    with np.errstate(invalid="ignore", divide="ignore"):
        return -blk.case_sum(logs) / blk.counts.sum(axis=(1, 2)) / math.log(base)


def _class_squared_error(blk: MultiBlock) -> np.ndarray:
    onehot = np.zeros(blk.P.shape)
    onehot[np.arange(blk.n), blk.yi] = 1.0
    return blk.case_sum(((blk.P - onehot) ** 2).sum(axis=1))


def brier_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of the k-class Brier score (halved for two columns)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return (_class_squared_error(blk) / blk.counts.sum(axis=(1, 2))
                / (2.0 if blk.k == 2 else 1.0))


def rms_multi_block(blk: MultiBlock, average: str | None = "macro") -> np.ndarray:
    """Block form of the k-class RMS: sqrt(Σ-class squared error / total / k)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sqrt(_class_squared_error(blk) / blk.counts.sum(axis=(1, 2)) / blk.k)


def ece_multi_block(blk: MultiBlock, average: str | None = "macro",
                    n_bins: int = 10) -> np.ndarray:
    """Block form of the k-class ECE: equal-width bins of the arg-max confidence,
    "positive" = the arg-max class is the true one."""
    n_bins = int(n_bins)
    conf, _ = blk.confidence
    bins = ece_bins(conf, n_bins)
    if bins.size and int(bins.min()) < 0:
        raise ValueError("ece needs scores in [0, 1]")
    ws, wp = blk.confidence_bins(bins, n_bins)
    return _div(np.abs(ws - wp).sum(axis=1), blk.total)


def top_k_multi_block(blk: MultiBlock, average: str | None = "macro",
                      k: float = 1) -> np.ndarray:
    """Block form of top-k accuracy: the weight of the cases whose true class ranks below
    k, over the total."""
    if int(k) < 1:
        raise MeasurelabError(f"top_k_acc needs k >= 1, got k={k!r}")
    rw = blk.rank_weight
    return _div(rw[:, : int(k)].sum(axis=1), rw.sum(axis=1))


#: block formula of each scalar multi-class formula (the ``multiclass=`` callable)
BLOCK_OF: dict[Callable[..., Any], Callable[..., np.ndarray]] = {
    _multiclass_acc: acc_multi_block,
    _multiclass_err: err_multi_block,
    _multiclass_bacc: bacc_multi_block,
    _mcc_matrix: mcc_multi_block,
    _kappa_matrix: kappa_multi_block,
    _scott_matrix: scott_multi_block,
    _gwet_matrix: gwet_multi_block,
    _kappa_linear_matrix: kappa_linear_multi_block,
    _kappa_quadratic_matrix: kappa_quadratic_multi_block,
    _hand_till: auc_multi_block,
    _mxe_multi: mxe_multi_block,
    _brier_multi: brier_multi_block,
    _rms_multi: rms_multi_block,
    ece_multi: ece_multi_block,
    _top_k_multi: top_k_multi_block,
}

#: the formulas over score tables (built in chunks of replicates: :func:`_in_replicate_chunks`)
_TABLE_FORMULAS = (auc_multi_block,)


def block_value(measure: Measure, blk: MultiBlock, average: str | None,
                kw: dict[str, Any]) -> np.ndarray | None:
    """The measure on every replicate of ``blk`` by a block formula (shape (B,), or (B, k)
    for per-class values), without warnings; None when it has none.

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> blk = MultiBlock.from_arrays([0, 1, 2], np.eye(3), np.ones((2, 3)))
    >>> block_value(registry.get("acc"), blk, "macro", {}).tolist()
    [1.0, 1.0]
    """
    mc = measure.multiclass
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        if callable(mc):
            formula = BLOCK_OF.get(mc)
            if formula is None:
                return None
            if formula not in _TABLE_FORMULAS:  # sums over the cases: one product each
                return formula(blk, average=average, **kw)
            return _in_replicate_chunks(blk, lambda part: formula(part, average=average, **kw))
        if mc != "ovr":
            return None
        if measure.statistic == "counts":
            return ovr_counts_block(measure, blk, average, **kw)
        if measure.statistic == "scores" and measure.block is not None:
            return _in_replicate_chunks(
                blk, lambda part: ovr_scores_block(measure, part, average, **kw))
    return None


#: cells (replicates × case-column entries) of the score tables built at once: a block
#: formula over score tables handles this many, so its temporaries stay small
CHUNK_CELLS = 1 << 20


def _in_replicate_chunks(blk: MultiBlock, formula: Callable[[MultiBlock], np.ndarray]
                         ) -> np.ndarray:
    """``formula`` on consecutive replicates of ``blk`` (about :data:`CHUNK_CELLS` cells
    of score table each), the results concatenated."""
    step = max(1, CHUNK_CELLS // max(1, blk.n * blk.k))
    if blk.n_blocks <= step:
        return formula(blk)
    return np.concatenate([np.asarray(formula(blk.rows(i, i + step)), dtype=np.float64)
                           for i in range(0, blk.n_blocks, step)])
