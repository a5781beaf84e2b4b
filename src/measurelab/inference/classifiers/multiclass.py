"""Comparing classifiers of k ≥ 3 classes on the same cases (docs/METHODS.md#multiclass-comparison,
issue 19).

The k-class counterpart of :mod:`measurelab.inference.classifiers.binary`, on the same bootstrap
engine (:mod:`measurelab.inference.bootstrap`): one multiplicity per case, shared by every
model and every class, drawn over a canonical order of the cases (by true class, then every
model's probability row — or predicted class —, then the weight), so the same data in any
row order gives the same replicates to the last bit; ``stratify=True`` resamples within
each true class. A block of multiplicities is evaluated for each model through
:class:`~measurelab.stats.multiblock.MultiBlock` and
:func:`~measurelab.measures.compute.compute_multi_block` (block formulas, no per-replicate
loop for the built-in measures).

Intervals: accuracy (and error) of one model is Wilson's (exact counts), the difference of
two models' accuracy McNemar's score test on the correct/incorrect decisions (with Tango's
interval, which inverts it), everything
else a bootstrap (BCa with the grouped jackknife, as for binary input). Per-class values
(``average=None``) are reported as rows named ``measure[class]``, e.g. ``f1[cat]``.

Examples
--------
Two models' probabilities of 3 classes on 40 cases; the examples of
:class:`MultiClassComparison` and its methods below use this ``r`` (run this example
first):

>>> import numpy as np
>>> from measurelab.inference import compare_classifiers
>>> y = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 1] * 4)
>>> A = np.eye(3)[[0, 1, 2, 0, 2, 2, 1, 1, 2, 1] * 4] * 0.7 + 0.1
>>> B = np.eye(3)[[0, 1, 2, 1, 1, 0, 0, 2, 2, 1] * 4] * 0.7 + 0.1
>>> r = compare_classifiers(y, {"a": A, "b": B}, measures=["acc", "f1"], n_boot=200)
>>> r.values().round(3).to_dict("index")
{'acc': {'a': 0.8, 'b': 0.7}, 'f1': {'a': 0.802, 'b': 0.694}}
>>> r.intervals()[["measure", "method"]].values[:2].tolist()  # doctest: +ELLIPSIS
[['acc', 'wilson...'], ['f1', 'bootstrap-bca...']]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab.inference import bootstrap as bt
from measurelab.inference import intervals as iv
from measurelab.inference.bootstrap import MultiCaseDesign, run_blocks
from measurelab.inference.classifiers import _figures as _fig
from measurelab.inference.classifiers.binary import ClassifierComparison
from measurelab.measures.base import Measure
from measurelab.measures.compute import compute_multi_block
from measurelab.stats.confusion import BinaryCounts

__all__ = ["MultiClassComparison", "run_multi"]

def run_multi(design: MultiCaseDesign, columns: list[tuple[str, Measure, int | None]],
              average: str | None, n_boot: int, random_state: Any, *, jackknife: bool,
              progress: bool | None, n_jobs: int) -> bt.BootstrapRun:
    """Every column (measure, class) of every model on ``n_boot`` replicates, in blocks."""
    import warnings

    from measurelab._util.threads import one_blas_thread

    k = len(design.P)
    measures: list[Measure] = []
    for _c, m, _i in columns:
        if m not in measures:
            measures.append(m)

    def evaluate(ext: np.ndarray) -> np.ndarray:
        mult = ext[:, :design.n]
        res = np.empty((mult.shape[0], k, len(columns)))
        with np.errstate(all="ignore"):
            for a in range(k):
                blk = design.block(a, mult)
                got = {m.name: compute_multi_block(m, blk, average=average)
                       for m in measures}
                for j, (_col, m, c) in enumerate(columns):
                    v = got[m.name]
                    res[:, a, j] = v if c is None else v[:, c]
        return res

    with warnings.catch_warnings(), one_blas_thread():
        warnings.simplefilter("ignore")
        return run_blocks(design, evaluate, (k, len(columns)), n_boot,
                          bt.rng_of(random_state), jackknife=jackknife, progress=progress,
                          n_jobs=n_jobs)


def proportion_counts(correct: float, total: float) -> BinaryCounts:
    """Counts whose 'acc' proportion is correct of total (and 'err' the rest), for
    :func:`~measurelab.inference.intervals.measure_interval`.

    Examples
    --------
    >>> c = proportion_counts(7, 10)
    >>> c.tp + c.tn, c.tp + c.fp + c.fn + c.tn
    (7.0, 10.0)
    """
    return BinaryCounts(float(correct), float(total - correct), 0.0, 0.0)


# ------------------------------------------------------------- the comparison
def init_rows(cmp: Any, y: np.ndarray, inclusive: bool, *, names: list[str], design: Any,
              columns: list[Any], values: list[dict[str, float]], average: str | None,
              level: float | None, n_boot: int, random_state: Any, ci_method: str | None,
              progress: bool | None, n_jobs: int, weight: np.ndarray | None) -> None:
    """The state a comparison whose rows are (row name, measure, class or None) columns
    starts from — the k-class one and the multi-label one (``y``: its truth as the design
    holds it; no threshold: the decision is the design's)."""
    cmp.names = names
    cmp.level = level
    cmp.n_boot = n_boot
    cmp.random_state = random_state
    cmp.ci_method = ci_method
    cmp.threshold = math.nan
    cmp.average = average
    cmp._y = y
    cmp._scores = []
    cmp._w = weight
    cmp._design = design
    cmp._stats = []
    cmp._columns = columns
    cmp._measures = [m for _c, m, _i in columns]
    cmp._names_m = [c for c, _m, _i in columns]
    cmp._vals = np.array([[v[c] for c in cmp._names_m] for v in values])
    cmp._inclusive = inclusive
    cmp._progress = progress
    cmp._n_jobs = n_jobs
    cmp._cache = {}


class MultiClassComparison(ClassifierComparison):
    """:class:`ClassifierComparison` of k ≥ 3 classes (built by
    :func:`compare_classifiers`); rows are measures, or ``measure[class]`` with
    ``average=None``. Sokolova's verdicts are binary: :meth:`verdicts` is empty.

    Examples
    --------
    With ``r`` from the module example:

    >>> r.tests()[["measure", "method"]].values.tolist()
    [['acc', 'mcnemar'], ['f1', 'bootstrap']]
    """

    _multiclass = True
    # the k-class design (no CaseDesign: the methods reading one are overridden here)
    _design: MultiCaseDesign  # type: ignore[assignment]
    average: str | None
    _columns: list[Any]   # (row name, measure, class or None), set by init_rows

    def __init__(self, *, names: list[str], design: Any, columns: list[Any],
                 values: list[dict[str, float]], average: str | None, level: float | None,
                 n_boot: int, random_state: Any, ci_method: str | None,
                 progress: bool | None, n_jobs: int, weight: np.ndarray | None) -> None:
        init_rows(self, design.yi, False, names=names, design=design, columns=columns,
                  values=values, average=average, level=level, n_boot=n_boot,
                  random_state=random_state, ci_method=ci_method, progress=progress,
                  n_jobs=n_jobs, weight=weight)

    def _methods(self) -> dict[str, str]:
        if "methods" not in self._cache:
            # only accuracy and error are proportions of the cases for k classes
            self._cache["methods"] = {
                k: iv.default_method(k, self.ci_method, whole_counts=not self._weighted,
                                     multiclass=True, smaller=self._smaller(),
                                     n=self._case_counts()[0], average=self.average)
                for k in self._names_m}
        return dict(self._cache["methods"])

    def _case_counts(self) -> tuple[int, int]:
        return self._design.n, 0

    def _model_stats(self, a: int) -> Any:
        """Model ``a``'s statistics of all the cases (k × k cells, class score tables)."""
        if ("stats", a) not in self._cache:
            d = self._design
            self._cache[("stats", a)] = d.block(a, np.ones((1, d.n))).stats(0)
        return self._cache[("stats", a)]

    def _influence(self, a: int, j: int) -> Any:
        """The influence function of row ``j`` (:class:`.multi_influence.KInfluence`) of
        model ``a``."""
        from measurelab.inference.classifiers.multi_influence import KInfluence

        _col, m, c = self._columns[j]
        return KInfluence.build(m, self._model_stats(a), self.average, c)

    def _influence_cases(self, a: int, j: int) -> np.ndarray:
        d = self._design
        rows = self._cache.setdefault(("rows", a), {})   # the model's table rows, once
        return self._influence(a, j).cases(d.yi, d.P[a], rows=rows)

    def _influence_variance(self, j: int, a: int, b: int | None = None) -> float:
        """Var of model ``a``'s value of row ``j`` (``b``: of the paired difference a − b)
        from every case's influence."""
        from measurelab.inference.classifiers.multi_influence import k_variance

        key = ("influence", j, a, b)
        if key not in self._cache:
            d = self._design
            case = self._influence_cases(a, j)
            if b is not None:
                case -= self._influence_cases(b, j)
            self._cache[key] = k_variance(case, d.yi, d.weight, d.k, fixed=d.stratify)
        return self._cache[key]

    def _run_boot(self, need: list[str], ms: list[Measure], bca: bool) -> bt.BootstrapRun:
        cols = [self._columns[self._names_m.index(x)] for x in need]
        return run_multi(self._design, cols, self.average, self.n_boot, self.random_state,
                         jackknife=bca, progress=self._progress, n_jobs=self._n_jobs)

    def _analytic(self, a: int, k: str, value: float, method: str, level: float
                  ) -> iv.Interval:
        if method == "influence":
            j = self._names_m.index(k)
            return iv.measure_interval(k, value, method, level, measure=self._measures[j],
                                       variance=self._influence_variance(j, a),
                                       what=f"{k} of model {self.names[a]!r}")
        correct = self._correct(a)
        return iv.measure_interval(k, value, method, level,
                                   counts=proportion_counts(int(correct.sum()), correct.size),
                                   what=f"{k} of model {self.names[a]!r}")

    def _correct(self, a: int) -> np.ndarray:
        return np.argmax(self._design.P[a], axis=1) == self._design.yi

    def verdicts(self) -> Any:
        """Sokolova's verdicts are defined for two classes: an empty table for k classes,
        which says why (its ``attrs["note"]``, shown when it is printed).

        Examples
        --------
        With ``r`` from the module example:

        >>> len(r.verdicts())
        0
        >>> print(r.verdicts())  # doctest: +ELLIPSIS
        No verdicts: Sokolova's likelihood verdicts compare two classes' ...
        """
        from measurelab.inference._reprs import noted_empty_frame

        return noted_empty_frame(
            ["a", "b", "verdict", "dp_a", "dp_b", "dp_band_a", "dp_band_b"],
            "No verdicts: Sokolova's likelihood verdicts compare two classes' likelihood "
            "ratios (rho+, rho-), which a k-class task does not have; for one class against "
            "the rest compare the models on that class's binary labels and scores with "
            "compare_classifiers(y == c, {name: P[:, j]}).")

    def curve_bands(self, n_boot: int | None = None, grid: int = 101) -> dict[str, Any]:
        """One-vs-rest ROC and PR curves of every class and model with pointwise
        percentile bands at ``ci``: ``{"grid", "classes", "roc": {model: {class: {"x",
        "y", "lo", "hi"}}}, "pr": ...}``.

        The bands come from ``min(n_boot, 200)`` replicates of the comparison's own
        resampling (the same case multiplicities for every model and class), seeded by
        its ``random_state``; each curve is interpolated on ``grid`` points.

        Examples
        --------
        With ``r`` from the module example:

        >>> b = r.curve_bands()
        >>> b["classes"], b["roc"]["a"][2]["lo"].shape
        ([0, 1, 2], (101,))
        """
        return _fig.multi_curve_bands(self, n_boot, grid)

    def plot(self, *, n_boot: int | None = None) -> Any:
        """A matplotlib Figure: a column per class, its one-vs-rest ROC curve (top) and
        precision–recall curve (bottom), every model with its bootstrap band.

        Examples
        --------
        With ``r`` from the module example:

        >>> fig = r.plot()
        >>> [ax.get_title() for ax in fig.axes[:3]]
        ['class 0 vs rest', 'class 1 vs rest', 'class 2 vs rest']
        """
        return _fig.multi_plot(self, n_boot=n_boot)
