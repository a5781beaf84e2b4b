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
from measurelab.inference.classifiers.offered import offered_intervals, probe_data
from measurelab.inference.intervals import Interval


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
    """Aliases and the default parameter are the measure; another parameter is
    ``name@value`` (evidence only where a study ran that value); a two-level measure, a
    per-class row and a user's measure have no evidence."""
    from measurelab import registry

    assert ev.coverage_verdict("accuracy").covers
    assert ev.coverage_verdict(registry.get("acc")).covers
    assert ev.coverage_verdict("f1@1").status == "none"   # f1 has no parameter
    assert ev._studied_name("lift@0.25") == "lift"
    assert ev._studied_name(registry.resolve("lift@0.25")[0]) == "lift"
    assert ev._studied_name(registry.resolve("f_beta@1")[0]) == "f_beta"
    # another parameter is named by its value (a study may run it); lift@0.1 never ran
    assert ev._studied_name("lift@0.1") == "lift@0.1"
    assert ev._studied_name(registry.resolve("lift@.100")[0]) == "lift@0.1"
    assert ev._studied_name("spauc@0.10") == "spauc@0.1"
    assert ev.coverage_verdict("lift@0.1").status == "none"
    assert ev._studied_name("best_threshold.youden.sens") == "best_threshold.youden.sens"
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
        "acc": "wilson", "f1": "dirichlet-posterior (no coverage evidence)",
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
    post = "dirichlet-posterior (no coverage evidence)"   # not in this folder's studies
    assert iv[iv.model == "p"].set_index("measure").method.to_dict() == {
        "acc": "wilson", "f1": post, "auc": "delong-logit", "kappa": post}
    t = r.tests().set_index("measure")
    assert t.method.to_dict() == {"acc": "mcnemar", "f1": "dirichlet-posterior",
                                  "auc": "delong", "kappa": "dirichlet-posterior"}
    assert t.interval.to_dict() == {"acc": "tango-score", "f1": post, "auc": "delong",
                                    "kappa": post}
    d = r.to_dict()
    assert d["models"]["p"]["kappa"]["method"] == post
    # the bootstrap, forced, is judged by the study that saw it
    b = ml.compare_classifiers(Y, {"p": P, "q": Q}, measures=["f1"], n_boot=200,
                               ci_method="bootstrap-bca")
    assert b.intervals().method.tolist() == [
        "bootstrap-bca (coverage 0.862 < 0.90 at n=100, π=0.05)"] * 2
    assert b.tests().interval.tolist() == ["bootstrap-bca"]


def test_undefined_interval_keeps_its_text(evidence: Path) -> None:
    """No case predicted negative: npv's Wilson interval is NaN, no interval to judge."""
    high = np.full(Y.size, 0.9)
    with pytest.warns(ml.UndefinedMeasureWarning):
        r = ml.evaluate(Y, high, measures=["npv", "acc"], ci=0.95, ci_method="wilson")
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
    post = "dirichlet-posterior (no coverage evidence)"   # not in this folder's studies
    assert t.interval.to_dict() == {"acc": post, "f1": post,
                                    "auc": "delong-unpaired (no coverage evidence)"}
    assert t.method.to_dict() == {"acc": "dirichlet-posterior", "f1": "dirichlet-posterior",
                                  "auc": "delong-unpaired"}
    assert r.intervals().method.tolist()[:2] == ["wilson", post]
    b = ml.compare_unpaired(Y, P, Y[::-1], Q[::-1], measures=["f1"], n_boot=200,
                            ci_method="bootstrap-bca")
    assert b.tests().interval.tolist() == ["bootstrap-bca"]
    assert b.intervals().method.tolist()[0] == (
        "bootstrap-bca (coverage 0.862 < 0.90 at n=100, π=0.05)")


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
    from measurelab.measures.multilabel import MEASURES as MULTILABEL

    t = ev.evidence_table()
    names = set(registry.names())
    # multi-label entries (issue 43) name the multi-label measures
    assert set(t[t.classes == "multilabel"].measure) <= set(MULTILABEL)
    for m in set(t[t.classes != "multilabel"].measure) - names:
        if m.startswith(ev.CHOICE_PREFIX):   # a row of best_threshold's intervals
            rule, _, quantity = m[len(ev.CHOICE_PREFIX):].partition(".")
            assert rule in names and quantity in ("threshold", "sens", "spec", rule), m
        else:                                # a registered measure at another parameter
            base, _, value = m.partition("@")
            assert base in names and value and ev._studied_name(m) == m, m
            assert registry.resolve(m)[0].params != registry.get(base).params, m
    assert set(t.classes) <= {"binary", "k", "multilabel"} and set(t.kind) <= set(ev.KINDS)
    # cluster: issue 31; weighted: the large-n study's weighted cases (issue 41)
    assert set(t.design) <= {"random", "fixed", "cluster", "weighted"}


