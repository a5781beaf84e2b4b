"""The calibration slope and calibration-in-the-large against statsmodels' logistic GLM,
their undefined cases, the clipping of 0 and 1, and their ranking by the distance to the
target."""

import warnings

import numpy as np
import pytest

import measurelab as ml
from measurelab.exceptions import UndefinedMeasureWarning
from measurelab.measures.calibration.logistic import fit_block, information, logits
from measurelab.stats.block import TableBlock

sm = pytest.importorskip("statsmodels.api")


def _data(seed, n, *, a=0.3, b=0.7, weighted=True):
    rng = np.random.default_rng(seed)
    p = np.round(rng.uniform(0.02, 0.98, n), 2)   # ties: two decimals
    x = np.log(p / (1 - p))
    y = (rng.random(n) < 1 / (1 + np.exp(-(a + b * x)))).astype(int)
    w = rng.integers(1, 5, n).astype(float) if weighted else None
    return y, p, w


def _glm(y, p, w, *, offset):
    x = np.log(p / (1 - p))
    exog = np.ones((y.size, 1)) if offset else sm.add_constant(x)
    return sm.GLM(y, exog, family=sm.families.Binomial(), freq_weights=w,
                  offset=x if offset else None).fit(tol=1e-14, maxiter=200)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
def test_equal_statsmodels_glm(seed, weighted):
    y, p, w = _data(seed, [40, 150, 600, 3000, 90, 1000][seed], a=[0.3, -1, 0, 2, 0.5, 0][seed],
                    b=[0.7, 1.4, 1, 0.5, 2, 1][seed], weighted=weighted)
    slope = _glm(y, p, w, offset=False).params[1]
    citl = _glm(y, p, w, offset=True).params[0]
    assert ml.metrics.cal_slope(y, p, sample_weight=w) == pytest.approx(slope, abs=1e-6)
    assert ml.metrics.cal_intercept(y, p, sample_weight=w) == pytest.approx(citl, abs=1e-6)


def test_weights_are_frequencies():
    y, p, w = _data(11, 200)
    rep = np.repeat(np.arange(y.size), w.astype(int))
    for f in (ml.metrics.cal_slope, ml.metrics.cal_intercept):
        assert f(y, p, sample_weight=w) == pytest.approx(f(y[rep], p[rep]), abs=1e-10)


def test_information_equals_statsmodels_covariance():
    y, p, w = _data(3, 500)
    r = _glm(y, p, w, offset=False)
    t = ml.ScoreTable.from_arrays(y, p, sample_weight=w)
    a, b = r.params
    assert np.linalg.inv(information(t, a, b)) == pytest.approx(r.cov_params(), rel=1e-6)


def test_calibrated_values_near_targets():
    y, p, _ = _data(5, 20_000, a=0.0, b=1.0, weighted=False)
    assert ml.metrics.cal_slope(y, p) == pytest.approx(1.0, abs=0.05)
    assert ml.metrics.cal_intercept(y, p) == pytest.approx(0.0, abs=0.05)


@pytest.mark.parametrize("name", ["cal_slope", "cal_intercept"])
def test_one_class_is_undefined(name):
    with pytest.warns(UndefinedMeasureWarning, match="one class"):
        v = ml.evaluate([1, 1, 1], [0.2, 0.5, 0.7], measures=[name])[name]
    assert np.isnan(v)


def test_separation_gives_nan_with_a_warning():
    y = [0, 0, 0, 1, 1]
    with pytest.warns(UndefinedMeasureWarning, match="separation"):
        assert np.isnan(ml.metrics.cal_slope(y, [0.1, 0.2, 0.4, 0.4, 0.8]))   # quasi
    with pytest.warns(UndefinedMeasureWarning, match="separation"):
        assert np.isnan(ml.metrics.cal_slope(y, [0.7, 0.8, 0.9, 0.1, 0.2]))   # reversed
    # the intercept is defined under separation (the offset fixes the slope at 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v = ml.metrics.cal_intercept(y, [0.1, 0.2, 0.4, 0.6, 0.8])
    x = logits(np.array([0.1, 0.2, 0.4, 0.6, 0.8]))
    mu = 1 / (1 + np.exp(-(v + x)))
    assert mu.sum() == pytest.approx(2.0, abs=1e-12)   # the score equation: Σ μ = Σ y


