"""Bayesian comparison of classifiers (Benavoli, Corani, Demšar & Zaffalon 2017;
docs/METHODS.md#bayesian).

Oracles: baycomp, the authors' library (``two_on_single`` to 1e-9; ``SignedRankTest`` and
``SignTest`` within Monte Carlo error at 50,000 draws); the signed-rank θ written as the
double sum of its definition; numpy's Dirichlet for the sign test's parameters; scipy's
multivariate normal for the hierarchical likelihood; and, for the hierarchical model (whose
baycomp version needs Stan), data whose answer is plain.
"""

from __future__ import annotations

import doctest
import json
import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import measurelab as ml
from measurelab.exceptions import MeasurelabError, UndefinedMeasureWarning
from measurelab.inference import BayesComparison, bayes_compare, demsar
from measurelab.inference import bayes as bayes_mod
from measurelab.inference.bayes import (
    equicorrelated_loglik,
    signed_rank_theta,
    verdict_of,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "BAYESIAN.md"
#: the hierarchical tests share one compiled sampler: 12 data sets, 4 chains × 500 draws
HIER = {"n_samples": 2000, "n_warmup": 500}
MC_TOL = 0.012


def _folds(seed: int, n: int, shift: float, noise: float = 0.01):
    g = np.random.default_rng(seed)
    a = g.uniform(0.7, 0.9) + g.normal(0, 0.02, n)
    return a, a + shift + g.normal(0, noise, n)


def _datasets(seed: int, n: int, shift: float, noise: float = 0.01, grid: float = 0.0):
    g = np.random.default_rng(seed)
    a = g.uniform(0.6, 0.95, n)
    b = a + g.normal(shift, noise, n)
    if grid:  # ties and exact zero differences
        a, b = np.round(a / grid) * grid, np.round(b / grid) * grid
    return a, b


# --------------------------------------------------------------------- correlated t
@pytest.mark.parametrize("runs", [1, 2, 5])
@pytest.mark.parametrize("rope", [0.0, 0.005, 0.03])
@pytest.mark.parametrize("higher", [True, False])
def test_correlated_t_equals_baycomp(runs, rope, higher):
    baycomp = pytest.importorskip("baycomp")
    for seed, shift in ((0, 0.0), (1, 0.008), (2, -0.02)):
        a, b = _folds(seed, 10 * runs, shift)
        r = bayes_compare(a, b, rope=rope, method="correlated-t", runs=runs,
                          higher_is_better=higher)
        x, y = (a, b) if higher else (-a, -b)
        ref = baycomp.two_on_single(x, y, rope, runs=runs)
        if rope == 0:
            assert r.p_rope == 0.0
            ref = (ref[0], 0.0, ref[1])
        assert r.probabilities == pytest.approx(ref, abs=1e-9)
        assert sum(r.probabilities) == pytest.approx(1.0, abs=1e-12)
        assert r.details["folds"] == 10 and r.details["rho"] == 0.1


def test_correlated_t_closed_form_and_sample():
    a, b = _folds(3, 20, 0.01)
    r = bayes_compare(a, b, rope=0.01, method="correlated-t", runs=2, n_samples=200_000)
    d = b - a
    scale = math.sqrt(np.var(d, ddof=1) * (1 / 20 + 0.1 / 0.9))  # ρ/(1 − ρ), ρ = 1/10
    assert r.details["scale"] == pytest.approx(scale, rel=1e-12)
    assert r.details["df"] == 19 and r.details["mean"] == pytest.approx(d.mean(), rel=1e-12)
    assert r.p_b_better == pytest.approx(stats.t.sf(0.01, 19, d.mean(), scale), abs=1e-12)
    # the sample is the same posterior of the mean of b − a
    assert r.sample.shape == (200_000,)
    assert np.mean(r.sample < -0.01) == pytest.approx(r.p_a_better, abs=0.005)
    assert np.mean(r.sample > 0.01) == pytest.approx(r.p_b_better, abs=0.005)


def test_correlated_t_zero_variance_is_a_point_mass_with_a_warning():
    a = np.array([0.5, 0.25, 0.75, 0.5])
    b = a + 0.125  # exact in binary: every difference is 0.125
    with pytest.warns(UndefinedMeasureWarning, match="point mass"):
        r = bayes_compare(a, b, rope=0.0625, method="correlated-t")
    assert r.probabilities == (0.0, 0.0, 1.0)
    with pytest.warns(UndefinedMeasureWarning):
        wide = bayes_compare(a, b, rope=0.25, method="correlated-t")
    assert wide.probabilities == (0.0, 1.0, 0.0)
    with pytest.warns(UndefinedMeasureWarning):
        same = bayes_compare(a, a, rope=0.0, method="correlated-t")
    assert same.probabilities == (0.5, 0.0, 0.5)  # baycomp's answer at rope 0
    assert np.all(same.sample == 0.0) and not np.isnan(r.sample).any()
    baycomp = pytest.importorskip("baycomp")
    assert baycomp.two_on_single(a, b, 0.0625) == pytest.approx(r.probabilities)


def test_swapping_a_and_b_swaps_the_probabilities():
    a, b = _folds(4, 10, 0.01)
    r = bayes_compare(a, b, rope=0.01, method="correlated-t")
    s = bayes_compare(b, a, rope=0.01, method="correlated-t")
    assert s.probabilities == pytest.approx(r.probabilities[::-1], abs=1e-15)
    low = bayes_compare(a, b, rope=0.01, method="correlated-t", higher_is_better=False)
    assert low.probabilities == pytest.approx(s.probabilities, abs=1e-15)


# ---------------------------------------------------------------------- signed-rank
@pytest.mark.parametrize(("n", "shift", "rope", "grid", "higher"), [
    (30, 0.004, 0.005, 0.0, True),
    (12, 0.01, 0.01, 0.01, True),     # ties, zero differences, sums on the rope's edge
    (50, -0.002, 0.0, 0.0, True),
    (20, 0.006, 0.01, 0.0, False),
])
def test_signed_rank_agrees_with_baycomp(n, shift, rope, grid, higher):
    baycomp = pytest.importorskip("baycomp")
    a, b = _datasets(n, n, shift, grid=grid)
    r = bayes_compare(a, b, rope=rope, method="signed-rank", higher_is_better=higher)
    x, y = (a, b) if higher else (-a, -b)
    ref = baycomp.SignedRankTest.probs(x, y, rope, nsamples=50_000, random_state=1)
    if rope == 0:
        ref = (ref[0], 0.0, ref[1])
    assert r.probabilities == pytest.approx(ref, abs=MC_TOL)
    assert r.sample.shape == (50_000, 3)


def _theta_by_definition(d, rope, w):
    """The double sum of docs/METHODS.md#signed-rank, written out."""
    z = [0.0, *d]
    w = np.asarray(w, dtype=float) / np.sum(w)

    def h(v):
        return 1.0 if v > 0 else 0.5 if v == 0 else 0.0

    right = left = 0.0
    for i in range(len(z)):
        for j in range(len(z)):
            right += w[i] * w[j] * h(z[i] + z[j] - 2 * rope)
            left += w[i] * w[j] * h(-z[i] - z[j] - 2 * rope)
    return left, 1.0 - left - right, right


@settings(max_examples=60, deadline=None)
@given(d=st.lists(st.integers(-4, 4).map(lambda k: k / 8) | st.floats(-0.5, 0.5),
                  min_size=1, max_size=7),
       rope=st.sampled_from([0.0, 0.125, 0.25, 0.1]),
       w=st.lists(st.floats(0.01, 5.0), min_size=24, max_size=24))
def test_signed_rank_theta_is_the_double_sum(d, rope, w):
    weights = np.array(w[: 3 * (len(d) + 1)]).reshape(3, len(d) + 1)
    ours = signed_rank_theta(np.array(d), rope, weights)
    for row, ww in zip(ours, weights, strict=True):
        assert row == pytest.approx(_theta_by_definition(d, rope, ww), abs=1e-12)


def test_signed_rank_draws_are_dirichlet_in_blocks(monkeypatch):
    """The block loop: the draws of each block (Gamma(prior), then Exp(1)s, a column per
    draw) give the θ of the definition, block after block."""
    monkeypatch.setattr(bayes_mod.dirichlet, "_BLOCK", 60)
    a, b = _datasets(5, 5, 0.01)
    r = bayes_compare(a, b, rope=0.01, method="signed-rank", n_samples=25, random_state=9)
    g = np.random.default_rng(9)
    rows = []
    for m in (10, 10, 5):  # 60 // 6 draws a block
        w = np.empty((6, m))
        w[0] = g.standard_gamma(0.5, m)
        w[1:] = g.standard_exponential((5, m))
        rows += [_theta_by_definition(b - a, 0.01, w[:, k]) for k in range(m)]
    assert r.sample == pytest.approx(np.array(rows), abs=1e-12)


def test_signed_rank_prior_and_degenerate_data():
    a, b = _datasets(6, 8, 0.003)
    weak = bayes_compare(a, b, rope=0.0, method="signed-rank", prior=1e-3, n_samples=5000)
    assert weak.details["prior"] == 1e-3
    with pytest.warns(UndefinedMeasureWarning, match="identical on every data set"):
        same = bayes_compare(a, a, rope=0.01, method="signed-rank", n_samples=5000)
    assert same.probabilities == (0.0, 1.0, 0.0)
    with pytest.warns(UndefinedMeasureWarning, match="identical on every data set"):
        zero = bayes_compare(a, a, rope=0.0, method="signed-rank", n_samples=5000)
    assert not np.isnan(zero.sample).any() and sum(zero.probabilities) == pytest.approx(1)
    assert (same.sample >= -1e-12).all() and same.sample.sum(axis=1) == pytest.approx(1.0)


# ------------------------------------------------------------------------------ sign
@pytest.mark.parametrize(("rope", "grid"), [(0.01, 0.0), (0.005, 0.01), (0.0, 0.01)])
def test_sign_test_agrees_with_baycomp(rope, grid):
    baycomp = pytest.importorskip("baycomp")
    a, b = _datasets(7, 25, 0.004, grid=grid)
    r = bayes_compare(a, b, rope=rope, method="sign")
    ref = baycomp.SignTest.probs(a, b, rope, nsamples=50_000, random_state=1)
    if rope == 0:
        ref = (ref[0], 0.0, ref[1])
    assert r.probabilities == pytest.approx(ref, abs=MC_TOL)


def test_sign_test_is_the_dirichlet_of_the_counts():
    a = np.array([0.5, 0.6, 0.7, 0.8, 0.9, 0.55])
    b = a + np.array([0.02, -0.02, 0.0, 0.005, 0.03, 0.01])
    r = bayes_compare(a, b, rope=0.01, method="sign", n_samples=300, random_state=5, prior=2.0)
    # below −0.01: one; within (0.0, 0.005, and 0.01 on the edge, up to rounding): three
    d = b - a
    n_a, n_b = int(np.sum(d < -0.01)), int(np.sum(d > 0.01))
    assert (r.details["n_a_better"], r.details["n_b_better"]) == (n_a, n_b)
    alpha = np.array([n_a, 6 - n_a - n_b, n_b]) + 1e-4 + np.array([0.0, 2.0, 0.0])
    assert np.array_equal(r.sample, np.random.default_rng(5).dirichlet(alpha, 300))
    assert r.probabilities == pytest.approx(
        tuple(np.bincount(r.sample.argmax(1), minlength=3) / 300))


def test_sign_test_all_ties_at_rope_zero_warns():
    a = np.array([0.8, 0.7, 0.9])
    with pytest.warns(UndefinedMeasureWarning, match="empty rope"), \
            pytest.warns(UndefinedMeasureWarning, match="identical on every data set"):
        r = bayes_compare(a, a, rope=0.0, method="sign")
    assert r.probabilities == (0.5, 0.0, 0.5)


# ---------------------------------------------------------------------- hierarchical
def test_the_likelihood_is_the_multivariate_normal():
    g = np.random.default_rng(0)
    for n, rho in ((2, 0.5), (10, 0.1), (30, 1 / 3)):
        x = g.normal(0.2, 0.7, n)
        m = (1 - rho) * np.eye(n) + rho
        for delta, sigma in ((0.0, 1.0), (0.4, 0.3), (-1.0, 2.5)):
            ref = stats.multivariate_normal(np.full(n, delta), sigma**2 * m).logpdf(x)
            ours = equicorrelated_loglik(np, x.mean(), ((x - x.mean()) ** 2).sum(), n, rho,
                                         delta, sigma)
            assert ours == pytest.approx(ref, rel=1e-10)


def _hier_data(seed: int, shift: float, between: float, within: float, q: int = 12,
               k: int = 10):
    g = np.random.default_rng(seed)
    a = g.normal(0.8, 0.05, (q, 1)) + g.normal(0, 0.02, (q, k))
    b = a + g.normal(shift, between, (q, 1)) + g.normal(0, within, (q, k))
    return a, b


@pytest.fixture(scope="module")
def better():
    pytest.importorskip("numpyro")
    a, b = _hier_data(1, 0.03, 0.01, 0.02)
    return a, b, bayes_compare(a, b, rope=0.01, method="hierarchical", **HIER)


def test_hierarchical_clearly_better(better):
    a, b, r = better
    assert r.p_b_better > 0.9
    assert r.sample.shape == (2000, 3) and r.details["chains"] == 4
    assert r.details["r_hat"] < 1.05 and r.details["divergences"] <= 20
    assert r.sample.sum(axis=1) == pytest.approx(1.0) and (r.sample >= 0).all()
    flipped = bayes_compare(a, b, rope=0.01, method="hierarchical", higher_is_better=False,
                            **HIER)
    assert flipped.p_a_better > 0.9


def test_hierarchical_equivalent():
    pytest.importorskip("numpyro")
    a, b = _hier_data(2, 0.0, 0.001, 0.003)
    r = bayes_compare(a, b, rope=0.01, method="hierarchical", **HIER)
    assert r.p_rope > 0.8


def test_hierarchical_same_seed_same_answer(better):
    a, b, r = better
    again = bayes_compare(a, b, rope=0.01, method="hierarchical", random_state=0, **HIER)
    assert np.array_equal(again.sample, r.sample) and again.probabilities == r.probabilities
    other = bayes_compare(a, b, rope=0.01, method="hierarchical", random_state=4, **HIER)
    assert not np.array_equal(other.sample, r.sample)


def test_hierarchical_runs_and_constant_data_sets():
    pytest.importorskip("numpyro")
    a, b = _hier_data(3, 0.02, 0.01, 0.02, k=20)
    r = bayes_compare(a, b, rope=0.01, method="hierarchical", runs=2, **HIER)
    assert (r.details["folds"], r.details["rho"], r.runs) == (10, 0.1, 2)
    a = np.round(a * 64) / 64  # multiples of 1/64: the sums below are exact
    b[:2] = a[:2] + 1 / 32  # two data sets with the same difference on every fold
    with pytest.warns(UndefinedMeasureWarning, match=r"data sets 0, 1 are constant"):
        c = bayes_compare(a, b, rope=0.01, method="hierarchical", runs=2, **HIER)
    assert not np.isnan(c.sample).any() and c.p_b_better > 0.9
    with pytest.raises(MeasurelabError, match="every data set's fold differences are const"):
        bayes_compare(a, a + 1 / 32, rope=0.01, method="hierarchical")


def test_hierarchical_without_numpyro_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "numpyro", None)
    a, b = _hier_data(1, 0.03, 0.01, 0.02)
    with pytest.raises(MeasurelabError, match=r"pip install 'measurelab\[bayes\]'") as e:
        bayes_compare(a, b, rope=0.01, method="hierarchical")
    assert "\n" not in str(e.value)


