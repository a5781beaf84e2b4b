"""Monte-Carlo prototype selection against brute-force scoring of the same sampled sets."""

from __future__ import annotations

import numpy as np
import pytest

import measurelab as ml
from measurelab.lab.learn.prototypes import MonteCarloPrototypeSelector, draw_prototype_sets


def _data(seed: int, n: int = 50, k: int = 2):
    rng = np.random.default_rng(seed)
    X = np.round(rng.random((n, 3)), 1)  # coarse grid: distance ties happen
    y = (X[:, 0] + X[:, 1] > 1).astype(int) if k == 2 else (X[:, 0] * k).astype(int) % k
    return X, y


def _brute_scores(X, y, idx, k):
    """Plain loops: nearest prototype by Euclidean distance, class scores 1/d normalised."""
    preds, scores = [], []
    for x in X:
        d = [float(np.sqrt(((x - X[j]) ** 2).sum())) for j in idx]
        dmin = {}
        for dj, j in zip(d, idx, strict=True):
            c = int(y[j])
            dmin[c] = min(dmin.get(c, np.inf), dj)
        if any(v == 0 for v in dmin.values()):
            inv = [1.0 if dmin.get(c, np.inf) == 0 else 0.0 for c in range(k)]
        else:
            inv = [1.0 / dmin[c] if c in dmin else 0.0 for c in range(k)]
        tot = sum(inv)
        scores.append([v / tot for v in inv])
        preds.append(int(np.argmax(scores[-1])))
    return np.array(preds), np.array(scores)


@pytest.mark.parametrize("measure", ["acc", "oarp", "auc", "auc:acc"])
@pytest.mark.parametrize("seed", [0, 1])
def test_best_set_is_the_first_best_by_brute_force(measure, seed):
    X, y = _data(seed)
    sel = MonteCarloPrototypeSelector(n_samples=40, n_prototypes=3, measure=measure,
                                      random_state=seed).fit(X, y)
    values = []
    for idx in sel.sampled_sets_:
        _, S = _brute_scores(X, y, idx, 2)
        values.append(ml.evaluate(y, S[:, 1], measures=[measure])[measure])
    best = max(values)
    assert sel.best_index_ == values.index(best)        # earliest best set
    assert sel.best_score_ == best
    assert [float(v) for v in sel.scores_] == pytest.approx([float(v) for v in values])
    np.testing.assert_array_equal(sel.prototypes_, X[sel.sampled_sets_[sel.best_index_]])


def test_predict_agrees_with_brute_force_nearest_prototype():
    X, y = _data(3, n=60)
    sel = MonteCarloPrototypeSelector(n_samples=30, n_prototypes=4, random_state=2).fit(X, y)
    pred, S = _brute_scores(X, y, sel.sampled_sets_[sel.best_index_], 2)
    np.testing.assert_array_equal(sel.predict(X), pred)
    np.testing.assert_allclose(sel.predict_proba(X), S)
    # scikit-learn's sign convention: > 0 exactly when predicted positive
    np.testing.assert_allclose(sel.decision_function(X), S[:, 1] - S[:, 0])
    np.testing.assert_array_equal(sel.decision_function(X) > 0, pred == 1)
    # the selection measure on training data equals what evaluate gives for the predictions
    assert sel.best_score_ == ml.evaluate(y, (pred == 1).astype(float), measures=["acc"])["acc"]


def test_multiclass_and_string_labels():
    X, y = _data(4, n=60, k=3)
    labels = np.array(["a", "b", "c"])[y]
    sel = MonteCarloPrototypeSelector(n_samples=25, stratified=True, random_state=0)
    sel.fit(X, labels)
    pred, _ = _brute_scores(X, y, sel.sampled_sets_[sel.best_index_], 3)
    np.testing.assert_array_equal(sel.predict(X), np.array(["a", "b", "c"])[pred])
    assert sel.predict_proba(X).shape == (60, 3)
    for row in sel.sampled_sets_:   # stratified: one prototype per class
        assert sorted(y[row].tolist()) == [0, 1, 2]


def test_same_seed_same_result_and_defaults():
    X, y = _data(5)
    a = MonteCarloPrototypeSelector(n_samples=60, measure="oarp", random_state=9).fit(X, y)
    b = MonteCarloPrototypeSelector(n_samples=60, measure="oarp", random_state=9).fit(X, y)
    np.testing.assert_array_equal(a.sampled_sets_, b.sampled_sets_)
    assert a.best_index_ == b.best_index_
    c = MonteCarloPrototypeSelector(random_state=1).fit(X, y)
    assert c.sampled_sets_.shape == (500, 2)       # n = 500, m = number of classes


def test_draw_sets_have_no_repeats():
    sets = draw_prototype_sets(np.arange(10) % 2, 100, 5, rng=np.random.default_rng(0))
    assert all(len(set(r.tolist())) == 5 for r in sets)
