"""The API's contract: results, errors, warnings, streaming, registry, two-level values."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab import MeasurelabError, UndefinedMeasureWarning
from tests.conftest import make_binary


def test_evaluate_defaults_cover_every_applicable_measure(rng):
    y, s, _ = make_binary(rng, 300)
    r = ml.evaluate(y, s)
    assert set(r) == {m.name for m in ml.registry if m.in_default_set}
    assert isinstance(r.to_frame(), pd.DataFrame)
    assert set(r.to_frame().columns) >= {"value", "kind", "range", "direction", "source"}
    # scores outside [0, 1]: probability measures are skipped, not failed
    r2 = ml.evaluate(y, 10 * s - 3)
    assert "rms" not in r2 and "sar" not in r2 and "auc" in r2
    assert r2["auc"] == r["auc"]


def test_public_functions_and_aliases(rng):
    y, s, _ = make_binary(rng, 200)
    assert ml.recall is None if hasattr(ml, "recall") else True  # aliases live in the registry
    assert ml.registry.get("recall").name == "sens"
    assert ml.registry.get("roc_auc") is ml.registry.get("auc")
    assert ml.registry.get("log_loss").name == "mxe"
    assert ml.evaluate(y, s, measures=["recall"])["recall"] == ml.metrics.sens(y, s)
    assert ml.metrics.auc(y, s) == ml.evaluate(y, s, measures="auc")["auc"]
    assert ml.metrics.mxe(y, s, base=2) == pytest.approx(ml.metrics.mxe(y, s) / math.log(2))
    assert ml.metrics.lift(y, s, q=0.1) == ml.evaluate(y, s, measures=["lift@0.1"])["lift@0.1"]
    assert ml.metrics.f_beta(y, s, beta=2) == ml.evaluate(y, s, measures=["f_beta@2"])["f_beta@2"]


def test_threshold_and_inclusive():
    y = [0, 1, 1, 0]
    s = [0.5, 0.5, 0.9, 0.1]
    assert ml.metrics.acc(y, s) == 0.75  # 0.5 is not > 0.5
    assert ml.metrics.acc(y, s, inclusive=True) == 0.75
    assert ml.metrics.sens(y, s, inclusive=True) == 1.0
    assert ml.metrics.sens(y, s, threshold=0.95) == 0.0


@pytest.mark.parametrize(
    "y,s,kw,match",
    [
        ([0, 1], [0.1, float("nan")], {}, r"y_score must be finite, got nan at position 1"),
        ([0, 1], [0.1, float("inf")], {}, r"finite, got inf"),
        ([0, 1], ["a", "b"], {}, r"numeric, got the non-numeric value 'a'"),
        ([0, 1, 1], [0.1, 0.2], {}, r"inconsistent numbers of examples"),
        ([], [], {}, r"empty"),
        ([0, 1], [0.1, 0.2], {"pos_label": 3},
         r"pos_label=3 is not a valid label. It should be one of \[0, 1\]"),
        ([0, 1], [0.1, 0.2], {"sample_weight": [1, -1]}, r"non-negative"),
        ([0, 1], [0.1, 0.2], {"sample_weight": [1]}, r"sample_weight has 1 values, expected 2"),
        ([0, 1], [0.1, 1.2], {"measures": ["rms"]}, r"rms is a probability measure .* got 1.2"),
        ([0, 1], [0.1, 0.2], {"measures": ["acu"]}, r"unknown measure 'acu'; did you mean 'auc'\?"),
        ([0, 1], [0.1, 0.2], {"measures": ["auc@2"]}, r"auc takes no parameter"),
        ([0, 1], [0.1, 0.2], {"measures": ["f_beta@x"]}, r"must be a number"),
        ([0, 1], [0.1, 0.2], {"measures": ["auc:"]}, r"two names joined by ':'"),
    ],
)
def test_errors_name_the_value(y, s, kw, match):
    with pytest.raises(MeasurelabError, match=match):
        ml.evaluate(y, s, **kw)


def test_binary_only_measure_on_multiclass_is_an_error():
    with pytest.raises(MeasurelabError, match="oarp is defined for binary tasks only"):
        ml.evaluate([0, 1, 2], [[.8, .1, .1], [.1, .8, .1], [.1, .1, .8]], measures=["oarp"])
    with pytest.raises(MeasurelabError, match="y_score has 2 columns but y_true has 3 classes"):
        ml.evaluate([0, 1, 2], [[.8, .2], [.1, .9], [.5, .5]])


def test_undefined_values_are_nan_with_a_warning():
    with pytest.warns(UndefinedMeasureWarning, match="AUC is undefined with no negative"):
        assert math.isnan(ml.metrics.auc([1, 1, 1], [0.2, 0.5, 0.9]))
    with pytest.warns(UndefinedMeasureWarning, match="sensitivity"):
        assert math.isnan(ml.metrics.sens([0, 0], [0.2, 0.9]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ml.metrics.prec([0, 1], [0.2, 0.3]) == 0.0  # precision 0/0 = 0, documented
        assert ml.metrics.lr_pos([0, 1], [0.2, 0.9]) == math.inf  # x/0 is inf, not an error
    assert ml.metrics.prec([0, 1], [0.2, 0.3], zero_division=1.0) == 1.0


def test_evaluate_counts():
    r = ml.evaluate_counts(tp=10, fp=5, fn=3, tn=20)
    assert all(ml.registry.get(k).kind == "threshold" for k in r if k != "dp_band")
    assert r["acc"] == 30 / 38
    with pytest.raises(MeasurelabError, match="tp must be a non-negative count, got -1"):
        ml.evaluate_counts(tp=-1, fp=0, fn=0, tn=0)
    with pytest.raises(MeasurelabError, match="auc needs scores"):
        ml.evaluate_counts(tp=1, fp=2, fn=3, tn=4, measures=["auc"])


def test_evaluate_counts_takes_the_counts_by_name_only():
    import inspect
    import pickle

    params = inspect.signature(ml.evaluate_counts).parameters
    assert list(params) == ["tp", "fp", "fn", "tn", "measures"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params.values())
    # scikit-learn's confusion_matrix(...).ravel() order cannot slip in positionally
    for args in ((20, 5, 3, 10), (20, 5, 3), (20,)):
        with pytest.raises(TypeError, match=r"takes the counts by name.*evaluate_counts\(tp="):
            ml.evaluate_counts(*args)
    with pytest.raises(TypeError, match="by name"):
        ml.evaluate_counts(20, 5, 3, 10, measures=["acc"])
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'tn'"):
        ml.evaluate_counts(tp=1, fp=2, fn=3)
    r = ml.evaluate_counts(tn=20, fp=5, fn=3, tp=10)  # any keyword order
    assert r["sens"] == 10 / 13 and r["spec"] == 20 / 25
    assert pickle.loads(pickle.dumps(ml.evaluate_counts)) is ml.evaluate_counts


def test_evaluation_result_is_a_mapping_missing_measures_raise_key_error():
    from collections.abc import Mapping

    from measurelab.exceptions import MissingMeasureError

    r = ml.evaluate([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], measures=["acc", "auc"])
    assert isinstance(r, Mapping)
    assert dict(r) == {"acc": 0.75, "auc": 1.0}
    assert r.get("auc") == 1.0 and r.get("f1") is None and r.get("f1", -1) == -1
    assert "auc" in r and "f1" not in r
    assert "accuracy" in r and r["accuracy"] == 0.75  # an alias of a measure held
    # unknown names, registered measures not evaluated, and non-names alike
    for key in ("f1", "no_such_measure", "auc:acc", 3, None):
        assert key not in r and r.get(key) is None
        with pytest.raises(KeyError) as info:
            r[key]
        assert isinstance(info.value, MissingMeasureError)
        assert isinstance(info.value, MeasurelabError)  # callers catching it still do
    with pytest.raises(KeyError, match="'f1' is not in this result \\(it holds 'acc', 'auc'\\)"):
        r["f1"]
    with pytest.raises(KeyError, match="unknown measure 'no_such_measure'"):
        r["no_such_measure"]
    assert str(MissingMeasureError("x")) == "x"  # not quoted, as KeyError would
    assert r == {"acc": 0.75, "auc": 1.0} and list(r.keys()) == ["acc", "auc"]


def test_evaluator_streams_binary_and_multiclass(rng):
    y, s, _ = make_binary(rng, 1000, weighted=False)
    ev = ml.Evaluator()
    for i in range(0, 1000, 128):
        ev.update(y[i:i + 128], s[i:i + 128])
    assert dict(ev.compute()) == dict(ml.evaluate(y, s))
    k = 3
    yc = rng.integers(0, k, 300)
    P = rng.dirichlet(np.ones(k), 300)
    ev2 = ml.Evaluator(labels=[0, 1, 2])
    for i in range(0, 300, 50):
        ev2.update(yc[i:i + 50], P[i:i + 50])
    whole = ml.evaluate(yc, P)
    got = ev2.compute()
    assert set(got) == set(whole)
    for key in whole:
        assert float(got[key]) == pytest.approx(float(whole[key]), abs=1e-12)
    with pytest.raises(MeasurelabError, match="different threshold"):
        ml.Evaluator(threshold=0.3).update([0, 1], [0.1, 0.9]).merge(
            ml.Evaluator().update([0, 1], [0.1, 0.9]))
    with pytest.raises(MeasurelabError, match="call update"):
        ml.Evaluator().compute()


def test_register_user_measure_and_metadata():
    @ml.measure("youden_half", kind="threshold", statistic="counts", range=(-0.5, 0.5),
                source="test")
    def youden_half(c):
        """Half of Youden's index."""
        return (c.tp / (c.tp + c.fn) - c.fp / (c.fp + c.tn)) / 2

    try:
        m = ml.registry.get("youden_half")
        assert (m.kind, m.range, m.higher_is_better, m.description) == (
            "threshold", (-0.5, 0.5), True, "Half of Youden's index.")
        r = ml.evaluate_counts(tp=3, fp=1, fn=1, tn=3, measures=["youden_half"])
        assert r["youden_half"] == 0.25
        with pytest.raises(MeasurelabError, match="already registered"):
            ml.measure("youden_half", kind="threshold", statistic="counts")(youden_half)
        assert "youden_half" in ml.registry.to_frame().index
    finally:
        ml.registry.unregister("youden_half")
    assert "youden_half" not in ml.registry
    with pytest.raises(MeasurelabError, match="kind='nope' is not valid"):
        ml.Measure("x", lambda c: 0, kind="nope", statistic="counts", range=(0, 1),
                   higher_is_better=True)


