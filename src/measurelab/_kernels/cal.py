"""The compiled CAL of :mod:`measurelab.measures.calibration` (numba; loaded on first use).

One pass over the score table, extra memory O(window) and no table-sized temporary. Rows
of zero weight are skipped where they are met. Two routes, as in the numpy code:

* **no group mixes the classes and cases ≤ ``expand``·groups** (untied data, bootstrap
  replicates of it): the numpy route's per-case cumulative sum of score − label, advanced
  one case at a time (the same sequential sums; the window's w values kept in a ring), and
  the window differences added by a copy of numpy's pairwise summation — the value is
  numpy's bit for bit;
* **otherwise**: the window starts are cut into pieces where the groups of the window's
  first and last case stay the same. A piece inside one group is one value times its
  length (one hypergeometric for the whole group); a piece whose two end groups are pure
  is linear in the start (a closed form); in a piece with a mixed end each window whose
  error can take both signs gets E|D| = Σ_x P(X = x)·E|u − x − Y| from the two
  hypergeometric pmfs and the cumulative pmf and partial first moment of Y; the others
  are |E D|. A pmf is built once per run of such windows (ratio recurrence from the
  mode), then carried along: the first group loses one case (one undraw) and the last
  gains one (one draw), convex combinations with no division per term. The fixed part
  of the window (the groups between the ends) is a difference of two running
  double-double sums, and the windows are added with Neumaier's compensated sum, so the
  result agrees with the numpy route to rounding (observed 1e-16 to 1e-14 relative), not
  bit for bit.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

_PW_BLOCK = 128  # numpy's PW_BLOCKSIZE


@nb.njit(cache=True, nogil=True)
def _scan(pos: np.ndarray, neg: np.ndarray) -> tuple:
    """Cases, non-empty groups and whether a group holds both classes."""
    n = 0.0
    g = 0
    mixed = False
    for r in range(pos.size):
        p = pos[r]
        q = neg[r]
        if p + q > 0.0:
            n += p + q
            g += 1
            if p > 0.0 and q > 0.0:
                mixed = True
    return n, g, mixed


# ---------------------------------------------------------------- pure route (bit for bit)


@nb.njit(cache=True, nogil=True)
def _fill(buf: np.ndarray, k: int, st: np.ndarray, gi: np.ndarray, ring: np.ndarray,
          s: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> None:
    """The next ``k`` window values |fc[i + w] − fc[i]| into ``buf``, moving the window.

    One cursor walks the cases one past the window's end: fc there in st[0], the slope
    of its group (score − label) in st[1], its group in gi[0], the cases left in that
    group in gi[1]; ``ring`` holds fc of the window's w cases, the oldest at gi[2].
    Untied tables (gi[3] = 1): case i is row i, read directly."""
    f1 = st[0]
    d1 = st[1]
    g1 = gi[0]
    r1 = gi[1]
    ri = gi[2]
    w = ring.size
    G = s.size
    if gi[3] == 1:
        for j in range(k):
            f0 = ring[ri]
            buf[j] = abs(f1 - f0)
            ring[ri] = f1
            ri += 1
            if ri == w:
                ri = 0
            if g1 < G:
                f1 += s[g1] - pos[g1]
            g1 += 1
    else:
        for j in range(k):
            f0 = ring[ri]
            buf[j] = abs(f1 - f0)
            ring[ri] = f1
            ri += 1
            if ri == w:
                ri = 0
            f1 += d1
            r1 -= 1
            if r1 == 0:
                g1 += 1
                while g1 < G and pos[g1] + neg[g1] == 0.0:
                    g1 += 1
                if g1 < G:
                    m = pos[g1] + neg[g1]
                    # a pure group's pos / m is exactly its label (numpy's slope)
                    d1 = s[g1] - (1.0 if pos[g1] > 0.0 else 0.0)
                    r1 = int(m)
    st[0] = f1
    st[1] = d1
    gi[0] = g1
    gi[1] = r1
    gi[2] = ri


@nb.njit(cache=True, nogil=True)
def _pairwise(k: int, buf: np.ndarray, st: np.ndarray, gi: np.ndarray, ring: np.ndarray,
              s: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> float:
    """numpy's pairwise summation (``pairwise_sum_DOUBLE``) of the next ``k`` window
    values, taken from the stream in order."""
    if k <= _PW_BLOCK:
        _fill(buf, k, st, gi, ring, s, pos, neg)
        if k < 8:
            res = 0.0
            for j in range(k):
                res += buf[j]
            return res
        r0, r1, r2, r3 = buf[0], buf[1], buf[2], buf[3]
        r4, r5, r6, r7 = buf[4], buf[5], buf[6], buf[7]
        i = 8
        while i < k - (k % 8):
            r0 += buf[i]
            r1 += buf[i + 1]
            r2 += buf[i + 2]
            r3 += buf[i + 3]
            r4 += buf[i + 4]
            r5 += buf[i + 5]
            r6 += buf[i + 6]
            r7 += buf[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < k:
            res += buf[i]
            i += 1
        return res
    k2 = k // 2
    k2 -= k2 % 8
    left = _pairwise(k2, buf, st, gi, ring, s, pos, neg)
    return left + _pairwise(k - k2, buf, st, gi, ring, s, pos, neg)


@nb.njit(cache=True, nogil=True)
def _pure_total(s: np.ndarray, pos: np.ndarray, neg: np.ndarray, n: int, g_: int,
                w: int) -> float:
    st = np.zeros(2)
    gi = np.zeros(4, dtype=np.int64)
    gi[3] = 1 if n == g_ and g_ == s.size else 0  # every row exactly one case
    g = 0
    while pos[g] + neg[g] == 0.0:
        g += 1
    m = pos[g] + neg[g]
    st[1] = s[g] - pos[g] / m
    gi[0] = g
    gi[1] = int(m)
    ring = np.zeros(w)  # fc[0] = 0, then the first w − 1 values are pushed by _fill
    buf = np.empty(max(w, _PW_BLOCK))
    _fill(buf, w, st, gi, ring, s, pos, neg)
    return 0.0 + _pairwise(n - w + 1, buf, st, gi, ring, s, pos, neg)


# ---------------------------------------------------------------- general route


@nb.njit(cache=True, nogil=True)
def _hypergeom(M: float, p: float, k: float, out: np.ndarray) -> tuple:
    """pmf of the positives among ``k`` of ``M`` cases holding ``p`` into ``out[:size]``;
    returns (lowest count, size). Ratio recurrence outward from the mode, normalized."""
    lo = max(0.0, k - (M - p))
    hi = min(k, p)
    size = int(hi - lo) + 1
    if size == 1:
        out[0] = 1.0
        return lo, 1
    mode: float = math.floor((k + 1.0) * (p + 1.0) / (M + 2.0))
    mode = min(max(mode, lo), hi)
    jm = int(mode - lo)
    out[jm] = 1.0
    c = M - p - k
    for j in range(jm, size - 1):  # P(x+1)/P(x) = (p−x)(k−x) / ((x+1)(M−p−k+x+1))
        x = lo + j
        out[j + 1] = out[j] * (((p - x) * (k - x)) / ((x + 1.0) * (c + x + 1.0)))
    for j in range(jm - 1, -1, -1):
        x = lo + j
        out[j] = out[j + 1] * (((x + 1.0) * (c + x + 1.0)) / ((p - x) * (k - x)))
    tot = 0.0
    for j in range(size):
        tot += out[j]
    inv = 1.0 / tot
    for j in range(size):
        out[j] *= inv
    return lo, size


@nb.njit(cache=True, nogil=True)
def _within_group(u: float, M: float, p: float, k: float, px: np.ndarray, py: np.ndarray,
                  Fy: np.ndarray, My: np.ndarray) -> float:
    """E|u − X|, X ~ H(M, p, k): a window inside one group (:func:`_dist_abs` with no Y)."""
    lx = max(0.0, k - (M - p))
    hx = min(k, p)
    if u - hx >= 0.0 or u - lx <= 0.0:  # one sign over the support: |E D|
        return abs(u - k * (p / M))
    _pmf_at(M, p, k, px)
    py[0] = 1.0
    return _dist_abs(u, lx, hx, 0.0, 0.0, px, py, Fy, My)


@nb.njit(cache=True, nogil=True)
def _abs_linear(alpha: float, beta: float, cnt: float) -> float:
    """Σ_{j=0}^{cnt−1} |α + β·j|."""
    if beta == 0.0:
        return cnt * abs(alpha)
    root = -alpha / beta
    # first j of the second sign run
    c = math.ceil(root) if beta > 0.0 else math.floor(root) + 1.0
    c = min(max(c, 0.0), cnt)
    s1 = c * alpha + beta * (c - 1.0) * c / 2.0  # j in [0, c)
    s2 = (cnt - c) * alpha + beta * (c + cnt - 1.0) * (cnt - c) / 2.0  # j in [c, cnt)
    return abs(s1) + abs(s2)


@nb.njit(cache=True, nogil=True)
def _pmf_at(M: float, p: float, k: float, out: np.ndarray) -> None:
    """The hypergeometric pmf of :func:`_hypergeom` stored at its counts: out[x] = P(x)."""
    lo, size = _hypergeom(M, p, k, out)
    off = int(lo)
    if off:
        for j in range(size - 1, -1, -1):
            out[off + j] = out[j]


@nb.njit(cache=True, nogil=True)
def _undraw(M: float, p: float, k: float, out: np.ndarray) -> None:
    """out[x] = P(x) of H(M, p, k) becomes that of H(M, p, k − 1): one of the k drawn
    cases, chosen at random, is put back (a positive with probability x/k)."""
    lo = max(0.0, k - (M - p))
    hi = min(k, p)
    nlo = max(0.0, k - 1.0 - (M - p))
    nhi = min(k - 1.0, p)
    inv = 1.0 / k
    for xi in range(int(nlo), int(nhi) + 1):
        x = float(xi)
        v = 0.0
        if x >= lo:
            v += out[xi] * ((k - x) * inv)
        if x + 1.0 <= hi:
            v += out[xi + 1] * ((x + 1.0) * inv)
        out[xi] = v


@nb.njit(cache=True, nogil=True)
def _draw(M: float, p: float, k: float, out: np.ndarray) -> None:
    """out[y] = P(y) of H(M, p, k) becomes that of H(M, p, k + 1): one more case drawn
    from the M − k left (a positive with probability (p − y)/(M − k))."""
    lo = max(0.0, k - (M - p))
    hi = min(k, p)
    nlo = max(0.0, k + 1.0 - (M - p))
    nhi = min(k + 1.0, p)
    inv = 1.0 / (M - k)
    for yi in range(int(nhi), int(nlo) - 1, -1):
        y = float(yi)
        v = 0.0
        if y <= hi:
            v += out[yi] * ((M - p - (k - y)) * inv)
        if y - 1.0 >= lo:
            v += out[yi - 1] * ((p - (y - 1.0)) * inv)
        out[yi] = v


@nb.njit(cache=True, nogil=True)
def _dist_abs(u: float, lx: float, hx: float, ly: float, hy: float, px: np.ndarray,
              py: np.ndarray, Fy: np.ndarray, My: np.ndarray) -> float:
    """E|u − X − Y| from pmfs stored at their counts (px[x], py[y])."""
    sy = int(hy - ly) + 1
    oy = int(ly)
    f = 0.0
    mm = 0.0
    for j in range(sy):
        q = py[oy + j]
        f += q
        mm += j * q
        Fy[j] = f
        My[j] = mm
    ey = My[sy - 1]
    tot = 0.0
    for xi in range(int(lx), int(hx) + 1):
        v = u - xi - ly
        if v < 0.0:
            e = ey - v
        elif v >= sy - 1:
            e = v - ey
        else:
            fl = int(v)  # v >= 0 here: truncation is the floor
            e = v * (2.0 * Fy[fl] - 1.0) - 2.0 * My[fl] + ey
        tot += px[xi] * e
    return tot


@nb.njit(cache=True, nogil=True)
def _add(acc: np.ndarray, x: float) -> None:
    """Neumaier's compensated sum: acc[0] the sum, acc[1] the lost low part."""
    t = acc[0] + x
    if abs(acc[0]) >= abs(x):
        acc[1] += (acc[0] - t) + x
    else:
        acc[1] += (x - t) + acc[0]
    acc[0] = t


