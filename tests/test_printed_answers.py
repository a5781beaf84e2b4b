"""``print()`` of a result answers: a comparison, a test, an evaluation, an interval or a
verdict prints sentences (what was asked and the answer), never ``<Class object at …>``
nor only its constructor; the data a result is made of (tables, curves, counts) prints as
data. And no produced text says "model(s)": counts are written in the singular or the
plural they need.

The results are those :mod:`tests.test_pickle` makes, one of each kind the public API
returns; :func:`test_every_result_class_is_sorted` fails when a new result class is
neither an answer nor data here.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from tests.test_pickle import MAKERS, NOT_RESULTS, _made, public_result_classes

pytestmark = pytest.mark.filterwarnings("ignore")  # small samples: undefined-measure notes

#: results that answer a question: print() says the answer in words
ANSWERS = {
    "ClassifierComparison", "MultiClassComparison", "StructuredComparison",
    "DistributedComparison", "DistributedMultiComparison", "UnpairedComparison",
    "NetBenefitComparison",
    "LearnerComparison", "LearnerComparisonOverDatasets", "DemsarResult", "CalibrationTest",
    "EvaluationResult", "StructuredEvaluation", "Evaluator", "BestThreshold",
    "ScoreDecomposition", "Decomposition", "SpiegelhalterTest", "RankTestResult",
    "BayesComparison", "CVTestResult", "NestedCVResult", "TTestResult", "WilcoxonResult",
    "ZTestResult", "Interval", "ConfidenceInterval", "BootstrapIntervals", "CoverageVerdict",
    "PowerResult", "SimulatedPower", "ConsistencyResult", "PredictionSet", "AccuracyNIRTest",
}

#: the data results are made of, which print as data (their repr), and why
DATA = {
    "BinaryCounts": "a confusion matrix's four counts",
    "MultiCounts": "a k-class confusion matrix",
    "BinaryStats": "the statistics a measure is computed from",
    "MultiStats": "the k-class statistics a measure is computed from",
    "ScoreTable": "the score table (distinct scores and their counts)",
    "MultiScoreTable": "the k-class score tables",
    "ProbabilityRows": "k-class probability rows",
    "RocCurve": "a curve: arrays, like scikit-learn's tuple",
    "PrecisionRecallCurve": "a curve: arrays, like scikit-learn's tuple",
    "DetCurve": "a curve: arrays, like scikit-learn's tuple",
    "GainCurve": "a curve: arrays",
    "LiftCurve": "a curve: arrays",
    "CostCurve": "a curve: arrays",
    "DecisionCurve": "a curve: arrays",
    "OneVsRestCurves": "one curve per class",
    "Recalibration": "the recalibrated predictions (arrays)",
    "Estimates": "the debiased estimates' arrays",
    "BinnedCalibration": "binned sums (arrays)",
    "BootstrapRun": "bootstrap replicates (an array)",
    "Measure": "a registry entry: the measure's definition",
    "MeasureScore": "a scoring function's settings",
    "Binormal": "a generator's settings",
    "Resample": "a generator's data and settings",
    "PairCounts": "the counts R, S, P, Q a consistency result is read from",
    "RankedLists": "a domain of ranked lists (its settings)",
    "SampledRankedLists": "a sample of ranked lists (its settings)",
    "TwoLevelValue": "a value of a two-level measure (the pair)",
    "MonitoredResult": "a network's weights and training history (the lab)",
    "StudyResult": "where a study's tables are stored (the lab)",
    "_Scorer": "a scikit-learn scorer: the make_scorer call that makes it",
}

#: a constructor-like first line: ``Name(...)`` — data, not an answer
CONSTRUCTOR = re.compile(r"^[A-Za-z_][\w.]*\(")
#: an object's default text
DEFAULT = re.compile(r"<[\w.]+ object at 0x[0-9a-f]+>")
#: words: two words of letters at least ("interval 0.18 to 0.57" says its answer)
WORDS = re.compile(r"\b[A-Za-z]{2,}\b.*\b[a-z]{2,}\b")
#: a plural written with "(s)"
PLURAL_S = re.compile(r"\w\((s|es)\)")


def _kind(obj: Any) -> str:
    return type(obj).__name__


def test_every_result_class_is_sorted():
    """A result class the public API returns is an answer or data here (a new one fails
    until it is sorted), and the lists name real classes."""
    found = {c.__name__ for c in public_result_classes()} - set(NOT_RESULTS)
    unsorted = sorted(found - ANSWERS - set(DATA))
    assert not unsorted, f"result classes neither an answer nor data: {unsorted}"
    assert not ANSWERS & set(DATA)
    assert not (ANSWERS | set(DATA)) - found - {"_Scorer"}


@pytest.mark.parametrize("name", list(MAKERS))
def test_print_answers(name):
    obj = _made(name)
    if isinstance(obj, pd.DataFrame | dict):
        return  # a table prints as a table
    text = str(obj)
    assert not DEFAULT.search(text), f"{name}: {text[:80]}"
    if _kind(obj) not in ANSWERS:
        assert _kind(obj) in DATA, name
        return
    first = text.splitlines()[0]
    assert not CONSTRUCTOR.match(first), f"{name} prints a constructor: {first[:80]}"
    assert WORDS.search(text), f"{name} prints no sentence: {text[:120]}"


def _texts(obj: Any) -> list[str]:
    """What a result writes for a reader: print(), its summary, its figures' titles."""
    out = [] if isinstance(obj, pd.DataFrame | dict) else [str(obj)]
    for attr in ("summary", "describe"):
        fn = getattr(obj, attr, None)
        if callable(fn) and not isinstance(obj, pd.DataFrame):
            try:
                out.append(str(fn()))
            except (TypeError, ml.MeasurelabError):
                pass
    return out


