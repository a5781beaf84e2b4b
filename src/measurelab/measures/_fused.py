"""Every rank and probability measure of a large score table from one compiled pass.

The measures in ``ranking.py`` and ``probability.py`` each walk the score table with
numpy (cumulative sums, temporaries as large as the table). On a large table
(:func:`use_fused`) one compiled walk (``_kernels.fused.walk``, numba) computes all their
sums at once — the AUC numerator, AP's and APR's sums (APR with its expectation over tied
orders), the 11 levels of 11-point AP, the expected positives among the top k (BEP,
lift@q), the squared-error sum, the ECE bins and the confusion counts at the
threshold — and keeps them in the table's memo (the statistic itself never changes). Each
measure function asks :func:`lookup` for its sum first and finishes with its own formula,
so the measures stay individually callable and a value never depends on which route
computed it beyond rounding:

* counts, 11-point AP, BEP and lift repeat numpy's operations in numpy's order (bit for
  bit);
* MXE keeps numpy's route (its vectorized ``log`` beats a call per row);
* AUC, AP, APR and the probability sums add in walk order instead of numpy's pairwise
  order: exact on integer weights (every partial sum is a whole or half number below
  2**53), within a few units of rounding otherwise (docs/DECISIONS.md).

Which output a measure reads is data on the measure (``Measure.walk_output``: 'tp_at_q'
for lift, 'ece' for ECE, ...), so the walk knows what to compute for a list of measures
(:func:`walk_parameters`) without importing the family modules, and the shared rules
(recall tolerance, ECE bins) live below both in ``_rules.py``.

CAL is not part of the walk: it is :func:`measurelab.measures.calibration.cal.cal`.

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

from measurelab._kernels.routing import use_compiled
from measurelab.measures._block import row_integer
from measurelab.measures._rules import BLOCK_WALK, TABLE_WALK, ece_bins, recall_level_factor
from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.scoretable import ScoreTable


def use_fused(t: ScoreTable) -> bool:
    """Whether ``t`` is large enough for the compiled walk (numba loads on first use): the
    routing policy's ``"fused_walk"`` route (:data:`measurelab._kernels.routing.ROUTES`),
    by the number of distinct scores alone, so the same table gives the same last bit in
    every process (the two routes agree to rounding only on the real-valued sums: AP, APR,
    Brier, ECE).

    Examples
    --------
    >>> from measurelab.stats.scoretable import ScoreTable
    >>> use_fused(ScoreTable.from_arrays([1, 0], [0.9, 0.2]))
    False
    """
    return use_compiled("fused_walk", t.size)


def walk_parameters(measures: Iterable[Any], n_pos: float, total: float
                    ) -> tuple[list[float], list[float], bool, bool, int]:
    """What the walk must compute for ``measures``, from the output each reads
    (:attr:`Measure.walk_output <measurelab.measures.base.Measure>`): the case counts k of
    the expected positives among the top k (lift@q: q·``total``), the lift fractions q,
    whether BEP (k = ``n_pos``) and APR's sum are asked for, and the ECE bins (0: none).

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> walk_parameters([registry.resolve("lift@0.1")[0], registry.get("bep")], 4.0, 10.0)
    ([1.0, 4.0], [0.1], True, False, 0)
    """
    ks: list[float] = []
    qs: list[float] = []
    bep = apr = False
    n_bins = 0  # ECE bins only when ECE is asked for
    for m in measures:
        out = getattr(m, "walk_output", None)
        if out == "tp_at_q":
            q = float(m.params.get("q", 0.25))
            qs.append(q)
            if 0 < q <= 1:
                ks.append(q * total)
        elif out == "tp_at_n_pos":
            bep = True
            ks.append(n_pos)
        elif out == "apr_sum":
            apr = True
        elif out == "ece":
            n_bins = int(m.params.get("n_bins", 10))
    return ks, qs, bep, apr, n_bins


def run(
    t: ScoreTable,
    *,
    ks: Iterable[float] = (),
    threshold: float | None = None,
    inclusive: bool = False,
    n_bins: int = 10,
    apr: bool = True,
) -> dict[Any, Any]:
    """Walk ``t`` once and keep the sums in its memo (see the module docstring); returns
    them.

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
                recall_level_factor(t.is_integer), np.empty(0, dtype=np.int64))
    memo: dict[Any, Any] = t.memo.setdefault(TABLE_WALK, {})
    memo.update(auc_num=auc_num, ap_sum=ap_sum, ap11_vals=ap11_vals, sq_sum=sq)
    if do_apr:
        memo["apr_sum"] = apr_sum
    for k, v in zip(karr.tolist(), tp_at.tolist(), strict=True):
        memo[("tp_at", k)] = v
    if nb:
        memo[("ece", nb)] = (ws, wp)
    if threshold is not None:  # k_top >= 0
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
    memo = t.memo.get(TABLE_WALK)
    if memo is None:
        if not use_fused(t):
            return None
        memo = run(t, ks=(t.n_pos, 0.25 * t.total))
    return memo.get(key)


