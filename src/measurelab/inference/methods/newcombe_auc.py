"""Newcombe's score interval of one AUC (:mod:`measurelab.inference.newcombe`): the
default of a single AUC on whole counts when the smaller class has fewer than
:data:`SMALL` cases, where DeLong's logit interval falls short of its level. Paired and
unpaired differences keep DeLong's tests (the registry's default forms of the AUC).

Examples
--------
>>> from measurelab.inference.methods import Setting, choose
>>> choose(Setting("auc", smaller=12)).name, choose(Setting("auc", smaller=300)).name
('newcombe-score', 'delong-logit')
"""

from __future__ import annotations

from typing import Any

from measurelab._util.validation import warn_undefined
from measurelab.inference._base import Interval
from measurelab.inference.methods._registry import Form, IntervalMethod, Setting, register
from measurelab.inference.methods.delong import is_auc

#: the smaller class's size below which Newcombe's interval is the AUC's default
SMALL = 30
#: the method's name
NAME = "newcombe-score"


def _single(name: str, value: float, level: float, *, table: Any = None, counts: Any = None,
            what: str | None = None, **_: Any) -> Interval:
    """Newcombe's interval of the AUC of ``table``."""
    import math

    from measurelab.inference.newcombe import newcombe_auc_interval

    m, n = float(table.n_pos), float(table.n_neg)
    if m == 0 or n == 0 or math.isnan(value):
        warn_undefined(f"the {NAME} interval of {what or name} is undefined: the sample "
                       "has one class")
        return Interval(value, math.nan, math.nan, NAME)
    lo, hi = newcombe_auc_interval(value, int(m), int(n), level)
    return Interval(value, lo, hi, NAME)


def _default(s: Setting) -> bool:
    return is_auc(s) and s.smaller is not None and s.smaller < SMALL


NEWCOMBE = register(IntervalMethod(
    NAME, "Newcombe's score interval of the AUC (method 5 of 2006: Hanley–McNeil's "
    "variance at the candidate value); the default with fewer than 30 cases in a class",
    applies=is_auc, single=Form(NAME, _single), default=_default, rank=40))
