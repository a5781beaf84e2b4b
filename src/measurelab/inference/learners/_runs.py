"""The runs behind :func:`~measurelab.inference.learners.compare.compare_learners`: the splits, the
fits (through joblib, on a Dask cluster through joblib's Dask backend), the fold
predictions kept, and the fold scores and per-case losses computed from them.

A run keeps each fold's predictions — probabilities, decision scores or labels, whatever
the estimator offers — and never the data: a measure asked for later is computed from
them without a refit. The fold scores of one repetition of k-fold cross-validation come
from one sorted table of that repetition's predictions, the k folds being k weightings of
its rows (a block, as a bootstrap's replicates are), so every measure of every fold is a
few array operations.

Examples
--------
>>> import numpy as np
>>> s, _ = make_splits(2, np.zeros((6, 1)), np.array([0, 1] * 3), None, 0)
>>> s.n_repeats, s.n_folds, s.partition
(1, 2, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from measurelab._util.validation import short_repr, warn_undefined
from measurelab.exceptions import MeasurelabError
from measurelab.measures.base import Measure, registry
from measurelab.measures.compute import resolve_measures

#: the measures that are means over cases (a loss per case): nested CV applies to them
MEAN_OVER_CASES: tuple[str, ...] = ("acc", "err", "brier", "mxe")
#: the repetitions and folds of the default design (repeated stratified k-fold)
DEFAULT_REPEATS, DEFAULT_FOLDS = 10, 10
#: the default measures: a decision (acc), a ranking (auc), probabilities (brier)
DEFAULT_MEASURES: tuple[str, ...] = ("acc", "auc", "brier")


# ------------------------------------------------------------------------- targets
@dataclass(frozen=True)
class Target:
    """The labels of one data set: the classes (sorted), each case's class index, and for
    two classes the positive one."""

    y: np.ndarray
    labels: tuple[Any, ...]
    yi: np.ndarray
    pos: int = 1

    @property
    def binary(self) -> bool:
        return len(self.labels) == 2

    @property
    def ybin(self) -> np.ndarray:
        return self.yi == self.pos

    @classmethod
    def of(cls, y: Any, pos_label: Any, where: str) -> Target:
        arr = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
        if arr.ndim != 1:
            raise MeasurelabError(f"{where}: y must be 1-d (one label per case), got shape "
                                  f"{arr.shape}")
        if arr.dtype.kind == "f" and np.isnan(arr).any():
            raise MeasurelabError(f"{where}: y holds NaN at case {int(np.argmax(np.isnan(arr)))}"
                                  "; every case needs a label")
        try:
            labels, yi = np.unique(arr, return_inverse=True)
        except TypeError:
            raise MeasurelabError(f"{where}: y mixes labels that cannot be ordered "
                                  f"(e.g. numbers and text): {short_repr(arr[:6].tolist())}"
                                  ) from None
        if labels.size < 2:
            raise MeasurelabError(f"{where}: y holds one class ({short_repr(labels.tolist())}); "
                                  "comparing learners needs at least two")
        labs = tuple(labels.tolist())
        pos = 1
        if pos_label is not None:
            if labels.size != 2:
                raise MeasurelabError(f"{where}: pos_label applies to two classes; y has "
                                      f"{labels.size}")
            if pos_label not in labs:
                raise MeasurelabError(f"{where}: pos_label={short_repr(pos_label)} is not a "
                                      f"label of y; it should be one of {list(labs)}")
            pos = labs.index(pos_label)
        return cls(arr, labs, yi.astype(np.int64), pos)


# -------------------------------------------------------------------------- splits
@dataclass
class Splits:
    """The splits of one data set: test cases per split, sizes, and each split's
    repetition and fold. ``partition``: every repetition's test sets cover every case once
    (k-fold); ``complete``: every split trains on all the cases it does not test."""

    n: int
    tests: list[np.ndarray]
    n_train: np.ndarray
    n_test: np.ndarray
    repeat: np.ndarray
    fold: np.ndarray
    partition: bool
    complete: bool

    @property
    def n_splits(self) -> int:
        return len(self.tests)

    @property
    def n_repeats(self) -> int:
        return int(self.repeat.max()) + 1

    @property
    def n_folds(self) -> int | None:
        """Folds per repetition when every repetition has as many, else None."""
        per = np.bincount(self.repeat)
        return int(per[0]) if (per == per[0]).all() else None

    @property
    def test_train_ratio(self) -> float:
        return float(self.n_test.mean() / self.n_train.mean())

    def is_5x2(self) -> bool:
        return self.partition and self.n_repeats == 5 and self.n_folds == 2

    def fold_ids(self) -> np.ndarray:
        """(R, n): the fold of every case in every repetition (partition designs)."""
        out = np.empty((self.n_repeats, self.n), dtype=np.int64)
        for t, r, f in zip(self.tests, self.repeat, self.fold, strict=True):
            out[r, t] = f
        return out

    def describe(self) -> str:
        if self.partition:
            k = self.n_folds
            folds = f"{k}-fold" if k is not None else "k-fold (unequal k)"
            if self.n_repeats == 1:
                return f"{folds} cross-validation"
            return (f"{folds} cross-validation repeated {self.n_repeats} times "
                    f"({self.n_splits} folds)")
        return f"{self.n_splits} train/test splits"


def _default_splitter(kind: Any, groups: Any, seed: Any) -> Any:
    from sklearn.model_selection import (
        RepeatedStratifiedKFold,
        StratifiedGroupKFold,
        StratifiedKFold,
    )

    k, r = {None: (DEFAULT_FOLDS, DEFAULT_REPEATS), "5x2": (2, 5)}.get(kind, (kind, 1))
    if groups is None:
        if r == 1:
            return StratifiedKFold(k, shuffle=True, random_state=seed)
        return RepeatedStratifiedKFold(n_splits=k, n_repeats=r, random_state=seed)
    rng = np.random.RandomState(seed)
    seeds = rng.randint(0, 2**31 - 1, size=int(r))

    class _Repeated:  # repetitions of StratifiedGroupKFold, each shuffled anew
        def split(self, X: Any, y: Any, g: Any) -> Any:
            for s in seeds:
                yield from StratifiedGroupKFold(k, shuffle=True,
                                                random_state=int(s)).split(X, y, g)

    return _Repeated()


def splitter_of(cv: Any, groups: Any, seed: Any) -> Any:
    """The splitter ``cv`` names: None (repeated stratified 10-fold, 10 repetitions),
    '5x2', an int k (stratified k-fold), a scikit-learn splitter, or an iterable of
    (train, test) index pairs."""
    if cv is None or (isinstance(cv, str) and cv == "5x2"):
        return _default_splitter(cv, groups, seed)
    if isinstance(cv, bool | np.bool_) or isinstance(cv, str):
        raise MeasurelabError(f"cv must be None, '5x2', a number of folds, a scikit-learn "
                              f"splitter or (train, test) index pairs, got {short_repr(cv)}")
    if isinstance(cv, int | np.integer):
        if cv < 2:
            raise MeasurelabError(f"cv={int(cv)} folds: cross-validation needs at least 2")
        return _default_splitter(int(cv), groups, seed)
    return cv


def make_splits(cv: Any, X: Any, y: np.ndarray, groups: Any, seed: Any
                ) -> tuple[Splits, list[np.ndarray | None] | None]:
    """Draw the splits of ``cv`` (see :func:`splitter_of`) and read their design.

    A learner is fitted on a split's training cases in the order the splitter yields them
    (a random forest with a fixed seed grows other trees on the same cases in another
    order), so the fold scores are those of scikit-learn's ``cross_val_score`` on the same
    splitter. A training set is kept only where it is not the rest of the cases in case
    order (scikit-learn's k-fold splitters yield that, and it is rebuilt when the split is
    fitted): the second value holds it per split (None where it is rebuilt), or is None
    when every split's is rebuilt.

    Examples
    --------
    >>> s, trains = make_splits("5x2", np.zeros((8, 1)), np.array([0, 1] * 4), None, 0)
    >>> s.is_5x2(), s.test_train_ratio, trains
    (True, 1.0, None)
    >>> _, trains = make_splits([([3, 2, 1], [0]), ([0, 2, 3], [1])], np.zeros((4, 1)),
    ...                         np.array([0, 1, 0, 1]), None, 0)
    >>> [None if t is None else t.tolist() for t in trains]
    [[3, 2, 1], None]
    """
    n = int(y.size)
    splitter = splitter_of(cv, groups, seed)
    if hasattr(splitter, "split"):
        raw = splitter.split(X, y, groups)
    else:
        try:
            raw = iter(splitter)
        except TypeError:
            raise MeasurelabError(f"cv must be None, '5x2', a number of folds, a scikit-learn "
                                  f"splitter or (train, test) index pairs, got "
                                  f"{short_repr(cv)}") from None
    g = None if groups is None else np.asarray(groups)
    if g is not None and g.shape != (n,):
        raise MeasurelabError(f"groups has shape {g.shape}; expected one group per case ({n})")
    tests: list[np.ndarray] = []
    trains: list[np.ndarray | None] = []
    n_train: list[int] = []
    complete = True
    for i, pair in enumerate(raw):
        train, test = (_indices(part, n, f"split {i + 1}: {name}")
                       for part, name in zip(_pair(pair, i), ("train", "test"), strict=True))
        if np.intersect1d(train, test).size:
            raise MeasurelabError(f"split {i + 1}: case {int(np.intersect1d(train, test)[0])} "
                                  "is in both the training and the test set")
        if g is not None:
            both = np.intersect1d(g[train], g[test])
            if both.size:
                raise MeasurelabError(
                    f"split {i + 1}: group {short_repr(both[0])} is in both the training and "
                    "the test set; give a splitter that keeps groups apart (GroupKFold)")
        rest = train.size + test.size == n
        complete &= rest
        tests.append(test)
        # the rest of the cases in case order is rebuilt when fitted; any other is kept
        trains.append(None if rest and bool((np.diff(train) > 0).all()) else train)
        n_train.append(int(train.size))
    if not tests:
        raise MeasurelabError("cv gave no splits")
    repeat, fold, partition = _design(tests, n)
    return (Splits(n, tests, np.array(n_train), np.array([t.size for t in tests]), repeat,
                   fold, partition, complete),
            None if all(t is None for t in trains) else trains)


def _pair(pair: Any, i: int) -> tuple[Any, Any]:
    try:
        train, test = pair
    except (TypeError, ValueError):
        raise MeasurelabError(f"split {i + 1} of cv is not a (train, test) pair: "
                              f"{short_repr(pair)}") from None
    return train, test


def _indices(part: Any, n: int, name: str) -> np.ndarray:
    arr = np.asarray(part)
    if arr.dtype == bool and arr.shape == (n,):
        arr = np.flatnonzero(arr)
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise MeasurelabError(f"{name} must be case indices (integers), got "
                              f"{short_repr(part)}")
    if arr.size == 0:
        raise MeasurelabError(f"{name} is empty")
    if arr.min() < 0 or arr.max() >= n:
        bad = int(arr.max() if arr.max() >= n else arr.min())
        raise MeasurelabError(f"{name} holds index {bad}, outside 0 … {n - 1}")
    if np.unique(arr).size != arr.size:
        raise MeasurelabError(f"{name} holds a case twice")
    return arr.astype(np.int64)


def _design(tests: list[np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """Each split's repetition and fold: consecutive splits whose test sets cover every
    case once make a repetition; otherwise every split is a repetition of its own."""
    covered = np.zeros(n, dtype=bool)
    repeat, fold = [], []
    r = f = 0
    for t in tests:
        if covered.all():
            covered[:] = False
            r, f = r + 1, 0
        if covered[t].any():
            m = len(tests)
            return np.arange(m), np.zeros(m, dtype=np.int64), False
        covered[t] = True
        repeat.append(r)
        fold.append(f)
        f += 1
    if not covered.all():
        m = len(tests)
        return np.arange(m), np.zeros(m, dtype=np.int64), False
    return np.array(repeat), np.array(fold), True


# ----------------------------------------------------------------------------- fits
def rows(X: Any, idx: np.ndarray) -> Any:
    """Rows ``idx`` of X (a DataFrame by position, an array, a sparse matrix)."""
    return X.iloc[idx] if hasattr(X, "iloc") else X[idx]


def fit_predict(estimator: Any, X: Any, y: np.ndarray, train: np.ndarray,
                test: np.ndarray, labels: tuple[Any, ...], pos: int) -> tuple[str, np.ndarray]:
    """Fit a clone of ``estimator`` on ``train`` and predict ``test``: ('probability',
    the positive class's column or the (n, k) rows in ``labels`` order), ('decision', the
    decision scores, two classes) or ('label', class indices)."""
    from sklearn.base import clone

    est = clone(estimator)
    est.fit(rows(X, train), y[train])
    Xt = rows(X, test)
    k = len(labels)
    cols = _columns(getattr(est, "classes_", None), labels)
    if hasattr(est, "predict_proba") and cols is not None:
        got = np.asarray(est.predict_proba(Xt), dtype=np.float64)
        P = np.zeros((got.shape[0], k))
        P[:, cols] = got
        return "probability", (P[:, pos].copy() if k == 2 else P)
    if k == 2 and hasattr(est, "decision_function") and cols is not None and len(cols) == 2:
        d = np.asarray(est.decision_function(Xt), dtype=np.float64).ravel()
        return "decision", (d if cols[1] == pos else -d)
    pred = np.asarray(est.predict(Xt))
    index = {v: i for i, v in enumerate(labels)}
    idx = np.array([index.get(v, -1) for v in pred.tolist()], dtype=np.float64)
    # two classes: 1 for the positive label, a score decided at 0.5 like a probability
    return "label", ((idx == pos).astype(np.float64) if k == 2 else idx)


def _columns(classes: Any, labels: tuple[Any, ...]) -> list[int] | None:
    """The position in ``labels`` of each of the estimator's classes (None if unknown)."""
    if classes is None:
        return None
    index = {v: i for i, v in enumerate(labels)}
    try:
        return [index[v] for v in np.asarray(classes).tolist()]
    except KeyError:
        return None


