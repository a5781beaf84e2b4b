"""Property: any split of the data into chunks, merged in any order and by any route
(Evaluator.update, Evaluator.merge, ScoreTable.merge, BinaryCounts.merge), gives the value
of whole-data evaluation — exactly for integer weights, within 1e-12 (relative to the
value, or absolute at values below 1) for real weights — for every registered measure and
for parameterized and two-level specs."""

from __future__ import annotations

import math
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import measurelab as ml
from measurelab.measures.base import registry
from measurelab.measures.twolevel import TwoLevelValue
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.scoretable import ScoreTable

PARAMETERIZED = ["f_beta@2", "f_beta@0.5", "lift@0.1", "lift@0.33", "mxe@2", "cal@10",
                 "cal@3", "ece@5", "auc:acc", "ap:rms", "mcc:kappa", "cal:brier"]
SPECS = [m.name for m in registry] + PARAMETERIZED
COUNT_SPECS = [m.name for m in registry if m.statistic == "counts"] + ["f_beta@2"]


def _values(stats: BinaryStats, specs: list[str]) -> dict[str, object]:
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for spec in specs:
            m = registry.resolve(spec)[0]
            out[spec] = m.compute(stats)
    return out


def _parts(v) -> list[float]:
    if isinstance(v, TwoLevelValue):
        return [float(v.first), float(v.second)]
    return [float(v)]


def _agree(a, b, exact: bool) -> bool:
    for x, y in zip(_parts(a), _parts(b), strict=True):
        if math.isnan(x) or math.isnan(y):
            if not (math.isnan(x) and math.isnan(y)):
                return False
        elif exact:
            if x != y:
                return False
        elif not math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12):
            return False
    return True


@st.composite
def data(draw):
    n = draw(st.integers(1, 60))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    grid = draw(st.sampled_from([None, 2, 5, 20]))  # None: (mostly) distinct scores
    if grid is None:
        s = np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
    else:
        s = np.array(draw(st.lists(st.integers(0, grid), min_size=n, max_size=n))) / grid
    kind = draw(st.sampled_from(["none", "integer", "real", "tenths"]))
    if kind == "none":
        w = None
    elif kind == "integer":
        w = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=float)
        w[0] = max(w[0], 1.0)  # zero total weight is bad input, not a measure question
    elif kind == "real":
        w = np.array(draw(st.lists(st.floats(0.01, 10), min_size=n, max_size=n)))
    else:  # decimal fractions: their sums round, differently in different orders
        w = np.array(draw(st.lists(st.sampled_from([0.1, 0.2, 0.3, 0.7, 1.1]), min_size=n,
                                   max_size=n)))
    cuts = sorted(set(draw(st.lists(st.integers(1, max(n - 1, 1)), max_size=6))))
    cuts = [c for c in cuts if 0 < c < n]
    rows = draw(st.permutations(range(n)))  # chunks hold arbitrary rows
    order = draw(st.permutations(range(len(cuts) + 1)))  # and are merged in any order
    route = draw(st.sampled_from(["stream", "tree", "table"]))
    return y, s, w, np.array(rows, dtype=np.int64), cuts, list(order), route, kind


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data())
def test_chunks_in_any_order_equal_whole(case):
    y, s, w, rows, cuts, order, route, kind = case
    whole_table = ScoreTable.from_arrays(y, s, w)
    whole = _values(BinaryStats(table=whole_table), SPECS)
    chunks = [rows[i] for i in np.split(np.arange(y.size), cuts)]
    chunks = [chunks[i] for i in order]
    wpart = (lambda r: None) if w is None else (lambda r: w[r])
    if route == "table":
        table = ScoreTable.empty()
        for r in chunks:
            table = table.merge(ScoreTable.from_arrays(y[r], s[r], wpart(r)))
    else:
        evs = [ml.Evaluator().update(y[r].astype(int), s[r], sample_weight=wpart(r))
               for r in chunks]
        if route == "stream":
            ev = ml.Evaluator()
            for r in chunks:
                ev.update(y[r].astype(int), s[r], sample_weight=wpart(r))
        else:  # merged as a tree, as a cluster would
            while len(evs) > 1:
                evs = [evs[i].merge(evs[i + 1]) if i + 1 < len(evs) else evs[i]
                       for i in range(0, len(evs), 2)]
            ev = evs[0]
        table = ev.table
    got = _values(BinaryStats(table=table), SPECS)
    exact = kind in ("none", "integer")
    bad = [k for k in SPECS if not _agree(got[k], whole[k], exact)]
    assert not bad, {k: (got[k], whole[k]) for k in bad}
    # confusion counts of the chunks, merged, give the count measures too
    counts = None
    for r in chunks:
        c = ScoreTable.from_arrays(y[r], s[r], wpart(r)).counts_at(0.5)
        counts = c if counts is None else counts.merge(c)
    got = _values(BinaryStats(given_counts=counts), COUNT_SPECS)
    bad = [k for k in COUNT_SPECS if not _agree(got[k], whole[k], exact)]
    assert not bad, {k: (got[k], whole[k]) for k in bad}
