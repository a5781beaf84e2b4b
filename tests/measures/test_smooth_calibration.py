"""Smooth ECE against relplot and ICI, E50, E90, Emax against R's ``loess``: R's numbers
stored in tests/data/r/ (the default suite) and run live through ``Rscript`` (marker ``r``,
``make test-r``; tests/r_references.py)."""

from __future__ import annotations

import math
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import measurelab as ml
from measurelab.measures.calibration._loess import kd_vertices, loess_fit
from measurelab.measures.calibration.loess import loess_curve
from measurelab.measures.calibration.smooth import smece_bandwidth
from measurelab.stats.scoretable import ScoreTable
from tests.r_references import SOURCES, reference, rscript

ICI = ["ici", "e50", "e90", "emax"]


def _data(seed: int, n: int, grid: int | None = None, kind: str = "shift"):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 3, n)
    if grid is not None:
        p = np.round(p * grid) / grid
    truth = {"calibrated": p, "shift": np.clip(p + 0.1, 0, 1),
             "over": 0.5 + 0.6 * (p - 0.5)}[kind]
    return (rng.random(n) < truth).astype(int), p


# ------------------------------------------------------------------------ smooth ECE
@pytest.mark.parametrize("n", [5, 60, 400, 5000])
@pytest.mark.parametrize("kind", ["calibrated", "shift", "over"])
def test_smece_equals_relplot(n, kind):
    relplot = pytest.importorskip("relplot")
    for seed, grid in ((0, None), (1, 20)):
        y, p = _data(seed + n, n, grid, kind)
        want, width = relplot.smECE(p.astype(float), y.astype(float), return_width=True)
        assert ml.metrics.smece(y, p) == pytest.approx(want, abs=1e-9)
        assert smece_bandwidth(ScoreTable.from_arrays(y == 1, p)) == width


def test_smece_at_every_bandwidth_equals_relplot():
    """smECE_σ itself, on relplot's grids (odd and even sizes, σ below 0.01 too)."""
    relplot = pytest.importorskip("relplot.metrics")
    from measurelab.measures.calibration.smooth import _Smoother

    y, p = _data(12, 3000, None, "over")
    t = ScoreTable.from_arrays(y == 1, p)
    sm = _Smoother(t.scores, t.pos[None], t.neg[None])
    for sigma in np.linspace(0.0011, 0.4, 60):
        want = relplot.smooth_ece(p.astype(float), y.astype(float), sigma)
        assert sm.values(np.array([sigma]), np.array([0]))[0] == pytest.approx(want, abs=1e-12)


def test_smece_whole_weights_are_repeated_cases():
    relplot = pytest.importorskip("relplot")
    y, p = _data(3, 300, 25)
    w = np.random.default_rng(4).integers(1, 4, 300)
    want = relplot.smECE(np.repeat(p, w).astype(float), np.repeat(y, w).astype(float))
    assert ml.metrics.smece(y, p, sample_weight=w) == pytest.approx(want, abs=1e-9)


def test_smece_top_label_equals_relplot_on_confidences():
    relplot = pytest.importorskip("relplot")
    rng = np.random.default_rng(8)
    n, k = 500, 4
    logits = rng.normal(size=(n, k)) * 1.5
    y = np.array([rng.choice(k, p=np.exp(row) / np.exp(row).sum()) for row in logits * 0.7])
    P = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    conf, correct = relplot.multiclass_logits_to_confidences(P, y, probs=True)
    assert ml.metrics.smece(y, P) == pytest.approx(relplot.smECE(conf, correct), abs=1e-9)


def test_smece_of_a_perfect_model_is_zero_and_in_range():
    y = np.array([0, 1, 1, 0])
    assert ml.metrics.smece(y, y.astype(float)) == 0.0
    assert 0 <= ml.metrics.smece([0, 1], [1.0, 0.0]) <= 1