@dataclass(frozen=True)
class Task:
    """One fit: learner ``a``, and ``slot``: ('outer', split) trains on the split's
    training set and predicts its test set; ('inner', repetition, f1, f2) trains without
    folds f1 and f2 of that repetition and predicts them."""

    a: int
    slot: tuple[int, ...]


class Plan:
    """The training and test cases of every task. A training set the splitter gave in
    an order of its own is fitted in that order; one that is the rest of the cases in
    case order (scikit-learn's k-fold) is made when its task is sent, so the index arrays
    of a long run are not all held at once. The inner fits of nested cross-validation
    train on the other folds in case order (no splitter yields them)."""

    def __init__(self, splits: Splits, trains: list[np.ndarray | None] | None) -> None:
        self.splits = splits
        self._trains = trains
        self._fid = splits.fold_ids() if splits.partition else None

    def cases(self, t: Task) -> tuple[np.ndarray, np.ndarray]:
        """(train, test) of task ``t``."""
        sp = self.splits
        if t.slot[0] == OUTER:
            s = t.slot[1]
            test = sp.tests[s]
            kept = None if self._trains is None else self._trains[s]
            if kept is not None:  # in the order the splitter gave it
                return kept, test
            mask = np.ones(sp.n, dtype=bool)
            mask[test] = False
            return np.flatnonzero(mask), test
        _, r, f1, f2 = t.slot
        fid = self._fid[r]  # type: ignore[index]
        out = (fid == f1) | (fid == f2)
        return np.flatnonzero(~out), np.flatnonzero(out)

    def tasks(self, n_learners: int, nested: bool) -> list[Task]:
        """Every learner on every split; with ``nested`` every pair of folds of every
        repetition too."""
        sp = self.splits
        out = [Task(a, (OUTER, s)) for a in range(n_learners) for s in range(sp.n_splits)]
        if nested:
            out += [Task(a, (INNER, r, f1, f2)) for a in range(n_learners)
                    for r in range(sp.n_repeats)
                    for f1, f2 in combinations(range(sp.n_folds or 0), 2)]
        return out


