"""The compiled walk of :mod:`measurelab.measures._fused` (numba; loaded on first use).

One pass down a score table, from the highest score, accumulates every sum the rank and
probability measures need. Each quantity mirrors the numpy formula in ``ranking.py`` /
``probability.py`` operation for operation where it can (the cumulative counts are the
same sequential sums as ``np.cumsum``, so counts, ``ap11``, BEP and lift are bit for bit
the numpy values); the other sums are added in walk order rather than by numpy's pairwise
``dot``, which is exact on integers and agrees to rounding otherwise. Logarithms (MXE)
are left to numpy, whose vectorized ``log`` is several times quicker than a call per row.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def _nanmax(a: float, b: float) -> float:
    """``np.maximum`` of two floats: NaN if either is NaN."""
    if a != a or b != b:
        return math.nan
    return a if a >= b else b


@nb.njit(cache=True, nogil=True)
def apr_group(p: float, m: float, pa: float, a: float) -> float:
    """One tie group's expected sum of precisions at its positives (``ranking.apr``):
    (p/m)·Σ_{q=1..m} (pa + 1 + (q−1)(p−1)/(m−1)) / (a + q), summed in order."""
    if m == 1.0:
        return p * (pa + 1.0) / (a + 1.0)
    d = (p - 1.0) / (m - 1.0)
    acc = 0.0
    mm = int(m)
    for qq in range(1, mm + 1):
        acc += (pa + 1.0 + (qq - 1) * d) / (a + qq)
    return p / m * acc


@nb.njit(cache=True, nogil=True)
def apr_total(p: np.ndarray, m: np.ndarray, pa: np.ndarray, a: np.ndarray) -> float:
    """Σ over the groups with positives of :func:`apr_group` (descending group order): the
    APR sum of a table too small for the walk but with large tie groups."""
    total = 0.0
    for g in range(p.size):
        if p[g] > 0.0:
            total += apr_group(p[g], m[g], pa[g], a[g])
    return total


@nb.njit(cache=True, nogil=True, error_model="numpy")
def walk(
    scores: np.ndarray,
    pos: np.ndarray,
    neg: np.ndarray,
    n_pos: float,
    ks: np.ndarray,
    k_top: int,
    n_bins: int,
    do_apr: bool,
    level_factor: float,
    bins: np.ndarray,
) -> tuple:
    """One pass from the highest score down.

    ``ks``: increasing case counts k at which the expected positives among the top k are
    wanted (BEP, lift); ``k_top``: number of distinct scores predicted positive (counts
    at the threshold); ``n_bins``: ECE bins (0: none); ``do_apr``: the APR sum (integer
    weights only); ``level_factor``: 1 for whole-number weights (11-point AP's recall levels
    decided exactly), else 1 − ``ranking._RECALL_TOL`` as ``ranking._first_at_recall_levels``;
    ``bins``: each row's ECE bin, min(floor(score·n_bins), n_bins − 1), computed once for
    many tables of the same scores (empty: computed here).
    """
    G = scores.size
    # 11-point AP compares with the sequential total of the positives in this walk's order
    # (the last element of np.cumsum(pos[::-1]), as the numpy route does)
    total = 0.0
    for r in range(G):
        total += pos[G - 1 - r]
    auc2 = 0.0  # Σ neg·(positives above + ½ positives tied), as 2·(…) halves at the end
    ap_sum = 0.0
    apr_sum = 0.0
    sq_pos = 0.0
    sq_neg = 0.0
    cp = 0.0
    cn = 0.0
    tp_top = 0.0
    fp_top = 0.0
    n_k = ks.size
    tp_at = np.empty(n_k)
    kp = 0
    seg = np.full(11, -1.0)  # best precision among thresholds whose last level is l
    reached = np.zeros(11, dtype=np.bool_)
    lvl = 0
    nb_ = max(n_bins, 1)
    ws = np.zeros(nb_)
    wp = np.zeros(nb_)
    seg_li = -1  # the 11-point level being updated, and its best precision so far
    seg_cur = -1.0
    bin_b = -1  # the ECE bin being added to, and its two sums so far
    bin_ws = 0.0
    bin_wp = 0.0
    for r in range(G):
        j = G - 1 - r
        s = scores[j]
        p = pos[j]
        q = neg[j]
        if p == 0.0 and q == 0.0:  # a row of zero weight changes no sum (bootstrap tables
            if r + 1 == k_top:  # keep them): only the counts at the threshold are read here
                tp_top = cp
                fp_top = cn
            continue
        cp_prev = cp
        cp += p
        cn += q
        m = p + q
        # AUC: each negative beats the positives above it, half the tied ones
        if q != 0.0:
            auc2 += q * (2.0 * cp_prev + p)
        prec = cp / (cp + cn)
        if p != 0.0:  # a group of zero weight adds nothing (even at 0/0 precision)
            ap_sum += p * prec
        # 11-point AP: levels i with cp·10 >= i·P are reached from this threshold on
        while lvl <= 10 and cp * 10.0 >= lvl * total * level_factor:
            reached[lvl] = True
            lvl += 1
        if lvl > 0 and m != 0.0:  # a row of zero weight is no operating point
            li = lvl - 1
            if li != seg_li:  # kept in a register while the level stays (no store chain)
                if seg_li >= 0:
                    seg[seg_li] = seg_cur
                seg_li = li
                seg_cur = seg[li]
            seg_cur = prec if seg_cur == -1.0 else _nanmax(seg_cur, prec)
        cum_m = cp + cn
        pa = cp - p
        a = cum_m - m
        if do_apr and p > 0.0:
            apr_sum += apr_group(p, m, pa, a)
        # expected positives among the top k: k falls in this group
        while kp < n_k and a + m >= ks[kp]:
            tp_at[kp] = pa + (ks[kp] - a) * p / m
            kp += 1
        if r + 1 == k_top:
            tp_top = cp
            fp_top = cn
        # probability sums (zero weights add nothing)
        if p != 0.0:
            sq_pos += p * ((1.0 - s) * (1.0 - s))
        if q != 0.0:
            sq_neg += q * (s * s)
        if n_bins > 0:
            if bins.size:  # precomputed (a block's tables share their scores)
                b = bins[j]
            else:
                b = min(int(math.floor(s * n_bins)), n_bins - 1)  # noqa: RUF046
            if b != bin_b:  # the scores are sorted: a bin's rows come together
                if bin_b >= 0:
                    ws[bin_b] = bin_ws
                    wp[bin_b] = bin_wp
                bin_b = b
                bin_ws = ws[b]
                bin_wp = wp[b]
            bin_ws += m * s
            bin_wp += p
    if seg_li >= 0:
        seg[seg_li] = seg_cur
    if bin_b >= 0:
        ws[bin_b] = bin_ws
        wp[bin_b] = bin_wp
    while kp < n_k:  # k beyond all cases
        tp_at[kp] = n_pos
        kp += 1
    # 11-point AP: best precision at recall >= level = max over the later segments
    vals = np.zeros(11)
    best = -1.0
    for li in range(10, -1, -1):
        if seg[li] != -1.0:
            best = seg[li] if best == -1.0 else _nanmax(best, seg[li])
        if reached[li]:
            vals[li] = best
    return (auc2 / 2.0, ap_sum, apr_sum, vals, tp_at, tp_top, fp_top,
            sq_pos + sq_neg, ws, wp)


@nb.njit(cache=True, nogil=True, error_model="numpy")
def walk_block(
    scores: np.ndarray,
    pos: np.ndarray,
    neg: np.ndarray,
    n_pos: np.ndarray,
    ks: np.ndarray,
    k_top: int,
    n_bins: int,
    do_apr: np.ndarray,
    level_factor: np.ndarray,
    bins: np.ndarray,
) -> tuple:
    """:func:`walk` over every table of a block (rows of ``pos``, ``neg``: (B, R)), in one
    compiled loop: ``n_pos``, ``do_apr``, ``level_factor`` per table, ``ks`` (B, K)
    increasing in each row. Returns the sums stacked by table."""
    B = pos.shape[0]
    K = ks.shape[1]
    nb_ = max(n_bins, 1)
    auc = np.empty(B)
    ap = np.empty(B)
    apr = np.empty(B)
    vals = np.empty((B, 11))
    tp_at = np.empty((B, K))
    tp_top = np.empty(B)
    fp_top = np.empty(B)
    sq = np.empty(B)
    ws = np.empty((B, nb_))
    wp = np.empty((B, nb_))
    for b in range(B):
        r = walk(scores, pos[b], neg[b], n_pos[b], ks[b], k_top, n_bins, do_apr[b],
                 level_factor[b], bins)
        auc[b] = r[0]
        ap[b] = r[1]
        apr[b] = r[2]
        vals[b] = r[3]
        tp_at[b] = r[4]
        tp_top[b] = r[5]
        fp_top[b] = r[6]
        sq[b] = r[7]
        ws[b] = r[8]
        wp[b] = r[9]
    return auc, ap, apr, vals, tp_at, tp_top, fp_top, sq, ws, wp
