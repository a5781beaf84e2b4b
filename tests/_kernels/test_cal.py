"""The compiled CAL (``measures/_cal_kernel.py``) against the numpy route, enumeration of
every tie ordering and the per-window hypergeometric convolution (docs/METHODS.md#cal-ties).

Tolerances: pure tables with cases ≤ ``_EXPAND_FACTOR`` × distinct scores (untied data
included) must give the numpy value bit for bit; every other table is summed in another
order than the numpy route, so the routes agree to rounding (asserted to 1e-12 relative,
observed 1e-16 to 1e-14)."""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

import measurelab as ml
from measurelab._kernels import routing
from measurelab.measures.calibration import cal as calibration
from measurelab.stats.scoretable import ScoreTable
from tests._kernels.test_routing import force_routes
from tests.conftest import make_binary
from tests.measures.test_calibration import ca2, convolution_oracle, enumerate_orders

pytest.importorskip("numba")


def numpy_cal(t: ScoreTable, window: int, monkeypatch: pytest.MonkeyPatch) -> float:
    force_routes(monkeypatch, False, ["cal"])
    return calibration.cal(t, window=window)


def compiled_cal(t: ScoreTable, window: int, monkeypatch: pytest.MonkeyPatch) -> float:
    force_routes(monkeypatch, True, ["cal"])
    assert calibration.use_compiled(t)
    return calibration.cal(t, window=window)