OUTER, INNER = 0, 1


def run_tasks(tasks: list[Task], plan: Plan, estimators: list[Any], X: Any, target: Target,
              n_jobs: int, scheduler: Any, progress: bool | None, desc: str,
              store: Any = None) -> Any:
    """Every task's (task, kind, predictions) through joblib (on a Dask cluster through
    joblib's Dask backend when ``scheduler`` is given), with a progress bar. With a
    ``store`` (a :class:`~measurelab.inference.learners._folds.FoldStore`) the fits
    already in it are read, not refitted, and each new fit is written to it as soon as it
    finishes (in the order fits finish), so a killed run loses no finished fold."""
    from joblib import Parallel, delayed, parallel_config

    from measurelab.progress import progress_bar

    keys: dict[Task, str] = {}
    todo = tasks
    if store is not None:
        from measurelab.inference.learners._folds import fingerprint

        data = fingerprint((X, target.y, target.labels, target.pos))
        est = [fingerprint(e) for e in estimators]
        keys = {t: store.key(est[t.a], data, *plan.cases(t)) for t in tasks}
        todo = []
        for t in tasks:
            got = store.load(keys[t])
            if got is None:
                todo.append(t)
            else:
                yield t, *got

    def jobs() -> Any:
        for i, t in enumerate(todo):
            train, test = plan.cases(t)
            yield delayed(_numbered)(i, estimators[t.a], X, target.y, train, test,
                                     target.labels, target.pos)

    def finished(out: Any) -> Any:
        for i, kind, p in out:
            t = todo[i]
            if store is not None:
                store.save(keys[t], kind, p)
            bar.update(1)
            yield t, kind, p

    bar = progress_bar(len(todo), desc=desc, unit="fit", enabled=progress is not False,
                       delay=2.0, leave=False)
    client, own = None, False
    try:
        if not todo:
            return
        if scheduler is not None:
            client, own = _client(scheduler)
            with parallel_config(backend="dask", client=client):
                yield from finished(Parallel(n_jobs=-1, return_as="generator_unordered")(
                    jobs()))
        else:
            yield from finished(Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                jobs()))
    finally:
        bar.close()
        if own and client is not None:
            client.close()