# ---------------------------------------------------------------------- bad input
BAD = [
    ({"a": [0.8, 0.7, 0.9], "b": [0.8, 0.7]}, "a has 3 scores and b has 2"),
    ({"a": np.ones((3, 4)), "b": np.ones((3, 5)), "method": "hierarchical"},
     r"a has shape \(3, 4\) and b \(3, 5\)"),
    ({"a": [0.8], "b": [0.7], "method": "signed-rank"}, "needs at least 2 data sets, got 1"),
    ({"a": [0.8], "b": [0.7], "method": "sign"}, "needs at least 2 data sets, got 1"),
    ({"a": np.ones((1, 10)), "b": np.ones((1, 10)), "method": "hierarchical"},
     "needs at least 2 data sets, got 1"),
    ({"a": [0.8, np.nan, 0.9]}, "a must be finite, got nan at index 1"),
    ({"b": [0.8, 0.7, np.inf]}, "b must be finite, got inf at index 2"),
    ({"a": np.r_[np.ones(5), np.nan].reshape(2, 3), "b": np.ones((2, 3)),
      "method": "hierarchical"}, "a must be finite, got nan at data set 1, fold 2"),
    ({"rope": -0.01}, "rope must be a finite number >= 0.*got -0.01"),
    ({"rope": "0.01"}, "rope must be a number >= 0"),
    ({"rope": None}, "rope must be a number >= 0"),
    ({"rope": math.nan}, "rope must be a finite number >= 0"),
    ({"rope": True}, "rope must be a number >= 0"),
    ({"runs": 3, "a": np.ones(10), "b": np.ones(10)}, "runs=3 does not divide the 10 fold"),
    ({"runs": 10, "a": np.ones(10), "b": np.ones(10)}, "leaves 1 fold per run"),
    ({"runs": 3, "a": np.ones((2, 10)), "b": np.ones((2, 10)), "method": "hierarchical"},
     "runs=3 does not divide the 10 fold"),
    ({"runs": 0}, "runs must be a positive integer"),
    ({"a": [0.8], "b": [0.7]}, "'correlated-t' needs at least 2 fold scores, got 1"),
    ({"method": "bayes"}, "method must be one of 'correlated-t', 'signed-rank', 'sign', "
                          "'hierarchical', got 'bayes'"),
    ({"method": "signed-rank", "runs": 2}, "runs=2 applies to fold scores"),
    ({"method": "signed-rank", "a": np.ones((3, 2)), "b": np.ones((3, 2))},
     "use 'hierarchical', or average the folds"),
    ({"method": "hierarchical"}, "needs a as a 2-d array, data sets × fold scores"),
    ({"a": np.ones((3, 2)), "b": np.ones((3, 2))}, "fold scores of one data set"),
    ({"a": ["x", "y", "z"]}, "a must hold numbers"),
    ({"method": "signed-rank", "prior": 0}, "prior must be a positive finite number"),
    ({"method": "sign", "prior": "1"}, "prior must be a positive number"),
    ({"names": "ab"}, "names must be a pair"),
    ({"n_samples": 0}, "n_samples must be a positive integer"),
    ({"higher_is_better": "no"}, "higher_is_better must be True or False"),
    ({"random_state": -1}, "random_state must be a non-negative integer"),
]