@pytest.mark.parametrize("name", list(MAKERS))
def test_no_plural_written_with_s_in_brackets(name):
    for text in _texts(_made(name)):
        found = PLURAL_S.search(text)
        assert not found, f"{name}: ...{text[max(0, found.start() - 40):found.end() + 10]}"


def test_no_plural_written_with_s_in_brackets_in_figures_and_refusals():
    from sklearn.naive_bayes import GaussianNB

    from measurelab.inference.classifiers._report import describe

    g = np.random.default_rng(0)
    y = g.integers(0, 2, 60)
    s = np.clip(0.3 + 0.4 * y + g.normal(0, 0.2, 60), 0.01, 0.99)
    texts = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for scores in ({"one": s}, {"one": s, "two": s[::-1]}):
            cmp = ml.compare_classifiers(y, scores, n_boot=100, progress=False)
            texts += [describe(cmp), cmp.plot()._suptitle.get_text()]
    refusals = [
        lambda: ml.compare_learners({"nb": GaussianNB()}, np.zeros((4, 1)), [0, 1, 0, 1]),
        lambda: ml.compare_learners({"a": GaussianNB(), "b": GaussianNB()},
                                    datasets={"d": (np.zeros((4, 1)), [0, 1, 0, 1])}),
        lambda: ml.inference.bayes_pairs(pd.DataFrame({"x": [0.1, 0.2]}), rope=0.01,
                                          method="signed-rank"),
    ]
    for refuse in refusals:
        with pytest.raises(ml.MeasurelabError) as e:
            refuse()
        texts.append(str(e.value))
    assert "1 model on 60 cases" in texts[0] and "1 learner;" in texts[4]
    for text in texts:
        assert not PLURAL_S.search(text), text


def test_a_clustered_comparison_says_how_many_clusters():
    g = np.random.default_rng(1)
    n = 1200
    y = g.integers(0, 2, n)
    a = np.clip(0.3 + 0.4 * y + g.normal(0, 0.2, n), 0.01, 0.99)
    b = np.clip(0.35 + 0.3 * y + g.normal(0, 0.2, n), 0.01, 0.99)
    clusters = np.arange(n) // 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ml.compare_classifiers(y, {"a": a, "b": b}, groups=clusters, n_boot=100,
                                     measures=["auc"], progress=False)
        plain = ml.compare_classifiers(y, {"a": a, "b": b}, n_boot=100, measures=["auc"],
                                       progress=False)
        un = ml.compare_unpaired(y, a, y, b, n_boot=100, groups_a=clusters,
                                 groups_b=clusters // 2)
    assert str(cmp).splitlines()[0].startswith(
        "StructuredComparison of 2 models (a, b) on 1,200 cases in 300 clusters (")
    assert "clusters" not in str(plain).splitlines()[0]
    assert str(un).splitlines()[0].startswith(
        "UnpairedComparison of a (on 1,200 cases in 300 clusters) and b (on 1,200 cases in "
        "150 clusters)")
