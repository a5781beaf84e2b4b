"""The CORP reliability diagram with its consistency band (Dimitriadis, Gneiting & Jordan
2021), as data (:func:`reliability_diagram`) and as a picture (:func:`plot_reliability`).

**The curve.** The conditional event probability (CEP) at each distinct predicted
probability x is the PAV (isotonic) recalibration of the outcomes on the predictions
(:func:`measurelab.measures.calibration.corp.recalibrate`): no bins to choose, consistent,
and the same values the CORP score decomposition uses. A calibrated model's curve follows
the diagonal.

**The consistency band** (the "resampling" method of R's ``reliabilitydiag``, position
"diagonal"): where the CEP curve of a *calibrated* model with the same predictions would
fall. Each of ``n_boot`` replicates draws the cases' predictions with replacement (n
draws, by weight), an outcome y ~ Bernoulli(x) for each draw, and recalibrates by PAV; a
prediction of the data that no draw hit takes the value of the nearest smaller one drawn
(the nearest larger one below the smallest draw). The band at x runs between the
``(1 − band)/2`` and ``(1 + band)/2`` quantiles of the replicates' values there (numpy's
default, R's type 7). Pointwise: a calibrated model's curve leaves a 90 % band at about
a tenth of the points. With more than :data:`MAX_BAND_POINTS` distinct predictions the
band is computed at that many of them (evenly spaced in case rank) and interpolated
linearly in x between them.

Examples
--------
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> p = rng.random(300)
>>> y = rng.random(300) < p
>>> rd = reliability_diagram(y, p, n_boot=200)
>>> list(rd.columns), len(rd) == np.unique(p).size
(['x', 'cep', 'lo', 'hi'], True)
>>> bool(((rd.lo <= rd.x) & (rd.x <= rd.hi)).mean() > 0.8)  # the diagonal is in its band
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from measurelab._util.validation import check_flag, check_int, check_level, make_rng, short_repr
from measurelab.curves._names import literal, model_names
from measurelab.curves.points import _table
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.measures.calibration.corp import recalibrate
from measurelab.stats.scoretable import ScoreTable

__all__ = ["plot_reliability", "reliability_diagram"]

#: the band is computed at no more distinct predictions than this (memory: n_boot × points)
MAX_BAND_POINTS = 2000


#: the most band values one diagram may hold (replicates × points: 400 MB of float64)
MAX_BAND_CELLS = 50_000_000


def _check_band(band: Any, n_boot: Any) -> tuple[float, int]:
    top = MAX_BAND_CELLS // MAX_BAND_POINTS
    return (check_level(band, "confidence_level"),
            check_int(n_boot, "n_boot", minimum=1, maximum=top))


#: the most draws one band may make (replicates × cases), checked before drawing
MAX_BAND_DRAWS = 500_000_000


def _check_draws(cases: float, n_boot: int, what: str) -> None:
    if cases * n_boot > MAX_BAND_DRAWS:
        raise MeasurelabError(
            f"the consistency band would draw n_boot × {what} = {n_boot:,} × {cases:,.0f} "
            f"cases, more than {MAX_BAND_DRAWS:,}; give n_boot at most "
            f"{max(1, int(MAX_BAND_DRAWS // max(cases, 1))):,} (or confidence_level=None "
            "in plot_reliability)")


def consistency_band(x: np.ndarray, weight: np.ndarray, band: float, n_boot: int,
                     rng: np.random.Generator,
                     cases: tuple[np.ndarray, np.ndarray] | None = None,
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The consistency band (lo, hi) at the distinct predictions ``x`` (increasing) of
    weights ``weight`` (the module docstring gives the method).

    Examples
    --------
    >>> x = np.array([0.1, 0.5, 0.9])
    >>> lo, hi = consistency_band(x, np.array([50.0, 50, 50]), 0.9, 200,
    ...                           np.random.default_rng(0))
    >>> bool(np.all((lo <= x) & (x <= hi)))
    True
    """
    from scipy.optimize import isotonic_regression

    total = float(weight.sum())
    n = max(1, round(total))
    whole = bool(np.array_equal(weight, np.round(weight)))
    if cases is not None:  # weighted cases: resample the cases, multiply by their weights
        case_row, case_w = cases
        n = case_row.size
        _check_draws(n, n_boot, "cases")
    else:
        _check_draws(n, n_boot, "total count")
    if cases is not None:
        pass
    elif whole:  # a case drawn uniformly: the row of each case, looked up by its number
        row_of_case = np.repeat(np.arange(x.size), weight.astype(np.int64))
    else:  # a row drawn with probability weight / total
        cum = np.cumsum(weight)
    if x.size > MAX_BAND_POINTS:  # evaluate at points evenly spaced in case rank
        at = np.unique(np.searchsorted(np.cumsum(weight) / total,
                                       np.linspace(0, 1, MAX_BAND_POINTS),
                                       side="left").clip(0, x.size - 1))
    else:
        at = np.arange(x.size)
    values = np.empty((n_boot, at.size))
    for b in range(n_boot):
        mult = None
        if cases is not None:
            pick = rng.integers(0, n, n)
            rows, mult = case_row[pick], case_w[pick]
        elif whole:
            rows = row_of_case[rng.integers(0, row_of_case.size, n)]
        else:  # n sorted uniform draws (normalised exponential spacings) located in one
            # pass through the cumulative weights
            spacing = rng.standard_exponential(n + 1)
            u = np.cumsum(spacing[:-1]) * (total / spacing.sum())
            rows = np.minimum(np.searchsorted(cum, u, side="right"), x.size - 1)
        outcome = rng.random(n) < x[rows]  # y ~ Bernoulli(x) for each drawn case
        drawn = np.bincount(rows, weights=mult, minlength=x.size).astype(np.float64)
        pos = np.bincount(rows, weights=outcome if mult is None else outcome * mult,
                          minlength=x.size)
        hit = np.flatnonzero(drawn > 0)
        fit = isotonic_regression(pos[hit] / drawn[hit], weights=drawn[hit]).x
        # a prediction not drawn: the value of the nearest smaller one drawn (else larger)
        j = np.searchsorted(hit, at, side="right") - 1
        values[b] = fit[np.maximum(j, 0)]
    q = np.quantile(values, [(1 - band) / 2, (1 + band) / 2], axis=0)
    if at.size == x.size:
        return q[0], q[1]
    return np.interp(x, x[at], q[0]), np.interp(x, x[at], q[1])


