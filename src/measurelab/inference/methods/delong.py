"""DeLong's intervals of the AUC (whole counts, two classes): on the logit scale (the
default, ``delong-logit``) or plain Wald (``delong``, pROC's convention); a paired
difference by DeLong's test on the placements, an unpaired one by DeLong's test with
Welch–Satterthwaite degrees of freedom (:mod:`measurelab.inference.delong`).

Examples
--------
>>> from measurelab.inference.methods import Setting, choose
>>> choose(Setting("auc")).name, choose(Setting("auc", whole_counts=False)).name
('delong-logit', 'bootstrap-bca')
"""

from __future__ import annotations

import warnings
from typing import Any

from measurelab._util.validation import warn_undefined
from measurelab.inference._base import Interval
from measurelab.inference.delong import (
    delong_interval,
    delong_paired_placements,
    delong_unpaired,
)
from measurelab.inference.methods._registry import Form, IntervalMethod, Setting, register


def is_auc(s: Setting) -> bool:
    """Whether ``s`` is the AUC of two classes on whole counts.

    Examples
    --------
    >>> is_auc(Setting("auc")), is_auc(Setting("auc", multiclass=True))
    (True, False)
    """
    return s.measure == "auc" and s.whole_counts and not s.multiclass


def delong_form(scale: str) -> Any:
    """The single-model form of DeLong's interval on ``scale`` ('logit' or 'wald'): the
    warning of an undefined interval names ``what``.

    Examples
    --------
    >>> from measurelab.stats.scoretable import ScoreTable
    >>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.9])
    >>> r = delong_form("wald")("auc", 0.7778, 0.95, table=t)
    >>> round(r.se, 4), r.method
    (0.2485, 'delong')
    """
    def compute(name: str, value: float, level: float, *, table: Any = None,
                counts: Any = None, what: str | None = None, **_: Any) -> Interval:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = delong_interval(table, level, scale=scale)
        for w in caught:  # the same warning, naming what it is about
            warn_undefined(f"{what or name}: {w.message}")
        return Interval(value, r.lo, r.hi, r.method, r.se)

    return compute


#: the paired form: DeLong's test on the placements of every model
#: (:func:`~measurelab.inference.delong.delong_paired_placements`; the comparison keeps the
#: placements and computes its rows from them); the unpaired form: Welch–Satterthwaite DeLong
_PAIRED = Form("delong", delong_paired_placements)
_UNPAIRED = Form("delong-unpaired", delong_unpaired)

DELONG_LOGIT = register(IntervalMethod(
    "delong-logit", "DeLong's standard error on the logit scale of the AUC (stays in [0, 1])",
    applies=is_auc, single=Form("delong-logit", delong_form("logit")), paired=_PAIRED,
    unpaired=_UNPAIRED, default=is_auc, rank=50))

DELONG = register(IntervalMethod(
    "delong", "DeLong's plain Wald interval of the AUC, clipped to [0, 1] (pROC's)",
    applies=is_auc, single=Form("delong", delong_form("wald")), paired=_PAIRED,
    unpaired=_UNPAIRED))
