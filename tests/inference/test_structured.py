"""Clustered cases (groups=) and subgroups (by=): issue 31."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

import measurelab as ml
from measurelab import compare_classifiers, registry
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError, UndefinedMeasureWarning
from measurelab.inference.bootstrap import CaseDesign, ClusterDesign, run_bootstrap
from measurelab.inference.classifiers.clustered import (
    check_groups,
    clustered_paired_proportion,
    obuchowski_variance,
)
from measurelab.inference.classifiers.structured import max_t_pvalue
from measurelab.inference.withholding import withholding


def clustered_data(n_clusters: int, size: int, icc: float, seed: int, auc_shift: float = 1.0):
    """Clusters of ``size`` cases whose labels and scores share a cluster effect."""
    rng = np.random.default_rng(seed)
    cid = np.repeat(np.arange(n_clusters), size)
    u = rng.normal(size=n_clusters)[cid]
    lat = math.sqrt(icc) * u + math.sqrt(1 - icc) * rng.normal(size=cid.size)
    y = (lat > 0).astype(int)
    v = rng.normal(size=n_clusters)[cid]
    noise = math.sqrt(icc) * v + math.sqrt(1 - icc) * rng.normal(size=cid.size)
    a = 1 / (1 + np.exp(-(auc_shift * (2 * y - 1) + noise)))
    b = 1 / (1 + np.exp(-(0.7 * auc_shift * (2 * y - 1) + noise
                          + 0.5 * rng.normal(size=cid.size))))
    return y, a, b, cid


# ------------------------------------------------------------------ cluster bootstrap
@pytest.mark.parametrize("stratify", [False, True])
def test_singleton_clusters_equal_the_case_bootstrap_bitwise(stratify):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300).astype(bool)
    s1 = np.round(rng.uniform(size=300), 1)   # many ties
    s2 = np.round(rng.uniform(size=300), 2)
    ms = [registry.get(k) for k in ("auc", "f1", "brier", "acc")]
    case = run_bootstrap(CaseDesign.from_cases(y, [s1, s2], stratify=stratify), ms, 300, 5)
    clu = run_bootstrap(ClusterDesign.from_cases(y, [s1, s2], groups=np.arange(300)[::-1],
                                                 stratify=stratify), ms, 300, 5)
    assert np.array_equal(case.reps, clu.reps, equal_nan=True)
    assert np.array_equal(case.jack, clu.jack, equal_nan=True)


def test_singleton_groups_give_todays_bootstrap_rows():
    y, a, b, _ = clustered_data(150, 1, 0.0, 1)
    # f1 forced to the bootstrap (its default without clusters is the posterior of the cells)
    kw = dict(measures=["ap", "f1", "brier"], n_boot=200, ci_method="bootstrap-bca")
    r0 = compare_classifiers(y, {"a": a, "b": b}, **kw)
    r1 = compare_classifiers(y, {"a": a, "b": b}, groups=np.arange(y.size), **kw)
    with withholding(False):   # the intervals themselves, whatever the studies found
        tables = ((r0.intervals(), r1.intervals()), (r0.tests(), r1.tests()))
    for t0, t1 in tables:
        assert np.array_equal(t0[["lo", "hi"]].to_numpy(), t1[["lo", "hi"]].to_numpy())
    assert r1.intervals()["method"].str.startswith("cluster-bootstrap-bca").all()


def test_cluster_bootstrap_is_order_and_label_invariant():
    y, a, b, cid = clustered_data(40, 5, 0.3, 2)
    perm = np.random.default_rng(0).permutation(y.size)
    relabel = np.array([f"p{(7 * c) % 40:03d}" for c in cid])
    ms = [registry.get("auc"), registry.get("mcc")]
    r1 = run_bootstrap(ClusterDesign.from_cases(y.astype(bool), [a, b],
                                                groups=check_groups(cid, y.size)), ms, 200, 1)
    r2 = run_bootstrap(ClusterDesign.from_cases(y[perm].astype(bool), [a[perm], b[perm]],
                                                groups=check_groups(relabel[perm], y.size)),
                       ms, 200, 1)
    assert np.array_equal(r1.reps, r2.reps, equal_nan=True)


def test_a_drawn_cluster_brings_all_its_cases():
    y, a, _b, cid = clustered_data(30, 4, 0.3, 4)
    d = ClusterDesign.from_cases(y.astype(bool), [a], groups=check_groups(cid, y.size))
    m = d.draw(np.random.default_rng(0), 50)
    for c in range(d.n_clusters):
        block = m[:, d.cluster == c]
        assert (block == block[:, :1]).all()
    per_cluster = np.stack([m[:, d.cluster == c][:, 0] for c in range(d.n_clusters)], 1)
    assert (per_cluster.sum(axis=1) == 30).all()


def test_stratify_with_mixed_clusters_warns_and_says_so():
    y, a, _b, cid = clustered_data(30, 4, 0.3, 5)
    with pytest.warns(UserWarning, match="resampled jointly"):
        r = compare_classifiers(y, {"a": a}, measures=["f1"], groups=cid, stratify=True,
                                n_boot=100)
    assert "clusters resampled jointly" in r.intervals()["method"][0]


# ------------------------------------------------------------------ Obuchowski
def brute_obuchowski(v_pos, v_neg, cl_pos, cl_neg):
    """Obuchowski (1997) written from the definition: ψ over every pair."""
    x, yv = np.asarray(v_pos), np.asarray(v_neg)
    psi = (x[:, None] > yv[None, :]) + 0.5 * (x[:, None] == yv[None, :])
    n1, n0 = len(x), len(yv)
    theta = psi.sum() / (n1 * n0)
    v10 = psi.sum(axis=1) / n0
    v01 = psi.sum(axis=0) / n1
    clusters = sorted(set(cl_pos) | set(cl_neg))
    big_i = len(clusters)
    s10 = s01 = s11 = 0.0
    for c in clusters:
        m_i = sum(1 for q in cl_pos if q == c)
        k_i = sum(1 for q in cl_neg if q == c)
        a10 = sum(v for v, q in zip(v10, cl_pos, strict=True) if q == c) - m_i * theta
        a01 = sum(v for v, q in zip(v01, cl_neg, strict=True) if q == c) - k_i * theta
        s10 += a10 * a10
        s01 += a01 * a01
        s11 += a10 * a01
    f = big_i / (big_i - 1)
    s10 *= f / n1
    s01 *= f / n0
    s11 *= f
    return theta, s10 / n1 + s01 / n0 + 2 * s11 / (n1 * n0), v10, v01


def test_clustered_delong_equals_obuchowskis_formula():
    y, a, b, cid = clustered_data(25, 6, 0.3, 7)
    r = compare_classifiers(y, {"a": a, "b": b}, measures=["auc"], groups=cid,
                            ci_method="delong")
    yb = y.astype(bool)
    ta, va, v10a, v01a = brute_obuchowski(a[yb], a[~yb], cid[yb], cid[~yb])
    tb, vb, v10b, v01b = brute_obuchowski(b[yb], b[~yb], cid[yb], cid[~yb])
    iv_ = r.intervals().set_index("model")
    assert abs(iv_.loc["a", "value"] - ta) < 1e-12
    assert abs(iv_.loc["a", "se"] - math.sqrt(va)) < 1e-12
    assert abs(iv_.loc["b", "se"] - math.sqrt(vb)) < 1e-12
    assert iv_.loc["a", "method"].startswith("clustered-delong")
    # paired: the same formula on the difference of the placements
    d10, d01 = v10a - v10b, v01a - v01b
    codes = {c: i for i, c in enumerate(sorted(set(cid)))}
    var_d = obuchowski_variance(d10, d01, np.array([codes[c] for c in cid[yb]]),
                                np.array([codes[c] for c in cid[~yb]]), len(codes))
    theta_d, f = ta - tb, len(codes) / (len(codes) - 1)
    m_i = np.bincount(cid[yb], minlength=25)
    k_i = np.bincount(cid[~yb], minlength=25)
    r10 = np.bincount(cid[yb], d10, 25) - m_i * theta_d
    r01 = np.bincount(cid[~yb], d01, 25) - k_i * theta_d
    n1, n0 = yb.sum(), (~yb).sum()
    hand = f * (r10 @ r10 / n1 ** 2 + r01 @ r01 / n0 ** 2 + 2 * (r10 @ r01) / (n1 * n0))
    assert abs(var_d - hand) < 1e-12
    t = r.tests().iloc[0]
    assert abs(t["se"] - math.sqrt(hand)) < 1e-12
    assert t["method"] == "clustered-delong"


def test_clustered_delong_with_singletons_is_delong_times_the_small_sample_factor():
    y, a, _b, _ = clustered_data(120, 1, 0.0, 8)
    r0 = compare_classifiers(y, {"a": a}, measures=["auc"])
    r1 = compare_classifiers(y, {"a": a}, measures=["auc"], groups=np.arange(y.size))
    yb = y.astype(bool)
    n, n1, n0 = y.size, yb.sum(), (~yb).sum()
    _t, _v, v10, v01 = brute_obuchowski(a[yb], a[~yb], np.arange(n)[yb], np.arange(n)[~yb])
    # DeLong: sample variances (ddof 1); Obuchowski with I = n singletons: n/(n − 1)·Σ/N
    s10, s01 = np.var(v10, ddof=1), np.var(v01, ddof=1)
    assert abs(r0.intervals()["se"][0] ** 2 - (s10 / n1 + s01 / n0)) < 1e-12
    factor10 = n * (n1 - 1) / ((n - 1) * n1)
    factor01 = n * (n0 - 1) / ((n - 1) * n0)
    assert abs(r1.intervals()["se"][0] ** 2 - (factor10 * s10 / n1 + factor01 * s01 / n0)
               ) < 1e-12


def test_clustered_accuracy_test_from_its_formula():
    y, a, b, cid = clustered_data(30, 5, 0.3, 9)
    r = compare_classifiers(y, {"a": a, "b": b}, measures=["acc", "err"], groups=cid)
    ca, cb = (a > 0.5) == y, (b > 0.5) == y
    d_i = np.array([np.sum(ca[cid == c]) - np.sum(cb[cid == c]) for c in range(30)], float)
    n_i = np.array([np.sum(cid == c) for c in range(30)], float)
    d = d_i.sum() / n_i.sum()
    var = 30 / 29 * np.sum((d_i - n_i * d) ** 2) / n_i.sum() ** 2
    t = r.tests().set_index("measure")
    assert abs(t.loc["acc", "diff"] - d) < 1e-12
    assert abs(t.loc["acc", "se"] - math.sqrt(var)) < 1e-12
    assert abs(t.loc["err", "lo"] + t.loc["acc", "hi"]) < 1e-12
    assert t.loc["acc", "method"] == "clustered-wald"
    out = clustered_paired_proportion(ca, cb, cid)
    assert (t.loc["acc", "lo"] < 0 < t.loc["acc", "hi"]) == (out[-1] >= 0.05)


def test_evaluate_with_groups_matches_the_comparison():
    y, a, _b, cid = clustered_data(30, 4, 0.3, 10)
    e = ml.evaluate(y, a, measures=["auc", "f1"], ci=0.95, groups=cid, n_boot=200)
    c = compare_classifiers(y, {"model": a}, measures=["auc", "f1"], groups=cid, n_boot=200)
    ei, ci_ = e.intervals(), c.intervals()
    assert np.allclose(ei[["lo", "hi"]].to_numpy(float), ci_[["lo", "hi"]].to_numpy(float),
                       rtol=0, atol=0)
    with pytest.raises(MeasurelabError, match="ci="):
        ml.evaluate(y, a, groups=cid)


def test_clusters_widen_the_interval():
    y, a, _b, cid = clustered_data(60, 10, 0.6, 11)
    se_case = compare_classifiers(y, {"a": a}, measures=["auc"]).intervals()["se"][0]
    se_cl = compare_classifiers(y, {"a": a}, measures=["auc"],
                                groups=cid).intervals()["se"][0]
    assert se_cl > 1.3 * se_case


# -------------------------------------------------------------------- subgroups
def test_by_group_and_fairness_gaps_equal_fairlearn():
    fl = pytest.importorskip("fairlearn.metrics")
    from sklearn.metrics import accuracy_score, recall_score, roc_auc_score

    rng = np.random.default_rng(12)
    n = 900
    sex = rng.choice(["f", "m", "x"], n, p=[0.45, 0.45, 0.1])
    y = rng.integers(0, 2, n)
    s = np.clip(0.25 * y + rng.uniform(0, 0.75, n) + 0.05 * (sex == "m"), 0, 1)
    pred = (s > 0.5).astype(int)
    r = compare_classifiers(y, {"m": s}, measures=["acc", "sens", "auc"], by=sex,
                            n_boot=200)
    bg = r.by_group().pivot(index="group", columns="measure", values="value")
    mf = fl.MetricFrame(metrics={"acc": accuracy_score, "sens": recall_score}, y_true=y,
                        y_pred=pred, sensitive_features=sex)
    mfa = fl.MetricFrame(metrics={"auc": roc_auc_score}, y_true=y, y_pred=s,
                         sensitive_features=sex)
    for g in ("f", "m", "x"):
        assert abs(bg.loc[g, "acc"] - mf.by_group.loc[g, "acc"]) < 1e-12
        assert abs(bg.loc[g, "sens"] - mf.by_group.loc[g, "sens"]) < 1e-12
        assert abs(bg.loc[g, "auc"] - mfa.by_group.loc[g, "auc"]) < 1e-12
    gaps = r.gaps().set_index("measure")
    eod = fl.equalized_odds_difference(y, pred, sensitive_features=sex)
    dpd = fl.demographic_parity_difference(y, pred, sensitive_features=sex)
    assert abs(gaps.loc["equalized_odds", "gap"] - eod) < 1e-12
    assert abs(gaps.loc["demographic_parity", "gap"] - dpd) < 1e-12
    assert abs(gaps.loc["acc", "gap"] - mf.difference()["acc"]) < 1e-12
    assert list(r.gaps().columns) == ["model", "measure", "gap", "lo", "hi", "p", "p_holm",
                                      "high_group", "low_group"]
    assert list(r.by_group().columns) == ["model", "group", "measure", "value", "lo", "hi",
                                          "method"]
    top = mf.by_group["acc"]
    assert gaps.loc["acc", "high_group"] == top.idxmax()
    assert gaps.loc["acc", "low_group"] == top.idxmin()
    assert (gaps["lo"] <= gaps["gap"]).all() and (gaps["gap"] <= gaps["hi"]).all()


def test_by_with_weights_equals_fairlearn():
    fl = pytest.importorskip("fairlearn.metrics")
    rng = np.random.default_rng(13)
    n = 400
    grp = rng.choice(["a", "b"], n)
    y = rng.integers(0, 2, n)
    s = rng.uniform(size=n)
    w = rng.uniform(0.5, 2, n)
    r = compare_classifiers(y, {"m": s}, measures=["acc"], by=grp, sample_weight=w,
                            n_boot=100)
    gaps = r.gaps().set_index("measure")
    pred = (s > 0.5).astype(int)
    dpd = fl.demographic_parity_difference(y, pred, sensitive_features=grp, sample_weight=w)
    eod = fl.equalized_odds_difference(y, pred, sensitive_features=grp, sample_weight=w)
    assert abs(gaps.loc["demographic_parity", "gap"] - dpd) < 1e-12
    assert abs(gaps.loc["equalized_odds", "gap"] - eod) < 1e-12


def test_group_differences_and_holm():
    y, a, b, _ = clustered_data(300, 1, 0.0, 14)
    by = np.repeat(["u", "v", "w"], 100)
    r = compare_classifiers(y, {"a": a, "b": b}, measures=["auc", "f1"], by=by, n_boot=200)
    d = r.group_differences()
    bg = r.by_group().set_index(["model", "group", "measure"])["value"]
    for row in d.itertuples():
        want = bg[(row.model, row.group_a, row.measure)] - bg[(row.model, row.group_b,
                                                                 row.measure)]
        assert abs(row.diff - want) < 1e-15
    assert len(d) == 2 * 2 * 3
    assert (d["p_holm"] >= d["p"]).all()
    assert (r.gaps()["p_holm"] >= r.gaps()["p"]).all()


def test_max_t_pvalue_small_when_groups_differ_and_not_when_alike():
    rng = np.random.default_rng(0)
    alike = np.array([[0.7], [0.7], [0.7]])
    reps = alike + rng.normal(0, 0.05, (400, 3, 1))
    assert max_t_pvalue(alike, reps) > 0.5
    apart = np.array([[0.5], [0.7], [0.9]])
    assert max_t_pvalue(apart, apart + rng.normal(0, 0.05, (400, 3, 1))) < 0.01


def test_by_and_groups_combine():
    y, a, _b, cid = clustered_data(60, 4, 0.3, 15)
    by = np.where(cid % 2 == 0, "even", "odd")
    r = compare_classifiers(y, {"a": a}, measures=["auc", "f1"], by=by, groups=cid,
                            n_boot=200)
    t = r.by_group().set_index(["group", "measure"])
    assert t.loc[("even", "auc"), "method"].startswith("clustered-delong")
    assert t.loc[("even", "f1"), "method"].startswith("cluster-bootstrap")
    assert np.isfinite(r.gaps()["lo"]).all()


def test_group_with_one_class_gives_nan_and_a_warning():
    y = np.array([0, 1] * 20 + [1] * 10)
    s = np.linspace(0, 1, 50)
    by = np.array(["a"] * 40 + ["b"] * 10)
    r = compare_classifiers(y, {"m": s}, measures=["auc", "acc"], by=by, n_boot=100)
    with pytest.warns(UndefinedMeasureWarning):
        t = r.by_group().set_index(["group", "measure"])
    assert math.isnan(t.loc[("b", "auc"), "value"])
    g = r.gaps().set_index("measure")
    assert math.isnan(g.loc["auc", "gap"])  # one group left with a value: no gap


def test_evaluate_by():
    y, a, _b, _ = clustered_data(200, 1, 0.0, 16)
    by = np.repeat(["p", "q"], 100)
    e = ml.evaluate(y, a, measures=["acc", "auc"], ci=0.95, by=by, n_boot=100)
    assert set(e.by_group()["group"]) == {"p", "q"}
    assert "equalized_odds" in set(e.gaps()["measure"])


def test_page_has_the_group_forest_plot(tmp_path):
    y, a, _b, _ = clustered_data(200, 1, 0.0, 17)
    r = compare_classifiers(y, {"a": a}, measures=["auc"], by=np.repeat(["p", "q"], 100),
                            n_boot=100)
    page = r.to_html(tmp_path / "p.html").read_text()
    assert "per group" in page


# ------------------------------------------------------------------------ bad input
@pytest.mark.parametrize("param", ["groups", "by"])
def test_bad_groups_and_by(param):
    y = np.array([0, 1, 0, 1, 0, 1])
    s = np.array([0.1, 0.9, 0.3, 0.7, 0.4, 0.6])
    with pytest.raises(MeasurelabError, match=f"{param} has 5 values but y_true has 6"):
        compare_classifiers(y, {"m": s}, **{param: [0, 0, 1, 1, 2]})
    with pytest.raises(MeasurelabError, match=f"{param} holds nan at position 2"):
        compare_classifiers(y, {"m": s}, **{param: [0, 0, np.nan, 1, 2, 2]})
    with pytest.raises(MeasurelabError, match=f"{param} has 1 distinct id"):
        compare_classifiers(y, {"m": s}, **{param: [7] * 6})
    with pytest.raises(MeasurelabTypeError, match=param):
        compare_classifiers(y, {"m": s}, **{param: {"a": 1}})
    with pytest.raises(MeasurelabError, match=f"{param} holds None at position 1"):
        compare_classifiers(y, {"m": s}, **{param: ["a", None, "b", "b", "a", "a"]})


def test_groups_are_binary_only():
    y = np.array([0, 1, 2, 0, 1, 2])
    p = np.full((6, 3), 1 / 3)
    with pytest.raises(MeasurelabError, match="binary input only"):
        compare_classifiers(y, {"m": p}, groups=[0, 0, 1, 1, 2, 2])


# ------------------------------------------------------------------ small simulation
def _study():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "structured_study.py"
    spec = importlib.util.spec_from_file_location("structured_study", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_study_truth_is_the_population_value():
    """The study's exact population values against a large sample (AUC, acc, F1)."""
    study = _study()
    rng = np.random.default_rng(0)
    y, sa, _sb, _cid = study.draw_clustered(40000, 5, 0.3, rng)
    t = study.truth(study.MU_A)
    big = ml.evaluate(y, sa, measures=["auc", "acc", "f1"], threshold=study.THRESHOLD)
    for m in ("auc", "acc", "f1"):
        assert abs(big[m] - t[m]) < 0.01


