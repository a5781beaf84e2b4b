"""measurelab — a laboratory for the measures that judge classifiers.

Compute every measure of five classic papers exactly and fast (binary and multi-class,
ties exact, mergeable statistics), compare measures (consistency, discriminancy,
metric space), construct new ones (two-level f:g, SAR, OP, OARP, your own), learn with
them and reproduce the papers' tables.

>>> import measurelab as ml
>>> round(ml.auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 2)
0.75
"""

from measurelab import measures as _measures  # registers the measure families
from measurelab._validation import (
    MeasurelabDeprecationWarning,
    MeasurelabError,
    UndefinedMeasureWarning,
)
from measurelab.api import EvaluationResult, build_stats, evaluate, evaluate_counts
from measurelab.measures import (
    TwoLevelValue,
    dp_band,
    extended_precision_recall,
    likelihood_verdict,
    two_level,
)
from measurelab.one_vs_rest import per_class
from measurelab.registry import Measure, measure, public_function, registry
from measurelab.stats import BinaryCounts, MultiCounts, MultiScoreTable, ScoreTable
from measurelab.streaming import Evaluator

__version__ = "0.1.0"

# curves, plots, scorers, threshold choice and classifier comparison: loaded on first use,
# so `import measurelab` stays lean (scikit-learn, scipy and matplotlib load with them)
_LAZY = {
    **dict.fromkeys(
        (
            "roc_curve", "precision_recall_curve", "det_curve", "lift_curve",
            "cumulative_gain_curve", "cost_curve", "plot_roc_curve",
            "plot_precision_recall_curve", "plot_det_curve", "plot_lift_curve",
            "plot_cumulative_gain_curve", "plot_cost_curve",
        ),
        "measurelab.curves",
    ),
    "make_scorer": "measurelab.scorers",
    "compare_classifiers": "measurelab.compare.classifiers",
    "compare_unpaired": "measurelab.compare.unpaired",
    "best_threshold": "measurelab.thresholds",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'measurelab' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


# one scikit-learn-style function per registered measure: measurelab.auc(y_true, y_score)
for _m in list(registry):
    globals()[_m.name] = public_function(_m)
del _m, _measures


__all__ = [
    "BinaryCounts",
    "EvaluationResult",
    "Evaluator",
    "Measure",
    "MeasurelabDeprecationWarning",
    "MeasurelabError",
    "MultiCounts",
    "MultiScoreTable",
    "ScoreTable",
    "TwoLevelValue",
    "UndefinedMeasureWarning",
    "build_stats",
    "dp_band",
    "evaluate",
    "evaluate_counts",
    "extended_precision_recall",
    "likelihood_verdict",
    "measure",
    "per_class",
    "registry",
    "two_level",
    *_LAZY,
    *(m.name for m in registry),
]
