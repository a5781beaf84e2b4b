"""Input validation shared by every entry point.

One internal place that turns user input into normalized arrays, or raises a
:class:`MeasurelabError` whose message is one line naming the bad value and what
was expected (the CLI prints that line and exits with status 2).
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from measurelab.exceptions import (
    MeasurelabError,
    MeasurelabTypeError,
    UndefinedMeasureWarning,
)


def show(value: Any) -> str:
    """``repr`` of a value as a user wrote it (numpy scalars shown as Python scalars)."""
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


#: longest piece of a bad token quoted in a message
QUOTE_LIMIT = 60


def quote(token: Any, limit: int = QUOTE_LIMIT) -> str:
    r"""A short, printable quotation of a bad token: ``repr`` of its text (bytes decoded with
    U+FFFD for undecodable bytes), cut to about ``limit`` characters with '…' and the full length.

    Examples
    --------
    >>> quote(b"1_0"), quote("x" * 100)
    ("'1_0'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (100 characters)")
    >>> print(quote(b"\x1f\x8b\x08"))
    '\x1f�\x08'
    """
    if isinstance(token, bytes | bytearray | memoryview):
        text = bytes(token).decode("utf-8", errors="replace")
    else:
        text = str(token)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text)} characters)"


def short_repr(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of a value (numpy scalars as Python ones), cut to ``limit`` characters.

    Examples
    --------
    >>> short_repr(2), short_repr("a" * 100, 10)
    ('2', "'aaaaaaaa…")
    """
    text = show(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_list(values: Sequence[Any], limit: int = QUOTE_LIMIT) -> str:
    """A list of labels for a message: ``[0, 1]``, each label cut to ``limit`` characters."""
    return "[" + ", ".join(short_repr(v, limit) for v in values) + "]"


_NUMBER_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_NONFINITE_TEXT = {"inf": math.inf, "+inf": math.inf, "-inf": -math.inf, "infinity": math.inf,
                   "+infinity": math.inf, "-infinity": -math.inf, "nan": math.nan,
                   "+nan": math.nan, "-nan": math.nan}


def parse_number(token: str | bytes) -> float | None:
    """The number a text field spells in plain decimal notation, else None.

    Stricter than ``float``: ASCII digits only (no full-width digits), no '_' separators,
    no surrounding spaces. ``inf`` and ``nan`` spellings give the non-finite float so the
    caller can say "must be finite".

    Examples
    --------
    >>> parse_number("1e-3"), parse_number(b"-.5"), parse_number("1_0"), parse_number("１")
    (0.001, -0.5, None, None)
    >>> parse_number("NaN")
    nan
    """
    text = token.decode("ascii", errors="replace") if isinstance(token, bytes) else token
    if _NUMBER_TEXT.fullmatch(text):
        return float(text)
    return _NONFINITE_TEXT.get(text.lower())


#: the first bytes of files that are not text, and what to say about them
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "looks gzip-compressed; name it .gz (or decompress it)"),
    (b"BZh", "looks bzip2-compressed; decompress it first (bunzip2)"),
    (b"\xfd7zXZ\x00", "looks xz-compressed; decompress it first (unxz)"),
    (b"\x28\xb5\x2f\xfd", "looks zstd-compressed; decompress it first (unzstd)"),
    (b"PK\x03\x04", "looks like a zip archive; extract the file first"),
    (b"PAR1", "looks like a Parquet file; name it .parquet or pass --format parquet"),
)


def binary_content(head: bytes) -> str | None:
    r"""What a file starting with ``head`` is, if it is a known non-text format, else None.

    Examples
    --------
    >>> binary_content(b"\x1f\x8b\x08\x00")
    'looks gzip-compressed; name it .gz (or decompress it)'
    >>> binary_content(b"1 0.5\n") is None
    True
    """
    for magic, what in _MAGIC:
        if head.startswith(magic):
            return what
    if b"\x00" in head[:4096]:
        return "holds NUL bytes; it is not a text file"
    return None


def big_int(value: int, digits: int = 15) -> str:
    """An integer for a table: with thousands separators when short, else as
    ``d.ddde+N (M digits)`` (any size: no conversion of the whole number to text).

    Examples
    --------
    >>> big_int(1234567), big_int(10**40 + 7)
    ('1,234,567', '1e+40 (41 digits)')
    """
    v = int(value)
    if v.bit_length() <= 4 * digits:  # short enough to turn into text cheaply
        s = str(abs(v))
        if len(s) <= digits:
            return f"{v:,}"
    sign = "-" if v < 0 else ""
    v = abs(v)
    e = int((v.bit_length() - 1) * 0.30102999566398)  # log10, possibly one too small
    while 10 ** (e + 1) <= v:
        e += 1
    lead = v // 10 ** (e - 3)  # four leading digits, truncated
    mant = f"{lead / 1000:.3f}".rstrip("0").rstrip(".")
    return f"{sign}{mant}e+{e} ({e + 1} digits)"


