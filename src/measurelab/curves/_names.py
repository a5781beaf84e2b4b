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

from measurelab._util.validation import short_repr
from measurelab.exceptions import MeasurelabError


def literal(text: Any) -> str:
    """``text`` as matplotlib draws it literally: every ``$`` escaped (so ``$\\alpha$`` is
    shown as typed, not as α, and ``$$`` does not fail), and a leading ``_`` kept visible
    (matplotlib leaves a legend label starting with ``_`` out) by a zero-width space."""
    s = str(text).replace("$", r"\$")
    return "\u200b" + s if s.startswith("_") else s


def model_names(keys: Any, what: str = "scores") -> list[str]:
    """The names of the models (the keys of ``scores``) as text, refusing two keys that are
    the same text (``1`` and ``'1'`` would draw one curve), naming both.

    Examples
    --------
    >>> model_names([1, "1"])
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: scores: the names 1 and '1' are the same text '1'; give every model a distinct name
    """  # noqa: E501
    keys = list(keys)
    names = [str(k) for k in keys]
    seen: dict[str, Any] = {}
    for k, n in zip(keys, names, strict=True):
        if n in seen:
            raise MeasurelabError(f"{what}: the names {short_repr(seen[n])} and {short_repr(k)} "
                                  f"are the same text {short_repr(n)}; give every model a "
                                  "distinct name")
        seen[n] = k
    return names
