"""Bootstrap intervals and tests from one distribution of replicates: percentile and BCa
intervals (Efron 1987), undefined replicates counted at the ends of the statistic's range
(:func:`range_bounds`), and the p-values that invert the same intervals, so that an
interval excludes 0 exactly when p < 1 − level. The replicates come from :mod:`.engine`.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np

from measurelab.pickling import versioned_pickle

_NORMAL = NormalDist()


def _quantile(sorted_r: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Row-wise linear-interpolation quantiles (numpy's default rule) of sorted rows that
    may hold ±inf: an end between a finite value and an infinite one is infinite."""
    n = sorted_r.shape[1]
    h = np.clip(q, 0.0, 1.0) * (n - 1)
    i = np.minimum(np.floor(h).astype(np.int64), n - 1)
    f = h - i
    rows = np.arange(sorted_r.shape[0])
    lo = sorted_r[rows, i]
    hi = sorted_r[rows, np.minimum(i + 1, n - 1)]
    with np.errstate(invalid="ignore"):
        v = lo + f * (hi - lo)
    v = np.where(np.isinf(hi) & (f > 0), hi, v)
    return np.where((f == 0) | np.isinf(lo) | (lo == hi), lo, v)


def _phi(x: np.ndarray) -> np.ndarray:
    from scipy.special import ndtr

    return ndtr(x)


def _phi_inv(p: np.ndarray) -> np.ndarray:
    from scipy.special import ndtri

    return ndtri(p)


def range_bounds(measures: Any, *, difference: bool = False) -> np.ndarray:
    """What an undefined replicate of each measure counts as, (m, 2): the low and high
    end of the measure's declared range when both are finite (of a difference of two
    values of the measure: ``(low − high, high − low)``; of a measure with a target value
    the comparisons difference the distances to it, which lie in ``[0, D]``: ``(−D, D)``),
    else ``(−inf, inf)``.

    Parameters
    ----------
    measures : :class:`~measurelab.measures.base.Measure` objects (or registry names)
    difference : the statistics are differences of two values of each measure

    Examples
    --------
    >>> range_bounds(["sens", "mcc", "mxe"]).tolist()
    [[0.0, 1.0], [-1.0, 1.0], [-inf, inf]]
    >>> range_bounds(["sens"], difference=True).tolist()
    [[-1.0, 1.0]]
    """
    from measurelab.measures.base import Measure, registry

    out = np.empty((len(measures), 2))
    for i, m in enumerate(measures):
        if not isinstance(m, Measure):
            m = registry.resolve(m)[0]
        lo, hi = (float(v) for v in m.range)
        if not (math.isfinite(lo) and math.isfinite(hi)):
            lo, hi = -math.inf, math.inf
        elif difference and m.target is not None:
            far = max(m.target - lo, hi - m.target)
            lo, hi = -far, far
        elif difference:
            lo, hi = lo - hi, hi - lo
        out[i] = (lo, hi)
    return out


