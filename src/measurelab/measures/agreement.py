"""Chance-corrected agreement (binary and k-class): Matthews correlation, Cohen's kappa, its
linearly and quadratically weighted forms for ordinal classes, Scott's π and Gwet's AC1."""

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


# ------------------------------------------- agreement beyond chance, other chance models
# Cohen's kappa takes the chance agreement from the two marginals apart; Scott's π from
# their mean (the two raters share one distribution), Gwet's AC1 from the chance that a
# rater classifies at random; weighted kappa gives partial credit to near misses of an
# ordinal scale. Each is (agreement − chance) / (1 − chance), written below as one ratio
# num / den of sums of the counts: integers for whole counts (exact, one rounding), floats
# otherwise, arrays for many matrices at once (the bootstrap's block).


def _scott_terms(agree: Any, n: Any, a: Any) -> tuple[Any, Any]:
    """Scott's π as num / den from the agreement ``agree``, the total ``n`` and, per class,
    ``a_i`` = true + predicted cases of class i: chance = Σ (a_i / 2n)², so
    π = (4n·agree − Σ a_i²) / (4n² − Σ a_i²)."""
    s = sum(x * x for x in a)
    return 4 * n * agree - s, 4 * n * n - s


def _gwet_terms(agree: Any, n: Any, a: Any) -> tuple[Any, Any]:
    """Gwet's AC1 as num / den (``a`` as in :func:`_scott_terms`, k = len(a) classes):
    chance = Σ π_i(1 − π_i) / (k − 1), π_i = a_i / 2n, so
    AC1 = (4n(k − 1)·agree − Σ a_i(2n − a_i)) / (4n²(k − 1) − Σ a_i(2n − a_i))."""
    k1 = len(a) - 1
    s = sum(x * (2 * n - x) for x in a)
    return 4 * n * k1 * agree - s, 4 * n * n * k1 - s


def ordinal_weights(k: int, power: int) -> np.ndarray:
    """Disagreement weights of an ordinal scale of k classes: ``|i − j| ** power`` (1:
    linear, 2: quadratic), Python integers (exact arithmetic on whole counts).

    Examples
    --------
    >>> ordinal_weights(3, 2).tolist()
    [[0, 1, 4], [1, 0, 1], [4, 1, 0]]
    """
    return np.array([[abs(i - j) ** power for j in range(k)] for i in range(k)], dtype=object)


def _weighted_kappa_terms(m: np.ndarray, power: int) -> tuple[Any, Any]:
    """Weighted kappa 1 − n·Σ w∘C / Σ w∘(t ⊗ p) as num / den, for one k×k matrix or a
    stack (..., k, k) (t: row sums, true classes; p: column sums, predicted)."""
    k = m.shape[-1]
    w = ordinal_weights(k, power)
    if m.dtype != object:
        w = w.astype(np.float64)
    t, p = m.sum(axis=-1), m.sum(axis=-2)
    n = m.sum(axis=(-2, -1))
    seen = (w * m).sum(axis=(-2, -1)) * n
    chance = (t[..., :, None] * w * p[..., None, :]).sum(axis=(-2, -1))
    return chance - seen, chance


def _matrix_terms(m: np.ndarray, terms: Any) -> tuple[Any, Any]:
    """``terms(agree, n, a)`` of one matrix or a stack (..., k, k): the agreement (the
    trace), the total and the per-class sums a_i = t_i + p_i."""
    agree = np.diagonal(m, axis1=-2, axis2=-1).sum(axis=-1)
    n = m.sum(axis=(-2, -1))
    a = m.sum(axis=-1) + m.sum(axis=-2)
    return terms(agree, n, list(np.moveaxis(a, -1, 0)))


def _exact_or_float(m: np.ndarray, ratio: Any, what: str) -> float:
    """A ratio num / den of one matrix: from Python integers for whole counts (rounded
    once), else in floats; 0/0 is NaN with a warning."""
    mi = _whole_matrix(m)
    if mi is not None:
        num, den = ratio(np.array(mi, dtype=object).reshape(m.shape))
        return float(div(Fraction(int(num)), Fraction(int(den)), what=what))
    num, den = ratio(np.asarray(m, dtype=np.float64))
    return float(div(float(num), float(den), what=what))


def _scott_matrix(stats: Any, average: str | None = "macro") -> float:
    """Scott's π of a k×k matrix (exact for whole counts)."""
    return _exact_or_float(stats.counts.matrix, lambda m: _matrix_terms(m, _scott_terms),
                           "Scott's pi")


def _gwet_matrix(stats: Any, average: str | None = "macro") -> float:
    """Gwet's AC1 of a k×k matrix (exact for whole counts)."""
    return _exact_or_float(stats.counts.matrix, lambda m: _matrix_terms(m, _gwet_terms),
                           "Gwet's AC1")