def check_flag(value: Any, name: str) -> bool:
    """``value`` as a bool when it is one (numpy's too), or a one-line error: a string such
    as 'no' is not read as True.

    Examples
    --------
    >>> check_flag(True, "stratify")
    True
    """
    if not isinstance(value, bool | np.bool_):
        raise MeasurelabTypeError(f"{name} must be True or False, got {show(value)[:60]}")
    return bool(value)


def check_int(value: Any, name: str, *, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """``value`` as an int when it is one (numpy's too; not a bool, not 2.0), within
    ``[minimum, maximum]``, or a one-line error naming ``name``.

    Examples
    --------
    >>> check_int(101, "grid", minimum=2)
    101
    >>> check_int(1.5, "grid")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabTypeError: grid must be an integer, got 1.5
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise MeasurelabTypeError(f"{name} must be an integer, got {show(value)[:60]}")
    v = int(value)
    if minimum is not None and v < minimum:
        what = {1: "a positive integer", 0: "a non-negative integer"}.get(
            minimum, f"at least {minimum}")
        raise MeasurelabError(f"{name} must be {what}, got {v}")
    if maximum is not None and v > maximum:
        raise MeasurelabError(f"{name} must be at most {maximum}, got {v}")
    return v


def check_real(value: Any, name: str, *, low: float | None = None,
               high: float | None = None, low_open: bool = False, high_open: bool = False,
               finite: bool = True) -> float:
    """``value`` as a float when it is a real number (not a bool, not a string), within
    the stated bounds, or a one-line error naming ``name``.

    Examples
    --------
    >>> check_real(0.05, "alpha", low=0, high=1, low_open=True, high_open=True)
    0.05
    >>> check_real("x", "alpha")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabTypeError: alpha must be a number, got 'x'
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer
                                                                | np.floating):
        raise MeasurelabTypeError(f"{name} must be a number, got {show(value)[:60]}")
    v = float(value)
    if math.isnan(v) or (finite and math.isinf(v)):
        raise MeasurelabError(f"{name} must be a finite number, got {v}")
    if (low is not None and (v < low or (low_open and v == low))) or \
            (high is not None and (v > high or (high_open and v == high))):
        lo_b = "(" if low_open or low is None else "["  # an infinite end is never in
        hi_b = ")" if high_open or high is None else "]"
        span = f"{lo_b}{'-inf' if low is None else f'{low:g}'}, " \
               f"{'inf' if high is None else f'{high:g}'}{hi_b}"
        raise MeasurelabError(f"{name} must be in {span}, got {v:g}")
    return v


