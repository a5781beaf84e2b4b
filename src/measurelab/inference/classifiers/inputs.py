"""The input of a comparison, read once: :func:`is_multiclass_input` decides binary or k
classes, then :func:`prepare_binary` or :func:`prepare_multiclass` checks the labels,
the models and the options and returns the keyword arguments of
:class:`~measurelab.inference.classifiers.binary.ClassifierComparison` or
:class:`~measurelab.inference.classifiers.multiclass.MultiClassComparison` — the same
shape for both, so the entry point (:func:`~measurelab.inference.classifiers.compare.
compare_classifiers`) is a switch, and the comparison classes never read raw input.

Examples
--------
>>> y = [0, 1, 0, 1, 1, 0]
>>> kw = prepare_binary(y, {"m": [0.2, 0.9, 0.4, 0.6, 0.3, 0.1]}, measures=["sens"])
>>> kw["names"], [m.name for m in kw["measures"]], kw["values"][0]["sens"]
(['m'], ['sens'], 0.6666666666666666)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from measurelab._util.validation import (
    as_1d,
    binarize,
    binary_score_vector,
    check_flag,
    check_scores,
    check_weights,
    number_matrix,
    show,
    unique_labels,
)
from measurelab.exceptions import MeasurelabError, UndefinedMeasureWarning
from measurelab.inference import bootstrap as bt
from measurelab.inference import intervals as iv
from measurelab.inference._base import model_items, model_names
from measurelab.inference.bootstrap import MultiCaseDesign
from measurelab.measures.base import Measure, check_average, registry
from measurelab.measures.compute import compute_measures, resolve_measures
from measurelab.stats.bundle import BinaryStats, MultiStats
from measurelab.stats.checks import check_threshold_value
from measurelab.stats.confusion import MultiCounts, class_indices
from measurelab.stats.probrows import row_sum_tolerance, settle_rows, sum_message

__all__ = [
    "HEADLINE",
    "HEADLINE_MULTI",
    "choose_measures",
    "is_multiclass_input",
    "prepare_binary",
    "prepare_multiclass",
    "read_binary",
]

#: the default measures of a comparison: one of each kind of question (ranking: auc, ap;
#: probabilities: brier, mxe; decisions at the threshold: f1, mcc, acc), no near-duplicates
HEADLINE: tuple[str, ...] = ("auc", "ap", "brier", "mxe", "f1", "mcc", "acc")


def choose_measures(measures: Any, probabilities: bool) -> list[Measure] | None:
    """The measures asked for: the headline set by default (its probability measures only
    for probabilities), every applicable measure for 'all'."""
    if measures is None:
        return [registry.get(k) for k in HEADLINE
                if probabilities or not registry.get(k).needs_probabilities]
    if isinstance(measures, str) and measures == "all":
        return None
    return resolve_measures(measures)


def _models(models: Any, n: int, y_raw: np.ndarray | None = None, pos_label: Any = 1,
            notes: list[str] | None = None) -> tuple[list[str], list[np.ndarray]]:
    """Names and score vectors of binary models, each checked against ``n`` cases
    (predict_proba's (n, 2) and text predicted labels read as scores, with a note)."""
    items = model_items(models)
    names = model_names([k for k, _ in items])
    scores: list[np.ndarray] = []
    for name, (_k, s) in zip(names, items, strict=True):
        if y_raw is not None:  # predict_proba's (n, 2), text predicted labels
            s, note = binary_score_vector(s, y_raw, pos_label, f"scores of {name!r}")
            if note is not None and notes is not None:
                notes.append(note)
        arr = as_1d(s.to_numpy() if hasattr(s, "to_numpy") else s, f"scores of {name!r}")
        if arr.size != n:
            raise MeasurelabError(
                f"model {name!r} has {arr.size} scores but y_true has {n} cases; every model "
                "must score the same cases"
            )
        scores.append(check_scores(arr, f"models: the scores of model {name!r}"))
    return names, scores


def read_binary(y_true: Any, models: Any, *, pos_label: Any = 1, sample_weight: Any = None
                ) -> tuple[np.ndarray, list[str], list[np.ndarray], np.ndarray | None,
                           list[str]]:
    """The labels as bool (``pos_label`` is True), the models' names and score vectors,
    the weights (or None) and the notes on how scores were read (a ``predict_proba``
    matrix's positive column, text predicted labels).

    Examples
    --------
    >>> y, names, scores, w, notes = read_binary(["no", "yes"], {"m": [0.3, 0.8]},
    ...                                          pos_label="yes")
    >>> y.tolist(), names, scores[0].tolist(), w, notes
    ([False, True], ['m'], [0.3, 0.8], None, [])
    """
    y_raw = as_1d(y_true, "y_true")
    notes: list[str] = []
    names, scores = _models(models, y_raw.size, y_raw, pos_label, notes)
    y = binarize(y_raw, pos_label)
    return y, names, scores, check_weights(sample_weight, y.size), notes


def prepare_binary(
    y_true: Any, models: Any, *, measures: Any = None, ci: float | None = 0.95,
    n_boot: int = 2000, random_state: Any = 0, ci_method: str | None = None,
    sample_weight: Any = None, threshold: float = 0.5, pos_label: Any = 1,
    inclusive: bool = False, progress: bool | None = None, n_jobs: int | None = None,
    stratify: bool = False,
) -> dict[str, Any]:
    """What :func:`~measurelab.inference.classifiers.compare.compare_classifiers` needs for
    two classes (the keyword arguments of its ``ClassifierComparison``): validated models
    in a :class:`~measurelab.inference.bootstrap.CaseDesign`, each model's statistics at
    the threshold and the measures' values as ``evaluate(y, s_m, measures=...)``.

    The mirror of :func:`prepare_multiclass`.

    Examples
    --------
    >>> kw = prepare_binary([0, 1, 1, 0], {"a": [0.2, 0.7, 0.4, 0.1]}, ci=None,
    ...                     measures=["acc"], threshold=0.3)
    >>> kw["values"][0]["acc"], kw["design"].n
    (1.0, 4)
    """
    threshold = check_threshold_value(threshold)
    inclusive = check_flag(inclusive, "inclusive")
    level, n_boot, n_jobs, stratify = iv.check_run_options(ci, n_boot, n_jobs, stratify,
                                                           ci_method, progress)
    y, names, scores, w, notes = read_binary(y_true, models, pos_label=pos_label,
                                             sample_weight=sample_weight)
    design = bt.CaseDesign.from_cases(y, scores, w, stratify=stratify)
    stats = [BinaryStats(table=t, threshold=threshold, inclusive=inclusive)
             for t in design.tables]
    probs = all(0.0 <= float(s.min()) and float(s.max()) <= 1.0 for s in scores)
    chosen = choose_measures(measures, probs)
    first = compute_measures(stats[0], chosen, probabilities_ok=probs)
    used = [first.measure(k) for k in first]
    values = [first] + [compute_measures(st, used, probabilities_ok=probs) for st in stats[1:]]
    return dict(names=names, y=y, scores=scores, weight=w, design=design, stats=stats,
                measures=used, values=values, level=level, n_boot=n_boot,
                random_state=random_state, ci_method=ci_method, inclusive=inclusive,
                threshold=threshold, progress=progress, n_jobs=n_jobs, notes=notes,
                pos_label=pos_label)


# ------------------------------------------------------------------ k classes
#: the default measures of a k-class comparison (probability rows); labels only: the
#: threshold ones. One measure per question, as the binary headline (issue 33): no
#: top_k_acc (k = 1 is accuracy again, scored differently on tied rows), no kappa (beside
#: mcc), no prec/sens (f1 combines them), so Holm's adjustment over them stays sharp
HEADLINE_MULTI: tuple[str, ...] = ("acc", "f1", "mcc", "auc", "mxe", "brier", "ece")
THRESHOLD_MULTI: tuple[str, ...] = ("acc", "f1", "mcc")


def _array(s: Any, name: str = "scores") -> np.ndarray:
    """``s`` as an array: ragged rows (a list of rows of different lengths) and complex
    numbers are refused in one line."""
    v = s.to_numpy() if hasattr(s, "to_numpy") else s
    try:
        arr = np.asarray(v)
    except ValueError:  # numpy: "inhomogeneous shape" of ragged rows
        lengths = sorted({len(r) for r in v if hasattr(r, "__len__")})
        raise MeasurelabError(
            f"{name}: the probability rows have different lengths ({lengths}); every row "
            "needs one probability per class") from None
    if arr.dtype == object and arr.ndim == 1 and arr.size and all(
            hasattr(r, "__len__") and not isinstance(r, str | bytes) for r in arr.tolist()):
        lengths = sorted({len(r) for r in arr.tolist()})
        raise MeasurelabError(
            f"{name}: the probability rows have different lengths ({lengths}); every row "
            "needs one probability per class")
    if arr.dtype.kind == "c":
        raise MeasurelabError(f"{name} must be real numbers, got complex values")
    return arr


def is_multiclass_input(y_raw: np.ndarray, arrays: list[Any]) -> bool:
    """True when a comparison is a k-class one: a model gives an (n, k ≥ 3) matrix, or
    y_true has more than two classes.

    Examples
    --------
    >>> is_multiclass_input(np.array([0, 1, 2]), [np.eye(3)])
    True
    >>> is_multiclass_input(np.array([0, 1, 1]), [np.array([.2, .7, .9])])
    False
    """
    if any(_array(a).ndim == 2 and _array(a).shape[1] >= 3 for a in arrays):
        return True
    return y_raw.dtype != bool and unique_labels(y_raw).size > 2


def proba_rows(arr: np.ndarray, name: str) -> np.ndarray:
    """Model ``name``'s (n, k) probabilities checked (finite, in [0, 1], rows summing to 1
    within the tolerance of their type) and settled (a row off by rounding made to sum to
    1), as a comparison holds them; a comparison over parts checks each part's rows so.

    Examples
    --------
    >>> proba_rows(np.array([[.2, .3, .5]]), "m").tolist()
    [[0.2, 0.3, 0.5]]
    """
    P = number_matrix(arr, f"probabilities of model {name!r}")
    raw_dtype = arr.dtype
    bad = ~np.isfinite(P) | (P < 0) | (P > 1)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise MeasurelabError(
            f"probabilities of model {name!r} must be finite and in [0, 1], got "
            f"{show(P[i, j])} at row {i + 1}, column {j + 1}")
    tol = row_sum_tolerance(raw_dtype, P.shape[1])
    dev = np.abs(P.sum(axis=1) - 1.0)
    if dev.size and float(dev.max()) > tol:
        i = int(np.argmax(dev))
        raise MeasurelabError(
            f"probability rows of model {name!r} must sum to 1 (tolerance {tol:g}); "
            f"row {i + 1} sums to {sum_message(P[i].sum())}")
    return settle_rows(arr if raw_dtype.kind == "f" else P, f"model {name!r}")[0]


def _read_models(models: Any, y: np.ndarray, labels: tuple[Any, ...]
                 ) -> tuple[list[str], list[np.ndarray], list[bool]]:
    """Names, probability rows (one-hot for predicted labels) and, per model, whether it
    gave probabilities."""
    from measurelab.inference._base import model_items, model_names

    items = model_items(models)
    model_names([key for key, _ in items])
    k = len(labels)
    index = set(labels)
    names: list[str] = []
    rows: list[np.ndarray] = []
    kinds: list[bool] = []
    widths: dict[int, str] = {}
    for item in items:
        if not (isinstance(item, tuple | list) and len(item) == 2):
            raise MeasurelabError(
                f"models must be a mapping {{name: scores}} or (name, scores) pairs, got {item!r}")
        name = str(item[0])
        arr = _array(item[1], f"models: the scores of model {name!r}")
        if name in names:
            raise MeasurelabError(f"model name {name!r} is given twice; names must be unique")
        if arr.shape[0:1] != (y.size,):
            raise MeasurelabError(
                f"model {name!r} has {arr.shape[0] if arr.ndim else 0} rows but y_true has "
                f"{y.size} cases; every model must score the same cases")
        if arr.ndim == 2:
            widths.setdefault(arr.shape[1], name)
            if len(widths) > 1:
                (k1, n1), (k2, n2) = list(widths.items())[:2]
                raise MeasurelabError(
                    f"models give different numbers of classes: {n1!r} has {k1} columns, "
                    f"{n2!r} has {k2}; every model must give one column per class")
            if arr.shape[1] != k:
                raise MeasurelabError(
                    f"model {name!r} has {arr.shape[1]} probability columns but y_true has "
                    f"{k} classes ({list(labels)}); give one column per class in the order of "
                    "labels= (default: the sorted labels)")
            P = proba_rows(arr, name)
        elif arr.ndim == 1:
            stray = [v for v in unique_labels(arr).tolist() if v not in index]
            if stray:
                raise MeasurelabError(
                    f"model {name!r} predicts {show(stray[0])}, which is no class of y_true "
                    f"({list(labels)})")
            P = np.zeros((y.size, k))
            P[np.arange(y.size), class_indices(arr, labels, f"model {name!r}")] = 1.0
        else:
            raise MeasurelabError(
                f"scores of {name!r} must be (n, k) probabilities or (n,) predicted labels, "
                f"got shape {arr.shape}")
        names.append(name)
        rows.append(P)
        kinds.append(arr.ndim == 2)
    return names, rows, kinds


def _warn_empty_classes(yi: np.ndarray, w: np.ndarray | None, lab: tuple) -> None:
    """Warn when ``labels=`` names a class with no case (or no weight) in y_true: its
    one-vs-rest values are undefined or 0, which moves every macro average."""
    support = np.bincount(yi, weights=w, minlength=len(lab))
    empty = [lab[i] for i in np.flatnonzero(support <= 0)]
    if empty:
        import warnings

        which = ", ".join(show(v) for v in empty)
        warnings.warn(
            f"labels= names {which}, with no case in y_true (of {len(lab)} classes): the "
            f"measures of {'that class' if len(empty) == 1 else 'those classes'} are "
            "undefined or 0, which moves the macro averages", UndefinedMeasureWarning,
            stacklevel=4)


def choose_multi(measures: Any, probs: bool) -> Any:
    """The measures of a k-class comparison: the headline set (of probability rows, or of
    predicted labels), every one that applies (``'all'``: None) or those named.

    Examples
    --------
    >>> [m.name for m in choose_multi(None, False)]
    ['acc', 'f1', 'mcc']
    """
    if measures is None:
        return [registry.get(x) for x in (HEADLINE_MULTI if probs else THRESHOLD_MULTI)]
    if isinstance(measures, str) and measures == "all":
        return None
    return resolve_measures(measures)


def multi_rows(stats: list[Any], chosen: Any, average: str | None, probs: bool,
               lab: tuple[Any, ...]) -> tuple[list[tuple[str, Measure, int | None]],
                                             list[dict[str, float]]]:
    """The rows of a k-class comparison — (row name, measure, class or None), a per-class
    value a row ``measure[class]`` — and every model's values, from each model's
    statistics of all the cases.

    Examples
    --------
    >>> from measurelab.stats.multiblock import MultiBlock
    >>> st = MultiBlock.from_arrays([0, 1, 2], np.eye(3), np.ones((1, 3))).stats(0)
    >>> cols, vals = multi_rows([st], [registry.get("acc")], "macro", True, (0, 1, 2))
    >>> [c for c, _m, _i in cols], vals
    (['acc'], [{'acc': 1.0}])
    """
    first = compute_measures(stats[0], chosen, average=average, probabilities_ok=probs)
    used = [first.measure(x) for x in first]
    results = [first] + [compute_measures(s, used, average=average, probabilities_ok=probs)
                         for s in stats[1:]]
    columns: list[tuple[str, Measure, int | None]] = []
    for x in first:
        if np.ndim(first[x]) == 1:
            columns += [(f"{x}[{lab[c]}]", first.measure(x), c) for c in range(len(lab))]
        else:
            columns.append((x, first.measure(x), None))
    values = [{col: float(r[m.name] if c is None else np.asarray(r[m.name])[c])
               for col, m, c in columns} for r in results]
    return columns, values


def prepare_multiclass(
    y_true: Any, models: Any, *, measures: Any = None, average: str | None = "macro",
    ci: float | None = 0.95, n_boot: int = 2000, random_state: Any = 0,
    ci_method: str | None = None, sample_weight: Any = None, labels: Any = None,
    progress: bool | None = None, n_jobs: int | None = None, stratify: bool = False,
) -> dict[str, Any]:
    """What :func:`~measurelab.inference.classifiers.binary.compare_classifiers` needs for k
    classes (the keyword arguments of its ``MultiClassComparison``): validated models in a
    :class:`MultiCaseDesign`, the reported rows and their values as
    ``evaluate(y, P_m, measures=..., average=...)`` per model.

    Per-class values (``average=None``) become rows ``measure[class]``.

    Examples
    --------
    >>> y = [0, 1, 2, 0, 1, 2]
    >>> kw = prepare_multiclass(y, {"a": [0, 1, 2, 0, 1, 1], "b": [0, 1, 2, 1, 1, 2]},
    ...                         ci=None, average=None, measures=["sens"])
    >>> [c for c, _m, _i in kw["columns"]], kw["values"][0]["sens[2]"]
    (['sens[0]', 'sens[1]', 'sens[2]'], 0.5)
    """

    y = as_1d(y_true, "y_true")
    if labels is None:
        labs = unique_labels(y)
    else:
        labs = np.asarray(labels)
        missing = [v for v in unique_labels(y).tolist() if v not in set(labs.tolist())]
        if missing:
            raise MeasurelabError(
                f"y_true holds {show(missing[0])}, which is not among labels {labs.tolist()}")
    lab = tuple(labs.tolist())
    names, P, kinds = _read_models(models, y, lab)
    probs = all(kinds)
    yi = class_indices(y, labs)
    w = check_weights(sample_weight, y.size)
    _warn_empty_classes(yi, w, lab)
    average = check_average(average)
    level, n_boot, n_jobs, stratify = iv.check_run_options(ci, n_boot, n_jobs, stratify,
                                                           ci_method, progress)
    chosen = choose_multi(measures, probs)
    design = MultiCaseDesign(yi, P, lab, w, stratify=stratify)
    ident = np.ones((1, design.n))
    stats = []
    for a in range(len(names)):
        blk = design.block(a, ident)
        st = blk.stats(0)
        if not kinds[a]:
            st = MultiStats(counts=MultiCounts(blk.counts[0], lab))
        stats.append(st)
    columns, values = multi_rows(stats, chosen, average, probs, lab)
    return dict(names=names, design=design, columns=columns, values=values, average=average,
                level=level, n_boot=n_boot, random_state=random_state, ci_method=ci_method,
                progress=progress, n_jobs=n_jobs, weight=w)
