"""One real function per registered measure (measurelab.metrics.auc, ...): picklable, with
its own signature, docstring and name, and the same value as evaluate()."""

from __future__ import annotations

import doctest
import inspect
import io
import math
import pickle
import sys
import warnings
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pytest

import measurelab as ml
from measurelab.metrics import functions
from measurelab.metrics.functions import FUNCTIONS

NAMES = sorted(FUNCTIONS)
ROOT = Path(__file__).resolve().parents[2]
#: a non-default value of each measure parameter
OTHER = {"beta": 2.0, "zero_division": 1.0, "x": 2, "q": 0.1, "base": 2.0, "n_bins": 5,
         "k": 2, "window": 5, "t": 0.2, "min_spec": 0.8, "min_sens": 0.7, "min_recall": 0.6,
         "min_prec": 0.5, "max_fpr": 0.3}


def test_every_registered_built_in_measure_has_its_function():
    assert set(NAMES) == {m.name for m in ml.registry}
    for name in NAMES:
        assert getattr(ml.metrics, name) is FUNCTIONS[name] is getattr(functions, name)


@pytest.mark.parametrize("name", NAMES)
def test_a_real_function_with_its_own_name_signature_and_docstring(name):
    f = FUNCTIONS[name]
    m = ml.registry.get(name)
    assert inspect.isfunction(f)
    assert (f.__name__, f.__qualname__, f.__module__) == (name, name,
                                                          "measurelab.metrics._measures")
    assert pickle.loads(pickle.dumps(f)) is f
    params = inspect.signature(f).parameters
    assert list(params)[:2] == ["y_true", "y_score"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in list(params.values())[2:])
    assert not any(p.kind in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
                   for p in params.values())
    hard = m.kind in ("threshold", "composite")
    assert ("threshold" in params) is hard and ("inclusive" in params) is hard
    assert ("average" in params) is m.supports_multiclass
    for k, v in m.params.items():
        assert params[k].default == v or (isinstance(v, float) and math.isnan(v)
                                          and math.isnan(params[k].default))
    # help() shows the signature and the measure's description
    out = io.StringIO()
    with redirect_stdout(out):
        help(f)
    text = out.getvalue()
    assert f"{name}(y_true, y_score" in text
    assert m.description and m.description in " ".join(text.split())
    for section in ("Parameters", "Returns", "See Also"):
        assert section in f.__doc__


@pytest.mark.parametrize("name", NAMES)
def test_an_unknown_keyword_is_a_type_error_naming_it(name):
    f = FUNCTIONS[name]
    with pytest.raises(TypeError, match=f"^{name}\\(\\) got an unexpected keyword argument "
                                        "'no_such_option'$"):
        f([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], no_such_option=1)
    with pytest.raises(TypeError, match=f"^{name}\\(\\) "):
        f([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], 0.5)  # keywords only after the data
    if "threshold" not in inspect.signature(f).parameters:
        with pytest.raises(TypeError, match="'threshold'"):
            f([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], threshold=0.3)


def _same(a, b):
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return np.array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                          equal_nan=True)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", NAMES)
def test_the_function_equals_evaluate_on_random_data(name, seed):
    rng = np.random.default_rng(seed)
    n = 120
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(0.35 * y + rng.random(n) * 0.7, 0, 1), 2)  # probabilities, ties
    w = rng.integers(1, 4, n).astype(float)  # whole weights: every measure applies
    f = FUNCTIONS[name]
    m = ml.registry.get(name)
    hard = m.kind in ("threshold", "composite")
    calls = [{}, {"sample_weight": w}, {"pos_label": 0}]
    if hard:
        calls += [{"threshold": 0.45, "inclusive": True}, {"threshold": 0.45}]
    calls += [{k: OTHER[k]} for k in m.params]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined values are NaN on both routes
        for kw in calls:
            params = {k: v for k, v in kw.items() if k in m.params}
            data = {k: v for k, v in kw.items() if k not in m.params}
            measure = m.with_params(**params) if params else m
            want = ml.evaluate(y, s, measures=[measure], **data)[name]
            assert _same(f(y, s, **kw), want), kw
        if m.supports_multiclass:
            k = 3
            yk = rng.integers(0, k, n)
            P = rng.dirichlet(np.ones(k), n)
            for average in ("macro", "weighted", "micro", None):
                try:
                    want = ml.evaluate(yk, P, measures=[name], average=average)[name]
                except ml.MeasurelabError as e:
                    with pytest.raises(ml.MeasurelabError, match=str(e)[:30]):
                        f(yk, P, average=average)
                    continue
                assert _same(f(yk, P, average=average), want), average


def test_the_generated_module_is_up_to_date():
    """measurelab/metrics/_measures.py is what tools/generate_metrics.py writes from the
    registry today (regenerate it after changing a built-in measure)."""
    path = Path(functions.__file__).with_name("_measures.py")
    assert path.read_text(encoding="utf-8") == functions.generated_source()


def test_every_built_in_function_is_a_static_definition():
    """grep and type checkers find ``def <name>(`` for every built-in measure, and the
    functions the package gives are those definitions."""
    from measurelab.metrics import _measures

    text = Path(_measures.__file__).read_text(encoding="utf-8")
    for name in NAMES:
        assert f"\ndef {name}(" in text
        assert FUNCTIONS[name] is getattr(_measures, name)
        dynamic = functions.data_function(ml.registry.get(name))
        assert inspect.getdoc(FUNCTIONS[name]) == inspect.getdoc(dynamic)
        assert str(inspect.signature(FUNCTIONS[name])) == str(inspect.signature(dynamic))
        assert FUNCTIONS[name].measure is ml.registry.get(name)
    assert sorted(_measures.__all__) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_the_examples_help_shows_run_once_as_the_formulas_doctests(name):
    """The file keeps a summary per function; the full docstring (with the examples) is
    attached on import. Its examples are those of the measure's formula, which run as the
    formula's doctest; conftest.py leaves _measures.py out of doctest collection."""
    from measurelab.metrics import _measures

    m = ml.registry.get(name)
    text = Path(_measures.__file__).read_text(encoding="utf-8")
    static = text.split(f"\ndef {name}(", 1)[1].split("\n\n\n", 1)[0]
    assert "Parameters" not in static and ">>>" not in static
    shown = [e.source for e in doctest.DocTestParser().get_examples(FUNCTIONS[name].__doc__)]
    module = sys.modules[m.formula.__module__]
    run = {t.name: t for t in doctest.DocTestFinder().find(module)}
    formula = run[f"{module.__name__}.{m.formula.__qualname__}"]
    assert set(shown) <= {e.source for e in formula.examples}
    assert "src/measurelab/metrics/_measures.py" in ROOT.joinpath("conftest.py").read_text(
        encoding="utf-8")
