"""The compiled cell sums of the population calibration measures
(:func:`measurelab.measures.calibration.debiased.binned`; numba, loaded on first use).

The numpy route makes a handful of row-sized temporaries per table and chunk (the
cumulative weight, the equal-mass group, the change points, five per-row quantities and
their running sums within the chunk) and takes each cell's piece as a difference of
running sums. :func:`chunk_sums` reads each table's rows of a chunk once with no
temporary: it forms the same products in the same order, finds the same cells and keeps
the same running sums (``np.cumsum``'s sequential order); :func:`totals` forms the total
weight as numpy's pairwise ``sum`` does. So both routes give the same sums bit for bit
(tests/_kernels/test_calibration_kernels.py checks it). The logarithms of a chunk come
from numpy for both (its vectorised log may differ from the C library's in the last bit),
chunk by chunk, so memory stays that of one chunk.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

#: numpy's pairwise summation: blocks up to this length are summed with eight accumulators
_PW_BLOCK = 128


@nb.njit(cache=True, nogil=True)
def _leaf(a: np.ndarray, lo: int, n: int) -> float:
    """numpy's pairwise sum of a block of at most 128 elements ``a[lo:lo + n]``: in
    order below 8, else eight accumulators combined pairwise and the rest in order."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0 = a[lo]
    r1 = a[lo + 1]
    r2 = a[lo + 2]
    r3 = a[lo + 3]
    r4 = a[lo + 4]
    r5 = a[lo + 5]
    r6 = a[lo + 6]
    r7 = a[lo + 7]
    i = 8
    stop = n - n % 8
    while i < stop:
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@nb.njit(cache=True, nogil=True)
def _pairwise(a: np.ndarray, lo: int, n: int) -> float:
    """numpy's pairwise sum of ``a[lo:lo + n]`` (the order of its float64 add-reduce):
    blocks of at most 128 by :func:`_leaf`, longer runs split at half (rounded down to a
    multiple of 8) and the halves' sums added. Its recursion is unrolled onto a stack
    (numba cannot reload a cached self-recursive function)."""
    if n <= _PW_BLOCK:
        return _leaf(a, lo, n)
    los = np.empty(64, dtype=np.int64)
    ns = np.empty(64, dtype=np.int64)
    stage = np.zeros(64, dtype=np.int64)
    left = np.empty(64)
    top = 0
    los[0] = lo
    ns[0] = n
    ret = 0.0
    while top >= 0:
        m = ns[top]
        if m <= _PW_BLOCK:
            ret = _leaf(a, los[top], m)
            top -= 1
            continue
        n2 = m // 2
        n2 -= n2 % 8
        if stage[top] == 0:  # sum the left half first
            stage[top] = 1
            top += 1
            los[top] = los[top - 1]
            ns[top] = n2
            stage[top] = 0
        elif stage[top] == 1:  # then the right half
            left[top] = ret
            stage[top] = 2
            top += 1
            los[top] = los[top - 1] + n2
            ns[top] = m - n2
            stage[top] = 0
        else:
            ret = left[top] + ret
            top -= 1
    return ret


@nb.njit(cache=True, nogil=True)
def totals(pos: np.ndarray, neg: np.ndarray, rows: int, whole: bool) -> np.ndarray:
    """The total weight of each table as the numpy route forms it: per chunk of ``rows``
    rows, ``(pos + neg).sum(axis=1)`` (numpy's pairwise sum), the chunks added in order.
    ``whole``: every weight is a whole number, so every order of addition gives the same
    exact total and four running sums are used instead (a total from 2**52 on is formed
    again in numpy's order: whole numbers add exactly only below 2**53)."""
    T, R = pos.shape
    n = np.zeros(T)
    exact = np.zeros(T, dtype=np.bool_)
    if whole:
        for t in range(T):
            a0 = a1 = a2 = a3 = 0.0
            j = 0
            while j + 4 <= R:
                a0 += pos[t, j] + neg[t, j]
                a1 += pos[t, j + 1] + neg[t, j + 1]
                a2 += pos[t, j + 2] + neg[t, j + 2]
                a3 += pos[t, j + 3] + neg[t, j + 3]
                j += 4
            while j < R:
                a0 += pos[t, j] + neg[t, j]
                j += 1
            n[t] = (a0 + a1) + (a2 + a3)
            # whole numbers add exactly only below 2**53: beyond, numpy's order
            exact[t] = n[t] < 2.0**52
    buf = np.empty(min(rows, R) if R > 0 else 1)
    for t in range(T):
        if exact[t]:
            continue
        n[t] = 0.0
        for a in range(0, R, rows):
            b = min(R, a + rows)
            for j in range(a, b):
                buf[j - a] = pos[t, j] + neg[t, j]
            n[t] += _pairwise(buf, 0, b - a)
    return n


