"""Arithmetic shared by the formulas: division with a declared 0/0 rule.

The formulas are written in plain ``+ - * /`` so that they work unchanged on Python
numbers, on :class:`fractions.Fraction` (exact values, used to decide ties when comparing
measures) and on numpy arrays (one value per threshold, class or object).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from measurelab._util.validation import warn_undefined


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
        if num != num:  # an undefined numerator stays undefined (as numpy's nan / 0)
            return math.nan
        return math.copysign(math.inf, float(num))
    return num / den


def sqrt(x: Any) -> Any:
    """Square root for scalars (float result) and arrays."""
    if isinstance(x, np.ndarray):
        return np.sqrt(x)
    if isinstance(x, Fraction) and x >= 0:
        return sqrt_fraction(x)
    return math.sqrt(x)


def absolute(x: Any) -> Any:
    return np.abs(x) if isinstance(x, np.ndarray) else abs(x)


def log(x: Any) -> Any:
    """Natural log with log(0) = -inf and log(inf) = inf (exact rationals: see
    :func:`log_fraction`)."""
    if isinstance(x, Fraction) and x > 0:
        return log_fraction(x)
    with np.errstate(divide="ignore"):
        out = np.log(np.asarray(x, dtype=np.float64))
    return out if isinstance(x, np.ndarray) else float(out)


def as_float(x: Any) -> Any:
    """Scalars to float (Fraction stays Fraction), arrays to float arrays."""
    return x


def exact_sum(x: Any) -> Fraction:
    """The exact sum of float64 values, as a :class:`~fractions.Fraction` (no rounding).

    Every double is an integer times a power of two; the integers of one exponent are
    summed in two 26/27-bit halves (exact in int64), the exponents combined in Python
    integers.

    Examples
    --------
    >>> exact_sum([0.1] * 10) == 10 * Fraction(0.1)
    True
    >>> sum([0.1] * 10) == 1.0, float(exact_sum([0.1] * 10)) == 1.0
    (False, True)
    """
    v = np.asarray(x, dtype=np.float64).ravel()
    v = v[v != 0]
    if v.size == 0:
        return Fraction(0)
    f, e = np.frexp(v)
    mant = np.ldexp(f, 53).astype(np.int64)  # exact: |mant| < 2**53
    exp = e.astype(np.int64) - 53
    order = np.argsort(exp, kind="stable")
    mant, exp = mant[order], exp[order]
    starts = np.flatnonzero(np.r_[True, exp[1:] != exp[:-1]])
    hi = np.add.reduceat(mant >> 26, starts)
    lo = np.add.reduceat(mant & ((1 << 26) - 1), starts)
    e0 = int(exp[0])
    num = 0
    for h, lw, ee in zip(hi.tolist(), lo.tolist(), exp[starts].tolist(), strict=True):
        num += ((h << 26) + lw) << (ee - e0)
    return Fraction(num) * Fraction(2) ** e0


def _whole(v: Any) -> bool:
    return (
        isinstance(v, int | float | np.integer | np.floating)
        and not isinstance(v, bool)
        and math.isfinite(v)
        and float(v).is_integer()
    )


def whole_counts(c: Any) -> Any:
    """The counts as exact Fractions when all four are whole scalars (Python or numpy ints,
    or floats with integral values: unweighted or frequency-weighted data), else None.

    Examples
    --------
    >>> from measurelab.stats.confusion import BinaryCounts
    >>> whole_counts(BinaryCounts(3.0, 1, 0, 2))
    BinaryCounts(tp=Fraction(3, 1), fp=Fraction(1, 1), fn=Fraction(0, 1), tn=Fraction(2, 1))
    >>> whole_counts(BinaryCounts(0.5, 1, 0, 2)) is None
    True
    """
    fields = (c.tp, c.fp, c.fn, c.tn)
    if not all(_whole(v) for v in fields):
        return None
    return type(c)(*(Fraction(int(v)) for v in fields))


def exact_for_whole_counts(formula: Any) -> Any:
    """Decorate a count measure so that whole-number counts are computed in exact
    rational arithmetic and rounded once at the end (no cancellation: a value that is 0
    exactly comes out 0, kappa and MCC stay exact at counts of 10^15 and beyond).
    Fraction counts keep Fraction results; real (weighted) counts and arrays keep float
    arithmetic."""
    import functools

    @functools.wraps(formula)
    def wrapper(c: Any, *args: Any, **kwargs: Any) -> Any:
        e = whole_counts(c)
        if e is None:
            return formula(c, *args, **kwargs)
        out = formula(e, *args, **kwargs)
        return float(out) if isinstance(out, Fraction | int) else out

    return wrapper


def sqrt_fraction(q: Fraction) -> float:
    """The correctly rounded square root of a non-negative rational.

    Examples
    --------
    >>> sqrt_fraction(Fraction(1, 4)), sqrt_fraction(Fraction(2)) == math.sqrt(2)
    (0.5, True)
    """
    a, b = q.numerator, q.denominator
    if a == 0:
        return 0.0
    # floor(sqrt(a/b)·2^h) with ≥ 56 significant bits, plus a sticky bit when inexact
    s = max(0, 114 - (a.bit_length() - b.bit_length()))
    s += s & 1
    x, rem = divmod(a << s, b)
    r = math.isqrt(x)
    sticky = int(rem != 0 or r * r != x)
    return (2 * r + sticky) / (1 << (s // 2 + 1))


def log_fraction(q: Fraction) -> float:
    """Natural log of a positive rational, accurate near 1 (ln 1 is exactly 0).

    Examples
    --------
    >>> log_fraction(Fraction(1)), round(log_fraction(Fraction(10**40 + 1, 10**40)) * 1e40, 9)
    (0.0, 1.0)
    """
    d = q - 1
    if abs(d) < Fraction(1, 2):
        return math.log1p(float(d))
    f = float(q) if q.numerator.bit_length() - q.denominator.bit_length() < 1000 else math.inf
    if 0 < f < math.inf and f >= 1e-300:
        return math.log(f)
    return math.log(q.numerator) - math.log(q.denominator)
