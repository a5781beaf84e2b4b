"""Figures and the HTML page of a classifier comparison (:mod:`measurelab.inference.classifiers`):
ROC and precision–recall curves with bootstrap bands, the reliability diagram, and one
self-contained page of the tables and figures.

Examples
--------
>>> from measurelab.stats.scoretable import ScoreTable
>>> [x.tolist() for x in _roc_points(ScoreTable.from_arrays([0, 1], [0.2, 0.7]))]
[[0.0, 0.0, 1.0], [0.0, 1.0, 1.0]]
"""

from __future__ import annotations

import base64
import io
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from measurelab.inference import _figures as _fig
from measurelab.inference import intervals as iv
from measurelab.stats.scoretable import ScoreTable


def curve_bands(cmp: Any, n_boot: int | None = None, grid: int = 101) -> dict[str, Any]:
    """:meth:`ClassifierComparison.curve_bands` of ``cmp``."""

    level = cmp.level if cmp.level is not None else 0.95
    nb = min(cmp.n_boot, 200) if n_boot is None else n_boot
    x = np.linspace(0.0, 1.0, grid)
    roc_reps = np.full((nb, len(cmp.names), grid), np.nan)
    pr_reps = np.full((nb, len(cmp.names), grid), np.nan)
    nb = iv.check_n_boot(nb, "n_boot")
    rng = np.random.default_rng(cmp.random_state)
    thr = [(cmp.threshold, cmp._inclusive)] * len(cmp.names)
    with iv.progress_bar(nb, cmp._progress, "curve bands") as bar, \
            np.errstate(invalid="ignore", divide="ignore"):
        for b0 in range(0, nb, 50):
            mult = cmp._design.draw(rng, min(50, nb - b0))
            for a, bs in enumerate(cmp._design.blocks(mult, thr)):
                for i in range(mult.shape[0]):
                    t = bs.table.table(i)
                    if t.n_pos == 0 or t.n_neg == 0:  # a class not drawn: no curve
                        continue
                    roc_reps[b0 + i, a] = np.interp(x, *_roc_points(t))
                    pr_reps[b0 + i, a] = np.interp(x, *_pr_points(t))
            bar.update(mult.shape[0])
    q = [(1 - level) / 2, 1 - (1 - level) / 2]
    out: dict[str, Any] = {"grid": x, "roc": {}, "pr": {}}
    for a, (n, t) in enumerate(zip(cmp.names, cmp._design.tables, strict=True)):
        for key, reps, pts in (("roc", roc_reps, _roc_points(t)),
                               ("pr", pr_reps, _pr_points(t))):
            with warnings.catch_warnings():  # a grid point no replicate reaches
                warnings.simplefilter("ignore", RuntimeWarning)
                lo, hi = np.nanquantile(reps[:, a], q, axis=0)
            out[key][n] = {"x": pts[0], "y": pts[1], "lo": lo, "hi": hi}
    return out


def plot(cmp: Any, *, n_boot: int | None = None) -> Any:
    """:meth:`ClassifierComparison.plot` of ``cmp``."""

    plt = _fig.pyplot()
    bands = cmp.curve_bands(n_boot)
    probs = all(0.0 <= s.min() and s.max() <= 1.0 for s in cmp._scores)
    fig, axes = plt.subplots(1, 3 if probs else 2, figsize=(13 if probs else 9, 4.2))
    x = bands["grid"]
    for i, n in enumerate(cmp.names):
        for ax, key in ((axes[0], "roc"), (axes[1], "pr")):
            c = bands[key][n]
            ax.plot(c["x"], c["y"], label=_fig.literal(n), lw=1.4, color=_fig.colour(i))
            ax.fill_between(x, c["lo"], c["hi"], color=_fig.colour(i), alpha=0.2, lw=0)
    axes[0].plot([0, 1], [0, 1], ls=":", color="grey", lw=0.8)
    axes[0].set(xlabel="false positive rate", ylabel="true positive rate", title="ROC")
    axes[1].set(xlabel="recall", ylabel="precision", title="precision–recall")
    if probs:
        ax = axes[2]
        ax.plot([0, 1], [0, 1], ls=":", color="grey", lw=0.8)
        level = cmp.level if cmp.level is not None else 0.95
        for i, (n, t) in enumerate(zip(cmp.names, cmp._design.tables, strict=True)):
            mean_s, frac, lo, hi = reliability(t, level=level)
            ok = ~np.isnan(frac)
            ax.errorbar(mean_s[ok], frac[ok], yerr=[frac[ok] - lo[ok], hi[ok] - frac[ok]],
                        marker="o", ms=3, capsize=2, lw=1, label=_fig.literal(n),
                        color=_fig.colour(i))
        ax.set(xlabel="mean predicted probability", ylabel="fraction positive",
               title="reliability", xlim=(0, 1), ylim=(0, 1))
    for ax in axes:
        ax.legend(fontsize=8, loc="lower right" if ax is axes[0] else "best")
    pct = round(100 * (cmp.level if cmp.level is not None else 0.95))
    fig.suptitle(f"{len(cmp.names)} model(s), {cmp._y.size} cases; bands and bars: "
                 f"{pct}% intervals", fontsize=9)
    fig.tight_layout()
    return fig


