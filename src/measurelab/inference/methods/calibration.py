"""The calibration measures' own interval methods (:mod:`measurelab.inference.calibration`):
``debiased-wald`` (an analytic interval of an unbiased estimate), ``bootstrap-se`` (a Wald
interval on the bootstrap's standard error) and ``none`` (withheld: no interval covers).
A user cannot force them, and ``ci_method`` does not override them. From 10,000 cases
with 100 in the smaller class the influence method
(:mod:`measurelab.inference.methods.influence`) takes over from ``debiased-wald`` and
``bootstrap-se``.

Examples
--------
>>> from measurelab.inference.methods import Setting, choose
>>> choose(Setting("brier_mcb"), "bootstrap-bca").name, choose(Setting("ici")).name
('debiased-wald', 'none')
>>> choose(Setting("brier_mcb", n=10**6, smaller=10**5), "bootstrap-bca").name
'influence'
"""

from __future__ import annotations

import math
from typing import Any

from measurelab.inference._base import Interval
from measurelab.inference.methods._registry import Form, IntervalMethod, Setting, register


def _kind(s: Setting) -> str | None:
    from measurelab.inference.calibration import interval_kind

    return interval_kind(s.measure)


def _small(s: Setting, kind: str) -> bool:
    """``s`` is a measure of this method's ``kind`` below the size from which the
    influence method takes over (:func:`measurelab.inference.methods.influence.large`)."""
    from measurelab.inference.methods.influence import large

    return _kind(s) == kind and not large(s)


def _debiased_wald(name: str, value: float, level: float, *, table: Any = None,
                   counts: Any = None, what: str | None = None, **_: Any) -> Interval:
    """The debiased Wald interval of a calibration measure (its value kept)."""
    from measurelab.inference.calibration import debiased_wald

    return debiased_wald(table, level)._replace(value=value)


def _withheld(name: str, value: float, level: float, *, table: Any = None,
              counts: Any = None, what: str | None = None, **_: Any) -> Interval:
    """No interval: NaN ends, the reason in the method text."""
    from measurelab.inference.calibration import withheld_reason

    return Interval(value, math.nan, math.nan, withheld_reason(name))


def _withheld_row(name: str) -> str:
    """The interval text of a test row without interval."""
    from measurelab.inference.calibration import withheld_reason

    return withheld_reason(name)


def _replicate_wald(*args: Any, **kw: Any) -> tuple[float, float, float, float]:
    from measurelab.inference.calibration import replicate_wald

    return replicate_wald(*args, **kw)


_SE = Form("bootstrap-se", _replicate_wald)

DEBIASED_WALD = register(IntervalMethod(
    "debiased-wald", "the unbiased estimate of the Brier miscalibration ± z·SE, cut at 0",
    applies=lambda s: _kind(s) == "debiased-wald",
    single=Form("debiased-wald", _debiased_wald), paired=_SE, unpaired=_SE,
    default=lambda s: _small(s, "debiased-wald"), forceable=False, rank=10))

BOOTSTRAP_SE = register(IntervalMethod(
    "bootstrap-se", "a Wald interval on the bootstrap's standard error (calibration "
    "measures whose resampling interval is biased)",
    applies=lambda s: _kind(s) == "bootstrap-se", single=_SE, paired=_SE, unpaired=_SE,
    default=lambda s: _small(s, "bootstrap-se"), forceable=False, replicates=True,
    rank=10))

NONE = register(IntervalMethod(
    "none", "withheld: no interval covers (calibration errors near 0, test statistics); "
    "the reason is in the method column",
    applies=lambda s: _kind(s) == "none", single=Form("none", _withheld),
    paired=Form("none", _withheld_row), unpaired=Form("none", _withheld_row),
    default=lambda s: _kind(s) == "none", forceable=False, rank=10))
