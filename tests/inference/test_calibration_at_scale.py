"""The calibration test at scale (issue 41): the analytic test of brier_mcb against its
exact null moments, the comparison's switch from consistency resampling to it, and
``progress=False`` reaching every bar a comparison can show."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
from scipy.stats import chi2

import measurelab as ml
from measurelab import progress as progress_module
from measurelab.inference.calibration import (
    AUTO_MIN_CASES,
    AUTO_MIN_SMALLER,
    _cells,
    analytic_null,
    auto_method,
    calibration_table,
    calibration_test,
)
from measurelab.measures.calibration.debiased import binned
from measurelab.stats.scoretable import ScoreTable


# ------------------------------------------------------------ the definition, by hand
def _cells_by_definition(p: np.ndarray) -> np.ndarray:
    """The cells of the unbiased Brier miscalibration, from its definition
    (measures/calibration/debiased.py), for distinct probabilities ``p`` (one case each):
    B = the even number nearest n^0.4 (at least 2) equal-mass groups, the group of a case
    from the mid-point of its cumulative weight, counted outwards from the middle; a grid of
    min(B, 20) equal cells of [0, 1], counted outwards from ½ (a point on a cut belongs to
    the cell nearer the centre); a new cell wherever either changes along the sorted
    cases."""
    p = np.sort(p)
    n = p.size
    b = max(2, 2 * round(n ** 0.4 / 2))
    g = min(b, 20)

    def outward(x: float) -> int:  # unit cells (k − 1, k] above 0, their mirrors below
        k = math.ceil(abs(x) - 1e-9)
        return int(math.copysign(max(k, 0), x))

    mass = [outward((i + 0.5) * b / n - b / 2) for i in range(n)]
    grid = [outward((x - 0.5) * g) for x in p]
    cell, out = 0, []
    for i in range(n):
        if i and (mass[i] != mass[i - 1] or grid[i] != grid[i - 1]):
            cell += 1
        out.append(cell)
    return np.array(out)


def _theta_by_definition(y: np.ndarray, p: np.ndarray) -> float:
    """Σ over cells b of Σ_{i≠j in b} r_i r_j / (n (n_b − 1)), r = p − y: the mean over
    ordered pairs of distinct cases of a cell, weighted by the cell's share."""
    order = np.argsort(p)
    p, y = p[order], y[order].astype(float)
    cells = _cells_by_definition(p)
    r = p - y
    n = p.size
    total = 0.0
    for c in np.unique(cells):
        rc = r[cells == c]
        nb = rc.size
        if nb < 2:
            continue
        pairs = sum(rc[i] * rc[j] for i in range(nb) for j in range(nb) if i != j)
        total += pairs / (n * (nb - 1))
    return total


def _pvalue_by_definition(theta: float, var: float, k3: float) -> float:
    """The scaled χ² g·(χ²_h − h) with the null's variance and third cumulant:
    skewness γ = k3/var^1.5 = √(8/h), variance 2h·g²."""
    gamma = k3 / var ** 1.5
    h = 8.0 / gamma ** 2
    g = math.sqrt(var / (2.0 * h))
    return float(chi2.sf(theta / g + h, h))


def test_null_moments_are_exact_by_enumerating_every_label_vector():
    # 12 cases straddling ½ (B = 2 mass groups × 2 grid cells): the exact mean, variance
    # and third central moment of the statistic over all 2¹² label vectors under
    # y ~ Bernoulli(p), against analytic_null's formulas
    p = np.array([.04, .13, .22, .31, .38, .47, .52, .61, .66, .79, .88, .97])
    ys = np.array(list(itertools.product([0, 1], repeat=p.size)), dtype=bool)
    prob = np.prod(np.where(ys, p, 1 - p), axis=1)
    theta = np.array([_theta_by_definition(y, p) for y in ys])
    mean = float(prob @ theta)
    var = float(prob @ (theta - mean) ** 2)
    k3 = float(prob @ (theta - mean) ** 3)
    assert abs(mean) < 1e-15
    y = ys[1234]
    got_theta, got_var, got_k3 = analytic_null(ScoreTable.from_arrays(y, p))
    assert got_theta == pytest.approx(_theta_by_definition(y, p), abs=1e-15)
    assert got_var == pytest.approx(var, rel=1e-12)
    assert got_k3 == pytest.approx(k3, rel=1e-10)


