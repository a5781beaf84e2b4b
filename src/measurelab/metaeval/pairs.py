"""Exact pair counting: R, S, P, Q of docs/METHODS.md#consistency over all unordered pairs of K
objects.

For two value vectors ``a`` (measure f) and ``b`` (measure g) over the same K objects,
over the K(K−1)/2 unordered pairs {i, j}:

* R — f and g both differ and agree in direction (concordant),
* S — both differ and disagree (discordant),
* P — f differs, g ties,
* Q — g differs, f ties,
* T — both tie.

These are the counts Kendall's tau uses, and they follow from sorting and tie groups in
O(K log K); pairs are never enumerated. Values are first mapped to dense integer ranks
(Python ordering for exact numbers and :class:`~measurelab.measures.twolevel.TwoLevelValue`,
``np.unique`` for numeric arrays); then

* when the table of distinct (rank_a, rank_b) cells is small (the usual case: measures
  with many ties), every count is a sum over a 2-d contingency table with prefix sums,
  O(K + |a|·|b|) after the ranks;
* otherwise the discordant pairs are the inversions of the b-ranks taken in (a, b) order,
  counted by scipy's compiled merge-sort counter (the one ``scipy.stats.kendalltau`` uses;
  checked on a known case first) or, without it, bit by bit in numpy (a stable radix
  partition per bit of the smaller rank range), O(K log min(|a|, |b|)).

Two long numeric arrays (K ≥ 2²¹, or ≥ 65,536 once the compiled code is loaded; numba
installed) take a compiled route straight from
the values (``_pairs_kernel``): each array is ranked by counting (small integer ranges), by
hashing the values and sorting only the distinct ones (values repeat a lot), or by one
vectorized sort of 64-bit keys holding the value's leading bits above the object's index
(objects whose leading bits collide are ordered and compared by their full values, so
ranks are exact); then the contingency table when it has at most K cells, else g's ranks
in f order, with the discordant pairs counted by one Fenwick tree over g's ranks (few
distinct values) or, after sorting g within f's tie groups, by a Fenwick count over the
high and the low halves of the ranks. The counts are the same integers on every route.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from measurelab._kernels.routing import use_compiled
from measurelab.exceptions import MeasurelabError
from measurelab.pickling import versioned_pickle

#: largest contingency table (cells) counted by prefix sums
_TABLE_CELLS = 1 << 22


@versioned_pickle
@dataclass(frozen=True)
class PairCounts:
    """Counts of unordered pairs of objects; unpacks as ``R, S, P, Q``.

    Attributes
    ----------
    R, S, P, Q : int
        Concordant, discordant, f-differs-g-ties, g-differs-f-ties (docs/METHODS.md#pair-counts).
    T : int
        Pairs tied on both measures.
    objects : int
        Number of objects K; ``R + S + P + Q + T == K(K−1)/2``.
    """

    R: int
    S: int
    P: int
    Q: int
    T: int = 0
    objects: int = 0

    def __iter__(self) -> Iterator[int]:
        return iter((self.R, self.S, self.P, self.Q))

    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> int:
        return (self.R, self.S, self.P, self.Q)[i]

    @property
    def pairs(self) -> int:
        """All unordered pairs, K(K−1)/2."""
        return self.R + self.S + self.P + self.Q + self.T

    def swapped(self) -> PairCounts:
        """The counts with the roles of f and g exchanged (P and Q swap)."""
        return PairCounts(self.R, self.S, self.Q, self.P, self.T, self.objects)

    def __add__(self, other: PairCounts) -> PairCounts:
        return PairCounts(self.R + other.R, self.S + other.S, self.P + other.P,
                          self.Q + other.Q, self.T + other.T, self.objects + other.objects)


def _is_plain_numeric(x: np.ndarray) -> bool:
    return x.dtype.kind in "iufb"


def dense_ranks(values: Any) -> tuple[np.ndarray, int]:
    """Dense 0-based ranks of ``values`` (equal values share a rank) and their count.

    Numeric arrays use numpy; anything else (Fractions, big ints, two-level values) is
    ordered with Python comparisons, so ties are decided exactly.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> r, u = dense_ranks([F(1, 3), 0.5, F(1, 2), 0])
    >>> r.tolist(), u
    ([1, 2, 2, 0], 3)
    """
    if isinstance(values, np.ndarray) and _is_plain_numeric(values):
        arr = values.ravel()
        if arr.dtype.kind == "f" and np.isnan(arr).any():
            raise MeasurelabError("pair_counts: values must not be NaN (ties undefined)")
        if arr.dtype.kind == "b":
            arr = arr.astype(np.int8)
        if arr.dtype.kind in "iu" and arr.size and int(arr.max()) - int(arr.min()) <= 4 * arr.size:
            # small integer range: ranks by counting, no sort at all
            shifted = (arr - arr.min()).astype(np.int64)
            present = np.bincount(shifted) > 0
            lut = np.cumsum(present) - 1
            return lut[shifted], int(present.sum())
        return _numeric_ranks(arr)
    vals = list(values)
    for v in vals:
        if isinstance(v, float) and math.isnan(v):
            raise MeasurelabError("pair_counts: values must not be NaN (ties undefined)")
    try:
        uniq = sorted(set(vals))
    except TypeError as exc:
        raise MeasurelabError(f"pair_counts: values are not comparable ({exc})") from None
    index = {v: i for i, v in enumerate(uniq)}
    return np.fromiter((index[v] for v in vals), dtype=np.int64, count=len(vals)), len(uniq)


def _numeric_ranks(arr: np.ndarray) -> tuple[np.ndarray, int]:
    """Dense ranks of a numeric vector without ``np.argsort`` when values repeat a lot:
    hash the values (``pandas.factorize``, O(K)), sort only the distinct ones."""
    n = arr.size
    probe = arr[:: max(1, n // 65536)]
    if n > 4096 and np.unique(probe).size * 2 < probe.size:
        import pandas as pd

        codes, uniq = pd.factorize(arr, sort=False, use_na_sentinel=False)
        order = np.argsort(uniq, kind="stable")
        lut = np.empty(uniq.size, dtype=np.int64)
        lut[order] = np.arange(uniq.size)
        # equal values may hash apart only for -0.0 / 0.0; merge them by value
        su = np.asarray(uniq)[order]
        if su.size > 1 and (su[1:] == su[:-1]).any():
            flag = np.empty(su.size, dtype=bool)
            flag[0] = True
            np.not_equal(su[1:], su[:-1], out=flag[1:])
            lut = (np.cumsum(flag) - 1)[lut]
            return lut[codes], int(flag.sum())
        return lut[codes], int(uniq.size)
    order = np.argsort(arr)
    s = arr[order]
    flag = np.empty(n, dtype=bool)
    if n:
        flag[0] = True
        np.not_equal(s[1:], s[:-1], out=flag[1:])
    ranks = np.empty(n, dtype=np.int64)
    ranks[order] = np.cumsum(flag) - 1
    return ranks, int(flag.sum())


def _as_values(x: Any) -> Any:
    """A numeric numpy array when that represents the values exactly, else a list
    (ints beyond int64, or ints beyond 2**53 mixed with floats, stay Python objects)."""
    if isinstance(x, np.ndarray):
        return x
    if not isinstance(x, (list, tuple)) and hasattr(x, "__array__"):  # pandas, arrays
        arr = np.asarray(x)
        if arr.dtype.kind in "iufb":
            return arr
    if isinstance(x, Sequence) and x and all(
        isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
        for v in x
    ):
        has_float = any(isinstance(v, (float, np.floating)) for v in x)
        limit = 2**53 if has_float else 2**62
        if all(isinstance(v, (float, np.floating)) or abs(int(v)) < limit for v in x):
            return np.asarray(x)
    return list(x)


def _choose2(x: np.ndarray) -> int:
    x = x.astype(np.int64)
    return int(np.sum(x * (x - 1) // 2))


def pair_counts(a: Any, b: Any) -> PairCounts:
    """R, S, P, Q (and T) of two value vectors over all unordered pairs of objects.

    Parameters
    ----------
    a, b : sequences of equal length K
        One value of measure f (``a``) and of measure g (``b``) per object: ints,
        Fractions, floats (ties decided by ``==`` on the given values, so compute them
        by the same code path) or :class:`~measurelab.measures.twolevel.TwoLevelValue`.
        Higher is taken as better for both.

    Returns
    -------
    PairCounts
        Named fields R, S, P, Q, T, objects; unpacks as ``R, S, P, Q``.

    Examples
    --------
    >>> R, S, P, Q = pair_counts([1, 2, 3, 3], [1, 3, 2, 2])
    >>> R, S, P, Q
    (3, 2, 0, 0)
    >>> pair_counts([1, 1, 2], [5, 6, 6])
    PairCounts(R=1, S=0, P=1, Q=1, T=0, objects=3)
    """
    va, vb = _as_values(a), _as_values(b)
    if len(va) != len(vb):
        raise MeasurelabError(
            f"pair_counts needs equal lengths, got {len(va)} values of f and {len(vb)} of g"
        )
    fast = _counts_compiled(va, vb)
    if fast is not None:
        return fast
    ra, ua = dense_ranks(va)
    rb, ub = dense_ranks(vb)
    return pair_counts_ranks(ra, ua, rb, ub)


#: numeric arrays take the compiled route straight from their values from the size of the
#: "pair_values" route (:data:`measurelab._kernels.routing.ROUTES`); on that route, the
#: contingency table is used up to min(this, max(_TABLE_CELLS, K)) cells (its memory stays
#: within a few times the inputs')
_VALUES_TABLE_CELLS = 1 << 24
#: on that route, g's distinct values up to which one Fenwick tree counts discordant pairs
_FENWICK_RANKS = 1 << 15
#: how that route ranks values that are not a small integer range: "auto" (hash when a
#: sample repeats a lot, else sort), "hash" or "sort" (tests force each)
_RANK_ROUTE = "auto"


def _kernel_input(v: Any) -> np.ndarray | None:
    """A 1-d float64 or int64 copy-free view of a numeric array for the compiled route,
    or None when it must take the general route (not an array, 2-d, uint64 beyond int64)."""
    if not (isinstance(v, np.ndarray) and _is_plain_numeric(v) and v.ndim == 1):
        return None
    if v.dtype.kind == "f":
        if np.isnan(v).any():
            raise MeasurelabError("pair_counts: values must not be NaN (ties undefined)")
        return np.ascontiguousarray(v, dtype=np.float64)
    if v.dtype == np.uint64 and v.size and int(v.max()) >= 2**63:
        return None
    return np.ascontiguousarray(v, dtype=np.int64)


@dataclass
class _Ranked:
    """Dense ranks of one vector, each form computed when first needed."""

    u: int
    tied: int
    ranks: np.ndarray | None = None  # each object's rank
    order: np.ndarray | None = None  # object indices in increasing value
    rank_sorted: np.ndarray | None = None  # the rank along ``order``


def _rank_values(x: np.ndarray, kernel: Any) -> _Ranked:
    """Ranks by counting (small integer ranges), by hashing the values and sorting only
    the distinct ones (values repeat a lot) or by one sort of packed keys (mostly
    distinct)."""
    n = x.size
    if x.dtype.kind == "i" and int(x.max()) - int(x.min()) <= 4 * n:
        ranks, u = dense_ranks(x)
        return _Ranked(u, _choose2(np.bincount(ranks, minlength=u)), ranks=ranks)
    probe = x[:: max(1, n // 65536)]
    if _RANK_ROUTE == "hash" or (
        _RANK_ROUTE == "auto" and np.unique(probe).size * 2 < probe.size
    ):
        # + 0 turns -0.0 into 0.0: equal values have equal bits
        ranks, u, tied = kernel.hashed_ranks(x + x.dtype.type(0))
        return _Ranked(int(u), int(tied), ranks=ranks)
    order, rank_sorted, u, tied = kernel.sorted_ranks(x)
    return _Ranked(u, tied, order=order, rank_sorted=rank_sorted)


def _counts_compiled(va: Any, vb: Any) -> PairCounts | None:
    """Pair counts of two long numeric vectors by compiled code straight from the values
    (``_pairs_kernel``); None when the inputs or the environment call for the general
    route."""
    if not (isinstance(va, np.ndarray) and isinstance(vb, np.ndarray)):
        return None
    K = int(va.size)
    if K < 2 or K >= 2**31 or not use_compiled("pair_values", K):
        return None  # numba missing: the numpy route gives the same counts
    xa, xb = _kernel_input(va), _kernel_input(vb)
    if xa is None or xb is None:
        return None
    from measurelab._kernels import pairs as kernel
    fa, fb = _rank_values(xa, kernel), _rank_values(xb, kernel)
    if fa.u * fb.u <= min(_VALUES_TABLE_CELLS, max(_TABLE_CELLS, K)):
        for f in (fa, fb):
            if f.ranks is None:  # then _rank_values gave order and rank_sorted
                assert f.order is not None and f.rank_sorted is not None
                f.ranks = kernel.scatter_ranks(f.order, f.rank_sorted)
        assert fa.ranks is not None and fb.ranks is not None
        return counts_from_table(contingency(fa.ranks, fa.u, fb.ranks, fb.u))
    swapped = fb.u > fa.u  # g's ranks index the trees: the smaller range
    if swapped:
        fa, fb = fb, fa
    if fb.ranks is None:
        assert fb.order is not None and fb.rank_sorted is not None
        fb.ranks = kernel.scatter_ranks(fb.order, fb.rank_sorted)
    if fa.order is None:
        fa.rank_sorted, seq = kernel.order_by_ranks(fa.ranks, fa.u, fb.ranks)
    else:
        seq = kernel.ranks_in_order(fa.order, fb.ranks)
    S, T = (int(v) for v in kernel.discordant_and_tied_in_order(
        seq, fa.rank_sorted, fb.u, _FENWICK_RANKS))
    P, Q = fb.tied - T, fa.tied - T
    out = PairCounts(K * (K - 1) // 2 - S - P - Q - T, S, P, Q, T, K)
    return out.swapped() if swapped else out


def pair_counts_ranks(ra: np.ndarray, ua: int, rb: np.ndarray, ub: int) -> PairCounts:
    """:func:`pair_counts` on dense integer ranks ``ra`` in [0, ua), ``rb`` in [0, ub).

    Examples
    --------
    >>> import numpy as np
    >>> pair_counts_ranks(np.array([0, 1, 2]), 3, np.array([2, 1, 0]), 3)
    PairCounts(R=0, S=3, P=0, Q=0, T=0, objects=3)
    """
    K = int(ra.size)
    if K < 2:
        return PairCounts(0, 0, 0, 0, 0, K)
    if K >= 2**31:
        raise MeasurelabError(f"pair_counts handles fewer than 2**31 objects, got {K}")
    if ua * ub <= max(_TABLE_CELLS, 0):
        return _counts_table(ra, ua, rb, ub)
    return _counts_sorted(ra, ua, rb, ub)


def contingency(ra: np.ndarray, ua: int, rb: np.ndarray, ub: int) -> np.ndarray:
    """The ua × ub table of how many objects have each (rank_a, rank_b)."""
    key = ra.astype(np.int64) * ub + rb
    return np.bincount(key, minlength=ua * ub).reshape(ua, ub)


def counts_from_table(N: np.ndarray) -> PairCounts:
    """Pair counts from a contingency table ``N[i, j]`` (rows: f's ranks increasing,
    columns: g's ranks increasing). Integer numpy tables use int64; object tables
    (Python ints) stay exact however large.

    Examples
    --------
    >>> import numpy as np
    >>> counts_from_table(np.array([[1, 0], [1, 1]]))
    PairCounts(R=1, S=0, P=1, Q=1, T=0, objects=3)
    """
    K = int(N.sum())
    T = sum(int(x) * (int(x) - 1) // 2 for x in N.ravel()) if N.dtype == object \
        else _choose2(N.ravel())
    rows = N.sum(axis=1)
    cols = N.sum(axis=0)
    if N.dtype == object:
        ta = sum(int(x) * (int(x) - 1) // 2 for x in rows)
        tb = sum(int(x) * (int(x) - 1) // 2 for x in cols)
    else:
        ta, tb = _choose2(rows), _choose2(cols)
    # M[i, j] = objects in rows < i and columns < j
    cum = np.cumsum(np.cumsum(N, axis=0), axis=1)
    M = np.zeros_like(cum)
    M[1:, 1:] = cum[:-1, :-1]
    R = N.ravel() @ M.ravel()
    pairs = K * (K - 1) // 2
    P = tb - T
    Q = ta - T
    R = int(R)
    S = pairs - R - P - Q - T
    return PairCounts(R, S, P, Q, T, K)


def _counts_table(ra: np.ndarray, ua: int, rb: np.ndarray, ub: int) -> PairCounts:
    return counts_from_table(contingency(ra, ua, rb, ub))


#: smaller rank range up to which the compiled counter (a Fenwick tree over it) is used;
#: the objects from which it is worth loading numba are the "pair_tree" route's
#: (:data:`measurelab._kernels.routing.ROUTES`)
_TREE_RANKS = 1 << 24


def _tree_counter() -> Any:
    try:
        from measurelab._kernels.pairs import discordant_and_tied
    except ImportError:  # numba missing: the sorted route gives the same counts
        return None
    return discordant_and_tied


def _counts_sorted(ra: np.ndarray, ua: int, rb: np.ndarray, ub: int) -> PairCounts:
    K = int(ra.size)
    if ub > ua:  # count inversions over the smaller rank range (fewer bit levels)
        ra, ua, rb, ub = rb, ub, ra, ua
        swapped = True
    else:
        swapped = False
    fn = _tree_counter() if ub <= _TREE_RANKS and use_compiled("pair_tree", K) else None
    if fn is not None:
        # one sort of the (a, b) keys, then one pass with a Fenwick tree over the b-ranks
        shift = max(1, (ub - 1).bit_length())
        key = np.sort((ra.astype(np.int64) << shift) | rb.astype(np.int64))
        S, T = (int(v) for v in fn(key, ub, shift))
        ta = _choose2(np.bincount(ra, minlength=ua))
        tb = _choose2(np.bincount(rb, minlength=ub))
        P, Q = tb - T, ta - T
        out = PairCounts(K * (K - 1) // 2 - S - P - Q - T, S, P, Q, T, K)
        return out.swapped() if swapped else out
    key = np.sort(ra.astype(np.int64) * ub + rb)
    flag = np.empty(K, dtype=bool)
    flag[0] = True
    np.not_equal(key[1:], key[:-1], out=flag[1:])
    T = _choose2(np.diff(np.append(np.flatnonzero(flag), K)))
    ta = _choose2(np.bincount(ra, minlength=ua))
    tb = _choose2(np.bincount(rb, minlength=ub))
    seq = key % ub
    S = _discordant_sorted(key // ub, seq, ub)
    P, Q = tb - T, ta - T
    R = K * (K - 1) // 2 - S - P - Q - T
    out = PairCounts(R, S, P, Q, T, K)
    return out.swapped() if swapped else out


def _kendall_dis() -> Any:
    """scipy's compiled merge-sort counter of discordant pairs (a private scipy function,
    so it is checked on a small case and replaced by :func:`_inversions` when it is
    missing or behaves differently)."""
    global _KENDALL_DIS
    if _KENDALL_DIS is None:
        try:
            from scipy.stats._stats import _kendall_dis as fn

            x = np.array([1, 1, 2, 2, 3], dtype=np.intp)
            y = np.array([1, 3, 2, 3, 1], dtype=np.intp)
            ok = int(fn(x, y)) == 4
        except Exception:  # any failure means: use the numpy route
            ok, fn = False, None
        _KENDALL_DIS = fn if ok else False
    return _KENDALL_DIS


_KENDALL_DIS: Any = None


def _discordant_sorted(xa: np.ndarray, seq: np.ndarray, u: int) -> int:
    """Discordant pairs of objects sorted by (a-rank ``xa``, b-rank ``seq``): the
    inversions of ``seq``. Uses scipy's compiled counter when available (and exact: it
    needs ``intp`` ranks), else the numpy radix counter."""
    fn = _kendall_dis()
    if fn and seq.size < np.iinfo(np.intp).max // 4:
        return int(fn((xa + 1).astype(np.intp), (seq + 1).astype(np.intp)))
    return _inversions(seq, u)


def _inversions(seq: np.ndarray, u: int) -> int:
    """Pairs i < j with seq[i] > seq[j], for integers in [0, u): stable radix partition
    from the most significant bit; at each bit, inversions between the two halves of
    every group are ones-before-zeros, counted with cumulative sums."""
    s: np.ndarray = seq.astype(np.int64 if u >= 2**31 else np.int32)
    n = s.size
    bits = max(1, int(u - 1).bit_length())
    starts = np.zeros(1, dtype=np.int64)
    total = 0
    idx = np.arange(n, dtype=np.int64)
    for b in range(bits - 1, -1, -1):
        bit = ((s >> b) & 1).astype(np.int64)
        c1 = np.cumsum(bit) - bit  # ones strictly before each position
        sizes = np.diff(np.append(starts, n))
        g_c1 = np.repeat(c1[starts], sizes)  # ones before the group start
        ones_in_group_before = c1 - g_c1
        zero = bit == 0
        total += int(ones_in_group_before[zero].sum())
        zeros_per_group = np.add.reduceat(1 - bit, starts) if starts.size else np.zeros(0)
        g_start = np.repeat(starts, sizes)
        pos = np.where(
            zero,
            idx - ones_in_group_before,
            g_start + np.repeat(zeros_per_group, sizes) + ones_in_group_before,
        )
        out = np.empty_like(s)
        out[pos] = s
        s = out
        new = starts + zeros_per_group
        starts = np.unique(np.concatenate([starts, new[new < np.append(starts[1:], n)]]))
    return total


def pair_counts_brute(a: Sequence[Any], b: Sequence[Any]) -> PairCounts:
    """R, S, P, Q, T by looking at every pair — O(K²); the oracle for tests.

    Examples
    --------
    >>> pair_counts_brute([1, 2, 3, 3], [1, 3, 2, 2])
    PairCounts(R=3, S=2, P=0, Q=0, T=1, objects=4)
    """
    a, b = list(a), list(b)
    R = S = P = Q = T = 0
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            fa = (a[i] > a[j]) - (a[i] < a[j])
            gb = (b[i] > b[j]) - (b[i] < b[j])
            if fa and gb:
                if fa == gb:
                    R += 1
                else:
                    S += 1
            elif fa:
                P += 1
            elif gb:
                Q += 1
            else:
                T += 1
    return PairCounts(R, S, P, Q, T, len(a))
