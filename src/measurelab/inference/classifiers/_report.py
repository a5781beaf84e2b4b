"""The report of a classifier comparison (:mod:`measurelab.inference.classifiers.binary` holds the
statistics): ROC and precision–recall curves with bootstrap bands, the reliability diagram,
the summary in words, the JSON form, the notebook display and one self-contained page of
the tables and figures (the forest plot and confusion matrices are :mod:`._figures`).

Examples
--------
Two models on 20 cases; the examples of the functions below use this ``r`` (run this
example first):

>>> from measurelab import compare_classifiers
>>> y = [0, 1, 0, 1] * 5
>>> r = compare_classifiers(y, {"a": [.1, .9, .6, .8] * 5, "b": [.3, .6, .4, .4] * 5},
...                         measures=["acc", "auc", "lift@0.1"], n_boot=100)
>>> print(summary(r))
a and b: no significant difference on acc, auc and lift@0.1.
Best model per measure: a and b tie on acc (0.75) and lift@0.1 (2); a on auc (1). A lead not marked significant could be chance.
Read with care: the intervals of lift@0.1 have no coverage evidence for this setting (see the method column).
Calibration (test by consistency resampling): a miscalibrated (p = 0.009); b consistent with calibrated (p = 0.066).
"""  # noqa: E501

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from measurelab._util.words import counted
from measurelab.inference import intervals as iv
from measurelab.inference._base import check_title
from measurelab.inference._reprs import holm_p_text as _p
from measurelab.inference._reprs import in_clusters
from measurelab.inference._reprs import joined as _join
from measurelab.inference._reprs import signed_text as _signed
from measurelab.inference.calibration import AUTO_MIN_CASES
from measurelab.inference.classifiers import _figures as _fig
from measurelab.inference.classifiers import _operating as _op
from measurelab.jsonable import to_jsonable
from measurelab.stats.scoretable import ScoreTable


def curve_bands(cmp: Any, n_boot: int | None = None, grid: int = 101) -> dict[str, Any]:
    """:meth:`ClassifierComparison.curve_bands` of ``cmp`` (computed once per ``n_boot``
    and ``grid``: the page's figure and its operating-point table read the same)."""

    level = cmp.level if cmp.level is not None else 0.95
    nb, grid = _fig.check_band_size(cmp, n_boot, grid, len(cmp.names))
    key = ("curve_bands", nb, grid)
    if key not in cmp._cache:
        cmp._cache[key] = _bands(cmp, nb, grid, level)
    return cmp._cache[key]


def _bands(cmp: Any, nb: int, grid: int, level: float) -> dict[str, Any]:
    """The curve bands and, from the same replicates, each model's best-Youden operating
    point with its intervals (:mod:`._operating`)."""
    x = np.linspace(0.0, 1.0, grid)
    roc_reps = np.full((nb, len(cmp.names), grid), np.nan)
    pr_reps = np.full((nb, len(cmp.names), grid), np.nan)
    op_reps = np.full((nb, len(cmp.names), len(_op.QUANTITIES)), np.nan)
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
                    op_reps[b0 + i, a] = _op.replicate_point(t)
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
    points = np.array([_op.replicate_point(t) for t in cmp._design.tables])
    out["operating"] = _op.summarize(list(cmp.names), points, op_reps, level)
    _op.judge(cmp, out["operating"], level)
    return out


