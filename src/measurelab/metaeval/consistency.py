"""Degree of consistency and discriminancy of two measures on a domain
(docs/METHODS.md#consistency).

``C(f, g) = R/(R+S)`` and ``D(f/g) = P/Q`` (∞ when Q = 0 < P, undefined — NaN — when
P = Q = 0), with R, S, P, Q counted exactly over all unordered pairs of objects by
:func:`~measurelab.metaeval.pairs.pair_counts`.

Ties are decided exactly. On ranked lists and prediction vectors each measure's values are
turned into dense ranks (higher = better, Huang & Ling's normalization) like this:

* ``auc`` — twice the Mann–Whitney numerator, an integer, over the fixed n₀n₁ (or as an
  exact Fraction when objects have different class sizes);
* threshold measures (statistic ``counts``: acc, f1, youden, …) — the registry formula on
  :class:`~fractions.Fraction` counts, exact wherever the formula is rational (measures
  with a square root or a log, such as gmean or dp, give floats from one code path);
* two-level measures ``f:g`` — the pair (rank of f, rank of g), lexicographically;
* any other measure — the registry value per object; ties are then decided by ``==`` on
  values computed by the same code path (documented, not exact arithmetic).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from measurelab._util.validation import check_flag, check_int, check_random_state
from measurelab.exceptions import MeasurelabError
from measurelab.jsonable import to_jsonable
from measurelab.measures.base import Measure, registry
from measurelab.measures.twolevel import two_level_parts
from measurelab.metaeval.domains import PredictionSet, RankedLists, SampledRankedLists
from measurelab.metaeval.pairs import PairCounts, dense_ranks, pair_counts_ranks
from measurelab.pickling import versioned_pickle
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.confusion import BinaryCounts

Domain = RankedLists | SampledRankedLists | PredictionSet


def resolve_measure(spec: str | Measure) -> Measure:
    """The measure named by ``spec`` (a registry name such as ``"auc"`` or ``"f_beta@2"``),
    or ``spec`` itself when it is already a :class:`~measurelab.measures.base.Measure`.

    Examples
    --------
    >>> resolve_measure("auc").name
    'auc'
    """
    return spec if isinstance(spec, Measure) else registry.resolve(spec)[0]


#: the most groups of the delete-a-group jackknife
MAX_GROUPS = 10_000


def _check_domain(domain: Any) -> None:
    if not isinstance(domain, RankedLists | SampledRankedLists | PredictionSet):
        raise MeasurelabError("domain must be a RankedLists, SampledRankedLists or "
                              f"PredictionSet, got {type(domain).__name__}")


def _rank_values(values: list[Any], m: Measure) -> tuple[np.ndarray, int]:
    """Dense ranks (0 = worst) of the values by the measure's rule
    (:meth:`~measurelab.measures.base.Measure.goodness`; a measure with a target value by
    the exact distance to it)."""
    for v in values:
        if isinstance(v, float) and math.isnan(v):
            raise MeasurelabError(
                f"{m.name} is undefined (NaN) on some objects of the domain; ties and order "
                "are not defined there"
            )
    if m.target is not None:  # distances decided exactly: the floats as rationals
        values = [Fraction(v) if isinstance(v, float) and math.isfinite(v) else v
                  for v in values]
    return dense_ranks([m.goodness(v) for v in values])


def measure_ranks(measure: str | Measure, domain: Domain, *,
                  progress: bool = False) -> tuple[np.ndarray, int]:
    """Dense ranks (0 = worst, higher = better) of a measure's values on every object.

    ``progress`` reports the objects evaluated one by one (measures of the scores).

    Returns ``(ranks, number_of_distinct_values)``; equal ranks mean exactly equal values
    (see the module docstring for how each kind of measure is decided).

    Examples
    --------
    >>> d = RankedLists(4, 2)
    >>> measure_ranks("acc", d)[0].tolist(), measure_ranks("err", d)[0].tolist()
    ([0, 1, 1, 1, 1, 2], [0, 1, 1, 1, 1, 2])
    >>> measure_ranks("auc:acc", d)[0].tolist()
    [0, 1, 2, 2, 3, 4]
    """
    progress = check_flag(progress, "progress")
    m = resolve_measure(measure)
    _check_domain(domain)
    parts = two_level_parts(m)
    if parts is not None:
        rf, _ = measure_ranks(parts[0], domain, progress=progress)
        rg, ug = measure_ranks(parts[1], domain, progress=progress)
        return dense_ranks(rf.astype(np.int64) * ug + rg)
    if m.name == "auc" and m.statistic == "scores":
        den = domain.auc_den2
        if (den == 0).any():
            raise MeasurelabError("AUC is undefined on objects with one class only")
        if (den == den[0]).all():
            r, u = dense_ranks(domain.auc2)
        else:
            r, u = dense_ranks([Fraction(int(a), int(b)) for a, b in
                                zip(domain.auc2, den, strict=True)])
    elif m.statistic == "counts":
        r, u = _count_measure_ranks(m, domain)
    else:
        if m.needs_probabilities and not domain.probabilities_ok():
            raise MeasurelabError(
                f"{m.name} needs probabilities in [0, 1]; the objects of this domain "
                f"({domain.describe()}) have none"
            )
        from measurelab.progress import progress_bar

        bar = progress_bar(len(domain), desc=f"compare: {m.name}", unit="object",
                           enabled=progress and len(domain) > 20000, leave=False)
        vals = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for i in range(len(domain)):
                vals.append(m.compute(domain.stats(i)))
                if i % 1000 == 999:
                    bar.update(1000)
        bar.close()
        r, u = _rank_values([v.item() if isinstance(v, np.generic) else v for v in vals], m)
    return r, u


def _unique_rows(cols: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(stack(cols), axis=0, return_inverse=True)``, fast for small
    non-negative integer columns (one int64 key per row instead of sorting rows)."""
    rows = np.stack(cols, axis=1)
    if rows.size and rows.dtype.kind in "iu" and rows.min() >= 0:
        base = int(rows.max()) + 1
        if base ** len(cols) < 2**62:
            key = np.zeros(rows.shape[0], dtype=np.int64)
            for c in cols:
                key = key * base + c.astype(np.int64)
            _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            return rows[first], np.asarray(inverse).ravel()
    uniq, inverse = np.unique(rows, axis=0, return_inverse=True)
    return uniq, np.asarray(inverse).ravel()


