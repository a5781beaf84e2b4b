"""Parameter checks of the lab's entry points (the lab uses the library's public API only,
so it keeps its own small copies of the library's checks): each returns the value or
raises a one-line :class:`~measurelab.exceptions.MeasurelabError` naming the parameter (a
:class:`~measurelab.exceptions.MeasurelabTypeError` for a wrong type).

Examples
--------
>>> check_int(3, "workers", minimum=1)
3
>>> check_flag("no", "progress")
Traceback (most recent call last):
...
measurelab.exceptions.MeasurelabTypeError: progress must be True or False, got 'no'
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError, MeasurelabTypeError

#: seeds are non-negative integers below 2**63
SEED_LIMIT = 2**63


def _show(value: Any, limit: int = 60) -> str:
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_flag(value: Any, name: str) -> bool:
    """A bool (numpy's too); 'no', 1 or None are refused."""
    if not isinstance(value, bool | np.bool_):
        raise MeasurelabTypeError(f"{name} must be True or False, got {_show(value)}")
    return bool(value)


def check_int(value: Any, name: str, *, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """An int (numpy's too; not a bool, not 2.0) within ``[minimum, maximum]``.

    Examples
    --------
    >>> check_int(1.5, "n_train")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabTypeError: n_train must be an integer, got 1.5
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise MeasurelabTypeError(f"{name} must be an integer, got {_show(value)}")
    v = int(value)
    if minimum is not None and v < minimum:
        what = {1: "a positive integer", 0: "a non-negative integer"}.get(
            minimum, f"at least {minimum}")
        raise MeasurelabError(f"{name} must be {what}, got {v}")
    if maximum is not None and v > maximum:
        raise MeasurelabError(f"{name} must be at most {maximum}, got {v}")
    return v


def check_real(value: Any, name: str, *, low: float | None = None,
               high: float | None = None) -> float:
    """A finite real number (not a bool, not text) within ``[low, high]``.

    Examples
    --------
    >>> check_real(0.5, "epsilon", low=0)
    0.5
    """
    if isinstance(value, bool | np.bool_) or not isinstance(
            value, int | float | np.integer | np.floating):
        raise MeasurelabTypeError(f"{name} must be a number, got {_show(value)}")
    v = float(value)
    if not math.isfinite(v):
        raise MeasurelabError(f"{name} must be a finite number, got {v}")
    if low is not None and v < low:
        raise MeasurelabError(f"{name} must be at least {low:g}, got {v:g}")
    if high is not None and v > high:
        raise MeasurelabError(f"{name} must be at most {high:g}, got {v:g}")
    return v


def check_seed(value: Any, name: str = "seed") -> int:
    """A seed: an integer in [0, 2**63)."""
    return check_int(value, name, minimum=0, maximum=SEED_LIMIT - 1)


def check_text(value: Any, name: str, *, optional: bool = False) -> str | None:
    """Non-empty text (``optional``: None too)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise MeasurelabTypeError(f"{name} must be text (str), got {type(value).__name__} "
                                  f"{_show(value)}")
    if not value.strip():
        raise MeasurelabError(f"{name} is empty")
    return value


def check_choice(value: Any, name: str, choices: Any) -> Any:
    """``value`` when it is one of ``choices`` (compared with its type)."""
    if not any(type(value) is type(c) and value == c for c in choices):
        shown = ", ".join(repr(c) for c in choices)
        raise MeasurelabError(f"{name} must be one of {shown}; got {_show(value)}")
    return value


def check_folder(path: Any, name: str, need: str = "give a folder") -> Path:
    """An output folder, checked before any work: a non-empty str or PathLike, not a file,
    not inside a file. A missing folder is fine (it is created).

    Examples
    --------
    >>> check_folder("", "out")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: out is empty; give a folder such as out/run1
    """
    if not isinstance(path, str | os.PathLike) or isinstance(os.fspath(path), bytes):
        raise MeasurelabTypeError(f"{name} must be a folder path (str or Path), got "
                                  f"{type(path).__name__} {_show(path)}")
    text = os.fspath(path)
    if not text.strip():
        raise MeasurelabError(f"{name} is empty; give a folder such as out/run1")
    p = Path(text)
    if p.exists() and not p.is_dir():
        raise MeasurelabError(f"{name} {text!r} is a file; {need}")
    for parent in p.parents:
        if parent.exists():
            if not parent.is_dir():
                raise MeasurelabError(f"{name} {text!r}: {str(parent)!r} is a file, not a "
                                      "folder")
            break
    return p
