"""The UCI data sets shipped with measurelab (offline copies; see ``data/README.md``).

Each is a gzip CSV whose last column ``target`` holds the class label as in the source;
missing values are empty cells (NaN after loading). ``MANIFEST.tsv`` records sizes,
sources and how each file was made.

Examples
--------
>>> from measurelab.io import datasets
>>> X, y = datasets.load("sonar")
>>> X.shape, sorted(y.unique())
((208, 60), ['Mine', 'Rock'])
>>> "adult" in datasets.names()
True
>>> datasets.load("sonar", encode=True)   # numbers a model takes; the positive class stated
Dataset 'sonar': 208 cases, 60 numeric features (encoded); binary target: 1 = 'Rock', 0 = the rest
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

from measurelab.exceptions import MeasurelabError


def data_dir() -> Path:
    """Folder of the shipped data files."""
    return Path(str(resources.files("measurelab") / "data"))


@functools.cache
def manifest() -> pd.DataFrame:
    """The manifest: rows, features, classes, class counts, missing cells, source, notes."""
    return pd.read_csv(data_dir() / "MANIFEST.tsv", sep="\t").set_index("name")


def names() -> list[str]:
    """Names of the shipped data sets."""
    return sorted(manifest().index)


def path(name: str) -> Path:
    """File of a shipped data set; raises with the list of names when unknown."""
    if name not in manifest().index:
        import difflib

        close = difflib.get_close_matches(name, names(), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise MeasurelabError(f"unknown data set {name!r}{hint} (known: {', '.join(names())})")
    return data_dir() / f"{name}.csv.gz"


@functools.cache
def _frame(name: str) -> pd.DataFrame:
    return pd.read_csv(path(name), low_memory=False)


def load_frame(name: str) -> pd.DataFrame:
    """The whole table (features and ``target``), a fresh copy."""
    return _frame(name).copy()


class Dataset(tuple):
    """What :func:`load` returns: unpacks as ``X, y``; says what the target is.

    Attributes: ``X``, ``y``, ``name``, ``classes`` (the class labels of the source, in the
    order of ``y``'s codes when encoded), ``positive`` (the positive class of a binary
    target, else None) and ``encoded``.
    """

    name: str
    classes: list[Any]
    positive: Any
    encoded: bool

    def __new__(cls, X: pd.DataFrame, y: pd.Series, *, name: str, classes: list[Any],
                positive: Any, encoded: bool) -> Dataset:
        self = super().__new__(cls, (X, y))
        self.name, self.classes, self.positive, self.encoded = name, classes, positive, encoded
        return self

    @property
    def X(self) -> pd.DataFrame:
        return self[0]

    @property
    def y(self) -> pd.Series:
        return self[1]

    def __repr__(self) -> str:
        X = self[0]
        what = (f"binary target: 1 = {self.positive!r}, 0 = the rest" if self.positive
                is not None else f"{len(self.classes)} classes "
                f"{'coded 0..' + str(len(self.classes) - 1) if self.encoded else 'as text'}: "
                + ", ".join(map(repr, self.classes[:8])) + ("…" if len(self.classes) > 8
                                                            else ""))
        feats = "numeric features (encoded)" if self.encoded else "features as in the source"
        return (f"Dataset {self.name!r}: {X.shape[0]} cases, {X.shape[1]} {feats}; {what}")


def _minority(y: pd.Series) -> Any:
    """The positive class of a two-class target: the rarer class (the last in sorted
    order on a tie)."""
    counts = y.value_counts()
    labels = sorted(counts.index, key=lambda v: (counts[v], str(v)))
    return labels[0] if counts[labels[0]] < counts[labels[-1]] else \
        sorted(counts.index, key=str)[-1]


def encode_features(X: pd.DataFrame) -> pd.DataFrame:
    """Numeric features a scikit-learn model takes as they are: every nominal column (text,
    category, bool) one-hot encoded as 0/1 columns ``column=value`` (a missing value: all
    0), numeric columns kept, their missing cells filled with the column's median (0 when
    the column has none).

    The categories and medians are those of the whole table: for a study whose test part
    must not inform any preprocessing, fit an imputer on the training part instead.

    Examples
    --------
    >>> X = pd.DataFrame({"a": [1.0, None, 3.0], "c": ["x", "y", None]})
    >>> encode_features(X).to_dict("list")
    {'a': [1.0, 2.0, 3.0], 'c=x': [1.0, 0.0, 0.0], 'c=y': [0.0, 1.0, 0.0]}
    """
    cols: dict[str, Any] = {}
    for c in X.columns:
        s = X[c]
        nominal = (s.dtype == object or isinstance(s.dtype, pd.CategoricalDtype)
                   or pd.api.types.is_bool_dtype(s) or pd.api.types.is_string_dtype(s))
        if nominal:
            text = s.astype(object).where(s.notna(), None)
            for v in sorted({str(x) for x in text.dropna()}):
                cols[f"{c}={v}"] = (text.astype(str) == v).where(text.notna(), False) \
                    .astype(float)
        else:
            x = pd.to_numeric(s, errors="coerce").astype(float)
            med = x.median()
            cols[str(c)] = x.fillna(0.0 if pd.isna(med) else med)
    return pd.DataFrame(cols, index=X.index)


def load(name: str, *, encode: bool = False, positive: Any = None) -> Dataset:
    """Features and target of a shipped data set (unpacks as ``X, y``).

    Parameters
    ----------
    name : str
        One of :func:`names`.
    encode : bool, default False
        False: the table as in the source (text categories, the target's own labels).
        True: numeric features (:func:`encode_features`: one-hot nominal columns, median-
        filled numbers) and a numeric target: for two classes 1 = the positive class
        (``positive``, default the rarer class), 0 = the other; for k classes the codes
        0..k−1 of the sorted class labels (``.classes`` names them).
    positive : label, optional
        The positive class: the target becomes 1 for it and 0 for every other class (of a
        k-class data set too: one class against the rest).

    Returns
    -------
    Dataset
        ``X, y`` with ``.classes``, ``.positive`` (the class coded 1, or None) and a repr
        that states them.

    Examples
    --------
    >>> d = load("diabetes", encode=True)
    >>> d
    Dataset 'diabetes': 768 cases, 8 numeric features (encoded); binary target: 1 = 'tested_positive', 0 = the rest
    >>> X, y = d
    >>> int(y.sum()), str(X.dtypes.unique()[0])
    (268, 'float64')
    >>> load("vehicle", encode=True).classes
    ['bus', 'opel', 'saab', 'van']
    """  # noqa: E501
    from measurelab._util.validation import check_flag

    encode = check_flag(encode, "encode")
    df = load_frame(name)
    X, y = df.drop(columns="target"), df["target"]
    classes = sorted(y.dropna().unique().tolist(), key=lambda v: (str(type(v)), v))
    if positive is None and encode and len(classes) == 2:
        positive = _minority(y)
    if positive is not None:
        if positive not in classes:
            raise MeasurelabError(f"positive={positive!r} is not a class of {name!r}; "
                                  f"expected one of {classes}")
        y = (y == positive).astype(int).rename("target")
        y.attrs["positive"] = positive
    elif encode:
        y = y.map({c: i for i, c in enumerate(classes)}).astype(int).rename("target")
    if encode:
        X = encode_features(X)
    return Dataset(X, y, name=name, classes=classes, positive=positive, encoded=encode)
