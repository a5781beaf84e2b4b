"""Block formulas (``Measure.compute_block`` over a :class:`TableBlock`) equal the scalar
formula on every table of the block: untied, tied (mixed and pure groups), real weights, one
class missing, zero-weight rows, large tie groups; blocks of bootstrap, Poisson and
jackknife multiplicities (many rows of zero weight, tie groups of one class)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from measurelab.measures.base import registry
from measurelab.stats.block import BlockStats, TableBlock
from measurelab.stats.scoretable import ScoreTable

SPECS = [m.name for m in registry] + [
    "lift@0.1", "lift@1", "cal@7", "cal@1", "ece@5", "ece@1", "mxe@2", "f_beta@2", "top_k_acc@2",
    "sens_at_spec@0", "sens_at_spec@1", "spec_at_sens@0", "spec_at_sens@0.5",
    "prec_at_recall@0", "prec_at_recall@1", "recall_at_prec@0", "recall_at_prec@1",
    "pauc@0.05", "pauc@1", "spauc@0.5"]
KINDS = ("untied", "tied", "real", "one_class", "tiny", "zero_rows", "pure_tied", "big_groups",
         "extremes", "untied_large")
HOWS = ("multinomial", "poisson", "jackknife", "edges")


def _from_labels(rng: np.random.Generator, n: int, grid: int | None,
                 weighted: bool = False) -> ScoreTable:
    y = rng.random(n) < rng.uniform(0.2, 0.8)
    s = rng.random(n)
    if grid is not None:
        s = np.round(s * grid) / grid
    w = rng.uniform(0.1, 3.0, n) if weighted else None
    return ScoreTable.from_arrays(y, s, w)


def make_table(rng: np.random.Generator, kind: str) -> ScoreTable:
    if kind == "untied":
        return _from_labels(rng, int(rng.integers(2, 80)), None)
    if kind == "untied_large":
        return _from_labels(rng, int(rng.integers(150, 400)), None)
    if kind == "tied":
        return _from_labels(rng, int(rng.integers(2, 200)), int(rng.integers(2, 12)))
    if kind == "real":
        return _from_labels(rng, int(rng.integers(2, 100)), int(rng.integers(2, 30)), True)
    if kind == "one_class":
        n = int(rng.integers(1, 8))
        s = np.unique(np.round(rng.random(n), 2))
        c = rng.integers(1, 3, s.size).astype(float)
        z = np.zeros(s.size)
        return ScoreTable(s, c, z) if rng.random() < 0.5 else ScoreTable(s, z, c)
    if kind == "tiny":
        return _from_labels(rng, int(rng.integers(1, 5)), int(rng.integers(1, 4)))
    if kind == "zero_rows":
        t = _from_labels(rng, int(rng.integers(2, 60)), int(rng.integers(3, 20)))
        extra = np.setdiff1d(np.round(rng.random(int(rng.integers(1, 8))), 3), t.scores)
        s = np.concatenate([t.scores, extra])
        order = np.argsort(s)
        z = np.zeros(extra.size)
        return ScoreTable(s[order], np.concatenate([t.pos, z])[order],
                          np.concatenate([t.neg, z])[order])
    if kind == "pure_tied":  # ties inside one class only, many cases per distinct score
        r = int(rng.integers(2, 9))
        s = np.sort(rng.choice(np.arange(1, 100) / 100, r, replace=False))
        c = rng.integers(1, 150, r).astype(float)
        is_pos = rng.random(r) < 0.5
        return ScoreTable(s, np.where(is_pos, c, 0.0), np.where(is_pos, 0.0, c))
    if kind == "big_groups":  # tie groups of hundreds of cases (APR's closed form)
        r = int(rng.integers(1, 6))
        s = np.sort(rng.choice(np.arange(1, 100) / 100, r, replace=False))
        return ScoreTable(s, rng.integers(0, 400, r).astype(float),
                          rng.integers(0, 400, r).astype(float))
    if kind == "extremes":  # probabilities 0 and 1 (MXE's clipping), ties at both
        t = _from_labels(rng, int(rng.integers(2, 60)), 4)
        return t
    raise AssertionError(kind)


def make_block(rng: np.random.Generator, t: ScoreTable, how: str, b: int,
               state_integer: bool = True) -> TableBlock:
    """Weights of ``b`` replicates: case multiplicities times the cases' weights."""
    integer = t.is_integer
    rows, cls, w = [], [], []
    for is_pos, weights in ((True, t.pos), (False, t.neg)):
        idx = np.flatnonzero(weights > 0)
        if integer:  # whole counts: one unit per case
            reps = weights[idx].astype(np.int64)
            rows.append(np.repeat(idx, reps))
            w.append(np.ones(int(reps.sum())))
        else:  # real weights: one unit per weighted cell
            rows.append(idx)
            w.append(weights[idx])
        cls.append(np.full(rows[-1].size, is_pos))
    rows_a, cls_a, w_a = np.concatenate(rows), np.concatenate(cls), np.concatenate(w)
    u = rows_a.size
    if how == "multinomial":
        mult = rng.multinomial(u, np.full(u, 1.0 / u), size=b).astype(float)
    elif how == "poisson":
        mult = rng.poisson(1.0, (b, u)).astype(float)
    elif how == "jackknife":
        g = rng.permutation(np.arange(u) % max(1, min(5, u)))
        mult = (g[None, :] != np.arange(b)[:, None] % max(1, min(5, u))).astype(float)
    else:  # the table itself, nothing, one case, a class left out
        mult = np.ones((4, u))
        mult[1] = 0
        mult[2] = 0
        mult[2, rng.integers(0, u)] = 1
        mult[3, cls_a] = 0
    mult[0] = 1.0  # the original table
    onehot = np.zeros((u, t.size))
    onehot[np.arange(u), rows_a] = 1.0
    pos = (mult * (w_a * cls_a)) @ onehot
    neg = (mult * (w_a * ~cls_a)) @ onehot
    return TableBlock(t.scores, pos, neg,
                      integer=True if (integer and state_integer) else None)


