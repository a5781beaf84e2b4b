"""Metric space (normalization, distances, MDS, rank correlation) and selection by measure.

Values are checked against hand computations, scipy and brute force.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import pdist, squareform
from scipy.stats import spearmanr, zscore

from measurelab._validation import MeasurelabError
from measurelab.compare import metric_space as msp
from measurelab.learn.selection import best_model, best_per_group, selection_matrix


# ----------------------------------------------------------------------- normalization
def test_normalize_hand_example() -> None:
    # three models; acc higher-better, rms lower-better, cal against the models' mean
    v = pd.DataFrame({"acc": [0.80, 0.90, 0.60], "rms": [0.30, 0.25, 0.45],
                      "cal": [0.02, 0.05, 0.08]}, index=["a", "b", "c"])
    base = {"acc": 0.70, "rms": 0.40, "cal": 0.0}
    n = msp.normalize_scores(v, base, {"acc": True, "rms": False, "cal": False})
    # acc: (v - 0.7) / (0.9 - 0.7) -> 0.5, 1, -0.5
    np.testing.assert_allclose(n["acc"], [0.5, 1.0, -0.5], atol=1e-12)
    # rms: (v - 0.4) / (0.25 - 0.4) -> 2/3, 1, -1/3
    np.testing.assert_allclose(n["rms"], [2 / 3, 1.0, -1 / 3], atol=1e-12)
    # cal: baseline = mean 0.05, best = min 0.02: (v - 0.05) / (0.02 - 0.05) -> 1, 0, -1
    np.testing.assert_allclose(n["cal"], [1.0, 0.0, -1.0], atol=1e-12)
    drop = msp.below_baseline(n)
    assert drop.tolist() == [False, False, True]
    # CAL alone never drops a model
    assert msp.below_baseline(n[["cal"]]).tolist() == [False, False, False]
    # without the CAL exception, the given baseline is used
    n2 = msp.normalize_scores(v, base, {"acc": True, "rms": False, "cal": False},
                              mean_baseline=())
    # (0.02 - 0) / (0.02 - 0) ...: a baseline better than every model makes worse models
    # score higher, which is why CAL's constant-predictor baseline is not used
    np.testing.assert_allclose(n2["cal"], [1.0, 2.5, 4.0], atol=1e-12)


def test_normalize_degenerate_column_is_nan() -> None:
    v = pd.DataFrame({"acc": [0.7, 0.7]})
    n = msp.normalize_scores(v, {"acc": 0.7}, {"acc": True})
    assert n["acc"].isna().all()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=2, max_size=12), st.floats(0.0, 1.0),
       st.booleans())
def test_normalize_baseline_zero_best_one(vals: list[float], base: float, higher: bool) -> None:
    v = pd.DataFrame({"m": vals})
    top = max(vals) if higher else min(vals)
    if (top - base if higher else base - top) < 1e-6:  # the best model beats the baseline
        return
    n = msp.normalize_scores(v, {"m": base}, {"m": higher})["m"]
    assert n.iloc[int(np.argmax(vals) if higher else np.argmin(vals))] == pytest.approx(1.0)
    # the baseline itself maps to 0, and the map is affine and increasing in goodness
    n_b = msp.normalize_scores(pd.DataFrame({"m": [*vals, base]}), {"m": base},
                               {"m": higher})["m"]
    assert n_b.iloc[-1] == pytest.approx(0.0, abs=1e-12)
    order = np.argsort(np.array(vals) * (1 if higher else -1), kind="stable")
    assert np.all(np.diff(n.to_numpy()[order]) >= -1e-12)


def test_baseline_scores_independent() -> None:
    y = np.array([1] * 30 + [0] * 70)
    spec = {"acc": "acc", "auc": "auc", "rms": "rms", "mxe": "mxe@2", "fsc": "f1"}
    b = msp.baseline_scores(y, spec)
    assert b["acc"] == pytest.approx(0.7)  # everyone scored 0.3 -> all negative
    assert b["auc"] == pytest.approx(0.5)
    assert b["rms"] == pytest.approx(math.sqrt(0.3 * 0.7))
    # cross-entropy of the constant prior (bits per case) is the label entropy
    h = -(0.3 * math.log2(0.3) + 0.7 * math.log2(0.7))
    assert b["mxe"] == pytest.approx(h, rel=1e-9)
    assert msp.directions(spec) == {"acc": True, "auc": True, "rms": False, "mxe": False,
                                    "fsc": True}
    with pytest.raises(MeasurelabError):
        msp.baseline_scores([], spec)


# ----------------------------------------------------------------------- distances, MDS
def test_euclidean_and_standardize_vs_scipy() -> None:
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(5, 7)), index=list("abcde"))
    np.testing.assert_allclose(msp.euclidean_distances(X).to_numpy(),
                               squareform(pdist(X.to_numpy())), atol=1e-12)
    np.testing.assert_allclose(msp.standardize(X).to_numpy(), zscore(X.to_numpy(), axis=0),
                               atol=1e-12)


def test_classical_mds_recovers_planar_distances() -> None:
    rng = np.random.default_rng(1)
    pts = rng.normal(size=(8, 2)) * [3.0, 1.0]
    D = squareform(pdist(pts))
    X = msp.classical_mds(D, 2)
    np.testing.assert_allclose(squareform(pdist(X)), D, atol=1e-9)
    assert msp.kruskal_stress(D, X) < 1e-9
    # 1-D loses information, and SMACOF from there keeps the exact 2-D solution
    assert msp.kruskal_stress(D, msp.classical_mds(D, 1)) > 0.05
    coords, stress = msp.mds(pd.DataFrame(D, index=list("abcdefgh"),
                                          columns=list("abcdefgh")), 2)
    assert list(coords.index) == list("abcdefgh") and stress < 1e-6
    np.testing.assert_allclose(squareform(pdist(coords.to_numpy())), D, atol=1e-5)


def test_kruskal_stress_hand() -> None:
    D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
    X = np.array([[0.0], [1.0], [1.0]])  # embedded distances 1, 1, 0
    # sqrt(((1-1)^2 + (2-1)^2 + (1-0)^2) / (1 + 4 + 1)) = sqrt(2/6)
    assert msp.kruskal_stress(D, X) == pytest.approx(math.sqrt(2 / 6))


def test_stress_decreases_with_dimension() -> None:
    rng = np.random.default_rng(2)
    pts = rng.normal(size=(9, 4))
    s = msp.stress_curve(squareform(pdist(pts)), 5)
    assert list(s.index) == [1, 2, 3, 4, 5]
    assert np.all(np.diff(s.to_numpy()) <= 1e-9)
    assert s[1] > 0.1 and s[4] < 1e-4  # exact in the points' own dimension


def test_mds_deterministic_and_checks_input() -> None:
    rng = np.random.default_rng(3)
    D = squareform(pdist(rng.normal(size=(6, 3))))
    a, sa = msp.mds(D, 2, seed=5)
    b, sb = msp.mds(D, 2, seed=5)
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert sa == sb
    with pytest.raises(MeasurelabError, match="symmetric"):
        msp.mds(np.array([[0.0, 1.0], [2.0, 0.0]]))


# ----------------------------------------------------------------------- rank correlation
def test_rank_correlation_equals_spearmanr_with_ties() -> None:
    rng = np.random.default_rng(4)
    df = pd.DataFrame(np.round(rng.normal(size=(40, 5)), 1), columns=list("vwxyz"))
    df["z"] = -df["v"] + rng.normal(scale=0.1, size=40)
    rc = msp.rank_correlation(df)
    np.testing.assert_allclose(rc.to_numpy(), spearmanr(df.to_numpy()).statistic,
                               atol=1e-12)
    frames = [df, df.iloc[::2], df.iloc[5:]]
    mean = msp.mean_rank_correlation(frames)
    want = np.mean([spearmanr(f.to_numpy()).statistic for f in frames], axis=0)
    np.testing.assert_allclose(mean.to_numpy(), want, atol=1e-12)
    with pytest.raises(MeasurelabError):
        msp.mean_rank_correlation([])


# ----------------------------------------------------------------------- model selection
def test_best_model_ties_and_nan() -> None:
    assert best_model(pd.Series([np.nan, 0.4, 0.4], index=["x", "y", "z"])) == "y"
    assert best_model(pd.Series([0.2, np.nan, 0.1], index=[1, 2, 3]),
                      higher_is_better=False) == 3
    with pytest.raises(MeasurelabError):
        best_model(pd.Series([np.nan, np.nan]))


def test_selection_picks_validation_best_brute_force() -> None:
    rng = np.random.default_rng(5)
    models = [f"m{i}" for i in range(15)]
    valid = pd.DataFrame(rng.random((15, 3)), index=models, columns=["acc", "auc", "rms"])
    test = pd.DataFrame(rng.random((15, 3)), index=models, columns=["acc", "auc", "rms"])
    higher = {"acc": True, "auc": True, "rms": False}
    t = selection_matrix(valid, test.iloc[::-1], higher)  # test rows in another order
    for m in valid.columns:
        vals = valid[m].tolist()
        i = vals.index(max(vals) if higher[m] else min(vals))
        assert t.loc[m, "model"] == models[i]
        for c in test.columns:
            assert t.loc[m, c] == test.loc[models[i], c]
    with pytest.raises(MeasurelabError, match="no test values"):
        selection_matrix(valid, test.iloc[1:], higher)

    groups = pd.Series(["a" if i < 7 else "b" for i in range(15)], index=models)
    g = best_per_group(valid, test, groups, higher)
    for name in ("a", "b"):
        members = [m for m in models if groups[m] == name]
        for c in valid.columns:
            v = valid.loc[members, c]
            pick = v.idxmax() if higher[c] else v.idxmin()
            assert g.loc[name, c] == test.loc[pick, c]
