"""compare_classifiers and evaluate(ci=) for k ≥ 3 classes on the block engine (issue 19)."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import measurelab as ml
from measurelab.exceptions import MeasurelabError
from measurelab.inference import bootstrap as bt
from measurelab.inference import intervals as iv
from measurelab.inference.classifiers.multiclass import run_multi
from measurelab.inference.evidence import plain_method

B = 200


def _data(n: int = 120, k: int = 4, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    models = {}
    for name, s in (("a", 1.5), ("b", 1.0), ("c", 0.5)):
        L = rng.normal(size=(n, k))
        L[np.arange(n), y] += s
        P = np.exp(L)
        models[name] = P / P.sum(axis=1, keepdims=True)
    return y, models


@pytest.fixture(scope="module")
def data():
    return _data()


@pytest.fixture(scope="module")
def result(data):
    y, models = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.compare_classifiers(y, models, n_boot=B)
        r.intervals()
        r.tests()
    return r


def test_values_equal_evaluate_per_model(data, result):
    y, models = data
    vals = result.values()
    # one measure per question (issue 33): no top_k_acc (acc again), kappa, prec, sens
    assert list(vals.index) == ["acc", "f1", "mcc", "auc", "mxe", "brier", "ece"]
    for name, P in models.items():
        e = ml.evaluate(y, P, measures=list(vals.index))
        for m in vals.index:
            assert vals.loc[m, name] == pytest.approx(e[m], rel=1e-12, abs=1e-15)


def test_average_none_rows_per_class(data):
    y, models = data
    r = ml.compare_classifiers(y, models, measures=["f1", "acc"], average=None, ci=None)
    assert list(r.values().index) == ["f1[0]", "f1[1]", "f1[2]", "f1[3]", "acc"]
    e = ml.evaluate(y, models["b"], measures=["f1"], average=None)
    assert r.values()["b"].iloc[:4].tolist() == pytest.approx(list(e["f1"]), rel=1e-12)


def test_permuting_rows_gives_identical_results(data, result):
    y, models = data
    perm = np.random.default_rng(5).permutation(y.size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r2 = ml.compare_classifiers(y[perm], {k: P[perm] for k, P in models.items()},
                                    n_boot=B)
        assert r2.intervals().equals(result.intervals())
        assert r2.tests().equals(result.tests())


def test_replicates_equal_scalar_route(data):
    y, models = data
    r = ml.compare_classifiers(y, models, measures=["f1", "auc", "mxe", "mcc"],
                               n_boot=B, random_state=3)
    d = r._design
    run = run_multi(d, r._columns, r.average, B, 3, jackknife=False, progress=False,
                    n_jobs=1)
    mult = d.draw(bt.rng_of(3), B)  # one block: the same draws as the run
    labels = np.array(d.labels)
    for b in (0, 17, B - 1):
        for a in range(3):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                e = ml.evaluate(labels[d.yi], d.P[a], measures=r._names_m,
                                sample_weight=mult[b], labels=labels)
            for j, m in enumerate(r._names_m):
                assert run.reps[b, a, j] == pytest.approx(e[m], rel=1e-9, abs=1e-12)


def test_wilson_and_mcnemar_rows(data, result):
    y, models = data
    level = 0.95
    rows = result.intervals()
    tests = result.tests()
    correct = {k: P.argmax(axis=1) == y for k, P in models.items()}
    for name in models:
        row = rows[(rows.model == name) & (rows.measure == "acc")].iloc[0]
        lo, hi = iv.proportion_interval(int(correct[name].sum()), y.size, level)
        assert (row.lo, row.hi, plain_method(row.method)) == (lo, hi, "wilson")
    t = tests[(tests.a == "a") & (tests.b == "c") & (tests.measure == "acc")].iloc[0]
    nb = int(np.count_nonzero(correct["a"] & ~correct["c"]))
    nc = int(np.count_nonzero(~correct["a"] & correct["c"]))
    assert t.p == iv.mcnemar_score(nb, nc)
    assert (t.lo, t.hi) == iv.tango_interval(nb, nc, y.size, level)
    assert t.method == "mcnemar"
    # ece (top-label binned) carries no interval: biased upwards near 0
    rest = tests[tests.measure != "acc"]
    assert set(rest[rest.measure != "ece"].method) == {"bootstrap"}
    assert set(rest[rest.measure == "ece"].method) == {"none"}


def test_holm_over_rows(result):
    t = result.tests()
    assert np.array_equal(t.p_holm.to_numpy(), iv.holm(t.p.to_numpy()), equal_nan=True)


def test_result_methods_work(result):
    d = json.loads(result.to_json())
    assert set(d["models"]) == {"a", "b", "c"} and d["verdicts"] == []
    p = result.preferences()
    assert p.loc[p.measure == "auc", "prefers"].item() == "a"


def test_stratify_keeps_class_counts(data):
    y, models = data
    r = ml.compare_classifiers(y, models, measures=["f1"], n_boot=B, stratify=True)
    d = r._design
    mult = d.draw(bt.rng_of(0), 50)
    per_class = np.stack([mult[:, d.yi == c].sum(axis=1) for c in range(d.k)], axis=1)
    assert np.array_equal(per_class, np.tile(d.class_n, (50, 1)).astype(float))


def test_predicted_labels_models(data):
    y, models = data
    labs = {k: P.argmax(axis=1) for k, P in models.items()}
    r = ml.compare_classifiers(y, labs, n_boot=B)
    assert list(r.values().index) == ["acc", "f1", "mcc"]
    e = ml.evaluate(y, labs["a"], measures=["f1", "mcc"])
    assert r.values().loc["f1", "a"] == pytest.approx(e["f1"], rel=1e-12)
    assert len(r.tests()) == 3 * 3


def test_evaluate_ci_multiclass(data):
    y, models = data
    e = ml.evaluate(y, models["a"], measures=["acc", "f1", "auc"], ci=0.95, n_boot=B)
    t = e.intervals()
    r = ml.compare_classifiers(y, {"a": models["a"]}, measures=["acc", "f1", "auc"],
                               n_boot=B).intervals()
    assert t.method.map(plain_method).tolist() == ["wilson", "bootstrap-bca", "bootstrap-bca"]
    assert t.method.tolist() == r.method.tolist()
    assert t.lo.tolist() == r.lo.tolist() and t.hi.tolist() == r.hi.tolist()
    with pytest.raises(MeasurelabError, match="average=None"):
        ml.evaluate(y, models["a"], ci=0.95, average=None)


def test_errors(data):
    y, models = data
    bad = models["a"].copy()
    bad[3] *= 1.1
    with pytest.raises(MeasurelabError, match=r"row 4 sums to .*tolerance|tolerance"):
        ml.compare_classifiers(y, {"x": bad}, n_boot=B)
    with pytest.raises(MeasurelabError, match="different numbers of classes"):
        ml.compare_classifiers(y, {"a": models["a"], "z": np.full((y.size, 5), 0.2)})
    with pytest.raises(MeasurelabError, match="which is no class"):
        ml.compare_classifiers(y, {"a": np.where(y == 0, 9, y)})
    # (n, 2) of two classes: predict_proba's binary output, its positive column (issue 33)
    two = ml.compare_classifiers(y % 2, {"a": np.full((y.size, 2), 0.5)}, ci=None)
    assert two.values().equals(ml.compare_classifiers(y % 2, {"a": np.full(y.size, 0.5)},
                                                      ci=None).values())


def test_weights_and_threads(data):
    y, models = data
    w = np.random.default_rng(2).uniform(0.5, 2.0, y.size)
    r1 = ml.compare_classifiers(y, models, measures=["acc", "f1"], n_boot=B,
                                sample_weight=w)
    r2 = ml.compare_classifiers(y, models, measures=["acc", "f1"], n_boot=B,
                                sample_weight=w, n_jobs=2)
    t1 = r1.tests()
    assert set(r1.intervals().method.map(plain_method)) <= {
        "bootstrap-bca", "bootstrap-percentile", "bootstrap-percentile (BCa at edge)"}
    assert set(t1.method) == {"bootstrap"}
    assert t1.equals(r2.tests())
    e = ml.evaluate(y, models["a"], measures=["acc", "f1"], sample_weight=w)
    assert r1.values().loc["acc", "a"] == pytest.approx(e["acc"], rel=1e-12)


def test_labels_give_column_order_and_keep_an_absent_class():
    y = np.array(["b", "a", "b", "a", "b", "a"])
    P = np.array([[.1, .8, .1], [.7, .2, .1], [.2, .6, .2], [.6, .3, .1], [.3, .5, .2],
                  [.5, .4, .1]])
    with pytest.warns(ml.exceptions.UndefinedMeasureWarning, match="no positives"), \
            pytest.warns(ml.exceptions.UndefinedMeasureWarning, match="labels= names 'c'"):
        r = ml.compare_classifiers(y, {"m": P}, labels=["a", "b", "c"], measures=["sens"],
                                   average=None, ci=None)
    assert list(r.values().index) == ["sens[a]", "sens[b]", "sens[c]"]
    assert r.values().loc["sens[a]", "m"] == 1.0
    with pytest.raises(MeasurelabError, match="labels= applies to k classes only"):
        ml.compare_classifiers([0, 1, 0, 1], {"m": [.2, .8, .3, .9]}, labels=[0, 1])