def _scalar(m, bs: BlockStats, b: int) -> float:
    try:
        return float(m.compute(bs.stats(b)))
    except ZeroDivisionError:  # a table of no cases (Brier, RMS, MXE divide by N)
        return math.nan


def _atol(m) -> float:
    """0 for a block formula. A count measure without one is evaluated by the registry in
    floating point on the count arrays, where the scalar route computes whole counts in
    exact rationals (``exact_for_whole_counts``): a value that is exactly 0 there (Youden's
    index, DP) may come out as a crumb of 1e-17 here."""
    return 0.0 if m.block is not None else 1e-15


def check_block(blk: TableBlock, threshold: float, inclusive: bool,
                specs: list[str] = SPECS, walked: bool = False) -> None:
    bs = BlockStats(blk, threshold=threshold, inclusive=inclusive)
    if walked:  # the compiled walk's sums first, as the bootstrap engine does
        from measurelab.measures._rules import BLOCK_WALK
        from measurelab.measures.compute import prime_block

        prime_block(bs, [registry.resolve(spec)[0] for spec in specs])
        assert BLOCK_WALK in blk.memo
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for spec in specs:
            m = registry.resolve(spec)[0]
            got = m.compute_block(bs)
            want = np.array([_scalar(m, bs, b) for b in range(blk.n_blocks)])
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=_atol(m), equal_nan=True,
                                       err_msg=spec)


def _threshold(rng: np.random.Generator, t: ScoreTable) -> tuple[float, bool]:
    thr = float(rng.choice(t.scores)) if rng.random() < 0.5 and t.size else 0.5
    return thr, bool(rng.random() < 0.5)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("seed", range(3))
def test_block_equals_scalar(kind, how, seed):
    rng = np.random.default_rng(1000 * seed + 17 * KINDS.index(kind) + HOWS.index(how))
    t = make_table(rng, kind)
    blk = make_block(rng, t, how, int(rng.integers(2, 12)), state_integer=seed != 1)
    check_block(blk, *_threshold(rng, t))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("how", HOWS)
def test_walked_block_equals_scalar(kind, how):
    """The compiled route (one walk of every table of the block, CAL's compiled loop)
    gives the scalar formulas' values too."""
    rng = np.random.default_rng(7 + 17 * KINDS.index(kind) + HOWS.index(how))
    t = make_table(rng, kind)
    blk = make_block(rng, t, how, int(rng.integers(2, 12)))
    check_block(blk, *_threshold(rng, t), walked=True)


