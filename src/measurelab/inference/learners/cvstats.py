"""The statistics of comparing learning algorithms by cross-validation.

Fold scores of repeated k-fold cross-validation are not independent: the training sets of
two folds share most of their cases, so the spread of the fold scores understates how much
the mean would move on another sample of the same size. Each function here states what it
corrects and how (``docs/COMPARING.md``, "Learning algorithms"):

* :func:`corrected_t` — the corrected repeated k-fold t (Nadeau & Bengio 2003; Bouckaert &
  Frank 2004): of m = k·r fold values with mean d̄ and sample variance σ̂² (ddof 1),
  se² = (1/m + n_test/n_train)·σ̂², t = d̄/se on m − 1 degrees of freedom, and the interval
  d̄ ± t_{m−1}·se. The plain t drops the n_test/n_train term and rejects a true null far
  more often than its level;
* :func:`paired_t_5x2cv` — Dietterich's (1998) 5×2cv paired t: five replications of 2-fold
  cross-validation, p_i^(j) the difference on fold j of replication i, p̄_i their mean and
  s_i² = Σ_j (p_i^(j) − p̄_i)²; t = p_1^(1)/√(Σ_i s_i²/5) on 5 degrees of freedom;
* :func:`combined_f_5x2cv` — Alpaydin's (1999) combined 5×2cv F = Σ_ij (p_i^(j))² /
  (2·Σ_i s_i²) on (10, 5) degrees of freedom;
* :func:`nested_cv_interval` — nested cross-validation (Bates, Hastie & Tibshirani 2023):
  for a loss that is a mean over cases, an inner cross-validation inside every outer fold
  measures how far a fold's estimate strays from the error of its model, which gives the
  mean squared error of the CV estimate and so a wider, honest interval, centred on the
  estimate corrected for the smaller training sets.

Every function returns the test of "the mean is 0" (a difference of two learners) and the
interval that inverts it, so ``lo > 0 or hi < 0`` exactly when ``pvalue < 1 − ci``.

Examples
--------
Ten folds of one repetition; n_test/n_train = 1/9:

>>> d = [0.02, 0.01, 0.03, -0.01, 0.02, 0.00, 0.04, 0.01, 0.02, 0.01]
>>> r = corrected_t(d, test_train_ratio=1 / 9)
>>> round(r.statistic, 3), round(r.pvalue, 4), r.df, r.method
(2.277, 0.0488, 9, 'corrected-t')

References
----------
C. Nadeau, Y. Bengio, "Inference for the generalization error", Machine Learning 52 (2003).
R. R. Bouckaert, E. Frank, "Evaluating the replicability of significance tests for
comparing learning algorithms", PAKDD 2004.
T. G. Dietterich, "Approximate statistical tests for comparing supervised classification
learning algorithms", Neural Computation 10 (1998).
E. Alpaydin, "Combined 5×2 cv F test for comparing supervised classification learning
algorithms", Neural Computation 11 (1999).
S. Bates, T. Hastie, R. Tibshirani, "Cross-validation: what does it estimate and how well
does it do it?", JASA 119 (2024), published online 2023.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from measurelab._util.results import (
    ConfidenceInterval,
    check_se,
    no_interval,
    normal_interval,
    t_interval,
)
from measurelab._util.validation import check_real, short_repr, show, warn_undefined
from measurelab._util.words import counted, num, p_words, signed
from measurelab.exceptions import MeasurelabError
from measurelab.inference._base import check_level
from measurelab.pickling import versioned_pickle

__all__ = ["CVTestResult", "NestedCVResult", "combined_f_5x2cv", "corrected_t",
           "nested_cv_interval", "paired_t_5x2cv"]

#: Dietterich's design: 5 replications of 2-fold cross-validation
FIVE_BY_TWO = (5, 2)
#: a test's name in a sentence, and what its interval is centred on
_TEST_WORDS = {
    "corrected-t": ("Corrected repeated k-fold t", "mean difference"),
    "5x2cv-paired-t": ("5×2cv paired t", "first fold's difference"),
    "5x2cv-combined-F": ("5×2cv combined F", "mean difference"),
}


@versioned_pickle
class CVTestResult(NamedTuple):
    """A test of "the mean is 0" on cross-validated values and the interval that inverts it.

    ``estimate`` is the quantity the interval is about (the mean of the values; for the
    5×2cv paired t the first fold's difference, which its statistic uses; for the combined
    F the mean of the ten); ``se`` its standard error (NaN for the F test); ``df`` the
    degrees of freedom (a pair for the F test).
    """

    statistic: float
    pvalue: float
    df: Any
    estimate: float
    lo: float
    hi: float
    se: float
    method: str

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The interval of ``estimate`` that the t statistic inverts, at any level
        (``lo``, ``hi`` are the one at the level the test was run with). The combined F
        inverts a quadratic in all ten differences, which the result does not keep: run
        :func:`combined_f_5x2cv` with ``ci=`` the level instead.

        Examples
        --------
        >>> r = corrected_t([0.03, 0.02, 0.04, 0.03, 0.01], test_train_ratio=1 / 4)
        >>> [round(v, 4) for v in r.confidence_interval(0.95)]
        [0.0048, 0.0472]
        """
        if self.method == "5x2cv-combined-F":
            no_interval("CVTestResult", "the combined F's interval needs the ten differences; "
                        "call combined_f_5x2cv(diffs, ci=confidence_level)")
        return t_interval(self.estimate, check_se(self.se, "CVTestResult"), self.df,
                          confidence_level)

    def __str__(self) -> str:
        """The answer: the test, its statistic and p, and the interval with what it is
        centred on.

        Examples
        --------
        >>> print(corrected_t([0.03, 0.02, 0.04, 0.03, 0.01], test_train_ratio=1 / 4))
        Corrected repeated k-fold t = 3.399 on 4 df, p = 0.0273; mean difference +0.026, interval +0.004764 to +0.04724.
        """  # noqa: E501
        name, centre = _TEST_WORDS.get(self.method, (self.method, "estimate"))
        df = (" and ".join(map(str, self.df)) if isinstance(self.df, tuple | list)
              else str(self.df))
        return (f"{name} = {num(self.statistic)} on {df} df, {p_words(self.pvalue)}; "
                f"{centre} {signed(self.estimate)}, interval {signed(self.lo)} to "
                f"{signed(self.hi)}.")


