"""Huang & Ling (2007) Theorems 1 and 2 as property tests over randomly generated measures,
and the two-level measures of the registry on ranked lists and prediction vectors."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from measurelab.measures import TwoLevelValue
from measurelab.metaeval import (
    PredictionSet,
    RankedLists,
    compare_measures,
    measure_ranks,
    pair_counts,
    pair_counts_brute,
)
from measurelab.metaeval.consistency import ratio_c, ratio_d

DOMAIN = RankedLists(8, 4, 3)  # 70 lists; (tp, U) gives the objects their features
CELL = np.unique(np.stack([DOMAIN.tp, DOMAIN.auc2], axis=1), axis=0, return_inverse=True)[1]
CELL = np.asarray(CELL).ravel()
NCELL = int(CELL.max()) + 1


@st.composite
def random_measure(draw) -> list:
    """A random measure on the domain: a random function of (tp, AUC numerator) with a
    small range (many ties), sometimes a monotone function of AUC or tp, sometimes exact
    Fractions."""
    kind = draw(st.sampled_from(["table", "auc", "tp", "fraction"]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    r = draw(st.integers(1, 6))
    if kind == "table":
        vals = rng.integers(0, r, NCELL)[CELL]
    elif kind == "auc":  # a coarsening of AUC
        vals = DOMAIN.auc2 // (2 * r)
    elif kind == "tp":
        vals = -DOMAIN.tp if r % 2 else DOMAIN.tp
    else:
        return [Fraction(int(x), r) for x in rng.integers(0, 3 * r, NCELL)[CELL]]
    return [int(v) for v in vals]


def _cd(a, b) -> tuple[float, float]:
    pc = pair_counts(a, b)
    return ratio_c(pc.R, pc.S), ratio_d(pc.P, pc.Q)


def _differs(a) -> int:
    """Pairs a measure separates (counted without pair_counts)."""
    _, c = np.unique(np.array([float(x) for x in a]), return_counts=True)
    K = len(a)
    return K * (K - 1) // 2 - int(np.sum(c * (c - 1) // 2))


SETTINGS = settings(max_examples=60, deadline=None)


@SETTINGS
@given(random_measure(), random_measure(), random_measure())
def test_theorem1_finer_is_transitive(f, g, h):
    _, dfg = _cd(f, g)
    _, dgh = _cd(g, h)
    _, dfh = _cd(f, h)
    if dfg > 1 and dgh > 1:
        assert dfh > 1
    # the reason: P − Q = (pairs f separates) − (pairs g separates)
    pc = pair_counts(f, g)
    assert pc.P - pc.Q == _differs(f) - _differs(g)


def test_consistency_is_not_transitive():
    f, g, h = [1, 2, 3], [1, 3, 2], [2, 3, 1]
    assert _cd(f, g)[0] == _cd(g, h)[0] == pytest.approx(2 / 3)  # both consistent
    assert _cd(f, h)[0] == pytest.approx(1 / 3)  # but f and h are not


@SETTINGS
@given(random_measure(), random_measure())
def test_theorem2_two_level(f, g):
    fg = [TwoLevelValue(a, b) for a, b in zip(f, g, strict=True)]
    assert pair_counts(fg, f) == pair_counts_brute(fg, f)
    base = pair_counts(f, g)
    c_fg_f, d_fg_f = _cd(fg, f)
    c_fg_g, d_fg_g = _cd(fg, g)
    if base.R + base.S + base.P > 0:  # f separates some pair
        assert c_fg_f == 1.0
    if base.Q > 0:  # some pair tied by f is separated by g
        assert d_fg_f == math.inf
    else:
        assert math.isnan(d_fg_f)  # f:g and f order the pairs identically
    if base.R + base.S > 0:
        assert c_fg_g >= ratio_c(base.R, base.S)
        assert c_fg_g == ratio_c(base.R + base.Q, base.S)
    if base.P > 0:
        assert d_fg_g == math.inf
    # a second composition changes nothing: (f:g):g orders like f:g
    fgg = [TwoLevelValue(x, b) for x, b in zip(fg, g, strict=True)]
    pc = pair_counts(fgg, fg)
    assert pc.S == pc.P == pc.Q == 0


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12])
def test_auc_acc_two_level_on_balanced_lists(n):
    """Huang & Ling Table 3: C(AUC:acc, AUC) = 1, D = ∞; AUC:acc is more consistent with
    acc than AUC is and infinitely more discriminating."""
    d = RankedLists(n, n // 2)
    r = compare_measures("auc:acc", "auc", d)
    base = compare_measures("auc", "acc", d)
    assert (r.consistency, r.S, r.Q) == (1.0, 0, 0)
    if base.Q:  # some lists tie on AUC but differ in acc (n >= 6)
        assert r.discriminancy == math.inf
    else:  # n = 4: AUC already separates every pair acc separates; D = 0/0
        assert n == 4 and math.isnan(r.discriminancy)
    r2 = compare_measures("auc:acc", "acc", d)
    assert r2.consistency >= base.consistency
    assert (r2.R, r2.S) == (base.R + base.Q, base.S)
    assert r2.discriminancy == math.inf
    # independent route: TwoLevelValue(AUC, acc) per list, exact Fractions
    vals = [TwoLevelValue(Fraction(int(u), 2), Fraction(int(t))) for u, t in
            zip(d.auc2, d.tp, strict=True)]
    assert pair_counts(vals, [Fraction(int(u)) for u in d.auc2]) == r.counts


def test_registry_two_level_on_prediction_vectors():
    rng = np.random.default_rng(5)
    y = rng.random(30) < 0.4
    scores = [np.round(rng.random(30) * 6) / 6 for _ in range(60)]
    d = PredictionSet(y, scores)
    for f, g in [("acc", "auc"), ("f1", "auc"), ("auc", "f1")]:
        two = f"{f}:{g}"
        rf, _ = measure_ranks(f, d)
        rg, _ = measure_ranks(g, d)
        r = compare_measures(two, f, d)
        assert r.S == r.Q == 0
        base = compare_measures(f, g, d)
        r2 = compare_measures(two, g, d)
        assert (r2.R, r2.S, r2.P, r2.Q) == (base.R + base.Q, base.S, base.P, 0)
        tl = [TwoLevelValue(int(a), int(b)) for a, b in zip(rf, rg, strict=True)]
        assert compare_measures(two, g, d).counts == pair_counts(tl, list(rg))


def test_a_measure_with_a_target_is_ranked_by_its_exact_distance():
    """A count measure whose ideal is a value (sens, ideally ½ here) is ranked by the
    distance to it, decided exactly: the brute-force ranks of |sens − ½| in Fractions;
    its degree of consistency with acc comes from those ranks; spiegelhalter_z ranks by
    |z| on prediction vectors."""
    import measurelab as ml

    @ml.measure("sens_half", kind="threshold", statistic="counts", higher_is_better=False,
                target=0.5, source="test")
    def sens_half(c):
        """Sensitivity, ideally one half."""
        return c.tp / (c.tp + c.fn)

    try:
        d = RankedLists(8, 4, 3)
        tp, _fp, fn, _tn = d.counts()
        dist = [abs(Fraction(int(a), int(a + b)) - Fraction(1, 2)) for a, b in
                zip(tp, fn, strict=True)]
        levels = sorted(set(dist), reverse=True)  # 0 = worst = farthest
        want = [levels.index(x) for x in dist]
        got, u = measure_ranks("sens_half", d)
        assert got.tolist() == want and u == len(levels)
        r = compare_measures("sens_half", "acc", d)
        ra, _ = measure_ranks("acc", d)
        assert r.counts == pair_counts(list(got), list(ra))

        rng = np.random.default_rng(2)
        y = rng.random(40) < 0.5
        scores = [np.clip(0.5 + s * (rng.random(40) - 0.5 + 0.4 * (y - 0.5)), 0, 1)
                  for s in (0.2, 0.5, 1.0, 1.6, 1.9)]
        pset = PredictionSet(y, scores)
        z = [abs(ml.metrics.spiegelhalter_z(y, s)) for s in scores]
        rz, _ = measure_ranks("spiegelhalter_z", pset)
        order = sorted(set(z), reverse=True)
        assert rz.tolist() == [order.index(v) for v in z]
    finally:
        ml.registry.unregister("sens_half")
