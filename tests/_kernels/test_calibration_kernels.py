"""The compiled routes of the calibration family (``_kernels/loess.py``,
``_kernels/pav.py``, ``_kernels/smece.py``, ``_kernels/debiased.py``) against their numpy
routes, on random tables with ties, whole and real weights, one class and extreme
probabilities.

Tolerances: the smooth-ECE grid and the cumulative weights are the same sums in the same
order, so they are equal bit for bit; the population measures' cell sums are the same
running sums and totals (numpy's pairwise order), so they are equal bit for bit; the PAV
finds the same hull and block sums on whole weights (every product of its turn test is
exact), so it is equal there and agrees to rounding on real weights; the loess sums are
added in row order against numpy's pairwise sums, so the fits and the ICI family agree to
rounding (asserted to 1e-12)."""

from __future__ import annotations

import numpy as np
import pytest

from measurelab.measures.calibration import _loess, _rows, loess, smooth
from measurelab.measures.calibration import corp as recalibration
from measurelab.stats.scoretable import ScoreTable
from tests._kernels.test_routing import force_routes

pytest.importorskip("numba")

KINDS = ["loess", "pav", "smece_grid"]


def _tables(seed: int, count: int):
    """Random tables: scores rounded or not (ties), extreme probabilities, whole or real
    weights (zeros too), a class missing now and then."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        n = int(rng.integers(1, 600))
        p = rng.beta(0.3, 0.3, n) if i % 2 else rng.beta(2, 3, n)
        if i % 4 == 1:
            p = np.round(p, int(rng.integers(1, 3)))
        share = [0.0, 1.0][i % 2] if i % 7 == 6 else None
        y = rng.random(n) < (np.clip(1.4 * p - 0.2, 0, 1) if share is None else share)
        w = None
        if i % 3 == 1:
            w = rng.integers(0, 4, n).astype(float)
        elif i % 3 == 2:
            w = rng.uniform(0.05, 3.0, n)
        t = ScoreTable.from_arrays(y, p, w)
        if t.total > 0:
            yield t


def _fresh(t: ScoreTable) -> ScoreTable:
    return ScoreTable(t.scores, t.pos, t.neg)


def _both(monkeypatch, kinds, f):
    out = []
    for compiled in (False, True):
        force_routes(monkeypatch, compiled, kinds)
        out.append(f())
    return out


def test_cumulative_weights_are_numpys_cumsum(monkeypatch):
    rng = np.random.default_rng(3)
    pos, neg = rng.uniform(0, 2, 200_000), rng.integers(0, 3, 200_000).astype(float)
    want = np.concatenate([[0.0], np.cumsum(pos + neg)])
    for got, whole in _both(monkeypatch, ["loess"], lambda: _loess._cumulative(pos, neg)):
        assert np.array_equal(got, want) and whole is False
    ints = np.floor(pos)
    for _, whole in _both(monkeypatch, ["loess"], lambda: _loess._cumulative(ints, neg)):
        assert whole is True


def test_loess_fits_and_ici_family_agree(monkeypatch):
    checked = 0
    for t in _tables(1, 120):
        s, pos, neg = _rows.weighted_rows(t)
        a, b = _both(monkeypatch, ["loess"], lambda s=s, pos=pos, neg=neg, t=t:
                     _loess.loess_surface(s, pos, neg, integer=t.is_integer))
        if a is None:
            assert b is None
            continue
        np.testing.assert_array_equal(a.verts, b.verts)
        np.testing.assert_allclose(_loess.surface_at(a, s), _loess.surface_at(b, s),
                                   rtol=0, atol=1e-12)
        ia, ib = _both(monkeypatch, ["loess"],
                       lambda t=t: loess._ici_summaries(_fresh(t)))
        for k in ("mean", "median", "p90", "max"):
            assert ia[k] == pytest.approx(ib[k], rel=1e-12, abs=1e-14), (k, t)
        checked += 1
    assert checked > 60


def test_pav_agrees_and_is_equal_on_whole_weights(monkeypatch):
    for t in _tables(2, 150):
        a, b = _both(monkeypatch, ["pav"], lambda t=t: (
            recalibration.recalibrate(_fresh(t)).cep,
            recalibration.decomposition(_fresh(t), "brier"),
            recalibration.decomposition(_fresh(t), "log")))
        if t.is_integer:
            assert np.array_equal(a[0], b[0]) and a[1] == b[1] and a[2] == b[2], t
        else:
            np.testing.assert_allclose(a[0], b[0], rtol=0, atol=1e-14)
            for x, z in zip(a[1:], b[1:], strict=True):
                assert np.allclose(x, z, rtol=1e-12, atol=1e-15), (x, z)


def test_smece_grid_is_equal_bit_for_bit(monkeypatch):
    rng = np.random.default_rng(5)
    for t in _tables(4, 60):
        # a block of three reweighted tables as well as the table alone
        pos = np.stack([t.pos * rng.integers(0, 3, t.size) for _ in range(3)])
        neg = np.stack([t.neg * rng.integers(0, 3, t.size) for _ in range(3)])
        a, b = _both(monkeypatch, ["smece_grid"], lambda t=t, pos=pos, neg=neg: (
            smooth._smece_block_values(t.scores, pos, neg),
            smooth.smece_bandwidth(_fresh(t)),
            smooth._Smoother(t.scores, t.pos[None], t.neg[None]).values(
                np.array([0.003, 0.2]), np.array([0, 0]))))
        assert np.array_equal(a[0], b[0], equal_nan=True) and a[1] == b[1]
        assert np.array_equal(a[2], b[2])


def test_debiased_cell_sums_are_equal_bit_for_bit(monkeypatch):
    """Tables with ties, whole and real weights, one class; alone and as a block of
    reweighted tables (a bootstrap's), and across the 65,536-row chunks."""
    from measurelab.measures.calibration import debiased

    rng = np.random.default_rng(6)
    tables = list(_tables(7, 40))
    n = 140_000
    p = np.sort(rng.beta(2, 2, n))
    y = rng.random(n) < p
    tables.append(ScoreTable(p, y.astype(float), (~y).astype(float)))
    w = rng.uniform(0.05, 3.0, n)  # real weights: the totals in numpy's pairwise order
    tables.append(ScoreTable(p, y * w, (~y) * w))
    for t in tables:
        pos = np.stack([t.pos * rng.integers(0, 3, t.size) for _ in range(4)] + [t.pos])
        neg = np.stack([t.neg * rng.integers(0, 3, t.size) for _ in range(4)] + [t.neg])
        whole = bool((pos == np.round(pos)).all() and (neg == np.round(neg)).all())
        a, b = _both(monkeypatch, ["debiased_cells"],
                     lambda t=t, pos=pos, neg=neg, whole=whole: debiased.binned(
                         t.scores, pos, neg, whole=whole))
        for x, z in zip(a, b, strict=True):
            assert np.array_equal(x, z), (x, z)


def test_debiased_totals_of_huge_whole_weights_keep_numpys_order(monkeypatch):
    """Whole weights add exactly in any order only below 2**53; above, the compiled
    route falls back to numpy's pairwise order."""
    from measurelab.measures.calibration import debiased

    rng = np.random.default_rng(9)
    p = np.sort(rng.random(1000))
    pos = np.floor(rng.random((2, 1000)) * 2.0**43)
    neg = np.floor(rng.random((2, 1000)) * 2.0**43)
    a, b = _both(monkeypatch, ["debiased_cells"],
                 lambda: debiased.binned(p, pos, neg, whole=True))
    for x, z in zip(a, b, strict=True):
        assert np.array_equal(x, z)


def test_debiased_cells_refuse_what_no_sorted_table_can_hold(monkeypatch):
    """Scores out of order or outside [0, 1] make more cells than a table can: both
    routes raise (the compiled one must not write past its array)."""
    from measurelab.measures.calibration import debiased

    s = np.linspace(-3.0, 4.0, 3000)
    ones = np.ones((1, 3000))
    for compiled in (False, True):
        force_routes(monkeypatch, compiled, ["debiased_cells"])
        with pytest.raises(IndexError):
            debiased.binned(s, ones, ones)


def test_large_tables_take_the_compiled_routes():
    from measurelab._kernels import routing

    for kind in KINDS:
        assert routing.use_compiled(kind, 2**18) and not routing.use_compiled(kind, 2**18 - 1)
