"""Comparing learning algorithms by cross-validation: from estimators and data to a verdict.

:func:`compare_learners` runs the cross-validation of several scikit-learn estimators on
one data set (or on many), keeps every fold's predictions, and returns a
:class:`LearnerComparison`: the fold scores, each learner's value with an interval, a test
of every pair with Holm's adjustment, the Bayesian correlated t posterior of every pair, a
summary in words, a figure and a page. Over many data sets
(:class:`LearnerComparisonOverDatasets`) it adds Demšar's ranks and the hierarchical
Bayesian model over data sets × folds.

The methods hold their level (:mod:`measurelab.inference.learners.cvstats`; the simulation in
``docs/learners_study.md``): the corrected repeated k-fold t by default, both 5×2cv tests
for Dietterich's design (``cv='5x2'``), nested cross-validation on request
(``method='nested-cv'``, which refits). The plain t over folds, which treats overlapping
training sets as independent, is not offered.

Examples
--------
>>> from sklearn.datasets import make_classification
>>> from sklearn.linear_model import LogisticRegression
>>> from sklearn.naive_bayes import GaussianNB
>>> X, y = make_classification(n_samples=120, random_state=0)
>>> r = compare_learners({"lr": LogisticRegression(), "nb": GaussianNB()}, X, y, cv="5x2",
...                      measures=["acc"], progress=False)
>>> r.tests()[["a", "b", "measure", "method"]].values.tolist()
[['lr', 'nb', 'acc', '5x2cv-paired-t'], ['lr', 'nb', 'acc', '5x2cv-combined-F']]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from measurelab._util.threads import check_n_jobs
from measurelab._util.validation import check_random_state, short_repr
from measurelab._util.words import counted
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference._base import check_level, model_names
from measurelab.inference.learners import _runs as runs
from measurelab.inference.learners.many_datasets import LearnerComparisonOverDatasets
from measurelab.inference.learners.one_dataset import LearnerComparison
from measurelab.measures.base import Measure

__all__ = ["METHODS", "LearnerComparison", "LearnerComparisonOverDatasets",
           "compare_learners"]

#: the methods ``method=`` chooses
METHODS: tuple[str, ...] = ("corrected-t", "5x2cv", "nested-cv")


def _check_estimators(estimators: Any) -> tuple[list[str], list[Any]]:
    if not isinstance(estimators, Mapping):
        raise MeasurelabTypeError("estimators must be a mapping {name: scikit-learn "
                                  f"estimator}}, got {type(estimators).__name__}")
    if len(estimators) < 2:
        raise MeasurelabError(f"estimators holds {counted(len(estimators), 'learner')}; a "
                              "comparison needs two or more")
    names = model_names(list(estimators), "estimators")
    ests = list(estimators.values())
    for n, e in zip(names, ests, strict=True):
        if not (hasattr(e, "fit") and hasattr(e, "get_params")
                and (hasattr(e, "predict") or hasattr(e, "predict_proba"))):
            raise MeasurelabTypeError(f"estimators: {n!r} is not a scikit-learn estimator "
                                      f"(no fit/predict), got {short_repr(e)}")
    return names, ests


def _check_method(method: Any) -> str | None:
    if method is None or (isinstance(method, str) and method in METHODS):
        return method
    raise MeasurelabError(f"method must be one of {', '.join(map(repr, METHODS))} or None "
                          f"(the design's default), got {short_repr(method)}")


def _seed(random_state: Any) -> Any:
    """An integer seed for scikit-learn's splitters (None stays None)."""
    if random_state is None or isinstance(random_state, int | np.integer):
        return random_state if random_state is None else int(random_state) % 2**32
    return int(np.random.default_rng(random_state).integers(2**31 - 1))


