"""The intervals of net benefit at chosen thresholds
(:class:`measurelab.inference.NetBenefitComparison`): the adjusted Wald interval of one
model's net benefit and of a paired difference, with a simultaneous band over the
thresholds. They belong to that comparison, not to a measure's value, so no setting of
``evaluate`` or ``compare_classifiers`` chooses them and ``ci_method`` cannot force them.

Examples
--------
>>> from measurelab.inference.methods import get
>>> get("adjusted-wald").forceable
False
"""

from __future__ import annotations

from measurelab.inference.methods._registry import Form, IntervalMethod, register

ADJUSTED_WALD = register(IntervalMethod(
    "adjusted-wald", "net benefit at a threshold: Wald interval of the adjusted counts, "
    "one model or a paired difference (NetBenefitComparison)",
    applies=lambda s: False, single=Form("adjusted-wald"), paired=Form("adjusted-wald"),
    forceable=False))
