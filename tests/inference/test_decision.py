"""Net benefit in a comparison (inference/decision.py): the values and differences are the
definition's, the intervals come from the comparison's own replicates (the same as a
``net_benefit@t`` row of its tests), p and interval agree, Holm is Holm, the simultaneous
band is wider than the pointwise one and its ranges are its runs, the decision-curve panel
is on the page; refusals for k classes and for scores that are no probabilities."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import measurelab as ml
from measurelab.exceptions import MeasurelabError
from measurelab.inference import intervals as iv
from tests.measures.test_decision import brute_nb


def _data(seed: int = 0, n: int = 300):
    g = np.random.default_rng(seed)
    y = g.random(n) < 0.3
    a = 1 / (1 + np.exp(-(2.0 * y + g.normal(size=n) - 1.6)))
    b = 1 / (1 + np.exp(-(0.9 * y + g.normal(size=n) - 1.0)))
    return y, np.round(a, 2), np.round(b, 2)  # ties, some at the thresholds


@pytest.fixture(scope="module")
def cmp():
    y, a, b = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ml.compare_classifiers(y, {"a": a, "b": b},
                                      measures=["auc", "net_benefit@0.2", "net_benefit@0.3"],
                                      n_boot=500)


def test_values_and_differences_are_the_definition(cmp):
    y, a, b = _data()
    nb = cmp.net_benefit([0.1, 0.2, 0.3])
    v = nb.values().set_index(["model", "threshold"])["net_benefit"]
    prev = y.mean()
    for t in (0.1, 0.2, 0.3):
        assert v[("a", t)] == pytest.approx(brute_nb(y, a, t), abs=1e-15)
        assert v[("b", t)] == pytest.approx(brute_nb(y, b, t), abs=1e-15)
        assert v[("treat all", t)] == pytest.approx(prev - (1 - prev) * t / (1 - t),
                                                    abs=1e-15)
    d = nb.differences().set_index(["a", "b", "threshold"])["diff"]
    for t in (0.1, 0.2, 0.3):
        assert d[("a", "b", t)] == pytest.approx(v[("a", t)] - v[("b", t)], abs=1e-15)
        assert d[("b", "treat all", t)] == pytest.approx(v[("b", t)] - v[("treat all", t)],
                                                         abs=1e-15)
        assert d[("a", "treat none", t)] == v[("a", t)]


def test_the_comparisons_own_replicates(cmp):
    """The paired difference at 0.2 is the comparison's own row for net_benefit@0.2: the
    same case multiplicities, so the same interval and p (Holm differs: other rows)."""
    row = cmp.tests().set_index("measure").loc["net_benefit@0.2"]
    d = cmp.net_benefit([0.2, 0.3]).differences()
    mine = d[(d["a"] == "a") & (d["b"] == "b") & (d["threshold"] == 0.2)].iloc[0]
    # (equal up to the order numpy sums a strided row in: BCa's acceleration)
    assert mine["diff"] == row["diff"]
    for key in ("lo", "hi", "p"):
        assert mine[key] == pytest.approx(row[key], rel=1e-12, abs=1e-15), key
    single = cmp.intervals().set_index(["model", "measure"]).loc[("b", "net_benefit@0.3")]
    v = cmp.net_benefit([0.2, 0.3]).values().set_index(["model", "threshold"]).loc[("b", 0.3)]
    assert v["lo"] == pytest.approx(single["lo"], rel=1e-12)
    assert v["hi"] == pytest.approx(single["hi"], rel=1e-12)


def test_interval_and_p_tell_one_story_and_holm_is_holm(cmp):
    d = cmp.net_benefit().differences()
    alpha = 1 - cmp.level
    excl = (d["lo"] > 0) | (d["hi"] < 0)
    assert ((d["p"] < alpha) == excl).all()
    np.testing.assert_array_equal(d["p_holm"], iv.holm(d["p"]))
    assert (d["p_holm"] >= d["p"]).all()


def test_simultaneous_band_and_ranges(cmp):
    nb = cmp.net_benefit()
    band = nb.band()
    crit = nb._band["crit"]
    assert crit > 1.96  # wider than the pointwise normal band, jointly over the grid
    assert ((band["lo"] <= band["diff"]) & (band["diff"] <= band["hi"])).all()
    r = nb.ranges()
    # every range is a maximal run of grid thresholds where the band excludes 0 on its side
    for row in r.itertuples(index=False):
        sub = band[(band["a"] == row.a) & (band["b"] == row.b)].reset_index(drop=True)
        on = sub["lo"] > 0 if row.more_useful == row.a else sub["hi"] < 0
        idx = np.flatnonzero((sub["threshold"] >= row.from_threshold)
                             & (sub["threshold"] <= row.to_threshold))
        assert on[idx].all() and idx.size == row.points
        for edge in (idx[0] - 1, idx[-1] + 1):
            assert not (0 <= edge < len(sub)) or not on[edge]
    # the better model here is more useful than the other over a range, and the summary says
    ab = r[(r["a"] == "a") & (r["b"] == "b")]
    assert (ab["more_useful"] == "a").any()
    assert "a is more useful than b for thresholds" in nb.summary()


def test_identical_models_are_never_significantly_different():
    y, a, _ = _data(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nb = ml.compare_classifiers(y, {"a": a, "a2": a.copy()}, measures=["auc"],
                                    n_boot=200).net_benefit([0.2], references=False)
    d = nb.differences().iloc[0]
    assert (d["diff"], d["lo"], d["hi"], d["p"]) == (0.0, 0.0, 0.0, 1.0)
    assert len(nb.ranges()) == 0


def test_percentile_when_the_comparison_forces_it():
    y, a, b = _data(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.compare_classifiers(y, {"a": a, "b": b}, measures=["auc"], n_boot=200,
                                   ci_method="bootstrap-percentile")
    assert set(r.net_benefit([0.2]).differences()["method"]) == {"bootstrap-percentile"}


def test_plot_and_page(cmp, tmp_path):
    ax = cmp.plot_decision_curve()
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["a", "b", "treat all", "treat none"]
    assert len(ax.collections) == 2  # a band per model
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = cmp.to_html(tmp_path / "c.html")
    text = page.read_text(encoding="utf-8")
    assert "Decision curves" in text and "more useful than" in text
    assert "What this test set can detect" in text
    assert (tmp_path / "c-decision.png").stat().st_size > 1000
    import matplotlib.pyplot as plt

    plt.close("all")


def test_json_ready(cmp):
    import json

    d = cmp.net_benefit([0.2]).to_dict()
    assert json.loads(json.dumps(d, allow_nan=False))["level"] == 0.95


def test_refusals():
    y, a, _ = _data(3, n=60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        logits = ml.compare_classifiers(y, {"a": np.log(a + 0.01)}, measures=["auc"],
                                        n_boot=100)
        k3 = ml.compare_classifiers([0, 1, 2] * 10, {"m": [0, 1, 2] * 10},
                                    measures=["acc"], n_boot=100)
        no_ci = ml.compare_classifiers(y, {"a": a}, measures=["auc"], ci=None)
    with pytest.raises(MeasurelabError, match="needs probabilities"):
        logits.net_benefit()
    with pytest.raises(MeasurelabError, match="two classes"):
        k3.net_benefit()
    with pytest.raises(MeasurelabError, match=r"ci=0\.95"):
        no_ci.net_benefit()
    with pytest.raises(MeasurelabError, match="thresholds must lie in"):
        ml.compare_classifiers(y, {"a": a}, measures=["auc"], n_boot=100).net_benefit([1.2])
    assert no_ci.plot_decision_curve().get_title() == "decision curve"  # no bands
