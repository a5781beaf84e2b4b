"""Per-class score tables for multi-class rank measures (Hand & Till's M, one-vs-rest AUC)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.pickling import versioned_pickle
from measurelab.stats.confusion import class_indices
from measurelab.stats.scoretable import ScoreTable


def _combine_rows(scores: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    if s.size == 0:
        return s, counts[order]
    flag = np.empty(s.size, dtype=bool)
    flag[0] = True
    np.not_equal(s[1:], s[:-1], out=flag[1:])
    starts = np.flatnonzero(flag)
    return s[starts], np.add.reduceat(counts[order], starts, axis=0)


@versioned_pickle
@dataclass(frozen=True, eq=False)
class MultiScoreTable:
    """For each class column c: distinct scores of column c and, at each, the weight of
    the examples of every true class (a ``(n_scores, k)`` matrix).

    Examples
    --------
    >>> t = MultiScoreTable.from_arrays([0, 1, 2], [[.7, .2, .1], [.3, .5, .2], [.2, .2, .6]])
    >>> t.k, t.labels
    (3, (0, 1, 2))
    >>> t.pair_table(0, 1).scores.tolist()   # column 0, class 0 vs class 1
    [0.3, 0.7]
    """

    scores: tuple[np.ndarray, ...]
    counts: tuple[np.ndarray, ...]
    labels: tuple[Any, ...]

    @classmethod
    def from_arrays(
        cls,
        y_true: Any,
        y_score: Any,
        labels: Any = None,
        sample_weight: Any = None,
    ) -> MultiScoreTable:
        y = np.asarray(y_true)
        P = np.asarray(y_score, dtype=np.float64)
        if labels is None:
            labels = np.unique(y)
        labels = np.asarray(labels)
        k = labels.size
        if P.ndim != 2 or P.shape[1] != k:
            raise MeasurelabError(
                f"y_score must have one column per class ({k} classes: {labels.tolist()}), "
                f"got shape {P.shape}"
            )
        return cls.from_indices(class_indices(y, labels), P, tuple(labels.tolist()),
                                sample_weight)

    @classmethod
    def from_indices(
        cls,
        yi: np.ndarray,
        P: np.ndarray,
        labels: tuple[Any, ...],
        sample_weight: Any = None,
    ) -> MultiScoreTable:
        """Build from true-class column indices ``yi`` (0 … k−1) and the n × k matrix."""
        y = np.asarray(yi, dtype=np.int64)
        k = P.shape[1]
        w = np.ones(y.size) if sample_weight is None else np.asarray(sample_weight, float)
        onehot = np.zeros((y.size, k))
        onehot[np.arange(y.size), y] = w
        scores, counts = [], []
        for c in range(k):
            s, m = _combine_rows(P[:, c], onehot)
            scores.append(s)
            counts.append(m)
        return cls(tuple(scores), tuple(counts), tuple(labels))

    @property
    def k(self) -> int:
        return len(self.labels)

    def merge(self, other: MultiScoreTable) -> MultiScoreTable:
        if self.labels != other.labels:
            raise MeasurelabError(
                f"cannot merge score tables over different classes: "
                f"{list(self.labels)} and {list(other.labels)}"
            )
        out_s, out_c = [], []
        for c in range(self.k):
            s, m = _combine_rows(
                np.concatenate([self.scores[c], other.scores[c]]),
                np.concatenate([self.counts[c], other.counts[c]]),
            )
            out_s.append(s)
            out_c.append(m)
        return MultiScoreTable(tuple(out_s), tuple(out_c), self.labels)

    __add__ = merge

    def class_weights(self) -> np.ndarray:
        """Total weight of each true class."""
        return self.counts[0].sum(axis=0) if self.k else np.zeros(0)

    def pair_table(self, i: int, j: int) -> ScoreTable:
        """Binary table of column i with class i positive and class j negative."""
        return self._select(i, self.counts[i][:, i], self.counts[i][:, j])

    def ovr_table(self, i: int) -> ScoreTable:
        """Binary table of column i with class i positive and every other class negative."""
        m = self.counts[i]
        return self._select(i, m[:, i], m.sum(axis=1) - m[:, i])

    def micro_table(self) -> ScoreTable:
        """One binary table pooling every (case, class) pair: column c's score with "case is
        of class c" as the positive (scikit-learn's ``average='micro'`` for AUC and AP)."""
        out = ScoreTable.empty()
        for i in range(self.k):
            out = out.merge(self.ovr_table(i))
        return out

    def _select(self, col: int, pos: np.ndarray, neg: np.ndarray) -> ScoreTable:
        keep = (pos > 0) | (neg > 0)
        return ScoreTable(self.scores[col][keep], pos[keep], neg[keep])
