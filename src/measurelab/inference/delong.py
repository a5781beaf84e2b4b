"""DeLong's method, all of it: the interval of one AUC, the covariance of several, the
paired and the unpaired test (docs/METHODS.md#delong, #unpaired).

* :func:`delong_placements`, :func:`delong_variance` — the placements of a score table
  (ties ½) and DeLong's variance of its AUC, O(rows).
* :func:`delong_interval` — the AUC with DeLong's standard error (DeLong, DeLong &
  Clarke-Pearson 1988) and an interval formed on the logit scale (default; it stays inside
  [0, 1] and covers near the boundary, Pohar Perme & Manevski 2018) or the plain Wald
  interval clipped to [0, 1] (``scale="wald"``, pROC's ``ci.auc(method = "delong")``).
* :func:`delong_unpaired` — two models on two different test sets: pROC's
  ``roc.test(paired = FALSE)``, the statistic D with Welch–Satterthwaite degrees of freedom
  and a p-value from Student's t.

* :func:`delong` — the plain Wald interval AUC ± z·SE clipped to [0, 1].
* :func:`delong_cov`, :func:`delong_components` — several models on the same cases: their
  AUCs and DeLong's covariance matrix, or the per-case placements behind it.
* :func:`delong_paired`, :func:`delong_paired_placements` — DeLong's paired test of two
  AUCs on the same cases (pROC's ``roc.test(paired = TRUE)``), with the interval on the
  test's standard error.

Degenerate inputs are stated, not returned as a silent NaN: a zero standard error (constant
scores, or a perfectly separating model) gives the point interval [AUC, AUC] and an
:class:`~measurelab.exceptions.UndefinedMeasureWarning` naming why; a missing class or fewer
than two cases of a class gives NaN ends and a warning naming which.

Examples
--------
>>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.9])
>>> r = delong_interval(t)
>>> round(r.value, 4), round(r.lo, 4), round(r.hi, 4), r.method
(0.7778, 0.173, 0.9832, 'delong-logit')
"""

from __future__ import annotations

import math

import numpy as np

from measurelab._util.results import ZTestResult as ZTestResult  # public
from measurelab._util.validation import check_int, warn_undefined
from measurelab.exceptions import MeasurelabError
from measurelab.inference._base import Interval, _z, check_level, z_test
from measurelab.stats.scoretable import ScoreTable

SCALES = ("logit", "wald")
#: a standard error at or below this is zero (rounding of weighted placements)
SE_ZERO = 1e-12


