"""pair_counts (O(K log K), from ranks and tie groups) against independent oracles: the
O(K²) pairwise counter and, for larger K, a numpy sign-matrix counter."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from measurelab import MeasurelabError
from measurelab.measures import TwoLevelValue
from measurelab.metaeval import PairCounts, pair_counts, pair_counts_brute
from measurelab.metaeval import pairs as pairs_mod
from tests._kernels.test_routing import force_routes

SETTINGS = settings(max_examples=120, deadline=None)


def _check(a, b) -> PairCounts:
    got = pair_counts(a, b)
    want = pair_counts_brute(a, b)
    assert got == want
    K = len(a)
    assert got.R + got.S + got.P + got.Q + got.T == got.pairs == K * (K - 1) // 2
    assert got.objects == K
    assert all(isinstance(x, int) for x in (got.R, got.S, got.P, got.Q, got.T))
    # exchanging f and g exchanges P and Q
    assert pair_counts(b, a) == got.swapped()
    return got


def _pairs_of(elem, max_size=40):
    return st.integers(0, max_size).flatmap(
        lambda k: st.tuples(st.lists(elem, min_size=k, max_size=k),
                            st.lists(elem, min_size=k, max_size=k)))


@SETTINGS
@given(_pairs_of(st.integers(-3, 3)))
def test_ints_with_many_ties(ab):
    _check(*ab)


@SETTINGS
@given(_pairs_of(st.integers(-(2**70), 2**70) | st.sampled_from([2**64, 2**64 + 1, -1, 0])))
def test_big_ints_stay_exact(ab):
    _check(*ab)


_fracs = st.builds(Fraction, st.integers(-4, 4), st.integers(1, 4))


@SETTINGS
@given(_pairs_of(_fracs))
def test_fractions(ab):
    _check(*ab)


_floats = st.sampled_from([-np.inf, -1.5, -0.0, 0.0, 0.1, 0.2, 0.30000000000000004, 0.3,
                           1e300, np.inf])


@SETTINGS
@given(_pairs_of(_floats))
def test_floats_including_signed_zero_and_inf(ab):
    _check(*ab)
    a, b = ab
    if a:
        assert pair_counts(np.array(a), np.array(b)) == pair_counts_brute(a, b)


@SETTINGS
@given(_pairs_of(_fracs | st.integers(-2, 2) | st.sampled_from([0.5, 0.25, 2**60 + 1])))
def test_mixed_exact_numbers(ab):
    _check(*ab)


_two_level = st.builds(TwoLevelValue, _fracs, st.integers(0, 2))


@SETTINGS
@given(_pairs_of(_two_level))
def test_two_level_values(ab):
    _check(*ab)


@SETTINGS
@given(_pairs_of(_two_level), st.data())
def test_two_level_against_plain_values(ab, data):
    a, _ = ab
    c = data.draw(st.lists(st.integers(0, 3), min_size=len(a), max_size=len(a)))
    _check(a, c)


ROUTES = {  # (largest contingency table, discordant-pair counter)
    "table": (pairs_mod._TABLE_CELLS, None),
    "sorted+scipy": (0, None),
    "sorted+numpy radix": (0, False),
}


def _route(monkeypatch, name: str) -> None:
    cells, dis = ROUTES[name]
    monkeypatch.setattr(pairs_mod, "_TABLE_CELLS", cells)
    if dis is not None:
        monkeypatch.setattr(pairs_mod, "_KENDALL_DIS", dis)


@pytest.mark.parametrize("route", sorted(ROUTES))
@SETTINGS
@given(ab=_pairs_of(st.integers(0, 6), max_size=60))
def test_every_algorithm(route, ab):
    """The contingency-table route and the sorted routes (scipy's compiled discordant-pair
    counter or the numpy radix counter) give the same counts."""
    with pytest.MonkeyPatch.context() as mp:
        _route(mp, route)
        _check(*ab)


def test_scipy_counter_is_used_when_present():
    assert pairs_mod._kendall_dis() is not False


def _numpy_oracle(a: np.ndarray, b: np.ndarray) -> PairCounts:
    """All pairs by sign matrices, in row blocks (independent of pair_counts)."""
    R = S = P = Q = T = 0
    K = a.size
    for start in range(0, K, 500):
        i = np.arange(start, min(K, start + 500))
        upper = np.arange(K)[None, :] > i[:, None]
        fa = np.sign(a[None, :] - a[i, None])
        gb = np.sign(b[None, :] - b[i, None])
        R += int(np.count_nonzero(upper & (fa * gb > 0)))
        S += int(np.count_nonzero(upper & (fa * gb < 0)))
        P += int(np.count_nonzero(upper & (fa != 0) & (gb == 0)))
        Q += int(np.count_nonzero(upper & (fa == 0) & (gb != 0)))
        T += int(np.count_nonzero(upper & (fa == 0) & (gb == 0)))
    return PairCounts(R, S, P, Q, T, K)


@pytest.mark.parametrize("levels", [(7, 9), (300, 40), (6000, 6000)])
@pytest.mark.parametrize("route", sorted(ROUTES))
def test_large_inputs_against_numpy_oracle(levels, route, monkeypatch):
    """K = 6000 covers the hashing route for many repeats, the counting route for small
    integer ranges and the discordant-pair counters on long sequences."""
    rng = np.random.default_rng(levels[0])
    K = 6000
    a = rng.integers(0, levels[0], K) / levels[0]
    b = rng.integers(0, levels[1], K)
    b = b - 3 * (a > 0.5)  # correlated, negative values
    _route(monkeypatch, route)
    want = _numpy_oracle(a.astype(float), b.astype(float))
    assert pair_counts(a, b) == want
    assert pair_counts(list(a), list(b)) == want
    assert pair_counts(a.astype(np.float32).astype(float), b) == _numpy_oracle(
        a.astype(np.float32).astype(float), b.astype(float))


def test_errors():
    with pytest.raises(MeasurelabError, match="equal lengths"):
        pair_counts([1, 2], [1])
    with pytest.raises(MeasurelabError, match="NaN"):
        pair_counts([1.0, float("nan")], [1, 2])
    with pytest.raises(MeasurelabError, match="NaN"):
        pair_counts(np.array([1.0, np.nan]), [1, 2])
    with pytest.raises(MeasurelabError, match="comparable"):
        pair_counts([1, "a"], [1, 2])


def test_trivial_sizes():
    assert pair_counts([], []) == PairCounts(0, 0, 0, 0, 0, 0)
    assert pair_counts([3], [1]) == PairCounts(0, 0, 0, 0, 0, 1)
    assert tuple(pair_counts([1, 2], [2, 1])) == (0, 1, 0, 0)


def test_pandas_and_numpy_inputs():
    import pandas as pd

    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 5, 200), rng.integers(0, 4, 200) / 4
    want = pair_counts_brute(a.tolist(), b.tolist())
    assert pair_counts(pd.Series(a), pd.Series(b)) == want
    assert pair_counts(a.astype(np.int8), b.astype(np.float32)) == want
    assert pair_counts(a > 2, b) == pair_counts_brute((a > 2).tolist(), b.tolist())


# --- the compiled route straight from numeric values (numba; large K) ---------------------

# values whose leading bits collide (neighbouring floats and ints), signed zeros, infinities
_near = [1.0, float(np.nextafter(1.0, 2.0)), float(np.nextafter(np.nextafter(1.0, 2.0), 2.0)),
         -0.0, 0.0, 5e-324, -5e-324, -np.inf, np.inf, 0.1, 0.30000000000000004, 0.3, -2.5]
_wide_ints = [-(2**63), -(2**62), 2**62, 2**62 + 1, 2**62 + 2, 2**63 - 1, 0, 1, -1]

COMPILED_ROUTES = {  # (rank route, largest table on that route, largest Fenwick tree)
    "hash+table": ("hash", 1 << 24, 1 << 15),
    "sort+table": ("sort", 1 << 24, 1 << 15),
    "hash+fenwick": ("hash", 0, 1 << 15),
    "sort+fenwick": ("sort", 0, 1 << 15),
    "hash+split inversions": ("hash", 0, 0),
    "sort+split inversions": ("sort", 0, 0),
}


def _compiled(mp: pytest.MonkeyPatch, route: str) -> None:
    ranks, cells, fenwick = COMPILED_ROUTES[route]
    force_routes(mp, True, ["pair_values"])
    mp.setattr(pairs_mod, "_RANK_ROUTE", ranks)
    mp.setattr(pairs_mod, "_VALUES_TABLE_CELLS", cells)
    mp.setattr(pairs_mod, "_FENWICK_RANKS", fenwick)


def _arrays(values, dtype):
    return st.integers(2, 40).flatmap(lambda k: st.tuples(
        st.lists(st.sampled_from(values), min_size=k, max_size=k).map(
            lambda v: np.array(v, dtype=dtype)),
        st.lists(st.sampled_from(values), min_size=k, max_size=k).map(
            lambda v: np.array(v, dtype=dtype))))


@pytest.mark.parametrize("route", sorted(COMPILED_ROUTES))
@settings(max_examples=60, deadline=None)
@given(ab=_arrays(_near, np.float64) | _arrays(_wide_ints, np.int64)
       | _arrays(list(range(-3, 4)), np.int64))
def test_compiled_route_equals_brute_force(route, ab):
    """Every sub-route of the compiled value route (hashed or packed-key ranks; table,
    one Fenwick tree or split inversion count) gives the brute-force counts, also for
    floats one ulp apart, signed zeros, infinities and ints at the int64 limits."""
    a, b = ab
    want = pair_counts_brute(a.tolist(), b.tolist())
    with pytest.MonkeyPatch.context() as mp:
        _compiled(mp, route)
        assert pairs_mod._counts_compiled(a, b) == want  # the route was taken
        assert pair_counts(a, b) == want
        assert pair_counts(b, a) == want.swapped()


@pytest.mark.parametrize("route", sorted(COMPILED_ROUTES))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), levels=st.sampled_from([3, 40, 700, 0]),
       K=st.integers(2, 5000))
def test_compiled_route_equals_numpy_route_on_larger_inputs(route, seed, levels, K):
    """On K up to 5,000 (distinct, tied and mixed values, correlated or not) the compiled
    route gives the counts of the numpy route."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=K)
    a = z + rng.normal(size=K)
    b = rng.normal(size=K) - z * rng.random()
    if levels:
        a = np.round(a * levels) / levels
    if seed % 3 == 0:
        b = np.round(b * 10)
    b32 = b.astype(np.float32).astype(float)
    want = pair_counts(a, b)  # below the "pair_values" route's size: the numpy routes
    want32 = pair_counts(b32, a)
    with pytest.MonkeyPatch.context() as mp:
        _compiled(mp, route)
        assert pairs_mod._counts_compiled(a, b) == want
        assert pairs_mod._counts_compiled(b32, a) == want32


def test_compiled_route_is_taken_for_long_numeric_arrays(monkeypatch):
    import measurelab._kernels.pairs  # noqa: F401  (loaded: the lower threshold)
    from measurelab._kernels import routing

    K = int(routing.threshold("pair_values"))
    rng = np.random.default_rng(5)
    a, b = rng.random(K), np.round(rng.random(K) * 50)
    got = pairs_mod._counts_compiled(a, b)
    assert got is not None and got == pair_counts(a, b)
    force_routes(monkeypatch, False, ["pair_values"])  # the numpy route
    assert pairs_mod._counts_compiled(a, b) is None
    assert got == pair_counts(a, b)