def plot(cmp: Any, *, n_boot: int | None = None, reliability: bool = True) -> Any:
    """:meth:`ClassifierComparison.plot` of ``cmp`` (``reliability=False``: without the
    reliability panel, which the page draws as a figure of its own, a panel per model)."""

    plt = _fig.pyplot()
    bands = cmp.curve_bands(n_boot)
    level = cmp.level if cmp.level is not None else 0.95
    probs = reliability and all(0.0 <= s.min() and s.max() <= 1.0 for s in cmp._scores)
    fig, axes = plt.subplots(1, 3 if probs else 2, figsize=(13 if probs else 9, 4.2))
    x = bands["grid"]
    for i, n in enumerate(cmp.names):
        for ax, key in ((axes[0], "roc"), (axes[1], "pr")):
            c = bands[key][n]
            ax.plot(c["x"], c["y"], label=_fig.literal(n), lw=1.4, color=_fig.colour(i))
            ax.fill_between(x, c["lo"], c["hi"], color=_fig.colour(i), alpha=0.2, lw=0)
    axes[0].plot([0, 1], [0, 1], ls=":", color="grey", lw=0.8)
    _op.draw(axes[0], bands["operating"], [_fig.colour(i) for i in range(len(cmp.names))],
             [_fig.literal(n) for n in cmp.names])
    axes[0].set(xlabel="false positive rate", ylabel="true positive rate", title="ROC")
    axes[1].set(xlabel="recall", ylabel="precision", title="precision–recall")
    # the CORP reliability diagram with consistency bands (docs/METHODS.md#reliability-diagram)
    if probs:
        from measurelab.curves.reliability import plot_reliability

        ax = axes[2]
        ax.set_prop_cycle(color=[_fig.colour(i) for i in range(len(cmp.names))])
        plot_reliability(cmp._y.astype(np.int8), dict(zip(cmp.names, cmp._scores,
                                                          strict=True)),
                         confidence_level=level, n_boot=min(cmp.n_boot, 500),
                         random_state=cmp.random_state, sample_weight=cmp._w, ax=ax)
        ax.set_title(f"reliability (CORP; {level:.0%} consistency bands)")  # the page's level
        ax.set_ylabel("observed frequency of positives")
        ax.set_xlabel("predicted probability")
    for ax in axes[:2]:
        ax.legend(fontsize=8, loc="lower right" if ax is axes[0] else "best")
    if probs:
        axes[2].legend(fontsize=8, loc="upper left")
    pct = round(100 * (cmp.level if cmp.level is not None else 0.95))
    fig.suptitle(f"{counted(len(cmp.names), 'model')}, {counted(cmp._y.size, 'case')}"
                 f"{in_clusters(cmp)}; curve bands: {pct}% intervals", fontsize=9)
    fig.tight_layout()
    return fig


def describe(cmp: Any) -> str:
    """One sentence on what was compared: models, cases, classes and the decision rule.

    Examples
    --------
    With ``r`` from the module example:

    >>> describe(r)
    '2 models on 20 cases (10 positive); threshold 0.5.'

    and of k classes:

    >>> describe(compare_classifiers([0, 1, 2, 1], {"m": [0, 1, 2, 2]}, ci=None))
    '1 model on 4 cases in 3 classes (0: 1, 1: 2, 2: 1); the predicted class is the arg-max.'
    """
    d = cmp._design
    if hasattr(d, "labels"):  # k classes
        counts = np.bincount(d.yi, minlength=d.k)
        per = ", ".join(f"{lab}: {int(c)}" for lab, c in zip(d.labels, counts, strict=True))
        return (f"{counted(len(cmp.names), 'model')} on {counted(d.n, 'case')} in {d.k} "
                f"classes ({per}); the predicted class is the arg-max.")
    return (f"{counted(len(cmp.names), 'model')} on {counted(cmp._y.size, 'case')}"
            f"{in_clusters(cmp)} ({int(cmp._y.sum()):,} positive); threshold "
            f"{cmp.threshold:g}.")


#: rows a comparison's first screen shows, when the comparison has them
HEADLINE_ROWS: tuple[str, ...] = ("auc", "ap", "apr", "brier", "mxe", "f1", "mcc", "acc")


#: a comparison with at most this many rows shows every row on its first screen
ALL_ROWS_UP_TO = 10


