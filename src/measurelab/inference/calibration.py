"""Inference about calibration: which calibration numbers carry an interval, the interval
of the Brier miscalibration, and the test of "is the model calibrated?".

**What an interval may claim.** A calibration error is 0 for a calibrated model and
positive otherwise, and most estimators of it are biased upwards (binned and smoothed
errors are positive at perfect calibration; PAV and loess fitted on the same cases fit the
noise). A bootstrap of a biased estimator keeps its bias, so its interval excludes a
calibrated model's 0 every time. Here each calibration number either has an interval
whose coverage the calibration study shows (benchmarks/calibration_study.py,
docs/calibration_coverage.md) or none, with the reason in the method column:

=====================  =================================================================
measure                interval
=====================  =================================================================
brier_mcb              ``debiased-wald``: the unbiased estimate ± z·SE (its standard
                       error from the linear and quadratic parts of the cell
                       U-statistics, :mod:`measurelab.measures.calibration.debiased`),
                       cut at 0 — the lower end is 0 when the data are consistent with
                       calibration
brier_dsc, logloss_dsc ``bootstrap-se``: the estimate ± z·SE, the SE from the case
                       bootstrap's replicates (never their percentiles: the replicates
                       centre on the resample's plug-in value, not on the estimate)
paired differences     ``bootstrap-se`` for the three above
the three above, from  ``influence``: the estimate ± z·SE, the SE a sum over the cases of
10,000 cases with 100  the estimate's influence function
in the smaller class   (:func:`measurelab.inference.influence.calibration_influence`), cut
                       at 0 — one model, paired and unpaired differences, no resampling
ece, smece, cal, ici,  none (withheld): no estimator of the population value whose
e50, e90, emax         interval covers near calibration
logloss_mcb            none: its bias correction fails for extreme probabilities
spiegelhalter_z        none: a test statistic (its p-value is in ``notes()`` and
                       :func:`calibration_test`)
``*_insample``         none: a description of this sample (in-sample PAV)
=====================  =================================================================

**Is it calibrated?** :func:`calibration_test` answers with a p-value: by consistency
resampling (Bröcker & Smith 2007) — redraw every label from its own predicted probability,
y* ~ Bernoulli(p), recompute the statistic, and count how often it reaches the observed
one — the null distribution of any calibration statistic is simulated exactly given the
predictions, so the test holds its level at any n; by Spiegelhalter's z (analytic); or
``method='analytic'``: the unbiased Brier miscalibration against its null distribution
given the predictions, whose first three moments are exact (:func:`analytic_null`) — no
redraws, so it costs one pass over the table at any n. ``method='auto'`` (the comparison's
choice, :func:`auto_method`) takes the analytic test from ``AUTO_MIN_CASES`` cases and
``AUTO_MIN_SMALLER`` in the smaller class, consistency resampling below: where the size
study (benchmarks/calibration_test_study.py, docs/calibration_test_study.md) found both
hold their level, and where resampling would take minutes.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from measurelab._util.results import ConfidenceInterval, no_interval
from measurelab._util.validation import (
    as_1d,
    binarize,
    binary_score_vector,
    check_choice,
    check_level,
    check_random_state,
    check_same_length,
    check_scores,
    check_weights,
)
from measurelab.exceptions import MeasurelabError
from measurelab.inference._base import Interval, _z
from measurelab.pickling import versioned_pickle
from measurelab.stats.scoretable import ScoreTable

__all__ = ["AUTO_MIN_CASES", "AUTO_MIN_SMALLER", "WITHHELD", "CalibrationTest",
           "analytic_null", "analytic_pvalue", "auto_method", "calibration_test",
           "debiased_wald", "interval_kind", "replicate_wald"]

_NO_POPULATION = ("no interval: biased upwards near 0, where a calibrated model is (see "
                  "calibration_test)")
#: calibration measures without an interval, and why (the method column's text)
WITHHELD: dict[str, str] = {
    **dict.fromkeys(("ece", "smece", "cal", "ici", "e50", "e90", "emax"), _NO_POPULATION),
    "logloss_mcb": "no interval: its bias correction fails for extreme p (use brier_mcb)",
    "spiegelhalter_z": "no interval: a test statistic (p-value in notes())",
    **dict.fromkeys(("brier_mcb_insample", "brier_dsc_insample", "logloss_mcb_insample",
                     "logloss_dsc_insample"),
                    "no interval: describes this sample (in-sample PAV)"),
}
#: the interval method of each calibration measure that has one
METHODS: dict[str, str] = {"brier_mcb": "debiased-wald", "brier_dsc": "bootstrap-se",
                           "logloss_dsc": "bootstrap-se"}


def _base(name: str) -> str:
    """A row name's measure: 'ece@15' → 'ece', 'smece[cat]' → 'smece'."""
    return name.split("[", 1)[0].split("@", 1)[0]


