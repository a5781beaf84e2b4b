"""Checks of the threshold rule the statistics take (``score > threshold``, or ``>=`` with
``inclusive``), shared by every entry point that takes them.

A threshold is a real number (±inf allowed, NaN not: no score is above or below it); a
string such as '0.5' or a bool is refused rather than read as a number, and ``inclusive``
is True or False ('no' is not read as True).

Examples
--------
>>> check_rule(0.5, False)
(0.5, False)
>>> check_rule("0.5", False)
Traceback (most recent call last):
...
measurelab.exceptions.MeasurelabTypeError: threshold must be a number, got '0.5'
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from measurelab._util.validation import check_flag, check_threshold, short_repr
from measurelab.exceptions import MeasurelabTypeError

__all__ = ["check_rule", "check_threshold_value"]


def check_threshold_value(threshold: Any, name: str = "threshold") -> float:
    """``threshold`` as a float: a real number (an int, a float, a Fraction, numpy's), not
    NaN (infinite is fine).

    Examples
    --------
    >>> check_threshold_value(1), check_threshold_value(float("inf"))
    (1.0, inf)
    """
    if isinstance(threshold, bool | np.bool_) or not isinstance(threshold, numbers.Real):
        raise MeasurelabTypeError(f"{name} must be a number, got {short_repr(threshold)}")
    return check_threshold(threshold, name)


def check_rule(threshold: Any, inclusive: Any) -> tuple[float, bool]:
    """The threshold rule ``(threshold, inclusive)``, checked.

    Examples
    --------
    >>> check_rule(0, True)
    (0.0, True)
    """
    return check_threshold_value(threshold), check_flag(inclusive, "inclusive")
