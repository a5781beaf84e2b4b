"""Comparisons on test sets with structure: clustered cases (``groups=``) and subgroups
(``by=``) (issue 31).

:func:`~measurelab.compare_classifiers` hands a call with ``groups=`` or ``by=`` to
:func:`structured_comparison`, which returns a :class:`StructuredComparison` — a
:class:`~measurelab.inference.classifiers.binary.ClassifierComparison` whose every table is
cluster-aware, and which, with ``by=``, adds per-group values with intervals
(:meth:`StructuredComparison.by_group`), the differences between every pair of groups
(:meth:`StructuredComparison.group_differences`) and the largest gap per measure with the
fairness gaps (:meth:`StructuredComparison.gaps`).

* ``groups=`` (a cluster id per case): the bootstrap resamples clusters
  (:class:`~measurelab.inference.bootstrap.ClusterDesign`); AUC uses Obuchowski's clustered
  DeLong (logit scale for one model, as DeLong's; the paired difference on the same
  variance), accuracy and error rate Obuchowski's cluster-robust paired test of two
  proportions; every other measure the cluster bootstrap (``cluster-bootstrap-bca``).
* ``by=`` (a subgroup label per case): one bootstrap run resamples the whole test set (its
  clusters with ``groups=``) and evaluates every measure in every group on each replicate,
  so the per-group intervals, the pairwise differences and the largest gap (max − min over
  the groups, the maximum itself bootstrapped: the groups at the ends may change from
  replicate to replicate) come from the same replicates. The equalized-odds difference (the
  larger of the gaps in true- and false-positive rate) and the demographic-parity
  difference (the gap in selection rate) at the threshold are rows of the same gap table,
  defined as fairlearn defines them. Holm's adjustment runs over the rows of each table.

Examples
--------
A model scored on 200 cases in two subgroups; the examples of :class:`StructuredComparison`
and its methods below use this ``r`` (run this example first):

>>> import numpy as np
>>> from measurelab import compare_classifiers
>>> rng = np.random.default_rng(0)
>>> y = rng.integers(0, 2, 200)
>>> s = np.clip(0.3 * y + rng.uniform(0, 0.7, 200), 0, 1)
>>> r = compare_classifiers(y, {"a": s}, measures=["acc", "auc"],
...                         by=np.repeat(["f", "m"], 100), n_boot=200)
>>> r.gaps()["measure"].tolist()
['acc', 'auc', 'equalized_odds', 'demographic_parity']
"""

from __future__ import annotations

import math
import warnings
from itertools import combinations
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.inference import bootstrap as bt
from measurelab.inference import delong as dlm
from measurelab.inference import evidence as ev
from measurelab.inference import intervals as iv
from measurelab.inference._base import z_test
from measurelab.inference.bootstrap import CaseDesign, ClusterDesign, rng_of, run_blocks
from measurelab.inference.classifiers.binary import ClassifierComparison
from measurelab.inference.classifiers.clustered import (
    check_groups,
    clustered_delong_interval,
    clustered_delong_paired,
    clustered_paired_proportion,
    group_labels,
    obuchowski_variance,
    warn_mixed_clusters,
)
from measurelab.inference.withholding import judged, warn_withheld_by_evidence
from measurelab.measures.compute import compute_measures, prime_block
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.scoretable import ScoreTable

__all__ = ["StructuredComparison", "structured_comparison"]

#: the methods chosen by the size of the smaller class (a subgroup chooses by its own)
_BY_SIZE = ("newcombe-score", "delong-logit")
#: the fairness gaps of :meth:`StructuredComparison.gaps`
FAIRNESS = ("equalized_odds", "demographic_parity")


