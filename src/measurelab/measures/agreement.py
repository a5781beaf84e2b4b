"""Chance-corrected agreement: Matthews correlation and Cohen's kappa (binary and k-class)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab.measures._arith import div, sqrt
from measurelab.registry import measure
from measurelab.stats.confusion import BinaryCounts


def _mcc_matrix(stats: Any, average: str = "macro") -> float:
    """Gorodkin's R_K for a k×k matrix (equals binary MCC when k = 2)."""
    m = stats.counts.matrix
    t = m.sum(axis=1)
    p = m.sum(axis=0)
    n = m.sum()
    c = np.trace(m)
    cov = c * n - t @ p
    den = math.sqrt((n * n - p @ p) * (n * n - t @ t))
    return float(div(cov, den, 0.0, "MCC"))


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

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.mcc([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.5773502691896258
    """
    num = c.tp * c.tn - c.fp * c.fn
    den = sqrt((c.tp + c.fp) * (c.tp + c.fn) * (c.tn + c.fp) * (c.tn + c.fn))
    return div(num, den, 0.0, "MCC")


def _kappa_matrix(stats: Any, average: str = "macro") -> float:
    m = stats.counts.matrix
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
def kappa(c: BinaryCounts) -> Any:
    """Cohen's kappa: (p_o − p_e) / (1 − p_e), p_e the agreement expected by chance.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.kappa([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.5
    """
    n = c.total
    po = div(c.tp + c.tn, n, what="kappa")
    pe = div((c.tp + c.fp) * (c.tp + c.fn) + (c.tn + c.fn) * (c.tn + c.fp), n * n, what="kappa")
    return div(po - pe, 1 - pe, what="kappa")
