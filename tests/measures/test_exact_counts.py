"""Exactness of ap11 with real weights, of kappa and MCC at any integer size, and of the
count measures whose exact value cancels (youden, dp, ...), against Fraction arithmetic."""

from __future__ import annotations

import math
from fractions import Fraction as Fr

import numpy as np
import pytest

import measurelab as ml
from measurelab import BinaryCounts
from measurelab.measures import agreement, basic, likelihood, oarp
from measurelab.measures._arith import exact_sum, log_fraction, sqrt_fraction
from measurelab.stats.bundle import MultiStats
from measurelab.stats.confusion import MultiCounts


# ------------------------------------------------------------------------------ ap11
def ap11_fraction(y, s, w) -> Fr:
    """11-point AP from the definition, in exact rationals of the given weights: for each
    r = i/10 the largest precision over thresholds with recall ≥ r (0 if none)."""
    w = [Fr(float(v)) for v in w]
    P = sum(wi for wi, yi in zip(w, y, strict=True) if yi)
    points = []
    for thr in sorted(set(s), reverse=True):
        tp = sum(wi for wi, yi, si in zip(w, y, s, strict=True) if yi and si >= thr)
        fp = sum(wi for wi, yi, si in zip(w, y, s, strict=True) if not yi and si >= thr)
        points.append((tp / P, tp / (tp + fp)))
    vals = [max((p for r, p in points if r >= Fr(i, 10)), default=Fr(0)) for i in range(11)]
    return sum(vals) / 11


def test_ap11_all_positive_tenths():
    """The issue's case: ten positives of weight 0.1 reach every recall level."""
    y = np.ones(10, dtype=int)
    assert ml.metrics.ap11(y, np.linspace(0.1, 0.9, 10), sample_weight=np.full(10, 0.1)) == 1.0


@pytest.mark.parametrize("seed", range(12))
def test_ap11_real_weights_against_fractions(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 40))
    y = rng.random(n) < 0.5
    y[0] = True
    s = rng.permutation(n) / n  # distinct scores
    # weights from a few tenths: recall often lands exactly on a level
    w = rng.choice([0.1, 0.2, 0.3, 0.7, 1.1], n)
    got = ml.metrics.ap11(y.astype(int), s, sample_weight=w)
    assert got == pytest.approx(float(ap11_fraction(y, s, w)), rel=1e-15)
    # chunked and whole agree exactly
    ev = ml.Evaluator(measures=["ap11"])
    for part in np.array_split(rng.permutation(n), 3):
        ev.update(y[part].astype(int), s[part], sample_weight=w[part])
    assert ev.compute()["ap11"] == got


def test_ap11_integer_weights_unchanged(rng):
    from tests.conftest import make_binary

    y, s, _ = make_binary(rng, 300, ties=True)
    yb = y == 1
    assert ml.metrics.ap11(y, s) == pytest.approx(float(ap11_fraction(yb, s, np.ones(300))),
                                                  rel=1e-15)


def test_exact_sum_against_fractions(rng):
    for _ in range(50):
        x = rng.uniform(0, 1, 40) * 10.0 ** rng.integers(-40, 40, 40)
        assert exact_sum(x) == sum(map(Fr, x.tolist()))


# --------------------------------------------------------------------- kappa and MCC
def kappa_fraction(tp, fp, fn, tn) -> Fr:
    """(p_o − p_e) / (1 − p_e) in rationals."""
    n = tp + fp + fn + tn
    po = Fr(tp + tn, n)
    pe = Fr((tp + fp) * (tp + fn) + (tn + fn) * (tn + fp), n * n)
    return (po - pe) / (1 - pe)


def assert_correctly_rounded_sqrt(value: float, square: Fr, sign: int) -> None:
    """value is the double nearest to sign·sqrt(square): the exact root lies between
    the midpoints to its neighbours."""
    v = abs(value)
    assert math.copysign(1.0, value) == sign or value == 0
    lo = (Fr(v) + Fr(math.nextafter(v, 0))) / 2
    hi = (Fr(v) + Fr(math.nextafter(v, math.inf))) / 2
    assert lo * lo <= square <= hi * hi