def _numbered(i: int, *args: Any) -> tuple[int, str, np.ndarray]:
    """:func:`fit_predict` with the task's number, so results can arrive in any order."""
    kind, p = fit_predict(*args)
    return i, kind, p


def _client(scheduler: Any) -> tuple[Any, bool]:
    """A ``distributed.Client`` for ``scheduler`` (an address or a Client) and whether it
    is ours to close."""
    if hasattr(scheduler, "submit"):
        return scheduler, False
    from measurelab._util.cluster import connect

    return connect(scheduler), True


# ---------------------------------------------------------------------- fold scores
@dataclass
class Predictions:
    """One learner's predictions on one data set: per split, the test cases' predictions
    (``outer``); with nested CV, ``inner`` (R, n, K[, k]): case i's prediction by the
    model trained without fold f and its own fold (NaN at its own fold)."""

    kind: str
    outer: list[np.ndarray | None]
    inner: np.ndarray | None = None
    scores: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def threshold(self) -> float:
        return 0.0 if self.kind == "decision" else 0.5


def expected_kind(estimator: Any, binary: bool) -> str:
    """What an (unfitted) estimator will predict: 'probability' (it has
    ``predict_proba``), 'decision' (two classes and ``decision_function``) or 'label'."""
    if hasattr(estimator, "predict_proba"):
        return "probability"
    if binary and hasattr(estimator, "decision_function"):
        return "decision"
    return "label"


