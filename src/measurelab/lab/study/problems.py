"""Binary problems of the metric-space study, their seeded splits and preprocessing.

Named problems (case-insensitive):

* ``adult`` — UCI Adult, positive ``>50K``.
* ``cover_type`` — covertype, the largest class (2, Lodgepole Pine) vs the rest. The shipped
  file is a 92,962-row stratified sample of the 581,012 rows the paper drew from.
* ``letter.p1`` — letter ``O`` vs the rest (unbalanced, about 3.8 % positive).
* ``letter.p2`` — letters ``A``–``M`` vs ``N``–``Z`` (balanced).
* every *binary* shipped data set by its name (``sonar``, ``german``, ...); the positive
  class is the minority class (on a tie, the later label in sorted order).
* a user's file: ``path/to/file.csv`` or ``.parquet`` with ``target=COLUMN`` (and optionally
  ``pos_label``); the positive class is the minority class unless ``pos_label`` is given.

Splits (:func:`make_split`) are stratified and seeded: ``n_train`` training cases (4,000 as in
the paper), ``n_valid`` validation cases for model selection, and the rest as the test set,
capped at ``n_test``. Small data sets that cannot fill those sizes are split 50/20/30.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from measurelab.exceptions import MeasurelabError

#: the paper's four public problems, by our names
PAPER_PROBLEMS: tuple[str, ...] = ("adult", "cover_type", "letter.p1", "letter.p2")

#: the paper's problem sizes (Table 1: train / test / % positive), for the report
PAPER_SIZES: dict[str, dict[str, Any]] = {
    "adult": {"attributes": "14/104", "train": 4000, "test": 35222, "pct_pos": 25},
    "cover_type": {"attributes": 54, "train": 4000, "test": 25000, "pct_pos": 36},
    "letter.p1": {"attributes": 16, "train": 4000, "test": 14000, "pct_pos": 3},
    "letter.p2": {"attributes": 16, "train": 4000, "test": 14000, "pct_pos": 53},
}


@dataclass
class Problem:
    """A binary problem: raw features, a boolean target and where it came from."""

    name: str
    X: pd.DataFrame
    y: np.ndarray
    positive: str
    note: str = ""

    @property
    def n(self) -> int:
        return int(self.y.size)

    @property
    def pos_rate(self) -> float:
        return float(self.y.mean())


@dataclass
class Prepared:
    """Numeric train / validation / test arrays of one problem after preprocessing."""

    name: str
    X_train: np.ndarray
    y_train: np.ndarray
    X_valid: np.ndarray
    y_valid: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)

    def arrays(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in
                ("X_train", "y_train", "X_valid", "y_valid", "X_test", "y_test")}

    def save(self, path: Path) -> None:
        """Write the arrays to ``path`` (npz) atomically."""
        from measurelab.io.files import atomic_write_with

        # numpy's stub lets **kwds meet savez's allow_pickle: bool too
        atomic_write_with(path, lambda tmp: np.savez(tmp, **self.arrays()),  # type: ignore[arg-type]
                          suffix=".tmp.npz")

    @classmethod
    def load(cls, path: Path, name: str = "") -> Prepared:
        with np.load(path) as z:
            return cls(name=name, **{k: z[k] for k in z.files})


def binary_datasets() -> list[str]:
    """Names of the shipped data sets with exactly two classes.

    Examples
    --------
    >>> "sonar" in binary_datasets() and "letter" not in binary_datasets()
    True
    """
    from measurelab.io import datasets

    m = datasets.manifest()
    return sorted(m.index[m["classes"] == 2])


def known_problems() -> list[str]:
    """The paper's problems followed by the binary shipped data sets (adult once)."""
    return list(PAPER_PROBLEMS) + [d for d in binary_datasets() if d != "adult"]


def _minority(y: pd.Series) -> Any:
    counts = y.value_counts()
    labels = sorted(counts.index, key=str)
    return min(reversed(labels), key=lambda lab: counts[lab])


