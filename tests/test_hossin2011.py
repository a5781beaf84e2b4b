"""Hossin et al. (2011): Table 2 values, and a tiny resumable MCS reproduction."""

from __future__ import annotations

import pytest

from measurelab.experiments import hossin2011
from measurelab.measures.oarp import oarp
from measurelab.stats.confusion import BinaryCounts


@pytest.mark.parametrize("key", list(hossin2011.PAPER_TABLE2))
def test_table2_oarp_to_six_decimals(key):
    p = hossin2011.PAPER_TABLE2[key]
    c = BinaryCounts(tp=p["tp"], fp=p["fp"], fn=p["fn"], tn=p["tn"])
    assert round(float(oarp(c)), 6) == p["oarp"]
    assert round((p["tp"] + p["tn"]) / 100, 6) == p["acc"]


def test_table2_report(tmp_path):
    rep = hossin2011.run_table2(tmp_path, progress=False)
    assert rep.tables["table2"]["match"].all()
    assert rep.tables["preferences"]["agrees"].all()
    assert (tmp_path / "hossin2011-table2.md").exists()


def test_tiny_mcs_run_resumes(tmp_path, monkeypatch):
    kw = dict(progress=False, n_samples=20, repeats=1, k=3, datasets=["Heart270"])
    first = hossin2011.run_mcs(tmp_path, **kw)
    folds = sorted((tmp_path / "folds").rglob("*.json"))
    assert len(folds) == 3
    # a rerun must load every fold instead of fitting again
    from measurelab.learn import prototypes

    def boom(*a, **k):
        raise AssertionError("refitted a finished fold")

    monkeypatch.setattr(prototypes.MonteCarloPrototypeSelector, "fit", boom)
    second = hossin2011.run_mcs(tmp_path, **kw)
    assert first.tables["table4"].equals(second.tables["table4"])
    t4 = first.tables["table4"]
    assert 0.5 < t4.loc[("Heart270", "MCS Acc"), "ours"] <= 1.0


def test_full_adds_sensitivity_to_m(tmp_path, monkeypatch):
    monkeypatch.setattr(hossin2011, "SENSITIVITY_M", (3,))
    rep = hossin2011.run_mcs(tmp_path, full=True, progress=False, n_samples=10, repeats=1,
                             k=3, datasets=["Hepatitis"])
    sens = rep.tables["sensitivity_m"]
    assert list(sens.index) == [(3, "Hepatitis")]
    assert sorted((tmp_path / "variants" / "m3" / "folds").rglob("*.json"))
