"""Naive Bayes and trees for Ling et al. (2003): learners checked by independent routes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from measurelab.io import datasets
from measurelab.lab.experiments import ling2003_nb_trees as L
from measurelab.lab.learn.models import DiscreteNaiveBayes, LaplaceTree, c45_like_tree
from measurelab.lab.preprocess import Preprocessor, encode_labels


def test_naive_bayes_equals_hand_computation_on_nominal_data():
    X = pd.DataFrame({"a": ["x", "x", "y", "y", "y"], "b": ["p", "q", "q", "q", "p"]})
    y = np.array([0, 0, 1, 1, 0])
    nb = DiscreteNaiveBayes().fit(X, y)
    # by hand, Laplace α = 1; each attribute also has an "unseen" slot (3 values)
    prior = np.array([(3 + 1) / (5 + 2), (2 + 1) / (5 + 2)])
    pa = {0: {"x": 3 / 6, "y": 2 / 6}, 1: {"x": 1 / 5, "y": 3 / 5}}
    pb = {0: {"p": 3 / 6, "q": 2 / 6}, 1: {"p": 1 / 5, "q": 3 / 5}}
    row = {"a": "y", "b": "q"}
    joint = np.array([prior[c] * pa[c][row["a"]] * pb[c][row["b"]] for c in (0, 1)])
    got = nb.predict_proba(pd.DataFrame([row]))[0]
    np.testing.assert_allclose(got, joint / joint.sum())


def test_laplace_tree_leaf_probabilities_by_counting():
    rng = np.random.default_rng(0)
    X = rng.random((80, 3))
    y = (X[:, 0] + 0.2 * rng.random(80) > 0.6).astype(int)
    t = LaplaceTree().fit(X, y)
    leaves = t.tree_.apply(X)
    for leaf in np.unique(leaves):
        n1 = int(((leaves == leaf) & (y == 1)).sum())
        n = int((leaves == leaf).sum())
        got = t.predict_proba(X[leaves == leaf][:1])[0, 1]
        assert got == pytest.approx((n1 + 1) / (n + 2))
    # unpruned: pure leaves, so it fits the training data exactly (no duplicate rows)
    assert (t.predict(X) == y).all()


def test_c45_like_tree_is_pruned():
    X, y_raw = datasets.load("german")
    y, _ = encode_labels(y_raw)
    Z = Preprocessor().fit_transform(X)
    full = LaplaceTree().fit(Z, y).tree_.tree_.node_count
    pruned = c45_like_tree().fit(Z, y).tree_.node_count
    assert pruned < full


def test_small_run_and_resume(tmp_path):
    rep = L.run(tmp_path, datasets=["hepatitis", "vote"], k=3, progress=False)
    m = rep.tables["means"]
    assert set(m.index.get_level_values("model")) == set(L.MODELS)
    assert ((m["auc"] > 0.5) & (m["auc"] <= 1)).all()
    assert len(rep.tables["wdl"]) == 12
    files = sorted((tmp_path / "folds").rglob("*.json"))
    assert len(files) == 6
    again = L.run(tmp_path, datasets=["hepatitis", "vote"], k=3, progress=False)
    assert again.tables["means"].equals(m)


def test_verdicts_follow_the_rules(tmp_path):
    from measurelab.lab.experiments import _verdict as V

    rep = L.run(tmp_path, datasets=["hepatitis", "vote", "sonar"], k=3, progress=False)
    v = rep.tables["verdicts"]
    wdl = rep.tables["wdl"]
    rules = {"acc": V.count_similarity, "auc": V.count_directional}
    for claim, row in v.iterrows():
        meas = "acc" if "accuracy" in claim else "auc"
        pair = {"NB and C4.5": "NB vs C4.5", "NB and C4.4": "NB vs C4.4",
                "NB better than C4.5": "NB vs C4.5", "NB better than C4.4": "NB vs C4.4",
                "C4.4 better than C4.5": "C4.4 vs C4.5"}[claim.rsplit(" in ", 1)[0]
                                                         .replace(" similar", "")]
        cell = wdl.loc[(meas, pair), "win-draw-loss"]
        assert row["ours (win-draw-loss)"] == cell
        assert row["verdict"] == rules[meas](*(int(x) for x in cell.split("-"))).label
    text = "\n".join(rep.paragraphs)
    assert "Candidate explanations" in text and "distinct test scores" in text
    ranks = rep.tables["demsar_ranks"]
    assert set(ranks.index.get_level_values("model")) == set(L.MODELS)
    assert ranks.groupby(level="measure")["average rank"].sum().tolist() == pytest.approx(
        [10.0, 10.0])  # 1 + 2 + 3 + 4 on every data set
    assert "Demšar" in text and "demsar_cd" in rep.figures
