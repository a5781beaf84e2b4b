"""The generating function for AUC vs accuracy, the Ling et al. (2003) balanced tables and
the lemma on the smallest/largest AUC at a fixed accuracy, against plain enumeration of
ranked lists (itertools, independent of the package's domain code)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from measurelab import MeasurelabError
from measurelab.metaeval import (
    PairCounts,
    RankedLists,
    auc_acc_pair_counts,
    auc_acc_rows,
    auc_bounds,
    compare_measures,
    compare_on_ranked_lists,
    pair_counts,
)
from measurelab.metaeval.exact import gaussian_binomial


def _enumerate(n: int, pos: int, cutoff: int) -> tuple[np.ndarray, np.ndarray]:
    """(tp, U) of every ranked list: labels from itertools.combinations; U counts
    negative-before-positive pairs directly; tp counts positives among the right-most k."""
    combos = np.array(list(itertools.combinations(range(n), pos)), dtype=np.int64)
    L = np.zeros((combos.shape[0], n), dtype=np.int64)
    np.put_along_axis(L, combos, 1, axis=1)
    neg_before = np.cumsum(1 - L, axis=1) - (1 - L)
    U = (L * neg_before).sum(axis=1)
    tp = L[:, n - cutoff:].sum(axis=1) if cutoff else np.zeros(L.shape[0], dtype=np.int64)
    return tp, U


def _counts_from_cells(tp: np.ndarray, U: np.ndarray) -> PairCounts:
    """R, S, P, Q, T over lists by a double loop over distinct (tp, U) cells
    (f = AUC, i.e. U; g = acc, increasing in tp)."""
    cells = sorted(Counter(zip(tp.tolist(), U.tolist(), strict=True)).items())
    R = S = P = Q = T = 0
    for i, ((t1, u1), c1) in enumerate(cells):
        T += c1 * (c1 - 1) // 2
        for (t2, u2), c2 in cells[i + 1:]:
            w = c1 * c2
            fa, gb = (u2 > u1) - (u2 < u1), (t2 > t1) - (t2 < t1)
            if fa and gb:
                if fa == gb:
                    R += w
                else:
                    S += w
            elif fa:
                P += w
            elif gb:
                Q += w
            else:
                T += w
    return PairCounts(R, S, P, Q, T, int(tp.size))


def _cases() -> list[tuple[int, int, int]]:
    out = set()
    for n in range(2, 19):
        for pos in {1, n // 2, n - 1, max(1, n // 3)}:
            for k in {pos, 0, n, n // 3, min(n, pos + 2)}:
                out.add((n, pos, k))
    return sorted(out)


CASES = _cases()


def test_generating_function_equals_enumeration_for_every_n_up_to_18():
    for n, pos, k in CASES:
        tp, U = _enumerate(n, pos, k)
        want = _counts_from_cells(tp, U)
        assert auc_acc_pair_counts(n, pos, k) == want, (n, pos, k)
        # the rows themselves: the joint distribution of (tp, U)
        cells = Counter(zip(tp.tolist(), U.tolist(), strict=True))
        got = {(t, lo + u): int(c) for t, lo, row in auc_acc_rows(n, pos, k)
               for u, c in enumerate(row) if c}
        assert got == dict(cells), (n, pos, k)


@pytest.mark.parametrize("n,pos,k", [(12, 6, 6), (13, 4, 9), (14, 9, 3), (16, 8, 8),
                                     (11, 5, 0), (10, 3, 10)])
def test_package_enumeration_matches_both_routes(n, pos, k):
    tp, U = _enumerate(n, pos, k)
    want = _counts_from_cells(tp, U)
    r = compare_on_ranked_lists("auc", "acc", n, pos, k)
    assert r.method == "enumeration" and r.counts == want
    assert pair_counts(U, tp) == want
    r = compare_on_ranked_lists("auc", "acc", n, pos, k, exact=True)
    assert r.method == "generating function" and r.counts == want
    r = compare_measures("acc", "auc", RankedLists(n, pos, k), exact=True)
    assert r.counts == want.swapped()


# Ling et al. (2003) Tables 3–4, balanced lists, cutoff in the middle:
# n: (R, S, C), (P, Q, D)
LING2003 = {
    4: ((9, 0, 1.0), (5, 0, math.inf)),
    6: ((113, 1, 0.991), (62, 4, 15.5)),
    8: ((1459, 34, 0.977), (762, 52, 14.7)),
    10: ((19742, 766, 0.963), (9416, 618, 15.2)),
    12: ((273600, 13997, 0.951), (120374, 7369, 16.3)),
    14: ((3864673, 237303, 0.942), (1578566, 89828, 17.6)),
    16: ((55370122, 3868959, 0.935), (21161143, 1121120, 18.9)),
}


@pytest.mark.parametrize("n", sorted(LING2003))
def test_ling2003_balanced_tables(n):
    (R, S, C), (P, Q, D) = LING2003[n]
    gf = compare_on_ranked_lists("auc", "acc", n, n // 2, exact=True)
    assert (gf.R, gf.S, gf.P, gf.Q) == (R, S, P, Q)
    assert round(gf.consistency, 3) == C
    assert gf.discriminancy == D if math.isinf(D) else round(gf.discriminancy, 1) == D
    en = compare_on_ranked_lists("auc", "acc", n, n // 2)      # all C(16, 8) = 12870 lists
    assert en.method == "enumeration" and en.counts == gf.counts
    if n <= 12:  # a third route: cells of itertools-enumerated lists
        assert _counts_from_cells(*_enumerate(n, n // 2, n // 2)) == gf.counts
    assert gf.strictly_consistent == (S == 0)
    assert gf.strictly_discriminating == (Q == 0 < P)


def test_exact_counts_are_python_ints_beyond_int64():
    pc = auc_acc_pair_counts(120, 60)
    assert all(type(x) is int for x in (pc.R, pc.S, pc.P, pc.Q, pc.T, pc.objects))
    assert pc.objects == math.comb(120, 60) > 2**63
    assert pc.pairs == pc.objects * (pc.objects - 1) // 2


@pytest.mark.parametrize("n,pos,k", [(s, j, j) for s in range(1, 12) for j in range(s + 1)])
def test_gaussian_binomial(n, pos, k):
    """[s choose j]_q counts j positives among s places by in-order pairs."""
    if n < 2 or not 1 <= pos <= n - 1:
        c = gaussian_binomial(n, pos)
        assert sum(c) == math.comb(n, pos)
        return
    counts = Counter(_enumerate(n, pos, 0)[1].tolist())
    assert gaussian_binomial(n, pos) == [counts[u] for u in range(pos * (n - pos) + 1)]


@pytest.mark.parametrize("n,pos,k", [(n, pos, k) for n in (6, 9, 12) for pos in
                                     (1, n // 2, n - 2) for k in (0, pos, n - 1, n)])
def test_auc_bounds_lemma_against_enumeration(n, pos, k):
    tp, U = _enumerate(n, pos, k)
    den = pos * (n - pos)
    for t in np.unique(tp):
        lo, hi = auc_bounds(n, pos, k, int(t))
        sel = U[tp == t]
        assert (lo, hi) == (Fraction(int(sel.min()), den), Fraction(int(sel.max()), den))
    impossible = [t for t in range(-1, n + 2) if t not in set(tp.tolist())]
    for t in impossible:
        with pytest.raises(MeasurelabError):
            auc_bounds(n, pos, k, t)


def test_auc_bounds_balanced_closed_form():
    """Balanced, cutoff in the middle: AUC_min = acc², AUC_max = 1 − (1 − acc)²."""
    for n in (4, 10, 30):
        for t in range(n // 2 + 1):
            acc = Fraction(2 * t, n)
            assert auc_bounds(n, n // 2, None, t) == (acc**2, 1 - (1 - acc) ** 2)


@pytest.mark.parametrize("bad", [(1, 1, None), (6, 0, None), (6, 6, None), (6, 3, 7),
                                 (6, 3, -1), (6.0, 3, None), (6, True, None)])
def test_invalid_domains(bad):
    with pytest.raises(MeasurelabError):
        auc_acc_pair_counts(*bad)
    with pytest.raises(MeasurelabError):
        compare_on_ranked_lists("auc", "acc", *bad)


@pytest.mark.parametrize("n,pos,k", [(6, 3, 3), (9, 4, 2), (12, 5, 7), (14, 7, 7)])
def test_exact_two_level_counts_equal_enumeration(n, pos, k):
    """auc:acc against auc or acc from the generating function (Theorem 2 identities)
    equals enumerating the lists and comparing the two-level values."""
    from measurelab.metaeval import exact_applies, exact_counts

    names = ["auc", "acc", "auc:acc"]
    for f in names:
        for g in names:
            if f == g:
                assert not exact_applies(f, g)
                continue
            assert exact_applies(f, g)
            want = compare_on_ranked_lists(f, g, n, pos, k).counts
            assert exact_counts(f, g, n, pos, k) == want, (f, g)
            r = compare_on_ranked_lists(f, g, n, pos, k, exact=True)
            assert r.method == "generating function" and r.counts == want
    assert not exact_applies("acc:auc", "auc") and not exact_applies("f1", "acc")
    with pytest.raises(MeasurelabError, match="generating function"):
        exact_counts("f1", "acc", n, pos, k)
