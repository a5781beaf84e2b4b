"""The DeLong-type variance of the partial AUC that docs/DECISIONS.md judges ("The
partial AUC's variance"; ``benchmarks/pauc_variance_check.py``): its placements restricted
to FPR ≤ f sum to the partial area, at f = 1 they are DeLong's (the same standard error
as measurelab's DeLong variance of the AUC), and on a test set the standard error agrees
with the spread of the bootstrap."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest

import measurelab as ml
from measurelab.inference.delong import delong_variance
from measurelab.stats.scoretable import ScoreTable

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "pauc_variance_check.py"


def _check() -> object:
    name = "pauc_variance_check"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, _PATH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _data(n: int = 400, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    g = np.random.default_rng(seed)
    y = (g.random(n) < 0.3).astype(int)
    return y, g.normal(1.1 * y, 1.0)   # continuous: no ties


def test_at_f_one_it_is_delongs_variance() -> None:
    chk = _check()
    y, s = _data()
    auc = float(ml.evaluate(y, s, measures=["auc"])["auc"])
    _, var = delong_variance(ScoreTable.from_arrays(y, s))
    assert chk.placements_se(y, s, 1.0, auc) == pytest.approx(math.sqrt(var), rel=1e-12)


def test_the_positives_placements_sum_to_the_partial_area() -> None:
    y, s = _data(seed=1)
    for f in (0.05, 0.1, 0.2, 0.5):
        est = float(ml.evaluate(y, s, measures=[f"pauc@{f:g}"])[f"pauc@{f:g}"])
        pos, neg = s[y == 1], np.sort(s[y == 0])
        fpr = (neg.size - np.searchsorted(neg, pos, side="left")) / neg.size
        assert np.maximum(f - fpr, 0.0).mean() == pytest.approx(est, abs=1e-12)


def test_the_standard_error_matches_the_bootstrap_spread() -> None:
    chk = _check()
    y, s = _data(n=600, seed=2)
    est = float(ml.evaluate(y, s, measures=["pauc@0.2"])["pauc@0.2"])
    se = chk.placements_se(y, s, 0.2, est)
    g = np.random.default_rng(3)
    reps = []
    for _ in range(1000):
        i = g.integers(0, y.size, y.size)
        reps.append(float(ml.evaluate(y[i], s[i], measures=["pauc@0.2"])["pauc@0.2"]))
    # 1,000 replicates: the bootstrap SD's own relative error is about 2.2%
    assert se == pytest.approx(float(np.std(reps, ddof=1)), rel=0.1)
