"""The stopping rule of Huang & Ling (2007, Sec. 5), as a small object fed measure values.

Training is checked every N epochs. The weights at the last check are *saved*; after N
more epochs the monitored measure f is computed again. If f *improved by more than ε* the
new weights become the saved ones and training goes on; otherwise training stops and the
saved weights are the result (N = 100, ε = 0.01 in the paper).

What "improved by more than ε" means:

* a number (any registered measure, oriented so that higher is better): ``new − old > ε``;
* a two-level value f:g (:class:`~measurelab.measures.twolevel.TwoLevelValue`), rule
  ``"lexicographic"`` (default): the first component improved by more than ε, **or** it
  tied exactly and the second component improved by more than ε. A first component that
  rose by less than ε is *not* an improvement, whatever g did; a first component that fell
  is never an improvement. This is the ordering of Definition 1 with ε applied to the
  level that decides.
* rule ``"display"``: compare the paper's display numbers f + g/100 (what a program that
  stores AUC:acc as one float would do); offered to test how much the choice matters.
* rule ``"tolerant"`` (ε-tolerant lexicographic): the first component improved by more
  than ε, **or** it changed by at most ε (a tie within ε) and the second component
  improved by more than ε.
* ``signed=False`` reads "the difference between the two f values is larger than ε" as
  an *absolute* difference: a change of more than ε either way keeps the new weights
  (for the two-level rules, |Δ| replaces Δ in each comparison above).

These readings are compared in :mod:`measurelab.lab.experiments.huang2007_ann`.

A NaN value (e.g. AUC on data with one class) never counts as an improvement.

Examples
--------
>>> rule = ImprovementStop(epsilon=0.01)
>>> rule.start(0.50)
>>> [rule.update(v) for v in (0.60, 0.65, 0.655)]
[True, True, False]
>>> rule.best_round, rule.best_value, rule.stopped
(2, 0.65, True)
"""

from __future__ import annotations

import math
from typing import Any

from measurelab.exceptions import MeasurelabError
from measurelab.measures.twolevel import TwoLevelValue
from measurelab.validation import check_choice, check_flag, check_real

RULES = ("lexicographic", "display", "tolerant")


def improved(old: Any, new: Any, epsilon: float = 0.01, rule: str = "lexicographic",
             signed: bool = True) -> bool:
    """Whether ``new`` improves on ``old`` by more than ``epsilon`` (higher is better);
    with ``signed=False``, whether it differs by more than ``epsilon`` either way.

    Examples
    --------
    >>> from measurelab.measures.twolevel import TwoLevelValue as T
    >>> improved(0.80, 0.815), improved(0.80, 0.805)
    (True, False)
    >>> improved(T(1.0, 0.90), T(1.0, 0.92))    # f ties exactly, g rises by 0.02
    True
    >>> improved(T(0.90, 0.80), T(0.905, 0.99))  # f rises by less than ε: no
    False
    >>> improved(T(0.90, 0.80), T(0.905, 0.99), rule="display")  # 0.9149 − 0.9080 < ε
    False
    >>> improved(T(0.90, 0.80), T(0.905, 0.99), rule="tolerant")  # f ties within ε
    True
    >>> improved(0.80, 0.70), improved(0.80, 0.70, signed=False)
    (False, True)
    """
    epsilon = check_real(epsilon, "epsilon", low=0)
    check_choice(rule, "rule", RULES)
    signed = check_flag(signed, "signed")
    if isinstance(old, TwoLevelValue) != isinstance(new, TwoLevelValue):
        raise MeasurelabError("cannot compare a two-level value with a plain number")
    if isinstance(new, TwoLevelValue):
        if rule == "display":
            return _gt(float(new.display) - float(old.display), epsilon, signed)
        d1 = new.first - old.first
        if _gt(d1, epsilon, signed):
            return True
        if rule == "tolerant":
            tie = not math.isnan(float(d1)) and abs(float(d1)) <= epsilon
        else:
            tie = new.first == old.first
        return tie and _gt(new.second - old.second, epsilon, signed)
    return _gt(new - old, epsilon, signed)


def _gt(diff: Any, epsilon: float, signed: bool = True) -> bool:
    d = float(diff)
    return not math.isnan(d) and (d if signed else abs(d)) > epsilon


class ImprovementStop:
    """Huang & Ling's look-ahead stopping rule over a sequence of measure values.

    Call :meth:`start` with f at the initial (saved) weights, then :meth:`update` with f
    after each further block of N epochs. ``update`` returns True when the new weights
    are kept and training should go on, False when training stops (the saved weights,
    from round :attr:`best_round`, are the result). Round 0 is the start.

    Parameters
    ----------
    epsilon : float, default 0.01
    rule : 'lexicographic', 'display' or 'tolerant', default 'lexicographic' (for
        two-level values)
    signed : bool, default True; False = absolute difference (see :func:`improved`)

    Examples
    --------
    >>> r = ImprovementStop()
    >>> r.start(0.9)
    >>> r.update(0.905)        # not more than ε: stop with the start weights
    False
    >>> r.best_round, r.history
    (0, [0.9, 0.905])
    """

    def __init__(self, epsilon: float = 0.01, rule: str = "lexicographic",
                 signed: bool = True) -> None:
        self.epsilon = check_real(epsilon, "epsilon", low=0)
        self.rule = check_choice(rule, "rule", RULES)
        self.signed = check_flag(signed, "signed")
        self.history: list[Any] = []
        self.best_round = 0
        self.best_value: Any = None
        self.stopped = False

    def start(self, value: Any) -> None:
        """Record f at the initial saved weights (round 0)."""
        self.history = [value]
        self.best_round = 0
        self.best_value = value
        self.stopped = False

    def update(self, value: Any) -> bool:
        """Record f after N more epochs; True = keep the new weights and go on."""
        if not self.history:
            raise MeasurelabError("call start() before update()")
        if self.stopped:
            raise MeasurelabError("the rule has already stopped")
        self.history.append(value)
        if improved(self.best_value, value, self.epsilon, self.rule, self.signed):
            self.best_value = value
            self.best_round = len(self.history) - 1
            return True
        self.stopped = True
        return False
