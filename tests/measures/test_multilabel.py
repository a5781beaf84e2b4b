"""Multi-label measures equal scikit-learn's (ties, weights, empty label sets, every
average) and the multi-label summary merges exactly (merge of parts == the whole)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import metrics as skm

from measurelab.exceptions import MeasurelabError
from measurelab.measures.multilabel import (
    compute_multilabel,
    ml_measure,
    resolve_ml,
)
from measurelab.stats.multilabel import MultiLabelStats, ranking_terms

AVERAGES = ["micro", "macro", "weighted", "samples", None]


def data(seed: int, n: int = 60, L: int = 5, weighted: bool = False, ties: bool = True):
    rng = np.random.default_rng(seed)
    Y = rng.random((n, L)) < rng.uniform(0.2, 0.6, L)
    Y[:3] = False                     # empty true label sets
    Y[3] = True                       # a full one
    S = np.clip(0.35 * Y + rng.random((n, L)) * 0.75, 0, 1)
    if ties:
        S = np.round(S * 8) / 8       # many tied scores, some exactly at 0.5
    S[5] = 0.25                       # a case with all labels tied
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    return Y, S, w


def ours(Y, S, w, name, average):
    st = MultiLabelStats.from_arrays(Y, S, w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compute_multilabel(st, [name], average=average)[name]


def close(a, b):
    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), rtol=0,
                               atol=1e-12, equal_nan=True)


SK_COUNTS = {
    "prec": (skm.precision_score, {"zero_division": 0}),
    "sens": (skm.recall_score, {"zero_division": np.nan}),
    "f1": (skm.f1_score, {"zero_division": 0}),
}


def sk_jaccard(Y, P, average, w):
    """scikit-learn's jaccard_score with the binary jaccard's rule: the index of two empty
    sets is undefined and left out (scikit-learn's zero_division takes only 0 or 1)."""
    if average == "samples":       # leave out the cases with neither a true nor a predicted
        keep = (Y | P.astype(bool)).any(axis=1)
        return skm.jaccard_score(Y[keep], P[keep], average="samples",
                                 sample_weight=None if w is None else w[keep])
    per = skm.jaccard_score(Y, P, average=None, sample_weight=w, zero_division=0)
    per = np.where((Y | P.astype(bool)).any(axis=0), per, np.nan)
    if average is None:
        return per
    if average == "macro":
        return np.nanmean(per)
    return skm.jaccard_score(Y, P, average=average, sample_weight=w, zero_division=0)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("name", ["prec", "sens", "f1", "jaccard", "f_beta@2"])
def test_count_measures_equal_sklearn(seed, weighted, average, name):
    Y, S, w = data(seed, weighted=weighted)
    P = (S > 0.5).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "f_beta@2":
            want = skm.fbeta_score(Y, P, beta=2, average=average, sample_weight=w,
                                   zero_division=0)
        elif name == "jaccard":
            want = sk_jaccard(Y.astype(int), P, average, w)
        else:
            f, kw = SK_COUNTS[name]
            want = f(Y.astype(int), P, average=average, sample_weight=w, **kw)
    close(ours(Y, S, w, name, average), want)


@pytest.mark.parametrize("weighted", [False, True])
def test_instance_measures_equal_sklearn(weighted):
    Y, S, w = data(3, weighted=weighted)
    P = (S > 0.5).astype(int)
    Yi = Y.astype(int)
    close(ours(Y, S, w, "hamming_loss", "macro"), skm.hamming_loss(Yi, P, sample_weight=w))
    close(ours(Y, S, w, "subset_acc", "macro"), skm.accuracy_score(Yi, P, sample_weight=w))
    close(ours(Y, S, w, "lrap", "macro"),
          skm.label_ranking_average_precision_score(Yi, S, sample_weight=w))
    close(ours(Y, S, w, "coverage_error", "macro"), skm.coverage_error(Yi, S, sample_weight=w))
    close(ours(Y, S, w, "ranking_loss", "macro"),
          skm.label_ranking_loss(Yi, S, sample_weight=w))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", None])
def test_acc_per_label_equals_sklearn_accuracy_of_each_column(weighted, average):
    Y, S, w = data(4, weighted=weighted)
    P = S > 0.5
    per = np.array([skm.accuracy_score(Y[:, j], P[:, j], sample_weight=w)
                    for j in range(Y.shape[1])])
    sup = np.array([np.sum(Y[:, j] * (1 if w is None else w)) for j in range(Y.shape[1])])
    want = {None: per, "macro": per.mean(), "weighted": np.average(per, weights=sup),
            "micro": 1 - skm.hamming_loss(Y, P, sample_weight=w)}[average]
    close(ours(Y, S, w, "acc", average), want)
    # hamming_loss per label: each label's error rate
    close(ours(Y, S, w, "hamming_loss", None), 1 - per)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("name", ["auc", "ap"])
def test_rank_measures_equal_sklearn(seed, weighted, average, name):
    Y, S, w = data(seed, weighted=weighted)
    if average == "samples":
        # scikit-learn's AUC of a case is undefined (NaN for the whole average) without
        # both kinds of label, and its AP is 0 without a true label; ours leaves such cases
        # out (NaN, as any undefined value): compare on the cases where both define it
        keep = Y.any(axis=1) & ~Y.all(axis=1)
        Y, S = Y[keep], S[keep]
        w = None if w is None else w[keep]
    f = skm.roc_auc_score if name == "auc" else skm.average_precision_score
    close(ours(Y, S, w, name, average), f(Y.astype(int), S, average=average,
                                          sample_weight=w))


def test_jaccard_of_two_empty_sets_is_undefined():
    Y, S, _ = data(9)
    Y[:, 2] = False
    S[:, 2] = 0.0                        # label 2: never true, never predicted
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per = ours(Y, S, None, "jaccard", None)
        assert np.isnan(per[2])
        close(ours(Y, S, None, "jaccard", "macro"), np.mean(per[[0, 1, 3, 4]]))


def test_undefined_label_is_nan_and_left_out_of_the_average():
    Y, S, _ = data(5)
    Y[:, 2] = False                      # a label with no true case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per = ours(Y, S, None, "auc", None)
        assert np.isnan(per[2]) and np.isfinite(per[[0, 1, 3, 4]]).all()
        close(ours(Y, S, None, "auc", "macro"), np.mean(per[[0, 1, 3, 4]]))
        close(ours(Y, S, None, "sens", None),
              skm.recall_score(Y, S > 0.5, average=None, zero_division=np.nan))
        close(ours(Y, S, None, "sens", "macro"),
              skm.recall_score(Y, S > 0.5, average="macro", zero_division=np.nan))


def test_ranking_terms_by_brute_force():
    rng = np.random.default_rng(7)
    Y = rng.random((40, 6)) < 0.4
    S = np.round(rng.random((40, 6)) * 4) / 4
    got = ranking_terms(Y, S)
    for i in range(40):
        y, s = Y[i], S[i]
        t, f = np.flatnonzero(y), np.flatnonzero(~y)
        r = [(s >= s[j]).sum() for j in t]
        assert got[i, 1] == (max(r) if t.size else 0)
        pairs = [(a, b) for a in t for b in f]
        if pairs:
            assert got[i, 2] == pytest.approx(np.mean([s[b] >= s[a] for a, b in pairs]))
            auc = np.mean([(s[a] > s[b]) + 0.5 * (s[a] == s[b]) for a, b in pairs])
            assert got[i, 3] == pytest.approx(auc)
        else:
            assert got[i, 2] == 0 and got[i, 3] == -1
        if t.size:
            assert got[i, 4] == pytest.approx(skm.average_precision_score(y, s))


@pytest.mark.parametrize("cut", [1, 17, 59])
def test_merge_of_parts_equals_the_whole(cut):
    Y, S, w = data(6, weighted=True)
    whole = MultiLabelStats.from_arrays(Y, S, w)
    a = MultiLabelStats.from_arrays(Y[:cut], S[:cut], w[:cut])
    b = MultiLabelStats.from_arrays(Y[cut:], S[cut:], w[cut:])
    assert a + b == whole and b + a == whole
    names = [m.name for m in resolve_ml(None)]
    for avg in AVERAGES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = compute_multilabel(a + b, names, average=avg)
            y = compute_multilabel(whole, names, average=avg)
        for k in names:
            np.testing.assert_array_equal(x[k], y[k])


def test_thresholds_per_label():
    Y, S, _ = data(8)
    thr = np.array([0.3, 0.5, 0.6, 0.2, 0.7])
    st = MultiLabelStats.from_arrays(Y, S, thresholds=thr)
    got = compute_multilabel(st, ["f1"], average=None)["f1"]
    close(got, skm.f1_score(Y, S > thr, average=None, zero_division=0))


def test_unknown_measure_names_the_known_ones():
    with pytest.raises(MeasurelabError, match=r"not a multi-label measure.*hamming_loss"):
        ml_measure("brier")
