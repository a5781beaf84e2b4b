"""Comparing classifiers on the same test cases, honestly (docs/METHODS.md#comparing).

:func:`compare_classifiers` evaluates several models scored on the same cases and returns
a :class:`ClassifierComparison`: every measure's value per model with an interval, paired
tests for every pair of models (DeLong for AUC, McNemar's score test with Tango's interval
for acc/err, the posterior of the 8 joint confusion cells for the other binary measures of
the counts, a paired bootstrap of the cases for the rest) Holm-adjusted over everything
reported, Sokolova's
likelihood verdicts with both DP bands, the table of which model each measure prefers,
figures and a self-contained HTML page.

The bootstrap (:mod:`measurelab.inference.bootstrap`) resamples the cases jointly
(``stratify=True``:
positives and negatives apart), over a canonical order of the cases, in blocks whose
multiplicities are added into every model's score-table rows: a replicate never sorts,
every model sees the same cases, and any row order gives the same result.

For many data sets see :func:`measurelab.inference.demsar` (Demšar 2006).

Examples
--------
Two models scored on the same 60 cases; most examples of the methods of
:class:`ClassifierComparison` below use this ``r`` (run this example first):

>>> import numpy as np
>>> from measurelab.inference import compare_classifiers
>>> y = np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 0] * 6)
>>> a = np.array([.1, .8, .3, .6, .7, .2, .4, .9, .6, .3] * 6)
>>> b = np.array([.3, .9, .6, .7, .4, .5, .7, .9, .4, .6] * 6)
>>> r = compare_classifiers(y, {"a": a, "b": b}, measures=["acc", "auc", "brier"],
...                         n_boot=200)
>>> r.values().round(3).to_dict("index")
{'acc': {'a': 0.9, 'b': 0.6}, 'auc': {'a': 0.979, 'b': 0.792}, 'brier': {'a': 0.105, 'b': 0.218}}
>>> r.tests()[["measure", "method"]].values.tolist()
[['acc', 'mcnemar'], ['auc', 'delong'], ['brier', 'bootstrap']]
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.inference import bootstrap as bt
from measurelab.inference import delong as dlm
from measurelab.inference import evidence as ev
from measurelab.inference import intervals as iv
from measurelab.inference.calibration import N_RESAMPLES, replicate_wald
from measurelab.inference.classifiers import _figures as _fig
from measurelab.inference.classifiers import _pair_rows as _pairs
from measurelab.inference.classifiers import _report as _report
from measurelab.inference.classifiers._pair_rows import _of_distance, _paired_label  # noqa: F401
from measurelab.inference.classifiers._report import reliability  # noqa: F401  (re-exported)
from measurelab.inference.withholding import (
    judged,
    warn_withheld_by_evidence,
    withholding_on,
)
from measurelab.measures.base import Measure
from measurelab.measures.likelihood import dp_band, likelihood_verdict
from measurelab.pickling import versioned_pickle
from measurelab.stats.bundle import BinaryStats

__all__ = ["ClassifierComparison"]

#: the columns of ``preferences()`` named for what they compare (beside the old ones)
_PREFERENCE_COLUMNS = ("p_holm_vs_runner_up", "better_than_runner_up",
                       "significantly_better_than")


@versioned_pickle
class ClassifierComparison:
    """The result of :func:`compare_classifiers`; every table is a pandas DataFrame.

    Intervals, tests and bootstrap replicates are computed once, on first use. The class
    holds the statistics; its figures, page and serialisation are
    :mod:`~measurelab.inference.classifiers._report` (the methods here delegate).
    """

    #: a k-class comparison (:class:`.multiclass.MultiClassComparison`)
    _multiclass = False
    #: sums over the cases made elsewhere (:class:`.partitioned.CaseSums` of a comparison
    #: over parts); None: the tests read the cases held here
    _sums: Any = None

    def __init__(self, *, names: list[str], y: np.ndarray, scores: list[np.ndarray],
                 weight: np.ndarray | None, design: bt.CaseDesign, stats: list[BinaryStats],
                 measures: list[Measure], values: list[Any], level: float | None,
                 n_boot: int, random_state: Any, ci_method: str | None, inclusive: bool,
                 threshold: float, progress: bool | None, n_jobs: int = 1,
                 notes: list[str] | None = None, pos_label: Any = 1) -> None:
        self.names = names
        #: what was done to the input (an (n, 2) matrix's positive column, text labels)
        self.notes = list(notes or [])
        self.pos_label = pos_label
        self.level = level
        self.n_boot = n_boot
        #: what seeds the bootstrap and the curve bands (``random_state`` of the call)
        self.random_state = random_state
        self.ci_method = ci_method
        self.threshold = threshold
        self._y, self._scores, self._w = y, scores, weight
        self._design, self._stats = design, stats
        self._measures = measures
        self._names_m = [m.name for m in measures]
        self._vals = np.array([[float(v[k]) for k in self._names_m] for v in values])
        self._inclusive = inclusive
        self._progress = progress
        self._n_jobs = n_jobs
        self._cache: dict[Any, Any] = {}  # keys: names, or (name, withholding) tuples

    def __repr__(self) -> str:
        from measurelab.inference._reprs import comparison_repr

        return comparison_repr(self)

    # ------------------------------------------------------------------ values
    def values(self) -> Any:
        """Measure values: rows = measures, columns = models.

        Examples
        --------
        With ``r`` from the module example:

        >>> r.values().index.tolist(), r.values().columns.tolist()
        (['acc', 'auc', 'brier'], ['a', 'b'])
        >>> r.values().loc["auc"].round(3).to_dict()
        {'a': 0.979, 'b': 0.792}
        """
        import pandas as pd

        return pd.DataFrame(self._vals.T, index=pd.Index(self._names_m, name="measure"),
                            columns=self.names)

    # --------------------------------------------------------------- machinery
    def _need_level(self) -> float:
        if self.level is None:
            raise MeasurelabError("this comparison has no intervals: call it with ci=0.95")
        return self.level

    def _methods(self) -> dict[str, str]:
        if "methods" not in self._cache:  # asked once per pair row: choose once
            whole = not self._weighted
            self._cache["methods"] = {
                k: iv.default_method(k, self.ci_method, whole_counts=whole,
                                     smaller=self._smaller(), n=self._case_counts()[0])
                for k in self._names_m}
        return dict(self._cache["methods"])

    def _case_counts(self) -> tuple[int, int]:
        """The cases and the positive cases (not weights)."""
        return int(np.size(self._y)), int(np.count_nonzero(self._y))

    @property
    def _weighted(self) -> bool:
        return self._w is not None

    def _smaller(self) -> int:
        """The cases in the smaller class (for k classes, the smallest): the regime whose
        coverage evidence the method column quotes."""
        if "smaller" not in self._cache:
            if self._multiclass:
                y = np.asarray(self._y)
                small = int(np.bincount(np.unique(y, return_inverse=True)[1]).min())
            else:
                n, n1 = self._case_counts()
                small = min(n1, n - n1)
            self._cache["smaller"] = small
        return self._cache["smaller"]

    def _pair_method(self, k: str) -> str:
        """The method of a paired difference of measure ``k`` (the registry's:
        :func:`~measurelab.inference.methods.difference_form`)."""
        from measurelab.inference.methods import Setting, difference_form

        setting = Setting(k, multiclass=self._multiclass,
                          whole_counts=not self._weighted, kind="paired",
                          average=getattr(self, "average", "macro"))
        return difference_form(setting, self._methods()[k]).name

    def _boot(self) -> tuple[list[str], bt.BootstrapRun]:
        """Measures needing replicates and the run (replicates, estimates, jackknife)."""
        if "boot" in self._cache:
            return self._cache["boot"]
        methods = self._methods()
        pairs = len(self.names) > 1
        need = [k for k in self._names_m
                if methods[k] in iv.REPLICATE_METHODS
                or (pairs and self._pair_method(k) in ("bootstrap", "bootstrap-se"))]
        k = len(self.names)
        run = bt.BootstrapRun(np.empty((0, k, 0)), np.empty((k, 0)), np.empty((0, k, 0)))
        if need:
            ms = [self._measures[self._names_m.index(x)] for x in need]
            # the jackknife serves BCa's acceleration: of a model's interval, and of every
            # pair row's (BCa unless percentile is forced, whatever the single method)
            bca = any(methods[x] == "bootstrap-bca"
                      or (pairs and self._pair_method(x) == "bootstrap"
                          and methods[x] != "bootstrap-percentile")
                      for x in need)
            run = self._run_boot(need, ms, bca)
        self._cache["boot"] = (need, run)
        return self._cache["boot"]

    def _run_boot(self, need: list[str], ms: list[Measure], bca: bool) -> bt.BootstrapRun:
        """The bootstrap of the rows ``need`` (measures ``ms``) of every model (``bca``:
        with the jackknife)."""
        return bt.run_bootstrap(self._design, ms, self.n_boot, self.random_state,
                                thresholds=[(self.threshold, self._inclusive)]
                                * len(self.names),
                                jackknife=bca, progress=self._progress, n_jobs=self._n_jobs)

    def _delong(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """AUCs and placements (models × positives, models × negatives) for DeLong."""
        if "delong" not in self._cache:
            d = self._design
            self._cache["delong"] = dlm.delong_components(d.tables, d.rows, d.y)
        return self._cache["delong"]

    def _interval_rows(self) -> list[dict[str, Any]]:
        key = ("intervals", withholding_on())   # as the evidence policy leaves them
        if key in self._cache:
            return self._cache[key]
        level = self._need_level()
        methods = self._methods()
        need, run = self._boot()
        cells = [(a, j) for a in range(len(self.names)) for j, k in enumerate(self._names_m)
                 if k in need and methods[k] in iv.REPLICATE_METHODS]
        boot = {}
        if cells:
            col = [need.index(self._names_m[j]) for _a, j in cells]
            rows_a = [a for a, _j in cells]
            bi = bt.BootstrapIntervals(
                run.reps[:, rows_a, col].T, run.theta[rows_a, col],
                np.array([self._vals[a, j] for a, j in cells]),
                run.jack[:, rows_a, col].T,
                np.array([methods[self._names_m[j]] == "bootstrap-bca" for _a, j in cells]),
                level, bt.range_bounds([self._measures[j] for _a, j in cells]))
            for i, c in enumerate(cells):
                boot[c] = (bi.lo[i], bi.hi[i], str(bi.method[i]), bi.infinite[i],
                           bi.undefined[i], bi.notes(i), math.nan)
                if methods[self._names_m[c[1]]] == "bootstrap-se":
                    lo, hi, se, _p = replicate_wald(
                        float(self._vals[c]), run.reps[:, c[0], col[i]], level,
                        self._measures[c[1]].range)
                    boot[c] = (lo, hi, "bootstrap-se", bi.infinite[i], bi.undefined[i], {},
                               se)
        rows = []
        withheld: list[str] = []
        for a, name in enumerate(self.names):
            for j, k in enumerate(self._names_m):
                value = float(self._vals[a, j])
                if (a, j) in boot:
                    lo, hi, method, inf_share, nan_share, notes, se = boot[(a, j)]
                    r = iv.Interval(value, float(lo), float(hi), method, float(se))
                    iv.warn_nonfinite(f"{k} of model {name!r}", r, inf_share, nan_share,
                                      **notes)
                else:
                    r = self._analytic(a, k, value, methods[k], level)
                    inf_share = nan_share = math.nan
                text, out = self._with_evidence(r.method, j, r.lo, r.hi)
                r = r._replace(method=text)
                if out:
                    r = r._replace(lo=math.nan, hi=math.nan, se=math.nan)
                    withheld.append(f"{k} of model {name!r}")
                rows.append({"model": name, "measure": k, **r._asdict(),
                             "infinite": float(inf_share), "undefined": float(nan_share)})
        iv.warn_withheld([k for k in self._names_m if methods[k] == "none"])
        warn_withheld_by_evidence(withheld)
        self._cache[key] = rows
        return rows

    def _with_evidence(self, method: str, j: int, lo: float, hi: float,
                       **kind: bool) -> tuple[str, bool]:
        """The method text of an interval of row ``j`` (``kind``: ``paired=True`` for a
        difference) with what the coverage studies say of it in this regime, and whether
        it is withheld there (:func:`~measurelab.inference.withholding.judged`)."""
        return judged(
            method, self._measures[j], bounds=(lo, hi), level=self._need_level(),
            multiclass=self._multiclass,
            design=ev.design_name(self._design.stratify, weighted=self._weighted),
            average=getattr(self, "average", "macro"), smaller=self._smaller(), **kind)

    def _analytic(self, a: int, k: str, value: float, method: str, level: float
                  ) -> iv.Interval:
        """The analytic interval (Wilson, DeLong) of measure ``k`` of model ``a``."""
        from measurelab.inference.methods.dirichlet import model_key

        extra = {}
        if method == "influence":
            j = self._names_m.index(k)
            extra = {"measure": self._measures[j],
                     "variance": _pairs.influence_variances(self, j)[0][a]}
        return iv.measure_interval(k, value, method, level, table=self._design.tables[a],
                                   counts=self._stats[a].counts,
                                   what=f"{k} of model {self.names[a]!r}",
                                   design=self._case_design(), random_state=self.random_state,
                                   key=model_key(a), **extra)

    def _case_design(self) -> str:
        """'fixed' when the cases are resampled (or their posterior drawn) by class, else
        'random'."""
        return "fixed" if self._design.stratify else "random"

    def intervals(self) -> Any:
        """Long table ``model, measure, value, lo, hi, method, se, infinite, undefined``.

        ``se`` is DeLong's standard error (AUC); ``infinite`` and ``undefined`` the shares
        of bootstrap replicates whose value is ±inf or undefined (NaN for analytic
        intervals): an end that rests on them is ±inf. ``method`` also says what the
        coverage studies found (:mod:`measurelab.inference.evidence`): an interval without
        a covering entry for its setting adds the reason, e.g. ``'bootstrap-bca (no
        coverage evidence)'``.

        Examples
        --------
        With ``r`` from the module example:

        >>> t = r.intervals()
        >>> t[["model", "measure", "lo", "hi"]].round(3).values[:2].tolist()
        [['a', 'acc', 0.799, 0.953], ['a', 'auc', 0.895, 0.996]]
        >>> t["method"].tolist()[:3]
        ['wilson', 'newcombe-score', 'bootstrap-bca']
        """
        import pandas as pd

        return pd.DataFrame(self._interval_rows(),
                            columns=["model", "measure", "value", "lo", "hi", "method", "se",
                                     "infinite", "undefined"])

    def _test_rows(self) -> list[dict[str, Any]]:
        return _pairs.paired_rows(self)

    def _mcnemar(self, a: int, b: int, level: float) -> tuple[float, float, float]:
        """McNemar's score test and Tango's score interval of acc_a − acc_b, which inverts
        the same statistic: the interval excludes 0 exactly when p < 1 − level."""
        ca, cb = self._correct(a), self._correct(b)
        nb = int(np.count_nonzero(ca & ~cb))
        nc = int(np.count_nonzero(~ca & cb))
        lo, hi = iv.tango_interval(nb, nc, int(ca.size), level)
        return iv.mcnemar_score(nb, nc), lo, hi

    def _predicted(self, a: int) -> np.ndarray:
        """Model ``a``'s decision (True = positive), per case."""
        s = self._scores[a]
        return s >= self.threshold if self._inclusive else s > self.threshold

    def _correct(self, a: int) -> np.ndarray:
        """Whether model ``a``'s decision is correct, per case."""
        return self._predicted(a) == self._y

    def tests(self) -> Any:
        """Paired tests for every pair of models and measure: ``a, b, measure, diff, lo,
        hi, p, p_holm, method, se, z, interval`` (diff = a − b; ``se`` and ``z`` for DeLong;
        ``interval`` names the interval's method), Holm over all rows. For a measure whose
        ideal is a target value (``Measure.target``: Spiegelhalter's z) the row compares
        the distances to it, diff = |a − t| − |b − t| (negative: a is closer), and
        ``interval`` says so.

        In a bootstrap row p is inverted from the same bootstrap distribution as the
        interval, in a DeLong row both use the same standard error, and in a posterior
        row (the measures of the confusion counts) p is the posterior's two-sided tail at 0
        and the interval the same draws' quantiles, so ``lo > 0 or hi < 0`` exactly when
        ``p < 1 − ci``. A McNemar row (acc, err) pairs McNemar's score test (b − c)/√(b + c)
        with Tango's score interval of the difference, which inverts the same statistic
        (unconditional: the conditional interval under-covers when one model wins nearly
        every disagreement); :func:`~measurelab.inference.intervals.mcnemar_exact` stays
        available as a function.

        Examples
        --------
        With ``r`` from the module example:

        >>> t = r.tests()
        >>> t.loc[0, "measure"], t.loc[0, "method"], round(float(t.loc[0, "p"]), 4)
        ('acc', 'mcnemar', 0.001)

        (a alone is right on 24 cases, b alone on 6: z = (24 − 6)/√30 = 3.29.)
        """
        import pandas as pd

        return pd.DataFrame(self._test_rows(), columns=["a", "b", "measure", "diff", "lo", "hi",
                                                        "p", "p_holm", "method", "se", "z",
                                                        "interval"])

    # ----------------------------------------------------------- calibration
    def calibration(self, n_resamples: int = N_RESAMPLES, method: str = "auto") -> Any:
        """Is each model calibrated? Per model the Brier miscalibration (the population's,
        estimated without bias) with its interval at ``ci``, the p-value of the test of
        calibration, which test that was (``method``), Spiegelhalter's p, and the verdict
        at 1 − ``ci`` (:func:`measurelab.calibration_test`). Binary probabilities only.

        The test (``method='auto'``): consistency resampling (``n_resamples`` redraws of
        every label from its predicted probability, seeded by the comparison's
        ``random_state``: the default number and the seeding are
        :func:`measurelab.calibration_test`'s, so a model's p-value is the one that call
        gives) below 10,000 cases or 100 in the smaller class; from there the
        analytic test of the same statistic ('analytic null': its exact null moments, no
        redraws; the size study: docs/calibration_test_study.md); for fractional weights
        Spiegelhalter's. ``method='consistency'`` or ``'analytic'`` forces one. A progress
        bar follows the comparison's ``progress``.

        Columns: ``model, brier_mcb, lo, hi, pvalue, method, spiegelhalter_p, verdict``.

        Examples
        --------
        With ``r`` from the module example:

        >>> r.calibration(n_resamples=199)["verdict"].tolist()
        ['miscalibrated (p = 0.005)', 'miscalibrated (p = 0.005)']
        >>> r.calibration(n_resamples=199)["method"].tolist()
        ['consistency resampling', 'consistency resampling']
        """
        from measurelab.inference.calibration import calibration_table

        if hasattr(self._design, "labels"):
            raise MeasurelabError("calibration() tests binary probabilities; for k classes "
                                  "see the smece and ece rows")
        if not all(0.0 <= float(s.min()) and float(s.max()) <= 1.0 for s in self._scores):
            raise MeasurelabError("calibration() needs probabilities in [0, 1]; these "
                                  "scores are not")
        # the models' score tables of all the cases: the design's (no sort again)
        tables = getattr(self._design, "tables", None)
        return calibration_table(self._y, dict(zip(self.names, self._scores, strict=True)),
                                 confidence_level=self.level or 0.95, n_resamples=n_resamples,
                                 sample_weight=self._w, random_state=self.random_state,
                                 method=method, progress=self._progress,
                                 tables=(list(tables) if tables is not None
                                         and len(tables) == len(self.names) else None))

    def plot_calibration(self) -> Any:
        """The calibration figure: one panel per model (the reliability curve, its
        consistency band at ``ci``, brier_mcb with its interval, smooth ECE and ICI, the
        test's verdict, a histogram of the predictions); top-label for k classes.

        Examples
        --------
        With ``r`` from the module example:

        >>> len(r.plot_calibration().axes)   # a curve and a histogram per model
        4
        """
        from measurelab.inference.classifiers import _calibration_figure as _cal

        return _cal.figure(self)

    def calibration_ranges(self) -> Any:
        """Where each model's reliability curve leaves its consistency band ("where is
        it off?"): ``model, from, to, observed, largest_gap, cases``.

        Examples
        --------
        With ``r`` from the module example:

        >>> r.calibration_ranges()[["model", "from", "to", "observed"]].values[:2].tolist()
        [['a', 0.3, 0.4, 'below predicted'], ['a', 0.7, 0.7, 'above predicted']]
        """
        from measurelab.inference.classifiers import _calibration_figure as _cal

        return _cal.calibration_ranges(self)

    # ----------------------------------------------------------- verdicts etc.
    def verdicts(self) -> Any:
        """Sokolova's likelihood verdict (ρ+, ρ−) and both DP bands for each pair.

        Examples
        --------
        With ``r`` from the module example:

        >>> r.verdicts().loc[0, "verdict"]
        'A superior overall'
        """

        import pandas as pd

        from measurelab.measures.likelihood import dp

        rows = []
        for a, b in combinations(range(len(self.names)), 2):
            ca, cb = self._stats[a].counts, self._stats[b].counts
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                da, db = float(dp(ca)), float(dp(cb))
                v = likelihood_verdict(ca, cb)
            rows.append({"a": self.names[a], "b": self.names[b], "verdict": v,
                         "dp_a": da, "dp_b": db, "dp_band_a": dp_band(da),
                         "dp_band_b": dp_band(db)})
        return pd.DataFrame(rows, columns=["a", "b", "verdict", "dp_a", "dp_b", "dp_band_a",
                                           "dp_band_b"])

    def preferences(self) -> Any:
        """Which model each measure prefers and whether significantly: where measures
        disagree.

        Columns: ``measure, direction, prefers, value, runner_up, p_holm, significant,
        beats``. ``p_holm`` is the Holm-adjusted p of the preferred model against the
        runner-up, ``significant`` whether it is below 1 − ci, and ``beats`` lists every
        model the preferred one is significantly better than. ``prefers`` is '' when the
        best value is tied. The same facts under names that say what they compare (issue
        33): ``p_holm_vs_runner_up`` (= ``p_holm``), ``better_than_runner_up``
        (= ``significant``) and ``significantly_better_than`` (= ``beats``).

        Examples
        --------
        With ``r`` from the module example:

        >>> r.preferences()[["measure", "prefers", "significant"]].values.tolist()
        [['acc', 'a', True], ['auc', 'a', True], ['brier', 'a', True]]
        """
        import pandas as pd

        return pd.DataFrame(_pairs.preference_rows(self),
                            columns=["measure", "direction", "prefers", "value", "runner_up",
                                     "p_holm", "significant", "beats", *_PREFERENCE_COLUMNS])

    # -------------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"models": {name: {measure: value}}}`` without intervals; with
        them ``{"models": {name: {measure: {"value", "lo", "hi", "method"}}}, "pairs": [...],
        "verdicts": [...]}`` (AUC adds ``"se"``, AUC pairs ``"se"`` and ``"z"``).
        NaN becomes ``None`` (JSON null); infinities the strings 'inf', '-inf'.

        Examples
        --------
        With ``r`` from the module example:

        >>> d = r.to_dict()
        >>> sorted(d), sorted(d["models"]["a"]["acc"])
        (['models', 'pairs', 'verdicts'], ['hi', 'lo', 'method', 'value'])
        """
        return _report.to_dict(self)

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string (strict: no NaN tokens).

        Examples
        --------
        >>> import warnings
        >>> from measurelab.inference import compare_classifiers
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     r = compare_classifiers([0, 1, 0, 1], {"k": [0.5] * 4}, measures=["auc"],
        ...                             ci_method="delong-logit")
        ...     text = r.to_json()   # DeLong's interval, withheld with 2 cases a class
        >>> text[:67]
        '{"models": {"k": {"auc": {"value": 0.5, "lo": null, "hi": null, "me'
        """
        return _report.to_json(self)

    # ------------------------------------------------------------------ figures
    def curve_bands(self, n_boot: int | None = None, grid: int = 101) -> dict[str, Any]:
        """ROC and PR curves of each model with pointwise percentile bands at ``ci``.

        Curve points come from the score table; the bands from ``min(n_boot, 200)``
        paired replicates drawn with the comparison's ``random_state``, each interpolated
        on a common grid of ``grid`` points.

        Examples
        --------
        With ``r`` from the module example:

        >>> b = r.curve_bands()
        >>> b["grid"].shape, b["roc"]["a"]["lo"].shape
        ((101,), (101,))
        """
        return _report.curve_bands(self, n_boot, grid)

    def plot(self, *, n_boot: int | None = None) -> Any:
        """A matplotlib Figure: ROC and PR curves with bootstrap bands, and, when the scores
        are probabilities, the CORP reliability diagram of every model with its 90%
        consistency band and the distribution of the predictions beneath
        (docs/METHODS.md#reliability-diagram; the
        strip is a second, hidden axis).

        Examples
        --------
        With ``r`` from the module example:

        >>> fig = r.plot()
        >>> [ax.get_title() for ax in fig.axes][:3]
        ['ROC', 'precision–recall', 'reliability (CORP; 95% consistency bands)']
        """
        return _report.plot(self, n_boot=n_boot)

    def plot_intervals(self, measures: Iterable[str] | None = None) -> Any:
        """A forest plot: a row per measure with each model's value and interval (left)
        and each pair's difference with its interval beside zero (right; a filled marker
        when the Holm-adjusted p is below 1 − ci). An end at ±inf or undefined is drawn
        as an arrow.

        Parameters
        ----------
        measures : names of rows, optional
            The rows to draw, in order (default: every row of the comparison).

        Examples
        --------
        With ``r`` from the module example:

        >>> fig = r.plot_intervals()
        >>> len(fig.axes)   # three rows (acc, auc, brier) × values, differences
        6
        """
        return _fig.forest_plot(self, measures)

    def confusion_matrices(self) -> dict[str, Any]:
        """Each model's confusion matrix as a DataFrame (rows: true class, columns:
        predicted class; weighted counts): binary input at the comparison's threshold,
        k classes by arg-max.

        Examples
        --------
        With ``r`` from the module example:

        >>> r.confusion_matrices()["b"].values.tolist()
        [[18.0, 18.0], [6.0, 18.0]]
        """
        return _report.confusion_tables(self)

    def plot_confusion(self) -> Any:
        """A matplotlib Figure with a confusion matrix heat map per model (coloured by the
        share of each true class, counts written in).

        Examples
        --------
        With ``r`` from the module example:

        >>> r.plot_confusion().axes[1].get_title()
        'b (accuracy 0.600)'
        """
        return _fig.confusion_plot(self)

    def net_benefit(self, thresholds: Any = (0.05, 0.1, 0.2, 0.3, 0.5), *,
                    grid: Any = None, references: bool = True) -> Any:
        """Net benefit of every model at ``thresholds`` with intervals, paired differences
        of the models and against treating everyone or no one (Holm-adjusted), and the
        ranges of ``grid`` thresholds over which one is significantly more useful
        (simultaneous bands); from the comparison's own resampling. Binary probabilities
        only: :mod:`measurelab.inference.classifiers.net_benefit`.

        Examples
        --------
        With ``r`` from the module example:

        >>> nb = r.net_benefit([0.2])
        >>> nb.differences()[["a", "b", "diff"]].round(4).values[:3].tolist()
        [['a', 'b', 0.025], ['a', 'treat all', 0.025], ['b', 'treat all', 0.0]]
        """
        from measurelab.inference.classifiers.net_benefit import net_benefit_comparison

        return net_benefit_comparison(self, thresholds, grid=grid, references=references)

    def plot_decision_curve(self, *, thresholds: Any = None, standardized: bool = False,
                            ax: Any = None) -> Any:
        """Decision curves of every model with treat-all and treat-none and pointwise
        bands at ``ci`` from the comparison's own replicates (binary probabilities).

        Examples
        --------
        With ``r`` from the module example:

        >>> r.plot_decision_curve().get_title()
        'decision curve'
        """
        from measurelab.inference.classifiers.net_benefit import plot_decision_curve

        return plot_decision_curve(self, thresholds=thresholds, standardized=standardized,
                                   ax=ax)

    def detectable(self, power: float = 0.8) -> Any:
        """Which differences this test set could detect: for every pair and measure, the
        smallest true difference found with probability ``power`` by the comparison's own
        two-sided test at level 1 − ci (normal approximation from the interval's
        standard error), beside the observed one; :func:`measurelab.inference.power.
        detectable`.

        Examples
        --------
        With ``r`` from the module example:

        >>> r.detectable()[["measure", "detectable"]].round(3).values.tolist()
        [['acc', 0.233], ['auc', 0.201], ['brier', 0.064]]
        """
        from measurelab.inference.power import detectable

        return detectable(self, power)

    def summary(self) -> str:
        """The answer in words: a sentence per pair of models (on which headline measures
        each is significantly better, with the difference, its interval and Holm's p; where
        there is no significant difference), the best model per measure and, for binary
        probabilities, whether each model is consistent with calibrated
        (:meth:`calibration`).

        Examples
        --------
        With ``r`` from the module example:

        >>> print(r.summary())
        a is better than b on acc (+0.3, 95% CI +0.129 to +0.454, p_holm 0.003), auc (+0.188, 95% CI +0.0469 to +0.328, p_holm 0.01) and brier (−0.113, 95% CI −0.165 to −0.0747, p_holm 0.01).
        Best model per measure: a on acc (0.9, significantly better than b), auc (0.979, significantly better than b) and brier (0.105, significantly better than b).
        Calibration (test by consistency resampling): a miscalibrated (p = 0.004); b miscalibrated (p = 0.001).
        """  # noqa: E501
        return _report.summary(self)

    def to_html(self, path: str | Path, *, title: str = "Comparing classifiers",
                files: bool = True) -> Path:
        """Write the comparison as one self-contained HTML page: first the answer (a
        sentence per pair, the best model per measure, the forest plot of the headline
        measures), then the curves and a confusion matrix per model, then every table,
        collapsed and sortable, with significant tests marked.

        Parameters
        ----------
        path : str or Path
            The page (figures are embedded, so the page alone is complete).
        title : str
            Its heading.
        files : bool, default True
            Also write, beside the page, ``STEM.json`` (:meth:`to_json`) and every figure
            as ``STEM-NAME.png`` (the image the page embeds).

        Examples
        --------
        With ``r`` from the module example:

        >>> import tempfile, pathlib
        >>> p = r.to_html(pathlib.Path(tempfile.mkdtemp()) / "cmp.html", files=False)
        >>> "data:image/png;base64," in p.read_text(), p.with_suffix(".json").exists()
        (True, False)

        (``files=True``, the default, also writes ``cmp.json`` and every figure beside it.)
        """
        return _report.to_html(self, path, title=title, files=files)

    def _repr_html_(self) -> str:
        """A notebook shows the summary and the forest plot."""
        return _report.repr_html(self)
