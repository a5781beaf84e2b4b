"""The caruana2004 report's computed verdicts, on hand-made tables whose answers are known."""

from __future__ import annotations

import numpy as np
import pandas as pd

from measurelab.lab.experiments import caruana2004 as c4
from measurelab.lab.study.analysis import COLUMNS

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


# -- why a finding fails: candidate explanations decided by computed checks -------------------

def _normalized(spec: dict[str, list[tuple[str, dict[str, float], float]]]) -> pd.DataFrame:
    """A per-model normalized table: problem -> [(algo, settings, score on every measure)]."""
    import json

    rows = []
    for prob, models in spec.items():
        for algo, settings, score in models:
            rows.append({"problem": prob, "model": f"{algo} {json.dumps(settings)}",
                         "algo": algo, "kept": True, **dict.fromkeys(COLUMNS, score)})
    return pd.DataFrame(rows)


def test_why_algorithm_order_checks_selection_grid_edge_and_problems() -> None:
    from measurelab.lab.experiments import caruana2004_why as why

    # on the test set ANN's best net (64 epochs, the grid's largest) beats SVM on p1 and p2
    spec = {p: [("ann", {"epochs": 4}, low), ("ann", {"epochs": 64}, top),
                ("svm", {"C": 1}, 0.8)] for p, low, top in (("p1", 0.5, 0.9),
                                                            ("p2", 0.5, 0.95),
                                                            ("p3", 0.7, 0.6))}
    norm = _normalized(spec)
    alg = _algorithms("svm")
    by_problem = pd.concat({p: alg.assign(mean=[0.9 if a == ("ann" if p != "p3" else "svm")
                                                else 0.5 for a in alg.index])
                            for p in ("p1", "p2", "p3")}, names=["problem", "algo"])
    f = c4.findings({"rank_correlation": _rank_table(), "algorithms": alg,
                     "algorithms_by_problem": by_problem}, norm)
    assert not f.loc["algorithm_order", "holds"]
    text = f.loc["algorithm_order", "why"]
    # picked on test: ANN (0.9 + 0.95 + 0.7) / 3 = 0.85 > SVM 0.8 -> supported
    assert "result: ANN ranks 1 of 2 (mean 0.850; best ANN 0.850)" in text
    assert "the largest epochs (64) is the best on 2 of 3 problems" in text
    assert "first on 2 of 3 problems (P1 1, P2 1, P3 2)" in text
    assert "Supported by its check" in text
    checks = why.algorithm_order({}, norm.assign(**{m: 0.1 for m in COLUMNS})
                                 .where(norm["algo"] != "svm", norm), ["ann", "svm"])
    assert [c.supports for c in checks] == [False, False]


