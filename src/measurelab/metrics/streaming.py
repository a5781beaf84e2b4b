"""Streaming evaluation: :class:`Evaluator` accumulates mergeable statistics chunk by
chunk (or from other processes and cluster partitions), so its result equals
:func:`~measurelab.evaluate` on all the data exactly."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from measurelab._util.validation import (
    as_1d,
    check_flag,
    short_list,
    short_repr,
    show,
    unique_labels,
)
from measurelab._util.words import counted
from measurelab.exceptions import MeasurelabError
from measurelab.measures.base import check_average
from measurelab.measures.compute import (
    EvaluationResult,
    MeasureSpec,
    compute_measures,
    resolve_measures,
)
from measurelab.metrics.evaluation import _build_multi, build_stats
from measurelab.pickling import versioned_pickle
from measurelab.stats.bundle import BinaryStats, MultiStats
from measurelab.stats.checks import check_threshold_value
from measurelab.stats.confusion import MultiCounts
from measurelab.stats.multiscore import MultiScoreTable
from measurelab.stats.scoretable import ScoreTable


@versioned_pickle
class Evaluator:
    """Streaming evaluation: ``update`` per chunk, ``merge`` partial evaluators,
    ``compute`` at the end — equal to :func:`evaluate` on all the data.

    Examples
    --------
    >>> import measurelab as ml
    >>> a = ml.Evaluator(measures=["auc", "acc"]).update([0, 1], [0.3, 0.8])
    >>> b = ml.Evaluator(measures=["auc", "acc"]).update([1, 0], [0.2, 0.1])
    >>> dict(a.merge(b).compute()) == dict(
    ...     ml.evaluate([0, 1, 1, 0], [0.3, 0.8, 0.2, 0.1], measures=["auc", "acc"]))
    True
    """

    def __init__(
        self,
        *,
        measures: Iterable[MeasureSpec] | MeasureSpec | None = None,
        threshold: float = 0.5,
        pos_label: Any = 1,
        inclusive: bool = False,
        average: str | None = "macro",
        labels: Any = None,
    ) -> None:
        self.measures = resolve_measures(measures)
        self.threshold = check_threshold_value(threshold)
        self.pos_label = pos_label
        self.inclusive = check_flag(inclusive, "inclusive")
        self.average = check_average(average)
        self.labels = None if labels is None else list(labels)
        self.table: ScoreTable | MultiScoreTable | None = None
        self.counts: MultiCounts | None = None
        self._multi: MultiStats | None = None
        self.n_updates = 0
        self._seen: list[Any] = []  # binary labels seen so far, in order of appearance

    def _settings(self) -> tuple[Any, ...]:
        return (self.threshold, self.pos_label, self.inclusive, self.labels)

    def update(self, y_true: Any, y_score: Any, sample_weight: Any = None) -> Evaluator:
        """Add a chunk of data; returns ``self``."""
        P = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
        if P.ndim == 2 and P.shape[1] > 1:
            stats = _build_multi(y_true, P, labels=self.labels, sample_weight=sample_weight)
            if self.labels is None:
                self.labels = list(stats.counts.labels)
            self.update_multi(stats)
            return self
        else:
            if self.counts is not None:
                raise MeasurelabError("this evaluator holds multi-class data; got a 1-d y_score")
            bstats = build_stats(y_true, P, pos_label=self.pos_label,
                                 sample_weight=sample_weight)
            if not isinstance(bstats, BinaryStats):
                raise MeasurelabError(
                    "Evaluator streams binary scores or multi-class probability columns"
                )
            seen = self._seen_with(as_1d(y_true, "y_true"))
            # binary data: a table from scores, and no multi-class one (counts is None)
            assert bstats.table is not None and not isinstance(self.table, MultiScoreTable)
            self.table = bstats.table if self.table is None else self.table.merge(bstats.table)
            self._seen = seen
        self.n_updates += 1
        return self

    def _seen_with(self, y: np.ndarray) -> list[Any]:
        """The binary labels seen so far plus those of ``y``, or the error
        :func:`evaluate` would raise on all the data together (three classes, or two
        classes without ``pos_label``)."""
        if y.dtype == bool:
            return self._seen
        seen = list(self._seen)
        for v in unique_labels(y).tolist():
            if v not in seen:
                seen.append(v)
        if len(seen) > 2:
            shown = ", ".join(short_repr(v, 30) for v in seen[:6])
            raise MeasurelabError(
                f"y_true has {len(seen)} classes ({shown}) across the updates; binary "
                "measures need exactly two"
            )
        if len(seen) == 2 and self.pos_label not in seen:
            raise MeasurelabError(
                f"pos_label={short_repr(self.pos_label)} is not a valid label. It should be "
                f"one of {short_list(sorted(seen, key=str))} (the labels of all updates)"
            )
        return seen

    def update_multi(self, stats: MultiStats) -> Evaluator:
        """Add already-built multi-class statistics (rows after the ones seen so far)."""
        if isinstance(self.table, ScoreTable):
            raise MeasurelabError("this evaluator holds binary data; got a 2-d y_score")
        if self.labels is not None and list(stats.counts.labels) != list(self.labels):
            raise MeasurelabError(
                f"these statistics are over the classes {list(stats.counts.labels)}, "
                f"this evaluator's over {list(self.labels)}"
            )
        self._multi = stats if self._multi is None else self._multi.merge(stats)
        self.table, self.counts = self._multi.table, self._multi.counts
        self.n_updates += 1
        return self

    def update_table(self, table: ScoreTable) -> Evaluator:
        """Add an already-built binary score table (from another process or file part)."""
        if isinstance(self.table, MultiScoreTable):
            raise MeasurelabError("this evaluator holds multi-class data; got a binary table")
        self.table = table if self.table is None else self.table.merge(table)
        self.n_updates += 1
        return self

    def merge(self, other: Evaluator) -> Evaluator:
        """A new evaluator holding both evaluators' data."""
        if not isinstance(other, Evaluator):
            raise MeasurelabError(f"can merge only another Evaluator, got {show(other)[:60]}")
        if self._settings() != other._settings() and other.table is not None:
            raise MeasurelabError(
                "cannot merge evaluators with different threshold, pos_label, inclusive or labels"
            )
        out = Evaluator(
            measures=self.measures,
            threshold=self.threshold,
            pos_label=self.pos_label,
            inclusive=self.inclusive,
            average=self.average,
            labels=self.labels,
        )
        for part in (self, other):
            if part.table is None:
                continue
            if isinstance(part.table, ScoreTable):
                out._seen = out._seen_with(np.asarray(part._seen, dtype=object))
                out.update_table(part.table)
            else:
                assert part._multi is not None  # set with a multi-class table
                out.update_multi(part._multi)
        return out

    __add__ = merge

    def stats(self) -> BinaryStats | MultiStats:
        if self.table is None:
            raise MeasurelabError("no data: call update() before compute()")
        if isinstance(self.table, ScoreTable):
            return BinaryStats(table=self.table, threshold=self.threshold,
                               inclusive=self.inclusive)
        assert self._multi is not None  # set with a multi-class table
        return self._multi

    def compute(self) -> EvaluationResult:
        """Measure values on everything seen so far."""
        return compute_measures(self.stats(), self.measures, average=self.average)

    def __str__(self) -> str:
        """What ``print()`` shows: what has been seen, and the values so far.

        Examples
        --------
        >>> print(Evaluator(measures=["acc"]).update([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1]))
        Evaluator after 1 update: 4 cases.
        Evaluation of 1 measure:
          acc  0.75
        Tables: .to_frame() .notes(); figure: .plot(); page: .to_html(path)
        >>> print(Evaluator(measures=["acc"]))
        Evaluator with no data yet: call update(y_true, y_score).
        """
        if self.table is None:
            return "Evaluator with no data yet: call update(y_true, y_score)."
        seen = self.table.total if isinstance(self.table, ScoreTable) else (
            self._multi.counts.total if self._multi is not None else float("nan"))
        cases = (counted(seen, "case") if float(seen).is_integer()
                 else f"total weight {seen:.6g}")
        return (f"Evaluator after {counted(self.n_updates, 'update')}: {cases}.\n"
                f"{self.compute()}")
