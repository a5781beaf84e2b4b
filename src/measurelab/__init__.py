"""measurelab — a laboratory for the measures that judge classifiers.

Compute every measure of five classic papers exactly and fast (binary and multi-class,
ties exact, mergeable statistics), compare classifiers honestly (intervals, paired tests,
many data sets), compare measures (consistency, discriminancy, metric space), construct
new ones (two-level f:g, SAR, OP, OARP, your own).

The library is layered, each layer a package that imports only those below it:
:mod:`~measurelab.stats` (exact, mergeable statistics) → :mod:`~measurelab.measures`
(formulas and the registry) → :mod:`~measurelab.curves` → :mod:`~measurelab.inference`
(intervals, tests, comparisons of classifiers) → :mod:`~measurelab.metrics` (evaluating
data; one function per measure) → :mod:`~measurelab.io` (files, Parquet, Dask) →
:mod:`~measurelab.metaeval` (comparing measures). The lab (:mod:`measurelab.lab`: the
papers' reproductions, studies, learning with measures) and the command line sit on top.

>>> import measurelab as ml
>>> round(ml.metrics.auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 2)
0.75
>>> dict(ml.evaluate([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], measures=["acc", "auc"]))
{'acc': 0.75, 'auc': 1.0}
"""

from measurelab import measures, metrics, stats
from measurelab._util.lazy import lazy_face
from measurelab.exceptions import MeasurelabError, UndefinedMeasureWarning
from measurelab.measures import Measure, measure, registry, two_level
from measurelab.metrics import EvaluationResult, Evaluator, evaluate, evaluate_counts, per_class
from measurelab.stats import BinaryCounts, MultiCounts, MultiScoreTable, ScoreTable

__version__ = "0.2.0.dev0"

# loaded on first use, so `import measurelab` stays lean (scikit-learn, scipy, matplotlib
# and pandas load with these)
_LAZY = {
    "best_threshold": "measurelab.metrics",
    "make_scorer": "measurelab.metrics",
    "roc_curve": "measurelab.curves",
    "reliability_diagram": "measurelab.curves",
    "decompose_score": "measurelab.metrics",
    "precision_recall_curve": "measurelab.curves",
    "bayes_compare": "measurelab.inference",
    "calibration_test": "measurelab.inference",
    "compare_classifiers": "measurelab.inference",
    "compare_learners": "measurelab.inference",
    "compare_unpaired": "measurelab.inference",
    "demsar": "measurelab.inference",
    "compare_measures": "measurelab.metaeval",
    "evaluate_file": "measurelab.io",
    **{sub: f"measurelab.{sub}" for sub in ("curves", "exceptions", "inference", "io",
                                            "metaeval")},
}

__all__ = [
    "BinaryCounts",
    "EvaluationResult",
    "Evaluator",
    "Measure",
    "MeasurelabError",
    "MultiCounts",
    "MultiScoreTable",
    "ScoreTable",
    "UndefinedMeasureWarning",
    "bayes_compare",
    "best_threshold",
    "calibration_test",
    "compare_classifiers",
    "compare_learners",
    "compare_measures",
    "compare_unpaired",
    "curves",
    "decompose_score",
    "demsar",
    "evaluate",
    "evaluate_counts",
    "evaluate_file",
    "exceptions",
    "inference",
    "io",
    "make_scorer",
    "measure",
    "measures",
    "metaeval",
    "metrics",
    "per_class",
    "precision_recall_curve",
    "registry",
    "reliability_diagram",
    "roc_curve",
    "stats",
    "two_level",
]


__getattr__, __dir__ = lazy_face(__name__, _LAZY, __all__)