def choose_measures(measures: Any, kinds: dict[str, str], target: Target) -> list[Measure]:
    """The measures asked for (default :data:`DEFAULT_MEASURES`, those every learner's
    predictions give), checked against every learner's predictions."""
    if measures is None:
        chosen = [registry.get(k) for k in DEFAULT_MEASURES]
        probs = all(k == "probability" for k in kinds.values())
        scores = "label" not in kinds.values()  # a ranking needs scores, not labels
        chosen = [m for m in chosen if probs or (not m.needs_probabilities and (
            m.statistic == "counts" or scores))]
    else:
        if isinstance(measures, str) and measures == "all":
            raise MeasurelabError("measures='all' is not offered here: a test per measure and "
                                  "pair is a lot of tests; name the measures")
        chosen = resolve_measures(measures) or []
        if not chosen:
            raise MeasurelabError("measures is empty; name at least one")
        names = [m.name for m in chosen]
        dup = next((x for x in names if names.count(x) > 1), None)
        if dup is not None:
            raise MeasurelabError(f"measures: {dup!r} is given twice")
    check_measures(chosen, kinds, target)
    return chosen


def check_measures(measures: list[Measure], kinds: dict[str, str], target: Target) -> None:
    """Refuse, naming the learner, a measure its predictions cannot give."""
    for m in measures:
        if not target.binary and not m.supports_multiclass:
            raise MeasurelabError(f"measures: {m.name} is defined for two classes only, but y "
                                  f"has {len(target.labels)}")
        for name, kind in kinds.items():
            if m.needs_probabilities and kind != "probability":
                raise MeasurelabError(
                    f"measures: {m.name} needs probabilities, but learner {name!r} gives "
                    f"{'decision scores' if kind == 'decision' else 'labels'} (it has no "
                    "predict_proba)")
            if not target.binary and kind == "label" and m.statistic != "counts":
                raise MeasurelabError(
                    f"measures: {m.name} needs class probabilities, but learner {name!r} "
                    "gives labels only (it has no predict_proba)")