def test_small_coverage_simulation():
    """A small version of benchmarks/structured_study.py: clusters of 10, ICC 0.6."""
    cell = _study().coverage_cell(size=10, icc=0.6, n_clusters=60, sims=40, n_boot=100)
    assert cell["clustered-delong single"] >= 0.85
    assert cell["clustered-delong paired"] >= 0.85
    assert cell["case auc single"] < cell["clustered-delong single"]


def test_unpaired_with_clusters_sums_the_clustered_variances():
    ya, a, _b, ca = clustered_data(30, 4, 0.3, 20)
    yb, _a2, b, cb = clustered_data(25, 5, 0.3, 21)
    r = ml.compare_unpaired(ya, a, yb, b, measures=["auc", "f1"], groups_a=ca, groups_b=cb,
                            n_boot=200)
    t = r.tests().set_index("measure")
    ta, va, *_ = brute_obuchowski(a[ya == 1], a[ya == 0], ca[ya == 1], ca[ya == 0])
    tb, vb, *_ = brute_obuchowski(b[yb == 1], b[yb == 0], cb[yb == 1], cb[yb == 0])
    assert abs(t.loc["auc", "diff"] - (ta - tb)) < 1e-12
    assert abs(t.loc["auc", "se"] - math.sqrt(va + vb)) < 1e-12
    assert t.loc["auc", "method"] == "clustered-delong-unpaired"
    assert t.loc["f1", "interval"].startswith("cluster-bootstrap")
    with pytest.raises(MeasurelabError, match="groups_a and groups_b together"):
        ml.compare_unpaired(ya, a, yb, b, groups_a=ca)


