"""Calibration inference (inference/calibration.py): which calibration numbers carry an
interval, the Brier miscalibration's interval, the Wald interval on replicates, the test
of calibration (its size by simulation), and a small run of the calibration study."""

from __future__ import annotations

import importlib.util
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

import measurelab as ml
from measurelab.inference import intervals as iv
from measurelab.inference.calibration import (
    WITHHELD,
    CalibrationTest,
    calibration_test,
    debiased_wald,
    interval_kind,
    replicate_wald,
    withheld_reason,
)
from measurelab.measures.calibration.debiased import estimates
from measurelab.stats.scoretable import ScoreTable

ROOT = Path(__file__).resolve().parents[2]


def _over(q: np.ndarray, k: float) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-k * (np.log(q) - np.log1p(-q))))


def _data(seed: int, n: int, k: float = 1.0):
    rng = np.random.default_rng(seed)
    q = rng.beta(2, 2, n)
    y = rng.random(n) < q
    return y, _over(q, k)


def test_every_calibration_number_has_a_method_or_a_reason():
    calib = ["ece", "smece", "cal", "ici", "e50", "e90", "emax", "spiegelhalter_z",
             "brier_mcb", "brier_dsc", "logloss_mcb", "logloss_dsc", "brier_mcb_insample",
             "brier_dsc_insample", "logloss_mcb_insample", "logloss_dsc_insample"]
    for name in calib:
        kind = interval_kind(name)
        assert kind in ("debiased-wald", "bootstrap-se", "none"), name
        if kind == "none":
            assert withheld_reason(name).startswith("no interval: ")
    assert set(WITHHELD) <= set(ml.registry.names())
    # parametrised and per-class rows follow their measure; other measures are untouched
    assert interval_kind("ece@15") == interval_kind("smece[b]") == "none"
    assert interval_kind("auc") is None and iv.default_method("f1", None) == "dirichlet-posterior"


def test_debiased_wald_is_the_estimate_plus_minus_z_se_cut_at_zero():
    y, p = _data(0, 3000, k=1.5)
    t = ScoreTable.from_arrays(y, p)
    e = estimates(t)
    raw, se = float(e.brier_mcb[0]), math.sqrt(float(e.var[0]))
    z = norm.ppf(0.975)
    r = debiased_wald(t, 0.95)
    assert (r.value, r.lo, r.hi, r.se) == pytest.approx(
        (max(raw, 0), max(raw - z * se, 0), raw + z * se, se), rel=1e-12)
    assert r.lo > 0  # logit × 1.5 on 3,000 cases: clearly miscalibrated
    y, p = _data(1, 3000)
    assert debiased_wald(ScoreTable.from_arrays(y, p), 0.95).lo == 0.0  # calibrated


def test_replicate_wald():
    reps = np.random.default_rng(0).normal(0.3, 0.05, 5000)
    lo, hi, se, p = replicate_wald(0.3, np.append(reps, [np.nan, np.inf]), 0.9)
    assert se == pytest.approx(np.std(reps, ddof=1))
    assert (lo, hi) == pytest.approx((0.3 - norm.ppf(0.95) * se, 0.3 + norm.ppf(0.95) * se))
    assert p == pytest.approx(2 * norm.sf(0.3 / se))
    assert replicate_wald(0.3, reps, 0.9, (0.0, 0.32))[1] == 0.32
    assert all(math.isnan(x) for x in replicate_wald(0.1, np.array([1.0]), 0.9))