def _png(fig: Any) -> str:
    """A figure as base64 PNG text (the figure is closed)."""
    plt = _fig.pyplot()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def describe(cmp: Any) -> str:
    """One sentence on what was compared: models, cases, classes and the decision rule.

    Examples
    --------
    >>> from measurelab import compare_classifiers
    >>> describe(compare_classifiers([0, 1, 2, 1], {"m": [0, 1, 2, 2]}, ci=None))
    '1 model(s) on 4 cases in 3 classes (0: 1, 1: 2, 2: 1); the predicted class is the arg-max.'
    """
    d = cmp._design
    if hasattr(d, "labels"):  # k classes
        counts = np.bincount(d.yi, minlength=d.k)
        per = ", ".join(f"{lab}: {int(c)}" for lab, c in zip(d.labels, counts, strict=True))
        return (f"{len(cmp.names)} model(s) on {d.n} cases in {d.k} classes ({per}); the "
                "predicted class is the arg-max.")
    return (f"{len(cmp.names)} model(s) on {cmp._y.size} cases ({int(cmp._y.sum())} "
            f"positive); threshold {cmp.threshold:g}.")


def to_html(cmp: Any, path: str | Path, *, title: str = "Comparing classifiers") -> Path:
    """:meth:`ClassifierComparison.to_html` of ``cmp``: the figures first (interval forest
    plot, curves, confusion matrices), then the tables."""

    figures = []
    if cmp.level is not None:
        figures.append(("Values and differences with their intervals",
                        "forest plot of every measure's interval per model and per pair",
                        _png(cmp.plot_intervals())))
    multi = hasattr(cmp._design, "labels")
    figures.append(("One-vs-rest ROC and precision–recall curves per class" if multi else
                    "Curves and reliability",
                    "ROC and precision-recall curves with bands" if multi else
                    "ROC, PR and reliability", _png(cmp.plot())))
    figures.append(("Confusion matrices", "a confusion matrix heat map per model",
                    _png(cmp.plot_confusion())))
    fmt = {"float_format": lambda v: f"{v:.4g}", "border": 0, "na_rep": "—"}
    parts = [f"<h1>{_esc(title)}</h1>", f"<p>{_esc(describe(cmp))}</p>"]
    for head, alt, png in figures:
        parts += [f"<h2>{_esc(head)}</h2>",
                  f'<img alt="{_esc(alt)}" src="data:image/png;base64,{png}">']
    parts += ["<h2>Values</h2>", cmp.values().to_html(**fmt)]
    if cmp.level is not None:
        parts += [f"<h2>Intervals ({round(100 * cmp.level)}%)</h2>",
                  cmp.intervals().to_html(index=False, **fmt)]
        if len(cmp.names) > 1:
            parts += ["<h2>Paired tests (Holm-adjusted over all rows)</h2>",
                      cmp.tests().to_html(index=False, **fmt)]
    if len(cmp.names) > 1:
        parts += ["<h2>Which model each measure prefers</h2>",
                  cmp.preferences().to_html(index=False, **fmt)]
        if not multi:
            parts += ["<h2>Likelihood verdicts and DP bands (Sokolova 2006)</h2>",
                      cmp.verdicts().to_html(index=False, **fmt)]
    html = ("<!DOCTYPE html><html><head><meta charset='utf-8'>"
            f"<title>{_esc(title)}</title><style>body{{font-family:sans-serif;"
            "max-width:1100px;margin:2em auto}table{border-collapse:collapse;"
            "font-size:13px}td,th{padding:2px 8px;text-align:right}"
            "tr:nth-child(even){background:#f4f4f4}img{max-width:100%}</style></head>"
            "<body>" + "\n".join(parts) + "</body></html>\n")
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(path)
    return path


def _esc(text: str) -> str:
    import html

    return html.escape(text)


def _roc_points(t: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """ROC vertices (fpr, tpr): :func:`measurelab.inference._figures.roc_points`."""
    return _fig.roc_points(t)


def _pr_points(t: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """PR vertices (recall, precision): :func:`measurelab.inference._figures.pr_points`."""
    return _fig.pr_points(t)


def reliability(table: ScoreTable, bins: int = 10, level: float = 0.95
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Reliability diagram from a score table: per equal-width bin the mean score, the
    fraction of positives and its Wilson interval (NaN for empty bins, or non-whole
    counts' intervals).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 1, 1, 0], [0.05, 0.15, 0.95, 0.91])
    >>> s, f, lo, hi = reliability(t, bins=2)
    >>> s.round(3).tolist(), f.tolist()
    ([0.1, 0.93], [0.5, 0.5])
    """
    b = np.minimum((table.scores * bins).astype(np.int64), bins - 1)
    w = table.pos + table.neg
    tot = np.bincount(b, weights=w, minlength=bins)
    pos = np.bincount(b, weights=table.pos, minlength=bins)
    ssum = np.bincount(b, weights=w * table.scores, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_s, frac = ssum / tot, pos / tot
    lo = np.full(bins, np.nan)
    hi = np.full(bins, np.nan)
    for i in range(bins):
        if tot[i] > 0 and tot[i] == round(tot[i]) and pos[i] == round(pos[i]):
            lo[i], hi[i] = iv.proportion_interval(pos[i], tot[i], level)
    return mean_s, frac, lo, hi
