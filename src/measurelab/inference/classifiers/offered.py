"""Which measures offer an interval, and by which method: asked of the library itself.

:func:`offered_intervals` runs the comparisons a user would run (one model's intervals, the
paired and the unpaired difference of two models) on a fixed plain test set and reads, for
every measure that applies, the method each interval used and whether it gave an interval
at all (a withheld interval has NaN ends). The coverage study reads it to know what to
simulate, and a test reads it to check that every interval measurelab offers has an entry
in the study's evidence (:mod:`measurelab.inference.evidence`), so that a new measure cannot
ship an interval without one.

Examples
--------
>>> t = offered_intervals(measures=["acc", "f1"])
>>> t[["measure", "kind", "method"]].values.tolist()
[['acc', 'single', 'wilson'], ['f1', 'single', 'dirichlet-posterior'], ['acc', 'paired', 'tango-score'], ['f1', 'paired', 'dirichlet-posterior'], ['acc', 'unpaired', 'dirichlet-posterior'], ['f1', 'unpaired', 'dirichlet-posterior']]
"""  # noqa: E501

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from measurelab._util.validation import check_choice, check_flag
from measurelab.inference.classifiers.compare import compare_classifiers
from measurelab.inference.classifiers.unpaired import compare_unpaired
from measurelab.inference.evidence import procedure
from measurelab.inference.withholding import withholding
from measurelab.measures.base import AVERAGES

__all__ = ["offered_intervals", "probe_data"]

#: cases of the probe test sets (binary; k classes)
PROBE_N = (400, 300)
#: the probe's bootstrap replicates (the minimum: only the methods are read)
PROBE_BOOT = 100


def probe_data(multiclass: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fixed plain test set of the probe: labels and two models' scores (binary: 400
    cases, 120 positives, probabilities that rank the cases differently; k classes: 300
    cases of 3 classes, 150/90/60, probability rows).

    Examples
    --------
    >>> y, a, b = probe_data()
    >>> y.size, int(y.sum()), bool(0 < a.min() and a.max() < 1)
    (400, 120, True)
    """
    rng = np.random.default_rng(20250128)
    if not check_flag(multiclass, "multiclass"):
        n = PROBE_N[0]
        y = rng.permutation(np.repeat([0, 1], [n - 120, 120]))
        za, zb = rng.standard_normal((2, n))
        a = 1 / (1 + np.exp(-(1.6 * y - 1.2 + za)))
        b = 1 / (1 + np.exp(-(2.2 * y - 1.0 + 0.6 * za + 0.8 * zb)))
        return y, a, b
    n = PROBE_N[1]
    y = rng.permutation(np.repeat([0, 1, 2], [150, 90, 60]))
    out = []
    for mu in (1.2, 1.8):
        x = rng.standard_normal((n, 3))
        x[np.arange(n), y] += mu
        e = np.exp(x - x.max(axis=1, keepdims=True))
        out.append(e / e.sum(axis=1, keepdims=True))
    return y, out[0], out[1]


def offered_intervals(*, multiclass: bool = False, design: str = "random",
                      measures: Sequence[str] | str = "all") -> Any:
    """Every interval measurelab offers on a plain test set (:func:`probe_data`), and its
    method, as a DataFrame.

    Parameters
    ----------
    multiclass : bool, default False
        Three classes (probability rows) rather than two.
    design : {'random', 'fixed', 'weighted'}, default 'random'
        ``stratify=False``, ``stratify=True``, or random case weights.
    measures : names or 'all', default 'all'
        Every measure that applies to probabilities.

    Returns
    -------
    pandas.DataFrame
        One row per (measure, kind, method): ``kind`` 'single' (both models' intervals),
        'paired' (the difference a − b on the same cases) or 'unpaired' (two test sets;
        binary only), ``method`` the interval's procedure
        (:func:`~measurelab.inference.evidence.procedure` of the method column, or of the
        ``interval`` column for differences), ``offered`` whether the interval has a
        finite or infinite end (False: withheld, NaN at both ends) and, for k classes,
        ``averages``: the averages that give the measure the same value as 'macro' (a
        measure of the whole problem: all three).
    """
    import pandas as pd

    multiclass = check_flag(multiclass, "multiclass")
    design = check_choice(design, "design", ("random", "fixed", "weighted"))
    y, a, b = probe_data(multiclass)
    w = (np.random.default_rng(7).uniform(0.5, 2.0, y.size) if design == "weighted"
         else None)
    common: dict[str, Any] = dict(measures=measures, n_boot=PROBE_BOOT, random_state=0,
                                  progress=False, stratify=design == "fixed")
    rows: list[dict[str, Any]] = []
    # what the methods offer, not what the policy withholds where a study found them
    # short (the studies' plans read this table: a withheld interval would leave its study)
    with warnings.catch_warnings(), withholding(False):
        warnings.simplefilter("ignore")
        cmp = compare_classifiers(y, {"a": a, "b": b}, sample_weight=w, **common)
        for r in cmp.intervals().itertuples(index=False):
            rows.append(_row(r.measure, "single", r.method, r.lo, r.hi))
        for r in cmp.tests().itertuples(index=False):
            rows.append(_row(r.measure, "paired", r.interval, r.lo, r.hi))
        if not multiclass:
            un = compare_unpaired(y, a, y[::-1].copy(), b[::-1].copy(),
                                  sample_weight_a=w,
                                  sample_weight_b=None if w is None else w[::-1].copy(),
                                  **common)
            for r in un.tests().itertuples(index=False):
                rows.append(_row(r.measure, "unpaired", r.interval, r.lo, r.hi))
    table = pd.DataFrame(rows).groupby(["measure", "kind", "method"], sort=False,
                                       as_index=False).agg(offered=("offered", "any"))
    if multiclass:
        free = _averages(y, a, list(dict.fromkeys(table.measure)))
        table["averages"] = [free[m] for m in table.measure]
    return table


def _row(measure: str, kind: str, method: str, lo: float, hi: float) -> dict[str, Any]:
    return {"measure": str(measure), "kind": kind, "method": procedure(str(method)),
            "offered": not (math.isnan(float(lo)) and math.isnan(float(hi)))}


def _averages(y: np.ndarray, P: np.ndarray, names: list[str]) -> dict[str, tuple[str, ...]]:
    """Per measure, the averages whose value equals the macro one on the probe (the same
    formula ignoring ``average`` gives the same bits; an averaged measure differs)."""
    vals = {av: compare_classifiers(y, {"m": P}, measures=names, ci=None, average=av)
            .values()["m"] for av in AVERAGES}
    out = {}
    for m in names:
        macro = float(vals["macro"][m])
        out[m] = tuple(av for av in AVERAGES if float(vals[av][m]) == macro
                       or (math.isnan(macro) and math.isnan(float(vals[av][m]))))
    return out
