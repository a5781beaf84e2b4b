"""Decision curves (curves/decision.py): the curve is the measure at each threshold, with
the references; the bootstrap bands resample cases (any row order gives the same band; by
class, the treat-all band collapses to its value); the plot draws what it says; refusals."""

from __future__ import annotations

import warnings

import matplotlib
import numpy as np
import pytest

import measurelab as ml
from measurelab.curves import decision_curve, decision_curve_bands, plot_decision_curve
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.measures.decision import net_benefit_curve
from measurelab.stats.scoretable import ScoreTable

matplotlib.use("Agg")


def _data(seed=0, n=250):
    g = np.random.default_rng(seed)
    y = (g.random(n) < 0.3).astype(int)
    a = np.round(1 / (1 + np.exp(-(g.normal(size=n) + 1.5 * y - 1.3))), 2)
    b = np.round(np.clip(a + g.normal(0, 0.1, n), 0, 1), 2)
    return y, a, b


def test_decision_curve_defaults_and_table_input():
    y, a, _ = _data()
    dc = decision_curve(y, a)
    assert dc.thresholds.tolist() == [i / 100 for i in range(1, 100)]
    t = ScoreTable.from_arrays(y.astype(bool), a)
    assert np.array_equal(dc.net_benefit, net_benefit_curve(t, dc.thresholds))
    again = decision_curve(t, thresholds=dc.thresholds)
    assert np.array_equal(again.net_benefit, dc.net_benefit)
    assert dc.prevalence == y.mean()
    avoided = dc.interventions_avoided()
    t_ = dc.thresholds
    np.testing.assert_allclose(avoided, (dc.net_benefit - dc.treat_all) / (t_ / (1 - t_))
                               * 100, rtol=1e-13)


def test_weights_are_case_weights():
    y, a, _ = _data(1, n=80)
    w = np.random.default_rng(2).integers(1, 4, y.size)
    dc = decision_curve(y, a, sample_weight=w.astype(float), thresholds=[0.1, 0.3])
    rep = decision_curve(np.repeat(y, w), np.repeat(a, w), thresholds=[0.1, 0.3])
    np.testing.assert_allclose(dc.net_benefit, rep.net_benefit, rtol=1e-13)
    np.testing.assert_allclose(dc.treat_all, rep.treat_all, rtol=1e-13)


def test_bands_do_not_depend_on_row_order_and_hold_the_estimate():
    y, a, b = _data(3)
    ts = [0.05, 0.1, 0.2, 0.3, 0.5]
    one = decision_curve_bands(y, {"a": a, "b": b}, thresholds=ts, n_boot=300,
                               random_state=4)
    perm = np.random.default_rng(5).permutation(y.size)
    two = decision_curve_bands(y[perm], {"a": a[perm], "b": b[perm]}, thresholds=ts,
                               n_boot=300, random_state=4)
    for name in ("a", "b"):
        for key in ("net_benefit", "lo", "hi"):
            assert np.array_equal(one["models"][name][key], two["models"][name][key])
        m = one["models"][name]
        assert (m["lo"] <= m["net_benefit"]).all() and (m["net_benefit"] <= m["hi"]).all()
    assert (one["treat_all"]["lo"] < one["treat_all"]["hi"]).all()  # class counts vary


def test_stratified_bands_fix_the_class_counts():
    y, a, _ = _data(6)
    b = decision_curve_bands(y, {"a": a}, thresholds=[0.1, 0.2], n_boot=200, stratify=True)
    ta = b["treat_all"]
    np.testing.assert_allclose(ta["lo"], ta["net_benefit"], rtol=1e-12)
    np.testing.assert_allclose(ta["hi"], ta["net_benefit"], rtol=1e-12)


def test_the_band_is_the_percentile_of_resampled_curves():
    """The band equals percentiles of decision curves of explicitly resampled data sets
    drawn with the same case multiplicities (the canonical order is the sort by label and
    scores, here already the order of the data)."""
    y, a, _ = _data(7, n=60)
    order = np.lexsort([a, y])
    y, a = y[order], a[order]
    ts = np.array([0.1, 0.25, 0.4])
    got = decision_curve_bands(y, {"a": a}, thresholds=ts, n_boot=150, random_state=9,
                               confidence_level=0.8)
    rng = np.random.default_rng(9)
    curves = []
    for _ in range(150):
        idx = rng.integers(0, y.size, y.size)
        curves.append(decision_curve(y[idx], a[idx], thresholds=ts).net_benefit)
    lo, hi = np.quantile(np.array(curves), [0.1, 0.9], axis=0)
    np.testing.assert_allclose(got["models"]["a"]["lo"], lo, rtol=1e-12)
    np.testing.assert_allclose(got["models"]["a"]["hi"], hi, rtol=1e-12)


def test_plot_draws_curves_references_and_bands():
    import matplotlib.pyplot as plt

    y, a, b = _data(8)
    ax = plot_decision_curve(y, {"a": a, "$b$": b}, confidence_level=0.9, n_boot=100,
                             thresholds=np.arange(1, 60) / 100)
    assert ax.get_legend_handles_labels()[1] == ["a", r"\$b\$", "treat all", "treat none"]
    assert len(ax.collections) == 2
    line = ax.get_lines()[0].get_ydata()
    np.testing.assert_array_equal(line, decision_curve(y, a, thresholds=np.arange(1, 60)
                                                      / 100).net_benefit)
    ax2 = plot_decision_curve(y, a, standardized=True, references=False,
                              thresholds=[0.1, 0.2])
    np.testing.assert_allclose(ax2.get_lines()[0].get_ydata(),
                               decision_curve(y, a, thresholds=[0.1, 0.2]).standardized)
    assert len(ax2.get_lines()) == 1 and ax2.get_ylabel() == "standardized net benefit"
    given = {"model": (np.zeros(2), np.ones(2) * 0.1)}
    ax3 = plot_decision_curve(y, a, thresholds=[0.1, 0.2], bands=given)
    assert len(ax3.collections) == 1
    plt.close("all")


@pytest.mark.parametrize("call,match", [
    (lambda y, a: decision_curve(y, a * 3), "probabilities in"),
    (lambda y, a: decision_curve(y, a, thresholds=[0.5, 1.0]), "thresholds must lie in"),
    (lambda y, a: decision_curve(y, a, thresholds=[]), "non-empty"),
    (lambda y, a: decision_curve_bands(y, {"a": a}, confidence_level=1.0),
     "confidence_level must be in"),
    (lambda y, a: decision_curve_bands(y, {"a": a}, n_boot=0), "n_boot"),
    (lambda y, a: decision_curve_bands(y, {"a": a}, n_boot=10**6,
                                       thresholds=np.arange(1, 100) / 100), "more than"),
    (lambda y, a: plot_decision_curve(y, {"a": a}, bands={"b": ([0], [1])}), "no entry"),
    (lambda y, a: plot_decision_curve(y, {"a": a}, thresholds=[0.1],
                                      bands={"a": ([0, 1], [1, 2])}), "one per threshold"),
    (lambda y, a: plot_decision_curve(y, {"a": a - 1}), "in \\[0, 1\\]"),
    (lambda y, a: plot_decision_curve(y, {}), "empty dict"),
])
def test_refusals(call, match):
    y, a, _ = _data(9, n=40)
    with pytest.raises(MeasurelabError, match=match):
        call(y, a)
    with pytest.raises(MeasurelabTypeError, match="bands must be a dict"):
        plot_decision_curve(y, a, bands=[1, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert ml.curves.decision_curve(y, a).net_benefit.size == 99
