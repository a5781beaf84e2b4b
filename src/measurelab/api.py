"""The user-facing API: :func:`evaluate` and the streaming :class:`Evaluator`.

Both build the statistics once (a score table, confusion counts, per-class tables) and
hand them to every requested measure; :class:`Evaluator` merges statistics of chunks,
processes or cluster partitions, so its result equals whole-data evaluation exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from measurelab._validation import (
    MeasurelabError,
    _as_1d,
    binarize,
    check_same_length,
    check_scores,
    check_weights,
    show,
    unique_labels,
)
from measurelab.measures._fused import prime as fused_prime
from measurelab.registry import Measure, registry
from measurelab.stats.bundle import BinaryStats, MultiStats
from measurelab.stats.confusion import BinaryCounts, MultiCounts
from measurelab.stats.multiscore import MultiScoreTable
from measurelab.stats.scoretable import ScoreTable

MeasureSpec = str | Measure


class EvaluationResult(Mapping[str, Any]):
    """Measure values by name; behaves like a read-only dict.

    Examples
    --------
    >>> import measurelab as ml
    >>> r = ml.evaluate([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], measures=["acc", "auc"])
    >>> dict(r)
    {'acc': 0.75, 'auc': 1.0}
    >>> r.to_frame().loc["auc", "direction"]
    'higher'
    """

    def __init__(self, values: dict[str, Any], measures: dict[str, Measure]) -> None:
        self._values = values
        self._measures = measures

    def __getitem__(self, name: str) -> Any:
        if name in self._values:
            return self._values[name]
        m = registry.get(name)  # alias, or a helpful error
        if m.name in self._values:
            return self._values[m.name]
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={_fmt(v)}" for k, v in self._values.items())
        return f"EvaluationResult({body})"

    def measure(self, name: str) -> Measure:
        return self._measures[name]

    def notes(self) -> dict[str, str]:
        """Verbal readings of some values (the DP band of Sokolova 2006)."""
        from measurelab.measures.likelihood import dp_band

        out = {}
        if "dp" in self._values:
            out["dp"] = dp_band(float(self._values["dp"]))
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready ``{name: number}``; two-level values give their display number,
        non-finite numbers become the strings 'inf', '-inf', 'nan'; adds ``dp_band``."""
        out: dict[str, Any] = {}
        for k, v in self._values.items():
            out[k] = _jsonable(float(v))
        if "dp" in self._values:
            out["dp_band"] = self.notes()["dp"]
        return out

    def to_frame(self) -> Any:
        """A DataFrame: value, kind, range, direction and source of each measure."""
        import pandas as pd

        notes = self.notes()
        rows = []
        for k, v in self._values.items():
            m = self._measures[k]
            rows.append(
                {
                    "measure": k,
                    "value": float(v),
                    "kind": m.kind,
                    "range": f"[{m.range[0]:g}, {m.range[1]:g}]",
                    "direction": "higher" if m.higher_is_better else "lower",
                    "note": notes.get(k, ""),
                    "source": m.source,
                }
            )
        return pd.DataFrame(rows).set_index("measure")


def _fmt(v: Any) -> str:
    return f"{float(v):.6g}"


def _jsonable(x: float) -> float | str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _resolve_all(measures: Iterable[MeasureSpec] | MeasureSpec | None) -> list[Measure] | None:
    if measures is None:
        return None
    if isinstance(measures, str | Measure):
        measures = [measures]
    return [registry.resolve(m)[0] for m in measures]


