"""Influence functions of the debiased calibration terms (brier_mcb, brier_dsc,
logloss_dsc; inference/influence.py) against routes that do not use them: the numerical
derivative of the measure's value in the weight of one case, the spread of the estimate
(and of a paired difference) over many simulated test sets, and the registry's choice of
method on either side of the size threshold."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import measurelab as ml
from measurelab.inference import influence as inf
from measurelab.inference.methods import Setting, choose, difference_form
from measurelab.inference.methods.influence import LARGE_N, LARGE_SMALLER
from measurelab.stats.scoretable import ScoreTable

TERMS = list(inf.CALIBRATION_TERMS)


def _value(pos: np.ndarray, neg: np.ndarray, scores: np.ndarray, name: str) -> float:
    """The measure by the public API on weighted cases (every row's positives and
    negatives as two weighted cases)."""
    y = np.r_[np.ones(scores.size, int), np.zeros(scores.size, int)]
    s, w = np.r_[scores, scores], np.r_[pos, neg]
    keep = w > 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(ml.evaluate(y[keep], s[keep], measures=[name],
                                 sample_weight=w[keep])[name])


@pytest.mark.parametrize("name", TERMS)
def test_influence_is_the_derivative_of_the_measure_in_a_case_weight(name: str) -> None:
    g = np.random.default_rng(11)
    r = 400
    scores = np.sort(g.random(r))
    # an over-confident model: every term well above 0, so the measure is the raw estimate
    q = 1 / (1 + np.exp(-0.5 * np.log(scores / (1 - scores))))
    pos = g.uniform(0.5, 2.0, r) * (g.random(r) < q)
    neg = g.uniform(0.5, 2.0, r) * (g.random(r) < 1 - q)
    pos[0] = neg[-1] = 1.0
    t = ScoreTable(scores, pos, neg)
    raw, ifp, ifn = inf.calibration_influence(name, t)
    assert raw > 0.005
    assert math.isclose(raw, _value(pos, neg, scores, name), rel_tol=1e-10)
    total, h = pos.sum() + neg.sum(), 1e-6
    for i in range(0, r, 13):
        for arr, infl, is_pos in ((pos, ifp, True), (neg, ifn, False)):
            if arr[i] <= 0:
                continue
            up, dn = arr.copy(), arr.copy()
            up[i] += h
            dn[i] -= h
            if is_pos:
                d = (_value(up, neg, scores, name) - _value(dn, neg, scores, name)) / (2 * h)
            else:
                d = (_value(pos, up, scores, name) - _value(pos, dn, scores, name)) / (2 * h)
            assert infl[i] == pytest.approx(total * d, rel=1e-5, abs=1e-6)


def _draw(g: np.random.Generator, n: int, calibrated: bool) -> tuple[np.ndarray, ...]:
    """A binormal test set (π = 0.3): the labels, a calibrated or an over-confident
    model, and a second, under-confident model of the same cases that sees other noise
    (correlation 0.5; a monotone map of the first model's evidence would have the same
    recalibrated probabilities, so the same discrimination: a degenerate difference)."""
    pi, mu = 0.3, 1.2
    y = g.random(n) < pi
    e = g.standard_normal((2, n))
    x = mu * y + e[0]
    x2 = mu * y + 0.5 * e[0] + math.sqrt(0.75) * e[1]
    q = 1 / (1 + np.exp(-(math.log(pi / (1 - pi)) + mu * x - mu * mu / 2)))
    over = 1 / (1 + np.exp(-1.6 * (x - 1.0)))
    under = 1 / (1 + np.exp(-0.7 * (x2 - 0.3)))
    return y, (q if calibrated else over), under


@pytest.mark.slow
@pytest.mark.parametrize("calibrated", [False, True])
def test_standard_error_is_the_spread_over_test_sets(calibrated: bool) -> None:
    """The influence standard error against the spread of the raw estimate over 300
    simulated test sets of 5,000 cases (relative SE of that spread about 4%). A calibrated
    model's Brier miscalibration is a degenerate U-statistic: its derivative keeps the
    noise of the pairs, about √2 times the spread (conservative, never below it)."""
    g = np.random.default_rng(2)
    raws: dict[str, list[float]] = {k: [] for k in TERMS}
    ses: dict[str, list[float]] = {k: [] for k in TERMS}
    for _ in range(300):
        y, s, _u = _draw(g, 5000, calibrated)
        t = ScoreTable.from_arrays(y, s)
        for k in TERMS:
            raw, ifp, ifn = inf.calibration_influence(k, t)
            raws[k].append(raw)
            ses[k].append(math.sqrt(inf.table_variance(t, ifp, ifn)))
    for k in TERMS:
        ratio = float(np.mean(ses[k])) / float(np.std(raws[k], ddof=1))
        if calibrated and k == "brier_mcb":
            assert 1.05 < ratio < 1.6, (k, ratio)
        else:
            assert 0.88 < ratio < 1.12, (k, ratio)


@pytest.mark.slow
def test_paired_difference_standard_error_is_the_spread_of_the_difference() -> None:
    """The paired difference's influence (IF_a − IF_b at every case) against the spread of
    the difference of two miscalibrated models' raw estimates on the same cases."""
    g = np.random.default_rng(4)
    diffs: dict[str, list[float]] = {k: [] for k in TERMS}
    ses: dict[str, list[float]] = {k: [] for k in TERMS}
    for _ in range(300):
        y, a, b = _draw(g, 5000, False)
        ta, tb = ScoreTable.from_arrays(y, a), ScoreTable.from_arrays(y, b)
        ra = np.searchsorted(ta.scores, a)
        rb = np.searchsorted(tb.scores, b)
        for k in TERMS:
            va, pa, na = inf.calibration_influence(k, ta)
            vb, pb, nb = inf.calibration_influence(k, tb)
            case = inf.case_influence(pa, na, ra, y)
            case = inf.case_influence(pb, nb, rb, y, minus=case)
            diffs[k].append(va - vb)
            ses[k].append(math.sqrt(inf.case_variance(case, y)))
    for k in TERMS:
        ratio = float(np.mean(ses[k])) / float(np.std(diffs[k], ddof=1))
        assert 0.88 < ratio < 1.12, (k, ratio)


