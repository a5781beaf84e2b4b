"""Intervals of a proportion k/n of whole counts: Wilson's score interval (the default of
accuracy and error) and Clopper–Pearson's exact interval, both scipy's
``binomtest(k, n).proportion_ci``.

Examples
--------
>>> lo, hi = binomial_interval(81, 100, 0.95, "wilson")
>>> round(lo, 4), round(hi, 4)
(0.7222, 0.8749)
"""

from __future__ import annotations

import math
from typing import Any

from measurelab._util.validation import warn_undefined
from measurelab.exceptions import MeasurelabError
from measurelab.inference._base import Interval
from measurelab.inference.methods._registry import (
    Form,
    IntervalMethod,
    Setting,
    get,
    methods,
    register,
)

#: proportion measures: name -> (numerator, denominator) as functions of the counts
PROPORTIONS = {
    "acc": (lambda c: c.tp + c.tn, lambda c: c.tp + c.fp + c.fn + c.tn),
    "err": (lambda c: c.fp + c.fn, lambda c: c.tp + c.fp + c.fn + c.tn),
    "sens": (lambda c: c.tp, lambda c: c.tp + c.fn),
    "spec": (lambda c: c.tn, lambda c: c.tn + c.fp),
    "prec": (lambda c: c.tp, lambda c: c.tp + c.fp),
    "npv": (lambda c: c.tn, lambda c: c.tn + c.fn),
}


def is_proportion(s: Setting) -> bool:
    """Whether ``s`` is a proportion of whole counts (for k classes only accuracy and error
    are proportions of the cases).

    Examples
    --------
    >>> is_proportion(Setting("sens")), is_proportion(Setting("sens", multiclass=True))
    (True, False)
    """
    if not s.whole_counts or s.measure not in PROPORTIONS:
        return False
    return not s.multiclass or s.measure in ("acc", "err")


def wilson_default(s: Setting) -> bool:
    """Whether Wilson's interval is the default of ``s``: one model's accuracy or error.
    The proportions within a class or a count of decisions (sens, spec, prec, npv) take
    the posterior of the cells, whose marginal is Jeffreys' interval held at the sample's
    value at 0 and 1: Wilson's dips below 0.90 where a rate sits near 0 or 1 on a few dozen
    cases (specificity 0.884 on 60 negatives of a model that flags 4% of the cases).

    Examples
    --------
    >>> wilson_default(Setting("acc")), wilson_default(Setting("spec"))
    (True, False)
    """
    return is_proportion(s) and s.measure in ("acc", "err")


def binomial_interval(k: int, n: int, level: float, method: str) -> tuple[float, float]:
    """Wilson's or Clopper–Pearson's interval of k successes in n ≥ 1 trials (whole counts,
    already checked).

    Examples
    --------
    >>> [round(x, 4) for x in binomial_interval(8, 10, 0.95, "clopper-pearson")]
    [0.4439, 0.9748]
    """
    if method == "wilson":
        return _wilson(int(k), int(n), level)
    from scipy.stats import binomtest

    ci = binomtest(int(k), int(n)).proportion_ci(confidence_level=level, method="exact")
    return (float(ci.low), float(ci.high))


def _wilson(k: int, n: int, level: float) -> tuple[float, float]:
    """Wilson's score interval of k successes in n ≥ 1 trials: scipy's
    ``binomtest(k, n).proportion_ci(level, method='wilson')``, the same arithmetic in the
    same order (so the same bits), without importing scipy.stats (over a second).

    Examples
    --------
    >>> [round(x, 4) for x in _wilson(8, 10, 0.95)]
    [0.4902, 0.9433]
    """
    from math import sqrt

    from scipy.special import ndtri

    p = k / n
    z = ndtri(0.5 + 0.5 * level)
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    q = 1 - p
    delta = z / denom * sqrt(4 * n * p * q + z**2)
    lo = 0.0 if k == 0 else center - delta
    hi = 1.0 if k == n else center + delta
    return (float(lo), float(hi))


def check_counts(k: float, n: float, method: str) -> None:
    """A one-line error unless k ≤ n and both are whole numbers (n = 0 passes: the
    interval is then undefined).

    Examples
    --------
    >>> check_counts(2.5, 4, "wilson")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: wilson intervals need whole counts, got 2.5 of 4; ...
    """
    if k > n:
        raise MeasurelabError(f"k={k:g} successes is more than n={n:g} cases")
    if n != 0 and (k != round(k) or n != round(n)):
        raise MeasurelabError(
            f"{method} intervals need whole counts, got {k!r} of {n!r}; use a bootstrap "
            "method for weighted data"
        )


def counts_interval(k: float, n: float, level: float, method: str) -> tuple[float, float]:
    """The interval of k of n by the proportion method ``method`` ((nan, nan) for n = 0).

    Examples
    --------
    >>> counts_interval(0, 0, 0.95, "wilson")
    (nan, nan)
    """
    check_counts(k, n, method)
    if n == 0:
        return (math.nan, math.nan)
    single: Any = get(method).single  # a proportion method's: its compute has of_counts
    return single.compute.of_counts(int(k), int(n), level)


def proportion_names() -> tuple[str, ...]:
    """The registered proportion methods (those whose single form is a
    :func:`proportion_form`).

    Examples
    --------
    >>> proportion_names()[:2]
    ('wilson', 'clopper-pearson')
    """
    return tuple(m.name for m in methods()
                 if m.single is not None and hasattr(m.single.compute, "of_counts"))


def proportion_form(interval: Any, method: str) -> Any:
    """The single-model form of a proportion method whose interval of k of n (whole, n ≥ 1)
    is ``interval(k, n, level)``: it takes the measure's counts (:data:`PROPORTIONS`), and
    is NaN with a warning naming ``what`` when the denominator is empty.

    Examples
    --------
    >>> from measurelab.stats.confusion import BinaryCounts
    >>> f = proportion_form(lambda k, n, level: (k / n, k / n), "plain")
    >>> f("sens", 0.8, 0.95, counts=BinaryCounts(8, 0, 2, 5))
    Interval(value=0.8, lo=0.8, hi=0.8, method='plain', se=nan)
    """
    def compute(name: str, value: float, level: float, *, table: Any = None,
                counts: Any = None, what: str | None = None, **_: Any) -> Interval:
        num, den = PROPORTIONS[name]
        k, n = float(num(counts)), float(den(counts))
        check_counts(k, n, method)
        if n == 0:
            warn_undefined(f"the {method} interval of {what or name} is undefined: no "
                           "cases in its denominator")
            return Interval(value, math.nan, math.nan, method)
        lo, hi = interval(int(k), int(n), level)
        return Interval(value, lo, hi, method)

    compute.of_counts = interval  # type: ignore[attr-defined]
    return compute


WILSON = register(IntervalMethod(
    "wilson", "Wilson's score interval of a proportion (whole counts)",
    applies=is_proportion,
    single=Form("wilson", proportion_form(
        lambda k, n, level: binomial_interval(k, n, level, "wilson"), "wilson")),
    default=wilson_default, rank=50))

CLOPPER_PEARSON = register(IntervalMethod(
    "clopper-pearson", "Clopper–Pearson's exact interval of a proportion (whole counts)",
    applies=is_proportion,
    single=Form("clopper-pearson", proportion_form(
        lambda k, n, level: binomial_interval(k, n, level, "clopper-pearson"),
        "clopper-pearson"))))
