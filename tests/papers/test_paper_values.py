"""Published numbers recomputed from the papers' own inputs (hand-checked values).

Each value cites its table. Papers print rounded (Sokolova truncates some) numbers, so each
assertion uses the paper's printed precision.
"""

from __future__ import annotations

import numpy as np
import pytest

import measurelab as ml
from measurelab import BinaryCounts

# Sokolova, Japkowicz & Szpakowicz 2006, Table 2 (rows true pos/neg, columns predicted pos/neg)
SVM = BinaryCounts(tp=1242, fp=390, fn=189, tn=740)
NB = BinaryCounts(tp=1108, fp=272, fn=323, tn=858)


@pytest.mark.parametrize(
    "counts,expected",
    [
        # Table 3 (percent): accuracy, sensitivity, specificity, AUC (= bacc here)
        (SVM, {"acc": 77.4, "sens": 86.8, "bacc": 76.1}),
        (NB, {"acc": 76.8, "spec": 75.9, "bacc": 76.7}),
    ],
)
def test_sokolova_table3(counts, expected):
    r = ml.evaluate_counts(tp=counts.tp, fp=counts.fp, fn=counts.fn, tn=counts.tn)
    for name, pct in expected.items():
        assert round(100 * r[name], 1) == pct, name


# Table 3 values that do not follow from the pooled Table 2 matrix: (ours exact, paper)
SOKOLOVA_TABLE3_DIFFERENCES = {
    ("SVM", "spec"): (740 / 1130, 65.4),  # 65.49: the paper truncates
    ("NB", "sens"): (1108 / 1431, 77.5),  # 77.43: the paper's value is 0.07 higher
    ("SVM", "f1"): (2484 / 3063, 81.2),  # 81.10
    ("NB", "f1"): (2216 / 2811, 78.9),  # 78.83
}


@pytest.mark.parametrize("key", sorted(SOKOLOVA_TABLE3_DIFFERENCES))
def test_sokolova_table3_known_differences(key):
    """Recorded in the sokolova2006 reproduction: each is within 0.11 point of the paper,
    which most likely averaged over the ten folds instead of pooling the matrix."""
    counts = {"SVM": SVM, "NB": NB}[key[0]]
    ours, paper = SOKOLOVA_TABLE3_DIFFERENCES[key]
    r = ml.evaluate_counts(tp=counts.tp, fp=counts.fp, fn=counts.fn, tn=counts.tn)
    assert r[key[1]] == ours
    assert round(100 * ours, 1) != paper and abs(100 * ours - paper) < 0.11


@pytest.mark.parametrize(
    "counts,expected",
    [
        # Table 5: gamma, rho+, rho-, DP
        (SVM, {"youden": 0.522, "lr_pos": 2.51, "lr_neg": 0.20, "dp": 1.39}),
        (NB, {"youden": 0.534, "lr_pos": 3.22, "lr_neg": 0.30, "dp": 1.31}),
    ],
)
def test_sokolova_table5(counts, expected):
    r = ml.evaluate_counts(tp=counts.tp, fp=counts.fp, fn=counts.fn, tn=counts.tn)
    for name, v in expected.items():
        digits = len(str(v).split(".")[1])
        # the paper truncates gamma (0.5228 -> 0.522): allow one unit in the last digit
        assert r[name] == pytest.approx(v, abs=10**-digits), name


def test_sokolova_table6_verdicts_and_bands():
    """Table 6: SVM superior for negatives, NB superior for positives; DP 'limited' for both."""
    assert ml.measures.likelihood_verdict(SVM, NB) == "A superior for confirmation of negatives"
    assert ml.measures.likelihood_verdict(NB, SVM) == "A superior for confirmation of positives"
    for c in (SVM, NB):
        r = ml.evaluate_counts(tp=c.tp, fp=c.fp, fn=c.fn, tn=c.tn, measures=["dp"])
        assert ml.measures.dp_band(r["dp"]) == "limited"
        assert r.to_dict()["dp_band"] == "limited"


# Hossin et al. 2011, Table 2a-d: (tp, fp, tn, fn) -> (acc, OARP) printed to 6 decimals
HOSSIN_TABLE2 = [
    ("2a", "a", (49, 4, 46, 1), 0.950000, 0.949845),
    ("2a", "b", (48, 3, 47, 2), 0.950000, 0.949947),
    ("2b", "a", (69, 4, 26, 1), 0.950000, 0.947249),
    ("2b", "b", (68, 3, 27, 2), 0.950000, 0.947384),
    ("2c", "a", (94, 4, 1, 1), 0.950000, 0.900822),
    ("2c", "b", (93, 3, 2, 2), 0.950000, 0.913032),
    ("2d", "a", (89, 0, 5, 6), 0.940000, 0.922669),
    ("2d", "b", (95, 5, 0, 0), 0.950000, 0.850000),  # needs precision 0/0 = 0 (npv here)
]


@pytest.mark.parametrize("table,solution,counts,acc,oarp", HOSSIN_TABLE2)
def test_hossin_table2(table, solution, counts, acc, oarp):
    tp, fp, tn, fn = counts
    r = ml.evaluate_counts(tp=tp, fp=fp, fn=fn, tn=tn, measures=["acc", "oarp"])
    assert round(r["acc"], 6) == acc
    assert round(r["oarp"], 6) == oarp


def test_huang_ling_table4():
    """Huang & Ling 2007 Table 4: true list p_i = i/10 (positive iff > 0.5) and a perturbed
    list; the paper gives RMS 0.293, AUC 0.68, acc 0.6 and AUC:acc 0.686."""
    true_p = np.arange(1, 11) / 10
    pert = np.array([0.0, 0.15, 0.6, 0.5, 0.95, 0.2, 0.65, 0.7, 1.0, 0.4])
    y = true_p > 0.5
    r = ml.evaluate(y, pert, measures=["auc", "acc", "auc:acc"])
    assert r["auc"] == pytest.approx(0.68, abs=1e-12)  # 17 of 25 pairs
    assert r["acc"] == pytest.approx(0.6, abs=1e-12)
    assert round(r["auc:acc"].display, 3) == 0.686
    # the paper's RMS is between the perturbed and the true probabilities, not the labels
    assert round(float(np.sqrt(np.mean((pert - true_p) ** 2))), 3) == 0.293


def test_huang_ling_table7_display():
    """Table 7 prints AUC:acc as AUC + acc/100: 0.9462 + 0.9631/100 = 0.9558."""
    assert round(ml.measures.TwoLevelValue(0.9462, 0.9631).display, 4) == 0.9558
