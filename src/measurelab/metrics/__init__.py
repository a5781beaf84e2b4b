"""Evaluating predictions: :func:`evaluate` and :func:`evaluate_counts`
(:mod:`~measurelab.metrics.evaluation`), the streaming :class:`Evaluator`
(:mod:`~measurelab.metrics.streaming`), per-class one-vs-rest tables
(:mod:`~measurelab.metrics.one_vs_rest`), the best threshold for a measure
(:mod:`~measurelab.metrics.thresholds`), scikit-learn scorers
(:mod:`~measurelab.metrics.scorers`) and the CORP score decomposition and Spiegelhalter's
test (:mod:`~measurelab.metrics.calibration`).

Examples
--------
>>> from measurelab.metrics import evaluate
>>> dict(evaluate([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], measures=["acc", "auc"]))
{'acc': 0.75, 'auc': 1.0}
"""

from typing import TYPE_CHECKING

from measurelab._util.lazy import lazy_face
from measurelab.measures.base import registry
from measurelab.measures.compute import EvaluationResult
from measurelab.metrics.evaluation import build_stats, evaluate, evaluate_counts
from measurelab.metrics.one_vs_rest import per_class
from measurelab.metrics.streaming import Evaluator

#: the built-in measures, each with a function auc(y_true, y_score) in .functions
_MEASURES = tuple(m.name for m in registry)

#: loaded on first use: scikit-learn loads with the scorers and thresholds, and the
#: per-measure functions are built when one is first asked for
_LAZY = {
    **dict.fromkeys(("FUNCTIONS", "data_function", *_MEASURES), "measurelab.metrics.functions"),
    "MeasureScore": "measurelab.metrics.scorers",
    "make_scorer": "measurelab.metrics.scorers",
    "BestThreshold": "measurelab.metrics.thresholds",
    "best_threshold": "measurelab.metrics.thresholds",
    **dict.fromkeys(("ScoreDecomposition", "SpiegelhalterTest", "decompose_score",
                     "spiegelhalter_test"), "measurelab.metrics.calibration"),
}
__all__ = [
    "BestThreshold",
    "EvaluationResult",
    "Evaluator",
    "MeasureScore",
    "ScoreDecomposition",
    "SpiegelhalterTest",
    "best_threshold",
    "build_stats",
    "decompose_score",
    "evaluate",
    "evaluate_counts",
    "make_scorer",
    "per_class",
    "spiegelhalter_test",
    "data_function",
    *_MEASURES,
]

__getattr__, __dir__ = lazy_face(__name__, _LAZY, __all__)

if TYPE_CHECKING:  # the generated per-measure functions, for static tools (lazy at run time)
    from measurelab.metrics._measures import *  # noqa: F403
    from measurelab.metrics.calibration import (
        ScoreDecomposition,
        SpiegelhalterTest,
        decompose_score,
        spiegelhalter_test,
    )
    from measurelab.metrics.functions import data_function
    from measurelab.metrics.scorers import MeasureScore, make_scorer
    from measurelab.metrics.thresholds import BestThreshold, best_threshold
