"""Net benefit in a comparison (inference/classifiers/net_benefit.py): the values and
differences are the
definition's, the intervals come from the comparison's own replicates (the same as a
``net_benefit@t`` row of its tests), p and interval agree, Holm is Holm, the simultaneous
band is wider than the pointwise one and its ranges are its runs, the decision-curve panel
is on the page; refusals for k classes and for scores that are no probabilities."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy.stats import norm

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


def test_the_cases_a_difference_rests_on(cmp):
    y, a, b = _data()
    d = cmp.net_benefit([0.2]).differences().set_index(["a", "b"])
    ta, tb = a >= 0.2, b >= 0.2
    assert d.loc[("a", "b"), "differ_pos"] == np.sum((ta != tb) & y)
    assert d.loc[("a", "b"), "differ_neg"] == np.sum((ta != tb) & ~y)
    assert d.loc[("b", "treat all"), "differ_pos"] == np.sum(~tb & y)
    assert d.loc[("a", "treat none"), "differ_neg"] == np.sum(ta & ~y)


def test_each_models_net_benefit_has_the_adjusted_wald_interval(cmp):
    """Written from the definition: four cells (treated or not, positive or negative),
    half a case added to each, the Wald interval of the mean contribution."""
    y, a, b = _data()
    v = cmp.net_benefit([0.05, 0.2]).values().set_index(["model", "threshold"])
    z = norm.ppf(0.975)
    for name, s in (("a", a), ("b", b), ("treat all", np.ones(y.size))):
        for t in (0.05, 0.2):
            w = t / (1 - t)
            tp, fp = np.sum((s >= t) & y), np.sum((s >= t) & ~y)
            c = (tp - w * fp) / (y.size + 2)
            m2 = (tp + w * w * fp + 0.5 * (1 + w * w)) / (y.size + 2)
            se = math.sqrt((m2 - c * c) / y.size)
            row = v.loc[(name, t)]
            assert row["method"] == "adjusted-wald"
            assert (row["lo"], row["hi"]) == pytest.approx((c - z * se, c + z * se),
                                                           rel=1e-12)


def _adjusted_wald_by_hand(y, a, b, t, level=0.95):
    """The adjusted Wald interval written from its definition, case by case: per-case
    contributions, half a case of each kind the two can treat differently."""
    w = t / (1 - t)
    ta = a >= t
    if isinstance(b, str):
        tb = np.full(y.size, b == "all")
    else:
        tb = b >= t
    d = (ta.astype(float) - tb) * np.where(y, 1.0, -w)
    kinds = [1.0, -1.0, -w, w] if not isinstance(b, str) else (
        [-1.0, w] if b == "all" else [1.0, -w])
    den = y.size + 0.5 * len(kinds)
    center = d.sum() / den
    m2 = (np.sum(d * d) + 0.5 * np.sum(np.square(kinds))) / den
    se = math.sqrt((m2 - center**2) / y.size)
    z = norm.ppf(0.5 + level / 2)
    return center - z * se, center + z * se, 2 * norm.sf(abs(center) / se)


def test_paired_differences_use_the_adjusted_wald_interval(cmp):
    y, a, b = _data()
    d = cmp.net_benefit([0.05, 0.2, 0.3]).differences().set_index(["a", "b", "threshold"])
    for t in (0.05, 0.2, 0.3):
        for key, first, other in ((("a", "b", t), a, b), (("a", "treat all", t), a, "all"),
                                  (("b", "treat none", t), b, "none")):
            lo, hi, p = _adjusted_wald_by_hand(y, first, other, t)
            row = d.loc[key]
            assert row["method"] == "adjusted-wald"
            assert (row["lo"], row["hi"], row["p"]) == pytest.approx((lo, hi, p), rel=1e-10)


def test_the_adjusted_interval_never_collapses():
    """Two models that treat the same positives and differ on no case at t: the plain
    Wald and bootstrap intervals are the single point 0; the adjusted one is not."""
    from measurelab.inference.classifiers.net_benefit import net_benefit_difference_interval

    y = np.array([1] * 30 + [0] * 70, bool)
    a = np.r_[np.full(30, 0.9), np.full(70, 0.1)]
    r = net_benefit_difference_interval(y, a, a.copy(), [0.05, 0.5])
    assert (r["lo"] < 0).all() and (r["hi"] > 0).all() and (r["p"] == 1).all()
    strat = net_benefit_difference_interval(y, a, a.copy(), [0.5], stratify=True)
    assert strat["lo"][0] < 0 < strat["hi"][0]
    w = net_benefit_difference_interval(y, a, a * 0.5, [0.3], sample_weight=np.full(100, 2.0))
    un = net_benefit_difference_interval(y, a, a * 0.5, [0.3])
    for key in ("center", "se", "lo", "hi", "p"):  # equal weights change nothing
        assert w[key][0] == pytest.approx(un[key][0], rel=1e-12)


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
    se = nb._band["se"]
    np.testing.assert_allclose(band["hi"] - band["diff"], crit * se.ravel(), rtol=1e-12)
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


def _parsed_pairs(summary: str) -> tuple[set, set]:
    """What the summary's sentences on the chosen thresholds claim, read back: for two
    models (winner, loser, t, diff, lo, hi, p_holm text), for a reference (winner, loser,
    t)."""
    import re

    num = r"[+−]?[\d.e−+]+"
    models, refs = set(), set()
    at_part = summary.split("Over the grid:")[0]
    for m in re.finditer(r"(\w[\w ]*?) is more useful than (\w[\w ]*?) at (.*?)(?:;|\.\n|\.$)",
                         at_part.replace("): ", "):\n"), flags=re.M):
        who, other, rest = m.group(1).split(":")[-1].strip(), m.group(2), m.group(3)
        if "(" in rest.split(",")[0] and "CI" in rest:
            for t, d, lo, hi, p in re.findall(
                    rf"t = ([\d.]+) \(({num}), 95% CI ({num}) to ({num}), (p_holm [^)]*)\)",
                    rest):
                f = [float(x.replace("−", "-")) for x in (d, lo, hi)]
                models.add((who, other, float(t), *f, p))
        else:
            ts = rest.split("(")[0].removeprefix("t = ").replace(" and ", ", ")
            refs.update((who, other, float(t)) for t in ts.split(", "))
    return models, refs


def test_the_summary_names_every_significant_pair_at_the_chosen_thresholds():
    """Every row of differences() significant after Holm's adjustment — model against
    model with its difference, interval and p_holm, model against a reference with its
    threshold — is in the summary, and no other; with three models some pairs differ and
    some do not."""
    y, a, b = _data(3, 600)
    c = np.round(np.clip(b + np.random.default_rng(1).normal(0, 0.02, y.size), 0, 1), 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nb = ml.compare_classifiers(y, {"a": a, "b": b, "c": c}, measures=["auc"],
                                    n_boot=300).net_benefit([0.1, 0.2, 0.3, 0.5])
    d = nb.differences()
    sig = d[d["p_holm"] < 0.05]
    models, refs = _parsed_pairs(nb.summary())
    want_models, want_refs = set(), set()
    for r in sig.itertuples(index=False):
        win, lose, sign = (r.a, r.b, 1) if r.diff > 0 else (r.b, r.a, -1)
        if r.b in nb.names:
            want_models.add((win, lose, r.threshold, sign * r.diff,
                             min(sign * r.lo, sign * r.hi), max(sign * r.lo, sign * r.hi),
                             r.p_holm))
        else:
            want_refs.add((win, lose, r.threshold))
    assert refs == want_refs
    assert {m[:3] for m in models} == {w[:3] for w in want_models}
    assert len(want_models) >= 2 and len(sig) < len(d)  # some pairs differ, some do not
    got = {m[:3]: m for m in models}
    for w in want_models:   # the numbers, to the 3 significant digits a sentence shows
        g = got[w[:3]]
        assert g[3:6] == pytest.approx(w[3:6], rel=5e-3, abs=1e-12)
        p = w[6]
        assert g[6] == ("p_holm < 0.001" if p < 0.001 else f"p_holm {p:.2g}")
    # pairs that differ at no chosen threshold are not named
    named = {m[:2] for m in models} | {r[:2] for r in refs}
    assert named == {(r[0], r[1]) for r in want_models | want_refs}


def test_identical_models_are_never_significantly_different():
    y, a, _ = _data(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nb = ml.compare_classifiers(y, {"a": a, "a2": a.copy()}, measures=["auc"],
                                    n_boot=200).net_benefit([0.2], references=False)
    d = nb.differences().iloc[0]
    assert (d["diff"], d["p"]) == (0.0, 1.0) and d["lo"] < 0 < d["hi"]
    assert len(nb.ranges()) == 0


def test_fixed_class_counts_use_each_rate_apart():
    """stratify=True: NB = (P/n)·TPR − w·(N/n)·FPR, each rate with half a case on either
    side; treating everyone then has almost no variance (the counts are fixed)."""
    from measurelab.inference.classifiers.net_benefit import net_benefit_interval

    y, a, _ = _data(4)
    n1, n0 = int(y.sum()), int((~y).sum())
    r = net_benefit_interval(y, a, [0.2], stratify=True)
    w = 0.25
    tpr = (np.sum((a >= 0.2) & y) + 0.5) / (n1 + 1)
    fpr = (np.sum((a >= 0.2) & ~y) + 0.5) / (n0 + 1)
    n = y.size
    se = math.sqrt((n1 / n) ** 2 * tpr * (1 - tpr) / n1
                   + w * w * (n0 / n) ** 2 * fpr * (1 - fpr) / n0)
    assert r["se"][0] == pytest.approx(se, rel=1e-12)
    every = net_benefit_interval(y, "treat all", [0.2], stratify=True)
    assert every["se"][0] < 0.5 * se


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
