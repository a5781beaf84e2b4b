"""The weighted kappas, Scott's π, Gwet's AC1 and PyCM's class statistics (issue 44)
against independent routes: scikit-learn's ``cohen_kappa_score`` and ``jaccard_score``,
PyCM 4.x (class statistics DOR, MK, FDR, FOR, J, G; overall Scott PI, Gwet AC1), the
definitions written out, and identities between measures."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, jaccard_score

import measurelab as ml
from measurelab.exceptions import UndefinedMeasureWarning
from measurelab.measures.base import registry
from measurelab.stats.confusion import BinaryCounts

#: measurelab name → PyCM's class statistic
CLASS_STATS = {"dor": "DOR", "markedness": "MK", "fdr": "FDR", "for_rate": "FOR",
               "jaccard": "J", "fowlkes_mallows": "G"}
#: measurelab name → PyCM's overall statistic
OVERALL = {"scott_pi": "Scott PI", "gwet_ac1": "Gwet AC1"}
CATALOGUE = ["kappa_linear", "kappa_quadratic", *OVERALL, *CLASS_STATS]


def _labels(seed: int, k: int, n: int):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    pred = np.where(rng.random(n) < 0.45, y, rng.integers(0, k, n))
    if seed % 3 == 0:  # a class never predicted: undefined cells
        gone = int(rng.integers(0, k))
        pred[pred == gone] = (gone + 1) % k
    return rng, y, pred


def _dor_by_definition(tp, fp, fn, tn) -> float:
    """(tp·tn) / (fp·fn) with x/0 = +inf and 0/0 undefined (NaN)."""
    num, den = Fraction(tp) * Fraction(tn), Fraction(fp) * Fraction(fn)
    if den == 0:
        return math.nan if num == 0 else math.inf
    return float(num / den)


# ------------------------------------------------------------------ weighted kappa
@pytest.mark.parametrize("k", [3, 4, 6])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_kappa_equals_scikit_learn(k, seed, weights):
    rng, y, pred = _labels(seed, k, 150)
    labels = rng.permutation(k).tolist()  # an ordinal order rarely is the sorted one
    name = f"kappa_{weights}"
    for w in (None, rng.uniform(0.1, 3.0, y.size), rng.integers(1, 5, y.size)):
        for order in (None, labels):
            got = ml.evaluate(y, pred, labels=order, measures=[name], sample_weight=w)[name]
            want = cohen_kappa_score(y, pred, labels=order, weights=weights, sample_weight=w)
            assert got == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_kappa_of_probabilities_is_that_of_their_arg_max(weights):
    rng = np.random.default_rng(7)
    y = rng.integers(0, 5, 400)
    P = rng.dirichlet(np.ones(5), 400) + 0.3 * np.eye(5)[y]
    P /= P.sum(axis=1, keepdims=True)
    w = rng.uniform(0.5, 2.0, 400)
    order = [4, 2, 0, 1, 3]
    got = ml.evaluate(y, P[:, order], labels=order, measures=[f"kappa_{weights}"],
                      sample_weight=w)[f"kappa_{weights}"]
    pred = np.array(order)[P[:, order].argmax(axis=1)]
    assert got == pytest.approx(cohen_kappa_score(y, pred, labels=order, weights=weights,
                                                  sample_weight=w), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_weighted_kappa_of_two_classes_is_kappa(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 120)
    s = np.clip(0.6 * y + rng.normal(0.2, 0.3, 120), 0, 1)
    w = None if seed % 2 else rng.uniform(0.2, 2.0, 120)
    r = ml.evaluate(y, s, measures=["kappa", "kappa_linear", "kappa_quadratic"],
                    sample_weight=w)
    want = cohen_kappa_score(y, (s > 0.5).astype(int), sample_weight=w)
    for name in ("kappa", "kappa_linear", "kappa_quadratic"):
        assert r[name] == pytest.approx(want, abs=1e-12)
    assert r["kappa_linear"] == r["kappa"] == r["kappa_quadratic"]


def test_weighted_kappa_is_exact_on_whole_counts():
    """Whole counts are summed in integers and rounded once: counts of 10¹⁶ (beyond the
    doubles' integers) give the value of the same matrix divided by 10¹⁶."""
    from measurelab.stats.bundle import MultiStats
    from measurelab.stats.confusion import MultiCounts

    m = np.array([[5, 2, 1], [1, 6, 2], [0, 3, 7]], dtype=float)
    small = MultiStats(counts=MultiCounts(m, (0, 1, 2)))
    big = MultiStats(counts=MultiCounts(m * 1e16, (0, 1, 2)))
    for name in ("kappa_linear", "kappa_quadratic", "scott_pi", "gwet_ac1"):
        mm = registry.get(name)
        assert mm.compute(big) == mm.compute(small), name
    y = np.repeat(np.repeat(np.arange(3), 3), m.astype(int).ravel())
    p = np.repeat(np.tile(np.arange(3), 3), m.astype(int).ravel())
    assert registry.get("kappa_quadratic").compute(small) == pytest.approx(
        cohen_kappa_score(y, p, weights="quadratic"), abs=1e-15)


# ------------------------------------------------------------------------ PyCM
def _pycm(y, pred, w, k):
    import pycm  # a test extra, installed by `make test`

    return pycm.ConfusionMatrix(y.tolist(), pred.tolist(), sample_weight=w,
                                classes=list(range(k)))


def _check_class_stat(name: str, got: float, cm, c, counts) -> None:
    want = cm.class_stat[CLASS_STATS[name]][c]
    if want != "None":
        assert got == pytest.approx(want, rel=1e-9, abs=1e-12), (name, c)
        return
    # PyCM says None: undefined; DOR is the ratio's limit where only its denominator is 0
    # (lr_pos is +inf there too), NaN where it is 0/0 (PyCM's PLR and NLR say None there)
    if name == "dor":
        want_dor = _dor_by_definition(*counts)
        assert got == want_dor or (math.isnan(got) and math.isnan(want_dor)), (got, counts)
    else:
        assert math.isnan(got), (name, c, got)


@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("seed", range(8))
def test_statistics_equal_pycm(k, seed):
    """Random matrices with real case weights (PyCM's ``sample_weight``) and without; k = 2
    is the positive class (1) of binary input."""
    rng, y, pred = _labels(seed, k, int(np.random.default_rng(seed).integers(8, 60)))
    w = rng.uniform(0.1, 3.0, y.size) if seed % 2 else None
    cm = _pycm(y, pred, w, k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        if k == 2:
            r = ml.evaluate(y, pred.astype(float), measures=CATALOGUE, sample_weight=w)
            per = {name: [float(r[name])] for name in CLASS_STATS}
            classes = [1]
        else:
            r = ml.evaluate(y, pred, labels=list(range(k)), measures=list(OVERALL),
                            sample_weight=w)
            per = dict(ml.evaluate(y, pred, labels=list(range(k)), measures=list(CLASS_STATS),
                                   sample_weight=w, average=None))
            classes = list(range(k))
    for name, key in OVERALL.items():
        want = cm.overall_stat[key]
        if want == "None":
            assert math.isnan(r[name])
        else:
            assert r[name] == pytest.approx(want, abs=1e-9), name
    for name in CLASS_STATS:
        for j, c in enumerate(classes):
            counts = (cm.TP[c], cm.FP[c], cm.FN[c], cm.TN[c])
            _check_class_stat(name, float(per[name][j]), cm, c, counts)


@pytest.mark.parametrize("seed", range(6))
def test_statistics_equal_pycm_on_a_matrix_of_weighted_counts(seed):
    """PyCM built from a matrix (whole weighted counts: frequency weights), zeros included."""
    import pycm

    rng = np.random.default_rng(50 + seed)
    k = int(rng.integers(2, 6))
    m = rng.integers(0, 4, (k, k)) * rng.integers(1, 6, (k, k))
    m[rng.integers(0, k), :] *= seed % 2  # sometimes a class without cases
    if m.sum() == 0:
        m[0, 0] = 1
    cm = pycm.ConfusionMatrix(matrix={i: {j: int(m[i, j]) for j in range(k)}
                                      for i in range(k)})
    from measurelab.stats.bundle import MultiStats
    from measurelab.stats.confusion import MultiCounts

    counts = MultiCounts(m.astype(float), tuple(range(k)))
    ovr = counts.one_vs_rest()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        for name, key in OVERALL.items():
            mm = registry.get(name)
            got = (mm.formula(BinaryCounts(*(float(v) for v in (m[0, 0], m[1, 0], m[0, 1],
                                                                m[1, 1]))))
                   if k == 2 else mm.compute(MultiStats(counts=counts)))
            want = cm.overall_stat[key]
            assert (math.isnan(got) if want == "None" else got == pytest.approx(want,
                                                                                  abs=1e-9))
        for name in CLASS_STATS:
            values = np.asarray(registry.get(name).formula(ovr), dtype=float)
            for c in range(k):
                cells = (ovr.tp[c], ovr.fp[c], ovr.fn[c], ovr.tn[c])
                _check_class_stat(name, float(values[c]), cm, c, cells)


@pytest.mark.parametrize(("name", "counts", "what"), [
    ("fdr", (0, 0, 3, 5), "false discovery rate"),
    ("for_rate", (3, 5, 0, 0), "false omission rate"),
    ("jaccard", (0, 0, 0, 5), "Jaccard index"),
    ("fowlkes_mallows", (0, 0, 2, 5), "Fowlkes–Mallows index"),
    ("markedness", (0, 0, 2, 5), "markedness"),
    ("dor", (0, 0, 2, 5), "diagnostic odds ratio"),
    ("scott_pi", (4, 0, 0, 0), "Scott's pi"),
])
def test_undefined_values_are_nan_with_a_warning(name, counts, what):
    with pytest.warns(UndefinedMeasureWarning, match=what):
        v = registry.get(name).formula(BinaryCounts(*counts))
    assert math.isnan(v)


def test_dor_at_a_zero_cell_is_the_ratio_s_limit():
    """One of fp, fn is 0 and tp·tn is not: +inf, as lr_pos is at fp = 0 (PyCM says None);
    tn = 0 with fp·fn > 0: 0."""
    assert registry.get("dor").formula(BinaryCounts(5, 0, 2, 7)) == math.inf
    assert ml.evaluate_counts(tp=5, fp=0, fn=2, tn=7)["lr_pos"] == math.inf
    assert registry.get("dor").formula(BinaryCounts(5, 3, 2, 0)) == 0.0


# ------------------------------------------------------------------- scikit-learn
@pytest.mark.parametrize("seed", range(4))
def test_jaccard_equals_scikit_learn(seed):
    rng, y, pred = _labels(seed + 1, 4, 200)  # every class predicted: no 0/0
    w = rng.uniform(0.1, 3.0, y.size)
    for weight in (None, w):
        for average in ("macro", "weighted", "micro"):
            got = ml.evaluate(y, pred, measures=["jaccard"], average=average,
                              sample_weight=weight)["jaccard"]
            assert got == pytest.approx(jaccard_score(y, pred, average=average,
                                                      sample_weight=weight), abs=1e-12)
        per = ml.evaluate(y, pred, measures=["jaccard"], average=None,
                          sample_weight=weight)["jaccard"]
        np.testing.assert_allclose(per, jaccard_score(y, pred, average=None,
                                                      sample_weight=weight), rtol=1e-12)
        yb, pb = (y > 1).astype(int), (pred > 1).astype(float)
        assert ml.evaluate(yb, pb, measures=["jaccard"], sample_weight=weight)["jaccard"] \
            == pytest.approx(jaccard_score(yb, pb.astype(int), sample_weight=weight),
                             abs=1e-12)


# ------------------------------------------------------------------------ identities
@pytest.mark.parametrize("seed", range(10))
def test_identities(seed):
    """MCC² = informedness · markedness; F1 = 2J / (1 + J); FM² = precision · recall;
    DOR = lr_pos / lr_neg; fdr = 1 − prec; for = 1 − npv; Scott's π, Gwet's AC1 and
    kappa from their chance agreements written out."""
    rng = np.random.default_rng(seed)
    tp, fp, fn, tn = (float(v) for v in rng.uniform(1, 50, 4))
    r = ml.evaluate_counts(tp=tp, fp=fp, fn=fn, tn=tn, measures=[
        "mcc", "youden", "markedness", "f1", "jaccard", "fowlkes_mallows", "prec", "sens",
        "dor", "lr_pos", "lr_neg", "fdr", "for_rate", "npv", "scott_pi", "gwet_ac1"])
    assert r["mcc"] ** 2 == pytest.approx(r["youden"] * r["markedness"], rel=1e-12)
    assert r["f1"] == pytest.approx(2 * r["jaccard"] / (1 + r["jaccard"]), rel=1e-12)
    assert r["fowlkes_mallows"] ** 2 == pytest.approx(r["prec"] * r["sens"], rel=1e-12)
    assert r["dor"] == pytest.approx(r["lr_pos"] / r["lr_neg"], rel=1e-12)
    assert r["fdr"] == pytest.approx(1 - r["prec"], abs=1e-12)
    assert r["for_rate"] == pytest.approx(1 - r["npv"], abs=1e-12)
    n = tp + fp + fn + tn
    po = (tp + tn) / n
    p1, p0 = (2 * tp + fp + fn) / (2 * n), (2 * tn + fp + fn) / (2 * n)
    assert r["scott_pi"] == pytest.approx((po - p1**2 - p0**2) / (1 - p1**2 - p0**2),
                                          rel=1e-12)
    pe = p1 * (1 - p1) + p0 * (1 - p0)
    assert r["gwet_ac1"] == pytest.approx((po - pe) / (1 - pe), rel=1e-12)


def test_the_catalogue_is_named_not_default():
    """Computed when named (the default set, and its cost, stay as they were); one formula
    each: no second registration under another name."""
    default = ml.evaluate([0, 1, 1, 0, 1], [0.2, 0.7, 0.4, 0.1, 0.9])
    assert not set(CATALOGUE) & set(default)
    for name in CATALOGUE:
        m = registry.get(name)
        assert m.when_named and m.cost == "linear" and m.supports_multiclass
    assert registry.get("informedness").name == "youden"
    assert registry.get("jaccard_score").name == "jaccard"
    assert registry.get("qwk").name == "kappa_quadratic"


# ------------------------------------------------------------- intervals, front ends
def test_intervals_and_comparisons():
    """evaluate(ci=) gives every catalogue measure an interval (two classes: the posterior
    of the confusion cells; k: the bootstrap), judged by the catalogue's coverage study
    (no '(no coverage evidence)'); compare_classifiers reports the values evaluate gives."""
    rng = np.random.default_rng(11)
    y = rng.integers(0, 3, 300)
    a = np.where(rng.random(300) < 0.6, y, rng.integers(0, 3, 300))
    b = np.where(rng.random(300) < 0.7, y, rng.integers(0, 3, 300))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        single = ml.evaluate(y, a, measures=CATALOGUE, ci=0.95, n_boot=200).intervals()
        binary = ml.evaluate((y == 2).astype(int), (a == 2).astype(float), measures=CATALOGUE,
                             ci=0.95).intervals()
        cmp = ml.compare_classifiers(y, {"a": a, "b": b}, measures=CATALOGUE, n_boot=200)
    assert single.method.str.startswith("bootstrap").all()
    assert binary.method.str.startswith("dirichlet-posterior").all()
    for t in (single, binary):
        assert np.isfinite(t.lo).all() and np.isfinite(t.hi).all()
        assert (t.lo <= t.value).all() and (t.value <= t.hi).all()
        assert not t.method.str.contains("no coverage evidence").any(), t.method.tolist()
    vals = cmp.values()
    for name in CATALOGUE:
        assert vals.loc[name, "a"] == pytest.approx(ml.evaluate(y, a, measures=[name])[name],
                                                    abs=1e-12)
    assert not cmp.tests().interval.isna().any()


def test_command_line_and_pages(tmp_path, capsys):
    """The command line computes the catalogue when named (binary file, with intervals),
    equal to the API; a comparison page shows the measures with their glossary names."""
    import json

    import pandas as pd

    from measurelab.cli import main

    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, 300)
    s = np.round(np.clip(0.5 * y + rng.normal(0.25, 0.25, 300), 0, 1), 2)
    pd.DataFrame({"y": y, "s": s}).to_csv(tmp_path / "b.csv", index=False)
    names = ",".join(CATALOGUE)
    assert main(["evaluate", str(tmp_path / "b.csv"), "--label-col", "y", "--score-col", "s",
                 "--measures", names, "--json", "--ci", "0.95"]) == 0
    out = json.loads(capsys.readouterr().out)["models"]["s"]
    api = ml.evaluate(y, s, measures=CATALOGUE, ci=0.95).intervals().set_index("measure")
    for name in CATALOGUE:
        for key in ("value", "lo", "hi", "method"):
            assert out[name][key] == api.loc[name, key], (name, key)
    k = rng.integers(0, 3, 200)
    a = np.where(rng.random(200) < 0.6, k, rng.integers(0, 3, 200))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ml.compare_classifiers(k, {"a": a, "b": k}, measures=["kappa_quadratic", "dor"],
                                     n_boot=100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp.to_html(tmp_path / "cmp.html")
    text = (tmp_path / "cmp.html").read_text()
    assert "kappa_quadratic" in text and "Quadratically weighted kappa" in text
    assert "Diagnostic odds ratio" in text


def test_a_verdict_below_the_bar_reaches_the_method_column():
    """The catalogue's study found one model's k-class dor short (0.873 with 24 cases in the
    smallest class): with 10–29 cases in the smallest class its interval is withheld and
    the method column says why; with more it is given."""
    rng = np.random.default_rng(3)
    y = rng.choice(5, 300, p=[0.4, 0.25, 0.15, 0.12, 0.08])
    y[:5] = np.arange(5)
    pred = np.where(rng.random(300) < 0.6, y, rng.integers(0, 5, 300))
    assert 10 <= np.bincount(y).min() < 30
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = ml.evaluate(y, pred, measures=["dor", "jaccard"], ci=0.95,
                        n_boot=200).intervals().set_index("measure")
    assert t.loc["dor", "method"].startswith("no interval: coverage 0.873 < 0.90 with 10–29 "
                                             "cases in the smallest class")
    assert math.isnan(t.loc["dor", "lo"]) and math.isnan(t.loc["dor", "hi"])
    assert t.loc["jaccard", "method"] == "bootstrap-bca" and np.isfinite(t.loc["jaccard", "lo"])
