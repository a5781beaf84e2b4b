"""The operating point a binary comparison's page marks on each model's ROC curve.

The point is the **best-Youden threshold on the test set** (:func:`measurelab.
best_threshold`'s default rule: the threshold maximising sens + spec − 1, positive iff
``score > threshold``, the largest among exact ties), not the comparison's own threshold
(at which its threshold measures and confusion matrices are computed). Its uncertainty
comes from the replicates that already draw the curve bands — one resampling of the
comparison's design, no second bootstrap: in every replicate each model chooses its own
best-Youden threshold on the cases drawn (as ``best_threshold(..., ci=)`` does), and the
percentile intervals of the sensitivity and specificity there are the arms of the cross
(those of the threshold and of J are in the page's table).

Examples
--------
>>> from measurelab.stats.scoretable import ScoreTable
>>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.7])
>>> replicate_point(t).tolist()    # threshold, sens, spec, J
[0.5, 0.6666666666666666, 1.0, 0.6666666666666666]
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from measurelab.measures.choice import best_point, rule_measure
from measurelab.stats.scoretable import ScoreTable

#: the rule of the page's operating point
RULE = "youden"
#: the quantities of an operating point, in the order of :func:`replicate_point`
QUANTITIES: tuple[str, ...] = ("threshold", "sens", "spec", RULE)


def replicate_point(t: ScoreTable) -> np.ndarray:
    """(threshold, sens, spec, J) of the best-Youden threshold of one table, chosen among
    the scores it holds (a replicate's table keeps the rows of cases not drawn, with zero
    counts: they are left out, as ``best_threshold(..., ci=)`` leaves them out); NaN when
    the table lacks a class."""
    keep = (t.pos + t.neg) > 0
    if not keep.all():
        t = ScoreTable(t.scores[keep], t.pos[keep], t.neg[keep], integer=t.is_integer)
    if t.size == 0 or t.n_pos <= 0 or t.n_neg <= 0:
        return np.full(4, np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        thr, sens, spec, value, _ = best_point(t, rule_measure(RULE))
    return np.array([thr, sens, spec, float(value)])


def summarize(names: list[str], points: np.ndarray, reps: np.ndarray, level: float
              ) -> dict[str, dict[str, Any]]:
    """Each model's point (``points``: models × 4) with the ``level`` percentile interval
    of every quantity over the replicates (``reps``: replicates × models × 4; a replicate
    without a class is left out): ``{name: {"threshold": v, ..., "lo": {...}, "hi":
    {...}, "replicates": int}}``.

    Examples
    --------
    >>> reps = np.arange(40.0).reshape(10, 1, 4) / 40
    >>> s = summarize(["a"], np.array([[0.5, 0.5, 0.5, 0.0]]), reps, 0.8)
    >>> round(s["a"]["lo"]["sens"], 6), round(s["a"]["hi"]["sens"], 6), s["a"]["replicates"]
    (0.115, 0.835, 10)
    """
    q = [(1 - level) / 2, 1 - (1 - level) / 2]
    out: dict[str, dict[str, Any]] = {}
    for a, name in enumerate(names):
        r = reps[:, a, :]
        ok = ~np.isnan(r[:, 1]) & ~np.isnan(r[:, 2])
        entry: dict[str, Any] = {k: float(points[a, j]) for j, k in enumerate(QUANTITIES)}
        entry["lo"], entry["hi"] = {}, {}
        for j, k in enumerate(QUANTITIES):
            lo, hi = ((math.nan, math.nan) if not ok.any() or math.isnan(points[a, j])
                      else (float(v) for v in np.quantile(r[ok, j], q)))
            entry["lo"][k], entry["hi"][k] = lo, hi
        entry["replicates"] = int(ok.sum())
        out[name] = entry
    return out


def draw(ax: Any, points: dict[str, dict[str, Any]], colours: list[str],
         shown: list[str]) -> None:
    """Each model's operating point at (1 − spec, sens) on the ROC axes ``ax``, its
    specificity and sensitivity intervals as the arms of a cross (``gid``
    ``'operating-point:<model>'``, so the figure's data can be found)."""
    for (name, p), col, label in zip(points.items(), colours, shown, strict=True):
        x, y = 1.0 - p["spec"], p["sens"]
        if math.isnan(x) or math.isnan(y):
            continue
        xlo, xhi = 1.0 - p["hi"]["spec"], 1.0 - p["lo"]["spec"]
        ylo, yhi = p["lo"]["sens"], p["hi"]["sens"]
        arms = (not math.isnan(xlo + xhi + ylo + yhi))
        bar = ax.errorbar([x], [y], xerr=[[x - xlo], [xhi - x]] if arms else None,
                          yerr=[[y - ylo], [yhi - y]] if arms else None, fmt="D",
                          ms=5, color=col, markeredgecolor="black", markeredgewidth=0.6,
                          capsize=2.5, lw=1.1, zorder=5,
                          label=f"{label}: best Youden, t = {p['threshold']:.3g}")
        for artist in bar.get_children():
            artist.set_gid(f"operating-point:{name}")


def judge(cmp: Any, points: dict[str, dict[str, Any]], level: float) -> None:
    """The method column of each quantity's interval, in place (``p["method"][k]``): the
    coverage study's verdict on ``best_threshold``'s intervals (named
    ``best_threshold.youden.<quantity>``) in the test set's design and regime; an interval
    whose study fell short there is withheld (NaN ends, on the figure too), as every
    interval is."""
    from measurelab.inference.evidence import CHOICE_PREFIX, design_name
    from measurelab.inference.withholding import judged

    design = ("cluster" if hasattr(cmp._design, "n_clusters") else
              design_name(bool(cmp._design.stratify), weighted=cmp._w is not None))
    for p in points.values():
        p["method"] = {}
        for k in QUANTITIES:
            text, gone = judged("bootstrap-percentile", f"{CHOICE_PREFIX}{RULE}.{k}",
                                bounds=(p["lo"][k], p["hi"][k]), level=level,
                                smaller=cmp._smaller(), design=design)
            p["method"][k] = text
            if gone:
                p["lo"][k], p["hi"][k] = math.nan, math.nan


def table(points: dict[str, dict[str, Any]]) -> Any:
    """The operating points as the page's table: one row per model and quantity, with
    its interval, the method column (:func:`judge`) and the replicates it rests on."""
    import pandas as pd

    rows = [{"model": name, "quantity": k, "value": p[k], "lo": p["lo"][k],
             "hi": p["hi"][k], "method": p["method"][k], "replicates": p["replicates"]}
            for name, p in points.items() for k in QUANTITIES]
    return pd.DataFrame(rows, columns=["model", "quantity", "value", "lo", "hi", "method",
                                       "replicates"])


def html(cmp: Any) -> list[str]:
    """What the ROC panel's crosses are, and their table: the page's words under its
    curves figure (read from the comparison's curve bands, which the figure computed)."""
    from measurelab import pages

    bands = cmp.curve_bands()
    level = cmp.level if cmp.level is not None else 0.95
    nb = max(p["replicates"] for p in bands["operating"].values())
    return [f"<p>Diamonds on the ROC curves: each model's best-Youden operating point on "
            f"these cases (the threshold maximising sensitivity + specificity − 1, "
            f"positive above it; not the comparison's threshold {cmp.threshold:g}, at "
            f"which the measures and confusion matrices are). The arms of each cross are "
            f"{level:.0%} percentile intervals of its specificity and sensitivity over the "
            f"{nb} replicates that draw the bands, every replicate choosing its own "
            "threshold, so they show how stable the choice is.</p>",
            pages.details("Operating points (best Youden threshold), with intervals",
                          pages.table(table(bands["operating"]), index=False,
                                      sortable=True, float_fmt=".3g"))]