@pytest.mark.parametrize("seed", range(40))
def test_compiled_against_every_tie_ordering(seed, monkeypatch):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(1, 13))
    window = int(rng.integers(1, 9))
    s = rng.integers(0, int(rng.integers(1, 5)), n) / 4.0
    y = (rng.random(n) < rng.uniform(0.2, 0.8)).astype(int)
    t = ScoreTable.from_arrays(y == 1, s)
    assert compiled_cal(t, window, monkeypatch) == pytest.approx(
        enumerate_orders(y, s, window), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("seed", range(30))
def test_compiled_numpy_and_convolution_agree(seed, monkeypatch):
    """Random tables: ties from a few to none, pure and mixed groups, windows 1..150,
    N below and above the window."""
    rng = np.random.default_rng(200 + seed)
    n = int(rng.integers(1, 320))
    window = int(rng.integers(1, 151))
    levels = int(rng.choice([1, 2, 5, 30, 200, 10**9]))
    s = np.round(rng.random(n) * levels) / levels
    if seed % 3 == 0:  # pure groups: the label is a function of the score
        y = (s > rng.random()).astype(int)
    else:
        y = (rng.random(n) < rng.uniform(0.1, 0.9)).astype(int)
    t = ScoreTable.from_arrays(y == 1, s)
    got = compiled_cal(t, window, monkeypatch)
    assert got == pytest.approx(numpy_cal(t, window, monkeypatch), rel=1e-12, abs=1e-15)
    assert got == pytest.approx(convolution_oracle(y, s, window), rel=1e-11, abs=1e-15)


@pytest.mark.parametrize("n,window", [(7, 3), (129, 1), (350, 100), (5000, 3),
                                      (300_001, 100)])
def test_untied_and_pure_are_bit_for_bit(n, window, rng, monkeypatch):
    """Untied data and a bootstrap replicate of it (ties only inside one class): the
    compiled route repeats numpy's cumulative sum and pairwise summation exactly."""
    y, s, _ = make_binary(rng, n, ties=False)
    t = ScoreTable.from_arrays(y == 1, s)
    got = compiled_cal(t, window, monkeypatch)
    assert got == numpy_cal(t, window, monkeypatch)
    if n <= 5000:
        order = np.argsort(s)
        assert got == pytest.approx(ca2(y[order].astype(float), s[order], window), abs=1e-13)
    idx = rng.integers(0, n, n)
    tb = ScoreTable.from_arrays(y[idx] == 1, s[idx])
    assert not np.any((tb.pos > 0) & (tb.neg > 0))
    assert compiled_cal(tb, window, monkeypatch) == numpy_cal(tb, window, monkeypatch)


def test_pure_groups_with_many_cases_per_score(rng, monkeypatch):
    """Pure groups, cases far above the distinct scores: the numpy closed form against
    the compiled pieces and the definition."""
    s = np.repeat(np.sort(rng.random(40)), rng.integers(1, 30, 40))
    y = (s > 0.5).astype(int)
    t = ScoreTable.from_arrays(y == 1, s)
    assert s.size > calibration._EXPAND_FACTOR * t.size
    got = compiled_cal(t, 25, monkeypatch)
    assert got == pytest.approx(numpy_cal(t, 25, monkeypatch), rel=1e-12)
    assert got == pytest.approx(ca2(y.astype(float), s, 25), rel=1e-12)


@pytest.mark.parametrize("window", [1, 7, 60, 150])
def test_integer_weights_equal_repetition(window, rng, monkeypatch):
    y, s, _ = make_binary(rng, 150, ties=True)
    w = rng.integers(1, 5, 150)
    rep = np.repeat(np.arange(150), w)
    tw = ScoreTable.from_arrays(y == 1, s, w.astype(float))
    tr = ScoreTable.from_arrays(y[rep] == 1, s[rep])
    got = compiled_cal(tw, window, monkeypatch)
    assert got == pytest.approx(compiled_cal(tr, window, monkeypatch), rel=1e-12)
    assert got == pytest.approx(numpy_cal(tw, window, monkeypatch), rel=1e-12)
    assert got == pytest.approx(convolution_oracle(y[rep], s[rep], window), rel=1e-11)


def group_oracle(sc: np.ndarray, p: np.ndarray, m: np.ndarray, window: int) -> float:
    """CAL for windows 1 and 2 from the groups (math.fsum): m − w + 1 windows inside each
    group with H(m, p, w) positives; for w = 2 one window across each boundary with two
    independent single draws."""
    n = float(m.sum())
    terms = []
    for g in range(sc.size):
        if m[g] >= window:
            mg, pg = int(m[g]), int(p[g])
            if window == 1:
                pmf = [Fraction(mg - pg, mg), Fraction(pg, mg)]
            else:  # two draws without replacement
                pmf = [Fraction((mg - pg) * (mg - pg - 1), mg * (mg - 1)),
                       Fraction(2 * pg * (mg - pg), mg * (mg - 1)),
                       Fraction(pg * (pg - 1), mg * (mg - 1))]
            pmf = np.array([float(x) for x in pmf])
            terms.append((m[g] - window + 1) * float(
                np.dot(pmf, np.abs(window * sc[g] - np.arange(window + 1)))))
    if window == 2:
        for g in range(sc.size - 1):
            qa, qb = p[g] / m[g], p[g + 1] / m[g + 1]
            u = sc[g] + sc[g + 1]
            terms.append(sum(pa * pb * abs(u - xa - xb)
                             for xa, pa in ((0, 1 - qa), (1, qa))
                             for xb, pb in ((0, 1 - qb), (1, qb))))
    return math.fsum(terms) / window / (n - window + 1)


def test_large_multiplicities(monkeypatch):
    """Groups of up to 5·10^11 cases, pure and mixed, next to single cases. (The numpy
    route's closed form loses digits here — differences of cumulative sums near 10^11 —
    and agrees only to ~1e-6 at windows 1 and 2; large tables take the compiled route.)"""
    sc = np.array([0.1, 0.2, 0.3, 0.5, 0.7, 0.9])
    p = np.array([0.0, 1e11, 1.0, 3e11, 5e10, 0.0])
    q = np.array([7e10, 4e11, 0.0, 2e11, 0.0, 1.0])
    t = ScoreTable(sc, p, q)
    for window in (1, 2):
        assert compiled_cal(t, window, monkeypatch) == pytest.approx(
            group_oracle(sc, p, p + q, window), rel=1e-13)
    for window in (100, 150):
        assert compiled_cal(t, window, monkeypatch) == pytest.approx(
            numpy_cal(t, window, monkeypatch), rel=1e-12)
    # a small version of the same shape against the convolution oracle
    mult = np.array([7, 10, 1, 30, 5, 1, 4, 12])
    npos = np.array([0, 3, 1, 14, 5, 0, 2, 6])
    sc = np.array([0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.95, 0.97])
    s = np.repeat(sc, mult)
    y = np.concatenate([np.r_[np.ones(p), np.zeros(m - p)] for m, p in zip(mult, npos,
                                                                        strict=True)])
    ts = ScoreTable.from_arrays(y == 1, s)
    for window in (1, 4, 11, 33):
        assert compiled_cal(ts, window, monkeypatch) == pytest.approx(
            convolution_oracle(y, s, window), rel=1e-11)


def test_rows_of_zero_weight_are_skipped(monkeypatch):
    t = ScoreTable(np.array([0.1, 0.2, 0.4, 0.5, 0.8, 0.9]),
                   np.array([0.0, 2.0, 0.0, 3.0, 0.0, 1.0]),
                   np.array([0.0, 3.0, 0.0, 0.0, 0.0, 4.0]))
    kept = ScoreTable(np.array([0.2, 0.5, 0.9]), np.array([2.0, 3.0, 1.0]),
                      np.array([3.0, 0.0, 4.0]))
    for window in (1, 2, 5, 12, 13):
        got = compiled_cal(t, window, monkeypatch)
        assert got == pytest.approx(compiled_cal(kept, window, monkeypatch), rel=1e-14)
        assert got == pytest.approx(numpy_cal(t, window, monkeypatch), rel=1e-12)


@pytest.mark.parametrize("n", [1, 99, 100])
def test_window_at_least_n_on_the_compiled_route(n, rng, monkeypatch):
    y, s, _ = make_binary(rng, n, ties=True)
    t = ScoreTable.from_arrays(y == 1, s)
    assert compiled_cal(t, 100, monkeypatch) == pytest.approx(
        abs(s.mean() - (y == 1).mean()), abs=1e-15)


def test_use_compiled_thresholds(monkeypatch):
    small = ScoreTable.from_arrays([1, 0, 1], [0.2, 0.4, 0.9])
    assert not calibration.use_compiled(small)  # default: a few cases stay on numpy
    monkeypatch.setitem(routing.ROUTES, "cal", dataclasses.replace(routing.ROUTES["cal"],
                                                                   min_size=3))
    assert calibration.use_compiled(small)
    monkeypatch.setitem(sys.modules, "measurelab._kernels.cal", None)  # no numba
    assert not calibration.use_compiled(small)
    assert ml.metrics.cal([1, 0, 1], [0.2, 0.4, 0.9], window=2) == pytest.approx(
        (abs(0.6 - 1) + abs(1.3 - 1)) / 2 / 2, abs=1e-15)


def test_small_tables_do_not_load_numba():
    code = ("import sys, measurelab as ml; ml.metrics.cal([0, 1, 1, 0], [0.1, 0.5, 0.5, 0.9], "
            "window=2); assert 'numba' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
