"""The pieces every interval module of :mod:`measurelab.inference` shares.

:class:`Interval` (a value with its interval), :func:`check_level` (the confidence level as
a float in (0, 1): the one check of :mod:`measurelab.validation`), :func:`_z` (the
two-sided normal quantile of a level) and :func:`z_test` (the one z-test). Both
:mod:`~measurelab.inference.delong` and :mod:`~measurelab.inference.intervals` build on
them; the public names are re-exported from :mod:`measurelab.inference.intervals`, where
users import them.

Examples
--------
>>> Interval(0.8, 0.7, 0.9, "wilson").se
nan
>>> round(_z(0.95), 4)
1.96
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from measurelab._util.results import ZTestResult
from measurelab._util.validation import check_level as check_level  # one level check
from measurelab._util.validation import model_names as model_names  # one for all
from measurelab._util.validation import short_repr
from measurelab._util.words import num
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.pickling import versioned_pickle


@versioned_pickle
class Interval(NamedTuple):
    """A value with its interval, the method, and (DeLong only) the standard error."""

    value: float
    lo: float
    hi: float
    method: str
    se: float = math.nan

    def __str__(self) -> str:
        """The value, its interval and the method.

        Examples
        --------
        >>> print(Interval(0.936, 0.865, 0.971, "delong-logit", 0.025))
        0.936, interval 0.865 to 0.971 (delong-logit)
        """
        return f"{num(self.value)}, interval {num(self.lo)} to {num(self.hi)} ({self.method})"


def _z(level: float) -> float:
    from scipy.special import ndtri  # scipy.stats.norm.ppf's own routine, a lighter import

    return float(ndtri(0.5 + level / 2.0))


def z_test(diff: float, var: float, level: float) -> ZTestResult:
    """The two-sided z-test of ``diff`` with variance ``var`` and the interval on the same
    standard error, so the interval excludes 0 exactly when p < 1 − level. A zero variance
    gives the point, z = 0 and p = 1 for a zero difference, else ±inf and 0; an undefined
    difference or variance gives NaN. The one z-test of the package (DeLong's paired and
    unpaired tests, the clustered tests).

    Examples
    --------
    >>> [round(x, 4) for x in z_test(0.1, 0.0025, 0.95)]
    [0.1, 0.002, 0.198, 0.05, 2.0, 0.0455]
    >>> z_test(0.0, 0.0, 0.95).pvalue, z_test(0.2, 0.0, 0.95).statistic
    (1.0, inf)
    """
    from scipy.special import ndtr

    if not (math.isfinite(diff) and math.isfinite(var)):
        return ZTestResult(diff, math.nan, math.nan, math.nan, math.nan, math.nan)
    se = math.sqrt(max(var, 0.0))
    if se == 0.0:
        return ZTestResult(diff, diff, diff, 0.0,
                           0.0 if diff == 0 else math.copysign(math.inf, diff),
                           1.0 if diff == 0 else 0.0)
    z = diff / se
    zc = _z(level)
    return ZTestResult(diff, diff - zc * se, diff + zc * se, se, z, float(2.0 * ndtr(-abs(z))))


def model_items(models: Any) -> list[tuple[Any, Any]]:
    """``models`` (a mapping ``{name: scores}`` or ``(name, scores)`` pairs) as a list of
    pairs, or a one-line error.

    Examples
    --------
    >>> model_items({"a": [0.2]})
    [('a', [0.2])]
    """
    if isinstance(models, Mapping):
        items = list(models.items())
    elif isinstance(models, str | bytes) or not isinstance(models, Iterable):
        raise MeasurelabError("models must be a mapping {name: scores} or (name, scores) "
                              f"pairs, got {type(models).__name__}")
    else:
        items = list(models)
    if not items:
        raise MeasurelabError("models is empty; give at least one {name: scores}")
    for item in items:
        if not (isinstance(item, tuple | list) and len(item) == 2):
            raise MeasurelabError(
                "models must be a mapping {name: scores} or (name, scores) pairs, got "
                f"{short_repr(item)}")
    return [(k, v) for k, v in items]


def check_title(title: Any, name: str = "title", *, optional: bool = False) -> str | None:
    """A heading: text (or, ``optional``, None where the default applies).

    Examples
    --------
    >>> check_title("Ranks"), check_title(None, optional=True)
    ('Ranks', None)
    """
    if not (isinstance(title, str) or (optional and title is None)):
        raise MeasurelabTypeError(f"{name} must be text, got {short_repr(title)}")
    return title
