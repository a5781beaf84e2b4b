"""The value and the construction of a two-level measure f:g (Huang & Ling 2007,
Definition 1) from two :class:`~measurelab.measures._definition.Measure` objects.

Below the registry (:mod:`.base` builds ``'auc:acc'`` with :func:`build_two_level`), so the
registry never imports the public :mod:`.twolevel`, which resolves names through it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from measurelab.exceptions import MeasurelabError
from measurelab.measures._definition import Measure
from measurelab.pickling import versioned_pickle


def oriented(m: Measure, value: Any) -> Any:
    """The higher-is-better form of a value: v, or hi − v (bounded), or −v (unbounded);
    for a measure with a target value, −|v − target| (:meth:`Measure.goodness`)."""
    if m.target is not None:
        return m.goodness(value)
    if m.higher_is_better:
        return value
    hi = m.range[1]
    return hi - value if math.isfinite(hi) else -value


@versioned_pickle
@functools.total_ordering
@dataclass(frozen=True)
class TwoLevelValue:
    """A value of a two-level measure: compares as the tuple (first, second).

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> a = TwoLevelValue(F(3, 4), F(1, 2))
    >>> b = TwoLevelValue(F(3, 4), F(3, 4))
    >>> a < b, a == TwoLevelValue(F(3, 4), F(1, 2))
    (True, True)
    >>> round(float(TwoLevelValue(0.9462, 0.9631)), 4)     # Huang & Ling Table 7 display
    0.9558
    """

    first: Any
    second: Any

    def key(self) -> tuple[Any, Any]:
        return (self.first, self.second)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, TwoLevelValue):
            return NotImplemented
        return self.key() < other.key()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TwoLevelValue):
            return NotImplemented
        return self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    @property
    def display(self) -> float:
        """f + g/100, the number the paper's tables print (not lexicographic)."""
        return float(self.first) + float(self.second) / 100.0

    def __float__(self) -> float:
        return self.display

    def __repr__(self) -> str:
        return f"TwoLevelValue({float(self.first):.6g}, {float(self.second):.6g})"


class _TwoLevelFormula:
    """The formula of a two-level measure f:g over two-class statistics (its value a
    :class:`TwoLevelValue`). A module-level class, not a closure, so that the measure — and
    every result holding it — pickles; equal when ``f`` and ``g`` are."""

    def __init__(self, f: Measure, g: Measure) -> None:
        self.f, self.g = f, g
        self.__doc__ = (f"Two-level measure {f.name}:{g.name}: compare by {f.name}, ties "
                        f"broken by {g.name} (Huang & Ling 2007).")
        # named like a function, for what reads a formula's name (data_function's docs)
        self.__name__ = type(self).__name__
        self.__qualname__ = type(self).__qualname__

    def __call__(self, stats: Any, **params: Any) -> TwoLevelValue:
        f, g = self.f, self.g
        return TwoLevelValue(oriented(f, f.compute(stats)), oriented(g, g.compute(stats)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _TwoLevelFormula) or type(other) is not type(self):
            return NotImplemented
        return (self.f, self.g) == (other.f, other.g)

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.f.name, self.g.name))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.f.name}, {self.g.name})"


class _TwoLevelMulticlass(_TwoLevelFormula):
    """The formula of f:g over k-class statistics: both levels averaged alike."""

    def __call__(self, stats: Any, average: str | None = "macro",
                 **params: Any) -> TwoLevelValue:
        f, g = self.f, self.g
        if average is None:
            raise MeasurelabError(
                f"{f.name}:{g.name} ranks whole-task values; average=None (per-class values) "
                "is not defined for two-level measures, use ml.per_class"
            )
        return TwoLevelValue(
            oriented(f, f.compute(stats, average=average)),
            oriented(g, g.compute(stats, average=average)),
        )


def build_two_level(f: Measure, g: Measure) -> Measure:
    """The two-level measure f:g of two measures as a :class:`Measure` (kind 'composite'):
    its value is a :class:`TwoLevelValue`, and ``levels`` holds ``(f, g)``. It pickles (its
    formulas are module-level classes holding ``f`` and ``g``).

    Examples
    --------
    >>> import pickle
    >>> from measurelab.measures.base import registry
    >>> m = build_two_level(registry.get("auc"), registry.get("acc"))
    >>> m.name, m.levels[0].name, m.kind
    ('auc:acc', 'auc', 'composite')
    >>> pickle.loads(pickle.dumps(m)) == m
    True
    >>> m.formula.__qualname__, m.description[:25]
    ('_TwoLevelFormula', 'Two-level measure auc:acc')
    """
    if f.target is not None:  # from the farthest end of the range to the target itself
        lo, hi = min(oriented(f, f.range[0]), oriented(f, f.range[1])), 0.0
    else:
        lo = oriented(f, f.range[0 if f.higher_is_better else 1])
        hi = oriented(f, f.range[1 if f.higher_is_better else 0])
    return Measure(
        name=f"{f.name}:{g.name}",
        formula=_TwoLevelFormula(f, g),
        kind="composite",
        statistic="stats",
        range=(min(lo, hi), max(lo, hi) + 0.01),
        higher_is_better=True,
        source=f"Huang & Ling 2007 Def. 1 ({f.name} then {g.name})",
        multiclass=(_TwoLevelMulticlass(f, g)
                    if (f.supports_multiclass and g.supports_multiclass) else None),
        needs_probabilities=f.needs_probabilities or g.needs_probabilities,
        exact=f.exact and g.exact,
        levels=(f, g),
    )