# ------------------------------------------------------------------------ R's loess
def _run_r(tmp_path: Path, sets: list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]):
    """R's loess(y ~ p) (defaults) on each data set (whole weights: the rows repeated),
    its fitted values and ICI, E50, E90, Emax as Austin & Steyerberg compute them, from
    the fit clipped to [0, 1] (R's loess does not clip; measurelab's curve is clipped)."""
    for i, (y, p, w) in enumerate(sets):
        reps = np.ones(y.size, dtype=int) if w is None else w.astype(int)
        np.savetxt(tmp_path / f"d{i}.csv", np.column_stack([np.repeat(y, reps),
                                                           np.repeat(p, reps)]),
                   delimiter=",", fmt="%.17g")
    script = tmp_path / "fit.R"
    script.write_text(
        f"for (i in 0:{len(sets) - 1}) {{\n"
        f"  d <- read.csv(file.path('{tmp_path}', paste0('d', i, '.csv')), header = FALSE,"
        "                 col.names = c('y', 'p'))\n"
        "  f <- predict(loess(y ~ p, data = d), newdata = d$p)\n"
        "  e <- abs(pmin(pmax(f, 0), 1) - d$p)\n"
        "  s <- c(mean(e), median(e), quantile(e, 0.9), max(e))\n"
        f"  write(sprintf('%.17g', f), file.path('{tmp_path}', paste0('f', i, '.txt')))\n"
        f"  write(sprintf('%.17g', s), file.path('{tmp_path}', paste0('s', i, '.txt')))\n"
        "}\n")
    subprocess.run([rscript(), str(script)], check=True, capture_output=True, timeout=120)
    return [(np.loadtxt(tmp_path / f"f{i}.txt"), np.loadtxt(tmp_path / f"s{i}.txt"))
            for i in range(len(sets))]


def _sets():
    out = []
    for seed, (n, grid, kind) in enumerate([(50, None, "calibrated"), (300, None, "shift"),
                                            (1000, None, "over"), (400, 10, "shift"),
                                            (250, 50, "over"), (30, 8, "calibrated"),
                                            (2000, 100, "calibrated")]):
        y, p = _data(100 + seed, n, grid, kind)
        out.append((y, p, None))
    y, p = _data(7, 150, 20, "over")  # whole weights: the rows repeated in R
    out.append((y, p, np.random.default_rng(9).integers(1, 4, 150).astype(float)))
    return out


def r_loess(tmp: Path) -> list[list[list[float]]]:
    """R's loess fits and ICI, E50, E90, Emax on :func:`_sets`."""
    return [[f.tolist(), st.tolist()] for f, st in _run_r(tmp, _sets())]


def r_loess_naive_bayes(tmp: Path) -> list[list[float]]:
    """R's loess fit and ICI, E50, E90, Emax on :func:`_naive_bayes`."""
    y, p = _naive_bayes()
    (fitted, stats), = _run_r(tmp, [(y, p, None)])
    return [fitted.tolist(), stats.tolist()]


@pytest.mark.parametrize("source", SOURCES)
def test_ici_family_equals_r_loess(source, tmp_path):
    sets = _sets()
    outside = 0
    fits = [(np.array(f), np.array(st)) for f, st in reference("loess", source, tmp_path)]
    for (y, p, w), (fitted, stats) in zip(sets, fits, strict=True):
        t = ScoreTable.from_arrays(y == 1, p, w)
        x, m, fit = loess_curve(t)
        reps = np.ones(y.size, dtype=int) if w is None else w.astype(int)
        rows = np.searchsorted(x, np.repeat(p, reps))
        # R's own fit, unclipped, and the curve: R's fit clipped to [0, 1]
        raw = loess_fit(x, m, t.pos[t.pos + t.neg > 0] / m)
        np.testing.assert_allclose(raw[rows], fitted, rtol=0, atol=1e-9)
        np.testing.assert_allclose(fit[rows], np.clip(fitted, 0, 1), rtol=0, atol=1e-9)
        outside += int(np.any((fitted < 0) | (fitted > 1)))
        got = ml.evaluate(y, p, sample_weight=w, measures=ICI)
        # the issue's tolerance is max(0.002, 5 %); the implementation follows R's
        # algorithm, so the values agree to rounding
        np.testing.assert_allclose([got[m] for m in ICI], stats, rtol=0, atol=1e-9)
    assert outside >= 1  # the clipping is exercised: R's fit leaves [0, 1] on some set


