"""The population's calibration measures (measures/calibration/debiased.py): the cells from
their definition, the estimate from a pair loop, exact unbiasedness by enumerating every
label vector, the decomposition identity, blocks equal to single tables."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import measurelab as ml
from measurelab.measures.calibration.debiased import (
    binned,
    block_estimates,
    estimates,
    n_bins,
)
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable


def _cells_from_definition(p: np.ndarray, w: np.ndarray) -> list[int]:
    """Cell id of each distinct probability (increasing), written from the definition:
    equal-mass groups by the mid-point of each row's weight, cut on a grid of
    min(B, 20) cells, both symmetric about the middle; a new cell where either changes."""
    n = float(w.sum())
    b = max(2, 2 * round((n ** 0.4) / 2))
    g = min(b, 20)
    ids, cur, prev = [], -1, None
    cum = 0.0
    for pi, wi in zip(p.tolist(), w.tolist(), strict=True):
        mid = cum + wi / 2
        cum += wi
        x = (mid / n - 0.5) * b
        gx = (pi - 0.5) * g

        def cell(c: float) -> float:
            a = max(math.ceil(abs(c) - 1e-9), 0)
            return math.copysign(a, c)

        key = (cell(x), cell(gx))
        if key != prev:
            cur += 1
            prev = key
        ids.append(cur)
    return ids


def _brute_force(y: np.ndarray, p: np.ndarray) -> float:
    """Σ_cells (n_b/n)·mean over ordered pairs of distinct cases of the cell of r_i·r_j."""
    order = np.argsort(p, kind="stable")
    y, p = y[order], p[order]
    s, first = np.unique(p, return_index=True)
    w = np.diff(np.append(first, p.size)).astype(float)
    row_cell = _cells_from_definition(s, w)
    case_cell = np.repeat(row_cell, w.astype(int))
    r = p - y
    total = 0.0
    for c in np.unique(case_cell):
        idx = np.flatnonzero(case_cell == c)
        nb = idx.size
        if nb < 2:
            continue
        pairs = sum(r[i] * r[j] for i in idx for j in idx if i != j)
        total += nb / y.size * pairs / (nb * (nb - 1))
    return total


@pytest.mark.parametrize("seed", range(6))
def test_equals_a_pair_loop_from_the_definition(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 120))
    p = np.round(rng.beta(1.5, 2, n), int(rng.integers(1, 4)))  # ties when rounded
    y = (rng.random(n) < p).astype(float)
    e = estimates(ScoreTable.from_arrays(y.astype(bool), p))
    assert float(e.brier_mcb[0]) == pytest.approx(_brute_force(y, p), abs=1e-14)


def test_kumar_form_for_a_cell_of_equal_probabilities():
    # one probability for all cases: (p − ȳ)² − ȳ(1 − ȳ)/(n − 1)
    y = np.array([1, 0, 0, 1, 1, 0, 1], dtype=bool)
    p = np.full(7, 0.3)
    ybar = y.mean()
    want = (0.3 - ybar) ** 2 - ybar * (1 - ybar) / 6
    assert float(estimates(ScoreTable.from_arrays(y, p)).brier_mcb[0]) == pytest.approx(
        want, abs=1e-15)


def _expectation(p: np.ndarray, c: np.ndarray, part: str) -> float:
    """E of the raw estimate over every label vector, y_i ~ Bernoulli(c_i) independent."""
    total = 0.0
    for ys in itertools.product((0, 1), repeat=p.size):
        y = np.array(ys, dtype=bool)
        prob = float(np.prod(np.where(y, c, 1 - c)))
        total += prob * float(getattr(estimates(ScoreTable.from_arrays(y, p)), part)[0])
    return total


def test_exactly_unbiased_at_calibration():
    # every one of the 2^10 label vectors: the mean estimate of a calibrated model is 0
    p = np.array([0.05, 0.1, 0.2, 0.25, 0.4, 0.45, 0.6, 0.7, 0.9, 0.95])
    assert _expectation(p, p, "brier_mcb") == pytest.approx(0.0, abs=1e-15)


def test_unbiased_for_the_cells_squared_mean_miscalibration():
    p = np.array([0.1, 0.15, 0.2, 0.3, 0.35, 0.6, 0.65, 0.7, 0.8, 0.9])
    c = np.clip(p + np.array([0.1, -0.05, 0.12, 0.08, 0.0, -0.1, -0.02, 0.05, 0.1, 0.05]),
                0, 1)
    # the target of the cells: Σ_b (n_b/n)·[(Σd)² − Σd²]/(n_b(n_b − 1)), d = p − c
    cells = np.array(_cells_from_definition(p, np.ones(p.size)))
    d = p - c
    want = 0.0
    for b in np.unique(cells):
        db = d[cells == b]
        nb = db.size
        if nb > 1:
            want += nb / p.size * (db.sum() ** 2 - (db * db).sum()) / (nb * (nb - 1))
    assert _expectation(p, c, "brier_mcb") == pytest.approx(want, abs=1e-14)


def test_discrimination_is_mcb_plus_unc_minus_score():
    rng = np.random.default_rng(3)
    p = rng.beta(2, 3, 300)
    y = rng.random(300) < p
    e = estimates(ScoreTable.from_arrays(y, p))
    n, ybar = y.size, y.mean()
    brier = np.mean((p - y) ** 2)
    assert float(e.brier_dsc[0]) == pytest.approx(
        float(e.brier_mcb[0]) + ybar * (1 - ybar) * n / (n - 1) - brier, abs=1e-14)
    pc = np.clip(p, 2.2e-16, 1 - 2.2e-16)
    logloss = -np.mean(y * np.log(pc) + (1 - y) * np.log1p(-pc))
    h = -(ybar * np.log(ybar) + (1 - ybar) * np.log1p(-ybar))
    assert float(e.logloss_dsc[0]) == pytest.approx(
        float(e.logloss_mcb[0]) + h + 0.5 / n - logloss, abs=1e-13)


def test_reported_values_are_positive_parts_and_recover_the_truth():
    rng = np.random.default_rng(0)
    q = rng.beta(2, 2, 20000)
    y = rng.random(20000) < q
    over = q**1.5 / (q**1.5 + (1 - q) ** 1.5)
    truth = float(np.mean((over - q) ** 2))
    r = ml.evaluate(y, over, measures=["brier_mcb", "brier_mcb_insample"])
    se = math.sqrt(float(estimates(ScoreTable.from_arrays(y, over)).var[0]))
    assert abs(r["brier_mcb"] - truth) < 3 * se
    cal = ml.evaluate(y, q, measures=["brier_mcb", "brier_mcb_insample"])
    assert cal["brier_mcb"] >= 0 and cal["brier_mcb_insample"] > cal["brier_mcb"]


def test_block_equals_each_table_bit_for_bit():
    rng = np.random.default_rng(4)
    p = np.sort(rng.random(400))
    base = (rng.random(400) < p).astype(float)
    mult = rng.multinomial(400, np.full(400, 1 / 400), size=37).astype(float)
    blk = TableBlock(p, mult * base, mult * (1 - base), integer=True)
    e = block_estimates(blk)
    for b in range(37):
        one = estimates(blk.table(b))
        for part in ("brier_mcb", "logloss_mcb", "brier_dsc", "logloss_dsc", "var"):
            assert np.array_equal(getattr(e, part)[b:b + 1], getattr(one, part),
                                  equal_nan=True)


def test_cells_never_split_a_tie_and_mirror_under_a_class_swap():
    p = np.array([0.1, 0.2, 0.2, 0.3, 0.5, 0.7, 0.8, 0.8, 0.9])
    w = np.array([3.0, 1, 1, 2, 1, 2, 1, 1, 3])
    b = binned(p, w[None, :], np.zeros((1, p.size)))
    b_swap = binned(1 - p[::-1], np.zeros((1, p.size)), w[None, ::-1])
    # the mirror table's cells hold the same weights, in reverse order
    assert b.w[0][b.w[0] > 0].tolist() == b_swap.w[0][b_swap.w[0] > 0][::-1].tolist()


def test_number_of_groups():
    assert n_bins(np.array([1.0, 200, 1000, 5000, 10**4])).tolist() == [2, 8, 16, 30, 40]


def test_undefined_without_a_pair_of_similar_cases():
    with pytest.warns(ml.UndefinedMeasureWarning, match="brier_mcb is undefined"):
        v = ml.metrics.brier_mcb([1], [0.3])
    assert math.isnan(v)


def test_large_tables_are_read_in_chunks_with_the_same_values(monkeypatch):
    """150,000 rows (three chunks): a block of replicates gives each table's bits, and
    the values equal one pass over all rows at once (to rounding)."""
    import measurelab.measures.calibration.debiased as dc

    rng = np.random.default_rng(8)
    n = 150_000
    p = np.sort(rng.beta(2, 2, n))
    base = (rng.random(n) < p).astype(float)
    mult = rng.multinomial(n, np.full(n, 1 / n), size=3).astype(float)
    blk = TableBlock(p, mult * base, mult * (1 - base), integer=True)
    chunked = block_estimates(blk)
    for b in range(3):
        assert np.array_equal(estimates(blk.table(b)).brier_mcb, chunked.brier_mcb[b:b + 1])
    monkeypatch.setattr(dc, "_ROWS", 1 << 30)
    whole = dc._estimates(dc.binned(p, mult * base, mult * (1 - base)))
    for part in ("brier_mcb", "logloss_mcb", "brier_dsc", "logloss_dsc", "var"):
        assert getattr(whole, part) == pytest.approx(getattr(chunked, part), rel=1e-9,
                                                     abs=1e-15)
