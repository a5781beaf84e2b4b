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


# ------------------------------------------------------------------ the operating point
def _brute_rule(y, s, w, rule, *, min_sens=None, min_spec=None, cost_fn=1.0, cost_fp=1.0,
                prevalence=None):
    """The rules written from their definitions over every threshold in exact Fractions:
    (1 − sens)² + (1 − spec)², or π·c_FN·(1 − sens) + (1 − π)·c_FP·(1 − spec); the
    smallest value among the thresholds meeting the constraints, the largest threshold
    among equal values. Returns (threshold, sens, spec, value) or None."""
    y = np.asarray(y) == 1
    ws = [Fraction(float(x)) for x in (np.ones(len(y)) if w is None else w)]
    p = sum((a for a, b in zip(ws, y, strict=True) if b), Fraction(0))
    n = sum((a for a, b in zip(ws, y, strict=True) if not b), Fraction(0))
    best = None
    for t in [*sorted(set(s.tolist()), reverse=True), -math.inf]:
        tp = sum((a for a, b, c in zip(ws, y, s, strict=True) if b and c > t), Fraction(0))
        fp = sum((a for a, b, c in zip(ws, y, s, strict=True) if not b and c > t),
                 Fraction(0))
        sens, spec = tp / p, (n - fp) / n
        if (min_sens is not None and float(sens) < min_sens) or (
                min_spec is not None and float(spec) < min_spec):
            continue
        if rule == "closest_topleft":
            v = (1 - sens) ** 2 + (1 - spec) ** 2
        else:
            pi = p / (p + n) if prevalence is None else Fraction(prevalence)
            v = (pi * Fraction(cost_fn) * (1 - sens)
                 + (1 - pi) * Fraction(cost_fp) * (1 - spec))
        if best is None or v < best[3]:
            best = (t, sens, spec, v)
    return best


RULE_CASES = [
    ("closest_topleft", {}),
    ("cost", {}),
    ("cost", {"cost_fn": 5.0}),
    ("cost", {"cost_fn": 2.0, "cost_fp": 0.5, "prevalence": 0.1}),
    ("closest_topleft", {"min_sens": 0.9}),
    ("cost", {"cost_fp": 3.0, "min_spec": 0.75, "min_sens": 0.25}),
]


@pytest.mark.parametrize(("rule", "kw"), RULE_CASES)
@pytest.mark.parametrize("seed,weighted", [(0, False), (1, False), (2, True)])
def test_rules_and_constraints_equal_brute_force(rule, kw, seed, weighted):
    y, s, w = _data(seed, weighted=weighted)
    got = ml.best_threshold(y, s, rule, sample_weight=w, **kw)
    want = _brute_rule(y, s, w, rule, **kw)
    assert got.threshold == want[0]
    assert (got.sens, got.spec) == (float(want[1]), float(want[2]))
    assert got.value == pytest.approx(float(want[3]), rel=1e-12, abs=1e-15)
    assert got.measure == rule


@pytest.mark.parametrize("spec", ["youden", "f1", "acc"])
def test_constraints_with_a_registered_measure(spec):
    y, s, _ = _data(7)
    free = ml.best_threshold(y, s, spec)
    got = ml.best_threshold(y, s, spec, min_sens=0.95)
    assert got.sens >= 0.95
    # the best of the measure among the thresholds with sens >= 0.95, by brute force
    cands = [t for t in [*set(s.tolist()), -math.inf] if np.mean(s[y == 1] > t) >= 0.95]
    vals = {t: ml.evaluate(y, s, measures=[spec], threshold=t)[spec] for t in cands}
    top = max(vals.values())
    assert got.threshold == max(t for t, v in vals.items() if v == top)
    assert got.value == top
    if free.sens >= 0.95:
        assert got == free


def test_no_threshold_meeting_the_constraints_is_nan_with_a_warning():
    y, s = [0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6]  # sens 1 means spec at most 1/2
    with pytest.warns(ml.UndefinedMeasureWarning, match=r"sens >= 1 and spec >= 0.9"):
        b = ml.best_threshold(y, s, min_sens=1.0, min_spec=0.9)
    assert math.isnan(b.threshold) and math.isnan(b.value) and math.isnan(b.sens)


def test_cost_parameters_belong_to_the_cost_rule():
    with pytest.raises(ml.MeasurelabError, match="cost_fn applies to measure='cost'"):
        ml.best_threshold([0, 1], [0.2, 0.7], "youden", cost_fn=2.0)
    with pytest.raises(ml.MeasurelabError, match="prevalence must be in"):
        ml.best_threshold([0, 1], [0.2, 0.7], "cost", prevalence=1.0)
    with pytest.raises(ml.MeasurelabError, match="min_spec must be in"):
        ml.best_threshold([0, 1], [0.2, 0.7], min_spec=1.5)


def test_the_return_contract_is_a_pair():
    y, s, _ = _data(8)
    b = ml.best_threshold(y, s, "f1")
    t, v = b
    assert (t, v) == (b.threshold, b.value) and len(b) == 2 and isinstance(b, tuple)
    assert repr(b) == f"BestThreshold(threshold={t!r}, value={v!r})"
    with pytest.raises(ml.MeasurelabError, match="without ci="):
        b.intervals()