def test_loess_reproduces_a_quadratic_and_r_tree_details():
    x = np.linspace(0, 1, 40)
    fit = loess_fit(x, np.ones(40), 0.2 + 0.5 * x - 0.3 * x * x)
    np.testing.assert_allclose(fit, 0.2 + 0.5 * x - 0.3 * x * x, atol=1e-12)
    # 40 cases: fc = floor(40·0.75·0.2) = 6; the box widened by 0.5 % of the range
    v = kd_vertices(x, np.ones(40))
    assert v[0] == pytest.approx(-0.005) and v[-1] == pytest.approx(1.005)
    assert v.size == 9  # splits at the median case (positions 20, 10, 30, 5, 15, ...)
    # ties: a split moves to the nearest boundary between distinct values, so the split
    # points are data values (R's comparison above covers the tied data sets)
    xt = np.array([0.1, 0.2, 0.3])
    vt = kd_vertices(xt, np.array([3.0, 10.0, 3.0]))
    assert set(vt[1:-1].tolist()) <= set(xt.tolist())


def test_ici_undefined_where_r_fails():
    # fewer than 4 cases in the span (R: "span too small")
    with pytest.warns(ml.UndefinedMeasureWarning, match="R's loess"):
        assert math.isnan(ml.metrics.ici([0, 1, 1, 0, 1], [0.1, 0.4, 0.5, 0.7, 0.9]))
    # a tie group of at least 75 % of the cases at a vertex: zero-width neighbourhood
    y = [0, 1] * 10 + [1]
    p = [0.5] * 20 + [0.9]
    with pytest.warns(ml.UndefinedMeasureWarning):
        assert math.isnan(ml.metrics.e90(y, p))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        blk = ml.registry.get("ici").compute_block
        from measurelab.stats.block import BlockStats, TableBlock

        t = ScoreTable.from_arrays(np.array(y) == 1, np.array(p))
        assert np.isnan(blk(BlockStats(TableBlock.of_table(t)))).all()


def test_perfect_predictions_have_zero_ici():
    y = np.array([0, 1] * 30 + [0] * 20)
    r = ml.evaluate(y, y.astype(float), measures=ICI)
    assert [r[m] for m in ICI] == [0.0, 0.0, 0.0, 0.0]


# ------------------------------------------------- the linear-time loess, the clipped curve
def _loess_by_definition(x, m, ybar, span=0.75):
    """R's loess from its definition, the slow way: at every vertex the distances to all
    rows sorted, the nf-th nearest case, tricube weights, least squares through the
    pseudo-inverse of the design with unit-norm columns (singular values below 100·eps of
    the largest dropped), then the cubic Hermite surface."""
    integer = bool(np.array_equal(m, np.round(m)))
    total = float(m.sum())
    nf = min(math.floor(total * span) if integer else total * span, total)
    verts = kd_vertices(x, m, span, 0.2, integer)
    vals, slopes = [], []
    for q in verts:
        d = np.abs(x - q)
        order = np.argsort(d, kind="stable")
        cum = np.cumsum(m[order])
        rho = d[order][min(int(np.sum(cum < nf)), x.size - 1)]
        assert rho > 0
        w = np.where(d < rho, m * (1 - (d / rho) ** 3) ** 3, 0.0)
        design = np.sqrt(w)[:, None] * np.stack([np.ones_like(x), x - q, (x - q) ** 2], 1)
        norms = np.linalg.norm(design, axis=0)
        norms[norms == 0] = 1.0
        coef = np.linalg.pinv(design / norms, rcond=100 * np.finfo(float).eps) @ (
            np.sqrt(w) * ybar) / norms
        vals.append(coef[0])
        slopes.append(coef[1])
    vals, slopes = np.array(vals), np.array(slopes)
    j = np.clip(np.searchsorted(verts, x), 1, verts.size - 1)
    h = (x - verts[j - 1]) / (verts[j] - verts[j - 1])
    return ((1 - h) ** 2 * (1 + 2 * h) * vals[j - 1] + h * h * (3 - 2 * h) * vals[j]
            + (h * (1 - h) ** 2 * slopes[j - 1] + h * h * (h - 1) * slopes[j])
            * (verts[j] - verts[j - 1]))


