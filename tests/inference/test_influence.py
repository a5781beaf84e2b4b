"""Influence functions (inference/influence.py) against routes that do not use them: the
numerical derivative of the measure's own value in the weight of one row and class,
DeLong's variance for AUC, the posterior of the confusion cells for the counts measures,
and the spread of the estimate over many simulated test sets."""

from __future__ import annotations

import math

import numpy as np
import pytest

import measurelab as ml
from measurelab.inference import influence as inf
from measurelab.measures.base import registry
from measurelab.stats.scoretable import ScoreTable

MEASURES = ["auc", "ap", "brier", "rms", "mxe", "mxe@2", "f1", "mcc", "acc", "prec", "sens",
            "kappa", "bacc", "gmean", "f_beta@2", "lr_pos", "npv", "youden"]


def _cases(pos, neg, scores):
    y = np.r_[np.ones(scores.size, int), np.zeros(scores.size, int)]
    s = np.r_[scores, scores]
    w = np.r_[pos, neg]
    keep = w > 0
    return y[keep], s[keep], w[keep]


def _evaluate_weighted(y, s, w, m):
    return float(ml.evaluate(y, s, measures=[m], sample_weight=w)[m.name])


@pytest.mark.parametrize("name", MEASURES)
def test_row_influence_is_the_derivative_of_the_measure(name: str) -> None:
    g = np.random.default_rng(3)
    r = 12
    scores = np.sort(g.random(r))
    pos = g.uniform(0.5, 3.0, r) * (g.random(r) < 0.8)
    neg = g.uniform(0.5, 3.0, r) * (g.random(r) < 0.8)
    pos[0] = neg[-1] = 1.0        # both classes present
    m = registry.resolve(name)[0]
    y, s, w = _cases(pos, neg, scores)

    def value(p, q):
        yy, ss, ww = _cases(p, q, scores)
        return _evaluate_weighted(yy, ss, ww, m)

    h = 1e-6
    gp, gn = np.full(r, np.nan), np.full(r, np.nan)
    for i in range(r):
        if pos[i] > 0:
            up, dn = pos.copy(), pos.copy()
            up[i] += h
            dn[i] -= h
            gp[i] = (value(up, neg) - value(dn, neg)) / (2 * h)
        if neg[i] > 0:
            up, dn = neg.copy(), neg.copy()
            up[i] += h
            dn[i] -= h
            gn[i] = (value(pos, up) - value(pos, dn)) / (2 * h)
    total = pos.sum() + neg.sum()
    centre = np.nansum(pos * gp) + np.nansum(neg * gn)
    want_p, want_n = total * gp - centre, total * gn - centre
    t = ScoreTable.from_arrays(y == 1, s, w)
    ifp, ifn = inf.row_influence(m, t)
    # the table's rows are the distinct scores, ascending: the same order as `scores`
    np.testing.assert_allclose(ifp, want_p, rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(ifn, want_n, rtol=2e-5, atol=2e-6)


def test_auc_variance_is_delong_up_to_the_degrees_of_freedom() -> None:
    g = np.random.default_rng(0)
    y = g.random(400) < 0.3
    s = np.round(g.normal(y * 1.0, 1.0), 1)          # ties
    t = ScoreTable.from_arrays(y, s)
    from measurelab.inference.delong import delong_placements

    v10, v01 = delong_placements(t)
    n1, n0 = t.n_pos, t.n_neg
    auc = float(np.dot(t.pos, v10) / n1)
    # DeLong with n, not n − 1, in the variances of the placements: the influence's sum
    s10 = float(np.dot(t.pos, (v10 - auc) ** 2)) / n1
    s01 = float(np.dot(t.neg, (v01 - auc) ** 2)) / n0
    ifp, ifn = inf.row_influence(registry.get("auc"), t)
    assert inf.table_variance(t, ifp, ifn) == pytest.approx(s10 / n1 + s01 / n0, rel=1e-12)


def test_table_and_case_routes_agree_and_weights_count_twice() -> None:
    g = np.random.default_rng(1)
    n = 500
    y = g.random(n) < 0.4
    s = np.round(g.random(n), 2)
    t = ScoreTable.from_arrays(y, s)
    rows = np.searchsorted(t.scores, s)
    for name in ("ap", "brier", "f1"):
        ifp, ifn = inf.row_influence(registry.get(name), t)
        case = inf.case_influence(ifp, ifn, rows, y)
        for design in ("random", "fixed"):
            assert inf.case_variance(case, y, design=design) == pytest.approx(
                inf.table_variance(t, ifp, ifn, design=design), rel=1e-10)
    # a weight of 2 is not two cases: Var = Σ w²·IF² / W²
    w = np.full(n, 2.0)
    tw = ScoreTable.from_arrays(y, s, w)
    ifp, ifn = inf.row_influence(registry.get("brier"), tw)
    case = inf.case_influence(ifp, ifn, rows, y)
    assert inf.case_variance(case, y, w) == pytest.approx(
        inf.table_variance(t, *inf.row_influence(registry.get("brier"), t)), rel=1e-12)


def test_chunked_passes_over_the_cases_agree(monkeypatch) -> None:
    """case_influence and case_variance walk the cases in chunks (bounded temporaries):
    any chunk length gives the same influences, and the variance up to rounding."""
    g = np.random.default_rng(2)
    n = 1001
    y = np.sort(g.random(n) < 0.3)          # negatives first, as a CaseDesign holds them
    w = g.random(n)
    ifp, ifn = g.normal(size=40), g.normal(size=40)
    rows = g.integers(0, 40, n)
    whole = inf.case_influence(ifp, ifn, rows, y)
    want = {(wt is None, d): inf.case_variance(whole, y, wt, design=d)
            for wt in (None, w) for d in ("random", "fixed")}
    for chunk in (1, 7, 1000):
        monkeypatch.setattr(inf, "_CHUNK", chunk)
        n0 = int(np.count_nonzero(~y))
        assert np.array_equal(inf.case_influence(ifp, ifn, rows, y, n0=n0), whole)
        both = inf.case_influence(ifn, ifp, rows, y, minus=whole.copy())
        assert np.array_equal(both, whole - np.where(y, ifn[rows], ifp[rows]))
        for wt in (None, w):
            for d in ("random", "fixed"):
                assert inf.case_variance(whole, y, wt, design=d) == pytest.approx(
                    want[(wt is None, d)], rel=1e-12)


def test_comparison_shares_the_row_influences_of_its_intervals_and_tests() -> None:
    """A two-model comparison computes each model's influence once for its interval and
    the pair's test; the values are those of the direct routes."""
    from measurelab.inference.classifiers import _pair_rows as pr

    g = np.random.default_rng(4)
    n = 3000
    y = g.random(n) < 0.3
    a, b = g.random(n), np.round(g.random(n), 2)
    r = ml.compare_classifiers(y, {"a": a, "b": b}, measures=["ap", "brier"],
                               ci_method="influence")
    single, pairs = pr.influence_variances(r, 0)
    t = r._design.tables
    assert single == [inf.table_variance(x, *inf.row_influence(registry.get("ap"), x))
                      for x in t]
    d = r._design
    case = [inf.case_influence(*inf.row_influence(registry.get("ap"), t[m]), d.rows[m], d.y)
            for m in (0, 1)]
    assert pairs[(0, 1)] == inf.case_variance(case[0] - case[1], d.y)
    row = r.tests().set_index("measure").loc["ap"]
    assert row["se"] == pytest.approx(math.sqrt(pairs[(0, 1)]), rel=1e-15)


@pytest.mark.parametrize("name", ["f1", "mcc", "sens", "prec"])
def test_counts_variance_matches_the_posterior_at_large_n(name: str) -> None:
    """Two routes to the same sampling spread: the delta method and the standard deviation
    of the posterior of the confusion cells (Dirichlet(½)), at 20,000 cases."""
    from measurelab.inference import confusion_posterior as cp

    g = np.random.default_rng(2)
    n = 20_000
    y = g.random(n) < 0.25
    s = np.clip(g.normal(0.35 + 0.3 * y, 0.2), 0, 1)
    t = ScoreTable.from_arrays(y, s)
    m = registry.get(name)
    ifp, ifn = inf.row_influence(m, t)
    se = math.sqrt(inf.table_variance(t, ifp, ifn))
    draws = cp.single_draws(t.counts_at(0.5), "random", np.random.default_rng(0), 20_000)
    sd = float(np.nanstd(cp.measure_draws(m, draws)))
    assert se == pytest.approx(sd, rel=0.03)


@pytest.mark.parametrize("name", ["ap", "brier", "mxe", "f1", "auc"])
def test_standard_error_is_the_spread_over_test_sets(name: str) -> None:
    """The influence SE of one test set against the standard deviation of the estimate over
    400 test sets drawn from the same population (n = 4,000)."""
    g = np.random.default_rng(7)
    m = registry.get(name)
    n, sims = 4000, 400
    vals, ses = [], []
    for _ in range(sims):
        y = g.random(n) < 0.2
        p = 1 / (1 + np.exp(-(g.normal(size=n) + 1.5 * y - 1.2)))
        t = ScoreTable.from_arrays(y, p)
        vals.append(float(ml.evaluate(y, p, measures=[name])[name]))
        ses.append(math.sqrt(inf.table_variance(t, *inf.row_influence(m, t))))
    sd = float(np.std(vals, ddof=1))
    # the SD of 400 values is known to about ±3.5% (1/√(2·400)): ±12% is four of those
    assert float(np.mean(ses)) == pytest.approx(sd, rel=0.12)


def test_undefined_measure_gives_nan_variance() -> None:
    t = ScoreTable.from_arrays(np.ones(5, bool), np.linspace(0.1, 0.9, 5))
    ifp, ifn = inf.row_influence(registry.get("auc"), t)
    assert math.isnan(inf.table_variance(t, ifp, ifn))
    assert all(math.isnan(x) for x in inf.influence_interval(math.nan, 0.1, 0.95))


def _two_models(n: int, seed: int):
    g = np.random.default_rng(seed)
    y = g.random(n) < 0.3
    a = 1 / (1 + np.exp(-(g.normal(size=n) + 1.2 * y)))
    b = 1 / (1 + np.exp(-(g.normal(size=n) + 1.0 * y)))
    return y, a, b


def test_the_influence_method_is_the_default_of_ap_brier_rms_mxe_at_large_n() -> None:
    y, a, b = _two_models(20_000, 0)
    r = ml.compare_classifiers(y, {"a": a, "b": b}, measures=["ap", "brier", "rms", "mxe",
                                                              "auc", "f1"], progress=False)
    got = dict(zip(r.tests()["measure"], r.tests()["method"], strict=True))
    assert [got[k] for k in ("ap", "brier", "rms", "mxe")] == ["influence"] * 4
    assert got["auc"] == "delong" and got["f1"] == "dirichlet-posterior"
    small = ml.compare_classifiers(y[:500], {"a": a[:500]}, measures=["ap"], n_boot=200,
                                   progress=False)
    assert small.intervals()["method"].iloc[0].startswith("bootstrap")


@pytest.mark.parametrize("kind", ["paired", "unpaired"])
def test_influence_differences_agree_with_the_bootstrap_and_their_p(kind: str) -> None:
    """At 20,000 cases the influence interval of a difference and the BCa bootstrap's
    (an independent route) nearly coincide; the interval excludes 0 exactly when p < 0.05."""
    y, a, b = _two_models(20_000, 1)
    ms = ["ap", "brier", "mxe", "rms"]
    if kind == "paired":
        run = lambda method, **kw: ml.compare_classifiers(  # noqa: E731
            y, {"a": a, "b": b}, measures=ms, ci_method=method, progress=False, **kw).tests()
    else:
        y2, _a2, b2 = _two_models(20_000, 2)
        run = lambda method, **kw: ml.compare_unpaired(  # noqa: E731
            y, a, y2, b2, measures=ms, ci_method=method, progress=False, **kw).tests()
    inf_rows = run("influence")
    boot = run("bootstrap-percentile", n_boot=1000)
    assert set(inf_rows["method"]) == {"influence"}
    width = (inf_rows["hi"] - inf_rows["lo"]).to_numpy()
    for end in ("lo", "hi"):
        gap = np.abs(inf_rows[end].to_numpy() - boot[end].to_numpy())
        assert (gap < 0.15 * width).all(), (end, gap / width)
    excludes = (inf_rows["lo"] > 0) | (inf_rows["hi"] < 0)
    assert (excludes == (inf_rows["p"] < 0.05)).all()


def test_weighted_influence_counts_each_weight_once() -> None:
    """Whole weights of 2 on every case: the same values and a standard error 1/√2 of the
    cases written out twice (W² counts the weights, not the cases)."""
    y, a, b = _two_models(20_000, 3)
    w = np.full(y.size, 2.0)
    r = ml.compare_classifiers(y, {"a": a, "b": b}, measures=["brier"], sample_weight=w,
                               ci_method="influence", progress=False)
    twice = ml.compare_classifiers(np.r_[y, y], {"a": np.r_[a, a], "b": np.r_[b, b]},
                                   measures=["brier"], ci_method="influence",
                                   progress=False)
    assert r.intervals()["value"].tolist() == pytest.approx(
        twice.intervals()["value"].tolist(), rel=1e-12)
    assert r.tests()["se"].iloc[0] == pytest.approx(twice.tests()["se"].iloc[0] * math.sqrt(2),
                                                    rel=1e-9)
