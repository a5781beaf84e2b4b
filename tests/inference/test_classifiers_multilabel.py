"""Multi-label comparisons: the replicates' values equal scikit-learn's with the
multiplicities as sample weights, the replicates do not depend on the row order, intervals
and tests come from one distribution, and two MultiOutputClassifier models go from
predict_proba to a printed answer and a page with no reshaping."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import metrics as skm

import measurelab as ml
from measurelab.inference.bootstrap.multilabel import MultiLabelDesign
from measurelab.measures.multilabel import ml_measure, ml_values


def data(n=80, L=4, seed=0):
    rng = np.random.default_rng(seed)
    Y = rng.random((n, L)) < 0.4
    A = np.round(np.clip(0.45 * Y + 0.6 * rng.random((n, L)), 0, 1), 2)
    B = np.round(np.clip(0.25 * Y + 0.75 * rng.random((n, L)), 0, 1), 1)  # ties
    return Y, A, B


CHECKS = [
    ("f1", "macro", lambda Y, S, w: skm.f1_score(Y, S > .5, average="macro",
                                                 sample_weight=w, zero_division=0)),
    ("f1", "samples", lambda Y, S, w: skm.f1_score(Y, S > .5, average="samples",
                                                   sample_weight=w, zero_division=0)),
    ("prec", "micro", lambda Y, S, w: skm.precision_score(Y, S > .5, average="micro",
                                                          sample_weight=w)),
    ("jaccard", "weighted", lambda Y, S, w: skm.jaccard_score(Y, S > .5, average="weighted",
                                                              sample_weight=w)),
    ("subset_acc", "macro", lambda Y, S, w: skm.accuracy_score(Y, S > .5, sample_weight=w)),
    ("hamming_loss", "macro", lambda Y, S, w: skm.hamming_loss(Y, S > .5, sample_weight=w)),
    ("auc", "macro", lambda Y, S, w: skm.roc_auc_score(Y, S, sample_weight=w)),
    ("auc", "micro", lambda Y, S, w: skm.roc_auc_score(Y, S, average="micro",
                                                       sample_weight=w)),
    ("ap", "weighted", lambda Y, S, w: skm.average_precision_score(Y, S, average="weighted",
                                                                   sample_weight=w)),
    ("lrap", "macro", lambda Y, S, w: skm.label_ranking_average_precision_score(
        Y, S, sample_weight=w)),
    ("coverage_error", "macro", lambda Y, S, w: skm.coverage_error(Y, S, sample_weight=w)),
    ("ranking_loss", "macro", lambda Y, S, w: skm.label_ranking_loss(Y, S, sample_weight=w)),
]


@pytest.mark.parametrize("weighted", [False, True])
def test_replicates_equal_sklearn_with_multiplicities_as_weights(weighted):
    Y, A, B = data()
    rng = np.random.default_rng(1)
    w = rng.integers(1, 4, Y.shape[0]).astype(float) if weighted else None
    d = MultiLabelDesign(Y, [A, B], w)
    mult = d.draw(np.random.default_rng(2), 3)
    for a in range(2):
        view = d.view(a, mult)
        for name, avg, sk in CHECKS:
            got = ml_values(ml_measure(name), view, avg)
            for b in range(3):
                keep = mult[b] > 0
                ww = mult[b] if w is None else mult[b] * d.weight
                want = sk(d.Y[keep], d.S[a][keep], ww[keep])
                assert got[b] == pytest.approx(want, abs=1e-12), (name, avg)


def test_values_equal_sklearn_and_row_order_does_not_matter():
    Y, A, B = data()
    r = ml.compare_classifiers(Y, {"a": A, "b": B}, measures=["f1", "auc", "lrap"],
                               n_boot=200)
    assert r.values().loc["auc", "b"] == pytest.approx(skm.roc_auc_score(Y, B), abs=1e-12)
    perm = np.random.default_rng(3).permutation(Y.shape[0])
    r2 = ml.compare_classifiers(Y[perm], {"a": A[perm], "b": B[perm]},
                                measures=["f1", "auc", "lrap"], n_boot=200)
    _need, run = r._boot()
    _need2, run2 = r2._boot()
    np.testing.assert_array_equal(run.reps, run2.reps)
    # the identity replicate is the value (block route == summary route)
    np.testing.assert_allclose(run.theta, r._vals, atol=1e-12)


def test_intervals_and_tests_from_one_distribution():
    from measurelab.inference.withholding import withholding

    Y, A, B = data(n=120)
    with warnings.catch_warnings(), withholding(False):   # every interval, even one the
        warnings.simplefilter("ignore")                    # evidence would withhold
        r = ml.compare_classifiers(Y, {"a": A, "b": B}, measures=["f1", "auc", "subset_acc"],
                                   n_boot=300)
        iv, t = r.intervals(), r.tests()
    assert ((iv["lo"] <= iv["value"]) & (iv["value"] <= iv["hi"])).all()
    excl = (t["lo"] > 0) | (t["hi"] < 0)
    assert (excl == (t["p"] < 0.05)).all()
    assert (t["p_holm"] >= t["p"]).all()


def test_per_label_rows_and_evaluate_ci():
    Y, A, _B = data()
    r = ml.compare_classifiers(Y, {"a": A}, measures=["f1"], average=None, n_boot=200)
    assert r.values().index.tolist() == ["f1[0]", "f1[1]", "f1[2]", "f1[3]"]
    np.testing.assert_allclose(r.values()["a"].to_numpy(),
                               skm.f1_score(Y, A > .5, average=None), atol=1e-12)
    e = ml.evaluate(Y, A, measures=["f1", "lrap"], ci=0.95, n_boot=200)
    t = e.intervals()
    assert t["measure"].tolist() == ["f1", "lrap"]
    assert ((t["lo"] <= t["value"]) & (t["value"] <= t["hi"])).all()


def test_stratify_is_refused():
    Y, A, _B = data()
    with pytest.raises(ml.MeasurelabError, match="stratify=True does not apply to multi-label"):
        ml.compare_classifiers(Y, {"a": A}, stratify=True, n_boot=200)


def test_multioutput_models_from_predict_proba_to_answer_and_page(tmp_path):
    from sklearn.datasets import make_multilabel_classification
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.multioutput import MultiOutputClassifier

    X, Y = make_multilabel_classification(n_samples=400, n_features=10, n_classes=5,
                                          random_state=0)
    tr, te = slice(0, 250), slice(250, None)
    lr = MultiOutputClassifier(LogisticRegression(max_iter=500)).fit(X[tr], Y[tr])
    rf = MultiOutputClassifier(RandomForestClassifier(n_estimators=30, random_state=0)
                               ).fit(X[tr], Y[tr])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.compare_classifiers(Y[te], {"logistic": lr.predict_proba(X[te]),
                                           "forest": rf.predict_proba(X[te])}, n_boot=200)
        text = repr(r)
        page = r.to_html(tmp_path / "ml.html").read_text()
    assert "multi-label with 5 labels" in text
    assert "logistic" in r.summary() and "Best model per measure" in r.summary()
    p = np.stack([q[:, 1] for q in lr.predict_proba(X[te])], axis=1)
    assert r.values().loc["auc", "logistic"] == pytest.approx(skm.roc_auc_score(Y[te], p),
                                                              abs=1e-12)
    assert "f1 per label" in page and "auc per label" in page
    assert page.count("data:image/png;base64,") >= 4


def test_page_is_written_as_a_set_and_a_folder_is_refused(tmp_path):
    Y, A, B = data(n=60)
    r = ml.compare_classifiers(Y, {"a": A, "b": B}, measures=["f1"], n_boot=100)
    with pytest.raises(ml.MeasurelabError, match="is a folder; give a file name inside it"):
        r.to_html(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r.to_html(tmp_path / "p.html", files=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.html", "p.json"]
    assert not list(tmp_path.glob(".*.tmp"))
