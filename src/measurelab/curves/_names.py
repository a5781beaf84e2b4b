"""Model names in figures: shown literally, told apart as text.

Examples
--------
>>> literal("$x$ model"), literal("_base")
('\\\\$x\\\\$ model', '\\u200b_base')
>>> model_names({"a": 1, 2: 3})
['a', '2']
"""

from __future__ import annotations

from typing import Any

from measurelab._util.validation import model_names as _model_names


def literal(text: Any) -> str:
    """``text`` as matplotlib draws it literally: every ``$`` escaped (so ``$\\alpha$`` is
    shown as typed, not as α, and ``$$`` does not fail), and a leading ``_`` kept visible
    (matplotlib leaves a legend label starting with ``_`` out) by a zero-width space."""
    s = str(text).replace("$", r"\$")
    return "\u200b" + s if s.startswith("_") else s


def model_names(keys: Any, what: str = "scores") -> list[str]:
    """The names of the models (the keys of ``scores``) as text: the library's one
    :func:`measurelab.validation.model_names`, naming ``scores`` by default.

    Examples
    --------
    >>> model_names([1, "1"])
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: scores: the names 1 and '1' are the same text '1'; give every model a distinct name
    """  # noqa: E501
    return _model_names(keys, what)
