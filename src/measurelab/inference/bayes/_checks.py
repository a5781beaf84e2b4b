"""The input checks of :func:`~measurelab.inference.bayes.bayes_compare` and
:func:`~measurelab.inference.bayes.bayes_pairs`, in one place.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab._util.validation import (
    make_rng,
    parse_number_array,
    short_repr,
    show,
)
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference._base import model_names
from measurelab.inference.bayes.result import METHODS


def _check_method(method: Any) -> str:
    if not isinstance(method, str):
        raise MeasurelabTypeError(f"method must be one of {', '.join(map(repr, METHODS))}, "
                                  f"got {short_repr(method)}")
    if method not in METHODS:
        raise MeasurelabError(f"method must be one of {', '.join(map(repr, METHODS))}, got "
                              f"{short_repr(method)}")
    return method


def _check_rope(rope: Any) -> float:
    if isinstance(rope, bool | np.bool_) or not isinstance(rope, int | float | np.integer |
                                                            np.floating):
        raise MeasurelabTypeError("rope must be a number >= 0 in the measure's units (e.g. "
                                  f"0.01 for accuracy), got {short_repr(rope)}")
    r = float(rope)
    if not math.isfinite(r) or r < 0:
        raise MeasurelabError("rope must be a finite number >= 0 in the measure's units "
                              f"(e.g. 0.01 for accuracy), got {show(rope)}")
    return r


def _check_prior(prior: Any) -> float:
    if isinstance(prior, bool | np.bool_) or not isinstance(prior, int | float | np.integer |
                                                              np.floating):
        raise MeasurelabTypeError(f"prior must be a positive number, got {short_repr(prior)}")
    p = float(prior)
    if not (math.isfinite(p) and p > 0):
        raise MeasurelabError(f"prior must be a positive finite number, got {show(prior)}")
    return p


def _check_names(names: Any) -> tuple[str, str]:
    if isinstance(names, str) or not hasattr(names, "__len__") or len(names) != 2:
        raise MeasurelabTypeError(f"names must be a pair of names for a and b, got "
                                  f"{short_repr(names)}")
    first, second = model_names(list(names), "names")
    return (first, second)


def _rng(random_state: Any) -> np.random.Generator:
    return make_rng(random_state)


def _scores(v: Any, name: str, ndim: int, method: str) -> np.ndarray:
    if hasattr(v, "to_numpy") and type(v).__module__.startswith("pandas"):
        v = v.to_numpy()
    try:
        raw = np.asarray(v)
    except (TypeError, ValueError):  # ragged nesting
        raise MeasurelabError(f"{name} must hold numbers (scores), got "
                              f"{short_repr(v)}") from None
    if raw.dtype.kind == "c":
        raise MeasurelabError(f"{name} must be real numbers (scores), got complex values")
    if raw.dtype.kind in "biuf":
        arr = np.asarray(raw, dtype=np.float64)
    else:  # text and objects: the one rule for numbers ('0_1' is not 0.1)
        flat, bad_at = parse_number_array(raw.reshape(-1))
        if bad_at is not None:
            raise MeasurelabError(f"{name} must hold numbers (scores), got "
                                  f"{show(raw.reshape(-1)[bad_at])} in {short_repr(v)}")
        arr = flat.reshape(raw.shape)
    if arr.ndim != ndim:
        what = ("a 2-d array, data sets × fold scores" if ndim == 2 else
                "a 1-d array of fold scores of one data set" if method == "correlated-t"
                else "a 1-d array, one score per data set")
        hint = (" (one score per data set: use 'signed-rank' or 'sign')" if ndim == 2 else
                " (data sets × folds: use 'hierarchical', or average the folds)"
                if arr.ndim == 2 else "")
        raise MeasurelabError(f"{method!r} needs {name} as {what}, got {arr.ndim}-d "
                              f"shape {arr.shape}{hint}")
    bad = ~np.isfinite(arr)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        where = (f"data set {idx[0]}, fold {idx[1]}" if ndim == 2 else f"index {idx[0]}")
        raise MeasurelabError(f"{name} must be finite, got {show(arr[idx])} at {where}")
    return arr


def _paired(a: Any, b: Any, *, ndim: int, method: str) -> tuple[np.ndarray, np.ndarray]:
    x = _scores(a, "a", ndim, method)
    y = _scores(b, "b", ndim, method)
    if x.shape != y.shape:
        if ndim == 1:
            raise MeasurelabError(f"a has {x.size} scores and b has {y.size}: they must be "
                                  "paired (the same folds or data sets)")
        raise MeasurelabError(f"a has shape {x.shape} and b {y.shape}: they must be paired "
                              "(the same data sets × folds)")
    if method in ("signed-rank", "sign", "hierarchical") and x.shape[0] < 2:
        raise MeasurelabError(f"{method!r} needs at least 2 data sets, got {x.shape[0]}")
    return x, y


def _folds(n: int, runs: int, method: str) -> int:
    """k, the folds per run, of n fold scores from ``runs`` repetitions."""
    if n < 2:
        raise MeasurelabError(f"{method!r} needs at least 2 fold scores, got {n}")
    if n % runs:
        raise MeasurelabError(f"runs={runs} does not divide the {n} fold scores: give k folds "
                              "× runs repetitions, the same for a and b")
    k = n // runs
    if k < 2:
        raise MeasurelabError(f"runs={runs} leaves {k} fold per run ({n} scores): "
                              f"{method!r} needs at least 2 folds per run (ρ = 1/k)")
    return k
