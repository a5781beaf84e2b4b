"""k-class probability measures, average=None, per_class and the two-column error (issue 9,
docs/METHODS.md#multiclass), against scikit-learn and brute force from the definitions."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

import measurelab as ml
from measurelab import MeasurelabError
from measurelab.measures.base import registry

# Every k-class measure on weighted and small data: some are undefined there (APR and CAL
# on fractional weights) and compared as NaN; scikit-learn's top_k_accuracy_score notes
# that k = number of classes is trivially perfect, which is the case being checked.
pytestmark = [
    pytest.mark.filterwarnings("ignore::measurelab.exceptions.UndefinedMeasureWarning"),
    pytest.mark.filterwarnings("ignore:'k' .* greater than or equal to 'n_classes'"),
]


def _multi(rng, n=700, k=4, *, weighted=False, decimals=1):
    """k-class probabilities with ties across and inside rows (rounded), rows summing to 1."""
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + 1.2 * np.eye(k)[y]
    P = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    P = np.round(P, decimals)
    P[:, -1] = 1.0 - P[:, :-1].sum(axis=1)  # rows sum to 1 up to rounding
    P = np.clip(P, 0.0, 1.0)
    P /= P.sum(axis=1, keepdims=True)
    w = rng.uniform(0.1, 3.0, n) if weighted else None
    return y, P, w


def _ece_brute(y, P, w, n_bins=10):
    w = np.ones(len(y)) if w is None else w
    conf = P.max(axis=1)
    correct = P.argmax(axis=1) == y
    b = np.minimum((conf * n_bins).astype(int), n_bins - 1)
    tot = 0.0
    for i in range(n_bins):
        m = b == i
        if m.any():
            tot += abs(np.sum(w[m] * conf[m]) - np.sum(w[m] * correct[m]))
    return tot / w.sum()


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("k", [3, 5])
def test_k_class_values_against_scikit_learn(rng, weighted, k):
    y, P, w = _multi(rng, k=k, weighted=weighted)
    assert any(len(set(row)) < k for row in P.tolist())  # ties inside rows
    kw = {"sample_weight": w}
    r = ml.evaluate(y, P, sample_weight=w)
    assert r["mxe"] == pytest.approx(skm.log_loss(y, P, **kw), abs=1e-12)
    assert r["brier"] == pytest.approx(skm.brier_score_loss(y, P, **kw), abs=1e-12)
    assert r["rms"] == pytest.approx(np.sqrt(skm.brier_score_loss(y, P, **kw) / k), abs=1e-12)
    assert r["ece"] == pytest.approx(_ece_brute(y, P, w), abs=1e-12)
    if w is None:
        ovo = skm.roc_auc_score(y, P, multi_class="ovo")
    else:  # scikit-learn's ovo takes no weights: its definition, pair by pair, weighted
        ovo = np.mean([(skm.roc_auc_score(y[m] == i, P[m, i], sample_weight=w[m])
                        + skm.roc_auc_score(y[m] == j, P[m, j], sample_weight=w[m])) / 2
                       for i in range(k) for j in range(i + 1, k)
                       for m in [(y == i) | (y == j)]])
    assert r["auc"] == pytest.approx(ovo, abs=1e-12)
    for q in (1, 2, 3):
        got = ml.evaluate(y, P, sample_weight=w, measures=[f"top_k_acc@{q}"])[f"top_k_acc@{q}"]
        assert got == pytest.approx(skm.top_k_accuracy_score(y, P, k=q, **kw), abs=1e-12)
    assert ml.evaluate(y, P, measures=["mxe@2"], sample_weight=w)["mxe@2"] == pytest.approx(
        skm.log_loss(y, P, **kw) / np.log(2), abs=1e-12)
    yb = np.eye(k)[y]
    rw = ml.evaluate(y, P, sample_weight=w, average="weighted", measures=["auc"])
    assert rw["auc"] == pytest.approx(
        skm.roc_auc_score(y, P, multi_class="ovr", average="weighted", **kw), abs=1e-12)
    rm = ml.evaluate(y, P, sample_weight=w, average="micro", measures=["auc", "ap", "f1"])
    assert rm["auc"] == pytest.approx(skm.roc_auc_score(yb, P, average="micro", **kw),
                                      abs=1e-12)
    assert rm["ap"] == pytest.approx(skm.average_precision_score(yb, P, average="micro", **kw),
                                     abs=1e-12)
    pred = P.argmax(axis=1)
    assert rm["f1"] == pytest.approx(skm.f1_score(y, pred, average="micro", **kw), abs=1e-12)
    rn = ml.evaluate(y, P, sample_weight=w, average=None,
                     measures=["prec", "sens", "f1", "auc", "ap", "spec"])
    assert rn.classes == tuple(range(k))
    np.testing.assert_allclose(rn["prec"], skm.precision_score(y, pred, average=None, **kw),
                               atol=1e-12)
    np.testing.assert_allclose(rn["sens"], skm.recall_score(y, pred, average=None, **kw),
                               atol=1e-12)
    np.testing.assert_allclose(rn["f1"], skm.f1_score(y, pred, average=None, **kw), atol=1e-12)
    np.testing.assert_allclose(
        rn["auc"], skm.roc_auc_score(y, P, multi_class="ovr", average=None, **kw), atol=1e-12)
    np.testing.assert_allclose(rn["ap"], skm.average_precision_score(yb, P, average=None, **kw),
                               atol=1e-12)
    mcm = skm.multilabel_confusion_matrix(y, pred, **kw)  # [[tn, fp], [fn, tp]] per class
    np.testing.assert_allclose(rn["spec"], mcm[:, 0, 0] / (mcm[:, 0, 0] + mcm[:, 0, 1]),
                               atol=1e-12)
    for avg in ("macro", "weighted"):
        ra = ml.evaluate(y, P, sample_weight=w, average=avg, measures=["prec", "f1"])
        assert ra["f1"] == pytest.approx(skm.f1_score(y, pred, average=avg, **kw), abs=1e-12)


def test_binary_two_column_probabilities_equal_binary_measures(rng):
    y = rng.integers(0, 2, 300)
    s = np.round(rng.random(300), 1)
    P = np.column_stack([1 - s, s])
    two = ml.evaluate(y, P, measures=["brier", "rms", "mxe"])
    one = ml.evaluate(y, s, measures=["brier", "rms", "mxe"])
    for name in ("brier", "rms", "mxe"):
        assert two[name] == pytest.approx(one[name], abs=1e-12)
    assert two["brier"] == pytest.approx(skm.brier_score_loss(y, P), abs=1e-12)


def test_binary_top_k_against_scikit_learn(rng):
    y = rng.integers(0, 2, 200)
    s = np.round(rng.random(200), 1)
    assert ml.metrics.top_k_acc(y, s) == pytest.approx(skm.top_k_accuracy_score(y, s, k=1),
                                                       abs=1e-12)
    d = s * 4 - 2  # decision scores: scikit-learn's threshold 0 is the threshold here
    assert ml.metrics.top_k_acc(y, d, threshold=0) == pytest.approx(
        skm.top_k_accuracy_score(y, d, k=1), abs=1e-12)
    assert ml.evaluate_counts(tp=3, fp=1, fn=2, tn=4, measures=["top_k_acc"])["top_k_acc"] == 0.7
    labels_only = ml.evaluate([0, 1, 2, 2], [0, 2, 2, 1], measures=["top_k_acc"])
    assert labels_only["top_k_acc"] == 0.5
    assert ml.evaluate(y, s, measures=["top_k_acc@2"])["top_k_acc@2"] == 1.0
    with pytest.raises(MeasurelabError, match=r"k=0\.0 is not valid; expected a positive integer"):
        ml.evaluate(y, s, measures=["top_k_acc@0"])


def test_default_evaluation_keeps_probability_measures(rng):
    y, P, _ = _multi(rng, k=3)
    r = ml.evaluate(y, P)
    assert {"mxe", "brier", "rms", "ece", "top_k_acc", "auc", "ap"} <= set(r)
    Q = P * 3 - 1  # decision scores: probability measures left out, rank measures kept
    r2 = ml.evaluate(y, Q)
    assert "mxe" not in r2 and "auc" in r2
    with pytest.raises(MeasurelabError, match="mxe is a probability measure"):
        ml.evaluate(y, Q, measures=["mxe"])


def test_rows_not_summing_to_one_warn_naming_the_worst_row(rng):
    y, P, _ = _multi(rng, n=50, k=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ml.evaluate(y, P)  # sums to 1 up to rounding: no warning
    Q = P.copy()
    Q[7] *= 0.8
    Q[30] *= 1.1
    with pytest.warns(UserWarning, match=r"2 of 50 probability rows do not sum to 1 .* "
                      r"data row 8, which sums to " + re.escape(repr(float(Q[7].sum())))):
        v = ml.evaluate(y, Q, measures=["mxe"])["mxe"]
    assert v == pytest.approx(-np.mean(np.log(Q[np.arange(50), y])), abs=1e-12)  # as given
    ev = ml.Evaluator(measures=["brier"])  # across chunks the row number is global
    for i in range(0, 50, 16):
        ev.update(y[i:i + 16], Q[i:i + 16])
    with pytest.warns(UserWarning, match="data row 8, which"):
        ev.compute()


def test_two_columns_that_are_not_probabilities_are_an_error(rng):
    y = rng.integers(0, 2, 40)
    S = rng.random((40, 2))  # two models' scores side by side
    with pytest.raises(MeasurelabError, match=r"two columns whose rows do not sum to 1 .*"
                       r"compare_classifiers .*--score-col"):
        ml.evaluate(y, S)
    with pytest.raises(MeasurelabError, match="compare_classifiers"):
        ml.Evaluator().update(y, S)


def test_labels_in_any_order_name_the_columns(rng):
    y, P, _ = _multi(rng, n=200, k=3)
    names = np.array(["b", "c", "a"])
    ys = names[y]  # column 0 is class 'b'
    r = ml.evaluate(ys, P, labels=["b", "c", "a"], average=None, measures=["prec", "mxe"])
    ref = ml.evaluate(y, P, average=None, measures=["prec", "mxe"])
    assert r.classes == ("b", "c", "a")
    np.testing.assert_array_equal(r["prec"], ref["prec"])
    assert r["mxe"] == ref["mxe"]
    assert r.to_dict()["prec"] == {"b": ref["prec"][0], "c": ref["prec"][1],
                                   "a": ref["prec"][2]}


@pytest.mark.parametrize("weighted", [False, True])
def test_chunks_merge_exactly(rng, weighted):
    y, P, _ = _multi(rng, n=600, k=4)
    # dyadic weights add exactly in any order, so weighted merges are exact too
    w = rng.integers(1, 24, 600) / 8 if weighted else None
    whole = ml.evaluate(y, P, sample_weight=w, average=None)
    ev = ml.Evaluator(average=None, labels=[0, 1, 2, 3])
    parts = []
    for i in range(0, 600, 97):
        sw = None if w is None else w[i:i + 97]
        ev.update(y[i:i + 97], P[i:i + 97], sw)
        parts.append(ml.Evaluator(average=None, labels=[0, 1, 2, 3]).update(
            y[i:i + 97], P[i:i + 97], sw))
    tree = parts
    while len(tree) > 1:
        tree = [tree[i].merge(tree[i + 1]) if i + 1 < len(tree) else tree[i]
                for i in range(0, len(tree), 2)]
    for got in (ev.compute(), tree[0].compute()):
        assert set(got) == set(whole)
        for key in whole:
            np.testing.assert_array_equal(got[key], whole[key])


def test_per_class_covers_every_binary_measure(rng):
    y, P, w = _multi(rng, n=300, k=3, weighted=True)
    df = ml.per_class(y, P, sample_weight=w)
    binary = {m.name for m in registry if m.in_default_set} - {"prec", "sens"}
    assert binary <= set(df.columns) and {"precision", "recall", "support"} <= set(df.columns)
    pred = P.argmax(axis=1)
    for i in range(3):
        yi = (y == i).astype(int)
        # rank and probability measures: column i one-vs-rest, as a binary evaluation
        b = ml.evaluate(yi, P[:, i], sample_weight=w,
                        measures=["auc", "ap", "brier", "mxe", "ece", "lift"])
        for name in b:
            assert df.loc[i, name] == pytest.approx(b[name], abs=1e-12)
        # threshold measures: the arg-max prediction one-vs-rest
        c = ml.evaluate(yi, (pred == i).astype(float), sample_weight=w,
                        measures=["acc", "mcc", "youden", "npv", "oarp"])
        for name in c:
            assert df.loc[i, name] == pytest.approx(c[name], abs=1e-12)
    ys, s, _ = y[y < 2], P[y < 2, 1] / (P[y < 2, 0] + P[y < 2, 1]), None
    db = ml.per_class(ys, s)
    assert list(db.index) == [1, 0]
    neg = ml.evaluate(1 - ys, 1 - s, inclusive=True, measures=["auc", "brier", "ap", "prec"])
    for name in ("auc", "brier", "ap"):
        assert db.loc[0, name] == pytest.approx(neg[name], abs=1e-12)
    assert db.loc[0, "precision"] == pytest.approx(neg["prec"], abs=1e-12)
    only = ml.per_class(y, P, measures=["auc", "f_beta@2"])
    assert list(only.columns) == ["auc", "f_beta@2", "support"]


def test_average_is_checked():
    with pytest.raises(MeasurelabError, match="average='mean' is not valid"):
        ml.evaluate([0, 1, 2], np.eye(3), average="mean")


def test_per_class_arrays_from_the_public_functions_and_two_level():
    y = [0, 1, 2, 2]
    P = [[.6, .3, .1], [.2, .5, .3], [.1, .1, .8], [.3, .4, .3]]
    np.testing.assert_array_equal(ml.metrics.prec(y, P, average=None), [1.0, 0.5, 1.0])
    # a whole-task measure stays a number
    assert ml.metrics.mxe(y, P, average=None) == ml.metrics.mxe(y, P)
    with pytest.raises(MeasurelabError, match="not defined for two-level measures"):
        ml.evaluate(y, P, measures=["auc:acc"], average=None)
    r = ml.evaluate(y, P, measures=["auc", "acc"], average=None)
    frame = r.to_frame()
    assert list(frame.index) == ["auc[0]", "auc[1]", "auc[2]", "acc"]
    labels_only = ml.per_class(y, [0, 2, 2, 1])  # predicted labels: count measures only
    assert "auc" not in labels_only and labels_only["precision"].tolist() == [1.0, 0.0, 0.5]


MULTI = [m.name for m in registry if m.supports_multiclass]


@pytest.mark.parametrize("name", MULTI)
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
def test_every_multiclass_measure_merges_exactly_and_ignores_order(name, average):
    """Registry-driven, on k-class data: random splits merged as a tree equal the whole,
    a permutation of the rows changes nothing, values stay in the declared range."""
    rng = np.random.default_rng(11)
    y, P, _ = _multi(rng, n=400, k=4)
    w = rng.integers(1, 6, 400) / 4  # dyadic: weight sums are exact in any order
    whole = ml.evaluate(y, P, sample_weight=w, measures=[name], average=average)[name]
    perm = rng.permutation(400)
    shuffled = ml.evaluate(y[perm], P[perm], sample_weight=w[perm], measures=[name],
                           average=average)[name]
    np.testing.assert_array_equal(shuffled, whole)
    cuts = np.sort(rng.choice(np.arange(1, 400), 5, replace=False))
    parts = [ml.Evaluator(measures=[name], average=average, labels=[0, 1, 2, 3]).update(
        yy, pp, ww) for yy, pp, ww in zip(np.split(y, cuts), np.split(P, cuts),
                                           np.split(w, cuts), strict=True)]
    while len(parts) > 1:
        parts = [parts[i].merge(parts[i + 1]) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    np.testing.assert_array_equal(parts[0].compute()[name], whole)
    lo, hi = registry.get(name).range
    vals = np.atleast_1d(np.asarray(whole, dtype=float))
    assert np.all(np.isnan(vals) | ((vals >= lo) & (vals <= hi)))


def test_per_class_binary_negative_class_regroups_rounded_scores():
    # 1 − 1e-17 and 1 − 0 are the same float: the negative class's table must group them
    y = np.array([1, 0, 1, 0])
    s = np.array([0.0, 1e-17, 0.6, 0.9])
    df = ml.per_class(y, s, measures=["brier", "ece", "cal"])
    assert df.loc[0, "brier"] == pytest.approx(ml.metrics.brier(1 - y, 1 - s), abs=1e-15)
    assert df.loc[0, "cal"] == pytest.approx(ml.metrics.cal(1 - y, 1 - s), abs=1e-15)


def test_declared_ranges_hold_at_the_extremes():
    """All weight on a wrong class: Brier reaches 2, RMS sqrt(2/k); all on the true one: 0."""
    y = np.array([0, 1, 2])
    wrong = np.eye(3)[[1, 2, 0]]
    r = ml.evaluate(y, wrong, measures=["brier", "rms", "ece", "top_k_acc"])
    assert r["brier"] == 2.0 == registry.get("brier").range[1]
    assert r["rms"] == pytest.approx(np.sqrt(2 / 3)) and r["ece"] == 1.0
    assert r["top_k_acc"] == 0.0
    right = ml.evaluate(y, np.eye(3), measures=["brier", "rms", "ece", "mxe"])
    assert right["brier"] == right["rms"] == right["ece"] == 0.0
    assert right["mxe"] == pytest.approx(0.0, abs=1e-15)


def test_binary_average_none_as_scikit_learn(rng):
    y = rng.integers(0, 2, 300)
    s = np.round(rng.random(300), 1)
    w = rng.uniform(0.5, 2, 300)
    pred = (s > 0.5).astype(int)
    r = ml.evaluate(y, s, sample_weight=w, average=None, measures=["prec", "sens", "f1", "auc"])
    assert r.classes == (0, 1)
    kw = {"sample_weight": w, "average": None}
    np.testing.assert_allclose(r["prec"], skm.precision_score(y, pred, **kw), atol=1e-12)
    np.testing.assert_allclose(r["sens"], skm.recall_score(y, pred, **kw), atol=1e-12)
    np.testing.assert_allclose(r["f1"], skm.f1_score(y, pred, **kw), atol=1e-12)
    assert r["auc"] == ml.metrics.auc(y, s, sample_weight=w)  # not per class, as scikit-learn
    yl = np.where(y == 1, "yes", "no")
    rl = ml.evaluate(yl, s, pos_label="yes", average=None, measures=["prec"])
    assert rl.classes == ("no", "yes")
    pl = np.where(pred == 1, "yes", "no")
    np.testing.assert_allclose(rl["prec"], skm.precision_score(yl, pl, average=None),
                               atol=1e-12)


def test_macro_and_weighted_average_the_classes_where_the_value_is_defined():
    """A class no case belongs to (given in ``labels``) has no sensitivity: the macro and
    weighted averages are over the classes that have one (as Hand–Till's M leaves absent
    classes out), computed here by hand from the confusion matrix; a warning says so;
    per-class values keep the NaN; prec (0/0 = 0 by its rule) keeps every class."""
    y = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 0])
    pred = np.array([0, 1, 0, 1, 3, 2, 2, 0, 3, 0])
    P = np.eye(4)[pred] * 0.7 + 0.075
    M = np.zeros((4, 4))
    np.add.at(M, (y, pred), 1)
    support = M.sum(axis=1)
    recall = [M[c, c] / support[c] for c in range(3)]  # class 3 has no case
    spec = [(M.sum() - M[c].sum() - M[:, c].sum() + M[c, c]) / (M.sum() - M[c].sum())
            for c in range(4)]
    with pytest.warns(ml.UndefinedMeasureWarning, match="the macro sens averages the 3 of 4 "
                      "classes where sens is defined"):
        r = ml.evaluate(y, P, labels=[0, 1, 2, 3], measures=["sens", "bacc", "gmean", "prec"])
    assert r["sens"] == pytest.approx(np.mean(recall), rel=1e-15)
    assert r["bacc"] == pytest.approx(np.mean(recall), rel=1e-15)
    assert r["gmean"] == pytest.approx(np.mean([math.sqrt(recall[c] * spec[c])
                                                for c in range(3)]), rel=1e-15)
    prec = [M[c, c] / M[:, c].sum() if M[:, c].sum() else 0.0 for c in range(4)]
    assert r["prec"] == pytest.approx(np.mean(prec), rel=1e-15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ml.UndefinedMeasureWarning)
        w = ml.evaluate(y, P, labels=[0, 1, 2, 3], measures=["sens"], average="weighted")
        per = ml.evaluate(y, P, labels=[0, 1, 2, 3], measures=["sens"], average=None)
    assert w["sens"] == pytest.approx(np.dot(recall, support[:3]) / support[:3].sum(),
                                      rel=1e-15)
    assert np.isnan(per["sens"][3]) and per["sens"][:3].tolist() == pytest.approx(recall)
    # every class present: the plain mean, as scikit-learn's macro recall
    y2, P2, _ = _multi(np.random.default_rng(4), n=300)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ml.UndefinedMeasureWarning)
        got = ml.evaluate(y2, P2, measures=["sens", "bacc"])
    want = skm.recall_score(y2, P2.argmax(axis=1), average="macro")
    assert got["sens"] == pytest.approx(want, rel=1e-15)
    assert got["bacc"] == pytest.approx(skm.balanced_accuracy_score(y2, P2.argmax(axis=1)),
                                        rel=1e-15)


def test_average_rows_and_warn_left_out():
    from measurelab.measures.base import average_rows, average_values, warn_left_out

    v = np.array([[0.2, np.nan, 0.8], [0.5, 0.25, np.nan], [np.nan] * 3])
    s = np.array([[2.0, 0.0, 6.0], [1.0, 3.0, 0.0], [0.0] * 3])
    assert average_rows(v, s, "macro").tolist()[:2] == pytest.approx([0.5, 0.375])
    assert average_rows(v, s, "weighted").tolist()[:2] == pytest.approx(
        [(0.4 + 4.8) / 8, (0.5 + 0.75) / 4])
    assert np.isnan(average_rows(v, s, "macro")[2]) and np.isnan(average_rows(v, s,
                                                                             "weighted")[2])
    for i in range(3):  # one row: the same bits as the block's rows
        for avg in ("macro", "weighted"):
            a, b = average_values(v[i], s[i], avg), average_rows(v, s, avg)[i]
            assert a == b or (np.isnan(a) and np.isnan(b))
    with pytest.warns(ml.UndefinedMeasureWarning, match="averages the 2 of 3 classes"):
        warn_left_out("npv", v[0], "weighted")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_left_out("npv", v[0], None)  # per-class values: nothing left out
        warn_left_out("npv", v[2], "macro")  # nothing defined: NaN, said by the formula
