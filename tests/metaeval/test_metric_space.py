"""Metric space tools against hand computations, scipy and scikit-learn; model selection
against brute force; the caruana2004 findings logic on constructed tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr

from measurelab.lab.learn.selection import best_model, best_per_group, selection_matrix
from measurelab.lab.study.zoo import MEASURES
from measurelab.metaeval import metric_space as msp


def test_baseline_of_constant_predictor_by_hand() -> None:
    y = np.array([1] * 30 + [0] * 70)
    b = msp.baseline_scores(y, MEASURES)
    p = 0.3
    assert b["acc"] == pytest.approx(0.7)  # 0.3 is not > 0.5: all negative
    assert b["fsc"] == 0.0
    assert b["auc"] == 0.5
    assert b["lft"] == pytest.approx(1.0)  # all tied: the top quarter holds 25 % of positives
    # expected AP of a random order (Bestgen 2015): (H_N + (P-1)/(N-1) (N - H_N)) / N
    hn = sum(1 / k for k in range(1, 101))
    assert b["apr"] == pytest.approx((hn + 29 / 99 * (100 - hn)) / 100)
    assert b["rms"] == pytest.approx(np.sqrt(p * (1 - p)))
    assert b["mxe"] == pytest.approx(-(p * np.log2(p) + (1 - p) * np.log2(1 - p)))
    assert b["cal"] == pytest.approx(0.0, abs=0.05)  # nearly perfectly calibrated
    assert b["sar"] == pytest.approx((0.7 + 0.5 + 1 - np.sqrt(0.21)) / 3)


def test_normalize_by_hand_both_directions_and_cal_mean() -> None:
    v = pd.DataFrame({"acc": [0.70, 0.80, 0.90], "rms": [0.50, 0.40, 0.30],
                      "cal": [0.10, 0.05, 0.30]}, index=["a", "b", "c"])
    higher = {"acc": True, "rms": False, "cal": False}
    n = msp.normalize_scores(v, {"acc": 0.75, "rms": 0.45, "cal": 0.0}, higher)
    assert np.allclose(n["acc"], [(0.70 - 0.75) / 0.15, 0.05 / 0.15, 1.0])
    assert np.allclose(n["rms"], [(0.50 - 0.45) / (0.30 - 0.45), 0.05 / 0.15, 1.0])
    mean = 0.15
    assert np.allclose(n["cal"], [(0.10 - mean) / (0.05 - mean), 1.0, (0.30 - mean) / -0.10])
    assert msp.below_baseline(n).tolist() == [True, False, False]  # CAL ignored
    assert msp.below_baseline(n, exclude=()).tolist() == [True, False, True]


def test_standardize_and_distances() -> None:
    df = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [2.0, 2.0, 8.0]})
    z = msp.standardize(df)
    assert np.allclose(z.mean(), 0) and np.allclose(z.std(ddof=0), 1)
    pts = pd.DataFrame([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0]], index=["x", "y"])
    assert msp.euclidean_distances(pts).loc["x", "y"] == pytest.approx(3.0)


def test_rank_correlation_equals_scipy_spearman_with_ties() -> None:
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.integers(0, 5, size=(40, 4)), columns=list("abcd")).astype(float)
    rc = msp.rank_correlation(df)
    ref = spearmanr(df.to_numpy()).statistic
    assert np.allclose(rc.to_numpy(), ref)
    two = msp.mean_rank_correlation([df, df.iloc[::-1] * 2, df.iloc[:20]])
    want = (rc.to_numpy() * 2 + msp.rank_correlation(df.iloc[:20]).to_numpy()) / 3
    assert np.allclose(two.to_numpy(), want)


def _dist(X: np.ndarray) -> np.ndarray:
    return np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))


def test_classical_mds_recovers_euclidean_configuration() -> None:
    X = np.random.default_rng(1).normal(size=(7, 2))
    D = _dist(X)
    Y = msp.classical_mds(D, 2)
    assert np.allclose(_dist(Y), D)
    coords, stress = msp.mds(pd.DataFrame(D, index=list("abcdefg"), columns=list("abcdefg")))
    assert list(coords.index) == list("abcdefg")
    assert stress < 1e-4
    assert np.allclose(_dist(coords.to_numpy()), D, atol=1e-3)


def test_mds_stress_matches_sklearn_and_decreases_with_dimensions() -> None:
    from sklearn.manifold import MDS

    X = np.random.default_rng(2).normal(size=(9, 4))
    D = _dist(X)
    curve = msp.stress_curve(D, 5)
    assert (np.diff(curve.to_numpy()) <= 1e-6).all()
    assert curve[4] < 1e-3 and curve[1] > 0.1
    coords, stress = msp.mds(D, 2)
    # our stress-1 of the returned embedding equals sklearn's normalized stress of it
    raw = ((np.triu(D - _dist(coords.to_numpy()), 1)) ** 2).sum()
    assert stress == pytest.approx(np.sqrt(raw / (np.triu(D, 1) ** 2).sum()))
    ref = MDS(n_components=2, metric="precomputed", init="classical_mds",
              normalized_stress=True).fit(D)
    # sklearn's normalized stress is Kruskal's stress-1 of its own embedding; SMACOF from
    # the same start reaches (about) the same minimum
    assert stress == pytest.approx(ref.stress_, abs=0.02)


def test_mds_of_non_euclidean_dissimilarities_is_finite() -> None:
    D = np.array([[0, 1, 1, 3], [1, 0, 1, 1], [1, 1, 0, 1], [3, 1, 1, 0]], float)
    coords, stress = msp.mds(D, 3)
    assert np.isfinite(coords.to_numpy()).all() and 0 <= stress < 1


def test_selection_by_brute_force_and_ties() -> None:
    rng = np.random.default_rng(3)
    idx = [f"m{i}" for i in range(12)]
    valid = pd.DataFrame(rng.integers(0, 4, size=(12, 3)) / 4, index=idx,
                         columns=["acc", "auc", "rms"])
    test = pd.DataFrame(rng.random((12, 3)), index=idx, columns=["acc", "auc", "rms"])
    higher = {"acc": True, "auc": True, "rms": False}
    t = selection_matrix(valid, test, higher)
    for m in valid.columns:
        vals = valid[m].to_numpy()
        target = vals.max() if higher[m] else vals.min()
        first = idx[next(i for i, v in enumerate(vals) if v == target)]
        assert t.loc[m, "model"] == first
        assert t.loc[m, "acc"] == test.loc[first, "acc"]
    assert best_model(pd.Series([np.nan, 0.2, 0.2], index=list("xyz"))) == "y"
    groups = pd.Series(["A"] * 6 + ["B"] * 6, index=idx)
    g = best_per_group(valid, test, groups, higher)
    for name, members in (("A", idx[:6]), ("B", idx[6:])):
        for m in valid.columns:
            chosen = best_model(valid.loc[members, m], higher_is_better=higher[m])
            assert g.loc[name, m] == test.loc[chosen, m]


def test_findings_logic_on_constructed_tables() -> None:
    from measurelab.lab.experiments.caruana2004 import findings

    m = list(MEASURES)
    groups = {"acc": 0, "fsc": 0, "lft": 1, "auc": 1, "apr": 1, "bep": 1, "rms": 2,
              "mxe": 2, "cal": 3, "sar": 4}
    rc = pd.DataFrame(0.5, index=m, columns=m)
    for a in m:
        for b in m:
            if groups[a] == groups[b]:
                rc.loc[a, b] = 0.95
    rc.loc["cal", :] = rc.loc[:, "cal"] = 0.1
    rc.loc["sar", :] = rc.loc[:, "sar"] = 0.8
    for a in m:
        rc.loc[a, a] = 1.0
    rc["mean"] = rc.where(~np.eye(10, dtype=bool)).mean(axis=1)
    algs = ["ann", "svm", "bag-dt", "knn", "bst-dt", "dt", "bst-stmp", "bst-dt+platt"]
    alg = pd.DataFrame(0.0, index=algs, columns=m)
    alg = alg.add(np.linspace(0.8, 0.2, len(algs)), axis=0)  # the paper's order
    alg.loc["bst-dt", ["acc", "fsc", "lft", "auc", "apr", "bep"]] = 0.99
    alg.loc["bst-dt", ["rms", "mxe", "cal"]] = 0.1
    alg.loc["bst-dt+platt", ["rms", "mxe", "cal"]] = 0.9
    alg.loc["ann"] = 0.9
    alg["mean"] = alg[[c for c in m if c != "sar"]].mean(axis=1)
    sel = pd.DataFrame({"mean": np.linspace(0.9, 0.5, 10)}, index=["sar", *m[:-1]])
    f = findings({"rank_correlation": rc, "algorithms": alg, "selection": sel})
    assert f["holds"].all(), f[~f["holds"]]
    rc2 = rc.copy()
    rc2.loc["rms", "mxe"] = rc2.loc["mxe", "rms"] = -0.5
    f2 = findings({"rank_correlation": rc2})
    assert not f2.loc["rms_mxe", "holds"] and f2.loc["rms_mxe", "why"]


def test_directions_refuse_a_measure_with_a_target():
    """The metric space maps best → 1 by a direction; a measure best at a value has none."""
    from measurelab import MeasurelabError
    from measurelab.metaeval.metric_space import directions

    assert directions({"a": "auc", "b": "brier"}) == {"a": True, "b": False}
    with pytest.raises(MeasurelabError, match=r"z: spiegelhalter_z is best closer to 0"):
        directions({"z": "spiegelhalter_z"})
