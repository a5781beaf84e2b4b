"""Comparing k-class classifiers whose cases are spread over parts (the partitions of Dask
collections, the row groups of a Parquet data set on a Dask cluster), in two passes — the
k-class form of :mod:`.distributed`, on its machinery (the map-reduce over the parts, the
balanced merge tree, pass two's sums around known centres: :mod:`.partitioned`).

* **Pass one** (:func:`pass_one_k`): every model's exact k-class statistics
  (:class:`~measurelab.stats.bundle.MultiStats`: the k × k confusion cells, each class
  column's score table, the probability rows' summary) and, for every pair of models, the
  cases of each class that each model gets right (k × 2 × 2 whole counts, McNemar's test
  of accuracy). The statistics merge into those of all the cases, so every value equals
  the one-machine comparison's, and so do Wilson's interval and McNemar's test.
* **Pass two** (:func:`pass_two_k`): each case's influence
  (:class:`.multi_influence.KInfluence`, built from the merged statistics and sent once to
  every worker) summed around each class's mean: one model's (weighted cases) and each
  pair's difference — the influence intervals and tests to rounding.

Where a method resamples (the bootstrap below 10,000 cases, or forced), pass two also
draws the **Poisson bootstrap**, seeded as the binary comparison's (each case weighs a
Poisson(1) count from the stream of its part and the replicate; BCa's acceleration from a
grouped jackknife): every replicate's k × k cells and class tables, so the replicates
depend on the parts, not on the workers.

Examples
--------
Three parts of one test set give the one-machine comparison's values and intervals:

>>> import numpy as np
>>> from measurelab.inference import compare_classifiers
>>> rng = np.random.default_rng(0)
>>> y = rng.integers(0, 3, 600)
>>> A, B = (np.round(rng.dirichlet(np.ones(3), 600) * 0.5 + 0.5 * np.eye(3)[y] * s, 3)
...         for s in (1.0, 0.8))
>>> A, B = A / A.sum(1, keepdims=True), B / B.sum(1, keepdims=True)
>>> parts = [(y[i:i + 200], [A[i:i + 200], B[i:i + 200]], None) for i in (0, 200, 400)]
>>> kw = dict(measures=["acc", "f1", "auc"], ci_method="influence")
>>> r = compare_multi_parts(parts, ["a", "b"], labels=[0, 1, 2], **kw)
>>> whole = compare_classifiers(y, {"a": A, "b": B}, **kw)
>>> r.values().equals(whole.values())
True
>>> np.allclose(r.tests()[["lo", "hi"]], whole.tests()[["lo", "hi"]], rtol=0, atol=1e-12)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.inference import bootstrap as bt
from measurelab.inference import intervals as iv
from measurelab.inference.classifiers.multi_influence import KInfluence, moments
from measurelab.inference.classifiers.multiclass import MultiClassComparison
from measurelab.inference.classifiers.partitioned import (
    JACK_GROUPS,
    CaseSums,
    MapReduce,
    OnParts,
    in_process,
    merge_sums,
)
from measurelab.measures.base import Measure

__all__ = ["DistributedMultiComparison", "compare_multi_parts", "find_labels"]


def _arrays(part: Any, n_models: int, index: int, labels: tuple[Any, ...] | None
            ) -> tuple[np.ndarray, list[np.ndarray], np.ndarray | None]:
    """True classes (indices), the models' checked probability rows and the weights of
    one part (``labels`` None: the part's labels are class indices already)."""
    from measurelab._util.validation import as_1d, check_weights
    from measurelab.inference.classifiers.inputs import proba_rows
    from measurelab.stats.confusion import class_indices

    y, Ps, w = part() if callable(part) else part
    where = f"part {index}"
    y = as_1d(y.to_numpy() if hasattr(y, "to_numpy") else y, f"y_true ({where})")
    yi = (np.asarray(y, dtype=np.int64) if labels is None else
          class_indices(y, np.array(labels, dtype=object if y.dtype == object else None),
                        f"y_true ({where})"))
    if len(Ps) != n_models:
        raise MeasurelabError(f"{where} holds {len(Ps)} models' probabilities, expected "
                              f"{n_models}")
    out = []
    for j, P in enumerate(Ps):
        P = np.asarray(P.to_numpy() if hasattr(P, "to_numpy") else P)
        if P.ndim != 2 or P.shape[0] != yi.size:
            raise MeasurelabError(f"{where}: model {j + 1}'s probabilities have shape "
                                  f"{P.shape}, expected ({yi.size}, k): the parts must line up")
        out.append(proba_rows(P, f"{j + 1} ({where})"))
    if w is not None:
        w = check_weights(w.to_numpy() if hasattr(w, "to_numpy") else w, yi.size)
    return yi, out, w


# ---------------------------------------------------------------------------- pass one
@dataclass
class PassOneK:
    """Pass one of a part, or of a union of parts (:meth:`merge`): ``stats`` per model,
    ``joint`` (pairs, k, 2, 2) — cases of class c that model A gets right (or not) and B
    right (or not) —, ``class_n`` the cases of each class, ``weighted``."""

    stats: list[Any]
    joint: np.ndarray
    class_n: np.ndarray
    weighted: bool = False

    def merge(self, other: PassOneK) -> PassOneK:
        """The statistics of the union of two disjoint parts (exact)."""
        if not self.class_n.sum():
            return other
        if not other.class_n.sum():
            return self
        return PassOneK([a.merge(b) for a, b in zip(self.stats, other.stats, strict=True)],
                        self.joint + other.joint, self.class_n + other.class_n,
                        self.weighted or other.weighted)


def merge_one_k(*parts: PassOneK) -> PassOneK:
    """Pass one's statistics of several parts merged in order."""
    out = parts[0]
    for p in parts[1:]:
        out = out.merge(p)
    return out


def pass_one_k(index: int, part: Any, n_models: int, labels: tuple[Any, ...],
               indexed: bool) -> PassOneK:
    """Pass one over part ``index``: ``part`` is ``(y, [probabilities of each model],
    weights)`` or a callable returning it (``indexed``: y holds class indices)."""
    from measurelab.stats.bundle import multi_stats_from_indices

    k = len(labels)
    yi, Ps, w = _arrays(part, n_models, index, None if indexed else labels)
    pairs = n_models * (n_models - 1) // 2
    joint = np.zeros((pairs, k, 2, 2), dtype=np.int64)
    if yi.size == 0:
        return PassOneK([], joint, np.zeros(k, dtype=np.int64))
    stats = [multi_stats_from_indices(yi, P, labels, w) for P in Ps]
    right = [np.argmax(P, axis=1) == yi for P in Ps]
    for p, (a, b) in enumerate(combinations(range(n_models), 2)):
        idx = yi * 4 + right[a].astype(np.int64) * 2 + right[b].astype(np.int64)
        joint[p] = np.bincount(idx, minlength=4 * k).reshape(k, 2, 2)
    return PassOneK(stats, joint, np.bincount(yi, minlength=k), w is not None)


def _labels_task(index: int, part: Any) -> np.ndarray:
    from measurelab._util.validation import as_1d, unique_labels

    y = (part() if callable(part) else part)[0]
    return unique_labels(as_1d(y.to_numpy() if hasattr(y, "to_numpy") else y,
                               f"y_true (part {index})"))


def _merge_labels(*parts: np.ndarray) -> np.ndarray:
    from measurelab._util.validation import unique_labels

    return unique_labels(np.concatenate(parts))


def find_labels(parts: Sequence[Any], map_reduce: MapReduce | None = None) -> list[Any]:
    """The sorted labels of every part (a pass over the labels alone), as the
    one-machine comparison finds them.

    Examples
    --------
    >>> find_labels([(["b", "a"], [], None), (["c"], [], None)])
    ['a', 'b', 'c']
    """
    return list((map_reduce or in_process)(_labels_task, parts, _merge_labels, ()).tolist())


# ---------------------------------------------------------------------------- pass two
@dataclass
class KPlan:
    """What pass two sums, sent once to every worker: the influence of each (model, row)
    and the single and paired sums with their centres (one per class when ``fixed``)."""

    n_models: int
    labels: tuple[Any, ...] | None
    fixed: bool
    influence: dict[tuple[int, str], KInfluence] = field(default_factory=dict)
    single: list[tuple[int, str, np.ndarray]] = field(default_factory=list)
    pairs: list[tuple[int, int, str, np.ndarray]] = field(default_factory=list)
    #: the Poisson bootstrap: (replicates, jackknife groups, entropy) and every model's
    #: class columns' table scores, or None
    boot: tuple[int, int, int] | None = None
    scores: list[tuple[np.ndarray, ...]] = field(default_factory=list)


def pass_two_k(index: int, part: Any, plan: KPlan) -> dict[tuple[Any, ...], np.ndarray]:
    """Pass two over part ``index``: the moments of each planned influence, keyed
    ``("single", a, row)`` and ``("pair", a, b, row)``."""
    yi, Ps, w = _arrays(part, plan.n_models, index, plan.labels)
    out: dict[tuple[Any, ...], np.ndarray] = {}
    if yi.size == 0:
        return out
    pred = [np.argmax(P, axis=1) for P in Ps]
    rows: list[dict[int, np.ndarray]] = [{} for _P in Ps]   # each model's table rows
    got: dict[tuple[int, str], np.ndarray] = {}

    def case(a: int, name: str) -> np.ndarray:
        if (a, name) not in got:
            got[(a, name)] = plan.influence[(a, name)].cases(yi, Ps[a], pred[a], rows[a])
        return got[(a, name)]

    for a, name, centres in plan.single:
        out[("single", a, name)] = moments(case(a, name), yi, w, centres, plan.fixed)
    for a, b, name, centres in plan.pairs:
        out[("pair", a, b, name)] = moments(case(a, name) - case(b, name), yi, w, centres,
                                            plan.fixed)
    if plan.boot is not None:
        out.update(_poisson_k(index, yi, Ps, pred, w, plan, rows))
    return out


def _poisson_k(index: int, yi: np.ndarray, Ps: list[np.ndarray], pred: list[np.ndarray],
               w: np.ndarray | None, plan: KPlan, rows: list[dict[int, np.ndarray]]
               ) -> dict[tuple[Any, ...], np.ndarray]:
    """The Poisson bootstrap's replicate statistics of this part — every model's k × k
    cells and class columns' tables under each replicate's Poisson(1) counts, drawn from
    the stream (part, replicate) as the binary comparison draws them — and the
    jackknife's groups' statistics (each case's group from the stream of the part)."""
    from measurelab.inference.classifiers.partitioned import _rng, _rows

    n_boot, n_groups, entropy = plan.boot  # type: ignore[misc]
    base = np.ones(yi.size) if w is None else w
    k = Ps[0].shape[1]
    index_of: dict[tuple[int, Any], tuple[np.ndarray, int]] = {}   # (a, part): bins
    for a, (P, scores) in enumerate(zip(Ps, plan.scores, strict=True)):
        index_of[(a, "cells")] = (yi * k + pred[a], k * k)
        for c, sc in enumerate(scores):
            if c not in rows[a]:
                rows[a][c] = _rows(sc, P[:, c])
            index_of[(a, c)] = (rows[a][c] * k + yi, sc.size * k)
    out: dict[tuple[Any, ...], np.ndarray] = {
        ("boot", *key): np.zeros((n_boot, size)) for key, (_i, size) in index_of.items()}
    for b in range(n_boot):
        mult = _rng(entropy, 0, index, b).poisson(1.0, yi.size) * base
        for key, (idx, size) in index_of.items():
            out[("boot", *key)][b] = np.bincount(idx, mult, minlength=size)
    if n_groups:
        g = _rng(entropy, 1, index).integers(0, n_groups, yi.size)
        for key, (idx, size) in index_of.items():
            out[("jack", *key)] = np.bincount(g * size + idx, base,
                                              minlength=n_groups * size
                                              ).reshape(n_groups, size)
    return out


# ---------------------------------------------------------------------------- the answer
class PartsDesign:
    """The cases of a k-class comparison over parts as pass one knows them: the classes,
    the cases of each, whether the class counts are fixed (no per-case arrays).

    Examples
    --------
    >>> d = PartsDesign(("a", "b", "c"), np.array([3, 1, 2]), stratify=False)
    >>> d.n, d.k
    (6, 3)
    """

    def __init__(self, labels: tuple[Any, ...], class_n: np.ndarray, *,
                 stratify: bool) -> None:
        self.labels, self.class_n, self.stratify = labels, class_n, bool(stratify)
        self.k, self.n = len(labels), int(class_n.sum())
        self.yi = None   # the cases stay on the workers


class DistributedMultiComparison(OnParts, MultiClassComparison):
    """A :class:`MultiClassComparison` computed over parts of the cases
    (:func:`compare_multi_parts`): the same values, intervals, tests, preferences and
    JSON. What needs every case (curves, page, figures) is refused in one line.

    Examples
    --------
    >>> parts = [([0, 1, 2, 0], [np.eye(3)[[0, 1, 2, 1]]], None),
    ...          ([1, 2, 0, 2], [np.eye(3)[[1, 2, 0, 0]]], None)]
    >>> r = compare_multi_parts(parts, ["m"], labels=[0, 1, 2], measures=["acc"], ci=None)
    >>> type(r).__name__, float(r.values().loc["acc", "m"])
    ('DistributedMultiComparison', 0.75)
    """

    def __init__(self, *, one: PassOneK, labels: tuple[Any, ...], stratify: bool,
                 notes: list[str], **kw: Any) -> None:
        super().__init__(design=PartsDesign(labels, one.class_n, stratify=stratify),
                         progress=False, n_jobs=1, weight=None, **kw)
        self.notes = notes
        self._is_weighted = one.weighted
        self._all = one.stats
        self._sums = CaseSums(len(self.names), one.joint)
        self._map: Any = None   # the parts and how to run them, while it is built

    @property
    def _weighted(self) -> bool:
        return self._is_weighted

    def _smaller(self) -> int:
        n = self._design.class_n   # the classes with cases, as the one-machine run's
        return int(n[n > 0].min())

    def _model_stats(self, a: int) -> Any:
        return self._all[a]

    def _analytic(self, a: int, k: str, value: float, method: str, level: float
                  ) -> iv.Interval:
        from measurelab.inference.classifiers.multiclass import proportion_counts

        if method == "influence":
            return super()._analytic(a, k, value, method, level)
        correct = int(np.trace(self._all[a].counts.matrix))   # whole counts: Wilson's
        return iv.measure_interval(k, value, method, level,
                                   counts=proportion_counts(correct, self._design.n),
                                   what=f"{k} of model {self.names[a]!r}")

    def _mcnemar(self, a: int, b: int, level: float) -> tuple[float, float, float]:
        j = self._sums.joint(a, b)
        nb, nc = int(j[:, 1, 0].sum()), int(j[:, 0, 1].sum())
        lo, hi = iv.tango_interval(nb, nc, self._design.n, level)
        return iv.mcnemar_score(nb, nc), lo, hi

    def _influence_variance(self, j: int, a: int, b: int | None = None) -> float:
        name = self._names_m[j]
        if b is None:
            return self._sums.single_variance(a, name)
        return self._sums.pair_variance(a, b, name)

    def _run_boot(self, need: list[str], ms: list[Measure], bca: bool) -> bt.BootstrapRun:
        """The Poisson bootstrap of the rows ``need``, in the same pass two as the other
        sums (refused where its replicate tables pass :data:`~.partitioned.BOOT_BYTES`
        or a measure reads the probability rows, which the tables do not keep)."""
        from measurelab.inference.classifiers.partitioned import BOOT_BYTES
        from measurelab.inference.influence import READS_ROWS

        rows = [x for x, m in zip(need, ms, strict=True)
                if m.statistic not in ("counts", "scores") or m.name in READS_ROWS]
        if rows or self._map is None:
            raise MeasurelabError(
                f"the bootstrap of {', '.join(rows or need)} on parts "
                + ("reads every case's probability row" if rows else "runs while the "
                   "comparison is built") + "; force ci_method='influence' where it applies "
                "or compare on one machine")
        groups = JACK_GROUPS if bca else 0
        k = self._design.k
        size = sum((self.n_boot + groups) * (k * k + sum(s.size for s in st.table.scores) * k)
                   * 8 for st in self._all)
        if size > BOOT_BYTES:
            raise MeasurelabError(
                f"the Poisson bootstrap of {', '.join(need)} on a cluster keeps "
                f"{self.n_boot + groups:,} copies of every model's k-class tables: "
                f"{size / 2**30:.1f} GB, above {BOOT_BYTES / 2**30:g} GB; lower n_boot, round "
                "the probabilities, or force ci_method='influence'")
        plan = self._plan()
        plan.labels = self._map[2]
        plan.scores = [st.table.scores for st in self._all]
        sums = self._poisson_pass(pass_two_k, plan, groups, need)
        cols = [self._columns[self._names_m.index(x)] for x in need]
        return _poisson_run(self, sums, cols, groups)

    def _plan(self) -> KPlan:
        """What pass two sums for the influence intervals and tests reported."""
        d = self._design
        plan = KPlan(len(self.names), None, d.stratify)
        methods = self._methods()
        w = np.array([s.counts.matrix.sum(axis=1) for s in self._all])

        def centres(a: int, j: int) -> np.ndarray:
            name = self._names_m[j]
            if (a, name) not in plan.influence:
                plan.influence[(a, name)] = self._influence(a, j)
            m = plan.influence[(a, name)].class_means(self._all[a])
            return m if d.stratify else np.array([np.dot(w[a], m) / max(w[a].sum(), 1e-300)])

        for j, name in enumerate(self._names_m):
            if methods[name] == "influence":
                plan.single += [(a, name, centres(a, j)) for a in range(len(self.names))]
            if len(self.names) > 1 and self._pair_method(name) == "influence":
                plan.pairs += [(a, b, name, centres(a, j) - centres(b, j))
                               for a, b in combinations(range(len(self.names)), 2)]
        return plan

    def _second_pass(self, map_reduce: MapReduce, parts: Sequence[Any],
                     labels: tuple[Any, ...] | None) -> None:
        """Pass two over ``parts``: the planned sums and, where a method resamples, the
        Poisson bootstrap (:meth:`_run_boot`, which the intervals ask for)."""
        self._map = (map_reduce, parts, labels)
        try:
            self._boot()   # runs pass two with the replicates when a method resamples
            if self._map is not None:
                plan = self._plan()
                plan.labels = labels
                if plan.single or plan.pairs:
                    self._sums.sums = map_reduce(pass_two_k, parts, merge_sums, (plan,))
        finally:
            self._map = None


def _poisson_run(cmp: DistributedMultiComparison, sums: dict[tuple[Any, ...], np.ndarray],
                 cols: list[tuple[str, Measure, int | None]], groups: int) -> bt.BootstrapRun:
    """Replicates, estimates and jackknife of the rows ``cols`` from the merged replicate
    statistics (fixed class counts: each replicate's classes rescaled to the observed
    class totals)."""
    k, n_models = cmp._design.k, len(cmp.names)
    reps = np.empty((cmp.n_boot, n_models, len(cols)))
    theta = np.empty((n_models, len(cols)))
    jack = np.empty((groups, n_models, len(cols)))
    for a, st in enumerate(cmp._all):
        shapes = [(k, k), *((s.size, k) for s in st.table.scores)]
        keys = ["cells", *range(k)]
        full = [st.counts.matrix, *st.table.counts]
        rep = [sums[("boot", a, x)].reshape(-1, *sh) for x, sh in zip(keys, shapes,
                                                                       strict=True)]
        if cmp._design.stratify:
            with np.errstate(all="ignore"):
                f = st.counts.matrix.sum(axis=1) / rep[0].sum(axis=2)   # (B, k)
            f = np.nan_to_num(f, nan=0.0, posinf=0.0)
            rep = [rep[0] * f[:, :, None], *(r * f[:, None, :] for r in rep[1:])]
        reps[:, a] = _evaluate_k(cmp, st, rep, cols)
        theta[a] = _evaluate_k(cmp, st, [x[None] for x in full], cols)[0]
        if groups:
            jk = [np.maximum(x[None] - sums[("jack", a, key)].reshape(-1, *sh), 0.0)
                  for x, key, sh in zip(full, keys, shapes, strict=True)]
            jack[:, a] = _evaluate_k(cmp, st, jk, cols)
    return bt.BootstrapRun(reps, theta, jack)


def _evaluate_k(cmp: DistributedMultiComparison, st: Any, tables: list[np.ndarray],
                cols: list[tuple[str, Measure, int | None]]) -> np.ndarray:
    """The rows ``cols`` on every weighting (R, …) of one model's cells and class
    tables."""
    import warnings

    from measurelab.stats.bundle import MultiStats
    from measurelab.stats.confusion import MultiCounts
    from measurelab.stats.multiscore import MultiScoreTable

    labels = st.counts.labels
    out = np.empty((tables[0].shape[0], len(cols)))
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for r in range(out.shape[0]):
            stats = MultiStats(counts=MultiCounts(tables[0][r], labels),
                               table=MultiScoreTable(st.table.scores,
                                                     tuple(t[r] for t in tables[1:]),
                                                     labels))
            got: dict[str, Any] = {}
            for j, (_name, m, c) in enumerate(cols):
                if m.name not in got:
                    got[m.name] = m.compute(stats, average=cmp.average)
                out[r, j] = float(got[m.name] if c is None else np.asarray(got[m.name])[c])
    return out


def compare_multi_parts(
    parts: Sequence[Any],
    names: Sequence[str],
    *,
    labels: Sequence[Any] | None = None,
    indexed: bool = False,
    map_reduce: MapReduce | None = None,
    measures: Any = None,
    ci: float | None = 0.95,
    n_boot: int = 2000,
    random_state: Any = 0,
    ci_method: str | None = None,
    stratify: bool = False,
    average: str | None = "macro",
) -> DistributedMultiComparison:
    """Compare k-class classifiers whose cases are spread over ``parts``, in two passes
    (a pass over the labels first when ``labels`` is None).

    Parameters
    ----------
    parts : sequence
        One entry per part: ``(y, [(n, k) probabilities of each model], weights or
        None)``, or a callable returning it, or whatever ``map_reduce`` hands its task.
    names : the models' names
    labels : the classes in the order of the probability columns (default: the sorted
        labels of every part); ``indexed``: the parts' y holds column indices already
    map_reduce : as in :func:`~.distributed.compare_parts`
    measures, ci, n_boot, random_state, ci_method, stratify, average
        As in :func:`~measurelab.inference.classifiers.compare.compare_classifiers`.

    Returns
    -------
    DistributedMultiComparison

    Examples
    --------
    >>> parts = [([0, 1, 2], [np.eye(3)], None), ([2, 1, 0], [np.eye(3)[[2, 0, 0]]], None)]
    >>> compare_multi_parts(parts, ["m"], measures=["acc"]).intervals()["method"][0][:6]
    'wilson'
    """
    from measurelab._util.validation import check_random_state, model_names
    from measurelab.inference.classifiers.inputs import choose_multi, multi_rows
    from measurelab.measures.base import check_average

    random_state = check_random_state(random_state)
    names = model_names(list(names))
    average = check_average(average)
    level, n_boot, _jobs, stratify = iv.check_run_options(ci, n_boot, None, stratify,
                                                          ci_method)
    parts = list(parts)
    if not parts:
        raise MeasurelabError("parts is empty: give at least one part of the cases")
    run = map_reduce or in_process
    lab = tuple(find_labels(parts, run) if labels is None else list(labels))
    if len(lab) < 3:
        raise MeasurelabError(f"a k-class comparison needs 3 or more classes, got "
                              f"{len(lab)} ({list(lab)}); compare binary models by score")
    one = run(pass_one_k, parts, merge_one_k, (len(names), lab, indexed))
    if not one.class_n.sum():
        raise MeasurelabError("the parts hold no cases to compare")
    probs = True
    columns, values = multi_rows(one.stats, choose_multi(measures, probs), average, probs,
                                 lab)
    notes = [f"computed over {len(parts)} parts in two passes"] if level is not None else []
    cmp = DistributedMultiComparison(
        one=one, labels=lab, stratify=stratify, notes=notes, names=names, columns=columns,
        values=values, average=average, level=level, n_boot=n_boot,
        random_state=random_state, ci_method=ci_method)
    if level is not None:
        cmp._second_pass(run, parts, None if indexed else lab)
    return cmp
