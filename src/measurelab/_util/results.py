"""The vocabulary every test result shares (scipy's): ``statistic``, ``pvalue`` and
``confidence_interval(confidence_level=0.95)`` returning :class:`ConfidenceInterval`.

Examples
--------
>>> ci = t_interval(1.0, 0.5, 10, 0.95)
>>> lo, hi = ci
>>> round(lo, 4), round(ci.high, 4)
(-0.1141, 2.1141)
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple, NoReturn

from measurelab._util.validation import check_level
from measurelab._util.words import num, p_words, signed
from measurelab.exceptions import MeasurelabError
from measurelab.pickling import versioned_pickle


@versioned_pickle
class ConfidenceInterval(NamedTuple):
    """A confidence interval ``(low, high)`` (scipy's name); unpacks as ``lo, hi``.

    Examples
    --------
    >>> lo, hi = ConfidenceInterval(0.2, 0.4)
    >>> (lo, hi), ConfidenceInterval(0.2, 0.4).high
    ((0.2, 0.4), 0.4)
    """

    low: float
    high: float

    def __str__(self) -> str:
        """The interval in words.

        Examples
        --------
        >>> print(ConfidenceInterval(0.2, 0.4))
        interval 0.2 to 0.4
        """
        return f"interval {num(self.low)} to {num(self.high)}"


@versioned_pickle
class ZTestResult(NamedTuple):
    """A two-sided z-test of a difference with the interval on the same standard error
    (DeLong's paired test of two AUCs): the difference ``diff``, the interval ``lo``, ``hi``
    at the level it was run with, ``se``, the ``statistic`` z and its ``pvalue``. Unpacks as
    the 6-tuple ``(diff, lo, hi, se, z, p)`` it replaces.

    Examples
    --------
    >>> r = ZTestResult(0.1, -0.096, 0.296, 0.1, 1.0, 0.3173)
    >>> [round(v, 4) for v in r.confidence_interval(0.9)]
    [-0.0645, 0.2645]
    """

    diff: float
    lo: float
    hi: float
    se: float
    statistic: float
    pvalue: float

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """``diff ± z · se`` at any level (the point when ``se`` is 0)."""
        se = check_se(self.se, "ZTestResult")
        if se == 0:
            check_level(confidence_level, "confidence_level")
            return ConfidenceInterval(self.diff, self.diff)
        return normal_interval(self.diff, se, confidence_level)

    def __str__(self) -> str:
        """The answer: the difference, its interval and the test.

        Examples
        --------
        >>> print(ZTestResult(0.1, -0.096, 0.296, 0.1, 1.0, 0.3173))
        Difference +0.1, interval −0.096 to +0.296 (se 0.1); z = 1, p = 0.317.
        """
        return (f"Difference {signed(self.diff)}, interval {signed(self.lo)} to "
                f"{signed(self.hi)} (se {num(self.se, 3)}); z = {num(self.statistic)}, "
                f"{p_words(self.pvalue)}.")


def t_interval(estimate: float, se: float, df: float,
               confidence_level: Any = 0.95) -> ConfidenceInterval:
    """``estimate ± t_{df} · se``, the interval a t statistic inverts (``se`` 0: the point).

    Examples
    --------
    >>> t_interval(2.0, 0.0, 4)
    ConfidenceInterval(low=2.0, high=2.0)
    """
    from scipy.stats import t

    level = check_level(confidence_level, "confidence_level")
    if se == 0:
        return ConfidenceInterval(float(estimate), float(estimate))
    q = float(t.ppf(0.5 + level / 2.0, df))
    return ConfidenceInterval(float(estimate - q * se), float(estimate + q * se))


def normal_interval(estimate: float, se: float,
                    confidence_level: Any = 0.95) -> ConfidenceInterval:
    """``estimate ± z · se``, the interval a normal statistic inverts.

    Examples
    --------
    >>> [round(v, 3) for v in normal_interval(0.0, 1.0)]
    [-1.96, 1.96]
    """
    from scipy.stats import norm

    level = check_level(confidence_level, "confidence_level")
    q = float(norm.ppf(0.5 + level / 2.0))
    return ConfidenceInterval(float(estimate - q * se), float(estimate + q * se))


def no_interval(what: str, why: str) -> NoReturn:
    """Raise the one-line error of a result that cannot form an interval.

    Examples
    --------
    >>> no_interval("WilcoxonResult", "the test has no estimate")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: WilcoxonResult.confidence_interval: the test has no estimate
    """  # noqa: E501
    raise MeasurelabError(f"{what}.confidence_interval: {why}")


def check_se(se: float, what: str) -> float:
    """``se`` when it is a number an interval can use, else the one-line error saying why."""
    if math.isnan(se):
        no_interval(what, "the standard error is undefined (NaN), so no interval is formed")
    return se