@pytest.mark.parametrize("seed", range(12))
def test_loess_equals_its_definition(seed):
    """Neighbourhoods found by binary searches and fits from eight weighted sums equal the
    fit from sorted distances and the design's pseudo-inverse: ties, whole and real
    weights, extreme probabilities (R's comparison above covers whole weights)."""
    rng = np.random.default_rng(300 + seed)
    n = int(rng.integers(20, 1500))
    p = rng.beta(0.4, 0.4, n) if seed % 2 else rng.beta(2, 3, n)
    if seed % 3 == 0:
        p = np.round(p, 2)
    y = rng.random(n) < np.clip(1.3 * p - 0.15, 0, 1)
    w = [None, rng.integers(1, 5, n).astype(float), rng.uniform(0.1, 2.0, n)][seed % 3]
    t = ScoreTable.from_arrays(y, p, w)
    x, m, _ = loess_curve(t)
    ybar = t.pos / (t.pos + t.neg)
    np.testing.assert_allclose(loess_fit(x, m, ybar), _loess_by_definition(x, m, ybar),
                               rtol=0, atol=1e-10)


def test_a_degenerate_neighbourhood_keeps_rs_pseudo_inverse():
    """Two distinct values hold almost every case: at the vertices whose neighbourhood
    has fewer than three rows the local quadratic is rank-deficient, and the fit is the
    pseudo-inverse's, as R's (the definition's route)."""
    x = np.array([0.2, 0.21, 0.5, 0.9])
    m = np.array([40.0, 1.0, 40.0, 1.0])
    ybar = np.array([0.1, 1.0, 0.6, 0.0])
    np.testing.assert_allclose(loess_fit(x, m, ybar), _loess_by_definition(x, m, ybar),
                               rtol=0, atol=1e-10)


def _naive_bayes():
    """Test-set probabilities of Gaussian naive Bayes on the ionosphere data (half for
    training): the extreme, over-confident probabilities (a third within 1e-6 of 0 or 1)
    on which R's loess curve leaves [0, 1]."""
    from sklearn.naive_bayes import GaussianNB

    from measurelab.io import datasets

    X, target = datasets.load("ionosphere")
    X = X.to_numpy(dtype=float)
    y = (target == target.value_counts().index[-1]).to_numpy().astype(int)
    order = np.random.default_rng(0).permutation(y.size)
    train, test = order[: y.size // 2], order[y.size // 2:]
    return y[test], GaussianNB().fit(X[train], y[train]).predict_proba(X[test])[:, 1]


@pytest.mark.parametrize("source", SOURCES)
def test_naive_bayes_extremes_stay_in_the_unit_interval(source, tmp_path):
    y, p = _naive_bayes()
    assert np.mean((p < 1e-6) | (p > 1 - 1e-6)) > 0.3  # extreme probabilities
    t = ScoreTable.from_arrays(y == 1, p)
    x, m, fit = loess_curve(t)
    raw = loess_fit(x, m, t.pos / m)
    assert raw.min() < -0.01 or raw.max() > 1.01  # R's curve leaves [0, 1] here
    np.testing.assert_array_equal(fit, np.clip(raw, 0, 1))
    got = ml.evaluate(y, p, measures=ICI)
    err = np.abs(x - np.clip(raw, 0, 1))  # at each distinct p, which m cases share
    want = [float(np.sum(m * err) / m.sum()), _type7(err, m, 0.5), _type7(err, m, 0.9),
            err.max()]
    np.testing.assert_allclose([got[k] for k in ICI], want, rtol=0, atol=1e-15)
    assert all(0 <= got[k] <= 1 for k in ICI)
    # and R's numbers from its clipped curve
    fitted, stats = (np.array(v) for v in reference("loess_naive_bayes", source, tmp_path))
    np.testing.assert_allclose(raw[np.searchsorted(x, p)], fitted, rtol=0, atol=1e-9)
    np.testing.assert_allclose([got[k] for k in ICI], stats, rtol=0, atol=1e-9)


def _type7(values, weights, q):
    """R's quantile(type 7) of value i repeated weights[i] times, by sorting the cases:
    h = (N − 1)·q, the cases at ⌊h⌋ and ⌊h⌋ + 1 mixed as R mixes them."""
    cases = np.sort(np.repeat(values, weights.astype(int)))
    h = (cases.size - 1) * q
    lo = math.floor(h)
    a, b = float(cases[lo]), float(cases[min(lo + 1, cases.size - 1)])
    return a if h == lo or a == b else (1 - (h - lo)) * a + (h - lo) * b


@pytest.mark.parametrize("seed", range(8))
def test_percentiles_equal_sorting_every_case(seed):
    """E50 and E90 find their cases by counting errors into bins; with many equal errors
    (perfect and clipped predictions), whole weights and one crowded bin they equal the
    percentiles of the expanded, sorted cases exactly."""
    from measurelab.measures.calibration._loess import Surface
    from measurelab.measures.calibration.loess import _summaries

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    s = np.sort(rng.choice(np.linspace(0, 1, 2001), n, replace=False))
    pos = rng.integers(0, 3, n).astype(float)
    neg = rng.integers(0, 3, n).astype(float)
    neg[pos + neg == 0] = 1.0
    # a curve whose errors repeat (flat pieces clipped to 0 and 1) or crowd one bin
    verts = np.array([-0.01, 0.3, 0.7, 1.01])
    surface = Surface(verts, np.array([-0.5, 0.3, 1.2, 1.5]) if seed % 2 else
                      np.array([1e-7, 0.3 + 1e-7, 0.7 + 1e-7, 1.0]), np.ones(4))
    got = _summaries(s, pos, neg, surface)
    err = np.abs(s - np.clip(_loess_surface_at(surface, s), 0, 1))
    m = pos + neg
    assert got["median"] == _type7(err, m, 0.5)
    assert got["p90"] == _type7(err, m, 0.9)
    assert got["max"] == err.max()
    assert got["mean"] == pytest.approx(np.sum(m * err) / m.sum(), rel=1e-14)


def _loess_surface_at(surface, s):
    from measurelab.measures.calibration._loess import surface_at

    return surface_at(surface, s)


_EXTREME = st.sampled_from([0.0, 1.0, 1e-300, 1e-12, 1 - 1e-12, 0.5, 1e-6, 1 - 1e-6])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.one_of(_EXTREME, st.floats(0, 1)),
                          st.sampled_from([1.0, 1.0, 2.0, 3.0, 0.5])),
                min_size=1, max_size=80),
       st.booleans())