def interval_kind(name: str) -> str | None:
    """The interval method of a calibration measure ('none' when withheld), or None for
    every other measure (its method is chosen as usual).

    Examples
    --------
    >>> interval_kind("brier_mcb"), interval_kind("ici"), interval_kind("ece@15")
    ('debiased-wald', 'none', 'none')
    >>> interval_kind("auc") is None
    True
    """
    base = _base(name)
    if base in WITHHELD:
        return "none"
    return METHODS.get(base)


def withheld_reason(name: str) -> str:
    """The method column's text of a measure without interval.

    Examples
    --------
    >>> withheld_reason("spiegelhalter_z")
    'no interval: a test statistic (p-value in notes())'
    """
    return WITHHELD.get(_base(name), "no interval")


def debiased_wald(table: ScoreTable, level: float) -> Interval:
    """The interval of the Brier miscalibration: the unbiased estimate ± z·SE, both ends
    cut at 0 (the value is the estimate's positive part).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> p = rng.beta(2, 2, 2000)
    >>> t = ScoreTable.from_arrays(rng.random(2000) < p, p)   # calibrated
    >>> r = debiased_wald(t, 0.95)
    >>> r.lo, r.method
    (0.0, 'debiased-wald')
    """
    from measurelab.measures.calibration.debiased import estimates

    e = estimates(table)
    raw, se = float(e.brier_mcb[0]), math.sqrt(float(e.var[0]))
    if math.isnan(raw):
        return Interval(math.nan, math.nan, math.nan, "debiased-wald", math.nan)
    z = _z(level)
    return Interval(max(raw, 0.0), max(raw - z * se, 0.0), max(raw + z * se, 0.0),
                    "debiased-wald", se)


def replicate_wald(value: float, reps: np.ndarray, level: float,
                   bounds: tuple[float, float] = (-math.inf, math.inf)
                   ) -> tuple[float, float, float, float]:
    """(lo, hi, se, p) of the Wald interval ``value ± z·se`` with ``se`` the standard
    deviation of the finite bootstrap replicates, the ends kept within ``bounds``; ``p`` is
    the two-sided normal p-value of 'the quantity is 0'.

    Examples
    --------
    >>> reps = np.random.default_rng(0).normal(0.1, 0.02, 4000)
    >>> [round(x, 3) for x in replicate_wald(0.1, reps, 0.95)]
    [0.061, 0.139, 0.02, 0.0]
    """
    r = np.asarray(reps, dtype=np.float64)
    r = r[np.isfinite(r)]
    if r.size < 2 or not math.isfinite(value):
        return (math.nan, math.nan, math.nan, math.nan)
    se = float(np.std(r, ddof=1))
    z = _z(level)
    lo = min(max(value - z * se, bounds[0]), bounds[1])
    hi = max(min(value + z * se, bounds[1]), bounds[0])
    if se == 0:
        return (lo, hi, 0.0, 1.0 if value == 0 else 0.0)
    return (lo, hi, se, math.erfc(abs(value / se) / math.sqrt(2.0)))