def test_scores_of_zero_and_one_are_clipped_with_a_warning():
    y = np.array([0, 1, 0, 1, 1, 0, 1])
    p = np.array([0.0, 0.3, 0.6, 0.7, 1.0, 0.2, 0.5])
    with pytest.warns(UserWarning, match="clipped"):
        v = ml.metrics.cal_slope(y, p)
    q = np.clip(p, np.finfo(float).eps, 1 - np.finfo(float).eps)
    assert v == pytest.approx(_glm(y, q, None, offset=False).params[1], abs=1e-6)


def test_block_rows_equal_the_scalar_fits():
    y, p, w = _data(2, 300)
    t = ml.ScoreTable.from_arrays(y, p, sample_weight=w)
    rng = np.random.default_rng(0)
    mult = rng.poisson(1.0, (5, t.size)).astype(float)
    blk = TableBlock(t.scores, t.pos * mult, t.neg * mult)
    _a, b = fit_block(blk)
    for i in range(5):
        row = blk.table(i)
        assert b[i] == pytest.approx(ml.measures.registry.get("cal_slope").formula(row),
                                     abs=1e-12)


def test_compare_classifiers_ranks_by_distance_to_the_target():
    """A slope of 1.02 ranks above 0.7 and 1.4 (not by direction: 1.4 is the largest)."""
    rng = np.random.default_rng(8)
    n = 20_000
    x = rng.normal(0, 1.5, n)
    y = rng.random(n) < 1 / (1 + np.exp(-x))

    def model(beta):
        return 1 / (1 + np.exp(-x / beta))   # logit p = x/β: the slope of y on it is β

    scores = {"steep": model(0.7), "near": model(1.02), "flat": model(1.4)}
    c = ml.compare_classifiers(y, scores, measures=["cal_slope", "cal_intercept"], ci=None)
    vals = {m: ml.metrics.cal_slope(y, s) for m, s in scores.items()}
    assert vals["steep"] == pytest.approx(0.7, abs=0.06)
    assert vals["flat"] == pytest.approx(1.4, abs=0.1)
    prefs = c.preferences().set_index("measure")
    assert prefs.loc["cal_slope", "prefers"] == "near"
    assert prefs.loc["cal_slope", "direction"] == "closer to 1"


def test_influence_interval_is_statsmodels_sandwich_wald():
    """evaluate(ci=): the default interval of each measure is the influence method's, the
    fit ± z·SE with statsmodels' robust (HC0, sandwich) standard error."""
    from measurelab.inference.evidence import plain_method

    y, p, _ = _data(4, 800, a=0.2, b=0.8, weighted=False)
    r = ml.evaluate(y, p, measures=["cal_slope", "cal_intercept"],
                    ci=0.95).intervals().set_index("measure")
    assert {plain_method(m) for m in r["method"]} == {"influence"}
    x = np.log(p / (1 - p))
    z = 1.959963984540054
    for name, exog, off, j in (("cal_slope", sm.add_constant(x), None, 1),
                               ("cal_intercept", np.ones((y.size, 1)), x, 0)):
        fit = sm.GLM(y, exog, family=sm.families.Binomial(), offset=off).fit(
            tol=1e-14, cov_type="HC0")
        est, se = fit.params[j], fit.bse[j]
        assert r.loc[name, "value"] == pytest.approx(est, abs=1e-8)
        assert r.loc[name, "lo"] == pytest.approx(est - z * se, abs=1e-6)
        assert r.loc[name, "hi"] == pytest.approx(est + z * se, abs=1e-6)