def test_ici_family_lies_in_the_unit_interval(cases, weighted):
    """Whatever the probabilities (certain, extreme, tied) and weights: each of ICI, E50,
    E90 and Emax is undefined (NaN) or in [0, 1], and they are ordered as a mean, a
    median, a 90th percentile and a maximum of the same errors are."""
    y = np.array([c[0] for c in cases])
    p = np.array([c[1] for c in cases])
    w = np.array([c[2] for c in cases]) if weighted else None
    if not y.any() or y.all():
        y[0] = not y[0]  # both classes
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ml.evaluate(y, p, sample_weight=w, measures=ICI)
    values = [r[k] for k in ICI]
    if any(math.isnan(v) for v in values):
        assert all(math.isnan(v) for v in values)
        return
    assert all(0.0 <= v <= 1.0 for v in values), values
    ici, e50, e90, emax = values
    assert e50 <= e90 <= emax and ici <= emax


def test_percentiles_of_decimal_weights_do_not_depend_on_the_order_of_the_sums():
    """Weights in tenths add up to a whole number or one ulp beside it depending on the
    order of the additions (here: two chunks merged); E50's position, a whole number of
    cases, is decided on the rounded cumulative weights, so both orders give one value
    (before: 0.3167 against 0.3177; found by tests/stats/test_merge_property.py)."""
    y = np.zeros(32, dtype=bool)
    y[[10, 11, 14, 17]] = True
    s = np.array([0.6, 0.4] + [0.0] * 5 + [0.2, 0.4, 0.0, 0.4] + [0.0] * 5 + [0.4, 0.2, 0.0,
                 0.0, 0.2, 0.2] + [0.0] * 6 + [0.2] * 4)
    w = np.array([0.1, 0.3] + [0.1] * 12 + [0.7, 0.1, 0.7, 0.1, 0.1, 0.1, 0.2, 0.3]
                 + [0.1] * 8 + [0.2, 0.7])
    whole = ScoreTable.from_arrays(y, s, w)
    rest = np.r_[0, 2:32]  # row 1 alone, then the others
    parts = ScoreTable.from_arrays(y[[1]], s[[1]], w[[1]]).merge(
        ScoreTable.from_arrays(y[rest], s[rest], w[rest]))
    assert not np.array_equal(whole.neg, parts.neg)  # the sums differ in the last bit
    f = ml.registry.get("e50").formula
    assert f(whole) == pytest.approx(f(parts), rel=1e-14)
    assert ml.registry.get("e90").formula(whole) == pytest.approx(
        ml.registry.get("e90").formula(parts), rel=1e-14)
