"""The pieces every interval module of :mod:`measurelab.inference` shares.

:class:`Interval` (a value with its interval), :func:`check_level` (the confidence level as
a float in (0, 1)) and :func:`_z` (the two-sided normal quantile of a level). Both
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
from typing import Any, NamedTuple

from measurelab.exceptions import MeasurelabError


class Interval(NamedTuple):
    """A value with its interval, the method, and (DeLong only) the standard error."""

    value: float
    lo: float
    hi: float
    method: str
    se: float = math.nan


def check_level(ci: Any, name: str = "ci") -> float:
    """The confidence level as a float in (0, 1), or a one-line error.

    Examples
    --------
    >>> check_level(0.9)
    0.9
    """
    try:
        level = float(ci)
    except (TypeError, ValueError):
        raise MeasurelabError(f"{name} must be a number in (0, 1), got {ci!r}") from None
    if not 0.0 < level < 1.0:
        raise MeasurelabError(f"{name} must be in (0, 1) (e.g. 0.95), got {ci!r}")
    return level


def _z(level: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(0.5 + level / 2.0))
