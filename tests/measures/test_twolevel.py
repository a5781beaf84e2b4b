"""Two-level measures f:g: built by the registry from ``'f:g'`` (without the registry
importing this module), recognised by their ``levels`` attribute, never by the text of
their citation."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import measurelab as ml
from measurelab.measures.base import Measure, registry
from measurelab.measures.twolevel import TwoLevelValue, oriented, two_level, two_level_parts

SRC = Path(__file__).resolve().parents[2] / "src" / "measurelab"


def test_registry_builds_two_level_measures_from_their_names():
    m = registry.get("auc:acc")
    r, params = registry.resolve("auc:acc")
    assert params == {} and m.name == r.name == "auc:acc"
    for a in (m, r, two_level("auc", "acc")):
        assert (a.kind, a.statistic, a.range, a.higher_is_better, a.exact) == (
            "composite", "stats", (0.0, 1.01), True, True)
        assert a.source == "Huang & Ling 2007 Def. 1 (auc then acc)"
        assert [x.name for x in a.levels] == ["auc", "acc"]
    lift, params = registry.resolve("lift@0.1")
    assert (lift.name, lift.params["q"], params) == ("lift@0.1", 0.1, {"q": 0.1})
    with pytest.raises(ml.MeasurelabError, match="two names joined by ':'"):
        registry.resolve("auc:acc:rms")


def test_values_compare_by_f_then_g():
    v = ml.evaluate([0, 0, 1, 1], [0.1, 0.6, 0.35, 0.8], measures=["auc:rms"])["auc:rms"]
    assert isinstance(v, TwoLevelValue) and v.first == 0.75
    assert v.second == pytest.approx(oriented(registry.get("rms"), ml.metrics.rms(
        [0, 0, 1, 1], [0.1, 0.6, 0.35, 0.8])))


def test_parts_come_from_the_levels_attribute_not_the_citation():
    m = two_level("auc", "f_beta@2")
    f, g = two_level_parts(m)
    assert (f.name, g.name, g.params["beta"]) == ("auc", "f_beta@2", 2.0)
    assert two_level_parts(dataclasses.replace(m, source="")) == (f, g)
    look_alike = Measure("auc:acc", len, "composite", "stats", (0, 1), True,
                         source="Huang & Ling 2007 Def. 1 (auc then acc)")
    assert two_level_parts(look_alike) is None and look_alike.levels is None
    assert all(x.levels is None for x in registry)


def test_a_two_level_measure_of_unregistered_measures_keeps_them():
    own = dataclasses.replace(registry.get("acc"), name="my_acc")
    m = two_level(registry.get("auc"), own)
    assert two_level_parts(m)[1] is own


def test_no_module_of_the_package_recognises_a_measure_by_its_citation():
    for path in sorted((SRC / "measures").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "source.startswith" not in text and ".source ==" not in text, path.name


def test_a_two_level_measure_pickles_and_still_reads_as_a_function():
    import pickle

    m = two_level("auc", "f_beta@2")
    back = pickle.loads(pickle.dumps(m))
    assert back == m and back.levels == m.levels and back.description == m.description
    assert back != two_level("auc", "acc")
    y, s = [0, 0, 1, 1], [0.1, 0.6, 0.35, 0.8]
    assert ml.evaluate(y, s, measures=[back])[m.name] == ml.evaluate(y, s, measures=[m])[m.name]
    three = ml.evaluate([0, 1, 2, 1], [[.7, .2, .1], [.2, .5, .3], [.1, .2, .7], [.3, .4, .3]],
                        measures=[pickle.loads(pickle.dumps(two_level("auc", "acc")))])
    assert isinstance(three["auc:acc"], TwoLevelValue)
    assert ml.metrics.data_function(m)(y, s) == ml.evaluate(y, s, measures=[m])[m.name]
