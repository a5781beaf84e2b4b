"""Bundles of statistics handed to measures: what one evaluation has computed.

A :class:`BinaryStats` holds the score table (when scores were seen) and the threshold;
the confusion counts at that threshold are derived once and shared. A bundle built from
counts alone (``measurelab evaluate --counts``) serves only threshold measures.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from measurelab._validation import MeasurelabError
from measurelab.stats.confusion import BinaryCounts, MultiCounts
from measurelab.stats.multiscore import MultiScoreTable
from measurelab.stats.probrows import ProbabilityRows
from measurelab.stats.scoretable import ScoreTable


@dataclass(frozen=True, eq=False)
class BinaryStats:
    """Score table and/or confusion counts of one binary evaluation."""

    table: ScoreTable | None = None
    given_counts: BinaryCounts | None = None
    threshold: float = 0.5
    inclusive: bool = False

    @cached_property
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
        table = None if self.table is None else self.table.merge(other.table)
        rows = None
        if self.rows is not None and other.rows is not None:
            rows = self.rows.merge(other.rows.shifted(self.rows.n_rows))
        return MultiStats(self.counts.merge(other.counts), table, rows)

    __add__ = merge
