"""The coverage evidence measurelab reads (issue 28): the verdict of a setting, the method
texts of every printed interval, and the guard that no interval ships without an entry.

The verdict tests use fixture evidence files written here (the shipped file may be a
preliminary run); the guard tests read the shipped files.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import measurelab as ml
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference import evidence as ev
from measurelab.inference.intervals import Interval
from measurelab.inference.offered import offered_intervals, probe_data


def _entry(measure: str, kind: str = "single", *, lowest: float = 0.93,
           classes: str = "binary", design: str = "random", methods: Any = None,
           averages: Any = None, where: str = "n=100, π=0.05", cells: int = 4,
           mean: float = 0.95) -> dict[str, Any]:
    return {"measure": measure, "classes": classes, "design": design, "kind": kind,
            "averages": list(averages or ([] if classes == "binary" else ["macro"])),
            "methods": list(methods or ["bootstrap-bca"]), "cells": cells,
            "lowest": lowest, "where": where, "mean": mean, "covers": lowest >= 0.9}


def _study(folder: Path, source: str, entries: list[dict[str, Any]], *,
           preliminary: bool = False, level: float = 0.95) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    doc = {"schema": 1, "source": source, "preliminary": preliminary, "level": level,
           "entries": entries}
    (folder / f"{source}.json").write_text(json.dumps(doc), encoding="utf-8")


@pytest.fixture
def evidence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of evidence: acc (Wilson) and auc covering, f1 below the bar, k-class f1
    for macro only, acc for every average, a preliminary study of brier, a second source
    for mcc."""
    folder = tmp_path / "coverage"
    _study(folder, "registry", [
        _entry("acc", methods=["wilson"]), _entry("acc", "paired", methods=["tango-score"]),
        _entry("acc", design="fixed", methods=["wilson"]),
        _entry("acc", "unpaired", methods=["bootstrap-bca"]),
        _entry("auc", methods=["delong-logit"]), _entry("auc", "paired", methods=["delong"]),
        _entry("f1", lowest=0.862), _entry("f1", "paired", lowest=0.95),
        _entry("npv", methods=["wilson"]),
        _entry("mcc", lowest=0.95),
        _entry("f1", classes="k", averages=["macro"]),
        _entry("f1", "paired", classes="k", averages=["macro"]),
        _entry("acc", classes="k", averages=["macro", "weighted", "micro"],
               methods=["wilson"]),
        _entry("f1", "unpaired", lowest=0.91),
    ])
    _study(folder, "calibration", [_entry("mcc", lowest=0.905, where="n=200, calibrated "
                                          "model", cells=2, mean=0.93)])
    _study(folder, "quick", [_entry("brier", lowest=1.0)], preliminary=True)
    monkeypatch.setattr(ev, "_OVERRIDE", folder)
    return folder


# --------------------------------------------------------------------------- verdicts
def test_verdicts(evidence: Path) -> None:
    v = ev.coverage_verdict("acc", method="wilson")
    assert v.covers and v.note == "" and v.lowest == 0.93 and v.sources == ("registry",)
    below = ev.coverage_verdict("f1", method="bootstrap-bca")
    assert below.status == "below" and not below.covers
    assert below.note == "coverage 0.862 < 0.90 at n=100, π=0.05"
    assert ev.coverage_verdict("f1", paired=True).covers
    assert ev.coverage_verdict("f1", unpaired=True).covers
    assert ev.coverage_verdict("auc", design="fixed").status == "none"
    assert ev.coverage_verdict("brier").status == "preliminary"
    assert ev.coverage_verdict("brier").note == "no coverage evidence: preliminary run"
    assert ev.coverage_verdict("kappa").note == "no coverage evidence"


def test_sources_merge(evidence: Path) -> None:
    """Two studies of one setting: the lowest cell of either, the mean over all cells."""
    v = ev.coverage_verdict("mcc")
    assert v.covers and v.sources == ("calibration", "registry")
    assert v.lowest == 0.905 and v.where == "n=200, calibrated model"
    assert v.cells == 6 and v.mean == pytest.approx((0.93 * 2 + 0.95 * 4) / 6)


