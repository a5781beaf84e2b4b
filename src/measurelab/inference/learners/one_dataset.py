"""The result of comparing learning algorithms on one data set
(:func:`~measurelab.inference.learners.compare.compare_learners`): the fold scores, the values with
their intervals, the tests of every pair, the Bayesian correlated t, words, a figure and a
page — all computed on first use from the fold predictions the run kept.

Examples
--------
>>> from sklearn.datasets import make_classification
>>> from sklearn.dummy import DummyClassifier
>>> from sklearn.naive_bayes import GaussianNB
>>> from measurelab import compare_learners
>>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
>>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y, cv=5,
...                      measures=["acc"], progress=False)
>>> type(r).__name__, r.n_repeats, r.n_folds
('LearnerComparison', 1, 5)
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Iterable, Mapping
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from measurelab._util.validation import check_random_state
from measurelab.exceptions import MeasurelabError
from measurelab.inference.learners import _runs as runs
from measurelab.inference.learners import cvstats
from measurelab.measures.base import Measure
from measurelab.pickling import versioned_pickle

__all__ = ["NOT_NESTED", "LearnerComparison"]

#: a note on rows where nested CV was asked for but does not apply
NOT_NESTED = "nested CV applies to means over cases (acc, err, brier, mxe): corrected t"


@versioned_pickle
class LearnerComparison:
    """The result of :func:`compare_learners` on one data set; every table is a pandas
    DataFrame, computed on first use from the kept fold predictions.

    Attributes
    ----------
    names : list of str
        The learners.
    level : float
        The confidence level.
    method : str
        'corrected-t', '5x2cv' or 'nested-cv'.
    dataset : str
        The data set's name ('' for a single data set).
    """

    def __init__(self, *, names: list[str], estimators: list[str], target: runs.Target,
                 splits: runs.Splits, predictions: list[runs.Predictions],
                 measures: list[Measure], level: float, method: str, dataset: str = ""
                 ) -> None:
        self.names = names
        self.estimators = estimators
        self.level = level
        self.method = method
        self.dataset = dataset
        self._target = target
        self._splits = splits
        self._preds = predictions
        self._measures = measures
        self._names_m = [m.name for m in measures]
        self._cache: dict[Any, Any] = {}

    # ------------------------------------------------------------------ the design
    @property
    def measures(self) -> list[str]:
        """The measures of the tables."""
        return list(self._names_m)

    @property
    def n_repeats(self) -> int:
        """Repetitions of cross-validation (read from the splits)."""
        return self._splits.n_repeats

    @property
    def n_folds(self) -> int | None:
        """Folds per repetition (None when they differ, or for train/test splits that are
        not folds)."""
        return self._splits.n_folds if self._splits.partition else None

    def design(self) -> str:
        """The design in words.

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from measurelab import compare_learners
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from sklearn.dummy import DummyClassifier
        >>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y,
        ...                      cv="5x2", measures=["acc"], progress=False)
        >>> r.design()
        '2-fold cross-validation repeated 5 times (10 folds) of 80 cases in 2 classes'
        """
        return (f"{self._splits.describe()} of {self._splits.n} cases in "
                f"{len(self._target.labels)} classes")

    def with_measures(self, measures: Iterable[str | Measure]) -> LearnerComparison:
        """The same comparison on other measures, from the kept predictions (no refit).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from measurelab import compare_learners
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from sklearn.dummy import DummyClassifier
        >>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y,
        ...                      cv="5x2", measures=["acc"], progress=False)
        >>> r.with_measures(["f1", "mcc"]).measures
        ['f1', 'mcc']
        """
        kinds = {n: p.kind for n, p in zip(self.names, self._preds, strict=True)}
        chosen = runs.choose_measures(measures, kinds, self._target)
        return LearnerComparison(names=self.names, estimators=self.estimators,
                                 target=self._target, splits=self._splits,
                                 predictions=self._preds, measures=chosen, level=self.level,
                                 method=self.method, dataset=self.dataset)

    # --------------------------------------------------------------- fold scores
    def _scores(self, a: int) -> np.ndarray:
        """(splits, measures) fold scores of learner ``a`` (kept per measure, so a
        comparison on other measures computes only what it lacks)."""
        pr = self._preds[a]
        todo = [m for m in self._measures if m.name not in pr.scores]
        if todo:
            vals = runs.fold_scores(pr, self._splits, self._target, todo)
            runs.warn_undefined_folds(vals, self.names[a], todo,
                                      f"data set {self.dataset!r}: " if self.dataset else "")
            for j, m in enumerate(todo):
                pr.scores[m.name] = vals[:, j]
        return np.column_stack([pr.scores[k] for k in self._names_m])

    def fold_scores(self) -> Any:
        """Every learner's score on every fold: a tidy table ``learner, measure, repeat,
        fold, value, n_train, n_test`` (repetitions and folds count from 0).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from measurelab import compare_learners
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from sklearn.dummy import DummyClassifier
        >>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y,
        ...                      cv="5x2", measures=["acc"], progress=False)
        >>> r.fold_scores().groupby("learner").size().to_dict()
        {'nb': 10, 'prior': 10}
        """
        import pandas as pd

        sp = self._splits
        parts = []
        for a, name in enumerate(self.names):
            S = self._scores(a)
            for j, m in enumerate(self._names_m):
                parts.append(pd.DataFrame({
                    "learner": name, "measure": m, "repeat": sp.repeat, "fold": sp.fold,
                    "value": S[:, j], "n_train": sp.n_train, "n_test": sp.n_test}))
        return pd.concat(parts, ignore_index=True)

    def values(self) -> Any:
        """The mean fold score of every learner: rows = measures, columns = learners.

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from measurelab import compare_learners
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y,
        ...                      cv="5x2", measures=["acc"], progress=False)
        >>> r.values().round(3).to_dict()
        {'nb': {'acc': 0.947}, 'prior': {'acc': 0.525}}
        """
        import pandas as pd

        vals = np.column_stack([self._scores(a).mean(axis=0)
                                for a in range(len(self.names))])
        return pd.DataFrame(vals, index=pd.Index(self._names_m, name="measure"),
                            columns=self.names)

    # ------------------------------------------------------------------- methods
    def _nested(self, name: str) -> bool:
        return self.method == "nested-cv" and name in runs.MEAN_OVER_CASES

    def _case_arrays(self, a: int, name: str) -> tuple[np.ndarray, np.ndarray]:
        """Learner ``a``'s per-case values of measure ``name``: (R, n) under the ordinary
        CV models and (R, n, K) under the inner ones (nested CV)."""
        key = ("cases", a, name)
        if key not in self._cache:
            pr, sp = self._preds[a], self._splits
            assert pr.inner is not None  # nested CV: the inner models' predictions too
            outer = np.empty((sp.n_repeats, sp.n))
            for s, (test, r) in enumerate(zip(sp.tests, sp.repeat, strict=True)):
                # every outer fold is predicted (no None left)
                outer[r, test] = runs.case_values(name, pr.outer[s],  # type: ignore[arg-type]
                                                  pr.kind, self._target, test)
            inner = np.stack([runs.case_values(name, pr.inner[r], pr.kind, self._target)
                              for r in range(sp.n_repeats)])
            self._cache[key] = (outer, inner)
        return self._cache[key]

    def _nested_result(self, a: int, b: int | None, name: str) -> cvstats.NestedCVResult:
        oa, ia = self._case_arrays(a, name)
        if b is not None:
            ob, ib = self._case_arrays(b, name)
            oa, ia = oa - ob, ia - ib
        return cvstats.nested_cv_interval(oa, ia, self._splits.fold_ids(), ci=self.level)

    def intervals(self) -> Any:
        """Every learner's value with its interval: ``learner, measure, value, lo, hi,
        method, se, note``.

        The corrected t's interval is around the mean fold score (``value``); a nested CV
        row's ``value`` is the nested estimate, corrected for the smaller training sets of
        the folds, which is what its interval is centred on. ``se`` is the standard error
        the interval uses.

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from measurelab import compare_learners
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y,
        ...                      cv="5x2", measures=["acc"], progress=False)
        >>> r.intervals()[["learner", "value", "lo", "hi", "method"]].round(3).values.tolist()
        [['nb', 0.947, 0.896, 0.999, 'corrected-t'], ['prior', 0.525, 0.525, 0.525, 'corrected-t']]
        """
        import pandas as pd

        if "intervals" not in self._cache:
            ratio = self._splits.test_train_ratio
            rows = []
            for a, name in enumerate(self.names):
                S = self._scores(a)
                for j, m in enumerate(self._names_m):
                    note = "" if self.method != "nested-cv" or self._nested(m) else NOT_NESTED
                    if self._nested(m):
                        nr = self._nested_result(a, None, m)
                        row = (nr.estimate, nr.lo, nr.hi, "nested-cv", nr.se)
                    elif np.isfinite(S[:, j]).all():
                        r = cvstats.corrected_t(S[:, j], test_train_ratio=ratio, ci=self.level)
                        row = (r.estimate, r.lo, r.hi, "corrected-t", r.se)
                    else:
                        row = (float(np.mean(S[:, j])), math.nan, math.nan, "corrected-t",
                               math.nan)
                    rows.append((name, m, *row, note))
            self._cache["intervals"] = pd.DataFrame(rows, columns=[
                "learner", "measure", "value", "lo", "hi", "method", "se", "note"])
        return self._cache["intervals"].copy()

    def _methods(self, name: str) -> list[str]:
        if self.method == "5x2cv":
            return ["5x2cv-paired-t", "5x2cv-combined-F"]
        if self._nested(name):
            return ["nested-cv"]
        return ["corrected-t"]

    def _pair_test(self, a: int, b: int, j: int, method: str) -> dict[str, Any]:
        name = self._names_m[j]
        d = self._scores(a)[:, j] - self._scores(b)[:, j]
        diff = float(np.mean(d))
        nan = dict(statistic=math.nan, df=math.nan, p=math.nan, lo=math.nan, hi=math.nan,
                   centre=math.nan)
        if method == "nested-cv":
            nr = self._nested_result(a, b, name)
            return dict(statistic=nr.estimate / nr.se if nr.se > 0 else math.nan,
                        df=math.inf, p=nr.pvalue, lo=nr.lo, hi=nr.hi, diff=nr.estimate,
                        centre=nr.estimate)
        if not np.isfinite(d).all():
            return dict(nan, diff=diff)
        if method == "corrected-t":
            r = cvstats.corrected_t(d, test_train_ratio=self._splits.test_train_ratio,
                                    ci=self.level)
        else:
            sp = self._splits
            grid = np.empty((5, 2))
            grid[sp.repeat, sp.fold] = d
            fn = (cvstats.paired_t_5x2cv if method == "5x2cv-paired-t"
                  else cvstats.combined_f_5x2cv)
            r = fn(grid, ci=self.level)
        return dict(statistic=r.statistic, df=r.df, p=r.pvalue, lo=r.lo, hi=r.hi, diff=diff,
                    centre=r.estimate)

    def tests(self) -> Any:
        """A test of every pair of learners on every measure: ``a, b, measure, diff, lo,
        hi, p, p_holm, method, centre, statistic, df, note`` (diff = a − b, the mean fold
        difference; a nested CV row's the nested estimate), Holm's adjustment over every
        row.

        ``lo``/``hi`` is the interval that inverts the row's test: 0 lies outside it
        exactly when p < 1 − ci. ``centre`` is what the statistic and the interval are
        centred on: the mean fold difference (``diff``) for the corrected t and the 5×2cv
        combined F, the nested estimate for nested CV, and the first fold's difference for
        the 5×2cv paired t (Dietterich's statistic uses that one alone; its ``diff`` is
        still the mean of the ten).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from measurelab import compare_learners
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y,
        ...                      cv=5, measures=["acc"], progress=False)
        >>> t = r.tests()
        >>> t[["a", "b", "method"]].values.tolist(), bool(t.loc[0, "p_holm"] < 0.05)
        ([['nb', 'prior', 'corrected-t']], True)
        """
        import pandas as pd

        from measurelab.inference.intervals import holm

        if "tests" not in self._cache:
            rows = []
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                for a, b in combinations(range(len(self.names)), 2):
                    for j, m in enumerate(self._names_m):
                        note = ("" if self.method != "nested-cv" or self._nested(m)
                                else NOT_NESTED)
                        for meth in self._methods(m):
                            r = self._pair_test(a, b, j, meth)
                            rows.append({"a": self.names[a], "b": self.names[b],
                                         "measure": m, "diff": r["diff"], "lo": r["lo"],
                                         "hi": r["hi"], "p": r["p"], "method": meth,
                                         "centre": r["centre"],
                                         "statistic": r["statistic"], "df": r["df"],
                                         "note": note})
            adj: Any = holm([r["p"] for r in rows]) if rows else []
            for r, q in zip(rows, adj, strict=True):
                r["p_holm"] = float(q)
            self._cache["tests"] = pd.DataFrame(rows, columns=[
                "a", "b", "measure", "diff", "lo", "hi", "p", "p_holm", "method", "centre",
                "statistic", "df", "note"])
        return self._cache["tests"].copy()

    def bayes(self, rope: float | Mapping[str, float], *, threshold: float = 0.95,
              n_samples: int | None = None, random_state: Any = 0) -> Any:
        """The Bayesian correlated t-test (Benavoli et al. 2017) of every pair on every
        measure, from the fold scores, with the repetitions read from the splits.

        Parameters
        ----------
        rope : float or mapping {measure: float}
            Half-width of the region of practical equivalence in the measure's units
            (e.g. 0.01 for accuracy or AUC); a mapping gives each measure its own.
        threshold : float, default 0.95
            The probability a verdict needs.
        n_samples, random_state
            As :func:`~measurelab.inference.bayes.bayes_compare` (the probabilities come
            from the t distribution; the draws only make its sample).

        Returns
        -------
        DataFrame
            ``a, b, measure, p_a_better, p_rope, p_b_better, verdict``: "better" in the
            measure's direction (lower is better for a loss).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from measurelab import compare_learners
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y,
        ...                      cv=5, measures=["acc"], progress=False)
        >>> r.bayes(rope=0.01)[["a", "b", "measure", "verdict"]].values.tolist()
        [['nb', 'prior', 'acc', 'a better']]
        """
        from measurelab.inference.bayes import verdict_of

        ropes = self._ropes(rope)
        verdict_of(0.0, 0.0, 0.0, threshold=threshold)
        sp = self._splits
        if not (sp.partition and sp.n_folds is not None and sp.n_folds >= 2):
            raise MeasurelabError(
                "the correlated t-test needs k-fold cross-validation with the same k in every "
                f"repetition; the splits are {sp.describe()}")
        rng = np.random.default_rng(check_random_state(random_state))
        return runs.posteriors(self.names, self._measures,
                               lambda a, m: self._scores(a)[:, self._names_m.index(m)],
                               ropes, method="correlated-t", runs=sp.n_repeats,
                               threshold=threshold, rng=rng, n_samples=n_samples)

    def _ropes(self, rope: Any) -> dict[str, float]:
        if isinstance(rope, Mapping):
            missing = [m for m in self._names_m if m not in rope]
            if missing:
                raise MeasurelabError(f"rope gives no value for {missing[0]!r} (measures: "
                                      f"{', '.join(self._names_m)})")
            return {m: rope[m] for m in self._names_m}
        return dict.fromkeys(self._names_m, rope)

    # ----------------------------------------------------------- words and pages
    def summary(self) -> str:
        """The answer in words: the design, then a sentence per pair of learners (on which
        measures each is significantly better after Holm's adjustment, with the difference,
        its interval and the method; where there is no significant difference).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from measurelab import compare_learners
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y,
        ...                      cv=5, measures=["acc"], progress=False)
        >>> print(r.summary())
        2 learners, 5-fold cross-validation of 80 cases in 2 classes.
        nb is better than prior on acc (+0.425, 95% CI +0.273 to +0.577, corrected t, p_holm 0.0015).
        """  # noqa: E501
        from measurelab.inference.learners._report import summary

        return summary(self)

    def plot(self) -> Any:
        """A matplotlib Figure: per measure, every learner's fold scores with its mean and
        interval (left) and every pair's difference with its interval beside zero
        (right; filled when significant after Holm's adjustment).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from measurelab import compare_learners
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y,
        ...                      cv=5, measures=["acc", "auc"], progress=False)
        >>> len(r.plot().axes)
        4
        """
        from measurelab.inference.learners._report import plot

        return plot(self)

    def to_html(self, path: str | Path | None = None, *,
                title: str = "Comparing learning algorithms", rope: float | None = 0.01,
                files: bool = True) -> Any:
        """One page in the shared measurelab look: the answer in words, the figure, the
        Bayesian verdicts (with ``rope``; None leaves them out), then every table
        collapsed. Written to ``path`` (with ``STEM.json``, the fold scores as
        ``STEM-folds.csv`` and the figure, the PNG the page embeds, beside it when
        ``files``), or returned as text when ``path`` is None.

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from measurelab import compare_learners
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y,
        ...                      cv=5, measures=["acc"], progress=False)
        >>> page = r.to_html()
        >>> page.startswith("<!DOCTYPE html>") and "Bayesian" in page
        True
        """
        from measurelab.inference.learners._report import to_html

        return to_html(self, path, title=title, rope=rope, files=files)

    def _repr_html_(self) -> str:
        """A notebook shows the summary and the figure."""
        from measurelab.inference.learners._report import repr_html

        return repr_html(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the design, the learners, ``intervals`` and ``tests`` as lists of
        records (NaN as None).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from measurelab import compare_learners
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X, y = make_classification(n_samples=80, class_sep=2, random_state=0)
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, X, y,
        ...                      cv=5, measures=["acc"], progress=False)
        >>> sorted(r.to_dict())
        ['design', 'intervals', 'learners', 'level', 'method', 'n_folds', 'n_repeats', 'tests']
        """
        from measurelab.jsonable import to_jsonable

        return to_jsonable({
            "design": self.design(), "n_repeats": self.n_repeats, "n_folds": self.n_folds,
            "method": self.method, "level": self.level,
            "learners": dict(zip(self.names, self.estimators, strict=True)),
            "intervals": self.intervals().to_dict("records"),
            "tests": self.tests().to_dict("records")})

    def to_json(self) -> str:
        """:meth:`to_dict` as strict JSON (no NaN tokens)."""
        return json.dumps(self.to_dict(), allow_nan=False)

    def __repr__(self) -> str:
        """What was compared, the answer, then where the tables are (what ``print()``
        shows)."""
        from measurelab.inference.learners._report import comparison_text

        return comparison_text(self)