def headline(cmp: Any) -> list[str]:
    """The rows of the first screen: every row when the comparison reports at most
    :data:`ALL_ROWS_UP_TO` (the summary and the forest plot then cover every measure
    reported); else the headline measures it has (at most eight rows; per-class rows of a
    headline measure count as its rows), else its first eight rows."""
    if len(cmp._names_m) <= ALL_ROWS_UP_TO:
        return list(cmp._names_m)
    base = [r.split("[", 1)[0] for r in cmp._names_m]
    rows = [r for r, b in zip(cmp._names_m, base, strict=True) if b in HEADLINE_ROWS]
    return (rows or list(cmp._names_m))[:8]


def pair_sentences(cmp: Any, rows: list[str] | None = None) -> list[str]:
    """One sentence per pair of models: on which measures each is significantly better
    (Holm-adjusted p below 1 − ci; the difference shown as better − worse, with its
    interval) and on which there is no significant difference."""
    if cmp.level is None or len(cmp.names) < 2:
        return []
    rows = headline(cmp) if rows is None else rows
    alpha = 1.0 - cmp.level
    pct = round(100 * cmp.level)
    measure_of = dict(zip(cmp._names_m, cmp._measures, strict=True))
    tests = cmp.tests()
    tests = tests[tests["measure"].isin(rows)]
    out = []
    for (a, b), g in tests.groupby(["a", "b"], sort=False):
        better: dict[str, list[str]] = {a: [], b: []}
        none: list[str] = []
        for r in g.itertuples(index=False):
            if str(r.interval).startswith("no interval"):
                continue  # untested (withheld): neither better nor "no difference"
            if not (r.p_holm < alpha) or math.isnan(r.diff):
                none.append(str(r.measure))
                continue
            m = measure_of[r.measure]
            # the row's diff is a − b, or |a − t| − |b − t| for a target value
            winner = a if m.favours_first(r.diff) else b
            d, lo, hi = (r.diff, r.lo, r.hi) if winner == a else (-r.diff, -r.hi, -r.lo)
            what = "" if m.target is None else f"distance to {m.target:g} "
            better[winner].append(f"{r.measure} ({what}{_signed(d)}, {pct}% CI "
                                  f"{_signed(lo)} to {_signed(hi)}, {_p(r.p_holm)})")
        parts = []
        for w, lose in ((a, b), (b, a)):
            if better[w]:
                parts.append(f"{w} is better than {lose} on " + _join(better[w]))
        if none:
            parts.append(("no significant difference on " if parts else
                          f"{a} and {b}: no significant difference on ") + _join(none))
        out.append("; ".join(parts) + ".")
    return out


def untested_sentence(cmp: Any, rows: list[str] | None = None) -> str:
    """The measures reported that no pair test covers (withheld intervals), named so that
    the summary mentions every measure reported; '' when there are none.

    Examples
    --------
    With ``r`` from the module example:

    >>> untested_sentence(r)   # every measure has its pair test
    ''
    """
    if cmp.level is None or len(cmp.names) < 2:
        return ""
    rows = headline(cmp) if rows is None else rows
    t = cmp.tests()
    t = t[t["measure"].isin(rows)]
    withheld = t["interval"].astype(str).str.startswith("no interval")
    names = [m for m in dict.fromkeys(t.loc[withheld, "measure"].astype(str))
             if m not in set(t.loc[~withheld, "measure"].astype(str))]
    if not names:
        return ""
    return (f"Not tested between models (no interval; see the tests table's interval "
            f"column): {_join(names)}.")