def test_methods_and_levels(evidence: Path) -> None:
    assert ev.coverage_verdict("acc", method="clopper-pearson").status == "none"
    assert ev.coverage_verdict("acc", method="wilson", level=0.9).note == (
        "no coverage evidence at level 0.9")
    # a BCa interval that fell back to the percentile one is the BCa procedure
    assert ev.coverage_verdict("mcc", method="bootstrap-percentile (BCa at edge)").covers
    assert ev.coverage_verdict("mcc", method="bootstrap-percentile").status == "none"
    assert ev.coverage_verdict("mcc", method="bootstrap-bca (5% undefined: counted at the "
                               "ends of [-1, 1])").covers
    assert ev.coverage_verdict("auc", paired=True, method="delong").covers


def test_names(evidence: Path) -> None:
    """Aliases and the default parameter are the measure; another parameter, a two-level
    measure, a per-class row and a user's measure have no evidence."""
    from measurelab import registry

    assert ev.coverage_verdict("accuracy").covers
    assert ev.coverage_verdict(registry.get("acc")).covers
    assert ev.coverage_verdict("f1@1").status == "none"   # f1 has no parameter
    assert ev._studied_name("lift@0.25") == "lift"
    assert ev._studied_name(registry.resolve("lift@0.25")[0]) == "lift"
    assert ev._studied_name(registry.resolve("f_beta@1")[0]) == "f_beta"
    assert ev._studied_name("lift@0.1") == ""
    assert ev._studied_name(registry.resolve("lift@0.1")[0]) == ""
    assert ev._studied_name("auc:acc") == "" and ev._studied_name("f1[cat]") == ""
    assert ev._studied_name("sens") == "sens" and ev._studied_name("recall") == "sens"

    @ml.measure("my_rate", kind="threshold", statistic="counts")
    def my_rate(c: Any) -> Any:
        """Share of true positives."""
        return c.tp / c.total

    try:
        assert ev.coverage_verdict("my_rate").note == "no coverage evidence"
    finally:
        registry.unregister("my_rate")


def test_replaced_measure(evidence: Path) -> None:
    from dataclasses import replace

    from measurelab import registry

    original = registry.get("acc")
    mine = replace(original, formula=lambda c: (c.tp + c.tn) / c.total)
    registry.register(mine, replace=True)
    try:
        assert ev.coverage_verdict("acc").status == "none"
    finally:
        registry.register(original, replace=True)
    assert ev.coverage_verdict("acc").covers


def test_multiclass(evidence: Path) -> None:
    assert ev.coverage_verdict("f1", multiclass=True).status == "below" or \
        ev.coverage_verdict("f1", multiclass=True).covers
    assert ev.coverage_verdict("f1", multiclass=True, average="weighted").status == "none"
    assert ev.coverage_verdict("acc", multiclass=True, average="micro").covers
    assert ev.coverage_verdict("f1", multiclass=True, average=None).status == "none"
    assert ev.coverage_verdict("acc", multiclass=False, design="fixed").covers
    assert ev.coverage_verdict("acc", multiclass=True, design="fixed").status == "none"


def test_bad_arguments(evidence: Path) -> None:
    with pytest.raises(MeasurelabError, match="at most one"):
        ev.coverage_verdict("f1", paired=True, unpaired=True)
    with pytest.raises(MeasurelabError, match="design='stratified' is not valid"):
        ev.coverage_verdict("f1", design="stratified")
    with pytest.raises(MeasurelabTypeError, match="measure must be a name or a Measure"):
        ev.coverage_verdict(3)
    with pytest.raises(MeasurelabTypeError, match="paired must be"):
        ev.coverage_verdict("f1", paired="yes")
    with pytest.raises(MeasurelabTypeError, match="method must be"):
        ev.coverage_verdict("f1", method=1)