def fold_scores(pred: Predictions, splits: Splits, target: Target,
                measures: list[Measure]) -> np.ndarray:
    """(splits, measures): every measure on every fold, a repetition's folds as one block
    of weightings over that repetition's sorted predictions."""
    from measurelab.measures.compute import compute_multi_block, prime_block
    from measurelab.stats.block import BlockStats, TableBlock
    from measurelab.stats.multiblock import MultiBlock
    from measurelab.stats.scoretable import ScoreTable

    out = np.full((splits.n_splits, len(measures)), np.nan)
    groups = [np.flatnonzero(splits.repeat == r) for r in range(splits.n_repeats)]
    for members in groups:
        idx = np.concatenate([splits.tests[s] for s in members])
        which = np.concatenate([np.full(splits.tests[s].size, j)
                                for j, s in enumerate(members)])
        B = members.size
        with np.errstate(all="ignore"):
            if target.binary:
                s = np.concatenate([pred.outer[i] for i in members])
                yb = target.ybin[idx]
                t = ScoreTable.from_arrays(yb, s)
                R = t.size
                cell = which * R + np.searchsorted(t.scores, s)
                pos = np.bincount(cell, weights=yb.astype(np.float64), minlength=B * R)
                neg = np.bincount(cell, weights=(~yb).astype(np.float64), minlength=B * R)
                bs = BlockStats(TableBlock(t.scores, pos.reshape(B, R), neg.reshape(B, R),
                                           integer=True),
                                threshold=pred.threshold, inclusive=False)
                prime_block(bs, measures)
                vals = [m.compute_block(bs) for m in measures]
            else:
                k = len(target.labels)
                # every outer fold is predicted by now (no None left)
                P = np.concatenate([_rows_of(pred.outer[i], k)  # type: ignore[arg-type]
                                    for i in members])
                W = np.zeros((B, idx.size))
                W[which, np.arange(idx.size)] = 1.0
                blk = MultiBlock.from_arrays(target.yi[idx], P, W, tuple(range(k)))
                vals = [compute_multi_block(m, blk) for m in measures]
        out[members] = np.column_stack(vals)
    return out


def _rows_of(p: np.ndarray, k: int) -> np.ndarray:
    """k-class predictions as probability rows (labels: one-hot rows, the same confusion
    matrix)."""
    if p.ndim == 2:
        return p
    P = np.zeros((p.size, k))
    ok = p >= 0
    P[np.flatnonzero(ok), p[ok].astype(np.int64)] = 1.0
    return P


