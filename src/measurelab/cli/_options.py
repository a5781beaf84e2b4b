"""Options of the command line read under one rule for numbers, checked before any work.

Numbers are plain ASCII decimal notation, as in the data files (one parser,
:func:`~measurelab._util.validation.parse_number`): ``1_0``, full-width digits or ``0x10``
are refused, never read as 10. Every refusal is one line naming the option.

The ``*_type`` factories are argparse ``type=`` functions (their refusal reads "argument
--n: ..."); :func:`integer`, :func:`real`, :func:`seed` and :func:`output_file` check an
option's text in a command's ``run``.
"""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from measurelab._util.validation import parse_number, quote
from measurelab.exceptions import MeasurelabError

_INT_TEXT = re.compile(r"[+-]?[0-9]+", re.ASCII)

#: seeds are non-negative integers below 2**63 (numpy's and the library's rule)
SEED_LIMIT = 2**63


def _int_problem(text: Any, minimum: int | None, maximum: int | None
                 ) -> tuple[int | None, str, bool]:
    """The integer ``text`` spells, or None, what is wrong, and whether it is the form
    (not the range)."""
    t = str(text).strip()
    if not _INT_TEXT.fullmatch(t):
        return None, "(plain digits, such as 10)", True
    v = int(t)
    if minimum is not None and v < minimum:
        what = {1: "a positive integer", 0: "a non-negative integer"}.get(
            minimum, f"at least {minimum}")
        return None, f"must be {what}, got {quote(text)}", False
    if maximum is not None and v > maximum:
        return None, f"must be at most {maximum}, got {quote(text)}", False
    return v, "", False


def _real_problem(text: Any, low: float | None, high: float | None, *, open_: bool,
                  finite: bool) -> tuple[float | None, str, bool]:
    v = parse_number(str(text).strip())
    if v is None:
        return None, "(plain decimal notation, such as 0.5 or 1e-3)", True
    if finite and not math.isfinite(v):
        return None, f"must be a finite number, got {quote(text)}", False
    if (low is not None and (v < low or (open_ and v == low))) or \
            (high is not None and (v > high or (open_ and v == high))):
        if high is None:
            what = f"{'greater than' if open_ else 'at least'} {low:g}"
        elif low is None:
            what = f"{'less than' if open_ else 'at most'} {high:g}"
        else:
            what = f"in ({low:g}, {high:g})" if open_ else f"in [{low:g}, {high:g}]"
        return None, f"must be {what}, got {quote(text)}", False
    return v, "", False


def integer(text: Any, flag: str, *, minimum: int | None = None,
            maximum: int | None = None) -> int:
    """The integer an option's text spells, within bounds, or one line naming ``flag``.

    Examples
    --------
    >>> integer("25", "--n-boot", minimum=1)
    25
    >>> integer("1_0", "--n-boot")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: --n-boot must be an integer, got '1_0' (plain \
digits, such as 10)
    """
    v, problem, form = _int_problem(text, minimum, maximum)
    if v is None:
        raise MeasurelabError(f"{flag} must be an integer, got {quote(text)} {problem}"
                              if form else f"{flag} {problem}")
    return v


def real(text: Any, flag: str, *, low: float | None = None, high: float | None = None,
         open_: bool = False, finite: bool = True) -> float:
    """The number an option's text spells (plain decimal), within bounds, or one line
    naming ``flag``; ``open_`` excludes the bounds.

    Examples
    --------
    >>> real("0.05", "--alpha", low=0, high=1, open_=True)
    0.05
    >>> real("1", "--alpha", low=0, high=1, open_=True)
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: --alpha must be in (0, 1), got '1'
    """
    v, problem, form = _real_problem(text, low, high, open_=open_, finite=finite)
    if v is None:
        raise MeasurelabError(f"{flag} must be a number, got {quote(text)} {problem}"
                              if form else f"{flag} {problem}")
    return v


def seed(text: Any, flag: str = "--seed") -> int:
    """A seed option: a whole number in [0, 2**63).

    Examples
    --------
    >>> seed("7")
    7
    >>> seed("-1")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: --seed must be a non-negative integer, got '-1'
    """
    return integer(text, flag, minimum=0, maximum=SEED_LIMIT - 1)


def int_type(minimum: int | None = None, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` reading a whole number in plain digits within bounds.

    Examples
    --------
    >>> int_type(minimum=1)("3")
    3
    """
    def parse(text: str) -> int:
        v, problem, form = _int_problem(text, minimum, maximum)
        if v is None:
            raise argparse.ArgumentTypeError(f"invalid int value: {quote(text)} {problem}"
                                             if form else problem)
        return v

    parse.__name__ = "int"
    return parse


def real_type(low: float | None = None, high: float | None = None, *, open_: bool = False,
              finite: bool = True) -> Callable[[str], float]:
    """An argparse ``type=`` reading a number in plain decimal notation within bounds
    (``finite=False`` lets ``inf`` and ``nan`` through for the command to judge).

    Examples
    --------
    >>> real_type()("0.5"), real_type(finite=False)("inf")
    (0.5, inf)
    """
    def parse(text: str) -> float:
        v, problem, form = _real_problem(text, low, high, open_=open_, finite=finite)
        if v is None:
            raise argparse.ArgumentTypeError(f"invalid number: {quote(text)} {problem}"
                                             if form else problem)
        return v

    parse.__name__ = "number"
    return parse


def text_type(what: str = "a name") -> Callable[[str], str]:
    """An argparse ``type=`` refusing empty (or blank) text.

    Examples
    --------
    >>> text_type()("lr")
    'lr'
    """
    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"is empty; give {what}")
        return text

    parse.__name__ = "text"
    return parse


def output_file(path: Any, flag: str, tails: tuple[str, ...] = ()) -> Path:
    """An output file option checked before any computing: not empty, not a folder, not
    inside a file, in a writable folder (the library's check, naming ``flag``).

    Examples
    --------
    >>> output_file("", "--html")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: --html is empty; give a file name such as report.html
    """
    from measurelab.io.files import check_output_path

    if tails:  # a page: the files written beside it are checked with it, naming flag
        from measurelab._util.pageset import check_page_set

        return check_page_set(path, tails, flag)
    return check_output_path(path, flag)


def output_folder(path: Any, flag: str,
                  need: str = "is in the way: a file where a folder is needed") -> Path:
    """An output folder option checked before any computing: not empty, not a file, not
    inside a file, and creatable (its nearest existing folder is writable).

    Examples
    --------
    >>> output_folder("", "--out")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: --out is empty; give a folder such as out/run1
    """
    from measurelab._util.files import check_output_folder

    if isinstance(path, str | os.PathLike) and isinstance(os.fspath(path), str):
        return check_output_folder(path, flag, need)
    raise MeasurelabError(f"{flag} is empty; give a folder such as out/run1")
