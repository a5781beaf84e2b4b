"""Youden's index, likelihood ratios and discriminant power (Sokolova et al. 2006, eq. 9–15),
with the DP bands and the likelihood-ratio verdict of Sokolova's Figure 1.

A ratio with a zero denominator is ±inf (not an error); 0/0 is NaN with a warning.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from measurelab.measures._arith import div, exact_for_whole_counts, log, log_fraction
from measurelab.measures.base import measure
from measurelab.measures.basic import sens, spec
from measurelab.stats.confusion import BinaryCounts

SQRT3_OVER_PI = math.sqrt(3.0) / math.pi


def _fpr(c: BinaryCounts) -> Any:
    """1 − spec as fp / (fp + tn), free of the cancellation in 1 − spec."""
    return div(c.fp, c.fp + c.tn, what="specificity (no negatives)")


def _fnr(c: BinaryCounts) -> Any:
    """1 − sens as fn / (tp + fn)."""
    return div(c.fn, c.tp + c.fn, what="sensitivity (no positives)")


@measure(
    "youden",
    kind="threshold",
    statistic="counts",
    range=(-1.0, 1.0),
    aliases=("youden_index", "informedness", "gamma"),
    multiclass="ovr",
    source="Sokolova 2006 eq. 9–10: sens - (1 - spec) = 2·bacc - 1",
    exact=True,
)
@exact_for_whole_counts
def youden(c: BinaryCounts) -> Any:
    """Youden's index γ: sens − (1 − spec).

    Examples
    --------
    >>> round(youden(BinaryCounts(1242, 390, 189, 740)), 3)   # Sokolova Table 5, SVM: 0.522
    0.523
    """
    return sens(c) - (1 - spec(c))


@measure(
    "lr_pos",
    kind="threshold",
    statistic="counts",
    range=(0.0, math.inf),
    aliases=("plr", "rho_pos", "positive_likelihood_ratio"),
    multiclass="ovr",
    source="Sokolova 2006 eq. 11",
    exact=True,
)
@exact_for_whole_counts
def lr_pos(c: BinaryCounts) -> Any:
    """Positive likelihood ratio ρ+: sens / (1 − spec); +inf when spec = 1 < sens·∞.

    Examples
    --------
    >>> round(lr_pos(BinaryCounts(1242, 390, 189, 740)), 2)   # Sokolova Table 5, SVM: 2.51
    2.51
    """
    return div(sens(c), _fpr(c), what="positive likelihood ratio")


@measure(
    "lr_neg",
    kind="threshold",
    statistic="counts",
    range=(0.0, math.inf),
    higher_is_better=False,
    aliases=("nlr", "rho_neg", "negative_likelihood_ratio"),
    multiclass="ovr",
    source="Sokolova 2006 eq. 12 (lower is better)",
    exact=True,
)
@exact_for_whole_counts
def lr_neg(c: BinaryCounts) -> Any:
    """Negative likelihood ratio ρ−: (1 − sens) / spec; lower is better.

    Examples
    --------
    >>> round(lr_neg(BinaryCounts(1242, 390, 189, 740)), 2)   # Sokolova Table 5, SVM: 0.20
    0.2
    """
    return div(_fnr(c), spec(c), what="negative likelihood ratio")


@measure(
    "dp",
    kind="threshold",
    statistic="counts",
    range=(-math.inf, math.inf),
    aliases=("discriminant_power",),
    multiclass="ovr",
    source="Sokolova 2006 eq. 13–15 (natural log)",
)
@exact_for_whole_counts
def dp(c: BinaryCounts) -> Any:
    """Discriminant power: (√3/π)·(ln X + ln Y), X = sens/(1−sens), Y = spec/(1−spec).

    Bands (Sokolova): < 1 poor, < 2 limited, < 3 fair, otherwise good (:func:`dp_band`).

    Examples
    --------
    >>> round(dp(BinaryCounts(1242, 390, 189, 740)), 2)   # Sokolova Table 5, SVM: 1.39
    1.39
    """
    s, p = sens(c), spec(c)
    if isinstance(c.tp, Fraction) and c.tp * c.tn * c.fp * c.fn != 0:
        return SQRT3_OVER_PI * log_fraction(c.tp * c.tn / (c.fp * c.fn))  # ln(XY), exact XY
    x = div(c.tp, c.fn, what="sens/(1-sens)")  # = s/(1 − s) without the cancellation
    y = div(c.tn, c.fp, what="spec/(1-spec)")
    with np.errstate(invalid="ignore"):
        out = SQRT3_OVER_PI * (log(x) + log(y))
    s, p = np.asarray(s, dtype=np.float64), np.asarray(p, dtype=np.float64)
    if np.any(np.isnan(out)) and not (np.any(np.isnan(s)) or np.any(np.isnan(p))):
        from measurelab._util.validation import warn_undefined

        warn_undefined("discriminant power is ln(0) + ln(inf) (sens and spec at 0 and 1)")
    return out


def dp_band(value: float) -> Literal["poor", "limited", "fair", "good", "undefined"]:
    """Sokolova's verbal band of a discriminant power value.

    Examples
    --------
    >>> dp_band(0.5), dp_band(1.41), dp_band(2.5), dp_band(3.0)
    ('poor', 'limited', 'fair', 'good')
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer
                                                            | np.floating):
        from measurelab._util.validation import short_repr
        from measurelab.exceptions import MeasurelabTypeError

        raise MeasurelabTypeError(f"value must be a number (a discriminant power), got "
                                  f"{short_repr(value)}")
    if value != value:  # NaN
        return "undefined"
    if value < 1:
        return "poor"
    if value < 2:
        return "limited"
    if value < 3:
        return "fair"
    return "good"


