"""Rank measures from the score table: AUC (and Hand & Till's M), APR, AP, 11-point AP,
break-even point and lift.

All take a :class:`ScoreTable` (distinct scores in increasing order with positive and
negative weight at each), so one sort serves them all. Tied scores are handled exactly:

* AUC counts a tied positive/negative pair as 1/2 (Mann–Whitney);
* ``apr`` (Caruana's perf), BEP and lift take the expected value over random orderings
  of tied cases; ``ap`` (scikit-learn) makes each group of tied scores one threshold.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab._kernels.routing import use_compiled
from measurelab._util.validation import warn_undefined
from measurelab.measures._block import in_row_chunks, quiet_div, row_integer, searchsorted_rows
from measurelab.measures._fused import block_lookup, lookup
from measurelab.measures._rules import RECALL_TOL
from measurelab.measures.base import measure
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

_BLOCK = 1 << 16  # expanded cases handled at once by apr (bounds memory; cache-sized is fastest)


def _need_both_classes(t: ScoreTable, name: str) -> bool:
    if t.n_pos <= 0 or t.n_neg <= 0:
        which = "positive" if t.n_pos <= 0 else "negative"
        warn_undefined(f"{name} is undefined with no {which} examples; returning NaN", 4)
        return False
    return True


def auc_numerator(t: ScoreTable) -> float:
    """Mann–Whitney U of the positives: Σ over positive/negative pairs of
    [pos > neg] + ½[pos = neg] (weighted). Exact for integer weights below 2**53."""
    fused = lookup(t, "auc_num")
    if fused is not None:
        return float(fused)
    neg_below = np.cumsum(t.neg) - t.neg
    return float(np.dot(t.pos, neg_below + 0.5 * t.neg))


def _hand_till(stats: Any, average: str | None = "macro") -> Any:
    """Multi-class AUC: Hand & Till's M (average='macro', scikit-learn's ``multi_class='ovo'``),
    the prevalence-weighted one-vs-rest AUC of Provost & Domingos (average='weighted'), the
    AUC of all (case, class) pairs pooled (average='micro', scikit-learn's micro ``'ovr'``) or
    the one-vs-rest AUC of each class in label order (average=None)."""
    table = stats.table
    if table is None:
        raise ValueError("multi-class AUC needs class scores (a 2-d y_score)")
    if average == "micro":
        return auc(table.micro_table())
    if average is None:
        return np.array([auc(table.ovr_table(i)) for i in range(table.k)])
    w = table.class_weights()
    present = [i for i in range(table.k) if w[i] > 0]
    if average == "weighted":
        vals = [auc(table.ovr_table(i)) for i in present]
        return float(np.average(vals, weights=w[present]))
    pairs = [(i, j) for a, i in enumerate(present) for j in present[a + 1 :]]
    if not pairs:
        warn_undefined("multi-class AUC needs at least two classes present; returning NaN")
        return math.nan
    vals = [(auc(table.pair_table(i, j)) + auc(table.pair_table(j, i))) / 2 for i, j in pairs]
    return float(np.mean(vals))


@in_row_chunks
def auc_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`auc` (the formula is in its docstring)."""
    walked = block_lookup(blk, "auc_num")
    if walked is not None:
        n_pos, n_neg = blk.n_pos, blk.n_neg
        return np.where((n_pos > 0) & (n_neg > 0), quiet_div(walked, n_pos * n_neg), np.nan)
    neg_below = np.cumsum(blk.neg, axis=1) - blk.neg
    num = np.einsum("ij,ij->i", blk.pos, neg_below + 0.5 * blk.neg)
    n_pos, n_neg = blk.n_pos, blk.n_neg
    return np.where((n_pos > 0) & (n_neg > 0), quiet_div(num, n_pos * n_neg), np.nan)


@measure(
    "auc",
    kind="rank",
    statistic="scores",
    aliases=("roc_auc", "auroc", "mann_whitney_auc"),
    multiclass=_hand_till,
    source="Hand & Till 2001; Ling 2003; Caruana 2004 ROC",
    exact=True,
    block=auc_block,
    walk_output="auc_num",
)
def auc(t: ScoreTable) -> float:
    """Area under the ROC curve: P(positive scores above negative), ties count ½.

    Equals (Σ mid-ranks of positives − n₁(n₁+1)/2) / (n₀n₁) and the trapezoid area under
    the ROC curve. Multi-class: Hand & Till's M (``average='macro'``), the
    prevalence-weighted one-vs-rest AUC (``average='weighted'``), the pooled one-vs-rest
    AUC (``average='micro'``) or per-class one-vs-rest AUCs (``average=None``).

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> ml.metrics.auc([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.9])    # one tied pair counts 1/2
    0.875
    """
    if not _need_both_classes(t, "AUC"):
        return math.nan
    return auc_numerator(t) / (t.n_pos * t.n_neg)


def _desc(t: ScoreTable) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Descending view: positives and cases per group, and before each group (cached)."""
    return t.desc_groups


def _tie_group_sum(p: float, m: float, pa: float, a: float) -> float:
    """Expected sum of precisions at the positives of one tie group (see :func:`apr`):
    (p/m)·Σ_{q=1..m} (pa + 1 + (q−1)(p−1)/(m−1)) / (a + q), summed in slices."""
    mm = int(m)
    d = (p - 1) / (m - 1)
    s = 0.0
    for lo in range(1, mm + 1, _BLOCK):
        q = np.arange(lo, min(lo + _BLOCK, mm + 1), dtype=np.float64)
        s += float(np.sum((pa + 1 + (q - 1) * d) / (a + q)))
    return p / m * s


#: tie groups of more cases than this: apr's block form sums them in closed form
_APR_DIRECT_MAX = 64
#: Bernoulli-number coefficients B_2k / 2k of the asymptotic series of digamma
_PSI_COEF = (1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132)
_ATANH_TERMS = 18  # u ≤ 1/3: u^37 / 37 < 1e-19


def _x_minus_log1p(z: np.ndarray) -> np.ndarray:
    """z − log(1 + z) for 0 < z ≤ 1 without cancellation: with u = z / (2 + z),
    log(1 + z) = 2·atanh(u), so z − log(1 + z) = z²/(2 + z) − 2·Σ_{k≥1} u^(2k+1)/(2k+1)."""
    u = z / (2.0 + z)
    u2 = u * u
    term = u * u2
    tail = np.zeros_like(z)
    for k in range(1, _ATANH_TERMS + 1):
        tail += term / (2 * k + 1)
        term = term * u2
    return z * z / (2.0 + z) - 2.0 * tail


def _harmonic_sums(x: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """D = Σ_{j=0}^{m−1} 1/(x + j) and T = Σ_{j=0}^{m−1} j/(x + j) (x ≥ 1, m > 64), each to
    a few units of rounding.

    D = ψ(x + m) − ψ(x); T = m − x·D, which cancels when x ≫ m: there (x > m) both come
    from the asymptotic series of ψ, differenced term by term (log1p, expm1)."""
    from scipy.special import digamma

    d = np.empty_like(x)
    t = np.empty_like(x)
    near = x <= m
    if near.any():
        xn, mn = x[near], m[near]
        d[near] = digamma(xn + mn) - digamma(xn)
        t[near] = mn - xn * d[near]
    far = ~near
    if far.any():
        xf, mf = x[far], m[far]
        z = mf / xf
        lg = np.log1p(z)
        y = xf + mf
        dd = lg + mf / (2.0 * xf * y)
        tt = xf * _x_minus_log1p(z) - mf / (2.0 * y)
        for k, coef in enumerate(_PSI_COEF, start=1):
            shrink = -np.expm1(-2 * k * lg)  # 1 − (x/y)^2k
            dd += coef * shrink / xf ** (2 * k)
            tt -= coef * shrink / xf ** (2 * k - 1)
        d[far], t[far] = dd, tt
    return d, t


@in_row_chunks
def apr_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`apr` (the formula is in its docstring)."""
    walked = block_lookup(blk, "apr_sum")
    if walked is not None:
        return np.where(blk.n_pos > 0, quiet_div(walked, blk.n_pos), np.nan)
    n_pos = blk.n_pos
    ok = (n_pos > 0) & row_integer(blk)
    if not ok.any():
        return np.full(blk.n_blocks, np.nan)
    # the groups with positives; whole counts, so the sums before each group (taken from
    # the shared cumulative sums in decreasing score order) are exact in any order
    r = blk.size
    sel = blk.pos > 0
    if not ok.all():
        sel &= ok[:, None]
    flat = np.flatnonzero(sel)
    bi = flat // r
    desc = flat + (r - 1) - 2 * (flat - bi * r)  # the same group in decreasing order
    pe = np.take(blk.pos, flat)
    me = pe + np.take(blk.neg, flat)
    cp = np.take(blk.cum_pos_desc, desc)
    pae = cp - pe
    ae = (cp + np.take(blk.cum_neg_desc, desc)) - me
    c = pae + 1
    d = np.zeros(pe.shape)
    np.divide(pe - 1, me - 1, out=d, where=me > 1)  # m = 1: only q = 1, d unused
    sums = np.empty(pe.shape)
    # groups of up to _APR_DIRECT_MAX cases: Σ_q (c + (q−1)d)/(a + q) summed term by term,
    # over the groups with m ≥ q (a prefix once the groups are sorted by decreasing m)
    small = np.flatnonzero(me <= _APR_DIRECT_MAX)
    if small.size:
        key = (_APR_DIRECT_MAX - me[small]).astype(np.uint8)
        small = small[np.argsort(key, kind="stable")]  # a radix sort
        ms = me[small]
        cs, ds, as_ = c[small], d[small], ae[small]
        acc = np.zeros(small.size)
        n_at_least = np.searchsorted(-ms, -np.arange(1, int(ms[0]) + 1), side="right")
        for q, k in enumerate(n_at_least.tolist(), start=1):
            acc[:k] += (cs[:k] + (q - 1) * ds[:k]) / (as_[:k] + q)
        sums[small] = acc
    big = np.flatnonzero(me > _APR_DIRECT_MAX)
    if big.size:  # Σ = c·D + d·T (both terms non-negative: no cancellation)
        hd, ht = _harmonic_sums(ae[big] + 1, me[big])
        sums[big] = c[big] * hd + d[big] * ht
    total = np.bincount(bi, weights=pe / me * sums, minlength=blk.n_blocks)
    return np.where(ok, quiet_div(total, n_pos), np.nan)


@measure(
    "apr",
    kind="rank",
    statistic="scores",
    aliases=("perf_apr",),
    multiclass="ovr",
    source="Caruana 2004 APR (perf 5.12: mean precision at each positive, ties in expectation)",
    block=apr_block,
    walk_output="apr_sum",
)
def apr(t: ScoreTable) -> float:
    """Average precision as Caruana's ``perf`` computes it: mean over positives of the
    precision at the positive's rank, expected over random orderings of tied scores.

    Within a tie group of m cases with p positives, preceded by A cases with Pa positives,
    the expected sum of precisions is (p/m)·Σ_{q=1..m} (Pa + 1 + (q−1)(p−1)/(m−1)) / (A+q).
    Needs integer (frequency) weights. Equals ``ap`` when no scores are tied.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.apr([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])    # (1/1 + 2/3) / 2
    0.8333333333333333
    >>> ml.metrics.apr([1, 0], [0.5, 0.5])    # tie: positive first or second, (1 + 1/2) / 2
    0.75
    """
    if t.n_pos <= 0:
        warn_undefined("APR is undefined with no positive examples; returning NaN")
        return math.nan
    if not t.is_integer:
        warn_undefined("APR needs integer (frequency) weights; returning NaN")
        return math.nan
    fused = lookup(t, "apr_sum")
    if fused is not None:
        return fused / t.n_pos
    p, m, pa, a = _desc(t)
    if use_compiled("apr_groups", t.total):
        # few rows, many cases (large tie groups): the walk's per-group loop, compiled
        # (``_kernels.fused.apr_total``: the same formula, summed in order), instead of
        # expanding every case into numpy temporaries
        from measurelab._kernels.fused import apr_total

        return apr_total(p, m, pa, a) / t.n_pos
    has = p > 0
    single = has & (m == 1)
    total = float(np.sum(p[single] * (pa[single] + 1) / (a[single] + 1)))
    multi = np.flatnonzero(has & (m > 1))
    if multi.size:
        mi = m[multi].astype(np.int64)
        ends = np.cumsum(mi)
        start = 0
        while start < multi.size:
            # take groups until the expanded size reaches the block size (at least one)
            stop = max(start + 1, int(np.searchsorted(ends, ends[start] - mi[start] + _BLOCK)))
            if mi[start] > _BLOCK:  # one huge tie group: sum it in slices (bounded memory)
                j = multi[start]
                total += _tie_group_sum(p[j], m[j], pa[j], a[j])
                start += 1
                continue
            g = multi[start:stop]
            mg = mi[start:stop]
            offs = np.cumsum(mg) - mg
            idx = np.repeat(np.arange(g.size), mg)
            q = np.arange(int(mg.sum()), dtype=np.float64) - offs[idx] + 1
            pg, mf, pag, ag = p[g], m[g], pa[g], a[g]
            num = pag[idx] + 1 + (q - 1) * ((pg - 1) / (mf - 1))[idx]
            sums = np.add.reduceat(num / (ag[idx] + q), offs)
            total += float(np.sum(pg / mf * sums))
            start = stop
    return total / t.n_pos


@in_row_chunks
def ap_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`ap` (the formula is in its docstring)."""
    walked = block_lookup(blk, "ap_sum")
    if walked is not None:
        return np.where(blk.n_pos > 0, quiet_div(walked, blk.n_pos), np.nan)
    cp, cn = blk.cum_pos_desc, blk.cum_neg_desc
    p = blk.pos_desc
    prec = np.zeros(cp.shape)
    np.divide(cp, cp + cn, out=prec, where=p > 0)
    num = np.einsum("ij,ij->i", p, prec)
    n_pos = blk.n_pos
    return np.where(n_pos > 0, quiet_div(num, n_pos), np.nan)


@measure(
    "ap",
    kind="rank",
    statistic="scores",
    aliases=("average_precision",),
    multiclass="ovr",
    source="scikit-learn average_precision_score (tied scores form one threshold)",
    block=ap_block,
    walk_output="ap_sum",
)
def ap(t: ScoreTable) -> float:
    """Average precision as scikit-learn computes it: Σ_k (R_k − R_{k−1})·P_k over the
    distinct thresholds (a group of tied scores is one step).

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.ap([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    0.8333333333333333
    >>> ml.metrics.ap([1, 0], [0.5, 0.5])
    0.5
    """
    if t.n_pos <= 0:
        warn_undefined("AP is undefined with no positive examples; returning NaN")
        return math.nan
    fused = lookup(t, "ap_sum")
    if fused is not None:
        return float(fused / t.n_pos)
    cp, cn = t.cum_pos_desc, t.cum_neg_desc
    has = t.pos[::-1] > 0  # only thresholds that add recall (zero-weight rows add nothing)
    return float(np.dot(t.pos[::-1][has], cp[has] / (cp[has] + cn[has])) / t.n_pos)


@in_row_chunks
def ap11_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`ap11` (the formula is in its docstring)."""
    walked = block_lookup(blk, "ap11_vals")
    if walked is not None:
        return np.where(blk.n_pos > 0, walked.mean(axis=1), np.nan)
    n_pos = blk.n_pos
    out = np.full(blk.n_blocks, np.nan)
    if blk.size == 0:
        return out
    cp, cn = blk.cum_pos_desc, blk.cum_neg_desc
    precision = np.full(cp.shape, -np.inf)  # rows of zero weight are no operating point
    np.divide(cp, cp + cn, out=precision, where=(blk.pos_desc + blk.neg_desc) != 0)
    best = np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]
    levels = np.arange(11)
    total = cp[:, -1:]
    need = np.where(row_integer(blk)[:, None], levels * total,
                    levels * total * (1.0 - RECALL_TOL))
    first = searchsorted_rows(lambda b, i: cp[b, i] * 10.0, need, cp.shape[1])  # (B, 11)
    r = cp.shape[1]
    got = np.take_along_axis(best, np.minimum(first, r - 1), axis=1)
    vals = np.where(first < r, got, 0.0)
    ok = n_pos > 0
    out[ok] = vals[ok].mean(axis=1)
    return out


@measure(
    "ap11",
    kind="rank",
    statistic="scores",
    aliases=("ap_11point",),
    multiclass="ovr",
    source="11-point interpolated average precision (IR tradition)",
    block=ap11_block,
    walk_output="ap11_vals",
)
def ap11(t: ScoreTable) -> float:
    """11-point interpolated average precision: mean over r = 0, 0.1, …, 1 of the largest
    precision at any threshold whose recall is at least r (0 if there is none).

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.ap11([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]), 6)
    0.848485
    """
    if t.n_pos <= 0:
        warn_undefined("11-point AP is undefined with no positive examples; returning NaN")
        return math.nan
    fused = lookup(t, "ap11_vals")
    if fused is not None:
        return float(fused.mean())
    cp, cn = t.cum_pos_desc, t.cum_neg_desc
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = cp / (cp + cn)
    # a row of zero weight is no operating point (it adds no case): it never raises the
    # best precision (and its 0/0 above the first case is not a value)
    empty = ((t.pos + t.neg) == 0)[::-1]
    precision = np.where(empty, -np.inf, precision)
    # best precision at recall >= R_k: suffix maximum over thresholds k, k+1, ...
    best = np.maximum.accumulate(precision[::-1])[::-1]
    first = _first_at_recall_levels(cp, t.is_integer)
    vals = np.where(first < cp.size, best[np.minimum(first, cp.size - 1)], 0.0)
    return float(vals.mean())


def _first_at_recall_levels(cp: np.ndarray, integer: bool) -> np.ndarray:
    """For i = 0..10, the first threshold k with recall ≥ i/10: 10·tp_k ≥ i·P.

    Integer weights: decided exactly (the float sums of whole numbers are exact). Real
    weights: the table's sums carry rounding that depends on the order of summation
    (whole data vs chunks), so a recall within a relative 2^-30 below a level counts as
    reaching it; a recall that equals the level in exact arithmetic of the weights (ten
    cases of weight 0.1) reaches it in every order.
    """
    levels = np.arange(11)
    total = cp[-1]  # the same sums on both sides: recall 1 at the last threshold
    need = levels * total if integer else levels * total * (1.0 - RECALL_TOL)
    return np.searchsorted(cp * 10.0, need, side="left")


def expected_tp_at(t: ScoreTable, k: float) -> float:
    """Expected positives among the top ``k`` cases (ties in random order; k may be
    fractional, which interpolates linearly inside the straddling tie group)."""
    if k <= 0:
        return 0.0
    fused = lookup(t, ("tp_at", float(k)))
    if fused is not None:
        return float(fused)
    p, m, pa, a = _desc(t)
    g = int(np.searchsorted(a + m, k, side="left"))
    if g >= p.size:
        return float(t.n_pos)
    return float(pa[g] + (k - a[g]) * p[g] / m[g])


def expected_tp_at_block(blk: TableBlock, k: np.ndarray) -> np.ndarray:
    """Block form of :func:`expected_tp_at`: ``k`` (B,) cases per table."""
    k = np.broadcast_to(np.asarray(k, dtype=np.float64), (blk.n_blocks,))
    r = blk.size
    if r == 0:
        return np.zeros(blk.n_blocks)
    pos, neg, cp, cn = blk.pos, blk.neg, blk.cum_pos_desc, blk.cum_neg_desc

    def groups_at(rows: np.ndarray, i: np.ndarray) -> tuple[np.ndarray, ...]:
        """p, m, pa, a of :attr:`TableBlock.desc_groups` at (rows, i), by the same
        operations (so the same bits), without the full (B, R) arrays."""
        p = pos[rows, r - 1 - i]
        m = p + neg[rows, r - 1 - i]
        c_p = cp[rows, i]
        return p, m, c_p - p, (c_p + cn[rows, i]) - m

    def a_plus_m(rows: np.ndarray, i: np.ndarray) -> np.ndarray:
        _, m, _, a = groups_at(rows, i)
        return a + m

    g = searchsorted_rows(a_plus_m, k, r)
    p, m, pa, a = groups_at(np.arange(blk.n_blocks), np.minimum(g, r - 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        tp = pa + (k - a) * p / m
    out = np.where(g >= r, blk.n_pos, tp)
    return np.where(k <= 0, 0.0, out)


@in_row_chunks
def bep_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`bep` (the formula is in its docstring)."""
    n_pos = blk.n_pos
    tp = block_lookup(blk, ("tp_at", "bep"))
    if tp is None:
        tp = expected_tp_at_block(blk, n_pos)
    return np.where(n_pos > 0, quiet_div(tp, n_pos), np.nan)


@measure(
    "bep",
    kind="rank",
    statistic="scores",
    aliases=("break_even_point", "r_precision"),
    multiclass="ovr",
    source="Caruana 2004 BEP (cutoff at k = number of positives)",
    block=bep_block,
    walk_output="tp_at_n_pos",
)
def bep(t: ScoreTable) -> float:
    """Precision–recall break-even point: precision (= recall) when the top P cases are
    predicted positive, P the number of positives; ties in expectation.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.bep([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    0.5
    """
    if t.n_pos <= 0:
        warn_undefined("BEP is undefined with no positive examples; returning NaN")
        return math.nan
    return expected_tp_at(t, t.n_pos) / t.n_pos


def _check_q(q: float) -> None:
    if not 0 < q <= 1:
        from measurelab.exceptions import MeasurelabError

        raise MeasurelabError(f"lift needs 0 < q <= 1, got q={q!r}")


@in_row_chunks
def lift_block(blk: TableBlock, q: float = 0.25) -> np.ndarray:
    """Block form of :func:`lift` (the formula is in its docstring)."""
    _check_q(q)
    n_pos = blk.n_pos
    tp = block_lookup(blk, ("tp_at", "lift", float(q)))
    if tp is None:
        tp = expected_tp_at_block(blk, q * blk.total)
    return np.where(n_pos > 0, quiet_div(tp, n_pos) / q, np.nan)


@measure(
    "lift",
    kind="rank",
    statistic="scores",
    range=(0.0, math.inf),
    aliases=("lft",),
    multiclass="ovr",
    main_param="q",
    source="Caruana 2004 LFT (q = 0.25)",
    block=lift_block,
    walk_output="tp_at_q",
)
def lift(t: ScoreTable, q: float = 0.25) -> float:
    """Lift at q: (fraction of all positives among the top q·N cases) / q; ties in expectation.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.lift([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], q=0.25)
    2.0
    """
    _check_q(q)
    if t.n_pos <= 0:
        warn_undefined("lift is undefined with no positive examples; returning NaN")
        return math.nan
    return expected_tp_at(t, q * t.total) / t.n_pos / q