def check_level(value: Any, name: str = "confidence_level") -> float:
    """A confidence level (or a probability threshold) as a float strictly between 0 and 1,
    or a one-line error naming ``name``: a
    :class:`~measurelab.exceptions.MeasurelabTypeError` when it is not a number (a string
    such as '0.9' or a bool is not read as one). The one level check of the library.

    Examples
    --------
    >>> check_level(0.95)
    0.95
    >>> check_level("0.9", "ci")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabTypeError: ci must be a number in (0, 1), got '0.9'
    >>> check_level(1.5, "band")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: band must be in (0, 1) (e.g. 0.95), got 1.5
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer
                                                             | np.floating):
        raise MeasurelabTypeError(f"{name} must be a number in (0, 1), got "
                                  f"{short_repr(value)}")
    level = float(value)
    if not 0.0 < level < 1.0:
        raise MeasurelabError(f"{name} must be in (0, 1) (e.g. 0.95), got {show(value)}")
    return level


#: seeds of the lab (integers written to files and passed on) are below 2**63
SEED_LIMIT = 2**63


def check_seed(value: Any, name: str = "seed") -> int:
    """A seed written down as an integer: in [0, 2**63), or a one-line error naming ``name``.

    Examples
    --------
    >>> check_seed(7)
    7
    """
    return check_int(value, name, minimum=0, maximum=SEED_LIMIT - 1)


def check_text(value: Any, name: str, *, optional: bool = False) -> str | None:
    """Non-empty text (``optional``: None too), or a one-line error naming ``name``.

    Examples
    --------
    >>> check_text("iris", "data"), check_text(None, "data", optional=True)
    ('iris', None)
    """
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise MeasurelabTypeError(f"{name} must be text (str), got {type(value).__name__} "
                                  f"{short_repr(value)}")
    if not value.strip():
        raise MeasurelabError(f"{name} is empty")
    return value


def model_names(keys: Any, what: str = "models") -> list[str]:
    """The models' names as text (as every table and figure shows them), refusing two keys
    that are the same text — a key ``1`` and a key ``'1'`` would otherwise be one model —
    naming both.

    Examples
    --------
    >>> model_names(["a", 2])
    ['a', '2']
    >>> model_names([1, "1"])
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: models: the names 1 and '1' are the same text '1'; give every model a distinct name
    """  # noqa: E501
    keys = list(keys)
    names = [str(k) for k in keys]
    seen: dict[str, int] = {}
    for j, n in enumerate(names):
        i = seen.setdefault(n, j)
        if i == j:
            continue
        a, b = keys[i], keys[j]
        if type(a) is type(b) and a == b:
            raise MeasurelabError(f"{what}: the model name {short_repr(a)} is given twice; "
                                  "names must be unique")
        raise MeasurelabError(f"{what}: the names {short_repr(a)} and {short_repr(b)} are the "
                              f"same text {short_repr(n)}; give every model a distinct name")
    return names


def check_choice(value: Any, name: str, choices: Sequence[Any]) -> Any:
    """``value`` when it is one of ``choices`` (compared as given; strings exactly), or a
    one-line error listing them.

    Examples
    --------
    >>> check_choice("macro", "average", ["macro", "micro"])
    'macro'
    """
    ok = any(value is c or (type(value) is type(c) and value == c) for c in choices)
    if not ok:
        shown = ", ".join(repr(c) for c in choices)
        raise MeasurelabError(f"{name} must be one of {shown}; got {show(value)[:60]}")
    return value


def check_random_state(value: Any, name: str = "random_state") -> Any:
    """A seed: a non-negative integer (of any size), a numpy Generator or SeedSequence, or
    None (fresh entropy, not reproducible); anything else is a one-line error naming
    ``name`` (so a seed of -1, 'x' or 1.5 never reaches numpy).

    Examples
    --------
    >>> check_random_state(7), check_random_state(None)
    (7, None)
    >>> check_random_state(-1)
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: random_state must be a non-negative integer, a numpy Generator or None, got -1
    """  # noqa: E501
    if value is None or isinstance(value, np.random.Generator | np.random.SeedSequence
                                   | np.random.RandomState):
        return value
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise MeasurelabTypeError(f"{name} must be a non-negative integer, a numpy Generator "
                                  f"or None, got {short_repr(value)}")
    if int(value) < 0:  # numpy takes any non-negative integer (a SeedSequence entropy)
        raise MeasurelabError(f"{name} must be a non-negative integer, a numpy Generator or "
                              f"None, got {int(value)}")
    return value


def make_rng(random_state: Any = 0, name: str = "random_state") -> np.random.Generator:
    """The numpy Generator a function draws from: ``random_state`` checked by
    :func:`check_random_state` (a non-negative integer, a Generator — used as it is, so
    draws continue its stream —, a SeedSequence, a legacy RandomState — its bit generator —
    or None for fresh entropy). The one random-generator builder of the library.

    Examples
    --------
    >>> make_rng(7).integers(100) == np.random.default_rng(7).integers(100)
    np.True_
    >>> g = np.random.default_rng(1); make_rng(g) is g
    True
    """
    value = check_random_state(random_state, name)
    if isinstance(value, np.random.RandomState):
        return np.random.Generator(value._bit_generator)
    return np.random.default_rng(int(value) if isinstance(value, int | np.integer)
                                 else value)


def check_threshold(threshold: Any, name: str = "threshold") -> float:
    """``threshold`` as a float, or an error if it is not a number or is NaN.

    Examples
    --------
    >>> check_threshold(0.5), check_threshold(1)
    (0.5, 1.0)
    """
    try:
        t = float(threshold)
    except (TypeError, ValueError):
        raise MeasurelabError(f"{name} must be a number, got {quote(threshold)}") from None
    if math.isnan(t):
        raise MeasurelabError(
            f"{name} must be a number, got NaN (no score is above or below NaN)"
        )
    return t


def check_count(value: Any, name: str) -> int | float:
    """A confusion-matrix count: a finite, non-negative number. Integers are kept exact at
    any size; a float that is a whole number becomes an int when it is exact (below 2**53),
    and a non-integer count (real-valued weights) stays a float.

    Examples
    --------
    >>> check_count(12, "tp"), check_count(3.0, "fp"), check_count(0.5, "fn")
    (12, 3, 0.5)
    """
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise MeasurelabError(f"{name} must be a non-negative count, got {quote(value)}")
    if isinstance(value, int | np.integer):
        if value < 0:
            raise MeasurelabError(f"{name} must be a non-negative count, got {int(value)}")
        return int(value)
    v = float(value)
    if not math.isfinite(v):
        raise MeasurelabError(f"{name} must be a finite count, got {v!r}")
    if v < 0:
        raise MeasurelabError(f"{name} must be a non-negative count, got {v:g}")
    if v.is_integer():
        if v >= 2.0**53:
            raise MeasurelabError(
                f"{name}={v:g} is a float too large to be an exact count (above 2**53); "
                "give it as an integer"
            )
        return int(v)
    return v


def warn_undefined(message: str, stacklevel: int = 3) -> None:
    """Warn that a measure is undefined for its input."""
    warnings.warn(message, UndefinedMeasureWarning, stacklevel=stacklevel)


def as_1d(x: Any, name: str) -> np.ndarray:
    if type(x).__module__.startswith("pandas") and hasattr(x, "to_numpy"):
        x = x.to_numpy()  # a Series or Index (pandas is not imported for other input)
    arr = np.asarray(x)
    if arr.ndim == 0:
        value = arr.item()
        got = "None" if value is None else f"the scalar {short_repr(value)}"
        raise MeasurelabTypeError(f"{name} must be a 1-d array-like, got {got}")
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise MeasurelabError(f"{name} must be 1-d, got an array of shape {arr.shape}")
    return arr


def parse_number_array(values: Any) -> tuple[np.ndarray, int | None]:
    """Text or objects as float64 under the one rule for numbers: an int, float or
    decimal object, a bool, or text in plain ASCII decimal notation (as
    :func:`parse_number`, surrounding spaces allowed:
    ``1``, ``-0.25``, ``1e-3``, ``nan``, ``inf``); a missing value (None, NaN) is NaN.

    Returns the floats and the index of the first value that is not a number (``1_0``,
    full-width digits, ``0x1p-1``, a list, a date), or None.

    Examples
    --------
    >>> parse_number_array(np.array(["1", " 0.5", None, "1e-3"], dtype=object))[0].tolist()
    [1.0, 0.5, nan, 0.001]
    >>> parse_number_array(np.array(["0.5", "1_0", "\\uff11"]))[1]
    1
    """
    import numbers

    arr = np.asarray(values)
    out = np.empty(arr.shape[0], dtype=np.float64)
    for i, v in enumerate(arr.tolist()):
        if v is None or type(v).__name__ in ("NAType", "NaTType"):  # pandas' missing
            out[i] = np.nan
        elif isinstance(v, str | bytes):
            x = parse_number(v.strip())
            if x is None:
                return out, i
            out[i] = x
        elif isinstance(v, numbers.Number) and not isinstance(v, complex):
            try:
                # bool, int, float, Decimal, Fraction (typeshed's Number has no __float__)
                out[i] = float(v)  # type: ignore[arg-type]
            except (TypeError, ValueError, OverflowError):
                return out, i
        else:
            return out, i
    return out, None


def number_matrix(values: Any, name: str) -> np.ndarray:
    """A 2-d array as float64 under the one rule for numbers (text ``'0_1'`` is not 0.1,
    ``'zz'`` is not a number, a complex value has no real part to keep), naming the first
    bad cell by row and column (from 1) and ``name`` (what the matrix is).

    Examples
    --------
    >>> number_matrix(np.array([["0.25", "0.75"]]), "y_score").tolist()
    [[0.25, 0.75]]
    >>> number_matrix(np.array([["0.9", "0_1"]]), "y_score")
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: y_score must be numbers, got '0_1' at row 1, column 2
    """
    arr = np.asarray(values)
    if arr.dtype.kind == "c":
        raise MeasurelabError(f"{name} must be real numbers, got complex values")
    if arr.dtype.kind in "biuf":
        return np.asarray(arr, dtype=np.float64)
    if arr.ndim != 2:
        raise MeasurelabError(f"{name} must be 2-d, got an array of shape {arr.shape}")
    flat, bad = parse_number_array(arr.reshape(-1))
    if bad is not None:
        i, j = divmod(bad, arr.shape[1])
        raise MeasurelabError(
            f"{name} must be numbers, got {show(arr[i, j])} at row {i + 1}, column {j + 1}")
    return flat.reshape(arr.shape)


def check_scores(y_score: Any, name: str = "y_score") -> np.ndarray:
    """Return ``y_score`` as a finite float64 vector or raise naming the first bad value."""
    arr = as_1d(y_score, name)
    if arr.dtype.kind == "c":
        raise MeasurelabError(f"{name} must be real numbers, got complex values")
    if arr.dtype.kind in "mM":  # dates and durations are not scores (nor weights)
        raise MeasurelabError(f"{name} must be numeric, got {arr.dtype.name} values "
                              f"({show(arr[0]) if arr.size else 'empty'})")
    if arr.dtype.kind not in "biuf":  # text and objects: the one rule for numbers
        parsed, bad = parse_number_array(arr)
        if bad is not None:
            raise MeasurelabError(
                f"{name} must be numeric, got the non-numeric value {show(arr[bad])} at "
                f"position {bad}")
        arr = parsed
    arr = np.asarray(arr, dtype=np.float64)
    finite = np.isfinite(arr)
    if not finite.all():
        i = int(np.flatnonzero(~finite)[0])
        raise MeasurelabError(
            f"{name} must be finite, got {show(arr[i])} at position {i}"
        )
    return arr


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
    if u.dtype == object and len({str(v) for v in u.tolist()}) < u.size:
        seen: dict[str, Any] = {}
        for v in u.tolist():
            if str(v) in seen:
                raise MeasurelabError(
                    f"the class labels {seen[str(v)]!r} and {v!r} are the same text "
                    f"{str(v)!r}; give every class a distinct label")
            seen[str(v)] = v
    try:
        return np.sort(u)
    except TypeError:
        return np.array(sorted(u, key=str), dtype=object)


def binarize(y_true: Any, pos_label: Any = 1) -> np.ndarray:
    """Return a boolean vector ``y_true == pos_label`` after checking the labels.

    ``y_true`` may hold at most two distinct labels; ``pos_label`` must be one of them
    unless only one label is present (then the data are all positive or all negative).
    """
    y = as_1d(y_true, "y_true")
    if y.size == 0:
        raise MeasurelabError("y_true is empty: at least one example is needed")
    if y.dtype == bool:
        if pos_label in (1, True):
            return y
        if pos_label in (0, False):
            return ~y
    if y.dtype.kind in "fc" and np.isnan(y).any():
        i = int(np.flatnonzero(np.isnan(y))[0])
        raise MeasurelabError(
            f"y_true contains NaN (first at position {i}); labels must be present for "
            "every example"
        )
    labels = unique_labels(y)
    if labels.size > 2:
        shown = (", ".join(short_repr(v, 30) for v in labels[:6].tolist())
                 + (", ..." if labels.size > 6 else ""))
        raise MeasurelabError(
            f"y_true has {labels.size} classes ({shown}); binary measures need exactly two "
            "(give a 2-d y_score of class probabilities for multi-class evaluation)"
        )
    if labels.size == 2 and pos_label not in labels.tolist():
        raise MeasurelabError(
            f"pos_label={short_repr(pos_label)} is not a valid label. "
            f"It should be one of {short_list(labels.tolist())}"
        )
    return np.asarray(y == pos_label)


def check_same_length(*arrays: tuple[str, Sequence[Any] | np.ndarray]) -> None:
    """Raise if the named arrays differ in length."""
    lens = {name: len(a) for name, a in arrays}
    if len(set(lens.values())) > 1:
        desc = ", ".join(f"{k} has {v}" for k, v in lens.items())
        raise MeasurelabError(f"inconsistent numbers of examples: {desc}")


# ------------------------------------------------------------------------- not given
class _Unset:
    """The default of a keyword whose absence means something (``demsar``'s
    ``higher_is_better``: given together with ``measure=`` it is an error)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unset>"

    def __reduce__(self) -> str:
        return "UNSET"