@nb.njit(cache=True, nogil=True)
def _dd_add(q: np.ndarray, x: float) -> None:
    """Double-double running sum q[0] + q[1] += x (TwoSum)."""
    hi = q[0] + x
    bb = hi - q[0]
    err = (q[0] - (hi - bb)) + (x - bb)
    lo = q[1] + err
    q[0] = hi + lo
    q[1] = lo - (q[0] - hi)


@nb.njit(cache=True, nogil=True)
def _general_total(s: np.ndarray, pos: np.ndarray, neg: np.ndarray, n: float,
                   w: int) -> float:
    G = s.size
    fw = float(w)
    px = np.empty(w + 1)
    py = np.empty(w + 1)
    Fy = np.empty(w + 1)
    My = np.empty(w + 1)
    acc = np.zeros(2)
    qa = np.zeros(2)  # Σ over groups up to and including a of (s·m − p)
    qb = np.zeros(2)  # Σ over groups before b
    a = 0
    while pos[a] + neg[a] == 0.0:
        a += 1
    ba = 0.0  # cases before group a
    _dd_add(qa, s[a] * (pos[a] + neg[a]) - pos[a])
    b = a
    bb = 0.0  # cases before group b
    while bb + pos[b] + neg[b] <= fw - 1.0:  # group of the window's last case
        mb = pos[b] + neg[b]
        _dd_add(qb, s[b] * mb - pos[b])
        bb += mb
        b += 1
        while b < G and pos[b] + neg[b] == 0.0:
            b += 1
    i = 0.0
    last = n - fw  # last window start
    while i <= last:
        ma = pos[a] + neg[a]
        mb = pos[b] + neg[b]
        if a == b:  # every window start up to the group's end − w lies inside it
            cnt = ba + ma - fw - i + 1.0
            val = _within_group(fw * s[a], ma, pos[a], fw, px, py, Fy, My)
            _add(acc, cnt * val)
        else:
            iend = min(ba + ma - 1.0, bb + mb - fw, last)
            cnt = iend - i + 1.0
            k1 = ba + ma - i
            k2 = i + fw - bb
            mid = (qb[0] - qa[0]) + (qb[1] - qa[1])
            pure_a = pos[a] == 0.0 or neg[a] == 0.0
            pure_b = pos[b] == 0.0 or neg[b] == 0.0
            if pure_a and pure_b:  # D is linear in the start
                da = s[a] - pos[a] / ma
                db = s[b] - pos[b] / mb
                alpha = k1 * da + k2 * db + mid
                _add(acc, _abs_linear(alpha, db - da, cnt))
            else:  # a mixed end: along the piece X loses a case and Y gains one
                pa = pos[a]
                pb = pos[b]
                fa = pa / ma
                fb = pb / mb
                valid = False  # px, py hold the pmfs of the previous window
                for j in range(int(cnt)):
                    x1 = k1 - j
                    x2 = k2 + j
                    u = x1 * s[a] + x2 * s[b] + mid
                    lx = max(0.0, x1 - (ma - pa))
                    hx = min(x1, pa)
                    ly = max(0.0, x2 - (mb - pb))
                    hy = min(x2, pb)
                    if u - hx - hy >= 0.0 or u - lx - ly <= 0.0:  # one sign: |E D|
                        _add(acc, abs(u - x1 * fa - x2 * fb))
                        valid = False
                        continue
                    if valid:
                        _undraw(ma, pa, x1 + 1.0, px)
                        _draw(mb, pb, x2 - 1.0, py)
                    else:
                        _pmf_at(ma, pa, x1, px)
                        _pmf_at(mb, pb, x2, py)
                        valid = True
                    _add(acc, _dist_abs(u, lx, hx, ly, hy, px, py, Fy, My))
        i += cnt
        if i > last:
            break
        if i == ba + ma:  # the window's first case enters the next group
            ba += ma
            a += 1
            while pos[a] + neg[a] == 0.0:
                a += 1
            _dd_add(qa, s[a] * (pos[a] + neg[a]) - pos[a])
        if i + fw - 1.0 == bb + mb:  # its last case enters the next group
            _dd_add(qb, s[b] * mb - pos[b])
            bb += mb
            b += 1
            while pos[b] + neg[b] == 0.0:
                b += 1
    return acc[0] + acc[1]


