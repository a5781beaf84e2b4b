"""Bundles of statistics handed to measures: what one evaluation has computed.

A :class:`BinaryStats` holds the score table (when scores were seen) and the threshold;
the confusion counts at that threshold are derived once and shared. A bundle built from
counts alone (``measurelab evaluate --counts``) serves only threshold measures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from measurelab._util.validation import as_1d, unique_labels
from measurelab.exceptions import MeasurelabError
from measurelab.pickling import versioned_pickle
from measurelab.stats._memo import memoized
from measurelab.stats.confusion import BinaryCounts, MultiCounts
from measurelab.stats.multiscore import MultiScoreTable
from measurelab.stats.probrows import ProbabilityRows
from measurelab.stats.scoretable import ScoreTable, _combine


@versioned_pickle
@dataclass(frozen=True, eq=False)
class BinaryStats:
    """Score table and/or confusion counts of one binary evaluation.

    ``memo`` keeps the counts at the threshold once derived (:attr:`counts`, under the key
    ``"counts"``; the measures' compiled walk of a large table may put the counts it summed
    there first): not part of the value (:mod:`measurelab.stats._memo`).
    """

    table: ScoreTable | None = None
    given_counts: BinaryCounts | None = None
    threshold: float = 0.5
    inclusive: bool = False
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @memoized
    def counts(self) -> BinaryCounts:
        if self.given_counts is not None:
            return self.given_counts
        if self.table is None:
            raise MeasurelabError("no data: neither a score table nor confusion counts")
        return self.table.counts_at(self.threshold, inclusive=self.inclusive)

    @property
    def has_scores(self) -> bool:
        return self.table is not None

    def require_table(self, measure: str) -> ScoreTable:
        if self.table is None:
            raise MeasurelabError(
                f"{measure} needs scores, but only confusion counts were given"
            )
        return self.table


@versioned_pickle
@dataclass(frozen=True, eq=False)
class MultiStats:
    """Confusion matrix (from the arg-max class) and per-class score tables."""

    counts: MultiCounts
    table: MultiScoreTable | None = None
    rows: ProbabilityRows | None = None

    @property
    def has_scores(self) -> bool:
        return self.table is not None

    def merge(self, other: MultiStats) -> MultiStats:
        """Statistics of the union; ``other``'s rows come after this one's."""
        if (self.table is None) != (other.table is None):
            raise MeasurelabError("cannot merge class scores with predicted labels only")
        table = (None if self.table is None or other.table is None
                 else self.table.merge(other.table))
        rows = None
        if self.rows is not None and other.rows is not None:
            rows = self.rows.merge(other.rows.shifted(self.rows.n_rows))
        return MultiStats(self.counts.merge(other.counts), table, rows)

    __add__ = merge


def multi_stats_from_indices(
    yi: np.ndarray, P: np.ndarray, labels: tuple[Any, ...], sample_weight: Any = None
) -> MultiStats:
    """Statistics of k-class probability rows ``P`` (n × k, validated) with true-class
    column indices ``yi``: confusion matrix of the arg-max class (first column on ties),
    per-class score tables and the row summary (:class:`ProbabilityRows`).

    Examples
    --------
    >>> s = multi_stats_from_indices(np.array([0, 1]), np.array([[.6, .4], [.3, .7]]), ("a", "b"))
    >>> s.counts.matrix.tolist(), s.rows.rank_weight.tolist()
    ([[1.0, 0.0], [0.0, 1.0]], [2.0, 0.0])
    """
    k = len(labels)
    yi = np.asarray(yi, dtype=np.int64)
    pred = np.argmax(P, axis=1) if len(P) else np.zeros(0, dtype=np.int64)
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    mat = np.bincount(yi * k + pred, weights=w, minlength=k * k).astype(np.float64)
    return MultiStats(
        counts=MultiCounts(mat.reshape(k, k), tuple(labels)),
        table=MultiScoreTable.from_indices(yi, P, tuple(labels), w),
        rows=ProbabilityRows.from_arrays(yi, P, w),
    )


def one_vs_rest_stats(
    stats: BinaryStats | MultiStats, y_true: Any, pos_label: Any
) -> tuple[list[Any], list[tuple[BinaryStats, BinaryStats]]]:
    """Class names and, per class, binary statistics with that class positive: one bundle
    for rank measures and one for probability measures (they differ only for the binary
    negative class: −score versus 1 − score).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([True, False, True], [0.9, 0.2, 0.6])
    >>> names, parts = one_vs_rest_stats(BinaryStats(table=t), [1, 0, 1], 1)
    >>> names, parts[1][0].table.scores.tolist(), parts[1][1].table.scores.round(2).tolist()
    ([1, 0], [-0.9, -0.6, -0.2], [0.1, 0.4, 0.8])
    """
    if isinstance(stats, MultiStats):
        ovr = stats.counts.one_vs_rest()
        parts = []
        for i in range(stats.counts.k):
            c = BinaryCounts(float(ovr.tp[i]), float(ovr.fp[i]), float(ovr.fn[i]),
                             float(ovr.tn[i]))
            t = None if stats.table is None else stats.table.ovr_table(i)
            b = BinaryStats(table=t, given_counts=c)
            parts.append((b, b))
        return list(stats.counts.labels), parts
    names = [pos_label, "rest" if pos_label is None else f"not {pos_label}"]
    others = [v for v in unique_labels(as_1d(y_true, "y_true")).tolist() if v != pos_label]
    if others:
        names[1] = others[0]
    t = stats.table
    assert t is not None  # the callers build stats from y_true and scores: a table
    neg_counts = stats.counts.swapped()
    neg_rank = BinaryStats(table=t.swapped(), given_counts=neg_counts)
    # 1 − score may round two close scores to one value: regroup the rows
    neg_prob = BinaryStats(table=ScoreTable(*_combine(1.0 - t.scores, t.neg, t.pos)),
                           given_counts=neg_counts)
    return names, [(stats, stats), (neg_rank, neg_prob)]