def compare_learners(
    estimators: Mapping[str, Any],
    X: Any = None,
    y: Any = None,
    *,
    datasets: Mapping[str, tuple[Any, Any]] | None = None,
    cv: Any = None,
    measures: Iterable[str | Measure] | None = None,
    method: str | None = None,
    ci: float = 0.95,
    random_state: Any = 0,
    n_jobs: int | None = None,
    groups: Any = None,
    pos_label: Any = None,
    scheduler: Any = None,
    progress: bool | None = None,
    folder: Any = None,
) -> LearnerComparison | LearnerComparisonOverDatasets:
    """Cross-validate several learning algorithms on the same splits and compare them.

    Parameters
    ----------
    estimators : mapping {name: scikit-learn estimator}
        The learners (unfitted; each fold fits a clone). Give an estimator that draws
        random numbers a ``random_state`` for results that repeat.
    X, y : array-like or DataFrame, and labels
        One data set (two or more classes). Or give ``datasets`` instead.
    datasets : mapping {name: (X, y)}, optional
        Many data sets, each cross-validated with the same design: the result adds
        Demšar's ranks and the hierarchical Bayesian model over data sets × folds.
    cv : None, '5x2', int, scikit-learn splitter or (train, test) pairs
        None: stratified 10-fold cross-validation repeated 10 times (stratified group
        k-fold when ``groups`` are given); '5x2': Dietterich's 5 repetitions of 2-fold;
        an int k: stratified k-fold once; a splitter (its ``split(X, y, groups)`` is
        called) or an iterable of (train, test) index pairs. The repetitions and folds
        are read from the splits (consecutive test sets that cover every case once make a
        repetition), never typed by hand.
    measures : names or Measure objects, optional
        Default: acc, auc and brier (brier when every learner gives probabilities). Any
        registry measure that applies to every learner's predictions.
    method : {'corrected-t', '5x2cv', 'nested-cv'}, optional
        The tests and intervals. Default: both 5×2cv tests (a row each) for a 5 × 2
        design, else the corrected repeated k-fold t. 'nested-cv' refits (an inner
        cross-validation inside every fold: k(k − 1)/2 more fits per repetition and
        learner) and gives nested CV intervals for measures that are means over cases
        (acc, err, brier, mxe); other measures keep the corrected t, and the rows say so.
    ci : float, default 0.95
        Level of the intervals (and of the tests' verdicts in the summary).
    random_state : int, numpy Generator or None, default 0
        Seeds the default splitters (the estimators keep their own).
    n_jobs : int, optional
        Fits at once, through joblib (-1: every CPU).
    groups : array-like, optional
        A group per case: no group is in both a training and a test set (checked for
        every split).
    pos_label : label, optional
        Two classes: the positive one (default the larger of the sorted labels, the
        column scikit-learn's ``predict_proba`` puts last).
    scheduler : str or ``distributed.Client``, optional
        A Dask scheduler's address (``tcp://host:8786``): the fits run on that cluster
        through joblib's Dask backend, with the same results as locally.
    progress : bool, optional
        A progress bar of the fits (default: on a terminal or a periodic line in a log).
    folder : str or Path, optional
        A folder for fold files: each fit's predictions are written there (atomically) as
        soon as the fit finishes, named by a hash of the estimator's parameters, the data
        and the fold's cases, so a run killed mid-way and started again with the same
        folder reads the finished folds instead of refitting them, and gives the same
        result as a run never interrupted. Runs may share a folder (a file is only ever
        read for the same fit).

    Returns
    -------
    LearnerComparison, or LearnerComparisonOverDatasets with ``datasets``

    Raises
    ------
    MeasurelabError
        Fewer than two learners, X and y together with datasets (or neither), a measure a
        learner's predictions cannot give (a probability measure for a learner without
        ``predict_proba``), a split that mixes a group, a method the design cannot run
        ('5x2cv' without 5 × 2 folds; 'nested-cv' without k ≥ 3 folds that cover the data).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = make_classification(n_samples=150, random_state=1)
    >>> r = compare_learners({"lr": LogisticRegression(),
    ...                       "tree": DecisionTreeClassifier(max_depth=3, random_state=0)},
    ...                      X, y, cv=5, progress=False)
    >>> r.fold_scores().columns.tolist()
    ['learner', 'measure', 'repeat', 'fold', 'value', 'n_train', 'n_test']
    >>> r.tests()[["measure", "method"]].values.tolist()
    [['acc', 'corrected-t'], ['auc', 'corrected-t'], ['brier', 'corrected-t']]
    """
    names, ests = _check_estimators(estimators)
    method = _check_method(method)
    level = check_level(ci, "ci")
    n_jobs = check_n_jobs(n_jobs)
    rs = check_random_state(random_state)
    from measurelab.inference.intervals import check_progress

    progress = check_progress(progress)
    if scheduler is not None and not (hasattr(scheduler, "submit") or
                                      (isinstance(scheduler, str) and scheduler.strip())):
        raise MeasurelabError("scheduler must be a Dask scheduler address such as "
                              f"tcp://host:8786 or a distributed.Client, got "
                              f"{short_repr(scheduler)}")
    if datasets is not None:
        if X is not None or y is not None:
            raise MeasurelabError("give X and y, or datasets={name: (X, y)}, not both")
        if groups is not None:
            raise MeasurelabError("groups applies to one data set (X, y); with datasets each "
                                  "data set would need its own")
        items = _check_datasets(datasets)
    else:
        if X is None or y is None:
            raise MeasurelabError("compare_learners needs X and y (or datasets={name: (X, y)})")
        items = [("", (X, y))]
    store = None
    if folder is not None:
        from measurelab.inference.learners._folds import FoldStore

        store = FoldStore(folder)
    kw = dict(cv=cv, measures=measures, method=method, level=level, seed=_seed(rs),
              n_jobs=n_jobs, groups=groups, pos_label=pos_label, scheduler=scheduler,
              progress=progress, store=store)
    results = [_compare_one(names, ests, Xd, yd, dataset=name, **kw)
               for name, (Xd, yd) in items]
    if datasets is None:
        return results[0]
    return LearnerComparisonOverDatasets(dict(zip([n for n, _ in items], results,
                                                  strict=True)))


