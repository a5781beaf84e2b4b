"""Decision curves (Vickers & Elkin 2006): net benefit over threshold probabilities, with
the two references every model must beat, treating everyone and treating no one.

A decision curve is read off the score table (:mod:`measurelab.measures.decision`): at a
threshold probability t the cases with p ≥ t are treated, NB(t) = TP/n − FP/n·t/(1 − t),
and one cumulative sum gives every threshold. Beside Drummond & Holte's cost curves
(:func:`~measurelab.curves.cost_curve`, expected misclassification cost over the class
distribution and costs) it answers the question of a single decision maker with a risk
threshold: is acting on this model better than acting on everyone or no one, here?

Bands: :func:`plot_decision_curve` with ``confidence_level=0.95`` draws pointwise percentile
bands from a bootstrap of the cases (every model sees the same resampled cases; jointly, as for a
random sample, or by class with ``stratify=True``), over a canonical order of the cases, so
the same data in any row order gives the same band. A comparison draws the bands from its
own replicates (:meth:`measurelab.inference.ClassifierComparison.plot_decision_curve`).

Examples
--------
>>> dc = decision_curve([0, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.8, 0.6, 0.2],
...                     thresholds=[0.1, 0.3, 0.5])
>>> dc.net_benefit.round(4).tolist(), dc.treat_all.round(4).tolist()
([0.4444, 0.1905, 0.0], [0.4444, 0.2857, 0.0])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from measurelab._util.validation import (
    check_flag,
    check_int,
    check_level,
    make_rng,
    short_repr,
)
from measurelab._util.words import counted
from measurelab.curves._names import literal, model_names
from measurelab.curves.points import _table
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.measures.decision import (
    check_thresholds,
    net_benefit_curve,
    net_benefit_curve_block,
    treat_all,
)
from measurelab.pickling import versioned_pickle
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

__all__ = [
    "DecisionCurve",
    "decision_curve",
    "decision_curve_bands",
    "plot_decision_curve",
]

#: the thresholds of a decision curve by default: 0.01, 0.02, ..., 0.99
DEFAULT_THRESHOLDS = np.arange(1, 100) / 100
#: the most replicates × thresholds × models one band computation holds
MAX_BAND_CELLS = 50_000_000


@versioned_pickle
class DecisionCurve(NamedTuple):
    """Net benefit at each threshold probability of ``thresholds`` (increasing as given),
    with treating everyone (``treat_all``) and no one (``treat_none``, 0) and the
    ``prevalence`` (weighted share of positives).

    Examples
    --------
    >>> dc = decision_curve([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.7], thresholds=[0.5])
    >>> dc.standardized.tolist(), dc.interventions_avoided().round(1).tolist()
    ([0.5], [25.0])
    """

    thresholds: np.ndarray
    net_benefit: np.ndarray
    treat_all: np.ndarray
    treat_none: np.ndarray
    prevalence: float

    @property
    def standardized(self) -> np.ndarray:
        """Standardized net benefit: net benefit / prevalence (1: a perfect model)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.net_benefit / self.prevalence

    def interventions_avoided(self, per: float = 100.0) -> np.ndarray:
        """Net interventions avoided per ``per`` cases compared with treating everyone:
        (NB − NB_all) / (t/(1 − t)) · per (NaN at t = 0)."""
        t = self.thresholds
        with np.errstate(invalid="ignore", divide="ignore"):
            out = (self.net_benefit - self.treat_all) / (t / (1.0 - t)) * float(per)
        return np.where(t > 0, out, np.nan)


def _probability_table(table: ScoreTable, name: str) -> ScoreTable:
    """A table whose scores are probabilities (net benefit thresholds a risk)."""
    s = table.scores
    if s.size and (s[0] < 0.0 or s[-1] > 1.0):
        bad = s[0] if s[0] < 0.0 else s[-1]
        raise MeasurelabError(f"{name} must be probabilities in [0, 1] for a decision curve, "
                              f"got {bad:g}")
    return table


