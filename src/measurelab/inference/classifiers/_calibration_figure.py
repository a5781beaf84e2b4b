"""The calibration figure of a comparison, read at a glance: one panel per model.

Each panel shows the CORP reliability curve (the PAV-recalibrated probability at each
prediction) with the consistency band of a calibrated model at the comparison's level, the
diagonal, the calibration numbers written on it — the Brier miscalibration ``brier_mcb``
with its interval, the calibration slope and intercept (``cal_slope``, ``cal_intercept``:
the logistic recalibration) with their Wald intervals, smooth ECE and ICI as descriptions
(no interval) and the calibration test's verdict — and, beneath, a
histogram of the predictions. :func:`calibration_ranges` lists the probability ranges
where the curve leaves its band ("where is it off?").

For k classes the panels are top-label (confidence) reliability diagrams: the arg-max
probability against "the arg-max class is right".

The band and its replicates are computed once per comparison (cached), so the figure and
the table of ranges share them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab.inference import _figures as _fig


def _binary_view(cmp: Any) -> tuple[list[np.ndarray], list[np.ndarray], str, str]:
    """Per model the outcome (0/1) and the probability a panel shows, and axis labels."""
    d = cmp._design
    if hasattr(d, "labels"):  # k classes: the top label
        ys = [(np.argmax(P, axis=1) == d.yi).astype(np.int8) for P in d.P]
        ss = [np.max(P, axis=1) for P in d.P]
        return ys, ss, "top-label confidence (largest predicted probability)", \
            "observed accuracy"
    y = cmp._y.astype(np.int8)
    return [y] * len(cmp.names), list(cmp._scores), "predicted probability", \
        "observed frequency of positives"


def applies(cmp: Any) -> bool:
    """Whether the comparison has probabilities to draw (binary scores in [0, 1], or k
    classes)."""
    if hasattr(cmp._design, "labels"):
        return True
    return all(0.0 <= float(s.min()) and float(s.max()) <= 1.0 for s in cmp._scores)


def _weight(cmp: Any) -> np.ndarray | None:
    d = cmp._design
    if hasattr(d, "labels"):
        return d.weight
    return cmp._w


def diagrams(cmp: Any) -> dict[str, Any]:
    """Per model the reliability diagram (``x, cep, lo, hi`` at the comparison's level;
    :func:`measurelab.curves.reliability_diagram`), computed once and cached."""
    if "reliability_panels" in cmp._cache:
        return cmp._cache["reliability_panels"]
    from measurelab.curves import reliability_diagram

    level = cmp.level if cmp.level is not None else 0.95
    ys, ss, _, _ = _binary_view(cmp)
    w = _weight(cmp)
    out = {}
    rng = np.random.default_rng(cmp.random_state)
    for name, y, s in zip(cmp.names, ys, ss, strict=True):
        out[name] = reliability_diagram(y, s, confidence_level=level,
                                        n_boot=min(cmp.n_boot, 500), random_state=rng,
                                        sample_weight=w)
    cmp._cache["reliability_panels"] = out
    return out


def numbers(cmp: Any) -> Any:
    """Per model the calibration numbers a panel shows: ``brier_mcb, lo, hi`` (its
    interval; binary only), ``cal_slope`` and ``cal_intercept`` with their intervals
    (``*_lo``, ``*_hi``; binary only), ``smece`` and ``ici`` (descriptions, no interval)
    and the test's ``verdict`` (binary only)."""
    import warnings

    import pandas as pd

    from measurelab.measures.compute import compute_measures
    from measurelab.stats.bundle import BinaryStats
    from measurelab.stats.scoretable import ScoreTable

    if "calibration_numbers" in cmp._cache:
        return cmp._cache["calibration_numbers"]
    ys, ss, _, _ = _binary_view(cmp)
    w = _weight(cmp)
    multi = hasattr(cmp._design, "labels")
    table = None
    if not multi:
        if "calibration" not in cmp._cache:
            cmp._cache["calibration"] = cmp.calibration()
        table = cmp._cache["calibration"].set_index("model")
    rows = []
    for name, y, s in zip(cmp.names, ys, ss, strict=True):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            stats = BinaryStats(table=ScoreTable.from_arrays(y.astype(bool), s, w))
            e = compute_measures(stats, ["smece", "ici"], probabilities_ok=True)
        row = {"model": name, "smece": float(e["smece"]), "ici": float(e["ici"])}
        if table is not None:
            r = table.loc[name]
            row.update(brier_mcb=float(r["brier_mcb"]), lo=float(r["lo"]),
                       hi=float(r["hi"]), verdict=str(r["verdict"]))
            row.update(_logistic(cmp, stats.table, y, s, w))
        rows.append(row)
    out = pd.DataFrame(rows)
    cmp._cache["calibration_numbers"] = out
    return out


