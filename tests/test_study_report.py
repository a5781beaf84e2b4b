"""The caruana2004 report's computed verdicts, on hand-made tables whose answers are known."""

from __future__ import annotations

import numpy as np
import pandas as pd

from measurelab.experiments import caruana2004 as c4
from measurelab.study.analysis import COLUMNS

ALGOS = ["ann", "svm", "bag-dt", "knn", "bst-dt", "dt", "bst-stmp", "bst-dt+platt"]


def _rank_table(far: str = "cal", center: str = "sar") -> pd.DataFrame:
    """A correlation table: ordering measures at 0.95, RMS–MXE 0.9, ``far`` at 0.1 to all,
    ``center`` at 0.85 to all, everything else 0.6."""
    rc = pd.DataFrame(0.6, index=COLUMNS, columns=COLUMNS)
    for a in c4.ORDERING:
        for b in c4.ORDERING:
            rc.loc[a, b] = 0.95
    rc.loc["rms", "mxe"] = rc.loc["mxe", "rms"] = 0.9
    rc.loc[center, :] = rc.loc[:, center] = 0.85
    rc.loc[far, :] = rc.loc[:, far] = 0.1
    for m in COLUMNS:
        rc.loc[m, m] = 1.0
    off = rc.where(~np.eye(len(COLUMNS), dtype=bool))
    return rc.assign(mean=off.mean(axis=1))


def _algorithms(best: str) -> pd.DataFrame:
    rows = {a: dict.fromkeys(COLUMNS, 0.5) for a in ALGOS}
    for m in c4.THRESHOLD_ORDERING:
        rows["bst-dt"][m] = 0.99
    for m in c4.PROBABILITY:
        rows["bst-dt"][m] = 0.2
        rows["bst-dt+platt"][m] = 0.9
    for m in COLUMNS:
        rows[best][m] = max(rows[best][m], 0.95)
    df = pd.DataFrame.from_dict(rows, orient="index")[COLUMNS]
    df.insert(9, "mean", df[[c for c in COLUMNS if c != "sar"]].mean(axis=1))
    return df


def _selection(best: str) -> pd.DataFrame:
    sel = pd.DataFrame(0.9, index=COLUMNS, columns=COLUMNS)
    sel.loc[best] = 0.97
    sel["mean"] = sel[[c for c in COLUMNS if c != "sar"]].mean(axis=1)
    return sel


def test_findings_hold_when_tables_say_so() -> None:
    f = c4.findings({"rank_correlation": _rank_table(), "algorithms": _algorithms("ann"),
                     "selection": _selection("sar")})
    for key in ("ordering_cluster", "rms_mxe", "cal_far", "sar_central",
                "boosting_tradeoff", "algorithm_order", "sar_selection"):
        assert f.loc[key, "holds"], key
        assert f.loc[key, "why"] == ""
    # only the paper's findings are counted; the later-work one is reported apart
    assert "boosting_calibrated" not in f.index and "ann_overall" not in f.index
    later = c4.later_work({"algorithms": _algorithms("ann")})
    assert later.loc["boosting_calibrated", "observed"]
    assert "holds" not in later.columns and "2005" in later.loc["boosting_calibrated", "source"]


def test_algorithm_order_judged_by_rank_of_ann() -> None:
    """The paper's order with ANN second: a high Spearman ρ, but the finding fails."""
    alg = _algorithms("ann")
    order = ["svm", "ann", "bag-dt", "knn", "bst-dt", "dt", "bst-stmp"]
    alg["mean"] = [1.0 - 0.1 * order.index(a) if a in order else 0.0 for a in alg.index]
    f = c4.findings({"rank_correlation": _rank_table(), "algorithms": alg})
    assert not f.loc["algorithm_order", "holds"]
    assert "ANN ranks 2 of 7" in f.loc["algorithm_order", "ours"]
    assert "Spearman ρ with the paper's order 0.96" in f.loc["algorithm_order", "ours"]


def test_table1_names_missing_problems_and_figure1() -> None:
    probs = pd.DataFrame({"features": [14, 54, 16, 16], "train": [4000] * 4,
                          "test": [20000, 20000, 14000, 14000],
                          "pos_rate_test": [0.24, 0.49, 0.04, 0.5]},
                         index=list(c4.PAPER_PROBLEMS))
    t1 = c4.problems_table1(probs)
    assert len(t1) == 7 and t1["used"].sum() == 4
    assert {"MEDIS", "SLAC", "HYPER_SPECT"} <= set(t1.index[~t1["used"]])
    assert not t1["paper numbers checked against the text"].any()
    assert t1.loc["ADULT", "differences"].startswith("test 35222 vs 20000 (ours capped")
    assert "% positive 53 vs 50" in t1.loc["LETTER.P2", "differences"]
    st = pd.DataFrame({"normalized": [0.3, 0.12, 0.07, 0.03]}, index=[1, 2, 3, 4])
    f1 = c4.figure1(st)
    assert f1.loc["normalized", "dims for stress < 0.1"] == 3
    assert f1.loc["normalized", "dims for stress < 0.05"] == 4


def test_findings_fail_when_tables_disagree() -> None:
    f = c4.findings({"rank_correlation": _rank_table(far="acc", center="rms"),
                     "algorithms": _algorithms("svm"), "selection": _selection("mxe")})
    for key in ("cal_far", "sar_central", "algorithm_order", "sar_selection"):
        assert not f.loc[key, "holds"], key
        assert f.loc[key, "why"]
    assert "lowest: ACC" in f.loc["cal_far", "ours"]
    assert "highest: RMS" in f.loc["sar_central", "ours"]
    # the explanation of the selection verdict is computed from the table
    assert "SAR is 0.070 below the best" in f.loc["sar_selection", "why"]


def test_stress_note_and_html() -> None:
    st = pd.DataFrame({"normalized": [0.2, 0.04, 0.01], "rank": [0.1, 0.06, 0.06]},
                      index=[1, 2, 3])
    D = pd.DataFrame([[0.0, 0.1, 0.5], [0.1, 0.0, 0.1], [0.5, 0.1, 0.0]])
    note = c4._stress_note(st, D)
    assert "by up to 0.300" in note and "levels off at 0.060" in note
    metric = pd.DataFrame([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
    assert "triangle" not in c4._stress_note(st, metric)
    rep = c4.Report("caruana2004", "T")
    rep.add_table("findings", pd.DataFrame({"holds": [True, False]}, index=["a", "b"]))
    page = c4.to_html(rep)
    assert "class='yes'" in page and "class='no'" in page