def compute_measures(
    stats: BinaryStats | MultiStats,
    measures: Iterable[MeasureSpec] | MeasureSpec | None = None,
    *,
    average: str = "macro",
    probabilities_ok: bool | None = None,
) -> EvaluationResult:
    """Evaluate measures on already-built statistics (the step shared by every front end).

    ``measures=None`` means every registered measure that applies: those whose statistic
    is present, binary-only measures skipped for multi-class input, probability measures
    skipped when the scores are not all in [0, 1]. Explicitly requested measures that do
    not apply raise :class:`MeasurelabError`.
    """
    chosen = _resolve_all(measures)
    explicit = chosen is not None
    if probabilities_ok is None:
        probabilities_ok = _scores_are_probabilities(stats)
    if chosen is None:
        chosen = [
            m
            for m in registry
            if m.applies_to(stats) and (probabilities_ok or not m.needs_probabilities)
        ]
    values: dict[str, Any] = {}
    used: dict[str, Measure] = {}
    multi = isinstance(stats, MultiStats)
    if not multi:
        fused_prime(stats, chosen)  # one compiled pass for a large table (else nothing)
    for m in chosen:
        if explicit:
            if multi and not m.supports_multiclass:
                raise MeasurelabError(
                    f"{m.name} is defined for binary tasks only, but the input has "
                    f"{stats.counts.k} classes"
                )
            if not m.applies_to(stats):
                raise MeasurelabError(
                    f"{m.name} needs scores, but only confusion counts were given"
                )
            if m.needs_probabilities and not probabilities_ok:
                lo, hi = _score_range(stats)
                bad = lo if lo < 0 else hi
                raise MeasurelabError(
                    f"{m.name} is a probability measure and needs scores in [0, 1], "
                    f"got {show(bad)}"
                )
        v = m.compute(stats, average=average) if multi else m.compute(stats)
        values[m.name] = _plain(v)
        used[m.name] = m
    return EvaluationResult(values, used)


def _plain(v: Any) -> Any:
    if isinstance(v, np.generic):
        return v.item()
    return v


def _score_range(stats: BinaryStats | MultiStats) -> tuple[float, float]:
    t = stats.table
    if t is None:
        return (0.0, 1.0)
    if isinstance(t, ScoreTable):
        return (float(t.scores[0]), float(t.scores[-1])) if t.size else (0.0, 1.0)
    los = [float(s[0]) for s in t.scores if s.size]
    his = [float(s[-1]) for s in t.scores if s.size]
    return (min(los, default=0.0), max(his, default=1.0))


def _scores_are_probabilities(stats: BinaryStats | MultiStats) -> bool:
    lo, hi = _score_range(stats)
    return lo >= 0.0 and hi <= 1.0


def build_stats(
    y_true: Any,
    y_score: Any,
    *,
    threshold: float = 0.5,
    pos_label: Any = 1,
    sample_weight: Any = None,
    inclusive: bool = False,
    labels: Any = None,
) -> BinaryStats | MultiStats:
    """Validate the input and build its statistics (binary or multi-class)."""
    score_arr = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if score_arr.ndim == 2 and score_arr.shape[1] > 1:
        return _build_multi(y_true, score_arr, labels=labels, sample_weight=sample_weight)
    y_raw = _as_1d(y_true, "y_true")
    check_same_length(("y_true", y_raw), ("y_score", _as_1d(score_arr, "y_score")))
    if labels is not None or (y_raw.dtype != bool and unique_labels(y_raw).size > 2):
        # more than two classes and one column: the column holds predicted labels
        return _build_multi_from_predictions(y_raw, _as_1d(score_arr, "y_score"), labels,
                                             sample_weight)
    y = binarize(y_raw, pos_label)
    s = check_scores(score_arr)
    w = check_weights(sample_weight, y.size)
    table = ScoreTable.from_arrays(y, s, w)
    return BinaryStats(table=table, threshold=float(threshold), inclusive=inclusive)


def _build_multi(y_true: Any, P: np.ndarray, *, labels: Any, sample_weight: Any) -> MultiStats:
    y = _as_1d(y_true, "y_true")
    check_same_length(("y_true", y), ("y_score", P))
    P = np.asarray(P, dtype=np.float64)
    if not np.isfinite(P).all():
        i, j = np.argwhere(~np.isfinite(P))[0]
        raise MeasurelabError(
            f"y_score must be finite, got {show(P[i, j])} at row {i}, column {j}"
        )
    w = check_weights(sample_weight, y.size)
    if labels is None:
        labels = unique_labels(y)
        if labels.size != P.shape[1]:
            raise MeasurelabError(
                f"y_score has {P.shape[1]} columns but y_true has {labels.size} classes "
                f"({labels.tolist()}); pass labels= to name the columns"
            )
    labels = np.asarray(labels)
    pred = labels[np.argmax(P, axis=1)]
    counts = MultiCounts.from_labels(y, pred, labels=labels, sample_weight=w)
    table = MultiScoreTable.from_arrays(y, P, labels=labels, sample_weight=w)
    return MultiStats(counts=counts, table=table)


