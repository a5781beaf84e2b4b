"""Significance tests against scipy, and the win/draw/loss bookkeeping."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from measurelab.exceptions import MeasurelabError
from measurelab.inference.ranks.significance import (
    paired_ttest,
    wdl_table,
    wilcoxon_signed_rank,
    win_draw_loss,
)


@pytest.mark.parametrize("seed", range(6))
def test_paired_ttest_equals_scipy(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 30))
    a = rng.random(n)
    b = a + rng.normal(0.03 * (seed - 3), 0.05, n)
    ours = paired_ttest(a, b)
    ref = stats.ttest_rel(a, b)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert ours.df == n - 1
    expected = "draw" if ref.pvalue >= 0.05 else ("win" if ref.statistic > 0 else "loss")
    assert ours.verdict == expected
    # lower is better flips the verdict
    flipped = {"win": "loss", "loss": "win", "draw": "draw"}[expected]
    assert paired_ttest(a, b, higher_is_better=False).verdict == flipped


def test_corrected_resampled_ttest_by_hand():
    rng = np.random.default_rng(7)
    d = rng.normal(0.01, 0.02, 50)         # 5 × 10-fold differences
    a, b = d + 0.5, np.full(50, 0.5)
    r = paired_ttest(a, b, corrected=True, test_train_ratio=1 / 9)
    t = d.mean() / math.sqrt((1 / 50 + 1 / 9) * d.var(ddof=1))
    assert r.statistic == pytest.approx(t, rel=1e-10)
    assert r.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 49), rel=1e-10)
    # the correction only shrinks |t|
    assert abs(r.statistic) < abs(paired_ttest(a, b).statistic)
    with pytest.raises(MeasurelabError):
        paired_ttest(a, b, corrected=True)


def test_zero_variance_cases():
    assert paired_ttest([1, 1, 1], [1, 1, 1])[:2] == (0.0, 1.0)
    r = paired_ttest([3.0, 2.0, 1.0], [2.0, 1.0, 0.0])
    assert math.isinf(r.statistic) and r.pvalue == 0.0 and r.verdict == "win"
    with pytest.raises(MeasurelabError):
        paired_ttest([1, 2], [1, 2, 3])


@pytest.mark.filterwarnings("ignore:Precision loss:RuntimeWarning")  # scipy on constant d
@pytest.mark.parametrize("shift", [0.0, 0.25, -2.0])
def test_zero_variance_against_scipy(shift):
    """A constant non-zero difference: t = ±inf, p = 0 as scipy; no difference at all:
    t = 0, p = 1 where scipy gives NaN (0/0)."""
    a = np.array([0.5, 0.25, 0.75, 1.0])
    r = paired_ttest(a + shift, a)
    ref = stats.ttest_rel(a + shift, a)
    if shift:
        assert r.statistic == ref.statistic == math.copysign(math.inf, shift)
        assert r.pvalue == ref.pvalue == 0.0
    else:
        assert math.isnan(ref.statistic) and math.isnan(ref.pvalue)
        assert (r.statistic, r.pvalue, r.verdict) == (0.0, 1.0, "draw")


@pytest.mark.parametrize("seed", range(8))
def test_wilcoxon_exact_equals_scipy(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 20))
    d = rng.normal(0.3 * (seed % 3 - 1), 1.0, n)   # continuous: no ties, no zeros
    ours = wilcoxon_signed_rank(d, method="exact")
    ref = stats.wilcoxon(d, method="exact")
    assert ours.statistic == ref.statistic
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_wilcoxon_approx_with_ties_and_zeros_equals_scipy(seed):
    rng = np.random.default_rng(seed)
    a = np.round(rng.random(30), 1)
    b = np.round(rng.random(30) * 0.9, 1)
    ours = wilcoxon_signed_rank(a, b, method="approx")
    ref = stats.wilcoxon(a, b, zero_method="wilcox", correction=False, method="approx")
    assert ours.statistic == ref.statistic
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert ours.n == int(((a - b) != 0).sum())


def test_win_draw_loss_table():
    res = {
        "d1": {"A": [0.9, 0.92, 0.91, 0.93], "B": [0.8, 0.81, 0.8, 0.82], "C": [0.7] * 4},
        "d2": {"A": [0.7, 0.75, 0.72, 0.7], "B": [0.71, 0.74, 0.73, 0.7],
               "C": [0.8, 0.81, 0.82, 0.83]},
    }
    t = wdl_table(res, ["A", "B", "C"])
    # independent count with scipy
    for ma, mb in [("A", "B"), ("A", "C"), ("B", "C")]:
        w = d = lo = 0
        for per in res.values():
            r = stats.ttest_rel(per[ma], per[mb])
            if not r.pvalue < 0.05:
                d += 1
            elif r.statistic > 0:
                w += 1
            else:
                lo += 1
        assert t.loc[ma, mb] == f"{w}-{d}-{lo}"
    assert win_draw_loss(["draw"] * 3) == (0, 3, 0)
    with pytest.raises(MeasurelabError):
        win_draw_loss(["tie"])
