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
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import numpy as np

from measurelab._util.validation import short_repr, show
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError


class Interval(NamedTuple):
    """A value with its interval, the method, and (DeLong only) the standard error."""

    value: float
    lo: float
    hi: float
    method: str
    se: float = math.nan


def check_level(ci: Any, name: str = "ci") -> float:
    """The confidence level as a float in (0, 1), or a one-line error (a
    :class:`~measurelab.exceptions.MeasurelabTypeError` when it is not a number: a string
    such as '0.9' or a bool is not read as one).

    Examples
    --------
    >>> check_level(0.9)
    0.9
    >>> check_level("0.9")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabTypeError: ci must be a number in (0, 1), got '0.9'
    """
    if isinstance(ci, bool | np.bool_) or not isinstance(ci, int | float | np.integer
                                                          | np.floating):
        raise MeasurelabTypeError(f"{name} must be a number in (0, 1), got "
                                  f"{short_repr(ci)}")
    level = float(ci)
    if not 0.0 < level < 1.0:
        raise MeasurelabError(f"{name} must be in (0, 1) (e.g. 0.95), got {show(ci)}")
    return level


def _z(level: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(0.5 + level / 2.0))


def model_names(keys: Any, what: str = "models") -> list[str]:
    """The models' names as text (as every table and figure shows them), refusing two keys
    that are the same text — a key ``1`` and a key ``'1'`` would otherwise be one model —
    naming both.

    Examples
    --------
    >>> model_names(["a", 2])
    ['a', '2']
    >>> model_names([1, "1"])
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: models: the names 1 and '1' are the same text '1'; give every model a distinct name
    """  # noqa: E501
    keys = list(keys)
    names = [str(k) for k in keys]
    seen: dict[str, int] = {}
    for j, n in enumerate(names):
        i = seen.setdefault(n, j)
        if i == j:
            continue
        a, b = keys[i], keys[j]
        if type(a) is type(b) and a == b:
            raise MeasurelabError(f"{what}: the model name {short_repr(a)} is given twice; "
                                  "names must be unique")
        raise MeasurelabError(f"{what}: the names {short_repr(a)} and {short_repr(b)} are the "
                              f"same text {short_repr(n)}; give every model a distinct name")
    return names


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
