"""Newcombe's score-type interval for one AUC, for a class of only a few cases.

DeLong's interval on the logit scale falls short of its nominal coverage when a class has
5–20 cases (and has no width at all when the AUC is 0 or 1); Newcombe's "method 5" keeps
close to its level there. It inverts a score test: the interval holds every θ whose
distance from the observed AUC is at most z standard errors, the variance evaluated at θ
itself (as Wilson's interval of a proportion does), so it stays inside [0, 1] and has
width at an AUC of 0 or 1.

Newcombe RG. Confidence intervals for an effect size measure based on the Mann–Whitney
statistic. Part 2: asymptotic methods and evaluation. Statistics in Medicine 2006;
25:559–573 (method 5).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab._util.validation import check_int, check_level, check_real

__all__ = ["newcombe_auc_interval", "newcombe_variance"]


def _variance(theta: Any, m: int, n: int) -> Any:
    k = (m + n) / 2.0 - 2.0  # N* − 1, with N* = (m + n)/2 − 1
    shape = (1.0 - theta) / (2.0 - theta) + theta / (1.0 + theta)
    return theta * (1.0 - theta) / (m * n) * (1.0 + k * shape)


def newcombe_variance(theta: Any, n_pos: int, n_neg: int) -> np.ndarray:
    """The variance of the AUC estimate if the true AUC were ``theta`` (any array of values
    in [0, 1]): Hanley and McNeil's form with both class sizes replaced by
    N* = (m + n)/2 − 1, as Newcombe (2006, method 5) proposes.

    Examples
    --------
    >>> newcombe_variance([0.0, 0.5, 1.0], 4, 6).round(6).tolist()
    [0.0, 0.03125, 0.0]
    """
    m = check_int(n_pos, "n_pos", minimum=1)
    n = check_int(n_neg, "n_neg", minimum=1)
    return _variance(np.asarray(theta, dtype=np.float64), m, n)


def newcombe_auc_interval(auc: float, n_pos: int, n_neg: int,
                          confidence_level: float = 0.95) -> tuple[float, float]:
    """Newcombe's (2006) score-type interval ("method 5") for one AUC.

    With m positives, n negatives and the observed AUC θ̂ (ties counted as one half), let
    N* = (m + n)/2 − 1 and, for a candidate true value θ,
    V(θ) = θ(1 − θ)/(m·n) · [1 + (N* − 1)·((1 − θ)/(2 − θ) + θ/(1 + θ))].
    The interval is every θ in [0, 1] with (θ̂ − θ)² ≤ z²·V(θ), z the standard normal
    quantile at 0.5 + level/2. Its two ends are found numerically, one below θ̂ and one
    above; V is 0 at θ = 0 and θ = 1, so an end at θ̂ = 0 (or 1) is 0 (or 1) and the
    interval never leaves [0, 1].

    Parameters
    ----------
    auc : the observed AUC θ̂, in [0, 1]
    n_pos, n_neg : the numbers of positive and negative cases (whole, non-negative)
    confidence_level : in (0, 1)

    Returns
    -------
    (low, high) : floats; (nan, nan) when a class has no cases

    Examples
    --------
    >>> lo, hi = newcombe_auc_interval(0.8, 10, 10)
    >>> round(lo, 4), round(hi, 4)
    (0.5552, 0.9222)
    >>> [round(x, 4) for x in newcombe_auc_interval(1.0, 5, 7)]
    [0.7196, 1.0]
    """
    level = check_level(confidence_level)
    m = check_int(n_pos, "n_pos", minimum=0)
    n = check_int(n_neg, "n_neg", minimum=0)
    t = check_real(auc, "auc", low=0.0, high=1.0)
    if m == 0 or n == 0:
        return (math.nan, math.nan)
    from scipy.optimize import brentq
    from scipy.stats import norm

    z2 = float(norm.ppf(0.5 + level / 2.0)) ** 2

    def gap(theta: float) -> float:  # > 0 outside the interval, <= 0 inside
        return (t - theta) ** 2 - z2 * _variance(theta, m, n)

    def shape(theta: float) -> float:  # V(θ) / (θ(1 − θ))
        return _variance(theta, m, n) / (theta * (1.0 - theta)) if 0 < theta < 1 else \
            (1.0 + ((m + n) / 2.0 - 2.0) * 0.5) / (m * n)

    tol = dict(xtol=1e-15, rtol=4 * np.finfo(float).eps)
    if t == 0.0:  # θ² = z²·θ(1 − θ)·s(θ): drop the root at 0
        return (0.0, brentq(lambda u: u - z2 * (1.0 - u) * shape(u), 0.0, 1.0, **tol))
    if t == 1.0:
        return (brentq(lambda u: (1.0 - u) - z2 * u * shape(u), 0.0, 1.0, **tol), 1.0)
    return (brentq(gap, 0.0, t, **tol), brentq(gap, t, 1.0, **tol))
