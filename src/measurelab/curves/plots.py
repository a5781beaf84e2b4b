"""Curves as pictures: each ``plot_*`` draws several models (a dict ``name -> scores``)
on one matplotlib Axes and returns it; ROC, PR and DET wrap scikit-learn's
``RocCurveDisplay``, ``PrecisionRecallDisplay`` and ``DetCurveDisplay``. matplotlib and
scikit-learn are imported on first use. The points come from :mod:`measurelab.curves.points`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from measurelab._util.validation import check_flag
from measurelab.curves._names import literal, model_names
from measurelab.curves._ovr import is_class_scores
from measurelab.curves.points import (
    _cost,
    _det,
    _gain,
    _lift,
    _one_vs_rest,
    _precision_recall,
    _roc,
    _table,
)
from measurelab.exceptions import MeasurelabError
from measurelab.stats.scoretable import ScoreTable

__all__ = [
    "plot_cost_curve",
    "plot_cumulative_gain_curve",
    "plot_det_curve",
    "plot_lift_curve",
    "plot_precision_recall_curve",
    "plot_roc_curve",
]


def _tables(
    y_true: Any, scores: Any, pos_label: Any, sample_weight: Any
) -> dict[str, ScoreTable]:
    """One score table per model of ``scores`` (a dict name -> scores, or one vector), keyed
    by the name as matplotlib draws it literally."""
    if not isinstance(scores, Mapping):
        return {"model": _table(y_true, scores, pos_label, sample_weight, name="scores")}
    if not scores:
        raise MeasurelabError("scores is an empty dict; give at least one model")
    names = model_names(scores)
    return {literal(n): _table(y_true, v, pos_label, sample_weight,
                               name=f"scores: the scores of model {n!r}")
            for n, v in zip(names, scores.values(), strict=True)}


def _check_flags(**flags: Any) -> None:
    for name, value in flags.items():
        check_flag(value, name)


def _axes(ax: Any) -> Any:
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    return ax


def plot_roc_curve(
    y_true: Any,
    scores: Mapping[str, Any] | Any,
    *,
    pos_label: Any = 1,
    sample_weight: Any = None,
    ax: Any = None,
    chance_level: bool = True,
    operating_points: Mapping[str, Any] | None = None,
    labels: Any = None,
) -> Any:
    """ROC curves of several models on one Axes (scikit-learn's ``RocCurveDisplay``); of
    every class of one k-class model, with the micro and macro averages.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    scores : dict ``name -> scores`` (one curve per model), or one score vector, or one
        model's k-class scores (n, k ≥ 3: a curve per class, micro and macro averages)
    pos_label, sample_weight : as :func:`roc_curve`
    ax : matplotlib Axes, optional (a new figure otherwise)
    chance_level : draw the diagonal of a random ranking
    operating_points : dict ``name -> best threshold``, optional
        Each model's operating point (a :func:`measurelab.best_threshold` result, or
        anything with ``sens`` and ``spec``) marked on its curve; with its ``intervals()``
        (``best_threshold(..., ci=)``) the specificity and sensitivity intervals are drawn
        as a cross.
    labels : the classes of k-class columns (as :func:`roc_curve`)

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import measurelab as ml
    >>> ax = plot_roc_curve([0, 0, 1, 1], {"a": [0.1, 0.4, 0.35, 0.8], "b": [.2, .1, .7, .9]})
    >>> ax.get_legend_handles_labels()[1]
    ['a (AUC = 0.75)', 'b (AUC = 1.00)', 'Chance level (AUC = 0.5)']
    >>> y, s = [0, 0, 1, 1, 0, 1, 1, 0], [.1, .2, .3, .8, .4, .9, .7, .5]
    >>> b = ml.best_threshold(y, s, ci=0.9, n_boot=200)     # the cross: both intervals
    >>> ax = plot_roc_curve(y, {"a": s}, operating_points={"a": b})
    >>> ax.get_legend_handles_labels()[1][-1]
    'a at threshold 0.5'
    >>> P = [[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .4, .3], [.2, .3, .5]]
    >>> ax = plot_roc_curve([0, 1, 2, 0, 1], P)        # k classes: one model
    >>> ax.get_legend_handles_labels()[1][1:5]
    ['1 (AUC = 0.75)', '2 (AUC = 1.00)', 'micro average (AUC = 0.85)', 'macro average (AUC = 0.92)']
    """
    _check_flags(chance_level=chance_level)
    if not isinstance(scores, Mapping) and is_class_scores(y_true, scores):
        return _plot_classes("roc", y_true, scores, labels, sample_weight, ax, chance_level)
    from sklearn.metrics import RocCurveDisplay

    from measurelab.measures.ranking import auc

    tables = _tables(y_true, scores, pos_label, sample_weight)
    ax = _axes(ax)
    colors = {}
    for i, (name, t) in enumerate(tables.items(), start=1):
        fpr, tpr, _ = _roc(t)
        RocCurveDisplay(fpr=fpr, tpr=tpr, roc_auc=auc(t)).plot(
            ax=ax, name=name, plot_chance_level=chance_level and i == len(tables)
        )
        colors[name] = ax.get_lines()[-2 if chance_level and i == len(tables) else -1
                                      ].get_color()
    if operating_points is not None:
        _mark_operating_points(ax, operating_points, colors)
    return ax


def _mark_operating_points(ax: Any, points: Mapping[str, Any], colors: dict[str, Any]
                           ) -> None:
    """Each model's operating point at (1 − spec, sens), with the intervals of both as a
    cross when the point carries them."""
    if not isinstance(points, Mapping):
        raise MeasurelabError("operating_points must be a dict name -> best threshold, got "
                              f"{type(points).__name__}")
    for name, b in zip(model_names(points, "operating_points"), points.values(),
                       strict=True):
        shown = literal(name)
        if not (hasattr(b, "sens") and hasattr(b, "spec")):
            raise MeasurelabError(f"operating_points[{name!r}] has no sens and spec (give "
                                  "a best_threshold result)")
        x, y = 1.0 - float(b.spec), float(b.sens)
        color = colors.get(shown, "k")
        iv = None
        if getattr(b, "level", None) is not None:
            iv = b.intervals().set_index("quantity")
        if iv is not None:
            xerr = [[x - (1.0 - iv.loc["spec", "hi"])], [(1.0 - iv.loc["spec", "lo"]) - x]]
            yerr = [[y - iv.loc["sens", "lo"]], [iv.loc["sens", "hi"] - y]]
            ax.errorbar([x], [y], xerr=xerr, yerr=yerr, fmt="o", color=color, capsize=3,
                        lw=1, label=f"{shown} at threshold {float(b.threshold):.3g}")
        else:
            ax.plot([x], [y], "o", color=color,
                    label=f"{shown} at threshold {float(b.threshold):.3g}")
    ax.legend(loc="lower right")


def _plot_classes(kind: str, y_true: Any, scores: Any, labels: Any, sample_weight: Any,
                  ax: Any, chance_level: bool) -> Any:
    """Every class of one k-class model against the rest, and the micro and macro averages
    (:func:`~measurelab.curves.roc_curve` or :func:`~measurelab.curves.precision_recall_curve`
    of k-class scores)."""
    import numpy as np

    curves = _one_vs_rest(kind, y_true, scores, labels, sample_weight, True)
    ax = _axes(ax)

    def area(c: Any) -> float:
        if kind == "roc":
            return float(np.trapezoid(c.tpr, c.fpr))
        return float(-np.sum(np.diff(c.recall) * c.precision[:-1]))  # AP

    what = "AUC" if kind == "roc" else "AP"
    xy = ("fpr", "tpr") if kind == "roc" else ("recall", "precision")
    for name, c in [*zip(curves.classes, curves.per_class, strict=True),
                    ("micro average", curves.micro), ("macro average", curves.macro)]:
        style = {"micro average": ":", "macro average": "--"}.get(name, "-")
        width = 2 if name in ("micro average", "macro average") else 1
        draw = ax.step if kind == "pr" and name != "macro average" else ax.plot
        extra = {"where": "post"} if draw is ax.step else {}
        draw(getattr(c, xy[0]), getattr(c, xy[1]), style, lw=width,
             label=f"{literal(name)} ({what} = {area(c):.2f})", **extra)
    if chance_level and kind == "roc":
        ax.plot([0, 1], [0, 1], "k--", lw=1, label="Chance level (AUC = 0.5)")
    ax.set(xlabel="False positive rate" if kind == "roc" else "Recall",
           ylabel="True positive rate" if kind == "roc" else "Precision",
           xlim=(-0.01, 1.01), ylim=(-0.01, 1.01), aspect="equal")
    ax.legend(loc="lower right" if kind == "roc" else "lower left")
    return ax


def plot_precision_recall_curve(
    y_true: Any,
    scores: Mapping[str, Any] | Any,
    *,
    pos_label: Any = 1,
    sample_weight: Any = None,
    ax: Any = None,
    chance_level: bool = True,
    labels: Any = None,
) -> Any:
    """Precision-recall curves of several models (scikit-learn's
    ``PrecisionRecallDisplay``); the legend shows each model's AP. One model's k-class
    scores (n, k ≥ 3): a curve per class and the micro and macro averages.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = plot_precision_recall_curve([0, 0, 1, 1], {"a": [0.1, 0.4, 0.35, 0.8]})
    >>> ax.get_legend_handles_labels()[1]
    ['a (AP = 0.83)', 'Chance level (AP = 0.50)']
    """
    _check_flags(chance_level=chance_level)
    if not isinstance(scores, Mapping) and is_class_scores(y_true, scores):
        return _plot_classes("pr", y_true, scores, labels, sample_weight, ax, chance_level)
    from sklearn.metrics import PrecisionRecallDisplay

    from measurelab.measures.ranking import ap

    tables = _tables(y_true, scores, pos_label, sample_weight)
    ax = _axes(ax)
    for i, (name, t) in enumerate(tables.items(), start=1):
        p, r, _ = _precision_recall(t)
        PrecisionRecallDisplay(
            precision=p, recall=r, average_precision=ap(t),
            prevalence_pos_label=t.n_pos / t.total,
        ).plot(ax=ax, name=name, plot_chance_level=chance_level and i == len(tables))
    return ax


def plot_det_curve(
    y_true: Any,
    scores: Mapping[str, Any] | Any,
    *,
    pos_label: Any = 1,
    sample_weight: Any = None,
    ax: Any = None,
) -> Any:
    """DET curves of several models on normal-deviate axes (scikit-learn's
    ``DetCurveDisplay``).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = plot_det_curve([0, 0, 1, 1, 0, 1], {"a": [.1, .4, .35, .8, .3, .6]})
    >>> len(ax.get_lines())
    1
    """
    from sklearn.metrics import DetCurveDisplay

    tables = _tables(y_true, scores, pos_label, sample_weight)
    ax = _axes(ax)
    for name, t in tables.items():
        fpr, fnr, _ = _det(t)
        DetCurveDisplay(fpr=fpr, fnr=fnr).plot(ax=ax, name=name)
    return ax


def plot_cumulative_gain_curve(
    y_true: Any,
    scores: Mapping[str, Any] | Any,
    *,
    pos_label: Any = 1,
    sample_weight: Any = None,
    ax: Any = None,
    chance_level: bool = True,
) -> Any:
    """Cumulative gain charts of several models (with the random-ranking diagonal).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = plot_cumulative_gain_curve([1, 0, 1, 0], {"a": [.9, .8, .7, .1]})
    >>> ax.get_lines()[0].get_xydata().tolist()[:2]
    [[0.0, 0.0], [0.25, 0.5]]
    """
    _check_flags(chance_level=chance_level)
    tables = _tables(y_true, scores, pos_label, sample_weight)
    ax = _axes(ax)
    for name, t in tables.items():
        d, g, _ = _gain(t)
        ax.plot(d, g, label=name)
    if chance_level:
        ax.plot([0, 1], [0, 1], "k--", lw=1, label="random")
    ax.set(xlabel="Fraction of cases targeted (by decreasing score)",
           ylabel="Fraction of positives found", xlim=(0, 1), ylim=(0, 1.01))
    ax.legend(loc="lower right")
    return ax


def plot_lift_curve(
    y_true: Any,
    scores: Mapping[str, Any] | Any,
    *,
    pos_label: Any = 1,
    sample_weight: Any = None,
    ax: Any = None,
    chance_level: bool = True,
) -> Any:
    """Lift curves of several models (lift 1 = a random ranking).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = plot_lift_curve([1, 0, 1, 0], {"a": [.9, .8, .7, .1]})
    >>> ax.get_lines()[0].get_ydata().tolist()
    [2.0, 1.0, 1.3333333333333333, 1.0]
    """
    _check_flags(chance_level=chance_level)
    tables = _tables(y_true, scores, pos_label, sample_weight)
    ax = _axes(ax)
    for name, t in tables.items():
        d, lift, _ = _lift(t)
        ax.plot(d, lift, marker=".", label=name)
    if chance_level:
        ax.axhline(1.0, color="k", ls="--", lw=1, label="random")
    ax.set(xlabel="Fraction of cases targeted (by decreasing score)", ylabel="Lift",
           xlim=(0, 1))
    ax.legend(loc="upper right")
    return ax


def plot_cost_curve(
    y_true: Any,
    scores: Mapping[str, Any] | Any,
    *,
    pos_label: Any = 1,
    sample_weight: Any = None,
    ax: Any = None,
    lines: bool = False,
    trivial: bool = True,
) -> Any:
    """Cost curves (lower envelopes) of several models, Drummond & Holte style.

    Parameters
    ----------
    lines : also draw every operating point's cost line (thin, per model)
    trivial : draw the two trivial classifiers (all negative: NE = PC; all positive:
        NE = 1 − PC)

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = plot_cost_curve([0, 0, 1, 1], {"a": [0.1, 0.4, 0.35, 0.8]})
    >>> ax.get_lines()[0].get_xydata().tolist()
    [[0.0, 0.0], [0.5, 0.25], [1.0, 0.0]]
    """
    _check_flags(lines=lines, trivial=trivial)
    tables = _tables(y_true, scores, pos_label, sample_weight)
    ax = _axes(ax)
    for name, t in tables.items():
        cc = _cost(t)
        (env,) = ax.plot(cc.pc, cc.cost, lw=2, label=name)
        if lines:
            for f, n in zip(cc.fpr, cc.fnr, strict=True):
                ax.plot([0, 1], [f, n], color=env.get_color(), lw=0.5, alpha=0.4)
    if trivial:
        ax.plot([0, 1], [0, 1], "k:", lw=1, label="trivial")
        ax.plot([0, 1], [1, 0], "k:", lw=1)
    ax.set(xlabel="Probability cost PC(+)", ylabel="Normalized expected cost",
           xlim=(0, 1), ylim=(0, 1))
    ax.legend(loc="upper right")
    return ax
