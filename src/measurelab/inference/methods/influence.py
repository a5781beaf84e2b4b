"""The influence-function interval (:mod:`measurelab.inference.influence`): θ̂ ± z·SE with
the standard error a sum over the cases, for one model, a paired and an unpaired
difference — no resampling, two passes over the data, so it serves test sets of millions
of cases. It applies to the binary measures with an influence function here (the counts
measures, AUC, AP, Brier, RMS, log loss, the calibration slope and intercept, the
debiased calibration terms) and is the default of AP, Brier, RMS and log loss from
:data:`LARGE_N` cases with :data:`LARGE_SMALLER` in the smaller class, where the coverage
study shows it covering and the bootstrap costs minutes; below that the bootstrap stays.
From the same size it is also the method of the debiased calibration terms
(``brier_mcb``, ``brier_dsc``, ``logloss_dsc``: one model, paired and unpaired), whose
own methods (``debiased-wald``, ``bootstrap-se``) stay below it; their interval is
centred on the raw estimate and cut at 0, as ``debiased-wald`` is. Of the calibration
slope and intercept (:data:`LOGISTIC`, M-estimators whose influence is I⁻¹·score: the
Wald interval of the logistic fit with its sandwich variance) it is the default at every
size: the logistic study (docs/coverage_logistic.md) shows it covering from 20 cases in
the smaller class, and their bootstrap refits every replicate. AUC keeps DeLong's
interval (its placements are this influence function) and the counts measures the
posterior of the confusion cells (its cost does not grow with n); a user may force
``ci_method='influence'`` on them. For k classes
(:func:`~measurelab.inference.influence.multi_kind`: the counts measures by the delta
method over the k × k cells, Hand & Till's AUC by the pairs' placements, AP and AUC of
each class against the rest, Brier, RMS, log loss) it is the default of every such measure
from the same size — the k-class bootstrap is the only other method there — except
accuracy and error of whole counts, which keep Wilson's interval and McNemar's test.

Examples
--------
>>> from measurelab.inference.methods import Setting, choose
>>> choose(Setting("ap", n=50_000, smaller=5_000)).name, choose(Setting("ap", n=500)).name
('influence', 'bootstrap-bca')
>>> choose(Setting("f1", n=50_000, smaller=5_000), "influence").name
'influence'
>>> choose(Setting("brier_dsc", n=50_000, smaller=5_000)).name, choose(Setting("brier_dsc")).name
('influence', 'bootstrap-se')
>>> choose(Setting("cal_slope")).name, choose(Setting("cal_intercept", smaller=20)).name
('influence', 'influence')
"""

from __future__ import annotations

import math
from typing import Any

from measurelab._util.validation import warn_undefined
from measurelab.inference._base import Interval
from measurelab.inference.methods._registry import Form, IntervalMethod, Setting, register

# the registered measure of a name, and the measures with a kink |u − v| (no influence
# function where u = v): the posterior method's own
from measurelab.inference.methods.dirichlet import KINKS, _measure

#: the method's name
NAME = "influence"
#: from this many cases ...
LARGE_N = 10_000
#: ... and this many in the smaller class, the default of AP, Brier, RMS and log loss
LARGE_SMALLER = 100
#: the measures it is the default of at every size (the logistic recalibration's)
LOGISTIC: tuple[str, ...] = ("cal_slope", "cal_intercept")


def applies(s: Setting) -> bool:
    """Whether ``s`` is a measure with an influence function: binary, or of k classes
    (:func:`~measurelab.inference.influence.multi_kind`: the counts measures, AUC,
    AP, Brier, RMS, log loss).

    Examples
    --------
    >>> applies(Setting("ap")), applies(Setting("lift")), applies(Setting("ri"))
    (True, False, False)
    >>> applies(Setting("f1[cat]", multiclass=True)), applies(Setting("ece", multiclass=True))
    (True, False)
    """
    from measurelab.inference.influence import has_influence, multi_kind

    if s.multiclass:   # a per-class row f1[cat] is the measure with average=None
        name, bracket, _c = s.measure.partition("[")
        m = _measure(name)
        return m is not None and multi_kind(m, None if bracket else s.average) is not None
    m = _measure(s.measure)
    return m is not None and m.name.split("@")[0] not in KINKS and has_influence(m)


def large(s: Setting) -> bool:
    """Whether ``s`` has :data:`LARGE_N` cases with :data:`LARGE_SMALLER` in the smaller
    class (unknown sizes: no).

    Examples
    --------
    >>> large(Setting("ap", n=10_000, smaller=100)), large(Setting("ap", n=10_000))
    (True, False)
    """
    return (s.n is not None and s.smaller is not None and s.n >= LARGE_N
            and s.smaller >= LARGE_SMALLER)


def _default(s: Setting) -> bool:
    base = _measure(s.measure.partition("[")[0])   # a k-class row f1[cat]: f1
    if base is not None and base.name.split("@")[0] in LOGISTIC and applies(s):
        return True
    if not applies(s) or s.n is None or s.smaller is None:
        return False
    if s.n < LARGE_N or s.smaller < LARGE_SMALLER:
        return False
    if s.multiclass:   # no posterior of the k × k cells, no DeLong: all but Wilson's
        return not (s.whole_counts and s.measure in ("acc", "err"))
    m = _measure(s.measure)
    return m.statistic != "counts" and m.name != "auc"


def _single(name: str, value: float, level: float, *, table: Any = None,
            what: str | None = None, design: str = "random", measure: Any = None,
            threshold: float = 0.5, inclusive: bool = False, cases: Any = None,
            variance: float | None = None, **_: Any) -> Interval:
    """The influence interval of one model's value (``cases``: rows, classes and weights
    of weighted cases; ``variance``: the variance already summed over them, as a
    comparison over parts does)."""
    from measurelab.inference import influence as inf

    m = measure if measure is not None else _measure(name)
    if variance is not None:
        var = variance
    elif cases is None:
        ifp, ifn = inf.row_influence(m, table, threshold=threshold, inclusive=inclusive)
        var = inf.table_variance(table, ifp, ifn, design=design)
    else:
        ifp, ifn = inf.row_influence(m, table, threshold=threshold, inclusive=inclusive)
        rows, y, weight = cases
        var = inf.case_variance(inf.case_influence(ifp, ifn, rows, y), y, weight,
                                design=design)
    centre = value
    if m.name in inf.CALIBRATION_TERMS and table is not None:
        # the raw estimate (the value is its positive part), its interval cut at 0
        centre = inf.calibration_influence(m.name, table)[0]
    lo, hi, se = inf.influence_interval(centre, var, level, m.range)
    if centre < value and not math.isnan(lo):
        lo, hi = max(lo, m.range[0]), max(hi, m.range[0])
    if math.isnan(lo):
        warn_undefined(f"the {NAME} interval of {what or name} is undefined: the value or "
                       "its standard error is (one class, or an undefined measure)")
    return Interval(value, lo, hi, NAME, se)


INFLUENCE = register(IntervalMethod(
    NAME, "large-sample Wald interval, its standard error a sum over the cases of the "
    "influence function (delta method for the counts, placements for AUC, the derivative "
    "of AP, Brier, RMS, log loss, the debiased calibration terms, I⁻¹·score for the "
    "calibration slope and intercept); the default of AP, Brier, RMS, log loss, brier_mcb, "
    "brier_dsc and logloss_dsc from 10,000 cases with 100 in the smaller class, and of "
    "cal_slope and cal_intercept at every size",
    applies=applies, single=Form(NAME, _single), paired=Form(NAME), unpaired=Form(NAME),
    default=_default, rank=30))
