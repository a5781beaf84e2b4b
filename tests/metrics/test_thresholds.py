"""best_threshold against brute force over every threshold (exact Fraction counts)."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import measurelab as ml
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.confusion import BinaryCounts

COUNT_MEASURES = [m.name for m in ml.registry if m.statistic == "counts"]
SPECS = [*COUNT_MEASURES, "f_beta@2", "auc:acc", "acc:f1", "youden:err", "sar"]


def _data(seed: int, n: int = 60, weighted: bool = False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) * 0.7 + 0.3 * y, 1)  # ties, scores in [0, 1]
    # dyadic weights: their float sums are exact, so exact ties are ties of the sums
    w = rng.integers(0, 16, n) / 4 if weighted else None
    return y, s, w


def _brute(y, s, w, spec):
    """Every candidate threshold (distinct scores and -inf): counts by direct comparison
    ``s > t`` in exact Fractions, the measure's formula, the best value, the largest t."""
    m = ml.registry.resolve(spec)[0]
    table = ml.ScoreTable.from_arrays(y == 1, s, w)
    w = np.ones(len(y)) if w is None else w
    ws = [Fraction(float(x)) for x in w]
    best_t, best_v = None, None
    for t in [*sorted(set(s.tolist()), reverse=True), -math.inf]:
        tp = sum((wi for wi, yi, si in zip(ws, y, s, strict=True) if yi == 1 and si > t),
                 Fraction(0))
        fp = sum((wi for wi, yi, si in zip(ws, y, s, strict=True) if yi == 0 and si > t),
                 Fraction(0))
        fn = sum((wi for wi, yi, si in zip(ws, y, s, strict=True) if yi == 1 and si <= t),
                 Fraction(0))
        tn = sum((wi for wi, yi, si in zip(ws, y, s, strict=True) if yi == 0 and si <= t),
                 Fraction(0))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                v = m.compute(BinaryStats(table=table,
                                          given_counts=BinaryCounts(tp, fp, fn, tn)))
            except TypeError:  # a formula that takes no Fractions (dp): its float value
                c = BinaryCounts(*(float(x) for x in (tp, fp, fn, tn)))
                v = m.compute(BinaryStats(table=table, given_counts=c))
        if isinstance(v, float) and math.isnan(v):
            continue
        if not m.higher_is_better:
            v = -v
        if best_v is None or v > best_v:  # strict: the first (largest t) best is kept
            best_t, best_v = t, v
    return best_t


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed,weighted", [(0, False), (1, False), (2, True)])
def test_best_threshold_equals_brute_force(spec, seed, weighted):
    y, s, w = _data(seed, weighted=weighted)
    got = ml.best_threshold(y, s, spec, sample_weight=w)
    assert got.threshold == _brute(y, s, w, spec)
    # the value is what evaluate gives at that threshold
    want = ml.evaluate(y, s, measures=[spec], threshold=got.threshold, sample_weight=w)
    assert got.value == want[ml.registry.resolve(spec)[0].name]


def test_exact_tie_that_floats_would_break():
    # ranking + − − − − + + − −: P = 3, N = 6. Youden is 1/3 at the top one (1/3 − 0) and
    # at the top seven (1 − 4/6); in floats the second is 0.33333333333333337 > 1/3.
    # The exact tie keeps the larger threshold.
    y = [1, 0, 0, 0, 0, 1, 1, 0, 0]
    s = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]
    assert 3 / 3 - 4 / 6 > 1 / 3 - 0 / 6
    t, v = ml.best_threshold(y, s, "youden")
    assert t == 0.8
    assert v == pytest.approx(1 / 3)


def test_lower_is_better_is_minimized_and_pos_label():
    y, s, _ = _data(3)
    t_err, v_err = ml.best_threshold(y, s, "err")
    t_acc, v_acc = ml.best_threshold(y, s, "acc")
    assert t_err == t_acc and v_err == pytest.approx(1 - v_acc)
    # the other class positive with negated scores: the mirrored problem, same best acc
    _, v0 = ml.best_threshold(1 - y, -s, "acc", pos_label=1)
    assert v0 == pytest.approx(v_acc)


