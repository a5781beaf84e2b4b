"""Correlation studies between measures over objects, repeated runs, paired t-tests.

The empirical side of comparing measures (Huang & Ling 2007 §4; Caruana &
Niculescu-Mizil 2004): evaluate several measures on the same objects, correlate each with
a reference measure (Pearson, Spearman or Kendall), repeat over independent runs, and test
whether two measures' correlations differ with a two-tailed paired t-test over the runs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from measurelab._util.validation import check_int, check_random_state, short_repr
from measurelab.exceptions import MeasurelabError
from measurelab.inference.intervals import check_level
from measurelab.inference.ranks.significance import paired_ttest

METHODS = ("pearson", "spearman", "kendall")


def _check_method(method: Any, name: str = "method") -> str:
    if not isinstance(method, str) or method not in METHODS:
        raise MeasurelabError(f"{name}={short_repr(method)} is not valid; expected one of "
                              f"{METHODS}")
    return method


def _numbers(v: Any, name: str) -> np.ndarray:
    try:
        return np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        raise MeasurelabError(f"{name} must hold numbers, got {short_repr(v)}") from None


def correlation(x: Any, y: Any, method: str = "pearson") -> float:
    """Correlation of two value vectors; NaN (no warning) when either is constant.

    Examples
    --------
    >>> round(correlation([1, 2, 3, 4], [1, 3, 2, 4], "spearman"), 12)
    0.8
    >>> correlation([1, 1, 1], [1, 2, 3])
    nan
    """
    from scipy import stats

    _check_method(method)
    a, b = _numbers(x, "x"), _numbers(y, "y")
    if a.shape != b.shape or a.ndim != 1:
        raise MeasurelabError(f"correlation needs two equal-length vectors, got {a.shape}, "
                              f"{b.shape}")
    if a.size < 2 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return math.nan
    if method == "pearson":
        return float(stats.pearsonr(a, b).statistic)
    if method == "spearman":
        return float(stats.spearmanr(a, b).statistic)
    if method == "kendall":
        return float(stats.kendalltau(a, b).statistic)
    raise MeasurelabError(f"method={method!r} is not valid; expected one of {METHODS}")


def correlations(
    values: Mapping[str, Any], reference: str, *, methods: Sequence[str] = METHODS
) -> pd.DataFrame:
    """Correlation of every measure's values with ``values[reference]``.

    Examples
    --------
    >>> v = {"rms": [0.9, 0.7, 0.8, 0.2], "auc": [1.0, 0.6, 0.8, 0.4]}
    >>> float(correlations(v, "rms").loc["auc", "spearman"])
    1.0
    """
    if not isinstance(values, Mapping):
        raise MeasurelabError("values must be a mapping {measure: values}, got "
                              f"{type(values).__name__}")
    if isinstance(methods, str):
        methods = [methods]
    for m in methods:
        _check_method(m, "methods")
    if reference not in values:
        raise MeasurelabError(f"reference {short_repr(reference)} is not among "
                              f"{sorted(map(str, values))}")
    rows = {}
    for name, v in values.items():
        if name == reference:
            continue
        rows[name] = {m: correlation(v, values[reference], m) for m in methods}
    return pd.DataFrame.from_dict(rows, orient="index")


def repeated_correlations(
    sample: Callable[[np.random.Generator], Mapping[str, Any]],
    reference: str,
    *,
    runs: int = 5,
    random_state: int = 0,
    method: str = "pearson",
) -> pd.DataFrame:
    """Run ``sample(rng)`` (which returns ``{measure: values over objects}``) ``runs``
    times with independent seeded generators; one row per run, one column per measure:
    the correlation of that measure with the reference.

    The generators are spawned from ``random_state`` (an int, default 0).

    Examples
    --------
    >>> def sample(rng):
    ...     x = rng.random(50)
    ...     return {"ref": x, "same": x, "noisy": x + rng.random(50)}
    >>> df = repeated_correlations(sample, "ref", runs=3)
    >>> df.shape, bool((df["same"] == 1).all())
    ((3, 2), True)
    """
    random_state = check_random_state(random_state)
    runs = check_int(runs, "runs", minimum=1, maximum=10**6)
    _check_method(method)
    if not callable(sample):
        raise MeasurelabError(f"sample must be a function rng -> {{measure: values}}, got "
                              f"{type(sample).__name__}")
    if random_state is None or isinstance(random_state, int | np.integer
                                          | np.random.SeedSequence):
        seq = (random_state if isinstance(random_state, np.random.SeedSequence)
               else np.random.SeedSequence(random_state))
        gens = [np.random.default_rng(s) for s in seq.spawn(runs)]
    else:  # a Generator (or a RandomState): seeds drawn from it
        rng = np.random.default_rng(random_state)
        gens = [np.random.default_rng(int(x)) for x in rng.integers(0, 2**63 - 1, runs)]
    out = []
    for g in gens:
        vals = sample(g)
        out.append({k: correlation(v, vals[reference], method)
                    for k, v in vals.items() if k != reference})
    df = pd.DataFrame(out)
    df.index.name = "run"
    return df


def paired_ttests(runs: pd.DataFrame, *, alpha: float = 0.05) -> pd.DataFrame:
    """Two-tailed paired t-tests between every two columns of ``runs`` (rows = runs), by
    :func:`measurelab.inference.paired_ttest`.

    Returns one row per pair (a, b): mean difference a − b, t, p-value and whether the
    difference is significant at ``alpha``. With the same difference in every run the
    t-test's rule for zero variance holds: identical columns give t = 0, p = 1; a constant
    non-zero difference gives t = ±inf, p = 0.

    Examples
    --------
    >>> df = pd.DataFrame({"a": [0.30, 0.32, 0.35, 0.31, 0.33],
    ...                    "b": [0.25, 0.26, 0.30, 0.24, 0.27]})
    >>> r = paired_ttests(df)
    >>> bool(r.loc[("a", "b"), "significant"]), round(float(r.loc[("a", "b"), "t"]), 2)
    (True, 15.5)
    """
    alpha = check_level(alpha, "alpha")
    if not isinstance(runs, pd.DataFrame):
        raise MeasurelabError("runs must be a DataFrame (rows = runs, columns = measures), "
                              f"got {type(runs).__name__}")
    rows = []
    for a, b in itertools.combinations(runs.columns, 2):
        r = paired_ttest(runs[a].to_numpy(float), runs[b].to_numpy(float), alpha=alpha)
        rows.append({"a": a, "b": b, "mean_diff": r.mean_diff, "t": r.statistic,
                     "p": r.pvalue, "significant": bool(r.pvalue < alpha)})
    return pd.DataFrame(rows).set_index(["a", "b"])


def best_group(runs: pd.DataFrame, *, alpha: float = 0.05) -> list[str]:
    """Columns not significantly different (paired t-test) from the column with the
    largest mean — the paper's bold entries.

    Examples
    --------
    >>> df = pd.DataFrame({"a": [0.30, 0.32, 0.35, 0.31, 0.33],
    ...                    "b": [0.25, 0.26, 0.30, 0.24, 0.27],
    ...                    "c": [0.31, 0.31, 0.36, 0.30, 0.33]})
    >>> best_group(df)
    ['a', 'c']
    """
    tests = paired_ttests(runs, alpha=alpha)
    means = runs.mean()
    top = str(means.idxmax())
    out = []
    for c in runs.columns:
        if c == top:
            out.append(c)
            continue
        key = (top, c) if (top, c) in tests.index else (c, top)
        if not tests.loc[key, "significant"]:
            out.append(c)
    return out