def test_bad_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ev, "_OVERRIDE", tmp_path)
    _study(tmp_path, "one", [])
    (tmp_path / "two.json").write_text(json.dumps({"schema": 1, "source": "one"}))
    with pytest.raises(MeasurelabError, match=r"two\.json needs a source name of its own"):
        ev.coverage_verdict("f1")
    (tmp_path / "two.json").write_text(json.dumps({"schema": 7, "source": "two"}))
    with pytest.raises(MeasurelabError, match=r"two\.json has schema 7; expected 1"):
        ev.coverage_verdict("f1")
    (tmp_path / "two.json").write_text("{")
    with pytest.raises(MeasurelabError, match=r"two\.json is not readable JSON"):
        ev.coverage_verdict("f1")
    monkeypatch.setattr(ev, "_OVERRIDE", tmp_path / "missing")
    assert ev.coverage_verdict("f1").status == "none"


def test_texts() -> None:
    assert ev.plain_method("wilson (no coverage evidence)") == "wilson"
    assert ev.plain_method("wilson (no coverage evidence at level 0.9)") == "wilson"
    assert ev.plain_method("bootstrap-bca (coverage 0.862 < 0.90 at n=100, π=0.05)") == \
        "bootstrap-bca"
    assert ev.plain_method("bootstrap-percentile (BCa at edge)") == \
        "bootstrap-percentile (BCa at edge)"
    assert ev.procedure("bootstrap-percentile (BCa at edge) (no coverage evidence)") == \
        "bootstrap-bca"
    assert ev.procedure("tango-score") == "tango-score"
    assert ev.procedure("bootstrap-bca (5% undefined: counted at the ends of [0, 1]) "
                        "(no coverage evidence)") == "bootstrap-bca"
    assert ev.procedure("bootstrap-percentile (2% undefined: counted at the ends of "
                        "[0, 1])") == "bootstrap-percentile"
    assert ev.design_name(True, weighted=True) == "weighted"


def test_method_with_evidence(evidence: Path) -> None:
    assert ev.method_with_evidence("wilson", "acc") == "wilson"
    assert ev.method_with_evidence("bootstrap-bca", "f1") == (
        "bootstrap-bca (coverage 0.862 < 0.90 at n=100, π=0.05)")
    assert ev.method_with_evidence("bootstrap-bca", "f1", bounds=(math.nan, math.nan)) == \
        "bootstrap-bca"
    assert ev.method_with_evidence("bootstrap-bca", "f1", bounds=(math.nan, 0.5)) != \
        "bootstrap-bca"
    r = ev.with_evidence(Interval(0.5, 0.4, 0.6, "delong-logit", 0.05), "auc", level=0.99)
    assert r == Interval(0.5, 0.4, 0.6, "delong-logit (no coverage evidence at level 0.99)",
                         0.05)


def test_evidence_table(evidence: Path) -> None:
    t = ev.evidence_table()
    assert len(t) == 16 and set(t.source) == {"registry", "calibration", "quick"}
    row = t[(t.measure == "f1") & (t.kind == "single") & (t.classes == "binary")].iloc[0]
    assert (row.lowest, bool(row.covers), row.methods) == (0.862, False, "bootstrap-bca")
    assert not t[t.source == "quick"].covers.any()   # preliminary: never covers


# --------------------------------------------------------------------------- wiring
Y = np.array([0, 1] * 60)
P = np.clip(0.3 + 0.4 * Y + np.random.default_rng(3).normal(0, 0.2, Y.size), 0.01, 0.99)
Q = np.clip(0.35 + 0.3 * Y + np.random.default_rng(4).normal(0, 0.2, Y.size), 0.01, 0.99)


def test_evaluate_texts(evidence: Path) -> None:
    m = ml.evaluate(Y, P, measures=["acc", "f1", "auc", "brier", "lift@0.1"], ci=0.95,
                    n_boot=200).intervals().set_index("measure").method
    assert m.to_dict() == {
        "acc": "wilson", "f1": "bootstrap-bca (coverage 0.862 < 0.90 at n=100, π=0.05)",
        "auc": "delong-logit", "brier": "bootstrap-bca (no coverage evidence: preliminary run)",
        "lift@0.1": "bootstrap-bca (no coverage evidence)"}
    fixed = ml.evaluate(Y, P, measures=["acc", "auc"], ci=0.95, n_boot=200, stratify=True)
    assert fixed.intervals().method.tolist() == ["wilson", "delong-logit (no coverage "
                                                 "evidence)"]
    w = ml.evaluate(Y, P, measures=["acc"], ci=0.95, n_boot=200, sample_weight=np.ones(Y.size))
    assert w.intervals().method.tolist() == ["bootstrap-bca (no coverage evidence)"]
    low = ml.evaluate(Y, P, measures=["acc"], ci=0.9)
    assert low.intervals().method.tolist() == ["wilson (no coverage evidence at level 0.9)"]


