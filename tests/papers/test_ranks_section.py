"""The Demšar section of the CV reproductions: ranks and tests on constructed tables."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from measurelab.lab.experiments._ranks import add_demsar
from measurelab.lab.report.page import Report


def _table(seed, shift):
    rng = np.random.default_rng(seed)
    base = rng.random((12, 1))
    vals = base + rng.normal(0, 0.01, (12, 3)) + np.array(shift)
    return pd.DataFrame(vals, columns=["A", "B", "C"], index=[f"d{i}" for i in range(12)])


def test_dominant_model_is_found_and_ranks_match_scipy():
    t = _table(0, [0.10, 0.05, 0.0])
    rep = Report("x", "x")
    r = add_demsar(rep, {"acc": t})["acc"]
    want = np.mean([stats.rankdata(-row) for row in t.to_numpy()], axis=0)
    assert r.avg_ranks[["A", "B", "C"]].to_numpy() == pytest.approx(want)
    chi2 = stats.friedmanchisquare(*t.to_numpy().T).statistic   # no ties: same statistic
    assert r.friedman.statistic == pytest.approx(chi2)
    tests = rep.tables["demsar_tests"].loc["acc"]
    assert "A > C" in tests["pairs ≥ CD"]
    assert "the models differ" in rep.paragraphs[0]
    assert "demsar_cd" in rep.figures


def test_no_difference_gives_no_post_hoc():
    t = _table(1, [0.0, 0.0, 0.0])
    rep = Report("x", "x")
    r = add_demsar(rep, {"auc": t})["auc"]
    assert r.iman_davenport.pvalue >= 0.05
    assert "no post-hoc test" in rep.paragraphs[0]


def test_equal_means_tie_exactly():
    t = pd.DataFrame({"A": [0.1 + 0.2, 0.5, 0.7], "B": [0.3, 0.4, 0.8]},
                     index=["x", "y", "z"])   # 0.1 + 0.2 != 0.3 in binary
    r = add_demsar(Report("x", "x"), {"acc": t})["acc"]
    assert r.ranks.loc["x"].tolist() == [1.5, 1.5]