def structured_comparison(y: np.ndarray, names: list[str], scores: list[np.ndarray],
                          weight: np.ndarray | None, *, groups: Any, by: Any,
                          measures: Any, level: float | None, n_boot: int,
                          random_state: Any, ci_method: str | None, inclusive: bool,
                          threshold: float, progress: bool | None, n_jobs: int,
                          stratify: bool, choose: Any) -> Any:
    """The comparison of :func:`~measurelab.compare_classifiers` with ``groups`` and/or
    ``by`` (checked here: one id per case, no NaN, at least two clusters and two groups):
    a :class:`StructuredComparison`, ``choose`` picking the default measures.

    Examples
    --------
    >>> from measurelab import compare_classifiers
    >>> r = compare_classifiers([0, 1, 0, 1, 0, 1], {"m": [.1, .8, .3, .6, .7, .9]},
    ...                         groups=[0, 0, 1, 1, 2, 2], measures=["acc"], n_boot=100)
    >>> r.intervals()["method"].str.startswith("cluster-bootstrap").tolist()
    [True]
    """
    n = y.size
    gcodes = None if groups is None else check_groups(groups, n, "groups")
    bcodes = None if by is None else check_groups(by, n, "by")
    extra = [] if bcodes is None else [bcodes]
    cl = gcodes if gcodes is not None else np.arange(n)
    design = ClusterDesign.from_cases(y, scores, weight, groups=cl, stratify=stratify,
                                      extra=extra)
    if gcodes is not None:
        warn_mixed_clusters(design)
    if gcodes is None:  # the case bootstrap: singleton clusters draw exactly as it does
        design.stratify = stratify
    stats = [BinaryStats(table=t, threshold=threshold, inclusive=inclusive)
             for t in design.tables]
    probs = all(0.0 <= float(s.min()) and float(s.max()) <= 1.0 for s in scores)
    chosen = choose(measures, probs)
    first = compute_measures(stats[0], chosen, probabilities_ok=probs)
    used = [first.measure(k) for k in first]
    values = [first] + [compute_measures(st, used, probabilities_ok=probs) for st in stats[1:]]
    return StructuredComparison(
        names=names, y=y, scores=scores, weight=weight, design=design, stats=stats,
        measures=used, values=values, level=level, n_boot=n_boot, random_state=random_state,
        ci_method=ci_method, inclusive=inclusive, threshold=threshold, progress=progress,
        n_jobs=n_jobs, clustered=gcodes is not None,
        by=None if bcodes is None else (bcodes, group_labels(by)), probs=probs)


def max_t_pvalue(values: np.ndarray, reps: np.ndarray) -> float:
    """The p-value of "the groups are alike" from the bootstrap of every pairwise
    difference: the largest studentized difference |d|/se over the pairs of groups (and
    over the columns: TPR and FPR for the equalized-odds difference) against the largest
    centred one of each replicate, max |d_b − d|/se (single-step max-t; the bootstrap
    standard error of each pair). ``values``: (groups, columns); ``reps``: (B, groups,
    columns). Pairs undefined in the data are left out; none left: NaN.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> v = np.array([[0.5], [0.9]])
    >>> r = v + rng.normal(0, 0.05, (500, 2, 1))
    >>> max_t_pvalue(v, r) < 0.01
    True
    """
    ng, nc = values.shape
    d, db = [], []
    for x, y in combinations(range(ng), 2):
        for c in range(nc):
            d.append(values[x, c] - values[y, c])
            db.append(reps[:, x, c] - reps[:, y, c])
    if not d:
        return math.nan
    d_arr = np.array(d)
    db_arr = np.stack(db, axis=1)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        se = np.nanstd(db_arr, axis=0, ddof=1)
        keep = np.isfinite(d_arr) & np.isfinite(se) & (se > 0)
        if not keep.any():
            return math.nan
        t_obs = float(np.max(np.abs(d_arr[keep]) / se[keep]))
        t_b = np.nanmax(np.abs(db_arr[:, keep] - d_arr[keep]) / se[keep], axis=1)
    t_b = t_b[np.isfinite(t_b)]
    return float((1 + np.count_nonzero(t_b >= t_obs)) / (t_b.size + 1))


def clustered_unpaired(a: Any, b: Any, level: float) -> dict[str, float]:
    """AUC_a − AUC_b of two models on two clustered test sets (one model each): the z-test
    and interval on the sum of their clustered DeLong variances (the test sets are
    independent, so the variances add).

    Examples
    --------
    >>> from measurelab import compare_unpaired
    >>> y = [0, 1, 0, 1, 0, 1, 0, 1]
    >>> r = compare_unpaired(y, [.1, .9, .2, .6, .7, .8, .3, .4], y,
    ...                      [.2, .4, .5, .6, .1, .9, .3, .7], measures=["auc"],
    ...                      groups_a=[0, 0, 1, 1, 2, 2, 3, 3], groups_b=[0, 0, 1, 1, 2, 2, 3, 3])
    >>> r.tests()["method"].tolist()
    ['clustered-delong-unpaired']
    """
    out = []
    for c in (a, b):
        auc, p10, p01 = c._delong()
        c10, c01 = c._cluster_of_placements()
        out.append((float(auc[0]), obuchowski_variance(p10[0], p01[0], c10, c01,
                                                       c._design.n_clusters)))
    diff = out[0][0] - out[1][0]
    _d, lo, hi, se, z, p = z_test(diff, out[0][1] + out[1][1], level)
    return {"lo": lo, "hi": hi, "se": se, "z": z, "p": p}