def load_problem(spec: str, *, target: str | None = None, pos_label: Any = None) -> Problem:
    """A problem by name, or from a CSV / Parquet file with ``target`` naming the label column.

    Examples
    --------
    >>> p = load_problem("sonar")
    >>> p.n, p.positive, round(p.pos_rate, 3)
    (208, 'Rock', 0.466)
    >>> load_problem("LETTER.p2").positive
    'A-M'
    """
    from measurelab.io import datasets

    if not isinstance(spec, str) or not spec.strip():
        raise MeasurelabError(f"a problem must be a name or a file path, got {spec!r:.60}")
    key = spec.strip()
    low = key.lower()
    if pos_label is not None and low in ("letter.p1", "letter.p2", "cover_type", "covtype",
                                         "covertype"):
        raise MeasurelabError(
            f"--pos-label {str(pos_label)!r:.60} does not apply to {key}: its positive class "
            "is fixed (the paper's); give it for shipped binary data sets and files only")
    if low in ("letter.p1", "letter.p2"):
        X, y = datasets.load("letter")
        if low == "letter.p1":
            return Problem("letter.p1", X, (y == "O").to_numpy(), "O",
                           "letter O vs the other 25 letters")
        pos = y.isin(list("ABCDEFGHIJKLM")).to_numpy()
        return Problem("letter.p2", X, pos, "A-M", "letters A-M vs N-Z")
    if low in ("cover_type", "covtype", "covertype"):
        X, y = datasets.load("covertype")
        largest = y.value_counts().idxmax()
        return Problem("cover_type", X, (y == largest).to_numpy(), str(largest),
                       f"largest class ({largest}) vs the rest; 92,962-row stratified sample")
    suffix = Path(key).suffix.lower()
    if suffix in (".csv", ".parquet", ".pq", ".gz") or Path(key).is_file():
        return _file_problem(Path(key), target=target, pos_label=pos_label)
    if low in binary_datasets():
        X, y = datasets.load(low)
        if pos_label is None:
            pos = _minority(y)
        else:
            match = [lab for lab in y.unique() if str(lab) == str(pos_label)]
            if not match:
                raise MeasurelabError(
                    f"--pos-label {str(pos_label)!r:.60} is not a class of {low}; its classes: "
                    f"{', '.join(sorted(map(str, y.unique())))}")
            pos = match[0]
        return Problem(low, X, (y == pos).to_numpy(), str(pos), "shipped data set")
    raise MeasurelabError(
        f"unknown problem {spec!r}; expected one of {', '.join(known_problems())} "
        "or a .csv/.parquet file with --target COLUMN"
    )


def is_file_spec(spec: str) -> bool:
    """Whether a problem is given as a file (by its suffix, or an existing file), as
    :func:`load_problem` decides.

    Examples
    --------
    >>> is_file_spec("data/x.csv"), is_file_spec("sonar")
    (True, False)
    """
    key = spec.strip()
    if key.lower() in ("letter.p1", "letter.p2", "cover_type", "covtype", "covertype"):
        return False
    return Path(key).suffix.lower() in (".csv", ".parquet", ".pq", ".gz") or \
        Path(key).is_file()


#: fewest cases of each class a study's training part needs (Platt scaling of the SVMs
#: fits on three folds of it); validation and test need one of each
MIN_TRAIN_PER_CLASS = 3


