"""Compiled (numba) loops that build and merge large score tables in linear time.

Imported only when a large table is built (:func:`measurelab.stats.scoretable.use_compiled`),
so importing measurelab never loads numba. Compiled code is cached on disk
(``cache=True``); nothing is compiled at import.

The loops give exactly the tables of the numpy routes in ``scoretable.py``: counts are
whole numbers, and weighted tables are grouped per class by numpy in both routes (only
the final merge of the two class tables is compiled), so the float sums are the same.
"""

from __future__ import annotations

import numba as nb
import numpy as np


def _cut(x: np.ndarray, k: int) -> np.ndarray:
    """The first ``k`` values; a copy when that frees most of ``x``."""
    return x[:k].copy() if 2 * k < x.size else x[:k]


# Output arrays are allocated by numpy, not inside the compiled code: numpy asks the kernel
# for huge pages on large arrays, which saves most of the page faults of a first write.


def split_by_label(s: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Scores of the positives and of the negatives (``y`` as uint8), each between a -inf
    and a +inf slot (sentinels for :func:`table_from_sorted`; sort ``[1:-1]``)."""
    k = int(np.count_nonzero(y))
    a = np.empty(k + 2)
    b = np.empty(s.size - k + 2)
    _split(s, y, a, b)
    return a, b


def table_from_sorted(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The unweighted table from the sorted positive and negative scores (each between
    -inf and +inf sentinels)."""
    n = a.size + b.size - 4
    ms, pos, neg = np.empty(n), np.empty(n), np.empty(n)
    g = _merge_sorted(a, b, ms, pos, neg)
    return _cut(ms, g), _cut(pos, g), _cut(neg, g)


def merge_tables(
    sa: np.ndarray, pa: np.ndarray, na: np.ndarray,
    sb: np.ndarray, pb: np.ndarray, nb_: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Union of two tables with strictly increasing scores; weights at a common score are
    added as a + b."""
    m = sa.size + sb.size
    s, p, q = np.empty(m), np.empty(m), np.empty(m)
    g = _merge_tables(sa, pa, na, sb, pb, nb_, s, p, q)
    return _cut(s, g), _cut(p, g), _cut(q, g)


@nb.njit(cache=True, nogil=True)
def _split(s: np.ndarray, y: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    n = s.size
    k = a.size - 2
    ia = 1
    ib = 1
    for i in range(n):
        v = s[i]
        t = y[i]
        a[ia] = v  # both slots are written; only the class's pointer moves on
        b[ib] = v
        ia += t
        ib += 1 - t
    a[0] = -np.inf
    b[0] = -np.inf
    a[k + 1] = np.inf
    b[n - k + 1] = np.inf


@nb.njit(cache=True, nogil=True)
def _merge_sorted(
    a: np.ndarray, b: np.ndarray, ms: np.ndarray, pos: np.ndarray, neg: np.ndarray
) -> int:
    """Merge from both ends at once (two independent dependency chains, no branches),
    then combine tied scores in place; returns the number of distinct scores."""
    n = ms.size
    h = n // 2
    i = 1  # front: smallest first; a before b among equal scores
    j = 1
    ia = a.size - 2  # back: largest first; b after a among equal scores
    jb = b.size - 2
    for t in range(h):
        ai = a[i]
        bj = b[j]
        ta = ai <= bj
        ms[t] = ai if ta else bj
        f = 1.0 if ta else 0.0
        pos[t] = f
        neg[t] = 1.0 - f
        i += ta
        j += 1 - ta
        av = a[ia]
        bv = b[jb]
        tb = av > bv
        u = n - 1 - t
        ms[u] = av if tb else bv
        f = 1.0 if tb else 0.0
        pos[u] = f
        neg[u] = 1.0 - f
        ia -= tb
        jb -= 1 - tb
    if n - h > h:  # odd n: the middle case is what is left
        ta = a[i] <= b[j]
        ms[h] = a[i] if ta else b[j]
        pos[h] = 1.0 if ta else 0.0
        neg[h] = 1.0 - pos[h]
    # combine equal scores in place (the group index never passes the case index)
    t = 1
    while t < n and ms[t] != ms[t - 1]:
        t += 1
    if t >= n:
        return n
    g = t - 1
    for r in range(t, n):
        v = ms[r]
        if v != ms[g]:
            g += 1
            ms[g] = v
            pos[g] = pos[r]
            neg[g] = neg[r]
        else:
            pos[g] += pos[r]
            neg[g] += neg[r]
    return g + 1


@nb.njit(cache=True, nogil=True)
def _merge_tables(
    sa: np.ndarray, pa: np.ndarray, na: np.ndarray,
    sb: np.ndarray, pb: np.ndarray, nb_: np.ndarray,
    s: np.ndarray, p: np.ndarray, q: np.ndarray,
) -> int:
    la = sa.size
    lb = sb.size
    i = 0
    j = 0
    g = 0
    while i < la and j < lb:
        x = sa[i]
        z = sb[j]
        if x < z:
            s[g] = x
            p[g] = pa[i]
            q[g] = na[i]
            i += 1
        elif z < x:
            s[g] = z
            p[g] = pb[j]
            q[g] = nb_[j]
            j += 1
        else:
            s[g] = x
            p[g] = pa[i] + pb[j]
            q[g] = na[i] + nb_[j]
            i += 1
            j += 1
        g += 1
    while i < la:
        s[g] = sa[i]
        p[g] = pa[i]
        q[g] = na[i]
        i += 1
        g += 1
    while j < lb:
        s[g] = sb[j]
        p[g] = pb[j]
        q[g] = nb_[j]
        j += 1
        g += 1
    return g


@nb.njit(cache=True, nogil=True)
def count_draws(idx: np.ndarray, out: np.ndarray) -> None:
    """Add 1 to ``out[i]`` for every drawn index i (a bootstrap replicate's case
    multiplicities: ``np.bincount``'s whole counts; ``out`` starts at 0)."""
    counts = np.zeros(out.size, dtype=np.int32)
    for i in range(idx.size):
        counts[idx[i]] += 1
    for j in range(out.size):
        out[j] = counts[j]