def test_shipped_large_n_study() -> None:
    """The large-n study (``large_n.json``, issue 41) is evidence of the influence
    interval: single and paired, random, fixed and weighted designs, unpaired in the random
    design, the measures it is the default of (the calibration terms among them) and those
    a user may force it on, from 100 cases in the smaller class."""
    doc = json.loads((SHIPPED / "large_n.json").read_text(encoding="utf-8"))
    assert doc["source"] == "large-n" and doc["preliminary"] is False
    assert doc["sims"] >= 1000 and min(doc.get("sims_by_cell", {"": 1000}).values()) >= 300
    assert doc["cell_fields"][-1] == "smaller"
    entries = doc["entries"]
    assert {m for e in entries for m in e["methods"]} == {"influence"}
    assert {e["measure"] for e in entries} >= {"ap", "brier", "rms", "mxe", "auc", "f1",
                                               "mcc", "acc", "prec", "brier_mcb",
                                               "brier_dsc", "logloss_dsc"}
    assert {(e["design"], e["kind"]) for e in entries} == {
        (d, k) for d in ("random", "fixed", "weighted") for k in ("single", "paired")} | {
        ("random", "unpaired")}
    unpaired = {e["measure"] for e in entries if e["kind"] == "unpaired"}
    assert unpaired >= {"ap", "brier", "mxe", "auc", "f1", "mcc", "brier_mcb", "brier_dsc",
                        "logloss_dsc"}
    assert min(f[-1] for e in entries for f in e["figures"]) == 100
    t = ev.evidence_by_bracket()
    large = t[t.source == "large-n"]
    assert set(large.bracket) == {"100–999", "≥ 1,000"}


def test_a_large_comparison_quotes_the_large_n_study() -> None:
    """A default comparison of 50,000 cases gives AP, Brier and log loss the influence
    interval, and its method column quotes the large-n study: no '(no coverage
    evidence)' note, in one model's rows and in the paired rows; with weighted cases too."""
    rng = np.random.default_rng(41)
    n = 50_000
    y = (rng.random(n) < 0.3).astype(int)
    a = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * y - 0.5)))
    b = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.0 * y - 0.5)))
    for weight in (None, rng.uniform(0.5, 1.5, n)):
        r = ml.compare_classifiers(y, {"a": a, "b": b}, measures=["ap", "brier", "mxe"],
                                   sample_weight=weight)
        iv = r.intervals()
        assert iv.method.tolist() == ["influence"] * 6, iv.method.tolist()
        assert np.isfinite(iv.lo).all() and np.isfinite(iv.hi).all()
        assert r.tests().interval.tolist() == ["influence"] * 3
    v = ev.coverage_verdict("ap", method="influence", smaller=15_000)
    assert v.covers and v.sources == ("large-n",) and v.bracket == "≥ 1,000"


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
    AUC, Tango for the paired accuracy, the posterior of the confusion cells for the other
    measures of the counts, BCa elsewhere; unpaired for binary only; the k-class averages
    a measure's value does not depend on."""
    t = offered_intervals(measures=["acc", "auc", "f1", "ap"])
    got = {(r.measure, r.kind): r.method for r in t.itertuples()}
    post = "dirichlet-posterior"
    assert got == {("acc", "single"): "wilson", ("auc", "single"): "delong-logit",
                   ("f1", "single"): post, ("ap", "single"): "bootstrap-bca",
                   ("acc", "paired"): "tango-score", ("auc", "paired"): "delong",
                   ("f1", "paired"): post, ("ap", "paired"): "bootstrap-bca",
                   ("acc", "unpaired"): post, ("auc", "unpaired"): "delong-unpaired",
                   ("f1", "unpaired"): post, ("ap", "unpaired"): "bootstrap-bca"}
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


