"""Reading multi-label input: the true label sets and each model's per-label scores, checked
and brought to an (n, L) boolean matrix and an (n, L) float matrix.

Accepted true label sets: an (n, L) indicator matrix of 0/1 or booleans (numpy, a pandas
DataFrame — its column names name the labels —, a scipy.sparse matrix), or a sequence of
label sets (sets, or lists with ``labels=``) with ``labels=`` naming the L labels (default:
the sorted union). Accepted scores: an (n, L) matrix of per-label scores or 0/1 predictions
(numpy, pandas, scipy.sparse), or scikit-learn's ``predict_proba`` of a multi-output model —
a list of L arrays of shape (n, 2), whose second column (the label's probability) is read.

Examples
--------
>>> Y, labels = read_label_sets([{"cat"}, {"cat", "dog"}, set()], None)
>>> Y.astype(int).tolist(), labels
([[1, 0], [1, 1], [0, 0]], ('cat', 'dog'))
>>> read_label_scores([np.array([[.9, .1], [.2, .8], [.5, .5]])] * 2, 3, 2).tolist()
[[0.1, 0.1], [0.8, 0.8], [0.5, 0.5]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from measurelab._util.validation import number_matrix, short_repr, show
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError


def _is_sparse(x: Any) -> bool:
    return type(x).__module__.startswith("scipy.sparse")


def _is_frame(x: Any) -> bool:
    return type(x).__module__.startswith("pandas") and getattr(x, "ndim", 1) == 2


def is_multilabel(y_true: Any) -> bool:
    """Whether ``y_true`` is multi-label: a 2-d matrix of more than one column (numpy,
    pandas, scipy.sparse) or a sequence of label sets.

    Examples
    --------
    >>> is_multilabel([[0, 1], [1, 1]]), is_multilabel([0, 1, 1]), is_multilabel([{"a"}, set()])
    (True, False, True)
    """
    if _is_sparse(y_true) or _is_frame(y_true):
        return len(y_true.shape) == 2 and y_true.shape[1] > 1
    if isinstance(y_true, Sequence) and not isinstance(y_true, str | bytes) and len(y_true):
        if all(isinstance(v, set | frozenset) for v in y_true):
            return True
    if isinstance(y_true, np.ndarray) or (isinstance(y_true, Sequence)
                                          and not isinstance(y_true, str | bytes)):
        try:
            arr = np.asarray(y_true)
        except ValueError:  # ragged: label sets as lists
            return True
        return arr.ndim == 2 and arr.shape[1] > 1
    return False


def read_label_sets(y_true: Any, labels: Any) -> tuple[np.ndarray, tuple[Any, ...]]:
    """The true label sets as an (n, L) boolean matrix and the label names.

    A value other than 0/1 (or a label not among ``labels``) is an error naming it and
    where it is.

    Examples
    --------
    >>> read_label_sets(np.array([[0, 1], [2, 0]]), None)
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: y_true must be a 0/1 indicator matrix (one column per label); got 2 at row 2, column 1
    """  # noqa: E501
    names: tuple[Any, ...] | None = None
    if _is_frame(y_true):
        names = tuple(y_true.columns.tolist())
        arr = y_true.to_numpy()
    elif _is_sparse(y_true):
        arr = y_true.toarray()
    else:
        seq = isinstance(y_true, Sequence) and not isinstance(y_true, str | bytes)
        if seq and len(y_true) and all(isinstance(v, set | frozenset) for v in y_true):
            return _from_sets(y_true, labels)
        try:
            arr = np.asarray(y_true)
        except ValueError:
            return _from_sets(y_true, labels)
        if arr.dtype == object and arr.ndim == 1:
            return _from_sets(y_true, labels)
    if arr.ndim != 2:
        raise MeasurelabError(f"y_true of multi-label input must be an (n, L) indicator "
                              f"matrix, got shape {arr.shape}")
    Y = _indicator(arr)
    L = Y.shape[1]
    if labels is not None:
        labs = tuple(np.asarray(labels).tolist())
        twice = [v for k, v in enumerate(labs) if v in labs[:k]]
        if twice:
            raise MeasurelabError(f"labels holds {show(twice[0])} twice ({list(labs)}); "
                                  "expected each label once")
        if len(labs) != L:
            raise MeasurelabError(f"labels has {len(labs)} entries but y_true has {L} "
                                  "columns; expected one label per column")
        names = labs
    return Y, names if names is not None else tuple(range(L))


def _indicator(arr: np.ndarray) -> np.ndarray:
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind in "iuf":
        bad = (arr != 0) & (arr != 1)
    else:
        bad = np.ones(arr.shape, dtype=bool)
        for v in (0, 1, True, False):
            with np.errstate(all="ignore"):
                try:
                    bad &= ~np.asarray(arr == v, dtype=bool)
                except (TypeError, ValueError):
                    pass
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise MeasurelabError(
            f"y_true must be a 0/1 indicator matrix (one column per label); got "
            f"{show(arr[i, j])} at row {i + 1}, column {j + 1}")
    return np.asarray(arr == 1, dtype=bool)


def _from_sets(sets: Any, labels: Any) -> tuple[np.ndarray, tuple[Any, ...]]:
    rows = []
    for i, s in enumerate(sets):
        if isinstance(s, str | bytes) or not hasattr(s, "__iter__"):
            raise MeasurelabError(f"y_true as label sets must hold a set of labels per "
                                  f"case; case {i + 1} is {short_repr(s)}")
        rows.append(list(s))
    if labels is None:
        try:
            labs = tuple(sorted({v for r in rows for v in r}))
        except TypeError:
            raise MeasurelabError("the labels of y_true cannot be sorted; pass labels= to "
                                  "order them") from None
    else:
        labs = tuple(np.asarray(labels).tolist())
    index = {v: j for j, v in enumerate(labs)}
    Y = np.zeros((len(rows), len(labs)), dtype=bool)
    for i, r in enumerate(rows):
        for v in r:
            j = index.get(v)
            if j is None:
                raise MeasurelabError(f"y_true holds the label {show(v)} (case {i + 1}), which "
                                      f"is not one of labels {list(labs)}")
            Y[i, j] = True
    return Y, labs


def _ndim(value: Any) -> int:
    """The dimensions of an array-like, -1 for a ragged one."""
    try:
        return int(np.ndim(value))
    except ValueError:
        return -1


def read_label_scores(y_score: Any, n: int, L: int, name: str = "y_score") -> np.ndarray:
    """One model's scores as a finite (n, L) float matrix.

    Examples
    --------
    >>> read_label_scores(np.zeros((3, 2)), 3, 4)
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: y_score has 2 columns but y_true has 4 labels; expected an (n, L) = (3, 4) matrix of per-label scores
    """  # noqa: E501
    if y_score is None:
        raise MeasurelabTypeError(f"{name} must be an (n, L) = ({n}, {L}) matrix of "
                                  "per-label scores, got None")
    if isinstance(y_score, list | tuple) and len(y_score) and not np.isscalar(
            y_score[0]) and any(_ndim(p) == 2 for p in y_score):
        if len(y_score) != L:
            raise MeasurelabError(
                f"{name} is a list of {len(y_score)} probability matrices (predict_proba of a "
                f"multi-output model) but y_true has {L} labels")
        cols = []
        for j, p in enumerate(y_score):
            p = np.asarray(p)
            if p.shape != (n, 2):
                raise MeasurelabError(
                    f"{name}[{j}] has shape {p.shape}; predict_proba of label {j} must be "
                    f"(n, 2) = ({n}, 2), its second column the label's probability")
            cols.append(p[:, 1])
        arr = np.stack(cols, axis=1)
    elif _is_frame(y_score):
        arr = y_score.to_numpy()
    elif _is_sparse(y_score):
        arr = y_score.toarray()
    else:
        try:
            arr = np.asarray(y_score)
        except ValueError:  # rows of different lengths
            raise MeasurelabError(f"{name} must be an (n, L) = ({n}, {L}) matrix of "
                                  "per-label scores; its rows differ in length") from None
    if arr.ndim != 2:
        raise MeasurelabError(f"{name} must be an (n, L) = ({n}, {L}) matrix of per-label "
                              f"scores for multi-label y_true, got shape {arr.shape}")
    if arr.shape[1] != L:
        raise MeasurelabError(
            f"{name} has {arr.shape[1]} columns but y_true has {L} labels; expected an "
            f"(n, L) = ({n}, {L}) matrix of per-label scores")
    if arr.shape[0] != n:
        raise MeasurelabError(f"inconsistent numbers of examples: y_true has {n}, {name} "
                              f"has {arr.shape[0]}")
    S = number_matrix(arr, name)  # text under the one rule for numbers, cells named
    if not np.isfinite(S).all():
        i, j = np.argwhere(~np.isfinite(S))[0]
        raise MeasurelabError(f"{name} must be finite, got {show(S[i, j])} at row {i + 1}, "
                              f"column {j + 1}")
    return S


def read_thresholds(threshold: Any, L: int) -> np.ndarray:
    """The decision threshold of every label: one number for all, or one per label.

    Examples
    --------
    >>> read_thresholds(0.5, 2).tolist(), read_thresholds([0.3, 0.7], 2).tolist()
    ([0.5, 0.5], [0.3, 0.7])
    """
    from measurelab.stats.checks import check_threshold_value

    if np.ndim(threshold) == 0:
        return np.full(L, check_threshold_value(threshold))
    t = np.asarray(threshold)
    if t.ndim != 1 or t.size != L:
        raise MeasurelabError(f"threshold must be a number or one per label ({L}), got "
                              f"shape {t.shape}")
    if t.dtype.kind not in "iuf":
        raise MeasurelabTypeError(f"threshold must be numbers, got {t.dtype} values")
    return np.array([check_threshold_value(float(v)) for v in t])