def test_comparison_texts(evidence: Path) -> None:
    r = ml.compare_classifiers(Y, {"p": P, "q": Q}, measures=["acc", "f1", "auc", "kappa"],
                               n_boot=200)
    iv = r.intervals()
    assert iv[iv.model == "p"].set_index("measure").method.to_dict() == {
        "acc": "wilson", "f1": "bootstrap-bca (coverage 0.862 < 0.90 at n=100, π=0.05)",
        "auc": "delong-logit", "kappa": "bootstrap-bca (no coverage evidence)"}
    t = r.tests().set_index("measure")
    assert t.method.to_dict() == {"acc": "mcnemar", "f1": "bootstrap", "auc": "delong",
                                  "kappa": "bootstrap"}   # the test's name is unchanged
    assert t.interval.to_dict() == {"acc": "tango-score", "f1": "bootstrap-bca",
                                    "auc": "delong",
                                    "kappa": "bootstrap-bca (no coverage evidence)"}
    d = r.to_dict()
    assert d["models"]["p"]["kappa"]["method"] == "bootstrap-bca (no coverage evidence)"


def test_undefined_interval_keeps_its_text(evidence: Path) -> None:
    """No case predicted negative: npv's Wilson interval is NaN, no interval to judge."""
    high = np.full(Y.size, 0.9)
    with pytest.warns(ml.UndefinedMeasureWarning):
        r = ml.evaluate(Y, high, measures=["npv", "acc"], ci=0.95)
    assert r.intervals().set_index("measure").method.to_dict() == {
        "npv": "wilson", "acc": "wilson"}
    assert math.isnan(r.intervals().lo[0])


def test_multiclass_texts(evidence: Path) -> None:
    y, a, b = probe_data(multiclass=True)
    r = ml.compare_classifiers(y, {"a": a, "b": b}, measures=["acc", "f1", "mcc"],
                               n_boot=200)
    assert r.intervals()[lambda t: t.model == "a"].method.tolist() == [
        "wilson", "bootstrap-bca", "bootstrap-bca (no coverage evidence)"]
    assert r.tests().interval.tolist() == ["tango-score (no coverage evidence)",
                                           "bootstrap-bca",
                                           "bootstrap-bca (no coverage evidence)"]
    w = ml.compare_classifiers(y, {"a": a}, measures=["acc", "f1"], n_boot=200,
                               average="weighted")
    assert w.intervals().method.tolist() == ["wilson", "bootstrap-bca (no coverage "
                                                       "evidence)"]
    e = ml.evaluate(y, a, measures=["acc", "f1"], ci=0.95, n_boot=200)   # _multi_intervals
    assert e.intervals().method.tolist() == ["wilson", "bootstrap-bca"]
    per_class = ml.compare_classifiers(y, {"a": a}, measures=["f1"], n_boot=200,
                                       average=None)
    assert all(m.endswith("(no coverage evidence)") for m in per_class.intervals().method)


def test_unpaired_texts(evidence: Path) -> None:
    r = ml.compare_unpaired(Y, P, Y[::-1], Q[::-1], measures=["acc", "f1", "auc"],
                            n_boot=200)
    t = r.tests().set_index("measure")
    assert t.interval.to_dict() == {"acc": "bootstrap-bca",
                                    "f1": "bootstrap-bca",
                                    "auc": "delong-unpaired (no coverage evidence)"}
    assert t.method.to_dict() == {"acc": "bootstrap", "f1": "bootstrap",
                                  "auc": "delong-unpaired"}
    assert r.intervals().method.tolist()[:2] == [
        "wilson", "bootstrap-bca (coverage 0.862 < 0.90 at n=100, π=0.05)"]


