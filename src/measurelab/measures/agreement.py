"""Chance-corrected agreement: Matthews correlation and Cohen's kappa (binary and k-class)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from measurelab.measures._arith import (
    div,
    exact_for_whole_counts,
    sqrt,
    sqrt_fraction,
    whole_counts,
)
from measurelab.measures.base import measure
from measurelab.stats.confusion import BinaryCounts


def _whole_matrix(m: np.ndarray) -> list[list[int]] | None:
    """The matrix as Python integers when every entry is a whole number, else None."""
    if not (np.all(np.isfinite(m)) and np.array_equal(m, np.round(m))):
        return None
    return [[int(v) for v in row] for row in m.tolist()]


def _matrix_sums(mi: list[list[int]]) -> tuple[int, int, int, int, int]:
    """c (diagonal), n, Σ t_k·p_k, Σ p_k², Σ t_k² of an integer matrix (t: row sums,
    p: column sums), exactly."""
    t = [sum(row) for row in mi]
    p = [sum(col) for col in zip(*mi, strict=True)]
    c = sum(mi[i][i] for i in range(len(mi)))
    return (c, sum(t), sum(a * b for a, b in zip(t, p, strict=True)), sum(b * b for b in p),
            sum(a * a for a in t))


def _mcc_matrix(stats: Any, average: str = "macro") -> float:
    """Gorodkin's R_K for a k×k matrix (equals binary MCC when k = 2); exact for whole
    counts (one rounding)."""
    m = stats.counts.matrix
    mi = _whole_matrix(m)
    if mi is not None:
        c, n, tp_, pp, tt = _matrix_sums(mi)
        cov = c * n - tp_
        den = (n * n - pp) * (n * n - tt)
        if den == 0:
            return float(div(cov, den, 0.0, "MCC"))
        return math.copysign(sqrt_fraction(Fraction(cov * cov, den)), cov)
    t = m.sum(axis=1)
    p = m.sum(axis=0)
    n = m.sum()
    c = np.trace(m)
    cov = c * n - t @ p
    root = math.sqrt((n * n - p @ p) * (n * n - t @ t))
    return float(div(cov, root, 0.0, "MCC"))


@measure(
    "mcc",
    kind="threshold",
    statistic="counts",
    range=(-1.0, 1.0),
    aliases=("matthews_corrcoef", "phi"),
    multiclass=_mcc_matrix,
    source="Matthews 1975; Gorodkin 2004 for k classes",
)
def mcc(c: BinaryCounts) -> Any:
    """Matthews correlation: (tp·tn − fp·fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn)); 0 when 0/0.

    Whole-number counts (of any size) and Fractions are computed exactly and rounded once.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.mcc([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.5773502691896257
    """
    c = whole_counts(c) or c
    num = c.tp * c.tn - c.fp * c.fn
    den2 = (c.tp + c.fp) * (c.tp + c.fn) * (c.tn + c.fp) * (c.tn + c.fn)
    if isinstance(num, Fraction):
        if den2 == 0:
            return div(num, den2, 0.0, "MCC")
        return math.copysign(sqrt_fraction(num * num / den2), num)
    return div(num, sqrt(den2), 0.0, "MCC")


def _kappa_matrix(stats: Any, average: str = "macro") -> float:
    """Cohen's kappa of a k×k matrix: (n·c − Σ t_k p_k) / (n² − Σ t_k p_k); exact for
    whole counts (one rounding)."""
    m = stats.counts.matrix
    mi = _whole_matrix(m)
    if mi is not None:
        c, n, tp_, _, _ = _matrix_sums(mi)
        out = div(Fraction(n * c - tp_), Fraction(n * n - tp_), what="kappa")
        return float(out)
    n = m.sum()
    po = np.trace(m) / n
    pe = float(m.sum(axis=1) @ m.sum(axis=0)) / (n * n)
    return float(div(po - pe, 1 - pe, what="kappa"))


@measure(
    "kappa",
    kind="threshold",
    statistic="counts",
    range=(-1.0, 1.0),
    aliases=("cohen_kappa",),
    multiclass=_kappa_matrix,
    source="Cohen 1960",
)
@exact_for_whole_counts
def kappa(c: BinaryCounts) -> Any:
    """Cohen's kappa: (p_o − p_e) / (1 − p_e), p_e the agreement expected by chance.

    Computed as 2(tp·tn − fp·fn) / ((tp+fp)(fp+tn) + (tp+fn)(fn+tn)) (the same value, free
    of the cancellation in 1 − p_e); exact for whole-number counts of any size.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.kappa([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.5
    """
    num = 2 * (c.tp * c.tn - c.fp * c.fn)
    den = (c.tp + c.fp) * (c.fp + c.tn) + (c.tp + c.fn) * (c.fn + c.tn)
    return div(num, den, what="kappa")