def check_split(problem: Problem, n_train: int, n_valid: int, n_test: int, seed: int) -> None:
    """Refuse a problem too small to split into training, validation and test parts
    holding both classes (every model of the zoo is then trained and evaluated), before
    anything is written.

    Examples
    --------
    >>> tiny = Problem("tiny", pd.DataFrame({"f": [1, 2, 3]}), np.array([1, 0, 1], bool), "a")
    >>> check_split(tiny, 4000, 1000, 20000, seed=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: problem 'tiny' is too small for a study: ...
    """
    split = make_split(problem.y, n_train=n_train, n_valid=n_valid, n_test=n_test, seed=seed)
    y = np.asarray(problem.y, dtype=bool)
    need = {"train": MIN_TRAIN_PER_CLASS, "valid": 1, "test": 1}
    for part, rows in split.items():
        pos = int(y[rows].sum())
        neg = int(rows.size - pos)
        if min(pos, neg) < need[part]:
            raise MeasurelabError(
                f"problem {problem.name!r} is too small for a study: its {part} part holds "
                f"{pos} positive and {neg} negative cases ({problem.n} rows, "
                f"{int(y.sum())} positive); every part needs both classes and training "
                f"at least {MIN_TRAIN_PER_CLASS} cases of each")


def _read_table(path: Path) -> pd.DataFrame:
    """A user's CSV or Parquet problem file, or one line saying why it cannot be read."""
    import warnings

    from measurelab.io import binary_content

    try:
        if path.suffix.lower() in (".parquet", ".pq"):
            return pd.read_parquet(path)
        if not path.name.lower().endswith(".gz"):
            with open(path, "rb") as fh:
                what = binary_content(fh.read(4096))
            if what is not None:
                raise MeasurelabError(f"problem file {path.name} {what}")
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            return pd.read_csv(path, low_memory=False, index_col=False)
    except MeasurelabError:
        raise
    except (pd.errors.ParserError, pd.errors.ParserWarning, pd.errors.EmptyDataError,
            UnicodeDecodeError, OSError, ValueError) as exc:  # ArrowInvalid is a ValueError
        text = " ".join(str(exc).split())[:100] or type(exc).__name__
        raise MeasurelabError(f"problem file {path.name} cannot be read ({text})") from None


def _file_problem(path: Path, *, target: str | None, pos_label: Any) -> Problem:
    if not path.is_file():
        raise MeasurelabError(f"problem file {str(path)!r} does not exist")
    if target is None:
        raise MeasurelabError(f"problem file {str(path)!r} needs --target COLUMN")
    df = _read_table(path)
    if target not in df.columns:
        raise MeasurelabError(
            f"--target {target!r} is not a column of {path.name}; columns: "
            f"{', '.join(map(str, df.columns[:20]))}"
        )
    if path.suffix.lower() not in (".parquet", ".pq") and not path.name.lower().endswith(
            ".gz"):
        from measurelab.io.frames import check_header, csv_header

        with open(path, "rb") as fh:  # the header as written: pandas renames repeats
            check_header(csv_header(fh.read(1 << 16)), [str(c) for c in df.columns],
                         [target], f"problem file {path.name}")
    y = df[target]
    if y.isna().any():
        df = df[y.notna()]
        y = df[target]
    labels = y.unique()
    if labels.size != 2:
        raise MeasurelabError(f"target {target!r} must have two classes, got {labels.size}")
    if pos_label is None:
        pos = _minority(y)
    else:
        match = [lab for lab in labels if str(lab) == str(pos_label)]
        if not match:
            raise MeasurelabError(
                f"pos_label={pos_label!r} is not a label of {target!r}; labels: "
                f"{sorted(map(str, labels))}"
            )
        pos = match[0]
    return Problem(path.stem.split(".")[0], df.drop(columns=target), (y == pos).to_numpy(),
                   str(pos), f"user file {path.name}, target {target}")


def seed_for(*parts: Any) -> int:
    """A stable 31-bit seed from any values (crc32 of their text; not Python's ``hash``).

    Examples
    --------
    >>> seed_for("adult", 0) == seed_for("adult", 0) != seed_for("adult", 1)
    True
    """
    return zlib.crc32("|".join(map(str, parts)).encode()) & 0x7FFFFFFF


