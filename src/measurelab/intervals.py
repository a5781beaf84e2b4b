"""Uncertainty of measure values: intervals for one model, paired tests for two (SPEC §6).

Everything here works on counts or on score tables, below the measures' API, so both
:func:`measurelab.evaluate` (``ci=``) and :mod:`measurelab.compare.classifiers` use it.

* :func:`proportion_interval` — Wilson score or Clopper–Pearson interval of k out of n
  (scipy's ``binomtest(...).proportion_ci``).
* :func:`delong_placements`, :func:`delong` — DeLong's variance of the AUC from the
  placements of a score table (ties ½): O(rows), no pairwise loop; :func:`delong_cov`
  the covariance matrix of several models' AUCs on the same cases.
* :func:`mcnemar_exact` — McNemar's exact two-sided test on discordant counts.
* :func:`holm` — Holm's step-down adjustment.
* Bootstrap from the score table: a stratified resample of the cases is a multinomial
  reweighting of the table's rows (:class:`CaseDesign`, :func:`run_bootstrap`), so a
  replicate never sorts. :func:`percentile_interval` and :func:`bca_interval` turn
  replicates into intervals; BCa's acceleration comes from a grouped jackknife
  (:func:`jackknife_groups`).

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
from typing import Any, NamedTuple

import numpy as np

from measurelab._threads import check_n_jobs, one_blas_thread, run_in_order
from measurelab._validation import MeasurelabError
from measurelab.stats.scoretable import ScoreTable

PROPORTION_METHODS = ("wilson", "clopper-pearson")
BOOTSTRAP_METHODS = ("bootstrap-bca", "bootstrap-percentile")
CI_METHODS = (*PROPORTION_METHODS, "delong", *BOOTSTRAP_METHODS)

#: proportion measures: name -> (numerator, denominator) as functions of the counts
PROPORTIONS = {
    "acc": (lambda c: c.tp + c.tn, lambda c: c.tp + c.fp + c.fn + c.tn),
    "err": (lambda c: c.fp + c.fn, lambda c: c.tp + c.fp + c.fn + c.tn),
    "sens": (lambda c: c.tp, lambda c: c.tp + c.fn),
    "spec": (lambda c: c.tn, lambda c: c.tn + c.fp),
    "prec": (lambda c: c.tp, lambda c: c.tp + c.fp),
    "npv": (lambda c: c.tn, lambda c: c.tn + c.fn),
}


class Interval(NamedTuple):
    """A value with its interval, the method, and (DeLong only) the standard error."""

    value: float
    lo: float
    hi: float
    method: str
    se: float = math.nan


def check_level(ci: Any, name: str = "ci") -> float:
    """The confidence level as a float in (0, 1), or a one-line error.

    Examples
    --------
    >>> check_level(0.9)
    0.9
    """
    try:
        level = float(ci)
    except (TypeError, ValueError):
        raise MeasurelabError(f"{name} must be a number in (0, 1), got {ci!r}") from None
    if not 0.0 < level < 1.0:
        raise MeasurelabError(f"{name} must be in (0, 1) (e.g. 0.95), got {ci!r}")
    return level


def check_n_boot(n_boot: Any, name: str = "n_boot") -> int:
    """The number of bootstrap replicates as a positive integer, or a one-line error.

    Examples
    --------
    >>> check_n_boot(200)
    200
    """
    if isinstance(n_boot, bool) or not isinstance(n_boot, int | np.integer) or n_boot < 1:
        raise MeasurelabError(f"{name} must be a positive integer, got {n_boot!r}")
    return int(n_boot)


def _z(level: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(0.5 + level / 2.0))


# ----------------------------------------------------------------- proportions
def proportion_interval(k: float, n: float, level: float = 0.95,
                        method: str = "wilson") -> tuple[float, float]:
    """Wilson score (default) or Clopper–Pearson interval of the proportion k/n.

    Counts must be whole numbers; n = 0 gives (nan, nan).

    Examples
    --------
    >>> [round(x, 4) for x in proportion_interval(8, 10, 0.95, "clopper-pearson")]
    [0.4439, 0.9748]
    """
    if n == 0:
        return (math.nan, math.nan)
    if k != round(k) or n != round(n):
        raise MeasurelabError(
            f"{method} intervals need whole counts, got {k!r} of {n!r}; use a bootstrap "
            "method for weighted data"
        )
    from scipy.stats import binomtest

    ci = binomtest(int(k), int(n)).proportion_ci(
        confidence_level=level, method="wilson" if method == "wilson" else "exact")
    return (float(ci.low), float(ci.high))


# --------------------------------------------------------------------- DeLong
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
    neg_below = np.cumsum(table.neg) - table.neg
    pos_above = table.n_pos - np.cumsum(table.pos)
    with np.errstate(invalid="ignore", divide="ignore"):
        v10 = (neg_below + 0.5 * table.neg) / n0
        v01 = (pos_above + 0.5 * table.pos) / n1
    return v10, v01


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
    v10, v01 = delong_placements(table)
    auc = float(np.dot(table.pos, v10) / n1)
    if n1 < 2 or n0 < 2 or table.size == 1:  # too few cases, or a constant model
        return Interval(auc, math.nan, math.nan, "delong")
    s10 = float(np.dot(table.pos, (v10 - auc) ** 2) / (n1 - 1))
    s01 = float(np.dot(table.neg, (v01 - auc) ** 2) / (n0 - 1))
    se = math.sqrt(s10 / n1 + s01 / n0)
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
    p10 = np.empty((k, n1))
    p01 = np.empty((k, n0))
    for j, (t, r) in enumerate(zip(tables, rows, strict=True)):
        v10, v01 = delong_placements(t)
        p10[j] = v10[r[y]]
        p01[j] = v01[r[~y]]
    auc = p10.mean(axis=1)
    s10 = np.atleast_2d(np.cov(p10, ddof=1))
    s01 = np.atleast_2d(np.cov(p01, ddof=1))
    return auc, s10 / n1 + s01 / n0


def delong_paired(auc: np.ndarray, cov: np.ndarray, a: int, b: int,
                  level: float = 0.95) -> tuple[float, float, float, float, float, float]:
    """DeLong's paired test of AUC_a − AUC_b: (diff, lo, hi, se, z, p), two-sided.

    Examples
    --------
    >>> d = delong_paired(np.array([0.8, 0.7]), np.array([[0.01, 0.005], [0.005, 0.01]]),
    ...                   0, 1)
    >>> [round(x, 4) for x in d]
    [0.1, -0.096, 0.296, 0.1, 1.0, 0.3173]
    """
    from scipy.stats import norm

    diff = float(auc[a] - auc[b])
    var = float(cov[a, a] + cov[b, b] - 2.0 * cov[a, b])
    if not math.isfinite(var) or var < 0:
        return (diff, math.nan, math.nan, math.nan, math.nan, math.nan)
    se = math.sqrt(var)
    if se == 0:
        p = 1.0 if diff == 0 else 0.0
        z = math.nan if diff == 0 else math.copysign(math.inf, diff)
        return (diff, diff, diff, 0.0, z, p)
    z = diff / se
    p = float(2.0 * norm.sf(abs(z)))
    zc = _z(level)
    return (diff, diff - zc * se, diff + zc * se, se, z, p)


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
    n = int(b) + int(c)
    if n == 0:
        return 1.0
    from scipy.stats import binom

    return float(min(1.0, 2.0 * binom.cdf(min(int(b), int(c)), n, 0.5)))


def holm(pvalues: Any) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN stays NaN and is not counted).

    Sorted p₍₁₎ ≤ … ≤ p₍ₘ₎: adjusted p₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1)·p₍ⱼ₎).

    Examples
    --------
    >>> holm([0.02, float("nan"), 0.01]).tolist()
    [0.02, nan, 0.02]
    """
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(adj)
    return out