@pytest.mark.parametrize("name,small", [("brier_mcb", "debiased-wald"),
                                        ("brier_dsc", "bootstrap-se"),
                                        ("logloss_dsc", "bootstrap-se")])
def test_the_registry_takes_influence_from_the_size_threshold(name: str, small: str) -> None:
    big = Setting(name, n=LARGE_N, smaller=LARGE_SMALLER)
    assert choose(big).name == "influence"
    assert choose(big, "bootstrap-bca").name == "influence"   # no biased bootstrap forced
    for below in (Setting(name, n=LARGE_N - 1, smaller=LARGE_SMALLER),
                  Setting(name, n=LARGE_N, smaller=LARGE_SMALLER - 1), Setting(name)):
        assert choose(below).name == small
        assert choose(below, "influence").name == small       # their own, not forceable
    for kind in ("paired", "unpaired"):
        assert difference_form(Setting(name, kind=kind), "influence").name == "influence"
        assert difference_form(Setting(name, kind=kind), small).name == "bootstrap-se"
    # the log-loss miscalibration keeps no interval at any size
    assert choose(Setting("logloss_mcb", n=10**6, smaller=10**5)).name == "none"


def test_a_comparison_uses_influence_above_the_threshold_and_not_below() -> None:
    g = np.random.default_rng(5)
    y, a, b = _draw(g, 12_000, False)
    ms = TERMS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.compare_classifiers(y, {"a": a, "b": b}, measures=ms, ci=0.95, progress=False)
        iv, tests = r.intervals(), r.tests()
        small = ml.compare_classifiers(y[:3000], {"a": a[:3000], "b": b[:3000]}, measures=ms,
                                       ci=0.95, progress=False, n_boot=200, random_state=0)
        iv_small, tests_small = small.intervals(), small.tests()
    assert all(m.startswith("influence") for m in iv.method)
    assert all(m.startswith("influence") for m in tests.interval)
    assert not any(m.startswith("influence") for m in iv_small.method)
    assert all(m.startswith("bootstrap-se") for m in tests_small.interval)
    # the single interval is the raw estimate ± z·SE of the table's influence, cut at 0
    from scipy.stats import norm

    z = float(norm.ppf(0.975))
    for row in iv.itertuples():
        t = ScoreTable.from_arrays(y, a if row.model == "a" else b)
        raw, ifp, ifn = inf.calibration_influence(row.measure, t)
        se = math.sqrt(inf.table_variance(t, ifp, ifn))
        assert row.value == pytest.approx(max(raw, 0.0), rel=1e-9)
        assert row.lo == pytest.approx(max(raw - z * se, 0.0), rel=1e-9, abs=1e-15)
        assert row.hi == pytest.approx(max(raw + z * se, 0.0), rel=1e-9, abs=1e-15)


def test_parts_give_the_one_machine_intervals_and_tests() -> None:
    """A comparison over four parts (two passes: tables, then the sums of the cases'
    influence) gives the one-machine values exactly and the intervals to 1e-9."""
    from measurelab.inference.classifiers.distributed import compare_parts

    g = np.random.default_rng(8)
    y, a, b = _draw(g, 20_000, False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        local = ml.compare_classifiers(y, {"a": a, "b": b}, measures=TERMS, ci=0.95,
                                       progress=False)
        parts = [(y[i:i + 5000].astype(int), [a[i:i + 5000], b[i:i + 5000]], None)
                 for i in range(0, y.size, 5000)]
        dist = compare_parts(parts, ["a", "b"], measures=TERMS)
        li, di = local.intervals(), dist.intervals()
        lt, dt = local.tests(), dist.tests()
    assert list(li.method) == list(di.method) and all(m == "influence" for m in li.method)
    np.testing.assert_array_equal(li.value.to_numpy(), di.value.to_numpy())
    for col in ("lo", "hi"):
        np.testing.assert_allclose(li[col].to_numpy(), di[col].to_numpy(), rtol=0, atol=1e-9)
    np.testing.assert_array_equal(lt["diff"].to_numpy(), dt["diff"].to_numpy())
    for col in ("lo", "hi", "p"):
        np.testing.assert_allclose(lt[col].to_numpy(), dt[col].to_numpy(), rtol=0, atol=1e-9)
