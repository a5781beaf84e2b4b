"""Spiegelhalter's z (measures/calibration/spiegelhalter.py) against MAPIE's
``spiegelhalter_statistic`` (skipped where MAPIE is not installed), its zero-variance rule,
its two-sided p-value and the note that carries it."""

from __future__ import annotations

import math

import numpy as np
import pytest

import measurelab as ml
from measurelab.measures.calibration.spiegelhalter import spiegelhalter_p_value


def _data(seed: int, n: int, grid: int | None):
    rng = np.random.default_rng(seed)
    p = rng.beta(1.5, 2, n)
    if grid is not None:
        p = np.round(p * grid) / grid
    y = (rng.random(n) < 0.5 + 1.2 * (p - 0.5)).astype(int)  # truth more extreme: cautious p
    return y, p


@pytest.mark.parametrize("grid", [None, 4, 30])
def test_equals_mapie(grid):
    mapie = pytest.importorskip("mapie.metrics.calibration")
    for seed in range(4):
        y, p = _data(seed, [20, 200, 2000, 5000][seed], grid)
        want = mapie.spiegelhalter_statistic(y, p)
        assert ml.metrics.spiegelhalter_z(y, p) == pytest.approx(want, rel=1e-9, abs=1e-12)
        # MAPIE's p-value is one-sided, 1 − Φ(z); the two-sided one is twice the smaller tail
        one = mapie.spiegelhalter_p_value(y, p)
        assert spiegelhalter_p_value(want) == pytest.approx(2 * min(one, 1 - one), rel=1e-9)


def test_whole_weights_are_repeated_cases():
    y, p = _data(5, 300, 20)
    w = np.random.default_rng(6).integers(1, 5, 300)
    a = ml.metrics.spiegelhalter_z(y, p, sample_weight=w)
    b = ml.metrics.spiegelhalter_z(np.repeat(y, w), np.repeat(p, w))
    assert a == pytest.approx(b, rel=1e-12)


def test_sign_reads_over_and_under_confidence():
    rng = np.random.default_rng(2)
    q = rng.uniform(0.05, 0.95, 20000)
    y = rng.random(q.size) < q
    over = 1 / (1 + np.exp(-3 * np.log(q / (1 - q))))  # too extreme
    under = 1 / (1 + np.exp(-0.3 * np.log(q / (1 - q))))  # too cautious
    assert ml.metrics.spiegelhalter_z(y, over) > 5
    assert ml.metrics.spiegelhalter_z(y, under) < -5
    assert abs(ml.metrics.spiegelhalter_z(y, q)) < 4


def test_zero_variance_rule():
    # every p in {0, 1/2, 1}: 0 when no certain prediction failed, +inf when one did
    assert ml.metrics.spiegelhalter_z([0, 1, 1, 0], [0.0, 1.0, 0.5, 0.5]) == 0.0
    assert ml.metrics.spiegelhalter_z([1, 1, 1, 0], [0.0, 1.0, 0.5, 0.5]) == math.inf
    assert spiegelhalter_p_value(0.0) == 1.0 and spiegelhalter_p_value(math.inf) == 0.0


def test_notes_carry_the_two_sided_p_value():
    from scipy.stats import norm

    y, p = _data(1, 200, None)
    r = ml.evaluate(y, p, measures=["spiegelhalter_z", "acc"])
    z = r["spiegelhalter_z"]
    assert r.notes()["spiegelhalter_z"] == f"two-sided p = {2 * norm.sf(abs(z)):.3g}"
    assert r.to_frame().loc["spiegelhalter_z", "note"].startswith("two-sided p = ")
    t = ml.metrics.spiegelhalter_test(y, p)
    assert t.statistic == z and t.pvalue == pytest.approx(2 * norm.sf(abs(z)), rel=1e-12)