def test_curve_bands_resample_clusters():
    y, a, _b, cid = clustered_data(40, 5, 0.6, 22)
    r = compare_classifiers(y, {"a": a}, measures=["auc"], groups=cid, n_boot=100)
    assert isinstance(r._design, ClusterDesign)   # the bands draw from the design
    fig = r.plot()
    assert len(fig.axes) >= 2


def test_a_degenerate_subgroup_interval_warns_as_evaluate_does():
    """A subgroup where the model separates the classes perfectly: DeLong's interval there
    is the point 1, and by_group() says so, naming the model and the group, as evaluate()
    does for a whole test set."""
    rng = np.random.default_rng(4)
    n = 400
    y = np.tile([0, 1], n // 2)
    g = np.where(np.arange(n) < 160, "easy", np.where(np.arange(n) < 200, "few", "hard"))
    s = np.where(g == "hard", np.clip(0.4 + 0.2 * y + rng.normal(0, 0.25, n), 0, 1),
                 0.2 + 0.6 * y)
    r = compare_classifiers(y, {"m": s}, measures=["auc"], by=g, n_boot=200)
    with pytest.warns(UndefinedMeasureWarning,
                      match=r"auc of model 'm' in group 'easy': DeLong interval is the point "
                            r"AUC = 1"):
        t = r.by_group().set_index("group")
    assert t.loc["easy", "lo"] == t.loc["easy", "hi"] == 1.0
    with pytest.warns(UndefinedMeasureWarning, match="DeLong interval is the point AUC = 1"):
        e = ml.evaluate(y[:160], s[:160], measures=["auc"], ci=0.95).intervals()
    assert e.loc[0, "lo"] == 1.0
    # 20 cases a class: the group, like evaluate on it, takes Newcombe's interval
    few = ml.evaluate(y[160:200], s[160:200], measures=["auc"], ci=0.95).intervals()
    from measurelab.inference.evidence import plain_method

    assert t.loc["few", "method"] == few.loc[0, "method"]   # the evidence of its regime
    assert plain_method(t.loc["few", "method"]) == "newcombe-score"
    assert (t.loc["few", "lo"], t.loc["few", "hi"]) == (few.loc[0, "lo"], few.loc[0, "hi"])
