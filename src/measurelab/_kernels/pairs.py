"""Compiled (numba) discordant-pair counter for :mod:`measurelab.metaeval.pairs`.

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




# --- pair counts straight from numeric values -------------------------------------------
#
# np.sort of 64-bit keys is vectorized and several times faster than np.argsort, so each
# vector is ordered by sorting keys that carry the value's leading bits (order-preserving)
# above the object's index; objects whose leading bits collide are then ordered and
# compared by their full values, so order and ties are exact. Discordant pairs are then
# counted over g's ranks taken in f order: a Fenwick tree when g has few distinct values
# (it stays in cache), else a merge sort of the sequence with f's tie groups sorted first.


def sorted_ranks(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Order and dense ranks of a float64 (without NaN) or int64 vector.

    Returns ``(order, rank_sorted, u, tied)``: object indices in increasing value (ties
    by index, int32), the dense 0-based rank at each position of that order (int32), the
    number of distinct values and the number of pairs tied on the value.
    """
    n = x.size
    shift = np.uint64(max(1, (n - 1).bit_length()))
    if x.dtype.kind == "f":
        keys = _pack_floats(x.view(np.uint64), shift)
    else:
        keys = _pack_ints(x.view(np.uint64), shift)
    keys.sort()
    order = np.empty(n, dtype=np.int32)
    rank_sorted = np.empty(n, dtype=np.int32)
    u, tied = _resolve(keys, x, shift, order, rank_sorted)
    return order, rank_sorted, int(u), int(tied)


@nb.njit(cache=True, nogil=True)
def _pack_floats(bits: np.ndarray, shift: np.uint64) -> np.ndarray:
    """Keys ``(leading bits of the value) << shift | index`` whose unsigned order is the
    order of the float64 values (given as their bits); -0.0 and 0.0 get one key."""
    keys = np.empty(bits.size, dtype=np.uint64)
    top = np.uint64(1) << np.uint64(63)
    for i in range(bits.size):
        v = bits[i]
        if v == top:  # -0.0
            v = np.uint64(0)
        v = ~v if v & top else v | top
        keys[i] = ((v >> shift) << shift) | np.uint64(i)
    return keys


@nb.njit(cache=True, nogil=True)
def _pack_ints(bits: np.ndarray, shift: np.uint64) -> np.ndarray:
    """As :func:`_pack_floats` for int64 values (given as their bits)."""
    keys = np.empty(bits.size, dtype=np.uint64)
    top = np.uint64(1) << np.uint64(63)
    for i in range(bits.size):
        keys[i] = (((bits[i] ^ top) >> shift) << shift) | np.uint64(i)
    return keys


@nb.njit(cache=True, nogil=True)
def _resolve(keys, values, shift, order, rank_sorted):
    n = keys.size
    mask = (np.uint64(1) << shift) - np.uint64(1)
    u = -1
    tied = 0
    lo = 0
    while lo < n:
        head = keys[lo] >> shift
        hi = lo + 1
        while hi < n and keys[hi] >> shift == head:
            hi += 1
        if hi - lo == 1:
            u += 1
            order[lo] = np.int32(keys[lo] & mask)
            rank_sorted[lo] = u
            lo = hi
            continue
        # leading bits collide: compare (and if need be order) by the full values
        m = hi - lo
        idx = np.empty(m, dtype=np.int32)
        sub = np.empty(m, dtype=values.dtype)
        ordered = True
        for t in range(m):
            idx[t] = np.int32(keys[lo + t] & mask)
            sub[t] = values[idx[t]]
            if t and sub[t] < sub[t - 1]:
                ordered = False
        if not ordered:
            perm = np.argsort(sub, kind="mergesort")  # stable: ties stay by index
            idx = idx[perm]
            sub = sub[perm]
        run = 0
        for t in range(m):
            if t == 0 or sub[t] != sub[t - 1]:
                u += 1
                run = 0
            else:
                run += 1
                tied += run
            order[lo + t] = idx[t]
            rank_sorted[lo + t] = u
        lo = hi
    return u + 1, tied


