"""Hossin et al. (2011): Table 2 values, and a tiny resumable MCS reproduction."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from measurelab.lab.experiments import hossin2011
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
    kw = dict(progress=False, n_samples=20, repeats=1, k=3, datasets=["Heart270"],
              sensitivity_grid=None)
    first = hossin2011.run_mcs(tmp_path, **kw)
    folds = sorted((tmp_path / "folds").rglob("*.json"))
    assert len(folds) == 3
    # a rerun must load every fold instead of fitting again
    from measurelab.lab.learn import prototypes

    def boom(*a, **k):
        raise AssertionError("refitted a finished fold")

    monkeypatch.setattr(prototypes.MonteCarloPrototypeSelector, "fit", boom)
    second = hossin2011.run_mcs(tmp_path, **kw)
    assert first.tables["table4"].equals(second.tables["table4"])
    t4 = first.tables["table4"]
    assert 0.5 < t4.loc[("Heart270", "MCS Acc"), "ours"] <= 1.0


def _brute_scores(X, y, sets):
    """acc and OARP of each prototype set by loops over examples and integer counts."""
    accs, oarps = [], []
    for idx in sets:
        tp = fp = fn = tn = 0
        for i in range(len(y)):
            d = [float(np.sqrt(((X[i] - X[j]) ** 2).sum())) for j in idx]
            best = min(d)
            labels = [int(y[j]) for j, dj in zip(idx, d, strict=True) if dj == best]
            pred = min(labels)  # distance tie: the lower class code
            tp += pred == 1 and y[i] == 1
            fp += pred == 1 and y[i] == 0
            fn += pred == 0 and y[i] == 1
            tn += pred == 0 and y[i] == 0
        c = BinaryCounts(tp=tp, fp=fp, fn=fn, tn=tn)
        accs.append((tp + tn) / len(y))
        oarps.append(float(oarp(c)))
    return accs, oarps


def _tiny_problem():
    rng = np.random.default_rng(15)      # a draw where 4 sets tie at the best accuracy
    X = np.round(rng.random((14, 2)), 1)   # rounded: exact distance ties occur
    y = (X[:, 0] + 0.6 * rng.random(14) > 0.7).astype(int)
    sets = np.array(list(itertools.combinations(range(14), 2)))   # every 2-set
    return X, y, sets


def test_score_sets_vs_brute_force_and_selector():
    from measurelab.lab.learn.prototypes import (
        MonteCarloPrototypeSelector,
        draw_prototype_sets,
        pairwise_distances,
    )

    X, y, sets = _tiny_problem()
    D = pairwise_distances(X, X)
    acc, o = hossin2011.score_sets(D, y, sets, chunk=7)
    ba, bo = _brute_scores(X, y, sets)
    assert acc.tolist() == pytest.approx(ba, abs=1e-12)
    assert o.tolist() == pytest.approx(bo, abs=1e-12)
    for m, strat in ((2, False), (4, True)):
        for meas in ("acc", "oarp"):
            sel = MonteCarloPrototypeSelector(60, m, stratified=strat, measure=meas,
                                              random_state=11).fit(X, y)
            s = draw_prototype_sets(y, 60, m, stratified=strat,
                                    rng=np.random.default_rng(11))
            a2, o2 = hossin2011.score_sets(D, y, s)
            assert int(np.argmax(a2 if meas == "acc" else o2)) == sel.best_index_


def test_selection_account_vs_brute_force():
    X, y, sets = _tiny_problem()
    ba, bo = _brute_scores(X, y, sets)
    n = len(y)
    r = hossin2011.selection_account(np.array(ba), np.array(bo), n)
    correct = [round(a * n) for a in ba]
    best = max(correct)
    ia = correct.index(best)                       # first set with the best accuracy
    io = max(range(len(bo)), key=lambda i: (bo[i], -i))  # first set with the best OARP
    ties = [i for i, c in enumerate(correct) if c == best]
    corr = [(a - o) * n for a, o in zip(ba, bo, strict=True)]
    assert r["same"] == (ia == io)
    assert r["n_at_max_acc"] == len(ties) > 1      # the tiny problem has ties
    assert r["oarp_at_max_acc"] == (io in ties)
    assert r["acc_given_up"] == best - correct[io]
    assert r["corr_steps_at_acc_pick"] == pytest.approx(corr[ia])
    assert r["corr_steps_median"] == pytest.approx(sorted(corr)[len(corr) // 2]
                                                   if len(corr) % 2 else
                                                   (sorted(corr)[len(corr) // 2 - 1]
                                                    + sorted(corr)[len(corr) // 2]) / 2)
    tie_corr = [corr[i] for i in ties]
    assert r["corr_spread_at_max_acc"] == pytest.approx(max(tie_corr) - min(tie_corr))
    # and AVRI/10 really is acc − OARP: the steps equal n · AVRI / 10 from the counts
    from measurelab.measures.oarp import avri
    assert corr[ia] == pytest.approx(n * float(avri(_counts(X, y, sets[ia]))) / 10)


def _counts(X, y, idx):
    from measurelab.lab.learn.prototypes import nearest_prototype_scores, pairwise_distances

    pred, _ = nearest_prototype_scores(pairwise_distances(X, X[idx]), y[idx], 2)
    return BinaryCounts(tp=int(((pred == 1) & (y == 1)).sum()),
                        fp=int(((pred == 1) & (y == 0)).sum()),
                        fn=int(((pred == 0) & (y == 1)).sum()),
                        tn=int(((pred == 0) & (y == 0)).sum()))


def test_sensitivity_tiny_grid_main_cell_equals_main_run(tmp_path, monkeypatch):
    from measurelab.lab.experiments import _verdict as V

    grid = {"datasets": ("Hepatitis",), "m": (2, 4), "stratified": (False,),
            "n_samples": (10, 30), "nominal": ("overlap", "one-hot"), "repeats": 1, "k": 3}
    rep = hossin2011.run_mcs(tmp_path, progress=False, n_samples=30, repeats=1, k=3,
                             datasets=["Hepatitis"], sensitivity_grid=grid)
    cells = rep.tables["sensitivity_cells"]
    assert len(cells) == 8
    # the (overlap, m = 2, unstratified, 30 sets) cell is the main run, by another route
    main = cells.loc[("overlap", 2, False, 30, "Hepatitis")]
    t4 = rep.tables["table4"]
    assert main["MCS Acc"] == pytest.approx(t4.loc[("Hepatitis", "MCS Acc"), "ours"])
    assert main["MCS OARP"] == pytest.approx(t4.loc[("Hepatitis", "MCS OARP"), "ours"])
    acc_t = rep.tables["account"]
    assert acc_t.loc[("overlap", 2, False, 30), "same set"] == pytest.approx(
        rep.tables["table5"].loc["Hepatitis", "share of folds with the same set"])
    for row in rep.tables["sensitivity"].itertuples():
        w, d, lo = (int(x) for x in row[5].split("-"))
        assert row[6] == V.count_directional(w, d, lo).label
    text = "\n".join(rep.paragraphs)
    assert "Candidate explanations" in text and "Why OARP and accuracy" in text
    assert "number of prototypes m" in text
    # resume: the stored folds are loaded, nothing is scored again
    monkeypatch.setattr(hossin2011, "score_sets", lambda *a, **k: 1 / 0)
    again = hossin2011.sensitivity(tmp_path / "sensitivity", grid=grid, progress=False)
    assert again["cells"].equals(cells)
