"""R's ``loess(y ~ x)`` with its defaults, on aggregated data: local quadratic regression
with tricube weights over the nearest ``span`` fraction of the cases, evaluated on R's
k-d tree surface (``surface = "interpolate"``).

The calibration measures ICI, E50, E90 and Emax (Austin & Steyerberg 2019) are defined by
R's ``loess(y ~ p)`` with its defaults: ``span = 0.75``, ``degree = 2``,
``family = "gaussian"`` (no robustness iterations), ``surface = "interpolate"``,
``cell = 0.2``. No maintained Python library fits that (statsmodels' ``lowess`` is local
*linear* with robustness iterations), so this module implements the definition
(Cleveland, Grosse & Shyu 1992, "Local regression models", ch. 8 of *Statistical Models in
S*) as R's ``loess`` computes it:

* **Local fit at a point q.** The distances to q of the cases; ``rho`` = the ``nf``-th
  smallest, ``nf = floor(n·span)``; weights ``(1 − (d/rho)³)³`` for ``d < rho`` (0
  otherwise); weighted least squares of y on ``1, x − q, (x − q)²``, columns scaled to
  unit norm, solved through the singular values with those below ``100·eps·σ_max`` set to
  zero (a pseudo-inverse where the neighbourhood is degenerate). The local value is the
  intercept, the local slope the linear coefficient.
* **The k-d tree** (one dimension): the bounding interval of the x values widened by
  0.5 % of their range on each side is split at the median case (the lower middle
  position, moved to the nearest boundary between distinct x values, looking first at
  or above the median), recursively, until a cell holds at most
  ``fc = floor(n·span·cell)`` cases or its median value is one of its ends. The local fit
  is computed at every cell boundary (a *vertex*): value and slope.
* **The surface**: between two neighbouring vertices, the cubic Hermite interpolant of
  their values and slopes.

Cases enter through the data's distinct x values with their weight and mean response
(the score table's rows): tied cases have the same distance to every point, so the
weighted least squares over the rows equals the one over the cases. Weights are
*frequencies*: the span counts weight, so whole weights give exactly R's fit of the
expanded data (a bootstrap replicate is the fit of the resampled data); real weights are
the same formulas with the counts replaced by weight sums (``nf = n·span`` and
``fc = n·span·cell`` unrounded, cells of less than one unit of weight are leaves). R's own
``weights =`` argument is a different thing (prior weights, with the span counting cases),
which a mergeable summary of weights cannot express.

**Linear in the rows.** The tree has a fixed number of vertices (9 for unweighted data
at the defaults: cells are halved until they hold at most 15 % of the cases), and R's
surface needs a fit at each vertex only, so the work is O(vertices × rows):

* the nf nearest cases of a vertex q are a run of consecutive rows around q (the
  squared distances ``(x − q)²`` fall towards q and rise after it, rounding included), so
  ``rho`` comes from binary searches on each side against the cumulative weights
  (``_neighbourhoods``): no distance array, no sort;
* the weighted least squares needs only eight sums over that run, ``Σ w·tᵏ`` (k ≤ 4) and
  ``Σ w·ȳ·tᵏ`` (k ≤ 2) with ``t = (x − q)/rho``: the normal equations of the same
  unit-norm columns, solved through the eigenvalues of their 3 × 3 Gram matrix (the
  squares of the design's singular values). One compiled pass per vertex from 2¹⁸ rows
  (``_kernels/loess.py``), numpy in steps of 2¹⁶ rows below;
* where that Gram matrix is ill-conditioned (smallest eigenvalue below 1e-6 of the
  largest: there the normal equations could lose more than ~1e-10) or fewer than three
  rows carry weight, the vertex is fitted as R fits it, through the singular values of
  its design, reduced first by a QR factorization in steps (``_exact_fit``): R's
  pseudo-inverse where the neighbourhood is degenerate.

Memory: the input, one array of cumulative weights and steps of 2¹⁶ rows (the earlier
route sorted the distances of all rows at every vertex: 2.7 s at 10⁶ distinct x values,
20 s and 2 GB at 10⁷; README, "Benchmarks", has today's figures).

Agreement with R 4.2's ``loess`` on fitted values: 1.2e-14 on random data with and
without ties and on naive Bayes probabilities (tests/measures/test_smooth_calibration.py
runs R when it is installed, and compares with the definition computed the slow way:
sorted distances and the design's pseudo-inverse at every vertex, whole and real
weights). Undefined
(``None``): fewer than 4 cases in the span (R: "span too small"), or a vertex whose
``nf`` nearest cases all sit at it (R: "zero-width neighborhood", whose fit R returns as
NaN). Where a neighbourhood holds fewer than three distinct x values with positive
weight, the local quadratic is rank-deficient: R and this module both use a
pseudo-inverse, whose value there depends on rounding (the two can differ).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

#: singular values below this fraction of the largest are set to zero (R: 100·machine eps)
_RCOND = 100 * float(np.finfo(np.float64).eps)
#: rows of one numpy step (sums, cumulative weights, interpolation): bounded temporaries
_CHUNK = 1 << 16
#: the normal equations of a vertex are solved when the smallest eigenvalue of its
#: unit-diagonal Gram matrix is above this fraction of the largest (a condition number of
#: the scaled design below 10³: the normal equations then lose at most ~1e-10); below it,
#: or with fewer than 3 rows in the neighbourhood, the vertex is fitted through the
#: singular values of its design, as R fits every vertex
_GRAM_RCOND = 1e-6


class Surface(NamedTuple):
    """R's interpolated loess surface: the k-d tree's vertices (increasing) and the local
    fit's value and slope at each; :func:`surface_at` evaluates it. ``whole``: whether
    the case weights it was fitted to are whole numbers."""

    verts: np.ndarray
    vals: np.ndarray
    slopes: np.ndarray
    whole: bool = True


def kd_vertices(x: np.ndarray, m: np.ndarray, span: float = 0.75, cell: float = 0.2,
                integer: bool = True) -> np.ndarray:
    """The vertices (cell boundaries) of R's loess k-d tree over distinct ``x`` values
    (increasing) carrying weights ``m`` (> 0), increasing.

    Examples
    --------
    >>> kd_vertices(np.array([0.0, 1.0]), np.array([6.0, 4.0])).tolist()
    [-0.005, 0.0, 1.0, 1.005]
    """
    return _tree(x, np.cumsum(m), float(m.sum()), span, cell, integer)


def _tree(x: np.ndarray, ends: np.ndarray, total: float, span: float, cell: float,
          integer: bool) -> np.ndarray:
    """:func:`kd_vertices` from the cumulative weights ``ends`` (the last position,
    1-based, of each distinct value) and the total weight."""
    fc = math.floor(total * (span * cell)) if integer else total * (span * cell)
    lo_x, hi_x = float(x[0]), float(x[-1])
    margin = 0.005 * max(hi_x - lo_x, 1e-10 * max(abs(lo_x), abs(hi_x)) + 1e-30)
    verts = {lo_x - margin, hi_x + margin}
    stack = [(0.0, total, lo_x - margin, hi_x + margin)]  # cells: positions (L, U]
    while stack:
        low, up, vlo, vhi = stack.pop()
        if up - low <= fc or up - low < 1:
            continue  # a leaf
        first, last = low + 1, up
        mid: float = math.floor((first + last) / 2)
        g = int(np.searchsorted(ends, mid, side="left"))
        above = ends[g] - mid  # steps to the last case of mid's value
        below = mid - (ends[g - 1] if g else 0.0)  # steps to the last case before it
        # R looks at offsets 0, +1, -1, +2, -2, ... for a boundary between two distinct
        # values, and keeps the median if it steps outside the cell first
        if above <= below:
            if mid + above < last and mid - (above - 1) >= first:
                mid = float(ends[g])
        elif mid + below < last and mid - below >= first:
            mid = mid - below
        xm = float(x[int(np.searchsorted(ends, mid, side="left"))])
        if xm in (vlo, vhi):
            continue  # a leaf: the split would not divide the cell
        verts.add(xm)
        stack.append((low, float(mid), vlo, xm))
        stack.append((float(mid), up, xm, vhi))
    return np.array(sorted(verts))


def _cumulative(pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, bool]:
    """The weight of the rows before each row and of all (length rows + 1): the sequential
    sums of ``np.cumsum(pos + neg)``, computed in steps with no other row-sized array
    (compiled with the sums: the same bits); and whether every weight is a whole
    number."""
    if use_compiled(pos.size):
        from measurelab._kernels.loess import cumulative

        cum, whole = cumulative(pos, neg)
        return cum, bool(whole)
    cum = np.empty(pos.size + 1)
    cum[0] = 0.0
    whole = True
    for a in range(0, pos.size, _CHUNK):
        b = min(a + _CHUNK, pos.size)
        step = np.empty(b - a + 1)
        step[0] = cum[a]
        np.add(pos[a:b], neg[a:b], out=step[1:])
        np.cumsum(step, out=cum[a:b + 1])
        whole = whole and bool(np.array_equal(pos[a:b], np.floor(pos[a:b]))
                               and np.array_equal(neg[a:b], np.floor(neg[a:b])))
    return cum, whole


def _settled(cum: np.ndarray) -> np.ndarray:
    """Cumulative real weights rounded to a power-of-two grid of about 2⁻⁴⁰ of the total:
    weight sums added in another order (chunks merged in another order) differ in their
    last bits, and the k-d tree's splits and the span's count compare positions, so without
    this a merge could move a split; the grid is far below any weight that matters.

    Examples
    --------
    >>> c = np.cumsum([0.1, 0.2, 0.3])
    >>> bool(_settled(c)[-1] == _settled(np.cumsum([0.3, 0.2, 0.1]))[-1])
    True
    """
    top = float(cum[-1]) if cum.size else 0.0
    if not top > 0:
        return cum
    unit = 2.0 ** (math.frexp(top)[1] - 40)
    return np.round(cum / unit) * unit


def _first_true(lo: np.ndarray, hi: np.ndarray,
                pred: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """For each entry, the first position k in [lo, hi) where the monotone predicate
    ``pred(entries, k)`` holds (false ... false true ... true), or hi where it never
    does: a binary search of every entry at once."""
    lo, hi = lo.copy(), hi.copy()
    while True:
        act = np.flatnonzero(lo < hi)
        if act.size == 0:
            return lo
        mid = (lo[act] + hi[act]) // 2
        ok = pred(act, mid)
        hi[act[ok]] = mid[ok]
        lo[act[~ok]] = mid[~ok] + 1


def _neighbourhoods(q: np.ndarray, x: np.ndarray, cum: np.ndarray,
                    nf: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The squared radius ρ² of each vertex's neighbourhood (the smallest squared distance
    ``(x − q)²`` within which the rows hold at least ``nf`` of weight: the ``nf``-th
    nearest case) and its rows ``lo .. hi − 1`` (those with ``(x − q)² < ρ²``).

    The squared distances fall from the left end to q and rise from q to the right end
    (rounding is monotone), so the rows within a distance are a run around q: its ends
    are guessed by ``searchsorted`` at q ± √r² and moved until the exact comparison of
    the squared distances holds on both sides of each end. The nearest row on each side
    whose distance already holds ``nf`` of weight is a binary search over the rows. No
    distances of all rows, no sort. ``cum``: :func:`_cumulative`. Where rounding leaves
    the total weight below ``nf``, the radius is the largest distance (R's ``nf``-th
    case is then the farthest)."""
    n = x.size
    c = np.searchsorted(x, q, side="left")  # rows >= c lie at or right of q
    nl, nr = c, n - c

    def d2_left(v: np.ndarray, i: np.ndarray) -> np.ndarray:  # the (i+1)-th row left of q
        return (x[c[v] - 1 - i] - q[v]) ** 2

    def d2_right(v: np.ndarray, j: np.ndarray) -> np.ndarray:
        return (x[c[v] + j] - q[v]) ** 2

    def side(v: np.ndarray, r2: np.ndarray, strict: bool, right: bool) -> np.ndarray:
        """Rows on one side of vertices v within squared distance r2 (< r2 if strict)."""
        d2, room = (d2_right, nr[v]) if right else (d2_left, nl[v])
        reach = np.sqrt(r2)
        if right:
            k = np.searchsorted(x, q[v] + reach, side="right") - c[v]
        else:
            k = c[v] - np.searchsorted(x, q[v] - reach, side="left")
        k = np.clip(k, 0, room)

        def inside(a: np.ndarray, j: np.ndarray) -> np.ndarray:
            d = d2(v[a], j)
            return d < r2[a] if strict else d <= r2[a]

        while True:  # the row after the run is inside: extend
            a = np.flatnonzero(k < room)
            a = a[inside(a, k[a])]
            if a.size == 0:
                break
            k[a] += 1
        while True:  # the run's last row is outside: shorten
            a = np.flatnonzero(k > 0)
            a = a[~inside(a, k[a] - 1)]
            if a.size == 0:
                break
            k[a] -= 1
        return k

    def enough(v: np.ndarray, r2: np.ndarray) -> np.ndarray:
        left = side(v, r2, False, False)
        right = side(v, r2, False, True)
        return cum[c[v] + right] - cum[c[v] - left] >= nf

    every = np.arange(q.size)
    zero = np.zeros(q.size, dtype=np.int64)
    # the nearest row on each side whose distance already holds nf of weight
    i = _first_true(zero, nl, lambda a, k: enough(every[a], d2_left(every[a], k)))
    j = _first_true(zero, nr, lambda a, k: enough(every[a], d2_right(every[a], k)))
    rho2 = np.full(q.size, np.inf)
    has = i < nl
    rho2[has] = d2_left(every[has], i[has])
    has = j < nr
    rho2[has] = np.minimum(rho2[has], d2_right(every[has], j[has]))
    far = np.isinf(rho2)
    if far.any():
        rho2[far] = np.maximum((x[0] - q[far]) ** 2, (x[-1] - q[far]) ** 2)
    return rho2, c - side(every, rho2, True, False), c + side(every, rho2, True, True)