def evidence_sentence(cmp: Any, rows: list[str] | None = None) -> str:
    """One plain sentence naming the measures behind the summary whose interval (of a
    model, or of a difference) has no coverage evidence in this setting, fell short of
    0.90 in the coverage study, or was withheld because it fell short in this regime (the
    method column says which and why); '' when every interval behind the summary is
    backed.

    Examples
    --------
    With ``r`` from the module example:

    >>> evidence_sentence(r)   # lift at another parameter than the one studied
    'Read with care: the intervals of lift@0.1 have no coverage evidence for this setting (see the method column).'
    """  # noqa: E501
    from measurelab.inference.evidence import plain_method
    from measurelab.inference.withholding import PREFIX

    if cmp.level is None:
        return ""
    rows = headline(cmp) if rows is None else rows
    texts = [(r["measure"], str(r["method"])) for r in cmp._interval_rows()]
    if len(cmp.names) > 1:
        texts += [(r["measure"], str(r["interval"])) for r in cmp._test_rows()]
    none: list[str] = []
    below: list[str] = []
    gone: list[str] = []
    for m, text in texts:
        if m not in rows:
            continue
        if text.startswith(PREFIX):
            gone.append(m)
            continue
        if text == plain_method(text):
            continue
        note = text[len(plain_method(text)):]
        (none if "no coverage evidence" in note else below).append(m)
    parts = []
    if gone:
        parts.append(f"intervals of {_join(list(dict.fromkeys(gone)))} were withheld: "
                     "their coverage study fell below 0.90 in this regime")
    if none:
        parts.append(f"the intervals of {_join(list(dict.fromkeys(none)))} have no coverage "
                     "evidence for this setting")
    if below:
        parts.append(f"those of {_join(list(dict.fromkeys(below)))} covered less than 0.90 "
                     "of the time in their coverage study")
    if not parts:
        return ""
    return "Read with care: " + "; ".join(parts) + " (see the method column)."


def best_sentence(cmp: Any, rows: list[str] | None = None) -> str:
    """The best model per headline measure, grouped by model, and where its lead is
    significant (Holm-adjusted p below 1 − ci against a model).

    Examples
    --------
    With ``r`` from the module example:

    >>> best_sentence(r)
    'Best model per measure: a and b tie on acc (0.75) and lift@0.1 (2); a on auc (1). A lead not marked significant could be chance.'
    """  # noqa: E501
    rows = headline(cmp) if rows is None else rows
    pref = cmp.preferences().set_index("measure")
    if len(cmp.names) == 1:
        return "Values: " + ", ".join(f"{m} {pref.loc[m, 'value']:.3g}" for m in rows) + "."
    groups: dict[str, list[str]] = {}
    unsure = False
    for m in rows:
        r = pref.loc[m]
        if not r["prefers"]:
            j = cmp._names_m.index(m)
            ms = cmp._measures[j]  # a tie of a target measure: equal distance to it
            top = [n for n, x in zip(cmp.names, cmp._vals[:, j], strict=True)
                   if ms.badness(x) == ms.badness(r["value"])]
            key = f"{_join(top)} tie" if top and not math.isnan(r["value"]) else "undefined"
            groups.setdefault(key, []).append(m if key == "undefined" else
                                              f"{m} ({r['value']:.3g})")
            continue
        beats = [x for x in str(r["beats"]).split(", ") if x]
        extra = f", significantly better than {_join(beats)}" if beats else ""
        unsure = unsure or (cmp.level is not None and not beats)
        groups.setdefault(f"{r['prefers']}", []).append(f"{m} ({r['value']:.3g}{extra})")
    parts = [f"{who} on {_join(items)}" for who, items in groups.items()]
    text = "Best model per measure: " + "; ".join(parts) + "."
    if unsure:
        text += " A lead not marked significant could be chance."
    return text