def test_the_analytic_test_equals_its_definition():
    # 600 cases (B = 12 groups, a 12-cell grid): the statistic from the cells written
    # here, its null moments from the per-case sums, the p-value from the scaled χ²
    rng = np.random.default_rng(8)
    p = rng.uniform(0.02, 0.98, 600)
    truth = 1 / (1 + np.exp(-1.6 * np.log(p / (1 - p))))  # the model is too cautious
    y = rng.random(600) < truth
    order = np.argsort(p)
    cells = _cells_by_definition(p[order])
    ps = p[order]
    v = ps * (1 - ps)
    mu = -v * (1 - 2 * ps)  # E(p − y)³ under y ~ Bernoulli(p)
    n = p.size
    var = k3 = 0.0
    for c in np.unique(cells):
        vc, mc = v[cells == c], mu[cells == c]
        nb = vc.size
        if nb < 2:
            continue
        a = 1.0 / (n * (nb - 1))        # θ = Σ_b 2a·U_b, U_b = Σ_{i<j} r_i r_j
        e2 = sum(vc[i] * vc[j] for i in range(nb) for j in range(i + 1, nb))
        e3 = sum(vc[i] * vc[j] * vc[k] for i, j, k in itertools.combinations(range(nb), 3))
        m2 = sum(mc[i] * mc[j] for i in range(nb) for j in range(i + 1, nb))
        var += 4 * a * a * e2
        k3 += 8 * a ** 3 * (6 * e3 + m2)
    theta = _theta_by_definition(y, p)
    t = calibration_test(y, p, method="analytic")
    assert t.method == "analytic null" and t.measure == "brier_mcb" and t.n_resamples == 0
    assert t.statistic == pytest.approx(theta, rel=1e-10)
    assert t.pvalue == pytest.approx(_pvalue_by_definition(theta, var, k3), rel=1e-8)
    assert t.pvalue < 0.05  # the under-confident model is found
    # the same statistic as consistency resampling, whose p-value it approximates
    c = calibration_test(y, p, n_resamples=1999)
    assert c.statistic == pytest.approx(t.statistic, rel=1e-12)
    assert abs(c.pvalue - t.pvalue) < 0.02


def test_the_cells_are_the_estimators_cells():
    # the analytic null bins the rows as the estimate does: ties, weights, both classes
    rng = np.random.default_rng(2)
    for n, ties, weighted in ((50, False, False), (5000, True, False), (3000, False, True)):
        p = rng.beta(0.7, 2, n)
        if ties:
            p = np.round(p, 2)
        y = rng.random(n) < p
        w = rng.integers(1, 4, n).astype(float) if weighted else None
        t = ScoreTable.from_arrays(y, p, w)
        c = _cells(t)
        b = binned(t.scores, t.pos[None, :], t.neg[None, :])
        assert np.array_equal(np.bincount(c, t.pos + t.neg), b.w[0])


def test_the_analytic_null_of_degenerate_tables():
    # every prediction certain and right: no variance, nothing contradicts calibration
    t = calibration_test([0, 0, 1, 1], [0.0, 0.0, 1.0, 1.0], method="analytic")
    assert t.pvalue == 1.0
    with pytest.raises(ml.MeasurelabError, match="tests brier_mcb"):
        calibration_test([0, 1] * 10, [0.3] * 20, method="analytic", measure="ici")
    with pytest.raises(ml.MeasurelabError, match="whole numbers"):
        calibration_test([0, 1] * 10, [0.3] * 20, method="analytic",
                         sample_weight=[0.3] * 20)


# ------------------------------------------------------------ the switch
def _two_models(n: int, seed: int = 0, rate: float | None = None):
    rng = np.random.default_rng(seed)
    q = rng.beta(2, 5, n) if rate is None else rng.beta(0.5, 0.5 / rate - 0.5, n)
    y = rng.random(n) < q
    return y, {"cal": q, "over": 1 / (1 + np.exp(-1.5 * np.log(q / (1 - q))))}


