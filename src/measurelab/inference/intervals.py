"""Uncertainty of measure values: intervals for one model, paired tests for two
(docs/METHODS.md#interval-methods).

Everything here works on counts or on score tables, below the measures' API, so both
:func:`measurelab.evaluate` (``ci=``) and :mod:`measurelab.inference.classifiers.binary` use it.

* :func:`proportion_interval` — Wilson score or Clopper–Pearson interval of k out of n
  (scipy's ``binomtest(...).proportion_ci``).
* DeLong's intervals and tests (one AUC, the covariance of several, paired and unpaired)
  are :mod:`measurelab.inference.delong`; this module imports that one, never the reverse.
* :func:`mcnemar_exact` — McNemar's exact two-sided test on discordant counts;
  :func:`mcnemar_score` — its score (asymptotic) form, the test of a comparison's accuracy
  row, which :func:`tango_interval` inverts.
* :func:`holm` — Holm's step-down adjustment.
* The bootstrap is :mod:`measurelab.inference.bootstrap` (the engine: case resampling in
  blocks over a canonical order; its intervals: percentile and BCa, and the p-values
  inverted from them).

Examples
--------
>>> lo, hi = proportion_interval(81, 100, 0.95)
>>> round(lo, 4), round(hi, 4)
(0.7222, 0.8749)
>>> holm([0.01, 0.04, 0.03]).tolist()
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab._util.results import ConfidenceInterval as ConfidenceInterval  # public
from measurelab._util.results import ZTestResult as ZTestResult  # public
from measurelab._util.threads import check_n_jobs
from measurelab._util.validation import (
    check_choice,
    check_flag,
    check_int,
    check_real,
    short_repr,
    warn_undefined,
)
from measurelab.exceptions import MeasurelabError
from measurelab.inference import bootstrap as _boot
from measurelab.inference._base import Interval, _z
from measurelab.inference._base import check_level as check_level  # re-exported
from measurelab.inference.methods import (
    Setting,
    check_ci_method,
    choose,
    forceable_names,
    get,
    replicate_names,
)
from measurelab.inference.methods.proportion import PROPORTIONS as PROPORTIONS  # re-exported
from measurelab.inference.methods.proportion import counts_interval, proportion_names
from measurelab.stats.scoretable import ScoreTable

# the names of the interval-method registry (:mod:`measurelab.inference.methods`)
PROPORTION_METHODS = proportion_names()
BOOTSTRAP_METHODS = tuple(n for n in forceable_names() if get(n).replicates)
CI_METHODS = forceable_names()

# ----------------------------------------------------------------- proportions
def proportion_interval(k: float, n: float, confidence_level: float = 0.95,
                        method: str = "wilson") -> ConfidenceInterval:
    """Wilson score (default), Clopper–Pearson or another registered proportion method's
    interval of the proportion k/n.

    Counts must be whole numbers; n = 0 gives (nan, nan). Returns a
    :class:`ConfidenceInterval` ``(low, high)``, which unpacks as ``lo, hi``.

    Examples
    --------
    >>> [round(x, 4) for x in proportion_interval(8, 10, 0.95, "clopper-pearson")]
    [0.4439, 0.9748]
    """
    level = check_level(confidence_level, "confidence_level")
    k = check_real(k, "k", low=0.0)
    n = check_real(n, "n", low=0.0)
    method = check_choice(method, "method", PROPORTION_METHODS)
    return ConfidenceInterval(*counts_interval(k, n, level, method))


# ------------------------------------------------------------ McNemar and Holm
def mcnemar_exact(b: int, c: int) -> float:
    """McNemar's exact two-sided p: 2·P(X ≤ min(b, c)), X ~ Bin(b + c, ½), capped at 1.

    Examples
    --------
    >>> round(mcnemar_exact(3, 12), 4)
    0.0352
    >>> mcnemar_exact(0, 0)
    1.0
    """
    b, c = _discordant(b, c)
    n = b + c
    if n == 0:
        return 1.0
    from scipy.stats import binom

    return float(min(1.0, 2.0 * binom.cdf(min(b, c), n, 0.5)))


def mcnemar_score(b: int, c: int) -> float:
    """McNemar's score test, two-sided: z = (b − c)/√(b + c) (no continuity correction),
    p = 2·(1 − Φ(|z|)); 1 when b + c = 0. It is the statistic Tango's score interval
    (:func:`tango_interval`) inverts at a difference of 0, so the two agree; Fagerland,
    Lydersen & Laake (2013, BMC Med Res Methodol 13:91) found it to keep its level better
    than the exact conditional test, which is conservative.

    Examples
    --------
    >>> round(mcnemar_score(11, 3), 4)    # z = 8/√14
    0.0325
    >>> mcnemar_score(0, 0)
    1.0
    """
    b, c = _discordant(b, c)
    if b + c == 0:
        return 1.0
    from scipy.special import ndtr  # scipy.stats.norm.sf's own routine, a lighter import

    return float(min(1.0, 2.0 * ndtr(-(abs(b - c) / math.sqrt(b + c)))))


def _discordant(b: Any, c: Any, *n_cases: Any) -> tuple[int, ...]:
    """The discordant counts ``b``, ``c`` (and the number of cases ``n`` ≥ b + c, when
    given) as non-negative integers, or a one-line error naming the bad one."""
    b = check_int(b, "b", minimum=0)
    c = check_int(c, "c", minimum=0)
    if not n_cases:
        return b, c
    (n,) = n_cases
    n = check_int(n, "n", minimum=0)
    if b + c > n:
        raise MeasurelabError(f"the discordant counts need b + c <= n, got b={b}, c={c}, "
                              f"n={n}")
    return b, c, n


def mcnemar_interval(b: int, c: int, n: int,
                     confidence_level: float = 0.95) -> ConfidenceInterval:
    """Exact conditional interval of acc_A − acc_B = (b − c)/n from the discordant counts
    (b: A right and B wrong; c: the reverse), consistent with :func:`mcnemar_exact`.

    Given the d = b + c discordant cases, b ~ Bin(d, π) and the difference is (d/n)(2π − 1);
    the Clopper–Pearson interval of π maps to the interval of the difference. It excludes 0
    exactly when McNemar's exact p is below 1 − level (both are the same binomial tails).

    Examples
    --------
    >>> [round(x, 4) for x in mcnemar_interval(12, 3, 100)]
    [0.0057, 0.137]
    >>> mcnemar_interval(0, 0, 50)
    ConfidenceInterval(low=0.0, high=0.0)
    """
    level = check_level(confidence_level, "confidence_level")
    b, c, n = _discordant(b, c, n)
    d = b + c
    if d == 0 or n <= 0:
        return ConfidenceInterval(0.0, 0.0)
    lo, hi = proportion_interval(b, d, level, "clopper-pearson")
    return ConfidenceInterval(d / n * (2.0 * lo - 1.0), d / n * (2.0 * hi - 1.0))


def tango_interval(b: int, c: int, n: int,
                   confidence_level: float = 0.95) -> ConfidenceInterval:
    """Tango's score interval of acc_A − acc_B from paired decisions (Tango 1998, Stat Med
    17:891): unconditional, so it keeps its level when one model wins almost every
    disagreement (the conditional interval's coverage falls to 0.6 there).

    ``b``: cases A gets right and B wrong, ``c``: the reverse, ``n``: all cases. The
    difference δ = (b − c)/n; the interval is every δ whose score statistic
    Z(δ) = (b − c − nδ) / √(n(2q̃ + δ(1 − δ))) lies within ±z, with q̃ the maximum-likelihood
    P(A wrong, B right) given δ (the positive root of 2n q² − B q − c δ(1 − δ) = 0,
    B = b + c − δ(2n − b + c)). At δ = 0, Z is McNemar's statistic (b − c)/√(b + c), so the
    interval excludes 0 exactly when McNemar's asymptotic test rejects.

    Examples
    --------
    >>> [round(x, 4) for x in tango_interval(12, 3, 100)]
    [0.016, 0.1737]
    >>> lo, hi = tango_interval(0, 0, 50)
    >>> round(lo, 4), round(hi, 4)   # no disagreement in 50 cases: not proof of equality
    (-0.0713, 0.0713)
    """
    from scipy.optimize import brentq

    b, c, n = _discordant(b, c, n)
    if n == 0:
        raise MeasurelabError("tango_interval needs n >= 1 cases, got n=0")
    level = check_level(confidence_level, "confidence_level")
    z = _z(level)   # scipy.stats.norm.ppf's value, without importing scipy.stats

    def score(d: float) -> float:
        big_b = b + c - d * (2 * n - b + c)
        q = (big_b + math.sqrt(max(big_b * big_b + 8.0 * n * c * d * (1.0 - d), 0.0))) / \
            (4.0 * n)
        var = n * (2.0 * q + d * (1.0 - d))
        num = b - c - n * d
        if var <= 0.0:
            return math.copysign(math.inf, num) if num else 0.0
        return num / math.sqrt(var)

    est = (b - c) / n
    eps = 1e-12
    lo = -1.0 if score(-1.0 + eps) <= z else brentq(lambda d: score(d) - z, -1.0 + eps, est,
                                                    xtol=1e-14)
    hi = 1.0 if score(1.0 - eps) >= -z else brentq(lambda d: score(d) + z, est, 1.0 - eps,
                                                   xtol=1e-14)
    return ConfidenceInterval(float(lo), float(hi))


def holm(pvalues: Any) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN stays NaN and is not counted).

    Sorted p₍₁₎ ≤ … ≤ p₍ₘ₎: adjusted p₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1)·p₍ⱼ₎).

    Examples
    --------
    >>> holm([0.02, float("nan"), 0.01]).tolist()
    [0.02, nan, 0.02]
    """
    try:
        p = np.asarray(pvalues, dtype=np.float64)
    except (TypeError, ValueError):
        raise MeasurelabError(f"pvalues must be numbers, got {short_repr(pvalues)}") from None
    if p.ndim != 1:
        raise MeasurelabError(f"pvalues must be 1-d, got shape {p.shape}")
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(adj)
    return out


def progress_bar(total: int, progress: bool | None, desc: str) -> Any:
    """Progress over ``total`` steps through :func:`measurelab.progress.progress_bar` (a
    tqdm bar on a terminal, shown once the run lasts a couple of seconds; a periodic line
    otherwise); ``progress=False`` turns it off."""
    from measurelab.progress import progress_bar as bar

    return bar(total, desc=desc, unit="replicate", enabled=progress is not False,
               delay=2.0, leave=False)


def check_progress(progress: Any) -> bool | None:
    """``progress``: True, False or None (the default: a bar on a terminal); a string such
    as 'no' is refused, not read as True.

    Examples
    --------
    >>> check_progress(None), check_progress(False)
    (None, False)
    """
    return None if progress is None else check_flag(progress, "progress")


def check_run_options(ci: Any, n_boot: Any, n_jobs: Any, stratify: Any,
                      ci_method: Any, progress: Any = None
                      ) -> tuple[float | None, int, int, bool]:
    """The options every comparison run shares, checked at its entry: the level (None
    without ``ci``), the number of replicates (at least :data:`MIN_BOOT` for intervals),
    the threads, the stratified design flag, the interval method's name and the progress
    flag.

    Examples
    --------
    >>> check_run_options(0.95, 2000, 1, False, None)
    (0.95, 2000, 1, False)
    """
    level = None if ci is None else check_level(ci, "ci")
    n_boot = _boot.check_n_boot(n_boot, minimum=1 if ci is None else _boot.MIN_BOOT)
    n_jobs = check_n_jobs(n_jobs)
    stratify = check_flag(stratify, "stratify")
    check_progress(progress)
    check_ci_method(ci_method)
    return level, n_boot, n_jobs, stratify


def default_method(name: str, ci_method: str | None, *, whole_counts: bool = True,
                   multiclass: bool = False, smaller: int | None = None,
                   n: int | None = None, average: str | None = "macro") -> str:
    """The interval method of one measure: Wilson for acc and err, DeLong on the logit
    scale for AUC (Newcombe's score interval when ``smaller``, the cases in the smaller
    class, is below 30), the posterior of the confusion cells for the other measures of
    the counts, BCa bootstrap for the rest; ``ci_method`` forces one where it applies (a
    proportion method applies to proportions only, ``delong-logit`` and ``delong`` (plain
    Wald, pROC's convention) to AUC only; elsewhere the default). Calibration measures
    have their own (:mod:`measurelab.inference.calibration`): 'debiased-wald',
    'bootstrap-se', or 'none' where no interval covers. ``multiclass``: k classes, where
    only accuracy and error are proportions of the cases (``average``: how its per-class
    values combine). The interval-method registry
    decides (:func:`measurelab.inference.methods.choose`).

    Examples
    --------
    >>> default_method("acc", None), default_method("auc", None), default_method("f1", None)
    ('wilson', 'delong-logit', 'dirichlet-posterior')
    >>> default_method("auc", None, smaller=8), default_method("auc", "bootstrap-percentile")
    ('newcombe-score', 'bootstrap-percentile')
    >>> default_method("f1", "wilson"), default_method("ap", None)
    ('dirichlet-posterior', 'bootstrap-bca')
    >>> default_method("brier_mcb", None), default_method("ici", "bootstrap-bca")
    ('debiased-wald', 'none')
    """
    setting = Setting(name, multiclass=multiclass, whole_counts=whole_counts,
                      smaller=smaller, n=n, average=average)
    return choose(setting, ci_method).name


def measure_interval(name: str, value: float, method: str, level: float, *,
                     table: ScoreTable | None = None, counts: Any = None,
                     what: str | None = None, design: str = "random",
                     random_state: Any = None, key: tuple[int, ...] = (),
                     **extra: Any) -> Interval:
    """The analytic interval of one measure value (Wilson / Clopper–Pearson for a
    proportion, DeLong on the logit scale or Newcombe's score interval for AUC, the
    posterior of the confusion cells for the other counts measures); bootstrap intervals
    come from :class:`~measurelab.inference.bootstrap.BootstrapIntervals`.

    ``design`` ('random' or 'fixed' class counts), ``random_state`` and ``key`` (the
    stream of this model: the same key draws the same posterior) serve the methods that
    draw from a posterior; ``extra`` reaches the method (the influence method takes the
    ``measure``, its ``threshold`` and ``inclusive``, and ``cases`` — rows, classes,
    weights — when the cases are weighted).

    An interval that cannot be formed (no cases in the proportion's denominator, one
    class) is NaN with a warning naming ``what``.

    Examples
    --------
    >>> from measurelab.stats.confusion import BinaryCounts
    >>> r = measure_interval("acc", 0.81, "wilson", 0.95, counts=BinaryCounts(41, 9, 10, 40))
    >>> round(r.lo, 4), round(r.hi, 4), r.method
    (0.7222, 0.8749, 'wilson')
    """
    m = get(method)
    if m.replicates or m.single is None or m.single.compute is None:
        raise MeasurelabError(f"{method!r} is not an analytic interval method")
    return m.single.compute(name, float(value), level, table=table, counts=counts,
                            what=what or name, design=design, random_state=random_state,
                            key=key, **extra)


#: methods whose interval needs the bootstrap's replicates
REPLICATE_METHODS = replicate_names()


def warn_withheld(names: list[str]) -> None:
    """One warning for every measure whose interval is withheld (NaN limits; the reason is
    in the method column).

    Examples
    --------
    >>> warn_withheld([])
    """
    if names:
        shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        warn_undefined(f"no interval for {shown}: see the method column (calibration "
                       "errors are biased near 0, where a resampling interval would miss "
                       "a calibrated model; calibration_test answers 'is it calibrated?')")


def warn_nonfinite(what: str, r: Interval, inf_share: float, nan_share: float, *,
                   bounds: tuple[float, float] = (-math.inf, math.inf),
                   rests: tuple[bool, bool] = (False, False)) -> None:
    """Warn when a bootstrap interval rests on infinite or undefined replicates (an end
    is ±inf, or, for a bounded measure, an end of its range), when some replicates are
    undefined, or when it is a single value (its replicates do not vary: a constant
    model, a perfect separation).

    ``bounds`` is what an undefined replicate counted as (the ends of the measure's range,
    :func:`~measurelab.inference.bootstrap.range_bounds`), ``rests`` whether the lower and
    the upper end rest on undefined replicates
    (:meth:`~measurelab.inference.bootstrap.BootstrapIntervals.notes` gives both).

    Examples
    --------
    >>> warn_nonfinite("acc", Interval(0.5, 0.4, 0.6, "bootstrap-bca"), 0.0, 0.0)
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     warn_nonfinite("sens", Interval(0.5, 0.2, 1.0, "bootstrap-bca"), 0.0, 0.1,
    ...                    bounds=(0.0, 1.0), rests=(False, True))
    >>> msg = str(w[0].message)
    >>> msg[msg.index("(counted"):msg.index(")") + 1]
    '(counted as 0 for the lower end, 1 for the upper: the ends of the range)'
    >>> msg.endswith("the upper end rests on them")
    True
    """
    if r.lo == r.hi == r.value and math.isfinite(r.value) and nan_share == 0:
        warn_undefined(f"the bootstrap interval of {what} is the single value {r.value:g}: "
                       "its replicates do not vary there (constant scores or decisions, or "
                       "a perfect separation)")
        return
    if not (math.isinf(r.lo) or math.isinf(r.hi) or nan_share > 0):
        return
    parts = []
    if inf_share > 0:
        parts.append(f"{100 * inf_share:.3g}% of the replicates are infinite")
    if nan_share > 0:
        lo_b, hi_b = bounds
        where = ("" if math.isinf(lo_b) and math.isinf(hi_b)
                 else ": the ends of the range")
        hi_t = "+inf" if hi_b == math.inf else f"{hi_b:g}"
        parts.append(f"{100 * nan_share:.3g}% are undefined (counted as {lo_b:g} for the "
                     f"lower end, {hi_t} for the upper{where})")
    end = [s for s, v, on in (("lower", r.lo, rests[0]), ("upper", r.hi, rests[1]))
           if math.isinf(v) or on]
    tail = ""
    if end:
        tail = (f"; the {end[0]} end rests on them" if len(end) == 1
                else "; both ends rest on them")
    warn_undefined(f"the bootstrap interval of {what}: {', '.join(parts)}{tail}")
