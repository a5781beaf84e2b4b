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

Agreement with R 4.2's ``loess`` on fitted values: 1e-14 on random data with and without
ties (tests/measures/test_smooth_calibration.py runs R when it is installed). Undefined
(``None``): fewer than 4 cases in the span (R: "span too small"), or a vertex whose
``nf`` nearest cases all sit at it (R: "zero-width neighborhood", whose fit R returns as
NaN). Where a neighbourhood holds fewer than three distinct x values with positive
weight, the local quadratic is rank-deficient: R and this module both use a
pseudo-inverse, whose value there depends on rounding (the two can differ).
"""

from __future__ import annotations

import math

import numpy as np

#: singular values below this fraction of the largest are set to zero (R: 100·machine eps)
_RCOND = 100 * float(np.finfo(np.float64).eps)


def kd_vertices(x: np.ndarray, m: np.ndarray, span: float = 0.75, cell: float = 0.2,
                integer: bool = True) -> np.ndarray:
    """The vertices (cell boundaries) of R's loess k-d tree over distinct ``x`` values
    (increasing) carrying weights ``m`` (> 0), increasing.

    Examples
    --------
    >>> kd_vertices(np.array([0.0, 1.0]), np.array([6.0, 4.0])).tolist()
    [-0.005, 0.0, 1.0, 1.005]
    """
    total = float(m.sum())
    ends = np.cumsum(m)  # the last position (1-based) of each distinct value
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
        mid = math.floor((first + last) / 2)
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


#: vertices fitted at once hold at most this many cells (vertices × distinct x values)
_CELLS = 1 << 21


def local_fits(q: np.ndarray, x: np.ndarray, m: np.ndarray, ybar: np.ndarray,
               nf: float) -> tuple[np.ndarray, np.ndarray] | None:
    """Values and slopes at the points ``q`` of the local quadratic fits over the ``nf``
    nearest cases (tricube weights), all points at once; None where a neighbourhood has
    zero width.

    Examples
    --------
    >>> x = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    >>> v, s = local_fits(np.array([0.5, 0.6]), x, np.ones(5), x ** 2, 5)
    >>> np.round(v, 12).tolist(), np.round(s, 12).tolist()
    ([0.25, 0.36], [1.0, 1.2])
    """
    vals = np.empty(q.size)
    slopes = np.empty(q.size)
    step = max(1, _CELLS // max(1, x.size))
    for a in range(0, q.size, step):
        qs = q[a:a + step, None]
        d2 = (x[None, :] - qs) ** 2
        order = np.argsort(d2, axis=1, kind="stable")
        cum = np.cumsum(m[order], axis=1)
        k = np.minimum((cum < nf).sum(axis=1), x.size - 1)
        rho = d2[np.arange(qs.shape[0]), order[np.arange(qs.shape[0]), k]][:, None]
        if not np.all(rho > 0):
            return None
        inside = d2 < rho
        u = np.sqrt(np.where(inside, d2 / rho, 1.0))
        sw = np.sqrt(np.where(inside, m * (1.0 - u ** 3) ** 3, 0.0))
        dx = x[None, :] - qs
        design = np.stack([sw, sw * dx, sw * dx * dx], axis=2)  # (points, x values, 3)
        norms = np.sqrt((design * design).sum(axis=1))
        norms[norms == 0] = 1.0
        u_, sv, vt = np.linalg.svd(design / norms[:, None, :], full_matrices=False)
        uty = np.einsum("pmk,pm->pk", u_, sw * ybar[None, :])
        keep = sv > _RCOND * sv[:, :1]
        gamma = np.where(keep, uty / np.where(keep, sv, 1.0), 0.0)
        coef = np.einsum("pkj,pk->pj", vt, gamma) / norms
        vals[a:a + step] = coef[:, 0]
        slopes[a:a + step] = coef[:, 1]
    return vals, slopes


def loess_fit(x: np.ndarray, m: np.ndarray, ybar: np.ndarray, span: float = 0.75,
              cell: float = 0.2, integer: bool | None = None) -> np.ndarray | None:
    """R's ``loess(y ~ x)`` (degree 2, gaussian, interpolated surface) at the distinct
    ``x`` values (increasing) with case weights ``m`` (> 0, frequencies) and mean
    responses ``ybar``; None where R's fit is undefined (see the module docstring).

    Examples
    --------
    >>> x = np.linspace(0, 1, 11)
    >>> np.round(loess_fit(x, np.ones(11), 1 - x), 12).tolist()[:3]
    [1.0, 0.9, 0.8]
    """
    if integer is None:
        integer = bool(np.array_equal(m, np.round(m)))
    total = float(m.sum())
    nf = min(float(math.floor(total * span)) if integer else total * span, total)
    if nf < 4:  # degree 2 needs more cases in the span than its 3 coefficients
        return None
    verts = kd_vertices(x, m, span, cell, integer)
    fits = local_fits(verts, x, m, ybar, nf)
    if fits is None:
        return None
    vals, slopes = fits
    j = np.clip(np.searchsorted(verts, x, side="left"), 1, verts.size - 1)
    v0, v1 = verts[j - 1], verts[j]
    h = (x - v0) / (v1 - v0)
    return ((1 - h) ** 2 * (1 + 2 * h) * vals[j - 1] + h * h * (3 - 2 * h) * vals[j]
            + (h * (1 - h) ** 2 * slopes[j - 1] + h * h * (h - 1) * slopes[j]) * (v1 - v0))