def _positions(q: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest sorted position that :func:`_quantile` reads at ``q``."""
    h = np.clip(q, 0.0, 1.0) * (n - 1)
    i = np.minimum(np.floor(h).astype(np.int64), n - 1)
    return i, np.minimum(i + (h > i), n - 1)


@versioned_pickle
class BootstrapIntervals:
    """Percentile or BCa intervals of several statistics, and the p-values of 'the
    statistic is 0' inverted from the same intervals.

    Parameters
    ----------
    reps : ndarray (m, B), replicates of m statistics
    theta : ndarray (m,), each statistic's estimate by the replicates' own route (the
        comparisons with the replicates that BCa's bias correction makes)
    value : ndarray (m,), the reported estimates (the interval always contains them)
    jack : ndarray (m, G), jackknife values (BCa's acceleration); empty for percentile
    bca : bool per statistic: BCa (else percentile)
    level : the reported confidence level
    bounds : ndarray (m, 2) or None, what an undefined replicate counts as for the lower
        and the upper end (:func:`range_bounds`); None: −inf and +inf

    :attr:`rests` says, per statistic, whether the lower and the upper end at ``level``
    rest on undefined replicates; :meth:`notes` gives what
    :func:`~measurelab.inference.intervals.warn_nonfinite` needs.

    BCa falls back to the percentile interval where the estimate sits at the edge of its
    replicates (its bias correction or acceleration is not finite, or the BCa levels fall
    outside the replicates' resolution ``[1/(2B), 1 − 1/(2B)]`` at ``level``):
    :attr:`method` says which was used.

    Examples
    --------
    >>> r = np.random.default_rng(0).normal(1.0, 1.0, (1, 4000))
    >>> bi = BootstrapIntervals(r, np.array([1.0]), np.array([1.0]), np.empty((1, 0)),
    ...                         np.array([False]), 0.95)
    >>> [round(float(x), 1) for x in (*bi.lo, *bi.hi)], round(float(bi.p[0]), 2)
    ([-0.9, 3.0], 0.33)
    """

    def __init__(self, reps: np.ndarray, theta: np.ndarray, value: np.ndarray,
                 jack: np.ndarray, bca: np.ndarray, level: float,
                 bounds: np.ndarray | None = None) -> None:
        reps = np.asarray(reps, dtype=np.float64)
        m, b = reps.shape
        nan = np.isnan(reps)
        self.B = b
        self.undefined = nan.mean(axis=1)
        self.infinite = np.isinf(reps).mean(axis=1)
        self.bounds = (np.tile([-np.inf, np.inf], (m, 1)) if bounds is None
                       else np.asarray(bounds, dtype=np.float64).reshape(m, 2))
        self._n_nan = nan.sum(axis=1)
        self._low = np.sort(np.where(nan, self.bounds[:, :1], reps), axis=1)
        self._high = np.sort(np.where(nan, self.bounds[:, 1:], reps), axis=1)
        self.value = np.asarray(value, dtype=np.float64)
        self.level = float(level)
        theta = np.asarray(theta, dtype=np.float64)
        defined = (~nan).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            below = (reps < theta[:, None]).sum(axis=1) + 0.5 * (reps == theta[:, None]).sum(1)
            self.z0 = _phi_inv(below / defined)
            self.acc = _acceleration(np.asarray(jack, dtype=np.float64))
        usable = np.isfinite(self.z0) & np.isfinite(self.acc) & np.isfinite(theta)
        self.bca = np.asarray(bca, dtype=bool) & usable
        a1, a2 = self._levels(np.full(m, 1.0 - level), self.bca)
        edge = (a1 < 0.5 / b) | (a2 > 1.0 - 0.5 / b)
        self.fallback = self.bca & edge
        self.bca = self.bca & ~edge
        self.method = np.where(self.bca, "bootstrap-bca", "bootstrap-percentile")
        self.method = np.where(np.asarray(bca, dtype=bool) & ~self.bca,
                               "bootstrap-percentile (BCa at edge)", self.method)
        self.lo, self.hi = self.interval(np.full(m, 1.0 - level))
        self.rests = self._rests(np.full(m, 1.0 - level))
        bounded = np.isfinite(self.bounds).all(axis=1)
        self.method = np.array([
            f"{meth} ({100 * u:.3g}% undefined: counted at the ends of "
            f"[{bd[0]:g}, {bd[1]:g}])" if ok and r.any() else str(meth)
            for meth, u, bd, ok, r in zip(self.method, self.undefined, self.bounds, bounded,
                                          self.rests, strict=True)], dtype=object)
        self.p = self._invert()

    def __str__(self) -> str:
        """Each statistic's interval and method, one a line.

        Examples
        --------
        >>> r = np.random.default_rng(0).normal(1.0, 1.0, (1, 4000))
        >>> print(BootstrapIntervals(r, np.array([1.0]), np.array([1.0]), np.empty((1, 0)),
        ...                          np.array([False]), 0.95))
        Bootstrap intervals of 1 statistic at 95% (4000 replicates):
          1: 1, interval −0.935 to 2.96 (bootstrap-percentile)
        """
        from measurelab._util.words import counted, num

        lines = [f"Bootstrap intervals of {counted(self.value.size, 'statistic')} at "
                 f"{self.level:.0%} ({self.B} replicates):"]
        for i, (v, lo, hi, m) in enumerate(zip(self.value, self.lo, self.hi, self.method,
                                               strict=True)):
            lines.append(f"  {i + 1}: {num(v)}, interval {num(lo, 3)} to {num(hi, 3)} ({m})")
        return "\n".join(lines)
    def _rests(self, alpha: np.ndarray) -> np.ndarray:
        """Whether the lower and the upper end at two-sided ``alpha`` read an undefined
        replicate (counted at the bound: they sort below, respectively above, every
        defined replicate), (m, 2)."""
        a1, a2 = self._levels(alpha, self.bca)
        lo_first, _ = _positions(a1, self.B)
        _, hi_last = _positions(a2, self.B)
        lo_q = _quantile(self._low, a1)
        hi_q = _quantile(self._high, a2)
        ok = ~np.isnan(self.value)  # an undefined estimate has no interval to rest
        with np.errstate(invalid="ignore"):
            lo = ok & (lo_first < self._n_nan) & ~(self.value < lo_q)
            hi = ok & (hi_last >= self.B - self._n_nan) & ~(self.value > hi_q)
        return np.stack([lo, hi], axis=1)

    def notes(self, i: int) -> dict[str, Any]:
        """What :func:`~measurelab.inference.intervals.warn_nonfinite` says of statistic
        ``i`` beyond the shares: its bounds and which ends rest on undefined replicates."""
        return {"bounds": (float(self.bounds[i, 0]), float(self.bounds[i, 1])),
                "rests": (bool(self.rests[i, 0]), bool(self.rests[i, 1]))}

    def _levels(self, alpha: np.ndarray, bca: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Quantile levels of the two ends at two-sided ``alpha`` (percentile, or BCa's)."""
        half = np.clip(alpha / 2.0, 0.0, 0.5)
        lo_p, hi_p = half, 1.0 - half
        z = _phi_inv(1.0 - half)  # ≥ 0
        z0 = np.where(bca, self.z0, 0.0)
        acc = np.where(bca, self.acc, 0.0)
        with np.errstate(all="ignore"):
            out = []
            for sign, widest in ((-1.0, 0.0), (1.0, 1.0)):
                t = z0 + sign * z
                den = 1.0 - acc * t
                lev = _phi(z0 + t / den)
                lev = np.where(den > 0, lev, widest)
                lev = np.where(np.isinf(z), widest, lev)
                out.append(lev)
        return np.where(bca, out[0], lo_p), np.where(bca, out[1], hi_p)

    def interval(self, alpha: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The (lo, hi) of every statistic at two-sided ``alpha``, each containing its
        estimate."""
        a1, a2 = self._levels(alpha, self.bca)
        lo = _quantile(self._low, a1)
        hi = _quantile(self._high, a2)
        ok = ~np.isnan(self.value)
        lo = np.where(ok, np.fmin(lo, self.value), np.nan)
        hi = np.where(ok, np.fmax(hi, self.value), np.nan)
        return lo, hi

    def _invert(self) -> np.ndarray:
        """p = the smallest alpha whose interval excludes 0 (1 if none does), by
        bisection on the same interval function, consistent with every reported level:
        the interval at ``level`` excludes 0 exactly when p < 1 − level."""
        m = self.value.size

        def excl(alpha: np.ndarray) -> np.ndarray:
            lo, hi = self.interval(alpha)
            return (lo > 0) | (hi < 0)

        lo = np.zeros(m)
        hi = np.ones(m)
        at_one = excl(hi)
        # the reported level is a probe: p lands on the side its interval says
        ref = np.full(m, 1.0 - self.level)
        e_ref = excl(ref)
        hi = np.where(e_ref, ref, hi)
        lo = np.where(e_ref, lo, ref)
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            e = excl(mid)
            hi = np.where(e, mid, hi)
            lo = np.where(e, lo, mid)
        # no finer than the B replicates resolve (1/(B + 1)), unless that would contradict
        # the interval at the reported level
        p = np.maximum(0.5 * (lo + hi), 1.0 / (self.B + 1))
        # strictly below the reported level's alpha where its interval excludes 0, else not
        p = np.where(e_ref, np.minimum(p, np.nextafter(ref, 0.0)), np.maximum(p, ref))
        p = np.where(at_one | e_ref, p, 1.0)
        return np.where(np.isnan(self.value), np.nan, p)


def _acceleration(jack: np.ndarray) -> np.ndarray:
    """BCa's acceleration per row: Σd³ / (6 (Σd²)^{3/2}), d = mean − θ₍ᵢ₎ over the finite
    jackknife values (0 when they do not vary). The rows are summed in C order whatever the
    caller's layout (a transposed view sums in another order: other last bits)."""
    if jack.shape[1] == 0:
        return np.zeros(jack.shape[0])
    jack = np.ascontiguousarray(jack)
    fin = np.isfinite(jack)
    cnt = fin.sum(axis=1)
    j = np.where(fin, jack, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = j.sum(axis=1) / cnt
        d = np.where(fin, mean[:, None] - j, 0.0)
        s2 = (d * d).sum(axis=1)
        s3 = (d**3).sum(axis=1)
        acc = np.where(s2 > 0, s3 / (6.0 * s2**1.5), 0.0)
    return np.where(cnt > 0, acc, np.nan)


def bootstrap_intervals(reps: np.ndarray, theta: np.ndarray, value: np.ndarray,
                        jack: np.ndarray, bca: np.ndarray, level: float,
                        bounds: np.ndarray | None = None) -> BootstrapIntervals:
    """Shorthand for :class:`BootstrapIntervals` (its p-values are consistent with
    ``level``'s interval)."""
    return BootstrapIntervals(reps, theta, value, jack, bca, level, bounds)


def percentile_interval(reps: np.ndarray, level: float,
                        bounds: tuple[float, float] = (-math.inf, math.inf)
                        ) -> tuple[float, float]:
    """Percentile interval of bootstrap replicates (undefined replicates count as
    ``bounds[0]`` for the lower end and ``bounds[1]`` for the upper one: the ends of the
    statistic's range, :func:`range_bounds`; −∞ and +∞ by default).

    Examples
    --------
    >>> [round(x, 9) for x in percentile_interval(np.arange(101.0), 0.9)]
    [5.0, 95.0]
    >>> r = np.r_[np.full(97, 0.5), np.full(3, np.nan)]   # 3% undefined: no end reaches them
    >>> percentile_interval(r, 0.9, (0.0, 1.0)), percentile_interval(r, 0.98, (0.0, 1.0))
    ((0.5, 0.5), (0.0, 1.0))
    """
    r = np.asarray(reps, dtype=np.float64)[None, :]
    if r.size == 0:
        return (math.nan, math.nan)
    a = (1.0 - level) / 2.0
    lo = _quantile(np.sort(np.where(np.isnan(r), bounds[0], r), axis=1), np.array([a]))
    hi = _quantile(np.sort(np.where(np.isnan(r), bounds[1], r), axis=1), np.array([1.0 - a]))
    return (float(lo[0]), float(hi[0]))


def z_of(level: float) -> float:
    """The two-sided normal quantile of ``level`` (1.96 at 0.95).

    Examples
    --------
    >>> round(z_of(0.95), 4)
    1.96
    """
    return _NORMAL.inv_cdf(0.5 + level / 2.0)


def bca_interval(theta: float, reps: np.ndarray, jack: np.ndarray,
                 level: float, bounds: tuple[float, float] = (-math.inf, math.inf)
                 ) -> tuple[float, float]:
    """Bias-corrected and accelerated interval (Efron 1987) of one statistic.

    z₀ = Φ⁻¹((#{θ* < θ} + ½#{θ* = θ}) / B), a = Σd³ / (6 (Σd²)^{3/2}) with d the jackknife
    deviations; the ends are the replicate quantiles at Φ(z₀ + (z₀ + z_α)/(1 − a(z₀ + z_α))).
    Falls back to the percentile interval where the estimate sits at the edge of its
    replicates (:class:`~measurelab.inference.bootstrap.BootstrapIntervals`); the interval always
    contains θ. Undefined replicates count as ``bounds[0]`` for the lower end and
    ``bounds[1]`` for the upper (the ends of the statistic's range,
    :func:`~measurelab.inference.bootstrap.range_bounds`; −∞ and +∞ by default).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> lo, hi = bca_interval(0.0, rng.normal(size=4000), np.linspace(-1, 1, 20), 0.95)
    >>> round(lo, 1), round(hi, 1)
    (-1.9, 2.0)
    """
    r = np.asarray(reps, dtype=np.float64)
    if r.size == 0 or not math.isfinite(theta):
        return (math.nan, math.nan)
    bi = BootstrapIntervals(r[None, :], np.array([theta]), np.array([theta]),
                            np.asarray(jack, dtype=np.float64)[None, :], np.array([True]),
                            level, np.array([bounds], dtype=np.float64))
    return (float(bi.lo[0]), float(bi.hi[0]))
