"""The CORP reliability diagram (curves/reliability.py): its curve is isotonic regression,
its consistency band holds a calibrated model and not an over-confident one."""

from __future__ import annotations

import numpy as np
import pytest

import measurelab as ml
from measurelab.curves import plot_reliability, reliability_diagram


def _model(seed: int, n: int, over: float = 1.0):
    """Outcomes from true probabilities q, and predictions ``over`` times as extreme in
    log-odds (1: calibrated)."""
    rng = np.random.default_rng(seed)
    q = rng.beta(2, 2, n)
    y = rng.random(n) < q
    return y, 1 / (1 + np.exp(-over * np.log(q / (1 - q))))


@pytest.mark.parametrize("grid,weighted", [(None, False), (10, False), (25, True)])
def test_cep_is_isotonic_regression(grid, weighted):
    from sklearn.isotonic import IsotonicRegression

    rng = np.random.default_rng(3)
    y, p = _model(3, 400)
    if grid is not None:
        p = np.round(p * grid) / grid
    w = rng.uniform(0.5, 2.0, p.size) if weighted else None
    rd = reliability_diagram(y, p, sample_weight=w, n_boot=20)
    np.testing.assert_array_equal(rd.x, np.unique(p))
    iso = IsotonicRegression().fit(p, y, sample_weight=w)
    np.testing.assert_allclose(rd.cep, iso.predict(rd.x), rtol=0, atol=1e-14)
    assert (rd.lo <= rd.hi).all() and rd.lo.between(0, 1).all() and rd.hi.between(0, 1).all()


@pytest.mark.parametrize("seed", range(3))
def test_band_holds_a_calibrated_model_and_not_an_over_confident_one(seed):
    y, p = _model(seed, 2000)
    rd = reliability_diagram(y, p, confidence_level=0.9, n_boot=300, random_state=seed)
    assert ((rd.cep >= rd.lo) & (rd.cep <= rd.hi)).mean() >= 0.8
    y, p = _model(seed, 2000, over=2.5)
    rd = reliability_diagram(y, p, confidence_level=0.9, n_boot=300, random_state=seed)
    assert ((rd.cep < rd.lo) | (rd.cep > rd.hi)).mean() >= 0.3


def test_band_level_widens_and_random_state_repeats():
    y, p = _model(5, 300)
    a = reliability_diagram(y, p, confidence_level=0.5, n_boot=200)
    b = reliability_diagram(y, p, confidence_level=0.95, n_boot=200)
    assert ((b.hi - b.lo) >= (a.hi - a.lo) - 1e-12).all()
    assert a.equals(reliability_diagram(y, p, confidence_level=0.5, n_boot=200, random_state=0))
    assert not a.equals(reliability_diagram(y, p, confidence_level=0.5, n_boot=200, random_state=1))


def test_many_distinct_predictions_band_on_a_subset(monkeypatch):
    from measurelab.curves import reliability

    monkeypatch.setattr(reliability, "MAX_BAND_POINTS", 50)
    y, p = _model(6, 600)
    rd = reliability_diagram(y, p, n_boot=100)
    assert len(rd) == 600 and rd.lo.notna().all() and (rd.lo <= rd.hi).all()


def test_bad_input():
    with pytest.raises(ml.MeasurelabError,
                       match=r"confidence_level must be in \(0, 1\) \(e\.g\. 0\.95\), got 1\.5"):
        reliability_diagram([0, 1], [0.2, 0.7], confidence_level=1.5)
    with pytest.raises(ml.MeasurelabError, match="n_boot must be a positive integer, got 0"):
        reliability_diagram([0, 1], [0.2, 0.7], n_boot=0)
    with pytest.raises(ml.MeasurelabError, match=r"probabilities in \[0, 1\]"):
        reliability_diagram([0, 1], [0.2, 1.7])


def test_plot_draws_each_model_its_band_and_the_strip():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y, p = _model(7, 300)
    _, q = _model(7, 300, over=2.0)
    fig, ax = plt.subplots()
    out = plot_reliability(y, {"calibrated": p, "over": q}, n_boot=50, ax=ax)
    assert out is ax
    labels = ax.get_legend_handles_labels()[1]
    assert {"calibrated", "over"} <= set(labels)
    rd = reliability_diagram(y, p, n_boot=50)
    np.testing.assert_array_equal(ax.get_lines()[0].get_xdata(), rd.x)
    np.testing.assert_array_equal(ax.get_lines()[0].get_ydata(), rd.cep)
    assert len(ax.collections) == 2  # one band per model
    assert len(fig.axes) == 2  # the histogram strip's axis
    plt.close(fig)
    ax2 = plot_reliability(y, p, confidence_level=None, hist=False)
    assert len(ax2.collections) == 0 and len(ax2.figure.axes) == 1
    plt.close("all")