def _kappa_linear_matrix(stats: Any, average: str | None = "macro") -> float:
    """Linearly weighted kappa of a k×k matrix, classes in the matrix's order."""
    return _exact_or_float(stats.counts.matrix, lambda m: _weighted_kappa_terms(m, 1),
                           "weighted kappa")


def _kappa_quadratic_matrix(stats: Any, average: str | None = "macro") -> float:
    """Quadratically weighted kappa of a k×k matrix, classes in the matrix's order."""
    return _exact_or_float(stats.counts.matrix, lambda m: _weighted_kappa_terms(m, 2),
                           "weighted kappa")


def _binary_marginals(c: BinaryCounts) -> tuple[Any, Any, list[Any]]:
    """agreement, total and a_i = true + predicted cases of each class of binary counts."""
    return c.tp + c.tn, c.total, [2 * c.tp + c.fp + c.fn, 2 * c.tn + c.fp + c.fn]


@measure(
    "scott_pi",
    kind="threshold",
    statistic="counts",
    range=(-1.0, 1.0),
    aliases=("scott", "kappa_unbiased"),
    multiclass=_scott_matrix,
    source="Scott 1955; PyCM 'Scott PI'",
    when_named=True,
)
@exact_for_whole_counts
def scott_pi(c: BinaryCounts) -> Any:
    """Scott's pi: (p_o − p_e) / (1 − p_e), p_e = Σ π_i², π_i the share of class i among
    the true and the predicted labels pooled.

    Chance agreement from the pooled marginals (both raters assumed to share one
    distribution), where Cohen's kappa multiplies the two marginals; exact for whole
    counts. k classes: the whole matrix (``average`` does not apply).

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.scott_pi([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.4666666666666667
    """
    agree, n, a = _binary_marginals(c)
    num, den = _scott_terms(agree, n, a)
    return div(num, den, what="Scott's pi")


@measure(
    "gwet_ac1",
    kind="threshold",
    statistic="counts",
    range=(-1.0, 1.0),
    aliases=("ac1", "gwet"),
    multiclass=_gwet_matrix,
    source="Gwet 2008, Br J Math Stat Psychol 61:29; PyCM 'Gwet AC1'",
    when_named=True,
)
@exact_for_whole_counts
def gwet_ac1(c: BinaryCounts) -> Any:
    """Gwet's AC1: (p_o − p_e) / (1 − p_e), p_e = Σ π_i(1 − π_i) / (k − 1), π_i the share of
    class i among the true and the predicted labels pooled.

    Stable where kappa collapses at a rare class (the kappa paradox); exact for whole
    counts. k classes: the whole matrix (``average`` does not apply).

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.gwet_ac1([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.5294117647058824
    """
    agree, n, a = _binary_marginals(c)
    num, den = _gwet_terms(agree, n, a)
    return div(num, den, what="Gwet's AC1")


@measure(
    "kappa_linear",
    kind="threshold",
    statistic="counts",
    range=(-1.0, 1.0),
    aliases=("linear_weighted_kappa",),
    multiclass=_kappa_linear_matrix,
    source="Cohen 1968 (weights |i − j|); scikit-learn cohen_kappa_score(weights='linear')",
    when_named=True,
)
def kappa_linear(c: BinaryCounts) -> Any:
    """Linearly weighted kappa: 1 − Σ w·observed / Σ w·chance, w_ij = |i − j| over the
    classes in the order of ``labels=`` (default: sorted).

    For an ordinal scale (a grade, a rating): a miss by two classes costs twice a miss by
    one. Two classes: Cohen's kappa. k classes: the whole matrix (``average`` does not
    apply); exact for whole counts.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.kappa_linear([0, 1, 2, 2], [0, 2, 2, 1])   # kappa: 0.2
    0.42857142857142855
    """
    return kappa(c)


@measure(
    "kappa_quadratic",
    kind="threshold",
    statistic="counts",
    range=(-1.0, 1.0),
    aliases=("quadratic_weighted_kappa", "qwk"),
    multiclass=_kappa_quadratic_matrix,
    source="Cohen 1968 (weights (i − j)²); scikit-learn "
           "cohen_kappa_score(weights='quadratic')",
    when_named=True,
)
def kappa_quadratic(c: BinaryCounts) -> Any:
    """Quadratically weighted kappa: 1 − Σ w·observed / Σ w·chance, w_ij = (i − j)² over
    the classes in the order of ``labels=`` (default: sorted).

    For an ordinal scale: a miss by two classes costs four times a miss by one. Two
    classes: Cohen's kappa. k classes: the whole matrix (``average`` does not apply);
    exact for whole counts.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.kappa_quadratic([0, 1, 2, 2], [0, 2, 2, 1])   # kappa: 0.2
    0.6363636363636364
    """
    return kappa(c)