def reads_walk(measures: Iterable[Any]) -> bool:
    """Whether any of ``measures`` may read the walk's sums: one that states a
    ``walk_output``, a two-level or composite measure (its parts may), or one of the
    counts (the walk gives the counts at the threshold). :func:`prime` skips the walk of a
    list of score-table measures that read none (the operating-point measures, net
    benefit): it would cost them more than their own passes over the table. A measure that
    still asks :func:`lookup` for a sum (CORP's Brier parts) has the table walked then, with
    the same result. (The bootstrap's blocks are walked as before: :func:`prime_block`.)

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> reads_walk([registry.get("pauc")]), reads_walk([registry.get("pauc"),
    ...                                                 registry.get("auc")])
    (False, True)
    """
    return any(getattr(m, "walk_output", None) is not None
               or getattr(m, "levels", None) is not None
               or getattr(m, "statistic", "scores") != "scores" for m in measures)


def prime(stats: Any, measures: Iterable[Any]) -> None:
    """Walk the table of a binary statistics bundle once for all ``measures`` (their
    lift and ECE parameters, BEP, APR, the counts at the threshold), when it is large
    and one of them reads the walk (:func:`reads_walk`).

    The sums go to the table's memo, the counts at the threshold to the bundle's (where
    :attr:`BinaryStats.counts <measurelab.stats.bundle.BinaryStats.counts>` finds them)."""
    t = getattr(stats, "table", None)
    if not isinstance(t, ScoreTable):
        return
    if not use_fused(t):
        return
    measures = list(measures)
    if not reads_walk(measures):
        return
    ks, _, _, apr, n_bins = walk_parameters(measures, t.n_pos, t.total)
    with_counts = getattr(stats, "given_counts", None) is None
    memo = run(t, ks=ks, threshold=stats.threshold if with_counts else None,
               inclusive=stats.inclusive, n_bins=n_bins, apr=apr)
    if with_counts:
        stats.memo.setdefault(
            "counts", memo[("counts", float(stats.threshold), stats.inclusive)])


# ------------------------------------------------------------------------- blocks
def walk_block(blk: Any, *, lift_qs: Iterable[float] = (), bep: bool = False,
               n_bins: int = 0, apr: bool = False) -> dict[Any, Any] | None:
    """Walk every table of a :class:`~measurelab.stats.block.TableBlock` in one compiled
    loop (``_kernels.fused.walk_block``) and keep the sums in the block's memo, where the
    block formulas find them (:func:`block_lookup`); None when the routing policy's
    ``"block_walk"`` route says numpy (numba missing): the block formulas then use their
    numpy route.

    Examples
    --------
    >>> from measurelab.stats.block import TableBlock
    >>> blk = TableBlock(np.array([0.2, 0.7]), np.array([[0.0, 1], [1, 1]]),
    ...                  np.array([[1.0, 0], [0, 1]]), integer=True)
    >>> walk_block(blk, bep=True)["auc_num"].tolist()
    [1.0, 0.5]
    """
    if not use_compiled("block_walk", blk.n_blocks):
        return None
    from measurelab._kernels.fused import walk_block as kernel

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
    integer = row_integer(blk)
    do_apr = np.ascontiguousarray(bool(apr) & integer & (n_pos > 0))
    level = np.where(integer, recall_level_factor(True), recall_level_factor(False))
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
    blk.memo[BLOCK_WALK] = memo
    return memo


def _ece_bins_of(blk: Any, n_bins: int) -> np.ndarray:
    """Each row's ECE bin (:func:`~measurelab.measures._rules.ece_bins`, the rule of
    ``calibration.binned.ece``), once per model's scores."""
    if not n_bins:
        return np.empty(0, dtype=np.int64)
    return blk.score_cached(f"ece_bins_{n_bins}", lambda s: ece_bins(s, n_bins))


def block_lookup(blk: Any, key: Any) -> Any:
    """A sum of :func:`walk_block` kept in the block's memo, or None."""
    memo = blk.memo.get(BLOCK_WALK)
    return None if memo is None else memo.get(key)


def prime_block(stats: Any, measures: Iterable[Any]) -> None:
    """Walk a :class:`~measurelab.stats.block.BlockStats`'s tables once for all
    ``measures`` (their lift and ECE parameters, BEP, APR), when numba is there."""
    _, qs, bep, apr, n_bins = walk_parameters(measures, 0.0, 0.0)
    walk_block(stats.table, lift_qs=qs, bep=bep, n_bins=n_bins, apr=apr)
