"""The formulas docs/METHODS.md states, recomputed here from their definitions and compared
with measurelab: the binary measures (docs/METHODS.md#confusion-measures, #likelihood,
#oarp), the Sokolova identities, the rank measures by enumerating every ordering of the tie
groups (#rank-measures), the probability and k-class measures (#probability-measures,
#multiclass), CAL with ties (#cal-ties), the intervals and tests of #comparing, Demšar's
statistics (#demsar), the correlated and the corrected resampled t (#correlated-t), the
debiased calibration estimates (#debiased-calibration) and the CORP identity (#corp).

Written independently of the code (plain loops over the definitions, scipy and
scikit-learn), so a change to a formula shows here and in METHODS.md together."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from scipy.stats import rankdata
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import (
    average_precision_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    log_loss,
    matthews_corrcoef,
    roc_auc_score,
)

import measurelab as ml
from measurelab.inference import demsar, holm, mcnemar_exact, paired_ttest, proportion_interval
from measurelab.inference.delong import delong_interval, delong_unpaired, delong_variance
from measurelab.measures.calibration.debiased import estimates
from measurelab.stats.scoretable import ScoreTable


def close(a, b, tol=1e-12):
    assert math.isclose(float(a), float(b), rel_tol=tol, abs_tol=tol), (a, b)


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(1)
    y = rng.random(60) < 0.4
    s = np.clip(np.round(rng.random(60), 1), 0, 1)  # ties
    return y, s


# a small list with tie groups, every ordering of which is enumerated
YS = np.array([1, 0, 1, 1, 0, 0, 1, 0])
SS = np.array([.9, .9, .9, .5, .5, .2, .2, .1])


def _orderings(ss, descending=True):
    groups = [np.flatnonzero(ss == v) for v in sorted(set(ss), reverse=descending)]
    for perms in itertools.product(*[list(itertools.permutations(g)) for g in groups]):
        yield np.concatenate(perms)


def test_confusion_measures_and_identities(binary):
    y, s = binary
    pred = s > 0.5
    tp = int((pred & y).sum())
    fp = int((pred & ~y).sum())
    fn = int((~pred & y).sum())
    tn = int((~pred & ~y).sum())
    r = ml.evaluate(y.astype(int), s)
    N = tp + fp + fn + tn
    sens = tp / (tp + fn)
    spec = tn / (tn + fp)
    prec = tp / (tp + fp)
    npv = tn / (tn + fn)
    close(r["acc"], (tp + tn) / N)
    close(r["err"], (fp + fn) / N)
    close(r["sens"], sens)
    close(r["spec"], spec)
    close(r["prec"], prec)
    close(r["npv"], npv)
    b = 2.0
    fb = ml.evaluate(y.astype(int), s, measures=["f_beta@2"])["f_beta@2"]
    close(fb, (1 + b * b) * prec * sens / (b * b * prec + sens))
    close(r["f1"], 2 * tp / (2 * tp + fn + fp))
    close(r["bacc"], (sens + spec) / 2)
    close(r["gmean"], math.sqrt(sens * spec))
    close(r["youden"], sens + spec - 1)
    close(r["lr_pos"], sens / (1 - spec))
    close(r["lr_neg"], (1 - sens) / spec)
    dp = math.sqrt(3) / math.pi * (math.log(sens / (1 - sens)) + math.log(spec / (1 - spec)))
    close(r["dp"], dp)
    close(dp, math.sqrt(3) / math.pi * math.log(r["lr_pos"] / r["lr_neg"]))
    ri = abs(spec - sens) / (spec + sens)
    close(r["ri"], ri)
    close(r["op"], (tp + tn) / N - ri)
    avri = (abs(prec - spec) / (prec + spec) + abs(npv - sens) / (npv + sens)) / 2
    close(r["avri"], avri)
    close(r["oarp"], (tp + tn) / N - avri / 10)
    mcc = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    close(r["mcc"], mcc)
    po = (tp + tn) / N
    pe = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / N**2
    close(r["kappa"], (po - pe) / (1 - pe))
    # Sokolova's identities: sens, spec and Youden from the two likelihood ratios
    lp, ln_ = r["lr_pos"], r["lr_neg"]
    close(sens, lp * (ln_ - 1) / (ln_ - lp))
    close(spec, (1 - lp) / (ln_ - lp))
    close(r["youden"], (lp - 1) * (ln_ - 1) / (ln_ - lp))


def test_rank_and_probability_measures(binary):
    y, s = binary
    r = ml.evaluate(y.astype(int), s)
    P = y.sum()
    Nn = (~y).sum()
    auc = sum((a > c) + 0.5 * (a == c) for a in s[y] for c in s[~y]) / (P * Nn)
    close(r["auc"], auc)
    rk = rankdata(s)
    close(r["auc"], (rk[y].sum() - P * (P + 1) / 2) / (P * Nn))
    close(r["ap"], average_precision_score(y, s))
    thr = np.unique(s)[::-1]
    rec = [((s >= t) & y).sum() / P for t in thr]
    pre = [((s >= t) & y).sum() / (s >= t).sum() for t in thr]
    pts = list(zip(rec, pre, strict=True))
    ap11 = np.mean([max([p for rr, p in pts if rr >= i / 10 - 1e-12], default=0)
                    for i in range(11)])
    close(r["ap11"], ap11)
    close(r["brier"], np.mean((s - y) ** 2))
    close(r["rms"], math.sqrt(np.mean((s - y) ** 2)))
    close(r["mxe"], log_loss(y, s))
    close(r["sar"], (r["acc"] + r["auc"] + 1 - r["rms"]) / 3)
    z = ((y - s) * (1 - 2 * s)).sum() / math.sqrt(((1 - 2 * s) ** 2 * s * (1 - s)).sum())
    close(ml.evaluate(y, s, measures=["spiegelhalter_z"])["spiegelhalter_z"], z)


def test_tie_expectations_by_enumerating_orderings():
    def apr_order(yy):
        return (np.cumsum(yy) / np.arange(1, yy.size + 1))[yy.astype(bool)].mean()

    orders = list(_orderings(SS))
    close(ml.metrics.apr(YS, SS), np.mean([apr_order(YS[o]) for o in orders]))
    P = YS.sum()
    close(ml.metrics.bep(YS, SS), np.mean([YS[o][:P].sum() / P for o in orders]))

    def top(k):
        return np.mean([YS[o][:k].sum() for o in orders])
    # q·N = 0.3·8 = 2.4: E[tp in the top 2] + 0.4·(E[tp in the top 3] − E[tp in the top 2])
    e = top(2) + 0.4 * (top(3) - top(2))
    close(ml.metrics.lift(YS, SS, q=0.3), e / P / 0.3)


def test_cal_with_ties_by_enumerating_orderings():
    ys = np.array([0, 1, 1, 0, 1, 0, 1, 1])
    ss = np.array([.1, .2, .2, .2, .6, .6, .9, .9])
    w = 3
    vals = []
    for o in _orderings(ss, descending=False):
        yy, sv = ys[o], ss[o]
        vals.append(np.mean([abs(sv[i:i + w].mean() - yy[i:i + w].mean())
                             for i in range(len(o) - w + 1)]))
    close(ml.metrics.cal(ys, ss, window=w), np.mean(vals), 1e-10)
    close(ml.metrics.cal(ys, ss, window=8), abs(ss.mean() - ys.mean()), 1e-10)  # one window


def test_multiclass_measures():
    rng = np.random.default_rng(1)
    rng.random(60)
    rng.random(60)  # the draws of the binary data came first
    n3 = 50
    y3 = rng.integers(0, 3, n3)
    P3 = rng.dirichlet(np.ones(3), n3)
    r3 = ml.evaluate(y3, P3, measures=["mxe", "brier", "rms", "auc", "acc", "mcc", "kappa",
                                       "bacc"])
    onehot = np.eye(3)[y3]
    close(r3["brier"], ((P3 - onehot) ** 2).sum(1).mean())
    close(r3["rms"], math.sqrt(((P3 - onehot) ** 2).sum() / (n3 * 3)))
    close(r3["mxe"], log_loss(y3, P3))
    close(r3["auc"], roc_auc_score(y3, P3, multi_class="ovo"))
    pred3 = P3.argmax(1)
    close(r3["mcc"], matthews_corrcoef(y3, pred3))
    close(r3["kappa"], cohen_kappa_score(y3, pred3))
    close(r3["bacc"], balanced_accuracy_score(y3, pred3))


def test_two_columns_give_the_binary_brier_and_rms(binary):
    y, p = binary
    r2 = ml.evaluate(y.astype(int), np.c_[1 - p, p], measures=["brier", "rms"])
    close(r2["brier"], np.mean((p - y) ** 2))
    close(r2["rms"], math.sqrt(np.mean((p - y) ** 2)))


def test_wilson_mcnemar_holm():
    z = stats.norm.ppf(0.975)
    k, n = 37, 50
    ph = k / n
    c = (ph + z * z / (2 * n)) / (1 + z * z / n)
    h = z / (1 + z * z / n) * math.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n))
    lo, hi = proportion_interval(k, n)
    close(lo, c - h, 1e-10)
    close(hi, c + h, 1e-10)
    close(mcnemar_exact(3, 12), min(1, 2 * stats.binom.cdf(3, 15, 0.5)), 1e-10)
    close(holm([0.01, 0.04, 0.03])[1], 0.06, 1e-10)


def _psi(a, b):
    return (a > b) + 0.5 * (a == b)


def test_delong_single_paired_and_unpaired():
    rng = np.random.default_rng(3)
    z = stats.norm.ppf(0.975)
    y = rng.random(80) < 0.45
    s = np.round(rng.normal(y * 1.0, 1), 1)
    t = ScoreTable.from_arrays(y, s)
    X, Y = s[y], s[~y]
    V10 = np.array([_psi(x, Y).mean() for x in X])
    V01 = np.array([_psi(X, v).mean() for v in Y])
    A = V10.mean()
    var = V10.var(ddof=1) / X.size + V01.var(ddof=1) / Y.size
    r = delong_interval(t)
    close(r.value, A, 1e-10)
    close(r.se, math.sqrt(var), 1e-10)
    lg = math.log(A / (1 - A))
    hw = z * math.sqrt(var) / (A * (1 - A))
    close(r.lo, 1 / (1 + math.exp(-(lg - hw))), 1e-10)
    close(r.hi, 1 / (1 + math.exp(-(lg + hw))), 1e-10)
    # paired
    s2 = np.round(s + rng.normal(0, .7, s.size), 1)
    X2, Y2 = s2[y], s2[~y]
    W10 = np.array([_psi(x, Y2).mean() for x in X2])
    W01 = np.array([_psi(X2, v).mean() for v in Y2])
    row = ml.compare_classifiers(y, {"a": s, "b": s2}, measures=["auc"], n_boot=200).tests().iloc[0]
    S10 = np.cov(np.vstack([V10, W10]))
    S01 = np.cov(np.vstack([V01, W01]))
    v = ((S10[0, 0] + S10[1, 1] - 2 * S10[0, 1]) / X.size
         + (S01[0, 0] + S01[1, 1] - 2 * S01[0, 1]) / Y.size)
    zz = (A - W10.mean()) / math.sqrt(v)
    close(row["z"], zz, 1e-10)
    close(row["p"], 2 * stats.norm.sf(abs(zz)), 1e-10)
    # unpaired: Welch's degrees of freedom
    yb = rng.random(60) < 0.5
    sb = np.round(rng.normal(yb * 0.8, 1), 1)
    tb = ScoreTable.from_arrays(yb, sb)
    _, va = delong_variance(t)
    _, vb = delong_variance(tb)
    df = (va + vb) ** 2 / (va**2 / (t.total - 1) + vb**2 / (tb.total - 1))
    close(delong_unpaired(t, tb)["df"], df, 1e-10)


def test_demsar_statistics():
    rng = np.random.default_rng(4)
    tab = pd.DataFrame(rng.random((12, 4)), columns=list("ABCD"))
    d = demsar(tab)
    R = tab.rank(axis=1, ascending=False).mean()
    N, k = tab.shape
    chi = 12 * N / (k * (k + 1)) * ((R**2).sum() - k * (k + 1) ** 2 / 4)
    close(d.friedman.statistic, chi, 1e-10)
    close(d.iman_davenport.statistic, (N - 1) * chi / (N * (k - 1) - chi), 1e-10)
    q = stats.studentized_range.ppf(0.95, k, np.inf) / math.sqrt(2)
    close(d.cd, q * math.sqrt(k * (k + 1) / (6 * N)), 1e-10)


def test_correlated_and_corrected_resampled_t():
    rng = np.random.default_rng(5)
    a = rng.normal(0.8, 0.02, 50)
    b = a + rng.normal(0.01, 0.01, 50)
    res = ml.bayes_compare(a, b, rope=0.005, method="correlated-t", runs=5)
    dd = b - a
    kf = 10
    sc = math.sqrt(dd.var(ddof=1) * (1 / 50 + (1 / kf) / (1 - 1 / kf)))
    close(res.p_b_better, stats.t.sf(0.005, 49, dd.mean(), sc), 1e-10)
    rr = paired_ttest(b, a, corrected=True, test_train_ratio=1 / 9)
    close(rr.statistic, dd.mean() / math.sqrt((1 / 50 + 1 / 9) * dd.var(ddof=1)), 1e-10)


def _symcell(c):
    return np.copysign(np.maximum(np.ceil(np.abs(c) - 1e-9), 0), c)


@pytest.mark.parametrize("n", [40, 300, 2500])
def test_debiased_calibration_cells_and_estimates(n):
    rng = np.random.default_rng([5, n])
    q = rng.beta(2, 2, n)
    y = rng.random(n) < q
    p = np.clip(np.round(q**1.3 / (q**1.3 + (1 - q) ** 1.3), 3), 0, 1)
    t = ScoreTable.from_arrays(y, p)
    s, pos, neg = t.scores, t.pos, t.neg
    m = pos + neg
    N = m.sum()
    # cells: equal-mass bins crossed with a grid of the score, both symmetric around 1/2
    B = max(2, 2 * round(N**0.4 / 2))
    G = min(B, 20)
    mid = np.cumsum(m) - m / 2
    cells: dict = {}
    keys = zip(_symcell(mid * B / N - B / 2), _symcell((s - 0.5) * G), strict=True)
    for i, key in enumerate(keys):
        cells.setdefault(key, []).append(i)
    est = ll = 0.0
    for idx in map(np.array, cells.values()):
        w = m[idx].sum()
        if w <= 1:
            continue
        r = (s[idx] * m[idx] - pos[idx]).sum()
        r2 = (pos[idx] * (1 - s[idx]) ** 2 + neg[idx] * s[idx] ** 2).sum()
        est += w / N * (r * r - r2) / (w * (w - 1))
        yb = pos[idx].sum() / w
        sc = np.clip(s[idx], 2.2e-16, 1 - 2.2e-16)
        lsum = -(pos[idx] * np.log(sc) + neg[idx] * np.log1p(-sc)).sum()
        H = 0 if yb in (0, 1) else -(yb * math.log(yb) + (1 - yb) * math.log(1 - yb))
        ll += w / N * (lsum / w - H - 1 / (2 * w))
    e = estimates(t)
    close(e.brier_mcb[0], est, 1e-10)
    close(e.logloss_mcb[0], ll, 1e-10)
    close(ml.metrics.brier_mcb(y, p), max(est, 0), 1e-10)
    pi = pos.sum() / N
    close(e.brier_dsc[0], est + pi * (1 - pi) * N / (N - 1) - ((p - y) ** 2).mean(), 1e-10)
    Hpi = -(pi * math.log(pi) + (1 - pi) * math.log(1 - pi))
    close(e.logloss_dsc[0], ll + Hpi + 1 / (2 * N) - ml.metrics.mxe(y, p), 1e-10)


def test_corp_identity_against_isotonic_regression():
    rng = np.random.default_rng(6)
    q = rng.beta(2, 2, 500)
    y = rng.random(500) < q
    p = np.round(q, 2)
    d = ml.metrics.decompose_score(y, p)
    close(d.mcb - d.dsc + d.unc, d.score, 1e-10)
    r = IsotonicRegression(out_of_bounds="clip").fit(p, y).predict(p)
    close(d.mcb, ((p - y) ** 2).mean() - ((r - y) ** 2).mean(), 1e-10)
    close(d.unc, y.mean() * (1 - y.mean()), 1e-10)


def test_operating_point_measures_as_stated(binary):
    """#operating-point: the rates at every threshold by plain loops, the constraints as
    float comparisons, the partial area in case units with the crossing row's trapezoid."""
    y, s = binary
    P, N = int(y.sum()), int((~y).sum())
    ts = [*sorted(set(s.tolist()), reverse=True), -math.inf]
    tp = [int(sum(1 for a, b in zip(y, s, strict=True) if a and b > t)) for t in ts]
    fp = [int(sum(1 for a, b in zip(y, s, strict=True) if not a and b > t)) for t in ts]
    pts = [(0, 0), *zip(tp, fp, strict=True)]
    sens = [a / P for a, _ in pts]
    spec = [(N - b) / N for _, b in pts]
    prec = [a / (a + b) if a + b else None for a, b in pts]
    for x in (0.5, 0.8, 0.95):
        r = ml.evaluate(y, s, measures=[f"sens_at_spec@{x}", f"spec_at_sens@{x}",
                                        f"prec_at_recall@{x}", f"recall_at_prec@{x}"])
        close(r[f"sens_at_spec@{x}"], max(a for a, b in zip(sens, spec, strict=True)
                                         if b >= x))
        close(r[f"spec_at_sens@{x}"], max(b for a, b in zip(sens, spec, strict=True)
                                         if a >= x))
        close(r[f"prec_at_recall@{x}"], max(p for p, a in zip(prec, sens, strict=True)
                                           if p is not None and a >= x))
        ok = [a for p, a in zip(prec, sens, strict=True) if p is not None and p >= x]
        v = r[f"recall_at_prec@{x}"]
        assert (math.isnan(v) and not ok) or close(v, max(ok)) is None
    for f in (0.1, 0.3, 1.0):
        area = 0.0
        for (tp0, fp0), (tp1, fp1) in itertools.pairwise(pts):
            pos, neg = tp1 - tp0, fp1 - fp0
            if fp1 <= f * N:
                area += neg * (tp0 + pos / 2)
            elif fp0 < f * N:
                w = f * N - fp0
                area += w * (tp0 + w / neg * pos / 2)
        close(ml.metrics.pauc(y, s, max_fpr=f), area / (P * N))
        close(ml.metrics.spauc(y, s, max_fpr=f), roc_auc_score(y, s, max_fpr=f))
