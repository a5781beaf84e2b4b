"""The compiled PAV of :mod:`measurelab.measures.calibration.corp` (numba; loaded on first
use).

The isotonic regression of the rows' means is read off the lower convex hull of the
cumulative sum diagram ``(Σ w, Σ pos)``. One pass builds the hull with a monotone chain
(Andrew's), the cumulative sums running along as ``np.cumsum`` adds them (the same
sequential sums, so the same points) and the same turn test as the numpy route; a second
pass adds each block's positive weight and weight in row order. On whole weights every
product in the turn test is exact, so both routes find the same hull and the same block
sums; on real weights they agree to rounding.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def pav_blocks(pos: np.ndarray, other: np.ndarray, other_is_weight: bool) -> tuple:
    """(hull, block positive weight, block weight) of the rows of positive weight
    ``other`` (``other_is_weight``) or ``pos + other`` (the negatives' weight): ``hull``
    holds the block boundaries (row indices, first 0 and last ``pos.size``), block j
    holding rows ``hull[j] .. hull[j + 1] − 1``."""
    n = pos.size
    hx = np.empty(n + 1)  # the hull's points so far (a stack)
    hy = np.empty(n + 1)
    hi = np.empty(n + 1, dtype=np.int64)
    hx[0] = 0.0
    hy[0] = 0.0
    hi[0] = 0
    top = 1
    cx = 0.0
    cy = 0.0
    for i in range(n):
        cx += other[i] if other_is_weight else pos[i] + other[i]
        cy += pos[i]
        while top >= 2:
            ox = hx[top - 2]
            oy = hy[top - 2]
            ax = hx[top - 1]
            ay = hy[top - 1]
            if (ax - ox) * (cy - oy) - (ay - oy) * (cx - ox) <= 0.0:
                top -= 1  # a is on or above the chord o -> the new point
            else:
                break
        hx[top] = cx
        hy[top] = cy
        hi[top] = i + 1
        top += 1
    hull = hi[:top].copy()
    bp = np.zeros(top - 1)
    bw = np.zeros(top - 1)
    for j in range(top - 1):
        sp = 0.0
        sw = 0.0
        for r in range(hull[j], hull[j + 1]):
            sp += pos[r]
            sw += other[r] if other_is_weight else pos[r] + other[r]
        bp[j] = sp
        bw[j] = sw
    return hull, bp, bw