def figures(cmp: Any) -> list[tuple[str, str, str, Any]]:
    """The figures of a comparison's page, in order: (file stem, heading, alt text,
    matplotlib Figure)."""
    multi = hasattr(cmp._design, "labels")
    out = []
    if cmp.level is not None:
        out.append(("forest", "Values and differences with their intervals",
                    "forest plot: each headline measure's interval per model and per pair",
                    cmp.plot_intervals(headline(cmp))))
    out += getattr(cmp, "_page_figures", list)()  # subgroups: the per-group forest plot
    from measurelab.inference.classifiers import _calibration_figure as _cal

    out.append(("curves",
                "One-vs-rest ROC and precision–recall curves per class" if multi else
                "ROC and precision–recall curves",
                "ROC and precision-recall curves with bootstrap bands",
                cmp.plot() if multi else plot(cmp, reliability=False)))
    from measurelab.inference.classifiers import net_benefit as _decision

    if _cal.applies(cmp):
        out.append(("calibration", "Calibration: one panel per model" + (
            " (top label: the largest probability)" if multi else ""),
            "reliability diagram per model with its consistency band, calibration numbers "
            "and a histogram of the predictions", _cal.figure(cmp)))
    if _decision.applies(cmp):
        out.append(("decision", "Decision curves: net benefit over threshold probabilities",
                    "decision curves with bootstrap bands, treat all and treat none",
                    cmp.plot_decision_curve().figure))
    out.append(("confusion", "Confusion matrices" + ("" if multi else
                                                     f" at threshold {cmp.threshold:g}"),
                "a confusion matrix heat map per model", cmp.plot_confusion()))
    return out


def _after_figure(cmp: Any, stem: str) -> list[str]:
    """Text a figure of the page carries beneath it: the decision curves' answer (over
    which thresholds a model is worth using, or more useful than another)."""
    from measurelab.pages import escape

    if stem == "calibration":  # where is it off? the ranges outside the band
        return _calibration_ranges_html(cmp)
    if stem == "curves" and not hasattr(cmp._design, "labels"):
        return _op.html(cmp)
    if stem != "decision" or cmp.level is None:
        return []
    nb = cmp.net_benefit()
    lines = nb.summary().splitlines()
    return ["<ul class='summary'>" + "".join(f"<li>{escape(x)}</li>" for x in lines)
            + "</ul>"]


def _calibration_ranges_html(cmp: Any) -> list[str]:
    from measurelab import pages
    from measurelab.inference.classifiers import _calibration_figure as _cal

    t = _cal.calibration_ranges(cmp)
    level = cmp.level if cmp.level is not None else 0.95
    if not len(t):
        return [f"<p>Every model's curve stays inside its {level:.0%} band: no range of "
                "predictions where it is detectably off.</p>"]
    return [f"<p>Where the curves leave their {level:.0%} bands ('below predicted': the "
            "model predicts too high there; 'above predicted': too low). The bands are "
            "pointwise: a short excursion can be chance; the calibration test on each panel "
            "answers for the whole curve.</p>",
            pages.table(_cal.ranges_shown(t), index=False, sortable=True)]


def _planning(cmp: Any) -> list[str]:
    """What this test set could detect (80% power), as a sentence."""
    from measurelab.inference.power import detectable_sentence
    from measurelab.pages import escape

    text = detectable_sentence(cmp, rows=headline(cmp))
    if not text:
        return []
    return ["<h2>What this test set can detect</h2>", f"<p>{escape(text)} Smaller real "
            "differences would more often than not go unnoticed; <code>measurelab power"
            "</code> plans a larger test set.</p>"]


def calibration_sentence(cmp: Any) -> str:
    """'Is it calibrated?' in one sentence for a binary comparison of probabilities (the
    test :meth:`ClassifierComparison.calibration` chose, named: consistency resampling, or
    from 10,000 cases the analytic test of the same statistic); '' otherwise.

    Examples
    --------
    With ``r`` from the module example:

    >>> calibration_sentence(r)
    'Calibration (test by consistency resampling): a miscalibrated (p = 0.009); b consistent with calibrated (p = 0.066).'
    """  # noqa: E501
    if hasattr(cmp._design, "labels") or not all(
            0.0 <= float(s.min()) and float(s.max()) <= 1.0 for s in cmp._scores):
        return ""
    if "calibration" not in cmp._cache:
        cmp._cache["calibration"] = cmp.calibration()
    t = cmp._cache["calibration"]
    methods = list(dict.fromkeys(t["method"]))
    if len(methods) == 1:
        return (f"Calibration ({_TEST_TEXT.get(methods[0], methods[0])}): "
                + "; ".join(f"{r.model} {r.verdict}" for r in t.itertuples()) + ".")
    return ("Calibration: " + "; ".join(
        f"{r.model} {r.verdict} ({_TEST_TEXT.get(r.method, r.method)})"
        for r in t.itertuples()) + ".")


