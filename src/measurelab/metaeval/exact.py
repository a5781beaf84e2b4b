"""Exact C and D of AUC vs accuracy over *all* ranked lists, without enumerating lists.

Domain: every ranked list of n examples with n₊ positives (n₀ = n − n₊ negatives), the
right-most k predicted positive. Split a list at the cutoff into the left section (m = n − k
places, predicted negative) and the right section (k places, predicted positive). With tp
positives on the right (so n₊ − tp on the left):

* accuracy = (tp + tn)/n = (2·tp + m − n₊)/n — a strictly increasing function of tp;
* the AUC numerator U (negative–positive pairs in the right order, Mann–Whitney) is the sum
  of three parts: the cross pairs, every left negative before every right positive,
  (m − n₊ + tp)·tp; the pairs inside the left section; the pairs inside the right section.

Counting arrangements of j positives among s places by their number of in-order
negative–positive pairs gives the Gaussian binomial coefficient [s choose j]_q
(the coefficient of q^u counts arrangements with u such pairs). The two sections are
independent, so the number of lists with tp and U is the coefficient of q^U in

    G_tp(q) = q^{(m − n₊ + tp)·tp} · [m choose n₊ − tp]_q · [k choose tp]_q.

Consecutive rows differ by four binomial factors,

    H_{tp+1} = H_tp · (1 − q^{n₊−tp})(1 − q^{k−tp}) / ((1 − q^{m−n₊+tp+1})(1 − q^{tp+1})),

each an O(degree) operation on the coefficient vector (power series truncated above the
degree, which is exact because every H is a polynomial). Lists with equal (tp, U) tie on
both measures; R and S are sums over pairs of distinct cells, accumulated row by row with
prefix sums over U. All counts are Python integers (exact, however large).

The row extremes give the lemma of Ling et al. (2003) on the smallest and largest AUC at a
fixed accuracy: U_min(tp) = (m − n₊ + tp)·tp and U_max(tp) = U_min + deg H_tp, see
:func:`auc_bounds`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from measurelab._util.validation import check_flag, check_int
from measurelab.exceptions import MeasurelabError
from measurelab.metaeval.pairs import PairCounts


def check_ranked(n: int, n_pos: int, cutoff: int | None, pos_name: str = "pos") -> int:
    """Validate (n, n₊, k) of a ranked-list domain; returns the cutoff (default n₊).
    ``pos_name`` is the name of n₊ in the caller's signature (``pos`` or ``n_pos``).

    Examples
    --------
    >>> check_ranked(10, 5, None)
    5
    >>> check_ranked(10, 20, None, "n_pos")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: n_pos=20 is not valid for n=10; need 1 <= n_pos <= n-1 (both classes present)
    """  # noqa: E501
    n = check_int(n, "n", minimum=2)
    n_pos = check_int(n_pos, pos_name)
    if not 1 <= n_pos <= n - 1:
        raise MeasurelabError(
            f"{pos_name}={n_pos} is not valid for n={n}; need 1 <= {pos_name} <= n-1 (both "
            "classes present)"
        )
    if cutoff is None:
        return n_pos
    return check_int(cutoff, "cutoff", minimum=0, maximum=n)


#: the largest AUC numerator n₊·n₋ the generating function takes on (a row of it holds that
#: many Python integers; balanced n = 6000 is 9e6)
MAX_AUC_NUMERATOR = 10**7


def _check_size(n: int, n_pos: int, pos_name: str) -> None:
    if n_pos * (n - n_pos) > MAX_AUC_NUMERATOR:
        raise MeasurelabError(
            f"n={n}, {pos_name}={n_pos}: the generating function would hold "
            f"{n_pos * (n - n_pos):,} coefficients per row, more than {MAX_AUC_NUMERATOR:,}; "
            "sample the ranked lists instead")


def _mul_one_minus(c: np.ndarray, a: int) -> None:
    """c ← c·(1 − q^a), truncated to len(c)."""
    if a < c.size:
        c[a:] = c[a:] - c[:-a]


def _div_one_minus(c: np.ndarray, b: int) -> np.ndarray:
    """c / (1 − q^b) as a power series truncated to len(c): c[u] += c[u − b] ascending."""
    L = c.size
    if b >= L:
        return c
    nb = -(-L // b)
    buf = np.zeros(nb * b, dtype=object)
    buf[:L] = c
    return buf.reshape(nb, b).cumsum(axis=0).ravel()[:L]


def _resize(c: np.ndarray, size: int) -> np.ndarray:
    if size <= c.size:
        return c[:size].copy()
    out = np.zeros(size, dtype=object)
    out[: c.size] = c
    return out


def gaussian_binomial(s: int, j: int) -> list[int]:
    """Coefficients of the Gaussian binomial [s choose j]_q (lowest degree first).

    Examples
    --------
    >>> gaussian_binomial(4, 2)   # 1 + q + 2q^2 + q^3 + q^4; sums to C(4, 2) = 6
    [1, 1, 2, 1, 1]
    """
    if not 0 <= j <= s:
        return [0]
    d = j * (s - j)
    c = np.zeros(d + 1, dtype=object)
    c[0] = 1
    for i in range(1, j + 1):
        _mul_one_minus(c, s - j + i)
        c = _div_one_minus(c, i)
    return [int(x) for x in c]


def _degree(n_pos: int, m: int, k: int, tp: int) -> int:
    return (n_pos - tp) * (m - n_pos + tp) + tp * (k - tp)


def auc_acc_rows(
    n: int, n_pos: int, cutoff: int | None = None
) -> Iterator[tuple[int, int, np.ndarray]]:
    """Rows of the joint distribution of (tp, U) over all ranked lists, tp increasing.

    Yields ``(tp, U_min, counts)``: ``counts[u]`` lists have tp true positives and AUC
    numerator ``U_min + u`` (Python ints in an object array).

    Examples
    --------
    >>> [(tp, lo, c.tolist()) for tp, lo, c in auc_acc_rows(4, 2)]
    [(0, 0, [1]), (1, 1, [1, 2, 1]), (2, 4, [1])]
    """
    k = check_ranked(n, n_pos, cutoff, "n_pos")
    _check_size(n, n_pos, "n_pos")
    m = n - k
    t0, t1 = max(0, n_pos - m), min(n_pos, k)
    d = _degree(n_pos, m, k, t0)
    c = np.zeros(d + 1, dtype=object)
    c[0] = 1
    j = n_pos - t0  # [m choose j]_q then [k choose t0]_q, by the product formula
    for i in range(1, j + 1):
        _mul_one_minus(c, m - j + i)
        c = _div_one_minus(c, i)
    for i in range(1, t0 + 1):
        _mul_one_minus(c, k - t0 + i)
        c = _div_one_minus(c, i)
    for tp in range(t0, t1 + 1):
        yield tp, (m - n_pos + tp) * tp, c
        if tp == t1:
            break
        d_next = _degree(n_pos, m, k, tp + 1)
        c = _resize(c, max(d, d_next) + 1)
        _mul_one_minus(c, n_pos - tp)
        _mul_one_minus(c, k - tp)
        c = _div_one_minus(c, m - n_pos + tp + 1)
        c = _div_one_minus(c, tp + 1)
        c = _resize(c, d_next + 1)
        d = d_next


#: most coefficient updates (see :func:`exact_work`) ``measurelab compare-measures --exact``
#: takes on: balanced n = 1000 (4.2e7) takes minutes; n = 1600 (1.7e8, with longer integers) hours
EXACT_MAX_WORK = 5 * 10**7


def exact_work(n: int, n_pos: int, cutoff: int | None = None) -> int:
    """The work of :func:`auc_acc_pair_counts`: the number of coefficients of all rows
    (each is updated a fixed number of times with Python integers of about log2 C(n, n₊)
    bits). Roughly n³/12 for balanced lists with the cutoff at n₊.

    Examples
    --------
    >>> exact_work(6, 3), exact_work(400, 200)
    (12, 2666801)
    """
    k = check_ranked(n, n_pos, cutoff, "n_pos")
    m = n - k
    t0, t1 = max(0, n_pos - m), min(n_pos, k)
    return sum(_degree(n_pos, m, k, tp) + 1 for tp in range(t0, t1 + 1))


def auc_acc_pair_counts(
    n: int, n_pos: int, cutoff: int | None = None, *, progress: bool = False
) -> PairCounts:
    """Exact R, S, P, Q (f = AUC, g = accuracy) over all C(n, n₊) ranked lists.

    Computed from the generating function (module docstring), never enumerating lists or
    pairs; every count is a Python integer. Balanced n = 400 takes a few seconds.

    Examples
    --------
    >>> auc_acc_pair_counts(6, 3)          # Ling et al. 2003, balanced n = 6
    PairCounts(R=113, S=1, P=62, Q=4, T=10, objects=20)
    """
    k = check_ranked(n, n_pos, cutoff, "n_pos")
    _check_size(n, n_pos, "n_pos")
    progress = check_flag(progress, "progress")
    n_neg = n - n_pos
    top = n_neg * n_pos
    colcum = np.zeros(top + 2, dtype=object)  # lists of earlier rows at each U
    prev_total = 0
    R = S = P = Q = T = 0
    rows = auc_acc_rows(n, n_pos, k)
    bar = None
    if progress:
        from measurelab.progress import progress_bar

        bar = progress_bar(exact_work(n, n_pos, k), desc=f"exact AUC/acc n={n}",
                           unit="coefficient", leave=False, unit_scale=True)
    for _tp, lo, row in rows:
        hi = lo + row.size
        seg = colcum[lo:hi]
        below = int(colcum[:lo].sum()) if lo else 0
        cum = np.empty(row.size, dtype=object)
        cum[0] = below
        if row.size > 1:
            cum[1:] = below + np.cumsum(seg[:-1])
        row_total = int(row.sum())
        r = int(np.dot(row, cum)) if row.size else 0
        q = int(np.dot(row, seg)) if row.size else 0
        t = int(np.sum(row * (row - 1))) // 2
        R += r
        Q += q
        S += row_total * prev_total - r - q
        T += t
        P += row_total * (row_total - 1) // 2 - t
        colcum[lo:hi] = seg + row
        prev_total += row_total
        if bar is not None:
            bar.update(row.size)
    if bar is not None:
        bar.close()
    total = math.comb(n, n_pos)
    if prev_total != total or R + S + P + Q + T != total * (total - 1) // 2:
        raise AssertionError("generating function does not add up")  # pragma: no cover
    return PairCounts(R, S, P, Q, T, total)


def auc_bounds(n: int, n_pos: int, cutoff: int | None, tp: int) -> tuple[Fraction, Fraction]:
    """Smallest and largest AUC of a ranked list with tp true positives at cutoff k
    (Ling et al. 2003, lemma; its formula was lost in extraction, this is the derivation):

    the fn = n₊ − tp misclassified positives at the bottom (top) of the predicted-negative
    section and the tp correct ones at the bottom (top) of the predicted-positive section.
    Balanced with k = n₊ this is AUC_min = acc², AUC_max = 1 − (1 − acc)².

    Examples
    --------
    >>> lo, hi = auc_bounds(10, 5, 5, 3)      # acc = 0.6
    >>> lo, hi
    (Fraction(9, 25), Fraction(21, 25))
    """
    k = check_ranked(n, n_pos, cutoff, "n_pos")
    m = n - k
    tp = check_int(tp, "tp")
    if not max(0, n_pos - m) <= tp <= min(n_pos, k):
        raise MeasurelabError(f"tp={tp} is impossible with n={n}, pos={n_pos}, cutoff={k}")
    u_min = (m - n_pos + tp) * tp
    u_max = u_min + _degree(n_pos, m, k, tp)
    den = n_pos * (n - n_pos)
    return Fraction(u_min, den), Fraction(u_max, den)