Verdict = Literal[
    "A superior overall",
    "A superior for confirmation of negatives",
    "A superior for confirmation of positives",
    "A inferior overall",
    "no verdict",
]


def likelihood_verdict(a: BinaryCounts, b: BinaryCounts) -> Verdict:
    """Compare two classifiers by their likelihood ratios (Sokolova 2006, Fig. 1).

    For each classifier, if ρ+ < 1 its ρ+ and ρ− are swapped first. Then
    ρ+A > ρ+B and ρ−A < ρ−B: A superior overall; ρ+A < ρ+B and ρ−A < ρ−B: A superior for
    confirmation of negatives; ρ+A > ρ+B and ρ−A > ρ−B: A superior for confirmation of
    positives; ρ+A < ρ+B and ρ−A > ρ−B: A inferior overall. Any equality: no verdict.

    Examples
    --------
    >>> svm = BinaryCounts(1242, 390, 189, 740)   # Sokolova Table 2
    >>> nb = BinaryCounts(1108, 272, 323, 858)
    >>> likelihood_verdict(svm, nb)
    'A superior for confirmation of negatives'
    """

    def ratios(c: BinaryCounts) -> tuple[float, float]:
        lp, ln = float(lr_pos(c)), float(lr_neg(c))
        return (ln, lp) if lp < 1 else (lp, ln)

    pa, na = ratios(a)
    pb, nb = ratios(b)
    if pa > pb and na < nb:
        return "A superior overall"
    if pa < pb and na < nb:
        return "A superior for confirmation of negatives"
    if pa > pb and na > nb:
        return "A superior for confirmation of positives"
    if pa < pb and na > nb:
        return "A inferior overall"
    return "no verdict"


@measure(
    "dor",
    kind="threshold",
    statistic="counts",
    range=(0.0, math.inf),
    aliases=("diagnostic_odds_ratio",),
    multiclass="ovr",
    source="Glas et al. 2003, J Clin Epidemiol 56:1129; PyCM 'DOR' (lr_pos / lr_neg)",
    exact=True,
    when_named=True,
)
@exact_for_whole_counts
def dor(c: BinaryCounts) -> Any:
    """Diagnostic odds ratio: (tp · tn) / (fp · fn) = lr_pos / lr_neg, the odds of a
    positive prediction among positives over those among negatives.

    +inf when fp or fn is 0 and tp, tn are not; NaN (with a warning) when both products
    are 0.

    Examples
    --------
    >>> dor(BinaryCounts(1242, 390, 189, 740))   # (1242·740) / (390·189)
    12.468864468864469
    """
    return div(c.tp * c.tn, c.fp * c.fn, what="diagnostic odds ratio")


@measure(
    "markedness",
    kind="threshold",
    statistic="counts",
    range=(-1.0, 1.0),
    aliases=("mk", "deltap"),
    multiclass="ovr",
    source="Powers 2011, J Mach Learn Technol 2:37; PyCM 'MK' (precision + NPV − 1)",
    exact=True,
    when_named=True,
)
@exact_for_whole_counts
def markedness(c: BinaryCounts) -> Any:
    """Markedness: precision + NPV − 1 = (tp·tn − fp·fn) / ((tp + fp)(fn + tn)), the
    predictive counterpart of Youden's index (MCC² = informedness · markedness); NaN when
    nothing is predicted in one of the two classes.

    Examples
    --------
    >>> round(markedness(BinaryCounts(1242, 390, 189, 740)), 4)   # 0.7610 + 0.7966 − 1
    0.5576
    """
    return div(c.tp * c.tn - c.fp * c.fn, (c.tp + c.fp) * (c.fn + c.tn),
               what="markedness (nothing predicted in a class)")
