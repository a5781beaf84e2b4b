"""CAL: Caruana & Niculescu-Mizil's calibration error, the CA2 of ``perf``.

Sort the cases by score; for every window of ``window`` consecutive cases take
|mean score − fraction positive|; CAL is the mean over all windows (one window of all
cases when there are at most ``window``).

**Ties** (docs/METHODS.md#cal-ties). ``perf`` leaves the order of tied cases to its sort. CAL here
is the
*expected value of CA2 over uniformly random orderings inside every tie group*, so it is a
function of the score table (independent of input order, mergeable). A window's score sum
is fixed (tied cases share a score); its positive count is fixed except for the (at most
two) tie groups the window cuts: a cut group of m cases with p positives, k of them inside
the window, contributes a hypergeometric count H(m, p, k), independently at the two ends
(one hypergeometric when the window lies inside one group). Per window the expectation
E|S − C − X − Y| (S the score sum, C the fixed positives, X and Y the two ends) is
Σ_x P(X = x)·E|S − C − x − Y|, and E|u − Y| = u(2F(u) − 1) − 2M(u) + E[Y] from the
cumulative pmf F and the partial first moment M of Y, so a window costs O(support).
The expectation of the absolute value is not the absolute value at the expected count:
that shortcut (used before) is biased low.

Computation, by the kind of table:

* no group holds both classes (no ties, or ties only among cases of one class, as in a
  bootstrap replicate of untied data): every ordering gives the same CA2; one cumulative
  sum over the cases (or, when cases far outnumber distinct scores, a closed form over
  pieces where the window error is linear in the window position);
* otherwise: windows inside one group share one value (one hypergeometric per group);
  only the windows that cross a group boundary (at most ``window − 1`` per boundary, at most
  the number of cases in all) need distributions, computed in vectorized blocks of bounded
  memory.

Without ties the value is computed exactly as before (perf's CA2: windows are differences
of one cumulative sum of score − label).

**Large tables** (:func:`use_compiled`: the ``"cal"`` route of the routing policy, 2**18
cases) go to the compiled kernel ``_kernels.cal.window_total`` (numba, loaded on first
use): one pass, extra memory O(window), same definition. Tables of pure groups with
cases ≤ ``_EXPAND_FACTOR`` times the distinct scores (untied data included) give the numpy
value bit for bit; every other table agrees with the numpy route to rounding (observed
1e-16 to 1e-14 relative; the two routes add in different orders). Small tables keep the
numpy code above (numba is never imported for them), as does a process without numba.
"""

from __future__ import annotations

import math

import numpy as np

from measurelab._kernels.routing import use_compiled as _route_compiled
from measurelab._util.validation import warn_undefined
from measurelab.measures._block import accurate_row_sums, in_row_chunks, row_integer
from measurelab.measures.base import measure
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

#: pure tables: expand to per-case values when cases ≤ this many times the distinct scores
_EXPAND_FACTOR = 4
#: cells (windows × support) handled at once by the distribution route (bounds memory)
_CELLS = 1 << 20
#: windows enumerated at once by the distribution route
_BLOCK_WINDOWS = 1 << 17

#: the block form (:func:`cal_block`) expands tables of pure groups into per-case values in
#: chunks of at most this many cells (tables × cases)
_BLOCK_CELLS = 1 << 20
#: the block form expands a table of pure groups with more than ``_EXPAND_FACTOR`` cases per
#: distinct score only up to this many cases (beyond: the closed form, table by table)
_BLOCK_EXPAND_MAX = 1 << 12


def use_compiled(t: ScoreTable) -> bool:
    """Whether CAL of ``t`` goes to the compiled kernel (numba loads on first use): the
    routing policy's ``"cal"`` route (:data:`measurelab._kernels.routing.ROUTES`), by the
    number of cases alone, so a table gives the same value in every process (a command
    line and the API, workers and the client).

    Examples
    --------
    >>> from measurelab.stats.scoretable import ScoreTable
    >>> use_compiled(ScoreTable.from_arrays([1, 0], [0.9, 0.2]))
    False
    """
    return _route_compiled("cal", t.total)