def delong_placements(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """Per-row placements: V10 of a positive at each score (fraction of negatives below,
    ties ½) and V01 of a negative (fraction of positives above, ties ½).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([False, True, False, True], [0.1, 0.4, 0.4, 0.8])
    >>> v10, v01 = delong_placements(t)
    >>> v10.tolist(), v01.tolist()
    ([0.25, 0.75, 1.0], [1.0, 0.75, 0.25])
    """
    n1, n0 = table.n_pos, table.n_neg
    # (neg_below + neg/2)/n₀ and (pos_above + pos/2)/n₁, in place: two arrays of the
    # table's length and one temporary
    v10 = np.cumsum(table.neg)
    v10 -= table.neg
    v01 = np.cumsum(table.pos)
    np.subtract(table.n_pos, v01, out=v01)
    with np.errstate(invalid="ignore", divide="ignore"):
        half = np.multiply(0.5, table.neg)
        v10 += half
        v10 /= n0
        np.multiply(0.5, table.pos, out=half)
        v01 += half
        v01 /= n1
    return v10, v01


def delong_variance(table: ScoreTable) -> tuple[float, float]:
    """AUC and DeLong's variance S10/n₁ + S01/n₀ of a table with both classes (the
    variance is NaN with fewer than 2 cases of a class).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.9])
    >>> [round(x, 4) for x in delong_variance(t)]
    [0.7778, 0.0617]
    """
    n1, n0 = table.n_pos, table.n_neg
    v10, v01 = delong_placements(table)
    auc = float(np.dot(table.pos, v10) / n1)
    if n1 < 2 or n0 < 2:
        return auc, math.nan
    v10 -= auc   # (v − AUC)², in place
    v10 **= 2
    v01 -= auc
    v01 **= 2
    s10 = float(np.dot(table.pos, v10) / (n1 - 1))
    s01 = float(np.dot(table.neg, v01) / (n0 - 1))
    return auc, s10 / n1 + s01 / n0


def _auc_variance(table: ScoreTable) -> tuple[float, float, str | None]:
    """AUC, DeLong's variance S10/n₁ + S01/n₀ and, when the variance is undefined, why.

    The reason is ``None`` when the variance is defined (possibly 0); otherwise the
    variance is NaN and the AUC is NaN when a class is missing.
    """
    n1, n0 = float(table.n_pos), float(table.n_neg)
    if n1 == 0 or n0 == 0:
        missing = "positives" if n1 == 0 else "negatives"
        return math.nan, math.nan, f"no {missing} (one class missing): the AUC is undefined"
    auc, var = delong_variance(table)
    if n1 < 2 or n0 < 2:
        few = "positive" if n1 < 2 else "negative"
        return auc, math.nan, (
            f"fewer than 2 {few} cases (n_pos={n1:g}, n_neg={n0:g}): DeLong's variance "
            "needs at least 2 cases of each class")
    return auc, var, None


def _zero_se_reason(table: ScoreTable, auc: float) -> str:
    if table.size == 1:
        return "constant scores (every case has the same score)"
    return f"perfect separation (AUC = {auc:g})"


def _logit_interval(auc: float, se: float, z: float) -> tuple[float, float]:
    """logit(AUC) ± z·SE/(AUC(1−AUC)), back-transformed; needs 0 < AUC < 1."""
    from scipy.special import expit

    centre = math.log(auc) - math.log1p(-auc)
    half = z * se / (auc * (1.0 - auc))
    return float(expit(centre - half)), float(expit(centre + half))


def delong_interval(table: ScoreTable, confidence_level: float = 0.95,
                    scale: str = "logit") -> Interval:
    """The AUC of one model with DeLong's standard error and interval.

    Var(AUC) = S10/n₁ + S01/n₀, with S10 and S01 the sample variances (ddof 1) of the
    placements of the positives and of the negatives (ties count ½), weighted by the
    table's counts.

    Parameters
    ----------
    table : ScoreTable
        The model's scores with the (weighted) positives and negatives at each.
    confidence_level : float, default 0.95
        Confidence level in (0, 1).
    scale : {"logit", "wald"}, default "logit"
        ``"logit"``: logit(AUC) ± z·SE/(AUC(1−AUC)), back-transformed, so the interval stays
        inside [0, 1]. ``"wald"``: AUC ± z·SE clipped to [0, 1] (pROC's convention).

    Returns
    -------
    Interval
        ``(value, lo, hi, method, se)`` with method ``"delong-logit"`` or ``"delong"``.
        A zero SE (constant scores; perfect separation, AUC 1 or 0) gives ``lo = hi =
        value`` and a warning naming why; a missing class (value NaN) or fewer than two
        cases of a class gives NaN ends and a warning.

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.9])
    >>> r = delong_interval(t, scale="wald")
    >>> round(r.value, 4), round(r.lo, 4), round(r.hi, 4), round(r.se, 4), r.method
    (0.7778, 0.2908, 1.0, 0.2485, 'delong')

    A perfectly separating model has SE 0; its interval is the point AUC:

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     r = delong_interval(ScoreTable.from_arrays([0, 0, 1, 1], [0.1, 0.2, 0.7, 0.9]))
    >>> r.value, r.lo, r.hi, r.se
    (1.0, 1.0, 1.0, 0.0)
    >>> "perfect separation" in str(w[0].message)
    True
    """
    level = check_level(confidence_level, "confidence_level")
    if scale not in SCALES:
        raise MeasurelabError(f"scale must be one of {SCALES}, got {scale!r}")
    method = "delong-logit" if scale == "logit" else "delong"
    auc, var, reason = _auc_variance(table)
    if reason is not None:
        warn_undefined(f"DeLong interval undefined: {reason}")
        return Interval(auc, math.nan, math.nan, method)
    se = math.sqrt(max(var, 0.0))
    if se <= SE_ZERO:
        warn_undefined(f"DeLong interval is the point AUC = {auc:g}: the standard error is 0 "
                       f"because of {_zero_se_reason(table, auc)}")
        return Interval(auc, auc, auc, method, 0.0)
    z = _z(level)
    if scale == "wald":
        return Interval(auc, max(0.0, auc - z * se), min(1.0, auc + z * se), method, se)
    if auc <= 0.0 or auc >= 1.0:  # not reached with SE > 0; kept so no NaN can escape
        warn_undefined(f"DeLong interval is the point AUC = {auc:g}: perfect separation "
                       f"(AUC = {auc:g}) has no logit")
        return Interval(auc, auc, auc, method, se)
    lo, hi = _logit_interval(auc, se, z)
    return Interval(auc, lo, hi, method, se)


def delong_unpaired(table_a: ScoreTable, table_b: ScoreTable,
                    confidence_level: float = 0.95) -> dict:
    """DeLong's test of AUC_a − AUC_b for two models on two different test sets.

    As pROC's ``roc.test(paired = FALSE)``: D = (AUC_a − AUC_b)/√(V_a + V_b) with V each
    AUC's DeLong variance, Welch–Satterthwaite degrees of freedom
    df = (V_a + V_b)² / (V_a²/(N_a − 1) + V_b²/(N_b − 1)) with N the number of cases
    (positives plus negatives) of each test set, and the two-sided p = 2·P(T_df < −|D|).
    The interval is diff ± t_df·SE (pROC reports none for this test).

    Parameters
    ----------
    table_a, table_b : ScoreTable
        The two models' score tables, each on its own test set.
    confidence_level : float, default 0.95
        Confidence level of the interval of the difference.

    Returns
    -------
    dict
        ``diff, lo, hi, se, z, df, p, method``; ``z`` is pROC's D and method is
        ``"delong-unpaired"``. SE 0 gives D = 0 and p = 1 when the AUCs are equal, else
        D = ±inf and p = 0, with a warning; an undefined variance (a missing class, fewer
        than two cases of a class) gives NaN and a warning.

    Examples
    --------
    >>> a = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.9])
    >>> b = ScoreTable.from_arrays([0, 1, 0, 1, 1, 0, 0], [0.2, 0.3, 0.5, 0.6, 0.7, 0.1, 0.4])
    >>> r = delong_unpaired(a, b)
    >>> [round(r[k], 4) for k in ("diff", "se", "z", "df", "p")]
    [-0.0556, 0.3143, -0.1768, 9.8462, 0.8633]
    >>> round(r["lo"], 4), round(r["hi"], 4), r["method"]
    (-0.7573, 0.6462, 'delong-unpaired')
    """
    from scipy.stats import t as student_t

    level = check_level(confidence_level, "confidence_level")
    auc_a, var_a, why_a = _auc_variance(table_a)
    auc_b, var_b, why_b = _auc_variance(table_b)
    diff = auc_a - auc_b
    out = {"diff": diff, "lo": math.nan, "hi": math.nan, "se": math.nan, "z": math.nan,
           "df": math.nan, "p": math.nan, "method": "delong-unpaired"}
    if why_a is not None or why_b is not None:
        which = "; ".join(f"model {k}: {w}" for k, w in (("a", why_a), ("b", why_b)) if w)
        warn_undefined(f"DeLong's unpaired test undefined: {which}")
        return out
    var_a, var_b = max(var_a, 0.0), max(var_b, 0.0)
    se = math.sqrt(var_a + var_b)
    if se <= SE_ZERO:
        reasons = ", ".join(f"model {k}: {_zero_se_reason(t, v)}"
                            for k, t, v in (("a", table_a, auc_a), ("b", table_b, auc_b)))
        warn_undefined(f"DeLong's unpaired test has standard error 0 ({reasons})")
        z = 0.0 if diff == 0 else math.copysign(math.inf, diff)
        out.update(lo=diff, hi=diff, se=0.0, z=z, p=1.0 if diff == 0 else 0.0)
        return out
    n_a = float(table_a.n_pos + table_a.n_neg)
    n_b = float(table_b.n_pos + table_b.n_neg)
    df = (var_a + var_b) ** 2 / (var_a**2 / (n_a - 1.0) + var_b**2 / (n_b - 1.0))
    z = diff / se
    p = float(2.0 * student_t.sf(abs(z), df))
    half = float(student_t.ppf(0.5 + level / 2.0, df)) * se
    out.update(lo=diff - half, hi=diff + half, se=se, z=z, df=df, p=min(p, 1.0))
    return out


# ------------------------------------------------- the Wald interval, paired tests
def delong(table: ScoreTable, level: float = 0.95) -> Interval:
    """AUC with DeLong's standard error and the interval AUC ± z·SE clipped to [0, 1].

    Var(AUC) = S10/n₁ + S01/n₀ with S10, S01 the sample variances of the placements
    (DeLong, DeLong & Clarke-Pearson 1988; pROC's convention). Undefined (one class, or
    a single case of a class) gives NaN.

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.9])
    >>> r = delong(t)
    >>> round(r.value, 4), round(r.se, 4), r.method
    (0.7778, 0.2485, 'delong')
    """
    n1, n0 = table.n_pos, table.n_neg
    if n1 == 0 or n0 == 0:
        return Interval(math.nan, math.nan, math.nan, "delong")
    auc, var = delong_variance(table)
    if n1 < 2 or n0 < 2 or table.size == 1:  # too few cases, or a constant model
        return Interval(auc, math.nan, math.nan, "delong")
    se = math.sqrt(var)
    z = _z(level)
    return Interval(auc, max(0.0, auc - z * se), min(1.0, auc + z * se), "delong", se)


def delong_cov(tables: list[ScoreTable], rows: list[np.ndarray],
               y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """AUCs and their DeLong covariance matrix for several models on the same cases.

    ``rows[k][i]`` is the row of case i in ``tables[k]``; ``y`` the boolean truth per case.
    Cov = S10/n₁ + S01/n₀ with S10, S01 the sample covariance matrices of the per-case
    placements under each model.

    Examples
    --------
    >>> y = np.array([0, 0, 1, 1, 0, 1], dtype=bool)
    >>> s = np.array([0.1, 0.4, 0.35, 0.8, 0.5, 0.9])
    >>> t = ScoreTable.from_arrays(y, s)
    >>> auc, cov = delong_cov([t, t], [np.searchsorted(t.scores, s)] * 2, y)
    >>> round(float(np.sqrt(cov[0, 1])), 4)
    0.2485
    """
    y = np.asarray(y, dtype=bool)
    n1, n0 = int(y.sum()), int((~y).sum())
    k = len(tables)
    if n1 < 2 or n0 < 2:
        auc = np.array([delong(t).value for t in tables])
        return auc, np.full((k, k), np.nan)
    auc, p10, p01 = delong_components(tables, rows, y)
    s10 = np.atleast_2d(np.cov(p10, ddof=1))
    s01 = np.atleast_2d(np.cov(p01, ddof=1))
    return auc, s10 / n1 + s01 / n0


def delong_paired(auc: np.ndarray, cov: np.ndarray, a: int, b: int,
                  confidence_level: float = 0.95) -> ZTestResult:
    """DeLong's paired test of AUC_a − AUC_b, two-sided: a :class:`ZTestResult`
    ``(diff, lo, hi, se, statistic, pvalue)`` (it unpacks as a 6-tuple).

    Examples
    --------
    >>> d = delong_paired(np.array([0.8, 0.7]), np.array([[0.01, 0.005], [0.005, 0.01]]),
    ...                   0, 1)
    >>> [round(x, 4) for x in d]
    [0.1, -0.096, 0.296, 0.1, 1.0, 0.3173]
    """
    auc = np.asarray(auc, dtype=np.float64)
    cov = np.asarray(cov, dtype=np.float64)
    m = auc.shape[0] if auc.ndim == 1 else 0
    if auc.ndim != 1 or cov.shape != (m, m):
        raise MeasurelabError(f"auc must be 1-d and cov square of its length, got shapes "
                              f"{auc.shape} and {cov.shape}")
    a = check_int(a, "a", minimum=0, maximum=m - 1)
    b = check_int(b, "b", minimum=0, maximum=m - 1)
    level = check_level(confidence_level, "confidence_level")
    diff = float(auc[a] - auc[b])
    var = float(cov[a, a] + cov[b, b] - 2.0 * cov[a, b])
    if not math.isfinite(var) or var < 0:
        return ZTestResult(diff, math.nan, math.nan, math.nan, math.nan, math.nan)
    return z_test(diff, var, level)


def delong_components(tables: list[ScoreTable], rows: list[np.ndarray], y: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """AUCs and per-case placements of several models on the same cases: ``auc`` (k,),
    ``p10`` (k, positives) and ``p01`` (k, negatives); ``rows[m][i]`` is the row of case i
    in ``tables[m]``, ``y`` the truth per case.

    Examples
    --------
    >>> y = np.array([0, 0, 1, 1], dtype=bool)
    >>> s = np.array([0.1, 0.4, 0.35, 0.8])
    >>> t = ScoreTable.from_arrays(y, s)
    >>> auc, p10, p01 = delong_components([t], [np.searchsorted(t.scores, s)], y)
    >>> auc.tolist(), p10.tolist()
    ([0.75], [[0.5, 1.0]])
    """
    y = np.asarray(y, dtype=bool)
    k = len(tables)
    p10 = np.empty((k, int(y.sum())))
    p01 = np.empty((k, int((~y).sum())))
    for j, (t, r) in enumerate(zip(tables, rows, strict=True)):
        v10, v01 = delong_placements(t)
        p10[j] = v10[r[y]]
        p01[j] = v01[r[~y]]
    with np.errstate(invalid="ignore"):
        auc = p10.mean(axis=1) if p10.shape[1] and p01.shape[1] else np.full(k, np.nan)
    return auc, p10, p01


def delong_paired_rows(tables: list[ScoreTable], rows: list[np.ndarray], n0: int, a: int,
                       b: int, level: float = 0.95) -> ZTestResult:
    """:func:`delong_paired_placements` of models ``a`` and ``b`` from their tables and the
    row of each case (``rows[m]``; the ``n0`` negatives first, as a
    :class:`~measurelab.inference.bootstrap.CaseDesign` holds them), without the
    placements of every model: the differences of the two models' placements are built
    one model at a time (two arrays of the cases' length in all).

    Examples
    --------
    >>> y = np.array([0, 0, 1, 1], dtype=bool)
    >>> sa, sb = np.array([0.1, 0.4, 0.35, 0.8]), np.array([0.2, 0.1, 0.5, 0.3])
    >>> ta, tb = ScoreTable.from_arrays(y, sa), ScoreTable.from_arrays(y, sb)
    >>> ra, rb = np.searchsorted(ta.scores, sa), np.searchsorted(tb.scores, sb)
    >>> r = delong_paired_rows([ta, tb], [ra, rb], 2, 0, 1)
    >>> _a, p10, p01 = delong_components([ta, tb], [ra, rb], y)
    >>> tuple(r) == tuple(delong_paired_placements(p10, p01, 0, 1))
    True
    """
    n = rows[a].size
    d10 = d01 = None
    for m in (a, b):
        v10, v01 = delong_placements(tables[m])
        r = rows[m]
        if d10 is None:
            d10, d01 = v10[r[n0:]], v01[r[:n0]]
        else:
            d10 -= v10[r[n0:]]
            d01 -= v01[r[:n0]]
        del v10, v01
    return _paired_differences(d10, d01, n - n0, n0, level)


def delong_paired_placements(p10: np.ndarray, p01: np.ndarray, a: int, b: int,
                             level: float = 0.95) -> ZTestResult:
    """DeLong's paired test of AUC_a − AUC_b from the placements: a :class:`ZTestResult`
    ``(diff, lo, hi, se, statistic, pvalue)``.

    Var(A − B) = Var(V10_a − V10_b)/n₁ + Var(V01_a − V01_b)/n₀ (the same as
    Var A + Var B − 2 Cov(A, B), computed from the differences so that models ranking the
    cases alike give exactly 0). A zero variance with a zero difference (identical or
    rank-equivalent models) gives z = 0, p = 1 and the interval [0, 0]. The interval uses
    the test's standard error, so it excludes 0 exactly when p < 1 − level.

    Examples
    --------
    >>> p10 = np.array([[0.5, 1.0, 1.0], [0.5, 1.0, 1.0]])
    >>> p01 = np.array([[0.0, 1 / 3], [0.0, 1 / 3]])
    >>> tuple(delong_paired_placements(p10, p01, 0, 1))
    (0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    """
    n1, n0 = p10.shape[1], p01.shape[1]
    if n1 < 2 or n0 < 2:
        return _paired_differences(None, None, n1, n0, level)
    return _paired_differences(p10[a] - p10[b], p01[a] - p01[b], n1, n0, level)


def _paired_differences(d10: np.ndarray | None, d01: np.ndarray | None, n1: int, n0: int,
                        level: float) -> ZTestResult:
    """DeLong's paired test from the differences of the placements of the positives
    (``d10``) and of the negatives (``d01``)."""
    if n1 < 2 or n0 < 2:
        nan = math.nan
        return ZTestResult(nan, nan, nan, nan, nan, nan)
    assert d10 is not None and d01 is not None
    var = float(np.var(d10, ddof=1) / n1 + np.var(d01, ddof=1) / n0)
    return z_test(float(d10.mean()), max(var, 0.0), level)
