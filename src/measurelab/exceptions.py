"""The errors and warnings measurelab raises, in one place.

Every error of bad input is a :class:`MeasurelabError` (a :class:`ValueError`), whose
message is one line naming the value, where it is, and what was expected; the command
line prints that line and exits with status 2. A measure that is undefined for its input
returns NaN with an :class:`UndefinedMeasureWarning`.

Examples
--------
>>> import warnings
>>> import measurelab as ml
>>> from measurelab.exceptions import MeasurelabError, UndefinedMeasureWarning
>>> try:
...     ml.evaluate([0, 1], [0.2], measures=["acc"])
... except MeasurelabError as e:
...     print("refused")
refused
>>> with warnings.catch_warnings(record=True) as w:
...     warnings.simplefilter("always")
...     ml.metrics.auc([1, 1], [0.2, 0.9])
nan
>>> w[0].category is UndefinedMeasureWarning
True
"""

from __future__ import annotations

__all__ = [
    "MeasurelabDeprecationWarning",
    "MeasurelabError",
    "MeasurelabTypeError",
    "MissingMeasureError",
    "UndefinedMeasureWarning",
]


class MeasurelabError(ValueError):
    """Bad input: the message names the value and what was expected."""


class MeasurelabTypeError(MeasurelabError, TypeError):
    """A parameter of the wrong type (a string where a flag is expected, 1.5 where an
    integer is): a :class:`MeasurelabError` that is also a :class:`TypeError`."""


class MissingMeasureError(MeasurelabError, KeyError):
    """A measure asked of an :class:`~measurelab.EvaluationResult` that does not hold it.

    A :class:`KeyError` too, so the result behaves as a mapping: ``result.get(name)`` gives
    None and ``name in result`` False.

    Examples
    --------
    >>> str(MissingMeasureError("'auc' is not in this result"))
    "'auc' is not in this result"
    """

    def __str__(self) -> str:  # the message as written (KeyError would quote it)
        return Exception.__str__(self)


class UndefinedMeasureWarning(UserWarning):
    """A measure is undefined for the input (for example AUC with one class); NaN is returned."""


class MeasurelabDeprecationWarning(DeprecationWarning):
    """Deprecated measurelab behaviour (none in this release; kept for the next)."""
