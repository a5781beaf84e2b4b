"""Intervals at small counts: the posterior of the confusion cells
(:mod:`measurelab.inference.confusion_posterior`, the ``dirichlet-posterior`` method),
McNemar's score test beside Tango's interval, Newcombe's AUC interval as the default with a
small class, and the rule every paired row keeps: ``lo > 0 or hi < 0`` exactly when
``p < 1 − level``."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import measurelab as ml
from measurelab.exceptions import UndefinedMeasureWarning
from measurelab.inference import confusion_posterior as cp
from measurelab.inference import intervals as iv
from measurelab.inference.methods import Setting, choose, difference_form
from measurelab.inference.methods.dirichlet import kink_reason
from measurelab.measures.base import registry
from measurelab.stats.confusion import BinaryCounts

COUNTS_MEASURES = [m.name for m in registry if m.statistic == "counts"
                   and m.kind == "threshold"]


# ----------------------------------------------------------------- the posterior itself
def test_single_posterior_moments_are_the_dirichlet_ones() -> None:
    """Random design: the cells' shares have the Dirichlet(counts + 0.5) mean and variance;
    fixed design: sensitivity and the false-positive rate have the Beta means and the class
    totals are the sample's."""
    c = BinaryCounts(3, 7, 2, 88)
    d = cp.single_draws(c, "random", np.random.default_rng(0), 200_000)
    alpha = np.array([3, 7, 2, 88]) + 0.5
    share = np.stack([d.tp, d.fp, d.fn, d.tn]) / 100
    mean = alpha / alpha.sum()
    var = mean * (1 - mean) / (alpha.sum() + 1)
    np.testing.assert_allclose(share.mean(axis=1), mean, atol=4 * np.sqrt(var / 200_000).max())
    np.testing.assert_allclose(share.var(axis=1), var, rtol=0.03)
    f = cp.single_draws(c, "fixed", np.random.default_rng(1), 200_000)
    np.testing.assert_allclose(f.tp + f.fn, 5) and np.testing.assert_allclose(f.fp + f.tn, 95)
    assert abs((f.tp / 5).mean() - 3.5 / 6) < 0.003
    assert abs((f.fp / 95).mean() - 7.5 / 96) < 0.001


def test_paired_posterior_is_the_joint_dirichlet_with_shared_classes() -> None:
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.1
    a, b = rng.random(300) < 0.3, rng.random(300) < 0.2
    joint = cp.joint_counts(y, a, b)
    assert joint.sum() == 300 and joint[1].sum() == y.sum()
    assert joint[1, 1].sum() == np.count_nonzero(y & a)       # A's true positives
    assert joint[0, :, 1].sum() == np.count_nonzero(~y & b)   # B's false positives
    for design in ("random", "fixed"):
        da, db = cp.paired_draws(joint, design, np.random.default_rng(4), 50_000)
        np.testing.assert_allclose(da.tp + da.fn, db.tp + db.fn)     # one set of positives
        np.testing.assert_allclose(da.tp + da.fp + da.fn + da.tn, 300)
        # A's tp share: the Dirichlet marginal of two joint cells
        alpha = joint.ravel() + 0.5
        if design == "random":
            expect = (joint[1, 1].sum() + 1.0) / alpha.sum() * 300
        else:
            expect = (joint[1, 1].sum() + 1.0) / (joint[1].sum() + 2.0) * joint[1].sum()
        assert abs(da.tp.mean() - expect) < 0.02 * expect + 0.02
        if design == "fixed":
            np.testing.assert_allclose(da.tp + da.fn, joint[1].sum())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1, 1, allow_nan=False), min_size=1, max_size=300),
       st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99]), st.floats(0, 0.2))
def test_tail_interval_excludes_zero_exactly_when_p_is_small(vals: list[float], level: float,
                                                              nan_share: float) -> None:
    v = np.array(vals)
    v[: int(nan_share * v.size)] = np.nan
    lo, hi, p = cp.tail_interval(v, level, (-2.0, 2.0))
    assert (lo > 0 or hi < 0) == (p < 1 - level)
    assert lo <= hi and 0 <= p <= 1


def test_tail_interval_against_brute_force_order_statistics() -> None:
    """The ends are the order statistics j and m − j + 1, j the smallest with 2j/m ≥ α:
    against numpy's 'inverted_cdf'-type quantiles of the same draws."""
    rng = np.random.default_rng(5)
    for m in (7, 100, 999, 10_000):
        v = rng.normal(size=m)
        for level in (0.9, 0.95):
            lo, hi, p = cp.tail_interval(v, level)
            j = next(j for j in range(1, m + 1) if 2 * j / m >= 1 - level)
            s = np.sort(v)
            assert (lo, hi) == (s[j - 1], s[m - j])
            assert p == min(1.0, 2 * min((v <= 0).sum(), (v >= 0).sum()) / m)