def decision_curve(
    y_true: Any,
    y_score: Any = None,
    *,
    thresholds: Any = None,
    pos_label: Any = 1,
    sample_weight: Any = None,
) -> DecisionCurve:
    """Net benefit of a model at each threshold probability, with treat-all and treat-none.

    Parameters
    ----------
    y_true : array-like of shape (n,), or a :class:`~measurelab.ScoreTable`
    y_score : array-like of shape (n,)
        Predicted probabilities of the positive class, in [0, 1]; a case is treated when
        its probability is at least the threshold.
    thresholds : array-like of threshold probabilities in [0, 1), optional
        Default 0.01, 0.02, ..., 0.99.
    pos_label, sample_weight
        As :func:`measurelab.evaluate`.

    Returns
    -------
    DecisionCurve
        ``thresholds, net_benefit, treat_all, treat_none, prevalence``; the values of
        ``net_benefit@t`` bit for bit, and dcurves' ``dca`` within rounding.

    Examples
    --------
    >>> dc = decision_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], thresholds=[0.2, 0.5])
    >>> dc.net_benefit.tolist(), dc.treat_none.tolist()
    ([0.4375, 0.25], [0.0, 0.0])
    """
    table = _probability_table(_table(y_true, y_score, pos_label, sample_weight), "y_score")
    ts = DEFAULT_THRESHOLDS.copy() if thresholds is None else check_thresholds(thresholds)
    return _curve(table, ts)


def _curve(table: ScoreTable, ts: np.ndarray) -> DecisionCurve:
    if table.total <= 0:
        raise MeasurelabError("sample_weight is zero for every case: no decision curve")
    return DecisionCurve(ts, net_benefit_curve(table, ts), treat_all(table, ts),
                         np.zeros(ts.size), table.n_pos / table.total)


def _check_band(band: Any, n_boot: Any) -> tuple[float, int]:
    return (check_level(band, "confidence_level"),
            check_int(n_boot, "n_boot", minimum=1, maximum=10**6))


def _models(y_true: Any, scores: Any, pos_label: Any, sample_weight: Any
            ) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray | None]:
    """Labels (bool), each model's probabilities and the weights, checked."""
    from measurelab._util.validation import (
        as_1d,
        binarize,
        check_same_length,
        check_scores,
        check_weights,
    )

    if not isinstance(scores, Mapping):
        scores = {"model": scores}
    if not scores:
        raise MeasurelabError("scores is an empty dict; give at least one model")
    names = model_names(scores)
    y_raw = as_1d(y_true, "y_true")
    y = binarize(y_raw, pos_label)
    out = {}
    for n, v in zip(names, scores.values(), strict=True):
        what = f"scores: the probabilities of model {n!r}"
        s = as_1d(v.to_numpy() if hasattr(v, "to_numpy") else v, what)
        check_same_length(("y_true", y_raw), (what, s))
        s = check_scores(s, what)
        if s.size and (float(s.min()) < 0.0 or float(s.max()) > 1.0):
            raise MeasurelabError(f"{what} must be in [0, 1] for a decision curve, got "
                                  f"{float(s.min()) if s.min() < 0 else float(s.max()):g}")
        out[n] = s
    return y, out, check_weights(sample_weight, y.size)


def decision_curve_bands(
    y_true: Any,
    scores: Mapping[str, Any] | Any,
    *,
    thresholds: Any = None,
    confidence_level: float = 0.95,
    n_boot: int = 1000,
    random_state: Any = 0,
    stratify: bool = False,
    pos_label: Any = 1,
    sample_weight: Any = None,
    progress: bool | None = None,
) -> dict[str, Any]:
    """Pointwise bootstrap bands of several models' decision curves and of treating
    everyone.

    A replicate resamples the n cases with replacement — jointly (the class counts vary, as
    in another random sample) or, with ``stratify=True``, positives and negatives apart —
    over a canonical order of the cases (by label, every model's probability and the
    weight), and adds each case's multiplicity into every model's score-table rows; the
    net benefit of every threshold then comes from one cumulative sum per table.

    Parameters
    ----------
    y_true, scores
        Labels and a dict ``name -> probabilities`` (or one vector).
    thresholds : threshold probabilities, optional (default 0.01, ..., 0.99)
    confidence_level : float, default 0.95
        Level of the pointwise percentile band.
    n_boot : int, default 1000
    random_state : seed of the resampling (int, numpy Generator or None)
    stratify : bool, default False
    pos_label, sample_weight : as :func:`measurelab.evaluate`
    progress : bool, optional
        A progress bar (default: on a terminal, after two seconds).

    Returns
    -------
    dict
        ``{"thresholds", "level", "models": {name: {"net_benefit", "lo", "hi"}},
        "treat_all": {"net_benefit", "lo", "hi"}}``; a threshold no replicate defines is NaN.

    Examples
    --------
    >>> b = decision_curve_bands([0, 0, 1, 1, 0, 1], {"m": [.1, .3, .35, .8, .6, .2]},
    ...                          thresholds=[0.2, 0.5], n_boot=200)
    >>> m = b["models"]["m"]
    >>> bool(np.all(m["lo"] <= m["net_benefit"])), bool(np.all(m["net_benefit"] <= m["hi"]))
    (True, True)
    """
    level, n_boot = _check_band(confidence_level, n_boot)
    stratify = check_flag(stratify, "stratify")
    if progress is not None:
        check_flag(progress, "progress")
    rng = make_rng(random_state)
    y, models, w = _models(y_true, scores, pos_label, sample_weight)
    ts = DEFAULT_THRESHOLDS.copy() if thresholds is None else check_thresholds(thresholds)
    if (len(models) + 1) * ts.size * n_boot > MAX_BAND_CELLS:
        raise MeasurelabError(f"n_boot={n_boot} replicates of {counted(len(models), 'model')} at "
                              f"{ts.size} thresholds is more than {MAX_BAND_CELLS:,} values; "
                              "use fewer replicates or thresholds")
    if y.size == 0:
        raise MeasurelabError("y_true is empty: no decision curve")
    reps = _replicates(y, list(models.values()), w, ts, n_boot, rng, stratify, progress)
    q = [(1 - level) / 2, 1 - (1 - level) / 2]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a threshold no replicate defines
        lo, hi = np.nanquantile(reps, q, axis=0)
    out: dict[str, Any] = {"thresholds": ts, "level": level, "models": {}}
    for a, (name, s) in enumerate(models.items()):
        t = ScoreTable.from_arrays(y, s, w)
        out["models"][name] = {"net_benefit": net_benefit_curve(t, ts), "lo": lo[a],
                               "hi": hi[a]}
    t0 = ScoreTable.from_arrays(y, next(iter(models.values())), w)
    out["treat_all"] = {"net_benefit": treat_all(t0, ts), "lo": lo[-1], "hi": hi[-1]}
    return out