def test_everything_positive_can_be_best():
    t, v = ml.best_threshold([1, 1, 0, 1], [0.2, 0.3, 0.1, 0.9], "sens")
    assert (t, v) == (0.1, 1.0)  # the largest threshold with every positive above it
    t, v = ml.best_threshold([1, 1, 1, 0], [0.2, 0.3, 0.4, 0.9], "acc")
    assert (t, v) == (-math.inf, 0.75)


def test_refuses_threshold_free_and_multiclass_and_undefined_gives_nan():
    with pytest.raises(ml.MeasurelabError, match="does not depend on the threshold"):
        ml.best_threshold([0, 1], [0.2, 0.7], "auc")
    with pytest.raises(ml.MeasurelabError, match="binary"):
        ml.best_threshold([0, 1, 2], [0, 1, 2], "acc")
    with pytest.warns(ml.UndefinedMeasureWarning):
        t, v = ml.best_threshold([1, 1, 1], [0.2, 0.5, 0.9], "spec")
    assert math.isnan(t) and math.isnan(v)


def test_user_registered_scalar_only_measure():
    @ml.measure("tp_minus_fp_scalar", kind="threshold", statistic="counts",
                range=(-math.inf, math.inf), source="test")
    def f(c):
        """tp − fp, written for scalars only."""
        return float(c.tp) - float(c.fp)  # float() fails on arrays: the per-threshold route

    try:
        y, s, _ = _data(4)
        got = ml.best_threshold(y, s, "tp_minus_fp_scalar")
        assert got.threshold == _brute(y, s, None, "tp_minus_fp_scalar")
    finally:
        ml.registry.unregister("tp_minus_fp_scalar")


def test_from_a_merged_table():
    y, s, w = _data(5, weighted=True)
    a = ml.ScoreTable.from_arrays(y[:30] == 1, s[:30], w[:30])
    b = ml.ScoreTable.from_arrays(y[30:] == 1, s[30:], w[30:])
    assert ml.best_threshold(a + b, measure="f1") == ml.best_threshold(
        y, s, "f1", sample_weight=w)
    with pytest.raises(ml.MeasurelabError, match="omit y_score"):
        ml.best_threshold(a, s, "f1")


def test_a_target_measure_is_brought_nearest_its_target_exactly():
    """A threshold measure with a target value (the share predicted positive, ideally ¼)
    is brought nearest to it; two thresholds equally near (1/5 and 3/10 of ten cases) tie
    exactly and the larger threshold wins, as for any tie; brute force over every
    threshold in Fractions is the oracle."""

    @ml.measure("ppr_quarter", kind="threshold", statistic="counts", higher_is_better=False,
                target=0.25, source="test")
    def ppr_quarter(c):
        """Share of cases predicted positive."""
        return (c.tp + c.fp) / (c.tp + c.fp + c.fn + c.tn)

    try:
        y = np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 0])
        s = np.arange(10) / 10
        t, v = ml.best_threshold(y, s, "ppr_quarter")
        assert (t, v) == (0.7, 0.2)  # 2 of 10 above 0.7; 3 above 0.6 is as near to ¼
        for seed in range(5):
            yb, sb, _ = _data(seed)
            got = ml.best_threshold(yb, sb, "ppr_quarter")
            share = {tt: float(np.mean(sb > tt)) for tt in [*set(sb.tolist()), -math.inf]}
            near = min(abs(Fraction(x) - Fraction(1, 4)) for x in share.values())
            best = max(tt for tt, x in share.items() if abs(Fraction(x) - Fraction(1, 4))
                       == near)
            assert got.threshold == best and got.value == share[best]
    finally:
        ml.registry.unregister("ppr_quarter")