def _sums_numpy(q: np.ndarray, x: np.ndarray, pos: np.ndarray, neg: np.ndarray,
                rho: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The numpy route of :func:`measurelab._kernels.loess.window_sums`: the same products,
    added pairwise in steps of ``_CHUNK`` rows."""
    out = np.zeros((q.size, 8))
    for v in range(q.size):
        inv = 1.0 / rho[v]
        for a in range(int(lo[v]), int(hi[v]), _CHUNK):
            b = min(a + _CHUNK, int(hi[v]))
            t = (x[a:b] - q[v]) * inv
            u = np.abs(t)
            cc = np.maximum(1.0 - u * u * u, 0.0)  # |t| rounded to 1 at the boundary: 0
            tri = cc * cc * cc
            w = (pos[a:b] + neg[a:b]) * tri
            wy = pos[a:b] * tri
            wt = w * t
            wt2 = wt * t
            wyt = wy * t
            out[v] += [w.sum(), wt.sum(), wt2.sum(), (wt2 * t).sum(), (wt2 * t * t).sum(),
                       wy.sum(), wyt.sum(), (wyt * t).sum()]
    return out


def _exact_fit(qv: float, x: np.ndarray, pos: np.ndarray, neg: np.ndarray, rho: float,
               lo: int, hi: int) -> tuple[float, float]:
    """Value and slope at ``qv`` of the local fit as R computes it: weighted least squares
    through the singular values of the design (columns scaled to unit norm, singular
    values below ``100·eps·σ_max`` set to zero: a pseudo-inverse where the neighbourhood
    is degenerate). The rows are reduced by a QR factorization in steps of ``_CHUNK``
    rows (the design and its R factor share singular values and right singular vectors),
    so memory stays bounded."""
    r = np.zeros((0, 4))
    for a in range(lo, hi, _CHUNK):
        b = min(a + _CHUNK, hi)
        dx = x[a:b] - qv
        u = np.abs(dx / rho)
        m = pos[a:b] + neg[a:b]
        sw = np.sqrt(m * np.maximum(1.0 - u * u * u, 0.0) ** 3)
        rows = np.stack([sw, sw * dx, sw * dx * dx, sw * (pos[a:b] / m)], axis=1)
        # numpy's stubs type every mode as QRResult; mode="r" returns R alone
        r = np.linalg.qr(np.concatenate([r, rows]), mode="r")  # type: ignore[assignment]
    design, rhs = r[:, :3], r[:, 3]
    norms = np.sqrt((design * design).sum(axis=0))
    norms[norms == 0] = 1.0
    u_, sv, vt = np.linalg.svd(design / norms, full_matrices=False)
    keep = sv > _RCOND * sv[0]
    gamma = np.where(keep, (u_.T @ rhs) / np.where(keep, sv, 1.0), 0.0)
    coef = (vt.T @ gamma) / norms
    return float(coef[0]), float(coef[1])


def use_compiled(rows: float) -> bool:
    """Whether the sums over ``rows`` distinct x values run compiled (the ``"loess"`` route
    of :data:`measurelab._kernels.routing.ROUTES`).

    Examples
    --------
    >>> use_compiled(100)
    False
    """
    from measurelab._kernels.routing import use_compiled as route

    return route("loess", rows)


def _fits(q: np.ndarray, x: np.ndarray, pos: np.ndarray, neg: np.ndarray, cum: np.ndarray,
          nf: float) -> tuple[np.ndarray, np.ndarray] | None:
    """Values and slopes at the points ``q`` of the local quadratic fits over the ``nf``
    nearest cases (tricube weights) of rows with positive weight ``pos`` and negative
    weight ``neg`` (the response is the positive share), ``cum`` their
    :func:`_cumulative` weights; None where a neighbourhood has zero width.

    A neighbourhood is a run of consecutive rows (:func:`_neighbourhoods`), and a fit
    needs eight weighted sums over it (:func:`measurelab._kernels.loess.window_sums`,
    compiled from 2¹⁸ rows): the normal equations of the columns ``1, t, t²``
    (``t = (x − q)/ρ``) scaled to a unit diagonal, solved through their eigenvalues.
    Where the scaled Gram matrix is ill-conditioned or fewer than three rows carry weight
    (a degenerate neighbourhood), the vertex is fitted as R fits it, through the singular
    values of its design (:func:`_exact_fit`). Work O(vertices × rows), memory O(rows).

    Examples
    --------
    >>> x = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    >>> pos = x ** 2
    >>> v, s = _fits(np.array([0.5, 0.6]), x, pos, 1 - pos, _cumulative(pos, 1 - pos)[0], 5)
    >>> np.round(v, 12).tolist(), np.round(s, 12).tolist()
    ([0.25, 0.36], [1.0, 1.2])
    """
    rho2, lo, hi = _neighbourhoods(q, x, cum, nf)
    if not np.all(rho2 > 0):
        return None
    rho = np.sqrt(rho2)
    if use_compiled(x.size):
        from measurelab._kernels.loess import window_sums

        sums = window_sums(x, pos, neg, q, rho, lo, hi)
    else:
        sums = _sums_numpy(q, x, pos, neg, rho, lo, hi)
    gram = sums[:, [[0, 1, 2], [1, 2, 3], [2, 3, 4]]]
    diag = np.sqrt(np.maximum(sums[:, [0, 2, 4]], 0.0))
    ok = (hi - lo >= 3) & np.all(diag > 0, axis=1)
    scale = np.where(ok[:, None], diag, 1.0)
    gram = gram / (scale[:, :, None] * scale[:, None, :])
    gram[~ok] = np.eye(3)
    lam, vec = np.linalg.eigh(gram)
    ok &= lam[:, 0] > _GRAM_RCOND * lam[:, 2]
    rhs = sums[:, 5:] / scale
    proj = np.einsum("pkj,pk->pj", vec, rhs) / np.where(ok[:, None], lam, 1.0)
    coef = np.einsum("pkj,pj->pk", vec, proj) / scale
    vals, slopes = coef[:, 0].copy(), coef[:, 1] / rho
    for v in np.flatnonzero(~ok).tolist():
        if hi[v] <= lo[v]:
            # no row within the radius (its square underflows to 0 against distances of
            # ~1e-141): a zero-width neighbourhood, where R's fit is undefined
            return None
        vals[v], slopes[v] = _exact_fit(float(q[v]), x, pos, neg, float(rho[v]), int(lo[v]),
                                        int(hi[v]))
    return vals, slopes


def loess_surface(x: np.ndarray, pos: np.ndarray, neg: np.ndarray, span: float = 0.75,
                  cell: float = 0.2, integer: bool | None = None) -> Surface | None:
    """R's ``loess(y ~ x)`` surface (degree 2, gaussian, interpolated) over distinct ``x``
    values (increasing) with the weight of positive (y = 1) and negative (y = 0) cases at
    each (``pos + neg`` > 0, frequencies); None where R's fit is undefined (see the module
    docstring). ``integer``: whether the weights are whole numbers (None: found while
    adding them up). Memory: one array of cumulative weights besides the input.

    Examples
    --------
    >>> x = np.linspace(0, 1, 11)
    >>> s = loess_surface(x, x, 1 - x)
    >>> s.verts.size, np.round(surface_at(s, x), 12).tolist()[:3]
    (12, [0.0, 0.1, 0.2])
    """
    cum, whole = _cumulative(pos, neg)
    if integer is None:
        integer = whole
    if not integer:
        cum = _settled(cum)
    total = float(cum[-1])
    nf = min(float(math.floor(total * span)) if integer else total * span, total)
    if nf < 4:  # degree 2 needs more cases in the span than its 3 coefficients
        return None
    verts = _tree(x, cum[1:], total, span, cell, integer)
    fits = _fits(verts, x, pos, neg, cum, nf)
    return None if fits is None else Surface(verts, *fits, whole=bool(integer))


def surface_at(surface: Surface, x: np.ndarray) -> np.ndarray:
    """The loess surface at the points x (within the outer vertices): between neighbouring
    vertices the cubic Hermite interpolant of their values and slopes.

    Examples
    --------
    >>> s = Surface(np.array([0.0, 1.0]), np.array([0.0, 1.0]), np.array([1.0, 1.0]))
    >>> surface_at(s, np.array([0.25, 0.5])).tolist()
    [0.25, 0.5]
    """
    verts, vals, slopes = surface.verts, surface.vals, surface.slopes
    j = np.clip(np.searchsorted(verts, x, side="left"), 1, verts.size - 1)
    v0, v1 = verts[j - 1], verts[j]
    h = (x - v0) / (v1 - v0)
    return ((1 - h) ** 2 * (1 + 2 * h) * vals[j - 1] + h * h * (3 - 2 * h) * vals[j]
            + (h * (1 - h) ** 2 * slopes[j - 1] + h * h * (h - 1) * slopes[j]) * (v1 - v0))


def loess_fit(x: np.ndarray, m: np.ndarray, ybar: np.ndarray, span: float = 0.75,
              cell: float = 0.2, integer: bool | None = None) -> np.ndarray | None:
    """R's ``loess(y ~ x)`` (degree 2, gaussian, interpolated surface) at the distinct
    ``x`` values (increasing) with case weights ``m`` (> 0, frequencies) and mean
    responses ``ybar``; None where R's fit is undefined (see the module docstring). The
    fit is R's, not clipped: it may leave [0, 1].

    Examples
    --------
    >>> x = np.linspace(0, 1, 11)
    >>> np.round(loess_fit(x, np.ones(11), 1 - x), 12).tolist()[:3]
    [1.0, 0.9, 0.8]
    """
    if integer is None:
        integer = bool(np.array_equal(m, np.round(m)))
    pos = m * ybar
    surface = loess_surface(x, pos, m - pos, span, cell, integer)
    if surface is None:
        return None
    out = np.empty(x.size)
    for a in range(0, x.size, _CHUNK):
        out[a:a + _CHUNK] = surface_at(surface, x[a:a + _CHUNK])
    return out
