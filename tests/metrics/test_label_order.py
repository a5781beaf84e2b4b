"""``labels=`` in any order (issue 44): the order given is the order of the confusion matrix
and of every per-class output, in ``evaluate``, ``evaluate(ci=)``, ``compare_classifiers``
and the command line. Checked against the same data with its classes renamed so that the
given order is the sorted one, against scikit-learn with ``labels=``, and against the
sorted order with the per-class outputs permuted."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix, f1_score

import measurelab as ml
from measurelab.cli import main
from measurelab.stats.confusion import MultiCounts, class_indices

ORDER = [2, 0, 3, 1]
#: ``rank[label]``: the position of each label in ORDER (the renaming to sorted labels)
RANK = {lab: i for i, lab in enumerate(ORDER)}
#: the position in sorted order of each entry of ORDER (per-class outputs, permuted)
PERM = [sorted(ORDER).index(v) for v in ORDER]


def _data(seed: int = 0, n: int = 300):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, n)
    pred = np.where(rng.random(n) < 0.55, y, rng.integers(0, 4, n))
    w = rng.uniform(0.2, 3.0, n)
    return y, pred, w


def _renamed(v: np.ndarray) -> np.ndarray:
    return np.array([RANK[x] for x in v.tolist()])


def test_class_indices_follow_the_given_order():
    assert class_indices([2, 0, 3, 1, 1], ORDER).tolist() == [0, 1, 2, 3, 3]
    with pytest.raises(ml.MeasurelabError, match=r"y_pred holds the label 7, which is not "
                                                 r"one of \[2, 0, 3, 1\]"):
        MultiCounts.from_labels([2, 0], [7, 0], labels=ORDER)


@pytest.mark.parametrize("weighted", [False, True])
def test_confusion_matrix_in_the_given_order(weighted):
    y, pred, w = _data()
    w = w if weighted else None
    m = MultiCounts.from_labels(y, pred, labels=ORDER, sample_weight=w).matrix
    want = confusion_matrix(y, pred, labels=ORDER, sample_weight=w)
    np.testing.assert_allclose(m, want, rtol=1e-12)
    sorted_m = MultiCounts.from_labels(y, pred, sample_weight=w).matrix
    np.testing.assert_array_equal(m, sorted_m[np.ix_(PERM, PERM)])


@pytest.mark.parametrize("weighted", [False, True])
def test_evaluate_with_labels_in_any_order(weighted):
    y, pred, w = _data(1)
    w = w if weighted else None
    names = ["acc", "f1", "kappa", "mcc", "jaccard", "kappa_quadratic"]
    given = ml.evaluate(y, pred, labels=ORDER, measures=names, sample_weight=w)
    renamed = ml.evaluate(_renamed(y), _renamed(pred), measures=names, sample_weight=w)
    for k in names:
        assert given[k] == pytest.approx(renamed[k], abs=1e-12), k
    # order-free measures equal the sorted order's; the ordinal one equals scikit-learn's
    plain = ml.evaluate(y, pred, measures=names, sample_weight=w)
    for k in ("acc", "f1", "kappa", "mcc", "jaccard"):
        assert given[k] == pytest.approx(plain[k], abs=1e-12), k
    assert given["kappa_quadratic"] == pytest.approx(cohen_kappa_score(
        y, pred, labels=ORDER, weights="quadratic", sample_weight=w), abs=1e-12)
    # per-class values: in the given order, the sorted order's permuted
    per = ml.evaluate(y, pred, labels=ORDER, measures=["f1", "jaccard"], average=None,
                      sample_weight=w)
    per_sorted = ml.evaluate(y, pred, measures=["f1", "jaccard"], average=None,
                             sample_weight=w)
    assert per.classes == tuple(ORDER)
    np.testing.assert_allclose(per["f1"], f1_score(y, pred, labels=ORDER, average=None,
                                                   sample_weight=w), rtol=1e-12)
    # (weighted: the row and column sums add the same cells in another order)
    np.testing.assert_allclose(per["jaccard"], per_sorted["jaccard"][PERM], rtol=1e-14)


def test_probabilities_with_labels_in_any_order():
    """Columns named by ``labels``: the same columns permuted with their labels give the
    same values, per-class outputs in the given order."""
    rng = np.random.default_rng(2)
    y = rng.integers(0, 4, 200)
    P = rng.dirichlet(np.ones(4), 200) + 0.4 * np.eye(4)[y]
    P /= P.sum(axis=1, keepdims=True)
    names = ["acc", "auc", "brier", "f1", "scott_pi"]
    a = ml.evaluate(y, P, measures=names)
    b = ml.evaluate(y, P[:, ORDER], labels=ORDER, measures=names)
    for k in names:
        assert b[k] == pytest.approx(a[k], abs=1e-12), k
    pa = ml.evaluate(y, P, measures=["sens"], average=None)["sens"]
    pb = ml.evaluate(y, P[:, ORDER], labels=ORDER, measures=["sens"], average=None)["sens"]
    np.testing.assert_array_equal(pb, pa[PERM])


@pytest.mark.parametrize("stratify", [False, True])
def test_intervals_do_not_depend_on_the_order_of_labels(stratify):
    """The bootstrap draws its replicates over the cases in sorted label order, whatever
    order ``labels`` lists the classes in: the same data give the same intervals."""
    y, pred, _ = _data(3, 200)
    names = ["acc", "f1", "kappa", "jaccard"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = ml.evaluate(y, pred, measures=names, ci=0.95, n_boot=200,
                        stratify=stratify).intervals()
        b = ml.evaluate(y, pred, labels=ORDER, measures=names, ci=0.95, n_boot=200,
                        stratify=stratify).intervals()
    pd.testing.assert_frame_equal(a, b)


def test_compare_classifiers_with_labels_in_any_order():
    y, pred, _ = _data(4, 250)
    rng = np.random.default_rng(5)
    other = np.where(rng.random(y.size) < 0.7, y, rng.integers(0, 4, y.size))
    names = ["acc", "f1", "kappa", "kappa_linear"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        given = ml.compare_classifiers(y, {"a": pred, "b": other}, labels=ORDER,
                                       measures=names, n_boot=200)
        renamed = ml.compare_classifiers(_renamed(y), {"a": _renamed(pred),
                                                       "b": _renamed(other)},
                                         measures=names, n_boot=200)
        plain = ml.compare_classifiers(y, {"a": pred, "b": other}, measures=names,
                                       n_boot=200)
    pd.testing.assert_frame_equal(given.values(), renamed.values())
    for model, labs in (("a", pred), ("b", other)):
        assert given.values().loc["kappa_linear", model] == pytest.approx(
            cohen_kappa_score(y, labs, labels=ORDER, weights="linear"), abs=1e-12)
    # the order-free rows and their intervals are those of the sorted order
    order_free = ["acc", "f1", "kappa"]
    pd.testing.assert_frame_equal(given.values().loc[order_free],
                                  plain.values().loc[order_free])
    iv_g, iv_p = given.intervals(), plain.intervals()
    pd.testing.assert_frame_equal(iv_g[iv_g.measure.isin(order_free)].reset_index(drop=True),
                                  iv_p[iv_p.measure.isin(order_free)].reset_index(drop=True))
    # per-class rows name the classes in the given order
    per = ml.compare_classifiers(y, {"a": pred, "b": other}, labels=ORDER, measures=["sens"],
                                 average=None, ci=None)
    assert list(per.values().index) == [f"sens[{c}]" for c in ORDER]


def test_command_line_classes_in_any_order(tmp_path, capsys):
    """``--classes`` names the probability columns in the order given; the per-class JSON
    follows it and the values equal the sorted order's."""
    rng = np.random.default_rng(6)
    y = rng.integers(0, 4, 300)
    P = rng.dirichlet(np.ones(4), 300) + 0.5 * np.eye(4)[y]
    P = np.round(P / P.sum(axis=1, keepdims=True), 3)
    P[:, -1] = 1 - P[:, :-1].sum(axis=1)
    df = pd.DataFrame({"y": y, **{f"p{c}": P[:, c] for c in range(4)}})
    df.to_csv(tmp_path / "a.csv", index=False)
    cols = ",".join(f"p{c}" for c in ORDER)
    names = "acc,f1,kappa_quadratic,jaccard"
    out = {}
    for key, extra in (("given", ["--proba-cols", cols, "--classes", "2,0,3,1"]),
                       ("sorted", ["--proba-cols", "p0,p1,p2,p3", "--classes", "0,1,2,3"])):
        code = main(["evaluate", str(tmp_path / "a.csv"), "--label-col", "y", "--measures",
                     names, "--average", "none", "--json", *extra])
        assert code == 0
        out[key] = json.loads(capsys.readouterr().out)
    assert list(out["given"]["f1"]) == ["2", "0", "3", "1"]
    for c in ("0", "1", "2", "3"):
        assert out["given"]["f1"][c] == pytest.approx(out["sorted"]["f1"][c], abs=1e-12)
    assert out["given"]["acc"] == pytest.approx(out["sorted"]["acc"], abs=1e-12)
    api = ml.evaluate(y, P[:, ORDER], labels=ORDER, measures=["kappa_quadratic"])
    assert out["given"]["kappa_quadratic"] == pytest.approx(api["kappa_quadratic"], abs=1e-12)
    pred = np.array(ORDER)[P[:, ORDER].argmax(axis=1)]
    assert api["kappa_quadratic"] == pytest.approx(cohen_kappa_score(
        y, pred, labels=ORDER, weights="quadratic"), abs=1e-12)
