"""Huang & Ling (2007) networks: a tiny run, its bookkeeping, and resume."""

from __future__ import annotations

import numpy as np
import pytest

from measurelab.lab.experiments import huang2007_ann as H
from measurelab.lab.learn import mlp


def test_paper_constants_are_consistent():
    # AUC:acc column is AUC + acc/100 rounded (display), as Huang & Ling print it in Table 7
    # (docs/METHODS.md#two-level)
    for name, rows in H.PAPER_TABLE7.items():
        for model, (acc, auc, both) in rows.items():
            if both < 1.0:   # the paper prints 1.00 where the display exceeds 1
                assert abs(auc + acc / 100 - both) <= 0.00015, (name, model)
    assert set(H.PAPER_TABLE7) == set(H.DATASETS)


def test_pima_is_the_392_complete_rows():
    X, _y, k = H.load("pima")
    assert X.shape == (392, 8) and k == 2
    assert (X[["plas", "pres", "skin", "insu", "mass"]] != 0).all().all()


def test_tiny_run_tables_and_resume(tmp_path, monkeypatch):
    kw = dict(progress=False, datasets=["vote"], look_ahead=10, max_epochs=60, readings=None)
    rep = H.run(tmp_path, **kw)
    t7 = rep.tables["table7"]
    assert len(t7) == 9
    wide = rep.tables["table7_wide"]
    for model in H.MODELS:
        row = wide.loc[("vote", H.LABEL[model])]
        assert 0.5 < row["acc"] <= 1 and 0.5 < row["auc"] <= 1
    # AUC:acc column = per-fold AUC + acc/100, averaged
    for model in H.MODELS:
        row = wide.loc[("vote", H.LABEL[model])]
        assert row["auc:acc"] == pytest.approx(row["auc"] + row["acc"] / 100)
    assert set(rep.tables["table8"]["ours"]) <= {"1-0-0", "0-1-0", "0-0-1"}
    assert (tmp_path / "huang2007-ann.md").exists()
    assert (tmp_path / "huang2007-ann-table7.png").exists()

    def boom(*a, **k):
        raise AssertionError("retrained a finished fold")

    monkeypatch.setattr(mlp, "train_monitored", boom)
    again = H.run(tmp_path, **kw)
    assert again.tables["table7"]["ours"].equals(t7["ours"])


def test_fold_fn_matches_direct_training():
    """One fold computed by the experiment equals training and scoring by hand."""
    from measurelab.lab.learn.cv import cv_splits
    from measurelab.lab.preprocess import Preprocessor

    X, y, k = H.load("hepatitis")
    split = cv_splits(y, k=5, seed=H.SEED)[0]
    opts = {"look_ahead": 10, "max_epochs": 50}
    res = H._fold_fn(X, y, k, opts)(split)
    prep = Preprocessor().fit(X.iloc[split.train])
    direct = mlp.train_monitored(prep.transform(X.iloc[split.train]), y[split.train],
                                 ["acc"], n_classes=k, random_state=H.SEED, **opts)
    w = direct.weights["acc"]
    net = mlp.MLP(w[0].shape[0] - 1, w[0].shape[1], 1)
    net.set_weights(w)
    s = net.forward(prep.transform(X.iloc[split.test]))[:, 0]
    assert res["acc|acc"] == pytest.approx(np.mean((s > 0.5) == (y[split.test] == 1)))
    assert res["acc|stop_epoch"] == direct.stop_epoch["acc"]


