"""One vocabulary for test results (scipy's): ``statistic``, ``pvalue`` and
``confidence_interval(confidence_level)`` returning ``ConfidenceInterval(low, high)``;
results are named tuples that unpack; every level is ``confidence_level``. Values are checked
against scipy and against each result's own interval at the level it was run with."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import measurelab as ml
from measurelab.exceptions import MeasurelabError
from measurelab.inference import (
    CalibrationTest,
    ConfidenceInterval,
    CVTestResult,
    NestedCVResult,
    RankTestResult,
    TTestResult,
    WilcoxonResult,
    ZTestResult,
    combined_f_5x2cv,
    corrected_t,
    delong_paired,
    demsar,
    mcnemar_interval,
    paired_t_5x2cv,
    paired_ttest,
    proportion_interval,
    wilcoxon_signed_rank,
)
from measurelab.metrics import SpiegelhalterTest, spiegelhalter_test

RNG = np.random.default_rng(29)
A = RNG.normal(0.80, 0.03, 12)
B = A - RNG.normal(0.01, 0.02, 12)
D5x2 = RNG.normal(0.01, 0.02, (5, 2))


@pytest.mark.parametrize("cls", [TTestResult, WilcoxonResult, CVTestResult, NestedCVResult,
                                 CalibrationTest, SpiegelhalterTest, RankTestResult,
                                 ZTestResult])
def test_every_test_result_speaks_scipys_words(cls):
    for name in ("statistic", "pvalue", "confidence_interval"):
        assert hasattr(cls, name) or name in getattr(cls, "_fields", ()) or \
            name in getattr(cls, "__dataclass_fields__", {}), (cls.__name__, name)


@pytest.mark.parametrize("level", [0.8, 0.9, 0.95, 0.99])
def test_paired_ttest_interval_is_scipys(level):
    ours = paired_ttest(A, B).confidence_interval(confidence_level=level)
    ref = stats.ttest_rel(A, B).confidence_interval(confidence_level=level)
    assert isinstance(ours, ConfidenceInterval)
    assert ours == pytest.approx((ref.low, ref.high), rel=1e-12)


def test_corrected_ttest_interval_inverts_its_test():
    # the interval at level 1 - p just touches 0: the test and the interval are one
    r = paired_ttest(A, B, corrected=True, test_train_ratio=1 / 4)
    lo, hi = r.confidence_interval(1 - r.pvalue)
    assert min(abs(lo), abs(hi)) == pytest.approx(0.0, abs=1e-12)


def test_equal_differences_give_the_point():
    r = paired_ttest([1.0, 2.0, 3.0], [0.5, 1.5, 2.5])
    assert r.confidence_interval() == (0.5, 0.5)


def test_a_result_built_without_its_se_says_why():
    r = TTestResult(1.0, 0.3, 4, 0.1, "draw")  # as code built it before se was kept
    with pytest.raises(MeasurelabError, match="standard error is undefined"):
        r.confidence_interval()


@pytest.mark.parametrize("level", [0.9, 0.95])
def test_cv_intervals_at_the_run_level_are_lo_hi(level):
    for r in (corrected_t(A - B, test_train_ratio=1 / 9, ci=level),
              paired_t_5x2cv(D5x2, ci=level)):
        assert tuple(r.confidence_interval(level)) == pytest.approx((r.lo, r.hi), rel=1e-12)
    # another level from scratch: estimate ± t·se
    r = corrected_t(A - B, test_train_ratio=1 / 9)
    q = stats.t.ppf(0.975 if level == 0.95 else 0.95, r.df)
    assert tuple(r.confidence_interval(level)) == pytest.approx(
        (r.estimate - q * r.se, r.estimate + q * r.se), rel=1e-12)


def test_combined_f_and_rank_tests_refuse_in_one_line():
    with pytest.raises(MeasurelabError, match=r"^CVTestResult.confidence_interval: .*ten "):
        combined_f_5x2cv(D5x2).confidence_interval()
    with pytest.raises(MeasurelabError, match=r"WilcoxonResult\.confidence_interval"):
        wilcoxon_signed_rank(A, B).confidence_interval()


def test_nested_cv_statistic_and_interval():
    r = NestedCVResult(0.1, 0.0, 0.2, 0.05, 0.05, 1.0, 0.0, 0.1, 0.0, 0.2, 0.0)
    assert r.statistic == pytest.approx(2.0)
    assert 2 * stats.norm.sf(r.statistic) == pytest.approx(0.0455, abs=1e-4)
    z = stats.norm.ppf(0.95)
    assert tuple(r.confidence_interval(0.9)) == pytest.approx((0.1 - z * 0.05,
                                                               0.1 + z * 0.05))


def test_delong_paired_is_a_named_result_that_unpacks():
    auc = np.array([0.8, 0.7])
    cov = np.array([[0.01, 0.005], [0.005, 0.01]])
    r = delong_paired(auc, cov, 0, 1, 0.9)
    diff, lo, hi, se, z, p = r  # unpacks as a 6-tuple
    assert isinstance(r, ZTestResult) and (r.statistic, r.pvalue) == (z, p)
    assert se == pytest.approx(math.sqrt(0.01 + 0.01 - 2 * 0.005))
    assert p == pytest.approx(2 * stats.norm.sf(abs(diff) / se))
    assert tuple(r.confidence_interval(0.9)) == pytest.approx((lo, hi), rel=1e-12)


def test_proportion_intervals_are_named_and_unpack():
    ci = proportion_interval(8, 10, 0.95, "clopper-pearson")
    lo, hi = ci
    ref = stats.binomtest(8, 10).proportion_ci(0.95, method="exact")
    assert isinstance(ci, ConfidenceInterval) and (ci.low, ci.high) == (lo, hi)
    assert (lo, hi) == pytest.approx((ref.low, ref.high), rel=1e-12)
    m = mcnemar_interval(12, 3, 100)
    assert isinstance(m, ConfidenceInterval) and m.low < m.high


def test_demsar_exposes_its_two_tests():
    rng = np.random.default_rng(3)
    t = pd.DataFrame(rng.random((8, 4)), columns=list("abcd"))
    r = demsar(t)
    sp = stats.friedmanchisquare(*[t[c] for c in t])
    assert r.friedman.statistic == pytest.approx(sp.statistic, rel=1e-12)
    assert r.friedman.pvalue == pytest.approx(sp.pvalue, rel=1e-10)
    k, n = 4, 8
    ff = (n - 1) * sp.statistic / (n * (k - 1) - sp.statistic)
    assert r.iman_davenport.statistic == pytest.approx(ff, rel=1e-12)
    assert r.iman_davenport.df == (k - 1, (k - 1) * (n - 1))
    with pytest.raises(MeasurelabError, match=r"RankTestResult\.confidence_interval"):
        r.friedman.confidence_interval()


def test_spiegelhalter_speaks_the_vocabulary_and_keeps_its_file_keys():
    y = RNG.random(300) < 0.4
    p = np.clip(0.4 + RNG.normal(0, 0.1, 300), 0.01, 0.99)
    s = spiegelhalter_test(y, p)
    assert s.pvalue == pytest.approx(2 * stats.norm.sf(abs(s.statistic)), rel=1e-12)
    assert s.to_dict() == {"z": s.statistic, "p_value": s.pvalue}
    with pytest.raises(MeasurelabError, match=r"SpiegelhalterTest\.confidence_interval"):
        s.confidence_interval()


def test_calibration_test_refuses_an_interval():
    r = CalibrationTest(0.001, 0.4, "consistency resampling", "brier_mcb", 999)
    with pytest.raises(MeasurelabError, match=r"CalibrationTest\.confidence_interval"):
        r.confidence_interval(0.9)


def test_bad_level_is_one_message():
    with pytest.raises(MeasurelabError, match=r"confidence_level must be in \(0, 1\)"):
        paired_ttest(A, B).confidence_interval(confidence_level=95)


def test_bayes_comparison_is_not_a_test():
    assert "Not a test" in ml.inference.BayesComparison.__doc__
    assert not hasattr(ml.inference.BayesComparison, "pvalue")


@pytest.mark.parametrize("call", [
    lambda **kw: proportion_interval(8, 10, **kw),
    lambda **kw: mcnemar_interval(12, 3, 100, **kw),
    lambda **kw: ml.inference.tango_interval(12, 3, 100, **kw),
    lambda **kw: delong_paired(np.array([0.8, 0.7]),
                               np.array([[0.01, 0.005], [0.005, 0.01]]), 0, 1, **kw),
])
def test_interval_functions_take_confidence_level(call):
    assert tuple(call(confidence_level=0.9)) != tuple(call()) == tuple(
        call(confidence_level=0.95))
    with pytest.raises(TypeError):
        call(level=0.9)


def test_net_benefit_intervals_take_confidence_level():
    from measurelab.inference.classifiers.net_benefit import (
        net_benefit_difference_interval,
        net_benefit_interval,
    )

    y = np.array([0, 0, 1, 1, 0, 1, 1, 0])
    a = np.array([0.1, 0.3, 0.7, 0.8, 0.4, 0.6, 0.9, 0.2])
    for f, args in ((net_benefit_interval, (y, a, [0.3])),
                    (net_benefit_difference_interval, (y, a, a[::-1], [0.3]))):
        narrow, wide = f(*args, confidence_level=0.8), f(*args)
        assert np.all(wide["lo"] < narrow["lo"]) and np.all(narrow["hi"] < wide["hi"])


def test_curve_bands_take_confidence_level():
    from measurelab.curves import decision_curve_bands, reliability_diagram

    y = (RNG.random(200) < 0.5).astype(int)
    p = np.clip(0.5 + (y - 0.5) * 0.3 + RNG.normal(0, 0.1, 200), 0, 1)
    narrow = reliability_diagram(y, p, confidence_level=0.5, n_boot=50)
    wide = reliability_diagram(y, p, confidence_level=0.99, n_boot=50)
    assert ((wide["hi"] - wide["lo"]) >= (narrow["hi"] - narrow["lo"])).all()
    b = decision_curve_bands(y, {"m": p}, thresholds=[0.2, 0.5], confidence_level=0.8,
                             n_boot=50)
    assert b["level"] == 0.8


def test_delong_interval_unpaired_and_calibration_table_take_confidence_level() -> None:
    from measurelab.inference import delong as dl
    from measurelab.inference.calibration import calibration_table
    from measurelab.stats.scoretable import ScoreTable

    rng = np.random.default_rng(5)
    y = rng.random(120) < 0.4
    s = np.round(rng.normal(1.0 * y, 1.0), 2)
    t = ScoreTable.from_arrays(y, s)
    narrow, wide = dl.delong_interval(t, confidence_level=0.8), dl.delong_interval(t)
    assert wide.lo < narrow.lo < narrow.hi < wide.hi
    narrow_u, wide_u = dl.delong_unpaired(t, t, confidence_level=0.8), dl.delong_unpaired(t, t)
    assert wide_u["lo"] < narrow_u["lo"] <= narrow_u["hi"] < wide_u["hi"]
    q = rng.beta(2, 2, 300)
    yq = rng.random(300) < q
    narrow_c = calibration_table(yq, {"m": q}, confidence_level=0.8, n_resamples=99)
    wide_c = calibration_table(yq, {"m": q}, n_resamples=99)
    assert float(wide_c["lo"].iloc[0]) <= float(narrow_c["lo"].iloc[0])
    assert float(narrow_c["hi"].iloc[0]) < float(wide_c["hi"].iloc[0])
