"""Test sets whose cases come in clusters: several images of a patient, several sentences
of a document (issue 31).

Cases of one cluster are not independent, so an interval that resamples cases (or a
variance that sums over cases) is too narrow. This module holds what makes the intervals
and tests of a comparison cluster-aware:

* the cluster bootstrap (:class:`~measurelab.inference.bootstrap.ClusterDesign`, beside the
  other case designs of the engine): a replicate draws the
  clusters with replacement and every case of a drawn cluster comes with its cluster's
  multiplicity. Clusters are put in a canonical order (by the canonical ranks of their
  cases), so any row order and any spelling of the cluster ids give the same replicates; with
  one case per cluster the replicates equal the case bootstrap's to the last bit.
  ``stratify=True`` resamples the clusters of each class apart when every cluster is of
  one class; otherwise the clusters are resampled jointly and the method text says so.
* :func:`obuchowski_variance` — Obuchowski's (1997) clustered variance of an AUC (or of a
  paired difference of AUCs): DeLong's placements summed within clusters.
  :func:`clustered_delong_interval` and :func:`clustered_delong_paired` give the interval
  (logit scale for one model, as DeLong's) and the paired test.
* :func:`clustered_paired_proportion` — a cluster-robust paired test of two accuracies
  (the ratio-estimator variance of the paired difference of correct decisions, summed
  within clusters) with the interval on the same standard error.

Examples
--------
>>> y = np.array([0, 1, 0, 1, 1, 0, 1, 0], dtype=bool)
>>> s = np.array([0.1, 0.9, 0.3, 0.6, 0.4, 0.5, 0.8, 0.2])
>>> d = ClusterDesign.from_cases(y, [s], groups=check_groups([1, 1, 2, 2, 3, 3, 4, 4], 8))
>>> d.n_clusters, d.draw(np.random.default_rng(0), 2).sum(axis=1).tolist()
(4, [8.0, 8.0])
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from measurelab._util.validation import short_repr
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference._base import _z, z_test
from measurelab.inference.bootstrap import ClusterDesign

__all__ = [
    "check_groups",
    "clustered_delong_interval",
    "clustered_delong_paired",
    "clustered_paired_proportion",
    "obuchowski_variance",
]


def check_groups(groups: Any, n: int, name: str = "groups", *, minimum: int = 2
                 ) -> np.ndarray:
    """Integer codes (0 … G−1, in sorted order of the ids) of one id per case, or a
    one-line error naming ``name``.

    Parameters
    ----------
    groups : array-like of shape (n,)
        One cluster (or subgroup) id per case: integers, strings or floats (no NaN/None).
    n : the number of cases
    name : the parameter's name in the messages
    minimum : the fewest distinct ids allowed

    Examples
    --------
    >>> check_groups(["b", "a", "b"], 3).tolist()
    [1, 0, 1]
    >>> check_groups([1, 2], 3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: groups has 2 values but y_true has 3 cases; ...
    """
    if hasattr(groups, "to_numpy"):
        groups = groups.to_numpy()
    if groups is None or isinstance(groups, str | bytes | dict | set) or np.isscalar(groups):
        raise MeasurelabTypeError(f"{name} must be an array of one id per case, got "
                                  f"{short_repr(groups)}")
    arr = np.asarray(groups)
    if arr.ndim != 1:
        raise MeasurelabError(f"{name} must be 1-d (one id per case), got shape {arr.shape}")
    if arr.size != n:
        raise MeasurelabError(f"{name} has {arr.size} values but y_true has {n} cases; give "
                              "one id per case")
    if arr.dtype.kind == "c" or arr.dtype.kind == "V":
        raise MeasurelabTypeError(f"{name} must hold integers, strings or floats, got dtype "
                                  f"{arr.dtype}")
    if arr.dtype.kind == "f":
        bad = np.flatnonzero(~np.isfinite(arr))
        if bad.size:
            raise MeasurelabError(f"{name} holds {arr[bad[0]]} at position {int(bad[0])}; "
                                  "every case needs a finite id")
    if arr.dtype.kind == "O":
        for i, v in enumerate(arr):
            if v is None or (isinstance(v, float) and not math.isfinite(v)):
                raise MeasurelabError(f"{name} holds {v!r} at position {i}; every case needs "
                                      "an id")
    try:
        _u, codes = np.unique(arr, return_inverse=True)
    except TypeError:
        raise MeasurelabTypeError(f"{name} mixes ids of types that do not sort together "
                                  f"(e.g. {short_repr(arr[0])}); give ids of one type"
                                  ) from None
    codes = codes.reshape(-1).astype(np.int64)
    k = int(codes.max(initial=-1)) + 1
    if k < minimum:
        raise MeasurelabError(f"{name} has {k} distinct id{'s' if k != 1 else ''}; "
                              f"at least {minimum} are needed")
    return codes


def group_labels(groups: Any) -> list[Any]:
    """The distinct ids of ``groups`` in sorted order (the order of :func:`check_groups`'s
    codes), as plain Python values.

    Examples
    --------
    >>> group_labels(["m", "f", "m"])
    ['f', 'm']
    """
    if hasattr(groups, "to_numpy"):
        groups = groups.to_numpy()
    return [v.item() if hasattr(v, "item") else v for v in np.unique(np.asarray(groups))]


def warn_mixed_clusters(design: ClusterDesign) -> None:
    """One warning when ``stratify`` was asked for but some cluster holds both classes."""
    if design.stratify and not design.pure:
        warnings.warn("stratify=True with groups: some clusters hold both classes, so the "
                      "clusters are resampled jointly (not by class)", UserWarning,
                      stacklevel=3)


# ------------------------------------------------------------------ Obuchowski's AUC
def obuchowski_variance(v10: np.ndarray, v01: np.ndarray, c10: np.ndarray,
                        c01: np.ndarray, n_clusters: int) -> float:
    """Obuchowski's (1997) clustered variance of an AUC from DeLong's placements.

    ``v10`` holds the placement of every positive case (the share of negatives it
    outscores, ties ½; for a paired difference, the difference of the two models'
    placements), ``v01`` that of every negative (the share of positives above it), ``c10``
    and ``c01`` the cluster (0 … I−1) of each. With V10_i, V01_i the sums over cluster i,
    m_i, n_i its positives and negatives, N1 = Σm_i, N0 = Σn_i, θ = ΣV10_i / N1:
    S10 = I/((I−1)N1) Σ(V10_i − m_iθ)², S01 = I/((I−1)N0) Σ(V01_i − n_iθ)²,
    S11 = I/(I−1) Σ(V10_i − m_iθ)(V01_i − n_iθ), and
    Var = S10/N1 + S01/N0 + 2·S11/(N1·N0).

    With one case per cluster S11 = 0 and the variance is DeLong's times
    I·(N1 − 1)/((I − 1)·N1) in the positives' term (and the same in N0 in the negatives'):
    Obuchowski's small-sample factor I/(I − 1) with I the number of all clusters where
    DeLong's sample variance divides by N1 − 1.

    Examples
    --------
    >>> v10 = np.array([1.0, 0.5, 1.0]); v01 = np.array([1.0, 2 / 3])
    >>> round(obuchowski_variance(v10, v01, np.array([0, 1, 2]), np.array([0, 1]), 3), 6)
    0.090278
    """
    n1, n0 = v10.size, v01.size
    if n1 == 0 or n0 == 0 or n_clusters < 2:
        return math.nan
    theta = float(v10.sum()) / n1
    s10_i = np.bincount(c10, weights=v10, minlength=n_clusters)
    s01_i = np.bincount(c01, weights=v01, minlength=n_clusters)
    m_i = np.bincount(c10, minlength=n_clusters).astype(np.float64)
    k_i = np.bincount(c01, minlength=n_clusters).astype(np.float64)
    r10 = s10_i - m_i * theta
    r01 = s01_i - k_i * theta
    f = n_clusters / (n_clusters - 1.0)
    s10 = f / n1 * float(np.dot(r10, r10))
    s01 = f / n0 * float(np.dot(r01, r01))
    s11 = f * float(np.dot(r10, r01))
    return s10 / n1 + s01 / n0 + 2.0 * s11 / (n1 * n0)


def clustered_delong_interval(auc: float, var: float, level: float = 0.95,
                              scale: str = "logit") -> tuple[float, float, float]:
    """(lo, hi, se) of one AUC with Obuchowski's clustered variance: on the logit scale
    (``scale='logit'``, as DeLong's default) or AUC ± z·SE clipped to [0, 1] ('wald').
    An AUC of 0 or 1 or a zero variance gives the point; an undefined one NaN.

    Examples
    --------
    >>> [round(x, 4) for x in clustered_delong_interval(0.8, 0.0025)]
    [0.6843, 0.8807, 0.05]
    """
    if not (math.isfinite(auc) and math.isfinite(var)):
        return (math.nan, math.nan, math.nan)
    se = math.sqrt(max(var, 0.0))
    if se == 0.0 or auc <= 0.0 or auc >= 1.0:
        return (auc, auc, se)
    z = _z(level)
    if scale == "wald":
        return (max(0.0, auc - z * se), min(1.0, auc + z * se), se)
    from scipy.special import expit

    centre = math.log(auc) - math.log1p(-auc)
    half = z * se / (auc * (1.0 - auc))
    return (float(expit(centre - half)), float(expit(centre + half)), se)


def clustered_delong_paired(p10: np.ndarray, p01: np.ndarray, c10: np.ndarray,
                            c01: np.ndarray, n_clusters: int, a: int, b: int,
                            level: float = 0.95
                            ) -> tuple[float, float, float, float, float, float]:
    """(diff, lo, hi, se, z, p) of AUC_a − AUC_b with Obuchowski's clustered variance of
    the difference (the placements of the difference summed within clusters).

    Examples
    --------
    >>> p10 = np.array([[1.0, 0.5, 1.0], [1.0, 1.0, 0.5]])
    >>> p01 = np.array([[0.0, 0.5], [0.5, 0.0]])
    >>> clustered_delong_paired(p10, p01, np.array([0, 1, 2]), np.array([0, 1]), 3, 0, 1)[0]
    0.0
    """
    d10 = p10[a] - p10[b]
    d01 = p01[a] - p01[b]
    if d10.size == 0 or d01.size == 0:
        return (math.nan,) * 6
    diff = float(d10.mean())
    var = obuchowski_variance(d10, d01, c10, c01, n_clusters)
    return z_test(diff, var, level)


def clustered_paired_proportion(correct_a: np.ndarray, correct_b: np.ndarray,
                                cluster: np.ndarray, level: float = 0.95
                                ) -> tuple[float, float, float, float, float, float]:
    """(diff, lo, hi, se, z, p) of the paired difference of two proportions of correct
    decisions when cases come in clusters (Obuchowski's ratio estimator).

    With D_i the sum over cluster i of (correct_a − correct_b), n_i its cases, N = Σn_i and
    d = ΣD_i / N: Var(d) = I/(I − 1) · Σ(D_i − n_i d)² / N². The test is d / SE against the
    normal distribution, the interval d ± z·SE (it excludes 0 exactly when p < 1 − level).

    Examples
    --------
    >>> a = np.array([1, 1, 0, 1, 1, 0], dtype=bool); b = np.array([1, 0, 0, 0, 1, 1], dtype=bool)
    >>> [round(x, 4) for x in clustered_paired_proportion(a, b, np.array([0, 0, 1, 1, 2, 2]))]
    [0.1667, -0.4867, 0.82, 0.3333, 0.5, 0.6171]
    """
    cluster = np.asarray(cluster, dtype=np.int64)
    n_cl = int(cluster.max(initial=-1)) + 1
    n = cluster.size
    if n == 0 or n_cl < 2:
        return (math.nan,) * 6
    dif = np.asarray(correct_a, dtype=np.float64) - np.asarray(correct_b, dtype=np.float64)
    d = float(dif.sum()) / n
    d_i = np.bincount(cluster, weights=dif, minlength=n_cl)
    n_i = np.bincount(cluster, minlength=n_cl).astype(np.float64)
    r = d_i - n_i * d
    var = n_cl / (n_cl - 1.0) * float(np.dot(r, r)) / (n * n)
    return z_test(d, var, level)