@versioned_pickle
class CalibrationTest(NamedTuple):
    """The test of 'the model is calibrated': the observed ``statistic``, its ``pvalue``,
    the ``method`` ('consistency resampling', 'analytic null' or 'spiegelhalter'), the
    calibration ``measure`` used as the statistic and the ``n_resamples`` (0 for the
    analytic tests)."""

    statistic: float
    pvalue: float
    method: str
    measure: str
    n_resamples: int

    def __repr__(self) -> str:
        from measurelab.inference._reprs import calibration_test_repr

        return calibration_test_repr(self)

    def verdict(self, alpha: float = 0.05) -> str:
        """'consistent with calibrated' or 'miscalibrated' at level ``alpha``.

        Examples
        --------
        >>> CalibrationTest(0.001, 0.4, "consistency resampling", "brier_mcb", 999).verdict()
        'consistent with calibrated (p = 0.4)'
        """
        if math.isnan(self.pvalue):
            return "undefined"
        shown = "< 0.001" if self.pvalue < 0.001 else f"= {self.pvalue:.3g}"
        if self.pvalue < alpha:
            return f"miscalibrated (p {shown})"
        return f"consistent with calibrated (p {shown})"

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Refused: the test compares a miscalibration measure with its distribution under
        calibration and estimates no quantity to bound (the measure's own interval is
        ``calibration_interval``)."""
        no_interval("CalibrationTest", "a test of 'the model is calibrated' estimates no "
                    "quantity to bound; take the calibration measure's interval instead")


#: table cells (resamples × rows) drawn at once
_CELLS = 1 << 22
#: the redraws of consistency resampling, one default for :func:`calibration_test`, the
#: comparison's table, sentence and page, so one model gets one p-value: with α(R + 1) a
#: whole number the test is exact at the 1 %, 5 % and 10 % levels, and more redraws buy
#: only a little power (DECISIONS.md)
N_RESAMPLES = 999
#: the tests of :func:`calibration_test` (``method=``)
TEST_METHODS = ("consistency", "spiegelhalter", "analytic", "auto")
#: ``method='auto'`` takes the analytic test from this many cases (total weight) ...
AUTO_MIN_CASES = 10_000
#: ... and this many in the smaller class; consistency resampling below (the size study:
#: docs/calibration_test_study.md)
AUTO_MIN_SMALLER = 100
#: the method text of each test (``CalibrationTest.method``)
_METHOD_TEXT = {"consistency": "consistency resampling", "analytic": "analytic null",
                "spiegelhalter": "spiegelhalter"}


def auto_method(table: ScoreTable, measure: str = "brier_mcb") -> str:
    """The test ``method='auto'`` runs on ``table``: 'analytic' for the statistic
    brier_mcb from :data:`AUTO_MIN_CASES` cases with :data:`AUTO_MIN_SMALLER` in the smaller
    class, else 'consistency'.

    Examples
    --------
    >>> small = ScoreTable(np.array([0.2, 0.7]), np.array([10.0, 70.0]), np.array([40.0, 30.0]))
    >>> big = ScoreTable(np.array([0.2, 0.7]), np.array([1e3, 7e3]), np.array([4e3, 3e3]))
    >>> auto_method(small), auto_method(big), auto_method(big, "ici")
    ('consistency', 'analytic', 'consistency')
    """
    pos, neg = float(table.pos.sum()), float(table.neg.sum())
    if (_base(measure) == "brier_mcb" and pos + neg >= AUTO_MIN_CASES
            and min(pos, neg) >= AUTO_MIN_SMALLER):
        return "analytic"
    return "consistency"


#: rows between two samples of the cells' search (:func:`_cell_starts`)
_BLOCK = 1 << 10
#: rows per step of the analytic null's sums
_CHUNK = 1 << 16


def _outward(x: np.ndarray) -> np.ndarray:
    """The cell of an offset from the middle in units of a cell, as the estimate bins it
    (the arithmetic of ``debiased._symmetric_cell``: (k − 1, k] above the middle is cell
    k, its mirror cell −k, the middle 0, within 1e-9 of a cut counts as on it)."""
    a = np.abs(x)
    a -= 1e-9
    np.ceil(a, out=a)
    np.maximum(a, 0.0, out=a)
    return np.copysign(a, x, out=a)


def _changes(cell: Any, size: int) -> np.ndarray:
    """The rows where ``cell(rows)``, a non-decreasing function of the row, differs from
    the row before: sampled every ``_BLOCK`` rows and evaluated row by row only in the
    blocks whose two ends differ (a few hundred blocks of a table of millions)."""
    ends = np.unique(np.append(np.arange(0, size, _BLOCK), size - 1))
    at = cell(ends)
    out = [np.zeros(0, dtype=np.int64)]
    for j in np.flatnonzero(at[1:] != at[:-1]).tolist():
        rows = np.arange(ends[j], ends[j + 1] + 1)
        c = cell(rows)
        out.append(rows[1:][c[1:] != c[:-1]])
    return np.concatenate(out)


def _cell_starts(table: ScoreTable) -> np.ndarray:
    """The first row of every cell of ``table`` in the binning of the unbiased Brier
    miscalibration (:func:`measurelab.measures.calibration.debiased.binned`: a new cell
    wherever the equal-mass group or the grid cell changes along the rows), for whole
    weights. Both are non-decreasing along the rows, so the search samples them."""
    from measurelab.measures.calibration.debiased import GRID_CELLS, n_bins

    m = table.pos + table.neg
    if not m.size:
        return np.zeros(0, dtype=np.int64)
    n = float(m.sum())
    groups = int(n_bins(n))
    scale = groups / (n if n > 0 else 1.0)
    grid = float(min(groups, GRID_CELLS))
    mid = np.cumsum(m)
    mid -= 0.5 * m  # the mid-point of each row's weight (as debiased.mass_cells)
    scores = table.scores

    def mass(rows: np.ndarray) -> np.ndarray:
        x = mid[rows] * scale
        x -= 0.5 * groups
        return _outward(x)

    def cells(rows: np.ndarray) -> np.ndarray:
        return _outward((scores[rows] - 0.5) * grid)

    new = np.union1d(_changes(mass, m.size), _changes(cells, m.size))
    return np.concatenate([[0], new]).astype(np.int64)


def _cells(table: ScoreTable) -> np.ndarray:
    """The cell of every row (0, 1, …; see :func:`_cell_starts`)."""
    starts = _cell_starts(table)
    out = np.zeros(table.size, dtype=np.int64)
    out[starts[1:]] = 1
    return np.cumsum(out)


def analytic_null(table: ScoreTable) -> tuple[float, float, float]:
    """The unbiased Brier miscalibration θ of ``table`` (its raw estimate, the statistic of
    the calibration tests) and the variance and third cumulant of its distribution when
    every label is drawn from its own prediction, y ~ Bernoulli(p) (mean exactly 0).

    With r = p − y, θ = Σ_b a_b Σ_{i≠j in b} r_i r_j over the estimate's cells b, a_b =
    1/(n (n_b − 1)). Under calibration the r_i are independent with mean 0, variance
    v = p(1 − p) and third moment μ = −v(1 − 2p); then U_b = Σ_{i<j} r_i r_j has variance
    e₂(v) and third moment 6·e₃(v) + e₂(μ) (e_k the elementary symmetric sums over the
    cell's cases), and the cells are independent: Var θ = Σ 4a_b² e₂(v_b) and κ₃(θ) =
    Σ 8a_b³ (6 e₃(v_b) + e₂(μ_b)). Nothing is estimated: these are exact given p. Whole
    weights (a weight counts cases).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 1, 1, 0, 1, 0], [.2, .3, .5, .5, .8, .9])
    >>> [round(x, 6) for x in analytic_null(t)]
    [-0.19, 0.012278, 0.000555]
    """
    from measurelab.measures.calibration.debiased import estimates

    theta = float(estimates(table).brier_mcb[0])
    starts = _cell_starts(table)
    if not starts.size:
        return theta, math.nan, math.nan
    # per cell: weight, Σ v, Σ v², Σ v³, Σ μ, Σ μ² over its cases, in chunks of rows (the
    # temporaries stay small)
    sums = np.zeros((6, starts.size))
    for lo in range(0, table.size, _CHUNK):
        hi = min(table.size, lo + _CHUNK)
        first = int(np.searchsorted(starts, lo, side="right")) - 1
        last = int(np.searchsorted(starts, hi, side="left"))
        seg = np.maximum(starts[first:last], lo) - lo  # the cells' pieces in this chunk
        m = table.pos[lo:hi] + table.neg[lo:hi]
        s = np.clip(table.scores[lo:hi], 0.0, 1.0)
        v = s * (1.0 - s)
        mu = v * (2.0 * s - 1.0)  # the third moment of p − y
        mv = m * v
        mmu = m * mu
        for k, x in enumerate((m, mv, mv * v, mv * v * v, mmu, mmu * mu)):
            sums[k, first:last] += np.add.reduceat(x, seg)
    w, p1, p2, p3, m1, m2 = sums
    n = float(w.sum())
    pair = w > 1
    a = np.where(pair, 1.0 / (n * np.where(pair, w - 1.0, 1.0)), 0.0)
    e2 = (p1 * p1 - p2) / 2.0
    e3 = (p1 ** 3 - 3.0 * p1 * p2 + 2.0 * p3) / 6.0
    var = float(np.sum(4.0 * a * a * np.maximum(e2, 0.0)))
    k3 = float(np.sum(8.0 * a ** 3 * (6.0 * e3 + (m1 * m1 - m2) / 2.0)))
    return theta, var, k3


def analytic_pvalue(theta: float, var: float, k3: float) -> float:
    """The upper-tail p-value of θ from its null moments (mean 0, ``var``, third cumulant
    ``k3``): a scaled χ², g·(χ²_h − h), matching all three (h = 8/skewness², g = √(var/2h));
    the normal tail when the skewness is not positive. A θ whose null is a point (var 0):
    p = 1 at θ ≤ 0, else 0.

    Examples
    --------
    >>> round(analytic_pvalue(0.0, 1.0, 0.0), 3), round(analytic_pvalue(1.645, 1.0, 0.0), 3)
    (0.5, 0.05)
    >>> round(analytic_pvalue(1.645, 1.0, 0.5), 3)    # right-skewed null: a heavier tail
    0.061
    """
    from scipy.special import chdtrc, ndtr

    if math.isnan(theta) or math.isnan(var):
        return math.nan
    if var <= 0.0:
        return 1.0 if theta <= 0.0 else 0.0
    sd = math.sqrt(var)
    skew = k3 / sd ** 3
    if not skew > 1e-9:
        return float(ndtr(-theta / sd))
    h = 8.0 / (skew * skew)
    g = sd / math.sqrt(2.0 * h)
    return float(chdtrc(h, max(theta / g + h, 0.0)))


def calibration_test(
    y_true: Any,
    y_prob: Any,
    *,
    measure: str = "brier_mcb",
    method: str = "consistency",
    n_resamples: int = N_RESAMPLES,
    pos_label: Any = 1,
    sample_weight: Any = None,
    random_state: Any = 0,
    progress: bool | None = None,
) -> CalibrationTest:
    """Test whether a binary model is calibrated (P(y = 1 | p) = p for every p).

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_prob : array-like of shape (n,), probabilities of the positive class
    measure : str, default 'brier_mcb'
        The calibration statistic (method 'consistency'): any registered binary
        probability measure whose larger values mean worse calibration — brier_mcb (the
        unbiased ℓ2 calibration error: the default, the test of Lee, Huang, Hassani &
        Dobriban 2022 with the null simulated), ece, smece, ici, e50, e90, emax, cal.
    method : {'consistency', 'analytic', 'auto', 'spiegelhalter'}
        'consistency': redraw y* ~ Bernoulli(p) ``n_resamples`` times on the same
        predictions (Bröcker & Smith 2007), p-value (1 + #{T* ≥ T}) / (1 + n_resamples):
        a test that holds its level at any n. 'analytic': the same statistic, brier_mcb,
        against its null distribution given p by its exact mean, variance and skewness
        (:func:`analytic_null`, a scaled χ²): no redraws, one pass over the cases.
        'auto': 'analytic' from ``AUTO_MIN_CASES`` cases and ``AUTO_MIN_SMALLER`` in the
        smaller class (where the size study shows it holds its level; the comparison's
        choice), 'consistency' below or for another ``measure``. 'spiegelhalter':
        Spiegelhalter's z, two-sided normal p-value (analytic, one number of the Brier
        score; blind to some departures).
    n_resamples : int, default 999 (:data:`N_RESAMPLES`)
        The redraws of consistency resampling; the comparison's calibration table uses
        the same number and seeds each model's test as this function does, so a model
        gets the same p-value from both for the same ``random_state``.
    pos_label, sample_weight
        As in :func:`measurelab.evaluate`; consistency resampling and the analytic test
        need whole-number weights (a weight counts cases).
    random_state : int, numpy Generator or None, default 0
    progress : bool, optional
        A progress bar of the resampling (default: on a terminal, after two seconds).

    Returns
    -------
    CalibrationTest

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> p = rng.beta(2, 2, 1000)
    >>> calibration_test(rng.random(1000) < p, p, n_resamples=499).pvalue > 0.05
    True
    >>> over = 1 / (1 + np.exp(-3 * np.log(p / (1 - p))))    # over-confident
    >>> calibration_test(rng.random(1000) < p, over, n_resamples=499).verdict()
    'miscalibrated (p = 0.002)'
    >>> calibration_test(rng.random(1000) < p, p, method="analytic").method
    'analytic null'
    """
    from measurelab._util.validation import check_int

    method = check_choice(method, "method", TEST_METHODS)
    progress = _check_progress(progress)
    n_resamples = check_int(n_resamples, "n_resamples", minimum=99, maximum=10**6)
    random_state = check_random_state(random_state)
    y_raw = as_1d(y_true, "y_true")
    y_prob = binary_score_vector(y_prob, y_raw, pos_label, "y_prob")[0]  # predict_proba's
    s = check_scores(y_prob, "y_prob")
    check_same_length(("y_true", y_raw), ("y_prob", s))
    if s.size and (float(s.min()) < 0.0 or float(s.max()) > 1.0):
        raise MeasurelabError("y_prob must be probabilities in [0, 1] for a calibration test")
    y = binarize(y_raw, pos_label)
    w = check_weights(sample_weight, y.size)
    table = ScoreTable.from_arrays(y, s, w)
    if table.total <= 0:
        raise MeasurelabError("a calibration test needs at least one case")
    return _table_test(table, measure=measure, method=method, n_resamples=n_resamples,
                       random_state=random_state, progress=progress)


def _check_progress(progress: Any) -> bool | None:
    from measurelab._util.validation import check_flag

    return None if progress is None else check_flag(progress, "progress")


def _table_test(table: ScoreTable, *, measure: str, method: str, n_resamples: int,
                random_state: Any, progress: bool | None) -> CalibrationTest:
    """:func:`calibration_test` of a validated score table (the comparison passes the
    tables it already sorted)."""
    from measurelab.measures.base import registry

    if method == "spiegelhalter":
        from measurelab.measures.calibration.spiegelhalter import (
            spiegelhalter_p_value,
            spiegelhalter_z,
        )

        z = float(spiegelhalter_z(table))
        return CalibrationTest(z, spiegelhalter_p_value(z), "spiegelhalter",
                               "spiegelhalter_z", 0)
    m = registry.get(measure)
    if (m.kind != "probability" or m.higher_is_better or m.block is None
            or _base(m.name) == "spiegelhalter_z" or m.statistic != "scores"):
        raise MeasurelabError(
            f"measure={measure!r} is not a calibration error; expected one of 'brier_mcb', "
            "'ece', 'smece', 'ici', 'e50', 'e90', 'emax', 'cal' (or method='spiegelhalter')")
    if method == "auto":
        method = auto_method(table, m.name)
    if method == "analytic" and _base(m.name) != "brier_mcb":
        raise MeasurelabError(
            f"method='analytic' tests brier_mcb (its null distribution is known given the "
            f"predictions), not measure={measure!r}; use method='consistency' for it")
    if not table.is_integer:
        raise MeasurelabError(
            f"{_METHOD_TEXT[method]} treats a weight as a count of cases: sample_weight "
            "must be whole numbers (or use method='spiegelhalter')")
    if method == "analytic":
        theta, var, k3 = analytic_null(table)
        return CalibrationTest(theta, analytic_pvalue(theta, var, k3), "analytic null",
                               m.name, 0)
    observed = _statistic(m, table.scores, table.pos[None, :], table.neg[None, :])[0]
    rng = np.random.default_rng(random_state)
    cases = (table.pos + table.neg).astype(np.int64)
    probs = np.clip(table.scores, 0.0, 1.0)
    step = max(1, _CELLS // max(1, table.size))
    null = np.empty(n_resamples)
    from measurelab.progress import progress_bar

    with progress_bar(n_resamples, desc="calibration test", unit="resample", delay=2.0,
                      leave=False, enabled=progress is not False) as bar:
        for a in range(0, n_resamples, step):
            b = min(n_resamples, a + step)
            pos = rng.binomial(cases, probs, size=(b - a, table.size)).astype(np.float64)
            null[a:b] = _statistic(m, table.scores, pos, cases - pos)
            bar.update(b - a)
    if math.isnan(observed):
        return CalibrationTest(math.nan, math.nan, "consistency resampling", m.name,
                               n_resamples)
    # ties with the observed value count as reaching it (a conservative p-value)
    reach = int(np.count_nonzero(null >= observed))
    return CalibrationTest(float(observed), (1.0 + reach) / (1.0 + n_resamples),
                           "consistency resampling", m.name, n_resamples)


def _statistic(m: Any, scores: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """The test statistic of every table: the raw (unclipped) estimate for brier_mcb (its
    positive part would tie every resample at 0), else the measure's block form."""
    import warnings

    from measurelab.stats.block import BlockStats, TableBlock

    blk = TableBlock(scores, pos, neg, integer=True)
    if _base(m.name) == "brier_mcb":
        from measurelab.measures.calibration.debiased import block_estimates

        return np.asarray(block_estimates(blk).brier_mcb, dtype=np.float64)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return m.compute_block(BlockStats(blk))


