"""The user-facing API: :func:`evaluate`, :func:`evaluate_counts` and the statistics
behind them.

:func:`evaluate` builds the statistics once (a score table, confusion counts, per-class
tables) and hands them to every requested measure. The streaming
:class:`~measurelab.metrics.streaming.Evaluator` and
:func:`~measurelab.metrics.one_vs_rest.per_class`
build on the same routines.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from measurelab._util.validation import (
    as_1d,
    binarize,
    binary_score_vector,
    check_count,
    check_flag,
    check_random_state,
    check_same_length,
    check_scores,
    check_weights,
    number_matrix,
    show,
    unique_labels,
)
from measurelab.exceptions import MeasurelabError
from measurelab.measures.base import check_average
from measurelab.measures.compute import (  # noqa: F401  (EvaluationResult is re-exported)
    EvaluationResult,
    MeasureSpec,
    check_total,
    compute_measures,
    resolve_measures,
)
from measurelab.stats.bundle import (
    BinaryStats,
    MultiStats,
    multi_stats_from_indices,
    one_vs_rest_stats,
)
from measurelab.stats.checks import check_threshold_value
from measurelab.stats.confusion import BinaryCounts, MultiCounts, class_indices
from measurelab.stats.probrows import settle_rows
from measurelab.stats.scoretable import ScoreTable


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
    """Validate the input and build its statistics (binary or multi-class).

    Examples
    --------
    >>> build_stats([0, 1, 1], [0.2, 0.9, 0.4], threshold=0.3).counts.tp
    2.0
    """
    threshold = check_threshold_value(threshold)
    inclusive = check_flag(inclusive, "inclusive")
    score_arr = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if score_arr.ndim == 2 and score_arr.shape[1] == 2 and labels is None:
        y_two = as_1d(y_true, "y_true")
        if y_two.dtype == bool or unique_labels(y_two).size <= 2:
            # a binary task: predict_proba's (n, 2) gives the positive class's column
            check_same_length(("y_true", y_two), ("y_score", score_arr))
            if score_arr.dtype.kind in "biuf":
                check_two_columns(np.asarray(score_arr, dtype=np.float64))
            score_arr = binary_score_vector(score_arr, y_two, pos_label)[0]
    if score_arr.ndim == 2 and score_arr.shape[1] > 1:
        return _build_multi(y_true, score_arr, labels=labels, sample_weight=sample_weight)
    y_raw = as_1d(y_true, "y_true")
    if labels is None and score_arr.dtype.kind in "UOS" and unique_labels(y_raw).size <= 2:
        score_arr = np.asarray(binary_score_vector(score_arr, y_raw, pos_label)[0])
    check_same_length(("y_true", y_raw), ("y_score", as_1d(score_arr, "y_score")))
    if labels is not None or (y_raw.dtype != bool and unique_labels(y_raw).size > 2):
        # more than two classes and one column: the column holds predicted labels
        return _build_multi_from_predictions(y_raw, as_1d(score_arr, "y_score"), labels,
                                             sample_weight)
    y = binarize(y_raw, pos_label)
    s = check_scores(score_arr)
    w = check_weights(sample_weight, y.size)
    table = ScoreTable.from_arrays(y, s, w)
    return BinaryStats(table=table, threshold=threshold, inclusive=inclusive)


def _build_multi(y_true: Any, P: np.ndarray, *, labels: Any, sample_weight: Any) -> MultiStats:
    y = as_1d(y_true, "y_true")
    check_same_length(("y_true", y), ("y_score", P))
    raw = P
    P = number_matrix(P, "y_score")
    if not np.isfinite(P).all():
        i, j = np.argwhere(~np.isfinite(P))[0]
        raise MeasurelabError(
            f"y_score must be finite, got {show(P[i, j])} at row {i}, column {j}"
        )
    P, _ = settle_rows(raw if raw.dtype.kind == "f" else P, "y_score")
    w = check_weights(sample_weight, y.size)
    if P.shape[1] == 2:
        check_two_columns(P)
    if labels is None:
        labels = unique_labels(y)
        if labels.size != P.shape[1]:
            raise MeasurelabError(
                f"y_score has {P.shape[1]} columns but y_true has {labels.size} classes "
                f"({labels.tolist()}); pass labels= to name the columns"
            )
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.size != P.shape[1]:
        raise MeasurelabError(
            f"labels has {labels.size} entries but y_score has {P.shape[1]} columns; "
            "expected one label per column"
        )
    return multi_stats_from_indices(class_indices(y, labels), P, tuple(labels.tolist()), w)


def check_two_columns(P: np.ndarray, where: str = "y_score") -> None:
    """A two-column matrix whose rows do not sum to 1 is not a probability matrix: most
    likely the scores of two models side by side. Raise a clear error pointing there.

    Examples
    --------
    >>> check_two_columns(np.array([[0.3, 0.7], [0.9, 0.1]]))     # probabilities: fine
    >>> check_two_columns(np.array([[0.3, 0.6], [0.9, 0.8]]))     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: y_score has two columns whose rows do not sum to 1 ...
    """
    from measurelab.stats.probrows import SUM_TOLERANCE, sum_message

    dev = np.abs(P.sum(axis=1) - 1.0)
    if dev.size and float(dev.max()) > SUM_TOLERANCE:
        i = int(np.argmax(dev))
        raise MeasurelabError(
            f"{where} has two columns whose rows do not sum to 1 (row {i + 1} sums to "
            f"{sum_message(P[i].sum())}; tolerance {SUM_TOLERANCE:g}), so they are not class "
            "probabilities; to compare two models "
            "use measurelab.compare_classifiers (command line: several --score-col); for "
            "one binary model pass the positive-class column alone"
        )


def _check_predicted_labels(y: np.ndarray, pred: np.ndarray) -> None:
    """A 1-d ``y_score`` beside more than two classes is read as predicted labels; raise
    if it holds values that are no label (it is then scores, and a number computed from
    them would be meaningless)."""
    known = set(unique_labels(y).tolist())
    try:
        stray = [v for v in unique_labels(pred).tolist() if v not in known]
    except TypeError:  # pragma: no cover - labels of mixed types
        return
    if stray:
        shown = ", ".join(map(show, sorted(known, key=str)[:6]))
        raise MeasurelabError(
            f"y_true has {len(known)} classes ({shown}) but y_score holds "
            f"{show(stray[0])}, which is no class: binary measures need two classes, and a "
            "1-d y_score beside more classes must hold predicted labels (or give one "
            "probability column per class)"
        )


def _build_multi_from_predictions(
    y: np.ndarray, pred: np.ndarray, labels: Any, sample_weight: Any
) -> MultiStats:
    w = check_weights(sample_weight, y.size)
    if labels is None:
        _check_predicted_labels(y, pred)
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
    average: str | None = "macro",
    labels: Any = None,
    ci: float | None = None,
    ci_method: str | None = None,
    n_boot: int = 2000,
    random_state: Any = 0,
    progress: bool | None = None,
    n_jobs: int | None = None,
    stratify: bool = False,
    groups: Any = None,
    by: Any = None,
) -> EvaluationResult:
    """Evaluate predictions with many measures from one pass over the data.

    Parameters
    ----------
    y_true : array-like of shape (n,) or (n, L)
        True labels: two classes for binary evaluation, or k classes. An (n, L) 0/1
        indicator matrix (numpy, pandas, scipy.sparse; or a list of label sets, ordered by
        ``labels``) is multi-label (docs/MULTILABEL.md): ``y_score`` is then an (n, L)
        matrix of per-label scores or 0/1 predictions (or scikit-learn's ``predict_proba``
        list of L (n, 2) arrays), ``threshold`` a number or one per label, ``average`` one
        of 'micro', 'macro', 'weighted', 'samples' or None, and the measures those of
        :mod:`measurelab.measures.multilabel` (hamming_loss, subset_acc, jaccard, prec,
        sens, f1, f_beta@b, acc, auc, ap, lrap, coverage_error, ranking_loss).
    y_score : array-like of shape (n,) or (n, k)
        Binary: a score per example, higher = more likely positive (probability measures
        need [0, 1]). Multi-class: one column per class in sorted label order (or
        ``labels``), or a 1-d vector of predicted labels (threshold measures only).
    measures : names, aliases, ``name@param`` or two-level ``f:g`` specs, or Measure objects
        ``None`` evaluates every registered measure that applies to the input.
    threshold : float, default 0.5
        The threshold rule: an example is predicted positive iff ``score > threshold``, or
        ``score >= threshold`` with ``inclusive=True`` — so ``thresholds[i]`` of a curve
        (:func:`~measurelab.roc_curve`, ...) computed with the same ``inclusive`` gives
        exactly that curve's point *i*.
    pos_label : label of the positive class, default 1
    sample_weight : array-like of shape (n,), optional
    inclusive : bool, default False
        Use ``score >= threshold`` (Caruana's perf; scikit-learn's curves) instead of ``>``.
    average : 'macro', 'weighted', 'micro' or None, default 'macro'
        How per-class values combine for multi-class input. For AUC, 'macro' is Hand &
        Till's M and 'weighted' the prevalence-weighted one-vs-rest AUC; 'micro' pools every
        (case, class) pair (counts for threshold measures, scores for rank measures); None
        gives each per-class measure as an array in label order (``result.classes``), as
        scikit-learn does. Measures of the whole k-class problem (acc, kappa, mcc, mxe,
        brier, rms, ece, top_k_acc) are single numbers whatever ``average``. Binary input:
        None gives the per-class threshold measures (prec, sens, f1, …) over both classes
        in label order, as scikit-learn; other values of ``average`` do not apply (a binary
        measure is about ``pos_label``); :func:`~measurelab.per_class` has every measure per class.
    labels : array-like, optional
        Class order of the columns of a 2-d ``y_score`` (any order; default sorted).
        Rows of a 2-d ``y_score`` are used as given: rows that do not sum to 1 give a
        warning naming the worst row; two columns that are not probabilities (the scores
        of two models) are an error.
    ci : float in (0, 1), optional
        Add an interval to every value (docs/METHODS.md#interval-methods), read with
        ``.intervals()``: Wilson for
        acc and err, the posterior of the confusion cells for the other binary
        measures of the counts, DeLong (logit scale) for AUC (Newcombe's score interval
        below 30 cases in a class), a BCa bootstrap of the cases for the rest; an interval
        whose coverage study fell short in this regime is withheld (NaN, the reason in the
        method column). k classes (not with ``average=None``): Wilson for acc, the bootstrap of the
        cases for every other measure (Hand–Till's AUC included), as
        :func:`~measurelab.compare_classifiers` does for one model; probability rows must
        then sum to 1.
    ci_method : str, optional
        Force a registered interval method where it applies ('wilson', 'clopper-pearson',
        'delong', 'newcombe-score', 'dirichlet-posterior', 'bootstrap-bca',
        'bootstrap-percentile', ...).
    n_boot : int, default 2000
        Bootstrap replicates (at least 100); ``progress`` shows a bar (default: on a
        terminal), ``n_jobs`` threads evaluate them (None: 1; -1: every CPU; the intervals
        do not depend on it).
    random_state : int, numpy Generator or None, default 0
        Seeds the bootstrap's numpy Generator and the posterior draws of the confusion
        cells (None: fresh entropy, not reproducible).
    stratify : bool, default False
        False: resample the cases jointly (a test set that is a random sample); True:
        positives and negatives apart (a design that fixed the class counts).
    groups : array-like of shape (n,), optional
        With ``ci``, binary input: a cluster id per case (e.g. the patient of each image);
        the intervals then resample clusters, AUC's is Obuchowski's clustered DeLong
        (:mod:`measurelab.inference.classifiers.structured`).
    by : array-like of shape (n,), optional
        With ``ci``, binary input: a subgroup label per case; the result adds
        ``.by_group()``, ``.gaps()`` and ``.group_differences()``.

    Returns
    -------
    EvaluationResult
        A mapping ``{name: value}`` with ``.to_frame()``, ``.to_dict()`` and, with ``ci``,
        ``.intervals()``.

    Examples
    --------
    >>> import measurelab as ml
    >>> r = ml.evaluate([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], measures=["acc", "auc", "rms"])
    >>> {k: round(v, 4) for k, v in r.items()}
    {'acc': 0.75, 'auc': 0.75, 'rms': 0.3976}
    """
    from measurelab.inference.intervals import check_run_options
    from measurelab.stats.labelsets import is_multilabel

    random_state = check_random_state(random_state)
    if is_multilabel(y_true):
        if groups is not None or by is not None:
            raise MeasurelabError("groups= and by= do not apply to multi-label input so far")
        from measurelab.metrics.multilabel import evaluate_multilabel

        return evaluate_multilabel(
            y_true, y_score, measures=measures, threshold=threshold,
            sample_weight=sample_weight, inclusive=inclusive, average=average, labels=labels,
            ci=ci, ci_method=ci_method, n_boot=n_boot, random_state=random_state,
            progress=progress, n_jobs=n_jobs, stratify=stratify)
    check_run_options(ci, n_boot, n_jobs, stratify, ci_method, progress)
    stats = build_stats(
        y_true,
        y_score,
        threshold=threshold,
        pos_label=pos_label,
        sample_weight=sample_weight,
        inclusive=inclusive,
        labels=labels,
    )
    if isinstance(stats, BinaryStats) and check_average(average) is None:
        if ci is not None:
            raise MeasurelabError(
                "ci= gives intervals of single values; it does not combine with average=None"
            )
        return _binary_per_class(stats, measures, y_true, pos_label)
    result = compute_measures(stats, measures, average=average)
    if groups is not None or by is not None:
        from measurelab.metrics.structured import structured_evaluation

        return structured_evaluation(
            y_true, y_score, result, ci, stats=stats, groups=groups, by=by,
            pos_label=pos_label, sample_weight=sample_weight, ci_method=ci_method,
            n_boot=n_boot, random_state=random_state, progress=progress, n_jobs=n_jobs,
            stratify=stratify)
    if not isinstance(stats, BinaryStats):
        if ci is not None:
            result = _multi_intervals(y_true, y_score, result, ci, average=average,
                                      labels=labels, ci_method=ci_method, n_boot=n_boot,
                                      random_state=random_state, sample_weight=sample_weight,
                                      progress=progress, n_jobs=n_jobs, stratify=stratify)
        return _with_nir_note(result, stats)
    if ci is None:
        return result
    design = None
    stratify = check_flag(stratify, "stratify")
    if sample_weight is not None:
        from measurelab.inference.bootstrap import CaseDesign

        y_raw = as_1d(y_true, "y_true")
        y = binarize(y_raw, pos_label)
        design = CaseDesign.from_cases(y, [check_scores(
            binary_score_vector(y_score, y_raw, pos_label)[0])],
                                       check_weights(sample_weight, y.size),
                                       stratify=stratify)
    return with_intervals(stats, result, ci, ci_method=ci_method, n_boot=n_boot,
                          random_state=random_state, progress=progress, design=design,
                          n_jobs=n_jobs, stratify=stratify)


def with_intervals(
    stats: BinaryStats,
    result: EvaluationResult,
    ci: Any,
    *,
    ci_method: str | None = None,
    n_boot: int = 2000,
    random_state: Any = 0,
    progress: bool | None = None,
    design: Any = None,
    n_jobs: int | None = None,
    stratify: bool = False,
) -> EvaluationResult:
    """``result`` with an interval for each value, from the score table of ``stats``
    (docs/METHODS.md#interval-methods), the bootstrap seeded by ``random_state``.
    ``design`` (an :class:`~measurelab.inference.bootstrap.CaseDesign`) resamples weighted
    cases; by default the table's whole counts are the cases (resampled jointly, or by
    class with ``stratify``). ``n_jobs`` threads evaluate the bootstrap replicates. Each
    method text says what the coverage studies found for its setting
    (:func:`~measurelab.inference.evidence.method_with_evidence`).

    Examples
    --------
    >>> import measurelab as ml
    >>> s = build_stats([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1])
    >>> r = with_intervals(s, compute_measures(s, ["sens"]), 0.9)
    >>> r.intervals()["method"].tolist()   # the coverage studies ran at level 0.95
    ['dirichlet-posterior (no coverage evidence at level 0.9)']
    """
    from measurelab.inference import bootstrap as bt
    from measurelab.inference import intervals as iv

    random_state = check_random_state(random_state)
    level = iv.check_level(ci, "ci")
    n_boot = bt.check_n_boot(n_boot, minimum=bt.MIN_BOOT)
    n_jobs = iv.check_n_jobs(n_jobs)
    table = stats.require_table("ci")
    whole = table.is_integer and design is None
    smaller = int(min(table.n_pos, table.n_neg)) if whole else None
    methods = {k: iv.default_method(k, ci_method, whole_counts=whole, smaller=smaller)
               for k in result}
    boot = [k for k, m in methods.items() if m in iv.REPLICATE_METHODS]
    out = {}
    extra: dict[str, tuple[float, float]] = {}
    if boot:
        if design is None:
            design = bt.CaseDesign.from_table(table, stratify=stratify)
        run = bt.run_bootstrap(
            design, [result.measure(k) for k in boot], n_boot, random_state,
            thresholds=[(stats.threshold, stats.inclusive)],
            jackknife=any(methods[k] == "bootstrap-bca" for k in boot), progress=progress,
            n_jobs=n_jobs)
        bi = bt.BootstrapIntervals(
            run.reps[:, 0, :].T, run.theta[0], np.array([float(result[k]) for k in boot]),
            run.jack[:, 0, :].T, np.array([methods[k] == "bootstrap-bca" for k in boot]),
            level, bt.range_bounds([result.measure(k) for k in boot]))
        for j, k in enumerate(boot):
            if methods[k] == "bootstrap-se":
                from measurelab.inference.calibration import replicate_wald

                lo, hi, se, _p = replicate_wald(float(result[k]), run.reps[:, 0, j], level,
                                                result.measure(k).range)
                out[k] = iv.Interval(float(result[k]), lo, hi, "bootstrap-se", se)
            else:
                out[k] = iv.Interval(float(result[k]), float(bi.lo[j]), float(bi.hi[j]),
                                     str(bi.method[j]))
            extra[k] = (float(bi.infinite[j]), float(bi.undefined[j]))
            iv.warn_nonfinite(k, out[k], *extra[k], **bi.notes(j))
    for k, v in result.items():
        if k not in out:
            out[k] = iv.measure_interval(k, float(v), methods[k], level, table=table,
                                         counts=stats.counts,
                                         design="fixed" if stratify else "random",
                                         random_state=random_state, key=(0, 0))
    iv.warn_withheld([k for k in result if methods[k] == "none"])
    from measurelab.inference.evidence import design_name
    from measurelab.inference.withholding import judged, warn_withheld_by_evidence

    small = round(min(table.n_pos, table.n_neg))
    withheld = []
    for k in result:
        r = out[k]
        text, gone = judged(r.method, result.measure(k), bounds=(r.lo, r.hi), level=level,
                            smaller=small, design=design_name(stratify, weighted=not whole))
        out[k] = r._replace(method=text)
        if gone:
            out[k] = out[k]._replace(lo=math.nan, hi=math.nan, se=math.nan)
            withheld.append(k)
    warn_withheld_by_evidence(withheld)
    out = {k: out[k] for k in result}   # the measures' order
    return EvaluationResult(dict(result), {k: result.measure(k) for k in result},
                            intervals=out, shares=extra)


def _with_nir_note(result: EvaluationResult, stats: Any) -> EvaluationResult:
    """``result`` of k-class input, its notes saying when the accuracy does not beat the
    no-information rate (the exact binomial test of
    :func:`measurelab.inference.acc_vs_nir`, on the confusion matrix; whole counts only:
    the test counts cases)."""
    from measurelab.inference.nir import nir_note, nir_test

    matrix = np.asarray(stats.counts.matrix, dtype=np.float64)
    if "acc" not in result or not np.array_equal(matrix, np.round(matrix)) or \
            matrix.sum() <= 0:
        return result
    note = nir_note(nir_test(float(np.trace(matrix)), matrix.sum(axis=1),
                             stats.counts.labels))
    if note is not None:
        result._more_notes["acc"] = note
    return result


def _multi_intervals(y_true: Any, y_score: Any, result: EvaluationResult, ci: Any, *,
                     average: str | None, labels: Any, **kw: Any) -> EvaluationResult:
    """``result`` of k-class input with an interval for each value: the single-model
    case of :func:`measurelab.compare_classifiers` (Wilson for acc, the bootstrap of the
    cases for the rest; its method texts already say what the coverage studies found)."""
    from measurelab.inference import intervals as iv
    from measurelab.inference.classifiers.inputs import prepare_multiclass
    from measurelab.inference.classifiers.multiclass import MultiClassComparison

    if check_average(average) is None:
        raise MeasurelabError(
            "ci= gives intervals of single values; it does not combine with average=None"
        )
    score = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    cmp = MultiClassComparison(**prepare_multiclass(
        as_1d(y_true, "y_true"), [("model", score)],
        measures=[result.measure(k) for k in result], average=average, ci=ci,
        labels=labels, **kw))
    table = cmp.intervals()
    out: dict[str, Any] = {}
    shares: dict[str, tuple[float, float]] = {}
    for r in table.itertuples(index=False):
        out[r.measure] = iv.Interval(float(result[r.measure]), float(r.lo), float(r.hi),
                                  str(r.method), float(r.se))
        if str(r.method).startswith("bootstrap"):
            shares[r.measure] = (float(r.infinite), float(r.undefined))
    return EvaluationResult(dict(result), {k: result.measure(k) for k in result},
                            intervals=out, shares=shares, classes=result.classes)


def _binary_per_class(
    stats: BinaryStats, measures: Any, y_true: Any, pos_label: Any
) -> EvaluationResult:
    """Binary input with ``average=None``: the per-class threshold measures (those averaged
    one-vs-rest for k classes) as arrays over both classes in label order, as scikit-learn's
    ``precision_score(..., average=None)``; every other measure as usual."""
    res = compute_measures(stats, measures)
    names, parts = one_vs_rest_stats(stats, y_true, pos_label)
    order = [1, 0]
    try:
        if sorted(names) == names:
            order = [0, 1]
    except TypeError:
        pass
    values = dict(res)
    for name in values:
        m = res.measure(name)
        if m.multiclass == "ovr" and m.statistic == "counts":
            values[name] = np.array([m.compute(parts[i][0]) for i in order], dtype=np.float64)
    return EvaluationResult(values, {n: res.measure(n) for n in values},
                            classes=tuple(names[i] for i in order))


def _counts_by_name(f: Callable[..., EvaluationResult]) -> Callable[..., EvaluationResult]:
    """``f`` refusing positional counts with a message that says to name them: scikit-learn's
    ``confusion_matrix(...).ravel()`` gives ``tn, fp, fn, tp``, the reverse order."""

    @functools.wraps(f)
    def by_name(*args: Any, **kwargs: Any) -> EvaluationResult:
        if args:
            raise TypeError(
                f"{f.__name__}() takes the counts by name, got {len(args)} positional "
                f"argument{'s' if len(args) != 1 else ''}; call {f.__name__}(tp=..., fp=..., "
                "fn=..., tn=...) (scikit-learn's confusion_matrix(...).ravel() is "
                "tn, fp, fn, tp)"
            )
        return f(**kwargs)

    return by_name


@_counts_by_name
def evaluate_counts(
    *,
    tp: float,
    fp: float,
    fn: float,
    tn: float,
    measures: Iterable[MeasureSpec] | MeasureSpec | None = None,
) -> EvaluationResult:
    """Every threshold measure (or the chosen ones) from a binary confusion matrix.

    Parameters
    ----------
    tp, fp, fn, tn : non-negative numbers, keyword-only
        True positives, false positives, false negatives and true negatives (weighted
        counts may be fractional). They must be named: a positional call raises
        :class:`TypeError`, so scikit-learn's ``tn, fp, fn, tp`` order cannot slip in.
    measures : names, aliases or Measure objects, optional
        Default: every measure computed from the counts.

    Returns
    -------
    EvaluationResult

    Examples
    --------
    >>> import measurelab as ml
    >>> r = ml.evaluate_counts(tp=1242, fp=390, fn=189, tn=740,   # Sokolova 2006
    ...                        measures=["acc", "youden"])
    >>> round(r["acc"], 4), round(r["youden"], 4)
    (0.7739, 0.5228)
    >>> ml.evaluate_counts(740, 390, 189, 1242)
    Traceback (most recent call last):
    ...
    TypeError: evaluate_counts() takes the counts by name, got 4 positional arguments; call evaluate_counts(tp=..., fp=..., fn=..., tn=...) (scikit-learn's confusion_matrix(...).ravel() is tn, fp, fn, tp)
    """  # noqa: E501
    tp, fp, fn, tn = (check_count(v, name) for name, v in
                      (("tp", tp), ("fp", fp), ("fn", fn), ("tn", tn)))
    stats = BinaryStats(given_counts=BinaryCounts(tp, fp, fn, tn))
    return compute_measures(stats, measures, probabilities_ok=False)