def _build_multi_from_predictions(
    y: np.ndarray, pred: np.ndarray, labels: Any, sample_weight: Any
) -> MultiStats:
    w = check_weights(sample_weight, y.size)
    if labels is None:
        labels = unique_labels(np.concatenate([y, pred]))
    return MultiStats(counts=MultiCounts.from_labels(y, pred, labels=labels, sample_weight=w))


def evaluate(
    y_true: Any,
    y_score: Any,
    *,
    measures: Iterable[MeasureSpec] | MeasureSpec | None = None,
    threshold: float = 0.5,
    pos_label: Any = 1,
    sample_weight: Any = None,
    inclusive: bool = False,
    average: str = "macro",
    labels: Any = None,
) -> EvaluationResult:
    """Evaluate predictions with many measures from one pass over the data.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels: two classes for binary evaluation, or k classes.
    y_score : array-like of shape (n,) or (n, k)
        Binary: a score per example, higher = more likely positive (probability measures
        need [0, 1]). Multi-class: one column per class in sorted label order (or
        ``labels``), or a 1-d vector of predicted labels (threshold measures only).
    measures : names, aliases, ``name@param`` or two-level ``f:g`` specs, or Measure objects
        ``None`` evaluates every registered measure that applies to the input.
    threshold : float, default 0.5
        Hard prediction is positive iff ``score > threshold``.
    pos_label : label of the positive class, default 1
    sample_weight : array-like of shape (n,), optional
    inclusive : bool, default False
        Use ``score >= threshold`` (Caruana's perf) instead of ``>``.
    average : 'macro', 'weighted' or 'micro', default 'macro'
        How per-class values combine for multi-class input. For AUC, 'macro' is Hand &
        Till's M and 'weighted' the prevalence-weighted one-vs-rest AUC.
    labels : array-like, optional
        Class order of the columns of a 2-d ``y_score``.

    Returns
    -------
    EvaluationResult
        A mapping ``{name: value}`` with ``.to_frame()`` and ``.to_dict()``.

    Examples
    --------
    >>> import measurelab as ml
    >>> r = ml.evaluate([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], measures=["acc", "auc", "rms"])
    >>> {k: round(v, 4) for k, v in r.items()}
    {'acc': 0.75, 'auc': 0.75, 'rms': 0.3976}
    """
    stats = build_stats(
        y_true,
        y_score,
        threshold=threshold,
        pos_label=pos_label,
        sample_weight=sample_weight,
        inclusive=inclusive,
        labels=labels,
    )
    return compute_measures(stats, measures, average=average)


def evaluate_counts(
    tp: float,
    fp: float,
    fn: float,
    tn: float,
    *,
    measures: Iterable[MeasureSpec] | MeasureSpec | None = None,
) -> EvaluationResult:
    """Every threshold measure (or the chosen ones) from a binary confusion matrix.

    Examples
    --------
    >>> import measurelab as ml
    >>> r = ml.evaluate_counts(1242, 390, 189, 740, measures=["acc", "youden"])  # Sokolova
    >>> round(r["acc"], 4), round(r["youden"], 4)
    (0.7739, 0.5228)
    """
    for name, v in (("tp", tp), ("fp", fp), ("fn", fn), ("tn", tn)):
        if not (isinstance(v, int | float | np.integer | np.floating) and v >= 0 and
                math.isfinite(v)):
            raise MeasurelabError(f"{name} must be a non-negative count, got {v!r}")
    stats = BinaryStats(given_counts=BinaryCounts(tp, fp, fn, tn))
    return compute_measures(stats, measures, probabilities_ok=False)


