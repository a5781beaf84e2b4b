"""Huang & Ling's look-ahead stopping rule and the measure-monitored network."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from measurelab.exceptions import MeasurelabError
from measurelab.lab.learn.mlp import MLP, MonitoredMLPClassifier, _targets, train_monitored
from measurelab.lab.learn.stopping import ImprovementStop, improved
from measurelab.measures.twolevel import TwoLevelValue as T


def scripted(values):
    """A monitor that ignores the network and returns the next scripted value."""
    it = iter(values)
    return lambda y_true, scores: next(it)


def _data(seed: int = 0, n: int = 60, k: int = 2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.random((n, 3))
    y = (X[:, 0] * k).astype(int) if k > 2 else (X[:, 0] + 0.3 * X[:, 1] > 0.6).astype(int)
    return X, y


@pytest.mark.parametrize(
    "values, stop_round, best_round",
    [
        ([0.5, 0.6, 0.65, 0.655], 3, 2),        # third look-ahead gains only 0.005
        ([0.5, 0.505], 1, 0),                    # no gain at all: the initial weights
        ([0.5, 0.6, 0.55], 2, 1),                # f falls: stop, keep round 1
        ([0.2, 0.4, 0.6, 0.8, 0.9, 0.905], 5, 4),  # four gains, then 0.005
    ],
)
def test_scripted_values_stop_at_the_right_round(values, stop_round, best_round):
    rule = ImprovementStop(epsilon=0.01)
    rule.start(values[0])
    went_on = [rule.update(v) for v in values[1:]]
    assert went_on == [True] * (stop_round - 1) + [False]
    assert rule.best_round == best_round
    assert rule.best_value == values[best_round]


def test_epsilon_is_strict_and_nan_never_improves():
    assert not improved(0.5, 0.5 + 0.01 - 1e-12)
    assert improved(0.5, 0.52)
    assert not improved(0.5, float("nan"))
    assert not improved(float("nan"), 0.9)


def test_two_level_rules():
    # lexicographic: f ties exactly and g improves by > ε
    assert improved(T(1.0, 0.90), T(1.0, 0.95))
    # f ties, g improves by less than ε
    assert not improved(T(1.0, 0.90), T(1.0, 0.905))
    # f improves by > ε, g falls
    assert improved(T(0.80, 0.90), T(0.85, 0.10))
    # f improves by less than ε (not a tie): no, however much g improves
    assert not improved(T(0.80, 0.10), T(0.805, 0.99))
    # f falls: no
    assert not improved(T(0.80, 0.10), T(0.79, 0.99))
    # display rule: 0.80 + 0.001 → 0.805 + 0.0099 = +0.0139 > ε
    assert improved(T(0.80, 0.10), T(0.805, 0.99), rule="display")
    with pytest.raises(MeasurelabError):
        improved(T(0.8, 0.1), 0.9)


def test_rule_consistent_with_brute_force_over_a_grid():
    grid = [0.0, 0.004, 0.01, 0.011, 0.02]
    for a1, a2, b1, b2 in itertools.product(grid, repeat=4):
        lex = improved(T(a1, a2), T(b1, b2))
        expected = (b1 - a1 > 0.01) or (b1 == a1 and b2 - a2 > 0.01)
        assert lex == expected


def test_training_stops_at_scripted_epoch_and_returns_those_weights():
    X, y = _data()
    script = iter([0.50, 0.60, 0.70, 0.705, 0.99, 0.99])
    calls = []

    def monitor(y_true, scores):
        calls.append(scores.copy())
        return next(script)

    res = train_monitored(X, y, {"scripted": monitor}, look_ahead=7, max_epochs=100,
                          random_state=3)
    # rounds: 0 (0.50), 7 (0.60 keep), 14 (0.70 keep), 21 (0.705 stop) → weights at 14
    assert res.stop_epoch["scripted"] == 14
    assert res.check_epochs == [0, 7, 14, 21]
    assert len(calls) == 4
    # independent route: a fresh network with the same seed trained 14 epochs directly
    rng = np.random.default_rng(3)
    net = MLP(3, (3 + 1) // 2, 1, random_state=rng)
    net.train_epochs(X, _targets(y, 2), 14)
    w1, w2 = res.weights["scripted"]
    np.testing.assert_array_equal(w1, net.W1)
    np.testing.assert_array_equal(w2, net.W2)


def test_several_monitors_share_one_trajectory():
    X, y = _data(1)
    res = train_monitored(X, y, {
        "early": scripted([0.1, 0.105]),
        "late": scripted([0.1, 0.2, 0.3, 0.3]),
    }, look_ahead=5, max_epochs=100)
    assert res.stop_epoch == {"early": 0, "late": 10}
    alone = train_monitored(X, y, {"late": scripted([0.1, 0.2, 0.3, 0.3])},
                            look_ahead=5, max_epochs=100)
    for a, b in zip(res.weights["late"], alone.weights["late"], strict=True):
        np.testing.assert_array_equal(a, b)


def test_max_epochs_keeps_last_improved_weights():
    X, y = _data(2)
    res = train_monitored(X, y, {"up": scripted(itertools.count())},
                          look_ahead=10, max_epochs=30)
    assert res.stop_epoch["up"] == 30 and res.hit_max_epochs["up"]


def test_same_seed_same_network_and_real_measures():
    X, y = _data(4, n=80)
    a = train_monitored(X, y, ["auc:acc", "auc", "acc"], look_ahead=20, max_epochs=200)
    b = train_monitored(X, y, ["auc:acc", "auc", "acc"], look_ahead=20, max_epochs=200)
    assert a.stop_epoch == b.stop_epoch
    for m in a.weights:
        np.testing.assert_array_equal(a.weights[m][0], b.weights[m][0])
    # the history of auc:acc holds exactly (auc, acc) of the two single monitors
    for h2, ha, hc in zip(a.history["auc:acc"], a.history["auc"], a.history["acc"],
                          strict=False):
        assert (h2.first, h2.second) == (ha, hc)


def test_multiclass_and_validation_monitoring():
    X, y = _data(5, n=90, k=3)
    res = train_monitored(X, y, ["auc", "acc"], n_classes=3, look_ahead=20, max_epochs=200,
                          monitor_on="validation")
    assert set(res.stop_epoch) == {"auc", "acc"}
    clf = MonitoredMLPClassifier("acc", look_ahead=20, max_epochs=200, learning_rate=1.0)
    clf.fit(X, np.array(["a", "b", "c"])[y])
    P = clf.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert set(clf.predict(X)) <= {"a", "b", "c"}


def test_bad_options():
    X, y = _data()
    with pytest.raises(MeasurelabError):
        train_monitored(X, y, ["acc"], monitor_on="test")
    with pytest.raises(MeasurelabError):
        ImprovementStop(rule="best")
