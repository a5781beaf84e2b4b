"""A small version of the simulation study of issue 32 (``benchmarks/decisions_study.py``;
the full run is docs/decisions_study.md).

Net benefit: 150 test sets of n = 300, prevalence 0.3, from two correlated binormal models
with exact population net benefits; every model's interval and every paired difference
(a − b, a − treat all) of ``net_benefit()`` at thresholds 0.05–0.5 must cover in at least
88% of them (the Monte
Carlo SE of a coverage near 0.95 is 0.018 here, so 0.88 is more than three SEs under it).
Power: the comparison's DeLong test on 600 binormal test sets rejects as often as the
studentized calculation with the population's DeLong variances predicts, within three
simulation SEs and 0.02; O–M's binormal calculation is reported beside it. Seeded: the
same outcome on every run."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "decisions_study.py"


def _load() -> ModuleType:
    name = "measurelab_benchmark_decisions"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, _PATH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


study = _load()


def test_exact_population_net_benefit_matches_a_large_sample():
    import numpy as np

    m = study.Models()
    y, s = m.draw("random", 400_000, 0.3, np.random.default_rng(0))
    import measurelab as ml

    for k, name in enumerate("ab"):
        for t in (0.05, 0.2, 0.5):
            big = ml.evaluate(y, s[name], measures=[f"net_benefit@{t}"])[f"net_benefit@{t}"]
            assert big == pytest.approx(m.net_benefit(k, 0.3, t), abs=4e-3)


def test_net_benefit_intervals_cover():
    cell = study.nb_cell("random", 300, 0.3, 150, 300, seed=11, progress=False)
    low = []
    for kind, per in cell["counts"].items():
        if kind.endswith("-boot"):  # the registry rows, measured for contrast
            continue
        for t, (hit, below, above, _w) in per.items():
            cov = hit / (hit + below + above)
            if cov < 0.88:
                low.append((kind, t, cov))
    assert not low, low


def test_simulated_power_agrees_with_the_studentized_calculation():
    out = study.power_cell("two", (0.85, 0.75, 60, 0.5), 600, seed=3, progress=False)
    sim = out["sim"]
    assert abs(sim["power"] - out["studentized"]) < 3 * sim["se"] + 0.02, out
    assert 0 < out["om"] < 1 and math.isfinite(out["proc_delong"])
