"""Multi-label statistics: L binary summaries plus the per-case sums of the instance measures.

A multi-label test set has n cases and L labels; each case has a set of true labels (a row
of an n × L indicator matrix ``Y``) and a score per label (a row of ``S``; 0/1 predictions
are scores too). Its exact, mergeable summary is

* one :class:`~measurelab.stats.scoretable.ScoreTable` per label (the label's column of
  ``Y`` and ``S``): every per-label measure (confusion counts at the label's threshold,
  AUC, AP) and, merged, the pooled table of every (case, label) pair (micro AUC and AP);
* :class:`CaseTerms` of the decisions: how much weight falls on each distinct per-case
  triple (tp_i, fp_i, fn_i) — the counts of one case's predicted set against its true set
  — from which subset accuracy and every samples-averaged count measure follow;
* :class:`CaseTerms` of the rankings: how much weight falls on each distinct tuple of a
  case's ranking terms (label-ranking average precision, coverage, ranking loss, the
  case's own AUC and AP across its labels).

Both :class:`CaseTerms` are histograms over exact keys, so two parts merge by adding the
weight of equal keys: with whole weights the merge of parts equals the summary of the
whole to the last bit, whatever the split.

Examples
--------
>>> import numpy as np
>>> Y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]], dtype=bool)
>>> S = np.array([[.9, .2, .6], [.4, .7, .1], [.8, .3, .2]])
>>> st = MultiLabelStats.from_arrays(Y, S)
>>> st.counts.tp.tolist(), st.counts.fn.tolist()
([2.0, 1.0, 1.0], [0.0, 1.0, 0.0])
>>> a = MultiLabelStats.from_arrays(Y[:1], S[:1])
>>> b = MultiLabelStats.from_arrays(Y[1:], S[1:])
>>> (a + b) == st
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.pickling import versioned_pickle
from measurelab.stats._memo import memoized
from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.scoretable import ScoreTable, _combine

#: the columns of the ranking terms of a case (:func:`ranking_terms`); an undefined term
#: (a case's AUC or AP when it has no true label, or no false one) is stored as −1
RANK_TERMS = ("lrap", "coverage", "ranking_loss", "auc", "ap")
#: the columns of the decision terms of a case (:func:`decision_terms`)
SET_TERMS = ("tp", "fp", "fn")
#: rows handled at once by :func:`ranking_terms` (bounds its temporaries)
_CHUNK = 1 << 15


@dataclass(frozen=True, eq=False)
class CaseTerms:
    """A weighted histogram of per-case key tuples: distinct ``keys`` (m, d), sorted
    lexicographically, and the total ``weight`` (m,) of the cases with each key.

    Examples
    --------
    >>> t, where = CaseTerms.from_rows(np.array([[1., 0], [0, 2], [1, 0]]))
    >>> t.keys.tolist(), t.weight.tolist(), where.tolist()
    ([[0.0, 2.0], [1.0, 0.0]], [1.0, 2.0], [1, 0, 1])
    >>> (t + t).weight.tolist()
    [2.0, 4.0]
    """

    keys: np.ndarray
    weight: np.ndarray

    @classmethod
    def from_rows(cls, rows: np.ndarray, sample_weight: np.ndarray | None = None
                  ) -> tuple[CaseTerms, np.ndarray]:
        """The histogram of ``rows`` (n, d) and the key index of every case."""
        rows = np.asarray(rows, dtype=np.float64) + 0.0   # −0.0 → 0.0
        n, d = rows.shape
        if n == 0:
            return cls(np.zeros((0, d)), np.zeros(0)), np.zeros(0, dtype=np.int64)
        order = np.lexsort(rows.T[::-1])
        s = rows[order]
        new = np.empty(n, dtype=bool)
        new[0] = True
        np.any(s[1:] != s[:-1], axis=1, out=new[1:])
        starts = np.flatnonzero(new)
        where = np.empty(n, dtype=np.int64)
        where[order] = np.cumsum(new) - 1
        w = (np.ones(n) if sample_weight is None
             else np.asarray(sample_weight, dtype=np.float64))
        return cls(s[starts], np.add.reduceat(w[order], starts)), where

    def merge(self, other: CaseTerms) -> CaseTerms:
        """The histogram of the union of two disjoint sets of cases."""
        if self.keys.shape[1] != other.keys.shape[1]:
            raise MeasurelabError(
                f"cannot merge case terms of {self.keys.shape[1]} and "
                f"{other.keys.shape[1]} columns")
        t, where = CaseTerms.from_rows(np.concatenate([self.keys, other.keys]))
        w = np.zeros(t.keys.shape[0])
        np.add.at(w, where, np.concatenate([self.weight, other.weight]))
        return CaseTerms(t.keys, w)

    __add__ = merge

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CaseTerms):
            return NotImplemented
        return (np.array_equal(self.keys, other.keys)
                and np.array_equal(self.weight, other.weight))

    @property
    def total(self) -> float:
        """The total weight of the cases."""
        return float(self.weight.sum())


def decision_terms(Y: np.ndarray, P: np.ndarray) -> np.ndarray:
    """Per case: true positives, false positives and false negatives over its labels, (n, 3).

    Examples
    --------
    >>> decision_terms(np.array([[1, 0, 1]], bool), np.array([[1, 1, 0]], bool)).tolist()
    [[1.0, 1.0, 1.0]]
    """
    tp = np.count_nonzero(Y & P, axis=1)
    return np.stack([tp, np.count_nonzero(P, axis=1) - tp,
                     np.count_nonzero(Y, axis=1) - tp], axis=1).astype(np.float64)


def ranking_terms(Y: np.ndarray, S: np.ndarray) -> np.ndarray:
    """Per case, its ranking terms (:data:`RANK_TERMS`), (n, 5), from its labels' scores.

    With ``r_j`` = the number of the case's labels scored at least as high as label j and
    ``t_j`` = how many of them are true labels (ties count as ranked above):

    * lrap = mean of ``t_j / r_j`` over the true labels (1 when the case has no true
      label or no false one, as scikit-learn);
    * coverage = the largest ``r_j`` of a true label (0 without true labels);
    * ranking_loss = the share of (true, false) label pairs with the false label scored at
      least as high (0 when there is no such pair);
    * auc = 1 − the share of those pairs with the false label higher, ties counted half
      (−1: undefined without a pair);
    * ap = the case's average precision over its labels (it equals lrap; −1: undefined
      without a true label).

    Examples
    --------
    >>> Y = np.array([[1, 0, 0], [0, 0, 1]], dtype=bool)
    >>> S = np.array([[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
    >>> ranking_terms(Y, S).round(4).tolist()
    [[0.5, 2.0, 0.5, 0.5, 0.5], [0.3333, 3.0, 1.0, 0.0, 0.3333]]
    """
    n = S.shape[0]
    out = np.empty((n, 5))
    for a in range(0, n, _CHUNK):
        out[a:a + _CHUNK] = _ranking_chunk(Y[a:a + _CHUNK], S[a:a + _CHUNK])
    return out


def _ranking_chunk(Y: np.ndarray, S: np.ndarray) -> np.ndarray:
    m, L = S.shape
    order = np.argsort(-S, axis=1, kind="stable")
    ss = np.take_along_axis(S, order, axis=1)
    ys = np.take_along_axis(Y, order, axis=1)
    new = np.ones((m, L), dtype=bool)          # first of a group of tied scores
    new[:, 1:] = ss[:, 1:] != ss[:, :-1]
    last = np.ones((m, L), dtype=bool)         # last of its group
    last[:, :-1] = new[:, 1:]
    idx = np.arange(L)
    end = np.minimum.accumulate(np.where(last, idx, L)[:, ::-1], axis=1)[:, ::-1]
    start = np.maximum.accumulate(np.where(new, idx, 0), axis=1)
    cum = np.cumsum(ys, axis=1)
    atleast = np.take_along_axis(cum, end, axis=1)            # true labels scored ≥
    above = np.where(start > 0, np.take_along_axis(cum, np.maximum(start - 1, 0),
                                                   axis=1), 0)  # true labels scored >
    npos = cum[:, -1].astype(np.float64)
    rank = (end + 1).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        lrap = np.where(ys, atleast / rank, 0.0).sum(axis=1) / npos
        greater = np.where(ys, start - above, 0).sum(axis=1).astype(np.float64)
        tied = np.where(ys, (end + 1 - start) - (atleast - above), 0).sum(axis=1)
        pairs = npos * (L - npos)
        loss = (greater + tied) / pairs
        auc = 1.0 - (greater + 0.5 * tied) / pairs
    none = pairs == 0
    ap = np.where(npos > 0, np.where(none, 1.0, lrap), -1.0)
    lrap = np.where(none, 1.0, lrap)
    cover = np.where(ys, rank, 0.0).max(axis=1) if L else np.zeros(m)
    return np.stack([lrap, cover, np.where(none, 0.0, loss), np.where(none, -1.0, auc), ap],
                    axis=1)


def predicted(S: np.ndarray, thresholds: np.ndarray, inclusive: bool) -> np.ndarray:
    """The decisions: label j is predicted where ``S[:, j] > thresholds[j]`` (``>=`` with
    ``inclusive``).

    Examples
    --------
    >>> predicted(np.array([[0.5, 0.7]]), np.array([0.5, 0.5]), False).tolist()
    [[False, True]]
    """
    return S >= thresholds if inclusive else S > thresholds


@versioned_pickle
@dataclass(frozen=True, eq=False)
class MultiLabelStats:
    """The summary of a multi-label evaluation (module docstring): a score table per label,
    the thresholds, and the decision and ranking terms of the cases.

    ``memo`` keeps what is derived (the per-label counts, the pooled table).
    """

    labels: tuple[Any, ...]
    tables: tuple[ScoreTable, ...]
    thresholds: np.ndarray
    inclusive: bool
    sets: CaseTerms
    ranks: CaseTerms
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def from_arrays(cls, Y: np.ndarray, S: np.ndarray, sample_weight: np.ndarray | None = None,
                    *, thresholds: Any = 0.5, inclusive: bool = False,
                    labels: tuple[Any, ...] | None = None) -> MultiLabelStats:
        """Build from a boolean (n, L) ``Y``, float scores ``S`` (n, L), validated."""
        Y = np.asarray(Y, dtype=bool)
        S = np.asarray(S, dtype=np.float64)
        L = Y.shape[1]
        thr = np.broadcast_to(np.asarray(thresholds, dtype=np.float64), (L,)).copy()
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        tables = tuple(ScoreTable.from_arrays(Y[:, j], S[:, j], w) for j in range(L))
        sets, _ = CaseTerms.from_rows(decision_terms(Y, predicted(S, thr, inclusive)), w)
        ranks, _ = CaseTerms.from_rows(ranking_terms(Y, S), w)
        return cls(tuple(range(L)) if labels is None else tuple(labels), tables, thr,
                   bool(inclusive), sets, ranks)

    @property
    def n_labels(self) -> int:
        return len(self.labels)

    @property
    def total(self) -> float:
        """The total weight of the cases."""
        return self.sets.total

    @memoized
    def counts(self) -> BinaryCounts:
        """Per-label confusion counts at each label's threshold (arrays of length L)."""
        cs = [t.counts_at(float(th), inclusive=self.inclusive)
              for t, th in zip(self.tables, self.thresholds, strict=True)]
        return BinaryCounts(*(np.array([getattr(c, f) for c in cs], dtype=np.float64)
                              for f in ("tp", "fp", "fn", "tn")))

    @memoized
    def pooled(self) -> ScoreTable:
        """One table of every (case, label) pair: the micro average of AUC and AP."""
        if not self.tables:
            return ScoreTable.empty()
        # one sort of every label's rows (merging the tables one by one would re-merge
        # the growing union L times)
        return ScoreTable(*_combine(np.concatenate([t.scores for t in self.tables]),
                                    np.concatenate([t.pos for t in self.tables]),
                                    np.concatenate([t.neg for t in self.tables])))

    def merge(self, other: MultiLabelStats) -> MultiLabelStats:
        """The summary of the union of two disjoint sets of cases."""
        if self.labels != other.labels:
            raise MeasurelabError(
                f"cannot merge multi-label summaries over different labels: "
                f"{list(self.labels)} and {list(other.labels)}")
        if (not np.array_equal(self.thresholds, other.thresholds)
                or self.inclusive != other.inclusive):
            raise MeasurelabError("cannot merge multi-label summaries made at different "
                                  "thresholds")
        return MultiLabelStats(self.labels,
                               tuple(a.merge(b) for a, b in zip(self.tables, other.tables,
                                                                strict=True)),
                               self.thresholds, self.inclusive, self.sets.merge(other.sets),
                               self.ranks.merge(other.ranks))

    __add__ = merge

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MultiLabelStats):
            return NotImplemented
        return (self.labels == other.labels
                and all(a == b for a, b in zip(self.tables, other.tables, strict=True))
                and np.array_equal(self.thresholds, other.thresholds)
                and self.inclusive == other.inclusive
                and self.sets == other.sets and self.ranks == other.ranks)