def _abs_linear_sum(alpha: np.ndarray, beta: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Σ_{i=a}^{b-1} |α + β·i| for arrays of intervals (a < b integers)."""

    def lin(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        n = hi - lo
        return n * alpha + beta * (lo + hi - 1) * n / 2

    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.where(beta != 0, -alpha / beta, 0.0)
    # first index of the second sign run: rising lines turn non-negative at ceil(root),
    # falling lines turn negative just after floor(root)
    c = np.clip(np.where(beta > 0, np.ceil(root), np.floor(root) + 1), a, b)
    split = np.where(beta > 0, lin(c, b) - lin(a, c), lin(a, c) - lin(c, b))
    return float(np.sum(np.where(beta == 0, np.abs(alpha) * (b - a), split)))


def _sum_abs_expected(s: np.ndarray, pos: np.ndarray, m: np.ndarray, n: int, w: int) -> float:
    """Σ over windows of |score sum − expected positives| (each case of a group counts as
    the group's positive fraction). With no group mixing the classes this is CA2 itself."""
    if m.size == n:  # no ties at all: per-case values are the table's rows
        fc = np.concatenate([[0.0], np.cumsum(s - pos)])
        return float(np.abs(fc[w:] - fc[:-w]).sum())
    slope = s - pos / m  # a case's score − expected label
    if n <= _EXPAND_FACTOR * m.size:
        fc = np.concatenate([[0.0], np.cumsum(np.repeat(slope, m.astype(np.int64)))])
        return float(np.abs(fc[w:] - fc[:-w]).sum())
    # closed form: between break points (a window edge crossing a group boundary) the
    # window error D(i) = F(i+w) − F(i) is linear in the start i
    bounds = np.concatenate([[0.0], np.cumsum(m)])
    F = np.concatenate([[0.0], np.cumsum(s * m - pos)])
    last = n - w + 1  # windows start at i = 0 .. n-w
    br = np.concatenate([bounds, bounds - w, [0.0, float(last)]])
    br = np.unique(br[(br >= 0) & (br <= last)])
    a, b = br[:-1], br[1:]
    G = m.size
    g1 = np.clip(np.searchsorted(bounds, a, side="right") - 1, 0, G - 1)
    g2 = np.clip(np.searchsorted(bounds, a + w, side="right") - 1, 0, G - 1)
    beta = slope[g2] - slope[g1]
    alpha = (F[g2] + slope[g2] * (w - bounds[g2])) - (F[g1] - slope[g1] * bounds[g1])
    return _abs_linear_sum(alpha, beta, a, b)


def _hypergeom_pmf(M: np.ndarray, p: np.ndarray, k: np.ndarray,
                   width: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of hypergeometric pmfs: positives among ``k`` of ``M`` cases holding ``p``.

    Returns (lo, pmf): row r gives P(X = lo[r] + j) in column j (zero past the support).
    Built by the ratio recurrence outward from the mode (no overflow, ~1e-14 relative).
    """
    lo = np.maximum(0, k - (M - p))
    sup = np.minimum(k, p) - lo + 1
    rows = M.size
    pmf = np.ones((rows, width))
    if width > 1:
        j = np.arange(width - 1)
        x = lo[:, None] + j  # ratio P(x+1)/P(x)
        ok = j < (sup - 1)[:, None]
        num = ((p[:, None] - x) * (k[:, None] - x)).astype(np.float64)
        den = ((x + 1) * ((M - p - k)[:, None] + x + 1)).astype(np.float64)
        r = np.ones_like(num)
        np.divide(num, den, out=r, where=ok)
        mode = np.clip((k + 1) * (p + 1) // (M + 2), lo, lo + sup - 1) - lo
        up = j >= mode[:, None]
        fwd = np.cumprod(np.where(up, r, 1.0), axis=1)
        bwd = np.cumprod(np.where(up, 1.0, 1.0 / r)[:, ::-1], axis=1)[:, ::-1]
        pmf[:, 1:] = fwd
        pmf[:, :-1] *= bwd
        pmf[np.arange(width) >= sup[:, None]] = 0.0
        pmf /= pmf.sum(axis=1, keepdims=True)
    return lo, pmf


def _jensen_gap(target: np.ndarray, M1: np.ndarray, p1: np.ndarray, k1: np.ndarray,
               M2: np.ndarray, p2: np.ndarray, k2: np.ndarray) -> float:
    """Σ over rows of E|D| − |E D|, D = target − X − Y, X ~ H(M1, p1, k1) and
    Y ~ H(M2, p2, k2) independent (a fixed end has k = M or a pure group)."""
    s1 = np.minimum(k1, p1) - np.maximum(0, k1 - (M1 - p1)) + 1
    s2 = np.minimum(k2, p2) - np.maximum(0, k2 - (M2 - p2)) + 1
    # the larger support is summed over (rows × its width), the other looked up
    swap = s2 > s1
    if swap.any():
        M1, M2 = np.where(swap, M2, M1), np.where(swap, M1, M2)
        p1, p2 = np.where(swap, p2, p1), np.where(swap, p1, p2)
        k1, k2 = np.where(swap, k2, k1), np.where(swap, k1, k2)
        s1, s2 = np.where(swap, s2, s1), np.where(swap, s1, s2)
    mean = target - k1 * (p1 / M1) - k2 * (p2 / M2)
    # no gap unless D can take both signs (fixed ends included: support of one point)
    lo_sum = np.maximum(0, k1 - (M1 - p1)) + np.maximum(0, k2 - (M2 - p2))
    hi_sum = np.minimum(k1, p1) + np.minimum(k2, p2)
    idx = np.flatnonzero((target - hi_sum < 0) & (target - lo_sum > 0))
    total = 0.0
    if idx.size == 0:
        return total
    # blocks of similar support (powers of two), each with bounded cells
    cls = np.ceil(np.log2(s1[idx])).astype(np.int64) * 64 + np.ceil(np.log2(s2[idx]))
    order = np.argsort(cls, kind="stable")
    idx, cls = idx[order], cls[order]
    starts = np.flatnonzero(np.r_[True, cls[1:] != cls[:-1]])
    for b0, b1 in zip(starts, np.r_[starts[1:], idx.size], strict=True):
        wx = int(s1[idx[b0:b1]].max())
        wy = int(s2[idx[b0:b1]].max())
        step = max(1, _CELLS // (wx + wy))
        for c0 in range(b0, b1, step):
            r = idx[c0:min(c0 + step, b1)]
            lx, px = _hypergeom_pmf(M1[r], p1[r], k1[r], wx)
            u = (target[r] - lx)[:, None] - np.arange(wx, dtype=np.float64)
            if wy == 1:  # the other end is fixed
                u -= np.maximum(0, k2[r] - (M2[r] - p2[r]))[:, None]
                e = np.abs(u)
            else:
                # E|u − Y| = u(2F(u) − 1) − 2M(u) + E[Y], with Y and u measured from ly
                ly, py = _hypergeom_pmf(M2[r], p2[r], k2[r], wy)
                Fy = np.cumsum(py, axis=1)
                My = np.cumsum(py * np.arange(wy, dtype=np.float64), axis=1)
                u -= ly[:, None]
                fl = np.floor(u)
                below = fl < 0
                g = np.clip(fl, 0, wy - 1).astype(np.int64)
                F = np.where(below, 0.0, np.take_along_axis(Fy, g, axis=1))
                Mu = np.where(below, 0.0, np.take_along_axis(My, g, axis=1))
                e = u * (2.0 * F - 1.0) - 2.0 * Mu + My[:, -1:]
            total += float(np.sum(np.sum(px * e, axis=1) - np.abs(mean[r])))
    return total


def _windows_gap(s: np.ndarray, pos: np.ndarray, m: np.ndarray, n: int, w: int) -> float:
    """Σ over the windows whose positive count is random of E|D| − |E D| (D = score sum −
    positives): the windows inside a mixed group, and those that cut one."""
    mi = m.astype(np.int64)
    pi = np.rint(pos).astype(np.int64)
    mixed = (pi > 0) & (pi < mi)
    bounds = np.concatenate([[0], np.cumsum(mi)])
    total = 0.0
    # windows inside one mixed group: m − w + 1 of them, all of the same value
    inside = np.flatnonzero(mixed & (mi > w))
    if inside.size:
        kk = np.full(inside.size, w, dtype=np.int64)
        lo, pmf = _hypergeom_pmf(mi[inside], pi[inside], kk, w + 1)
        t = w * s[inside]
        gap = (np.sum(pmf * np.abs((t - lo)[:, None] - np.arange(w + 1)), axis=1)
               - np.abs(t - w * pos[inside] / m[inside]))
        total += float(np.dot(gap, (mi[inside] - w + 1).astype(np.float64)))
    # Q[g] = Σ_{h<g} (m_h·s_h − p_h): window sums over whole groups are its differences
    # (extended precision where the platform has it)
    Q = np.concatenate([[0.0], np.cumsum(s * m - pos, dtype=np.longdouble)])
    # windows crossing a boundary whose start cuts a mixed group (k1 of its cases inside,
    # 1 ≤ k1 < min(m, w)), then those whose end cuts one (k2 inside) and start does not
    grp = np.flatnonzero(mixed)
    sides = (
        (grp, np.maximum(1, bounds[grp + 1] - (n - w)), np.minimum(mi[grp], w) - 1, True),
        (grp, np.maximum(1, w - bounds[grp]), np.minimum(mi[grp], w) - 1, False),
    )
    for g_all, lo_all, hi_all, at_start in sides:
        cnt = np.maximum(0, hi_all - lo_all + 1)
        keep = cnt > 0
        g_all, lo_all, cnt = g_all[keep], lo_all[keep], cnt[keep]
        cc = np.cumsum(cnt)
        g0 = 0
        while g0 < g_all.size:
            base = cc[g0] - cnt[g0]
            g1 = max(g0 + 1, int(np.searchsorted(cc, base + _BLOCK_WINDOWS, side="right")))
            c = cnt[g0:g1]
            grp_rep = np.repeat(g_all[g0:g1], c)
            k = np.repeat(lo_all[g0:g1], c) + np.arange(int(c.sum())) - np.repeat(
                np.cumsum(c) - c, c)
            if at_start:
                a, k1 = grp_rep, k
                start = bounds[a + 1] - k1
                end = start + w - 1  # last position in the window
                b = np.searchsorted(bounds, end, side="right") - 1
                k2 = end - bounds[b] + 1
            else:
                b, k2 = grp_rep, k
                start = bounds[b] + k2 - w
                a = np.searchsorted(bounds, start, side="right") - 1
                k1 = bounds[a + 1] - start
                sel = ~(mixed[a] & (k1 < mi[a]))  # not already counted from the start
                a, b, k1, k2 = a[sel], b[sel], k1[sel], k2[sel]
            target = (k1 * s[a] + k2 * s[b]) + (Q[b] - Q[a + 1]).astype(np.float64)
            total += _jensen_gap(target, mi[a], pi[a], k1, mi[b], pi[b], k2)
            g0 = g1
    return total


def _check_window(window: int) -> int:
    w = int(window) if isinstance(window, int | float) and math.isfinite(window) else 0
    if w < 1 or w != window:
        from measurelab.exceptions import MeasurelabError

        raise MeasurelabError(f"cal needs a whole window of at least 1 case, got {window!r}")
    return w


def _cal_expanded(blk: TableBlock, m: np.ndarray, rows: np.ndarray, n: np.ndarray,
                  w: int) -> np.ndarray:
    """CA2 of the tables ``rows`` of the block, each of pure groups with ``n`` > ``w``
    cases: per-case score − label in score order (a table's row repeated by its weight), one
    cumulative sum per table, a window's error the difference of two of its values."""
    out = np.empty(rows.size)
    nmax = int(n[rows].max())
    step = max(1, _BLOCK_CELLS // (nmax + 1))
    for c0 in range(0, rows.size, step):  # chunks of tables (bounded memory)
        r = rows[c0:c0 + step]
        mr = m[r]
        slope = np.zeros(mr.shape)
        np.divide(blk.pos[r], mr, out=slope, where=mr > 0)
        slope = blk.scores - slope  # a case's score − label, as the scalar's slope
        nr = n[r].astype(np.int64)
        nm = int(nr.max())
        vals = np.repeat(slope.ravel(), mr.ravel().astype(np.int64))  # empty rows vanish
        fc = np.zeros((r.size, nm + 1))
        same = bool(np.all(nr == nm))
        if same:  # every table has nm cases (a bootstrap of fixed size)
            np.cumsum(vals.reshape(r.size, nm), axis=1, out=fc[:, 1:])
        else:  # table i's cases from fc[i, 1]
            shift = np.arange(r.size) * (nm + 1) + 1 - (np.cumsum(nr) - nr)
            fc.ravel()[np.arange(vals.size) + np.repeat(shift, nr)] = vals
            np.cumsum(fc, axis=1, out=fc)
        err = np.abs(fc[:, w:] - fc[:, :-w])
        if not same:
            err[np.arange(nm - w + 1)[None, :] > (nr - w)[:, None]] = 0.0  # past the table
        out[c0:c0 + step] = err.sum(axis=1) / w / (nr - w + 1)
    return out


def cal_block(blk: TableBlock, window: int = 100) -> np.ndarray:
    """Block form of :func:`cal` (the formula is in its docstring)."""
    if _route_compiled("cal_block", blk.n_blocks):
        return _cal_block_compiled(blk, window)
    return _cal_block_numpy(blk, window=window)


def _cal_block_compiled(blk: TableBlock, window: int) -> np.ndarray:
    """The compiled kernels, one loop over the tables: tables of one-class rows (every
    bootstrap replicate of untied data) by one plain pass with a compensated sum, the
    others by the scalar's compiled kernel; both agree with the scalar to rounding."""
    from measurelab._kernels.cal import window_total_block

    out = np.full(blk.n_blocks, np.nan)
    integer = row_integer(blk)
    if not integer.any():
        return out
    w = _check_window(window)
    n = np.rint(blk.total)
    ok = integer & (n > 0)
    few = np.flatnonzero(ok & (n <= w))
    if few.size:  # one window of all cases: its positive count is fixed
        m = blk.pos[few] + blk.neg[few]
        out[few] = np.abs(accurate_row_sums(blk.scores * m - blk.pos[few])) / n[few]
    many = ok & (n > w)
    if many.any():
        from measurelab._kernels.cal import pure_window_block

        rows = np.flatnonzero(many)
        sub: slice | np.ndarray = slice(None) if rows.size == blk.n_blocks else rows
        scores = np.ascontiguousarray(blk.scores, dtype=np.float64)
        pos = np.ascontiguousarray(blk.pos[sub], dtype=np.float64)
        neg = np.ascontiguousarray(blk.neg[sub], dtype=np.float64)
        tot = np.empty(rows.size)
        ns = np.empty(rows.size)
        pure = np.empty(rows.size, dtype=np.bool_)
        # tables of one-class rows (every replicate of untied data): one plain pass
        pure_window_block(scores, pos, neg, w, tot, ns, pure)
        mixed = np.flatnonzero(~pure)
        if mixed.size:  # a tie group holding both classes: the expectation over orders
            ns[mixed], tot[mixed] = window_total_block(
                scores, np.ascontiguousarray(pos[mixed]), np.ascontiguousarray(neg[mixed]),
                w, float(_EXPAND_FACTOR))
        out[rows] = tot / w / (np.rint(ns) - w + 1)
    return out


@in_row_chunks
def _cal_block_numpy(blk: TableBlock, window: int = 100) -> np.ndarray:
    """:func:`cal_block` without numba: vectorized for the tables of at most ``window``
    cases (one window) and those of pure groups (no score shared by both classes: a
    bootstrap replicate of untied data); a table with a mixed tie group and more cases
    goes to the scalar formula on its own."""
    out = np.full(blk.n_blocks, np.nan)
    integer = row_integer(blk)
    if not integer.any():
        return out
    w = _check_window(window)
    m = blk.pos + blk.neg
    n = np.rint(m.sum(axis=1))
    ok = integer & (n > 0)
    few = np.flatnonzero(ok & (n <= w))
    if few.size:  # one window of all cases: its positive count is fixed
        out[few] = np.abs(accurate_row_sums(blk.scores * m[few] - blk.pos[few])) / n[few]
    many = ok & (n > w)
    pure = ~np.any((blk.pos > 0) & (blk.neg > 0), axis=1)
    groups = np.count_nonzero(m > 0, axis=1)
    expand = many & pure & ((n <= _EXPAND_FACTOR * groups) | (n <= _BLOCK_EXPAND_MAX))
    rows = np.flatnonzero(expand)
    if rows.size:
        out[rows] = _cal_expanded(blk, m, rows, n, w)
    rest = np.flatnonzero(many & ~expand)
    for b in rest.tolist():  # mixed tie groups: table by table
        out[b] = cal(blk.table(b), w)
    return out


@measure(
    "cal",
    kind="probability",
    statistic="scores",
    higher_is_better=False,
    aliases=("ca2", "calibration"),
    main_param="window",
    source="Caruana 2004 CAL (perf CA2, sliding windows of 100; ties: expectation over "
    "random orderings inside tie groups)",
    block=cal_block,
)
def cal(t: ScoreTable, window: int = 100) -> float:
    """Calibration error over sliding windows of ``window`` cases in score order (perf CA2),
    expected over random orderings of tied cases.

    Needs integer (frequency) weights. Ties: see the module docstring.

    Examples
    --------
    >>> import measurelab as ml
    >>> # (.3 + .05 + .25) / 3
    >>> round(ml.metrics.cal([0, 1, 0, 1], [0.1, 0.3, 0.6, 0.9], window=2), 12)
    0.2
    >>> round(ml.metrics.cal([0, 1, 0, 1], [0.1, 0.5, 0.5, 0.9], window=2), 12)  # (.2+.1333)/2
    0.166666666667
    """
    if not t.is_integer:
        warn_undefined("CAL needs integer (frequency) weights; returning NaN")
        return math.nan
    w = _check_window(window)
    if use_compiled(t):
        from measurelab._kernels.cal import window_total

        def f64(x: np.ndarray) -> np.ndarray:
            return np.ascontiguousarray(x, dtype=np.float64)

        nf, total = window_total(f64(t.scores), f64(t.pos), f64(t.neg), w,
                                 float(_EXPAND_FACTOR))
        n = round(nf)
        if n > w:
            return total / w / (n - w + 1)
    s, pos, m = t.scores, t.pos, t.pos + t.neg
    if not np.all(m > 0):  # rows of zero weight hold no case
        keep = m > 0
        s, pos, m = s[keep], pos[keep], m[keep]
    n = round(float(m.sum()))
    if n == 0:
        warn_undefined("CAL is undefined with no cases; returning NaN")
        return math.nan
    if n <= w:  # one window of all cases: its positive count is fixed
        return abs(math.fsum(s * m - pos)) / n
    total = _sum_abs_expected(s, pos, m, n, w)
    if np.any((pos > 0) & (pos < m)):  # some group mixes the classes: add E|D| − |E D|
        total += _windows_gap(s, pos, m, n, w)
    return total / w / (n - w + 1)
