"""The three exact, mergeable summaries every measure is computed from.

* :class:`~measurelab.stats.confusion.BinaryCounts` / :class:`MultiCounts` — confusion
  counts (weighted), binary or k×k;
* :class:`~measurelab.stats.scoretable.ScoreTable` — sorted unique scores with the
  positive and negative weight at each (one per class for multi-class:
  :class:`~measurelab.stats.multiscore.MultiScoreTable`);
* :class:`~measurelab.stats.probsums.ProbabilitySums` — sums that the probability
  measures need, for streams where even the score table is too large;
* :class:`~measurelab.stats.probrows.ProbabilityRows` — what k-class probability rows
  give beyond the per-class tables: arg-max confidence (ECE), rank of the true class
  (top-k accuracy) and the row-sum check.

Two summaries of disjoint data merge (``a.merge(b)`` or ``a + b``) into the summary of the
union, so chunked, streamed and distributed evaluation equal whole-data evaluation.
"""

from measurelab.stats.confusion import BinaryCounts, MultiCounts
from measurelab.stats.multiscore import MultiScoreTable
from measurelab.stats.probrows import ProbabilityRows
from measurelab.stats.scoretable import ScoreTable

__all__ = ["BinaryCounts", "MultiCounts", "MultiScoreTable", "ProbabilityRows", "ScoreTable"]
