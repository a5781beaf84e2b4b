"""Accuracy and the confusion-matrix family: acc, err, sens, spec, prec, npv, F-beta,
balanced accuracy, G-mean.

Sources: Sokolova, Japkowicz & Szpakowicz (2006) eq. 1–8; Caruana & Niculescu-Mizil
(2004) ACC and FSC; Hossin et al. (2011) eq. 1–5. All take :class:`BinaryCounts`.
0/0 rules: precision-type ratios (prec, npv, F) give 0, as scikit-learn's default and as
Hossin's Table 2d needs; sens and spec give NaN with a warning (the class is absent).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab.measures._arith import (
    div,
    exact_for_whole_counts,
    sqrt,
    sqrt_fraction,
    whole_counts,
)
from measurelab.measures.base import average_values, measure, warn_left_out
from measurelab.stats.confusion import BinaryCounts


def _multiclass_acc(stats: Any, average: str = "macro") -> float:
    m = stats.counts.matrix
    return float(div(np.trace(m), m.sum(), what="accuracy"))


@measure(
    "acc",
    kind="threshold",
    statistic="counts",
    aliases=("accuracy",),
    multiclass=_multiclass_acc,
    source="Sokolova 2006 eq. 1; Caruana 2004 ACC",
    exact=True,
)
@exact_for_whole_counts
def acc(c: BinaryCounts) -> Any:
    """Accuracy: (tp + tn) / N.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.acc([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.75
    >>> acc(BinaryCounts(1242, 390, 189, 740))          # Sokolova Table 3, SVM: 0.7739
    0.7739164388910582
    """
    return div(c.tp + c.tn, c.total, what="accuracy")


def _multiclass_err(stats: Any, average: str = "macro") -> float:
    return 1.0 - _multiclass_acc(stats)


@measure(
    "err",
    kind="threshold",
    statistic="counts",
    higher_is_better=False,
    aliases=("error_rate",),
    multiclass=_multiclass_err,
    source="all five papers (1 - acc)",
    exact=True,
)
@exact_for_whole_counts
def err(c: BinaryCounts) -> Any:
    """Error rate: (fp + fn) / N = 1 - acc.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.err([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.25
    """
    return div(c.fp + c.fn, c.total, what="error rate")


@measure(
    "sens",
    kind="threshold",
    statistic="counts",
    aliases=("recall", "tpr", "sensitivity"),
    multiclass="ovr",
    source="Sokolova 2006 eq. 2, 5",
    exact=True,
)
@exact_for_whole_counts
def sens(c: BinaryCounts, zero_division: float = math.nan) -> Any:
    """Sensitivity (recall, true positive rate): tp / (tp + fn).

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.sens([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.5
    """
    return div(c.tp, c.tp + c.fn, zero_division, "sensitivity (no positives)")


@measure(
    "spec",
    kind="threshold",
    statistic="counts",
    aliases=("specificity", "tnr"),
    multiclass="ovr",
    source="Sokolova 2006 eq. 3",
    exact=True,
)
@exact_for_whole_counts
def spec(c: BinaryCounts, zero_division: float = math.nan) -> Any:
    """Specificity (true negative rate): tn / (tn + fp).

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.spec([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6])
    0.5
    """
    return div(c.tn, c.tn + c.fp, zero_division, "specificity (no negatives)")


@measure(
    "prec",
    kind="threshold",
    statistic="counts",
    aliases=("precision", "ppv"),
    multiclass="ovr",
    source="Sokolova 2006 eq. 4",
    exact=True,
)
@exact_for_whole_counts
def prec(c: BinaryCounts, zero_division: float = 0.0) -> Any:
    """Precision (positive predictive value): tp / (tp + fp); 0 when nothing is predicted positive.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.prec([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6])
    0.5
    """
    return div(c.tp, c.tp + c.fp, zero_division, "precision")


@measure(
    "npv",
    kind="threshold",
    statistic="counts",
    multiclass="ovr",
    source="negative predictive value; Hossin 2011 eq. 9 (p2)",
    exact=True,
)
@exact_for_whole_counts
def npv(c: BinaryCounts, zero_division: float = 0.0) -> Any:
    """Negative predictive value: tn / (tn + fn); 0 when nothing is predicted negative.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.npv([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.6666666666666666
    """
    return div(c.tn, c.tn + c.fn, zero_division, "negative predictive value")


@measure(
    "f_beta",
    kind="threshold",
    statistic="counts",
    aliases=("fbeta",),
    multiclass="ovr",
    main_param="beta",
    source="Sokolova 2006 eq. 6 (formula; beta > 1 weighs recall)",
    exact=True,
)
@exact_for_whole_counts
def f_beta(c: BinaryCounts, beta: float = 1.0, zero_division: float = 0.0) -> Any:
    """F-beta: (1+β²)·prec·sens / (β²·prec + sens) = (1+β²)tp / ((1+β²)tp + β²fn + fp).

    β > 1 weighs recall more (the formula; Sokolova's prose says the opposite).
    0 when tp = fp = fn = 0.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.f_beta([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6], beta=2.0)
    0.5
    """
    b2 = beta * beta
    if float(b2).is_integer():
        b2 = int(b2)  # keeps Fraction counts exact
    return div((1 + b2) * c.tp, (1 + b2) * c.tp + b2 * c.fn + c.fp, zero_division, "F-beta")


@measure(
    "f1",
    kind="threshold",
    statistic="counts",
    aliases=("fsc", "f_score", "f1_score"),
    multiclass="ovr",
    source="Sokolova 2006 eq. 6 with β = 1; Caruana 2004 FSC",
    exact=True,
)
@exact_for_whole_counts
def f1(c: BinaryCounts, zero_division: float = 0.0) -> Any:
    """F1 score: 2·tp / (2·tp + fn + fp), the harmonic mean of precision and recall.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.f1([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6])
    0.5
    """
    return f_beta(c, 1, zero_division)


def _multiclass_bacc(stats: Any, average: str | None = "macro") -> float:
    """k-class balanced accuracy: the mean recall over the classes that have one (a class
    no case belongs to is left out, as in every macro average)."""
    m = stats.counts.matrix
    recall = np.asarray(sens(stats.counts.one_vs_rest()), dtype=np.float64)
    return average_values(warn_left_out("bacc", recall, "macro"), m.sum(axis=1), "macro")


@measure(
    "bacc",
    kind="threshold",
    statistic="counts",
    aliases=("balanced_accuracy", "auc_b"),
    multiclass=_multiclass_bacc,
    source="Sokolova 2006 eq. 8 (AUC_b); multi-class: mean recall",
    exact=True,
)
@exact_for_whole_counts
def bacc(c: BinaryCounts) -> Any:
    """Balanced accuracy: (sens + spec) / 2 (Sokolova's AUC_b of a single operating point).

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.bacc([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6])
    0.5
    """
    return (sens(c) + spec(c)) / 2


@measure(
    "gmean",
    kind="threshold",
    statistic="counts",
    aliases=("g_mean",),
    multiclass="ovr",
    source="Kubat & Matwin 1997: sqrt(sens·spec)",
)
@exact_for_whole_counts
def gmean(c: BinaryCounts) -> Any:
    """Geometric mean of sensitivity and specificity: sqrt(sens · spec).

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.gmean([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.7071067811865476
    """
    return sqrt(sens(c) * spec(c))


# ----------------------------------------------- the rest of the confusion-matrix catalogue
@measure(
    "fdr",
    kind="threshold",
    statistic="counts",
    higher_is_better=False,
    aliases=("false_discovery_rate",),
    multiclass="ovr",
    source="Benjamini & Hochberg 1995; PyCM 'FDR' (1 − precision)",
    exact=True,
    when_named=True,
)
@exact_for_whole_counts
def fdr(c: BinaryCounts, zero_division: float = math.nan) -> Any:
    """False discovery rate: fp / (tp + fp), the share of predicted positives that are
    negative (1 − precision); NaN when nothing is predicted positive.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.fdr([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6])
    0.5
    """
    return div(c.fp, c.tp + c.fp, zero_division, "false discovery rate (no predicted positive)")


@measure(
    "for_rate",
    kind="threshold",
    statistic="counts",
    higher_is_better=False,
    aliases=("false_omission_rate",),
    multiclass="ovr",
    source="PyCM 'FOR' (1 − negative predictive value)",
    exact=True,
    when_named=True,
)
@exact_for_whole_counts
def for_rate(c: BinaryCounts, zero_division: float = math.nan) -> Any:
    """False omission rate: fn / (fn + tn), the share of predicted negatives that are
    positive (1 − NPV); NaN when nothing is predicted negative.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.for_rate([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.3333333333333333
    """
    return div(c.fn, c.fn + c.tn, zero_division, "false omission rate (no predicted negative)")


@measure(
    "jaccard",
    kind="threshold",
    statistic="counts",
    aliases=("jaccard_index", "jaccard_score"),
    multiclass="ovr",
    source="Jaccard 1912; scikit-learn jaccard_score; PyCM 'J'",
    exact=True,
    when_named=True,
)
@exact_for_whole_counts
def jaccard(c: BinaryCounts, zero_division: float = math.nan) -> Any:
    """Jaccard index: tp / (tp + fp + fn), the overlap of the predicted and the true
    positives over their union (F1 = 2J / (1 + J)); NaN when both are empty.

    k classes: the one-vs-rest index of each class, averaged as ``average=`` says
    (scikit-learn's ``jaccard_score``).

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.jaccard([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6])
    0.3333333333333333
    """
    return div(c.tp, c.tp + c.fp + c.fn, zero_division, "Jaccard index (no positive, none "
               "predicted)")


@measure(
    "fowlkes_mallows",
    kind="threshold",
    statistic="counts",
    aliases=("g_measure", "fm_index"),
    multiclass="ovr",
    source="Fowlkes & Mallows 1983; PyCM 'G' (√(precision · recall))",
    when_named=True,
)
def fowlkes_mallows(c: BinaryCounts) -> Any:
    """Fowlkes–Mallows index (G-measure): √(precision · recall) = tp / √((tp + fp)(tp + fn)),
    the geometric mean where F1 is the harmonic; NaN when there is no positive or none is
    predicted.

    The classification form (PyCM's G), not scikit-learn's ``fowlkes_mallows_score`` of
    two clusterings (over pairs of cases). Whole counts: one rounding.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.fowlkes_mallows([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    0.7071067811865476
    """
    e = whole_counts(c)
    if e is not None:
        den = (e.tp + e.fp) * (e.tp + e.fn)
        if den == 0:
            return float(div(e.tp, den, what="Fowlkes–Mallows index"))
        return sqrt_fraction(e.tp * e.tp / den)
    return div(c.tp, sqrt((c.tp + c.fp) * (c.tp + c.fn)), what="Fowlkes–Mallows index")
