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
