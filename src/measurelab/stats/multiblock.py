"""A block of k-class evaluations: many reweightings of one k-class data set, evaluated at
once (the multi-class counterpart of :mod:`measurelab.stats.block`).

A bootstrap replicate of a k-class evaluation keeps the cases (true class, probability row)
and changes only their weights. :class:`MultiBlock` holds ``B`` such weightings as one
``(B, n)`` matrix over the ``n`` cases, and derives what the multi-class measures need with
a few array operations per block (a loop over classes or class pairs, never over
replicates):

* :attr:`MultiBlock.counts` — the ``(B, k, k)`` confusion matrices of the arg-max class;
* :meth:`MultiBlock.pair_table_block`, :meth:`MultiBlock.ovr_table_block`,
  :meth:`MultiBlock.micro_table_block` — the binary score tables of one class column (class
  i against class j, or against the rest; every column pooled) as a
  :class:`~measurelab.stats.block.TableBlock`;
* :meth:`MultiBlock.case_sum` — Σ weight · v of a per-case quantity (log-loss, squared
  error), and :attr:`MultiBlock.rank_weight` (top-k accuracy) and
  :meth:`MultiBlock.confidence_bins` (ECE) from the per-row summary.

Row ``b`` of a block is an ordinary :class:`~measurelab.stats.bundle.MultiStats`
(:meth:`MultiBlock.stats`), built as :func:`measurelab.stats.bundle.multi_stats_from_indices`
builds it, so every block formula is checked against the scalar route on every row
(``tests/stats/test_multiblock.py``).

The cases are kept in a canonical order (sorted by true class, then by the probability
row; identical cases merged, their weights added), so the order in which they were given
changes nothing.

Examples
--------
>>> import numpy as np
>>> P = np.array([[.7, .2, .1], [.3, .5, .2], [.2, .2, .6], [.5, .4, .1]])
>>> blk = MultiBlock.from_arrays([0, 1, 2, 1], P, np.array([[1., 1, 1, 1], [2, 0, 1, 1]]))
>>> blk.counts[1].tolist()
[[2.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
>>> blk.stats(1).counts.matrix.tolist() == blk.counts[1].tolist()
True
>>> blk.ovr_table_block(1).pos.tolist()
[[0.0, 1.0, 1.0], [0.0, 1.0, 0.0]]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.stats._memo import memoized
from measurelab.stats.block import TableBlock
from measurelab.stats.bundle import MultiStats
from measurelab.stats.confusion import MultiCounts
from measurelab.stats.multiscore import MultiScoreTable
from measurelab.stats.probrows import ProbabilityRows, true_class_rank


def _table_block(values: np.ndarray, cases: np.ndarray, is_pos: np.ndarray,
                 W: np.ndarray, integer: bool | None) -> TableBlock:
    """The block of binary score tables of ``values`` (one per (case, column) entry, the
    entry's case in ``cases``), "positive" where ``is_pos``: distinct values in increasing
    order and, per replicate, the weight of the positive and negative entries at each."""
    order = np.argsort(values, kind="stable")
    v = values[order]
    B = W.shape[0]
    if v.size == 0:
        return TableBlock(v, np.zeros((B, 0)), np.zeros((B, 0)), integer=integer)
    flag = np.empty(v.size, dtype=bool)
    flag[0] = True
    np.not_equal(v[1:], v[:-1], out=flag[1:])
    starts = np.flatnonzero(flag)
    w = W[:, cases[order]]
    p = is_pos[order]
    pos = np.add.reduceat(np.where(p, w, 0.0), starts, axis=1)
    neg = np.add.reduceat(np.where(p, 0.0, w), starts, axis=1)
    return TableBlock(v[starts], pos, neg, integer=integer)


@dataclass(frozen=True, eq=False)
class MultiBlock:
    """``B`` weightings of the ``n`` cases of one k-class evaluation.

    Parameters
    ----------
    yi : ndarray of shape (n,), the true class of each case as a column index 0 … k−1
    P : ndarray of shape (n, k), the probability rows
    W : ndarray of shape (B, n), the weight of each case in each replicate
    labels : the class labels, in column order

    Build with :meth:`from_arrays`, which puts the cases in the canonical order. ``memo``
    holds what is derived (not part of the value).
    """

    yi: np.ndarray
    P: np.ndarray
    W: np.ndarray
    labels: tuple[Any, ...]
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def from_arrays(cls, yi: Any, P: Any, W: Any, labels: Any = None) -> MultiBlock:
        """A block from true-class indices ``yi`` (n,), probability rows ``P`` (n, k) and
        replicate weights ``W`` (B, n) (one row: a single weighting); the cases are sorted
        canonically (by true class, then by the row), ``W``'s columns alike, and identical
        cases are merged into one (their weights added).

        Examples
        --------
        >>> b = MultiBlock.from_arrays([1, 0], [[.4, .6], [.8, .2]], [[1.0, 3.0]])
        >>> b.yi.tolist(), b.W.tolist(), b.labels
        ([0, 1], [[3.0, 1.0]], (0, 1))
        """
        y = np.asarray(yi, dtype=np.int64)
        Pa = np.asarray(P, dtype=np.float64)
        Wa = np.asarray(W, dtype=np.float64)
        if Wa.ndim == 1:
            Wa = Wa[None, :]
        if Pa.ndim != 2 or y.shape != (Pa.shape[0],) or Wa.ndim != 2 or \
                Wa.shape[1] != y.size:
            raise MeasurelabError(
                f"a multi-class block needs yi (n,), P (n, k) and W (B, n), got shapes "
                f"{y.shape}, {Pa.shape} and {Wa.shape}"
            )
        k = Pa.shape[1]
        if y.size and (int(y.min()) < 0 or int(y.max()) >= k):
            raise MeasurelabError(f"yi must hold class indices 0 … {k - 1}, got {y.tolist()}")
        if labels is None:
            labels = tuple(range(k))
        labels = tuple(labels)
        if len(labels) != k:
            raise MeasurelabError(f"labels must name the {k} columns of P, got {list(labels)}")
        order = np.lexsort((*(Pa[:, c] for c in range(k - 1, -1, -1)), y))
        y, Pa, Wa = y[order], Pa[order], Wa[:, order]
        if y.size > 1:  # identical cases (true class and row) become one, weights added
            same = (y[1:] == y[:-1]) & np.all(Pa[1:] == Pa[:-1], axis=1)
            if same.any():
                starts = np.flatnonzero(np.concatenate([[True], ~same]))
                y, Pa = y[starts], Pa[starts]
                Wa = np.add.reduceat(Wa, starts, axis=1)
        return cls(y, np.ascontiguousarray(Pa), np.ascontiguousarray(Wa), labels)

    def rows(self, start: int, stop: int) -> MultiBlock:
        """Replicates ``start`` … ``stop − 1`` as a block of their own (the same cases).

        Examples
        --------
        >>> MultiBlock.from_arrays([0, 1], [[.6, .4], [.3, .7]], [[1., 1], [2, 0]]).rows(1, 2).W
        array([[2., 0.]])
        """
        return MultiBlock(self.yi, self.P, self.W[start:stop], self.labels)

    # ------------------------------------------------------------------ sizes
    @property
    def n_blocks(self) -> int:
        """Number of replicates (``B``)."""
        return int(self.W.shape[0])

    @property
    def n(self) -> int:
        return int(self.W.shape[1])

    @property
    def k(self) -> int:
        return int(self.P.shape[1])

    @memoized
    def integer(self) -> bool | None:
        """True when every weight is a whole number, else None (the tables of
        :meth:`ovr_table_block` and the others then check replicate by replicate)."""
        return True if np.array_equal(self.W, np.round(self.W)) else None

    @memoized
    def total(self) -> np.ndarray:
        """Total weight of each replicate, shape (B,)."""
        return self.W.sum(axis=1)

    # ----------------------------------------------------------------- counts
    @memoized
    def predicted(self) -> np.ndarray:
        """Arg-max class of each case (the first column on ties, as the hard prediction)."""
        if self.n == 0:
            return np.zeros(0, dtype=np.int64)
        return np.argmax(self.P, axis=1).astype(np.int64)

    @memoized
    def counts(self) -> np.ndarray:
        """Confusion matrices of the arg-max class, shape (B, k, k): ``[b, i, j]`` = weight
        of the cases of true class i predicted as j in replicate b."""
        return self._by_case_group(self.yi * self.k + self.predicted, self.k * self.k) \
            .reshape(self.n_blocks, self.k, self.k)

    @memoized
    def class_weight(self) -> np.ndarray:
        """Weight of each true class, shape (B, k)."""
        return self._by_case_group(self.yi, self.k)

    def _by_case_group(self, group: np.ndarray, size: int) -> np.ndarray:
        """Σ of each replicate's weights over the cases of each group 0 … size−1, (B, size)."""
        onehot = np.zeros((self.n, size))
        onehot[np.arange(self.n), group] = 1.0
        return self.W @ onehot

    # ----------------------------------------------------------- score tables
    def pair_table_block(self, i: int, j: int) -> TableBlock:
        """Column i's scores with class i positive and class j negative (the block of
        :meth:`MultiScoreTable.pair_table`; rows of no weight in any replicate kept)."""
        sel = np.flatnonzero((self.yi == i) | (self.yi == j))
        return _table_block(self.P[sel, i], sel, self.yi[sel] == i, self.W, self.integer)

    def ovr_table_block(self, i: int) -> TableBlock:
        """Column i's scores with class i positive and every other class negative."""
        return _table_block(self.P[:, i], np.arange(self.n), self.yi == i, self.W,
                            self.integer)

    def micro_table_block(self) -> TableBlock:
        """Every (case, column) entry pooled, "positive" when the column is the case's
        class (the block of :meth:`MultiScoreTable.micro_table`)."""
        n, k = self.n, self.k
        cases = np.repeat(np.arange(n), k)
        is_pos = np.tile(np.arange(k), n) == np.repeat(self.yi, k)
        return _table_block(self.P.reshape(-1), cases, is_pos, self.W, self.integer)

    # ------------------------------------------------------- per-case sums
    def case_sum(self, values: np.ndarray) -> np.ndarray:
        """Σ over cases of weight · value for every replicate, shape (B,)."""
        return self.W @ np.asarray(values, dtype=np.float64)

    @memoized
    def true_prob(self) -> np.ndarray:
        """Probability of the true class of each case, shape (n,)."""
        return self.P[np.arange(self.n), self.yi]

    @memoized
    def rank_weight(self) -> np.ndarray:
        """Weight of the cases whose true class has rank r (0 = first; ties as
        :func:`~measurelab.stats.probrows.true_class_rank`), shape (B, k)."""
        return self._by_case_group(true_class_rank(self.P, self.yi), self.k)

    @memoized
    def confidence(self) -> tuple[np.ndarray, np.ndarray]:
        """Arg-max probability of each case and whether the arg-max class is the true one."""
        conf = self.P[np.arange(self.n), self.predicted]
        return conf, self.predicted == self.yi

    def confidence_bins(self, bins: np.ndarray, n_bins: int) -> tuple[np.ndarray, np.ndarray]:
        """Per bin (``bins``: each case's bin of its arg-max confidence), the weighted sum
        of the confidences and the weight of the correct cases, each of shape (B, n_bins)."""
        conf, correct = self.confidence
        onehot = np.zeros((self.n, n_bins))
        onehot[np.arange(self.n), bins] = 1.0
        ws = self.W @ (onehot * conf[:, None])
        wp = self.W @ (onehot * correct[:, None])
        return ws, wp

    # ---------------------------------------------------------- one replicate
    def stats(self, b: int) -> MultiStats:
        """Replicate ``b`` as an ordinary :class:`MultiStats` (every case with its weight),
        built as the evaluation builds the statistics of k-class probability rows."""
        w = np.array(self.W[b], dtype=np.float64)
        k = self.k
        mat = np.bincount(self.yi * k + self.predicted, weights=w, minlength=k * k)
        return MultiStats(
            counts=MultiCounts(mat.astype(np.float64).reshape(k, k), self.labels),
            table=MultiScoreTable.from_indices(self.yi, self.P, self.labels, w),
            rows=ProbabilityRows.from_arrays(self.yi, self.P, w),
        )
