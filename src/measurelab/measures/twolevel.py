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

from measurelab.measures._definition import Measure
from measurelab.measures._lexicographic import TwoLevelValue, build_two_level, oriented
from measurelab.measures.base import registry

__all__ = ["TwoLevelValue", "oriented", "two_level", "two_level_parts"]


def two_level(f: Measure | str, g: Measure | str) -> Measure:
    """The two-level measure f:g as a :class:`Measure` (kind 'composite'); ``f`` and ``g``
    are measures or registry names.

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
    f = registry.resolve(f)[0]
    g = registry.resolve(g)[0]
    return build_two_level(f, g)


def two_level_parts(m: Measure) -> tuple[Measure, Measure] | None:
    """The measures ``(f, g)`` of a two-level measure ``f:g`` (its ``levels``); None for
    any other measure.

    Examples
    --------
    >>> f, g = two_level_parts(two_level("auc", "f_beta@2"))
    >>> f.name, g.name, g.params["beta"]
    ('auc', 'f_beta@2', 2.0)
    >>> two_level_parts(registry.get("acc")) is None
    True
    """
    return m.levels