#: how the calibration sentence names each test (``CalibrationTest.method``)
_TEST_TEXT = {
    "consistency resampling": "test by consistency resampling",
    "analytic null": f"analytic test of brier_mcb, n ≥ {AUTO_MIN_CASES:,}",
    "spiegelhalter": "Spiegelhalter's test: fractional weights",
}


def _first_screen(cmp: Any) -> list[str]:
    from measurelab.pages import escape

    parts = [f"<p class='lead'>{escape(describe(cmp))}</p>"]
    sentences = pair_sentences(cmp)
    if sentences:
        parts.append("<ul class='summary'>" + "".join(f"<li>{escape(x)}</li>"
                                                      for x in sentences) + "</ul>")
    parts.append(f"<p class='best'>{escape(best_sentence(cmp))}</p>")
    untested = untested_sentence(cmp)
    if untested:
        parts.append(f"<p class='muted'>{escape(untested)}</p>")
    unbacked = evidence_sentence(cmp)
    if unbacked:
        parts.append(f"<p class='evidence'>{escape(unbacked)}</p>")
    calib = calibration_sentence(cmp)
    if calib:
        parts.append(f"<p class='calibration'>{escape(calib)}</p>")
    if cmp.level is None:
        parts.append("<p class='muted'>No intervals or tests: the comparison was run with "
                     "ci=None.</p>")
    return parts


def _tables(cmp: Any) -> list[str]:
    from measurelab import pages

    level = cmp.level
    alpha = 1.0 - level if level is not None else math.nan
    out = [pages.details(f"All values ({len(cmp._names_m)} measures × {len(cmp.names)} "
                         "models)", pages.table(cmp.values(), sortable=True))]
    if level is not None:
        iv_t = cmp.intervals()
        out.append(pages.details(f"All intervals ({round(100 * level)}%, {len(iv_t)} rows)",
                                 pages.table(iv_t, index=False, sortable=True)))
        if len(cmp.names) > 1:
            t = cmp.tests()
            marks = t.copy()
            for c in marks.columns:
                marks[c] = False
            marks["p_holm"] = t["p_holm"] < alpha
            out.append(pages.details(
                f"All paired tests ({len(t)} rows; Holm-adjusted over all rows; * p_holm < "
                f"{alpha:.2g})", pages.table(t, index=False, sortable=True, marks=marks)))
    out += getattr(cmp, "_page_tables", list)()  # subgroups: per group, gaps
    from measurelab.inference.classifiers import net_benefit as _decision

    if level is not None and _decision.applies(cmp):
        nb = cmp.net_benefit()
        out.append(pages.details("Net benefit at chosen thresholds, with intervals",
                                 pages.table(nb.values(), index=False, sortable=True)))
        d = nb.differences()
        marks = d.copy()
        for c in marks.columns:
            marks[c] = False
        marks["p_holm"] = d["p_holm"] < alpha
        out.append(pages.details(
            f"Net benefit: paired differences ({len(d)} rows; Holm-adjusted over them; * "
            f"p_holm < {alpha:.2g})", pages.table(d, index=False, sortable=True,
                                                    marks=marks)))
    if level is not None and len(cmp.names) > 1:
        out.append(pages.details("Detectable differences (80% power)",
                                 pages.table(cmp.detectable(), index=False, sortable=True)))
    if len(cmp.names) > 1:
        pref = cmp.preferences().drop(columns=["p_holm", "significant", "beats"])  # named
        out.append(pages.details("Which model each measure prefers",
                                 pages.table(pref, index=False, sortable=True)))
        verdicts = cmp.verdicts()
        if len(verdicts):
            out.append(pages.details("Likelihood verdicts and DP bands (Sokolova 2006)",
                                     pages.table(verdicts, index=False, sortable=True)))
    return out