@pytest.fixture(scope="module")
def with_ci():
    g = np.random.default_rng(11)
    y = g.random(300) < 0.4
    s = np.round(g.normal(1.2 * y, 1), 1)
    return y, s, ml.best_threshold(y, s, ci=0.9, n_boot=200, random_state=3)


def test_intervals_table(with_ci):
    y, s, b = with_ci
    iv = b.intervals()
    assert list(iv.columns) == ["quantity", "value", "lo", "hi", "method"]
    assert iv["quantity"].tolist() == ["threshold", "sens", "spec", "youden"]
    assert iv["value"].tolist() == [b.threshold, b.sens, b.spec, b.value]
    assert (iv["lo"] <= iv["value"]).all() and (iv["value"] <= iv["hi"]).all()
    # level 0.9: no study ran at it (the method column's verdict: tests/inference/
    # test_operating_page.py)
    assert iv["method"].str.startswith("bootstrap-percentile (no coverage evidence").all()
    assert b.level == 0.9
    # the same seed, the same table; the point estimate is that of ci=None
    again = ml.best_threshold(y, s, ci=0.9, n_boot=200, random_state=3)
    assert again.intervals().equals(iv) and tuple(again) == tuple(ml.best_threshold(y, s))


def test_every_replicate_chooses_its_own_threshold(monkeypatch):
    """Each replicate's table holds only the scores drawn into it, and its threshold,
    sens and spec are the rule's choice on that table (brute force on a few of them)."""
    from measurelab.metrics import thresholds as th

    seen = []
    point = th.best_point

    def spy(table, m, lo, hi):
        out = point(table, m, lo, hi)
        seen.append((table, out))
        return out

    monkeypatch.setattr(th, "best_point", spy)
    g = np.random.default_rng(5)
    y = g.random(80) < 0.5
    s = np.round(g.normal(y * 1.0, 1), 1)
    b = ml.best_threshold(y, s, "closest_topleft", ci=0.95, n_boot=100, min_sens=0.5)
    reps = seen[1:]  # the first call is the point estimate
    assert len(reps) == 101  # the identity weighting, then 100 replicates
    assert len({float(t.n_pos) for t, _ in reps}) > 1  # the class counts vary (random design)
    for table, (thr, sens, spec, _value, _) in reps[:12]:
        assert ((table.pos + table.neg) > 0).all()
        yy = np.repeat(np.r_[np.zeros(table.size), np.ones(table.size)].astype(int),
                       np.r_[table.neg, table.pos].astype(int))
        ss = np.repeat(np.r_[table.scores, table.scores], np.r_[table.neg, table.pos]
                       .astype(int))
        want = _brute_rule(yy, ss, None, "closest_topleft", min_sens=0.5)
        assert (thr, sens, spec) == (want[0], float(want[1]), float(want[2]))
    assert b.intervals().loc[1, "lo"] >= 0.5  # every replicate honours min_sens


def test_a_perfect_separation_is_a_certain_choice():
    g = np.random.default_rng(2)
    y = np.r_[np.zeros(40, bool), np.ones(30, bool)]
    s = np.r_[g.uniform(0, 0.4, 40), g.uniform(0.6, 1, 30)]
    from measurelab.inference.withholding import withholding

    with withholding(False):   # the bootstrap itself, whatever the study says of 30 cases
        b = ml.best_threshold(y, s, ci=0.95, n_boot=200, stratify=True)
    iv = b.intervals().set_index("quantity")
    assert b.threshold == s[:40].max()
    for q in ("sens", "spec", "youden"):
        assert (iv.loc[q, "lo"], iv.loc[q, "hi"]) == (1.0, 1.0)
    # the replicates' thresholds are their own highest negatives: within the negatives
    assert s[:40].min() <= iv.loc["threshold", "lo"] <= iv.loc["threshold", "hi"] == b.threshold


def test_intervals_of_weighted_cases_and_of_a_table():
    y, s, w = _data(9, n=120, weighted=True)
    w = w + 0.25  # no case of weight 0
    b = ml.best_threshold(y, s, "f1", sample_weight=w, ci=0.9, n_boot=100)
    iv = b.intervals()
    assert iv["quantity"].tolist() == ["threshold", "sens", "spec", "f1"]
    assert (iv["lo"] <= iv["value"]).all() and (iv["value"] <= iv["hi"]).all()
    table = ml.ScoreTable.from_arrays(y == 1, s)  # whole counts: its cases resample
    t = ml.best_threshold(table, ci=0.9, n_boot=100)
    assert t.intervals().equals(ml.best_threshold(y, s, ci=0.9, n_boot=100).intervals())
    with pytest.raises(ml.MeasurelabError, match="real weights has no cases"):
        ml.best_threshold(ml.ScoreTable.from_arrays(y == 1, s, w), ci=0.9, n_boot=100)
    with pytest.raises(ml.MeasurelabError, match="one number"):
        ml.best_threshold(y, s, "youden:acc", ci=0.9, n_boot=100)
