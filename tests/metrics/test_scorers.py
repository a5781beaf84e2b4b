"""make_scorer inside scikit-learn's loops equals the measure computed per fold."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    TunedThresholdClassifierCV,
    cross_val_score,
)
from sklearn.svm import LinearSVC

import measurelab as ml
from measurelab.metrics.scorers import TWO_LEVEL_STEP, MeasureScore


def _data(seed=0, n=120, labels=(0, 1)):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.8 * rng.normal(size=n) > 0.3).astype(int)
    return X, np.asarray(labels)[y]


def _per_fold(est, X, y, cv, f):
    out = []
    for tr, te in cv.split(X, y):
        e = clone(est).fit(X[tr], y[tr])
        out.append(f(e, X[te], y[te]))
    return np.array(out)


CV = StratifiedKFold(4, shuffle=True, random_state=0)


def _auc(e, X, y):
    return ml.metrics.auc(y, e.predict_proba(X)[:, 1])


def _acc(e, X, y):
    return ml.metrics.acc(y, (e.predict(X) == 1).astype(float))


CASES = {
    "acc": _acc,
    "f1": lambda e, X, y: ml.metrics.f1(y, (e.predict(X) == 1).astype(float)),
    "auc": _auc,
    "lift@0.1": lambda e, X, y: ml.metrics.lift(y, e.predict_proba(X)[:, 1], q=0.1),
    "rms": lambda e, X, y: -ml.metrics.rms(y, e.predict_proba(X)[:, 1]),  # lower is better
    "mxe": lambda e, X, y: -ml.metrics.mxe(y, e.predict_proba(X)[:, 1]),
    "auc:acc": lambda e, X, y: _auc(e, X, y) + TWO_LEVEL_STEP * _acc(e, X, y),
    "sar": lambda e, X, y: (_acc(e, X, y) + _auc(e, X, y)
                            + 1 - ml.metrics.rms(y, e.predict_proba(X)[:, 1])) / 3,
}


@pytest.mark.parametrize("spec", list(CASES))
def test_cross_val_score_equals_the_measure_per_fold(spec):
    X, y = _data()
    est = LogisticRegression(C=0.3)
    got = cross_val_score(est, X, y, cv=CV, scoring=ml.make_scorer(spec))
    want = _per_fold(est, X, y, CV, CASES[spec])
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_direction_comes_from_the_registry():
    assert ml.make_scorer("auc")._sign == 1
    assert ml.make_scorer("rms")._sign == -1
    assert ml.make_scorer("err")._sign == -1
    assert ml.make_scorer("auc:rms")._sign == 1  # two-level values are oriented


def test_user_registered_measure_and_sample_weight():
    @ml.measure("tpr_minus_half_fpr", kind="threshold", statistic="counts",
                range=(-0.5, 1.0), source="test")
    def f(c):
        """sens − fpr/2."""
        return c.tp / (c.tp + c.fn) - 0.5 * c.fp / (c.fp + c.tn)

    try:
        X, y = _data(1)
        est = LogisticRegression().fit(X, y)
        w = np.random.default_rng(0).random(y.size)
        scorer = ml.make_scorer("tpr_minus_half_fpr")
        pred = (est.predict(X) == 1).astype(float)
        assert scorer(est, X, y) == pytest.approx(ml.evaluate(
            y, pred, measures=["tpr_minus_half_fpr"])["tpr_minus_half_fpr"], rel=1e-12)
        assert scorer(est, X, y, sample_weight=w) == pytest.approx(ml.evaluate(
            y, pred, measures=["tpr_minus_half_fpr"], sample_weight=w)["tpr_minus_half_fpr"],
            rel=1e-12)
        got = cross_val_score(LogisticRegression(), X, y, cv=CV, scoring=scorer)
        assert np.isfinite(got).all()
    finally:
        ml.registry.unregister("tpr_minus_half_fpr")


def test_string_labels_use_the_estimators_positive_class():
    X, y = _data(2, labels=("no", "yes"))
    est = LogisticRegression()
    got = cross_val_score(est, X, y, cv=CV, scoring=ml.make_scorer("auc"))
    want = cross_val_score(est, X, y, cv=CV, scoring="roc_auc")
    np.testing.assert_allclose(got, want, rtol=1e-12)
    got = cross_val_score(est, X, y, cv=CV, scoring=ml.make_scorer("f1", pos_label="no"))
    want = _per_fold(est, X, y, CV, lambda e, Xt, yt: ml.metrics.f1(
        yt, (e.predict(Xt) == "no").astype(float), pos_label="no"))
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_decision_function_only_estimator():
    X, y = _data(3)
    est = LinearSVC()
    got = cross_val_score(est, X, y, cv=CV, scoring=ml.make_scorer("auc"))
    want = cross_val_score(est, X, y, cv=CV, scoring="roc_auc")
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_multiclass_scorers_equal_sklearn():
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=300, C=0.05)
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    for ours, theirs in [("acc", "accuracy"), ("auc", "roc_auc_ovo")]:
        got = cross_val_score(est, X, y, cv=cv, scoring=ml.make_scorer(ours))
        want = cross_val_score(est, X, y, cv=cv, scoring=theirs)
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_tuned_threshold_classifier_cv_matches_sklearns_own_f1():
    X, y = _data(4, n=200)
    kw = dict(cv=3, thresholds=25, random_state=0)
    ours = TunedThresholdClassifierCV(LogisticRegression(), scoring=ml.make_scorer("f1"),
                                      **kw).fit(X, y)
    theirs = TunedThresholdClassifierCV(LogisticRegression(), scoring="f1", **kw).fit(X, y)
    assert ours.best_threshold_ == theirs.best_threshold_
    assert ours.best_score_ == pytest.approx(theirs.best_score_, rel=1e-12)
    # any registry measure, e.g. Youden's J, tunes too
    tuned = TunedThresholdClassifierCV(LogisticRegression(), scoring=ml.make_scorer("youden"),
                                       **kw).fit(X, y)
    assert -1 <= tuned.best_score_ <= 1


def test_two_level_float_orders_lexicographically_and_display_option():
    f = MeasureScore("auc:acc")
    # equal AUC (1.0), different accuracy: the second level decides
    y = [0, 0, 1, 1]
    a = f(y, [0.1, 0.2, 0.6, 0.9])      # acc 1
    b = f(y, [0.1, 0.55, 0.6, 0.9])     # acc 0.75
    assert a > b
    # a tiny AUC difference beats any accuracy difference
    y2 = [0] * 40 + [1] * 40
    s_hi = np.r_[np.linspace(0, 0.3, 40), np.linspace(0.31, 0.4, 40)]   # auc 1, acc 0.5
    s_lo = np.r_[np.linspace(0, 0.49, 39), [0.6], np.linspace(0.51, 1, 40)]  # auc < 1
    assert ml.metrics.auc(y2, s_lo) < 1 and ml.metrics.acc(y2, s_lo) > ml.metrics.acc(y2, s_hi)
    assert f(y2, s_hi) > f(y2, s_lo)
    d = MeasureScore("auc:acc", two_level="display")
    assert d(y, [0.1, 0.55, 0.6, 0.9]) == pytest.approx(1.0 + 0.75 / 100)
    # an unbounded second level maps into [0, 1] by arctan
    g = MeasureScore("auc:lr_pos")
    v = g(y, [0.1, 0.55, 0.6, 0.9])
    assert 1.0 < v <= 1.0 + TWO_LEVEL_STEP and math.isfinite(v)


def test_scorer_pickles_and_labels_or_scores_standalone():
    X, y = _data(5)
    est = LogisticRegression().fit(X, y)
    for spec in ("auc:acc", "acc", "rms"):
        s = ml.make_scorer(spec)
        s2 = pickle.loads(pickle.dumps(s))
        assert s2(est, X, y) == s(est, X, y)
    f = MeasureScore("acc")
    assert f(["a", "b", "b"], ["a", "b", "a"]) == pytest.approx(2 / 3)
    # a two-column probability matrix: the positive class's column
    P = np.array([[0.8, 0.2], [0.3, 0.7], [0.6, 0.4], [0.1, 0.9]])
    y = np.array([0, 1, 0, 0])
    assert MeasureScore("auc")(y, P) == ml.metrics.auc(y, P[:, 1])
    assert MeasureScore("auc")(y, P, pos_label=0) == ml.metrics.auc(y, P[:, 0], pos_label=0)
    with pytest.raises(ml.MeasurelabError, match="two_level"):
        MeasureScore("auc:acc", two_level="sum")


def test_grid_search_picks_the_best_mean_score():
    X, y = _data(6)
    gs = GridSearchCV(LogisticRegression(), {"C": [0.001, 0.1, 10.0]}, cv=CV,
                      scoring=ml.make_scorer("rms")).fit(X, y)
    means = gs.cv_results_["mean_test_score"]
    assert (means <= 0).all()  # −rms
    assert gs.best_index_ == int(np.argmax(means))


def test_the_scorer_is_scikit_learns_public_make_scorer():
    import inspect

    import sklearn.metrics

    from measurelab.metrics import scorers

    s = ml.make_scorer("rms")
    ref = sklearn.metrics.make_scorer(MeasureScore("rms"), greater_is_better=False,
                                      response_method="predict_proba")
    assert type(s) is type(ref)
    assert repr(s) == "make_scorer(rms, greater_is_better=False, response_method='predict_proba')"
    assert ml.make_scorer("acc")._response_method == "predict"
    assert ml.make_scorer("auc")._response_method == ("predict_proba", "decision_function")
    # decisions and scores together: the probabilities, decided as predict does
    assert ml.make_scorer("auc:acc")._response_method == "predict_proba"
    source = inspect.getsource(scorers)
    assert "sklearn.metrics._scorer" not in source and "_check_response_method" not in source


def test_multi_metric_scoring_equals_one_scorer_at_a_time():
    from sklearn.model_selection import cross_validate

    X, y = _data(7)
    specs = ["auc", "rms", "acc", "auc:acc"]
    got = cross_validate(LogisticRegression(), X, y, cv=CV,
                         scoring={k: ml.make_scorer(k) for k in specs})
    for k in specs:
        want = cross_val_score(LogisticRegression(), X, y, cv=CV, scoring=ml.make_scorer(k))
        np.testing.assert_array_equal(got[f"test_{k}"], want)


def test_a_fold_of_one_class_needs_the_positive_class_or_the_labels():
    from sklearn.model_selection import LeaveOneOut

    X, y = _data(8, n=30)
    ys = np.array(["no", "yes"])[y]
    want = cross_val_score(LogisticRegression(), X, y, cv=LeaveOneOut(),
                           scoring=ml.make_scorer("rms"))
    for kw in ({"pos_label": "yes"}, {"labels": ["no", "yes"]}):
        got = cross_val_score(LogisticRegression(), X, ys, cv=LeaveOneOut(),
                              scoring=ml.make_scorer("rms", **kw))
        np.testing.assert_allclose(got, want, rtol=1e-12)
    est = LogisticRegression().fit(X, ys)
    with pytest.raises(ml.MeasurelabError, match=r"one class only.*pass pos_label="):
        ml.make_scorer("rms")(est, X[:1], ys[:1])


def test_labels_name_the_columns_when_a_fold_lacks_a_class():
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=300).fit(X, y)
    part = y < 2  # a test fold without class 2: three probability columns, two labels
    got = ml.make_scorer("mxe", labels=[0, 1, 2])(est, X[part], y[part])
    assert got == -ml.metrics.mxe(y[part], est.predict_proba(X[part]), labels=[0, 1, 2])
    with pytest.raises(ml.MeasurelabError, match="3 columns"):
        ml.make_scorer("mxe")(est, X[part], y[part])


class _Shrunk(ClassifierMixin, BaseEstimator):
    """Logistic regression whose probabilities are pulled towards ½ by ``shrink``."""

    def __init__(self, shrink: float = 1.0) -> None:
        self.shrink = shrink

    def fit(self, X, y):
        self.lr_ = LogisticRegression().fit(X, y)
        self.classes_ = self.lr_.classes_
        return self

    def predict_proba(self, X):
        return 0.5 + self.shrink * (self.lr_.predict_proba(X) - 0.5)

    def predict(self, X):
        return self.classes_[self.predict_proba(X).argmax(axis=1)]


def test_scorer_of_a_target_measure_returns_minus_the_distance():
    """spiegelhalter_z has target 0: its scorer returns −|z| with greater_is_better=True,
    so scikit-learn's loops prefer the calibrated model (z near 0) to a too cautious one."""
    X, y = _data(3, n=400)
    sc = ml.make_scorer("spiegelhalter_z")
    assert sc._sign == 1
    est = LogisticRegression().fit(X, y)
    z = ml.metrics.spiegelhalter_z(y, est.predict_proba(X)[:, 1])
    assert sc(est, X, y) == pytest.approx(-abs(z), rel=1e-12)
    got = cross_val_score(LogisticRegression(), X, y, cv=CV, scoring=sc)
    want = _per_fold(LogisticRegression(), X, y, CV, lambda e, Xt, yt: -abs(
        ml.metrics.spiegelhalter_z(yt, e.predict_proba(Xt)[:, 1])))
    np.testing.assert_allclose(got, want, rtol=1e-12)
    # probabilities shrunk towards ½ are too cautious: z far below 0 (lower z, farther)
    grid = GridSearchCV(_Shrunk(), {"shrink": [0.3, 1.0]}, cv=CV, scoring=sc).fit(X, y)
    assert grid.best_params_ == {"shrink": 1.0}
    assert grid.cv_results_["mean_test_score"][0] < grid.cv_results_["mean_test_score"][1]
    assert MeasureScore("spiegelhalter_z").as_float(-3.0) == -3.0
    assert MeasureScore("spiegelhalter_z").as_float(3.0) == -3.0