#: the columns of :func:`calibration_table`
TABLE_COLUMNS = ["model", "brier_mcb", "lo", "hi", "pvalue", "method", "spiegelhalter_p",
                 "verdict"]


def calibration_table(y: np.ndarray, scores: dict[str, np.ndarray], *,
                      confidence_level: float = 0.95, n_resamples: int = N_RESAMPLES,
                      sample_weight: Any = None, random_state: Any = 0,
                      method: str = "auto", progress: bool | None = None,
                      tables: list[ScoreTable] | None = None) -> Any:
    """'Is it calibrated?' for several binary models scored on the same cases: per model
    the Brier miscalibration with its interval, the test of calibration (its statistic the
    unbiased ℓ2 error; ``method`` as in :func:`calibration_test`, by default 'auto':
    consistency resampling, or the analytic test from ``AUTO_MIN_CASES`` cases; for
    fractional weights Spiegelhalter's), which test that was, Spiegelhalter's p, and the
    verdict at 1 − ``confidence_level``. ``tables``: the models' score tables when the
    caller has them (a comparison: no sort again).

    Columns: ``model, brier_mcb, lo, hi, pvalue, method, spiegelhalter_p, verdict``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> q = rng.beta(2, 2, 800)
    >>> y = rng.random(800) < q
    >>> t = calibration_table(y, {"calibrated": q, "over": q**3 / (q**3 + (1 - q)**3)},
    ...                       n_resamples=199)
    >>> for row in t.itertuples():
    ...     print(row.model, "—", row.verdict, "—", row.method)
    calibrated — consistent with calibrated (p = 0.875) — consistency resampling
    over — miscalibrated (p = 0.005) — consistency resampling
    """
    import pandas as pd

    from measurelab._util.validation import check_int
    from measurelab.measures.calibration.spiegelhalter import (
        spiegelhalter_p_value,
        spiegelhalter_z,
    )

    level = check_level(confidence_level, "confidence_level")
    method = check_choice(method, "method", TEST_METHODS)
    progress = _check_progress(progress)
    n_resamples = check_int(n_resamples, "n_resamples", minimum=99, maximum=10**6)
    random_state = check_random_state(random_state)
    rows = []
    for i, (name, s) in enumerate(scores.items()):
        table = (tables[i] if tables is not None else
                 ScoreTable.from_arrays(np.asarray(y, dtype=bool), np.asarray(s, dtype=float),
                                        sample_weight))
        r = debiased_wald(table, level)
        z = float(spiegelhalter_z(table))
        sp = CalibrationTest(z, spiegelhalter_p_value(z), "spiegelhalter", "spiegelhalter_z",
                             0)
        test = (_table_test(table, measure="brier_mcb", method=method,
                            n_resamples=n_resamples, random_state=random_state,
                            progress=progress)
                if table.is_integer or method == "spiegelhalter" else sp)
        rows.append({"model": name, "brier_mcb": r.value, "lo": r.lo, "hi": r.hi,
                     "pvalue": test.pvalue, "method": test.method,
                     "spiegelhalter_p": sp.pvalue, "verdict": test.verdict(1.0 - level)})
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)
