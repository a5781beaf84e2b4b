"""Verdict rules on constructed inputs: every label is reachable, so no verdict is a constant."""

import itertools
import math

import pytest
from scipy import stats

from measurelab import MeasurelabError
from measurelab.lab.experiments import _verdict as V


@pytest.mark.parametrize(
    ("diff", "p", "label"),
    [(0.02, 0.01, V.HOLDS), (0.02, 0.049, V.HOLDS), (0.02, 0.05, V.IN_PART),
     (0.02, 0.8, V.IN_PART), (0.0, 0.9, V.NOT_SUPPORTED), (-0.02, 0.01, V.NOT_SUPPORTED),
     (-0.02, 0.6, V.NOT_SUPPORTED)],
)
def test_directional(diff, p, label):
    v = V.directional(diff, p)
    assert v.label == label
    assert "p < 0.05" in v.rule and f"{p:.3g}" in v.evidence
    assert label in str(v)


def test_directional_from_a_real_t_test():
    a = [0.81, 0.83, 0.80, 0.85, 0.84]
    b = [0.78, 0.80, 0.79, 0.80, 0.81]
    r = stats.ttest_rel(a, b)
    d = sum(x - y for x, y in zip(a, b, strict=True)) / 5
    assert V.directional(d, r.pvalue).label == V.HOLDS
    assert V.directional(-d, r.pvalue).label == V.NOT_SUPPORTED


def test_similarity():
    assert V.similarity(0.001, 0.5).label == V.HOLDS
    assert V.similarity(0.05, 0.01).label == V.NOT_SUPPORTED
    assert V.similarity(0.0, math.nan).label == V.HOLDS


def test_sign_test_matches_scipy():
    for w, lo in itertools.product(range(0, 12), repeat=2):
        if w + lo == 0:
            assert V.sign_test_p(w, lo) == 1.0
            continue
        want = stats.binomtest(w, w + lo, 0.5).pvalue
        assert V.sign_test_p(w, lo) == pytest.approx(want, rel=1e-12)


def test_binomial_upper_matches_scipy():
    for k, n in ((0, 5), (1, 13), (3, 13), (8, 13), (13, 13)):
        assert V.binomial_upper_p(k, n, 0.05) == pytest.approx(
            stats.binom.sf(k - 1, n, 0.05), rel=1e-10, abs=1e-15)


@pytest.mark.parametrize(
    ("wdl", "label"),
    [((8, 11, 1), V.HOLDS), ((12, 8, 0), V.HOLDS), ((3, 16, 1), V.IN_PART),
     ((1, 19, 0), V.IN_PART), ((0, 20, 0), V.NOT_SUPPORTED), ((2, 15, 3), V.NOT_SUPPORTED),
     ((2, 16, 2), V.NOT_SUPPORTED)],
)
def test_count_directional(wdl, label):
    v = V.count_directional(*wdl)
    assert v.label == label
    assert "-".join(map(str, wdl)) in v.evidence


@pytest.mark.parametrize(
    ("wdl", "label"),
    [((0, 13, 0), V.HOLDS), ((1, 12, 0), V.HOLDS), ((3, 7, 3), V.IN_PART),
     ((8, 5, 0), V.NOT_SUPPORTED), ((0, 4, 9), V.NOT_SUPPORTED), ((9, 4, 0), V.NOT_SUPPORTED)],
)
def test_count_similarity(wdl, label):
    assert V.count_similarity(*wdl).label == label


def test_count_similarity_chance_boundary():
    # 13 sets at alpha 0.05: P(X >= 2) = 0.135 (holds), P(X >= 3) = 0.0245 (not by chance)
    assert V.count_similarity(1, 11, 1).label == V.HOLDS
    assert V.count_similarity(2, 10, 1).label == V.IN_PART
    assert V.count_similarity(3, 10, 0).label == V.IN_PART  # sign test 3-0: p = 0.25
    assert V.count_similarity(6, 7, 0).label == V.NOT_SUPPORTED  # 6-0: p = 0.031


def test_all_of_and_errors():
    h, p, n = V.directional(1, 0.01), V.directional(1, 0.5), V.directional(-1, 0.01)
    assert V.all_of([h, h]).label == V.HOLDS
    assert V.all_of([h, p]).label == V.IN_PART
    assert V.all_of([n, n]).label == V.NOT_SUPPORTED
    assert V.all_of([h, n]).label == V.IN_PART
    with pytest.raises(MeasurelabError, match="at least one"):
        V.all_of([])
    with pytest.raises(MeasurelabError, match="alpha"):
        V.directional(1, 0.1, alpha=1.5)
    with pytest.raises(MeasurelabError, match="counts"):
        V.count_directional(1, -1, 0)


def test_explain_states_each_check():
    good = V.Check("A", "compute a", "a = 1", True)
    bad = V.Check("B", "compute b", "b = 0", False)
    text = V.explain([good, bad])
    assert "A — supported" in text and "B — refuted" in text and "unexplained" not in text
    assert "unexplained" in V.explain([bad])
