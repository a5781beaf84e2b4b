"""Two-level measures f:g (Huang & Ling 2007, Definition 1).

f:g compares by f and, only when f ties exactly, by g. It is a total preorder, not a
number: :class:`TwoLevelValue` compares lexicographically (exactly, when its components
are exact Fractions) and carries a separate display number f + g/100, the form of the
paper's tables (Table 7: 0.9462 + 0.9631/100 = 0.9558). The display number is not
lexicographic when steps of f are below 0.01; never compare by it.

Components are oriented so that higher is better (a lower-is-better g such as RMS enters
as 1 − RMS), as the papers normalize every measure.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from measurelab.measures.base import Measure


def oriented(m: Measure, value: Any) -> Any:
    """The higher-is-better form of a value: v, or hi − v (bounded), or −v (unbounded)."""
    if m.higher_is_better:
        return value
    hi = m.range[1]
    return hi - value if math.isfinite(hi) else -value


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


def two_level(f: Measure | str, g: Measure | str) -> Measure:
    """The two-level measure f:g as a :class:`Measure` (kind 'composite').

    Examples
    --------
    >>> import measurelab as ml
    >>> m = two_level("auc", "acc")
    >>> m.name
    'auc:acc'
    >>> v = ml.evaluate([0, 0, 1, 1], [0.1, 0.6, 0.35, 0.8], measures=["auc:acc"])["auc:acc"]
    >>> v.first, v.second, round(v.display, 4)
    (0.75, 0.5, 0.755)
    """
    from measurelab.measures.base import registry

    f = registry.get(f) if isinstance(f, str) else f
    g = registry.get(g) if isinstance(g, str) else g

    def formula(stats: Any, **params: Any) -> TwoLevelValue:
        return TwoLevelValue(oriented(f, f.compute(stats)), oriented(g, g.compute(stats)))

    def multiclass(stats: Any, average: str | None = "macro", **params: Any) -> TwoLevelValue:
        if average is None:
            from measurelab.exceptions import MeasurelabError

            raise MeasurelabError(
                f"{f.name}:{g.name} ranks whole-task values; average=None (per-class values) "
                "is not defined for two-level measures, use ml.per_class"
            )
        return TwoLevelValue(
            oriented(f, f.compute(stats, average=average)),
            oriented(g, g.compute(stats, average=average)),
        )

    formula.__doc__ = (
        f"Two-level measure {f.name}:{g.name}: compare by {f.name}, ties broken by {g.name} "
        "(Huang & Ling 2007)."
    )
    lo = oriented(f, f.range[0 if f.higher_is_better else 1])
    hi = oriented(f, f.range[1 if f.higher_is_better else 0])
    return Measure(
        name=f"{f.name}:{g.name}",
        formula=formula,
        kind="composite",
        statistic="stats",
        range=(min(lo, hi), max(lo, hi) + 0.01),
        higher_is_better=True,
        source=f"Huang & Ling 2007 Def. 1 ({f.name} then {g.name})",
        multiclass=multiclass if (f.supports_multiclass and g.supports_multiclass) else None,
        needs_probabilities=f.needs_probabilities or g.needs_probabilities,
        exact=f.exact and g.exact,
    )



def two_level_parts(m: Measure) -> tuple[Measure, Measure] | None:
    """The measures ``(f, g)`` of a two-level measure ``f:g``; None for any other measure.

    Examples
    --------
    >>> f, g = two_level_parts(two_level("auc", "f_beta@2"))
    >>> f.name, g.name, g.params["beta"]
    ('auc', 'f_beta@2', 2.0)
    >>> from measurelab.measures.base import registry
    >>> two_level_parts(registry.get("acc")) is None
    True
    """
    from measurelab.measures.base import registry

    if ":" not in m.name or not m.source.startswith("Huang & Ling 2007 Def. 1"):
        return None
    f, _, g = m.name.partition(":")
    return registry.resolve(f)[0], registry.resolve(g)[0]