@pytest.mark.parametrize(("kwargs", "match"), BAD)
def test_bad_input_is_one_clear_line(kwargs, match):
    call = {"a": [0.81, 0.79, 0.84, 0.80], "b": [0.78, 0.77, 0.80, 0.79], "rope": 0.01,
            "method": "correlated-t", **kwargs}
    a, b = call.pop("a"), call.pop("b")
    with pytest.raises(MeasurelabError, match=match) as e:
        bayes_compare(a, b, **call)
    assert "\n" not in str(e.value)


def test_rope_and_method_are_required():
    with pytest.raises(TypeError):
        bayes_compare([0.8, 0.7], [0.7, 0.6], method="sign")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        bayes_compare([0.8, 0.7], [0.7, 0.6], rope=0.01)  # type: ignore[call-arg]


def test_verdicts_and_threshold():
    assert verdict_of(0.96, 0.03, 0.01) == "a better"
    assert verdict_of(0.01, 0.03, 0.96) == "b better"
    assert verdict_of(0.2, 0.6, 0.2, threshold=0.6) == "equivalent"
    assert verdict_of(0.4, 0.3, 0.3) == "undecided"
    for bad in (0.5, 1.01, "x"):
        with pytest.raises(MeasurelabError, match="threshold must be"):
            verdict_of(0.4, 0.3, 0.3, threshold=bad)


