"""Evaluating one model on a test set with structure: clustered cases (``groups=``) and
subgroups (``by=``) (issue 31): :func:`~measurelab.evaluate` with either hands over to
:func:`structured_evaluation`, the one-model case of
:func:`~measurelab.compare_classifiers` with the same keywords.
"""

from __future__ import annotations

from typing import Any

from measurelab._util.validation import (
    as_1d,
    binarize,
    check_flag,
    check_scores,
    check_weights,
)
from measurelab.exceptions import MeasurelabError
from measurelab.inference.intervals import Interval, check_run_options
from measurelab.measures.compute import EvaluationResult
from measurelab.stats.bundle import BinaryStats

__all__ = ["StructuredEvaluation", "structured_evaluation"]


class StructuredEvaluation(EvaluationResult):
    """The result of :func:`~measurelab.evaluate` with ``groups=`` or ``by=``: the values
    with cluster-aware intervals and, with ``by``, :meth:`by_group`, :meth:`gaps` and
    :meth:`group_differences` (those of :attr:`comparison`, the one-model
    :class:`~measurelab.inference.classifiers.structured.StructuredComparison` they come from)."""

    comparison: Any

    def by_group(self) -> Any:
        """The per-group table of the one model (``StructuredComparison.by_group``)."""
        return self.comparison.by_group()

    def gaps(self) -> Any:
        """The largest gaps of the one model (``StructuredComparison.gaps``)."""
        return self.comparison.gaps()

    def group_differences(self) -> Any:
        """The pairwise group differences of the one model (``group_differences``)."""
        return self.comparison.group_differences()


def structured_evaluation(y_true: Any, y_score: Any, result: EvaluationResult, ci: Any, *,
                          stats: Any, groups: Any, by: Any, pos_label: Any,
                          sample_weight: Any, ci_method: str | None, n_boot: int,
                          random_state: Any, progress: bool | None, n_jobs: Any,
                          stratify: bool) -> StructuredEvaluation:
    """:func:`~measurelab.evaluate`'s ``result`` with the intervals of a one-model
    :class:`~measurelab.inference.classifiers.structured.StructuredComparison` (``groups``:
    cluster-aware; ``by``: subgroups).

    Examples
    --------
    >>> import measurelab as ml
    >>> r = ml.evaluate([0, 1, 0, 1, 0, 1], [.1, .8, .3, .6, .4, .9], measures=["auc"],
    ...                 ci=0.95, groups=[0, 0, 1, 1, 2, 2], n_boot=100)
    >>> r.intervals()["method"].tolist()[0].startswith("clustered-delong-logit")
    True
    """
    from measurelab.inference import compare_classifiers

    if ci is None:
        raise MeasurelabError("groups= and by= give intervals: call evaluate with ci=0.95")
    if not isinstance(stats, BinaryStats):
        raise MeasurelabError("groups= and by= apply to binary input only so far")
    level, n_boot, n_jobs, stratify = check_run_options(ci, n_boot, n_jobs, stratify,
                                                           ci_method, progress)
    y = binarize(as_1d(y_true, "y_true"), pos_label)
    s = check_scores(as_1d(y_score, "y_score"))
    w = check_weights(sample_weight, y.size)
    cmp = compare_classifiers(
        y, {"model": s}, groups=groups, by=by, sample_weight=w,
        measures=[result.measure(k) for k in result], ci=level, n_boot=n_boot,
        random_state=random_state, ci_method=ci_method, inclusive=stats.inclusive,
        threshold=stats.threshold, progress=progress, n_jobs=n_jobs,
        stratify=check_flag(stratify, "stratify"))
    t = cmp.intervals()
    out = {r.measure: Interval(float(result[r.measure]), float(r.lo), float(r.hi),
                                  str(r.method), float(r.se)) for r in t.itertuples()}
    shares = {r.measure: (float(r.infinite), float(r.undefined)) for r in t.itertuples()}
    res = StructuredEvaluation(dict(result), {k: result.measure(k) for k in result},
                               intervals=out, shares=shares)
    res.comparison = cmp
    return res
