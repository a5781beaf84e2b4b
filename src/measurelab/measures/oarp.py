"""Optimized precision and OARP (Ranawana & Palade 2006; Hossin et al. 2011, eq. 6–15).

RI, OP, the extended per-class precision and recall (Lingras & Butz 2007), AVRI and
OARP. Precision-type ratios give 0 for 0/0 (needed by Hossin's Table 2d, solution b).
"""

from __future__ import annotations

from typing import Any

from measurelab.measures._arith import absolute, div, exact_for_whole_counts
from measurelab.measures.base import measure
from measurelab.measures.basic import acc, npv, prec, sens, spec
from measurelab.stats.confusion import BinaryCounts


def _ratio_index(a: Any, b: Any) -> Any:
    """|a − b| / (a + b) with 0 for 0/0 (no imbalance between two zeros)."""
    return div(absolute(a - b), a + b, 0.0, "relationship index")


@measure(
    "ri",
    kind="threshold",
    statistic="counts",
    higher_is_better=False,
    aliases=("relationship_index",),
    source="Ranawana & Palade 2006, via Hossin 2011 eq. 6",
    exact=True,
)
@exact_for_whole_counts
def ri(c: BinaryCounts) -> Any:
    """Relationship index: |spec − sens| / (spec + sens); lower is better.

    Examples
    --------
    >>> ri(BinaryCounts(tp=3, fp=1, fn=1, tn=3))
    0.0
    """
    return _ratio_index(spec(c), sens(c))


@measure(
    "op",
    kind="threshold",
    statistic="counts",
    range=(-1.0, 1.0),
    aliases=("optimized_precision",),
    source="Ranawana & Palade 2006; Hossin 2011 eq. 7–8",
    exact=True,
)
@exact_for_whole_counts
def op(c: BinaryCounts) -> Any:
    """Optimized precision: acc − |spec − sens| / (spec + sens) (= acc when sens = spec).

    Examples
    --------
    >>> op(BinaryCounts(tp=4, fp=2, fn=0, tn=2))
    0.4166666666666667
    """
    return acc(c) - ri(c)


def extended_precision_recall(c: BinaryCounts) -> dict[str, Any]:
    """Per-class precision and recall (Hossin eq. 9–10): class 1 positive, class 2 negative.

    Examples
    --------
    >>> extended_precision_recall(BinaryCounts(tp=4, fp=2, fn=0, tn=2))
    {'p1': 0.6666666666666666, 'r1': 1.0, 'p2': 1.0, 'r2': 0.5}
    """
    return {"p1": prec(c), "r1": sens(c), "p2": npv(c), "r2": spec(c)}


@measure(
    "avri",
    kind="threshold",
    statistic="counts",
    higher_is_better=False,
    source="Hossin 2011 eq. 11–13",
    exact=True,
)
@exact_for_whole_counts
def avri(c: BinaryCounts) -> Any:
    """Average relationship index: (RI1 + RI2) / 2 (lower is better).

    RI1 = |p1 − r2| / (p1 + r2) and RI2 = |p2 − r1| / (p2 + r1).

    Examples
    --------
    >>> avri(BinaryCounts(tp=4, fp=2, fn=0, tn=2))
    0.07142857142857142
    """
    e = extended_precision_recall(c)
    return (_ratio_index(e["p1"], e["r2"]) + _ratio_index(e["p2"], e["r1"])) / 2


@measure(
    "oarp",
    kind="threshold",
    statistic="counts",
    range=(-0.1, 1.0),
    source="Hossin 2011 eq. 14–15 (decimal scaling, x = 1)",
    exact=True,
)
@exact_for_whole_counts
def oarp(c: BinaryCounts, x: int = 1) -> Any:
    """Optimized accuracy with recall-precision: acc − AVRI / 10^x (x = 1).

    Examples
    --------
    >>> oarp(BinaryCounts(tp=4, fp=2, fn=0, tn=2))
    0.7428571428571429
    """
    return acc(c) - avri(c) / 10**x