@nb.njit(cache=True, nogil=True)
def scatter_ranks(order: np.ndarray, rank_sorted: np.ndarray) -> np.ndarray:
    """Each object's dense rank from the order and the ranks along it."""
    ranks = np.empty(order.size, dtype=np.int32)
    for k in range(order.size):
        ranks[order[k]] = rank_sorted[k]
    return ranks


@nb.njit(cache=True, nogil=True)
def ranks_in_order(order_a, ranks_b):
    """g's rank of each object, taken in f's order."""
    n = order_a.size
    seq = np.empty(n, dtype=np.int32)
    for k in range(n):
        seq[k] = ranks_b[order_a[k]]
    return seq


@nb.njit(cache=True, nogil=True)
def discordant_and_tied_in_order(seq, rank_a_sorted, ub, fenwick_ranks):
    """Pairs ordered oppositely by f and g (S) and pairs tied on both (T), from g's ranks
    ``seq`` (in [0, ub)) of the objects in f's order and f's ranks along that order:
    one Fenwick tree over g's ranks when ``ub <= fenwick_ranks`` (it stays in cache),
    else f's tie groups sorted by g and the inversions of the whole sequence counted.
    ``seq`` is reordered."""
    n = seq.size
    if ub <= fenwick_ranks:
        return _discordant_fenwick(seq, rank_a_sorted, ub)
    T = 0
    lo = 0
    while lo < n:
        hi = lo + 1
        while hi < n and rank_a_sorted[hi] == rank_a_sorted[lo]:
            hi += 1
        if hi - lo > 1:  # sort g's ranks within f's tie group; count pairs tied on both
            seq[lo:hi] = np.sort(seq[lo:hi])
            run = 0
            for t in range(lo + 1, hi):
                if seq[t] == seq[t - 1]:
                    run += 1
                    T += run
                else:
                    run = 0
        lo = hi
    bits = 1
    while (1 << bits) < ub:
        bits += 1
    return _inversions(seq, bits), T


@nb.njit(cache=True, nogil=True)
def _discordant_fenwick(seq, rank_a_sorted, ub):
    """Each group of tied f is queried against a Fenwick tree of the g-ranks of all
    earlier groups (larger g-rank: discordant), counted for joint ties, then added."""
    n = seq.size
    tree = np.zeros(ub + 1, dtype=np.int32)  # counts < 2**31 objects
    cnt = np.zeros(ub, dtype=np.int32)
    S = 0
    T = 0
    lo = 0
    while lo < n:
        hi = lo + 1
        while hi < n and rank_a_sorted[hi] == rank_a_sorted[lo]:
            hi += 1
        for t in range(lo, hi):
            r = seq[t]
            T += cnt[r]
            cnt[r] += 1
            x = r + 1
            c = 0
            while x > 0:
                c += tree[x]
                x -= x & -x
            S += lo - c
        for t in range(lo, hi):
            r = seq[t]
            cnt[r] = 0
            x = r + 1
            while x <= ub:
                tree[x] += 1
                x += x & -x
        lo = hi
    return S, T


@nb.njit(cache=True, nogil=True)
def _inversions(seq, bits):
    """Pairs i < j with seq[i] > seq[j], for integers in [0, 2**bits): split each value
    into high and low halves of its bits; pairs with a larger high half earlier are
    counted with a Fenwick tree over the high halves, pairs with equal high halves by
    a Fenwick tree over the low halves within each high bucket (objects bucketed
    stably). Both trees stay in the processor's cache, unlike one tree over all ranks."""
    n = seq.size
    lb = bits // 2
    H = 1 << (bits - lb)
    L = 1 << lb
    mask = L - 1
    tree = np.zeros(H + 1, dtype=np.int32)
    cnt = np.zeros(H + 1, dtype=np.int64)
    S = 0
    for j in range(n):
        x = (seq[j] >> lb) + 1
        cnt[x] += 1
        c = 0
        while x > 0:  # earlier objects with a high half <= this one's
            c += tree[x]
            x &= x - 1
        S += j - c
        x = (seq[j] >> lb) + 1
        while x <= H:
            tree[x] += 1
            x += x & -x
    for h in range(H):
        cnt[h + 1] += cnt[h]
    pos = cnt[:H].copy()
    low = np.empty(n, dtype=np.int32)
    for j in range(n):
        h = seq[j] >> lb
        low[pos[h]] = seq[j] & mask
        pos[h] += 1
    tl = np.zeros(L + 1, dtype=np.int32)
    for h in range(H):
        lo = cnt[h]
        hi = cnt[h + 1]
        for t in range(lo, hi):
            x = low[t] + 1
            c = 0
            while x > 0:
                c += tl[x]
                x &= x - 1
            S += (t - lo) - c
            x = low[t] + 1
            while x <= L:
                tl[x] += 1
                x += x & -x
        if 4 * (hi - lo) > L:
            tl[:] = 0
        else:
            for t in range(lo, hi):
                x = low[t] + 1
                while x <= L:
                    tl[x] = 0
                    x += x & -x
    return S