# ------------------------------------------------------------ result, JSON, figures
def test_result_dict_repr_and_seed_alias():
    a, b = _datasets(8, 10, 0.01)
    r = bayes_compare(a, b, rope=0.01, method="signed-rank", names=("svm", "nb"),
                      n_samples=4000, random_state=3)
    assert isinstance(r, BayesComparison) and r.names == ("svm", "nb")
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert d["method"] == "signed-rank" and d["names"] == ["svm", "nb"]
    assert d["n_samples"] == 4000 and d["verdict"] == r.verdict()
    assert [d["p_a_better"], d["p_rope"], d["p_b_better"]] == list(r.probabilities)
    text = repr(r)
    assert text.startswith("BayesComparison(signed-rank, a='svm', b='nb', rope=0.01")
    assert f"P(b better)={r.p_b_better:.4f}" in text and "\n" not in text
    same = bayes_compare(a, b, rope=0.01, method="signed-rank", n_samples=4000,
                         random_state=3)
    assert np.array_equal(same.sample, r.sample)
    assert ml.bayes_compare is bayes_compare  # the top-level face


def test_plot_correlated_t():
    a, b = _folds(5, 10, 0.012)
    r = bayes_compare(a, b, rope=0.01, method="correlated-t", names=("$x$", "tree"))
    fig = r.plot()
    assert type(fig).__name__ == "Figure" and len(fig.axes) == 1
    ax = fig.axes[0]
    assert "mean difference tree − \\$x\\$" in ax.get_xlabel()
    assert ax.get_legend().get_texts()[0].get_text() == "rope ±0.01"
    texts = " ".join(t.get_text() for t in ax.texts)
    assert f"P(tree better) = {r.p_b_better:.3f}" in texts
    assert f"P(equivalent) = {r.p_rope:.3f}" in texts
    assert len(ax.collections) >= 3  # the density filled on the three regions
    import matplotlib.pyplot as plt

    _, own = plt.subplots()
    assert r.plot(ax=own) is own.figure
    with pytest.warns(UndefinedMeasureWarning):
        flat = bayes_compare([0.5, 0.25], [0.625, 0.375], rope=0.01, method="correlated-t")
    assert len(flat.plot().axes) == 1