def test_paired_rows_reject_exactly_when_the_interval_excludes_zero():
    y, p = _data(2, 2000, k=1.0)
    _, p2 = _data(2, 2000, k=3.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = ml.compare_classifiers(y, {"cal": p, "over": p2},
                                   measures=["brier_mcb", "brier_dsc", "logloss_dsc"],
                                   n_boot=300).tests()
    for r in t.itertuples():
        assert r.method == "bootstrap-se"
        assert (r.p < 0.05) == (r.lo > 0 or r.hi < 0)
    assert t.set_index("measure").loc["brier_mcb", "hi"] < 0  # over is worse


def test_calibration_test_values_and_reproducibility():
    y, p = _data(3, 500)
    a = calibration_test(y, p, n_resamples=199, random_state=5)
    assert a == calibration_test(y, p, n_resamples=199, random_state=5)
    assert isinstance(a, CalibrationTest) and a.method == "consistency resampling"
    assert a.statistic == pytest.approx(float(estimates(ScoreTable.from_arrays(y, p))
                                              .brier_mcb[0]))
    assert 1 / 200 <= a.pvalue <= 1 and a.n_resamples == 199
    s = calibration_test(y, p, method="spiegelhalter")
    ref = ml.metrics.spiegelhalter_test(y, p)
    assert (s.statistic, s.pvalue) == pytest.approx((ref.statistic, ref.pvalue))
    y, over = _data(4, 1000, k=3.0)
    assert calibration_test(y, over, n_resamples=199).pvalue == 1 / 200
    assert calibration_test(y, over, measure="ici", n_resamples=99).pvalue < 0.05
    assert "miscalibrated" in calibration_test(y, over, n_resamples=99).verdict()


@pytest.mark.parametrize("random_state", [0, 11])
def test_one_calibration_p_value_per_model(random_state):
    """calibration_test with its defaults and the comparison's table, sentence and page
    give a model the same p-value for the same random_state: one default number of
    redraws, each model's test seeded as the function seeds it."""
    y, good = _data(5, 400)
    _, over = _data(5, 400, k=1.6)
    cmp = ml.compare_classifiers(y, {"good": good, "over": over}, measures=["brier"],
                                 n_boot=100, random_state=random_state, progress=False)
    table = cmp.calibration().set_index("model")
    for name, p in (("good", good), ("over", over)):
        alone = calibration_test(y, p, random_state=random_state)
        assert table.loc[name, "method"] == alone.method == "consistency resampling"
        assert table.loc[name, "pvalue"] == alone.pvalue, name
        assert alone.n_resamples == 999
        assert f"{name} {alone.verdict()}" in cmp.summary()


def test_calibration_test_holds_its_level():
    # 300 calibrated test sets of 150 cases: the rejection rate at 0.05 stays within
    # three Monte Carlo standard errors of 0.05 (the test is exact up to resampling)
    rng = np.random.default_rng(11)
    rejections = 0
    sims = 300
    for i in range(sims):
        q = rng.beta(0.5, 2, 150)
        y = rng.random(150) < q
        rejections += calibration_test(y, q, n_resamples=99, random_state=i).pvalue < 0.05
    assert rejections / sims <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / sims)


def test_calibration_test_refuses_what_it_cannot_test():
    y, p = _data(5, 50)
    with pytest.raises(ml.MeasurelabError, match="not a calibration error"):
        calibration_test(y, p, measure="auc")
    with pytest.raises(ml.MeasurelabError, match="whole numbers"):
        calibration_test(y, p, sample_weight=np.full(50, 0.5))
    with pytest.raises(ml.MeasurelabError, match=r"probabilities in \[0, 1\]"):
        calibration_test(y, p * 2)
    with pytest.raises(ml.MeasurelabError, match="method"):
        calibration_test(y, p, method="hosmer")


def _study():
    path = ROOT / "benchmarks" / "calibration_study.py"
    spec = importlib.util.spec_from_file_location("calibration_study", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_small_calibration_study(tmp_path):
    study = _study()
    out = tmp_path / "cal.md"
    args = ["--sims", "40", "--test-sims", "20", "--size-sims", "100", "--n", "300",
            "--priors", "balanced",
            "--n-boot", "200", "--n-resamples", "99", "--pop-size", "200000", "--out",
            str(out), "--cache", str(tmp_path / "cache"), "--json",
            str(tmp_path / "s.json"), "--evidence", str(tmp_path / "e.json"),
            "--no-progress"]
    assert study.main(args) == 0
    import json

    s = json.loads((tmp_path / "s.json").read_text())
    cov = {(r["model"], r["measure"]): r["coverage"] for r in s["single"]
           if not r["withheld"]}
    # 40 test sets: a 95% interval's coverage is ≥ 0.8 unless far off (MC SE 0.034)
    assert cov[("calibrated", "brier_mcb")] >= 0.8 and cov[("over", "brier_mcb")] >= 0.8
    assert all(r["withheld"] for r in s["single"] if r["measure"] == "logloss_mcb")
    size = s["size"][0]
    assert size["sims"] == 100 and size["consistency"] <= 0.05 + 3 * 0.0218  # 3 MC SEs
    text = out.read_text()
    assert "## Summary" in text and "Calibration test" in text
    ev = json.loads((tmp_path / "e.json").read_text())
    assert ev["source"] == "calibration" and ev["preliminary"]  # 40 test sets: a check only
    kinds = {(e["measure"], e["kind"]): e["methods"] for e in ev["entries"]}
    assert kinds[("brier_mcb", "single")] == ["debiased-wald"]
    assert kinds[("brier_dsc", "paired")] == ["bootstrap-se"]
    assert ("logloss_mcb", "single") not in kinds
    # resuming from the cache gives the same report
    assert study.main(args) == 0 and out.read_text() == text