def test_two_level_values_compare_lexicographically():
    a = ml.measures.TwoLevelValue(Fraction(3, 4), Fraction(1, 2))
    b = ml.measures.TwoLevelValue(Fraction(3, 4), Fraction(3, 5))
    c = ml.measures.TwoLevelValue(Fraction(4, 5), Fraction(0))
    assert a < b < c and sorted([c, a, b]) == [a, b, c]
    # the display number is not lexicographic when f steps are below 0.01
    d = ml.measures.TwoLevelValue(0.751, 0.1)
    e = ml.measures.TwoLevelValue(0.750, 0.9)
    assert d > e and d.display < e.display
    m = ml.two_level("auc", "rms")
    assert m.name == "auc:rms" and m.kind == "composite" and m.higher_is_better
    v = ml.evaluate([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], measures=[m])["auc:rms"]
    assert v.second == pytest.approx(1 - ml.metrics.rms([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1]))


def test_two_level_on_multiclass():
    y = [0, 1, 2, 2]
    P = [[.7, .2, .1], [.2, .5, .3], [.1, .1, .8], [.3, .4, .3]]
    v = ml.evaluate(y, P, measures=["auc:acc"])["auc:acc"]
    assert v.first == ml.metrics.auc(y, P) and v.second == ml.metrics.acc(y, P)


