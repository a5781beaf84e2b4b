"""The compiled grid binning of smooth ECE (:mod:`measurelab.measures.calibration.smooth`;
numba, loaded on first use).

Every case is split linearly onto the two neighbouring points of an e-point grid of
[0, 1] (relplot's discretisation). The numpy route builds per-row arrays and adds them
with ``np.bincount``, which adds in row order; this pass computes the same products in
the same order and adds them in row order too, so both routes give the same grid bit for
bit, with no row-sized temporary.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def split_onto_grid(s: np.ndarray, pos: np.ndarray, neg: np.ndarray,
                    e: int) -> np.ndarray:
    """Grid sums (tables, 2, e) of the residual weight ``s·m − pos`` and the weight
    ``m = pos + neg`` of the rows of each table (rows of ``pos``, ``neg``: (tables, R))
    at the scores ``s`` (in [0, 1], increasing)."""
    B = pos.shape[0]
    R = s.size
    lo = np.zeros((B, 2, e))
    hi = np.zeros((B, 2, e))
    for t in range(B):  # table by table, rows in order: each table's memory read once
        for k in range(R):
            at = s[k] * (e - 1)
            b = int(at)
            if b < 0:
                b = 0
            elif b > e - 2:
                b = e - 2
            frac = at - b
            keep = 1 - frac
            m = pos[t, k] + neg[t, k]
            r = s[k] * m - pos[t, k]
            lo[t, 0, b] += r * keep
            lo[t, 1, b] += m * keep
            hi[t, 0, b + 1] += r * frac
            hi[t, 1, b + 1] += m * frac
    return lo + hi
