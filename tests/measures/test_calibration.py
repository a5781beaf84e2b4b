"""CAL with ties (docs/METHODS.md#cal-ties): the expectation of perf's CA2 over random orderings
inside tie
groups, against enumeration of every ordering, Monte Carlo, per-window convolution of
hypergeometric counts (scipy), and the untied definition."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats as sps

import measurelab as ml
from measurelab import UndefinedMeasureWarning
from measurelab.measures.calibration import cal as calibration
from measurelab.stats.scoretable import ScoreTable
from tests.conftest import make_binary


def ca2(y_sorted: np.ndarray, s_sorted: np.ndarray, window: int) -> float:
    """perf's CA2 of one ordering, from the definition: mean over windows of
    |mean score − fraction positive| (one window of all cases when N ≤ window)."""
    n = len(y_sorted)
    if n <= window:
        return abs(float(np.mean(s_sorted)) - float(np.mean(y_sorted)))
    return float(np.mean([abs(np.mean(s_sorted[i:i + window]) - np.mean(y_sorted[i:i + window]))
                          for i in range(n - window + 1)]))


def enumerate_orders(y: np.ndarray, s: np.ndarray, window: int) -> float:
    """Average CA2 over every ordering of the cases inside each group of tied scores
    (every placement of a group's positives among its positions is equally likely)."""
    order = np.argsort(s, kind="stable")
    y, s = y[order].astype(float), s[order]
    per_group = []
    for v in np.unique(s):
        m, p = int(np.sum(s == v)), int(y[s == v].sum())
        per_group.append([np.isin(np.arange(m), c).astype(float)
                          for c in itertools.combinations(range(m), p)])
    vals = [ca2(np.concatenate(labels), s, window) for labels in itertools.product(*per_group)]
    return float(np.mean(vals))


def convolution_oracle(y: np.ndarray, s: np.ndarray, window: int) -> float:
    """docs/METHODS.md#cal-ties window by window with scipy's hypergeometric pmf: the positives of a
    cut
    group are H(m, p, k); the window's count is their convolution plus the fixed part."""
    order = np.argsort(s, kind="stable")
    y, s = y[order].astype(int), s[order]
    n = len(y)
    vals, starts = np.unique(s, return_index=True)
    sizes = np.diff(np.append(starts, n))
    pos = np.add.reduceat(y, starts)
    group = np.repeat(np.arange(vals.size), sizes)
    if n <= window:
        return abs(float(s.sum() - y.sum())) / n
    out = []
    cache: dict[tuple[int, int], np.ndarray] = {}
    for i in range(n - window + 1):
        members = group[i:i + window]
        dist = np.array([1.0])
        for g in np.unique(members):
            k = int(np.sum(members == g))
            if (g, k) not in cache:
                cache[g, k] = sps.hypergeom(sizes[g], pos[g], k).pmf(np.arange(k + 1))
            dist = np.convolve(dist, cache[g, k])
        count = np.arange(dist.size)
        out.append(float(np.dot(dist, np.abs(s[i:i + window].sum() - count))) / window)
    return float(np.mean(out))


def test_issue_example():
    """Window 2, rows 0 .1 / 1 .5 / 0 .5 / 1 .9: the two tie orders give 0.2 and 0.1333."""
    y, s = np.array([0, 1, 0, 1]), np.array([0.1, 0.5, 0.5, 0.9])
    assert ml.metrics.cal(y, s, window=2) == pytest.approx(1 / 6, abs=1e-15)
    orders = [ca2(np.array([0, 1, 0, 1.0]), s, 2), ca2(np.array([0, 0, 1, 1.0]), s, 2)]
    assert sorted(orders) == pytest.approx([0.4 / 3, 0.2], abs=1e-15)


@pytest.mark.parametrize("seed", range(40))
def test_against_every_tie_ordering(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 13))
    window = int(rng.integers(1, 9))
    s = rng.integers(0, int(rng.integers(1, 5)), n) / 4.0  # few distinct scores: big groups
    y = (rng.random(n) < rng.uniform(0.2, 0.8)).astype(int)
    assert ml.metrics.cal(y, s, window=window) == pytest.approx(enumerate_orders(y, s, window),
                                                        rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("n,window,levels", [(250, 100, 12), (300, 7, 5), (180, 30, 40),
                                             (120, 100, 3), (300, 50, 150)])
def test_against_per_window_convolution(n, window, levels, rng):
    y, s, _ = make_binary(rng, n, ties=False)
    s = np.round(s * levels) / levels
    assert ml.metrics.cal(y, s, window=window) == pytest.approx(convolution_oracle(y, s, window),
                                                        rel=1e-11)


@pytest.mark.parametrize("window", [10, 100])
def test_monte_carlo_over_tie_orders(window):
    """Average CA2 over random tie orders lies within Monte-Carlo error of CAL."""
    rng = np.random.default_rng(7)
    n, reps = 600, 4000
    y, s, _ = make_binary(rng, n, ties=False)
    s = np.round(s * 15) / 15
    order = np.argsort(s, kind="stable")
    y, s = y[order].astype(float), s[order]
    # each replicate orders the cases inside every group at random
    keys = rng.random((reps, n)) + np.searchsorted(np.unique(s), s)[None, :]
    yy = y[np.argsort(keys, axis=1)]
    cs = np.concatenate([np.zeros((reps, 1)), np.cumsum(s[None, :] - yy, axis=1)], axis=1)
    per = np.abs(cs[:, window:] - cs[:, :-window]).mean(axis=1) / window
    se = per.std(ddof=1) / math.sqrt(reps)
    exact = ml.metrics.cal(y, s, window=window)
    assert abs(per.mean() - exact) < 4 * se
    # the old shortcut (absolute value at the expected count) is biased low, far outside
    t = ScoreTable.from_arrays(y == 1, s)
    shortcut = calibration._sum_abs_expected(t.scores, t.pos, t.pos + t.neg, n, window)
    assert shortcut / window / (n - window + 1) < per.mean() - 10 * se


@pytest.mark.parametrize("window", [1, 3, 100])
def test_untied_is_ca2_of_the_definition(window, rng):
    y, s, _ = make_binary(rng, 350, ties=False)
    order = np.argsort(s)
    ys, ss = y[order].astype(float), s[order]
    assert ml.metrics.cal(y, s, window=window) == pytest.approx(ca2(ys, ss, window), abs=1e-13)
    # bit for bit: windows as differences of one cumulative sum of score − label
    fc = np.concatenate([[0.0], np.cumsum(ss - ys)])
    ref = float(np.abs(fc[window:] - fc[:-window]).sum()) / window / (350 - window + 1)
    assert ml.metrics.cal(y, s, window=window) == ref


@pytest.mark.parametrize("n", [1, 5, 100])
def test_window_larger_than_n(n, rng):
    """One window of all cases: its positive count is fixed, whatever the ties."""
    y, s, _ = make_binary(rng, n, ties=True)
    yb = (y == 1).astype(float)
    assert ml.metrics.cal(y, s, window=100) == pytest.approx(abs(s.mean() - yb.mean()), abs=1e-15)


def test_order_and_merge_invariance(rng):
    y, s, _ = make_binary(rng, 900, ties=True)
    ref = ml.metrics.cal(y, s, window=40)
    perm = rng.permutation(y.size)
    assert ml.metrics.cal(y[perm], s[perm], window=40) == ref
    cuts = np.sort(rng.choice(np.arange(1, y.size), 4, replace=False))
    ev = ml.Evaluator(measures=["cal@40"])
    for part in np.split(perm, cuts)[::-1]:
        ev.update(y[part], s[part])
    (got,) = ev.compute().values()
    assert got == ref


def test_pure_groups_are_deterministic(rng):
    """Ties only among cases of one class (a bootstrap replicate of untied data): every
    ordering gives the same CA2; both pure routes (expansion, closed form) agree."""
    y, s, _ = make_binary(rng, 500, ties=False)
    idx = rng.integers(0, 500, 500)
    y, s = y[idx], s[idx]
    t = ScoreTable.from_arrays(y == 1, s)
    assert not np.any((t.pos > 0) & (t.neg > 0))
    order = np.argsort(s, kind="stable")
    ref = ca2(y[order].astype(float), s[order], 100)
    expanded = ml.metrics.cal(y, s)
    assert expanded == pytest.approx(ref, abs=1e-13)
    old = calibration._EXPAND_FACTOR
    try:
        calibration._EXPAND_FACTOR = 0  # force the closed form over linear pieces
        assert ml.metrics.cal(y, s) == pytest.approx(expanded, abs=1e-13)
    finally:
        calibration._EXPAND_FACTOR = old


def test_closed_form_route_with_mixed_groups(rng, monkeypatch):
    """Many cases per distinct score: closed form plus the tie correction, any block size."""
    y, s, _ = make_binary(rng, 400, ties=False)
    s = np.round(s * 6) / 6
    ref = convolution_oracle(y, s, 30)
    assert ml.metrics.cal(y, s, window=30) == pytest.approx(ref, rel=1e-11)
    monkeypatch.setattr(calibration, "_CELLS", 16)
    monkeypatch.setattr(calibration, "_BLOCK_WINDOWS", 5)
    assert ml.metrics.cal(y, s, window=30) == pytest.approx(ref, rel=1e-11)
    monkeypatch.setattr(calibration, "_EXPAND_FACTOR", 10**9)  # expansion route
    assert ml.metrics.cal(y, s, window=30) == pytest.approx(ref, rel=1e-11)


def test_frequency_weights_equal_repetition(rng):
    y, s, _ = make_binary(rng, 200, ties=True)
    w = rng.integers(1, 4, 200)
    rep = np.repeat(np.arange(200), w)
    assert ml.metrics.cal(y, s, sample_weight=w.astype(float), window=20) == pytest.approx(
        ml.metrics.cal(y[rep], s[rep], window=20), rel=1e-12)


def test_huge_frequency_weights_stay_fast():
    """10^12 cases in a few groups: windows inside a group share one value."""
    t = ScoreTable(np.array([0.2, 0.5, 0.9]), np.array([1e11, 3e11, 4e11]),
                   np.array([4e11, 2e11, 1e11]))
    v = calibration.cal(t)
    assert 0 <= v < 1
    # nearly every window lies inside a group of m cases with p positives:
    # E|100·s − H(m, p, 100)| / 100 ≈ E|s − Binomial(100, p/m)/100|
    ref = 0.0
    for s, p, m in ((0.2, 1e11, 5e11), (0.5, 3e11, 5e11), (0.9, 4e11, 5e11)):
        k = np.arange(101)
        ref += np.dot(sps.binom(100, p / m).pmf(k), np.abs(100 * s - k)) / 100 / 3
    assert v == pytest.approx(ref, rel=1e-9)


def test_hypergeometric_rows_match_scipy():
    M = np.array([10, 50, 7, 1000, 3])
    p = np.array([4, 25, 7, 3, 1])
    k = np.array([6, 30, 3, 99, 2])
    lo, pmf = calibration._hypergeom_pmf(M, p, k, 101)
    for r in range(M.size):
        x = lo[r] + np.arange(101)
        assert pmf[r] == pytest.approx(sps.hypergeom(M[r], p[r], k[r]).pmf(x), abs=1e-14)


def test_non_integer_weights_give_nan(rng):
    y, s, w = make_binary(rng, 50, weighted=True)
    with pytest.warns(UndefinedMeasureWarning):
        assert math.isnan(ml.metrics.cal(y, s, sample_weight=w))


@pytest.mark.parametrize("bad", [0, -3, 2.5, math.nan])
def test_bad_window_is_refused(bad):
    with pytest.raises(ml.MeasurelabError, match="window"):
        ml.metrics.cal([0, 1], [0.2, 0.7], window=bad)
