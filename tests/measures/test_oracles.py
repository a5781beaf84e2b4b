"""Every measure against an independent route: scikit-learn, PyCM, brute force, identities."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm

import measurelab as ml
from measurelab import BinaryCounts
from tests.conftest import make_binary

CASES = [
    dict(ties=True, weighted=False, labels=(0, 1)),
    dict(ties=True, weighted=True, labels=(0, 1)),
    dict(ties=False, weighted=False, labels=("neg", "pos")),
    dict(ties=True, weighted=True, labels=(2, 1)),  # positive label sorts first
]


def _ev(y, s, w, pos, names, threshold=0.5):
    return ml.evaluate(y, s, measures=names, pos_label=pos, sample_weight=w, threshold=threshold)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("seed", range(4))
def test_against_scikit_learn(case, seed):
    rng = np.random.default_rng(seed)
    y, s, w = make_binary(rng, 400, **case)
    pos = case["labels"][1]
    neg = case["labels"][0]
    pred = np.where(s > 0.5, pos, neg)
    r = _ev(y, s, w, pos, ["acc", "err", "sens", "spec", "prec", "npv", "f1", "f_beta@2",
                           "bacc", "mcc", "kappa", "auc", "ap", "mxe", "brier", "rms"])
    yb = (y == pos).astype(int)
    kw = dict(sample_weight=w)
    assert r["acc"] == pytest.approx(skm.accuracy_score(y, pred, **kw), abs=1e-12)
    assert r["err"] == pytest.approx(1 - skm.accuracy_score(y, pred, **kw), abs=1e-12)
    assert r["sens"] == pytest.approx(skm.recall_score(y, pred, pos_label=pos, **kw), abs=1e-12)
    assert r["spec"] == pytest.approx(skm.recall_score(y, pred, pos_label=neg, **kw), abs=1e-12)
    assert r["prec"] == pytest.approx(
        skm.precision_score(y, pred, pos_label=pos, zero_division=0, **kw), abs=1e-12)
    assert r["npv"] == pytest.approx(
        skm.precision_score(y, pred, pos_label=neg, zero_division=0, **kw), abs=1e-12)
    assert r["f1"] == pytest.approx(skm.f1_score(y, pred, pos_label=pos, **kw), abs=1e-12)
    assert r["f_beta@2"] == pytest.approx(
        skm.fbeta_score(y, pred, beta=2, pos_label=pos, **kw), abs=1e-12)
    assert r["bacc"] == pytest.approx(skm.balanced_accuracy_score(y, pred, **kw), abs=1e-12)
    assert r["mcc"] == pytest.approx(skm.matthews_corrcoef(y, pred, **kw), abs=1e-12)
    assert r["kappa"] == pytest.approx(skm.cohen_kappa_score(y, pred, sample_weight=w), abs=1e-12)
    assert r["auc"] == pytest.approx(skm.roc_auc_score(yb, s, **kw), abs=1e-12)
    assert r["ap"] == pytest.approx(skm.average_precision_score(yb, s, **kw), abs=1e-12)
    assert r["mxe"] == pytest.approx(skm.log_loss(yb, s, **kw), abs=1e-12)
    assert r["brier"] == pytest.approx(skm.brier_score_loss(yb, s, **kw), abs=1e-12)
    assert r["rms"] == pytest.approx(
        math.sqrt(skm.mean_squared_error(yb, s, **kw)), abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_against_pycm(seed):
    import pycm  # a test extra, installed by `make test`

    rng = np.random.default_rng(100 + seed)
    tp, fp, fn, tn = (int(v) for v in rng.integers(1, 60, 4))
    cm = pycm.ConfusionMatrix(matrix={1: {1: tp, 0: fn}, 0: {1: fp, 0: tn}})
    c = BinaryCounts(tp, fp, fn, tn)
    r = ml.evaluate_counts(tp=tp, fp=fp, fn=fn, tn=tn)
    assert r["youden"] == pytest.approx(cm.Y[1], abs=1e-12)
    assert r["lr_pos"] == pytest.approx(cm.PLR[1], rel=1e-12)
    assert r["lr_neg"] == pytest.approx(cm.NLR[1], rel=1e-12)
    # PyCM takes log10; Sokolova (and her Table 5: SVM DP 1.39) the natural log
    assert r["dp"] == pytest.approx(cm.DP[1] * math.log(10), rel=1e-9)
    assert r["op"] == pytest.approx(cm.OP[1], abs=1e-12)
    assert r["gmean"] == pytest.approx(cm.GM[1], abs=1e-12)
    assert r["npv"] == pytest.approx(cm.NPV[1], abs=1e-12)
    assert ml.measures.likelihood_verdict(c, c) == "no verdict"


def _brute_auc(yb, s, w):
    w = np.ones(len(s)) if w is None else w
    P, N = s[yb], s[~yb]
    wp, wn = w[yb], w[~yb]
    gt = (P[:, None] > N[None, :]) + 0.5 * (P[:, None] == N[None, :])
    return float((wp[:, None] * wn[None, :] * gt).sum() / (wp.sum() * wn.sum()))


@pytest.mark.parametrize("case", CASES)
def test_auc_three_routes(case, rng):
    """AUC from mid-ranks == Mann–Whitney U/(n0 n1) == trapezoid == brute force."""
    from scipy.stats import mannwhitneyu, rankdata

    y, s, _ = make_binary(rng, 300, **{**case, "weighted": False})
    yb = y == case["labels"][1]
    a = ml.metrics.auc(y, s, pos_label=case["labels"][1])
    n1, n0 = yb.sum(), (~yb).sum()
    ranks = rankdata(s)
    assert a == pytest.approx((ranks[yb].sum() - n1 * (n1 + 1) / 2) / (n0 * n1), abs=1e-12)
    assert a == pytest.approx(mannwhitneyu(s[yb], s[~yb]).statistic / (n0 * n1), abs=1e-12)
    fpr, tpr, _ = skm.roc_curve(yb, s, drop_intermediate=False)
    assert a == pytest.approx(np.trapezoid(tpr, fpr), abs=1e-12)
    assert a == pytest.approx(_brute_auc(yb, s, None), abs=1e-12)
    yw, sw, ww = make_binary(rng, 120, ties=True, weighted=True)
    assert ml.metrics.auc(yw, sw, sample_weight=ww) == pytest.approx(
        _brute_auc(yw == 1, sw, ww), abs=1e-12)


def _tie_orderings(yb, s):
    """All rankings (decreasing score) consistent with the scores, each equally likely."""
    order = np.argsort(-s, kind="stable")
    groups = [list(g) for _, g in itertools.groupby(order, key=lambda i: s[i])]
    for combo in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield np.array([yb[i] for g in combo for i in g])


def _brute_rank_measures(yb, s, q=0.25):
    """apr, bep and lift averaged over every tie ordering (the definitions, literally)."""
    aprs, beps, lifts = [], [], []
    P, n = yb.sum(), len(yb)
    for lab in _tie_orderings(yb, s):
        cum = np.cumsum(lab)
        ranks = np.flatnonzero(lab) + 1
        aprs.append(np.mean(cum[lab] / ranks))
        beps.append(cum[P - 1] / P)
        k = q * n
        kf = math.floor(k)
        top = (cum[kf - 1] if kf else 0) + (k - kf) * (lab[kf] if kf < n else 0)
        lifts.append(top / P / q)
    return np.mean(aprs), np.mean(beps), np.mean(lifts)


@pytest.mark.parametrize("seed", range(12))
def test_tie_expectations_by_enumeration(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 9))
    yb = rng.random(n) < 0.5
    yb[0], yb[1] = True, False
    s = rng.integers(0, 4, n) / 4.0  # heavy ties
    apr, bep, lift = _brute_rank_measures(yb, s, q=0.5)
    r = ml.evaluate(yb, s, measures=["apr", "bep", "lift@0.5"])
    assert r["apr"] == pytest.approx(apr, abs=1e-12)
    assert r["bep"] == pytest.approx(bep, abs=1e-12)
    assert r["lift@0.5"] == pytest.approx(lift, abs=1e-12)


def test_apr_equals_ap_without_ties(rng):
    y, s, _ = make_binary(rng, 500, ties=False)
    assert ml.metrics.apr(y, s) == pytest.approx(ml.metrics.ap(y, s), abs=1e-12)


def test_apr_large_tie_groups_block_boundaries(rng, monkeypatch):
    """The blocked expansion of tie groups gives the same value for any block size."""
    from measurelab.measures import ranking

    y, s, _ = make_binary(rng, 3000, ties=True)
    ref = ml.metrics.apr(y, s)
    monkeypatch.setattr(ranking, "_BLOCK", 7)
    assert ml.metrics.apr(y, s) == pytest.approx(ref, abs=1e-12)


def _brute_cal(yb, s, window):
    """Sliding windows over the sorted cases; ties in expectation over random orderings
    (docs/METHODS.md#cal-ties), window by window from scipy's hypergeometric pmf."""
    from tests.measures.test_calibration import convolution_oracle

    return convolution_oracle(np.asarray(yb, dtype=int), np.asarray(s), window)


@pytest.mark.parametrize("n,window,ties", [(50, 100, True), (250, 100, True), (400, 100, False),
                                           (300, 7, True), (60, 1, False), (100, 100, True)])
def test_cal_against_sliding_windows(n, window, ties, rng):
    y, s, _ = make_binary(rng, n, ties=ties)
    yb = y == 1
    assert ml.metrics.cal(y, s, window=window) == pytest.approx(_brute_cal(yb, s, window),
                                                                abs=1e-12)


@pytest.mark.parametrize("ties", [True, False])
def test_cal_both_computation_paths_agree(ties, rng, monkeypatch):
    """Closed-form pieces (many ties) and per-case expansion (few ties) give one value."""
    from measurelab.measures.calibration import cal as calibration

    y, s, _ = make_binary(rng, 700, ties=ties)
    monkeypatch.setattr(calibration, "_EXPAND_FACTOR", 0)  # always closed form
    pieces = ml.metrics.cal(y, s)
    monkeypatch.setattr(calibration, "_EXPAND_FACTOR", 10**9)  # always expand
    assert ml.metrics.cal(y, s) == pytest.approx(pieces, abs=1e-12)
    assert pieces == pytest.approx(_brute_cal(y == 1, s, 100), abs=1e-12)


def test_cal_without_ties_is_perf_ca2(rng):
    """No ties: the literal definition with the true labels (perf's CA2)."""
    y, s, _ = make_binary(rng, 350, ties=False)
    order = np.argsort(s)
    ss, yy = s[order], y[order].astype(float)
    ref = np.mean([abs(ss[i:i + 100].mean() - yy[i:i + 100].mean()) for i in range(251)])
    assert ml.metrics.cal(y, s) == pytest.approx(ref, abs=1e-12)


def test_ap11_and_ece_by_definition(rng):
    y, s, _ = make_binary(rng, 400, ties=True)
    yb = y == 1
    prec, rec, _ = skm.precision_recall_curve(yb, s)
    prec, rec = prec[:-1], rec[:-1]  # drop sklearn's (recall 0, precision 1) end point
    ref = np.mean([prec[rec >= r - 1e-12].max() if (rec >= r - 1e-12).any() else 0.0
                   for r in np.linspace(0, 1, 11)])
    assert ml.metrics.ap11(y, s) == pytest.approx(ref, abs=1e-12)
    bins = np.minimum((s * 10).astype(int), 9)
    ref_ece = sum(abs(s[bins == b].sum() - yb[bins == b].sum()) for b in range(10)) / len(s)
    assert ml.metrics.ece(y, s) == pytest.approx(ref_ece, abs=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_sokolova_identities(seed):
    """Sokolova eq. 16–20 and bacc = (youden + 1)/2, on random counts."""
    rng = np.random.default_rng(seed)
    tp, fp, fn, tn = (int(v) for v in rng.integers(1, 500, 4))
    r = ml.evaluate_counts(tp=tp, fp=fp, fn=fn, tn=tn)
    s, p, lp, ln = r["sens"], r["spec"], r["lr_pos"], r["lr_neg"]
    assert s == pytest.approx(lp * (ln - 1) / (ln - lp), rel=1e-9)
    assert p == pytest.approx((1 - lp) / (ln - lp), rel=1e-9)
    assert r["youden"] == pytest.approx((lp - 1) * (1 - ln) / (lp - ln), rel=1e-9, abs=1e-12)
    assert r["dp"] == pytest.approx(math.sqrt(3) / math.pi * math.log(lp / ln), rel=1e-9, abs=1e-12)
    assert r["bacc"] == pytest.approx((r["youden"] + 1) / 2, abs=1e-12)
    assert r["err"] == pytest.approx(1 - r["acc"], abs=1e-12)
    assert r["op"] == pytest.approx(r["acc"] - abs(p - s) / (p + s), abs=1e-12)


def test_multiclass_against_scikit_learn(rng):
    k, n = 4, 600
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + 1.5 * np.eye(k)[y]
    P = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    P = np.round(P, 2)  # ties
    P /= P.sum(axis=1, keepdims=True)
    pred = P.argmax(axis=1)
    r = ml.evaluate(y, P, measures=["acc", "mcc", "kappa", "bacc", "auc", "prec", "sens", "f1"])
    assert r["acc"] == pytest.approx(skm.accuracy_score(y, pred), abs=1e-12)
    assert r["mcc"] == pytest.approx(skm.matthews_corrcoef(y, pred), abs=1e-12)
    assert r["kappa"] == pytest.approx(skm.cohen_kappa_score(y, pred), abs=1e-12)
    assert r["bacc"] == pytest.approx(skm.balanced_accuracy_score(y, pred), abs=1e-12)
    assert r["auc"] == pytest.approx(
        skm.roc_auc_score(y, P, multi_class="ovo", average="macro"), abs=1e-12)
    assert r["prec"] == pytest.approx(skm.precision_score(y, pred, average="macro"), abs=1e-12)
    assert r["sens"] == pytest.approx(skm.recall_score(y, pred, average="macro"), abs=1e-12)
    assert r["f1"] == pytest.approx(skm.f1_score(y, pred, average="macro"), abs=1e-12)
    rw = ml.evaluate(y, P, measures=["auc", "f1", "prec"], average="weighted")
    assert rw["auc"] == pytest.approx(
        skm.roc_auc_score(y, P, multi_class="ovr", average="weighted"), abs=1e-12)
    assert rw["f1"] == pytest.approx(skm.f1_score(y, pred, average="weighted"), abs=1e-12)
    rm = ml.evaluate(y, P, measures=["f1", "prec"], average="micro")
    assert rm["f1"] == pytest.approx(skm.f1_score(y, pred, average="micro"), abs=1e-12)


def test_multiclass_hand_till_by_definition(rng):
    """M = mean over class pairs of (A(i|j) + A(j|i))/2, each a binary AUC on two classes."""
    k, n = 3, 200
    y = rng.integers(0, k, n)
    P = rng.dirichlet(np.ones(k), n)
    pairs = []
    for i, j in itertools.combinations(range(k), 2):
        m = (y == i) | (y == j)
        aij = _brute_auc(y[m] == i, P[m, i], None)
        aji = _brute_auc(y[m] == j, P[m, j], None)
        pairs.append((aij + aji) / 2)
    assert ml.metrics.auc(y, P) == pytest.approx(np.mean(pairs), abs=1e-12)


def test_multiclass_predicted_labels_threshold_measures():
    y = ["a", "b", "c", "c", "b"]
    pred = ["a", "c", "c", "c", "b"]
    r = ml.evaluate(y, pred, measures=["acc", "f1"])
    assert r["acc"] == pytest.approx(0.8)
    assert r["f1"] == pytest.approx(skm.f1_score(y, pred, average="macro"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert set(ml.evaluate(y, pred)) >= {"acc", "kappa", "mcc"}
