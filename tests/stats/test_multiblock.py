"""Block formulas of the multi-class measures (``compute_multi_block`` over a
:class:`MultiBlock`) equal the scalar route ``measure.compute(block.stats(b))`` on every
replicate: k = 2, 3 and 5 classes, probabilities on a coarse grid (ties inside and across
rows), multinomial and Poisson bootstrap weights, zero weights, a class absent from a
replicate, a replicate of one class, real weights; and the order of the cases changes
nothing."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from measurelab.exceptions import MeasurelabError
from measurelab.measures._multiblock import block_value
from measurelab.measures.base import registry
from measurelab.measures.compute import compute_multi_block
from measurelab.stats.multiblock import MultiBlock

#: the measures with a multi-class block formula of their own (the block route must be used)
BLOCK_SPECS = ["acc", "err", "bacc", "prec", "sens", "f1", "f_beta", "f_beta@2", "mcc", "kappa",
               "kappa_linear", "kappa_quadratic", "scott_pi", "gwet_ac1", "dor", "markedness",
               "fdr", "for_rate", "jaccard", "fowlkes_mallows",
               "auc", "mxe", "mxe@2", "brier", "rms", "ece", "ece@5", "ece@1", "top_k_acc",
               "top_k_acc@2", "top_k_acc@3"]
#: every multi-class measure of the registry (block formula or per-replicate fallback)
ALL_SPECS = BLOCK_SPECS + sorted(
    m.name for m in registry if m.supports_multiclass and m.name not in BLOCK_SPECS)
AVERAGES = ["macro", "weighted", "micro", None]
HOWS = ("multinomial", "poisson", "zeros", "absent", "real")


def make_data(rng: np.random.Generator, k: int, n: int, grid: int | None,
              renormalise: bool = True) -> tuple[np.ndarray, np.ndarray]:
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)  # every class in the data
    P = rng.dirichlet(np.full(k, 0.7), n)
    if grid is not None:
        P = np.round(P * grid) / grid
        P[P.sum(axis=1) == 0] = 1.0 / k
        if renormalise:
            P = P / P.sum(axis=1, keepdims=True)
    return y, P


def make_weights(rng: np.random.Generator, y: np.ndarray, how: str, b: int) -> np.ndarray:
    n = y.size
    if how == "multinomial":
        W = rng.multinomial(n, np.full(n, 1.0 / n), size=b).astype(float)
    elif how == "poisson":
        W = rng.poisson(1.0, (b, n)).astype(float)
    elif how == "zeros":  # many cases of weight 0
        W = rng.poisson(1.0, (b, n)) * (rng.random((b, n)) < 0.3)
    elif how == "absent":  # one class left out of each replicate; one replicate of one class
        W = rng.multinomial(n, np.full(n, 1.0 / n), size=b).astype(float)
        gone = rng.integers(0, int(y.max()) + 1, b)
        W[y[None, :] == gone[:, None]] = 0.0
        W[1] = np.where(y == y[0], 1.0, 0.0)
    else:  # real weights
        W = rng.uniform(0.1, 3.0, (b, n)) * (rng.random((b, n)) < 0.8)
    W = np.asarray(W, dtype=float)
    W[0] = 1.0  # the data set itself
    W[W.sum(axis=1) == 0, 0] = 1.0  # no empty replicate
    return W


def _atol(spec: str) -> float:
    """0 for a measure with a block formula of its own. Any other one-vs-rest count measure
    is evaluated on the count arrays in floating point (as ``Measure.compute_block`` does),
    where the scalar route computes whole counts in exact rationals: a value that is exactly
    0 there (Youden's index) may come out as a crumb of 1e-17 here."""
    return 0.0 if spec in BLOCK_SPECS else 1e-15


def scalar_route(spec: str, blk: MultiBlock, average: str | None) -> np.ndarray:
    m = registry.resolve(spec)[0]
    out = []
    for b in range(blk.n_blocks):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                v = m.compute(blk.stats(b), average=average)
            except ZeroDivisionError:
                v = math.nan
        out.append(np.asarray(v, dtype=np.float64))
    return np.asarray(out)


CASES = [(k, how, seed) for k in (2, 3, 5) for how in HOWS for seed in range(2)]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"k{c[0]}-{c[1]}-{c[2]}")
def block(request: pytest.FixtureRequest) -> MultiBlock:
    k, how, seed = request.param
    rng = np.random.default_rng(1000 * k + 10 * HOWS.index(how) + seed)
    n = int(rng.integers(k + 2, 70))
    y, P = make_data(rng, k, n, grid=int(rng.integers(3, 11)), renormalise=seed == 0)
    return MultiBlock.from_arrays(y, P, make_weights(rng, y, how, 12))