@versioned_pickle
class NestedCVResult(NamedTuple):
    """A nested cross-validation interval (:func:`nested_cv_interval`).

    ``estimate`` is the bias-corrected estimate the interval is centred on, ``se`` the
    standard error the interval uses (the naive one times ``inflation``), ``pvalue`` the
    two-sided normal p of "the mean is 0" (for a difference of two learners' losses),
    ``bias`` the correction subtracted from the mean of the inner losses, ``cv_estimate``
    the ordinary cross-validation estimate and ``naive_lo``/``naive_hi`` the naive interval
    around it, ``mse`` the estimated mean squared error of the CV estimate.
    """

    estimate: float
    lo: float
    hi: float
    se: float
    pvalue: float
    inflation: float
    bias: float
    cv_estimate: float
    naive_lo: float
    naive_hi: float
    mse: float
    method: str = "nested-cv"

    @property
    def statistic(self) -> float:
        """The normal statistic ``estimate / se`` whose two-sided p is ``pvalue`` (with ``se``
        0: ±inf, or 0 when the estimate is 0 too)."""
        if self.se > 0:
            return self.estimate / self.se
        return 0.0 if self.estimate == 0 else math.copysign(math.inf, self.estimate)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """``estimate ± z · se`` at any level (``lo``, ``hi``: the level it was run with).

        Examples
        --------
        >>> r = NestedCVResult(0.1, 0.0, 0.2, 0.05, 0.05, 1.0, 0.0, 0.1, 0.0, 0.2, 0.0)
        >>> [round(v, 4) for v in r.confidence_interval(0.9)]
        [0.0178, 0.1822]
        """
        return normal_interval(self.estimate, check_se(self.se, "NestedCVResult"),
                               confidence_level)

    def __str__(self) -> str:
        """The answer: the estimate, its interval and how much wider than the naive one.

        Examples
        --------
        >>> print(NestedCVResult(0.1, 0.0, 0.2, 0.05, 0.05, 1.2, 0.01, 0.11, 0.03, 0.19, 0.0))
        Nested cross-validation: estimate +0.1 (the CV estimate +0.11 less its bias +0.01), interval +0 to +0.2, 1.2 times the naive one's width, p = 0.05.
        """  # noqa: E501
        return (f"Nested cross-validation: estimate {signed(self.estimate)} (the CV estimate "
                f"{signed(self.cv_estimate)} less its bias {signed(self.bias)}), interval "
                f"{signed(self.lo)} to {signed(self.hi)}, {num(self.inflation, 3)} times the "
                f"naive one's width, {p_words(self.pvalue)}.")


