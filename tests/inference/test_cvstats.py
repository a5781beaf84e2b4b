"""The statistics of cross-validated comparisons (inference/learners/cvstats.py).

Oracles: the formulas written out with scipy's distributions; mlxtend's
``paired_ttest_5x2cv`` and ``combined_ftest_5x2cv`` on the same splits (1e-12); a
brute-force nested cross-validation written from its definition (loops over folds and
cases); the interval-inverts-the-test identity.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from measurelab.exceptions import MeasurelabError, UndefinedMeasureWarning
from measurelab.inference.learners.cvstats import (
    combined_f_5x2cv,
    corrected_t,
    nested_cv_interval,
    paired_t_5x2cv,
)


# ------------------------------------------------------------------- corrected t
@pytest.mark.parametrize("seed", range(6))
def test_corrected_t_from_its_definition(seed):
    g = np.random.default_rng(seed)
    k, r = int(g.integers(2, 11)), int(g.integers(1, 6))
    d = g.normal(0.01 * seed, 0.02, k * r)
    ratio = 1.0 / (k - 1)
    res = corrected_t(d, test_train_ratio=ratio, ci=0.9)
    m = d.size
    se = math.sqrt((1.0 / m + ratio) * np.var(d, ddof=1))
    t = d.mean() / se
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), m - 1), rel=1e-12)
    q = stats.t.ppf(0.95, m - 1)
    assert (res.lo, res.hi) == pytest.approx((d.mean() - q * se, d.mean() + q * se), rel=1e-12)
    assert res.df == m - 1 and res.method == "corrected-t"
    # the plain t is the special case ratio → 0: the correction only widens
    plain = stats.ttest_1samp(d, 0.0)
    assert abs(res.statistic) < abs(plain.statistic)


@pytest.mark.parametrize("seed", range(20))
def test_every_interval_inverts_its_test(seed):
    g = np.random.default_rng(seed)
    level = float(g.uniform(0.8, 0.99))
    d = g.normal(float(g.normal(0, 0.02)), 0.02, 10)
    grid = g.normal(float(g.normal(0, 0.03)), 0.03, (5, 2))
    for res in (corrected_t(d, test_train_ratio=0.25, ci=level), paired_t_5x2cv(grid, ci=level),
                combined_f_5x2cv(grid, ci=level)):
        if math.isnan(res.lo):
            continue
        outside = res.lo > 0 or res.hi < 0
        assert outside == (res.pvalue < 1 - level), res.method


def test_corrected_t_zero_variance_follows_paired_ttest():
    r = corrected_t([0.0] * 5, test_train_ratio=0.25)
    assert (r.statistic, r.pvalue, r.lo, r.hi) == (0.0, 1.0, 0.0, 0.0)
    r = corrected_t([0.02] * 5, test_train_ratio=0.25)
    assert r.pvalue == 0.0 and r.lo == r.hi == pytest.approx(0.02)


# --------------------------------------------------------------------------- 5x2cv
def _mlxtend_splits(n, seed):
    """mlxtend's five half splits: RandomState(seed).randint(0, 32767) seeds each
    ``train_test_split(test_size=0.5)``."""
    from sklearn.model_selection import train_test_split

    rng = np.random.RandomState(seed)
    out = []
    for _ in range(5):
        a, b = train_test_split(np.arange(n), test_size=0.5, random_state=rng.randint(0, 32767))
        out += [(a, b), (b, a)]
    return out


@pytest.mark.parametrize(("seed", "first"), [(0, "lr"), (7, "lr"), (0, "rf"), (3, "rf")])
def test_5x2cv_equals_mlxtend_on_the_same_splits(seed, first):
    """Equal to mlxtend's on its own splits, for a random forest too: its fits depend on
    the order of the training cases, and mlxtend fits on the shuffled halves as
    ``train_test_split`` returns them, which is the order compare_learners fits in."""
    evaluate = pytest.importorskip("mlxtend.evaluate")
    from sklearn.datasets import make_classification
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB

    from measurelab import compare_learners

    X, y = make_classification(n_samples=151, n_features=8, flip_y=0.2, random_state=seed)
    a = (LogisticRegression() if first == "lr"
         else RandomForestClassifier(n_estimators=25, random_state=0))
    nb = GaussianNB()
    t_ref, p_ref = evaluate.paired_ttest_5x2cv(a, nb, X, y, random_seed=seed)
    f_ref, pf_ref = evaluate.combined_ftest_5x2cv(a, nb, X, y, random_seed=seed)
    r = compare_learners({first: a, "nb": nb}, X, y, cv=_mlxtend_splits(151, seed),
                         measures=["acc"], progress=False)
    assert r.n_repeats == 5 and r.n_folds == 2 and r.method == "5x2cv"
    t = r.tests().set_index("method")
    assert t.loc["5x2cv-paired-t", "statistic"] == pytest.approx(t_ref, abs=1e-12, rel=1e-12)
    assert t.loc["5x2cv-paired-t", "p"] == pytest.approx(p_ref, abs=1e-12)
    assert t.loc["5x2cv-combined-F", "statistic"] == pytest.approx(f_ref, abs=1e-12,
                                                                   rel=1e-12)
    assert t.loc["5x2cv-combined-F", "p"] == pytest.approx(pf_ref, abs=1e-12)


def test_5x2cv_by_hand():
    d = np.array([[0.02, 0.01], [0.03, 0.00], [0.01, 0.02], [0.02, 0.04], [0.00, 0.01]])
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    t = paired_t_5x2cv(d)
    assert t.statistic == pytest.approx(d[0, 0] / math.sqrt(s2.sum() / 5), rel=1e-12)
    assert t.pvalue == pytest.approx(2 * stats.t.sf(abs(t.statistic), 5), rel=1e-12)
    f = combined_f_5x2cv(d)
    assert f.statistic == pytest.approx((d**2).sum() / (2 * s2.sum()), rel=1e-12)
    assert f.pvalue == pytest.approx(stats.f.sf(f.statistic, 10, 5), rel=1e-12)
    # the F interval's ends are exactly where the shifted F reaches its critical value
    crit = stats.f.ppf(0.95, 10, 5)
    for end in (f.lo, f.hi):
        assert ((d - end) ** 2).sum() / (2 * s2.sum()) == pytest.approx(crit, rel=1e-9)


def test_5x2cv_degenerate_and_bad_input():
    flat = np.tile([[0.01], [0.02], [0.0], [0.03], [0.01]], (1, 2))
    with pytest.warns(UndefinedMeasureWarning):
        assert math.isnan(paired_t_5x2cv(flat).statistic)
    with pytest.warns(UndefinedMeasureWarning):
        assert math.isnan(combined_f_5x2cv(flat).pvalue)
    with pytest.raises(MeasurelabError, match=r"shape \(5, 2\)"):
        paired_t_5x2cv(np.zeros((4, 2)))
    with pytest.raises(MeasurelabError, match="replication 2, fold 1"):
        combined_f_5x2cv([[0, 0], [np.nan, 0], [0, 0], [0, 0], [0, 0]])


# -------------------------------------------------------------------- nested CV
def _nested_by_definition(outer, inner, folds, level):
    """The nested CV interval written out case by case (the published algorithm)."""
    R, n, K = inner.shape
    a_terms, b_terms, pooled = [], [], []
    for r in range(R):
        for k in range(K):
            e_out = [outer[r, i] for i in range(n) if folds[r, i] == k]
            e_in = [inner[r, i, k] for i in range(n) if folds[r, i] != k]
            a_terms.append(sum(e_in) / len(e_in) - sum(e_out) / len(e_out))
            b_terms.append(np.var(e_out, ddof=1) / len(e_out))
        pooled += [inner[r, i, k] for i in range(n) for k in range(K) if folds[r, i] != k]
    mse = np.mean(np.square(a_terms) - np.array(b_terms))
    sd = np.std(pooled, ddof=1)
    n_sub = math.floor(n * (K - 1) / K)
    infl = min(max(math.sqrt(max(mse, 0.0)) / (sd / math.sqrt(n_sub)), 1.0), math.sqrt(K))
    bias = (np.mean(pooled) - np.mean(outer)) * (1 + ((K - 2) / K) ** 1.5)
    est = np.mean(pooled) - bias
    z = stats.norm.ppf(0.5 + level / 2)
    return est, est - z * sd / math.sqrt(n) * infl, est + z * sd / math.sqrt(n) * infl, infl


@pytest.mark.parametrize("seed", range(5))
def test_nested_cv_interval_from_its_definition(seed):
    g = np.random.default_rng(seed)
    R, n, K = int(g.integers(1, 4)), int(g.integers(20, 40)), int(g.integers(3, 7))
    folds = np.stack([g.permutation(np.arange(n) % K) for _ in range(R)])  # unequal folds too
    base = g.random(n)
    outer = base + g.normal(0, 0.3, (R, n))
    inner = base[None, :, None] + 0.05 + g.normal(0, 0.3, (R, n, K))
    inner[np.arange(R)[:, None], np.arange(n)[None, :], folds] = np.nan
    level = float(g.uniform(0.8, 0.95))
    res = nested_cv_interval(outer, inner, folds, ci=level)
    est, lo, hi, infl = _nested_by_definition(outer, inner, folds, level)
    assert (res.estimate, res.lo, res.hi, res.inflation) == pytest.approx((est, lo, hi, infl),
                                                                          rel=1e-10)
    assert (res.lo > 0 or res.hi < 0) == (res.pvalue < 1 - level)


def test_nested_cv_interval_refuses_bad_layouts():
    folds = np.array([[0, 1, 2, 0, 1, 2]])
    outer = np.zeros((1, 6))
    inner = np.zeros((1, 6, 3))
    with pytest.raises(MeasurelabError, match="NaN exactly where"):
        nested_cv_interval(outer, inner, folds)
    with pytest.raises(MeasurelabError, match="at least 3 folds"):
        nested_cv_interval(outer, np.zeros((1, 6, 2)), folds % 2)
    small = np.array([[0, 1, 1, 2, 2, 2]])
    lonely = np.zeros((1, 6, 3))
    lonely[0, np.arange(6), small[0]] = np.nan
    with pytest.raises(MeasurelabError, match="fold 1 has 1 case"):
        nested_cv_interval(outer, lonely, small)
    inner[0, np.arange(6), folds[0]] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = nested_cv_interval(outer, inner, folds)  # all losses 0: a point, no warning
    assert (res.lo, res.hi, res.pvalue) == (0.0, 0.0, 1.0)