@nb.njit(cache=True, nogil=True)
def window_total(s: np.ndarray, pos: np.ndarray, neg: np.ndarray, w: int,
                 expand: float) -> tuple:
    """(cases N, Σ over the N − w + 1 windows of E|score sum − positives|); the sum is
    only computed when N > w (else 0). ``expand``: the pure route's factor (see the
    module docstring)."""
    n, g, mixed = _scan(pos, neg)
    if n <= w:
        return n, 0.0
    if not mixed and n <= expand * g:
        return n, _pure_total(s, pos, neg, int(n), g, w)
    return n, _general_total(s, pos, neg, n, w)


@nb.njit(cache=True, nogil=True)
def window_total_block(s: np.ndarray, pos: np.ndarray, neg: np.ndarray, w: int,
                       expand: float) -> tuple:
    """:func:`window_total` of every table of a block (rows of ``pos``, ``neg``: (B, R)),
    in one compiled loop: arrays of cases and window sums."""
    B = pos.shape[0]
    ns = np.empty(B)
    tot = np.empty(B)
    for b in range(B):
        r = window_total(s, pos[b], neg[b], w, expand)
        ns[b] = r[0]
        tot[b] = r[1]
    return ns, tot


@nb.njit(cache=True, nogil=True)
def pure_window_block(s: np.ndarray, pos: np.ndarray, neg: np.ndarray, w: int,
                      total: np.ndarray, cases: np.ndarray, pure: np.ndarray) -> None:
    """CAL's window sums of the tables of a block whose rows each hold one class (whole
    counts): the per-case cumulative sum of score − label, advanced one case at a time,
    Σ over the windows of |fc[i + w] − fc[i]| with Neumaier's compensated sum. A table
    with a row holding both classes is marked ``pure[b] = False`` (and left to
    :func:`window_total`). A bootstrap replicate of a table of pure rows (untied scores
    included) is pure: this is the route of every replicate of such data.

    Not numpy's pairwise order (the scalar route's bits), but within a few units of
    rounding of it; the block route never compares its values with the scalar's."""
    B = pos.shape[0]
    R = s.size
    ring = np.zeros(w)
    for b in range(B):
        for j in range(w):
            ring[j] = 0.0
        ri = 0
        f = 0.0
        k = 0
        acc = 0.0
        comp = 0.0
        ok = True
        for r in range(R):
            p = pos[b, r]
            q = neg[b, r]
            if p == 0.0 and q == 0.0:
                continue
            if p > 0.0 and q > 0.0:
                ok = False
                break
            if p > 0.0:
                d = s[r] - 1.0
                m = int(p)
            else:
                d = s[r]
                m = int(q)
            for _ in range(m):
                f += d
                k += 1
                ri += 1
                if ri == w:
                    ri = 0
                if k >= w:
                    v = abs(f - ring[ri])
                    t = acc + v
                    if abs(acc) >= v:
                        comp += (acc - t) + v
                    else:
                        comp += (v - t) + acc
                    acc = t
                ring[ri] = f
        pure[b] = ok
        total[b] = acc + comp
        cases[b] = k
