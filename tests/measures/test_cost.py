"""Each measure declares its cost (``Measure.cost``), and the default set of
``evaluate(y, p)`` holds the measures whose cost fits the budget: a 'heavy' measure is
computed only when named, and says so in the registry listing."""

from __future__ import annotations

import json

import numpy as np
import pytest

import measurelab as ml
from measurelab.cli import main
from measurelab.measures.base import COSTS, DEFAULT_COSTS, Measure, measure, registry

Y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
P = np.array([0.1, 0.8, 0.6, 0.3, 0.9, 0.4, 0.2, 0.7])
#: the built-in measures left out of the default set: the loess family, linear but with a
#: constant (nine local fits over 75 % of the rows) the default set's budget cannot carry,
#: and the logistic recalibration (a Newton fit: several passes of exp and log over the
#: rows, each fit alone 5-17 times one np.sort of the scores at 10^5 distinct scores,
#: benchmarks/bench_evaluate.py, where the whole default set is about 11)
HEAVY = {"ici", "e50", "e90", "emax", "cal_slope", "cal_intercept"}
#: the built-in measures computed only when named whatever their cost: their parameter is
#: the user's question (the operating point, issue 42), or they are further readings of
#: the confusion matrix the default set leaves to those who ask (PyCM's catalogue and the
#: weighted kappas, issue 44)
WHEN_NAMED = {"sens_at_spec", "spec_at_sens", "prec_at_recall", "recall_at_prec", "pauc",
              "spauc", "kappa_linear", "kappa_quadratic", "scott_pi", "gwet_ac1", "dor",
              "markedness", "fdr", "for_rate", "jaccard", "fowlkes_mallows"}


@pytest.fixture
def heavy():
    """A measure that declares itself heavy (registered for the test only)."""

    @measure("slow_auc", kind="rank", statistic="scores", cost="heavy",
             source="a test measure")
    def slow_auc(t):
        """AUC, pretending to be expensive."""
        return registry.get("auc").formula(t)

    yield registry.get("slow_auc")
    registry.unregister("slow_auc")


def test_every_measure_declares_a_cost_and_only_loess_and_logistic_are_heavy():
    assert COSTS == ("linear", "sort", "heavy") and DEFAULT_COSTS == ("linear", "sort")
    for m in registry:
        if m.name in HEAVY:
            assert m.cost == "heavy" and not m.in_default_set, m.name
            continue
        assert m.cost in DEFAULT_COSTS, m.name
        # the counts give the threshold measures in one pass; every other measure reads
        # the sorted score table
        assert m.cost == ("linear" if m.statistic == "counts" else "sort"), m.name
        assert m.when_named == (m.name in WHEN_NAMED), m.name
        assert m.in_default_set == (m.name not in WHEN_NAMED), m.name


def test_a_measure_asked_for_by_its_parameter_is_computed_when_named():
    default = ml.evaluate(Y, P)
    assert not WHEN_NAMED & set(default) and "auc" in default
    r = ml.evaluate(Y, P, measures=["sens_at_spec", "pauc@0.5"])
    assert r["sens_at_spec"] == ml.metrics.sens_at_spec(Y, P)
    assert r["pauc@0.5"] == ml.metrics.pauc(Y, P, max_fpr=0.5)
    assert registry.to_frame().loc["spauc", "default"] == "no"
    assert "sens_at_spec" not in ml.per_class([0, 1, 2, 1], np.eye(3)[[0, 1, 2, 0]]).columns


def test_a_two_level_measure_costs_its_dearer_level(heavy):
    assert registry.resolve("acc:f1")[0].cost == "linear"
    assert registry.resolve("acc:auc")[0].cost == "sort"
    assert registry.resolve("acc:slow_auc")[0].cost == "heavy"
    assert registry.resolve("lift@0.2")[0].cost == "sort"  # parameters keep the cost


def test_a_cost_outside_the_vocabulary_is_refused():
    with pytest.raises(ml.MeasurelabError, match=r"cost='cheap' is not valid; expected one"):
        Measure(name="x", formula=lambda c: 0.0, kind="threshold", statistic="counts",
                range=(0.0, 1.0), higher_is_better=True, cost="cheap")


def test_a_heavy_measure_is_computed_only_when_named(heavy):
    default = ml.evaluate(Y, P)
    assert "slow_auc" not in default and "auc" in default
    # the default set is every applicable measure but the heavy one
    named = [m.name for m in registry if m.name != "slow_auc" and m.name not in HEAVY
             and m.name not in WHEN_NAMED]
    assert list(default) == list(ml.evaluate(Y, P, measures=named))
    assert not HEAVY & set(default)  # the built-in heavy ones too, computed when named:
    assert ml.evaluate(Y, P, measures=["ici"])["ici"] == ml.metrics.ici(Y, P)
    assert ml.evaluate(Y, P, measures="all").keys() == default.keys()
    got = ml.evaluate(Y, P, measures=["slow_auc"])["slow_auc"]
    assert got == default["auc"]
    assert "slow_auc" not in ml.per_class(Y, P).columns
    assert "slow_auc" in ml.per_class(Y, P, measures=["slow_auc"]).columns
    ev = ml.Evaluator()
    ev.update(Y, P)
    assert "slow_auc" not in ev.compute() and "auc" in ev.compute()


def test_the_registry_listing_shows_the_cost(heavy):
    df = registry.to_frame()
    assert df.loc["acc", "cost"] == "linear" and df.loc["smece", "cost"] == "sort"
    assert df.loc["ici", "cost"] == "heavy" and df.loc["ici", "default"] == "no"
    assert df.loc["slow_auc", "cost"] == "heavy" and df.loc["slow_auc", "default"] == "no"
    assert (df.drop(index=["slow_auc", *HEAVY, *WHEN_NAMED])["default"] == "yes").all()
    assert (df.loc[sorted(WHEN_NAMED), "default"] == "no").all()


def _cli(capsys, *argv: str) -> str:
    """``measurelab *argv`` in this process (the entry point's own process is tested in
    tests/cli/test_evaluate.py and tests/cli/test_compare.py)."""
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_the_command_line_lists_the_cost(capsys):
    out = _cli(capsys, "measures", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["acc"]["cost"] == "linear" and rows["smece"]["cost"] == "sort"
    assert all(r["default"] == ("no" if name in HEAVY | WHEN_NAMED else "yes")
               for name, r in rows.items())
    table = _cli(capsys, "measures")
    assert " cost " in table.splitlines()[0]
    assert next(ln for ln in table.splitlines() if ln.startswith("acc ")).count(" linear ")