def test_every_counts_measure_evaluates_on_draws_as_on_one_table() -> None:
    """The posterior evaluates each measure on arrays of counts; each draw's value equals
    the measure on that draw's counts alone."""
    d = cp.single_draws(BinaryCounts(4, 3, 2, 40), "random", np.random.default_rng(6), 5)
    for name in COUNTS_MEASURES:
        m = registry.get(name)
        got = cp.measure_draws(m, d)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            one = [float(m.formula(BinaryCounts(float(d.tp[i]), float(d.fp[i]),
                                                float(d.fn[i]), float(d.tn[i])), **m.params))
                   for i in range(5)]
        np.testing.assert_allclose(got, one, rtol=1e-12, err_msg=name)


def test_posterior_interval_agrees_with_the_bootstrap_at_large_counts() -> None:
    """Thousands of cases: the posterior interval of F1 and MCC is the bootstrap's within
    a few thousandths (both are then the delta method's normal)."""
    rng = np.random.default_rng(7)
    y = rng.random(20_000) < 0.3
    s = np.clip(rng.normal(0.3 + 0.35 * y, 0.2), 0, 1)
    r = ml.evaluate(y, s, measures=["f1", "mcc"], ci=0.95, random_state=1)
    b = ml.evaluate(y, s, measures=["f1", "mcc"], ci=0.95, random_state=1,
                    ci_method="bootstrap-percentile", n_boot=2000)
    ri, bi = r.intervals().set_index("measure"), b.intervals().set_index("measure")
    for k in ("f1", "mcc"):
        assert ri.loc[k, "method"].startswith("dirichlet-posterior")
        assert abs(ri.loc[k, "lo"] - bi.loc[k, "lo"]) < 0.004
        assert abs(ri.loc[k, "hi"] - bi.loc[k, "hi"]) < 0.004


# ----------------------------------------------------------------- the registry's choices
def test_the_registry_chooses_the_small_count_methods() -> None:
    for name in ("f1", "mcc", "kappa", "bacc", "lr_pos", "dp", "gmean", "youden"):
        assert choose(Setting(name)).name == "dirichlet-posterior", name
        assert difference_form(Setting(name, kind="paired"), "dirichlet-posterior").name == \
            "dirichlet-posterior"
    for name in ("acc", "err"):
        assert choose(Setting(name)).name == "wilson"
    for name in ("sens", "spec", "prec", "npv"):   # Jeffreys' margins, held at 0 and 1
        assert choose(Setting(name)).name == "dirichlet-posterior"
        assert choose(Setting(name), "wilson").name == "wilson"
    for name in ("sens", "spec", "prec", "npv", "acc", "err"):
        assert difference_form(Setting(name, kind="unpaired"), "wilson").name == \
            "dirichlet-posterior"
    for name in ("sens", "spec", "prec", "npv"):
        assert difference_form(Setting(name, kind="paired"), "wilson").name == \
            "dirichlet-posterior"
    assert difference_form(Setting("acc", kind="paired"), "wilson").name == "mcnemar"
    # weights, k classes and clusters keep the bootstrap
    assert choose(Setting("f1", whole_counts=False)).name == "bootstrap-bca"
    assert choose(Setting("f1", multiclass=True)).name == "bootstrap-bca"
    assert choose(Setting("f1"), "bootstrap-percentile").name == "bootstrap-percentile"
    # a small class: Newcombe for the AUC of one model; DeLong for its differences
    assert choose(Setting("auc", smaller=29)).name == "newcombe-score"
    assert choose(Setting("auc", smaller=30)).name == "delong-logit"
    assert difference_form(Setting("auc", kind="paired", smaller=5), "newcombe-score").name \
        == "delong"


def test_a_comparison_with_few_positives_uses_them() -> None:
    y, a, b = _data(120, 0.06, 11)
    r = ml.compare_classifiers(y, {"a": a, "b": b}, measures=["f1", "sens", "auc", "acc"],
                               random_state=0)
    methods = {(x.model, x.measure): ml.inference.evidence.procedure(x.method)
               for x in r.intervals().itertuples()}
    assert methods[("a", "f1")] == "dirichlet-posterior"
    assert methods[("a", "sens")] == "dirichlet-posterior"
    assert methods[("a", "auc")] == "newcombe-score"
    t = r.tests().set_index("measure")
    assert t.loc["f1", "method"] == t.loc["sens", "method"] == "dirichlet-posterior"
    assert t.loc["auc", "method"] == "delong" and t.loc["acc", "method"] == "mcnemar"
    # the same seed gives the same posterior; another seed another one
    r2 = ml.compare_classifiers(y, {"a": a, "b": b}, measures=["f1"], random_state=0)
    assert r2.tests().loc[0, "lo"] == t.loc["f1", "lo"]
    r3 = ml.compare_classifiers(y, {"a": a, "b": b}, measures=["f1"], random_state=1)
    assert r3.tests().loc[0, "lo"] != t.loc["f1", "lo"]