class StructuredComparison(ClassifierComparison):
    """A :class:`~measurelab.inference.classifiers.binary.ClassifierComparison` of clustered
    cases (``groups=``) and/or with subgroups (``by=``): every table of the comparison is
    cluster-aware with ``groups``, and :meth:`by_group`, :meth:`group_differences`,
    :meth:`gaps` and :meth:`plot_groups` come with ``by``. A class of the module (it
    pickles, so a comparison can be cached, sent to a worker or saved with a notebook).

    Examples
    --------
    With ``r`` from the module example:

    >>> import pickle
    >>> type(pickle.loads(pickle.dumps(r))) is StructuredComparison
    True
    """

    _design: ClusterDesign  # structured_comparison builds one (singletons without groups)

    def __init__(self, *, clustered: bool, by: tuple[np.ndarray, list[Any]] | None,
                 probs: bool, **kw: Any) -> None:
        super().__init__(**kw)
        self.clustered = clustered
        self._by = by
        self._probs = probs
        #: the subgroup labels (sorted), or None without ``by``
        self.groups = None if by is None else list(by[1])

    # ------------------------------------------------------------ cluster-aware
    def _methods(self) -> dict[str, str]:
        base = super()._methods()
        if not self.clustered:
            return base
        out = {}
        for k, m in base.items():
            if m in iv.PROPORTION_METHODS or m == "dirichlet-posterior":
                m = "bootstrap-bca"
            elif m in ("delong", "delong-logit"):
                m = "clustered-" + m
            elif m == "newcombe-score":   # no clustered form: clusters keep DeLong's
                m = "clustered-delong-logit"
            elif m == "debiased-wald":
                m = "bootstrap-se"
            out[k] = m
        return out

    def _pair_method(self, k: str) -> str:
        if not self.clustered:
            return super()._pair_method(k)
        m = self._methods()[k]
        if m == "none":
            return "none"
        if m == "bootstrap-se":
            return "bootstrap-se"
        if k == "auc" and m.startswith("clustered-delong"):
            return "clustered-delong"
        if k in ("acc", "err") and self._w is None and self.ci_method not in \
                iv.BOOTSTRAP_METHODS:
            return "clustered-wald"
        return "bootstrap"

    def _cluster_of_placements(self) -> tuple[np.ndarray, np.ndarray]:
        d = self._design
        return d.cluster[d.y], d.cluster[~d.y]

    def _analytic(self, a: int, k: str, value: float, method: str, level: float
                  ) -> iv.Interval:
        if not method.startswith("clustered-delong"):
            return super()._analytic(a, k, value, method, level)
        _auc, p10, p01 = self._delong()
        c10, c01 = self._cluster_of_placements()
        var = obuchowski_variance(p10[a], p01[a], c10, c01, self._design.n_clusters)
        lo, hi, se = clustered_delong_interval(
            value, var, level, "logit" if method.endswith("logit") else "wald")
        if math.isnan(lo):
            iv.warn_undefined(f"{k} of model {self.names[a]!r}: the clustered DeLong "
                              "interval is undefined (a class is missing)")
        return iv.Interval(value, lo, hi, method, se)

    def _clustered_pair(self, a: int, b: int, k: str, level: float) -> dict[str, float]:
        """The clustered paired test of measure ``k``, model ``a`` − model ``b``."""
        if self._pair_method(k) == "clustered-delong":
            _auc, p10, p01 = self._delong()
            c10, c01 = self._cluster_of_placements()
            _d, lo, hi, se, z, p = clustered_delong_paired(
                p10, p01, c10, c01, self._design.n_clusters, a, b, level)
            return {"lo": lo, "hi": hi, "se": se, "z": z, "p": p}
        d = self._design
        ca, cb = self._correct(a), self._correct(b)
        order = d.order
        _d, lo, hi, se, z, p = clustered_paired_proportion(ca[order], cb[order], d.cluster,
                                                           level)
        if k == "err":
            lo, hi, z = -hi, -lo, -z
        return {"lo": lo, "hi": hi, "se": se, "z": z, "p": p}

    def _with_evidence(self, method: str, j: int, lo: float, hi: float,
                       **kind: bool) -> tuple[str, bool]:
        if not self.clustered:
            return super()._with_evidence(method, j, lo, hi, **kind)
        if method.startswith("bootstrap"):
            method = "cluster-" + method
            note = self._design.method_note
            if note:
                method = f"{method} ({note})"
        return judged(method, self._measures[j], bounds=(lo, hi), level=self._need_level(),
                      design="cluster", smaller=self._smaller(), **kind)

    # ----------------------------------------------------------------- subgroups
    def _need_by(self) -> tuple[np.ndarray, list[Any]]:
        if self._by is None:
            raise MeasurelabError("this comparison has no subgroups: call it with by=")
        return self._by

    def _group_run(self) -> dict[str, Any]:
        """One bootstrap of every measure (and TPR, FPR, selection rate) in every group."""
        if "groups" in self._cache:
            return self._cache["groups"]
        codes, labels = self._need_by()
        level = self._need_level()
        d = self._design
        canon = codes[d.order]
        k, nm, ng = len(self.names), len(self._measures), len(labels)
        thr = [(self.threshold, self._inclusive)] * k
        parts = []
        for g in range(ng):
            idx = np.flatnonzero(canon == g)
            yg = d.y[idx]
            wg = None if d.weight is None else d.weight[idx]
            tabs, rows = [], []
            for s in self._scores:
                sg = np.asarray(s, dtype=np.float64)[d.order][idx]
                t = ScoreTable.from_arrays(yg, sg, wg)
                tabs.append(t)
                rows.append(np.searchsorted(t.scores, sg))
            gd = CaseDesign(tabs, rows, yg, wg)
            parts.append((np.concatenate([idx, [d.n]]), gd))
        nf = nm + 3

        def evaluate(ext: np.ndarray) -> np.ndarray:
            res = np.full((ext.shape[0], k, ng, nf), np.nan)
            with np.errstate(all="ignore"):
                for g, (take, gd) in enumerate(parts):
                    blocks = gd._blocks(np.take(ext, take, axis=1), thr)
                    for a, bs in enumerate(blocks):
                        prime_block(bs, self._measures)
                        for j, m in enumerate(self._measures):
                            res[:, a, g, j] = m.compute_block(bs)
                        c = bs.counts
                        c = c() if callable(c) else c
                        tp, fp = np.asarray(c.tp, float), np.asarray(c.fp, float)
                        fn, tn = np.asarray(c.fn, float), np.asarray(c.tn, float)
                        res[:, a, g, nm] = tp / (tp + fn)
                        res[:, a, g, nm + 1] = fp / (fp + tn)
                        res[:, a, g, nm + 2] = (tp + fp) / (tp + fp + fn + tn)
            return res.reshape(ext.shape[0], k, ng * nf)

        bca = self.ci_method != "bootstrap-percentile"
        run = run_blocks(d, evaluate, (k, ng * nf), self.n_boot, rng_of(self.random_state),
                         jackknife=bca, progress=self._progress, desc="bootstrap by group")
        shape = (k, ng, nf)
        vals = np.full(shape, np.nan)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for g, (_take, gd) in enumerate(parts):
                for a, t in enumerate(gd.tables):
                    st = BinaryStats(table=t, threshold=self.threshold,
                                     inclusive=self._inclusive)
                    r = compute_measures(st, self._measures, probabilities_ok=self._probs)
                    vals[a, g, :nm] = [float(r[m.name]) for m in self._measures]
                    c = st.counts
                    tp, fp, fn, tn = (float(x) for x in (c.tp, c.fp, c.fn, c.tn))
                    vals[a, g, nm] = tp / (tp + fn) if tp + fn else math.nan
                    vals[a, g, nm + 1] = fp / (fp + tn) if fp + tn else math.nan
                    vals[a, g, nm + 2] = (tp + fp) / (tp + fp + fn + tn)
        for w in caught:
            if issubclass(w.category, UserWarning):
                warnings.warn(f"by=: {w.message}", w.category, stacklevel=4)
        out = {"parts": parts, "vals": vals, "labels": labels, "level": level,
               "reps": run.reps.reshape(-1, *shape), "theta": run.theta.reshape(shape),
               "jack": run.jack.reshape(-1, *shape), "bca": bca}
        self._cache["groups"] = out
        return out

    def _boot_rows(self, reps: np.ndarray, theta: np.ndarray, value: np.ndarray,
                   jack: np.ndarray, bounds: np.ndarray, bca: bool
                   ) -> bt.BootstrapIntervals:
        return bt.BootstrapIntervals(reps.T, theta, value, jack.T,
                                     np.full(value.size, bca), self._need_level(), bounds)

    def by_group(self) -> Any:
        """Every measure of every model in every subgroup, with its interval.

        Returns
        -------
        DataFrame with columns ``model, group, measure, value, lo, hi, method``. The
        method is as for the whole test set (Wilson, the posterior of the confusion cells,
        DeLong — Newcombe's when the group has fewer than 30 cases in a class —, the
        bootstrap; cluster-aware with ``groups=``), and its text says what the coverage
        studies found in the group's own regime (an interval below the bar there is
        withheld, as for the whole set); an undefined value (e.g. AUC in a group with one
        class) is NaN with a warning, and so is a degenerate interval (a warning naming the
        model and the group).

        Examples
        --------
        With ``r`` from the module example:

        >>> t = r.by_group().round(3)
        >>> t[t["measure"] == "auc"][["group", "value", "lo", "hi", "method"]].values.tolist()
        [['f', 0.849, 0.762, 0.908, 'delong-logit'], ['m', 0.862, 0.777, 0.918, 'delong-logit']]
        """
        import pandas as pd

        if "by_group" in self._cache:
            return pd.DataFrame(self._cache["by_group"])
        g = self._group_run()
        level = g["level"]
        methods = self._methods()
        cells = [(a, gi, j) for a in range(len(self.names)) for gi in range(len(g["labels"]))
                 for j, m in enumerate(self._measures)
                 if methods[m.name] in iv.REPLICATE_METHODS]
        boot = {}
        if cells:  # every bootstrap cell in one call (one inversion for all)
            ia, ig, ij = (np.array(x) for x in zip(*cells, strict=True))
            bi = bt.BootstrapIntervals(
                g["reps"][:, ia, ig, ij].T, g["theta"][ia, ig, ij], g["vals"][ia, ig, ij],
                g["jack"][:, ia, ig, ij].T,
                np.array([methods[self._measures[j].name] != "bootstrap-percentile"
                          for j in ij]),
                level, bt.range_bounds([self._measures[j] for j in ij]))
            for i, c in enumerate(cells):
                boot[c] = (float(bi.lo[i]), float(bi.hi[i]), str(bi.method[i]),
                           (float(bi.infinite[i]), float(bi.undefined[i]), bi.notes(i)))
        rows = []
        withheld: list[str] = []
        design = "cluster" if self.clustered else ev.design_name(
            self._design.stratify, weighted=self._w is not None)
        for a, name in enumerate(self.names):
            for gi, lab in enumerate(g["labels"]):
                take, gd = g["parts"][gi]
                small = min(int(np.count_nonzero(gd.y)), int(np.count_nonzero(~gd.y)))
                for j, m in enumerate(self._measures):
                    v = float(g["vals"][a, gi, j])
                    meth = methods[m.name]
                    if meth in _BY_SIZE and self._w is None:   # the group's own size
                        meth = iv.default_method(m.name, self.ci_method, smaller=small)
                    what = f"{m.name} of model {name!r} in group {lab!r}"
                    if (a, gi, j) in boot:
                        lo, hi, text, (inf_share, nan_share, notes) = boot[(a, gi, j)]
                        if not math.isnan(v):   # an undefined value warns below
                            iv.warn_nonfinite(what, iv.Interval(v, lo, hi, text), inf_share,
                                              nan_share, **notes)
                    elif meth == "none":
                        from measurelab.inference.calibration import withheld_reason

                        lo = hi = math.nan
                        text = withheld_reason(m.name)
                    elif meth.startswith("clustered-delong"):
                        cl = self._design.cluster[take[:-1]]
                        _u, cl = np.unique(cl, return_inverse=True)
                        _auc, p10, p01 = dlm.delong_components(gd.tables, gd.rows, gd.y)
                        var = obuchowski_variance(p10[a], p01[a], cl[gd.y], cl[~gd.y],
                                                  int(cl.max(initial=-1)) + 1)
                        lo, hi, _se = clustered_delong_interval(
                            v, var, level, "logit" if meth.endswith("logit") else "wald")
                        text = meth
                    else:
                        st = BinaryStats(table=gd.tables[a], threshold=self.threshold,
                                         inclusive=self._inclusive)
                        with warnings.catch_warnings():
                            if math.isnan(v):   # the undefined value warns below
                                warnings.simplefilter("ignore")
                            r = iv.measure_interval(
                                m.name, v, meth, level, table=gd.tables[a],
                                counts=st.counts, what=what, design=self._case_design(),
                                random_state=self.random_state, key=(2, a, gi))
                        lo, hi, text = r.lo, r.hi, r.method
                    if math.isnan(v):
                        iv.warn_undefined(f"{m.name} of model {name!r} is undefined in group "
                                          f"{lab!r}")
                    if self.clustered and text.startswith("bootstrap"):
                        text = "cluster-" + text
                    # the evidence of the group's own regime (its smaller class)
                    text, out = judged(text, m, bounds=(lo, hi), level=level, smaller=small,
                                       design=design, multiclass=self._multiclass,
                                       average=getattr(self, "average", "macro"))
                    if out:
                        lo = hi = math.nan
                        withheld.append(what)
                    rows.append({"model": name, "group": lab, "measure": m.name, "value": v,
                                 "lo": float(lo), "hi": float(hi), "method": text})
        warn_withheld_by_evidence(withheld)
        self._cache["by_group"] = rows
        return pd.DataFrame(rows, columns=["model", "group", "measure", "value", "lo", "hi",
                                           "method"])

    def _gap_of(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """max − min over the last axis ignoring NaN (NaN with fewer than 2 defined
        groups), and the groups at the ends."""
        ok = ~np.isnan(x)
        cnt = ok.sum(axis=-1)
        hi = np.where(ok, x, -np.inf).max(axis=-1)
        lo = np.where(ok, x, np.inf).min(axis=-1)
        gap = np.where(cnt >= 2, hi - lo, np.nan)
        return gap, np.where(ok, x, -np.inf).argmax(axis=-1), \
            np.where(ok, x, np.inf).argmin(axis=-1)

    def gaps(self) -> Any:
        """The largest gap per measure and model: max − min of the measure over the
        subgroups, its interval from the bootstrap of the gap itself, and the fairness gaps.

        Returns
        -------
        DataFrame with columns ``model, measure, gap, lo, hi, p, p_holm, high_group,
        low_group``: a row per measure, then ``equalized_odds`` (the larger of the gaps in
        true- and false-positive rate at the threshold) and ``demographic_parity`` (the gap
        in selection rate), as fairlearn defines them. ``p`` tests "every group alike" (gap
        = 0) by the bootstrap max-t test over the pairs of groups (:func:`max_t_pvalue`; a
        gap is never below 0, so its own interval cannot be inverted into a test);
        ``p_holm`` is Holm's adjustment over the rows.

        Examples
        --------
        With ``r`` from the module example:

        >>> r.gaps()[["measure", "gap", "high_group", "low_group"]].round(3).values[1].tolist()
        ['auc', 0.014, 'm', 'f']
        """
        import pandas as pd

        cols = ["model", "measure", "gap", "lo", "hi", "p", "p_holm", "high_group",
                "low_group"]
        if "gaps" in self._cache:
            return pd.DataFrame(self._cache["gaps"], columns=cols)
        g = self._group_run()
        nm = len(self._measures)
        labels = g["labels"]

        def stat(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            # x: (..., groups, nf) → gaps (..., nm + 2) and the groups at their ends
            gp, hi_g, lo_g = self._gap_of(np.moveaxis(x, -1, -2))
            eo_pick = np.where(np.nan_to_num(gp[..., nm + 1], nan=-1.0)
                               > np.nan_to_num(gp[..., nm], nan=-1.0), nm + 1, nm)
            eo = np.take_along_axis(gp, eo_pick[..., None], axis=-1)[..., 0]
            out = np.concatenate([gp[..., :nm], eo[..., None], gp[..., nm + 2:nm + 3]],
                                 axis=-1)
            hi2 = np.concatenate([hi_g[..., :nm],
                                  np.take_along_axis(hi_g, eo_pick[..., None], -1),
                                  hi_g[..., nm + 2:]], axis=-1)
            lo2 = np.concatenate([lo_g[..., :nm],
                                  np.take_along_axis(lo_g, eo_pick[..., None], -1),
                                  lo_g[..., nm + 2:]], axis=-1)
            return out, hi2, lo2

        val, hi_g, lo_g = stat(g["vals"])          # (k, nm + 2)
        reps, _, _ = stat(g["reps"])                # (B, k, nm + 2)
        theta, _, _ = stat(g["theta"])
        jack, _, _ = stat(g["jack"]) if g["jack"].size else (np.empty((0, *val.shape)),) * 3
        k = len(self.names)
        names = [m.name for m in self._measures] + list(FAIRNESS)
        bounds = []
        for m in self._measures:
            lo_r, hi_r = (float(x) for x in m.range)
            bounds.append((0.0, hi_r - lo_r) if math.isfinite(lo_r) and math.isfinite(hi_r)
                          else (-math.inf, math.inf))
        bounds += [(0.0, 1.0), (0.0, 1.0)]
        bnd = np.array(bounds * k)
        bi = self._boot_rows(reps.reshape(reps.shape[0], -1), theta.reshape(-1),
                             val.reshape(-1), jack.reshape(jack.shape[0], -1), bnd, g["bca"])
        rows = []
        i = 0
        cols_of = [[j] for j in range(nm)] + [[nm, nm + 1], [nm + 2]]
        for a, name in enumerate(self.names):
            for j, mname in enumerate(names):
                v = float(val[a, j])
                ok = not math.isnan(v)
                p = max_t_pvalue(g["vals"][a][:, cols_of[j]], g["reps"][:, a][:, :, cols_of[j]])
                rows.append({"model": name, "measure": mname, "gap": v,
                             "lo": float(bi.lo[i]), "hi": float(bi.hi[i]),
                             "p": p if ok else math.nan, "p_holm": math.nan,
                             "high_group": labels[int(hi_g[a, j])] if ok else None,
                             "low_group": labels[int(lo_g[a, j])] if ok else None})
                i += 1
        for r, q in zip(rows, iv.holm([r["p"] for r in rows]), strict=True):
            r["p_holm"] = float(q)
        self._cache["gaps"] = rows
        return pd.DataFrame(rows, columns=cols)

    def group_differences(self) -> Any:
        """The difference of every measure between every pair of subgroups, per model.

        Returns
        -------
        DataFrame with columns ``model, measure, group_a, group_b, diff, lo, hi, p,
        p_holm`` (diff = value in group_a − value in group_b; bootstrap intervals from the
        replicates of :meth:`gaps`; Holm over the rows).

        Examples
        --------
        With ``r`` from the module example:

        >>> d = r.group_differences()
        >>> d[["measure", "group_a", "group_b", "diff"]].round(3).values.tolist()
        [['acc', 'f', 'm', -0.01], ['auc', 'f', 'm', -0.014]]
        """
        import pandas as pd

        g = self._group_run()
        labels = g["labels"]
        ng = len(labels)
        cells = [(a, x, y, j) for a in range(len(self.names)) for j in
                 range(len(self._measures)) for x, y in combinations(range(ng), 2)]
        reps = np.stack([g["reps"][:, a, x, j] - g["reps"][:, a, y, j]
                         for a, x, y, j in cells], axis=1)
        theta = np.array([g["theta"][a, x, j] - g["theta"][a, y, j] for a, x, y, j in cells])
        val = np.array([g["vals"][a, x, j] - g["vals"][a, y, j] for a, x, y, j in cells])
        jack = (np.stack([g["jack"][:, a, x, j] - g["jack"][:, a, y, j]
                          for a, x, y, j in cells], axis=1)
                if g["jack"].size else np.empty((0, len(cells))))
        bnd = bt.range_bounds([self._measures[j] for *_r, j in cells], difference=True)
        for i, (*_r, j) in enumerate(cells):
            lo_r, hi_r = (float(x) for x in self._measures[j].range)
            if math.isfinite(lo_r) and math.isfinite(hi_r):
                bnd[i] = (lo_r - hi_r, hi_r - lo_r)
        bi = self._boot_rows(reps, theta, val, jack, bnd, g["bca"])
        rows = [{"model": self.names[a], "measure": self._measures[j].name,
                 "group_a": labels[x], "group_b": labels[y], "diff": float(val[i]),
                 "lo": float(bi.lo[i]), "hi": float(bi.hi[i]), "p": float(bi.p[i]),
                 "p_holm": math.nan} for i, (a, x, y, j) in enumerate(cells)]
        for r, q in zip(rows, iv.holm([r["p"] for r in rows]), strict=True):
            r["p_holm"] = float(q)
        return pd.DataFrame(rows, columns=["model", "measure", "group_a", "group_b", "diff",
                                           "lo", "hi", "p", "p_holm"])

    def to_dict(self) -> dict[str, Any]:
        """The comparison's JSON-ready dict and, with ``by`` and intervals, the records of
        :meth:`by_group`, :meth:`gaps` and :meth:`group_differences` (NaN → null).

        Examples
        --------
        With ``r`` from the module example:

        >>> sorted(r.to_dict())
        ['by_group', 'gaps', 'group_differences', 'models', 'pairs', 'verdicts']
        """
        from measurelab.jsonable import to_jsonable

        out = super().to_dict()  # type: ignore[misc]
        if self._by is not None and self.level is not None:
            for key, frame in (("by_group", self.by_group()), ("gaps", self.gaps()),
                               ("group_differences", self.group_differences())):
                out[key] = to_jsonable(frame.to_dict("records"))
        return out

    def _page_figures(self) -> list[tuple[str, str, str, Any]]:
        """The page's per-group forest plot (with ``by`` and intervals)."""
        if self._by is None or self.level is None:
            return []
        return [("groups", "Values per group with their intervals",
                 "forest plot: each measure's value and interval per model and per group",
                 self.plot_groups())]

    def _page_tables(self) -> list[str]:
        """The page's tables of the subgroups: per group, the largest gaps, the pairs."""
        if self._by is None or self.level is None:
            return []
        from measurelab import pages

        bg, gp, gd = self.by_group(), self.gaps(), self.group_differences()
        return [pages.details(f"Values per group ({len(bg)} rows)",
                              pages.table(bg, index=False, sortable=True)),
                pages.details(f"Largest gap between groups per measure, fairness gaps "
                              f"({len(gp)} rows; Holm over the rows)",
                              pages.table(gp, index=False, sortable=True)),
                pages.details(f"Differences between every pair of groups ({len(gd)} rows)",
                              pages.table(gd, index=False, sortable=True))]

    def plot_groups(self, measures: list[str] | None = None) -> Any:
        """A per-group forest plot: a panel per measure, a row per (model, group) with its
        value and interval.

        Examples
        --------
        With ``r`` from the module example:

        >>> len(r.plot_groups().axes)   # a panel per measure
        2
        """
        from measurelab._util.figures import pyplot

        plt = pyplot()
        t = self.by_group()
        ms = measures or list(dict.fromkeys(t["measure"]))[:6]
        fig, axes = plt.subplots(1, len(ms), figsize=(3.2 * len(ms) + 1.5,
                                                      0.35 * len(t) / max(len(ms), 1) + 1.2),
                                 squeeze=False)
        for ax, m in zip(axes[0], ms, strict=True):
            sub = t[t["measure"] == m].reset_index(drop=True)
            ypos = np.arange(len(sub))[::-1]
            err = np.vstack([sub["value"] - sub["lo"], sub["hi"] - sub["value"]])
            ax.errorbar(sub["value"], ypos, xerr=np.nan_to_num(np.abs(err)), fmt="o",
                        capsize=3)
            ax.set_yticks(ypos, [f"{r.model} · {r.group}" for r in sub.itertuples()])
            ax.set_title(m)
            ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        return fig