@pytest.mark.parametrize("method", ["signed-rank", "sign"])
def test_plot_simplex(method):
    a, b = _datasets(9, 15, 0.008)
    r = bayes_compare(a, b, rope=0.01, method=method, names=("nb", "svm"), n_samples=8000)
    fig = r.plot()
    assert len(fig.axes) == 1
    ax = fig.axes[0]
    title = {"signed-rank": "Bayesian signed-rank test", "sign": "Bayesian sign test"}[method]
    assert not ax.axison and ax.get_title().startswith(title)
    texts = [t.get_text() for t in ax.texts]
    assert texts[0] == f"nb better\np = {r.p_a_better:.3f}"
    assert texts[1].startswith("equivalent (rope ±0.01)")
    assert texts[2] == f"svm better\np = {r.p_b_better:.3f}"
    assert sum(len(c.get_offsets()) for c in ax.collections) == 5000  # a readable cloud


def test_plot_hierarchical(better):
    fig = better[2].plot()
    assert len(fig.axes) == 1 and "hierarchical" in fig.axes[0].get_title()


# ------------------------------------------------------------------------------ Demšar
# nb and svm differ by less than the rope on every data set: each route says so
@pytest.mark.filterwarnings("ignore:.*within the rope:"
                            "measurelab.exceptions.UndefinedMeasureWarning")
