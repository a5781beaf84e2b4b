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

__all__ = ["MeasurelabDeprecationWarning", "MeasurelabError", "UndefinedMeasureWarning"]


class MeasurelabError(ValueError):
    """Bad input: the message names the value and what was expected."""


class UndefinedMeasureWarning(UserWarning):
    """A measure is undefined for the input (for example AUC with one class); NaN is returned."""


class MeasurelabDeprecationWarning(DeprecationWarning):
    """Deprecated measurelab behaviour (none in this release; kept for the next)."""
