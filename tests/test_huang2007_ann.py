"""Huang & Ling (2007) networks: a tiny run, its bookkeeping, and resume."""

from __future__ import annotations

import numpy as np
import pytest

from measurelab.experiments import huang2007_ann as H
from measurelab.learn import mlp


def test_paper_constants_are_consistent():
    # AUC:acc column is AUC + acc/100 rounded (display), as the SPEC states for Table 7
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
    kw = dict(progress=False, datasets=["vote"], look_ahead=10, max_epochs=60)
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
    from measurelab.learn.cv import cv_splits
    from measurelab.preprocess import Preprocessor

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


def test_full_adds_stopping_variants(tmp_path, monkeypatch):
    monkeypatch.setattr(H, "QUICK_DATASETS", ("hepatitis",))
    rep = H.run(tmp_path, full=True, progress=False, datasets=["hepatitis"], look_ahead=10,
                max_epochs=40)
    sens = rep.tables["sensitivity"]
    assert set(sens.index.get_level_values("variant")) == {v[0] for v in H.VARIANTS.values()}
    # the main variant repeats the main run's settings, so its means equal the main table
    main = sens.loc[(H.VARIANTS["lex-train"][0], "acc"), "mean ANN_acc"]
    assert main == pytest.approx(rep.tables["averages"].loc[("ANN_acc", "acc"), "ours"])