def test_paired_influence_difference_of_distances():
    """The paired row of a measure with a target is |a − t| − |b − t|, its SE from the
    signed influence: equal to the delta method on statsmodels' joint sandwich of the two
    fits (stacked estimating equations)."""
    rng = np.random.default_rng(9)
    n = 1500
    q = rng.beta(1, 3, n)
    y = (rng.random(n) < q).astype(int)
    lq = np.log(q / (1 - q))
    sb = 1 / (1 + np.exp(-(1.5 * lq + 0.5 * rng.standard_normal(n))))
    c = ml.compare_classifiers(y, {"a": q, "b": sb}, measures=["cal_slope"], ci=0.95,
                               ci_method="influence")
    row = c.tests().iloc[0]
    fits, ifs = [], []
    for s in (q, sb):
        x = np.log(s / (1 - s))
        X = sm.add_constant(x)
        f = sm.GLM(y, X, family=sm.families.Binomial()).fit(tol=1e-14)
        mu = f.fittedvalues
        info = (X * (mu * (1 - mu))[:, None]).T @ X
        ifs.append((np.linalg.inv(info) @ (X * (y - mu)[:, None]).T)[1])   # per case
        fits.append(f.params[1])
    sa, sb_ = np.sign(fits[0] - 1), np.sign(fits[1] - 1)
    d = sa * ifs[0] - sb_ * ifs[1]
    se = np.sqrt(np.sum((d - d.mean()) ** 2))
    assert row["diff"] == pytest.approx(abs(fits[0] - 1) - abs(fits[1] - 1), abs=1e-8)
    assert row["hi"] - row["diff"] == pytest.approx(1.959963984540054 * se, rel=1e-6)


def test_calibration_panel_states_slope_and_intercept_with_intervals():
    rng = np.random.default_rng(2)
    n = 400
    y = rng.integers(0, 2, n)
    p = 1 / (1 + np.exp(-(1.2 * y + rng.normal(size=n) - 0.6)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ml.compare_classifiers(y, {"m": p}, measures=["auc"], n_boot=200)
        fig = cmp.plot_calibration()
    text = "\n".join(t.get_text() for ax in fig.axes for t in ax.texts)
    iv = ml.evaluate(y, p, measures=["cal_slope", "cal_intercept"], ci=0.95,
                     ci_method="influence").intervals().set_index("measure")
    for name, label in (("cal_slope", "slope"), ("cal_intercept", "intercept")):
        v, lo, hi = iv.loc[name, ["value", "lo", "hi"]]
        assert f"{label} {v:.3f} (95% CI {lo:.3f} to {hi:.3f})" in text


def test_intercept_with_scores_at_zero_and_one_solves_its_score_equation():
    """Scores of exactly 0 and 1 (logit ±36.04 after clipping) put the maximum far from the
    start, where the information is ~e^−36: the fit still reaches the root of
    Σ w·expit(α + x) = Σ w·y (found here by bisection)."""
    from scipy.optimize import brentq

    s = np.array([0.0, 0.5, 1.0])
    pos, neg = np.array([3.19535022, 0.0, 0.3653161]), np.array([0.0, 0.0, 12.24421355])
    t = ml.ScoreTable(s, pos, neg)
    x, w = logits(s), pos + neg
    root = brentq(lambda a: (w / (1 + np.exp(-(a + x)))).sum() - pos.sum(), -200, 200,
                  xtol=1e-14)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert ml.measures.registry.get("cal_intercept").formula(t) == pytest.approx(
            root, abs=1e-9)


def test_unpaired_difference_adds_the_two_variances():
    """Two test sets: |a − 1| − |b − 1| ± z·√(SE_a² + SE_b²), each SE statsmodels' HC0."""
    rng = np.random.default_rng(3)
    sets, ses, slopes = [], [], []
    for n, g in ((800, 1.0), (900, 1.5)):
        q = rng.beta(1, 3, n)
        y = (rng.random(n) < q).astype(int)
        s = 1 / (1 + np.exp(-g * np.log(q / (1 - q))))
        fit = sm.GLM(y, sm.add_constant(np.log(s / (1 - s))), family=sm.families.Binomial()
                     ).fit(tol=1e-14, cov_type="HC0")
        sets.append((y, s))
        ses.append(fit.bse[1])
        slopes.append(fit.params[1])
    u = ml.compare_unpaired(*sets[0], *sets[1], measures=["cal_slope"])
    row = u.tests().iloc[0]
    assert row["diff"] == pytest.approx(abs(slopes[0] - 1) - abs(slopes[1] - 1), abs=1e-8)
    half = 1.959963984540054 * np.hypot(*ses)
    assert (row["lo"], row["hi"]) == pytest.approx((row["diff"] - half, row["diff"] + half),
                                                   abs=1e-6)
