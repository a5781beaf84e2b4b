"""Comparing measures: exact pair counts, consistency and discriminancy on domains of
objects, the generating function for AUC vs accuracy, correlation studies.

Modules: :mod:`~measurelab.metaeval.pairs` (R, S, P, Q in O(K log K)),
:mod:`~measurelab.metaeval.domains` (ranked lists, samples, prediction sets),
:mod:`~measurelab.metaeval.consistency` (C, D and strictness),
:mod:`~measurelab.metaeval.exact` (generating function),
:mod:`~measurelab.metaeval.correlation_study` (Pearson / Spearman / Kendall over runs,
paired t-tests),
:mod:`~measurelab.metaeval.metric_space` (the Caruana-style metric space). Comparing
classifiers over many data sets (Demšar) is inference: :func:`measurelab.inference.demsar`.

Examples
--------
>>> from measurelab.metaeval import pair_counts, compare_on_ranked_lists
>>> pair_counts([1, 2, 3], [1, 3, 2])
PairCounts(R=2, S=1, P=0, Q=0, T=0, objects=3)
>>> r = compare_on_ranked_lists("auc", "acc", 8, 4)
>>> r.R, r.S, r.P, r.Q
(1459, 34, 762, 52)
"""

from measurelab.metaeval.consistency import (
    ConsistencyResult,
    compare_measures,
    compare_on_ranked_lists,
    exact_applies,
    exact_counts,
    measure_ranks,
)
from measurelab.metaeval.correlation_study import (
    best_group,
    correlation,
    correlations,
    paired_ttests,
    repeated_correlations,
)
from measurelab.metaeval.domains import (
    PredictionSet,
    RankedLists,
    SampledRankedLists,
    perturbed_lists,
)
from measurelab.metaeval.exact import auc_acc_pair_counts, auc_acc_rows, auc_bounds
from measurelab.metaeval.pairs import PairCounts, pair_counts, pair_counts_brute

__all__ = [
    "ConsistencyResult",
    "PairCounts",
    "PredictionSet",
    "RankedLists",
    "SampledRankedLists",
    "auc_acc_pair_counts",
    "auc_acc_rows",
    "auc_bounds",
    "best_group",
    "compare_measures",
    "compare_on_ranked_lists",
    "correlation",
    "correlations",
    "exact_applies",
    "exact_counts",
    "measure_ranks",
    "pair_counts",
    "pair_counts_brute",
    "paired_ttests",
    "perturbed_lists",
    "repeated_correlations",
]
