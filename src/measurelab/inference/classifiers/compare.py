"""Comparing classifiers on the same test cases: :func:`compare_classifiers`, the entry
point. It asks once whether the input is binary or k-class (:mod:`.inputs`), lets
:func:`~.inputs.prepare_binary` or :func:`~.inputs.prepare_multiclass` read it, and builds
the binary comparison (:class:`~measurelab.inference.classifiers.binary.ClassifierComparison`;
clustered cases and subgroups: :mod:`.structured`) or the k-class one
(:class:`~measurelab.inference.classifiers.multiclass.MultiClassComparison`).

Examples
--------
>>> r = compare_classifiers([0, 1, 2, 0, 1, 2], {"a": [0, 1, 2, 0, 1, 1]}, measures=["acc"],
...                         ci=None)
>>> type(r).__name__
'MultiClassComparison'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from measurelab._util.validation import (
    as_1d,
    check_flag,
    check_random_state,
)
from measurelab.exceptions import MeasurelabError
from measurelab.inference import intervals as iv
from measurelab.inference._base import model_items, model_names
from measurelab.inference.classifiers._report import reliability  # noqa: F401  (re-exported)
from measurelab.inference.classifiers.binary import ClassifierComparison
from measurelab.inference.classifiers.inputs import (
    HEADLINE,
    choose_measures,
    is_multiclass_input,
    prepare_binary,
    prepare_multiclass,
    read_binary,
)
from measurelab.inference.classifiers.multiclass import MultiClassComparison
from measurelab.measures.base import Measure, check_average
from measurelab.stats.checks import check_threshold_value

__all__ = ["HEADLINE", "compare_classifiers"]



def compare_classifiers(
    y_true: Any,
    models: Mapping[str, Any] | Sequence[tuple[str, Any]],
    *,
    measures: Iterable[str | Measure] | str | None = None,
    ci: float | None = 0.95,
    n_boot: int = 2000,
    random_state: Any = 0,
    ci_method: str | None = None,
    sample_weight: Any = None,
    threshold: float = 0.5,
    pos_label: Any = 1,
    inclusive: bool = False,
    progress: bool | None = None,
    n_jobs: int | None = None,
    stratify: bool = False,
    average: str | None = "macro",
    labels: Any = None,
    groups: Any = None,
    by: Any = None,
) -> ClassifierComparison:
    """Compare several models scored on the same cases: values, intervals, paired tests.

    Parameters
    ----------
    y_true : array-like of shape (n,) or (n, L)
        Binary labels, or k ≥ 3 classes (see Notes); an (n, L) 0/1 indicator matrix (or a
        list of label sets with ``labels=``) is multi-label: each model then gives an
        (n, L) score matrix (or scikit-learn's ``predict_proba`` list of L (n, 2) arrays),
        ``average`` also takes 'samples', ``threshold`` may be one per label, and the result
        is a :class:`~measurelab.inference.classifiers.multilabel.MultiLabelComparison`
        (docs/MULTILABEL.md).
    models : mapping ``{name: scores}`` (or ``(name, scores)`` pairs)
        One score vector of length n per model, higher = more likely positive; for k
        classes an (n, k) probability matrix or an (n,) vector of predicted labels.
    measures : names or Measure objects, or 'all', optional
        Default: the headline set :data:`HEADLINE` (auc, ap, brier, mxe, f1, mcc, acc; the
        probability measures when the scores are probabilities): a short list of measures
        that say different things, so Holm's adjustment over the rows reported leaves a
        real difference visible. ``'all'``: every measure that applies.
    ci : float in (0, 1) or None, default 0.95
        Confidence level of the intervals (and of the tests' decisions in
        :meth:`ClassifierComparison.preferences`); ``None`` gives values only.
    n_boot : int, default 2000
        Replicates of the paired bootstrap (at least 100 when ``ci`` is set).
    random_state : int, numpy Generator or None, default 0
        Seeds the bootstrap, the posterior draws of the confusion cells and the curve
        bands of :meth:`ClassifierComparison.plot` (None: fresh entropy, not
        reproducible).
    ci_method : str, optional
        A registered interval method to force where it applies ('wilson',
        'clopper-pearson', 'delong', 'delong-logit', 'newcombe-score',
        'dirichlet-posterior', 'bootstrap-bca', 'bootstrap-percentile', ...); by default
        Wilson for one model's acc and err, the posterior of the confusion cells
        for the other binary measures of the counts, DeLong (Newcombe's score interval
        below 30 cases in a class) for AUC, BCa for the rest (docs/METHODS.md#interval-methods).
    sample_weight : array-like of shape (n,), optional
        Case weights (intervals then come from the bootstrap; McNemar and the posterior of
        the cells are replaced by it).
    threshold, pos_label, inclusive
        As in :func:`measurelab.evaluate`.
    progress : bool, optional
        Progress bar of the bootstrap (default: on a terminal, after two seconds).
    n_jobs : int, optional
        Threads evaluating bootstrap replicates (None: 1; -1: every CPU). The replicates
        and so every interval and p-value are the same whatever ``n_jobs``.
    stratify : bool, default False
        False (default): the bootstrap resamples the cases jointly, as fits a test set
        that is a random sample (its class counts are random too). True: positives and
        negatives are resampled separately, for a design that fixed the class counts
        (a case–control sample, a test set built with a chosen balance).
    average : 'macro', 'weighted', 'micro' or None, default 'macro'
        k classes only (as in :func:`measurelab.evaluate`); None reports each per-class
        measure as rows ``measure[class]`` (e.g. ``f1[cat]``).
    labels : array-like, optional
        k classes only: the class labels in the order of the probability columns (default:
        the sorted labels of ``y_true``); a class no case belongs to is then kept.
    groups : array-like of shape (n,), optional
        Binary only: a cluster id per case (e.g. the patient of each image). The intervals
        and tests then account for the clusters
        (:mod:`measurelab.inference.classifiers.structured`).
    by : array-like of shape (n,), optional
        Binary only: a subgroup label per case; adds ``.by_group()``, ``.gaps()`` and
        ``.group_differences()`` (:mod:`measurelab.inference.classifiers.structured`).

    Returns
    -------
    ClassifierComparison

    Notes
    -----
    k ≥ 3 classes: give each model an (n, k) matrix of probabilities (columns in sorted
    label order, rows summing to 1) or an (n,) vector of predicted labels; see
    :mod:`measurelab.inference.classifiers.multiclass`. The default measures are then acc, f1, mcc,
    auc (Hand–Till), mxe, brier and ece (``HEADLINE_MULTI``; acc, f1 and mcc when a model gives
    labels; ece is a description, without an interval), with Holm
    over them; acc has Wilson intervals and McNemar's paired test,
    every other measure the paired bootstrap of the cases (``stratify``: within each
    class) below 10,000 cases and the influence-function interval from there (100 or more
    in the smallest class). ``threshold``, ``pos_label`` and ``inclusive`` do not apply.

    Dask collections (``y_true``, each model's scores — an (n, k) Dask array or DataFrame
    of probabilities for k classes — and the weights, partitioned alike) are compared on
    the Dask scheduler in use, in two passes over the partitions
    (:mod:`~measurelab.inference.classifiers.distributed`, k classes
    :mod:`~measurelab.inference.classifiers.multi_parts`); ``groups=`` and ``by=`` are
    refused there.

    Examples
    --------
    >>> r = compare_classifiers([0, 1, 0, 1, 1, 0], {"m": [0.2, 0.9, 0.4, 0.6, 0.3, 0.1]},
    ...                         measures=["sens"])
    >>> r.intervals()[["model", "measure", "method"]].values.tolist()  # doctest: +ELLIPSIS
    [['m', 'sens', 'dirichlet-posterior...']]
    """
    random_state = check_random_state(random_state)
    items = model_items(models)
    model_names([k for k, _ in items])
    if _any_dask(y_true, items, sample_weight):
        iv.check_run_options(ci, n_boot, n_jobs, stratify, ci_method, progress)
        return _on_dask(y_true, items, measures=measures, ci=ci, n_boot=n_boot,
                        random_state=random_state, ci_method=ci_method,
                        sample_weight=sample_weight, threshold=threshold,
                        pos_label=pos_label, inclusive=inclusive, stratify=stratify,
                        labels=labels, groups=groups, by=by, average=average)
    from measurelab.stats.labelsets import is_multilabel

    if is_multilabel(y_true):
        if groups is not None or by is not None:
            raise MeasurelabError("groups= and by= do not apply to multi-label input so far")
        from measurelab.inference.classifiers.multilabel import (
            MultiLabelComparison,
            prepare_multilabel,
        )

        return MultiLabelComparison(**prepare_multilabel(
            y_true, items, measures=measures, average=average, ci=ci, n_boot=n_boot,
            random_state=random_state, ci_method=ci_method, sample_weight=sample_weight,
            labels=labels, threshold=threshold, inclusive=inclusive, progress=progress,
            n_jobs=n_jobs, stratify=stratify))
    y_raw = as_1d(y_true, "y_true")
    multiclass = is_multiclass_input(y_raw, [v for _k, v in items]) or (
        labels is not None and np.size(labels) > 2)
    run = dict(measures=measures, ci=ci, n_boot=n_boot, random_state=random_state,
               ci_method=ci_method, sample_weight=sample_weight, progress=progress,
               n_jobs=n_jobs, stratify=stratify)
    if (groups is not None or by is not None) and (multiclass or labels is not None):
        raise MeasurelabError("groups= and by= apply to binary input only so far")
    if multiclass:
        threshold = check_threshold_value(threshold)
        if threshold != 0.5 or check_flag(inclusive, "inclusive"):
            what = f"threshold={threshold:g}" if threshold != 0.5 else "inclusive=True"
            raise MeasurelabError(f"{what} does not apply to k classes: the predicted class "
                                  "is the arg-max of each row; leave it out")
        return MultiClassComparison(**prepare_multiclass(y_raw, items, average=average,
                                                         labels=labels, **run))
    if labels is not None:
        raise MeasurelabError("labels= applies to k classes only; binary input takes "
                              "pos_label")
    if check_average(average) != "macro":
        raise MeasurelabError(
            f"average={average!r} applies to k classes only; binary input takes the default")
    if groups is not None or by is not None:
        from measurelab.inference.classifiers.structured import structured_comparison

        threshold = check_threshold_value(threshold)
        inclusive = check_flag(inclusive, "inclusive")
        level, n_boot, n_jobs, stratify = iv.check_run_options(ci, n_boot, n_jobs, stratify,
                                                               ci_method, progress)
        y, names, scores, w, _notes = read_binary(y_raw, items, pos_label=pos_label,
                                                  sample_weight=sample_weight)
        return structured_comparison(
            y, names, scores, w, groups=groups, by=by, measures=measures, level=level,
            n_boot=n_boot, random_state=random_state, ci_method=ci_method,
            inclusive=inclusive, threshold=threshold, progress=progress, n_jobs=n_jobs,
            stratify=stratify, choose=choose_measures)
    return ClassifierComparison(**prepare_binary(y_raw, items, threshold=threshold,
                                                 pos_label=pos_label, inclusive=inclusive,
                                                 **run))


def _any_dask(y_true: Any, items: list[tuple[Any, Any]], sample_weight: Any) -> bool:
    """Whether any input is a Dask collection (told by its type's module, so Dask is not
    imported to ask)."""
    return any(type(x).__module__.split(".")[0] == "dask"
               for x in (y_true, sample_weight, *(v for _k, v in items)))


def _on_dask(y_true: Any, items: list[tuple[Any, Any]], *, labels: Any, groups: Any,
             by: Any, average: Any, **options: Any) -> ClassifierComparison:
    """A comparison of Dask collections, in two passes over their partitions on the Dask
    scheduler in use (:mod:`.distributed`; k classes: :mod:`.multi_parts`), without
    groups= or by=."""
    from measurelab.inference.classifiers.distributed import compare_dask

    if groups is not None or by is not None:
        raise MeasurelabError("groups= and by= apply to in-memory input; compute the Dask "
                              "collections first")
    return compare_dask(y_true, items, labels=labels, average=average, **options)
