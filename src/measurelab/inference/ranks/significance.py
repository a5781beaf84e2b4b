"""Significance tests for comparing two learners, and win/draw/loss tables.

* :func:`paired_ttest` — the paired t-test on per-fold results (two-sided, α = 0.05 by
  default), as Huang & Ling (2007) and Hossin et al. (2011) use; with
  ``corrected=True`` the corrected resampled t-test of Nadeau & Bengio (2003), which
  inflates the variance by ``1/J + n_test/n_train`` because CV folds share training data.
* :func:`wilcoxon_signed_rank` — the Wilcoxon signed-rank test across data sets
  (Demšar 2006): zero differences dropped, mid-ranks for ties, exact null distribution
  when there are no ties and n ≤ 25, else the normal approximation with tie correction.
* :func:`win_draw_loss` and :func:`wdl_table` — counts of significant wins, draws and
  losses over data sets, like Huang & Ling's Table 8.

Results are small named tuples. The p-values agree with ``scipy.stats.ttest_rel`` and
``scipy.stats.wilcoxon`` (tests check it); the t distribution comes from scipy.

Examples
--------
>>> r = paired_ttest([0.81, 0.79, 0.84, 0.80, 0.83], [0.78, 0.77, 0.80, 0.79, 0.80])
>>> round(r.statistic, 4), round(r.pvalue, 4), r.verdict    # = scipy.stats.ttest_rel
(5.099, 0.007, 'win')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from measurelab._util.results import ConfidenceInterval, check_se, no_interval, t_interval
from measurelab._util.validation import check_flag, check_real, short_repr, show
from measurelab._util.words import counted, num, p_words, signed
from measurelab.exceptions import MeasurelabError
from measurelab.inference._base import check_level
from measurelab.pickling import versioned_pickle


@versioned_pickle
class TTestResult(NamedTuple):
    """Paired t-test: statistic, two-sided p-value, df, mean difference (a − b), verdict,
    and the standard error of the mean difference the statistic divides by."""

    statistic: float
    pvalue: float
    df: int
    mean_diff: float
    verdict: str  # 'win' (a significantly better), 'loss', or 'draw'
    se: float = math.nan

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The interval of the mean difference that the t-test inverts (scipy's
        ``TtestResult.confidence_interval``): ``mean_diff ± t_{df} · se``.

        Examples
        --------
        >>> r = paired_ttest([0.81, 0.79, 0.84, 0.80, 0.83], [0.78, 0.77, 0.80, 0.79, 0.80])
        >>> [round(v, 4) for v in r.confidence_interval(0.95)]
        [0.0118, 0.0402]
        """
        se = check_se(self.se, "TTestResult")
        return t_interval(self.mean_diff, se, self.df, confidence_level)

    def __str__(self) -> str:
        """The answer: the test, the mean difference and the verdict.

        Examples
        --------
        >>> print(paired_ttest([0.81, 0.79, 0.84, 0.80, 0.83], [0.78, 0.77, 0.80, 0.79, 0.80]))
        Paired t-test: mean difference a − b +0.026, t = 5.099 on 4 df, p = 0.00699: a is significantly better.
        """  # noqa: E501
        words = {"win": "a is significantly better", "loss": "b is significantly better",
                 "draw": "no significant difference"}.get(self.verdict, self.verdict)
        return (f"Paired t-test: mean difference a − b {signed(self.mean_diff)}, t = "
                f"{num(self.statistic)} on {self.df} df, {p_words(self.pvalue)}: {words}.")


