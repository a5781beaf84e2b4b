"""The multi-label coverage plan (benchmarks/covstudy/multilabel.py): its generator, a tiny
run end to end, and its verdicts reaching measurelab's method column."""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import measurelab as ml
from measurelab.inference import evidence as ev

_PKG = Path(__file__).resolve().parents[2] / "benchmarks" / "covstudy"


def _load() -> ModuleType:
    if "covstudy" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "covstudy", _PKG / "__init__.py", submodule_search_locations=[str(_PKG)])
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["covstudy"] = module
        spec.loader.exec_module(module)
    return sys.modules["covstudy"]


_load()
mlplan = importlib.import_module("covstudy.multilabel")
cli = importlib.import_module("covstudy.cli")


def test_generator_correlated_labels_at_their_prevalences():
    cell = mlplan.MLCell(5, 1000)
    Y, models = mlplan.draw(cell, 200_000, np.random.default_rng(0))
    np.testing.assert_allclose(Y.mean(axis=0), cell.prevalences(), atol=0.005)
    c = np.corrcoef(Y.T.astype(float))
    assert (c[np.triu_indices(5, 1)] > 0.05).all()          # the shared case factor
    auc = [ml.metrics.auc(Y[:, j], models["a"][:, j]) for j in range(5)]
    auc_b = [ml.metrics.auc(Y[:, j], models["b"][:, j]) for j in range(5)]
    assert min(auc) > max(auc_b)                            # a is the better model
    assert cell.smaller() == round(1000 * 0.08)


def test_tiny_run_and_its_verdicts_reach_the_library(tmp_path, monkeypatch):
    monkeypatch.setattr(mlplan, "POP", 20_000)
    out, evid = tmp_path / "r.md", tmp_path / "ev" / "multilabel.json"
    assert cli.main(["--plan", "multilabel", "--cells", "1", "--sims", "3", "--n-boot", "100",
                     "--cache", str(tmp_path / "c"), "--out", str(out), "--evidence",
                     str(evid), "--no-progress"]) == 0
    doc = json.loads(evid.read_text())
    assert doc["source"] == "multilabel" and doc["preliminary"] is True
    keys = {(e["measure"], e["kind"]) for e in doc["entries"]}
    assert keys == {(m, k) for m in mlplan.MEASURES for k in ("single", "paired")}
    assert all(e["classes"] == "multilabel" and len(f) == len(doc["cell_fields"])
               for e in doc["entries"] for f in e["figures"])
    assert "## Verdicts" in out.read_text()
    monkeypatch.setattr(ev, "_OVERRIDE", evid.parent)
    Y, models = mlplan.draw(mlplan.MLCell(5, 300), 300, np.random.default_rng(1))
    r = ml.evaluate(Y, models["a"], measures=["f1", "lrap"], ci=0.95, n_boot=200)
    assert set(r.intervals().method) == {"bootstrap-bca (no coverage evidence: preliminary "
                                         "run)"}


def test_verdict_below_the_bar_withholds_the_interval(tmp_path, monkeypatch):
    """An entry below the bar in the user's bracket withholds the multi-label interval."""
    entry = {"measure": "f1", "classes": "multilabel", "design": "random", "kind": "single",
             "averages": ["macro"], "methods": ["bootstrap-bca"], "cells": 1,
             "lowest": 0.8, "where": "L=5, n=300", "mean": 0.8, "mcse_lowest": 0.01,
             "covers": False,
             "figures": [["correlated-labels", 300, 5, "macro", "a", 0.8, 0.01, 0, 24]]}
    head = {"schema": 1, "source": "multilabel", "preliminary": False, "level": 0.95,
            "cell_fields": ["generator", "n", "param", "average", "model", "coverage",
                            "mcse", "undefined", "smaller"], "entries": [entry]}
    (tmp_path / "multilabel.json").write_text(json.dumps(head))
    monkeypatch.setattr(ev, "_OVERRIDE", tmp_path)
    Y, models = mlplan.draw(mlplan.MLCell(5, 300), 300, np.random.default_rng(2))
    with pytest.warns(ml.UndefinedMeasureWarning, match="no interval for f1"):
        r = ml.evaluate(Y, models["a"], measures=["f1"], ci=0.95, n_boot=200)
    row = r.intervals().iloc[0]
    assert np.isnan(row.lo) and row.method.startswith("no interval: coverage 0.800 < 0.90")
