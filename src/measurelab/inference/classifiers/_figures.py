"""Figures of a classifier comparison that do not depend on the number of classes (the
interval forest plot, a confusion matrix heat map per model) and the k-class curves
(one-vs-rest ROC and precision–recall per class, with bootstrap bands).

Every name a figure shows is drawn literally, in the colour-blind safe palette
(:mod:`measurelab.inference._figures`).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from measurelab._util.figures import pyplot
from measurelab._util.words import counted
from measurelab.curves.points import precision_recall_curve, roc_curve
from measurelab.inference import bootstrap as bt
from measurelab.inference import intervals as iv
from measurelab.inference._figures import colour, literal
from measurelab.measures.compute import row_names
from measurelab.stats.scoretable import ScoreTable


# ------------------------------------------------------------------ forest plot
def forest_plot(cmp: Any, measures: Any = None) -> Any:
    """:meth:`ClassifierComparison.plot_intervals` of ``cmp``: a row per measure; left,
    each model's value with its interval; right, each pair's difference with its interval
    beside zero (filled marker: significant after Holm's adjustment). Under each axis, the
    side that is better (:func:`better_side`)."""
    level = cmp._need_level()
    ivs = cmp.intervals()
    tests = cmp.tests() if len(cmp.names) > 1 else None
    rows = list(cmp._names_m) if measures is None else row_names(measures)
    unknown = [m for m in rows if m not in cmp._names_m]
    if not rows:
        from measurelab.exceptions import MeasurelabError

        raise MeasurelabError(f"measures is empty; give at least one row to draw (rows: "
                              f"{', '.join(cmp._names_m)}), or None for every row")
    if unknown:
        from measurelab.exceptions import MeasurelabError

        raise MeasurelabError(f"measures: {unknown[0]!r} is not a row of this comparison "
                              f"(rows: {', '.join(cmp._names_m)})")
    plt = pyplot()
    n_models = len(cmp.names)
    pairs = [] if tests is None else list(dict.fromkeys(zip(tests["a"], tests["b"],
                                                            strict=True)))
    per_row = max(n_models, len(pairs), 1)
    height = max(2.2, len(rows) * (0.28 * per_row + 0.45) + 0.9)
    ncols = 2 if pairs else 1
    fig, axes = plt.subplots(len(rows), ncols, figsize=(10 if pairs else 6, height),
                             squeeze=False)
    alpha = 1.0 - level
    for r, name in enumerate(rows):
        ax = axes[r, 0]
        sub = ivs[ivs["measure"] == name]
        for i, (_, row) in enumerate(sub.iterrows()):
            y = n_models - 1 - i
            lo, hi, v = float(row["lo"]), float(row["hi"]), float(row["value"])
            _bar(ax, y, v, lo, hi, colour(i), filled=True)
        ax.set_yticks(range(n_models))
        ax.set_yticklabels([literal(n) for n in cmp.names[::-1]], fontsize=8)
        ax.set_ylim(-0.7, n_models - 0.3)
        ax.set_ylabel(literal(name), rotation=0, ha="right", va="center", fontsize=9,
                      fontweight="bold", labelpad=12)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", lw=0.4, alpha=0.5)
        m = cmp._measures[cmp._names_m.index(name)]
        values_side, pairs_side = better_side(m)
        ax.set_xlabel(values_side, fontsize=7, color="#555555", labelpad=1)
        if pairs and tests is not None:  # (pairs come from tests)
            ax = axes[r, 1]
            sub_t = tests[tests["measure"] == name]
            for i, (_, row) in enumerate(sub_t.iterrows()):
                y = len(pairs) - 1 - i
                sig = bool(row["p_holm"] < alpha)
                _bar(ax, y, float(row["diff"]), float(row["lo"]), float(row["hi"]),
                     "#333333", filled=sig)
            ax.axvline(0.0, color="grey", lw=0.8, ls=":")
            ax.set_yticks(range(len(pairs)))
            ax.set_yticklabels([f"{literal(a)} − {literal(b)}" for a, b in pairs[::-1]],
                               fontsize=8)
            ax.set_ylim(-0.7, len(pairs) - 0.3)
            ax.tick_params(axis="x", labelsize=8)
            ax.grid(axis="x", lw=0.4, alpha=0.5)
            ax.set_xlabel(pairs_side, fontsize=7, color="#555555", labelpad=1)
    pct = round(100 * level)
    axes[0, 0].set_title(f"value and {pct}% interval", fontsize=9)
    if pairs:
        axes[0, 1].set_title(f"difference a − b, {pct}% interval (filled: p_holm < "
                             f"{alpha:.2g})", fontsize=9)
    fig.tight_layout()
    return fig


def better_side(m: Any) -> tuple[str, str]:
    """What the forest plot writes under a measure's value axis and its difference axis:
    which side is better (a measure with a target value: nearer to it; its pair rows are
    differences of distances, so the smaller side is a's).

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> better_side(registry.get("auc"))
    ('higher is better →', 'a better →')
    >>> better_side(registry.get("brier"))
    ('← lower is better', '← a better')
    >>> better_side(registry.get("spiegelhalter_z"))
    ('closer to 0 is better', '← a closer to 0')
    """
    if m.target is not None:
        return f"closer to {m.target:g} is better", f"← a closer to {m.target:g}"
    if m.favours_first(1.0):
        return "higher is better →", "a better →"
    return "← lower is better", "← a better"


def _bar(ax: Any, y: float, v: float, lo: float, hi: float, col: str, *,
         filled: bool) -> None:
    """One point with its interval; an infinite or undefined end is drawn as an arrow to
    the axis edge (nothing when the value itself is undefined)."""
    if math.isnan(v):
        ax.plot([], [])
        return
    ends = [x for x in (lo, hi) if math.isfinite(x)]
    if ends:
        ax.hlines(y, min([*ends, v]), max([*ends, v]), color=col, lw=1.6)
    for end, side in ((lo, "<"), (hi, ">")):
        if not math.isfinite(end):  # ±inf or undefined: the interval is open that way
            ax.plot([v], [y], marker=side, color=col, ms=6, ls="none")
    ax.plot([v], [y], marker="o", ms=6, ls="none", color=col,
            markerfacecolor=col if filled else "white", markeredgewidth=1.4)


# ------------------------------------------------------------- confusion matrices
def confusion_matrices(cmp: Any) -> tuple[list[Any], dict[str, np.ndarray]]:
    """Class labels and each model's confusion matrix (rows: true class, columns:
    predicted; weighted counts); binary input at the comparison's threshold."""
    if hasattr(cmp, "_design") and hasattr(cmp._design, "labels"):  # k classes
        d = cmp._design
        mats = {}
        for a, n in enumerate(cmp.names):
            pred = np.argmax(d.P[a], axis=1)
            w = np.ones(d.n) if d.weight is None else d.weight
            mats[n] = np.bincount(d.yi * d.k + pred, weights=w,
                                  minlength=d.k * d.k).reshape(d.k, d.k)
        return list(d.labels), mats
    mats = {}
    for n, st in zip(cmp.names, cmp._stats, strict=True):
        c = st.counts
        mats[n] = np.array([[c.tn, c.fp], [c.fn, c.tp]], dtype=np.float64)
    return ["negative", "positive"], mats


def confusion_plot(cmp: Any) -> Any:
    """:meth:`ClassifierComparison.plot_confusion` of ``cmp``: one heat map per model,
    coloured by the share of each true class (rows sum to 1), counts written in."""
    labels, mats = confusion_matrices(cmp)
    plt = pyplot()
    k = len(labels)
    m = len(mats)
    cols = min(m, 3)
    nrows = math.ceil(m / cols)
    side = max(2.8, 0.55 * k + 1.6)
    fig, axes = plt.subplots(nrows, cols, figsize=(side * cols, side * nrows + 0.3),
                             squeeze=False, layout="constrained")
    for ax in axes.flat[m:]:
        ax.set_axis_off()
    shown = [literal(x) for x in labels]
    for ax, (name, mat) in zip(axes.flat, mats.items(), strict=False):
        with np.errstate(invalid="ignore", divide="ignore"):
            share = mat / mat.sum(axis=1, keepdims=True)
        ax.imshow(np.nan_to_num(share), cmap="Blues", vmin=0.0, vmax=1.0)
        whole = bool(np.all(mat == np.round(mat)))
        for i in range(k):
            for j in range(k):
                text = f"{int(mat[i, j])}" if whole else f"{mat[i, j]:.3g}"
                dark = np.nan_to_num(share[i, j]) > 0.55
                ax.text(j, i, text, ha="center", va="center", fontsize=8,
                        color="white" if dark else "black")
        ax.set_xticks(range(k))
        ax.set_yticks(range(k))
        ax.set_xticklabels(shown, fontsize=8, rotation=45 if k > 4 else 0)
        ax.set_yticklabels(shown, fontsize=8)
        ax.set_xlabel("predicted", fontsize=8)
        ax.set_ylabel("true", fontsize=8)
        acc = float(np.trace(mat) / mat.sum()) if mat.sum() > 0 else math.nan
        ax.set_title(f"{literal(name)} (accuracy {acc:.3f})", fontsize=9)
    return fig


# ------------------------------------------------------------ k-class curves
def roc_points(t: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """ROC vertices (fpr, tpr) of a score table (ties: a diagonal)."""
    fpr, tpr, _ = roc_curve(t)
    return fpr, tpr


def pr_points(t: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """PR vertices (recall, precision) by increasing recall, starting at recall 0 with
    the precision of the top group.

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 1, 1, 0], [0.9, 0.8, 0.4, 0.1])
    >>> [x.round(4).tolist() for x in pr_points(t)]
    [[0.0, 0.0, 0.5, 1.0, 1.0], [0.0, 0.0, 0.5, 0.6667, 0.5]]
    """
    precision, recall, _ = precision_recall_curve(t)
    precision = precision[::-1].copy()
    precision[0] = precision[1]
    return recall[::-1], precision


def pr_envelope(t: ScoreTable, x: np.ndarray) -> np.ndarray:
    """The interpolated precision of a table at the recalls ``x``: the largest precision
    at that recall or more (what the macro precision–recall curve averages).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 1, 1, 0], [0.9, 0.8, 0.4, 0.1])
    >>> pr_envelope(t, np.array([0.0, 0.5, 0.75, 1.0])).round(4).tolist()
    [0.6667, 0.6667, 0.6667, 0.6667]
    """
    recall, precision = pr_points(t)
    best = np.maximum.accumulate(precision[::-1])[::-1]
    j = np.searchsorted(recall, x, side="left")
    return np.where(j < recall.size, best[np.minimum(j, recall.size - 1)], np.nan)


def multi_curve_bands(cmp: Any, n_boot: int | None = None, grid: int = 101
                      ) -> dict[str, Any]:
    """One-vs-rest ROC and PR curves of every class and model, and their micro and macro
    averages (``out["averages"][kind][model]["micro" | "macro"]``, the curves of
    :func:`measurelab.curves.roc_curve` of k-class scores), with pointwise percentile
    bands from ``min(n_boot, 200)`` replicates of the comparison's own bootstrap design
    (the same case multiplicities for every model, class and average; a replicate's macro
    band value is the mean over the classes it holds of their ROC curves, or of their
    interpolated precisions, at the grid point)."""
    d = cmp._design
    level = cmp.level if cmp.level is not None else 0.95
    n_models = len(cmp.names)
    nb, grid = check_band_size(cmp, n_boot, grid, n_models * (d.k + 2))
    x = np.linspace(0.0, 1.0, grid)
    roc = np.full((nb, n_models, d.k, grid), np.nan)
    pr = np.full((nb, n_models, d.k, grid), np.nan)
    env = np.full((nb, n_models, d.k, grid), np.nan)   # interpolated precision (macro)
    micro = np.full((2, nb, n_models, grid), np.nan)    # ROC, PR of the pooled pairs
    rng = np.random.default_rng(cmp.random_state)
    with iv.progress_bar(nb, cmp._progress, "curve bands") as bar, \
            np.errstate(invalid="ignore", divide="ignore"):
        for b0 in range(0, nb, 50):
            mult = d.draw(rng, min(50, nb - b0))
            for a in range(n_models):
                blk = d.block(a, mult)
                for c in [*range(d.k), -1]:   # -1: the micro table
                    tb = blk.micro_table_block() if c < 0 else blk.ovr_table_block(c)
                    for i in range(mult.shape[0]):
                        t = tb.table(i)
                        if t.n_pos == 0 or t.n_neg == 0:  # a class not drawn: no curve
                            continue
                        if c < 0:
                            micro[0, b0 + i, a] = np.interp(x, *roc_points(t))
                            micro[1, b0 + i, a] = np.interp(x, *pr_points(t))
                            continue
                        roc[b0 + i, a, c] = np.interp(x, *roc_points(t))
                        pr[b0 + i, a, c] = np.interp(x, *pr_points(t))
                        env[b0 + i, a, c] = pr_envelope(t, x)
            bar.update(mult.shape[0])
    q = [(1 - level) / 2, 1 - (1 - level) / 2]

    def band(reps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with warnings.catch_warnings():  # a grid point no replicate reaches
            warnings.simplefilter("ignore", RuntimeWarning)
            lo, hi = np.nanquantile(reps, q, axis=0)
        return lo, hi

    ident = np.ones((1, d.n))
    out: dict[str, Any] = {"grid": x, "classes": list(d.labels), "roc": {}, "pr": {},
                           "averages": {"roc": {}, "pr": {}}, "replicates": nb}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # a replicate without any class
        macro = {"roc": np.nanmean(roc, axis=2), "pr": np.nanmean(env, axis=2)}
    for a, name in enumerate(cmp.names):
        blk = d.block(a, ident)
        out["roc"][name], out["pr"][name] = {}, {}
        for c, lab in enumerate(d.labels):
            t = blk.ovr_table_block(c).table(0)
            for key, reps, pts in (("roc", roc, roc_points), ("pr", pr, pr_points)):
                lo, hi = band(reps[:, a, c])
                px, py = pts(t) if t.n_pos > 0 and t.n_neg > 0 else (x * np.nan, x * np.nan)
                out[key][name][lab] = {"x": px, "y": py, "lo": lo, "hi": hi}
        whole = _averages(d, a)
        for j, key in enumerate(("roc", "pr")):
            out["averages"][key][name] = {}
            for avg, reps in (("micro", micro[j, :, a]), ("macro", macro[key][:, a])):
                lo, hi = band(reps)
                px, py = whole[key][avg]
                out["averages"][key][name][avg] = {"x": px, "y": py, "lo": lo, "hi": hi}
    return out


def _averages(d: Any, a: int) -> dict[str, dict[str, tuple[np.ndarray, np.ndarray]]]:
    """Model ``a``'s micro and macro ROC (fpr, tpr) and precision–recall (recall,
    precision; recall increasing) curves on all the cases: those of
    :func:`~measurelab.curves.roc_curve` and :func:`~measurelab.curves.
    precision_recall_curve` of its k-class scores."""
    labels = list(range(d.k))
    with warnings.catch_warnings():   # a class without cases: the averages leave it out
        warnings.simplefilter("ignore")
        roc = roc_curve(d.yi, d.P[a], labels=labels, sample_weight=d.weight)
        pr = precision_recall_curve(d.yi, d.P[a], labels=labels, sample_weight=d.weight)
    return {"roc": {avg: (getattr(roc, avg).fpr, getattr(roc, avg).tpr)
                    for avg in ("micro", "macro")},
            "pr": {avg: (getattr(pr, avg).recall[::-1], getattr(pr, avg).precision[::-1])
                   for avg in ("micro", "macro")}}


#: the most grid points of a curve band, and the most numbers one band array may hold
#: (replicates × curves × grid points: 400 MB of float64)
MAX_GRID = 100_000
MAX_BAND_CELLS = 50_000_000


def check_band_size(cmp: Any, n_boot: Any, grid: Any, curves: int) -> tuple[int, int]:
    """The replicates (``min(n_boot, 200)`` of the comparison by default) and grid points
    of curve bands over ``curves`` curves, checked before anything is allocated: integers,
    at least 1 replicate and 2 points, and a band array of at most :data:`MAX_BAND_CELLS`.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> check_band_size(SimpleNamespace(n_boot=2000), None, 101, 3)
    (200, 101)
    """
    from measurelab._util.validation import check_int
    from measurelab.exceptions import MeasurelabError

    nb = bt.check_n_boot(min(cmp.n_boot, 200) if n_boot is None else n_boot, "n_boot")
    grid = check_int(grid, "grid", minimum=2, maximum=MAX_GRID)
    if nb * grid * curves > MAX_BAND_CELLS:
        raise MeasurelabError(
            f"n_boot={nb} replicates × grid={grid} points × {counted(curves, 'curve')} is "
            f"more than {MAX_BAND_CELLS:,} band values; lower n_boot or grid")
    return nb, grid


def multi_plot(cmp: Any, *, n_boot: int | None = None) -> Any:
    """:meth:`MultiClassComparison.plot` of ``cmp``: one column per class, one-vs-rest
    ROC (top) and precision–recall (bottom), then a column each for the micro and the
    macro average; every model with its band."""
    bands = multi_curve_bands(cmp, n_boot)
    plt = pyplot()
    classes = bands["classes"]
    k = len(classes)
    cols: list[tuple[Any, str, dict[str, Any] | None]] = [
        (lab, f"class {literal(lab)} vs rest", bands) for lab in classes]
    cols += [(avg, f"{avg} average", None) for avg in ("micro", "macro")]
    fig, axes = plt.subplots(2, k + 2, figsize=(max(8.0, 3.0 * (k + 2)), 6.2),
                             squeeze=False)
    x = bands["grid"]
    for c, (lab, title, per_class) in enumerate(cols):
        for row, key in ((0, "roc"), (1, "pr")):
            ax = axes[row, c]
            for a, name in enumerate(cmp.names):
                cur = (bands[key][name][lab] if per_class is not None
                       else bands["averages"][key][name][lab])
                ax.plot(cur["x"], cur["y"], lw=1.3, color=colour(a), label=literal(name),
                        ls="-" if per_class is not None else "--", gid=f"{key}:{lab}:{name}")
                ax.fill_between(x, cur["lo"], cur["hi"], color=colour(a), alpha=0.18, lw=0,
                                gid=f"band:{key}:{lab}:{name}")
            ax.set(xlim=(0, 1), ylim=(0, 1.02))
            ax.tick_params(labelsize=7)
        axes[0, c].plot([0, 1], [0, 1], ls=":", color="grey", lw=0.8)
        axes[0, c].set_title(title, fontsize=9)
        axes[0, c].set_xlabel("false positive rate", fontsize=8)
        axes[1, c].set_xlabel("recall", fontsize=8)
    axes[0, 0].set_ylabel("true positive rate (ROC)", fontsize=8)
    axes[1, 0].set_ylabel("precision (PR)", fontsize=8)
    axes[0, 0].legend(fontsize=7, loc="lower right")
    pct = round(100 * (cmp.level if cmp.level is not None else 0.95))
    fig.suptitle(f"{counted(len(cmp.names), 'model')}, {counted(cmp._design.n, 'case')}, "
                 f"{k} classes; bands: {pct}% pointwise intervals over "
                 f"{bands['replicates']} replicates (the averages' from the same replicates)",
                 fontsize=9)
    fig.tight_layout()
    return fig
