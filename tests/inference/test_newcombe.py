"""Newcombe's (2006) method-5 interval for one AUC, checked against its definition.

The oracle evaluates the defining inequality (θ̂ − θ)² ≤ z²·V(θ) on a grid of 2,000,001
values of θ, written out here from the paper's formula (not the module's code), with z
from the standard library's NormalDist (not scipy). A second route solves the inequality's
boundary as the roots of a quartic polynomial.

No published numbers are reproduced: Newcombe's (2006) tables were not at hand.
"""

from __future__ import annotations

import math
import random
from statistics import NormalDist

import numpy as np
import pytest

from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference.newcombe import newcombe_auc_interval, newcombe_variance

GRID = np.linspace(0.0, 1.0, 2_000_001)
STEP = GRID[1] - GRID[0]


def _z(level: float) -> float:
    return NormalDist().inv_cdf(0.5 + level / 2.0)


def _oracle(auc: float, m: int, n: int, level: float) -> tuple[float, float, bool]:
    """The extreme accepted grid points, and whether the accepted points are contiguous."""
    t = GRID
    n_star = (m + n) / 2.0 - 1.0
    v = t * (1 - t) / (m * n) * (1 + (n_star - 1) * ((1 - t) / (2 - t) + t / (1 + t)))
    ok = np.flatnonzero((auc - t) ** 2 <= _z(level) ** 2 * v)
    return GRID[ok[0]], GRID[ok[-1]], bool(ok[-1] - ok[0] + 1 == ok.size)


def _cases() -> list[tuple[float, int, int, float]]:
    rng = random.Random(20060559)
    fixed = [(a, m, n, lev) for a in (0.0, 1.0, 0.5) for m, n in
             ((1, 1), (1, 2), (2, 1), (2, 3), (3, 3), (1, 20), (3, 50)) for lev in (0.95,)]
    fixed += [(0.5, 1, 1, 0.5), (0.0, 1, 1, 0.99), (1.0, 2, 2, 0.999), (0.9, 5, 5, 0.8)]
    drawn = []
    for _ in range(40):
        m, n = rng.choice([1, 2, 3, rng.randint(4, 20), rng.randint(20, 300)]), \
            rng.choice([1, 2, 3, rng.randint(4, 20), rng.randint(20, 300)])
        u = rng.randint(0, 2 * m * n) / (2 * m * n)  # an attainable AUC (ties count 1/2)
        auc = u if rng.random() < 0.7 else rng.random()
        drawn.append((auc, m, n, rng.choice([0.5, 0.8, 0.9, 0.95, 0.99, 0.999])))
    return fixed + drawn


@pytest.mark.parametrize(("auc", "m", "n", "level"), _cases())
def test_ends_are_the_grids_extreme_accepted_points(auc: float, m: int, n: int,
                                                    level: float) -> None:
    lo, hi = newcombe_auc_interval(auc, m, n, level)
    g_lo, g_hi, contiguous = _oracle(auc, m, n, level)
    assert contiguous  # the accepted set is one interval, so two roots describe it
    assert g_lo - STEP - 1e-12 <= lo <= g_lo + 1e-12
    assert g_hi - 1e-12 <= hi <= g_hi + STEP + 1e-12


@pytest.mark.parametrize(("auc", "m", "n", "level"),
                         [(0.8, 10, 10, 0.95), (0.0, 5, 7, 0.95), (1.0, 5, 7, 0.95),
                          (0.37, 3, 41, 0.9), (0.5, 1, 1, 0.95)])
def test_ends_are_roots_of_the_boundary_polynomial(auc: float, m: int, n: int,
                                                   level: float) -> None:
    """Times m·n·(2 − θ)(1 + θ) > 0 the boundary is a quartic; its real roots in [0, 1]."""
    P = np.polynomial.Polynomial
    t, k, z2 = P([0.0, 1.0]), (m + n) / 2.0 - 2.0, _z(level) ** 2
    quartic = m * n * (auc - t) ** 2 * (2 - t) * (1 + t) - z2 * t * (1 - t) * (
        (2 - t) * (1 + t) + k * ((1 - t) * (1 + t) + t * (2 - t)))
    r = quartic.roots()
    real = sorted(x.real for x in r if abs(x.imag) < 1e-9 and -1e-9 <= x.real <= 1 + 1e-9)
    lo, hi = newcombe_auc_interval(auc, m, n, level)
    assert min(real) == pytest.approx(lo, abs=1e-9) and max(real) == pytest.approx(hi, abs=1e-9)


