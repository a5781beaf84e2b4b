"""ling2003-examples, huang2007-examples and Sokolova Table 4 against values checked by hand
from the papers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from measurelab.lab.experiments import examples, sokolova2006
from measurelab.lab.experiments.examples import (
    HUANG_TABLE1,
    HUANG_TABLE2,
    auc_rank_formula,
    balanced_lists,
    measures,
    nearest_lists,
    pair_kinds,
    readings_table,
)


def _auc_by_pairs(s: str) -> Fraction:
    """Brute force: positive–negative pairs with the positive to the right."""
    pos = [i for i, c in enumerate(s) if c == "+"]
    neg = [i for i, c in enumerate(s) if c == "-"]
    return Fraction(sum(p > q for p in pos for q in neg), len(pos) * len(neg))


@pytest.mark.parametrize("s,auc,acc", [
    # Huang & Ling 2007 Table 1 (printed: AUC 21/25 and 16/25, accuracy 60 % and 80 %)
    (HUANG_TABLE1["a"], Fraction(21, 25), Fraction(3, 5)),
    (HUANG_TABLE1["b"], Fraction(16, 25), Fraction(4, 5)),
    # Table 2 by hand: positives of a at 3, 4, 6, 7, 10 → 2+2+3+3+5 = 15 negatives to their
    # left; of b at 3, 4, 5, 8, 10 → 2+2+2+4+5 = 15: AUC 15/25 = 3/5 (printed 2/5)
    (HUANG_TABLE2["a"], Fraction(3, 5), Fraction(3, 5)),
    (HUANG_TABLE2["b"], Fraction(3, 5), Fraction(2, 5)),
])
def test_huang_lists_by_hand(s, auc, acc):
    assert measures(s) == (auc, acc)
    assert auc_rank_formula(s) == auc == _auc_by_pairs(s)


def test_rank_formula_equals_brute_force_on_every_list():
    for s in balanced_lists(8):
        assert auc_rank_formula(s) == _auc_by_pairs(s) == measures(s)[0]


def test_pair_kinds_match_ling_2003_counts():
    # Ling 2003 balanced tables (its Tables 3–4): n = 6: S 1, Q 4, P 62; n = 8: S 34, Q 52, P 762
    for n, (S, Q, P) in {6: (1, 4, 62), 8: (34, 52, 762)}.items():
        c = pair_kinds(n)["counts"]
        assert (c["auc_up_acc_down"], c["same_auc_diff_acc"], c["same_acc_diff_auc"]) == (
            S, Q, P)
    assert pair_kinds(4)["counts"]["auc_up_acc_down"] == 0  # S = 0 at n = 4


def test_ling2003_examples_report():
    rep = examples.run_ling2003(progress=False)
    assert rep.tables["claims"]["holds"].all()
    cnt = rep.tables["counts"]
    assert cnt["ours"].tolist() == [766, 9416, 618] and cnt["match"].all()
    small = rep.tables["smallest"]
    assert small.loc["table3", "n"] == 6 and small.loc["table4", "n"] == 6
    assert small.loc["table2", "n"] == 4
    a, b = small.loc["table3", "a"], small.loc["table3", "b"]
    (auc_a, acc_a), (auc_b, acc_b) = measures(a), measures(b)
    assert auc_a > auc_b and acc_a < acc_b
    assert "did not survive text extraction" in rep.paragraphs[0]


def test_huang2007_table2_readings():
    rd = readings_table()
    # reversing the list (left = most likely positive) gives 2/5 for both Table 2 lists,
    # but then Table 1's AUCs become 1 − 21/25 = 4/25 and 1 − 16/25 = 9/25
    assert rd.loc["reversed order", "table2 AUC(a)"] == "2/5"
    assert rd.loc["reversed order", "table1 AUC(a)"] == "4/25"
    assert rd.loc["as printed", "printed numbers reproduced"] == "6 of 8"
    assert not rd.loc["as printed", "gives 2/5 for Table 2"]
    # no reading gives all four printed AUCs
    ok = [r for r in rd.index if rd.loc[r, "table1 AUC(a)"] == "21/25"
          and rd.loc[r, "table2 AUC(a)"] == "2/5"]
    assert ok == []


def test_nearest_lists_by_brute_force():
    d, found = nearest_lists(HUANG_TABLE2["a"], Fraction(2, 5), Fraction(3, 5))
    assert d == 4 and all(measures(t) == (Fraction(2, 5), Fraction(3, 5)) for t in found)
    # no list closer: every balanced list at distance 2 fails
    for t in balanced_lists(10):
        if sum(x != y for x, y in zip(t, HUANG_TABLE2["a"], strict=True)) <= 2:
            assert measures(t) != (Fraction(2, 5), Fraction(3, 5))


def test_huang2007_examples_report():
    rep = examples.run_huang2007(progress=False)
    v = rep.tables["values"]
    assert v.loc[("table2", "a", "auc"), "ours"] == "3/5"
    assert v.loc[("table2", "a", "auc"), "paper"] == "2/5"
    assert v["match"].sum() == 6
    assert "printed 2/5" in rep.verdict and "1 − AUC" in rep.paragraphs[-1]


def test_sokolova_table4_precision_check():
    t = sokolova2006.table4()
    # by hand: SVM precision 1242/1632 = 0.7610 < NB 1108/1380 = 0.8029;
    # npv SVM 740/929 = 0.7966 > NB 858/1181 = 0.7265
    row = t.loc[("SVM", "predictive power")]
    assert row["ours"] == "superior on negative examples" and not row["agrees"]
    assert t.loc[("SVM", "class effectiveness"), "agrees"]  # sens 0.8679 > 0.7743
    assert t.loc[("NB", "overall effectiveness"), "ours"] == "inferior"  # acc 0.7677 < 0.7739


def test_sokolova_notes_are_computed():
    rep = sokolova2006.run()
    t5 = rep.tables["table5"]
    # NB γ = 1108/1431 + 858/1130 − 1 = 0.53358 rounds to the printed 0.534: no note
    assert t5.loc[("NB", "youden"), "note"] == "" and t5.loc[("NB", "youden"), "match"]
    # SVM γ 0.52279 rounds to 0.523; the paper's 0.522 = 0.868 + 0.654 − 1 from Table 3
    assert "Table 3's rounded" in t5.loc[("SVM", "youden"), "note"]
    t3 = rep.tables["table3"]
    assert t3.loc[("SVM", "spec"), "note"].startswith("paper truncates")  # 65.49 → 65.4
    assert t3.loc[("NB", "f1"), "note"].startswith("not explained")
    assert rep.verdict.startswith("23 of 30")
    assert "Every verdict" not in " ".join(rep.paragraphs)


def test_sokolova_value_note():
    assert sokolova2006.value_note(0.2016, 0.20, 2) == ""
    assert sokolova2006.value_note(65.4867, 65.4, 1).startswith("paper truncates")
    assert sokolova2006.value_note(81.097, 81.2, 1).startswith("not explained")


def test_datasets_tables_against_hand_counts():
    from measurelab.lab.experiments import datasets_tables as dt

    h6, offset = dt.huang_table6()
    assert offset == 1  # e.g. sonar: 60 attributes + the class = the printed 61
    assert h6.loc["sonar", "match"] and h6.loc["sonar", "our attributes"] == 60
    # Pima: the paper's 392 = the rows with no zero in the five zero-coded columns
    assert not h6.loc["pima", "match"]
    assert "392 = our rows with no zero" in h6.loc["pima", "differences"]
    assert "instances differ: 700 printed, 1728" in h6.loc["cars", "differences"]
    h3 = dt.hossin_table3()
    assert h3["match"].tolist().count(False) == 1 and not h3.loc["Card-Ger", "match"]
    assert "attributes 24 printed vs 20" in h3.loc["Card-Ger", "differences"]
    d = dt.describe("pima")
    assert (d["instances"], d["complete_cases"]) == (768, 392)
    rep = dt.run()
    assert rep.verdict == "Huang Table 6: 12/20 rows agree; Hossin Table 3: 8/9"
