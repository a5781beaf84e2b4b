"""Every rank and probability measure of a large score table from one compiled pass.

The measures in ``ranking.py`` and ``probability.py`` each walk the score table with
numpy (cumulative sums, temporaries as large as the table). On a large table
(:func:`use_fused`) one compiled walk (``_fused_kernel.walk``, numba) computes all their
sums at once — the AUC numerator, AP's and APR's sums (APR with its expectation over tied
orders), the 11 levels of 11-point AP, the expected positives among the top k (BEP,
lift@q), the squared-error sum, the ECE bins and the confusion counts at the
threshold — and keeps them on the table. Each measure function asks :func:`lookup`
for its sum first and finishes with its own formula, so the measures stay individually
callable and a value never depends on which route computed it beyond rounding:

* counts, 11-point AP, BEP and lift repeat numpy's operations in numpy's order (bit for
  bit);
* MXE keeps numpy's route (its vectorized ``log`` beats a call per row);
* AUC, AP, APR and the probability sums add in walk order instead of numpy's pairwise
  order: exact on integer weights (every partial sum is a whole or half number below
  2**53), within a few units of rounding otherwise (docs/DECISIONS.md).

CAL is not part of the walk: it is :func:`measurelab.measures.calibration.cal`.

Small tables keep the numpy route, so numba is never imported for them (a command line
run on a small file stays fast); the compiled code is cached on disk.

Examples
--------
>>> import numpy as np
>>> from measurelab.stats.scoretable import ScoreTable
>>> t = ScoreTable.from_arrays([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
>>> sums = run(t, ks=[2.0])
>>> sums["auc_num"], sums[("tp_at", 2.0)]
(3.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.scoretable import ScoreTable

#: distinct scores from which a table is evaluated by the compiled walk. The route depends
#: on the table's size alone, never on what the process loaded before, so the same table
#: gives the same last bit in every process (the two routes agree to rounding only on the
#: real-valued sums: AP, APR, Brier, ECE); 2**18 as the compiled CAL
#: (``calibration.COMPILED_MIN_CASES``): a bootstrap of 10**6 distinct scores walks compiled.
FUSED_MIN_SIZE = 1 << 18

_MEMO = "_fused_sums"


def use_fused(t: ScoreTable) -> bool:
    """Whether ``t`` is large enough for the compiled walk (numba loads on first use).

    Examples
    --------
    >>> from measurelab.stats.scoretable import ScoreTable
    >>> use_fused(ScoreTable.from_arrays([1, 0], [0.9, 0.2]))
    False
    """
    return t.size >= FUSED_MIN_SIZE and kernel_available("measurelab._kernels.fused")


def kernel_available(module: str) -> bool:
    """Import a compiled kernel module (numba loads with it); False when numba is missing,
    and the numpy route is used instead.

    Examples
    --------
    >>> kernel_available("measurelab.measures._no_such_kernel")
    False
    """
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def run(
    t: ScoreTable,
    *,
    ks: Iterable[float] = (),
    threshold: float | None = None,
    inclusive: bool = False,
    n_bins: int = 10,
    apr: bool = True,
) -> dict[Any, Any]:
    """Walk ``t`` once and keep the sums on it (see the module docstring); returns them.

    Parameters
    ----------
    t : ScoreTable
    ks : case counts k for the expected positives among the top k (BEP: the number of
        positives; lift@q: q times the total)
    threshold, inclusive : also the confusion counts at this threshold
    n_bins : ECE bins (0: none)
    apr : also APR's sum (when the weights are whole numbers)
    """
    from measurelab._kernels.fused import walk
    from measurelab.measures.ranking import _RECALL_TOL

    n_pos = t.n_pos
    karr = np.array(sorted({float(k) for k in ks if k > 0}), dtype=np.float64)
    k_top = -1
    if threshold is not None:
        i = int(np.searchsorted(t.scores, threshold, side="left" if inclusive else "right"))
        k_top = t.size - i
    probs = t.size > 0 and t.scores[0] >= 0.0 and t.scores[-1] <= 1.0
    nb = int(n_bins) if probs and int(n_bins) > 0 else 0
    do_apr = bool(apr and n_pos > 0 and t.is_integer)
    (auc_num, ap_sum, apr_sum, ap11_vals, tp_at, tp_top, fp_top, sq, ws,
     wp) = walk(t.scores, t.pos, t.neg, n_pos, karr, k_top, nb, do_apr,
                1.0 if t.is_integer else 1.0 - _RECALL_TOL, np.empty(0, dtype=np.int64))
    memo: dict[Any, Any] = t.__dict__.setdefault(_MEMO, {})
    memo.update(auc_num=auc_num, ap_sum=ap_sum, ap11_vals=ap11_vals, sq_sum=sq)
    if do_apr:
        memo["apr_sum"] = apr_sum
    for k, v in zip(karr.tolist(), tp_at.tolist(), strict=True):
        memo[("tp_at", k)] = v
    if nb:
        memo[("ece", nb)] = (ws, wp)
    if k_top >= 0:
        tp = float(tp_top) if k_top > 0 else 0.0
        fp = float(fp_top) if k_top > 0 else 0.0
        memo[("counts", float(threshold), inclusive)] = BinaryCounts(
            tp, fp, n_pos - tp, t.n_neg - fp)
    return memo


def lookup(t: ScoreTable, key: Any) -> Any:
    """A sum of the compiled walk, or None (then the measure uses its numpy route).

    A large table not yet walked is walked now with the default parameters (BEP,
    lift@0.25, ECE with 10 bins).
    """
    memo = t.__dict__.get(_MEMO)
    if memo is None:
        if not use_fused(t):
            return None
        memo = run(t, ks=(t.n_pos, 0.25 * t.total))
    return memo.get(key)


def prime(stats: Any, measures: Iterable[Any]) -> None:
    """Walk the table of a binary statistics bundle once for all ``measures`` (their
    lift and ECE parameters, BEP, the counts at the threshold), when it is large."""
    t = getattr(stats, "table", None)
    if not isinstance(t, ScoreTable):
        return
    if not use_fused(t):
        return
    from measurelab.measures import probability, ranking

    ks: list[float] = []
    n_bins = 0  # ECE bins only when ECE is asked for
    apr = False
    for m in measures:
        f = getattr(m, "formula", None)
        if f is ranking.lift:
            q = float(m.params.get("q", 0.25))
            if 0 < q <= 1:
                ks.append(q * t.total)
        elif f is ranking.bep:
            ks.append(t.n_pos)
        elif f is ranking.apr:
            apr = True
        elif f is probability.ece:
            n_bins = int(m.params.get("n_bins", 10))
    with_counts = getattr(stats, "given_counts", None) is None
    memo = run(t, ks=ks, threshold=stats.threshold if with_counts else None,
               inclusive=stats.inclusive, n_bins=n_bins, apr=apr)
    if with_counts and "counts" not in stats.__dict__:
        stats.__dict__["counts"] = memo[("counts", float(stats.threshold), stats.inclusive)]


# ------------------------------------------------------------------------- blocks
_BLOCK_MEMO = "_walk"


def walk_block(blk: Any, *, lift_qs: Iterable[float] = (), bep: bool = False,
               n_bins: int = 0, apr: bool = False) -> dict[Any, Any] | None:
    """Walk every table of a :class:`~measurelab.stats.block.TableBlock` in one compiled
    loop (``_fused_kernel.walk_block``) and keep the sums on the block, where the block
    formulas find them (:func:`block_lookup`); None when numba is missing (the block
    formulas then use their numpy route).

    Examples
    --------
    >>> from measurelab.stats.block import TableBlock
    >>> blk = TableBlock(np.array([0.2, 0.7]), np.array([[0.0, 1], [1, 1]]),
    ...                  np.array([[1.0, 0], [0, 1]]), integer=True)
    >>> walk_block(blk, bep=True)["auc_num"].tolist()
    [1.0, 0.5]
    """
    if not kernel_available("measurelab._kernels.fused"):
        return None
    from measurelab._kernels.fused import walk_block as kernel
    from measurelab.measures.ranking import _RECALL_TOL

    b = blk.n_blocks
    n_pos = np.ascontiguousarray(blk.n_pos, dtype=np.float64)
    keys: list[Any] = []
    cols: list[np.ndarray] = []
    if bep:
        keys.append(("tp_at", "bep"))
        cols.append(n_pos)
    for q in sorted({float(q) for q in lift_qs if 0 < float(q) <= 1}):
        keys.append(("tp_at", "lift", q))
        cols.append(q * blk.total)
    ks = np.stack(cols, axis=1) if cols else np.zeros((b, 0))
    order = np.argsort(ks, axis=1, kind="stable")
    ks_sorted = np.ascontiguousarray(np.take_along_axis(ks, order, axis=1))
    probs = blk.size > 0 and blk.scores[0] >= 0.0 and blk.scores[-1] <= 1.0
    nb = int(n_bins) if probs and int(n_bins) > 0 else 0
    from measurelab.measures._block import row_integer

    integer = row_integer(blk)
    do_apr = np.ascontiguousarray(bool(apr) & integer & (n_pos > 0))
    level = np.where(integer, 1.0, 1.0 - _RECALL_TOL)
    pos = np.ascontiguousarray(blk.pos, dtype=np.float64)
    neg = np.ascontiguousarray(blk.neg, dtype=np.float64)
    (auc, ap, apr_s, vals, tp_at, _tp, _fp, sq, ws, wp) = kernel(
        np.ascontiguousarray(blk.scores, dtype=np.float64), pos, neg, n_pos, ks_sorted,
        -1, nb, do_apr, level, _ece_bins_of(blk, nb))
    tp_back = np.empty_like(tp_at)
    np.put_along_axis(tp_back, order, tp_at, axis=1)
    memo: dict[Any, Any] = {"auc_num": auc, "ap_sum": ap, "ap11_vals": vals, "sq_sum": sq,
                            "apr_sum": np.where(do_apr, apr_s, np.nan)}
    for j, key in enumerate(keys):
        memo[key] = tp_back[:, j]
    if nb:
        memo[("ece", nb)] = (ws, wp)
    blk.__dict__[_BLOCK_MEMO] = memo
    return memo


def _ece_bins_of(blk: Any, n_bins: int) -> np.ndarray:
    """Each row's ECE bin (``probability._ece_bins``, the walk's own rule), once per
    model's scores."""
    if not n_bins:
        return np.empty(0, dtype=np.int64)

    from measurelab.measures.probability import _ece_bins

    return blk.score_cached(f"ece_bins_{n_bins}", lambda s: _ece_bins(s, n_bins))


def block_lookup(blk: Any, key: Any) -> Any:
    """A sum of :func:`walk_block` kept on the block, or None."""
    memo = blk.__dict__.get(_BLOCK_MEMO)
    return None if memo is None else memo.get(key)


def prime_block(stats: Any, measures: Iterable[Any]) -> None:
    """Walk a :class:`~measurelab.stats.block.BlockStats`'s tables once for all
    ``measures`` (their lift and ECE parameters, BEP, APR), when numba is there."""
    from measurelab.measures import probability, ranking

    qs: list[float] = []
    bep = apr = False
    n_bins = 0
    for m in measures:
        f = getattr(m, "formula", None)
        if f is ranking.lift:
            qs.append(float(m.params.get("q", 0.25)))
        elif f is ranking.bep:
            bep = True
        elif f is ranking.apr:
            apr = True
        elif f is probability.ece:
            n_bins = int(m.params.get("n_bins", 10))
    walk_block(stats.table, lift_qs=qs, bep=bep, n_bins=n_bins, apr=apr)
