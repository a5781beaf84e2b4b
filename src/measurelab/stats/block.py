"""A block of score tables: many reweightings of one sorted table, evaluated at once.

A bootstrap replicate (or a jackknife leave-out) of a score table keeps its distinct scores
and changes only the weight of each row (docs/METHODS.md#bootstrap). :class:`TableBlock` holds ``B``
such
reweightings as two ``(B, R)`` matrices over the ``R`` rows of one table, so every measure
of all ``B`` replicates comes from a few array operations along the rows (cumulative sums,
matrix products) instead of ``B`` evaluation calls. :class:`BlockStats` adds the threshold,
as :class:`~measurelab.stats.bundle.BinaryStats` does for one table.

Row ``b`` of a block is an ordinary table (:meth:`TableBlock.table`), so a block formula is
checked against the measure's scalar formula on every row (``tests/stats/test_block.py``).

Examples
--------
>>> import numpy as np
>>> from measurelab.stats.scoretable import ScoreTable
>>> t = ScoreTable.from_arrays([True, False, True, False], [0.9, 0.4, 0.4, 0.1])
>>> blk = TableBlock(t.scores, np.array([[0., 1, 1], [0, 2, 0]]), np.array([[1., 1, 0], [1, 1, 0]]))
>>> blk.n_pos.tolist(), blk.counts_at(0.5).tp.tolist()
([2.0, 2.0], [1.0, 0.0])
>>> blk.table(1).pos.tolist()
[0.0, 2.0, 0.0]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from measurelab.stats._memo import memoized
from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.scoretable import ScoreTable


@dataclass(frozen=True, eq=False)
class TableBlock:
    """``B`` weightings of one table's rows: ``pos`` and ``neg`` of shape ``(B, R)``.

    Parameters
    ----------
    scores : ndarray of shape (R,), strictly increasing (shared by every row of the block)
    pos, neg : ndarray of shape (B, R), the weight of positives / negatives at each score
    integer : whether every weight is known to be a whole number (bootstrap multiplicities
        of whole counts); None: checked on first use
    cache : values that depend on the scores alone (:meth:`score_cached`), shared by the
        blocks of one model; None: kept nowhere

    ``memo`` holds what is derived from the fields (totals, cumulative sums, the measures'
    compiled walk of the block): not part of the value (:mod:`measurelab.stats._memo`).
    """

    scores: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    integer: bool | None = None
    cache: dict[str, Any] | None = None
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def score_cached(self, key: str, compute: Any) -> Any:
        """``compute(scores)``, kept in ``cache`` when the block has one (the bootstrap
        shares one per model, so what depends on the scores alone — MXE's logarithms — is
        computed once, not once per block).

        Examples
        --------
        >>> blk = TableBlock(np.array([0.5]), np.ones((1, 1)), np.zeros((1, 1)), cache={})
        >>> blk.score_cached("twice", lambda s: 2 * s).tolist()
        [1.0]
        """
        if self.cache is None:
            return compute(self.scores)
        if key not in self.cache:
            self.cache[key] = compute(self.scores)
        return self.cache[key]

    @property
    def n_blocks(self) -> int:
        """Number of tables in the block (``B``)."""
        return int(self.pos.shape[0])

    @property
    def size(self) -> int:
        """Number of rows (distinct scores) of every table (``R``)."""
        return int(self.scores.size)

    @memoized
    def n_pos(self) -> np.ndarray:
        return self.pos.sum(axis=1)

    @memoized
    def n_neg(self) -> np.ndarray:
        return self.neg.sum(axis=1)

    @property
    def total(self) -> np.ndarray:
        return self.n_pos + self.n_neg

    @memoized
    def is_integer(self) -> bool:
        if self.integer is not None:
            return bool(self.integer)
        return bool(np.array_equal(self.pos, np.round(self.pos))
                    and np.array_equal(self.neg, np.round(self.neg)))

    # ------------------------------------------------------------ descending views
    @memoized
    def pos_desc(self) -> np.ndarray:
        """Positives per row in decreasing score order, shape (B, R)."""
        return self.pos[:, ::-1]

    @memoized
    def neg_desc(self) -> np.ndarray:
        return self.neg[:, ::-1]

    @memoized
    def cum_pos_desc(self) -> np.ndarray:
        """Positives with score >= each distinct score (decreasing order), shape (B, R)."""
        return np.cumsum(self.pos_desc, axis=1)

    @memoized
    def cum_neg_desc(self) -> np.ndarray:
        return np.cumsum(self.neg_desc, axis=1)

    @memoized
    def desc_groups(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Decreasing score order: positives and cases in each group, and before it, each
        of shape (B, R) (as :attr:`ScoreTable.desc_groups`)."""
        p = self.pos_desc
        m = p + self.neg_desc
        cum_m = self.cum_pos_desc + self.cum_neg_desc
        return p, m, self.cum_pos_desc - p, cum_m - m

    # ------------------------------------------------------------------ counts
    def counts_at(self, threshold: float = 0.5, *, inclusive: bool = False) -> BinaryCounts:
        """Confusion counts of every table at ``threshold`` (arrays of shape (B,))."""
        i = int(np.searchsorted(self.scores, threshold, side="left" if inclusive else "right"))
        tp = self.pos[:, i:].sum(axis=1)
        fp = self.neg[:, i:].sum(axis=1)
        fn = self.pos[:, :i].sum(axis=1)
        tn = self.neg[:, :i].sum(axis=1)
        return BinaryCounts(tp, fp, fn, tn)

    def table(self, b: int) -> ScoreTable:
        """Table ``b`` of the block as an ordinary :class:`ScoreTable`."""
        return ScoreTable(self.scores, self.pos[b].copy(), self.neg[b].copy(),
                          integer=None if self.integer is None else bool(self.integer))

    @classmethod
    def of_table(cls, table: ScoreTable) -> TableBlock:
        """A block of one table (``B = 1``)."""
        return cls(table.scores, table.pos[None, :], table.neg[None, :],
                   integer=table.is_integer)


@dataclass(frozen=True, eq=False)
class BlockStats:
    """A :class:`TableBlock` with the threshold of the hard predictions: what a block
    formula of a composite measure (``statistic='stats'``) receives."""

    table: TableBlock
    threshold: float = 0.5
    inclusive: bool = False
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @memoized
    def counts(self) -> BinaryCounts:
        return self.table.counts_at(self.threshold, inclusive=self.inclusive)

    @property
    def n_blocks(self) -> int:
        return self.table.n_blocks

    def stats(self, b: int) -> Any:
        """Row ``b`` as an ordinary :class:`~measurelab.stats.bundle.BinaryStats`."""
        from measurelab.stats.bundle import BinaryStats

        return BinaryStats(table=self.table.table(b), threshold=self.threshold,
                           inclusive=self.inclusive)
