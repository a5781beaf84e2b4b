"""The bootstrap of the cases (:mod:`measurelab.inference.bootstrap`): BCa (the default of
every measure without an analytic method) or percentile intervals, of one model, of a
paired difference (the same replicate weights for both models) and of an unpaired one
(each test set resampled on its own). The engines evaluate every cell that needs
replicates in one block, so the forms carry no function of their own.

Examples
--------
>>> from measurelab.inference.methods import Setting, choose
>>> choose(Setting("ap")).name, choose(Setting("f1"), "bootstrap-percentile").name
('bootstrap-bca', 'bootstrap-percentile')
"""

from __future__ import annotations

from measurelab.inference.methods._registry import (
    CASE_DESIGNS,
    Form,
    IntervalMethod,
    Setting,
    register,
)


def _any(_s: Setting) -> bool:
    return True


def _resampled(s: Setting) -> bool:
    """Every measure but the calibration measures, which have their own methods (a
    bootstrap of a biased estimator keeps its bias: ``ci_method`` never forces it on
    them)."""
    from measurelab.inference.calibration import interval_kind

    return interval_kind(s.measure) is None


_PAIR = Form("bootstrap")

BOOTSTRAP_BCA = register(IntervalMethod(
    "bootstrap-bca", "bias-corrected and accelerated bootstrap of the cases (any measure)",
    applies=_resampled, single=Form("bootstrap-bca"), paired=_PAIR, unpaired=_PAIR,
    default=_any,
    replicates=True, designs=CASE_DESIGNS, rank=1000))

BOOTSTRAP_PERCENTILE = register(IntervalMethod(
    "bootstrap-percentile", "percentile bootstrap of the cases (any measure)",
    applies=_resampled, single=Form("bootstrap-percentile"), paired=_PAIR, unpaired=_PAIR,
    replicates=True, designs=CASE_DESIGNS))