COUNTS = [
    (10**15, 1, 1, 10**15),
    (10**15 - 7, 3 * 10**14 + 1, 2 * 10**14 + 5, 10**15 + 11),
    (10**12, 10**12 - 1, 10**12 + 1, 10**12),
    (10**9 + 3, 10**9, 10**9 + 1, 10**9 + 2),
    (10**20, 1, 1, 1),  # the issue's --counts 1e20 1 1 1
    (1242, 390, 189, 740),
    (5, 0, 0, 7),
    (3, 4, 5, 6),
]


@pytest.mark.parametrize("counts", COUNTS)
def test_kappa_and_mcc_exact_at_any_size(counts):
    tp, fp, fn, tn = counts
    for c in (BinaryCounts(*counts), BinaryCounts(*(float(v) for v in counts))):
        if float(max(counts)) != max(counts):
            continue  # the float does not hold the integer
        k = agreement.kappa(c)
        assert k == float(kappa_fraction(tp, fp, fn, tn))
        num = tp * tn - fp * fn
        den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        assert_correctly_rounded_sqrt(agreement.mcc(c), Fr(num * num, den), 1 if num >= 0 else -1)
    r = ml.evaluate_counts(tp=tp, fp=fp, fn=fn, tn=tn, measures=["kappa", "mcc"])
    assert r["kappa"] == float(kappa_fraction(tp, fp, fn, tn))