#: a keyword's default when the caller did not give it (told apart from any value)
UNSET: Any = _Unset()


# ------------------------------------------------------- scikit-learn's binary outputs
#: how far a row of an (n, 2) probability matrix may sum from 1: the library's one
#: tolerance, ``stats.probrows.SUM_TOLERANCE`` (k·ε of float32 is below it for k = 2)
_ROW_SUM_TOLERANCE = 1e-6


def positive_column_index(y_raw: np.ndarray, pos_label: Any) -> int:
    """The column of ``pos_label`` in an (n, 2) ``predict_proba`` matrix: scikit-learn orders
    the columns by the sorted class labels, so the positive class is column 1 when it is the
    larger label (``1`` of 0/1, ``True``), column 0 when it is the smaller one.

    Examples
    --------
    >>> positive_column_index(np.array(["no", "yes", "no"]), "yes")
    1
    >>> positive_column_index(np.array([0, 1]), 0)
    0
    """
    if y_raw.dtype == bool:
        return 1 if pos_label in (1, True) else 0
    labels = unique_labels(y_raw).tolist()
    if len(labels) == 2 and pos_label in labels:
        return labels.index(pos_label)
    if len(labels) == 1 and pos_label not in labels:  # the one label present is negative
        try:
            return 1 if labels[0] < pos_label else 0
        except TypeError:
            return 1
    if len(labels) == 1:  # the one label present is the positive one
        return 1 if pos_label in (1, True) or not isinstance(pos_label, int | float) else 0
    return 1