def to_html(cmp: Any, path: str | Path, *, title: str = "Comparing classifiers",
            files: bool = True) -> Path:
    """:meth:`ClassifierComparison.to_html` of ``cmp``: the answer first (a sentence per
    pair, the best model per measure, the forest plot), then the curves and confusion
    matrices, then every table collapsed; with ``files`` the JSON and every figure as PNG
    and SVG beside the page."""
    from measurelab import pages
    from measurelab._util.pageset import (
        COMPARISON_FIGURES,
        check_page_set,
        side_path,
        write_page_set,
    )
    from measurelab._util.validation import check_flag

    files = check_flag(files, "files")
    tails = [".json"] + [f"-{stem}.{ext}" for stem in COMPARISON_FIGURES
                          for ext in ("png", "svg")]
    path = check_page_set(path, tails if files else [], "path")
    check_title(title)
    plt = _fig.pyplot()
    body = _first_screen(cmp)
    rendered: dict[str, dict[str, bytes]] = {}
    for stem, head, alt, fig in figures(cmp):
        png = pages.figure_bytes(fig)
        if files:
            rendered[stem] = {"png": png, "svg": pages.figure_bytes(fig, "svg")}
        plt.close(fig)
        links = (f" <span class='files no-print'>(<a href='{pages.escape(path.stem)}-{stem}"
                 f".png'>PNG</a>, <a href='{pages.escape(path.stem)}-{stem}.svg'>SVG</a>)"
                 "</span>") if files else ""
        body += [f"<h2>{pages.escape(head)}{links}</h2>",
                 pages.figure(pages.png_data_uri(png), alt)]
        body += _after_figure(cmp, stem)
    body += _planning(cmp)
    from measurelab.measures.glossary import glossary_html

    body += ["<h2>What the numbers are</h2>", pages.provenance(provenance_items(cmp)),
             glossary_html(cmp._names_m, open=True)]
    body.append("<h2>Tables</h2>")
    body += _tables(cmp)
    if files:
        body.append(f"<p class='no-print'>All numbers: <a href='{pages.escape(path.stem)}"
                    ".json'>JSON</a>.</p>")
    page = pages.document(title, "\n".join(body))
    out = {path: page.encode("utf-8")}
    if files:
        out[side_path(path, ".json")] = cmp.to_json().encode("utf-8")
        for stem, data in rendered.items():
            for ext, blob in data.items():
                out[side_path(path, f"-{stem}.{ext}")] = blob
    write_page_set(out)  # all or nothing
    return path


def provenance_items(cmp: Any) -> dict[str, Any]:
    """Where a comparison's numbers come from: the input, n, positives (or classes), the
    threshold, the positive label, n_boot, the seed, the level, the version and the date.

    Examples
    --------
    With ``r`` from the module example:

    >>> p = provenance_items(r)
    >>> p["n"], p["positives"], p["positive label"], p["level"]
    ('20', '10', '1', '95%')
    """
    from measurelab import pages
    d = cmp._design
    multi = hasattr(d, "labels")
    out: dict[str, Any] = {
        "input": getattr(cmp, "source", None) or "arrays given to compare_classifiers",
        "models": ", ".join(cmp.names),
        "n": f"{(d.n if multi else len(cmp._y)):,}",
    }
    if multi:
        out["classes"] = ", ".join(str(c) for c in d.labels)
    else:
        out["positives"] = f"{int(cmp._y.sum()):,}"
        out["positive label"] = str(getattr(cmp, "pos_label", 1))
        out["threshold"] = f"{cmp.threshold:g}" + (" (score ≥ t)" if cmp._inclusive else
                                                    " (score > t)")
    out["level"] = "none (values only)" if cmp.level is None else f"{cmp.level:.0%}"
    if cmp.level is not None:
        out["n_boot"] = str(cmp.n_boot)
        out["resampling"] = "stratified by class" if d.stratify else "cases jointly"
    out["seed"] = repr(cmp.random_state)
    out.update(pages.stamp())
    if getattr(cmp, "notes", []):
        out["notes"] = "; ".join(cmp.notes)
    return out