def _logistic(cmp: Any, table: Any, y: np.ndarray, s: np.ndarray,
              w: np.ndarray | None) -> dict[str, float]:
    """``cal_slope`` and ``cal_intercept`` of one model with their Wald intervals (the
    fit ± z·SE, the SE of the M-estimator's influence function: the method the registry
    gives them, :mod:`measurelab.inference.methods.influence`)."""
    import warnings

    from measurelab.inference.methods.influence import INFLUENCE
    from measurelab.measures.base import registry

    level = cmp.level if cmp.level is not None else 0.95
    out: dict[str, float] = {}
    form = INFLUENCE.single
    assert form is not None and form.compute is not None
    for name in ("cal_slope", "cal_intercept"):
        m = registry.get(name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = float(m.formula(table))
            cases = None if w is None else (np.searchsorted(table.scores, s),
                                            y.astype(bool), w)
            iv = form.compute(name, value, level, table=table, measure=m, cases=cases)
        out.update({name: value, f"{name}_lo": float(iv.lo), f"{name}_hi": float(iv.hi)})
    return out


def _fmt(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:.3f}"


def panel_text(cmp: Any, row: Any) -> str:
    """The numbers written on a model's panel."""
    level = cmp.level if cmp.level is not None else 0.95
    lines = []
    if "brier_mcb" in row and isinstance(row.get("brier_mcb"), float):
        lines.append(f"brier_mcb {_fmt(row['brier_mcb'])} ({level:.0%} CI "
                     f"{_fmt(row['lo'])} to {_fmt(row['hi'])})")
    for key, label in (("cal_slope", "slope"), ("cal_intercept", "intercept")):
        if isinstance(row.get(key), float):
            lines.append(f"{label} {_fmt(row[key])} ({level:.0%} CI {_fmt(row[key + '_lo'])} "
                         f"to {_fmt(row[key + '_hi'])})")
    lines.append(f"smECE {_fmt(row['smece'])}, ICI {_fmt(row['ici'])} (no interval)")
    if "verdict" in row and isinstance(row.get("verdict"), str):
        lines.append(f"calibration test: {row['verdict']}".replace(
            "consistent with calibrated", "consistent"))
    return "\n".join(lines)


def calibration_ranges(cmp: Any) -> Any:
    """Where each model's reliability curve leaves its consistency band: one row per
    range of predictions, ``model, from, to, observed`` ('below predicted': the model
    predicts too high there; 'above predicted': too low), ``largest_gap`` (the curve's
    largest distance outside the band) and ``cases`` (the cases predicted in the range).

    Examples
    --------
    >>> from measurelab import compare_classifiers
    >>> y = [0, 1, 0] * 60    # predicted 0.8 and 0.9, observed 0 and 0.5: too high
    >>> r = compare_classifiers(y, {"m": [0.8, 0.9, 0.9] * 60}, ci=None, n_boot=200)
    >>> t = calibration_ranges(r)
    >>> t[["model", "observed"]].values.tolist()
    [['m', 'below predicted']]
    """
    import pandas as pd

    _, ss, _, _ = _binary_view(cmp)
    w = _weight(cmp)
    rows = []
    for name, s in zip(cmp.names, ss, strict=True):
        rd = diagrams(cmp)[name]
        x, cep, lo, hi = (rd[c].to_numpy() for c in ("x", "cep", "lo", "hi"))
        side = np.where(cep < lo, -1, np.where(cep > hi, 1, 0))
        i = 0
        while i < side.size:
            if side[i] == 0:
                i += 1
                continue
            j = i
            while j + 1 < side.size and side[j + 1] == side[i]:
                j += 1
            a, b = float(x[i]), float(x[j])
            gap = (lo[i:j + 1] - cep[i:j + 1]) if side[i] < 0 else (cep[i:j + 1] - hi[i:j + 1])
            inside = (s >= a) & (s <= b)
            cases = float(inside.sum() if w is None else w[inside].sum())
            rows.append({"model": name, "from": a, "to": b,
                         "observed": "below predicted" if side[i] < 0 else "above predicted",
                         "largest_gap": float(np.max(gap)), "cases": cases})
            i = j + 1
    return pd.DataFrame(rows, columns=["model", "from", "to", "observed", "largest_gap",
                                       "cases"])


def ranges_shown(t: Any) -> Any:
    """The calibration ranges as a reader reads them: the ends of a range and the largest
    gap are probabilities, to three decimals ('0.000', not '6.39e-10'), and the cases a
    count.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"model": ["m"], "from": [6.39e-10], "to": [0.1234],
    ...                   "observed": ["below predicted"], "largest_gap": [0.0456],
    ...                   "cases": [1200.0]})
    >>> ranges_shown(t).iloc[0].tolist()
    ['m', '0.000', '0.123', 'below predicted', '0.046', '1,200']
    """
    out = t.copy()
    for c in ("from", "to", "largest_gap"):
        out[c] = [f"{v:.3f}" for v in t[c]]
    out["cases"] = [f"{v:,.0f}" if float(v).is_integer() else f"{v:,.1f}" for v in t["cases"]]
    return out


def figure(cmp: Any) -> Any:
    """The figure: one panel per model (up to four in a row), each with its curve, band,
    diagonal, numbers and the histogram of its predictions beneath."""
    plt = _fig.pyplot()
    level = cmp.level if cmp.level is not None else 0.95
    k = len(cmp.names)
    cols = min(k, 4)
    rows = math.ceil(k / cols)
    fig = plt.figure(figsize=(3.9 * cols, 4.6 * rows))
    gs = fig.add_gridspec(2 * rows, cols, height_ratios=[4, 1] * rows, hspace=0.08,
                          wspace=0.25)
    _, ss, xlabel, ylabel = _binary_view(cmp)
    nums = numbers(cmp).set_index("model")
    w = _weight(cmp)
    for a, name in enumerate(cmp.names):
        r, c = divmod(a, cols)
        ax = fig.add_subplot(gs[2 * r, c])
        hx = fig.add_subplot(gs[2 * r + 1, c], sharex=ax)
        rd = diagrams(cmp)[name]
        colour = _fig.colour(a)
        ax.fill_between(rd["x"], rd["lo"], rd["hi"], color="0.8", lw=0,
                        label=f"{level:.0%} band of a calibrated model")
        ax.plot([0, 1], [0, 1], ls="--", color="0.35", lw=1, label="calibrated")
        ax.plot(rd["x"], rd["cep"], color=colour, lw=2.2, label=_fig.literal(name))
        ax.set(xlim=(0, 1), ylim=(0, 1), title=_fig.literal(name))
        ax.tick_params(labelbottom=False)
        if c == 0:
            ax.set_ylabel(ylabel)
        row = nums.loc[name].to_dict()
        ax.text(0.03, 0.97, panel_text(cmp, row), transform=ax.transAxes, va="top",
                ha="left", fontsize=7, family="monospace",
                bbox={"boxstyle": "round,pad=0.3", "fc": "white", "ec": "0.7", "alpha": 0.9})
        if a == 0:
            ax.legend(loc="lower right", fontsize=6.5, framealpha=0.9)
        hx.hist(ss[a], bins=25, range=(0, 1), weights=w, color=colour, alpha=0.75,
                edgecolor="white", lw=0.4)
        hx.set_xlabel(xlabel)
        hx.set_yticks([])
        hx.set_ylabel("cases", fontsize=8)
    fig.suptitle(f"Calibration: {len(cmp.names)} model{'s' if k != 1 else ''}, "
                 f"{level:.0%} consistency bands (grey); a curve outside its band is "
                 "miscalibrated there", fontsize=9)
    return fig