def binary_score_vector(scores: Any, y_raw: np.ndarray, pos_label: Any,
                        name: str = "y_score") -> tuple[Any, str | None]:
    """The score vector of a binary task from what scikit-learn gives, and a note saying
    what was done (None when the scores were a vector already).

    - an (n, 2) ``predict_proba`` matrix: the column of ``pos_label`` (columns in sorted
      label order, as scikit-learn's ``classes_``); rows that are not probabilities (outside
      [0, 1], or not summing to 1) are a one-line error;
    - predicted labels that are text (``'yes'``/``'no'``) and are labels of ``y_true``:
      1.0 where the prediction is ``pos_label``, else 0.0.

    Anything else is returned unchanged for the usual checks.

    Examples
    --------
    >>> y = np.array([0, 1, 1])
    >>> s, note = binary_score_vector(np.array([[.8, .2], [.3, .7], [.4, .6]]), y, 1, "lr")
    >>> s.tolist()
    [0.2, 0.7, 0.6]
    >>> print(note)
    lr: an (n, 2) probability matrix; its column 1 (the probability of pos_label=1) is the score
    >>> binary_score_vector(np.array(["b", "a"]), np.array(["a", "b"]), "b")[0].tolist()
    [1.0, 0.0]
    """
    if type(scores).__module__.startswith("pandas") and hasattr(scores, "to_numpy"):
        scores = scores.to_numpy()
    arr = np.asarray(scores)
    if arr.ndim == 2 and arr.shape[1] == 2:
        if arr.dtype.kind not in "biuf":
            raise MeasurelabError(f"{name} is an (n, 2) array of {arr.dtype.name} values; "
                                  "expected class probabilities (predict_proba's output)")
        P = arr.astype(np.float64)
        bad = ~np.isfinite(P).all(axis=1) | (P < 0).any(axis=1) | (P > 1).any(axis=1)
        dev = np.abs(P.sum(axis=1) - 1.0)
        bad |= ~(dev <= _ROW_SUM_TOLERANCE)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            p0, p1, total = float(P[i, 0]), float(P[i, 1]), float(P[i].sum())
            raise MeasurelabError(  # every digit: 0.5 + 0.5000011 is not shown as (0.5, 0.5)
                f"{name} is an (n, 2) array whose row {i} ({p0!r}, {p1!r}; sum {total!r}) is "
                "not a pair of class probabilities (each in [0, 1], summing to 1); give one "
                "score per case (1-d), or predict_proba's output")
        col = positive_column_index(y_raw, pos_label)
        return P[:, col], (f"{name}: an (n, 2) probability matrix; its column {col} (the "
                           f"probability of pos_label={short_repr(pos_label)}) is the score")
    if arr.ndim == 1 and arr.dtype.kind in "UOS" and arr.size:
        if parse_number_array(arr)[1] is None:
            return scores, None  # numbers written as text: the usual rule
        try:
            known = set(unique_labels(y_raw).tolist())
            seen = set(unique_labels(arr).tolist())
        except TypeError:
            return scores, None
        if seen <= known | {pos_label}:
            return (arr == pos_label).astype(np.float64), (
                f"{name}: predicted labels; 1 where the prediction is "
                f"pos_label={short_repr(pos_label)}, else 0")
    return scores, None
