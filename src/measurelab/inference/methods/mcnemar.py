"""The paired difference of accuracy or error on whole counts: McNemar's score test with
Tango's score interval, which inverts the same statistic
(:func:`measurelab.inference.intervals.mcnemar_score`,
:func:`~measurelab.inference.intervals.tango_interval`). It has no single-model form: it is
the paired default of the proportion methods (Wilson, Clopper–Pearson) for accuracy and
error; forcing a bootstrap method replaces it.

Examples
--------
>>> from measurelab.inference.methods import Setting, difference_form
>>> f = difference_form(Setting("err", kind="paired"), "clopper-pearson")
>>> f.name, f.label
('mcnemar', 'tango-score')
"""

from __future__ import annotations

from measurelab.inference.methods._registry import Form, IntervalMethod, Setting, register


def _applies(s: Setting) -> bool:
    return s.kind == "paired" and s.measure in ("acc", "err") and s.whole_counts


MCNEMAR = register(IntervalMethod(
    "mcnemar", "McNemar's score test with Tango's score interval of a paired difference "
    "of accuracy or error, the interval inverting the test (whole counts)",
    applies=_applies, paired=Form("mcnemar", interval="tango-score"), default=_applies,
    forceable=False, rank=50))