def test_the_doctest_numbers() -> None:
    assert newcombe_auc_interval(0.8, 10, 10) == pytest.approx(
        (0.5551617481296447, 0.9221843657327307), abs=1e-12)


@pytest.mark.parametrize(("auc", "m", "n", "level"), _cases())
def test_properties(auc: float, m: int, n: int, level: float) -> None:
    lo, hi = newcombe_auc_interval(auc, m, n, level)
    assert 0.0 <= lo <= auc <= hi <= 1.0
    assert lo < hi
    mirror = newcombe_auc_interval(1.0 - auc, n, m, level)  # V(θ) = V(1 − θ)
    assert mirror == pytest.approx((1.0 - hi, 1.0 - lo), abs=1e-10)
    wider = newcombe_auc_interval(auc, m, n, 0.5 + level / 2.0)
    assert wider[0] <= lo + 1e-12 and wider[1] >= hi - 1e-12 and wider[1] - wider[0] > hi - lo
    more = newcombe_auc_interval(auc, 2 * m, 2 * n, level)
    assert more[1] - more[0] < hi - lo
    one_more = newcombe_auc_interval(auc, m + 1, n, level)  # V never grows with m
    assert one_more[1] - one_more[0] <= hi - lo + 1e-12


def test_an_empty_class_gives_nan_and_numpy_integers_are_counts() -> None:
    for m, n in ((0, 5), (5, 0), (0, 0)):
        assert all(math.isnan(x) for x in newcombe_auc_interval(0.5, m, n))
    assert newcombe_auc_interval(0.7, np.int64(4), np.int32(9)) == \
        newcombe_auc_interval(0.7, 4, 9)


def test_variance_is_vectorised_and_vanishes_at_the_ends() -> None:
    theta = np.array([[0.0, 0.25], [0.5, 1.0]])
    v = newcombe_variance(theta, 4, 6)
    assert v.shape == (2, 2)
    assert v[1, 0] == pytest.approx(0.25 / 24 * (1 + 3 * (2 / 3)))  # N* = 4, V = 0.03125
    assert v[0, 0] == 0.0 and v[1, 1] == 0.0
    assert v.ravel().tolist() == [float(newcombe_variance(x, 4, 6)) for x in theta.ravel()]


@pytest.mark.parametrize(("kwargs", "named"), [
    ({"n_pos": -1}, "n_pos must be a non-negative integer, got -1"),
    ({"n_neg": -3}, "n_neg must be a non-negative integer, got -3"),
    ({"n_pos": 2.5}, "n_pos must be an integer, got 2.5"),
    ({"n_neg": "7"}, "n_neg must be an integer, got '7'"),
    ({"auc": 1.5}, "auc must be in [0, 1], got 1.5"),
    ({"auc": -0.1}, "auc must be in [0, 1], got -0.1"),
    ({"auc": math.nan}, "auc must be a finite number, got nan"),
    ({"confidence_level": 1.0}, "confidence_level must be in (0, 1) (e.g. 0.95), got 1.0"),
    ({"confidence_level": 0}, "confidence_level must be in (0, 1) (e.g. 0.95), got 0"),
    ({"confidence_level": "0.9"}, "confidence_level must be a number in (0, 1), got '0.9'"),
])
def test_bad_input_is_one_line_naming_the_value(kwargs: dict, named: str) -> None:
    args = {"auc": 0.7, "n_pos": 5, "n_neg": 8, "confidence_level": 0.95, **kwargs}
    with pytest.raises(MeasurelabError) as err:
        newcombe_auc_interval(**args)
    assert str(err.value) == named and "\n" not in str(err.value)


def test_variance_refuses_an_empty_class() -> None:
    with pytest.raises(MeasurelabError, match="n_neg must be a positive integer, got 0"):
        newcombe_variance(0.5, 3, 0)
    with pytest.raises(MeasurelabTypeError):
        newcombe_variance(0.5, True, 3)
