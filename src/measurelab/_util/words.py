"""Counts in words: "1 model", "3 models", "1,200 cases" — never "model(s)".

Examples
--------
>>> counted(1, "model"), counted(3, "model"), counted(1200, "case")
('1 model', '3 models', '1,200 cases')
>>> counted(2, "data set"), counted(1, "class", "classes"), counted(0, "class", "classes")
('2 data sets', '1 class', '0 classes')
"""

from __future__ import annotations

from typing import Any


def counted(n: Any, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in the singular for one, else in the plural (``plural``, by
    default ``noun + 's'``); a whole number with thousands separators."""
    k = int(n)
    return f"{k:,} {noun if k == 1 else (plural or noun + 's')}"


def p_words(p: float) -> str:
    """A p-value in a sentence: 'p = 0.0123', 'p < 0.001', or 'p undefined'.

    Examples
    --------
    >>> p_words(0.01234), p_words(0.0002), p_words(float("nan"))
    ('p = 0.0123', 'p < 0.001', 'p undefined')
    """
    if p is None or p != p:
        return "p undefined"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3g}"


def num(x: float, digits: int = 4) -> str:
    """A number to ``digits`` significant digits with a true minus ('n/a' when NaN).

    Examples
    --------
    >>> num(-0.012345), num(float("nan")), num(2.0)
    ('−0.01235', 'n/a', '2')
    """
    if x is None or x != x:
        return "n/a"
    return f"{x:.{digits}g}".replace("-", "−")


def signed(x: float, digits: int = 4) -> str:
    """A difference with its sign and a true minus ('n/a' when NaN).

    Examples
    --------
    >>> signed(0.026), signed(-0.5), signed(float("nan"))
    ('+0.026', '−0.5', 'n/a')
    """
    if x is None or x != x:
        return "n/a"
    return ("+" if x >= 0 else "") + num(x, digits)