# ------------------------------------------------------------------ bootstrap
def case_rows(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """Row index of every positive and every negative case of a whole-count table
    (cases of a row are contiguous): the map a stratified resample counts through.

    Examples
    --------
    >>> t = ScoreTable.from_arrays([True, False, True], [0.2, 0.2, 0.7])
    >>> [r.tolist() for r in case_rows(t)]
    [[0, 1], [0]]
    """
    if not table.is_integer:
        raise MeasurelabError(
            "resampling a score table needs whole case counts; weighted data must be "
            "resampled case by case (pass the cases, e.g. through compare_classifiers)"
        )
    k = np.arange(table.size)
    return (np.repeat(k, table.pos.astype(np.int64)),
            np.repeat(k, table.neg.astype(np.int64)))


def jackknife_groups(n_units: int, rng: np.random.Generator,
                     n_groups: int = 50) -> np.ndarray:
    """Random group (0 … G−1) of each unit for the grouped (delete-a-group) jackknife.

    The acceleration of BCa is a ratio of the third to the 1.5th power of the second
    moment of the jackknife influences; group sums of independent influences keep that
    ratio (Σ V³ / (Σ V²)^{3/2} ≈ n μ₃ / (n σ²)^{3/2} for any group size), so G groups
    estimate it at the cost of G evaluations instead of n.

    Examples
    --------
    >>> g = jackknife_groups(10, np.random.default_rng(0), n_groups=3)
    >>> sorted(set(g.tolist()))
    [0, 1, 2]
    """
    g = min(n_groups, n_units)
    return rng.permutation(np.arange(n_units) % g)


def percentile_interval(reps: np.ndarray, level: float) -> tuple[float, float]:
    """Percentile interval of bootstrap replicates (NaN replicates ignored).

    Examples
    --------
    >>> [round(x, 9) for x in percentile_interval(np.arange(101.0), 0.9)]
    [5.0, 95.0]
    """
    r = np.asarray(reps, dtype=np.float64)
    r = r[~np.isnan(r)]
    if r.size == 0:
        return (math.nan, math.nan)
    a = (1.0 - level) / 2.0
    lo, hi = np.quantile(r, [a, 1.0 - a])
    return (float(lo), float(hi))


def bca_interval(theta: float, reps: np.ndarray, jack: np.ndarray,
                 level: float) -> tuple[float, float]:
    """Bias-corrected and accelerated interval (Efron 1987).

    z₀ = Φ⁻¹(#{θ* < θ} + ½#{θ* = θ}) / B), a = Σ(θ̄ − θ₍ᵢ₎)³ / (6 (Σ(θ̄ − θ₍ᵢ₎)²)^{3/2})
    from the jackknife values; endpoints are the replicate quantiles at
    Φ(z₀ + (z₀ + z_α)/(1 − a(z₀ + z_α))). Falls back to the percentile interval when
    z₀ or a is not finite (all replicates on one side, a degenerate jackknife).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> lo, hi = bca_interval(0.0, rng.normal(size=4000), np.linspace(-1, 1, 20), 0.95)
    >>> round(lo, 1), round(hi, 1)
    (-1.9, 2.0)
    """
    from scipy.stats import norm

    r = np.asarray(reps, dtype=np.float64)
    r = r[~np.isnan(r)]
    if r.size == 0 or not math.isfinite(theta):
        return (math.nan, math.nan)
    prop = (np.count_nonzero(r < theta) + 0.5 * np.count_nonzero(r == theta)) / r.size
    z0 = float(norm.ppf(prop))
    j = np.asarray(jack, dtype=np.float64)
    j = j[np.isfinite(j)]
    d = j.mean() - j if j.size else j
    den = float(np.sum(d * d)) ** 1.5 if j.size else 0.0
    acc = float(np.sum(d**3)) / (6.0 * den) if den > 0 else 0.0
    if not (math.isfinite(z0) and math.isfinite(acc)):
        return percentile_interval(r, level)
    za = _z(level)
    qs = []
    for zq in (-za, za):
        t = z0 + zq
        qs.append(float(norm.cdf(z0 + t / (1.0 - acc * t))))
    lo, hi = np.quantile(r, qs)
    return (float(lo), float(hi))


def bootstrap_p(diff: float, reps: np.ndarray) -> float:
    """Two-sided p of 'no difference' from a paired bootstrap: z = diff / SE with SE the
    standard deviation of the replicated differences, p = 2·(1 − Φ(|z|)).

    The normal form, not the count of replicates beyond 0, so that p is not floored at
    2/(B + 1) and stays usable under Holm's adjustment over many tests (a zero SE gives
    p = 1 for a zero difference, else 0; NaN replicates are ignored).

    Examples
    --------
    >>> round(bootstrap_p(0.2, np.array([0.1, 0.2, 0.3])), 4)   # z = 0.2 / 0.1
    0.0455
    """
    from scipy.stats import norm

    d = np.asarray(reps, dtype=np.float64)
    d = d[~np.isnan(d)]
    if d.size < 2 or not math.isfinite(diff):
        return math.nan
    se = float(np.std(d, ddof=1))
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return float(2.0 * norm.sf(abs(diff) / se))


def progress_bar(total: int, progress: bool | None, desc: str) -> Any:
    """Progress over ``total`` steps through :func:`measurelab._progress.progress_bar` (a
    tqdm bar on a terminal, shown once the run lasts a couple of seconds; a periodic line
    otherwise); ``progress=False`` turns it off."""
    from measurelab._progress import progress_bar as bar

    return bar(total, desc=desc, unit="replicate", enabled=progress is not False,
               delay=2.0, leave=False)


class CaseDesign:
    """Several score tables of the same cases, ready for a stratified (paired) bootstrap.

    Each model k knows the row of every positive and negative case in its table; a
    replicate draws one multiplicity per case (positives and negatives separately) and
    adds them into each model's rows with ``np.bincount`` — O(n), no sort, and the same
    resampled cases for every model. A whole-count table alone (no case data) is the
    special case where the cases of a row are its ``pos``/``neg`` count
    (:meth:`from_table`).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([True, False, True, False], [0.9, 0.4, 0.4, 0.1])
    >>> d = CaseDesign.from_table(t)
    >>> [u.n_pos for u in d.replicate(np.random.default_rng(0))]
    [2.0]
    """

    def __init__(self, tables: list[ScoreTable], pos_rows: list[np.ndarray],
                 neg_rows: list[np.ndarray], pos_weight: np.ndarray | None = None,
                 neg_weight: np.ndarray | None = None) -> None:
        for t in tables:  # replicates share what depends on the scores alone
            t.open_score_cache()
        self.tables = tables
        self.pos_rows = pos_rows
        self.neg_rows = neg_rows
        self.n1 = int(pos_rows[0].size)
        self.n0 = int(neg_rows[0].size)
        self.pos_weight = pos_weight
        self.neg_weight = neg_weight

    @classmethod
    def from_table(cls, table: ScoreTable) -> CaseDesign:
        pr, nr = case_rows(table)
        return cls([table], [pr], [nr])

    @classmethod
    def from_cases(cls, y: np.ndarray, scores: list[np.ndarray],
                   sample_weight: np.ndarray | None = None) -> CaseDesign:
        """Tables of each model's scores (one sort each, here only) and the case→row maps.

        Examples
        --------
        >>> d = CaseDesign.from_cases(np.array([True, False]), [np.array([0.7, 0.2])])
        >>> d.tables[0].scores.tolist(), d.pos_rows[0].tolist()
        ([0.2, 0.7], [1])
        """
        y = np.asarray(y, dtype=bool)
        tables, prs, nrs = [], [], []
        for s in scores:
            t = ScoreTable.from_arrays(y, s, sample_weight)
            r = np.searchsorted(t.scores, s)
            tables.append(t)
            prs.append(r[y])
            nrs.append(r[~y])
        pw = nw = None
        if sample_weight is not None:
            w = np.asarray(sample_weight, dtype=np.float64)
            pw, nw = w[y], w[~y]
        return cls(tables, prs, nrs, pw, nw)

    def weighted(self, mpos: np.ndarray, mneg: np.ndarray) -> list[ScoreTable]:
        """Every model's table with case multiplicities ``mpos``, ``mneg``."""
        if self.pos_weight is not None:
            mpos = mpos * self.pos_weight
            mneg = mneg * self.neg_weight
        out = []
        for t, pr, nr in zip(self.tables, self.pos_rows, self.neg_rows, strict=True):
            pos = np.bincount(pr, weights=mpos, minlength=t.size)
            neg = np.bincount(nr, weights=mneg, minlength=t.size)
            # whole multiplicities of a whole-count table stay whole
            whole = self.pos_weight is None and t.is_integer
            out.append(t.reweighted(pos, neg, integer=True if whole else None))
        return out

    def draw(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """The case multiplicities of one stratified replicate (positives, negatives)."""
        mpos = np.bincount(rng.integers(0, self.n1, self.n1, dtype=_draw_dtype(self.n1)),
                           minlength=self.n1)
        mneg = np.bincount(rng.integers(0, self.n0, self.n0, dtype=_draw_dtype(self.n0)),
                           minlength=self.n0)
        return mpos.astype(np.float64), mneg.astype(np.float64)

    def replicate(self, rng: np.random.Generator) -> list[ScoreTable]:
        """One stratified bootstrap replicate of every model (shared case draws)."""
        return self.weighted(*self.draw(rng))

    def jackknife(self, rng: np.random.Generator, n_groups: int = 50) -> list[list[ScoreTable]]:
        """Delete-a-group jackknife: cases split at random into groups (positives and
        negatives each spread over all groups); group g left out has multiplicity 0."""
        gp = jackknife_groups(self.n1, rng, n_groups)
        gn = jackknife_groups(self.n0, rng, n_groups)
        g = max(int(gp.max(initial=-1)), int(gn.max(initial=-1))) + 1
        return [self.weighted((gp != k).astype(np.float64), (gn != k).astype(np.float64))
                for k in range(g)]


def run_bootstrap(design: CaseDesign, evaluate: Any, n_boot: int, seed: Any,
                  *, jackknife: bool = True, progress: bool | None = None,
                  desc: str = "bootstrap", n_jobs: int | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Replicates and jackknife values of ``evaluate(table) -> 1-d array`` per model.

    Returns arrays of shape (n_boot, models, m) and (groups, models, m). Warnings of
    undefined values inside replicates are silenced (they show as NaN replicates).
    Seeded: the same seed gives the same replicates, whatever ``n_jobs``.

    ``n_jobs`` threads evaluate replicates side by side (:func:`check_n_jobs`). The case
    draws stay in this thread, in order, so the replicates are the ones a single thread
    makes; the compiled walks over the tables release the GIL, which is where the time
    goes on large tables. BLAS is held to one thread while the bootstrap runs, for every
    ``n_jobs`` (:func:`~measurelab._threads.one_blas_thread`).
    ``evaluate`` must then be safe to call from several threads (measurelab's measures
    are).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([True, False, True, False], [0.9, 0.4, 0.4, 0.1])
    >>> reps, jack = run_bootstrap(CaseDesign.from_table(t), lambda u: np.array([u.n_pos]),
    ...                            5, 0)
    >>> reps.shape, float(reps.max())
    ((5, 1, 1), 2.0)
    """
    import warnings

    jobs = check_n_jobs(n_jobs)
    rng = np.random.default_rng(seed)
    k = len(design.tables)
    if design.n1 == 0 or design.n0 == 0:
        raise MeasurelabError(
            f"a stratified bootstrap needs both classes, got {design.n1} positive and "
            f"{design.n0} negative cases"
        )
    with warnings.catch_warnings(), one_blas_thread():
        warnings.simplefilter("ignore")
        # every model's own table first: what depends on its scores alone is computed
        # there once and inherited by its replicates (ScoreTable.score_cached)
        first = [np.asarray(evaluate(t), dtype=np.float64) for t in design.tables][0]  # noqa: RUF015
        reps = np.empty((n_boot, k, first.size))

        def one(draw: tuple[np.ndarray, np.ndarray]) -> list[Any]:
            return [evaluate(t) for t in design.weighted(*draw)]

        with progress_bar(n_boot, progress, desc) as bar:
            if jobs == 1:
                for b in range(n_boot):
                    reps[b] = one(design.draw(rng))
                    bar.update(1)
            else:
                run_in_order(one, (design.draw(rng) for _ in range(n_boot)), reps, jobs, bar)
        if not jackknife:
            return reps, np.empty((0, k, first.size))
        groups = design.jackknife(rng)
        jack = np.empty((len(groups), k, first.size))

        def group(ts: list[ScoreTable]) -> list[Any]:
            return [evaluate(t) for t in ts]

        if jobs == 1:
            for g, ts in enumerate(groups):
                jack[g] = group(ts)
        else:
            run_in_order(group, iter(groups), jack, jobs, None)
    return reps, jack


def default_method(name: str, ci_method: str | None, *, whole_counts: bool = True) -> str:
    """The interval method of one measure: Wilson for proportions, DeLong for AUC,
    BCa bootstrap for the rest; ``ci_method`` forces one where it applies (a proportion
    method applies to proportions only, ``delong`` to AUC only; elsewhere the default).

    Examples
    --------
    >>> default_method("acc", None), default_method("auc", None), default_method("f1", None)
    ('wilson', 'delong', 'bootstrap-bca')
    >>> default_method("auc", "bootstrap-percentile"), default_method("f1", "wilson")
    ('bootstrap-percentile', 'bootstrap-bca')
    """
    if ci_method is not None and ci_method not in CI_METHODS:
        raise MeasurelabError(
            f"ci_method={ci_method!r} is not valid; expected one of {list(CI_METHODS)}"
        )
    if ci_method in BOOTSTRAP_METHODS:
        return ci_method
    if name in PROPORTIONS and whole_counts:
        return ci_method if ci_method in PROPORTION_METHODS else "wilson"
    if name == "auc" and whole_counts:
        return "delong"
    return "bootstrap-bca"


def measure_interval(name: str, value: float, method: str, level: float, *,
                     table: ScoreTable | None = None, counts: Any = None,
                     reps: np.ndarray | None = None,
                     jack: np.ndarray | None = None) -> Interval:
    """The interval of one measure value by the chosen method (see :func:`default_method`).

    Examples
    --------
    >>> from measurelab.stats.confusion import BinaryCounts
    >>> r = measure_interval("acc", 0.81, "wilson", 0.95, counts=BinaryCounts(41, 9, 10, 40))
    >>> round(r.lo, 4), round(r.hi, 4), r.method
    (0.7222, 0.8749, 'wilson')
    """
    value = float(value)
    if method in PROPORTION_METHODS:
        num, den = PROPORTIONS[name]
        lo, hi = proportion_interval(float(num(counts)), float(den(counts)), level, method)
        return Interval(value, lo, hi, method)
    if method == "delong":
        r = delong(table, level)
        return Interval(value, r.lo, r.hi, "delong", r.se)
    if not math.isfinite(value):
        return Interval(value, math.nan, math.nan, method)
    if method == "bootstrap-percentile":
        lo, hi = percentile_interval(reps, level)
    else:
        lo, hi = bca_interval(value, reps, jack, level)
    return Interval(value, lo, hi, method)


def _draw_dtype(n: int) -> type:
    """32-bit case draws when they fit: half the random bits of 64-bit ones."""
    return np.int32 if n < 2**31 - 1 else np.int64
