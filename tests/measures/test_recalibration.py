"""The CORP decomposition measures (measures/calibration/corp.py): the hand-computed values
of a six-case example, the PAV against scipy and scikit-learn, and the decomposition against
model-diagnostics' ``decompose`` (skipped where it is not installed)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import measurelab as ml
from measurelab.measures.calibration.corp import decomposition, pav, recalibrate
from measurelab.stats.scoretable import ScoreTable

Y = np.array([0, 0, 0, 1, 1, 1])
P = np.array([0.4, 0.3, 0.2, 0.1, 0.5, 0.9])
NAMES = ["brier_mcb_insample", "brier_dsc_insample", "logloss_mcb_insample", "logloss_dsc_insample"]


def test_reference_values_by_hand():
    # PAV in order of p: y = 1 0 0 0 | 1 1 -> the first four pooled at 1/4, then 1, 1
    t = ScoreTable.from_arrays(Y == 1, P)
    assert recalibrate(t).cep.tolist() == [0.25, 0.25, 0.25, 0.25, 1.0, 1.0]
    b = decomposition(t, "brier")
    s_r = (0.75**2 + 3 * 0.25**2) / 6  # 0.125
    assert b.score == pytest.approx(1.36 / 6, rel=1e-14)
    assert b.mcb == pytest.approx(1.36 / 6 - s_r, rel=1e-14)
    assert b.dsc == pytest.approx(0.25 - s_r, rel=1e-14) and b.unc == 0.25
    assert [round(v, 7) for v in b] == [0.1016667, 0.125, 0.25, 0.2266667]
    lg = decomposition(t, "log")
    s_p = -np.log([0.1, 0.8, 0.7, 0.6, 0.5, 0.9]).sum() / 6
    s_r = -(np.log(0.25) + 3 * np.log(0.75)) / 6
    assert lg.score == pytest.approx(s_p, rel=1e-14)
    assert lg.mcb == pytest.approx(s_p - s_r, rel=1e-14)
    assert lg.dsc == pytest.approx(math.log(2) - s_r, rel=1e-14)
    assert lg.unc == pytest.approx(math.log(2), rel=1e-15)
    assert [round(v, 6) for v in lg] == [0.323733, 0.318257, 0.693147, 0.698623]
    r = ml.evaluate(Y, P, measures=NAMES)
    assert [round(r[n], 6) for n in NAMES] == [0.101667, 0.125, 0.323733, 0.318257]


def _data(seed: int, n: int, grid: int | None, weighted: bool, extremes: bool = True):
    rng = np.random.default_rng(seed)
    p = rng.beta(0.8, 1.2, n)
    y = rng.random(n) < np.clip(p + rng.normal(0, 0.15, n), 0, 1)
    if grid is not None:
        p = np.round(p * grid) / grid
    if not extremes:
        p = np.clip(p, 0.01, 0.99)
    w = rng.uniform(0.2, 3.0, n) if weighted else None
    return y.astype(int), p, w


@pytest.mark.parametrize("seed", range(6))
def test_pav_equals_scipy_and_scikit_learn(seed):
    from scipy.optimize import isotonic_regression
    from sklearn.isotonic import IsotonicRegression

    y, p, w = _data(seed, 300, [None, 10, 40][seed % 3], seed % 2 == 1)
    t = ScoreTable.from_arrays(y == 1, p, w)
    r = recalibrate(t)
    m = t.pos + t.neg
    want = isotonic_regression(t.pos / m, weights=m).x
    np.testing.assert_allclose(r.cep, want, rtol=0, atol=1e-15)
    iso = IsotonicRegression().fit(p, y, sample_weight=w)
    np.testing.assert_allclose(r.cep, iso.predict(t.scores), rtol=0, atol=1e-14)
    # ties pooled: every case at one probability has one recalibrated value
    assert r.cep.size == np.unique(p).size


def test_pav_of_edge_cases():
    assert pav(np.zeros(0), np.zeros(0)).size == 0
    assert pav(np.array([1.0]), np.array([2.0])).tolist() == [0.5]
    assert pav(np.array([2.0, 0.0]), np.array([2.0, 2.0])).tolist() == [0.5, 0.5]
    assert pav(np.array([0.0, 1.0, 2.0]), np.array([1.0, 1.0, 2.0])).tolist() == [0, 1, 1]


@pytest.mark.parametrize("score", ["brier", "log"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("grid", [None, 5, 20])
def test_equals_model_diagnostics(score, weighted, grid):
    md = pytest.importorskip("model_diagnostics.scoring")
    for seed in range(3):
        y, p, w = _data(seed, 400, grid, weighted, extremes=score == "brier")
        want = md.decompose(y, p, weights=w, scoring_function=(
            md.SquaredError() if score == "brier" else md.LogLoss())).row(0, named=True)
        got = decomposition(ScoreTable.from_arrays(y == 1, p, w), score)
        assert got.mcb == pytest.approx(want["miscalibration"], abs=1e-12)
        assert got.dsc == pytest.approx(want["discrimination"], abs=1e-12)
        assert got.unc == pytest.approx(want["uncertainty"], abs=1e-12)
        assert got.score == pytest.approx(want["score"], abs=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_parts_add_up_to_brier_and_mxe(weighted):
    y, p, w = _data(11, 500, 30, weighted)
    r = ml.evaluate(y, p, sample_weight=w, measures=["brier", "mxe", *NAMES])
    t = ScoreTable.from_arrays(y == 1, p, w)
    for score, total, mcb, dsc in (("brier", "brier", "brier_mcb_insample", "brier_dsc_insample"),
                                   ("log", "mxe", "logloss_mcb_insample", "logloss_dsc_insample")):
        d = decomposition(t, score)
        assert r[mcb] == d.mcb and r[dsc] == d.dsc
        assert d.mcb - d.dsc + d.unc == pytest.approx(r[total], abs=1e-13)
        assert d.score == pytest.approx(r[total], abs=1e-13)
        assert d.mcb >= 0 and 0 <= d.dsc <= d.unc


def test_certain_predictions_and_one_class():
    # p = y: nothing to recalibrate, all discrimination
    y = np.array([0, 1, 1, 0, 1])
    r = ml.evaluate(y, y.astype(float), measures=[*NAMES, "mxe"])
    assert r["brier_mcb_insample"] == 0.0 and r["brier_dsc_insample"] == pytest.approx(0.24)
    assert r["logloss_mcb_insample"] == pytest.approx(r["mxe"], abs=1e-15)  # the clipping, ~1e-16
    # one class: no uncertainty, no discrimination
    one = ml.evaluate([1, 1, 1], [0.2, 0.5, 0.9], measures=NAMES)
    assert one["brier_dsc_insample"] == 0.0 and one["logloss_dsc_insample"] == 0.0
    assert one["brier_mcb_insample"] == pytest.approx((0.64 + 0.25 + 0.01) / 3)


def test_no_cases_is_nan_with_a_warning():
    t = ScoreTable(np.array([0.3]), np.array([0.0]), np.array([0.0]))
    with pytest.warns(ml.UndefinedMeasureWarning, match="brier_mcb_insample"):
        assert math.isnan(ml.registry.get("brier_mcb_insample").formula(t))
    with pytest.raises(ml.MeasurelabError, match="score='bits'"):
        decomposition(t, "bits")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert all(math.isnan(v) for v in decomposition(t, "log"))
