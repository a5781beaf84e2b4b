"""Huang & Ling (2007) Tables 3–5, checked by independent routes: pair counting by the
definition of the two-level measure, hand-computed Table 4 values, seeded determinism."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from measurelab.lab.experiments import huang2007 as H
from measurelab.lab.experiments import huang2007_table5 as T5
from measurelab.metaeval import pair_counts, pair_counts_brute

#: Table 3 C(AUC:acc, acc), typed in from the paper's text
PUBLISHED_C_PHI_ACC = {6: 0.992, 8: 0.978, 10: 0.964, 12: 0.953, 14: 0.943, 16: 0.936}


def _lists(n: int) -> list[tuple[Fraction, Fraction]]:
    """(AUC, acc) of every balanced ranked list, cutoff in the middle, by the definition."""
    h = n // 2
    out = []
    for pos in itertools.combinations(range(n), h):
        ps = set(pos)
        in_order = sum(1 for i in range(n) if i not in ps for j in pos if j > i)
        tp = sum(1 for j in pos if j >= h)
        out.append((Fraction(in_order, h * h), Fraction(2 * tp, n)))
    return out


def _counts(a: list, b: list) -> tuple[int, int, int, int]:
    R = S = P = Q = 0
    for i, j in itertools.combinations(range(len(a)), 2):
        da, db = (a[i] > a[j]) - (a[i] < a[j]), (b[i] > b[j]) - (b[i] < b[j])
        if da and db:
            R += da == db
            S += da != db
        elif da:
            P += 1
        elif db:
            Q += 1
    return R, S, P, Q


@pytest.mark.parametrize("n", [6, 8])
def test_table3_by_definition_of_the_two_level_measure(n):
    vals = _lists(n)
    auc = [v[0] for v in vals]
    acc = [v[1] for v in vals]
    phi = vals  # tuples compare lexicographically: AUC first, then acc
    r = H.table3_counts(n)
    _, S, P, Q = _counts(phi, auc)
    assert S == 0 and Q == 0 and P > 0              # C(φ, AUC) = 1, D(φ/AUC) = ∞
    assert r["C(AUC:acc,AUC)"] == 1.0 and math.isinf(r["D(AUC:acc/AUC)"])
    R2, S2, P2, Q2 = _counts(phi, acc)
    assert Q2 == 0 and P2 > 0 and math.isinf(r["D(AUC:acc/acc)"])
    assert r["C(AUC:acc,acc)"] == pytest.approx(R2 / (R2 + S2), abs=1e-15)
    R3, S3, _, _ = _counts(auc, acc)
    assert R2 / (R2 + S2) >= R3 / (R3 + S3)
    assert r["routes_agree"]


def test_table3_published_values_and_theorem_2():
    cmp, counts = H.table3()
    assert bool(cmp["match"].all())
    for n, c in PUBLISHED_C_PHI_ACC.items():
        assert round(counts.loc[n, "C(AUC:acc,acc)"], 3) == c
        assert counts.loc[n, "C(AUC:acc,AUC)"] == 1.0
        assert math.isinf(counts.loc[n, "D(AUC:acc/AUC)"])
        assert math.isinf(counts.loc[n, "D(AUC:acc/acc)"])
        assert counts.loc[n, "C(AUC:acc,acc)"] >= counts.loc[n, "C(AUC,acc)"]
        assert bool(counts.loc[n, "routes_agree"])


def test_two_level_counts_equal_brute_force_on_random_measures():
    rng = np.random.default_rng(7)
    for _ in range(20):
        k = int(rng.integers(5, 40))
        f = rng.integers(0, int(rng.integers(2, 6)), k).tolist()
        g = rng.integers(0, int(rng.integers(2, 6)), k).tolist()
        phi = list(zip(f, g, strict=True))
        vs_f, vs_g = H.two_level_counts(pair_counts(f, g))
        assert tuple(pair_counts_brute(phi, f))[:4] == tuple(vs_f)[:4]
        assert tuple(pair_counts_brute(phi, g))[:4] == tuple(vs_g)[:4]


def test_table4_values_by_hand():
    t = H.table4()
    p = np.arange(1, 11) / 10
    q = np.array(H.TABLE4_PERTURBED)
    # hand count: positives (p > 0.5) score 0.2, 0.65, 0.7, 1.0, 0.4 beat 2, 4, 4, 5, 2
    # of the negatives' scores 0.0, 0.15, 0.6, 0.5, 0.95
    assert t.loc["auc", "ours"] == pytest.approx(17 / 25)
    assert t.loc["acc", "ours"] == pytest.approx(0.6)  # wrong: 0.6, 0.95, 0.2, 0.4
    assert t.loc["rms", "ours"] == pytest.approx(math.sqrt(0.8575 / 10))
    assert t.loc["rms", "ours"] == pytest.approx(np.sqrt(np.mean((q - p) ** 2)))
    assert t.loc["auc:acc", "ours"] == pytest.approx(0.68 + 0.006)
    assert t["match"].tolist() == [True, True, True, True, False]
    assert math.isnan(t.loc["(unlabelled)", "ours"])


def test_list_measures_auc_by_pairs():
    rng = np.random.default_rng(3)
    p = np.arange(1, 9) / 8
    y = p > 0.5
    Q = np.round(rng.random((6, 8)) * 4) / 4          # many ties
    m = H.list_measures(p, y, Q)
    for i, q in enumerate(Q):
        pos, neg = q[y], q[~y]
        want = sum((a > b) + 0.5 * (a == b) for a in pos for b in neg) / (len(pos) * len(neg))
        assert m["auc"][i] == pytest.approx(want)
        assert m["acc"][i] == pytest.approx(np.mean((q > 0.5) == y))
        assert m["1-rms"][i] == pytest.approx(1 - np.sqrt(np.mean((q - p) ** 2)))


def test_table5_tiny_is_deterministic_and_shaped():
    a = T5.table5_runs(10, 0.5, runs=2, size=30, seed=11)
    b = T5.table5_runs(10, 0.5, runs=2, size=30, seed=11)
    c = T5.table5_runs(10, 0.5, runs=2, size=30, seed=12)
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)
    assert a.shape == (2, 4) and list(a.columns) == ["acc", "auc", "auc:acc", "auc:acc_lex"]
    assert ((a.abs() <= 1) & a.notna()).all().all()
    s, t, r = T5.table5([10], runs=3, size=30, eps_values=(0.3, 0.9))
    assert list(s.index) == [(10, 0.3), (10, 0.9)]
    assert len(t) == 2 * 3 and len(r) == 2 * 3
    assert s.loc[(10, 0.3), "seed"] == T5.table5_seed(10, 0.3)
    assert s.loc[(10, 0.9), "acc paper"] == T5.PAPER_TABLE5[0.9]["acc"][0]
    s2, _, _ = T5.table5([10], runs=3, size=30, eps_values=(0.3, 0.9))
    pd.testing.assert_frame_equal(s, s2)


def test_reports_write_files(tmp_path):
    reps = [H.run_table3(tmp_path, quick=True, progress=False),
            H.run_table4(tmp_path, progress=False),
            T5.run_table5(tmp_path, quick=True, progress=False)]
    names = {p.name for p in tmp_path.iterdir()}
    for rep in reps:
        assert f"{rep.name}.md" in names
        for t in rep.tables:
            assert f"{rep.name}-{t}.csv" in names
    assert "huang2007-table5-correlations.png" in names
    meta = reps[2].meta
    assert meta["seeds"]["n=10,eps=0.3"] == T5.table5_seed(10, 0.3)
    assert meta["runs"] == 5 and meta["tuples_per_run"] == 200


def test_table5_verdicts_follow_the_rule_and_levels_are_counted():
    from measurelab.lab.experiments import _verdict as V

    s, t, _ = T5.table5([10], runs=3, size=30, eps_values=(0.3, 0.9))
    v = T5._table5_verdicts(t, [10])
    assert set(v.index.get_level_values("claim")) == {"AUC > acc", "AUC:acc > AUC"}
    for (claim, n, e), row in v.iterrows():
        a, b = {"AUC > acc": ("acc", "auc"), "AUC:acc > AUC": ("auc", "auc:acc")}[claim]
        tt = t.loc[(n, e, a, b)]
        assert row["mean diff"] == -tt["mean_diff"]
        assert row["verdict"] == V.directional(-tt["mean_diff"], tt["p"]).label
    g = T5._level_gaps(s).loc[10]
    diffs = [s.loc[(10, e), f"{m} ours"] - T5.PAPER_TABLE5[e][m][0]
             for e in (0.3, 0.9) for m in T5.MEASURES5]
    assert g["ours higher"] == sum(d > 0 for d in diffs)
    assert g["mean |diff|"] == pytest.approx(np.mean(np.abs(diffs)))
    assert g["within ±"] == sum(abs(s.loc[(10, e), f"{m} ours"] - T5.PAPER_TABLE5[e][m][0])
                                <= T5.PAPER_TABLE5[e][m][1]
                                for e in (0.3, 0.9) for m in T5.MEASURES5)