def test_kappa_mcc_weighted_counts_float_route():
    """Real counts keep float arithmetic; the closed forms agree with the rationals."""
    rng = np.random.default_rng(3)
    for _ in range(100):
        counts = rng.uniform(0.5, 1e15, 4) * 10.0 ** rng.integers(-3, 1, 4)
        tp, fp, fn, tn = (Fr(float(v)) for v in counts)
        c = BinaryCounts(*(float(v) for v in counts))
        assert agreement.kappa(c) == pytest.approx(float(kappa_fraction(tp, fp, fn, tn)),
                                                   rel=1e-12, abs=1e-14)
        num = tp * tn - fp * fn
        ref = float(num) / math.sqrt(float((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))
        assert agreement.mcc(c) == pytest.approx(ref, rel=1e-12, abs=1e-14)


def test_kappa_mcc_from_weighted_data_against_fractions(rng):
    from tests.conftest import make_binary

    y, s, w = make_binary(rng, 300, weighted=True)
    yb, pred = y == 1, s > 0.5
    tp, fp, fn, tn = (exact_sum(w[m]) for m in (yb & pred, ~yb & pred, yb & ~pred,
                                                ~yb & ~pred))
    r = ml.evaluate(y, s, sample_weight=w, measures=["kappa", "mcc"])
    assert r["kappa"] == pytest.approx(float(kappa_fraction(tp, fp, fn, tn)), rel=1e-12)
    num = tp * tn - fp * fn
    mcc_sq = num * num / ((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    assert r["mcc"] == pytest.approx(math.copysign(math.sqrt(float(mcc_sq)), num), rel=1e-12)


def test_multiclass_kappa_mcc_exact():
    m = np.array([[10**15, 3, 7], [2, 10**15 + 1, 5], [11, 13, 10**14]], dtype=np.float64)
    stats = MultiStats(counts=MultiCounts(m, (0, 1, 2)))
    mi = [[int(v) for v in row] for row in m.tolist()]
    t = [sum(r) for r in mi]
    p = [sum(col) for col in zip(*mi, strict=True)]
    n, c = sum(t), sum(mi[i][i] for i in range(3))
    tp_ = sum(a * b for a, b in zip(t, p, strict=True))
    assert agreement._kappa_matrix(stats) == float(Fr(n * c - tp_, n * n - tp_))
    cov = c * n - tp_
    den = (n * n - sum(b * b for b in p)) * (n * n - sum(a * a for a in t))
    assert_correctly_rounded_sqrt(agreement._mcc_matrix(stats), Fr(cov * cov, den), 1)


# ------------------------------------------------------- count measures from integers
def test_exact_zero_prints_zero():
    """youden and dp are 0 in exact arithmetic when sens = 1 − spec (and X·Y = 1)."""
    c = BinaryCounts(3, 7, 6, 14)  # sens = 1/3, 1 − spec = 1/3
    assert likelihood.youden(c) == 0.0
    assert likelihood.dp(BinaryCounts(3, 7, 6, 14)) == 0.0  # XY = (3·14)/(6·7) = 1
    y = np.r_[np.ones(9), np.zeros(21)].astype(int)
    s = np.r_[[0.9] * 3, [0.1] * 6, [0.9] * 7, [0.1] * 14]
    r = ml.evaluate(y, s, measures=["youden", "dp", "bacc", "ri", "op"])
    assert r["youden"] == 0.0 and r["dp"] == 0.0 and r["bacc"] == 0.5


@pytest.mark.parametrize("name,ref", [
    ("youden", lambda tp, fp, fn, tn: Fr(tp, tp + fn) - Fr(fp, fp + tn)),
    ("bacc", lambda tp, fp, fn, tn: (Fr(tp, tp + fn) + Fr(tn, tn + fp)) / 2),
    ("lr_pos", lambda tp, fp, fn, tn: Fr(tp, tp + fn) / Fr(fp, fp + tn)),
    ("lr_neg", lambda tp, fp, fn, tn: Fr(fn, tp + fn) / Fr(tn, tn + fp)),
    ("op", lambda tp, fp, fn, tn: Fr(tp + tn, tp + fp + fn + tn)
     - abs(Fr(tn, tn + fp) - Fr(tp, tp + fn)) / (Fr(tn, tn + fp) + Fr(tp, tp + fn))),
    ("f_beta", lambda tp, fp, fn, tn: Fr(5 * tp, 5 * tp + 4 * fn + fp)),
])
@pytest.mark.parametrize("counts", COUNTS[:4] + COUNTS[5:6] + COUNTS[7:])
def test_rational_count_measures_round_once(name, ref, counts):
    kw = {"beta": 2.0} if name == "f_beta" else {}
    fn_ = {"youden": likelihood.youden, "bacc": basic.bacc, "lr_pos": likelihood.lr_pos,
           "lr_neg": likelihood.lr_neg, "op": oarp.op, "f_beta": basic.f_beta}[name]
    assert fn_(BinaryCounts(*counts), **kw) == float(ref(*counts))


def test_gmean_and_dp_from_rationals():
    c = (10**15 - 7, 3 * 10**14 + 1, 2 * 10**14 + 5, 10**15 + 11)
    tp, fp, fn, tn = c
    assert_correctly_rounded_sqrt(basic.gmean(BinaryCounts(*c)),
                                  Fr(tp, tp + fn) * Fr(tn, tn + fp), 1)
    ref = likelihood.SQRT3_OVER_PI * math.log(float(Fr(tp * tn, fn * fp)))
    assert likelihood.dp(BinaryCounts(*c)) == pytest.approx(ref, rel=1e-15)


def test_fraction_counts_stay_fractions():
    c = BinaryCounts(Fr(3), Fr(1), Fr(2), Fr(4))
    assert isinstance(likelihood.youden(c), Fr) and isinstance(agreement.kappa(c), Fr)
    assert agreement.kappa(c) == kappa_fraction(3, 1, 2, 4)


def test_array_counts_keep_float_arithmetic():
    c = BinaryCounts(np.array([3.0, 1.0]), np.array([1.0, 2.0]), np.array([2.0, 0.0]),
                     np.array([4.0, 5.0]))
    k = agreement.kappa(c)
    assert k == pytest.approx([float(kappa_fraction(3, 1, 2, 4)),
                               float(kappa_fraction(1, 2, 0, 5))], rel=1e-15)


def test_helpers_against_fractions():
    rng = np.random.default_rng(5)
    for _ in range(200):
        q = Fr(int(rng.integers(0, 10**12)), int(rng.integers(1, 10**12))) * Fr(10) ** int(
            rng.integers(-20, 20))
        assert_correctly_rounded_sqrt(sqrt_fraction(q), q, 1)
        if q > 0:
            assert log_fraction(q) == pytest.approx(math.log(float(q)), rel=1e-15, abs=1e-300)
    assert log_fraction(Fr(10**30 + 1, 10**30)) == pytest.approx(1e-30, rel=1e-15)
