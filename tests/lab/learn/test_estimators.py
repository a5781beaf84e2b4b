"""The two learn/ estimators are scikit-learn citizens: check_estimator, clone, CV loops."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.utils.estimator_checks import check_estimator

import measurelab as ml
from measurelab.lab.learn import MonitoredMLPClassifier, MonteCarloPrototypeSelector
from measurelab.metrics.scorers import TWO_LEVEL_STEP

FAST = {
    "mlp": lambda: MonitoredMLPClassifier(look_ahead=10, max_epochs=100, learning_rate=1.0),
    "prototypes": lambda: MonteCarloPrototypeSelector(n_samples=20),
}


@pytest.mark.parametrize("name", list(FAST))
def test_check_estimator_passes(name):
    check_estimator(FAST[name](), on_skip=None)


@pytest.mark.slow
@pytest.mark.parametrize("est", [MonitoredMLPClassifier, MonteCarloPrototypeSelector])
def test_check_estimator_passes_with_defaults(est):
    check_estimator(est(), on_skip=None)


def _data(seed=0, n=90):
    rng = np.random.default_rng(seed)
    X = rng.random((n, 3))
    y = (X[:, 0] + X[:, 1] + 0.3 * rng.normal(size=n) > 1).astype(int)
    return X, y


def test_grid_search_over_mlp_with_two_level_scorer():
    X, y = _data()
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    base = MonitoredMLPClassifier(look_ahead=10, max_epochs=60)
    gs = GridSearchCV(base, {"learning_rate": [0.3, 2.0]}, cv=cv,
                      scoring=ml.make_scorer("auc:acc")).fit(X, y)
    means = gs.cv_results_["mean_test_score"]
    assert np.isfinite(means).all() and gs.best_index_ == int(np.argmax(means))
    # each fold's score is AUC + 2^-26·acc of that fold's network
    for i, lr in enumerate([0.3, 2.0]):
        for k, (tr, te) in enumerate(cv.split(X, y)):
            e = clone(base).set_params(learning_rate=lr).fit(X[tr], y[tr])
            v = ml.evaluate(y[te], e.predict_proba(X[te])[:, 1], measures=["auc"])["auc"]
            a = ml.metrics.acc(y[te], (e.predict(X[te]) == 1).astype(float))
            assert gs.cv_results_[f"split{k}_test_score"][i] == pytest.approx(
                v + TWO_LEVEL_STEP * a, rel=1e-13)
    assert gs.best_estimator_.stop_epoch_ >= 0


def test_prototype_selector_in_cross_val_score_with_oarp():
    X, y = _data(1)
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    sel = MonteCarloPrototypeSelector(n_samples=30, measure="oarp")
    got = cross_val_score(sel, X, y, cv=cv, scoring=ml.make_scorer("oarp"))
    want = []
    for tr, te in cv.split(X, y):
        e = clone(sel).fit(X[tr], y[tr])
        want.append(ml.metrics.oarp(y[te], (e.predict(X[te]) == 1).astype(float)))
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_params_clone_score_and_validation():
    X, y = _data(2)
    clf = MonitoredMLPClassifier("acc", look_ahead=10, max_epochs=50, epsilon=0.0)
    assert clf.get_params()["monitor"] == "acc" and clf.get_params()["epsilon"] == 0.0
    assert repr(clf) == "MonitoredMLPClassifier(epsilon=0.0, look_ahead=10, max_epochs=50, " \
        "monitor='acc')"
    c2 = clone(clf).set_params(look_ahead=5)
    assert c2.look_ahead == 5 and clf.look_ahead == 10
    clf.fit(X, y)
    assert clf.n_features_in_ == 3 and clf.classes_.tolist() == [0, 1]
    assert clf.score(X, y) == ml.metrics.acc(y, (clf.predict(X) == 1).astype(float))
    # binary decision_function: P(pos) − P(neg), positive exactly when predicted positive
    P = clf.predict_proba(X)
    np.testing.assert_array_equal(clf.decision_function(X), P[:, 1] - P[:, 0])
    np.testing.assert_array_equal(clf.decision_function(X) > 0, clf.predict(X) == 1)
    with pytest.raises(ValueError, match="features"):
        clf.predict(X[:, :2])
    with pytest.raises(ValueError, match="one class"):
        MonteCarloPrototypeSelector(n_samples=5).fit(X, np.zeros(len(X)))
