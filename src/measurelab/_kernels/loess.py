"""The compiled loops of :mod:`measurelab.measures.calibration._loess` and of the ICI family
(:mod:`measurelab.measures.calibration.loess`; numba, loaded on first use).

A vertex's local quadratic fit needs eight weighted sums over its neighbourhood, a run of
consecutive rows of the sorted distinct x values: ``Σ w·tᵏ`` (k = 0..4) and
``Σ w·ȳ·tᵏ`` (k = 0..2), with ``t = (x − q)/ρ``, tricube weights ``w = m·(1 − |t|³)³``
(``m`` the row's weight) and ``w·ȳ`` the tricube weight times the row's positive weight.
:func:`window_sums` makes one pass over each run, in row order; the numpy route computes
the same products and adds them pairwise, so the two agree to rounding, not bit for bit.
:func:`errors` evaluates the surface at every row and counts the errors into bins in one
pass; :func:`cumulative` is ``np.cumsum`` of the rows' weights, bit for bit, and tells whether
they are whole numbers.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def window_sums(x: np.ndarray, pos: np.ndarray, neg: np.ndarray, q: np.ndarray,
                rho: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The eight sums of every vertex ``q[v]`` over rows ``lo[v] .. hi[v] − 1`` at radius
    ``rho[v]`` (> 0), rows of ``pos`` positive and ``neg`` negative weight: an array
    (vertices, 8) of ``Σw, Σwt, Σwt², Σwt³, Σwt⁴, Σwȳ, Σwȳt, Σwȳt²`` (``w·ȳ`` is the
    tricube weight times the positive weight)."""
    out = np.zeros((q.size, 8))
    for v in range(q.size):
        qv = q[v]
        inv = 1.0 / rho[v]
        s0 = s1 = s2 = s3 = s4 = b0 = b1 = b2 = 0.0
        for k in range(lo[v], hi[v]):
            t = (x[k] - qv) * inv
            u = abs(t)
            c = max(1.0 - u * u * u, 0.0)  # |t| rounded to 1 at the boundary: weight 0
            tri = c * c * c
            w = (pos[k] + neg[k]) * tri
            wy = pos[k] * tri
            wt = w * t
            wt2 = wt * t
            wyt = wy * t
            s0 += w
            s1 += wt
            s2 += wt2
            s3 += wt2 * t
            s4 += wt2 * t * t
            b0 += wy
            b1 += wyt
            b2 += wyt * t
        out[v, 0] = s0
        out[v, 1] = s1
        out[v, 2] = s2
        out[v, 3] = s3
        out[v, 4] = s4
        out[v, 5] = b0
        out[v, 6] = b1
        out[v, 7] = b2
    return out


@nb.njit(cache=True, nogil=True)
def errors(x: np.ndarray, pos: np.ndarray, neg: np.ndarray, verts: np.ndarray,
           vals: np.ndarray, slopes: np.ndarray, err: np.ndarray, hist: np.ndarray) -> tuple:
    """``err[k] = |x[k] − curve(x[k])|`` at every row (x increasing), the curve the cubic
    Hermite surface through the vertices clipped to [0, 1]; the weight ``pos + neg`` of
    the errors counted into ``hist`` (bin ⌊e·bins⌋, the last bin closed); returns (total
    weight, Σ weight·error, largest error)."""
    nb_ = hist.size
    j = 1
    last = verts.size - 1
    wsum = 0.0
    total = 0.0
    top = 0.0
    for k in range(x.size):
        xk = x[k]
        while j < last and verts[j] < xk:
            j += 1
        v0 = verts[j - 1]
        v1 = verts[j]
        h = (xk - v0) / (v1 - v0)
        g = 1 - h
        f = (g * g * (1 + 2 * h) * vals[j - 1] + h * h * (3 - 2 * h) * vals[j]
             + (h * g * g * slopes[j - 1] + h * h * (h - 1) * slopes[j]) * (v1 - v0))
        if f < 0.0:
            f = 0.0
        elif f > 1.0:
            f = 1.0
        e = abs(xk - f)
        err[k] = e
        m = pos[k] + neg[k]
        wsum += m
        total += m * e
        if e > top:
            top = e
        b = int(e * nb_)
        if b > nb_ - 1:
            b = nb_ - 1
        hist[b] += m
    return wsum, total, top


@nb.njit(cache=True, nogil=True)
def in_bins(err: np.ndarray, pos: np.ndarray, neg: np.ndarray, wanted: np.ndarray) -> tuple:
    """The errors (and their rows' weight) whose bin (as in :func:`errors`) is marked in
    ``wanted`` (a flag per bin), in row order."""
    nb_ = wanted.size
    count = 0
    for k in range(err.size):
        b = int(err[k] * nb_)
        if wanted[min(b, nb_ - 1)]:
            count += 1
    v = np.empty(count)
    w = np.empty(count)
    i = 0
    for k in range(err.size):
        b = int(err[k] * nb_)
        if wanted[min(b, nb_ - 1)]:
            v[i] = err[k]
            w[i] = pos[k] + neg[k]
            i += 1
    return v, w


@nb.njit(cache=True, nogil=True)
def cumulative(pos: np.ndarray, neg: np.ndarray) -> tuple:
    """(The weight of the rows before each row and of all (rows + 1 entries): the
    sequential sums of ``np.cumsum(pos + neg)``, bit for bit; whether every weight is a
    whole number)."""
    cum = np.empty(pos.size + 1)
    acc = 0.0
    whole = True
    cum[0] = 0.0
    for k in range(pos.size):
        p = pos[k]
        q = neg[k]
        if whole and (p != math.floor(p) or q != math.floor(q)):
            whole = False
        acc += p + q
        cum[k + 1] = acc
    return cum, whole