def test_auto_runs_consistency_below_the_threshold_and_the_analytic_test_above():
    assert (AUTO_MIN_CASES, AUTO_MIN_SMALLER) == (10_000, 100)
    y, models = _two_models(2_000)
    small = calibration_table(y, models, n_resamples=199)
    assert small["method"].tolist() == ["consistency resampling"] * 2
    y, models = _two_models(AUTO_MIN_CASES)
    big = calibration_table(y, models, n_resamples=199)
    assert big["method"].tolist() == ["analytic null"] * 2
    assert big["verdict"].tolist()[1].startswith("miscalibrated")
    for s, row in zip(models.values(), big.itertuples(), strict=True):
        assert row.pvalue == calibration_test(y, s, method="analytic").pvalue
        assert calibration_test(y, s, method="auto").pvalue == row.pvalue
    # enough cases but too few positives: consistency resampling again
    y, models = _two_models(AUTO_MIN_CASES, rate=0.004)
    assert 0 < y.sum() < AUTO_MIN_SMALLER
    t = ScoreTable.from_arrays(y, models["cal"])
    assert auto_method(t) == "consistency" and auto_method(t, "ici") == "consistency"
    assert calibration_test(y, models["cal"], method="auto",
                            n_resamples=99).method == "consistency resampling"
    # a forced method is run as asked
    y, models = _two_models(2_000)
    forced = calibration_table(y, models, method="analytic")
    assert forced["method"].tolist() == ["analytic null"] * 2


def test_the_comparison_names_the_test_it_ran():
    # (below the threshold the sentence names consistency resampling:
    # tests/inference/test_comparison_page.py)
    y, models = _two_models(12_000, seed=1)
    r = ml.compare_classifiers(y, models, measures=["auc"], n_boot=100, progress=False)
    table = r.calibration()
    assert table["method"].tolist() == ["analytic null"] * 2
    sentence = r.summary().splitlines()[-1]
    assert sentence.startswith("Calibration (analytic test of brier_mcb, n ≥ 10,000): ")
    assert "over miscalibrated (p < 0.001)" in sentence
    assert r.calibration(n_resamples=199, method="consistency")["method"].tolist() == [
        "consistency resampling"] * 2


# ------------------------------------------------------------ progress=False
class _EagerLine(progress_module.PeriodicLine):
    """A progress line that prints at every update (the real one waits 20 s), so a bar
    that is on shows within a short test."""

    def __init__(self, total, desc, unit="it", every=0.0, file=None):
        super().__init__(total, desc, unit, every=0.0, file=file)


@pytest.fixture
def eager(monkeypatch):
    monkeypatch.setattr(progress_module, "PeriodicLine", _EagerLine)


def _lines(err: str) -> list[str]:
    return [x for x in err.splitlines() if re.search(r"\d+% \(", x)]


def _comparison(progress):
    y, models = _two_models(1_500, seed=4)
    return ml.compare_classifiers(y, models, measures=["auc", "brier"], n_boot=100,
                                  progress=progress)


def test_progress_false_reaches_the_calibration_test(eager, capfd):
    _comparison(None).summary()
    err = capfd.readouterr().err
    assert any(x.startswith("calibration test:") for x in _lines(err))  # the bar shows
    off = _comparison(False)
    off.summary()
    off.calibration(n_resamples=199)
    repr(off)
    out, err = capfd.readouterr()
    assert _lines(err) == [] and _lines(out) == []


@pytest.mark.slow  # two pages (figures); the fast test above covers the calibration test
def test_progress_false_silences_the_page(eager, capfd, tmp_path):
    _comparison(None).to_html(tmp_path / "on.html")
    err = capfd.readouterr().err
    assert any(x.startswith("curve bands:") for x in _lines(err))
    _comparison(False).to_html(tmp_path / "off.html")
    out, err = capfd.readouterr()
    assert _lines(err) == [] and _lines(out) == []
