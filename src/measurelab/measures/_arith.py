"""Arithmetic shared by the formulas: division with a declared 0/0 rule.

The formulas are written in plain ``+ - * /`` so that they work unchanged on Python
numbers, on :class:`fractions.Fraction` (exact values, used to decide ties when comparing
measures) and on numpy arrays (one value per threshold, class or object).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab._validation import warn_undefined


def div(num: Any, den: Any, zero_division: float = math.nan, what: str = "ratio") -> Any:
    """``num / den`` where ``x/0`` is ``±inf`` and ``0/0`` is ``zero_division``.

    A NaN produced by 0/0 is announced with an :class:`UndefinedMeasureWarning`.

    Examples
    --------
    >>> from fractions import Fraction
    >>> div(Fraction(1), Fraction(3))
    Fraction(1, 3)
    >>> div(0, 0, 0.0), div(2, 0)
    (0.0, inf)
    """
    if isinstance(num, np.ndarray) or isinstance(den, np.ndarray):
        num = np.asarray(num, dtype=np.float64)
        den = np.asarray(den, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = num / den
        zz = (den == 0) & (num == 0)
        if zz.any():
            out = np.where(zz, zero_division, out)
            if math.isnan(zero_division):
                warn_undefined(f"{what} is 0/0 for some inputs; returning NaN there", 4)
        return out
    if den == 0:
        if num == 0:
            if math.isnan(zero_division):
                warn_undefined(f"{what} is 0/0; returning NaN", 4)
            return zero_division
        return math.copysign(math.inf, float(num))
    return num / den


def sqrt(x: Any) -> Any:
    """Square root for scalars (float result) and arrays."""
    if isinstance(x, np.ndarray):
        return np.sqrt(x)
    return math.sqrt(x)


def absolute(x: Any) -> Any:
    return np.abs(x) if isinstance(x, np.ndarray) else abs(x)


def log(x: Any) -> Any:
    """Natural log with log(0) = -inf and log(inf) = inf."""
    with np.errstate(divide="ignore"):
        out = np.log(np.asarray(x, dtype=np.float64))
    return out if isinstance(x, np.ndarray) else float(out)


def as_float(x: Any) -> Any:
    """Scalars to float (Fraction stays Fraction), arrays to float arrays."""
    return x