def _replicates(y: np.ndarray, scores: list[np.ndarray], w: np.ndarray | None,
                ts: np.ndarray, n_boot: int, rng: np.random.Generator, stratify: bool,
                progress: bool | None) -> np.ndarray:
    """Net benefit of every model (and of treating everyone, last) at every threshold on
    ``n_boot`` paired case-resampling replicates: (n_boot, models + 1, thresholds)."""
    from measurelab.progress import progress_bar

    keys: list[np.ndarray] = [] if w is None else [w]
    keys += [s + 0.0 for s in scores[::-1]]
    order = np.lexsort([*keys, y])  # canonical order: label, every model's score, weight
    yo = y[order]
    wo = None if w is None else w[order]
    n = y.size
    n0 = int(np.count_nonzero(~yo))
    tables = [ScoreTable.from_arrays(y, s, w) for s in scores]
    rows = [np.searchsorted(t.scores, s[order]) for t, s in zip(tables, scores, strict=True)]
    k = len(scores)
    out = np.empty((n_boot, k + 1, ts.size))
    size = int(max(1, min(512, (1 << 22) // max(1, n * (k + 1)))))
    parts = [(0, n0), (n0, n)] if stratify else [(0, n)]
    odds = ts / (1.0 - ts)
    with progress_bar(n_boot, desc="decision curve bands", unit="replicate",
                      enabled=progress is not False, delay=2.0, leave=False) as bar:
        for b0 in range(0, n_boot, size):
            bs = min(size, n_boot - b0)
            mult = np.zeros((bs, n))
            for lo, hi in parts:
                m = hi - lo
                if m == 0:
                    continue
                idx = rng.integers(0, m, (bs, m))
                mult[:, lo:hi] = np.bincount((idx + np.arange(bs)[:, None] * m).ravel(),
                                             minlength=bs * m).reshape(bs, m)
            if wo is not None:
                mult *= wo
            mp = np.where(yo[None, :], mult, 0.0)
            mn = mult - mp
            base = np.arange(bs)[:, None]
            for a, (t, r) in enumerate(zip(tables, rows, strict=True)):
                flat = (base * t.size + r[None, :]).ravel()
                pos = np.bincount(flat, weights=mp.ravel(),
                                  minlength=bs * t.size).reshape(bs, -1)
                neg = np.bincount(flat, weights=mn.ravel(),
                                  minlength=bs * t.size).reshape(bs, -1)
                blk = TableBlock(t.scores, pos, neg, integer=True if w is None else None)
                out[b0:b0 + bs, a] = net_benefit_curve_block(blk, ts)
            npos, nneg = mp.sum(axis=1), mn.sum(axis=1)
            tot = (npos + nneg)[:, None]
            with np.errstate(invalid="ignore", divide="ignore"):
                out[b0:b0 + bs, k] = np.where(tot > 0, (npos[:, None] - nneg[:, None] * odds)
                                              / tot, np.nan)
            bar.update(bs)
    return out


def plot_decision_curve(
    y_true: Any,
    scores: Mapping[str, Any] | Any,
    *,
    thresholds: Any = None,
    confidence_level: float | None = None,
    n_boot: int = 500,
    random_state: Any = 0,
    stratify: bool = False,
    standardized: bool = False,
    references: bool = True,
    bands: Mapping[str, Any] | None = None,
    pos_label: Any = 1,
    sample_weight: Any = None,
    ax: Any = None,
    progress: bool | None = None,
) -> Any:
    """Decision curves of several models on one Axes, with treat-all and treat-none and,
    optionally, bootstrap bands.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    scores : dict ``name -> probabilities`` (one curve per model), or one vector
    thresholds : threshold probabilities, optional (default 0.01, ..., 0.99)
    confidence_level : float, optional
        Draw each model's pointwise bootstrap band at this level (e.g. 0.95), from
        :func:`decision_curve_bands` with ``n_boot``, ``random_state`` and ``stratify``.
    standardized : bool, default False
        Plot the standardized net benefit (net benefit / prevalence) instead.
    references : bool, default True
        Draw treating everyone and treating no one.
    bands : dict ``name -> (lo, hi)``, optional
        Bands computed elsewhere (a comparison passes the ones from its own replicates),
        drawn instead of computing them; each ``lo`` and ``hi`` has one value per threshold.
    pos_label, sample_weight : as :func:`measurelab.evaluate`
    ax : matplotlib Axes, optional (a new figure otherwise)
    progress : bool, optional
        Progress bar of the band's bootstrap.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> y = [0, 0, 1, 1, 0, 1, 0, 0]
    >>> ax = plot_decision_curve(y, {"a": [.1, .3, .35, .8, .6, .2, .1, .4]},
    ...                          confidence_level=0.9,
    ...                          n_boot=100)
    >>> ax.get_legend_handles_labels()[1]
    ['a', 'treat all', 'treat none']
    """
    standardized = check_flag(standardized, "standardized")
    references = check_flag(references, "references")
    band = confidence_level
    if band is not None:
        _check_band(band, n_boot)
    y, models, w = _models(y_true, scores, pos_label, sample_weight)
    ts = DEFAULT_THRESHOLDS.copy() if thresholds is None else check_thresholds(thresholds)
    curves = {n: _curve(ScoreTable.from_arrays(y, s, w), ts) for n, s in models.items()}
    given = _given_bands(bands, list(models), ts.size)
    if band is not None and given is None:
        b = decision_curve_bands(y, models, thresholds=ts, confidence_level=band, n_boot=n_boot,
                                 random_state=random_state, stratify=stratify,
                                 sample_weight=w, progress=progress)
        given = {n: (b["models"][n]["lo"], b["models"][n]["hi"]) for n in models}
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    prev = next(iter(curves.values())).prevalence
    scale = 1.0 / prev if standardized and prev > 0 else 1.0
    top = 0.0
    for name, dc in curves.items():
        (line,) = ax.plot(ts, dc.net_benefit * scale, lw=1.6, label=literal(name))
        top = max(top, float(np.nanmax(dc.net_benefit * scale, initial=0.0)))
        if given is not None:
            lo, hi = given[name]
            ax.fill_between(ts, np.asarray(lo) * scale, np.asarray(hi) * scale,
                            color=line.get_color(), alpha=0.18, lw=0)
            top = max(top, float(np.nanmax(np.asarray(hi) * scale, initial=0.0)))
    dc0 = next(iter(curves.values()))
    if references:
        ax.plot(ts, dc0.treat_all * scale, color="0.35", lw=1.0, ls="--", label="treat all")
        ax.plot(ts, dc0.treat_none, color="0.2", lw=1.0, ls=":", label="treat none")
    top = max(top, prev * scale, 1e-3)  # (a perfect model's net benefit is the prevalence)
    ax.set(xlabel="threshold probability", ylabel="standardized net benefit" if standardized
           else "net benefit", title="decision curve", xlim=(float(ts.min()), float(ts.max())),
           ylim=(-0.25 * top, 1.08 * top))
    ax.legend(fontsize=8, loc="upper right")
    return ax


def _given_bands(bands: Any, names: list[str], size: int) -> dict[str, Any] | None:
    if bands is None:
        return None
    if not isinstance(bands, Mapping):
        raise MeasurelabTypeError(f"bands must be a dict name -> (lo, hi), got "
                                  f"{short_repr(bands)}")
    out = {}
    for n in names:
        if n not in bands:
            raise MeasurelabError(f"bands has no entry for model {n!r}")
        lo, hi = (np.asarray(x, dtype=np.float64) for x in bands[n])
        if lo.shape != (size,) or hi.shape != (size,):
            raise MeasurelabError(f"bands[{n!r}] must hold {size} values per end (one per "
                                  f"threshold), got shapes {lo.shape} and {hi.shape}")
        out[n] = (lo, hi)
    return out
