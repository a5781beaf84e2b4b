"""A small version of the interval-coverage study (``benchmarks/coverage_study.py``, SPEC §6).

Two correlated binormal models, n = 300, prevalence 0.3: 400 simulated test sets per design,
400 bootstrap replicates. Every key measure's 95% interval (single model, both models
pooled, and the paired difference a − b) must cover the population value in at least 90% of
them. With 400 test sets the Monte Carlo SE of a coverage near 0.94 is about 0.012, so a
value below 0.90 is more than three SEs under it: a real loss of coverage, not noise. The
simulation is seeded, so the outcome is the same on every run. The full study (500 test sets
a cell, n = 300 and 400, prevalence .1 and .3, 1000 replicates) is docs/coverage.md.
The k-class study (issue 19) gets smoke tests only (generator, one tiny cell, the
command line); its full run is docs/coverage_multiclass.md.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd
import pytest

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "coverage_study.py"


def _load() -> ModuleType:
    """benchmarks/coverage_study.py as a module (benchmarks/ is no package)."""
    name = "measurelab_benchmark_coverage"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, _PATH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while it loads
        spec.loader.exec_module(module)
    return sys.modules[name]


cov = _load()

SIMS, N, PREVALENCE, N_BOOT = 400, 300, 0.3, 400
#: the population values' MC error at this size (~1e-3) is small against the widths (>= 0.04)
POP_SIZE = 500_000
FLOOR = 0.90


def _table(df: pd.DataFrame) -> str:
    show = df[["kind", "model", "measure", "method", "sims", "coverage", "mcse", "miss_below",
               "miss_above", "width", "undefined", "population"]]
    return show.to_string(index=False, float_format=lambda v: f"{v:.4f}")


def test_population_matches_exact() -> None:
    """The large-sample population values agree with the limits by numerical integration."""
    for design in cov.DESIGNS:
        pop = cov.population(design, PREVALENCE, cov.KEY_MEASURES, seed=0, size=400_000)
        for m in cov.KEY_MEASURES:
            for j in range(3):
                v, se, ex = pop.value[m][j], pop.se[m][j], pop.exact[m][j]
                assert se > 0 and math.isfinite(ex), (design, m, j)
                assert abs(v - ex) <= 5 * se, (design, m, j, v, ex, se)
    ex = cov.GENERATOR.exact(0.1, ["auc", "ap", "apr"])
    assert ex["auc"] == pytest.approx((0.80, 0.85), abs=1e-4)
    assert ex["ap"] == ex["apr"]


@pytest.mark.parametrize("design", ["random", "fixed"])  # the designs measurelab promises
def test_coverage_small(design: str) -> None:
    assert cov.supports_stratify(), (
        "measurelab.compare_classifiers has no `stratify` keyword: the random design needs "
        "case resampling (stratify=False), the fixed design stratified resampling")
    df = cov.run_cell(design, N, PREVALENCE, SIMS, N_BOOT, 0, cov.KEY_MEASURES,
                      pop_size=POP_SIZE)
    overall = df[(df.method == cov.ALL) & df.model.isin(["pooled", "a-b"])]
    print(f"\n{design} design, n={N}, π={PREVALENCE}, {SIMS} simulations, {N_BOOT} replicates")
    print(_table(df[df.model.isin(["pooled", "a-b"])]))
    assert set(overall.measure[overall.kind == "single"]) == set(cov.KEY_MEASURES)
    assert set(overall.measure[overall.kind == "diff"]) == set(cov.KEY_MEASURES)
    assert (overall.sims == SIMS).all()
    low = overall[overall.coverage < FLOOR]
    assert low.empty, (f"{design} design: coverage below {FLOOR} for "
                       f"{sorted(zip(low.kind, low.measure, strict=True))}\n{_table(overall)}")


def test_resume_gives_the_same_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run killed after a checkpoint resumes from it; the table is the uninterrupted one,
    and a finished cell is read back without any simulation."""
    args: tuple[Any, ...] = ("fixed", 200, 0.3, 6, 100, 3, ["auc", "f1", "brier"])
    kw: dict[str, Any] = {"pop_size": 20_000}
    plain = cov.run_cell(*args, **kw)

    real = cov._one_sim
    monkeypatch.setattr(cov, "CHECKPOINT", 2)

    def dies_at_five(i: int, *rest: Any) -> Any:
        if i == 5:
            raise KeyboardInterrupt
        return real(i, *rest)

    monkeypatch.setattr(cov, "_one_sim", dies_at_five)
    with pytest.raises(KeyboardInterrupt):
        cov.run_cell(*args, cache_dir=tmp_path, **kw)
    partial = list(tmp_path.glob("cell-*.partial.json"))
    assert len(partial) == 1

    done: list[int] = []

    def counts(i: int, *rest: Any) -> Any:
        done.append(i)
        return real(i, *rest)

    monkeypatch.setattr(cov, "_one_sim", counts)
    resumed = cov.run_cell(*args, cache_dir=tmp_path, **kw)
    assert done == [4, 5]   # 0-3 came from the checkpoint
    assert not list(tmp_path.glob("cell-*.partial.json"))
    assert len(list(tmp_path.glob("cell-*.json"))) == 1

    def never(*_: Any) -> Any:
        raise AssertionError("a finished cell was simulated again")

    monkeypatch.setattr(cov, "_one_sim", never)
    again = cov.run_cell(*args, cache_dir=tmp_path, **kw)
    for other in (resumed, again):
        pd.testing.assert_frame_equal(plain.drop(columns="sec_per_sim"),
                                      other.drop(columns="sec_per_sim"), check_dtype=False)