def test_score_table_swap_and_counts(rng):
    y, s, _ = make_binary(rng, 200)
    t = ml.ScoreTable.from_arrays(y == 1, s)
    sw = t.swapped()
    assert sw.n_pos == t.n_neg and sw.n_neg == t.n_pos
    assert ml.metrics.auc.measure.formula(sw) == pytest.approx(ml.metrics.auc.measure.formula(t))
    allc = t.counts_all_thresholds()
    assert allc.tp[-1] == t.n_pos and allc.fp[-1] == t.n_neg


def test_multicounts_from_labels_rejects_unknown_label():
    with pytest.raises(MeasurelabError, match="holds the label 'z'"):
        ml.MultiCounts.from_labels(["a", "z"], ["a", "a"], labels=["a", "b"])


def test_per_class_extended_precision_recall(rng):
    from sklearn.metrics import precision_recall_fscore_support

    y, s, _ = make_binary(rng, 300)
    df = ml.per_class(y, s)
    assert list(df.index) == [1, 0]
    c = ml.evaluate(y, s, measures=["prec", "sens", "npv", "spec"])
    assert df.loc[1, "precision"] == c["prec"] and df.loc[1, "recall"] == c["sens"]
    assert df.loc[0, "precision"] == c["npv"] and df.loc[0, "recall"] == c["spec"]
    k = 4
    yc = rng.integers(0, k, 400)
    P = rng.dirichlet(np.ones(k), 400)
    got = ml.per_class(yc, P)
    p, r, f, sup = precision_recall_fscore_support(yc, P.argmax(axis=1), zero_division=0)
    np.testing.assert_allclose(got["precision"], p, atol=1e-12)
    np.testing.assert_allclose(got["recall"], r, atol=1e-12)
    np.testing.assert_allclose(got["f1"], f, atol=1e-12)
    np.testing.assert_array_equal(got["support"], sup)