def test_newcombe_interval_in_a_comparison_is_the_function() -> None:
    from measurelab.inference.newcombe import newcombe_auc_interval

    y, a, _b = _data(120, 0.06, 12)
    r = ml.evaluate(y, a, measures=["auc"], ci=0.9)
    row = r.intervals().set_index("measure").loc["auc"]
    n_pos = int(np.sum(y))
    lo, hi = newcombe_auc_interval(float(row["value"]), n_pos, y.size - n_pos, 0.9)
    assert (row["lo"], row["hi"]) == (lo, hi)


# ----------------------------------------------------------------- McNemar and Tango
def test_mcnemar_score_is_statsmodels_and_agrees_with_tango() -> None:
    sm = pytest.importorskip("statsmodels.stats.contingency_tables")
    for b, c in [(11, 3), (3, 11), (0, 5), (7, 7), (40, 21), (1, 0)]:
        ref = sm.mcnemar([[10, b], [c, 10]], exact=False, correction=False).pvalue
        assert iv.mcnemar_score(b, c) == pytest.approx(ref, rel=1e-12, abs=1e-15)
        for level in (0.9, 0.95, 0.99):
            lo, hi = iv.tango_interval(b, c, 100, level)
            assert (lo > 0 or hi < 0) == (iv.mcnemar_score(b, c) < 1 - level)


def test_the_issue_s_accuracy_row_no_longer_contradicts_itself() -> None:
    """11 cases where A alone is right, 3 where B alone is: the p-value and Tango's
    interval now come from one statistic."""
    y = np.ones(200, dtype=int)
    a = np.full(200, 0.9)
    b = np.full(200, 0.9)
    b[:11] = 0.1
    a[11:14] = 0.1
    r = ml.compare_classifiers(y.tolist() + [0] * 50, {"a": list(a) + [0.1] * 50,
                                                      "b": list(b) + [0.1] * 50},
                               measures=["acc"], n_boot=200)
    row = r.tests().iloc[0]
    assert row["p"] == pytest.approx(iv.mcnemar_score(11, 3))
    assert (row["lo"] > 0) == (row["p"] < 0.05)


# ----------------------------------------------------------------- the kink
def test_kink_measures_withheld_where_the_sample_cannot_tell_the_sides_apart() -> None:
    even = cp.single_draws(BinaryCounts(40, 10, 10, 40), "random", np.random.default_rng(0))
    apart = cp.single_draws(BinaryCounts(45, 30, 5, 20), "random", np.random.default_rng(0))
    for name in ("ri", "op", "avri", "oarp"):
        assert kink_reason(name, even, 0.95) is not None
    assert kink_reason("ri", apart, 0.95) is None
    y = np.r_[np.ones(50), np.zeros(50)]
    s = np.r_[np.full(40, 0.9), np.full(10, 0.1), np.full(10, 0.9), np.full(40, 0.1)]
    with pytest.warns(UndefinedMeasureWarning, match="cannot tell spec from sens"):
        r = ml.evaluate(y, s, measures=["ri", "f1"], ci=0.95)
    t = r.intervals().set_index("measure")
    assert math.isnan(t.loc["ri", "lo"]) and t.loc["ri", "method"].startswith("no interval")
    assert not math.isnan(t.loc["f1", "lo"])


# ----------------------------------------------------------------- one rule for every row
def _data(n: int, pi: float, seed: int, *, few_flags: bool = False
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    while True:
        y = (rng.random(n) < pi).astype(int)
        if 0 < y.sum() < n:
            break
    e = rng.normal(size=(2, n))
    cut = 2.3 if few_flags else 0.8
    a = 1 / (1 + np.exp(-(1.2 * y + e[0] - cut)))
    b = 1 / (1 + np.exp(-(1.5 * y + 0.5 * e[0] + 0.87 * e[1] - cut - 0.2)))
    return y, a, b


@pytest.mark.parametrize("n, pi, few, stratify", [
    (80, 0.08, False, False), (120, 0.05, False, True), (150, 0.5, True, False),
    (600, 0.3, False, False), (600, 0.3, False, True)])
def test_every_paired_row_excludes_zero_exactly_when_p_is_below_alpha(
        n: int, pi: float, few: bool, stratify: bool) -> None:
    """Every registered measure and every pair of three models, on small and large
    comparisons in both designs: the interval excludes 0 exactly when p < 1 − level."""
    rng = np.random.default_rng(n)
    y, a, b = _data(n, pi, n, few_flags=few)
    c = np.clip(a + rng.normal(0, 0.05, n), 0.001, 0.999)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for level in (0.9, 0.95):
            r = ml.compare_classifiers(y, {"a": a, "b": b, "c": c}, ci=level, n_boot=300,
                                       measures="all",
                                       stratify=stratify, random_state=2)
            t = r.tests()
            t = t[np.isfinite(t.p) & np.isfinite(t.lo) & np.isfinite(t.hi)]
            assert len(t) > 40
            bad = t[((t.lo > 0) | (t.hi < 0)) != (t.p < 1 - level)]
            assert bad.empty, bad[["a", "b", "measure", "lo", "hi", "p", "interval"]]
