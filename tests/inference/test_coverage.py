"""The interval-coverage study (``benchmarks/covstudy``, run by
``benchmarks/coverage_study.py``): its generators and population values, a small version of
the study on the key measures, and the harness end to end (cells cached atomically and
resumed, the verdicts, the evidence file measurelab reads, the report).

The key measures' check: two correlated binormal models, n = 300, prevalence 0.3, 400
simulated test sets per design, 400 bootstrap replicates. Every key measure's 95% interval
(single model, both models pooled, and the paired difference a − b) must cover the
population value in at least 90% of them: with 400 test sets the Monte Carlo SE of a
coverage near 0.94 is about 0.012, so a value below 0.90 is more than three SEs under it.
The simulation is seeded, so the outcome is the same on every run. The registry-wide study
(every measure, every setting) is docs/coverage.md.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.inference import evidence as ev

_PKG = Path(__file__).resolve().parents[2] / "benchmarks" / "covstudy"


def _load() -> ModuleType:
    """benchmarks/covstudy as the package ``covstudy`` (benchmarks/ is no package)."""
    if "covstudy" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "covstudy", _PKG / "__init__.py", submodule_search_locations=[str(_PKG)])
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["covstudy"] = module
        spec.loader.exec_module(module)
    return sys.modules["covstudy"]


_load()
cells = importlib.import_module("covstudy.cells")
gens = importlib.import_module("covstudy.generators")
popm = importlib.import_module("covstudy.population")
plan = importlib.import_module("covstudy.plan")
verdicts = importlib.import_module("covstudy.verdicts")
cli = importlib.import_module("covstudy.cli")
store = importlib.import_module("covstudy.store")
report = importlib.import_module("covstudy.report")
choice = importlib.import_module("covstudy.choice")
opplan = importlib.import_module("covstudy.plan_operating_point")

KEY_MEASURES = ("f1", "mcc", "apr", "ap", "bep", "lift", "brier", "mxe", "kappa", "bacc",
                "auc", "prec")
SIMS, N, PREVALENCE, N_BOOT = 400, 300, 0.3, 400
#: the population values' MC error at this size (~1e-3) is small against the widths (>= 0.04)
POP_SIZE = 500_000
FLOOR = 0.90


def _table(df: pd.DataFrame) -> str:
    show = df[["kind", "model", "measure", "method", "sims", "coverage", "mcse", "miss_below",
               "miss_above", "width", "undefined", "population"]]
    return show.to_string(index=False, float_format=lambda v: f"{v:.4f}")


# --------------------------------------------------------------------------- generators
def test_population_matches_exact() -> None:
    """The large-sample population values agree with the limits by numerical integration."""
    for design in gens.DESIGNS:
        pop = popm.population("binary", "binormal", design, PREVALENCE, KEY_MEASURES,
                              size=400_000)
        for m in KEY_MEASURES:
            for j in range(3):
                v, se, ex = pop.value[m][j], pop.se[m][j], pop.exact[m][j]
                assert se > 0 and math.isfinite(ex), (design, m, j)
                assert abs(v - ex) <= 5 * se, (design, m, j, v, ex, se)
            assert pop.target[m] == pop.value[m]   # binormal: the large sample is the target
    ex = gens.BINARY["binormal"].exact(0.1, ["auc", "ap", "apr"])
    assert ex["auc"] == pytest.approx((0.80, 0.85), abs=1e-4)
    assert ex["ap"] == ex["apr"]


def test_calibrated_generator() -> None:
    """Model a scores the true probability (binned: the share of positives equals the mean
    score), b is over-confident and ranks differently; the exact values (quadrature, Beta
    moments) agree with measurelab on a large sample and are the targets of model a."""
    g = gens.BINARY["calibrated"]
    for design in ("random", "fixed"):
        y, a, b = g.draw(design, 400_000, 0.2, np.random.default_rng(5))
        assert y.mean() == pytest.approx(0.2, abs=0.003)
        bins = np.minimum((a * 10).astype(int), 9)
        for k in range(10):
            sel = bins == k
            if sel.sum() > 2000:
                se = math.sqrt(a[sel].mean() * (1 - a[sel].mean()) / sel.sum())
                assert abs(y[sel].mean() - a[sel].mean()) < 4.5 * se, (design, k)
        assert np.corrcoef(a, b)[0, 1] < 0.99
        assert (np.abs(b - 0.5) > np.abs(a - 0.5)).mean() > 0.6   # b more extreme
    y_f, _, _ = g.draw("fixed", 1000, 0.05, np.random.default_rng(1))
    assert int(y_f.sum()) == 50
    names = ["brier", "brier_dsc", "mxe", "logloss_dsc", "brier_mcb", "ece"]
    pop = popm.population("binary", "calibrated", "random", 0.2, names, size=400_000)
    for m in ("brier", "brier_dsc", "mxe", "logloss_dsc"):
        v, se, ex = pop.value[m][0], pop.se[m][0], pop.exact[m][0]
        assert abs(v - ex) <= 5 * se, (m, v, ex, se)
        assert pop.target[m][0] == ex and pop.target[m][1] == pop.value[m][1]
    assert pop.exact["brier_mcb"][0] == pop.target["ece"][0] == 0.0
    assert 0 < pop.value["ece"][0] < 0.01 < pop.value["ece"][1]   # b miscalibrated
    al, be = 0.8, 3.2   # Beta(4π, 4(1 − π)) at π = 0.2
    assert pop.exact["brier_dsc"][0] == pytest.approx(al * be / (4**2 * 5))


def test_multi_generator() -> None:
    """The k-class generator: probability rows, the priors, exact counts in the fixed
    design, two models of different quality with correlated errors; its ``auc`` (macro) is
    Hand–Till's M (scikit-learn's one-vs-one macro AUC); the calibrated variant's model a
    is top-label calibrated (mean confidence = accuracy)."""
    from sklearn.metrics import roc_auc_score

    for k in (3, 5):
        gen = gens.multi_generator(k)
        assert gen.k == k and sum(gen.priors) == pytest.approx(1.0)
        assert len(set(gen.priors)) > 1   # not all equal
        rng = np.random.default_rng(1)
        y, P_a, P_b = gen.draw("random", 40_000, rng)
        assert P_a.shape == P_b.shape == (40_000, k)
        for P in (P_a, P_b):
            assert np.allclose(P.sum(axis=1), 1.0) and (P > 0).all()
        share = np.bincount(y, minlength=k) / y.size
        assert share == pytest.approx(np.array(gen.priors), abs=0.01)
        ca, cb = P_a.argmax(axis=1) == y, P_b.argmax(axis=1) == y
        assert cb.mean() > ca.mean() + 0.05          # b is the better model
        assert np.corrcoef(ca, cb)[0, 1] > 0.1       # their errors are correlated
        y_f, _, _ = gen.draw("fixed", 500, rng)
        assert np.bincount(y_f).tolist() == gen.class_counts(500).tolist()
        assert gen.class_counts(500).sum() == 500
        auc = float(ml.evaluate(y[:3000], P_a[:3000], measures=["auc"])["auc"])
        assert auc == pytest.approx(roc_auc_score(y[:3000], P_a[:3000], multi_class="ovo"),
                                    abs=1e-12)
    cal = gens.multi_generator(3, calibrated=True)
    y, P_a, P_b = cal.draw("random", 200_000, np.random.default_rng(2))
    conf, right = P_a.max(axis=1), P_a.argmax(axis=1) == y
    assert abs(conf.mean() - right.mean()) < 4 * math.sqrt(0.25 / y.size)
    conf_b, right_b = P_b.max(axis=1), P_b.argmax(axis=1) == y
    assert conf_b.mean() - right_b.mean() > 0.02      # b over-confident
    ex = cal.exact(["ece", "smece", "auc"])
    assert ex["ece"][0] == ex["smece"][0] == 0.0
    assert math.isnan(ex["ece"][1]) and math.isnan(ex["auc"][0])
    assert all(math.isnan(v) for v in gens.multi_generator(3).exact(["ece"])["ece"])
    with pytest.raises(ValueError, match="k >= 3"):
        gens.multi_generator(2)


def test_kink_generator() -> None:
    """``kink``: each model's sensitivity equals its specificity in the population (exactly,
    c = μ/2), so ri and avri are 0 and, at π = 0.5, precision = specificity and NPV =
    sensitivity; a large seeded sample agrees, and the exact values are the targets."""
    g = gens.generator("binary", "kink")
    assert g.name == "kink" and g.cut == tuple(m / 2 for m in g.mu) and g.exact_is_target
    assert "`kink`" in g.describe()
    names = ["sens", "spec", "prec", "npv", "ri", "avri", "op", "oarp", "acc"]
    ex = g.exact(0.5, names)
    for k in range(2):
        assert ex["sens"][k] == ex["spec"][k]
        assert ex["ri"][k] == ex["avri"][k] == 0.0
        assert ex["prec"][k] == pytest.approx(ex["spec"][k], abs=1e-12)
        assert ex["npv"][k] == pytest.approx(ex["sens"][k], abs=1e-12)
        assert ex["op"][k] == ex["oarp"][k] == pytest.approx(ex["acc"][k], abs=1e-12)
    assert ex["sens"][0] == pytest.approx(0.7241, abs=1e-4)
    assert ex["sens"][1] == pytest.approx(0.7682, abs=1e-4)
    y, s_a, s_b = g.draw("random", 200_000, 0.5, np.random.default_rng(11))
    pos = y == 1
    for k, s in enumerate((s_a, s_b)):
        flag = s > 0.5
        sens, spec = flag[pos].mean(), (~flag[~pos]).mean()
        se = math.sqrt(ex["sens"][k] * (1 - ex["sens"][k]) / pos.sum())
        assert abs(sens - ex["sens"][k]) < 4 * se and abs(spec - ex["spec"][k]) < 4 * se
        assert abs(sens - spec) < 6 * se
    pop = popm.population("binary", "kink", "random", 0.5, ["sens", "spec", "ri"],
                          size=40_000)
    assert pop.target["ri"] == (0.0, 0.0, 0.0) and pop.value["ri"][0] > 0   # biased away
    assert pop.target["sens"] == pop.exact["sens"]


def test_sparse_flags_generator() -> None:
    """``sparse-flags``: the cuts solved from the binormal mixture make each model flag 4% of
    all cases on a balanced set (about 5 of n = 120, 16 of n = 400); a large seeded sample
    agrees with the exact share."""
    g = gens.generator("binary", "sparse-flags")
    assert g.name == "sparse-flags" and not g.exact_is_target
    assert g.mu == gens.Binormal().mu and g.slope == gens.Binormal().slope
    assert g.cut == (2.625029, 2.884098)
    assert g.cut == tuple(gens.flag_cut(m, 0.04, 0.5) for m in g.mu)
    assert g.flag_share(0.5) == pytest.approx((0.04, 0.04), abs=1e-6)
    assert "`sparse-flags`" in g.describe() and "2.6250" in g.describe()
    y, s_a, s_b = g.draw("random", 200_000, 0.5, np.random.default_rng(12))
    se = math.sqrt(0.04 * 0.96 / y.size)
    for s in (s_a, s_b):
        assert abs((s > 0.5).mean() - 0.04) < 4 * se
    ex = g.exact(0.5, ["sens", "spec", "prec"])
    for k in range(2):   # the share from the exact sensitivity and specificity
        assert 0.5 * ex["sens"][k] + 0.5 * (1 - ex["spec"][k]) == pytest.approx(0.04,
                                                                               abs=1e-6)
        assert ex["prec"][k] > 0.9
    for n, flagged in ((120, 4.8), (400, 16.0)):
        assert n * g.flag_share(0.5)[0] == pytest.approx(flagged, abs=1e-3)
    other = gens.SparseFlags(share=0.1)
    assert other.flag_share(0.5) == pytest.approx((0.1, 0.1), abs=1e-6)
    with pytest.raises(ValueError, match="share"):
        gens.flag_cut(1.0, 0.0, 0.5)
    assert popm.GEN_CODE["sparse-flags"] != popm.GEN_CODE["kink"]


def test_exact_binormal_and_the_weighted_design() -> None:
    """``binormal-exact``: the binormal with the exact values as targets (rms = √brier);
    the ``weighted`` design: the random design's test set with case-control weights
    (negatives 5, times U(0.5, 1.5)), whose population is the random design's at the
    prevalence the weights stand for; binary, single and paired only."""
    g = gens.generator("binary", "binormal-exact")
    assert g.exact_is_target and not gens.BINARY["binormal"].exact_is_target
    assert (g.mu, g.slope, g.cut, g.rho) == (gens.Binormal().mu, gens.Binormal().slope,
                                             gens.Binormal().cut, gens.Binormal().rho)
    assert "`binormal-exact`" in g.describe()
    assert popm.GEN_CODE["binormal-exact"] not in (popm.GEN_CODE["binormal"],
                                                   popm.GEN_CODE["kink"])
    ex = g.exact(0.05, ["brier", "rms"])
    assert ex["rms"] == pytest.approx(tuple(math.sqrt(v) for v in ex["brier"]), rel=1e-12)
    w = gens.WEIGHTS
    assert w.target_prevalence(0.05) == pytest.approx(0.05 / 4.8)
    assert popm.population_setting("weighted", 0.05) == ("random", w.target_prevalence(0.05))
    assert popm.population_setting("random-stratified", 0.2) == ("random", 0.2)
    assert popm.population_setting("fixed", 0.2) == ("fixed", 0.2)
    y = np.array([1, 0] * 5000, dtype=np.int8)
    weight = w.draw(y, np.random.default_rng(3))
    assert weight[y == 1].min() >= 0.5 and weight[y == 1].max() <= 1.5
    assert weight[y == 0].min() >= 2.5 and weight[y == 0].max() <= 7.5
    assert weight[y == 0].mean() == pytest.approx(5.0, rel=0.02)
    assert cells.resampling_of("weighted") == "joint"
    cell = cells.Cell("binary", "binormal-exact", "weighted", 2000, prevalence=0.05,
                      measures=("brier", "auc"))
    y, s_a, s_b, weight = cells._draw(cell, g, np.random.default_rng(4))
    assert y.shape == s_a.shape == s_b.shape == weight.shape == (2000,)
    assert cells._draw(cells.Cell("binary", "binormal-exact", "random", 50, prevalence=0.5),
                       g, np.random.default_rng(4))[3] is None
    assert "weights" in cells.cell_key(cell, 10, 100, 0)
    assert "weights" not in cells.cell_key(cells.Cell("binary", "binormal", "random", 50,
                                                      prevalence=0.5), 10, 100, 0)
    for bad in ({"kinds": ("unpaired",)},):
        with pytest.raises(ValueError, match="weighted design"):
            cells.Cell("binary", "binormal", "weighted", 100, prevalence=0.2, **bad)
    pop = popm.population("binary", "binormal-exact", "weighted", 0.05, ["brier", "auc"],
                          size=20_000)
    assert pop.design == "random" and pop.prevalence == pytest.approx(0.05 / 4.8)
    assert pop.target["brier"] == pop.exact["brier"]
    assert pop.target["auc"][:2] == pytest.approx((0.80, 0.85), abs=1e-4)


def test_youden_targets_are_the_population_optimum() -> None:
    """best_threshold's targets under the binormal: the numerical optimum equals the
    equal-variance closed form (cut μ/2, sens = spec = Φ(μ/2)) and a brute-force grid
    search of the population J; a large sample's best_threshold lands on it within its
    own Monte Carlo error (20 disjoint parts, as the study's populations)."""
    from scipy.stats import norm

    gen = gens.BINARY["binormal"]
    ex = choice.exact(gen, choice.names())
    grid = np.linspace(-3.0, 5.0, 800_001)
    for k, (mu, b, c) in enumerate(zip(gen.mu, gen.slope, gen.cut, strict=True)):
        half = mu / 2
        assert ex["best_threshold.youden.sens"][k] == pytest.approx(norm.cdf(half), abs=1e-9)
        assert ex["best_threshold.youden.spec"][k] == pytest.approx(norm.cdf(half), abs=1e-9)
        assert ex["best_threshold.youden.youden"][k] == pytest.approx(
            2 * norm.cdf(half) - 1, abs=1e-12)
        assert ex["best_threshold.youden.threshold"][k] == pytest.approx(
            1 / (1 + math.exp(-b * (half - c))), abs=1e-8)
        j = norm.cdf(grid) - norm.cdf(grid - mu)   # brute force: the population J on a grid
        assert ex["best_threshold.youden.youden"][k] == pytest.approx(j.max(), abs=1e-11)
        x = grid[np.argmax(j)]
        assert ex["best_threshold.youden.threshold"][k] == pytest.approx(
            1 / (1 + math.exp(-b * (x - c))), abs=1e-4)
    pop = popm.population("binary", "binormal", "random", 0.3, choice.names(), size=400_000)
    for m in choice.names():
        assert pop.target[m] == pytest.approx(pop.exact[m])   # the exact point is the target
        for j in range(2):
            assert abs(pop.value[m][j] - pop.exact[m][j]) <= 5 * pop.se[m][j], (m, j)
    assert choice.parse("best_threshold.youden.spec") == ("youden", "spec")
    with pytest.raises(ValueError, match="not a best_threshold row"):
        choice.parse("best_threshold.youden.f1")


def test_choice_cell_records_best_thresholds_rows() -> None:
    """A cell of best_threshold's rows: one interval per model and row, from
    best_threshold(..., ci=0.95) on the simulated test set (bootstrap-percentile)."""
    cell = cells.Cell("binary", "binormal", "fixed", 150, prevalence=0.3,
                      kinds=("single",), measures=choice.names())
    recs, _ = cells.one_sim(0, cell, 100, cells._root(cell, 0), None)
    assert len(recs) == 8 and {r["method"] for r in recs} == {"bootstrap-percentile"}
    assert {(r["model"], r["measure"]) for r in recs} == {
        (m, n) for m in ("a", "b") for n in choice.names()}
    df = cells.run_cell(cell, 3, 100, 0, pop_size=20_000)
    assert set(df[df.method == cells.ALL].measure) == set(choice.names())
    # the plan: both added blocks at 200 simulations, the first two at the run's
    sims = plan.cell_sims(opplan.OPERATING_POINT, 500)
    assert sims[:9] == [500] * 9 and set(sims[9:]) == {opplan.ADDED_SIMS} == {200}


# --------------------------------------------------------------------------- coverage
@pytest.mark.parametrize("design", ["random", "fixed"])  # the designs measurelab promises
def test_coverage_small(design: str) -> None:
    cell = cells.Cell("binary", "binormal", design, N, prevalence=PREVALENCE,
                      measures=KEY_MEASURES)
    df = cells.run_cell(cell, SIMS, N_BOOT, 0, pop_size=POP_SIZE)
    overall = df[(df.method == cells.ALL) & df.model.isin(["pooled", "a-b"])]
    print(f"\n{design} design, n={N}, π={PREVALENCE}, {SIMS} simulations, {N_BOOT} replicates")
    print(_table(df[df.model.isin(["pooled", "a-b"])]))
    assert set(overall.measure[overall.kind == "single"]) == set(KEY_MEASURES)
    assert set(overall.measure[overall.kind == "paired"]) == set(KEY_MEASURES)
    assert (overall.sims == SIMS).all()
    low = overall[overall.coverage < FLOOR]
    assert low.empty, (f"{design} design: coverage below {FLOOR} for "
                       f"{sorted(zip(low.kind, low.measure, strict=True))}\n{_table(overall)}")


def test_resume_gives_the_same_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run killed after a checkpoint resumes from it; the table is the uninterrupted one,
    and a finished cell is read back without any simulation."""
    cell = cells.Cell("binary", "calibrated", "fixed", 200, prevalence=0.3,
                      kinds=("single", "paired", "unpaired"), measures=("auc", "f1", "brier"))
    args: tuple[Any, ...] = (cell, 6, 100, 3)
    kw: dict[str, Any] = {"pop_size": 20_000}
    plain = cells.run_cell(*args, **kw)

    real = cells.one_sim
    monkeypatch.setattr(cells, "CHECKPOINT", 2)

    def dies_at_five(i: int, *rest: Any) -> Any:
        if i == 5:
            raise KeyboardInterrupt
        return real(i, *rest)

    monkeypatch.setattr(cells, "one_sim", dies_at_five)
    with pytest.raises(KeyboardInterrupt):
        cells.run_cell(*args, cache_dir=tmp_path, **kw)
    assert len(list(tmp_path.glob("cell-*.partial.json"))) == 1

    done: list[int] = []

    def counts(i: int, *rest: Any) -> Any:
        done.append(i)
        return real(i, *rest)

    monkeypatch.setattr(cells, "one_sim", counts)
    resumed = cells.run_cell(*args, cache_dir=tmp_path, **kw)
    assert done == [4, 5]   # 0-3 came from the checkpoint
    assert not list(tmp_path.glob("cell-*.partial.json"))
    assert len(list(tmp_path.glob("cell-*.json"))) == 1
    assert not list(tmp_path.glob(".*.tmp"))

    def never(*_: Any) -> Any:
        raise AssertionError("a finished cell was simulated again")

    monkeypatch.setattr(cells, "one_sim", never)
    again = cells.run_cell(*args, cache_dir=tmp_path, **kw)
    for other in (resumed, again):
        pd.testing.assert_frame_equal(plain.drop(columns="sec_per_sim"),
                                      other.drop(columns="sec_per_sim"), check_dtype=False)
    assert set(plain.kind) == {"single", "paired", "unpaired"}


def test_unpaired_cell() -> None:
    """The unpaired rows compare model a on one test set with model b on another; their
    target is the population difference; a kind left out leaves the others' data alone."""
    both = cells.Cell("binary", "binormal", "random", 150, prevalence=0.3,
                      kinds=("single", "unpaired"), measures=("auc", "acc"))
    one = cells.Cell("binary", "binormal", "random", 150, prevalence=0.3,
                     kinds=("single",), measures=("auc", "acc"))
    df = cells.run_cell(both, 3, 100, 1, pop_size=20_000)
    alone = cells.run_cell(one, 3, 100, 1, pop_size=20_000)
    un = df[(df.kind == "unpaired") & (df.method == cells.ALL)].set_index("measure")
    pop = popm.population("binary", "binormal", "random", 0.3, ("auc", "acc"), seed=1,
                          size=20_000)
    assert un.population["auc"] == pop.target["auc"][2]
    assert set(df[df.kind == "unpaired"].method) >= {"delong-unpaired", "dirichlet-posterior"}
    pd.testing.assert_frame_equal(
        df[df.kind == "single"].drop(columns=["sec_per_sim", "kinds"], errors="ignore")
        .reset_index(drop=True),
        alone.drop(columns=["sec_per_sim"]).reset_index(drop=True), check_dtype=False)


def test_error_in_a_simulation_is_a_miss(monkeypatch: pytest.MonkeyPatch) -> None:
    cell = cells.Cell("binary", "binormal", "random", 100, prevalence=0.3, measures=("f1",))

    def broken(*_a: Any, **_k: Any) -> Any:
        raise ml.MeasurelabError("broken on purpose")

    monkeypatch.setattr(ml, "compare_classifiers", broken)
    recs, warned = cells.one_sim(0, cell, 100, cells._root(cell, 0), None)
    assert {r["method"] for r in recs} == {"error"} and len(recs) == 3
    assert all(math.isnan(r["lo"]) for r in recs)
    assert warned == ["error: broken on purpose"]


def test_method_family() -> None:
    """Records keep the procedure and a BCa fallback apart, never a note that varies."""
    f = cells.method_family
    assert f("bootstrap-bca (3% undefined: counted at the ends of [0, 1])") == "bootstrap-bca"
    assert f("bootstrap-percentile (BCa at edge) (no coverage evidence)") == (
        "bootstrap-percentile (BCa at edge)")
    assert f("wilson (coverage 0.862 < 0.90 at n=100, π=0.05)") == "wilson"


def test_clustered_share() -> None:
    """Pooled coverage: the share over all intervals, simulations as clusters."""
    p, se = cells.clustered_share(np.array([0, 0, 1, 1, 2, 2]),
                                  np.array([True, True, True, False, False, False]))
    assert p == pytest.approx(0.5)
    # per-simulation shares 1, .5, 0: SE = sd / √3 = .5 / √3
    assert se == pytest.approx(0.5 / math.sqrt(3))


def test_multi_cell_smoke(tmp_path: Path) -> None:
    """A tiny k-class cell: every measure gets single and paired rows with the expected
    methods (Wilson, Tango, BCa), and a finished cell is read back from its cache."""
    cell = cells.Cell("k", "softmax", "random", 200, classes=3,
                      measures=("acc", "f1", "auc", "mxe", "brier"))
    df = cells.run_cell(cell, 4, 100, 0, pop_size=20_000, cache_dir=tmp_path)
    assert list(df.columns) == cells.COLUMNS
    assert (df.classes == 3).all() and (df.resampling == "joint").all()
    overall = df[(df.method == cells.ALL) & df.model.isin(["pooled", "a-b"])]
    for kind in ("single", "paired"):
        assert set(overall.measure[overall.kind == kind]) == set(cell.measures)
    assert (overall.sims == 4).all()
    methods = {(r.kind, r.measure): r.method for r in df[df.method != cells.ALL]
               .itertuples() if r.model in ("a", "a-b")}
    assert methods[("single", "acc")] == "wilson"
    assert methods[("paired", "acc")] == "tango-score"
    assert methods[("single", "auc")] == "bootstrap-bca"
    pop = df[(df.model == "b") & (df.method == cells.ALL)].set_index("measure").population
    assert 0.5 < pop["auc"] < 1 and 0 < pop["brier"] < 1
    assert [p.name.split("-")[1] for p in tmp_path.glob("cell-*.json")] == ["k"]
    again = cells.run_cell(cell, 4, 100, 0, pop_size=20_000, cache_dir=tmp_path)
    pd.testing.assert_frame_equal(df, again, check_dtype=False)


# --------------------------------------------------------------------------- plan
def test_full_plan_covers_every_offered_setting() -> None:
    """The full plan runs every interval measurelab offers in every setting (so its
    evidence file passes the library's guard), over the ranges the study promises."""
    cs = plan.plan_cells(plan.FULL)
    ran = {(c.task, c.design, kind, m) for c in cs for kind in c.kinds for m in c.measures}
    for task in ("binary", "k"):
        for design in ("random", "fixed"):
            t = plan.offered(task, design)
            need = {(task, design, r.kind, r.measure) for r in t.itertuples()}
            assert not need - ran, sorted(need - ran)
    binary = [c for c in cs if c.task == "binary"]
    assert {c.n for c in binary} >= {100, 300, 1000, 10_000}
    assert min(c.prevalence for c in binary) == 0.05 and max(c.prevalence for c in binary) \
        == 0.5
    assert {c.generator for c in binary} == {"binormal", "calibrated"}
    assert {c.classes for c in cs if c.task == "k"} == {3, 5}
    assert {c.average for c in cs if c.task == "k"} == {"macro", "weighted", "micro"}
    assert all(not set(c.measures) & set(plan.HEAVY) for c in cs
               if c.generator == "binormal" and c.design == "random" and c.n != 300)
    g = plan.grid_summary(cs)
    assert g["binary"]["n"] == [100, 300, 1000, 10_000] and g["k"]["classes"] == [3, 5]


def test_small_counts_choice() -> None:
    """'small-counts': the offered measures of registry kind 'threshold', and auc, in
    registry order."""
    from measurelab import registry

    for design in ("random", "fixed"):
        for kinds in (("single", "paired"), ("unpaired",)):
            got = plan.select("small-counts", "binary", design, kinds)
            t = plan.offered("binary", design)
            t = t[t.kind.isin(list(kinds))]
            offered = list(dict.fromkeys(t.measure))
            want = [m for m in offered if registry.get(m).kind == "threshold" or m == "auc"]
            assert got == want
            # ri and op are withheld where the probe cannot tell sens from spec (their
            # kink), which it cannot in the fixed design's unpaired rows
            kink = {"ri", "op"} if kinds == ("single", "paired") else set()
            assert "auc" in got and {"sens", "spec", "prec", "avri", "oarp",
                                     "mcc"} | kink <= set(got)
            assert not {"brier", "mxe", "ap", "apr", "lift"} & set(got)
    assert "small-counts" in plan.CHOICES
    with pytest.raises(ValueError, match="unknown measure choice"):
        plan.select("few", "binary", "random", ("single",))


def test_small_plan() -> None:
    """The small-count plan's cells: few positives, few flagged cases, the kink, the
    large-count reference; every cell with the small-counts measures."""
    cs = plan.plan_cells(plan.PLANS["small"])
    assert plan.PLANS["small"] is plan.SMALL and len(cs) == 35
    got = {(c.generator, c.design, c.n, c.prevalence, c.kinds) for c in cs}
    sp = ("single", "paired")
    want = {("binormal", d, n, p, sp) for d in ("random", "fixed") for n in (60, 120, 400)
            for p in (0.04, 0.06)}
    want |= {("binormal", d, n, 0.05, ("unpaired",)) for d in ("random", "fixed")
             for n in (120, 400)}
    want |= {("calibrated", "random", n, 0.05, sp) for n in (120, 400)}
    want |= {("sparse-flags", d, n, 0.5, sp) for d in ("random", "fixed") for n in (120, 400)}
    want |= {("kink", d, n, 0.5, sp) for d in ("random", "fixed") for n in (300, 1000)}
    want |= {("binormal", "random", n, p, sp) for n in (1000, 10_000) for p in (0.2, 0.5)}
    want |= {("binormal", "fixed", 1000, 0.2, sp)}
    want |= {("calibrated", d, n, 0.05, sp) for d in ("random", "fixed") for n in (300, 1000)}
    assert got == want
    for c in cs:
        assert list(c.measures) == plan.select("small-counts", c.task, c.design, c.kinds)
    brackets = {verdicts.bracket(verdicts.smaller(c.task, c.generator, c.n, c.prevalence))
                for c in cs}
    assert brackets == {b for b, _low in verdicts.BRACKETS}
    assert cli.OUTPUTS["small"].source == "small-counts"
    assert cli.OUTPUTS["small"].evidence == Path("src/measurelab/data/coverage/"
                                                 "small_counts.json")
    assert cli.OUTPUTS["small"].report == Path("docs/coverage_small_counts.md")
    assert cli.OUTPUTS["full"].source == "registry"


def test_large_plan() -> None:
    """The large-n plan: the influence intervals' measures (forced: ``ci_method=
    'influence'``) at 10⁴ cases (random and fixed designs at 100 and 5,000 in the smaller
    class, random at 500, weighted at 100, 500 and 5,000) and at 10⁵ (1,000 and 50,000, at most
    500 simulations); 1,000 simulations a cell, its own evidence file and report. Then the
    cells added for the calibration terms (single and paired; a calibrated model a) and
    the unpaired differences, at most 400 simulations a cell."""
    cs = plan.plan_cells(plan.PLANS["large"])
    assert plan.PLANS["large"] is plan.LARGE and len(cs) == 20
    first, added = cs[:10], cs[10:]
    got = {(c.generator, c.design, c.n, c.prevalence) for c in first}
    want = {("binormal-exact", d, 10_000, p) for d in ("random", "fixed") for p in (0.01, 0.5)}
    want |= {("binormal-exact", "random", 10_000, 0.05)}
    want |= {("binormal-exact", "weighted", 10_000, p) for p in (0.01, 0.05, 0.5)}
    want |= {("binormal-exact", "random", 100_000, p) for p in (0.01, 0.5)}
    assert got == want
    assert set(plan.LARGE_MEASURES) == {"ap", "brier", "rms", "mxe", "auc", "f1", "mcc",
                                        "acc", "prec"}
    for c in first:
        assert c.measures == plan.LARGE_MEASURES and c.kinds == ("single", "paired")
    assert set(plan.LARGE_CALIBRATION) == {"brier_mcb", "brier_dsc", "logloss_dsc"}
    got_added = {(c.generator, c.design, c.prevalence, c.kinds, c.measures) for c in added}
    cal, unp, both = plan.LARGE_CALIBRATION, ("unpaired",), ("single", "paired")
    assert got_added == {
        ("calibrated-exact", "random", 0.015, both, cal),
        ("calibrated-exact", "random", 0.5, both, cal),
        ("calibrated-exact", "fixed", 0.01, both, cal),
        ("calibrated-exact", "fixed", 0.5, both, cal),
        ("binormal-exact", "random", 0.015, both, cal),
        ("binormal-exact", "random", 0.5, both, cal),
        ("binormal-exact", "random", 0.01, unp, plan.LARGE_MEASURES),
        ("binormal-exact", "random", 0.5, unp, plan.LARGE_MEASURES),
        ("calibrated-exact", "random", 0.015, unp, cal),
        ("calibrated-exact", "random", 0.5, unp, cal)}
    assert {c.n for c in added} == {10_000}
    sims = plan.cell_sims(plan.LARGE, 1000)
    assert [k for c, k in zip(cs, sims, strict=True) if c.n == 100_000] == [500, 500]
    assert {k for c, k in zip(first, sims, strict=False) if c.n == 10_000} == {1000}
    assert sims[10:] == [plan.LARGE_ADDED_SIMS] * 10 and plan.LARGE_ADDED_SIMS >= 300
    assert plan.cell_sims(plan.LARGE, 2) == [2] * 20
    counts = [verdicts.smaller(c.task, c.generator, c.n, c.prevalence) for c in cs]
    assert min(counts) == 100 and {verdicts.bracket(k) for k in counts} == {"100–999",
                                                                           "≥ 1,000"}
    out = cli.OUTPUTS["large"]
    assert (out.source, out.ci_method, out.sims) == ("large-n", "influence", 1000)
    assert out.evidence == Path("src/measurelab/data/coverage/large_n.json")
    assert out.report == Path("docs/coverage_large_n.md")
    assert cli.OUTPUTS["small"].ci_method is None and cli.OUTPUTS["full"].sims == 500


def test_smaller_and_brackets() -> None:
    """The expected cases in the smaller class, and the brackets they fall in."""
    assert verdicts.CELL_FIELDS[-1] == "smaller" and verdicts.CELL_FIELDS[:8] == [
        "generator", "n", "param", "average", "model", "coverage", "mcse", "undefined"]
    assert verdicts.smaller("binary", "binormal", 60, 0.04) == 2      # 2.4
    assert verdicts.smaller("binary", "binormal", 120, 0.04) == 5     # 4.8
    assert verdicts.smaller("binary", "binormal", 100, 0.95) == 5     # the negatives
    assert verdicts.smaller("binary", "kink", 1000, 0.5) == 500
    assert verdicts.smaller("k", "softmax", 300, classes=3) == 60     # 0.2·300
    assert verdicts.smaller("k", "softmax", 100, classes=5) == 8      # 0.08·100
    labels = [verdicts.bracket(k) for k in (0, 9, 10, 29, 30, 99, 100, 999, 1000, 10**6)]
    assert labels == ["< 10", "< 10", "10–29", "10–29", "30–99", "30–99", "100–999",
                      "100–999", "≥ 1,000", "≥ 1,000"]


def test_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    cell = cells.Cell("binary", "binormal", "random", 100, prevalence=0.3, measures=("acc",))
    total = plan.estimate([cell], 400, 100, reps=1, pop_size={"binary": 2000})
    out = capsys.readouterr().out
    assert total > 0 and "binormal random n=100 π=0.3" in out and "on one core" in out


# --------------------------------------------------------------------------- verdicts
def _summary_rows() -> pd.DataFrame:
    base = {"task": "binary", "generator": "binormal", "design": "random", "prevalence": 0.2,
            "classes": 2, "average": "macro", "resampling": "joint", "sims": 400,
            "mcse": 0.01, "miss_below": 0.02, "miss_above": 0.03, "width": 0.1,
            "undefined": 0, "unbounded": 0, "population": 0.5, "population_se": 1e-3,
            "sec_per_sim": 0.1}
    rows = [
        {**base, "n": 100, "kind": "single", "model": "a", "measure": "f1", "method": "all",
         "coverage": 0.93},
        {**base, "n": 100, "kind": "single", "model": "b", "measure": "f1", "method": "all",
         "coverage": 0.88},
        {**base, "n": 100, "kind": "single", "model": "pooled", "measure": "f1",
         "method": "all", "coverage": 0.905},
        {**base, "n": 100, "kind": "single", "model": "a", "measure": "f1",
         "method": "bootstrap-bca", "coverage": 0.93},
        {**base, "n": 100, "kind": "single", "model": "b", "measure": "f1",
         "method": "bootstrap-percentile (BCa at edge)", "coverage": 0.5},
        {**base, "n": 1000, "generator": "calibrated", "kind": "single", "model": "a",
         "measure": "f1", "method": "all", "coverage": 0.95},
        {**base, "n": 1000, "generator": "calibrated", "kind": "single", "model": "b",
         "measure": "f1", "method": "all", "coverage": 0.97},
        {**base, "n": 100, "kind": "paired", "model": "a-b", "measure": "f1", "method": "all",
         "coverage": 0.94},
        {**base, "n": 100, "design": "random-stratified", "kind": "paired", "model": "a-b",
         "measure": "f1", "method": "all", "coverage": 0.5},
        {**base, "task": "k", "generator": "softmax", "classes": 3, "prevalence": math.nan,
         "n": 300, "kind": "single", "model": "a", "measure": "acc", "method": "all",
         "coverage": 0.96},
        {**base, "task": "k", "generator": "softmax", "classes": 3, "prevalence": math.nan,
         "n": 300, "kind": "single", "model": "a", "measure": "f1", "method": "all",
         "coverage": 0.91},
        {**base, "task": "k", "generator": "softmax", "classes": 3, "prevalence": math.nan,
         "n": 300, "average": "weighted", "kind": "single", "model": "a", "measure": "f1",
         "method": "all", "coverage": 0.92},
    ]
    return pd.DataFrame(rows)


def test_settings() -> None:
    """Per setting: the lowest model-cell (where), the mean over them, the methods seen,
    the averages; the random-stratified lesson is no setting."""
    t = verdicts.settings(_summary_rows(), {"acc": ["macro", "weighted", "micro"],
                                            "f1": ["macro"]})
    got = {(r.measure, r.classes, r.kind, tuple(r.averages)): r for r in t.itertuples()}
    f1 = got[("f1", "binary", "single", ())]
    assert (f1.cells, f1.lowest, f1.where, bool(f1.covers)) == (2, 0.88, "n=100, π=0.2", False)
    assert f1.mean == pytest.approx((0.93 + 0.88 + 0.95 + 0.97) / 4)
    assert f1.methods == ["bootstrap-bca"]   # procedures: the fallback is BCa
    assert len(f1.figures) == 4
    assert f1.figures[0] == ["binormal", 100, 0.2, "", "a", 0.93, 0.01, 0, 20]
    assert f1.figures[2] == ["calibrated", 1000, 0.2, "", "a", 0.95, 0.01, 0, 200]
    paired = got[("f1", "binary", "paired", ())]
    assert (paired.cells, paired.lowest, bool(paired.covers)) == (1, 0.94, True)
    assert got[("acc", "k", "single", ("macro", "weighted", "micro"))].lowest == 0.96
    assert got[("f1", "k", "single", ("macro",))].lowest == 0.91
    assert got[("f1", "k", "single", ("weighted",))].lowest == 0.92
    assert len(t) == 5
    row = _summary_rows().iloc[5]
    assert verdicts.where(row) == "n=1000, π=0.2, calibrated model"
    k = got[("acc", "k", "single", ("macro", "weighted", "micro"))]
    assert k.figures[0][-1] == 60   # 0.2·300
    assert verdicts.where(row.replace({"calibrated": "kink"})) == "n=1000, π=0.2, sens = spec"


def test_regime_report() -> None:
    """The report's tables per bracket of cases in the smaller class: each setting's
    lowest coverage (where) and mean per bracket, the count below the bar, and the
    withheld intervals (misses) with the method column's reasons."""
    rows = _summary_rows()
    extra = rows.iloc[[7]].assign(n=10_000, coverage=0.8, undefined=12, sims=400,
                                  reasons=json.dumps({"no interval: 0 predicted positives":
                                                      9, "delong": 3}))
    s = pd.concat([rows.assign(reasons=""), extra], ignore_index=True)
    text = "\n".join(report.regime_tables(s, preliminary=False))
    # cells, settings, below the bar, withheld intervals; brackets in their order
    assert "| 10–29 | 1 | 2 | 1 | 0 of 1200 |" in text      # f1 single (b: 0.88), paired
    assert "| 30–99 | 2 | 3 | 0 | 0 of 1200 |" in text      # k = 3, n = 300: 0.2·300
    assert "| 100–999 | 1 | 1 | 0 | 0 of 800 |" in text     # calibrated n = 1000, π = 0.2
    assert "| ≥ 1,000 | 1 | 1 | 1 | 12 of 400 |" in text
    assert text.index("| 10–29 |") < text.index("| 30–99 |") < text.index("| 100–999 |")
    assert "| f1 | k (weighted) | random | single model |  | 1 | 0.920" in text
    assert "### 10–29 cases in the smaller class" in text
    assert "1 of 2 settings below 0.90 (cells with 20 expected cases" in text
    assert ("| f1 | binary | random | single model | bootstrap-bca | 1 | **0.880 ± 0.010** "
            "(n=100, π=0.2) | 0.905 |  |") in text       # the BCa fallback is BCa
    assert "| f1 | binary | random | paired difference |  | 1 | **0.800 ± 0.010** " \
        "(n=10000, π=0.2) | 0.800 | 12 |" in text
    assert "random-stratified" not in text   # no library design
    withheld = "\n".join(report.withheld_table(s))
    assert "12 of the 3,600 intervals had a NaN end" in withheld
    assert ("| f1 | binary | random | paired difference | 12 of 400 | n=10000, π=0.2 (2000) | "
            "`no interval: 0 predicted positives` (9); `delong` (3) |") in withheld
    assert "None of the" in "\n".join(report.withheld_table(rows))
    assert cells.read_reasons(extra.reasons.iloc[0]) == {
        "no interval: 0 predicted positives": 9, "delong": 3}
    assert cells.reason_counts(["b", "a", "b", ""]) == json.dumps(
        {"b": 2, "a": 1, "no reason given": 1})
    assert cells.reason_counts([]) == "" and cells.read_reasons(math.nan) == {}


def _run(tmp: Path, *extra: str) -> int:
    return int(cli.main(["--designs", "random", "fixed", "--n", "100", "--prevalence", "0.3",
                         "--kinds", "single", "paired", "unpaired", "--sims", "3",
                         "--n-boot", "100", "--pop-size", "4000", "--cache", str(tmp / "cache"),
                         "--out", str(tmp / "coverage.md"), "--evidence",
                         str(tmp / "evidence" / "registry.json"), "--no-progress", *extra]))


def test_tiny_study_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tiny study through the command line: the report and the evidence file are written
    (atomically: no temporary file left, an interrupted write leaves the old file), a rerun
    reads every cell back and writes the same table, and measurelab reads the evidence
    (preliminary: no evidence)."""
    assert _run(tmp_path, "--measures", "acc", "f1", "auc") == 0
    report = (tmp_path / "coverage.md").read_text()
    doc = json.loads((tmp_path / "evidence" / "registry.json").read_text())
    assert doc["preliminary"] is True and doc["source"] == "registry"
    assert "Preliminary run" in report and "| f1 | binary | fixed | unpaired difference |" \
        in report
    keys = {(e["measure"], e["design"], e["kind"]) for e in doc["entries"]}
    assert keys == {(m, d, k) for m in ("acc", "f1", "auc") for d in ("random", "fixed")
                    for k in ("single", "paired", "unpaired")}
    assert not list(tmp_path.rglob(".*.tmp"))

    monkeypatch.setattr(cells, "one_sim", lambda *a: pytest.fail("a cell ran again"))
    first = (tmp_path / "evidence" / "registry.json").read_bytes()
    assert _run(tmp_path, "--measures", "acc", "f1", "auc") == 0
    assert (tmp_path / "evidence" / "registry.json").read_bytes() == first
    assert (tmp_path / "coverage.md").read_text() == report

    def no_rename(*_a: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store.os, "replace", no_rename)
    with pytest.raises(OSError, match="disk full"):
        _run(tmp_path, "--measures", "acc", "f1", "auc")
    assert (tmp_path / "evidence" / "registry.json").read_bytes() == first
    assert not list(tmp_path.rglob(".*.tmp"))
    monkeypatch.undo()

    monkeypatch.setattr(ev, "_OVERRIDE", tmp_path / "evidence")
    v = ev.coverage_verdict("f1", design="fixed", unpaired=True,
                            method="dirichlet-posterior")
    assert v.status == "preliminary"
    r = ml.evaluate([0, 1] * 20, np.linspace(0.1, 0.9, 40), measures=["f1"], ci=0.95,
                    n_boot=100)
    assert r.intervals().method.tolist() == [
        "dirichlet-posterior (no coverage evidence: preliminary run)"]


def test_verdict_reaches_the_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run with enough simulations is evidence: measurelab's method text follows its
    verdict (Wilson's and DeLong's intervals, analytic, so 200 simulations take seconds)."""
    out = tmp_path / "ev" / "registry.json"
    assert cli.main(["--designs", "random", "--n", "100", "--prevalence", "0.3",
                     "--kinds", "single", "--measures", "acc", "auc", "--sims", "200",
                     "--n-boot", "100", "--pop-size", "20000", "--cache", str(tmp_path / "c"),
                     "--out", str(tmp_path / "r.md"), "--evidence", str(out),
                     "--no-progress"]) == 0
    doc = json.loads(out.read_text())
    assert doc["preliminary"] is False
    monkeypatch.setattr(ev, "_OVERRIDE", out.parent)
    r = ml.evaluate([0, 1] * 50, np.linspace(0.05, 0.95, 100), measures=["acc", "auc"],
                    ci=0.95)
    methods = r.intervals().set_index("measure").method
    for e in doc["entries"]:
        base = {"acc": "wilson", "auc": "delong-logit"}[e["measure"]]
        if e["lowest"] >= ev.BAR:
            assert methods[e["measure"]] == base
        else:
            assert methods[e["measure"]] == (f"{base} (coverage {e['lowest']:.3f} < 0.90 at "
                                             f"{e['where']})")
        assert e["cells"] == 1 and len(e["figures"]) == 2    # models a and b
    assert "## Verdicts" in (tmp_path / "r.md").read_text()


def test_small_plan_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``--plan small``: --list numbers its cells, --cells runs two of them into files of
    one's own (never the plan's), the evidence has the source 'small-counts' and the
    ``smaller`` field, and measurelab reads it beside the registry-wide study's file."""
    assert cli.main(["--plan", "small", "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 35 and "sparse-flags random n=120 π=0.5" in listed[18]
    assert "kink random n=300 π=0.5" in listed[22] and listed[22].split()[0] == "23"
    with pytest.raises(SystemExit):
        cli.main(["--plan", "small", "--cells", "17"])    # no --out, --evidence
    with pytest.raises(SystemExit):
        cli.main(["--plan", "small", "--cells", "36", "--out", "x", "--evidence", "y"])
    capsys.readouterr()
    folder = tmp_path / "ev"
    assert cli.main(["--plan", "small", "--cells", "19", "23", "--sims", "2", "--n-boot",
                     "100", "--pop-size", "4000", "--cache", str(tmp_path / "c"), "--out",
                     str(tmp_path / "r.md"), "--evidence", str(folder / "small_counts.json"),
                     "--no-progress"]) == 0
    doc = json.loads((folder / "small_counts.json").read_text())
    assert doc["source"] == "small-counts" and doc["preliminary"] is True
    assert doc["cell_fields"] == verdicts.CELL_FIELDS and doc["cell_fields"][-1] == "smaller"
    assert doc["grid"]["binary"]["generators"] == ["kink", "sparse-flags"]
    assert {e["measure"] for e in doc["entries"]} == set(
        plan.select("small-counts", "binary", "random", ("single", "paired")))
    figs = {(f[0], f[4]): f for e in doc["entries"] for f in e["figures"]}
    assert figs[("sparse-flags", "a")][-1] == 60 and figs[("kink", "a-b")][-1] == 150
    assert any(e["where"].endswith(("4% flagged", "sens = spec")) for e in doc["entries"])
    text = (tmp_path / "r.md").read_text()
    assert text.startswith("# Coverage of measurelab's 95% intervals at small counts")
    assert "## Coverage by regime: cases in the smaller class" in text
    assert "### 30–99 cases in the smaller class" in text and "### 100–999" in text
    assert "## Withheld and undefined intervals" in text and "`kink`" in text
    shipped = Path(ml.__file__).resolve().parent / "data" / "coverage" / "registry.json"
    (folder / "registry.json").write_bytes(shipped.read_bytes())
    monkeypatch.setattr(ev, "_OVERRIDE", folder)
    assert set(ev.evidence_table().source) == {"registry", "small-counts"}


def test_large_plan_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``--plan large``: --list numbers its cells (the 10⁵ cells with their fewer
    simulations); a tiny run of two cells (10⁴ cases, 2 simulations) forces the influence
    interval and writes a well-formed evidence file (source 'large-n', the ``smaller``
    field, the weighted design) that measurelab reads beside the registry-wide study's."""
    assert cli.main(["--plan", "large", "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 20
    assert "binormal-exact random n=10000 π=0.01" in listed[0]
    assert listed[0].rstrip().endswith("100 in the smaller class")
    assert "binormal-exact weighted n=10000 π=0.05" in listed[6]
    assert "binormal-exact weighted n=10000 π=0.5" in listed[7]
    assert "50000 in the smaller class, 500 sims" in listed[9]
    folder = tmp_path / "ev"
    assert cli.main(["--plan", "large", "--cells", "2", "7", "--sims", "2", "--pop-size",
                     "4000", "--cache", str(tmp_path / "c"), "--out", str(tmp_path / "r.md"),
                     "--evidence", str(folder / "large_n.json"), "--no-progress"]) == 0
    doc = json.loads((folder / "large_n.json").read_text())
    assert doc["source"] == "large-n" and doc["preliminary"] is True and doc["sims"] == 2
    assert "sims_by_cell" not in doc   # both cells ran the run's 2
    assert doc["cell_fields"] == verdicts.CELL_FIELDS and doc["cell_fields"][-1] == "smaller"
    assert doc["grid"]["binary"] == {"generators": ["binormal-exact"], "designs": [
        "random", "weighted"], "n": [10_000], "prevalence": [0.05, 0.5], "cells": 2}
    entries = doc["entries"]
    assert {e["measure"] for e in entries} == set(plan.LARGE_MEASURES)
    assert {(e["design"], e["kind"]) for e in entries} == {
        (d, k) for d in ("random", "weighted") for k in ("single", "paired")}
    assert {m for e in entries for m in e["methods"]} == {"influence"}
    assert {(f[1], f[2], f[-1]) for e in entries for f in e["figures"]} == {
        (10_000, 0.5, 5000), (10_000, 0.05, 500)}
    assert all(len(f) == len(doc["cell_fields"]) for e in entries for f in e["figures"])
    text = (tmp_path / "r.md").read_text()
    assert text.startswith("# Coverage of measurelab's 95% intervals at large n")
    assert "`--plan large`" in text and "`weighted`" in text and "`binormal-exact`" in text
    assert "### binary, binormal-exact, weighted, paired difference" in text
    shipped = Path(ml.__file__).resolve().parent / "data" / "coverage" / "registry.json"
    (folder / "registry.json").write_bytes(shipped.read_bytes())
    monkeypatch.setattr(ev, "_OVERRIDE", folder)
    assert set(ev.evidence_table().source) == {"registry", "large-n"}
    v = ev.coverage_verdict("ap", design="weighted", method="influence", smaller=500)
    assert v.status == "preliminary"


def test_k_class_study(tmp_path: Path) -> None:
    """The command line's k-class grid: averages recorded per setting."""
    assert cli.main(["--task", "k", "--classes", "3", "--designs", "random", "--n", "150",
                     "--measures", "acc", "f1", "--sims", "2", "--n-boot", "100",
                     "--pop-size-k", "4000", "--cache", str(tmp_path / "c"),
                     "--out", str(tmp_path / "r.md"), "--evidence",
                     str(tmp_path / "e.json"), "--no-progress"]) == 0
    doc = json.loads((tmp_path / "e.json").read_text())
    av = {(e["measure"], e["kind"]): e["averages"] for e in doc["entries"]}
    assert av[("acc", "single")] == ["macro", "weighted", "micro"]
    assert av[("f1", "paired")] == ["macro"]
    assert doc["grid"]["k"]["classes"] == [3]


def test_confusion_catalogue_plan() -> None:
    """The catalogue plan (issue 44): its ten measures, computed only when named (so the
    full plan, which asks for the default set, leaves them out), binary single, paired and
    unpaired at random and fixed designs, k classes at 3 and 5 classes and the three
    averages of the class statistics; every interval the library offers for them has an
    entry in the shipped evidence."""
    from measurelab.inference.classifiers.offered import offered_intervals

    cat = importlib.import_module("covstudy.plan_catalogue")
    cs = plan.plan_cells(cli.PLANS["confusion-catalogue"])
    assert set(cat.MEASURES) == {"kappa_linear", "kappa_quadratic", "scott_pi", "gwet_ac1",
                                 "dor", "markedness", "fdr", "for_rate", "jaccard",
                                 "fowlkes_mallows"}
    ran = {(c.task, c.design, kind, m, c.average) for c in cs for kind in c.kinds
           for m in c.measures}
    for d in ("random", "fixed"):
        for kind in ("single", "paired"):
            assert {("binary", d, kind, m, "macro") for m in cat.MEASURES} <= ran
            assert {("k", d, kind, m, "macro") for m in cat.MEASURES} <= ran
    for d in ("random", "fixed"):   # k classes offer no unpaired interval
        assert {("binary", d, "unpaired", m, "macro") for m in cat.MEASURES} <= ran
    for average in ("weighted", "micro"):
        assert {("k", "random", "single", m, average) for m in cat.CLASS} <= ran
    assert {c.classes for c in cs if c.task == "k"} == {3, 5}
    out = cli.OUTPUTS["confusion-catalogue"]
    assert (out.source, out.evidence, out.report) == (
        "confusion-catalogue", Path("src/measurelab/data/coverage/confusion_catalogue.json"),
        Path("docs/coverage_confusion_catalogue.md"))
    missing = []
    for multiclass in (False, True):
        for design in ("random", "fixed"):
            t = offered_intervals(multiclass=multiclass, design=design, measures=cat.MEASURES)
            t = t[t.offered]
            assert set(t.measure) == set(cat.MEASURES)
            for r in t.itertuples():
                v = ev.coverage_verdict(r.measure, multiclass=multiclass, design=design,
                                        paired=r.kind == "paired",
                                        unpaired=r.kind == "unpaired", method=r.method)
                if v.status == "none":
                    missing.append((multiclass, design, r.measure, r.kind, r.method))
    assert not missing, missing