def warn_undefined_folds(values: np.ndarray, learner: str, measures: list[Measure],
                         where: str) -> None:
    """One warning per (learner, measure) with folds whose value is undefined."""
    for j, m in enumerate(measures):
        bad = int(np.count_nonzero(~np.isfinite(values[:, j])))
        if bad:
            warn_undefined(f"{where}{m.name} of learner {learner!r} is undefined on {bad} of "
                           f"{values.shape[0]} folds (e.g. a fold with one class); its "
                           "interval and tests are NaN", stacklevel=4)


# ----------------------------------------------------------------------- posteriors
def posteriors(names: list[str], measures: list[Measure], scores: Any, ropes: dict[str, float],
               *, method: str, runs: int, threshold: float, rng: np.random.Generator,
               **kwargs: Any) -> Any:
    """The Bayesian verdict of every pair of learners on every measure:
    :func:`~measurelab.inference.bayes.bayes_compare` of ``scores(a, measure)`` (fold
    scores, or data sets × folds), NaN with a warning where a fold's value is undefined.
    A table ``a, b, measure, p_a_better, p_rope, p_b_better, verdict``."""
    import pandas as pd

    from measurelab.inference.bayes import bayes_compare

    rows = []
    for a, b in combinations(range(len(names)), 2):
        for m in measures:
            x, y = scores(a, m.name), scores(b, m.name)
            if not (np.isfinite(x).all() and np.isfinite(y).all()):
                warn_undefined(f"bayes: {m.name} of {names[a]!r} or {names[b]!r} is undefined "
                               "on a fold; its posterior is NaN", stacklevel=4)
                rows.append((names[a], names[b], m.name, math.nan, math.nan, math.nan,
                             "undecided"))
                continue
            r = bayes_compare(x, y, rope=ropes[m.name], method=method, runs=runs,
                              higher_is_better=m.higher_is_better, names=(names[a], names[b]),
                              random_state=rng, **kwargs)
            rows.append((names[a], names[b], m.name, r.p_a_better, r.p_rope, r.p_b_better,
                         r.verdict(threshold)))
    return pd.DataFrame(rows, columns=["a", "b", "measure", "p_a_better", "p_rope",
                                       "p_b_better", "verdict"])


# ------------------------------------------------------------------ per-case losses
def case_values(name: str, p: np.ndarray, kind: str, target: Target,
                idx: np.ndarray | Any = slice(None)) -> np.ndarray:
    """Per case, the value whose mean over cases is measure ``name`` (one of
    :data:`MEAN_OVER_CASES`) for predictions ``p`` of the cases ``idx``: correct (acc) or
    wrong (err) at the decision rule, the squared error (brier) or the log loss (mxe, p
    clipped to [ε, 1 − ε] as the measure does). ``p`` has the cases first and may have a
    second axis of several predictions per case (nested CV); NaN predictions give NaN."""
    from measurelab.measures.probability import EPS

    multi = not target.binary and kind != "label"  # the last axis holds the k classes
    nan = np.isnan(p).any(axis=-1) if multi else np.isnan(p)
    extra = p.ndim - (2 if multi else 1)  # 1 with several predictions per case
    if target.binary:
        y = target.ybin[idx].reshape((-1,) + (1,) * extra)
        if name in ("acc", "err"):
            with np.errstate(invalid="ignore"):
                right = (p > (0.0 if kind == "decision" else 0.5)) == y
            v = right if name == "acc" else ~right
        elif name == "brier":
            v = (p - y) ** 2
        else:
            q = np.clip(p, EPS, 1 - EPS)
            v = -np.where(y, np.log(q), np.log1p(-q))
    else:
        yi = target.yi[idx].reshape((-1,) + (1,) * extra)
        if name in ("acc", "err"):
            guess = np.argmax(np.nan_to_num(p), axis=-1) if multi else p
            right = guess == yi
            v = right if name == "acc" else ~right
        else:
            k = len(target.labels)
            onehot = np.arange(k) == yi[..., None]
            if name == "brier":
                v = ((p - onehot) ** 2).sum(axis=-1) / (2.0 if k == 2 else 1.0)
            else:
                v = -np.log(np.clip(np.where(onehot, p, 0.0).sum(axis=-1), EPS, 1 - EPS))
    out = np.asarray(v, dtype=np.float64).copy()
    out[nan] = math.nan
    return out