def per_class(
    y_true: Any,
    y_score: Any,
    *,
    threshold: float = 0.5,
    pos_label: Any = 1,
    labels: Any = None,
    sample_weight: Any = None,
) -> Any:
    """Extended per-class precision, recall and F1 with support (Lingras & Butz 2007;
    Hossin 2011 eq. 9–10): class i's precision is |R_i ∩ A_i| / |A_i| and its recall
    |R_i ∩ A_i| / |R_i| (R_i: examples of class i, A_i: examples predicted i).

    Binary input gives two rows, positive first: (p1, r1) = (prec, sens) and
    (p2, r2) = (npv, spec). Multi-class input: one row per class.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.per_class([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6]).round(3).to_dict("index")[1]
    {'precision': 0.5, 'recall': 0.5, 'f1': 0.5, 'support': 2.0}
    """
    import pandas as pd

    from measurelab.measures.basic import f1, prec, sens

    stats = build_stats(y_true, y_score, threshold=threshold, pos_label=pos_label,
                        sample_weight=sample_weight, labels=labels)
    if isinstance(stats, BinaryStats):
        c = stats.counts
        both = BinaryCounts(np.array([c.tp, c.tn]), np.array([c.fp, c.fn]),
                            np.array([c.fn, c.fp]), np.array([c.tn, c.tp]))
        names = [pos_label, "rest" if pos_label is None else f"not {pos_label}"]
        y_arr = _as_1d(y_true, "y_true")
        others = [v for v in unique_labels(y_arr).tolist() if v != pos_label]
        if others:
            names[1] = others[0]
    else:
        both = stats.counts.one_vs_rest()
        names = list(stats.counts.labels)
    return pd.DataFrame(
        {
            "precision": prec(both),
            "recall": sens(both),
            "f1": f1(both),
            "support": np.asarray(both.tp + both.fn, dtype=np.float64),
        },
        index=pd.Index(names, name="class"),
    )


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
        average: str = "macro",
        labels: Any = None,
    ) -> None:
        self.measures = _resolve_all(measures)
        self.threshold = float(threshold)
        self.pos_label = pos_label
        self.inclusive = inclusive
        self.average = average
        self.labels = None if labels is None else list(labels)
        self.table: ScoreTable | MultiScoreTable | None = None
        self.counts: MultiCounts | None = None
        self.n_updates = 0

    def _settings(self) -> tuple[Any, ...]:
        return (self.threshold, self.pos_label, self.inclusive, self.labels)

    def update(self, y_true: Any, y_score: Any, sample_weight: Any = None) -> Evaluator:
        """Add a chunk of data; returns ``self``."""
        P = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
        if P.ndim == 2 and P.shape[1] > 1:
            stats = _build_multi(y_true, P, labels=self.labels, sample_weight=sample_weight)
            if self.labels is None:
                self.labels = list(stats.counts.labels)
            self._add_multi(stats.table, stats.counts)
        else:
            if self.counts is not None:
                raise MeasurelabError("this evaluator holds multi-class data; got a 1-d y_score")
            stats = build_stats(y_true, P, pos_label=self.pos_label,
                                sample_weight=sample_weight)
            if not isinstance(stats, BinaryStats):
                raise MeasurelabError(
                    "Evaluator streams binary scores or multi-class probability columns"
                )
            self.table = stats.table if self.table is None else self.table.merge(stats.table)
        self.n_updates += 1
        return self

    def _add_multi(self, table: MultiScoreTable, counts: MultiCounts) -> None:
        if isinstance(self.table, ScoreTable):
            raise MeasurelabError("this evaluator holds binary data; got a 2-d y_score")
        self.table = table if self.table is None else self.table.merge(table)
        self.counts = counts if self.counts is None else self.counts.merge(counts)

    def update_table(self, table: ScoreTable) -> Evaluator:
        """Add an already-built binary score table (from another process or file part)."""
        self.table = table if self.table is None else self.table.merge(table)
        self.n_updates += 1
        return self

    def merge(self, other: Evaluator) -> Evaluator:
        """A new evaluator holding both evaluators' data."""
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
                out.update_table(part.table)
            else:
                out._add_multi(part.table, part.counts)
                out.n_updates += 1
        return out

    __add__ = merge

    def stats(self) -> BinaryStats | MultiStats:
        if self.table is None:
            raise MeasurelabError("no data: call update() before compute()")
        if isinstance(self.table, ScoreTable):
            return BinaryStats(table=self.table, threshold=self.threshold,
                               inclusive=self.inclusive)
        return MultiStats(counts=self.counts, table=self.table)

    def compute(self) -> EvaluationResult:
        """Measure values on everything seen so far."""
        return compute_measures(self.stats(), self.measures, average=self.average)