def _values(v: Any, name: str, ndim: int) -> np.ndarray:
    try:
        arr = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        raise MeasurelabError(f"{name} must hold numbers, got {short_repr(v)}") from None
    if arr.ndim != ndim:
        raise MeasurelabError(f"{name} must be {ndim}-d, got shape {arr.shape}")
    return arr


def _t_quantile(level: float, df: float) -> float:
    from scipy import stats

    return float(stats.t.ppf(0.5 + level / 2.0, df))


def corrected_t(values: Any, *, test_train_ratio: float, ci: float = 0.95) -> CVTestResult:
    """The corrected repeated k-fold t of fold values (Nadeau & Bengio 2003).

    Parameters
    ----------
    values : array-like, shape (m,)
        One value per fold of k-fold cross-validation repeated r times (m = k·r): the
        differences of two learners' fold scores, or one learner's fold scores (then the
        interval is that of its expected score).
    test_train_ratio : float
        n_test / n_train of a fold (1/(k − 1) for k equal folds).
    ci : float, default 0.95
        Level of the interval.

    Returns
    -------
    CVTestResult
        ``method`` 'corrected-t'. Equal values (zero variance) follow
        :func:`~measurelab.inference.ranks.significance.paired_ttest`: t = 0 and p = 1 when they
        are all 0, t = ±inf and p = 0 otherwise, and the interval is the point.

    Raises
    ------
    MeasurelabError
        Fewer than 2 values, a value not finite, a ratio not > 0, a level not in (0, 1).

    Examples
    --------
    The interval excludes 0 exactly when p < 1 − ci:

    >>> r = corrected_t([0.03, 0.02, 0.04, 0.03, 0.01], test_train_ratio=1 / 4)
    >>> round(r.lo, 4), round(r.hi, 4), round(r.pvalue, 4)
    (0.0048, 0.0472, 0.0273)
    """
    from measurelab.inference.ranks.significance import paired_ttest

    level = check_level(ci, "ci")
    ratio = check_real(test_train_ratio, "test_train_ratio", low=0.0, low_open=True)
    d = _values(values, "values", 1)
    r = paired_ttest(d, np.zeros_like(d), corrected=True, test_train_ratio=ratio)
    se = math.sqrt((1.0 / d.size + ratio) * float(d.var(ddof=1)))
    half = _t_quantile(level, r.df) * se
    return CVTestResult(r.statistic, r.pvalue, r.df, r.mean_diff, r.mean_diff - half,
                        r.mean_diff + half, se, "corrected-t")


def _five_by_two(diffs: Any) -> tuple[np.ndarray, float]:
    """The (5, 2) differences, checked, and Σ_i s_i²."""
    p = _values(diffs, "diffs", 2)
    if p.shape != FIVE_BY_TWO:
        raise MeasurelabError(f"diffs must be 5 replications × 2 folds, shape (5, 2), got "
                              f"shape {p.shape}")
    bad = ~np.isfinite(p)
    if bad.any():
        i, j = (int(x) for x in np.argwhere(bad)[0])
        raise MeasurelabError(f"diffs must be finite, got {show(p[i, j])} at replication "
                              f"{i + 1}, fold {j + 1}")
    mean = p.mean(axis=1, keepdims=True)
    return p, float(((p - mean) ** 2).sum())


def paired_t_5x2cv(diffs: Any, *, ci: float = 0.95) -> CVTestResult:
    """Dietterich's 5×2cv paired t test.

    Parameters
    ----------
    diffs : array-like, shape (5, 2)
        The difference of two learners' scores on fold j of replication i of 2-fold
        cross-validation.
    ci : float, default 0.95
        Level of the interval, which is p_1^(1) ± t_{5}·√(Σ s_i²/5): the set of mean
        differences the test does not reject.

    Returns
    -------
    CVTestResult
        ``method`` '5x2cv-paired-t', ``df`` 5. No variation within any replication
        (Σ s_i² = 0) leaves the statistic undefined: NaN, with an
        :class:`~measurelab.exceptions.UndefinedMeasureWarning`.

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.03, 0.00], [0.01, 0.02], [0.02, 0.04], [0.00, 0.01]]
    >>> r = paired_t_5x2cv(d)
    >>> round(r.statistic, 4), round(r.pvalue, 4), r.df
    (1.5811, 0.1747, 5)
    """
    from scipy import stats

    level = check_level(ci, "ci")
    p, ss = _five_by_two(diffs)
    first = float(p[0, 0])
    if ss == 0.0:
        warn_undefined("5x2cv paired t: the two folds of every replication give the same "
                       "difference, so the variance estimate is 0 and t is undefined")
        return CVTestResult(math.nan, math.nan, 5, first, math.nan, math.nan, 0.0,
                            "5x2cv-paired-t")
    se = math.sqrt(ss / 5.0)
    t = first / se
    pv = float(2.0 * stats.t.sf(abs(t), 5))
    half = _t_quantile(level, 5) * se
    return CVTestResult(t, pv, 5, first, first - half, first + half, se, "5x2cv-paired-t")


