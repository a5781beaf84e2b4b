"""Two models on two different test sets: unpaired intervals and tests (docs/METHODS.md#unpaired).

:func:`compare_unpaired` answers "is model A's measure on its test set different from model
B's on its own?" — two studies, two hospitals, a model and a published one. AUC: DeLong's
unpaired test with Welch's degrees of freedom (pROC's ``roc.test(paired = FALSE)``); the
binary measures of the confusion counts: each test set's posterior of its cells, drawn
independently (the p-value the posterior's tail at 0); every other measure: an unpaired
bootstrap (each test set resampled on its own, the difference of independent replicates,
the p-value inverted from the same distribution as the interval).

Examples
--------
>>> import numpy as np
>>> g = np.random.default_rng(0)
>>> ya, yb = g.random(200) < 0.4, g.random(150) < 0.4
>>> sa = 1 / (1 + np.exp(-(2 * ya + g.normal(size=200) - 1)))
>>> sb = 1 / (1 + np.exp(-(1 * yb + g.normal(size=150) - 0.5)))
>>> r = compare_unpaired(ya, sa, yb, sb, measures=["auc", "f1"], n_boot=500)
>>> r.tests()[["measure", "method"]].values.tolist()
[['auc', 'delong-unpaired'], ['f1', 'dirichlet-posterior']]
>>> bool(r.tests().loc[0, "df"] > 100)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from measurelab._util.validation import (
    as_1d,
    binary_score_vector,
    check_flag,
    check_random_state,
    check_scores,
)
from measurelab.exceptions import MeasurelabError
from measurelab.inference import bootstrap as bt
from measurelab.inference import evidence as ev
from measurelab.inference import intervals as iv
from measurelab.inference.classifiers._report import _num
from measurelab.inference.classifiers.binary import ClassifierComparison, _of_distance
from measurelab.inference.classifiers.compare import compare_classifiers
from measurelab.inference.classifiers.unpaired_multilabel import (
    TEST_COLUMNS,
    MultiLabelUnpairedComparison,
    compare_unpaired_multilabel,
)
from measurelab.inference.withholding import (
    judged,
    warn_withheld_by_evidence,
    withholding_on,
)
from measurelab.measures.base import Measure
from measurelab.pickling import versioned_pickle

__all__ = ["UnpairedComparison", "compare_unpaired"]

#: the columns of :meth:`UnpairedComparison.tests` (a paired comparison's, plus ``df``) are
#: :data:`~measurelab.inference.classifiers.unpaired_multilabel.TEST_COLUMNS`, one list for
#: both unpaired designs (the module below this one defines it)


def compare_unpaired(
    y_a: Any,
    s_a: Any,
    y_b: Any,
    s_b: Any,
    *,
    measures: Iterable[str | Measure] | str | None = None,
    ci: float = 0.95,
    n_boot: int = 2000,
    random_state: Any = 0,
    ci_method: str | None = None,
    names: tuple[str, str] = ("a", "b"),
    sample_weight_a: Any = None,
    sample_weight_b: Any = None,
    threshold: float = 0.5,
    pos_label: Any = 1,
    inclusive: bool = False,
    stratify: bool = False,
    progress: bool | None = None,
    n_jobs: int | None = None,
    groups_a: Any = None,
    groups_b: Any = None,
    average: str | None = "macro",
    labels: Any = None,
) -> UnpairedComparison | MultiLabelUnpairedComparison:
    """Compare model A on test set A with model B on test set B (unpaired).

    Parameters
    ----------
    y_a, s_a : labels and scores of model A's test set
    y_b, s_b : labels and scores of model B's test set
    measures : as :func:`~measurelab.compare_classifiers` (default the headline set)
    ci : float in (0, 1), default 0.95
    n_boot : int, default 2000 (at least 100)
        Replicates of each test set's bootstrap.
    random_state : int, numpy Generator or None, default 0
        Seeds both bootstraps and both posteriors (independent streams drawn from it).
    ci_method : str, optional
        As :func:`~measurelab.compare_classifiers`; a bootstrap method also replaces
        DeLong for AUC.
    names : the two models' names, default ('a', 'b')
    sample_weight_a, sample_weight_b : case weights (AUC then goes to the bootstrap too)
    threshold, pos_label, inclusive, stratify, progress, n_jobs
        As :func:`~measurelab.compare_classifiers`.
    groups_a, groups_b : array-like, optional
        A cluster id per case of each test set (give both): each test set's bootstrap
        resamples its clusters and AUC's unpaired test sums the two clustered DeLong
        variances (``clustered-delong-unpaired``, a z-test).
    average : 'macro', 'weighted', 'micro', 'samples' or None, default 'macro'
        k classes or multi-label: how the per-class (per-label) values combine.
    labels : list, optional
        Multi-label input given as label sets: the L labels (as ``compare_classifiers``).

    Multi-label input (``y_a`` and ``y_b`` (n, L) indicator matrices with the same L
    labels, any number of cases each; scores as ``evaluate`` takes them, an (n, L) matrix
    or scikit-learn's ``predict_proba`` list) gives a
    :class:`~measurelab.inference.classifiers.unpaired_multilabel.
    MultiLabelUnpairedComparison`: each test set's own case bootstrap (a replicate weights
    its cases, shared by its labels), independent of the other's.

    Returns
    -------
    UnpairedComparison or MultiLabelUnpairedComparison (multi-label input)
        ``.values()``, ``.intervals()`` and ``.tests()``: the columns of
        ``compare_classifiers(...).tests()`` plus ``df`` (Welch's degrees of freedom of
        DeLong's unpaired test; NaN for bootstrap rows) — ``z`` is pROC's D.
    """
    from measurelab.stats.labelsets import is_multilabel

    random_state = check_random_state(random_state)
    level = iv.check_level(ci, "ci")
    n_boot = bt.check_n_boot(n_boot, minimum=bt.MIN_BOOT)
    check_flag(stratify, "stratify")
    if (not isinstance(names, tuple | list) or len(names) != 2
            or str(names[0]) == str(names[1])):
        raise MeasurelabError(f"names must be two different names, got {names!r}")
    na, nb = (str(x) for x in names)
    multi = [is_multilabel(y_a), is_multilabel(y_b)]
    if any(multi):
        if not all(multi):
            one, other = ("y_a", "y_b") if multi[0] else ("y_b", "y_a")
            raise MeasurelabError(f"{one} is multi-label (a 2-d indicator) but {other} is "
                                  "not; give both test sets as (n, L) indicator matrices")
        if groups_a is not None or groups_b is not None:
            raise MeasurelabError("groups_a/groups_b do not apply to multi-label input yet; "
                                  "leave them out")
        rng = bt.rng_of(random_state)
        return compare_unpaired_multilabel(
            y_a, s_a, y_b, s_b, names=(na, nb), level=level,
            seeds=[int(x) for x in rng.integers(0, 2**63 - 1, 2)], measures=measures,
            average=average, n_boot=n_boot, ci_method=ci_method,
            sample_weight_a=sample_weight_a, sample_weight_b=sample_weight_b, labels=labels,
            threshold=threshold, inclusive=inclusive, stratify=stratify, progress=progress,
            n_jobs=n_jobs)
    s_a = binary_score_vector(s_a, as_1d(y_a, "y_a"), pos_label, "s_a")[0]  # predict_proba
    s_b = binary_score_vector(s_b, as_1d(y_b, "y_b"), pos_label, "s_b")[0]
    for name, v in (("s_a", s_a), ("s_b", s_b)):
        check_scores(as_1d(v.to_numpy() if hasattr(v, "to_numpy") else v, name), name)
    for sn, yn, sv, yv in (("s_a", "y_a", s_a, y_a), ("s_b", "y_b", s_b, y_b)):
        ns, ny = len(as_1d(sv, sn)), len(as_1d(yv, yn))
        if ns != ny:  # the names the caller typed, not compare_classifiers' y_true
            raise MeasurelabError(f"{sn} has {ns} scores but {yn} has {ny} cases; give one "
                                  f"score per case of {yn}")
    rng = bt.rng_of(random_state)
    seeds = [int(x) for x in rng.integers(0, 2**63 - 1, 2)]
    common = dict(measures=measures, ci=level, n_boot=n_boot, ci_method=ci_method,
                  average=average, labels=labels, threshold=threshold, pos_label=pos_label,
                  inclusive=inclusive, stratify=stratify, progress=progress, n_jobs=n_jobs)
    if (groups_a is None) != (groups_b is None):
        raise MeasurelabError("give groups_a and groups_b together (a cluster id per case of "
                              "each test set), or neither")
    ca = compare_classifiers(y_a, {na: s_a}, random_state=seeds[0],
                             sample_weight=sample_weight_a, groups=groups_a, **common)
    cb = compare_classifiers(y_b, {nb: s_b}, random_state=seeds[1],
                             sample_weight=sample_weight_b, groups=groups_b, **common)
    if ca._names_m != cb._names_m:
        raise MeasurelabError(
            f"the measures that apply differ between the two test sets ({ca._names_m} and "
            f"{cb._names_m}); name them with measures=[...]")
    return UnpairedComparison(ca, cb, level)


@versioned_pickle
class UnpairedComparison:
    """The result of :func:`compare_unpaired`."""

    def __init__(self, a: ClassifierComparison, b: ClassifierComparison,
                 level: float) -> None:
        self._a, self._b = a, b
        self.level = level
        self.names = [a.names[0], b.names[0]]
        self._rows: dict[bool, list[dict[str, Any]]] = {}
        self._draws: list[Any] = []

    def __repr__(self) -> str:
        from measurelab.inference._reprs import unpaired_repr

        return unpaired_repr(self)

    def values(self) -> Any:
        """Measure values: rows = measures, columns = the two models."""
        import pandas as pd

        return pd.concat([self._a.values(), self._b.values()], axis=1)

    def intervals(self) -> Any:
        """Each model's intervals on its own test set (as ``compare_classifiers``)."""
        import pandas as pd

        return pd.concat([self._a.intervals(), self._b.intervals()], ignore_index=True)

    def _pair_method(self, k: str) -> str:
        from measurelab.inference.methods import Setting, difference_form

        whole = self._a._w is None and self._b._w is None
        m = iv.default_method(k, self._a.ci_method, whole_counts=whole,
                              smaller=min(self._a._smaller(), self._b._smaller()),
                              n=min(int(np.size(self._a._y)), int(np.size(self._b._y))))
        form = difference_form(Setting(k, whole_counts=whole, kind="unpaired"), m).name
        if form == "delong-unpaired" and getattr(self._a, "clustered", False):
            return "clustered-delong-unpaired"
        if form == "dirichlet-posterior" and getattr(self._a, "clustered", False):
            return "bootstrap"   # clusters keep the cluster bootstrap
        return form

    def _posterior_row(self, j: int) -> dict[str, Any]:
        """lo, hi, p and the interval text of measure ``j``'s unpaired difference from the
        two test sets' independent posteriors of the confusion cells."""
        from measurelab.inference.methods.dirichlet import difference_row, model_draws, model_key

        if not self._draws:   # each test set's posterior: its single interval's draws
            self._draws = [model_draws(c._stats[0].counts, c._case_design(), c.random_state,
                                       model_key(0)) for c in (self._a, self._b)]
        m = self._a._measures[j]
        da, db = self._draws
        r = difference_row(m, da, db, self.level, (self.names[0], self.names[1]))
        return {**r, "interval": _of_distance(m, r["interval"])} if "p" in r else r

    def _influence_row(self, j: int, diff: float) -> dict[str, Any]:
        """lo, hi, se, z, p of measure ``j``'s unpaired difference: the z-test on the sum
        of the two test sets' influence variances (independent samples), each the one its
        comparison's own interval uses."""
        from measurelab.inference._base import z_test
        from measurelab.inference.classifiers._pair_rows import influence_variances

        var = sum(influence_variances(c, j)[0][0] for c in (self._a, self._b))
        r = z_test(diff, var, self.level)
        return {"lo": r.lo, "hi": r.hi, "se": r.se, "z": r.statistic, "p": r.pvalue,
                "interval": "influence"}

    def _replicates(self, c: ClassifierComparison, ms: list[Measure]) -> bt.BootstrapRun:
        return bt.run_bootstrap(c._design, ms, c.n_boot, c.random_state,
                                thresholds=[(c.threshold, c._inclusive)],
                                jackknife=True, progress=c._progress, n_jobs=c._n_jobs)

    def _test_rows(self) -> list[dict[str, Any]]:
        if withholding_on() in self._rows:   # as the evidence policy leaves them
            return self._rows[withholding_on()]
        from measurelab.inference.delong import delong_unpaired

        names_m = self._a._names_m
        va, vb = self._a._vals[0], self._b._vals[0]
        boot = [k for k in names_m if self._pair_method(k) in ("bootstrap", "bootstrap-se")]
        cells: dict[str, tuple[float, float, float, str, float, float, dict[str, Any]]] = {}
        if boot:
            ms = [self._a._measures[names_m.index(k)] for k in boot]
            ra, rb = self._replicates(self._a, ms), self._replicates(self._b, ms)
            # a − b, or the difference of the distances to a target value
            # (Measure.pair_statistic)
            def pair(x: np.ndarray, y: np.ndarray) -> np.ndarray:
                return np.stack([m.pair_statistic(x[..., i], y[..., i])
                                 for i, m in enumerate(ms)], axis=-1)

            diff = pair(np.array([va[names_m.index(k)] for k in boot]),
                        np.array([vb[names_m.index(k)] for k in boot]))
            theta = pair(ra.theta[0], rb.theta[0])
            reps = pair(ra.reps[:, 0, :], rb.reps[:, 0, :]).T
            # two-sample jackknife: leave out a group of A (B whole), then of B
            jack = np.concatenate([pair(ra.jack[:, 0, :], rb.theta[0]),
                                   pair(ra.theta[0], rb.jack[:, 0, :])]).T
            bca = np.array([iv.default_method(k, self._a.ci_method, whole_counts=False)
                            != "bootstrap-percentile" for k in boot])
            bi = bt.BootstrapIntervals(reps, theta, diff, jack, bca, self.level,
                                       bt.range_bounds(ms, difference=True))
            for j, k in enumerate(boot):
                cells[k] = (bi.lo[j], bi.hi[j], bi.p[j], _of_distance(ms[j], bi.method[j]),
                            bi.infinite[j], bi.undefined[j], bi.notes(j))
                if self._pair_method(k) == "bootstrap-se":
                    from measurelab.inference.calibration import replicate_wald

                    lo_r, hi_r = ms[j].range
                    lo, hi, _se, p = replicate_wald(float(diff[j]), reps[j], self.level,
                                                    (lo_r - hi_r, hi_r - lo_r))
                    cells[k] = (lo, hi, p, "bootstrap-se", bi.infinite[j], bi.undefined[j], {})
        rows = []
        withheld: list[str] = []
        for j, k in enumerate(names_m):
            d = float(self._a._measures[j].pair_statistic(va[j], vb[j]))
            row: dict[str, Any] = {
                "a": self.names[0], "b": self.names[1], "measure": k, "diff": d,
                "lo": math.nan, "hi": math.nan, "p": math.nan,
                "method": self._pair_method(k), "se": math.nan, "z": math.nan,
                "interval": "", "df": math.nan}
            if self._pair_method(k) == "none":
                from measurelab.inference.calibration import withheld_reason

                row.update(interval=withheld_reason(k))
            elif k in cells:
                lo, hi, p, method, inf_share, nan_share, notes = cells[k]
                row.update(lo=float(lo), hi=float(hi), p=float(p), interval=method)
                iv.warn_nonfinite(f"the difference in {k} of {self.names[0]!r} and "
                                  f"{self.names[1]!r}", iv.Interval(d, lo, hi, method),
                                  inf_share, nan_share, **notes)
            elif row["method"] == "dirichlet-posterior":
                row.update(self._posterior_row(j))
            elif row["method"] == "influence":
                row.update(self._influence_row(j, d))
            elif row["method"] == "clustered-delong-unpaired":
                from measurelab.inference.classifiers.structured import clustered_unpaired

                row.update(clustered_unpaired(self._a, self._b, self.level))
            else:
                r = delong_unpaired(self._a._design.tables[0], self._b._design.tables[0],
                                    self.level)
                row.update(lo=r["lo"], hi=r["hi"], p=r["p"], se=r["se"], z=r["z"],
                           df=r["df"], interval="delong-unpaired")
            if getattr(self._a, "clustered", False) and row["interval"].startswith("boot"):
                row["interval"] = "cluster-" + row["interval"]
            row["interval"], out = judged(
                row["interval"], self._a._measures[j], bounds=(row["lo"], row["hi"]),
                smaller=min(self._a._smaller(), self._b._smaller()),
                unpaired=True, level=self.level, design="cluster" if getattr(
                    self._a, "clustered", False) else ev.design_name(
                    self._a._design.stratify,
                    weighted=self._a._w is not None or self._b._w is not None))
            if out:
                row.update(lo=math.nan, hi=math.nan, p=math.nan, se=math.nan, z=math.nan)
                withheld.append(f"the difference in {k} of {self.names[0]!r} and "
                                f"{self.names[1]!r}")
            rows.append(row)
        warn_withheld_by_evidence(withheld)
        adj = iv.holm([r["p"] for r in rows])
        for r, q in zip(rows, adj, strict=True):
            r["p_holm"] = float(q)
        self._rows[withholding_on()] = rows
        return rows

    def tests(self) -> Any:
        """One row per measure: ``a, b, measure, diff, lo, hi, p, p_holm, method, se, z,
        interval, df`` (diff = a − b; Holm over the rows).

        Examples
        --------
        >>> r = compare_unpaired([0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.2, 0.8, 0.7, 0.3],
        ...                      [0, 1, 1, 0, 1, 0], [0.3, 0.6, 0.4, 0.4, 0.7, 0.2],
        ...                      measures=["acc"], n_boot=200)
        >>> r.tests().loc[0, ["measure", "method"]].tolist()
        ['acc', 'dirichlet-posterior']
        """
        import pandas as pd

        return pd.DataFrame(self._test_rows(), columns=TEST_COLUMNS)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"models": {...}, "pairs": [...]}`` (NaN → None)."""
        models: dict[str, dict[str, Any]] = {}
        for c in (self._a, self._b):
            models.update(c.to_dict()["models"])
        pairs = [{k: (_num(v) if isinstance(v, float) else v) for k, v in r.items()}
                 for r in self._test_rows()]
        return {"models": models, "pairs": pairs}
