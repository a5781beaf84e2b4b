"""Net benefit and standardized net benefit (measures/decision.py): the definition written
out case by case, dcurves' values to 1e-12, the curve equal to the measure bit for bit, the
block forms, the treat-all and treat-none references and the refusals."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.measures.decision import (
    net_benefit_block,
    net_benefit_curve,
    net_benefit_curve_block,
    snb_block,
    treat_all,
)
from measurelab.stats.block import TableBlock
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.scoretable import ScoreTable


def brute_nb(y, p, t, w=None) -> float:
    """The definition, case by case in exact rationals: a treated positive counts 1, a
    treated negative t/(1 − t); divided by the total weight."""
    w = np.ones(len(y)) if w is None else w
    t = Fraction(t)
    odds = t / (1 - t)
    num = Fraction(0)
    for yi, pi, wi in zip(y, p, w, strict=True):
        if Fraction(float(pi)) >= t:  # treat when p >= t, exactly
            num += Fraction(float(wi)) * (1 if yi else -odds)
    return float(num / sum(Fraction(float(x)) for x in w))


def _data(seed: int, n: int = 300, grid: int | None = 20):
    g = np.random.default_rng(seed)
    y = g.random(n) < 0.3
    p = 1 / (1 + np.exp(-(g.normal(size=n) + 1.5 * y - 1.2)))
    if grid:
        p = np.round(p * grid) / grid  # many risks exactly at a threshold
    return y, p


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
def test_net_benefit_is_the_definition(seed, weighted):
    y, p = _data(seed)
    w = np.random.default_rng(seed + 10).uniform(0.2, 3, y.size) if weighted else None
    for t in (0.0, 0.05, 0.1, 0.2, 0.25, 0.5, 0.65, 0.95):
        got = ml.evaluate(y, p, measures=[f"net_benefit@{t}"], sample_weight=w)
        assert got[f"net_benefit@{t}"] == pytest.approx(brute_nb(y, p, t, w), rel=1e-12,
                                                        abs=1e-15)
        std = ml.evaluate(y, p, measures=[f"snb@{t}"], sample_weight=w)[f"snb@{t}"]
        prev = np.average(y, weights=w)
        assert std == pytest.approx(brute_nb(y, p, t, w) / prev, rel=1e-12, abs=1e-15)


def test_a_risk_exactly_at_the_threshold_is_treated():
    # one negative at exactly 0.2: treated (p >= t), so it costs 0.25
    assert ml.metrics.net_benefit([1, 0, 0], [0.9, 0.2, 0.1], t=0.2) == pytest.approx(
        (1 - 0.25) / 3, abs=1e-15)
    assert ml.metrics.net_benefit([1, 0, 0], [0.9, 0.19999999999999998, 0.1],
                                  t=0.2) == pytest.approx(1 / 3, abs=1e-15)


def _dcurves(y, models: dict, thresholds):
    dcurves = pytest.importorskip("dcurves")
    df = pd.DataFrame({"y": y.astype(int), **models})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = dcurves.dca(data=df, outcome="y", modelnames=list(models),
                          thresholds=list(thresholds))
    return {m: g.sort_values("threshold")["net_benefit"].to_numpy()
            for m, g in out.groupby("model")}


@pytest.mark.parametrize("seed", range(3))
def test_decision_curve_equals_dcurves(seed):
    y, p = _data(seed, n=400, grid=None if seed == 0 else 50)
    q = np.clip(p + np.random.default_rng(seed).normal(0, 0.1, p.size), 0.001, 0.999)
    thresholds = [i / 100 for i in range(1, 100)]
    want = _dcurves(y, {"a": p, "b": q}, thresholds)
    for name, s in (("a", p), ("b", q)):
        got = ml.curves.decision_curve(y, s, thresholds=thresholds)
        np.testing.assert_allclose(got.net_benefit, want[name], rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.treat_all, want["all"], rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.treat_none, want["none"], rtol=0, atol=1e-12)
        one = [ml.evaluate(y, s, measures=[f"net_benefit@{t}"])[f"net_benefit@{t}"]
               for t in thresholds]
        np.testing.assert_allclose(one, want[name], rtol=0, atol=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_the_curve_is_the_measure_bit_for_bit(weighted):
    y, p = _data(5, grid=10)
    w = np.random.default_rng(1).choice([0.1, 0.3, 0.7, 1.1], y.size) if weighted else None
    table = ScoreTable.from_arrays(y, p, w)
    ts = np.arange(0, 100) / 100
    curve = net_benefit_curve(table, ts)
    one = np.array([ml.registry.resolve(f"net_benefit@{t}")[0].compute(
        BinaryStats(table=table)) for t in ts])
    assert np.array_equal(curve, one)


def test_block_forms_equal_the_scalar_formulas_row_by_row():
    g = np.random.default_rng(3)
    y, p = _data(7, n=80, grid=8)
    t = ScoreTable.from_arrays(y, p)
    mult = g.poisson(1.0, (6, t.size)).astype(float)
    blk = TableBlock(t.scores, t.pos * mult, t.neg * mult)
    ts = [0.0, 0.1, 0.125, 0.3, 0.5, 0.9]
    curve = net_benefit_curve_block(blk, ts)
    for j, th in enumerate(ts):
        col = net_benefit_block(blk, t=th)
        assert np.array_equal(col, curve[:, j])
        for b in range(blk.n_blocks):
            tb = blk.table(b)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                assert _same(col[b], ml.measures.decision.net_benefit(tb, t=th))
                assert _same(snb_block(blk, t=th)[b], ml.measures.decision.snb(tb, t=th))


def _same(a, b) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def test_treat_all_and_none_references():
    y, p = _data(2)
    prev = y.mean()
    ts = np.array([0.0, 0.1, 0.3, 0.6])
    ta = treat_all(ScoreTable.from_arrays(y, p), ts)
    np.testing.assert_allclose(ta, prev - (1 - prev) * ts / (1 - ts), rtol=1e-13)
    # treating everyone is the model that scores every case 1; no one, every case 0 at t > 0
    ones = ml.curves.decision_curve(y, np.ones(y.size), thresholds=ts)
    np.testing.assert_allclose(ones.net_benefit, ta, rtol=1e-13)
    zeros = ml.curves.decision_curve(y, np.zeros(y.size), thresholds=ts[1:])
    assert (zeros.net_benefit == 0).all()
    # a perfect model's net benefit is the prevalence at every threshold; snb is 1
    perfect = ml.curves.decision_curve(y, y.astype(float), thresholds=ts[1:])
    np.testing.assert_allclose(perfect.net_benefit, prev, rtol=1e-13)
    np.testing.assert_allclose(perfect.standardized, 1.0, rtol=1e-13)


def test_undefined_values_are_nan_with_a_warning():
    empty = ScoreTable(np.array([0.5]), np.array([0.0]), np.array([0.0]))
    with pytest.warns(ml.UndefinedMeasureWarning, match="no cases"):
        assert math.isnan(ml.measures.decision.net_benefit(empty, t=0.2))
    with pytest.warns(ml.UndefinedMeasureWarning, match="no positive"):
        assert math.isnan(ml.metrics.snb([0, 0], [0.3, 0.7], t=0.2))


@pytest.mark.parametrize("spec", ["net_benefit@1", "net_benefit@-0.1", "snb@1.5",
                                  "net_benefit@nan"])
def test_threshold_outside_zero_one_is_refused(spec):
    with pytest.raises(MeasurelabError, match="t"):
        ml.evaluate([0, 1], [0.2, 0.7], measures=[spec])


def test_threshold_of_the_functions_is_checked():
    with pytest.raises(MeasurelabError, match="0 <= t < 1"):
        ml.metrics.net_benefit([0, 1], [0.2, 0.7], t=1.0)
    with pytest.raises(MeasurelabTypeError, match="t must be a number"):
        ml.measures.decision.net_benefit(ScoreTable.from_arrays([0, 1], [0.2, 0.7]), t="0.2")
    with pytest.raises(MeasurelabError, match="thresholds must lie in"):
        net_benefit_curve(ScoreTable.from_arrays([0, 1], [0.2, 0.7]), [0.1, 1.0])


def test_net_benefit_with_an_interval_and_in_a_comparison():
    y, p = _data(1, n=300)
    q = np.clip(p * 0.8 + 0.1, 0, 1)
    r = ml.evaluate(y, p, measures=["net_benefit@0.2"], ci=0.95, n_boot=300)
    iv = r.intervals().iloc[0]
    assert iv["method"].startswith("bootstrap") and iv["lo"] < iv["value"] < iv["hi"]
    cmp = ml.compare_classifiers(y, {"a": p, "b": q}, measures=["net_benefit@0.2", "auc"],
                                 n_boot=300)
    row = cmp.tests().set_index("measure").loc["net_benefit@0.2"]
    assert row["method"] == "bootstrap"
    assert row["diff"] == pytest.approx(brute_nb(y, p, 0.2) - brute_nb(y, q, 0.2), abs=1e-12)