def _check_datasets(datasets: Any) -> list[tuple[str, tuple[Any, Any]]]:
    if not isinstance(datasets, Mapping):
        raise MeasurelabTypeError("datasets must be a mapping {name: (X, y)}, got "
                                  f"{type(datasets).__name__}")
    if len(datasets) < 2:
        raise MeasurelabError(f"datasets holds {counted(len(datasets), 'data set')}; give X "
                              "and y for one, or two or more here")
    keys = model_names(list(datasets), "datasets")
    out = []
    for k, v in zip(keys, datasets.values(), strict=True):
        if not (isinstance(v, tuple | list) and len(v) == 2):
            raise MeasurelabError(f"datasets: {k!r} must be a pair (X, y), got {short_repr(v)}")
        out.append((k, (v[0], v[1])))
    return out


def _n_rows(X: Any) -> int:
    try:
        return int(X.shape[0]) if hasattr(X, "shape") else len(X)
    except TypeError:
        raise MeasurelabError(f"X must be a table of cases (rows), got {short_repr(X)}") from None


def _compare_one(names: list[str], ests: list[Any], X: Any, y: Any, *, dataset: str,
                 cv: Any, measures: Any, method: str | None, level: float, seed: Any,
                 n_jobs: int, groups: Any, pos_label: Any, scheduler: Any,
                 progress: bool | None, store: Any = None) -> LearnerComparison:
    where = f"data set {dataset!r}: " if dataset else ""
    if not (hasattr(X, "iloc") or hasattr(X, "shape")):
        X = np.asarray(X)  # a list of rows: numpy's indexing
    target = runs.Target.of(y, pos_label, (where or "compare_learners: ").rstrip(": "))
    if _n_rows(X) != target.y.size:
        raise MeasurelabError(f"{where}X has {_n_rows(X)} rows but y has {target.y.size} "
                              "labels")
    kinds = {n: runs.expected_kind(e, target.binary) for n, e in zip(names, ests, strict=True)}
    chosen = runs.choose_measures(measures, kinds, target)
    splits, trains = runs.make_splits(cv, X, target.y, groups, seed)
    if method is None:
        method = "5x2cv" if splits.is_5x2() else "corrected-t"
    if method == "5x2cv" and not splits.is_5x2():
        raise MeasurelabError(f"{where}method='5x2cv' needs 5 repetitions of 2-fold "
                              f"cross-validation (cv='5x2'); the splits are "
                              f"{splits.describe()}")
    nested = method == "nested-cv"
    if nested and not (splits.partition and splits.complete and (splits.n_folds or 0) >= 3):
        raise MeasurelabError(f"{where}method='nested-cv' needs k-fold cross-validation with "
                              f"k >= 3 folds that train on all other cases; the splits are "
                              f"{splits.describe()}")
    plan = runs.Plan(splits, trains)
    tasks = plan.tasks(len(names), nested)
    preds = [runs.Predictions("", [None] * splits.n_splits) for _ in names]
    fid = splits.fold_ids() if nested else None
    desc = f"compare_learners{' ' + dataset if dataset else ''}: fits"
    for t, kind, p in runs.run_tasks(tasks, plan, ests, X, target, n_jobs, scheduler,
                                     progress, desc, store):
        pr = preds[t.a]
        if pr.kind and kind != pr.kind:
            raise MeasurelabError(f"{where}learner {names[t.a]!r} gave {pr.kind} predictions "
                                  f"on one fold and {kind} on another")
        pr.kind = kind
        if t.slot[0] == runs.OUTER:
            pr.outer[t.slot[1]] = p
        else:
            _put_inner(pr, splits, fid, target, t.slot, p)
    runs.check_measures(chosen, {n: p.kind for n, p in zip(names, preds, strict=True)},
                        target)
    return LearnerComparison(names=names, estimators=[repr(e) for e in ests], target=target,
                             splits=splits, predictions=preds, measures=chosen, level=level,
                             method=method, dataset=dataset)


def _put_inner(pr: runs.Predictions, splits: runs.Splits, fid: Any, target: runs.Target,
               slot: tuple[int, ...], p: np.ndarray) -> None:
    """Store an inner fit's predictions (its test cases are folds f1 and f2 in case
    order): a case of fold f1 under slot f2 and vice versa."""
    _, r, f1, f2 = slot
    if pr.inner is None:
        extra = (len(target.labels),) if p.ndim == 2 else ()
        pr.inner = np.full((splits.n_repeats, splits.n, splits.n_folds or 0, *extra), np.nan)
    test = np.flatnonzero((fid[r] == f1) | (fid[r] == f2))
    own = fid[r][test]
    pr.inner[r, test[own == f1], f2] = p[own == f1]
    pr.inner[r, test[own == f2], f1] = p[own == f2]