def test_why_boosting_ordering_rms_mxe_and_selection() -> None:
    from scipy import stats

    from measurelab.lab.experiments import caruana2004_why as why
    from measurelab.lab.experiments._verdict import explain

    # LFT the odd one: AUC/APR/BEP at 0.95, LFT at 0.3 to them -> the three alone cluster
    rc = _rank_table()
    for a in ("auc", "apr", "bep"):
        rc.loc["lft", a] = rc.loc[a, "lft"] = 0.3
    c = why.ordering_cluster({"rank_correlation": rc})[0]
    assert c.supports and "within = 0.050" in c.result

    # RMS and MXE agree on ANN/SVM models; k-NN models reverse MXE
    rng = np.random.default_rng(0)
    rows = []
    for p in ("p1", "p2"):
        for i in range(8):
            algo = "ann" if i % 2 else "svm"
            x = rng.uniform()
            rows.append({"problem": p, "model": f"{algo} {{\"i\": {i}}}", "algo": algo,
                         "kept": True, **{m: rng.uniform() for m in COLUMNS},
                         "rms": x, "mxe": x + 1e-3})
        for i in range(8):
            x = rng.uniform()
            rows.append({"problem": p, "model": f"knn {{\"k\": {i}}}", "algo": "knn",
                         "kept": True, **{m: rng.uniform() for m in COLUMNS},
                         "rms": x, "mxe": -x})
    c = why.rms_mxe(pd.DataFrame(rows))[0]
    assert c.supports and "ρ(RMS, MXE) = 1.000" in c.result

    # boosting: picked on the test set BST-DT is 1st on threshold/ordering, last on
    # probability; its best steps are the grid's largest on both problems
    rows = []
    for p in ("p1", "p2"):
        for steps, s in ((2, 0.4), (1024, 0.99)):
            rows.append({"problem": p, "model": f"bst-dt {{\"steps\": {steps}}}",
                         "algo": "bst-dt", "kept": True, **dict.fromkeys(COLUMNS, s),
                         "rms": 0.1, "mxe": 0.1, "cal": 0.1})
        for a in ("ann", "svm", "dt"):
            rows.append({"problem": p, "model": f"{a} {{}}", "algo": a, "kept": True,
                         **dict.fromkeys(COLUMNS, 0.7)})
    checks = why.boosting_tradeoff({}, pd.DataFrame(rows), ["ann", "svm", "dt", "bst-dt"],
                                   c4._boosting_rule, 3)
    assert [c.supports for c in checks] == [True, True]
    # the steps check speaks to the threshold/ordering half only: left out when it holds
    assert len(why.boosting_tradeoff({}, pd.DataFrame(rows), ["ann", "svm", "dt", "bst-dt"],
                                     c4._boosting_rule, 1)) == 1
    assert "ranks 1 of 4 on threshold + ordering measures and 4 on probability" in \
        checks[0].result
    assert "the largest steps (1024) is the best on 2 of 2 problems" in checks[1].result

    # selection: the per-problem gaps and the paired t-test p from scipy
    sel = _selection("mxe")
    by = pd.concat({p: sel for p in ("p1", "p2", "p3")}, names=["problem", "selected_by"])
    by.loc[("p2", "sar"), "mean"] -= 0.05
    by.loc[("p3", "sar"), "mean"] += 0.02
    c = why.sar_selection({"selection": sel, "selection_by_problem": by})[0]
    m = by["mean"].unstack("selected_by")
    d = (m["mxe"] - m["sar"]).to_numpy()
    lo, hi = stats.t.interval(0.90, d.size - 1, loc=d.mean(), scale=stats.sem(d))
    assert f"interval [{lo:+.3f}, {hi:+.3f}]" in c.result
    assert c.supports == (-0.01 < lo and hi < 0.01) and not c.supports
    assert "SAR is 0.070 below the best (MXE)" in c.result
    # equal gaps on every problem, inside the margin: equivalent
    small = pd.concat({p: sel.assign(mean=sel["mean"] - 0.065 * (sel.index == "mxe"))
                       for p in ("p1", "p2", "p3")}, names=["problem", "selected_by"])
    small.loc[("p1", "sar"), "mean"] += 0.001
    assert why.sar_selection({"selection": sel, "selection_by_problem": small})[0].supports
    assert "no candidate" in c4.findings(
        {"rank_correlation": _rank_table(far="acc")})["why"]["cal_far"]
    assert explain(checks).startswith("Candidate explanations")


def test_why_algorithm_order_with_nets_trained_on() -> None:
    """With the rerun table of longer-trained nets the check decides by ANN's rank there,
    and the grid-edge proxy is left out (the nets trained on answer it)."""
    spec = {"p1": [("ann", {"epochs": 64}, 0.9), ("svm", {"C": 1}, 0.8)]}
    norm = _normalized(spec)
    alg = _algorithms("svm")
    for best, supported in (("ann", True), ("svm", False)):
        rerun = _algorithms(best)
        f = c4.findings({"rank_correlation": _rank_table(), "algorithms": alg}, norm,
                        (rerun, [64, 128, 256]))
        text = f.loc["algorithm_order", "why"]
        assert "read off after 64, 128, 256 epochs" in text
        r = 1 if supported else 3  # behind SVM (0.95) and BST-DT (mean of 0.99s and 0.2s)
        assert (f"trained on, ANN would be the best algorithm — "
                f"{'supported' if supported else 'refuted'}") in text
        assert f"result: ANN ranks {r} of 7" in text
        assert "sit at the largest epochs" not in text


def test_why_checks_are_left_out_on_undefined_values_and_ties_go_to_the_smaller() -> None:
    from measurelab.lab.experiments import caruana2004_why as why

    # ANN's scores undefined (normalization span 0): no check decided by a NaN rank
    norm = _normalized({"p1": [("ann", {"epochs": 64}, float("nan")),
                               ("svm", {"C": 1}, 0.8)]})
    checks = why.algorithm_order({}, norm, ["ann", "svm"])
    assert checks == []
    # identical boosted models (early stop): the tie goes to the smaller step count
    norm = _normalized({"p1": [("bst-dt", {"steps": 8}, 0.9), ("bst-dt", {"steps": 64}, 0.9)],
                        "p2": [("bst-dt", {"steps": 8}, 0.5), ("bst-dt", {"steps": 64}, 0.9)]})
    assert why.best_setting_at_edge(norm, "bst-dt", "steps", ("acc",)) == (1, 2, 64.0)
    # a problem whose SAR is undefined gets no longer-trained net
    m = pd.DataFrame({"problem": ["p", "q"], "algo": "ann", "split": "valid",
                      "model": ['ann {"epochs": 4, "hidden": 1, "momentum": 0.0}'] * 2,
                      "sar": [0.5, float("nan")]})
    assert [u.problem for u in why.longer_ann_units(m)] == ["p"]