@versioned_pickle
class WilcoxonResult(NamedTuple):
    """Wilcoxon signed-rank: W = min(R+, R−), two-sided p-value, n used, method."""

    statistic: float
    pvalue: float
    n: int
    method: str
    r_plus: float
    r_minus: float

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Refused: the signed-rank test keeps ranks, not the differences, so it holds no
        estimate to put an interval around (a one-line error saying so)."""
        no_interval("WilcoxonResult", "the signed-rank test keeps only rank sums, not the "
                    "differences an interval of their median would need")

    def __str__(self) -> str:
        """The answer: W, the rank sums and p.

        Examples
        --------
        >>> print(WilcoxonResult(3.0, 0.0625, 8, "exact", 33.0, 3.0))
        Wilcoxon signed-rank test (exact): W = 3 over 8 differences (R+ 33, R− 3), p = 0.0625.
        """
        return (f"Wilcoxon signed-rank test ({self.method}): W = {num(self.statistic)} over "
                f"{counted(self.n, 'difference')} (R+ {num(self.r_plus)}, R− "
                f"{num(self.r_minus)}), {p_words(self.pvalue)}.")


def _values(v: Any, name: str) -> np.ndarray:
    """``v`` as finite float64 values, or a one-line error naming ``name``."""
    try:
        arr = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        raise MeasurelabError(f"{name} must hold numbers, got {short_repr(v)}") from None
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        raise MeasurelabError(f"{name} must be finite, got {show(arr.ravel()[i])} at "
                              f"position {i}")
    return arr


def _pair(a: ArrayLike, b: ArrayLike) -> np.ndarray:
    x = _values(a, "a")
    y = _values(b, "b")
    if x.shape != y.shape or x.ndim != 1:
        raise MeasurelabError(
            f"a and b must be 1-d of the same length, got shapes {x.shape} and {y.shape}"
        )
    if x.size < 2:
        raise MeasurelabError(f"need at least 2 paired values, got {x.size}")
    return x - y


def _check_ttest_options(alpha: Any, corrected: Any, test_train_ratio: Any,
                         higher_is_better: Any) -> tuple[float, bool, float | None, bool]:
    """The options of :func:`paired_ttest`, checked: a level, two flags and the test/train
    ratio (a positive number, or None)."""
    if test_train_ratio is not None:
        test_train_ratio = check_real(test_train_ratio, "test_train_ratio", low=0.0,
                                      low_open=True)
    return (check_level(alpha, "alpha"), check_flag(corrected, "corrected"), test_train_ratio,
            check_flag(higher_is_better, "higher_is_better"))


def paired_ttest(
    a: ArrayLike,
    b: ArrayLike,
    *,
    alpha: float = 0.05,
    corrected: bool = False,
    test_train_ratio: float | None = None,
    higher_is_better: bool = True,
) -> TTestResult:
    """Two-sided paired t-test of a vs b (e.g. per-fold scores of two learners).

    Parameters
    ----------
    a, b : per-fold values of the two learners, paired by fold
    alpha : significance level, default 0.05 (95 % confidence)
    corrected : use Nadeau & Bengio's corrected resampled t-test; needs
        ``test_train_ratio`` = n_test / n_train (1/(k−1) for k-fold CV)
    higher_is_better : direction of the values, for the verdict

    Returns
    -------
    TTestResult
        Otherwise equal to ``scipy.stats.ttest_rel``'s t and p. With zero variance of the
        differences (the same difference in every pair): t = ±inf (p = 0) if it is
        non-zero, else t = 0 and p = 1 (identical results are a draw; scipy gives NaN).

    Examples
    --------
    >>> a = [0.81, 0.79, 0.84, 0.80, 0.83]; b = [0.78, 0.77, 0.80, 0.79, 0.80]
    >>> r = paired_ttest(a, b, corrected=True, test_train_ratio=1 / 4)
    >>> round(r.statistic, 4), r.verdict
    (3.3993, 'win')
    """
    from scipy import stats

    alpha, corrected, test_train_ratio, higher_is_better = _check_ttest_options(
        alpha, corrected, test_train_ratio, higher_is_better)
    d = _pair(a, b)
    n = d.size
    mean = float(d.mean())
    var = float(d.var(ddof=1))
    if corrected:
        if test_train_ratio is None:
            raise MeasurelabError(
                "corrected=True needs test_train_ratio = n_test / n_train > 0, got None")
        scale = (1.0 / n + test_train_ratio) * var
    else:
        scale = var / n
    if scale == 0.0:
        t = 0.0 if mean == 0.0 else math.copysign(math.inf, mean)
        p = 1.0 if mean == 0.0 else 0.0
    else:
        t = mean / math.sqrt(scale)
        p = float(2.0 * stats.t.sf(abs(t), n - 1))
    verdict = "draw"
    if p < alpha:
        better = mean > 0 if higher_is_better else mean < 0
        verdict = "win" if better else "loss"
    return TTestResult(float(t), p, n - 1, mean, verdict, math.sqrt(scale))


def _exact_signed_rank_cdf(n: int) -> np.ndarray:
    """Counts of subsets of {1..n} by rank sum (the exact null of W+), length n(n+1)/2+1."""
    top = n * (n + 1) // 2
    c = np.zeros(top + 1, dtype=np.float64)
    c[0] = 1.0
    for r in range(1, n + 1):
        c[r:] = c[r:] + c[: top + 1 - r].copy()
    return c


def wilcoxon_signed_rank(
    a: ArrayLike, b: ArrayLike | None = None, *, method: str = "auto"
) -> WilcoxonResult:
    """Two-sided Wilcoxon signed-rank test of the paired differences a − b.

    Zero differences are dropped ("wilcox" rule); tied |d| get mid-ranks. ``method``:
    'exact' (no ties, any n), 'approx' (normal, tie-corrected, no continuity
    correction) or 'auto' (exact when n ≤ 25 and no ties, else approx).

    Examples
    --------
    >>> r = wilcoxon_signed_rank([0.9, 0.8, 0.85, 0.7, 0.95, 0.6],
    ...                          [0.8, 0.82, 0.7, 0.66, 0.88, 0.47])
    >>> r.statistic, round(r.pvalue, 4), r.method
    (1.0, 0.0625, 'exact')
    """
    from scipy import stats

    if not isinstance(method, str) or method not in ("auto", "exact", "approx"):
        raise MeasurelabError(f"method={short_repr(method)} is not valid; expected auto, "
                              "exact, approx")
    if b is not None:
        d = _pair(a, b)
    else:
        d = _values(a, "a")
        if d.ndim != 1:
            raise MeasurelabError(f"a must be 1-d (the paired differences), got shape "
                                  f"{d.shape}")
    d = d[d != 0]
    n = d.size
    if n == 0:
        return WilcoxonResult(0.0, 1.0, 0, "none", 0.0, 0.0)
    ranks = stats.rankdata(np.abs(d))
    r_plus = float(ranks[d > 0].sum())
    r_minus = float(ranks[d < 0].sum())
    w = min(r_plus, r_minus)
    ties = np.unique(np.abs(d), return_counts=True)[1]
    has_ties = bool((ties > 1).any())
    if method == "auto":
        method = "exact" if (n <= 25 and not has_ties) else "approx"
    if method == "exact":
        if has_ties:
            raise MeasurelabError("method='exact' needs differences without ties in |d|")
        counts = _exact_signed_rank_cdf(n)
        total = 2.0**n
        k = round(w)
        p = float(min(1.0, 2.0 * counts[: k + 1].sum() / total))
    elif method == "approx":
        mean = n * (n + 1) / 4.0
        var = n * (n + 1) * (2 * n + 1) / 24.0 - float((ties**3 - ties).sum()) / 48.0
        z = (w - mean) / math.sqrt(var) if var > 0 else 0.0
        p = float(min(1.0, 2.0 * stats.norm.cdf(z)))
    else:
        raise MeasurelabError(f"method={method!r} is not valid; expected auto, exact, approx")
    return WilcoxonResult(w, p, n, method, r_plus, r_minus)


def win_draw_loss(verdicts: Sequence[str]) -> tuple[int, int, int]:
    """Counts of 'win', 'draw' and 'loss' verdicts.

    Examples
    --------
    >>> win_draw_loss(["win", "draw", "win", "loss"])
    (2, 1, 1)
    """
    if isinstance(verdicts, str):
        raise MeasurelabError(f"verdicts must be a list of 'win', 'draw' or 'loss', got the "
                              f"text {short_repr(verdicts)}")
    verdicts = list(verdicts)
    bad = [v for v in verdicts if not (isinstance(v, str) and v in ("win", "draw", "loss"))]
    if bad:
        raise MeasurelabError(f"verdicts must be 'win', 'draw' or 'loss', got "
                              f"{short_repr(bad[0])}")
    return (verdicts.count("win"), verdicts.count("draw"), verdicts.count("loss"))


def wdl_table(
    results: dict[str, dict[str, Sequence[float]]],
    models: Sequence[str],
    *,
    alpha: float = 0.05,
    corrected: bool = False,
    test_train_ratio: float | None = None,
    higher_is_better: bool = True,
) -> Any:
    """Win-draw-loss of each row model over each later column model across data sets.

    ``results[dataset][model]`` holds per-fold values (paired by fold). A cell "w-d-l"
    counts the data sets where the row model is significantly better / not
    significantly different / significantly worse (paired t-test), as in Huang & Ling's
    Table 8.

    Examples
    --------
    >>> res = {"d1": {"A": [0.9, 0.92, 0.91], "B": [0.8, 0.81, 0.8]},
    ...        "d2": {"A": [0.7, 0.75, 0.72], "B": [0.71, 0.74, 0.73]}}
    >>> wdl_table(res, ["A", "B"]).loc["A", "B"]
    '1-1-0'
    """
    import pandas as pd

    _check_ttest_options(alpha, corrected, test_train_ratio, higher_is_better)
    if isinstance(models, str) or not isinstance(models, Sequence):
        raise MeasurelabError(f"models must be a list of model names, got {short_repr(models)}")
    if not isinstance(results, dict):
        raise MeasurelabError("results must be a dict {data set: {model: fold scores}}, got "
                              f"{type(results).__name__}")
    for ds, per in results.items():
        missing = [m for m in models if not isinstance(per, dict) or m not in per]
        if missing:
            raise MeasurelabError(f"results[{short_repr(ds)}] has no scores of model "
                                  f"{short_repr(missing[0])}")
    table = pd.DataFrame("", index=list(models[:-1]), columns=list(models[1:]))
    for i, ma in enumerate(models):
        for mb in models[i + 1 :]:
            verdicts = [
                paired_ttest(
                    per[ma], per[mb], alpha=alpha, corrected=corrected,
                    test_train_ratio=test_train_ratio, higher_is_better=higher_is_better,
                ).verdict
                for per in results.values()
            ]
            w, d, lo = win_draw_loss(verdicts)
            table.loc[ma, mb] = f"{w}-{d}-{lo}"
    return table
