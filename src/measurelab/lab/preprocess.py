"""Preprocessing for the learning experiments: impute, encode, scale to [0, 1].

:class:`Preprocessor` is fitted on the training folds only and then applied to the test
fold, so no statistic of the test data leaks into a model.

* **Missing values** → the training median (numeric attributes) or the training mode
  (nominal attributes), as Hossin et al. (2011) do.
* **Numeric attributes** → min-max scaled with the training minimum and maximum, so the
  training data lie in [0, 1]; a constant attribute maps to 0. Test values outside the
  training range fall outside [0, 1] unless ``clip=True``.
* **Nominal attributes** (object, category or bool columns) → one-hot indicators with the
  values 0 and ``1/√2``. Why one-hot and not ordinal codes: the codes of a nominal attribute
  have no order, and ordinal codes would make, say, "red" closer to "green" than to "blue"
  for a nearest-prototype classifier. Why ``1/√2``: two different values then lie at
  Euclidean distance exactly 1, the largest distance one numeric attribute in [0, 1] can
  contribute, so a nominal attribute weighs as much as a numeric one (the overlap metric
  of HEOM). A value never seen in training gets all indicators 0 (distance 1/√2 to every
  seen value). Every output column lies in [0, 1].

Examples
--------
>>> import pandas as pd
>>> X = pd.DataFrame({"a": [1.0, None, 3.0], "c": ["x", "y", None]})
>>> p = Preprocessor().fit(X)
>>> p.feature_names_
['a', 'c=x', 'c=y']
>>> p.transform(X).round(4).tolist()
[[0.0, 0.7071, 0.0], [0.5, 0.0, 0.7071], [1.0, 0.7071, 0.0]]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.validation import check_flag, check_real

#: value of an active one-hot indicator: two different nominal values lie at distance 1
ONEHOT_VALUE = 1.0 / math.sqrt(2.0)


def is_nominal(s: pd.Series) -> bool:
    """Whether a column is nominal: object, category, bool or string dtype.

    Examples
    --------
    >>> is_nominal(pd.Series(["x", "y"])), is_nominal(pd.Series([1.0, 2.0]))
    (True, False)
    """
    return bool(
        s.dtype == object
        or isinstance(s.dtype, pd.CategoricalDtype)
        or pd.api.types.is_bool_dtype(s)
        or pd.api.types.is_string_dtype(s)
    )


def most_frequent(s: pd.Series) -> Any:
    """The most frequent value as text (missing values ignored; None if there is none);
    ties are broken by the smallest value in string order.

    Examples
    --------
    >>> most_frequent(pd.Series(["b", "a", None, "b", "a"]))
    'a'
    """
    counts = s.dropna().astype(str).value_counts()
    if counts.empty:
        return None
    best = counts.max()
    return sorted(counts.index[counts == best])[0]


class Preprocessor:
    """Impute, one-hot encode and min-max scale a table; fitted on training data only.

    Parameters
    ----------
    onehot_value : float, default 1/√2
        Value of an active one-hot indicator (see the module docstring for why).
    clip : bool, default False
        Clip transformed numeric values to [0, 1] (test values beyond the training range).
    nominal : list of column names, optional
        Columns to treat as nominal even when they hold numbers.

    Examples
    --------
    >>> import pandas as pd
    >>> train = pd.DataFrame({"a": [0.0, 10.0]})
    >>> Preprocessor().fit(train).transform(pd.DataFrame({"a": [5.0, 20.0]})).ravel().tolist()
    [0.5, 2.0]
    >>> Preprocessor(clip=True).fit(train).transform(pd.DataFrame({"a": [20.0]})).ravel().tolist()
    [1.0]
    """

    def __init__(
        self,
        *,
        onehot_value: float = ONEHOT_VALUE,
        clip: bool = False,
        nominal: list[str] | None = None,
    ) -> None:
        self.onehot_value = check_real(onehot_value, "onehot_value")
        if self.onehot_value <= 0:
            raise MeasurelabError(f"onehot_value must be positive, got {self.onehot_value:g}")
        self.clip = check_flag(clip, "clip")
        if nominal is not None and (isinstance(nominal, str | bytes)
                                    or not isinstance(nominal, list | tuple | set)):
            raise MeasurelabTypeError(f"nominal must be a list of column names or None, got "
                                      f"{type(nominal).__name__} {nominal!r:.60}")
        self.nominal = list(nominal or [])

    def fit(self, X: pd.DataFrame | np.ndarray) -> Preprocessor:
        """Learn medians, modes, categories, minima and maxima from training data."""
        X = _frame(X)
        self.columns_ = list(X.columns)
        self.numeric_: dict[str, tuple[float, float, float]] = {}
        self.categorical_: dict[str, tuple[Any, list[str]]] = {}
        names: list[str] = []
        for col in self.columns_:
            s = X[col]
            if col in self.nominal or is_nominal(s):
                mode = most_frequent(s)
                cats = sorted(s.dropna().astype(str).unique().tolist())
                self.categorical_[col] = (mode, cats)
                names += [f"{col}={c}" for c in cats]
            else:
                v = pd.to_numeric(s, errors="raise").astype(float)
                med = float(v.median()) if v.notna().any() else 0.0
                filled = v.fillna(med)
                self.numeric_[col] = (med, float(filled.min()), float(filled.max()))
                names.append(str(col))
        self.feature_names_ = names
        return self

    def transform(self, X: pd.DataFrame | np.ndarray) -> np.ndarray:
        """The encoded, scaled float array (rows = examples)."""
        if not hasattr(self, "columns_"):
            raise MeasurelabError("Preprocessor is not fitted: call fit() first")
        X = _frame(X)
        missing = [c for c in self.columns_ if c not in X.columns]
        if missing:
            raise MeasurelabError(f"column {missing[0]!r} seen in fit() is missing")
        parts: list[np.ndarray] = []
        for col in self.columns_:
            s = X[col]
            if col in self.numeric_:
                med, lo, hi = self.numeric_[col]
                v = pd.to_numeric(s, errors="raise").astype(float).fillna(med).to_numpy()
                z = (v - lo) / (hi - lo) if hi > lo else np.zeros_like(v)
                if self.clip:
                    z = np.clip(z, 0.0, 1.0)
                parts.append(z[:, None])
            else:
                mode, cats = self.categorical_[col]
                v = s.astype(object).where(s.notna(), mode)
                v = np.array([str(x) if x is not None else "" for x in v], dtype=object)
                block = (v[:, None] == np.array(cats, dtype=object)[None, :]).astype(float)
                parts.append(block * self.onehot_value)
        if not parts:
            return np.zeros((len(X), 0))
        return np.hstack(parts)

    def fit_transform(self, X: pd.DataFrame | np.ndarray) -> np.ndarray:
        """``fit(X).transform(X)``."""
        return self.fit(X).transform(X)


def _frame(X: pd.DataFrame | np.ndarray) -> pd.DataFrame:
    if isinstance(X, pd.DataFrame):
        return X
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise MeasurelabError(f"X must be 2-d, got shape {arr.shape}")
    return pd.DataFrame(arr, columns=[f"x{i}" for i in range(arr.shape[1])])


def encode_labels(y: Any) -> tuple[np.ndarray, np.ndarray]:
    """Class codes 0..k−1 (in sorted label order) and the labels.

    Examples
    --------
    >>> codes, labels = encode_labels(["b", "a", "b"])
    >>> codes.tolist(), labels.tolist()
    ([1, 0, 1], ['a', 'b'])
    """
    arr = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
    labels, codes = np.unique(arr, return_inverse=True)
    return codes.astype(np.int64), labels