#: hand-made monitored records and where each reading keeps the weights (check index,
#: still going at the end); worked out by hand in the comments
SEQ1 = {"auc": [0.5, 0.8, 0.809, 0.809, 0.7], "acc": [0.5, 0.6, 0.9, 0.95, 0.95]}
SEQ2 = {"auc": [0.5, 0.8, 0.8, 0.7, 0.7], "acc": [0.5, 0.6, 0.8, 0.7, 0.7]}
SEQ3 = {"auc": [0.5, 0.8, 0.7, 0.7], "acc": [0.5, 0.6, 0.6, 0.6]}
SEQS = {"SEQ1": SEQ1, "SEQ2": SEQ2, "SEQ3": SEQ3}
EXPECTED = {
    # SEQ1: ΔAUC 1→2 = 0.009 ≤ ε (no exact tie), Δacc = 0.3, display Δ = 0.012
    ("SEQ1", "lex"): (1, False),          # 1→2 neither up by > ε nor tied
    ("SEQ1", "display"): (2, False),      # 1→2 display +0.012; 2→3 +0.0005
    ("SEQ1", "tolerant"): (3, False),     # ties within ε at 1→2, 2→3; 3→4 AUC −0.109
    ("SEQ1", "lex-abs"): (1, False),
    ("SEQ1", "display-abs"): (2, False),
    ("SEQ1", "tolerant-abs"): (4, True),  # 3→4 |ΔAUC| = 0.109 > ε: goes on to the end
    # SEQ2: exact AUC tie 1→2 with acc +0.2, then AUC −0.1, then a full tie
    ("SEQ2", "lex"): (2, False),
    ("SEQ2", "display"): (1, False),      # 1→2 display +0.002
    ("SEQ2", "tolerant"): (2, False),
    ("SEQ2", "lex-abs"): (3, False),      # 2→3 |ΔAUC| = 0.1 > ε; 3→4 tie, Δacc 0
    ("SEQ2", "display-abs"): (1, False),
    ("SEQ2", "tolerant-abs"): (3, False),
    # SEQ3: AUC falls by 0.1 after check 1: only the absolute readings go on
    ("SEQ3", "lex"): (1, False),
    ("SEQ3", "display"): (1, False),
    ("SEQ3", "tolerant"): (1, False),
    ("SEQ3", "lex-abs"): (2, False),      # 2→3 exact tie, Δacc 0
    ("SEQ3", "display-abs"): (2, False),
    ("SEQ3", "tolerant-abs"): (2, False),
}


@pytest.mark.parametrize(("seq", "reading"), sorted(EXPECTED))
def test_each_reading_on_a_hand_made_trajectory(seq, reading):
    mon = SEQS[seq]
    stops = H.reading_stops(mon, reading, step=1, epsilon=0.01)
    assert stops["auc:acc"] == EXPECTED[(seq, reading)]
    # the single-level rules: AUC keeps check 1 (SEQ3, absolute: the fall by 0.1 counts);
    # acc goes up 0.1, 0.3, 0.05 then flat in SEQ1
    absolute = reading.endswith("-abs")
    assert stops["auc"] == ((2, False) if seq == "SEQ3" and absolute else (1, False))
    if seq == "SEQ1":
        assert stops["acc"] == (3, False)


def test_readings_are_all_different_somewhere():
    got = {r: tuple(H.reading_stops(m, r, step=1, epsilon=0.01)["auc:acc"]
                    for m in SEQS.values()) for r in H.READINGS}
    assert len(set(got.values())) == len(H.READINGS)


