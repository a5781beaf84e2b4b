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
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

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


def load(name: str) -> tuple[pd.DataFrame, pd.Series]:
    """Features and target of a shipped data set."""
    df = load_frame(name)
    return df.drop(columns="target"), df["target"]