def make_split(
    y: np.ndarray, *, n_train: int = 4000, n_valid: int = 1000, n_test: int = 20000,
    seed: int = 0,
) -> dict[str, np.ndarray]:
    """Stratified, seeded row indices ``{"train", "valid", "test"}`` (each sorted).

    When the data cannot hold ``n_train + n_valid`` and a test set of at least a quarter of
    the rows, the split is 50 % / 20 % / 30 % instead.

    Examples
    --------
    >>> y = np.array([0, 1] * 50)
    >>> s = make_split(y, n_train=20, n_valid=10, n_test=40, seed=1)
    >>> [len(s[k]) for k in ("train", "valid", "test")]
    [20, 10, 40]
    >>> [int(y[s[k]].sum()) for k in ("train", "valid", "test")]
    [10, 5, 20]
    """
    y = np.asarray(y).astype(bool)
    n = y.size
    if n_train + n_valid + max(n // 4, 1) > n:
        n_train, n_valid = n // 2, n // 5
        n_test = n - n_train - n_valid
    n_test = min(n_test, n - n_train - n_valid)
    rng = np.random.default_rng(seed)
    out: dict[str, list[np.ndarray]] = {"train": [], "valid": [], "test": []}
    sizes = {"train": n_train, "valid": n_valid, "test": n_test}
    # per class, allocate each part in proportion (largest remainder), then shuffle & cut
    classes = [np.flatnonzero(y), np.flatnonzero(~y)]
    alloc = {k: _proportional(v, [c.size for c in classes]) for k, v in sizes.items()}
    for ci, idx in enumerate(classes):
        perm = rng.permutation(idx)
        start = 0
        for part in ("train", "valid", "test"):
            m = alloc[part][ci]
            out[part].append(perm[start:start + m])
            start += m
    return {k: np.sort(np.concatenate(v)) for k, v in out.items()}


def _proportional(total: int, weights: list[int]) -> list[int]:
    w = np.asarray(weights, dtype=float)
    raw = total * w / w.sum()
    base = np.floor(raw).astype(int)
    for i in np.argsort(-(raw - base), kind="stable")[: total - base.sum()]:
        base[i] += 1
    return base.tolist()


def prepare(problem: Problem, split: dict[str, np.ndarray]) -> Prepared:
    """Fit the preprocessing on the training rows and transform all three parts.

    Numeric columns: median imputation and standard scaling; other columns: most-frequent
    imputation and one-hot coding (unknown categories ignored). Every model sees the same
    numeric matrix; trees are unaffected by the scaling.

    Examples
    --------
    >>> p = load_problem("sonar")
    >>> d = prepare(p, make_split(p.y, seed=0))
    >>> d.X_train.shape, d.X_test.shape
    ((104, 60), (63, 60))
    """
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    X = problem.X
    num = [c for c in X.columns if pd.api.types.is_numeric_dtype(X[c])]
    cat = [c for c in X.columns if c not in num]
    Xc = X.copy()
    for c in cat:  # one type per column so the encoder sorts categories
        Xc[c] = Xc[c].astype("string").astype(object).where(Xc[c].notna(), None)
    steps = []
    if num:
        steps.append(("num", make_pipeline(SimpleImputer(strategy="median"),
                                           StandardScaler()), num))
    if cat:
        steps.append(("cat", make_pipeline(
            SimpleImputer(strategy="most_frequent", missing_values=None),
            OneHotEncoder(handle_unknown="ignore", sparse_output=False)), cat))
    ct = ColumnTransformer(steps, sparse_threshold=0.0)
    tr, va, te = split["train"], split["valid"], split["test"]
    Xtr = np.asarray(ct.fit_transform(Xc.iloc[tr]), dtype=np.float64)
    return Prepared(
        name=problem.name,
        X_train=Xtr,
        y_train=problem.y[tr].astype(np.int8),
        X_valid=np.asarray(ct.transform(Xc.iloc[va]), dtype=np.float64),
        y_valid=problem.y[va].astype(np.int8),
        X_test=np.asarray(ct.transform(Xc.iloc[te]), dtype=np.float64),
        y_test=problem.y[te].astype(np.int8),
        info={"n_features_raw": X.shape[1], "n_features": Xtr.shape[1],
              "numeric": len(num), "categorical": len(cat)},
    )