def test_lazy() -> None:
    """``import measurelab`` and intervals-free evaluation neither import the evidence
    module nor read its files."""
    code = ("import sys, measurelab as ml; ml.evaluate([0, 1, 1], [0.2, 0.8, 0.6]); "
            "print('measurelab.inference.evidence' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# --------------------------------------------------------------------------- the guard
def test_shipped_evidence_loads() -> None:
    """The shipped files load (schema, one source each) and name registered measures in
    the settings measurelab has."""
    from measurelab import registry

    studies = ev._load(str(ev._folder()))
    assert studies, "measurelab ships no coverage evidence (src/measurelab/data/coverage/)"
    assert len({s["source"] for s in studies}) == len(studies)
    t = ev.evidence_table()
    assert set(t.measure) <= set(registry.names())
    assert set(t.classes) <= {"binary", "k"} and set(t.kind) <= set(ev.KINDS)
    assert set(t.design) <= {"random", "fixed", "cluster"}  # cluster: issue 31


@pytest.mark.parametrize("multiclass", [False, True])
@pytest.mark.parametrize("design", ["random", "fixed"])
def test_every_offered_interval_has_an_entry(multiclass: bool, design: str) -> None:
    """Every interval measurelab offers (asked of the library on a plain test set) has an
    entry in the shipped evidence for its setting and method: a new measure, or a new
    interval method, cannot ship without one (rerun the coverage study, see
    benchmarks/covstudy)."""
    offered = offered_intervals(multiclass=multiclass, design=design)
    offered = offered[offered.offered]
    assert len(offered) > 20
    missing = []
    for r in offered.itertuples():
        v = ev.coverage_verdict(r.measure, multiclass=multiclass, design=design,
                                paired=r.kind == "paired", unpaired=r.kind == "unpaired",
                                method=r.method)
        if v.status == "none":
            missing.append(f"{r.measure} {r.kind} {r.method}")
    assert not missing, (f"no coverage study entry ({'k classes' if multiclass else 'binary'},"
                         f" {design} design) for: {', '.join(missing)}")


def test_offered_intervals() -> None:
    """The probe reads the methods measurelab chooses: Wilson for proportions, DeLong for
    AUC, Tango for the paired accuracy, BCa elsewhere; unpaired for binary only; the
    k-class averages a measure's value does not depend on."""
    t = offered_intervals(measures=["acc", "auc", "f1"])
    got = {(r.measure, r.kind): r.method for r in t.itertuples()}
    assert got == {("acc", "single"): "wilson", ("auc", "single"): "delong-logit",
                   ("f1", "single"): "bootstrap-bca", ("acc", "paired"): "tango-score",
                   ("auc", "paired"): "delong", ("f1", "paired"): "bootstrap-bca",
                   ("acc", "unpaired"): "bootstrap-bca",
                   ("auc", "unpaired"): "delong-unpaired",
                   ("f1", "unpaired"): "bootstrap-bca"}
    assert t.offered.all()
    w = offered_intervals(design="weighted", measures=["acc"])
    assert set(w.method) == {"bootstrap-bca"}
    k = offered_intervals(multiclass=True, measures=["acc", "f1", "bacc"])
    assert set(k.kind) == {"single", "paired"}
    av = dict(zip(k.measure, k.averages, strict=False))
    assert av["acc"] == ("macro", "weighted", "micro") and av["f1"] == ("macro",)
    y, _a, _b = probe_data()
    assert (y.size, int(y.sum())) == (400, 120)
    yk, pa, _pb = probe_data(multiclass=True)
    assert np.bincount(yk).tolist() == [150, 90, 60]
    assert np.allclose(pa.sum(axis=1), 1.0)


def test_replacing_a_measure_keeps_its_place() -> None:
    from measurelab import registry

    before = registry.names()
    original = registry.get("acc")
    registry.register(original, replace=True)
    assert registry.names() == before