def _cases(y_score: Any, sample_weight: Any, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The row of ``x`` of each case of positive weight, and its weight (the data are
    validated: the table was built from them)."""
    from measurelab._util.validation import check_scores, check_weights

    s = check_scores(y_score)
    w = check_weights(sample_weight, s.size)
    assert w is not None  # called with weights only
    keep = w > 0
    return np.searchsorted(x, s[keep]).astype(np.intp), w[keep]


def _diagram(t: ScoreTable, band: float, n_boot: int, rng: np.random.Generator,
             y_score: Any = None, sample_weight: Any = None) -> Any:
    import pandas as pd

    if not t.total > 0:
        raise MeasurelabError("sample_weight is 0 for every example, so the total weight is "
                              "0; expected at least one example with a positive weight")
    lo_s, hi_s = float(t.scores[0]), float(t.scores[-1])
    if lo_s < 0 or hi_s > 1:
        raise MeasurelabError(
            f"a reliability diagram needs probabilities in [0, 1], got "
            f"{lo_s if lo_s < 0 else hi_s!r}")
    r = recalibrate(t)
    cases = None if sample_weight is None else _cases(y_score, sample_weight, r.scores)
    if cases is None and not np.array_equal(r.weight, np.round(r.weight)):
        import warnings

        total = float(r.weight.sum())
        warnings.warn(
            f"the table's weights are not whole counts, so the consistency band takes their "
            f"total, {total:.4g}, as the number of cases ({max(1, round(total))} drawn a "
            "replicate); give y_score and sample_weight to resample the cases themselves",
            UserWarning, stacklevel=3)
    lo, hi = consistency_band(r.scores, r.weight, band, n_boot, rng, cases)
    return pd.DataFrame({"x": r.scores, "cep": r.cep, "lo": lo, "hi": hi})


def reliability_diagram(
    y_true: Any,
    y_score: Any = None,
    *,
    confidence_level: float = 0.9,
    n_boot: int = 1000,
    random_state: Any = 0,
    pos_label: Any = 1,
    sample_weight: Any = None,
) -> Any:
    """The CORP reliability diagram: PAV-recalibrated probability (CEP) at each distinct
    prediction, with the consistency band of a calibrated model (Dimitriadis, Gneiting &
    Jordan 2021).

    Parameters
    ----------
    y_true : array-like of shape (n,), or a :class:`~measurelab.ScoreTable` (then
        ``y_score`` and ``sample_weight`` are omitted)
    y_score : array-like of shape (n,), probabilities of the positive class in [0, 1]
    confidence_level : level of the consistency band (0.9: between the 5 % and 95 %
        quantiles)
    n_boot : replicates of the band's resampling
    random_state : int, numpy Generator or None (fresh entropy)
    pos_label : the positive class
    sample_weight : case weights, as in the rest of the library: each replicate of the band
        resamples the n cases and multiplies by their weights (so the band's width does not
        depend on the weights' scale). Without weights (or from a table of whole counts) a
        replicate draws as many cases as were counted; at most ``MAX_BAND_DRAWS`` draws in all

    Returns
    -------
    pandas.DataFrame
        One row per distinct prediction (of positive weight), increasing: ``x`` the
        prediction, ``cep`` its recalibrated value, ``lo`` and ``hi`` the band.

    Examples
    --------
    >>> rd = reliability_diagram([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9], n_boot=50)
    >>> rd[["x", "cep"]].values.tolist()
    [[0.1, 0.25], [0.2, 0.25], [0.3, 0.25], [0.4, 0.25], [0.5, 1.0], [0.9, 1.0]]
    """
    band, n_boot = _check_band(confidence_level, n_boot)
    rng = make_rng(random_state)
    return _diagram(_table(y_true, y_score, pos_label, sample_weight), band, n_boot, rng,
                    y_score, sample_weight)


def plot_reliability(
    y_true: Any,
    scores: Mapping[str, Any] | Any,
    *,
    confidence_level: float | None = 0.9,
    n_boot: int = 1000,
    random_state: Any = 0,
    pos_label: Any = 1,
    sample_weight: Any = None,
    ax: Any = None,
    hist: bool = True,
) -> Any:
    """CORP reliability diagrams of several models on one matplotlib Axes: each model's
    recalibrated curve with its consistency band (shaded; ``confidence_level=None`` draws
    none), the diagonal, and the distribution of the predictions beneath (a histogram strip
    per model, on a hidden second axis). Returns the Axes.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = plot_reliability([0, 0, 0, 1, 1, 1], {"a": [.4, .3, .2, .1, .5, .9]}, n_boot=20)
    >>> ax.get_lines()[0].get_ydata().tolist()
    [0.25, 0.25, 0.25, 0.25, 1.0, 1.0]
    """
    band = confidence_level
    if band is None:
        _check_band(0.9, n_boot)  # n_boot is checked even when no band uses it
    else:
        band, n_boot = _check_band(band, n_boot)
    hist = check_flag(hist, "hist")
    rng = make_rng(random_state)
    if ax is not None and not hasattr(ax, "fill_between"):
        raise MeasurelabTypeError(f"ax must be a matplotlib Axes or None, got "
                                  f"{short_repr(ax)}")
    if not isinstance(scores, Mapping):
        tables = {"model": _table(y_true, scores, pos_label, sample_weight, name="scores")}
        raw = {"model": scores}
    elif not scores:
        raise MeasurelabError("scores is an empty dict; give at least one model")
    else:
        tables = {literal(n): _table(y_true, v, pos_label, sample_weight,
                                     name=f"scores: the scores of model {n!r}")
                  for n, v in zip(model_names(scores), scores.values(), strict=True)}
        raw = dict(zip(tables, scores.values(), strict=True))
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    strip = ax.twinx() if hist else None
    top = 0.0
    for name, t in tables.items():
        if band is None:
            r = recalibrate(t)
            x, cep, lo, hi = r.scores, r.cep, None, None
        else:
            rd = _diagram(t, band, n_boot, rng, raw[name], sample_weight)
            x, cep, lo, hi = (rd[c].to_numpy() for c in ("x", "cep", "lo", "hi"))
        (line,) = ax.plot(x, cep, lw=2, label=name)  # drawn literally (see _names)
        if lo is not None:
            ax.fill_between(x, lo, hi, color=line.get_color(), alpha=0.2, lw=0)
        if strip is not None:
            m = t.pos + t.neg
            counts, _, _ = strip.hist(t.scores, bins=50, range=(0, 1), weights=m,
                                      histtype="stepfilled", alpha=0.3,
                                      color=line.get_color())
            top = max(top, float(np.max(counts)))
    if strip is not None:
        strip.set_ylim(0, 5 * top if top > 0 else 1)  # the strip fills the bottom fifth
        strip.set_yticks([])
    ax.plot([0, 1], [0, 1], "k--", lw=1, label="calibrated")
    level = "" if band is None else f" ({band:.0%} consistency band)"
    ax.set(xlabel="Predicted probability", ylabel="Recalibrated probability (CEP)" + level,
           xlim=(0, 1), ylim=(0, 1))
    ax.legend(loc="upper left")
    return ax