def test_trajectory_reproduces_train_monitored():
    """A reading applied to the recorded trajectory stops where train_monitored stops."""
    from measurelab.lab.learn.cv import cv_splits
    from measurelab.lab.learn.trajectory import record_trajectory, stop_index
    from measurelab.lab.preprocess import Preprocessor

    X, y, k = H.load("hepatitis")
    split = cv_splits(y, k=5, seed=H.SEED)[1]
    prep = Preprocessor().fit(X.iloc[split.train])
    Xtr, ytr = prep.transform(X.iloc[split.train]), y[split.train]
    for mon, rule in (("train", "lexicographic"), ("validation", "display")):
        res = mlp.train_monitored(Xtr, ytr, list(H.MODELS), n_classes=k, random_state=7,
                                  look_ahead=50, max_epochs=400, monitor_on=mon, rule=rule)
        t = record_trajectory(Xtr, ytr, Xtr, ytr, n_classes=k, every=25, max_epochs=400,
                              random_state=7, monitor_on=mon)
        slug = {"lexicographic": "lex", "display": "display"}[rule]
        stops = H.reading_stops(t.monitor, slug, step=2, epsilon=0.01)
        for m in H.MODELS:
            assert t.epochs[stops[m][0]] == res.stop_epoch[m], (mon, m)
            assert stops[m][1] == res.hit_max_epochs[m]
        # f on the training data at the kept weights equals the recorded value
        assert t.monitor["acc"][stops["acc"][0]] == pytest.approx(
            float(res.history["acc"][stops["acc"][0] // 2]))
        assert stop_index(t.monitor["acc"], step=2) == stops["acc"]


def test_sensitivity_tiny_grid_and_resume(tmp_path, monkeypatch):
    from measurelab.lab.learn import trajectory

    grid = {"datasets": ("hepatitis",), "monitor_on": ("train",), "learning_rate": (0.3,),
            "N": (50,), "epsilon": (0.01,), "every": 50, "max_epochs": 200}
    sens = H.sensitivity(tmp_path, grid=grid, progress=False)
    tab = sens["table"]
    assert list(tab.index.get_level_values("reading")) == list(H.READINGS)
    assert (tab["folds"] == 5).all()
    # the share of differing stops recomputed from the stored trajectories
    import json
    files = sorted((tmp_path / "folds").rglob("r0-f*.json"))
    assert len(files) == 5
    folds = [json.loads(f.read_text()) for f in files]
    for reading in H.READINGS:
        n = sum(H.reading_stops(f["train|0.3"]["monitor"], reading, step=1,
                                epsilon=0.01)["auc:acc"][0]
                != H.reading_stops(f["train|0.3"]["monitor"], reading, step=1,
                                   epsilon=0.01)["auc"][0] for f in folds)
        assert tab.loc[(reading, "train", 0.3, 50, 0.01), "AUC:acc ≠ AUC stop"] == n
    mech = sens["mechanism"].iloc[0]
    assert mech["ΔAUC = 0 and Δacc > ε"] <= min(mech["ΔAUC exactly 0"], mech["Δacc > ε"])
    assert mech["ΔAUC exactly 0"] <= mech["|ΔAUC| ≤ ε"] <= mech["AUC stops (folds)"]

    def boom(*a, **k):
        raise AssertionError("recomputed a stored trajectory")

    monkeypatch.setattr(trajectory, "record_trajectory", boom)
    again = H.sensitivity(tmp_path, grid=grid, progress=False)
    assert again["table"].equals(tab)


def test_report_verdicts_follow_the_rule(tmp_path):
    from measurelab.lab.experiments import _verdict as V

    grid = {"datasets": ("hepatitis",), "monitor_on": ("train",), "learning_rate": (0.3,),
            "N": (50,), "epsilon": (0.01,), "every": 50, "max_epochs": 100}
    rep = H.run(tmp_path, progress=False, datasets=["vote", "hepatitis"], look_ahead=10,
                max_epochs=40, readings=grid)
    v = rep.tables["verdicts"]
    assert len(v) == 9
    for row in v.itertuples():
        w, d, lo = (int(x) for x in row.ours.split("-"))
        assert row.verdict == V.count_directional(w, d, lo).label
    # the paper's own counts pass the rule (8-11-1, 12-8-0, ...)
    assert (v["paper by the rule"] == V.HOLDS).all()
    text = "\n".join(rep.paragraphs)
    assert V.RULE_COUNT_DIRECTIONAL.format(alpha=0.05) in text
    assert "readings" in rep.tables and "stop_mechanism" in rep.tables
    assert "cannot reach p < 0.05" in text
    ranks = rep.tables["demsar_ranks"].xs("auc")["average rank"]
    means = rep.tables["table7_wide"]["auc"]
    for model in ranks.index:   # two data sets: the rank is the mean of the two ranks
        want = np.mean([means.xs(n, level="data set").rank(ascending=False)[model]
                        for n in ("vote", "hepatitis")])
        assert ranks[model] == pytest.approx(want)
