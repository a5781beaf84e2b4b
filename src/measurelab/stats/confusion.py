"""Confusion counts: the statistic of every threshold measure.

:class:`BinaryCounts` holds tp, fp, fn, tn. The fields may be Python ints, floats
(weighted counts), :class:`fractions.Fraction` (exact arithmetic: every count measure
then returns an exact Fraction where its formula is rational) or equal-shape numpy
arrays (one confusion matrix per element: per threshold, per class, per object).

:class:`MultiCounts` holds a k×k matrix, rows = true class, columns = predicted class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from measurelab._util.validation import show
from measurelab.exceptions import MeasurelabError
from measurelab.pickling import versioned_pickle


def class_indices(y: Any, labels: Any, name: str = "y_true") -> np.ndarray:
    """Position of each label of ``y`` in ``labels`` (in the order given, sorted or not): the
    one mapping from labels to class indices behind every confusion matrix, score table and
    design of k classes. An unknown label is a :class:`MeasurelabError` naming it.

    Examples
    --------
    >>> class_indices(["b", "a", "c"], ["c", "a", "b"]).tolist()
    [2, 1, 0]
    >>> class_indices([2, 0, 3, 1], [2, 0, 3, 1]).tolist()
    [0, 1, 2, 3]
    """
    y = np.asarray(y)
    labels = np.asarray(labels)
    k = labels.size
    order = np.argsort(labels, kind="stable")
    sorted_labels = labels[order]
    twice = np.flatnonzero(sorted_labels[1:] == sorted_labels[:-1])
    if twice.size:  # a class named twice would be two classes, each with half the story
        at = sorted(int(i) + 1 for i in order[twice[0]:twice[0] + 2])
        raise MeasurelabError(
            f"labels holds {show(sorted_labels[twice[0]])} twice (positions {at[0]} and "
            f"{at[1]} of {labels.tolist()}); expected each class once")
    pos = np.searchsorted(sorted_labels, y)
    bad = (pos >= k) | (sorted_labels[np.minimum(pos, k - 1)] != y)
    if bad.any():
        raise MeasurelabError(
            f"{name} holds the label {show(y[np.flatnonzero(bad)[0]])}, "
            f"which is not one of {labels.tolist()}"
        )
    return order[pos].astype(np.int64)


@versioned_pickle
@dataclass(frozen=True)
class BinaryCounts:
    """Binary confusion counts (possibly weighted).

    Examples
    --------
    >>> c = BinaryCounts(tp=1242, fp=390, fn=189, tn=740)   # Sokolova Table 2, SVM
    >>> c.total, c.n_pos, c.n_neg
    (2561, 1431, 1130)
    >>> (c + c).tp
    2484
    """

    tp: Any
    fp: Any
    fn: Any
    tn: Any

    @classmethod
    def from_predictions(
        cls,
        y_true: np.ndarray,
        y_pred: np.ndarray,
        sample_weight: np.ndarray | None = None,
    ) -> BinaryCounts:
        """Counts from boolean truth and boolean predictions."""
        y_true = np.asarray(y_true, dtype=bool)
        y_pred = np.asarray(y_pred, dtype=bool)
        if sample_weight is None:
            tp = int(np.count_nonzero(y_true & y_pred))
            n_pos = int(np.count_nonzero(y_true))
            n_pp = int(np.count_nonzero(y_pred))
            n = int(y_true.size)
            return cls(tp, n_pp - tp, n_pos - tp, n - n_pos - n_pp + tp)
        w = np.asarray(sample_weight, dtype=np.float64)
        return cls(
            float(w[y_true & y_pred].sum()),
            float(w[~y_true & y_pred].sum()),
            float(w[y_true & ~y_pred].sum()),
            float(w[~y_true & ~y_pred].sum()),
        )

    @property
    def total(self) -> Any:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def n_pos(self) -> Any:
        return self.tp + self.fn

    @property
    def n_neg(self) -> Any:
        return self.fp + self.tn

    def merge(self, other: BinaryCounts) -> BinaryCounts:
        """Counts of the union of two disjoint parts."""
        return BinaryCounts(
            self.tp + other.tp, self.fp + other.fp, self.fn + other.fn, self.tn + other.tn
        )

    __add__ = merge

    def swapped(self) -> BinaryCounts:
        """The same predictions with the positive and negative class exchanged."""
        return BinaryCounts(self.tn, self.fn, self.fp, self.tp)

    def as_matrix(self) -> np.ndarray:
        """2×2 matrix, rows = true (pos, neg), columns = predicted (pos, neg)."""
        return np.array([[self.tp, self.fn], [self.fp, self.tn]])

    def to_dict(self) -> dict[str, Any]:
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn}


@versioned_pickle
@dataclass(frozen=True)
class MultiCounts:
    """A k×k confusion matrix: ``matrix[i, j]`` = weight of true class i predicted as j.

    Examples
    --------
    >>> m = MultiCounts.from_labels([0, 1, 2, 2], [0, 2, 2, 2])
    >>> m.matrix.tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 2.0]]
    >>> m.one_vs_rest().tp.tolist()
    [1.0, 0.0, 2.0]
    """

    matrix: np.ndarray
    labels: tuple[Any, ...]

    @classmethod
    def from_labels(
        cls,
        y_true: Any,
        y_pred: Any,
        labels: Any = None,
        sample_weight: Any = None,
    ) -> MultiCounts:
        """Build from true and predicted labels; ``labels`` (any order) fixes the class
        order: row and column i are the class ``labels[i]`` (default: the sorted labels).

        Examples
        --------
        >>> MultiCounts.from_labels([2, 0, 1], [2, 1, 1], labels=[2, 0, 1]).matrix.tolist()
        [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]
        """
        y_true = np.asarray(y_true)
        y_pred = np.asarray(y_pred)
        if labels is None:
            labels = np.unique(np.concatenate([y_true, y_pred]))
        labels = np.asarray(labels)
        k = labels.size
        ti = class_indices(y_true, labels, "y_true")
        pi = class_indices(y_pred, labels, "y_pred")
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        mat = np.bincount(ti * k + pi, weights=w, minlength=k * k).astype(np.float64)
        return cls(mat.reshape(k, k), tuple(labels.tolist()))

    @property
    def k(self) -> int:
        return self.matrix.shape[0]

    @property
    def total(self) -> float:
        return float(self.matrix.sum())

    def merge(self, other: MultiCounts) -> MultiCounts:
        if self.labels != other.labels:
            raise MeasurelabError(
                f"cannot merge confusion matrices over different classes: "
                f"{list(self.labels)} and {list(other.labels)}"
            )
        return MultiCounts(self.matrix + other.matrix, self.labels)

    __add__ = merge

    def one_vs_rest(self) -> BinaryCounts:
        """Per-class binary counts as arrays of length k (class i positive, rest negative)."""
        m = self.matrix
        tp = np.diag(m).astype(np.float64)
        fn = m.sum(axis=1) - tp
        fp = m.sum(axis=0) - tp
        tn = m.sum() - tp - fn - fp
        return BinaryCounts(tp, fp, fn, tn)
