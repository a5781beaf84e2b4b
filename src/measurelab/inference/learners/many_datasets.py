"""The result of comparing learning algorithms over many data sets
(:func:`~measurelab.inference.learners.compare.compare_learners` with ``datasets=``): every data
set's :class:`~measurelab.inference.learners.one_dataset.LearnerComparison`, and over them
Demšar's ranks (:func:`~measurelab.inference.ranks.friedman.demsar` on the mean fold scores) and
the hierarchical Bayesian model over data sets × folds
(:func:`~measurelab.inference.bayes.bayes_compare`, ``method='hierarchical'``).

Examples
--------
>>> from sklearn.datasets import make_classification
>>> from sklearn.dummy import DummyClassifier
>>> from sklearn.naive_bayes import GaussianNB
>>> from measurelab import compare_learners
>>> data = {f"d{i}": make_classification(n_samples=60, random_state=i) for i in range(3)}
>>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()}, datasets=data,
...                      cv=5, measures=["acc"], progress=False)
>>> r.datasets, r.ranks().avg_ranks.to_dict()
(['d0', 'd1', 'd2'], {'nb': 1.0, 'prior': 2.0})
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from measurelab._util.validation import check_random_state, short_repr
from measurelab.exceptions import MeasurelabError
from measurelab.inference.learners import _runs as _runs
from measurelab.measures.base import Measure
from measurelab.pickling import versioned_pickle

__all__ = ["LearnerComparisonOverDatasets"]


@versioned_pickle
class LearnerComparisonOverDatasets:
    """Several data sets, each cross-validated with the same design and learners.

    Attributes
    ----------
    comparisons : dict {data set: LearnerComparison}
        Each data set's comparison (its own tests, intervals and correlated t).
    names : list of str
        The learners.
    """

    def __init__(self, comparisons: dict[str, Any]) -> None:
        self.comparisons = comparisons
        first = next(iter(comparisons.values()))
        self.names: list[str] = list(first.names)
        self.level: float = first.level
        self.method: str = first.method

    @property
    def datasets(self) -> list[str]:
        """The data sets' names."""
        return list(self.comparisons)

    @property
    def measures(self) -> list[str]:
        """The measures of the tables."""
        return next(iter(self.comparisons.values())).measures

    def with_measures(self, measures: Any) -> LearnerComparisonOverDatasets:
        """The same comparison on other measures, from the kept predictions (no refit).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from measurelab import compare_learners
        >>> data = {f"d{i}": make_classification(n_samples=40, random_state=i) for i in range(2)}
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()},
        ...                      datasets=data, cv=4, measures=["acc"], progress=False)
        >>> r.with_measures(["auc"]).ranks().avg_ranks.index.tolist()
        ['nb', 'prior']
        """
        return LearnerComparisonOverDatasets({k: c.with_measures(measures)
                                              for k, c in self.comparisons.items()})

    def _measure(self, measure: Any) -> Measure:
        from measurelab.measures.base import registry

        if measure is None:
            measure = self.measures[0]
        try:
            m = registry.resolve(measure)[0]
        except MeasurelabError:
            m = None
        if m is None or m.name not in self.measures:
            raise MeasurelabError(f"measure {short_repr(measure)} is not a measure of this "
                                  f"comparison ({', '.join(self.measures)})")
        return m

    def _concat(self, tables: str) -> Any:
        import pandas as pd

        parts = []
        for name, c in self.comparisons.items():
            t = getattr(c, tables)()
            t.insert(0, "dataset", name)
            parts.append(t)
        return pd.concat(parts, ignore_index=True)

    def fold_scores(self) -> Any:
        """Every data set's fold scores: ``dataset, learner, measure, repeat, fold, value,
        n_train, n_test`` (what ``measurelab ranks`` reads as a fold-level file).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from measurelab import compare_learners
        >>> data = {f"d{i}": make_classification(n_samples=40, random_state=i) for i in range(2)}
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()},
        ...                      datasets=data, cv=4, measures=["acc"], progress=False)
        >>> r.fold_scores().shape
        (16, 8)
        """
        return self._concat("fold_scores")

    def values(self) -> Any:
        """The mean fold scores: rows (data set, measure), columns learners.

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from measurelab import compare_learners
        >>> data = {f"d{i}": make_classification(n_samples=40, random_state=i) for i in range(2)}
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()},
        ...                      datasets=data, cv=4, measures=["acc"], progress=False)
        >>> r.values().index.names
        FrozenList(['dataset', 'measure'])
        """
        import pandas as pd

        return pd.concat({k: c.values() for k, c in self.comparisons.items()},
                         names=["dataset"])

    def intervals(self) -> Any:
        """Every data set's :meth:`LearnerComparison.intervals`, a ``dataset`` column
        first.

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from measurelab import compare_learners
        >>> data = {f"d{i}": make_classification(n_samples=40, random_state=i) for i in range(2)}
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()},
        ...                      datasets=data, cv=4, measures=["acc"], progress=False)
        >>> r.intervals()[["dataset", "learner"]].values.tolist()
        [['d0', 'nb'], ['d0', 'prior'], ['d1', 'nb'], ['d1', 'prior']]
        """
        return self._concat("intervals")

    def tests(self) -> Any:
        """Every data set's :meth:`LearnerComparison.tests`, a ``dataset`` column first;
        Holm's adjustment is within each data set (each is its own question).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from measurelab import compare_learners
        >>> data = {f"d{i}": make_classification(n_samples=40, random_state=i) for i in range(2)}
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()},
        ...                      datasets=data, cv=4, measures=["acc"], progress=False)
        >>> r.tests()[["dataset", "a", "b", "method"]].values.tolist()
        [['d0', 'nb', 'prior', 'corrected-t'], ['d1', 'nb', 'prior', 'corrected-t']]
        """
        return self._concat("tests")

    def table(self, measure: str | None = None) -> Any:
        """Data sets × learners: the mean fold score of ``measure`` (default the first).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from measurelab import compare_learners
        >>> data = {f"d{i}": make_classification(n_samples=40, random_state=i) for i in range(2)}
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()},
        ...                      datasets=data, cv=4, measures=["acc"], progress=False)
        >>> r.table().shape
        (2, 2)
        """
        import pandas as pd

        m = self._measure(measure)
        rows = {k: c.values().loc[m.name] for k, c in self.comparisons.items()}
        return pd.DataFrame(rows).T.rename_axis("dataset")[self.names]

    def ranks(self, measure: str | None = None, *, alpha: float = 0.05) -> Any:
        """Demšar's analysis of ``measure`` (default the first) over the data sets: average
        ranks, Friedman and Iman–Davenport, Nemenyi's critical difference
        (:func:`~measurelab.inference.ranks.friedman.demsar` on :meth:`table`).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from measurelab import compare_learners
        >>> data = {f"d{i}": make_classification(n_samples=40, random_state=i) for i in range(2)}
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()},
        ...                      datasets=data, cv=4, measures=["acc"], progress=False)
        >>> r.ranks("acc").n_datasets
        2
        """
        from measurelab.inference.ranks.friedman import demsar

        m = self._measure(measure)
        return demsar(self.table(m.name), higher_is_better=m.higher_is_better, alpha=alpha)

    def bayes(self, rope: float | Mapping[str, float], *, method: str = "hierarchical",
              threshold: float = 0.95, n_samples: int | None = None,
              random_state: Any = 0,
              **kwargs: Any) -> Any:
        """Bayesian verdicts of every pair: over data sets × folds by the hierarchical
        model (default), or per data set by the correlated t-test.

        Parameters
        ----------
        rope : float or mapping {measure: float}
            Half-width of the region of practical equivalence, in the measure's units.
        method : {'hierarchical', 'correlated-t'}, default 'hierarchical'
            'hierarchical' (needs the optional extra ``bayes``: NumPyro) gives one row per
            pair and measure, the probabilities for a new data set like these;
            'correlated-t' one row per data set, pair and measure (a ``dataset`` column).
        threshold, n_samples, random_state
            As :meth:`LearnerComparison.bayes`; one generator seeded once serves every
            pair.
        **kwargs
            Passed on to :func:`~measurelab.inference.bayes.bayes_compare` (``chains``,
            ``n_warmup``; hierarchical).

        Returns
        -------
        DataFrame
            ``a, b, measure, p_a_better, p_rope, p_b_better, verdict`` (after ``dataset``
            for 'correlated-t').

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from measurelab import compare_learners
        >>> data = {f"d{i}": make_classification(n_samples=40, random_state=i) for i in range(2)}
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()},
        ...                      datasets=data, cv=4, measures=["acc"], progress=False)
        >>> r.bayes(0.01, method="correlated-t")["verdict"].tolist()
        ['a better', 'a better']
        """
        import pandas as pd

        from measurelab.inference.bayes import verdict_of

        if not isinstance(method, str) or method not in ("hierarchical", "correlated-t"):
            raise MeasurelabError("method must be 'hierarchical' (over data sets × folds) or "
                                  f"'correlated-t' (per data set), got {short_repr(method)}")
        rs = check_random_state(random_state)
        if method == "correlated-t":
            rng = np.random.default_rng(rs)
            parts = []
            for name, c in self.comparisons.items():
                t = c.bayes(rope, threshold=threshold, n_samples=n_samples, random_state=rng)
                t.insert(0, "dataset", name)
                parts.append(t)
            return pd.concat(parts, ignore_index=True)
        verdict_of(0.0, 0.0, 0.0, threshold=threshold)
        first = next(iter(self.comparisons.values()))
        ropes = first._ropes(rope)
        runs = self._common_runs()
        return _runs.posteriors(self.names, first._measures, self._fold_matrix, ropes,
                                method="hierarchical", runs=runs, threshold=threshold,
                                rng=np.random.default_rng(rs), n_samples=n_samples, **kwargs)

    def _common_runs(self) -> int:
        """The repetitions, the same k-fold design on every data set (the hierarchical
        model's data sets × folds)."""
        shapes = {(c.n_repeats, c.n_folds) for c in self.comparisons.values()}
        (r, k), *more = shapes
        if more or k is None:
            raise MeasurelabError("the hierarchical model needs the same k-fold design on "
                                  "every data set; the designs are "
                                  + "; ".join(c.design() for c in self.comparisons.values()))
        return int(r)

    def _fold_matrix(self, a: int, measure: str) -> np.ndarray:
        """Data sets × folds of learner ``a``'s fold scores of ``measure``."""
        rows = []
        for c in self.comparisons.values():
            j = c.measures.index(measure)
            rows.append(c._scores(a)[:, j])
        return np.vstack(rows)

    # ---------------------------------------------------------- words and pages
    def summary(self) -> str:
        """The answer in words, per measure: Demšar's ranking and Friedman's test over the
        data sets, and for every pair on how many data sets each learner is significantly
        better (the data set's own tests, Holm within the data set).

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from measurelab import compare_learners
        >>> data = {f"d{i}": make_classification(n_samples=60, random_state=i) for i in range(3)}
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()},
        ...                      datasets=data, cv=5, measures=["acc"], progress=False)
        >>> print(r.summary().splitlines()[-1])
        acc, per data set: nb is significantly better than prior on 2 of 3 data sets, worse on none.
        """
        from measurelab.inference.learners._report import datasets_summary

        return datasets_summary(self)

    def plot(self, measure: str | None = None) -> Any:
        """The critical-difference diagram of ``measure`` (default the first): a matplotlib
        Figure.

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from measurelab import compare_learners
        >>> data = {f"d{i}": make_classification(n_samples=40, random_state=i) for i in range(2)}
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()},
        ...                      datasets=data, cv=4, measures=["acc"], progress=False)
        >>> len(r.plot().axes)
        1
        """
        m = self._measure(measure)
        return self.ranks(m.name).plot(title=f"Critical difference: {m.name}").figure

    def to_html(self, path: str | Path | None = None, *,
                title: str = "Comparing learning algorithms over data sets",
                rope: float | None = 0.01, files: bool = True) -> Any:
        """One page for all the data sets, in the shared measurelab look: the answer in
        words, a critical-difference diagram per measure, the hierarchical model's verdicts
        (with ``rope``; None leaves them out), then every table collapsed. Written to
        ``path`` (with the fold scores as ``STEM-folds.csv`` when ``files``), or returned
        as text when ``path`` is None.

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from measurelab import compare_learners
        >>> data = {f"d{i}": make_classification(n_samples=40, random_state=i) for i in range(2)}
        >>> r = compare_learners({"nb": GaussianNB(), "prior": DummyClassifier()},
        ...                      datasets=data, cv=4, measures=["acc"], progress=False)
        >>> page = r.to_html(rope=None)
        >>> "<h2>acc</h2>" in page and "Tests per data set" in page
        True
        """
        from measurelab.inference.learners._report import datasets_html

        return datasets_html(self, path, title=title, rope=rope, files=files)

    def _repr_html_(self) -> str:
        """A notebook shows the summary and the first measure's CD diagram."""
        from measurelab.inference.learners._report import datasets_repr_html

        return datasets_repr_html(self)

    def __repr__(self) -> str:
        """What was compared, the answer, then where the tables are (what ``print()``
        shows)."""
        from measurelab.inference.learners._report import datasets_text

        return datasets_text(self)