def combined_f_5x2cv(diffs: Any, *, ci: float = 0.95) -> CVTestResult:
    """Alpaydin's combined 5×2cv F test.

    Parameters
    ----------
    diffs : array-like, shape (5, 2)
        As :func:`paired_t_5x2cv`.
    ci : float, default 0.95
        Level of the interval: the mean differences δ the test does not reject,
        Σ_ij (p_i^(j) − δ)² ≤ 2·F_{ci}(10, 5)·Σ_i s_i² — an interval centred on the mean of
        the ten differences (Σ_i s_i² does not move with δ).

    Returns
    -------
    CVTestResult
        ``method`` '5x2cv-combined-F', ``df`` (10, 5), ``se`` NaN. Σ s_i² = 0 leaves F
        undefined, and the rare case where the spread between replications exceeds the
        bound leaves no δ unrejected: NaN (with an
        :class:`~measurelab.exceptions.UndefinedMeasureWarning`) where undefined.

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.03, 0.00], [0.01, 0.02], [0.02, 0.04], [0.00, 0.01]]
    >>> r = combined_f_5x2cv(d)
    >>> round(r.statistic, 4), round(r.pvalue, 4), r.df
    (2.5, 0.1618, (10, 5))
    """
    from scipy import stats

    level = check_level(ci, "ci")
    p, ss = _five_by_two(diffs)
    mean = float(p.mean())
    if ss == 0.0:
        warn_undefined("5x2cv combined F: the two folds of every replication give the same "
                       "difference, so the variance estimate is 0 and F is undefined")
        return CVTestResult(math.nan, math.nan, (10, 5), mean, math.nan, math.nan, math.nan,
                            "5x2cv-combined-F")
    f = float((p**2).sum()) / (2.0 * ss)
    pv = float(stats.f.sf(f, 10, 5))
    room = 2.0 * float(stats.f.ppf(level, 10, 5)) * ss - float(((p - mean) ** 2).sum())
    if room < 0:
        warn_undefined("5x2cv combined F: the replications differ so much that the test "
                       "rejects every mean difference; its interval is empty (NaN)")
        lo = hi = math.nan
    else:
        half = math.sqrt(room / p.size)
        lo, hi = mean - half, mean + half
    return CVTestResult(f, pv, (10, 5), mean, lo, hi, math.nan, "5x2cv-combined-F")


