"""Smooth ECE against relplot and ICI, E50, E90, Emax against R's ``loess`` (run through
``Rscript``); each comparison is skipped where its reference is not installed."""

from __future__ import annotations

import math
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

import measurelab as ml
from measurelab.measures._loess import kd_vertices, loess_fit
from measurelab.measures.smooth_calibration import loess_curve, smece_bandwidth
from measurelab.stats.scoretable import ScoreTable

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
    from measurelab.measures.smooth_calibration import _Smoother

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
    its fitted values and ICI, E50, E90, Emax as Austin & Steyerberg compute them."""
    if shutil.which("Rscript") is None:
        pytest.skip("R is not installed (Rscript)")
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
        "  e <- abs(f - d$p)\n"
        "  s <- c(mean(e), median(e), quantile(e, 0.9), max(e))\n"
        f"  write(sprintf('%.17g', f), file.path('{tmp_path}', paste0('f', i, '.txt')))\n"
        f"  write(sprintf('%.17g', s), file.path('{tmp_path}', paste0('s', i, '.txt')))\n"
        "}\n")
    subprocess.run(["Rscript", str(script)], check=True, capture_output=True, timeout=120)
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


def test_ici_family_equals_r_loess(tmp_path):
    sets = _sets()
    for (y, p, w), (fitted, stats) in zip(sets, _run_r(tmp_path, sets), strict=True):
        t = ScoreTable.from_arrays(y == 1, p, w)
        x, _, fit = loess_curve(t)
        reps = np.ones(y.size, dtype=int) if w is None else w.astype(int)
        rows = np.searchsorted(x, np.repeat(p, reps))
        np.testing.assert_allclose(fit[rows], fitted, rtol=0, atol=1e-9)
        got = ml.evaluate(y, p, sample_weight=w, measures=ICI)
        # the issue's tolerance is max(0.002, 5 %); the implementation follows R's
        # algorithm, so the values agree to rounding
        np.testing.assert_allclose([got[m] for m in ICI], stats, rtol=0, atol=1e-9)


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
