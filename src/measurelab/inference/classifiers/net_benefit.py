"""Net benefit in a comparison of classifiers: is a model worth using at a threshold, and
over which thresholds is one model more useful than another (decision curve analysis with
intervals; Vickers & Elkin 2006).

:func:`net_benefit_comparison` (``ClassifierComparison.net_benefit``) runs the
comparison's own resampling — the same case multiplicities for every model, jointly or by
class as the comparison was asked, seeded by its ``random_state`` — and evaluates the net
benefit of every model and of treating everyone at every threshold of a block of
replicates with one cumulative sum per table (:func:`~measurelab.measures.decision.
net_benefit_curve_block`). From those replicates:

* at the chosen thresholds: each model's net benefit (and treating everyone's) with the
  adjusted Wald interval of :func:`net_benefit_interval`, and the paired difference of
  every pair of models and of each model against treating everyone and treating no one,
  with that of :func:`net_benefit_difference_interval` — half a case added to each kind of
  case before the Wald interval is formed: net benefit can rest on a few rare cases (the
  untreated positives at a low threshold, the positives only one model treats) that a test
  set may not hold, where the bootstrap's interval collapses — its p and Holm's
  adjustment over all those rows;
* over a grid of thresholds: a simultaneous band of every such difference (max-|t|: the
  level-quantile over the bootstrap replicates of the largest deviation, in units of the
  adjusted standard error, over all thresholds and pairs), so "a is more useful than b for
  thresholds 0.08–0.31" holds for the whole range at once, at the comparison's level.

Examples
--------
Two models of 300 cases, 30% positive; the examples of the functions and methods below use
this ``r`` and ``nb`` (run this example first):

>>> import numpy as np
>>> from measurelab import compare_classifiers
>>> g = np.random.default_rng(0)
>>> y = g.random(300) < 0.3
>>> a = 1 / (1 + np.exp(-(2.0 * y + g.normal(size=300) - 1.6)))
>>> b = 1 / (1 + np.exp(-(0.6 * y + g.normal(size=300) - 1.0)))
>>> r = compare_classifiers(y, {"a": a, "b": b}, measures=["auc"], n_boot=300)
>>> nb = r.net_benefit()   # at 0.05, 0.1, 0.2, 0.3 and 0.5; bands over 0.01, ..., 0.99
>>> nb.differences()[["a", "b", "threshold"]].head(3).values.tolist()
[['a', 'b', 0.05], ['a', 'b', 0.1], ['a', 'b', 0.2]]
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.inference import intervals as iv
from measurelab.inference._base import check_level
from measurelab.inference.bootstrap import (
    BootstrapRun,
    rng_of,
    run_blocks,
)
from measurelab.measures.decision import (
    check_thresholds,
    net_benefit_curve,
    net_benefit_curve_block,
    treat_all,
)
from measurelab.pickling import versioned_pickle

__all__ = ["DEFAULT_AT", "DEFAULT_GRID", "NetBenefitComparison", "net_benefit_comparison",
           "net_benefit_difference_interval", "net_benefit_interval", "plot_decision_curve"]

#: the thresholds whose net benefit a comparison reports by default
DEFAULT_AT: tuple[float, ...] = (0.05, 0.1, 0.2, 0.3, 0.5)
#: the thresholds of the simultaneous band and the decision curve: 0.01, ..., 0.99
DEFAULT_GRID = np.arange(1, 100) / 100
ALL, NONE = "treat all", "treat none"


def _check_binary_probabilities(cmp: Any) -> None:
    if hasattr(cmp._design, "labels"):
        raise MeasurelabError("net benefit is defined for two classes; this comparison has "
                              f"{cmp._design.k}")
    for name, s in zip(cmp.names, cmp._scores, strict=True):
        if s.size and (float(s.min()) < 0.0 or float(s.max()) > 1.0):
            raise MeasurelabError(f"net benefit needs probabilities in [0, 1]; the scores of "
                                  f"model {name!r} reach "
                                  f"{float(s.min()) if s.min() < 0 else float(s.max()):g}")


def net_benefit_comparison(cmp: Any, thresholds: Any = DEFAULT_AT, *, grid: Any = None,
                           references: bool = True) -> NetBenefitComparison:
    """Net benefit of every model of a comparison at ``thresholds``, with intervals and
    paired differences (Holm), and simultaneous bands over ``grid``.

    Parameters
    ----------
    cmp : ClassifierComparison
        A binary comparison with probabilities and intervals (``ci`` set).
    thresholds : threshold probabilities in [0, 1), default (0.05, 0.1, 0.2, 0.3, 0.5)
    grid : threshold probabilities, optional
        The thresholds of the simultaneous bands (default 0.01, 0.02, ..., 0.99).
    references : bool, default True
        Also compare every model with treating everyone and treating no one.

    Returns
    -------
    NetBenefitComparison

    Examples
    --------
    With ``r`` from the module example:

    >>> v = net_benefit_comparison(r, [0.2]).values()
    >>> v[["model", "threshold", "net_benefit"]].round(4).values.tolist()
    [['a', 0.2, 0.1667], ['b', 0.2, 0.0892], ['treat all', 0.2, 0.0667]]
    """
    from measurelab._util.validation import check_flag

    level = cmp._need_level()
    _check_binary_probabilities(cmp)
    at = check_thresholds(thresholds, "thresholds")
    g = DEFAULT_GRID.copy() if grid is None else check_thresholds(grid, "grid")
    references = check_flag(references, "references")
    key = ("net_benefit", tuple(at.tolist()), tuple(g.tolist()), references)
    if key not in cmp._cache:
        cmp._cache[key] = NetBenefitComparison(cmp, at, g, references, level)
    return cmp._cache[key]


def _at_least(s: np.ndarray, w: np.ndarray, ts: np.ndarray) -> np.ndarray:
    """Σ w over the cases with s ≥ t, for every threshold t."""
    order = np.argsort(s, kind="stable")
    top = np.concatenate([[0.0], np.cumsum(w[order][::-1])])  # weight of the top k cases
    return top[s.size - np.searchsorted(s[order], ts, side="left")]


def net_benefit_interval(
    y: Any, p: Any, thresholds: Any, *, sample_weight: Any = None, stratify: bool = False,
    confidence_level: float = 0.95,
) -> dict[str, np.ndarray]:
    """The adjusted Wald interval of one strategy's net benefit at each threshold: NB is a
    mean of per-case contributions (+1 for a treated positive, −t/(1 − t) for a treated
    negative, 0 otherwise) and half a case is added to each of the four cells (treated or
    not, positive or negative) before the Wald interval is formed. With fixed class counts
    (``stratify``) it is NB = (P/n)·TPR − t/(1 − t)·(N/n)·FPR with each rate's variance
    from its cell counts plus a half on either side. At low thresholds the untreated
    positives are rare; a test set without them gives a bootstrap interval with no room for
    them (0.85 coverage for 95% at t = 0.1, fixed counts, n = 1000, π = 0.3 in
    docs/decisions_study.md).

    Parameters
    ----------
    y : labels (bool, positive True)
    p : the strategy's probabilities, or 'treat all'
    thresholds : threshold probabilities in [0, 1)
    sample_weight, stratify, confidence_level : as :func:`net_benefit_difference_interval`

    Returns
    -------
    dict
        ``center, se, lo, hi`` (arrays over the thresholds).

    Examples
    --------
    >>> y = np.array([1, 1, 0, 0, 0, 0], bool)
    >>> r = net_benefit_interval(y, np.array([0.9, 0.6, 0.4, 0.3, 0.2, 0.1]), [0.25])
    >>> bool(r["lo"][0] < (2 - 2 / 3) / 6 < r["hi"][0])
    True
    """
    from scipy.special import ndtri

    y = np.asarray(y, dtype=bool)
    ts = check_thresholds(thresholds)
    odds = ts / (1.0 - ts)
    w = np.ones(y.size) if sample_weight is None else np.asarray(sample_weight, np.float64)
    every = isinstance(p, str)
    if every and p != ALL:
        raise MeasurelabError(f"p must be probabilities or {ALL!r}, got {p!r}")
    cells = []
    for cls in (True, False):
        m = y == cls
        wc = w[m]
        tot = float(wc.sum())
        treated = np.full(ts.size, tot) if every else _at_least(
            np.asarray(p, dtype=np.float64)[m], wc, ts)
        cells.append((tot, float((wc * wc).sum()), treated, tot / max(int(m.sum()), 1)))
    (w1, w21, t1, m1), (w0, w20, t0, m0) = cells
    total = w1 + w0
    if stratify:
        r1 = (t1 + 0.5 * m1) / (w1 + m1)
        r0 = (t0 + 0.5 * m0) / (w0 + m0)
        center = (w1 / total) * r1 - odds * (w0 / total) * r0
        var = ((w1 / total) ** 2 * r1 * (1 - r1) / (w1 * w1 / w21)
               + odds**2 * (w0 / total) ** 2 * r0 * (1 - r0) / (w0 * w0 / w20))
    else:
        mw = total / y.size
        den = total + 2.0 * mw
        center = (t1 - odds * t0) / den
        m2 = (t1 + odds * odds * t0 + 0.5 * mw * (1.0 + odds * odds)) / den
        var = np.maximum(m2 - center * center, 0.0) * (w21 + w20) / (total * total)
    se = np.sqrt(var)
    z = float(ndtri(0.5 + check_level(confidence_level, "confidence_level") / 2.0))
    return {"center": center, "se": se, "lo": center - z * se, "hi": center + z * se}


def net_benefit_difference_interval(
    y: Any, a: Any, b: Any, thresholds: Any, *, sample_weight: Any = None,
    stratify: bool = False, confidence_level: float = 0.95,
) -> dict[str, np.ndarray]:
    """The adjusted Wald interval of a paired difference of net benefits, NB_a(t) − NB_b(t),
    at each threshold: the difference is a mean of per-case contributions (+1 for a
    positive only a treats, −1 for one only b treats, −t/(1 − t) and +t/(1 − t) for such
    negatives), and half a case is added to each kind of case the two strategies can treat
    differently before the Wald interval is formed (Agresti & Min 2005's adjustment of the
    interval for matched proportions). So an interval never collapses when the test set
    holds none of the rare cases a difference rests on — where the bootstrap and the plain
    Wald interval cannot see them and cover far less than promised.

    Parameters
    ----------
    y : labels (bool, positive True)
    a : the first strategy's probabilities
    b : the second's, or 'treat all' or 'treat none'
    thresholds : threshold probabilities in [0, 1)
    sample_weight : case weights, optional (the variance then uses Kish's effective size)
    stratify : the class counts are fixed by design: the variance within each class
    confidence_level : float, default 0.95

    Returns
    -------
    dict
        ``center, se, lo, hi, p`` (arrays over the thresholds): the adjusted estimate, its
        standard error, the interval and the two-sided p of "no difference" (the interval
        excludes 0 exactly when p < 1 − level).

    Examples
    --------
    >>> y = np.array([1, 1, 0, 0, 0, 0], bool)
    >>> a = np.array([0.9, 0.6, 0.4, 0.3, 0.2, 0.1])
    >>> r = net_benefit_difference_interval(y, a, a, [0.25])   # identical: no difference
    >>> float(r["center"][0]), float(r["p"][0]), float(r["lo"][0]) < 0 < float(r["hi"][0])
    (0.0, 1.0, True)
    """
    from scipy.special import ndtr, ndtri

    y = np.asarray(y, dtype=bool)
    ts = check_thresholds(thresholds)
    odds = ts / (1.0 - ts)
    sa = np.asarray(a, dtype=np.float64)
    w = np.ones(y.size) if sample_weight is None else np.asarray(sample_weight, np.float64)
    ref = b if isinstance(b, str) else None
    sb = None if ref is not None else np.asarray(b, dtype=np.float64)
    if ref is not None and ref not in (ALL, NONE):
        raise MeasurelabError(f"b must be scores, {ALL!r} or {NONE!r}, got {ref!r}")
    parts = []
    for cls in (True, False):
        m = y == cls
        wc = w[m]
        tot = float(wc.sum())
        ta = _at_least(sa[m], wc, ts)
        if ref == ALL:
            only_a, only_b, kinds = np.zeros(ts.size), tot - ta, 1
        elif ref == NONE:
            only_a, only_b, kinds = ta, np.zeros(ts.size), 1
        else:
            tb = _at_least(sb[m], wc, ts)  # type: ignore[index]
            both = _at_least(np.minimum(sa[m], sb[m]), wc, ts)  # type: ignore[index]
            only_a, only_b, kinds = ta - both, tb - both, 2
        v = np.ones(ts.size) if cls else odds  # the weight of one case of this class
        sign = 1.0 if cls else -1.0
        s1 = sign * v * (only_a - only_b)
        s2 = v * v * (only_a + only_b)
        kinds_sq = v * v * kinds  # Σ over the kinds of the contribution squared
        mean_w = tot / max(int(m.sum()), 1)
        parts.append((tot, float((wc * wc).sum()), s1, s2, kinds, kinds_sq, mean_w))
    total = sum(p_[0] for p_ in parts)
    if stratify:
        center = np.zeros(ts.size)
        var = np.zeros(ts.size)
        for tot, tot2, s1, s2, kinds, kinds_sq, mw in parts:
            den = tot + 0.5 * mw * kinds
            mean_c = s1 / den
            m2 = (s2 + 0.5 * mw * kinds_sq) / den
            share = tot / total
            center += share * mean_c
            var += share * share * np.maximum(m2 - mean_c * mean_c, 0.0) / (tot * tot / tot2)
    else:
        mw = total / y.size
        kinds = sum(p_[4] for p_ in parts)
        den = total + 0.5 * mw * kinds
        center = (parts[0][2] + parts[1][2]) / den
        m2 = (parts[0][3] + parts[1][3] + 0.5 * mw * (parts[0][5] + parts[1][5])) / den
        n_eff = total * total / (parts[0][1] + parts[1][1])
        var = np.maximum(m2 - center * center, 0.0) / n_eff
    se = np.sqrt(var)
    z = float(ndtri(0.5 + check_level(confidence_level, "confidence_level") / 2.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(se > 0, 2.0 * ndtr(-np.abs(center) / se), np.where(center == 0, 1.0, 0.0))
    return {"center": center, "se": se, "lo": center - z * se, "hi": center + z * se,
            "p": p}


@versioned_pickle
class NetBenefitComparison:
    """Net benefit of the models of a comparison: values with intervals at the chosen
    thresholds, paired differences with Holm's adjustment, and the ranges of thresholds
    over which one strategy is significantly more useful (built by
    :func:`net_benefit_comparison`).
    """

    def __init__(self, cmp: Any, at: np.ndarray, grid: np.ndarray, references: bool,
                 level: float) -> None:
        self.names = list(cmp.names)
        self.thresholds = at
        self.grid = grid
        self.level = level
        self.references = references
        self._y, self._scores, self._w = cmp._y, cmp._scores, cmp._w
        d = cmp._design
        self._stratify = bool(d.stratify)
        ts = np.concatenate([at, grid])
        k = len(self.names)
        thr = [(cmp.threshold, cmp._inclusive)] * k
        odds = ts / (1.0 - ts)

        t_n = ts.size

        def evaluate(ext: np.ndarray) -> np.ndarray:
            # every model's net benefit, then (in the columns after them, the same in every
            # row) treating everyone: the shape (models, 2T) keeps the block size, and so
            # the draws, of the comparison's own bootstrap
            blocks = d._blocks(ext, thr)
            out = np.empty((ext.shape[0], k, 2 * t_n))
            for a, bs in enumerate(blocks):
                out[:, a, :t_n] = net_benefit_curve_block(bs.table, ts)
            blk = blocks[0].table
            tot = blk.total[:, None]
            with np.errstate(invalid="ignore", divide="ignore"):
                out[:, :, t_n:] = np.where(tot > 0, (blk.n_pos[:, None]
                                                     - blk.n_neg[:, None] * odds) / tot,
                                           np.nan)[:, None, :]
            return out

        raw = run_blocks(d, evaluate, (k, 2 * t_n), cmp.n_boot, rng_of(cmp.random_state),
                         jackknife=False, progress=cmp._progress, desc="net benefit",
                         n_jobs=cmp._n_jobs)
        # strategies × thresholds: the models, then treating everyone (row k)
        run = BootstrapRun(
            np.concatenate([raw.reps[:, :, :t_n], raw.reps[:, :1, t_n:]], axis=1),
            np.concatenate([raw.theta[:, :t_n], raw.theta[:1, t_n:]], axis=0),
            raw.jack)
        vals = np.array([net_benefit_curve(t, ts) for t in d.tables]
                        + [treat_all(d.tables[0], ts)])
        self._run, self._vals, self._ts = run, vals, ts
        na = at.size
        # the strategies compared: every pair of models, then each model against the
        # references (treat all: row k; treat none: net benefit 0)
        self._pairs: list[tuple[int, int | None]] = list(combinations(range(k), 2))
        if references:
            self._pairs += [(a, k) for a in range(k)] + [(a, None) for a in range(k)]
        self._values_rows = self._value_rows(slice(0, na))
        self._diff_rows = self._difference_rows(slice(0, na))
        self._band = self._simultaneous(slice(na, ts.size))

    # ------------------------------------------------------------------ helpers
    def _label(self, b: int | None) -> str:
        if b is None:
            return NONE
        return ALL if b == len(self.names) else self.names[b]

    def _diff(self, a: int, b: int | None, cols: slice) -> tuple[np.ndarray, np.ndarray]:
        """Bootstrap replicates and reported values of strategy a − strategy b at the
        thresholds ``cols``."""
        run = self._run
        if b is None:
            return run.reps[:, a, cols], self._vals[a, cols]
        return (run.reps[:, a, cols] - run.reps[:, b, cols],
                self._vals[a, cols] - self._vals[b, cols])

    def _value_rows(self, cols: slice) -> list[dict[str, Any]]:
        k = len(self.names)
        at = self._ts[cols]
        rows = []
        for a in range(k + (1 if self.references else 0)):
            r = net_benefit_interval(self._y, ALL if a == k else self._scores[a], at,
                                     sample_weight=self._w, stratify=self._stratify,
                                     confidence_level=self.level)
            for j, t in enumerate(at):
                rows.append({"model": self._label(a), "threshold": float(t),
                             "net_benefit": float(self._vals[a, cols][j]),
                             "lo": float(r["lo"][j]), "hi": float(r["hi"][j]),
                             "method": "adjusted-wald"})
        return rows

    def _adjusted(self, a: int, b: int | None, ts: np.ndarray) -> dict[str, np.ndarray]:
        k = len(self.names)
        other: Any = ALL if b == k else NONE if b is None else self._scores[b]
        return net_benefit_difference_interval(self._y, self._scores[a], other, ts,
                                               sample_weight=self._w,
                                               stratify=self._stratify, confidence_level=self.level)

    def _difference_rows(self, cols: slice) -> list[dict[str, Any]]:
        at = self._ts[cols]
        rows = []
        for a, b in self._pairs:
            value = self._diff(a, b, cols)[1]
            r = self._adjusted(a, b, at)
            for j, t in enumerate(at):
                dp, dn = self._discordant(a, b, float(t))
                rows.append({"a": self.names[a], "b": self._label(b), "threshold": float(t),
                             "diff": float(value[j]), "lo": float(r["lo"][j]),
                             "hi": float(r["hi"][j]), "p": float(r["p"][j]),
                             "method": "adjusted-wald", "differ_pos": dp,
                             "differ_neg": dn})
        adj = iv.holm([r["p"] for r in rows])
        for row, q in zip(rows, adj, strict=True):
            row["p_holm"] = float(q)
        return rows

    def _discordant(self, a: int, b: int | None, t: float) -> tuple[float, float]:
        """Positives and negatives (weighted) that strategy a treats and b does not, or the
        reverse, at threshold t: the cases the difference rests on."""
        k = len(self.names)
        ta = self._scores[a] >= t
        tb = (np.ones_like(ta) if b == k else np.zeros_like(ta) if b is None
              else self._scores[b] >= t)
        w = np.ones(ta.size) if self._w is None else self._w
        differ = ta != tb
        return (float(np.sum(w[differ & self._y])), float(np.sum(w[differ & ~self._y])))

    def _simultaneous(self, cols: slice) -> dict[str, Any]:
        """The simultaneous band of every difference over the grid: the level-quantile
        ``c`` of max over pairs and thresholds of |D* − D| / SE (D* a bootstrap replicate,
        SE the adjusted Wald standard error), and D ± c·SE."""
        g = self._ts[cols]
        if not self._pairs:
            empty = np.empty((0, g.size))
            return {"crit": math.nan, "value": empty, "se": empty, "lo": empty, "hi": empty}
        reps = np.stack([self._diff(a, b, cols)[0] for a, b in self._pairs], axis=1)
        value = np.stack([self._diff(a, b, cols)[1] for a, b in self._pairs])
        se = np.stack([self._adjusted(a, b, g)["se"] for a, b in self._pairs])
        with np.errstate(invalid="ignore", divide="ignore"):
            z = np.abs(reps - value[None]) / np.where(se > 0, se, np.nan)[None]
        worst = np.nanmax(np.where(np.isfinite(z), z, -np.inf).reshape(z.shape[0], -1), axis=1)
        worst = worst[np.isfinite(worst)]
        crit = float(np.quantile(worst, self.level, method="higher")) if worst.size else \
            math.nan
        return {"crit": crit, "value": value, "se": se, "lo": value - crit * se,
                "hi": value + crit * se}

    # ------------------------------------------------------------------ tables
    def values(self) -> Any:
        """``model, threshold, net_benefit, lo, hi, method`` at the chosen thresholds
        (with the references: 'treat all' too; treating no one is 0).

        Examples
        --------
        With ``nb`` from the module example:

        >>> v = nb.values()
        >>> v["model"].unique().tolist()
        ['a', 'b', 'treat all']
        >>> v[v["threshold"] == 0.2][["model", "net_benefit"]].round(4).values.tolist()
        [['a', 0.1667], ['b', 0.0892], ['treat all', 0.0667]]
        """
        import pandas as pd

        return pd.DataFrame(self._values_rows, columns=["model", "threshold", "net_benefit",
                                                         "lo", "hi", "method"])

    def differences(self) -> Any:
        """Paired differences ``a, b, threshold, diff, lo, hi, p, p_holm, method,
        differ_pos, differ_neg`` (diff = a − b; b is a model, 'treat all' or 'treat none'),
        Holm-adjusted over all rows; the interval excludes 0 exactly when p < 1 − ci.

        ``differ_pos`` and ``differ_neg`` count the positives and negatives (weighted) that
        one strategy treats and the other does not: the cases the difference rests on. A
        positive counts 1 and a negative t/(1 − t), so where the two strategies differ on
        only a handful of positives the difference of the population may rest on cases the
        test set does not hold, and no interval from it can see them (docs/NET_BENEFIT.md).

        Examples
        --------
        With ``nb`` from the module example:

        >>> d = nb.differences()
        >>> d[d["threshold"] == 0.2][["a", "b", "diff"]].round(4).values[:3].tolist()
        [['a', 'b', 0.0775], ['a', 'treat all', 0.1], ['b', 'treat all', 0.0225]]
        """
        import pandas as pd

        return pd.DataFrame(self._diff_rows, columns=["a", "b", "threshold", "diff", "lo",
                                                       "hi", "p", "p_holm", "method",
                                                       "differ_pos", "differ_neg"])

    def band(self) -> Any:
        """The simultaneous band of every difference over the grid: ``a, b, threshold,
        diff, lo, hi`` (long form), at the comparison's level jointly over all thresholds
        and pairs.

        Examples
        --------
        With ``nb`` from the module example:

        >>> len(nb.band())   # 5 differences × 99 thresholds
        495
        """
        import pandas as pd

        rows = []
        for i, (a, b) in enumerate(self._pairs):
            for j, t in enumerate(self.grid):
                rows.append({"a": self.names[a], "b": self._label(b), "threshold": float(t),
                             "diff": float(self._band["value"][i, j]),
                             "lo": float(self._band["lo"][i, j]),
                             "hi": float(self._band["hi"][i, j])})
        return pd.DataFrame(rows, columns=["a", "b", "threshold", "diff", "lo", "hi"])

    def ranges(self) -> Any:
        """The ranges of grid thresholds over which one strategy is significantly more
        useful than another (the simultaneous band excludes 0 throughout): ``a, b,
        more_useful, from_threshold, to_threshold, points``.

        Examples
        --------
        With ``nb`` from the module example:

        >>> t = nb.ranges()
        >>> t[t["a"] == "a"][["b", "more_useful", "from_threshold", "to_threshold"]].values.tolist()
        [['b', 'a', 0.11, 0.77], ['treat all', 'a', 0.08, 0.99], ['treat none', 'a', 0.01, 0.78]]
        """
        import pandas as pd

        rows = []
        for i, (a, b) in enumerate(self._pairs):
            lo, hi = self._band["lo"][i], self._band["hi"][i]
            for sign, who in ((1, self.names[a]), (-1, self._label(b))):
                sig = lo > 0 if sign > 0 else hi < 0
                for start, stop in _runs(sig):
                    rows.append({"a": self.names[a], "b": self._label(b), "more_useful": who,
                                 "from_threshold": float(self.grid[start]),
                                 "to_threshold": float(self.grid[stop - 1]),
                                 "points": int(stop - start)})
        return pd.DataFrame(rows, columns=["a", "b", "more_useful", "from_threshold",
                                           "to_threshold", "points"])

    def curve_bands(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Pointwise percentile bands (at the comparison's level) of each model's net
        benefit over the grid, from the same replicates: ``{name: (lo, hi)}``.

        Examples
        --------
        With ``nb`` from the module example:

        >>> lo, hi = nb.curve_bands()["a"]
        >>> lo.shape, bool(np.all(lo <= hi))
        ((99,), True)
        """
        cols = slice(self.thresholds.size, self._ts.size)
        q = [(1 - self.level) / 2, 1 - (1 - self.level) / 2]
        out = {}
        for a, name in enumerate(self.names):
            lo, hi = np.quantile(self._run.reps[:, a, cols], q, axis=0)
            out[name] = (lo, hi)
        return out

    def __repr__(self) -> str:
        from measurelab.inference._reprs import net_benefit_repr

        return net_benefit_repr(self)

    def summary(self) -> str:
        """The answer in words. First the chosen thresholds: every pair of strategies
        whose difference is significant there after Holm's adjustment over every row of
        :meth:`differences` — for two models each threshold with the difference, its
        interval and p_holm; for a model against treating everyone or no one the
        thresholds (a sentence for each). Then the grid: for each model, over which
        thresholds it is significantly more useful than treating everyone and than
        treating no one (worth using there), and for each pair of models over which
        thresholds one is more useful, by the simultaneous band.

        Examples
        --------
        With ``nb`` from the module example:

        >>> print(nb.summary())
        At the chosen thresholds (95% intervals, p_holm over all 25 rows of .differences()): a is more useful than b at t = 0.1 (+0.0196, 95% CI +0.00689 to +0.0321, p_holm 0.019), t = 0.2 (+0.0775, 95% CI +0.0488 to +0.105, p_holm < 0.001), t = 0.3 (+0.117, 95% CI +0.0717 to +0.16, p_holm < 0.001) and t = 0.5 (+0.18, 95% CI +0.124 to +0.233, p_holm < 0.001).
        a is more useful than treat all at t = 0.1, 0.2, 0.3 and 0.5 (p_holm < 0.001).
        b is more useful than treat all at t = 0.3 and 0.5 (p_holm < 0.001).
        a is more useful than treat none at t = 0.05, 0.1, 0.2, 0.3 and 0.5 (p_holm < 0.001).
        b is more useful than treat none at t = 0.05, 0.1 and 0.2 (p_holm ≤ 0.014).
        Over the grid: a is more useful than b for thresholds 0.11–0.77.
        a is more useful than treat all for thresholds 0.08–0.99.
        b is more useful than treat all for thresholds 0.25, 0.27–0.99.
        a is more useful than treat none for thresholds 0.01–0.78.
        b is more useful than treat none for thresholds 0.01–0.19 (simultaneous 95% bands over thresholds 0.01–0.99).
        """  # noqa: E501
        pct = round(100 * self.level)
        rng = self.ranges()
        from measurelab.inference._reprs import net_benefit_pair_sentences

        lines = net_benefit_pair_sentences(self)
        grid: list[str] = []
        for a, b in self._pairs:
            label = self._label(b)
            sub = rng[(rng["a"] == self.names[a]) & (rng["b"] == label)]
            for who, other in ((self.names[a], label), (label, self.names[a])):
                part = sub[sub["more_useful"] == who]
                if len(part):
                    spans = ", ".join(_span(r.from_threshold, r.to_threshold)
                                      for r in part.itertuples(index=False))
                    grid.append(f"{who} is more useful than {other} for thresholds {spans}")
        if not grid:
            grid.append("no strategy is significantly more useful than another at any "
                        "threshold of the grid")
        grid[0] = "Over the grid: " + grid[0]
        tail = (f" (simultaneous {pct}% bands over thresholds {self.grid.min():g}–"
                f"{self.grid.max():g}).")
        return "\n".join([*lines, ".\n".join(grid) + tail])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"values", "differences", "ranges", "level", "critical_value"}``
        (NaN → None).

        Examples
        --------
        With ``nb`` from the module example:

        >>> sorted(nb.to_dict())
        ['critical_value', 'differences', 'level', 'ranges', 'values']
        """
        from measurelab.jsonable import to_jsonable

        return to_jsonable({"values": self.values().to_dict("records"),
                            "differences": self.differences().to_dict("records"),
                            "ranges": self.ranges().to_dict("records"),
                            "level": self.level, "critical_value": self._band["crit"]})


def _span(lo: float, hi: float) -> str:
    return f"{lo:g}" if lo == hi else f"{lo:g}–{hi:g}"


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(start, stop) of every run of True in ``flags``.

    Examples
    --------
    >>> _runs(np.array([True, True, False, True]))
    [(0, 2), (3, 4)]
    """
    f = np.concatenate([[False], np.asarray(flags, dtype=bool), [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(f))
    return [(int(s), int(e)) for s, e in zip(edges[::2], edges[1::2], strict=True)]


def plot_decision_curve(cmp: Any, *, thresholds: Any = None, standardized: bool = False,
                        ax: Any = None) -> Any:
    """:meth:`ClassifierComparison.plot_decision_curve` of ``cmp``: every model's decision
    curve with treat-all and treat-none, and pointwise bands at the comparison's level
    from its own replicates (none when it was run with ``ci=None``).

    Examples
    --------
    With ``r`` from the module example:

    >>> ax = plot_decision_curve(r)
    >>> ax.get_legend_handles_labels()[1]
    ['a', 'b', 'treat all', 'treat none']
    """
    from measurelab._util.validation import check_flag
    from measurelab.curves.decision import plot_decision_curve as draw
    from measurelab.inference import _figures as _fig

    _check_binary_probabilities(cmp)
    standardized = check_flag(standardized, "standardized")
    g = DEFAULT_GRID.copy() if thresholds is None else check_thresholds(thresholds)
    bands = None
    if cmp.level is not None:
        bands = net_benefit_comparison(cmp, grid=g).curve_bands()
    if ax is None:
        plt = _fig.pyplot()
        _, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.set_prop_cycle(color=[_fig.colour(i) for i in range(len(cmp.names))])
    return draw(cmp._y.astype(np.int8), dict(zip(cmp.names, cmp._scores, strict=True)),
                thresholds=g, bands=bands, standardized=standardized,
                sample_weight=cmp._w, ax=ax)


def applies(cmp: Any) -> bool:
    """Whether a comparison has decision curves: two classes and probabilities.

    Examples
    --------
    With ``r`` from the module example (probabilities), and with scores that are not:

    >>> applies(r)
    True
    >>> applies(compare_classifiers([0, 1], {"m": [-2.0, 3.0]}, ci=None))
    False
    """
    if hasattr(cmp._design, "labels"):
        return False
    return all(s.size and 0.0 <= float(s.min()) and float(s.max()) <= 1.0
               for s in cmp._scores)