def nested_cv_interval(outer: Any, inner: Any, folds: Any, *, ci: float = 0.95
                       ) -> NestedCVResult:
    """Nested cross-validation interval of a mean loss (Bates, Hastie & Tibshirani 2023).

    Parameters
    ----------
    outer : array-like, shape (R, n)
        Per case, its loss under the model fitted without its fold, in each of R
        repetitions of K-fold cross-validation (the ordinary CV losses).
    inner : array-like, shape (R, n, K)
        ``inner[r, i, f]``: the loss of case i under the model fitted without both fold f
        and case i's own fold, in repetition r; NaN where f is case i's own fold.
    folds : array-like of int, shape (R, n)
        The fold (0 … K − 1) of every case in every repetition.
    ci : float, default 0.95
        Level of the interval.

    Returns
    -------
    NestedCVResult

    Notes
    -----
    For every repetition r and outer fold f, a_rf = ē_in − ē_out, the mean inner loss of
    the cases outside f (each scored by a model that saw neither f nor its own fold) minus
    the mean loss on f of the model fitted without f, and b_rf = var(e_out)/|f| (ddof 1).
    The mean squared error of the CV estimate is estimated by mean(a² − b); its square
    root, divided by the naive standard error sd(e_in)/√n_sub (sd over every inner loss,
    n_sub = ⌊n(K − 1)/K⌋), is the inflation, kept within [1, √K]. The inner losses come
    from models trained on about n(K − 2)/K cases, the ordinary CV losses from n(K − 1)/K:
    their difference, scaled by 1 + ((K − 2)/K)^1.5, estimates the bias of the inner mean
    for a model trained on n, and the interval is
    (ē_in − bias) ± z·sd(e_in)/√n·inflation. This follows the authors' published
    description and code; the ordinary CV estimate here averages all R repetitions.

    Examples
    --------
    Two repetitions of 3-fold CV of 6 cases (the losses of a model that errs on cases 0
    and 3 whatever it is trained on):

    >>> import numpy as np
    >>> folds = np.array([[0, 0, 1, 1, 2, 2], [0, 1, 2, 0, 1, 2]])
    >>> e = np.array([1.0, 0, 0, 1, 0, 0])
    >>> outer = np.tile(e, (2, 1))
    >>> inner = np.repeat(outer[:, :, None], 3, axis=2)
    >>> for r in range(2):
    ...     inner[r, np.arange(6), folds[r]] = np.nan
    >>> res = nested_cv_interval(outer, inner, folds)
    >>> round(res.estimate, 4), round(res.inflation, 4), round(res.bias, 4)
    (0.3333, 1.7321, 0.0)

    No bias (the losses do not depend on the training set), and the folds' estimates
    stray from each other by more than the naive standard error allows, so the interval
    is widened by the most the method allows, √K.
    """
    from scipy import stats

    level = check_level(ci, "ci")
    o = _values(outer, "outer", 2)
    e = _values(inner, "inner", 3)
    f = _values(folds, "folds", 2)
    R, n = o.shape
    if e.shape[:2] != (R, n) or f.shape != (R, n):
        raise MeasurelabError(f"outer (R, n), inner (R, n, K) and folds (R, n) must agree, got "
                              f"shapes {o.shape}, {e.shape} and {f.shape}")
    K = e.shape[2]
    if K < 3:
        raise MeasurelabError(f"nested cross-validation needs at least 3 folds (an inner CV "
                              f"inside each outer fold), got {K}")
    fi = f.astype(np.int64)
    if not np.array_equal(fi, f) or fi.min(initial=0) < 0 or fi.max(initial=0) >= K:
        raise MeasurelabError(f"folds must hold fold numbers 0 … {K - 1}")
    if not np.isfinite(o).all():
        raise MeasurelabError("outer losses must be finite")
    own = np.zeros(e.shape, dtype=bool)
    own[np.arange(R)[:, None], np.arange(n)[None, :], fi] = True
    if not (np.isnan(e) == own).all():
        raise MeasurelabError("inner losses must be finite, and NaN exactly where the fold "
                              "is the case's own")
    a, b = [], []
    for r in range(R):
        sizes = np.bincount(fi[r], minlength=K)
        if sizes.min() < 2:
            raise MeasurelabError(f"repetition {r + 1}: fold {int(np.argmin(sizes)) + 1} has "
                                  f"{counted(sizes.min(), 'case')}; every fold needs at least 2")
        for k in range(K):
            out_k = o[r, fi[r] == k]
            in_k = e[r, fi[r] != k, k]
            a.append(float(in_k.mean()) - float(out_k.mean()))
            b.append(float(out_k.var(ddof=1)) / out_k.size)
    pooled = e[~own]
    inner_mean = float(pooled.mean())
    sd = float(pooled.std(ddof=1))
    cv_estimate = float(o.mean())
    mse = float(np.mean(np.square(a) - np.asarray(b)))
    n_sub = math.floor(n * (K - 1) / K)
    z = float(stats.norm.ppf(0.5 + level / 2.0))
    if sd == 0.0:
        infl = 1.0
    else:
        infl = min(max(math.sqrt(max(0.0, mse)) / (sd / math.sqrt(n_sub)), 1.0), math.sqrt(K))
    bias = (inner_mean - cv_estimate) * (1.0 + ((K - 2) / K) ** 1.5)
    est = inner_mean - bias
    naive_se = float(o.std(ddof=1)) / math.sqrt(n) if o.size > 1 else 0.0
    se = sd / math.sqrt(n) * infl
    if se > 0:
        pvalue = float(2.0 * stats.norm.sf(abs(est) / se))
    else:
        pvalue = 1.0 if est == 0.0 else 0.0
    return NestedCVResult(est, est - z * se, est + z * se, se, pvalue, infl, bias,
                          cv_estimate, cv_estimate - z * naive_se, cv_estimate + z * naive_se,
                          mse)
