"""The checks of measurelab's entry points, public (as :mod:`sklearn.utils.validation`).

Every function returns the checked value (normalised: a bool, an int, a float, a Path, a
float64 vector) or raises a one-line :class:`~measurelab.exceptions.MeasurelabError` that
names the parameter, the value and what was expected (a
:class:`~measurelab.exceptions.MeasurelabTypeError` when the value has the wrong type). The
library, the lab and user code that wraps measurelab call these same functions, so one
mistake gets one message wherever it is made.

=========================  ==========================================================
:func:`check_flag`         True or False (numpy's too; 'no', 1 or None are refused)
:func:`check_int`          an integer (not a bool, not 2.0) within bounds
:func:`check_real`         a finite real number within bounds (open or closed)
:func:`check_level`        a confidence level in (0, 1)
:func:`check_choice`       one of a list of values
:func:`check_text`         non-empty text
:func:`check_seed`         a seed written down as an integer in [0, 2**63)
:func:`check_random_state` a seed, a numpy Generator or SeedSequence, or None
:func:`make_rng`           the numpy Generator of a ``random_state``
:func:`check_scores`       scores as a finite float64 vector
:func:`check_output_path`  a file that can be written (checked before any work)
:func:`check_output_folder` a folder that can be written (checked before any work)
:func:`model_names`        models' names as text, two keys of the same text refused
=========================  ==========================================================

Examples
--------
>>> from measurelab.validation import check_int, check_level, make_rng
>>> check_int(3, "workers", minimum=1)
3
>>> check_level(2.0, "confidence_level")
Traceback (most recent call last):
...
measurelab.exceptions.MeasurelabError: confidence_level must be in (0, 1) (e.g. 0.95), got 2.0
>>> int(make_rng(0).integers(10)) == int(make_rng(0).integers(10))
True
"""

from __future__ import annotations

from measurelab._util.files import check_output_folder, check_output_path
from measurelab._util.validation import (
    SEED_LIMIT,
    check_choice,
    check_flag,
    check_int,
    check_level,
    check_random_state,
    check_real,
    check_scores,
    check_seed,
    check_text,
    make_rng,
    model_names,
)

__all__ = [
    "SEED_LIMIT",
    "check_choice",
    "check_flag",
    "check_int",
    "check_level",
    "check_output_folder",
    "check_output_path",
    "check_random_state",
    "check_real",
    "check_scores",
    "check_seed",
    "check_text",
    "make_rng",
    "model_names",
]
