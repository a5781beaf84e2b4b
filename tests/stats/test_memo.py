"""Statistics are never mutated after creation (``stats/_memo.py``): every derived value,
the compiled walk's sums included, goes to the ``memo`` field declared at construction;
the fields, the arrays they hold and the object's attribute set are the same before and
after every registered measure has been computed on it (compiled routes included)."""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any

import numpy as np
import pytest

from measurelab.measures._fused import use_fused
from measurelab.measures._rules import BLOCK_WALK, TABLE_WALK
from measurelab.measures.base import registry
from measurelab.measures.compute import compute_measures, prime_block
from measurelab.stats._memo import memoized
from measurelab.stats.block import BlockStats, TableBlock
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.scoretable import ScoreTable

SPECS = [m.name for m in registry] + ["lift@0.1", "ece@5", "cal@7", "mxe@2", "auc:acc",
                                      "apr:rms"]


def _snapshot(obj: Any) -> tuple[set[str], dict[str, Any]]:
    """The attribute names of ``obj`` and a deep copy of every field but the memo."""
    values = {}
    for f in dataclasses.fields(obj):
        if f.name == "memo":
            continue
        v = getattr(obj, f.name)
        if isinstance(v, np.ndarray):
            v = v.copy()
        elif dataclasses.is_dataclass(v):
            v = (v, _snapshot(v))
        values[f.name] = v
    return set(vars(obj)), values


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(
            a, b, equal_nan=True)
    if isinstance(a, tuple) and len(a) == 2 and isinstance(a[1], tuple):
        return a[0] is b[0] and _same_snapshot(a[1], b[1])
    if isinstance(a, dict):
        return a is b or a == b
    return a is b or a == b


def _same_snapshot(before: tuple, after: tuple) -> bool:
    names0, values0 = before
    names1, values1 = after
    return names0 == names1 and values0.keys() == values1.keys() and all(
        _same(values0[k], values1[k]) for k in values0)


def _large_table() -> ScoreTable:
    g = np.random.default_rng(11)
    n = (1 << 18) + 500
    y = g.random(n) < 0.3
    s = 1.0 / (1.0 + np.exp(-g.normal(1.2 * y, 1.0)))
    return ScoreTable.from_arrays(y, s)


def test_memoized_keeps_values_in_the_declared_memo_only():
    t = ScoreTable.from_arrays([True, False, True], [0.9, 0.4, 0.2])
    names = set(vars(t))
    assert t.n_pos == 2.0 and t.memo == {"n_pos": 2.0}
    assert set(vars(t)) == names  # nothing written onto the object
    assert isinstance(ScoreTable.n_pos, memoized)
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.n_pos = 3.0  # type: ignore[misc]
    assert "memo" not in repr(t) and t == ScoreTable(t.scores, t.pos, t.neg)
    assert dataclasses.replace(t).memo == {}  # a new object starts an empty memo


def test_stated_whole_weights_are_a_field_not_a_later_write():
    t = ScoreTable.from_arrays([True, False, True], [0.9, 0.4, 0.2])
    r = t.reweighted(np.array([2.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0]), integer=True)
    assert r.integer is True and r.is_integer and "is_integer" in r.memo
    blk = TableBlock(t.scores, np.ones((2, 3)), np.zeros((2, 3)), integer=False)
    assert blk.table(1).integer is False and not blk.table(1).is_integer


def test_the_score_cache_is_given_at_construction_and_shared():
    t = ScoreTable.from_arrays([True, False, True], [0.9, 0.4, 0.2])
    assert t.score_cache is None and t.score_cached("x", lambda s: s) is None
    c = t.with_score_cache()
    assert c is not t and c.score_cache == {} and t.score_cache is None
    assert c.with_score_cache() is c
    r = c.reweighted(np.ones(3), np.zeros(3))
    assert r.score_cache is c.score_cache
    assert r.score_cached("mxe", lambda s: s * 2).tolist() == c.score_cache["mxe"].tolist()


def test_a_large_table_and_its_bundle_are_unchanged_by_every_measure():
    pytest.importorskip("numba")
    t = _large_table()
    stats = BinaryStats(table=t)
    assert use_fused(t)  # the compiled walk's route
    before_t, before_s = _snapshot(t), _snapshot(stats)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = compute_measures(stats, SPECS)
        for spec in SPECS:  # and one by one, each asking the walk for its sums
            registry.resolve(spec)[0].compute(stats)
    assert len(r) == len(SPECS)
    assert _same_snapshot(before_t, _snapshot(t))
    assert _same_snapshot(before_s, _snapshot(stats))
    assert TABLE_WALK in t.memo and "counts" in stats.memo  # the caches went to the memos


def test_a_block_and_its_stats_are_unchanged_by_every_block_formula():
    g = np.random.default_rng(12)
    t = ScoreTable.from_arrays(g.random(3000) < 0.4, np.round(g.random(3000), 3))
    pos = g.poisson(1.0, (40, t.size)) * t.pos  # Poisson bootstrap multiplicities
    neg = g.poisson(1.0, (40, t.size)) * t.neg
    blk = TableBlock(t.scores, pos, neg, integer=True, cache={})
    bs = BlockStats(blk, threshold=0.5)
    before_b, before_s = _snapshot(blk), _snapshot(bs)
    measures = [registry.resolve(spec)[0] for spec in SPECS if ":" not in spec]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        prime_block(bs, measures)
        for m in measures:
            assert m.compute_block(bs).shape == (40,)
    assert _same_snapshot(before_b, _snapshot(blk))
    assert _same_snapshot(before_s, _snapshot(bs))
    try:
        import measurelab._kernels.fused  # noqa: F401
    except ImportError:
        return
    assert BLOCK_WALK in blk.memo