@pytest.mark.parametrize("kind", KINDS)
def test_cal_numpy_route_equals_scalar(kind):
    """CAL's block formula without numba (vectorized, table by table for mixed groups)."""
    from measurelab.measures.calibration.cal import _cal_block_numpy

    rng = np.random.default_rng(3 + KINDS.index(kind))
    t = make_table(rng, kind)
    blk = make_block(rng, t, "multinomial", 6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for w in (1, 7, 100):
            got = _cal_block_numpy(blk, window=w)
            want = [_scalar(registry.resolve(f"cal@{w}")[0], BlockStats(blk), b)
                    for b in range(blk.n_blocks)]
            np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(KINDS),
       how=st.sampled_from(HOWS))
def test_block_equals_scalar_hypothesis(seed, kind, how):
    rng = np.random.default_rng(seed)
    t = make_table(rng, kind)
    blk = make_block(rng, t, how, int(rng.integers(1, 8)), state_integer=bool(seed % 2))
    check_block(blk, *_threshold(rng, t))


def test_apr_large_tie_groups():
    """Groups of hundreds to thousands of cases, preceded by few or by many cases: both
    routes of APR's closed form against the scalar's term-by-term sum."""
    rng = np.random.default_rng(5)
    s = np.array([0.1, 0.2, 0.3, 0.5, 0.9])
    pos = np.array([[3000.0, 70, 1, 65, 0], [0, 200, 5000, 1, 2], [900, 0, 80, 66, 1]])
    neg = np.array([[100.0, 0, 4000, 1, 2], [70, 900, 1, 0, 0], [1, 65, 0, 2000, 200]])
    pos = np.concatenate([pos, rng.integers(0, 300, (5, 5)).astype(float)])
    neg = np.concatenate([neg, rng.integers(0, 300, (5, 5)).astype(float)])
    check_block(TableBlock(s, pos, neg, integer=True), 0.5, False, ["apr", "bep", "lift"])


def test_builtin_rank_and_probability_measures_have_block_formulas():
    # every built-in measure of a score table or a bundle has one (CAL computes a table with
    # a mixed tie group and more than `window` cases on its own, inside its block formula)
    for m in registry:
        if m.statistic != "counts":
            assert m.block is not None, m.name


@pytest.mark.parametrize("kind", KINDS)
def test_block_formulas_warn_nothing(kind):
    rng = np.random.default_rng(7 + KINDS.index(kind))
    for how in HOWS:
        t = make_table(rng, kind)
        blk = make_block(rng, t, how, 6, state_integer=False)
        bs = BlockStats(blk, *_threshold(rng, t))
        with warnings.catch_warnings(), np.errstate(all="warn"):
            warnings.simplefilter("error")
            for spec in SPECS:
                m = registry.resolve(spec)[0]
                if m.block is not None:
                    assert m.compute_block(bs).shape == (blk.n_blocks,)


def test_non_integer_weights_give_nan_for_apr_and_cal():
    blk = TableBlock(np.array([0.2, 0.7]), np.array([[0.5, 1.0], [1.0, 1.0]]),
                     np.array([[1.0, 0.0], [1.0, 0.0]]))
    for name in ("apr", "cal"):
        out = registry.get(name).compute_block(BlockStats(blk))
        assert math.isnan(out[0]) and not math.isnan(out[1])


@pytest.mark.parametrize("kind", ["untied", "tied", "real", "zero_rows", "big_groups"])
def test_block_formulas_in_chunks(kind, monkeypatch):
    """A large block is computed in chunks of tables (``_block.in_row_chunks``): the same
    values as one call on the whole block (CAL to rounding: its tables of a chunk are padded
    to the chunk's largest, which regroups the pairwise sum over the windows)."""
    from measurelab.measures import _block

    rng = np.random.default_rng(31 + KINDS.index(kind))
    t = make_table(rng, kind)
    blk = make_block(rng, t, "poisson", 23, state_integer=False)
    bs = BlockStats(blk, *_threshold(rng, t))
    names = [s for s in SPECS if registry.resolve(s)[0].block is not None]
    whole = {s: registry.resolve(s)[0].compute_block(bs) for s in names}
    monkeypatch.setattr(_block, "CHUNK_CELLS", 3 * max(1, t.size))  # chunks of 3 tables
    bs = BlockStats(TableBlock(blk.scores, blk.pos, blk.neg, integer=blk.integer),
                    bs.threshold, bs.inclusive)
    for s in names:
        np.testing.assert_allclose(registry.resolve(s)[0].compute_block(bs), whole[s],
                                   rtol=1e-14 if s.startswith("cal") else 0, err_msg=s)
    check_block(bs.table, bs.threshold, bs.inclusive, names)