def repr_html(cmp: Any) -> str:
    """What a notebook shows for a comparison: the summary and the forest plot."""
    from measurelab import pages

    parts = _first_screen(cmp)
    if cmp.level is not None:
        plt = _fig.pyplot()
        fig = cmp.plot_intervals(headline(cmp))
        parts.append(pages.figure(pages.png_data_uri(pages.figure_bytes(fig)),
                                  "forest plot of the headline measures"))
        plt.close(fig)
    return "<div class='measurelab-comparison'>" + "\n".join(parts) + "</div>"


def _roc_points(t: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """ROC vertices (fpr, tpr): :func:`._figures.roc_points`.

    Examples
    --------
    >>> [x.tolist() for x in _roc_points(ScoreTable.from_arrays([0, 1], [0.2, 0.7]))]
    [[0.0, 0.0, 1.0], [0.0, 1.0, 1.0]]
    """
    return _fig.roc_points(t)


def _pr_points(t: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """PR vertices (recall, precision): :func:`._figures.pr_points`."""
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

# ---------------------------------------------------------------- words, JSON, tables
def summary(cmp: Any) -> str:
    """:meth:`ClassifierComparison.summary` of ``cmp``."""
    lines = [*pair_sentences(cmp), best_sentence(cmp)]
    lines += [x for x in [untested_sentence(cmp)] if x]  # every measure reported is named
    lines += [x for x in [evidence_sentence(cmp)] if x]
    calib = calibration_sentence(cmp) if cmp.level is not None else ""
    return "\n".join(lines + ([calib] if calib else []))


def to_dict(cmp: Any) -> dict[str, Any]:
    """:meth:`ClassifierComparison.to_dict` of ``cmp``."""
    if cmp.level is None:
        return {"models": {n: {k: _num(cmp._vals[a, j]) for j, k in
                               enumerate(cmp._names_m)}
                           for a, n in enumerate(cmp.names)}}
    models: dict[str, dict[str, Any]] = {n: {} for n in cmp.names}
    for r in cmp._interval_rows():
        e = {"value": _num(r["value"]), "lo": _num(r["lo"]), "hi": _num(r["hi"]),
             "method": r["method"]}
        if r["measure"] == "auc":
            e["se"] = _num(r["se"])
        models[r["model"]][r["measure"]] = e
    pairs = []
    for r in cmp._test_rows():
        e = {k: (_num(r[k]) if isinstance(r[k], float) else r[k])
             for k in ("a", "b", "measure", "diff", "lo", "hi", "p", "p_holm", "method",
                       "interval")}
        if r["measure"] == "auc":
            e["se"], e["z"] = _num(r["se"]), _num(r["z"])
        pairs.append(e)
    verdicts = [{k: (_num(v) if isinstance(v, float) else v) for k, v in row.items()}
                for row in cmp.verdicts().to_dict("records")]
    return {"models": models, "pairs": pairs, "verdicts": verdicts}


def to_json(cmp: Any) -> str:
    """:meth:`ClassifierComparison.to_json` of ``cmp`` (strict: no NaN tokens)."""
    import json

    return json.dumps(cmp.to_dict(), allow_nan=False)


def confusion_tables(cmp: Any) -> dict[str, Any]:
    """:meth:`ClassifierComparison.confusion_matrices` of ``cmp``: DataFrames."""
    import pandas as pd

    labels, mats = _fig.confusion_matrices(cmp)
    return {n: pd.DataFrame(m, index=pd.Index(labels, name="true"),
                            columns=pd.Index(labels, name="predicted"))
            for n, m in mats.items()}


def _num(x: float) -> float | str | None:
    """A number of the tables as a float for JSON (NaN → None, ±inf → "inf"/"-inf")."""
    return to_jsonable(float(x))
