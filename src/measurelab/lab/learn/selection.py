"""Model selection by a measure: choose on validation data, report on test data.

Caruana & Niculescu-Mizil (2004, Section 5) ask which measure selects models that do well
on *every* measure when the right one is unknown; they found SAR best, tied with RMS.
:func:`selection_matrix` answers it for one problem: row *m* holds the test values, on every
measure, of the model that measure *m* ranked best on the validation set.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd

from measurelab.exceptions import MeasurelabError
from measurelab.validation import check_flag


def best_model(values: pd.Series, *, higher_is_better: bool = True) -> Hashable:
    """The index label of the best value; ties go to the first label in index order.

    NaN values never win.

    Examples
    --------
    >>> best_model(pd.Series([0.7, 0.9, 0.9], index=["a", "b", "c"]))
    'b'
    >>> best_model(pd.Series([0.3, 0.2], index=["a", "b"]), higher_is_better=False)
    'b'
    """
    higher_is_better = check_flag(higher_is_better, "higher_is_better")
    v = values.astype(float).to_numpy()
    ok = ~np.isnan(v)
    if not ok.any():
        raise MeasurelabError("best_model: every value is NaN")
    target = np.nanmax(v) if higher_is_better else np.nanmin(v)
    return values.index[int(np.flatnonzero(ok & (v == target))[0])]


def selection_matrix(
    valid: pd.DataFrame,
    test: pd.DataFrame,
    higher: Mapping[str, bool],
    *,
    selectors: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Test values of the model each measure selects on validation data.

    Parameters
    ----------
    valid : rows = models, columns = measures; raw validation values
    test : rows = the same models, columns = measures; test values (raw or normalized)
    higher : whether higher is better for each selecting measure
    selectors : measures to select by (default: the columns of ``valid``)

    Returns
    -------
    DataFrame with one row per selecting measure, one column per test measure, and a
    column ``model`` naming the chosen model.

    Examples
    --------
    >>> valid = pd.DataFrame({"acc": [0.8, 0.9], "rms": [0.2, 0.3]}, index=["m1", "m2"])
    >>> test = pd.DataFrame({"acc": [0.7, 0.95], "rms": [0.25, 0.35]}, index=["m1", "m2"])
    >>> t = selection_matrix(valid, test, {"acc": True, "rms": False})
    >>> t["model"].tolist(), t["acc"].tolist()
    (['m2', 'm1'], [0.95, 0.7])
    """
    missing = valid.index.difference(test.index)
    if len(missing):
        raise MeasurelabError(f"model {missing[0]!r} has validation but no test values")
    rows = {}
    for m in selectors or list(valid.columns):
        chosen = best_model(valid[m], higher_is_better=higher[m])
        rows[m] = {**test.loc[chosen].to_dict(), "model": chosen}
    return pd.DataFrame.from_dict(rows, orient="index")


def best_per_group(
    valid: pd.DataFrame,
    test: pd.DataFrame,
    groups: pd.Series,
    higher: Mapping[str, bool],
) -> pd.DataFrame:
    """For each group (learning algorithm) and measure: the test value, on that measure, of
    the group's model that is best on validation by that same measure.

    Examples
    --------
    >>> valid = pd.DataFrame({"acc": [0.8, 0.9, 0.6]}, index=["a1", "a2", "b1"])
    >>> test = pd.DataFrame({"acc": [0.85, 0.8, 0.7]}, index=["a1", "a2", "b1"])
    >>> g = pd.Series(["a", "a", "b"], index=["a1", "a2", "b1"])
    >>> best_per_group(valid, test, g, {"acc": True})["acc"].to_dict()
    {'a': 0.8, 'b': 0.7}
    """
    out: dict[Hashable, dict[str, float]] = {}
    for name, idx in groups.groupby(groups, sort=True).groups.items():
        v, t = valid.loc[idx], test.loc[idx]
        out[name] = {m: float(t.loc[best_model(v[m], higher_is_better=higher[m]), m])
                     for m in valid.columns}
    return pd.DataFrame.from_dict(out, orient="index")
