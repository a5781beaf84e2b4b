"""One convention for randomness: public functions take ``random_state`` (an int, None or a
numpy Generator), default 0, and no other name for it."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil

import numpy as np
import pandas as pd
import pytest

import measurelab as ml
from measurelab.inference import bootstrap as bs
from measurelab.inference.classifiers.unpaired import compare_unpaired

# modules by name: the package faces export functions called ``consistency`` and
# ``correlation``
consistency = importlib.import_module("measurelab.metaeval.consistency")
correlation = importlib.import_module("measurelab.metaeval.correlation_study")
domains = importlib.import_module("measurelab.metaeval.domains")
metric_space = importlib.import_module("measurelab.metaeval.metric_space")

G = np.random.default_rng(5)
Y = G.random(80) < 0.4
S = np.clip(0.5 * Y + G.normal(0.3, 0.25, 80), 0, 1)
S2 = np.clip(0.3 * Y + G.normal(0.35, 0.25, 80), 0, 1)
PTS = G.normal(size=(6, 3))
D = np.sqrt(((PTS[:, None] - PTS[None]) ** 2).sum(-1))


def _sample(rng):
    x = rng.random(30)
    return {"ref": x, "noisy": x + rng.random(30)}


#: name -> call(**random-state keywords) giving something comparable with _same
CALLS = {
    "evaluate": lambda **kw: ml.evaluate(Y, S, measures=["f1", "apr"], ci=0.9, n_boot=100,
                                         **kw).intervals(),
    "compare_classifiers": lambda **kw: ml.compare_classifiers(
        Y, {"a": S, "b": S2}, measures=["f1"], n_boot=100, **kw).tests(),
    "curve_bands": lambda **kw: ml.compare_classifiers(
        Y, {"a": S}, measures=["auc"], n_boot=100, **kw).curve_bands(n_boot=100)["roc"]["a"]["lo"],
    "compare_unpaired": lambda **kw: compare_unpaired(Y[:40], S[:40], Y[40:], S2[40:],
                                                      measures=["f1"], n_boot=100,
                                                      **kw).tests(),
    "run_bootstrap": lambda **kw: bs.run_bootstrap(
        bs.CaseDesign.from_cases(Y, [S]), [ml.registry.get("acc")], 100, **kw).reps,
    "rng_of": lambda **kw: bs.rng_of(**kw).random(3),
    "SampledRankedLists": lambda **kw: domains.SampledRankedLists(12, 6, size=40, **kw).tp,
    "perturbed_lists": lambda **kw: domains.perturbed_lists(8, 0.3, 4, **kw)[2],
    "jackknife_ci": lambda **kw: consistency.jackknife_ci(
        *consistency.measure_ranks("auc", domains.SampledRankedLists(12, 6, size=300)),
        *consistency.measure_ranks("acc", domains.SampledRankedLists(12, 6, size=300)),
        groups=5, **kw),
    "compare_on_ranked_lists": lambda **kw: consistency.compare_on_ranked_lists(
        "auc", "acc", 12, 6, sample=200, **kw).to_dict(),
    "repeated_correlations": lambda **kw: correlation.repeated_correlations(
        _sample, "ref", runs=3, **kw),
    "mds": lambda **kw: metric_space.mds(D, 2, **kw)[0],
    "stress_curve": lambda **kw: metric_space.stress_curve(D, 3, **kw),
    "reliability_diagram": lambda **kw: ml.reliability_diagram(Y, S, n_boot=50, **kw),
    "bayes_compare": lambda **kw: ml.bayes_compare(S[:20], S2[:20], rope=0.01,
                                                   method="signed-rank", n_samples=500,
                                                   **kw).sample,
    "bayes_pairs": lambda **kw: ml.inference.bayes_pairs(
        {"a": S[:20], "b": S2[:20], "c": S[20:40]}, rope=0.01, method="sign",
        n_samples=500, **kw),
}


def _same(a, b) -> bool:
    if isinstance(a, pd.DataFrame | pd.Series):
        return a.equals(b)
    if isinstance(a, dict):  # a result's to_dict(): JSON-ready
        return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    if isinstance(a, tuple):
        return all(_same(x, z) for x, z in zip(a, b, strict=True))
    return bool(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True))


@pytest.mark.parametrize("name", list(CALLS))
def test_random_state_seeds_the_draws(name):
    call = CALLS[name]
    default = call()
    assert _same(call(random_state=0), default)
    assert _same(call(random_state=3), call(random_state=3))
    with pytest.raises(TypeError):
        call(seed=0)


def test_a_generator_is_used_as_given():
    a = ml.evaluate(Y, S, measures=["f1"], ci=0.9, n_boot=100,
                    random_state=np.random.default_rng(4)).intervals()
    b = ml.evaluate(Y, S, measures=["f1"], ci=0.9, n_boot=100,
                    random_state=np.random.default_rng(4)).intervals()
    assert a.equals(b)


def test_bad_random_state_is_one_line():
    with pytest.raises(ml.MeasurelabError, match="random_state must be a non-negative integer"):
        ml.evaluate(Y, S, measures=["f1"], ci=0.9, n_boot=100, random_state=-1)


def test_comparison_keeps_its_random_state():
    r = ml.compare_classifiers(Y, {"a": S}, measures=["f1"], n_boot=100, random_state=7)
    assert r.random_state == 7
    assert type(ml.compare_classifiers(Y, {"a": S}, measures=["f1"]).random_state) is int


def _public_callables():
    """Every public function and class of the library (lab and cli aside)."""
    import measurelab

    for info in pkgutil.walk_packages(measurelab.__path__, "measurelab."):
        name = info.name
        if name.startswith(("measurelab.lab", "measurelab.cli")) or \
                any(part.startswith("_") for part in name.split(".")[1:]):
            continue
        mod = importlib.import_module(name)
        for attr, obj in vars(mod).items():
            if attr.startswith("_") or getattr(obj, "__module__", None) != name:
                continue
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{name}.{attr}", obj
            if inspect.isclass(obj):
                for meth, f in vars(obj).items():
                    if inspect.isfunction(f) and not meth.startswith("_"):
                        yield f"{name}.{attr}.{meth}", f


def test_no_public_function_takes_seed():
    offenders = []
    for name, obj in _public_callables():
        try:
            params = inspect.signature(obj).parameters
        except (TypeError, ValueError):
            continue
        if "seed" in params:
            offenders.append(name)
        elif "random_state" in params and params["random_state"].default not in (
                inspect.Parameter.empty, None) and type(params["random_state"].default) is not int:
            offenders.append(name)  # a default that is not a plain int or None
    assert not offenders