@nb.njit(cache=True, nogil=True)
def _cell(x: float) -> float:
    """:func:`measurelab.measures.calibration.debiased._symmetric_cell` of one offset (up
    to the sign of a zero, which no comparison sees)."""
    a: float = math.ceil(abs(x) - 1e-9)
    if a < 0.0:
        a = 0.0
    return -a if x < 0.0 else a


@nb.njit(cache=True, nogil=True)
def grid_cells(s: np.ndarray, units: np.ndarray) -> np.ndarray:
    """The grid cell of every score on each grid of ``units`` cells of [0, 1] (units, R):
    :func:`measurelab.measures.calibration.debiased.grid_cells`'s products and cells."""
    out = np.empty((units.size, s.size))
    for u in range(units.size):
        g = units[u]
        for j in range(s.size):
            out[u, j] = _cell((s[j] - 0.5) * g)
    return out


@nb.njit(cache=True, nogil=True)
def chunk_sums(s: np.ndarray, log_p: np.ndarray, log_q: np.ndarray, pos: np.ndarray,
               neg: np.ndarray, a: int, grid: np.ndarray, unit: np.ndarray,
               groups: np.ndarray, scale: np.ndarray, sums: np.ndarray,
               carry: np.ndarray, prev_mass: np.ndarray, prev_grid: np.ndarray,
               cell: np.ndarray) -> None:
    """Add the rows ``a .. a + s.size − 1`` of the tables ``pos``, ``neg`` (tables, R) to
    their cell sums ``sums`` (5, tables, k: weight, positives, Σ r, Σ r², log loss of
    r = s − y), one chunk of rows as the numpy route reads it. ``s``, ``log_p``, ``log_q``
    are the chunk's scores and their logarithms as the numpy route forms them (clipped),
    ``grid`` (units, chunk) the chunk's grid cells and ``unit`` each table's row of it,
    ``groups`` and ``scale`` the equal-mass groups and groups per unit of weight. The state
    carried from chunk to chunk — the cumulative weight, the last row's cells, the cell
    reached (−1 before the first row) — is updated in place. A row's s² and (1 − s)² are
    the numpy route's products, formed here."""
    T = pos.shape[0]
    K = sums.shape[2]
    w = s.size
    for t in range(T):
        half = 0.5 * groups[t]
        sc_t = scale[t]
        g = unit[t]
        pm = prev_mass[t]
        pg = prev_grid[t]
        c = cell[t]
        loc = 0.0
        # running sums within the chunk (np.cumsum's order) and their values where the
        # current piece began (0 at the chunk's first row)
        c0 = c1 = c2 = c3 = c4 = 0.0
        b0 = b1 = b2 = b3 = b4 = 0.0
        for i in range(w):
            p = pos[t, a + i]
            q = neg[t, a + i]
            m = p + q
            loc += m
            x = loc + carry[t]
            x = x - 0.5 * m
            x = x * sc_t
            x = x - half
            mass = _cell(x)
            gc = grid[g, i]
            if mass != pm or gc != pg:
                if i > 0:  # close the piece of the previous cell
                    sums[0, t, c] += c0 - b0
                    sums[1, t, c] += c1 - b1
                    sums[2, t, c] += c2 - b2
                    sums[3, t, c] += c3 - b3
                    sums[4, t, c] += c4 - b4
                    b0, b1, b2, b3, b4 = c0, c1, c2, c3, c4
                c += 1
                if c >= K:  # unsorted or out-of-range scores, negative weights
                    raise IndexError("more probability cells than increasing scores in "
                                     "[0, 1] with non-negative weights can form")
            pm = mass
            pg = gc
            sj = s[i]
            c0 += m
            c1 += p
            c2 += sj * m - p
            om = 1.0 - sj
            c3 += p * (om * om) + q * (sj * sj)
            c4 += -(p * log_p[i] + q * log_q[i])
        if w > 0:
            sums[0, t, c] += c0 - b0
            sums[1, t, c] += c1 - b1
            sums[2, t, c] += c2 - b2
            sums[3, t, c] += c3 - b3
            sums[4, t, c] += c4 - b4
        carry[t] = loc + carry[t]
        prev_mass[t] = pm
        prev_grid[t] = pg
        cell[t] = c