@pytest.mark.parametrize("average", AVERAGES, ids=str)
@pytest.mark.parametrize("spec", ALL_SPECS)
def test_block_equals_scalar_route(block: MultiBlock, spec: str, average: str | None) -> None:
    with warnings.catch_warnings():
        # the block formulas are quiet; the per-replicate fallback warns as the scalar does
        warnings.simplefilter("error" if spec in BLOCK_SPECS else "ignore")
        got = compute_multi_block(spec, block, average=average)
    want = scalar_route(spec, block, average)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=_atol(spec), equal_nan=True)


@pytest.mark.parametrize("average", AVERAGES, ids=str)
@pytest.mark.parametrize("spec", BLOCK_SPECS)
def test_block_formula_is_used(spec: str, average: str | None) -> None:
    m = registry.resolve(spec)[0]
    y = np.array([0, 1, 2, 2])
    blk = MultiBlock.from_arrays(y, np.eye(3)[[0, 1, 2, 0]], np.ones((2, 4)))
    assert block_value(m, blk, average, dict(m.params)) is not None


@pytest.mark.parametrize("k", [3, 5])
def test_order_of_cases_changes_nothing(k: int) -> None:
    rng = np.random.default_rng(k)
    y, P = make_data(rng, k, 80, grid=6)
    W = make_weights(rng, y, "poisson", 20)
    perm = rng.permutation(y.size)
    a = MultiBlock.from_arrays(y, P, W)
    b = MultiBlock.from_arrays(y[perm], P[perm], W[:, perm])
    for spec in BLOCK_SPECS:
        for average in AVERAGES:
            np.testing.assert_array_equal(compute_multi_block(spec, a, average=average),
                                          compute_multi_block(spec, b, average=average))


def test_block_of_the_data_is_the_evaluation() -> None:
    import measurelab as ml

    rng = np.random.default_rng(7)
    y, P = make_data(rng, 4, 50, grid=5)
    blk = MultiBlock.from_arrays(y, P, np.ones((1, y.size)))
    for spec in ("auc", "mxe", "brier", "ece", "top_k_acc@2", "mcc", "f1"):
        want = ml.evaluate(y, P, measures=[spec])[registry.resolve(spec)[0].name]
        assert compute_multi_block(spec, blk)[0] == pytest.approx(want, rel=1e-12)


def test_bad_input() -> None:
    with pytest.raises(MeasurelabError, match="class indices"):
        MultiBlock.from_arrays([0, 3], np.eye(2), np.ones((1, 2)))
    with pytest.raises(MeasurelabError, match="shapes"):
        MultiBlock.from_arrays([0, 1], np.eye(2), np.ones((1, 3)))
    blk = MultiBlock.from_arrays([0, 1], np.eye(2), np.ones((1, 2)))
    binary_only = next(m.name for m in registry if not m.supports_multiclass)
    with pytest.raises(MeasurelabError, match="binary tasks only"):
        compute_multi_block(binary_only, blk)


def test_replicate_chunks_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from measurelab.measures import _multiblock

    rng = np.random.default_rng(11)
    y, P = make_data(rng, 4, 40, grid=7)
    blk = MultiBlock.from_arrays(y, P, make_weights(rng, y, "multinomial", 25))
    specs = ["auc", "ap", "mxe", "f1"]
    whole = {(s, a): compute_multi_block(s, blk, average=a) for s in specs for a in AVERAGES}
    monkeypatch.setattr(_multiblock, "CHUNK_CELLS", 3 * blk.n * blk.k)  # chunks of 3
    for (s, a), want in whole.items():
        np.testing.assert_array_equal(compute_multi_block(s, blk, average=a), want)


@pytest.mark.parametrize("how", ["multinomial", "real"])
def test_hand_till_by_sorting_equals_by_products(monkeypatch: pytest.MonkeyPatch,
                                                how: str) -> None:
    from measurelab.measures import _multiblock

    rng = np.random.default_rng(12)
    y, P = make_data(rng, 5, 60, grid=8)
    W = make_weights(rng, y, how, 15)
    blk = MultiBlock.from_arrays(y, P, W)
    monkeypatch.setattr(_multiblock, "PAIR_SORTED_CELLS", 1 << 40)  # every pair: a product
    by_products = compute_multi_block("auc", blk)
    monkeypatch.setattr(_multiblock, "PAIR_SORTED_CELLS", 0)  # every pair: one sort
    blk = MultiBlock.from_arrays(y, P, W)  # no memo from the first route
    np.testing.assert_allclose(compute_multi_block("auc", blk), by_products, rtol=1e-12, atol=0)
    np.testing.assert_allclose(by_products, scalar_route("auc", blk, "macro"), rtol=1e-12, atol=0)
