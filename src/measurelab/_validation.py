"""Input validation shared by every entry point.

One private place that turns user input into normalized arrays, or raises a
:class:`MeasurelabError` whose message is one line naming the bad value and what
was expected (the CLI prints that line and exits with status 2).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np


class MeasurelabError(ValueError):
    """Bad input: the message names the value and what was expected."""


class UndefinedMeasureWarning(UserWarning):
    """A measure is undefined for the input (for example AUC with one class); NaN is returned."""


class MeasurelabDeprecationWarning(DeprecationWarning):
    """Deprecated measurelab behaviour."""


def show(value: Any) -> str:
    """``repr`` of a value as a user wrote it (numpy scalars shown as Python scalars)."""
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


def warn_undefined(message: str, stacklevel: int = 3) -> None:
    """Warn that a measure is undefined for its input."""
    warnings.warn(message, UndefinedMeasureWarning, stacklevel=stacklevel)


def _as_1d(x: Any, name: str) -> np.ndarray:
    if type(x).__module__.startswith("pandas") and hasattr(x, "to_numpy"):
        x = x.to_numpy()  # a Series or Index (pandas is not imported for other input)
    arr = np.asarray(x)
    if arr.ndim == 0:
        raise MeasurelabError(f"{name} must be a 1-d array-like, got a scalar {arr!r}")
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise MeasurelabError(f"{name} must be 1-d, got an array of shape {arr.shape}")
    return arr


def check_scores(y_score: Any, name: str = "y_score") -> np.ndarray:
    """Return ``y_score`` as a finite float64 vector or raise naming the first bad value."""
    arr = _as_1d(y_score, name)
    if arr.dtype.kind not in "biuf":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            bad = next((v for v in arr if not _is_number(v)), arr[0])
            raise MeasurelabError(
                f"{name} must be numeric, got the non-numeric value {show(bad)}"
            ) from None
    arr = np.asarray(arr, dtype=np.float64)
    finite = np.isfinite(arr)
    if not finite.all():
        i = int(np.flatnonzero(~finite)[0])
        raise MeasurelabError(
            f"{name} must be finite, got {show(arr[i])} at position {i}"
        )
    return arr


def _is_number(v: Any) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def check_probabilities(y_score: np.ndarray, name: str = "y_score") -> None:
    """Raise unless every score lies in [0, 1] (needed by probability measures)."""
    if y_score.size == 0:
        return
    lo, hi = float(y_score.min()), float(y_score.max())
    if lo < 0.0 or hi > 1.0:
        bad = lo if lo < 0.0 else hi
        raise MeasurelabError(
            f"probability measures need {name} in [0, 1], got {show(bad)}"
        )


def check_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """Return float64 non-negative weights of length ``n`` (or None)."""
    if sample_weight is None:
        return None
    w = check_scores(sample_weight, "sample_weight")
    if w.shape[0] != n:
        raise MeasurelabError(
            f"sample_weight has {w.shape[0]} values, expected {n} (one per example)"
        )
    if (w < 0).any():
        raise MeasurelabError(f"sample_weight must be non-negative, got {show(w.min())}")
    return w


def unique_labels(y: np.ndarray) -> np.ndarray:
    """Sorted distinct labels in O(n) (hash-based) rather than a full sort."""
    if y.dtype == bool:
        return np.unique(y[[0, -1]]) if y.all() or not y.any() else np.array([False, True])
    if y.dtype.kind in "iuf" and y.size:
        # whole-number labels in a small range: a count per value (no hashing, no pandas)
        lo, hi = y.min(), y.max()
        if np.isfinite(lo) and np.isfinite(hi) and hi - lo < 1 << 16:
            k = y if lo == 0 and y.dtype == np.intp else (y - lo).astype(np.intp)
            if y.dtype.kind != "f" or np.array_equal(k + lo, y):
                return (np.flatnonzero(np.bincount(k)) + lo).astype(y.dtype)
    import pandas as pd

    u = pd.unique(y)
    try:
        return np.sort(u)
    except TypeError:
        return np.array(sorted(u, key=str), dtype=object)


def binarize(y_true: Any, pos_label: Any = 1) -> np.ndarray:
    """Return a boolean vector ``y_true == pos_label`` after checking the labels.

    ``y_true`` may hold at most two distinct labels; ``pos_label`` must be one of them
    unless only one label is present (then the data are all positive or all negative).
    """
    y = _as_1d(y_true, "y_true")
    if y.size == 0:
        raise MeasurelabError("y_true is empty: at least one example is needed")
    if y.dtype == bool:
        if pos_label in (1, True):
            return y
        if pos_label in (0, False):
            return ~y
    labels = unique_labels(y)
    if labels.size > 2:
        shown = ", ".join(map(show, labels[:6].tolist())) + (", ..." if labels.size > 6 else "")
        raise MeasurelabError(
            f"y_true has {labels.size} classes ({shown}); binary measures need exactly two "
            "(give a 2-d y_score of class probabilities for multi-class evaluation)"
        )
    if labels.size == 2 and pos_label not in labels.tolist():
        raise MeasurelabError(
            f"pos_label={pos_label!r} is not a valid label. "
            f"It should be one of {labels.tolist()}"
        )
    if y.dtype.kind in "fc" and np.isnan(y).any():
        raise MeasurelabError("y_true contains NaN; labels must be present for every example")
    return np.asarray(y == pos_label)


def check_same_length(*arrays: tuple[str, Sequence[Any] | np.ndarray]) -> None:
    """Raise if the named arrays differ in length."""
    lens = {name: len(a) for name, a in arrays}
    if len(set(lens.values())) > 1:
        desc = ", ".join(f"{k} has {v}" for k, v in lens.items())
        raise MeasurelabError(f"inconsistent numbers of examples: {desc}")