def _count_measure_ranks(m: Measure, domain: Domain) -> tuple[np.ndarray, int]:
    tp, fp, fn, tn = domain.counts()
    uniq, inverse = _unique_rows([tp, fp, fn, tn])
    vals = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for row in uniq:
            c = BinaryCounts(*(Fraction(int(x)) for x in row))
            v = m.compute(BinaryStats(given_counts=c))
            vals.append(v.item() if isinstance(v, np.generic) else v)
    r, u = _rank_values(vals, m)
    return r[np.asarray(inverse).ravel()], u


@versioned_pickle
@dataclass(frozen=True)
class ConsistencyResult:
    """R, S, P, Q of f vs g on a domain with C = R/(R+S) and D = P/Q.

    Attributes
    ----------
    f, g : measure names
    counts : PairCounts
    domain : description of the domain
    method : 'enumeration', 'generating function', 'sample' or 'objects'
    ci : for samples, 95% confidence intervals {'consistency': (lo, hi),
        'discriminancy': (lo, hi)} (delete-a-group jackknife), else None
    """

    f: str
    g: str
    counts: PairCounts
    domain: str
    method: str
    ci: dict[str, tuple[float, float]] | None = None
    settings: dict[str, Any] = field(default_factory=dict)

    R = property(lambda self: self.counts.R)
    S = property(lambda self: self.counts.S)
    P = property(lambda self: self.counts.P)
    Q = property(lambda self: self.counts.Q)
    T = property(lambda self: self.counts.T)
    objects = property(lambda self: self.counts.objects)
    pairs = property(lambda self: self.counts.pairs)

    @property
    def consistency(self) -> float:
        """C(f, g) = R/(R+S); NaN when no pair has both measures differ."""
        return ratio_c(self.R, self.S)

    @property
    def discriminancy(self) -> float:
        """D(f/g) = P/Q; inf when Q = 0 < P, NaN when P = Q = 0."""
        return ratio_d(self.P, self.Q)

    @property
    def consistency_exact(self) -> Fraction | None:
        return Fraction(self.R, self.R + self.S) if self.R + self.S else None

    @property
    def discriminancy_exact(self) -> Fraction | None:
        return Fraction(self.P, self.Q) if self.Q else None

    @property
    def strictly_consistent(self) -> bool:
        """S = 0 (Ling et al. 2003, Def. 1)."""
        return self.S == 0

    @property
    def strictly_discriminating(self) -> bool:
        """P > 0 and Q = 0 (Ling et al. 2003, Def. 2)."""
        return self.P > 0 and self.Q == 0

    @property
    def statistically_consistent(self) -> bool:
        return self.consistency > 0.5

    @property
    def finer(self) -> bool:
        """f is finer (more discriminating) than g: D > 1."""
        return self.discriminancy > 1

    def __str__(self) -> str:
        """The answer: degree of consistency and of discriminancy, and what they say.

        Examples
        --------
        >>> print(compare_on_ranked_lists("auc", "acc", 8, 4))
        auc against acc on all ranked lists, n=8, pos=4, cutoff=4 (enumeration): consistency C = 0.977 (R 1459, S 34), discriminancy D = 14.7 (P 762, Q 52): auc is statistically consistent with acc and finer.
        """  # noqa: E501
        c, d = self.consistency, self.discriminancy
        ci = self.ci or {}
        c_ci = (f", 95% CI {ci['consistency'][0]:.3g} to {ci['consistency'][1]:.3g}"
                if "consistency" in ci else "")
        d_ci = (f", 95% CI {ci['discriminancy'][0]:.3g} to {ci['discriminancy'][1]:.3g}"
                if "discriminancy" in ci else "")
        said = [("statistically consistent with" if self.statistically_consistent
                 else "not statistically consistent with") + f" {self.g}"]
        said.append("finer" if self.finer else "not finer")
        return (f"{self.f} against {self.g} on {self.domain} ({self.method}): consistency C "
                f"= {c:.3g} (R {self.R}, S {self.S}{c_ci}), discriminancy D = {d:.3g} "
                f"(P {self.P}, Q {self.Q}{d_ci}): {self.f} is {' and '.join(said)}.")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: R, S, P, Q exact integers; discriminancy a number or 'inf'."""
        out: dict[str, Any] = {
            "f": self.f,
            "g": self.g,
            **self.settings,
            "domain": self.domain,
            "method": self.method,
            "objects": self.objects,
            "pairs": self.pairs,
            "R": self.R,
            "S": self.S,
            "P": self.P,
            "Q": self.Q,
            "T": self.T,
            "consistency": to_jsonable(self.consistency),
            "discriminancy": to_jsonable(self.discriminancy),
            "strictly_consistent": self.strictly_consistent,
            "strictly_discriminating": self.strictly_discriminating,
        }
        if self.ci is not None:
            out["ci95"] = {k: [to_jsonable(a), to_jsonable(b)] for k, (a, b) in self.ci.items()}
        return out


def ratio_c(R: int, S: int) -> float:
    """R/(R+S) as a float (NaN if R + S = 0), exact up to the last rounding."""
    return float(Fraction(R, R + S)) if R + S else math.nan


def ratio_d(P: int, Q: int) -> float:
    """P/Q as a float; inf when Q = 0 < P; NaN when P = Q = 0."""
    if Q == 0:
        return math.inf if P > 0 else math.nan
    return float(Fraction(P, Q))


def _exact_kind(m: Measure) -> str | None:
    """'auc', 'acc' or 'auc:acc' when the generating function covers the measure."""
    if m.name in ("auc", "acc") and two_level_parts(m) is None:
        return m.name
    parts = two_level_parts(m)
    if parts is not None and (parts[0].name, parts[1].name) == ("auc", "acc"):
        return "auc:acc"
    return None


def exact_applies(f: str | Measure, g: str | Measure) -> bool:
    """Whether :func:`exact_counts` covers f vs g: AUC, accuracy and the two-level
    AUC:acc, any two different ones of them, in either order.

    Examples
    --------
    >>> exact_applies("acc", "auc"), exact_applies("auc:acc", "acc"), exact_applies("f1", "acc")
    (True, True, False)
    """
    a, b = _exact_kind(resolve_measure(f)), _exact_kind(resolve_measure(g))
    return a is not None and b is not None and a != b


def exact_counts(
    f: str | Measure, g: str | Measure, n: int, pos: int, cutoff: int | None = None, *,
    progress: bool = False,
) -> PairCounts:
    """R, S, P, Q of f vs g over all ranked lists from the generating function of
    (AUC, acc) (:func:`~measurelab.metaeval.exact.auc_acc_pair_counts`), for f, g among
    AUC, acc and AUC:acc. With R, S, P, Q, T of AUC vs acc, the two-level measure φ =
    AUC:acc gives (Huang & Ling 2007, Thm. 2): φ vs AUC = (R + S + P, 0, Q, 0, T) and
    φ vs acc = (R + Q, S, P, 0, T).

    Examples
    --------
    >>> exact_counts("auc:acc", "acc", 6, 3)        # Huang & Ling Table 3, n = 6
    PairCounts(R=117, S=1, P=62, Q=0, T=10, objects=20)
    """
    from measurelab.metaeval.exact import _check_size, auc_acc_pair_counts, check_ranked

    progress = check_flag(progress, "progress")
    fm, gm = resolve_measure(f), resolve_measure(g)
    kinds = (_exact_kind(fm), _exact_kind(gm))
    if not exact_applies(fm, gm):
        raise MeasurelabError(
            f"the generating function covers AUC, acc and AUC:acc only, not {fm.name} vs "
            f"{gm.name}"
        )
    k = check_ranked(n, pos, cutoff)
    _check_size(n, pos, "pos")
    base = auc_acc_pair_counts(n, pos, k, progress=progress)
    R, S, P, Q, T, K = base.R, base.S, base.P, base.Q, base.T, base.objects
    table: dict[tuple[str | None, str | None], PairCounts] = {  # kinds: None ruled out
        ("auc", "acc"): base,
        ("auc:acc", "auc"): PairCounts(R + S + P, 0, Q, 0, T, K),
        ("auc:acc", "acc"): PairCounts(R + Q, S, P, 0, T, K),
    }
    if kinds in table:
        return table[kinds]
    return table[(kinds[1], kinds[0])].swapped()


def compare_measures(
    f: str | Measure,
    g: str | Measure,
    domain: Domain,
    *,
    exact: bool = False,
    groups: int = 20,
    progress: bool = False,
) -> ConsistencyResult:
    """Consistency and discriminancy of f vs g on a domain.

    Parameters
    ----------
    f, g : registry names (``"auc"``, ``"f_beta@2"``), two-level specs (``"auc:acc"``)
        or :class:`~measurelab.measures.base.Measure` objects.
    domain : RankedLists, SampledRankedLists or PredictionSet
    exact : bool
        On :class:`RankedLists` with f, g among AUC, acc and AUC:acc (see
        :func:`exact_applies`), count with the generating function instead of enumerating
        lists (same numbers, any n).
    groups : int
        Groups of the delete-a-group jackknife giving the 95% intervals of a sample.

    Examples
    --------
    >>> r = compare_measures("auc", "acc", RankedLists(6, 3))    # Ling et al. 2003
    >>> r.R, r.S, r.P, r.Q, round(r.consistency, 3), r.discriminancy
    (113, 1, 62, 4, 0.991, 15.5)
    >>> r = compare_measures("auc:acc", "auc", RankedLists(6, 3))  # Huang & Ling Table 3
    >>> r.consistency, r.discriminancy
    (1.0, inf)
    """
    exact = check_flag(exact, "exact")
    progress = check_flag(progress, "progress")
    groups = check_int(groups, "groups", minimum=2, maximum=MAX_GROUPS)
    fm, gm = resolve_measure(f), resolve_measure(g)
    _check_domain(domain)
    settings: dict[str, Any] = {}
    if isinstance(domain, (RankedLists, SampledRankedLists)):
        settings = {"n": domain.n, "pos": domain.n_pos, "cutoff": domain.cutoff}
    if exact and isinstance(domain, RankedLists) and exact_applies(fm, gm):
        pc = exact_counts(fm, gm, domain.n, domain.n_pos, domain.cutoff, progress=progress)
        return ConsistencyResult(fm.name, gm.name, pc, domain.describe(),
                                 "generating function", None, settings)
    ra, ua = measure_ranks(fm, domain, progress=progress)
    rb, ub = measure_ranks(gm, domain, progress=progress)
    pc = pair_counts_ranks(ra, ua, rb, ub)
    ci = None
    if isinstance(domain, SampledRankedLists):
        method = "sample"
        ci = jackknife_ci(ra, ua, rb, ub, groups=groups, random_state=domain.random_state)
    elif isinstance(domain, RankedLists):
        method = "enumeration"
    else:
        method = "objects"
    return ConsistencyResult(fm.name, gm.name, pc, domain.describe(), method, ci, settings)


def jackknife_ci(
    ra: np.ndarray, ua: int, rb: np.ndarray, ub: int, *, groups: int = 20,
    random_state: int = 0, level: float = 0.95,
) -> dict[str, tuple[float, float]]:
    """Normal intervals for C and D of a random sample of objects, with the standard error
    of the delete-a-group jackknife (objects split at random into ``groups`` groups; C and D
    recomputed without each group). Pairs share objects, so the pairs are not independent;
    the jackknife over objects accounts for that. ``random_state`` (an int, default 0)
    seeds the split into groups.

    Examples
    --------
    >>> d = SampledRankedLists(16, 8, size=2000, random_state=3)
    >>> ra, ua = measure_ranks("auc", d); rb, ub = measure_ranks("acc", d)
    >>> lo, hi = jackknife_ci(ra, ua, rb, ub)["consistency"]
    >>> lo < 0.935 < hi      # the exact value over all 12,870 lists (Ling 2003)
    True
    """
    from scipy.stats import norm

    K = ra.size
    full = pair_counts_ranks(ra, ua, rb, ub)
    c0, d0 = ratio_c(full.R, full.S), ratio_d(full.P, full.Q)
    random_state = check_random_state(random_state)
    groups = check_int(groups, "groups", minimum=2, maximum=MAX_GROUPS)
    rng = np.random.default_rng(random_state + 7919 if isinstance(random_state, int | np.integer)
                                else random_state)
    label = rng.permutation(K) % groups
    cs, ds = [], []
    for gi in range(groups):
        keep = label != gi
        pc = pair_counts_ranks(ra[keep], ua, rb[keep], ub)
        cs.append(ratio_c(pc.R, pc.S))
        ds.append(ratio_d(pc.P, pc.Q))
    z = float(norm.ppf(0.5 + level / 2))
    out = {}
    for name, est, reps in (("consistency", c0, cs), ("discriminancy", d0, ds)):
        arr = np.asarray(reps, dtype=np.float64)
        if not np.isfinite(arr).all() or not math.isfinite(est):
            out[name] = (est, math.inf) if not math.isnan(est) else (math.nan, math.nan)
            continue
        se = math.sqrt((groups - 1) / groups * float(np.sum((arr - arr.mean()) ** 2)))
        lo, hi = max(0.0, est - z * se), est + z * se  # C lies in [0, 1], D >= 0
        out[name] = (lo, min(1.0, hi) if name == "consistency" else hi)
    return out


def compare_on_ranked_lists(
    f: str | Measure,
    g: str | Measure,
    n: int,
    pos: int,
    cutoff: int | None = None,
    *,
    sample: int | None = None,
    random_state: int = 0,
    exact: bool = False,
    progress: bool = False,
) -> ConsistencyResult:
    """C and D of f vs g over ranked lists: all of them (enumerated, or by the generating
    function with ``exact=True`` for AUC vs acc), or a random sample of ``sample`` lists
    drawn with ``random_state`` (an int, default 0).

    Examples
    --------
    >>> r = compare_on_ranked_lists("auc", "acc", 400, 200, exact=True)
    >>> r.method, r.objects == __import__("math").comb(400, 200), round(r.consistency, 4)
    ('generating function', True, 0.8523)
    """
    from measurelab.metaeval.exact import check_ranked

    random_state = check_random_state(random_state)
    exact = check_flag(exact, "exact")
    progress = check_flag(progress, "progress")
    if sample is not None:
        sample = check_int(sample, "sample", minimum=2)
    k_cut = check_ranked(n, pos, cutoff)
    fm, gm = resolve_measure(f), resolve_measure(g)
    if exact and exact_applies(fm, gm) and sample is None:
        pc = exact_counts(fm, gm, n, pos, k_cut, progress=progress)
        return ConsistencyResult(
            fm.name, gm.name, pc, f"all ranked lists, n={n}, pos={pos}, cutoff={k_cut}",
            "generating function", None, {"n": n, "pos": pos, "cutoff": k_cut},
        )
    if sample is not None:
        domain: Domain = SampledRankedLists(n, pos, cutoff, size=sample,
                                            random_state=random_state)
    else:
        domain = RankedLists(n, pos, cutoff)
    return compare_measures(fm, gm, domain, progress=progress)