def test_clustered_share() -> None:
    """Pooled coverage: the share over all intervals, simulations as clusters."""
    p, se = cov._clustered_share(np.array([0, 0, 1, 1, 2, 2]),
                                 np.array([True, True, True, False, False, False]))
    assert p == pytest.approx(0.5)
    # per-simulation shares 1, .5, 0: SE = sd / √3 = .5 / √3
    assert se == pytest.approx(0.5 / math.sqrt(3))


# ------------------------------------------------------------------ k classes (issue 19)
def test_multi_generator() -> None:
    """The k-class generator: probability rows, the priors, exact counts in the fixed
    design, two models of different quality with correlated errors; its ``auc`` (macro) is
    Hand–Till's M (scikit-learn's one-vs-one macro AUC)."""
    from sklearn.metrics import roc_auc_score

    import measurelab as ml

    for k in (3, 5):
        gen = cov.multi_generator(k)
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
    with pytest.raises(ValueError, match="k >= 3"):
        cov.multi_generator(2)


def test_multi_cell_smoke(tmp_path: Path) -> None:
    """A tiny k-class cell: every measure gets single and paired rows with the expected
    methods (Wilson, McNemar, BCa), and a finished cell is read back from its cache."""
    args: tuple[Any, ...] = ("random", 200, 3, 4, 100, 0)
    df = cov.run_multi_cell(*args, pop_size=20_000, cache_dir=tmp_path)
    assert list(df.columns) == cov._MULTI_COLUMNS
    assert (df.classes == 3).all() and (df.resampling == "joint").all()
    overall = df[(df.method == cov.ALL) & df.model.isin(["pooled", "a-b"])]
    for kind in ("single", "diff"):
        assert set(overall.measure[overall.kind == kind]) == set(cov.MULTI_MEASURES)
    assert (overall.sims == 4).all()
    methods = {(r.kind, r.measure): r.method for r in df[df.method != cov.ALL]
               .itertuples() if r.model in ("a", "a-b")}
    assert methods[("single", "acc")] == "wilson"
    assert methods[("diff", "acc")] == "tango-score"
    assert methods[("single", "auc")] == "bootstrap-bca"
    assert methods[("diff", "f1")] == "bootstrap-bca"
    pop = df[(df.model == "b") & (df.method == cov.ALL)].set_index("measure").population
    assert 0.5 < pop["auc"] < 1 and 0 < pop["brier"] < 1
    assert [p.name.split("-")[1] for p in tmp_path.glob("cell-*.json")] == ["k3"]
    again = cov.run_multi_cell(*args, pop_size=20_000, cache_dir=tmp_path)
    pd.testing.assert_frame_equal(df, again, check_dtype=False)


def test_cli_smoke(tmp_path: Path) -> None:
    """The command line: ``--classes`` runs the k-class study into its own report; without
    it the binary study runs as before (and links the k-class report)."""
    common = ["--n", "150", "--designs", "random", "--sims", "2", "--n-boot", "100",
              "--cache", str(tmp_path / "cache"), "--no-progress"]
    multi_out = tmp_path / "multi.md"
    assert cov.main([*common, "--classes", "3", "--pop-size", "20000",
                     "--out", str(multi_out)]) == 0
    text = multi_out.read_text()
    assert "k=3 random n=150" in text and "Hand–Till" in text
    binary_out = tmp_path / "binary.md"
    assert cov.main([*common, "--prevalence", "0.3", "--measures", "auc", "f1",
                     "--pop-size", "4000", "--out", str(binary_out)]) == 0
    text = binary_out.read_text()
    assert "random n=150 π=0.3" in text and "coverage_multiclass.md" in text
    names = sorted(p.name.split("-")[1] for p in (tmp_path / "cache").glob("cell-*.json"))
    assert names == ["k3", "random"]
