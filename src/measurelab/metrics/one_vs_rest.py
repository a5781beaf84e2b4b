"""Per-class evaluation: every binary measure one-vs-rest, one row per class."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from measurelab._util.validation import show
from measurelab.exceptions import MeasurelabError
from measurelab.measures.base import registry
from measurelab.measures.compute import (
    MeasureSpec,
    check_total,
    plain_value,
    resolve_measures,
    score_range,
    scores_are_probabilities,
)
from measurelab.metrics.evaluation import build_stats
from measurelab.stats.bundle import one_vs_rest_stats


def per_class(
    y_true: Any,
    y_score: Any,
    *,
    measures: Iterable[MeasureSpec] | MeasureSpec | None = None,
    threshold: float = 0.5,
    pos_label: Any = 1,
    labels: Any = None,
    sample_weight: Any = None,
    inclusive: bool = False,
) -> Any:
    """Every binary measure one-vs-rest, one row per class: class i is the positive class
    and all others the negative one.

    The hard prediction of class i is the arg-max class (multi-class) or the threshold rule
    (binary), so the ``precision`` and ``recall`` columns are the extended per-class
    precision and recall of Lingras & Butz 2007 and Hossin 2011 eq. 9–10 (class i's
    precision |R_i ∩ A_i| / |A_i|, recall |R_i ∩ A_i| / |R_i|); rank measures use column i's
    scores, probability measures column i's probabilities.

    Binary input gives two rows, positive first: the negative class's scores are −score for
    rank measures and 1 − score for probability measures, so (precision, recall) of the
    second row are (npv, spec).

    Parameters
    ----------
    y_true, y_score, threshold, pos_label, labels, sample_weight, inclusive
        As in :func:`evaluate`.
    measures : names or specs, optional
        Default: every registered measure that applies (probability measures only when the
        scores are in [0, 1]).

    Returns
    -------
    pandas.DataFrame
        Index: the classes in label order (binary: positive first). Columns: ``precision``,
        ``recall``, ``f1`` (= prec, sens, f1), then every other measure of the default set
        (no 'heavy' one) by its registry name in registry order (with ``measures=``: the
        given names, in order), then ``support`` (the class's total weight).

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.per_class([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6]).round(3).loc[1, ["precision", "recall"]]
    precision    0.5
    recall       0.5
    Name: 1, dtype: float64
    >>> df = ml.per_class([0, 1, 2, 2], [[.6, .3, .1], [.2, .5, .3], [.1, .1, .8], [.3, .4, .3]])
    >>> df["auc"].tolist(), df["support"].tolist()
    ([1.0, 1.0, 0.875], [1.0, 1.0, 2.0])
    """
    import pandas as pd

    stats = build_stats(y_true, y_score, threshold=threshold, pos_label=pos_label,
                        sample_weight=sample_weight, labels=labels, inclusive=inclusive)
    check_total(stats)
    names, parts = one_vs_rest_stats(stats, y_true, pos_label)
    chosen = resolve_measures(measures)
    explicit = chosen is not None
    probabilities_ok = scores_are_probabilities(stats)
    has_scores = stats.has_scores
    if chosen is None:
        first = [registry.get(n) for n in ("prec", "sens", "f1")]
        chosen = first + [m for m in registry if m not in first and m.in_default_set]
    columns: dict[str, list[Any]] = {}
    legacy = {"prec": "precision", "sens": "recall", "f1": "f1"}
    for m in chosen:
        if m.statistic != "counts" and not has_scores:
            if explicit:
                raise MeasurelabError(f"{m.name} needs scores, but only labels were given")
            continue
        if m.needs_probabilities and not probabilities_ok:
            if explicit:
                lo, hi = score_range(stats)
                raise MeasurelabError(
                    f"{m.name} is a probability measure and needs scores in [0, 1], "
                    f"got {show(lo if lo < 0 else hi)}"
                )
            continue
        col = legacy.get(m.name, m.name) if not explicit else m.name
        columns[col] = [plain_value(m.compute(rank if not m.needs_probabilities else prob))
                        for rank, prob in parts]
    columns["support"] = [float(rank.counts.n_pos) for rank, _ in parts]
    return pd.DataFrame(columns, index=pd.Index(names, name="class"))