def test_demsar_bayes_is_bayes_compare_on_every_pair():
    g = np.random.default_rng(10)
    t = pd.DataFrame({"nb": g.uniform(0.6, 0.9, 14)})
    t["tree"] = t["nb"] + g.normal(0.02, 0.005, 14)
    t["svm"] = t["nb"] + g.normal(0.0, 0.002, 14)
    res = demsar(t)
    got = res.bayes(rope=0.01, n_samples=5000)
    assert list(got.columns) == ["a", "b", "p_a_better", "p_rope", "p_b_better", "verdict"]
    assert list(zip(got.a, got.b, strict=True)) == [("nb", "tree"), ("nb", "svm"),
                                                    ("tree", "svm")]
    rng = np.random.default_rng(0)
    for row in got.itertuples():
        ref = bayes_compare(t[row.a], t[row.b], rope=0.01, method="signed-rank",
                            n_samples=5000, random_state=rng)
        assert (row.p_a_better, row.p_rope, row.p_b_better) == ref.probabilities
        assert row.verdict == ref.verdict()
    assert got.verdict.tolist()[:2] == ["b better", "equivalent"]
    # lower is better: the same as the negated table
    low = demsar(t, higher_is_better=False).bayes(rope=0.01, n_samples=5000, random_state=2)
    neg = demsar(-t).bayes(rope=0.01, n_samples=5000, random_state=2)
    pd.testing.assert_frame_equal(low, neg)
    sign = res.bayes(rope=0.01, method="sign", n_samples=5000, threshold=0.9)
    assert sign.verdict[0] == "b better"
    with pytest.raises(MeasurelabError, match="method must be 'signed-rank' or 'sign'"):
        res.bayes(rope=0.01, method="hierarchical")
    with pytest.raises(MeasurelabError, match="threshold must be"):
        res.bayes(rope=0.01, threshold=2)


