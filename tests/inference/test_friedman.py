"""Demšar (2006): ranks, Friedman / Iman–Davenport, Nemenyi CD, pairwise wdl, CD diagram.

Oracles: the formulas of Demšar's paper written out here, scipy (friedmanchisquare, the
F distribution, binomtest, wilcoxon), Demšar's Tables 5a/5b of critical values, and his
worked example (Table 6 and the numbers in his Section 3.2.2).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from measurelab import MeasurelabError
from measurelab.inference import bonferroni_dunn_q, demsar, nemenyi_q

# Demšar (2006) Table 6: AUC of C4.5 and three variants on 14 UCI data sets, as printed
NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DATASETS = [
    "adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc", "ionosphere", "iris",
    "liver disorders", "lung cancer", "lymphography", "mushroom", "primary tumor", "rheum",
    "voting", "wine",
]
AUC = [
    [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970],
]


def table6(unrounded_voting: bool = False) -> pd.DataFrame:
    df = pd.DataFrame(AUC, index=DATASETS, columns=NAMES)
    if unrounded_voting:
        # the paper's ranks treat C4.5+cf as ahead of C4.5+m+cf on voting, where the
        # printed values (0.975, 0.975) tie: its unrounded value was larger
        df.loc["voting", "C4.5+cf"] = 0.97501
    return df


def brute_ranks(values: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """Rank 1 = best, ties share the mean of the positions they occupy (by definition)."""
    out = np.empty_like(values, dtype=float)
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            better = sum(1 for w in row if (w > v if higher_is_better else w < v))
            same = sum(1 for w in row if w == v)
            out[i, j] = better + (same + 1) / 2
    return out


def test_table6_as_printed_ranks_by_definition():
    r = demsar(table6())
    expected = brute_ranks(np.array(AUC)).mean(axis=0)
    assert r.avg_ranks[NAMES].to_numpy() == pytest.approx(expected, abs=1e-15)
    # hand-checked: the printed ties give 2.929 / 1.929 for the two cf variants
    assert [round(float(r.avg_ranks[m]), 3) for m in NAMES] == [3.143, 2.0, 2.929, 1.929]


def test_table6_paper_values():
    """Demšar §3.2.2: ranks 3.143, 2.000, 2.893, 1.964; χ²_F = 9.28, F_F = 3.69; CD = 1.25."""
    r = demsar(table6(unrounded_voting=True))
    assert [round(float(r.avg_ranks[m]), 3) for m in NAMES] == [3.143, 2.0, 2.893, 1.964]
    assert round(r.friedman.statistic, 2) == 9.28
    assert round(r.iman_davenport.statistic, 2) == 3.69
    assert round(r.q_alpha, 3) == 2.569
    assert round(r.cd, 2) == 1.25
    # F(3, 39) critical value 2.85 at α = 0.05: the omnibus test rejects
    assert round(float(stats.f.ppf(0.95, 3, 39)), 2) == 2.85
    assert r.iman_davenport.pvalue < 0.05
    # the paper's conclusion: at α = 0.05 no pair reaches CD; at α = 0.10 C4.5 is worse
    # than C4.5+m and than C4.5+m+cf
    sig = r.significant_pairs()
    found = {frozenset((a, b)) for a, b, s in zip(sig.a, sig.b, sig.significant, strict=True)
             if s}
    assert found == set()  # at α = 0.05 with CD 1.25: 3.143 − 1.964 = 1.179 < 1.25
    r10 = demsar(table6(unrounded_voting=True), alpha=0.10)
    assert round(r10.cd, 2) == 1.12  # 2.291 · √(20/84)
    found10 = {frozenset((a, b)) for a, b, s in zip(*(r10.significant_pairs()[c] for c in
                                                      ("a", "b", "significant")), strict=True)
               if s}
    assert found10 == {frozenset(("C4.5", "C4.5+m")), frozenset(("C4.5", "C4.5+m+cf"))}


def test_friedman_formula_and_scipy():
    rng = np.random.default_rng(3)
    values = rng.random((12, 5))  # continuous: no ties
    df = pd.DataFrame(values, columns=list("abcde"))
    r = demsar(df)
    n, k = values.shape
    R = brute_ranks(values).mean(axis=0)
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(R**2) - k * (k + 1) ** 2 / 4)
    assert r.friedman.statistic == pytest.approx(chi2, rel=1e-12)
    # scipy ranks ascending; higher-is-better reverses the ranks, which leaves χ² unchanged
    sp = stats.friedmanchisquare(*values.T)
    assert r.friedman.statistic == pytest.approx(sp.statistic, rel=1e-12)
    assert r.friedman.pvalue == pytest.approx(sp.pvalue, rel=1e-10)
    ff = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert r.iman_davenport.statistic == pytest.approx(ff, rel=1e-12)
    assert r.iman_davenport.pvalue == pytest.approx(stats.f.sf(ff, k - 1, (k - 1) * (n - 1)))
    assert r.cd == pytest.approx(nemenyi_q(k) * math.sqrt(k * (k + 1) / (6 * n)))


def test_tie_correction_matches_scipy_on_tied_data():
    df = table6()
    r = demsar(df, tie_correction=True)
    sp = stats.friedmanchisquare(*df.to_numpy().T)
    assert r.friedman.statistic == pytest.approx(sp.statistic, rel=1e-12)
    assert r.friedman.pvalue == pytest.approx(sp.pvalue, rel=1e-10)
    assert demsar(df).friedman.statistic < r.friedman.statistic  # correction only inflates


# Demšar Table 5a (Nemenyi) and 5b (Bonferroni–Dunn), k = 2..10, as printed (3 decimals)
T5A_05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
T5A_10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]
T5B_05 = [1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, None, 2.773]
T5B_10 = [1.645, 1.960, 2.128, 2.241, 2.326, 2.394, 2.450, 2.498, 2.539]
# (Table 5b prints 2.724 for k = 9 at α = 0.05; z at 1 − 0.05/16 is 2.734, which is what
# the definition gives and the code computes, so that single entry is not compared.)


@pytest.mark.parametrize("k", range(2, 11))
def test_critical_values_match_demsar_tables(k):
    assert nemenyi_q(k) == pytest.approx(T5A_05[k - 2], abs=1e-3)
    assert nemenyi_q(k, alpha=0.10) == pytest.approx(T5A_10[k - 2], abs=1e-3)
    if T5B_05[k - 2] is not None:
        assert bonferroni_dunn_q(k) == pytest.approx(T5B_05[k - 2], abs=1e-3)
    assert bonferroni_dunn_q(k, alpha=0.10) == pytest.approx(T5B_10[k - 2], abs=1e-3)


def test_bonferroni_dunn_cd():
    r = demsar(table6(unrounded_voting=True))
    assert r.cd_bonferroni_dunn() == pytest.approx(
        stats.norm.ppf(1 - 0.05 / 6) * math.sqrt(20 / 84), rel=1e-12
    )


def test_lower_is_better_and_order_invariance():
    rng = np.random.default_rng(7)
    values = np.round(rng.random((9, 4)), 1)  # rounded: ties
    df = pd.DataFrame(values, columns=list("wxyz"))
    up = demsar(-df)
    down = demsar(df, higher_is_better=False)
    pd.testing.assert_series_equal(up.avg_ranks, down.avg_ranks)
    assert down.avg_ranks[list("wxyz")].to_numpy() == pytest.approx(
        brute_ranks(values, higher_is_better=False).mean(axis=0)
    )
    shuffled = df.iloc[rng.permutation(9)][["z", "x", "w", "y"]]
    other = demsar(shuffled, higher_is_better=False)
    assert other.avg_ranks.sort_index().to_numpy() == pytest.approx(
        down.avg_ranks.sort_index().to_numpy(), abs=1e-15
    )
    assert other.friedman.statistic == pytest.approx(down.friedman.statistic, rel=1e-12)


def test_wdl_sign_and_wilcoxon():
    df = table6()
    r = demsar(df)
    row = r.wdl.set_index(["a", "b"]).loc[("C4.5", "C4.5+m+cf")]
    a, b = df["C4.5"].to_numpy(), df["C4.5+m+cf"].to_numpy()
    assert (row.wins, row.draws, row.losses) == (
        int(np.sum(a > b)), int(np.sum(a == b)), int(np.sum(a < b))
    )
    w, d, lo = int(row.wins), int(row.draws), int(row.losses)
    assert row.sign_p == pytest.approx(
        stats.binomtest(w + d // 2, w + lo + 2 * (d // 2), 0.5).pvalue
    )
    nz = (a - b)[a != b]
    has_ties = np.unique(np.abs(nz)).size < nz.size
    method = "approx" if has_ties else "exact"  # the 'auto' rule for n <= 25
    assert row.wilcoxon_p == pytest.approx(
        stats.wilcoxon(nz, correction=False, method=method).pvalue, rel=1e-9
    )
    assert len(r.wdl) == math.comb(4, 2)


def test_groups_are_maximal_runs_within_cd():
    rng = np.random.default_rng(11)
    values = rng.random((6, 7)) + np.linspace(0, 0.6, 7)
    r = demsar(pd.DataFrame(values, columns=[f"m{i}" for i in range(7)]))
    ranks = r.avg_ranks
    groups = r.groups()
    for g in groups:
        assert float(ranks[g[-1]] - ranks[g[0]]) < r.cd
    names = list(ranks.index)
    # every pair within CD lies inside some group (brute force over pairs)
    for a, b in itertools.combinations(names, 2):
        if abs(float(ranks[a] - ranks[b])) < r.cd:
            assert any(a in g and b in g for g in groups)
    # no group is contained in another
    for g, h in itertools.permutations(groups, 2):
        assert not set(g) <= set(h)


def test_plot_draws_a_diagram(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import matplotlib.pyplot as plt

    r = demsar(table6(unrounded_voting=True))
    ax = r.plot()
    texts = [t.get_text() for t in ax.texts]
    assert any(t.startswith("C4.5+m+cf (1.96") for t in texts)
    assert any(t.startswith("CD = 1.25") for t in texts)
    path = tmp_path / "cd.png"
    ax.figure.savefig(path)
    plt.close(ax.figure)
    img = mpimg.imread(path)
    assert img.std() > 0.01  # not blank


def test_summary_mentions_the_statistics():
    s = demsar(table6(unrounded_voting=True)).summary()
    assert "χ²_F = 9.279" in s and "F_F = 3.686" in s and "1.254" in s


def test_decimals_rounds_before_ranking():
    df = table6(unrounded_voting=True)
    assert demsar(df, decimals=3).avg_ranks["C4.5+cf"] == pytest.approx(2.929, abs=1e-3)


@pytest.mark.parametrize(
    ("table", "fragment"),
    [
        (pd.DataFrame({"a": [0.1, np.nan], "b": [0.2, 0.3]}), "expected a finite number"),
        (pd.DataFrame({"a": [0.1, 0.2]}), "at least 2 models"),
        (pd.DataFrame({"a": [0.1], "b": [0.2]}), "at least 2 data sets"),
        (pd.DataFrame([[0.1, 0.2], [0.3, 0.4]], columns=["a", "a"]), "appears twice"),
        ([0.1, 0.2, 0.3], "must be 2-d"),
        ([["x", "y"], ["z", "w"]], "2-d array of numbers"),
    ],
)
def test_bad_input(table, fragment):
    with pytest.raises(MeasurelabError, match=fragment):
        demsar(table)


def test_bad_alpha():
    with pytest.raises(MeasurelabError, match=r"alpha must be in \(0, 1\)"):
        demsar(table6(), alpha=1.5)


def test_demsar_by_a_measure_with_a_target_ranks_by_distance():
    """demsar(measure='spiegelhalter_z') ranks each data set's z by |z| (rank 1 nearest 0;
    scipy's rankdata of |z| as the oracle); the Bayesian comparison compares |z|; a
    directional measure gives what higher_is_better gives."""
    import measurelab as ml

    g = np.random.default_rng(3)
    z = pd.DataFrame({"cal": g.normal(0, 1, 12), "cautious": g.normal(-6, 1, 12),
                      "extreme": g.normal(4, 1, 12)})
    r = demsar(z, measure="spiegelhalter_z")
    want = np.mean([stats.rankdata(np.abs(row)) for row in z.to_numpy()], axis=0)
    assert r.avg_ranks.to_dict() == pytest.approx(dict(zip(z.columns, want, strict=True)),
                                                  abs=1e-12)
    assert r.avg_ranks.index[0] == "cal" and r.direction == "closer to 0"
    assert "(closer to 0 is better)" in r.summary()
    # "lower is better" would have crowned the cautious model
    assert demsar(z, higher_is_better=False).avg_ranks.index[0] == "cautious"
    b = r.bayes(rope=0.1, n_samples=4000, random_state=1).set_index(["a", "b"])
    direct = ml.bayes_compare(np.abs(z["cal"]), np.abs(z["cautious"]), rope=0.1,
                              method="signed-rank", higher_is_better=False, n_samples=4000,
                              random_state=np.random.default_rng(1))
    assert b.loc[("cal", "cautious"), "p_a_better"] == pytest.approx(direct.p_a_better)
    auc = pd.DataFrame({"a": [0.8, 0.7, 0.9], "b": [0.75, 0.72, 0.85]})
    assert demsar(auc, measure="auc").avg_ranks.equals(demsar(auc).avg_ranks)
    assert demsar(auc, measure="brier").avg_ranks.equals(
        demsar(auc, higher_is_better=False).avg_ranks)
    with pytest.raises(MeasurelabError, match="give measure= or higher_is_better=, not both"):
        demsar(auc, measure="auc", higher_is_better=True)
    with pytest.raises(MeasurelabError, match=r"^measure: unknown measure 'acu'"):
        demsar(auc, measure="acu")
