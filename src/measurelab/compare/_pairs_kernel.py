"""Compiled (numba) discordant-pair counter for :mod:`measurelab.compare.pairs`.

Loaded on first use for large inputs only; compiled code is cached on disk.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def discordant_and_tied(key: np.ndarray, ub: int, shift: int) -> tuple[int, int]:
    """Pairs with ra_i < ra_j and rb_i > rb_j (S), and pairs equal on both (T), from the
    sorted keys ``(ra << shift) | rb`` of dense ranks (rb in [0, ub) < 2**shift): one pass
    in key order;
    each group of equal ra is first queried against a Fenwick tree of the b-ranks of all
    earlier groups (those with a larger b-rank are discordant), then added to it."""
    K = key.size
    mask = (1 << shift) - 1
    tree = np.zeros(ub + 1, dtype=np.int64)
    S = 0
    T = 0
    run = 0  # objects before this one with the same key
    lo = 0
    while lo < K:
        ga = key[lo] >> shift
        hi = lo
        while hi < K and key[hi] >> shift == ga:
            hi += 1
        for t in range(lo, hi):
            if t > lo and key[t] == key[t - 1]:
                run += 1
            else:
                run = 0
            T += run
            x = (key[t] & mask) + 1  # earlier groups' objects with b-rank <= this one
            c = 0
            while x > 0:
                c += tree[x]
                x -= x & -x
            S += lo - c
        for t in range(lo, hi):
            x = (key[t] & mask) + 1
            while x <= ub:
                tree[x] += 1
                x += x & -x
        lo = hi
    return S, T