# ------------------------------------------------------------------------ docs, imports
def test_bayesian_guide_examples_run():
    pytest.importorskip("numpyro")  # the guide fits the hierarchical model too
    res = doctest.testfile(str(DOC), module_relative=False,
                           optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert res.attempted > 15
    assert res.failed == 0


def test_importing_the_module_stays_lean():
    code = ("import sys, measurelab, measurelab.inference.bayes; "
            "print(sorted(m for m in ('scipy', 'matplotlib', 'jax', 'numpyro') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_no_nan_leaks_without_a_warning():
    a = np.array([0.8, 0.8, 0.8])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for method in ("correlated-t", "signed-rank", "sign"):
            for rope in (0.0, 0.01):
                r = bayes_compare(a, a, rope=rope, method=method, n_samples=1000)
                assert not any(math.isnan(p) for p in r.probabilities)
                assert not np.isnan(r.sample).any()
    assert all(issubclass(w.category, UndefinedMeasureWarning) for w in caught)


# lr and rf differ by less than the rope on every fold: bayes_compare says so, per pair
@pytest.mark.filterwarnings("ignore:.*within the rope:"
                            "measurelab.exceptions.UndefinedMeasureWarning")
def test_bayes_pairs_equals_bayes_compare_per_pair():
    import pandas as pd

    from measurelab.inference import bayes_pairs

    g = np.random.default_rng(4)
    base = g.uniform(0.7, 0.8, 10)
    folds = pd.DataFrame({"lr": base + 0.02, "nb": base - 0.01 + g.normal(0, 0.01, 10),
                          "rf": base + 0.021 + g.normal(0, 0.005, 10)})
    t = bayes_pairs(folds, rope=0.01, method="correlated-t", random_state=3)
    assert t[["a", "b"]].values.tolist() == [["lr", "nb"], ["lr", "rf"], ["nb", "rf"]]
    for row in t.itertuples():
        r = ml.bayes_compare(folds[row.a], folds[row.b], rope=0.01, method="correlated-t")
        assert (row.p_a_better, row.p_rope, row.p_b_better) == pytest.approx(
            (r.p_a_better, r.p_rope, r.p_b_better), abs=1e-12)
        assert row.verdict == r.verdict()
    signed = bayes_pairs(folds.to_dict("series"), rope=0.01, method="signed-rank", random_state=1)
    again = bayes_pairs(folds.to_dict("series"), rope=0.01, method="signed-rank", random_state=1)
    assert signed.equals(again)


@pytest.mark.parametrize("scores,message", [
    ([1, 2], "scores must be a mapping"),
    ({"a": [0.1, 0.2]}, "needs two or more"),
])
def test_bayes_pairs_bad_input(scores, message):
    from measurelab.inference import bayes_pairs

    with pytest.raises(ml.exceptions.MeasurelabError, match=message):
        bayes_pairs(scores, rope=0.01, method="signed-rank")