@nb.njit(cache=True, nogil=True)
def hashed_ranks(x):
    """Each object's dense rank and the pairs tied on the value, for int64 or float64
    values without NaN and -0.0 (so equal values have equal bits): the distinct values
    are collected in one pass through an open-addressing hash table of their bits (it
    stays in cache when values repeat a lot), then only they are sorted."""
    xb = x.view(np.uint64)
    n = x.size
    golden = np.uint64(0x9E3779B97F4A7C15)
    p = 10
    cap = 1 << p
    slot_key = np.empty(cap, dtype=np.uint64)
    slot_code = np.full(cap, -1, dtype=np.int32)
    first = np.empty(cap // 2 + 1, dtype=np.int64)  # an object holding each distinct value
    codes = np.empty(n, dtype=np.int32)
    u = 0
    for i in range(n):
        k = xb[i]
        m = np.uint64(cap - 1)
        h = (k * golden) >> np.uint64(64 - p)
        while True:
            s = h & m
            c = slot_code[s]
            if c < 0:
                slot_key[s] = k
                slot_code[s] = u
                first[u] = i
                codes[i] = u
                u += 1
                if 2 * u > cap:  # grow: twice the slots, every distinct value again
                    p += 1
                    cap = 1 << p
                    m = np.uint64(cap - 1)
                    slot_key = np.empty(cap, dtype=np.uint64)
                    slot_code = np.full(cap, -1, dtype=np.int32)
                    grown = np.empty(cap // 2 + 1, dtype=np.int64)
                    grown[:u] = first[:u]
                    first = grown
                    for r in range(u):
                        kr = xb[first[r]]
                        hr = (kr * golden) >> np.uint64(64 - p)
                        while slot_code[hr & m] >= 0:
                            hr += np.uint64(1)
                        slot_key[hr & m] = kr
                        slot_code[hr & m] = r
                break
            if slot_key[s] == k:
                codes[i] = c
                break
            h += np.uint64(1)
    vals = np.empty(u, dtype=x.dtype)
    for r in range(u):
        vals[r] = x[first[r]]
    order = np.argsort(vals)  # distinct bits, no NaN or -0.0: distinct values
    lut = np.empty(u, dtype=np.int32)
    for r in range(u):
        lut[order[r]] = r
    cnt = np.zeros(u, dtype=np.int64)
    for i in range(n):
        r = lut[codes[i]]
        codes[i] = r
        cnt[r] += 1
    tied = 0
    for r in range(u):
        tied += cnt[r] * (cnt[r] - 1) // 2
    return codes, u, tied


@nb.njit(cache=True, nogil=True)
def order_by_ranks(ranks_a, ua, ranks_b):
    """f's ranks in increasing order and g's ranks of the objects in that order (ties of
    f by index): a counting sort, which writes into ``ua`` sequential streams instead of
    gathering at random."""
    n = ranks_a.size
    start = np.zeros(ua + 1, dtype=np.int64)
    for i in range(n):
        start[ranks_a[i] + 1] += 1
    for r in range(ua):
        start[r + 1] += start[r]
    rank_sorted = np.empty(n, dtype=np.int32)
    seq = np.empty(n, dtype=np.int32)
    for i in range(n):
        r = ranks_a[i]
        rank_sorted[start[r]] = r
        seq[start[r]] = ranks_b[i]
        start[r] += 1
    return rank_sorted, seq