# --------------------------------------------------------------------------- regimes
#: the registry's cell fields, with the smaller class's count last
FIELDS = ["generator", "n", "param", "average", "model", "coverage", "mcse", "undefined",
          "smaller"]


def _row(n: int, param: float, coverage: float, model: str = "a", *,
         generator: str = "binormal", average: str = "") -> list[Any]:
    """One row of figures: a binary cell (param π) or a k-class one (param k, priors of the
    registry study)."""
    if generator.startswith("softmax"):
        smaller = round(n * {3: 0.2, 5: 0.08}[int(param)])
    else:
        smaller = round(n * min(param, 1 - param))
    return [generator, n, param, average, model, coverage, 0.01, 0, smaller]


def _figured(measure: str, rows: list[list[Any]], kind: str = "single", *,
             classes: str = "binary", where: str, per_cell: int = 2) -> dict[str, Any]:
    """An entry whose summary follows from its rows (``per_cell`` rows a cell)."""
    cov = [r[5] for r in rows]
    return {**_entry(measure, kind, lowest=min(cov), classes=classes, where=where,
                     cells=len(rows) // per_cell, mean=sum(cov) / len(cov)),
            "figures": rows}


def _regime_study(folder: Path, source: str, entries: list[dict[str, Any]],
                  fields: list[str] | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    doc = {"schema": 1, "source": source, "preliminary": False, "level": 0.95,
           "cell_fields": FIELDS if fields is None else fields, "entries": entries}
    (folder / f"{source}.json").write_text(json.dumps(doc, ensure_ascii=False),
                                           encoding="utf-8")


#: n = 100, 1000, 10000 at π = 0.05 and 0.5: 5, 50 | 50, 500 | 500, 5000 cases in the
#: smaller class (brackets < 10, 30–99, 100–999, ≥ 1,000; none in 10–29)
GRID = [(n, p) for p in (0.05, 0.5) for n in (100, 1000, 10000)]


@pytest.fixture
def regimes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """f1 (single) below the bar only at n=100, π=0.05 (5 cases in the smaller class);
    f1 (paired) below at n=300, π=0.05 (15 cases); k-class f1 below at k=3, n=100 (20 cases
    in the smallest class); mcc from a registry-like study and a calibration-like one; acc
    from a study without smaller-class counts."""
    folder = tmp_path / "coverage"
    single = [_row(n, p, 0.83 if (n, p) == (100, 0.05) and m == "b" else 0.95, m)
              for n, p in GRID for m in ("a", "b")]
    paired = [_row(n, p, 0.83 if (n, p) == (300, 0.05) else 0.94, "a-b")
              for n, p in [(300, 0.05), (1000, 0.5)]]
    k_rows = [_row(100, 3, 0.85, "a", generator="softmax", average="macro"),
              _row(300, 5, 0.93, "a", generator="softmax", average="macro"),
              _row(1000, 3, 0.96, "a", generator="softmax", average="macro")]
    _regime_study(folder, "registry", [
        _figured("f1", single, where="n=100, π=0.05"),
        _figured("f1", paired, "paired", where="n=300, π=0.05", per_cell=1),
        _figured("f1", k_rows, classes="k", where="k=3, n=100", per_cell=1),
        _figured("mcc", [_row(1000, 0.5, 0.95), _row(1000, 0.5, 0.96, "b")],
                 where="n=1000, π=0.5"),
    ])
    cal = [["rare", 200, "very_over", 0.88, 0.01, 20], ["balanced", 1000, "under", 0.97,
                                                         0.01, 500]]
    _regime_study(folder, "calibration", [
        {**_entry("mcc", lowest=0.88, where="n=200, rare prior, very_over", cells=2,
                  mean=0.925), "figures": cal}],
        fields=["prior", "n", "model", "coverage", "mc_se", "smaller"])
    _regime_study(folder, "old", [
        {**_entry("acc", lowest=0.85, methods=["wilson"], where="n=100, π=0.05"),
         "figures": [["binormal", 100, 0.05, "", "a", 0.85, 0.01, 0]]}],
        fields=FIELDS[:-1])
    monkeypatch.setattr(ev, "_OVERRIDE", folder)
    return folder


@pytest.mark.parametrize(("smaller", "label"), [
    (0, "< 10"), (9, "< 10"), (10, "10–29"), (29, "10–29"), (30, "30–99"), (99, "30–99"),
    (100, "100–999"), (999, "100–999"), (1000, "≥ 1,000"), (10**6, "≥ 1,000"),
    (np.int64(25), "10–29")])
def test_bracket_edges(smaller: int, label: str) -> None:
    assert ev.bracket(smaller) == label


def test_brackets() -> None:
    assert ev.BRACKET_EDGES == (10, 30, 100, 1000)
    assert ev.BRACKETS == ("< 10", "10–29", "30–99", "100–999", "≥ 1,000")
    with pytest.raises(MeasurelabError, match="smaller must be a non-negative integer"):
        ev.bracket(-1)
    for bad in (2.5, 30.0, True, "30", None):
        with pytest.raises(MeasurelabTypeError, match="smaller must be an integer"):
            ev.bracket(bad)   # type: ignore[arg-type]
    with pytest.raises(MeasurelabTypeError, match="smaller must be an integer"):
        ev.coverage_verdict("f1", smaller=12.5)   # type: ignore[arg-type]


def test_verdict_by_regime(regimes: Path) -> None:
    """Below the bar only with 5 cases in the smaller class: a balanced comparison of 5,000
    cases is not told about it."""
    big = ev.coverage_verdict("f1", smaller=2500)
    assert big.covers and big.note == "" and big.bracket == "≥ 1,000"
    assert (big.lowest, big.where, big.cells, big.mean) == (0.95, "n=10000, π=0.5", 1, 0.95)
    assert big.sources == ("registry",)
    small = ev.coverage_verdict("f1", smaller=5)
    assert small.status == "below" and small.bracket == "< 10"
    assert small.note == "coverage 0.830 < 0.90 with < 10 cases in the smaller class"
    assert (small.lowest, small.where, small.cells) == (0.83, "n=100, π=0.05", 1)
    assert small.mean == pytest.approx((0.83 + 0.95) / 2)
    mid = ev.coverage_verdict("f1", smaller=50)   # n=100, π=0.5 and n=1000, π=0.05
    assert mid.covers and mid.cells == 2 and mid.bracket == "30–99"
    paired = ev.coverage_verdict("f1", paired=True, smaller=15)
    assert paired.note == "coverage 0.830 < 0.90 with 10–29 cases in the smaller class"
    assert ev.coverage_verdict("f1", paired=True, smaller=500).covers


def test_no_cell_in_the_bracket(regimes: Path) -> None:
    v = ev.coverage_verdict("f1", smaller=20)
    assert v.status == "none" and v.bracket == "10–29" and v.cells == 0
    assert v.note == "no coverage evidence with 10–29 cases in the smaller class"
    assert ev.method_with_evidence("bootstrap-bca", "f1", smaller=20) == (
        "bootstrap-bca (no coverage evidence with 10–29 cases in the smaller class)")
    # a setting with no study at all says so as before, whatever its regime
    assert ev.coverage_verdict("kappa", smaller=20).note == "no coverage evidence"
    assert ev.coverage_verdict("f1", smaller=20, level=0.9).note == (
        "no coverage evidence at level 0.9")


def test_without_regime_the_verdict_is_the_settings(regimes: Path) -> None:
    v = ev.coverage_verdict("f1")
    assert v.status == "below" and v.bracket == "" and v.cells == 6
    assert v.note == "coverage 0.830 < 0.90 at n=100, π=0.05"
    assert ev.method_with_evidence("bootstrap-bca", "f1") == (
        "bootstrap-bca (coverage 0.830 < 0.90 at n=100, π=0.05)")


def test_k_class_regime(regimes: Path) -> None:
    v = ev.coverage_verdict("f1", multiclass=True, smaller=20)
    assert v.note == "coverage 0.850 < 0.90 with 10–29 cases in the smallest class"
    assert v.where == "k=3, n=100" and v.cells == 2   # k=3, n=100 (20) and k=5, n=300 (24)
    assert ev.coverage_verdict("f1", multiclass=True, smaller=200).covers
    assert ev.coverage_verdict("f1", multiclass=True, smaller=5).note == (
        "no coverage evidence with < 10 cases in the smallest class")
    assert ev.coverage_verdict("f1", multiclass=True, average="micro",
                               smaller=200).status == "none"


def test_regime_over_two_studies(regimes: Path) -> None:
    """Both studies' cells in the bracket count; the calibration study names its cells in
    its own words."""
    v = ev.coverage_verdict("mcc", smaller=20)
    assert v.sources == ("calibration",) and v.where == "n=200, rare prior, very_over"
    assert v.note == "coverage 0.880 < 0.90 with 10–29 cases in the smaller class"
    both = ev.coverage_verdict("mcc", smaller=500)
    assert both.covers and both.sources == ("calibration", "registry") and both.cells == 2
    assert both.mean == pytest.approx((0.955 + 0.97) / 2)
    assert ev.coverage_verdict("mcc", smaller=5000).status == "none"


def test_study_without_counts_gives_the_settings_verdict(regimes: Path) -> None:
    """A file whose cells carry no smaller-class count: no bracket information."""
    v = ev.coverage_verdict("acc", method="wilson", smaller=2500)
    assert v.bracket == "" and v.note == "coverage 0.850 < 0.90 at n=100, π=0.05"
    assert ev.coverage_verdict("acc", method="wilson", smaller=2500) == \
        ev.coverage_verdict("acc", method="wilson")


def test_regime_texts(regimes: Path) -> None:
    assert ev.method_with_evidence("bootstrap-bca", "f1", smaller=2500) == "bootstrap-bca"
    assert ev.method_with_evidence("bootstrap-bca", "f1", smaller=5) == (
        "bootstrap-bca (coverage 0.830 < 0.90 with < 10 cases in the smaller class)")
    r = ev.with_evidence(Interval(0.5, 0.4, 0.6, "bootstrap-bca", 0.05), "f1",
                         multiclass=True, smaller=20)
    assert r.method == ("bootstrap-bca (coverage 0.850 < 0.90 with 10–29 cases in the "
                        "smallest class)")
    nan = ev.method_with_evidence("bootstrap-bca", "f1", bounds=(math.nan, math.nan),
                                  smaller=5)
    assert nan == "bootstrap-bca"
    with pytest.raises(MeasurelabError, match="smaller"):
        ev.method_with_evidence("bootstrap-bca", "f1", bounds=(math.nan, math.nan),
                                smaller=-3)


@pytest.mark.parametrize("note", [
    "coverage 0.830 < 0.90 with 10–29 cases in the smaller class",
    "coverage 0.162 < 0.90 with < 10 cases in the smallest class",
    "coverage 0.899 < 0.90 with ≥ 1,000 cases in the smaller class",
    "no coverage evidence with 10–29 cases in the smaller class",
    "no coverage evidence with ≥ 1,000 cases in the smallest class",
    "no coverage evidence: preliminary run",
    "coverage 0.862 < 0.90 at n=100, π=0.05, calibrated vs over-confident",
])
def test_plain_method_strips_the_notes(note: str) -> None:
    assert ev.plain_method(f"bootstrap-bca ({note})") == "bootstrap-bca"
    assert ev.plain_method(f"bootstrap-percentile (BCa at edge) ({note})") == \
        "bootstrap-percentile (BCa at edge)"
    assert ev.procedure(f"bootstrap-percentile (BCa at edge) ({note})") == "bootstrap-bca"
    assert ev.procedure(f"bootstrap-bca (5% undefined: counted at the ends of [0, 1]) "
                        f"({note})") == "bootstrap-bca"


def test_plain_method_keeps_other_notes() -> None:
    for text in ("bootstrap-bca (coverage of the ends)", "wilson (with 3 cases)",
                 "bootstrap-bca (5% undefined: counted at the ends of [0, 1])"):
        assert ev.plain_method(text) == text


def test_evidence_by_bracket(regimes: Path) -> None:
    t = ev.evidence_by_bracket()
    assert list(t.columns) == ["source", "measure", "classes", "design", "kind", "averages",
                               "bracket", "cells", "lowest", "where", "mean", "covers",
                               "methods"]
    f1 = t[(t.measure == "f1") & (t.kind == "single") & (t.classes == "binary")]
    assert f1.bracket.tolist() == ["< 10", "30–99", "100–999", "≥ 1,000"]
    assert f1.cells.tolist() == [1, 2, 2, 1]
    assert f1.covers.tolist() == [False, True, True, True]
    low = f1.iloc[0]
    assert (low["lowest"], low["where"], low["mean"]) == (0.83, "n=100, π=0.05",
                                                          pytest.approx(0.89))
    assert "acc" not in set(t.measure)   # its study has no smaller-class counts
    assert set(t.source) == {"registry", "calibration"}


def test_shipped_brackets_agree_with_the_entries() -> None:
    """For every shipped entry with smaller-class counts, its cells by bracket add up to
    the entry: the cells, the lowest coverage and the mean."""
    seen = 0
    for s in ev._load(str(ev._folder())):
        for e in s.get("entries", ()):
            parts = ev._by_bracket(s, e)
            if parts is None:
                assert s["source"] == "structured"   # no per-cell figures
                continue
            seen += 1
            cells = sum(p.cells for p in parts.values())
            assert cells == e["cells"]
            assert min(p.lowest for p in parts.values()) == e["lowest"]
            mean = sum(p.mean * p.cells for p in parts.values()) / cells
            assert mean == pytest.approx(e["mean"], abs=1e-9)
            assert e["where"] in {p.where for p in parts.values() if p.lowest == e["lowest"]}
    assert seen > 300


# --------------------------------------------------------------------------- migration
ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "src" / "measurelab" / "data" / "coverage"


def _module(name: str, path: Path) -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module   # dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


@pytest.fixture(scope="module")
def tool() -> Any:
    return _module("add_smaller_field", ROOT / "tools" / "add_smaller_field.py")


def _without_smaller(text: str, tool: Any) -> str:
    doc = json.loads(text)
    assert doc["cell_fields"][-1] == "smaller"
    doc["cell_fields"] = doc["cell_fields"][:-1]
    for e in doc["entries"]:
        e["figures"] = [r[:-1] for r in e["figures"]]
    return tool.LAYOUTS["lines"](doc)


def test_shipped_registry_counts(tool: Any) -> None:
    """The smaller class of the shipped registry study's cells, counted by hand from n and
    π (binary) or n and the study's priors (k = 3: 0.2 the smallest, k = 5: 0.08)."""
    by_hand = {("binary", 100, 0.05): 5, ("binary", 300, 0.05): 15,
               ("binary", 1000, 0.05): 50, ("binary", 10000, 0.05): 500,
               ("binary", 100, 0.2): 20, ("binary", 300, 0.2): 60,
               ("binary", 1000, 0.2): 200, ("binary", 10000, 0.2): 2000,
               ("binary", 100, 0.5): 50, ("binary", 300, 0.5): 150,
               ("binary", 1000, 0.5): 500, ("binary", 10000, 0.5): 5000,
               ("k", 100, 3): 20, ("k", 300, 3): 60, ("k", 1000, 3): 200,
               ("k", 100, 5): 8, ("k", 300, 5): 24, ("k", 1000, 5): 80}
    doc = json.loads((SHIPPED / "registry.json").read_text(encoding="utf-8"))
    assert doc["cell_fields"] == FIELDS
    rows = 0
    for e in doc["entries"]:
        for r in e["figures"]:
            assert r[-1] == by_hand[(e["classes"], r[1], r[2])], (e["measure"], r)
            rows += 1
    assert rows > 1000
    f1 = next(e for e in doc["entries"] if (e["measure"], e["classes"], e["design"],
                                            e["kind"]) == ("f1", "binary", "random", "single"))
    assert [r[-1] for r in f1["figures"] if r[0] == "binormal"][:8] == [5, 5, 15, 15, 50, 50,
                                                                        500, 500]


def test_migration_is_idempotent(tool: Any, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped files are what the script writes, and a second run changes nothing: a
    file without the field gets it, byte for byte as shipped; a migrated one is left."""
    shipped = (SHIPPED / "registry.json").read_text(encoding="utf-8")
    path = tmp_path / "registry.json"
    path.write_text(_without_smaller(shipped, tool), encoding="utf-8")
    assert tool.migrate(path) == "added"
    assert path.read_text(encoding="utf-8") == shipped
    assert tool.migrate(path) == "already there"
    assert path.read_text(encoding="utf-8") == shipped
    for name in ("calibration.json", "net_benefit.json", "structured.json"):
        (tmp_path / name).write_bytes((SHIPPED / name).read_bytes())
    assert tool.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "structured.json: left: no per-cell figures" in out
    for name in ("calibration.json", "net_benefit.json", "registry.json", "structured.json"):
        assert (tmp_path / name).read_bytes() == (SHIPPED / name).read_bytes(), name


def test_migration_keeps_every_other_byte(tool: Any) -> None:
    """Each shipped file with figures is its own layout's writing of its content, and
    without ``smaller`` it is the content it had before."""
    for name in ("registry.json", "net_benefit.json", "calibration.json"):
        text = (SHIPPED / name).read_text(encoding="utf-8")
        doc = json.loads(text)
        assert tool.layout_of(text, doc)(doc) == text
        assert doc["cell_fields"][-1] == "smaller"
        assert all(len(r) == len(doc["cell_fields"]) for e in doc["entries"]
                   for r in e["figures"])
    nb = json.loads((SHIPPED / "net_benefit.json").read_text(encoding="utf-8"))
    assert {(r[1], r[2], r[-1]) for e in nb["entries"] for r in e["figures"]} == {
        (300, 0.1, 30), (300, 0.3, 90), (1000, 0.1, 100), (1000, 0.3, 300)}
    cal = json.loads((SHIPPED / "calibration.json").read_text(encoding="utf-8"))
    assert {(r[0], r[1], r[-1]) for e in cal["entries"] for r in e["figures"]} == {
        (p, n, round(n * pi)) for p, pi in (("balanced", 0.5), ("extreme", 0.5),
                                            ("rare", 0.1)) for n in (200, 1000, 5000)}


def test_migration_leaves_what_it_cannot_count(tool: Any) -> None:
    other = json.dumps({"schema": 1, "source": "x", "cell_fields": ["size", "icc", "coverage"],
                        "entries": [{"measure": "f1", "figures": [[5, 0.3, 0.9]]}]})
    assert tool.migrate_text(other) == (other, "left: cell_fields ['size', 'icc', "
                                               "'coverage'] give no smaller-class count")
    k7 = json.dumps({"schema": 1, "source": "x", "cell_fields": FIELDS[:-1],
                     "entries": [{"measure": "f1", "classes": "k",
                                  "figures": [["softmax", 100, 7, "macro", "a", 0.9, 0.01,
                                               0]]}]})
    with pytest.raises(tool.MigrationError, match="no class priors known for k=7"):
        tool.migrate_text(k7)


def test_migration_priors_are_the_studies() -> None:
    """The script's priors are those the studies drew from."""
    tool = _module("add_smaller_field", ROOT / "tools" / "add_smaller_field.py")
    gens = _module("covstudy_generators", ROOT / "benchmarks" / "covstudy" / "generators.py")
    cal = _module("calibration_study", ROOT / "benchmarks" / "calibration_study.py")
    assert {k: g.priors for k, g in gens.MULTI_GENERATORS.items()} == tool.K_PRIORS
    assert cal.PRIORS == tool.CALIBRATION_PRIORS
