"""Rows of zero weight (a zero ``sample_weight``, a bootstrap replicate that drew none of a
row's cases) change no measure: every registered measure on a table with zero rows
inserted equals the measure on the table without them."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from measurelab.measures.base import registry
from measurelab.measures.compute import compute_measures
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.scoretable import ScoreTable

SPECS = [m.name for m in registry if m.statistic in ("scores", "counts") and not
         m.name.startswith("top_k")] + ["lift@0.1", "cal@7", "f_beta@2", "mxe@2", "auc:acc"]


def _with_zero_rows(t: ScoreTable, rng: np.random.Generator, k: int) -> ScoreTable:
    extra = rng.choice(np.setdiff1d(np.round(np.linspace(0, 1, 41), 3), t.scores), k,
                       replace=False)
    scores = np.concatenate([t.scores, extra])
    pos = np.concatenate([t.pos, np.zeros(k)])
    neg = np.concatenate([t.neg, np.zeros(k)])
    order = np.argsort(scores)
    return ScoreTable(scores[order], pos[order], neg[order])


def _values(t: ScoreTable) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = compute_measures(BinaryStats(table=t, threshold=0.5), SPECS)
    return {k: float(v) for k, v in r.items()}


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("weights", ["counts", "real"])
def test_zero_rows_change_nothing(seed, weights):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 30))
    scores = np.unique(np.round(rng.random(n), 2) + 0.001)
    scores = scores[scores < 1]
    g = scores.size
    if weights == "counts":
        pos = rng.integers(0, 4, g).astype(float)
        neg = rng.integers(0, 4, g).astype(float)
    else:
        pos = rng.choice([0.0, 0.3, 1.7], g)
        neg = rng.choice([0.0, 0.6, 2.2], g)
    pos[0], neg[-1] = max(pos[0], 1.0), max(neg[-1], 1.0)  # both classes present
    keep = (pos + neg) > 0
    t = ScoreTable(scores[keep], pos[keep], neg[keep])
    z = _with_zero_rows(t, rng, int(rng.integers(1, 6)))
    # a zero row above every score and one below: the extreme thresholds
    z = ScoreTable(np.concatenate([[0.0005], z.scores, [0.9995]]),
                   np.concatenate([[0.0], z.pos, [0.0]]),
                   np.concatenate([[0.0], z.neg, [0.0]]))
    a, b = _values(t), _values(z)
    assert a.keys() == b.keys()
    for k in a:
        if math.isnan(a[k]):
            assert math.isnan(b[k]), (k, a[k], b[k])
        elif weights == "counts" and registry.resolve(k)[0].kind in ("threshold", "rank"):
            # whole-number counts: adding 0.0 changes no sum, so the value is the same
            assert b[k] == a[k], (k, a[k], b[k])
        else:  # sums of score products: the summation grouping may differ in the last bit
            assert b[k] == pytest.approx(a[k], rel=1e-12, abs=1e-15), (k, a[k], b[k])
