"""Words, figures and pages of a comparison of learning algorithms
(:class:`~measurelab.inference.learners.one_dataset.LearnerComparison` and
:class:`~measurelab.inference.learners.many_datasets.LearnerComparisonOverDatasets`), in the
shared look of :mod:`measurelab.pages`.

Examples
--------
>>> _method_words("5x2cv-combined-F")
'5×2cv combined F'
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab.inference import _figures as _fig
from measurelab.inference._base import check_title
from measurelab.inference._reprs import holm_p_text as _p
from measurelab.inference._reprs import joined as _join
from measurelab.inference._reprs import signed_text as _signed

#: how a method is named in a sentence
_WORDS = {"corrected-t": "corrected t", "5x2cv-paired-t": "5×2cv paired t",
          "5x2cv-combined-F": "5×2cv combined F", "nested-cv": "nested CV"}


def _method_words(method: str) -> str:
    return _WORDS.get(method, method)


def _centre_words(method: str, centre: float) -> str:
    """Where an interval is centred, when that is not the mean fold difference the
    sentence gives: the 5×2cv paired t's is the first fold's difference.

    Examples
    --------
    >>> _centre_words("5x2cv-paired-t", 0.031), _centre_words("corrected-t", 0.02)
    (" around the first fold's difference +0.031", '')
    """
    if method != "5x2cv-paired-t":
        return ""
    return f" around the first fold's difference {_signed(centre)}"


def _higher(cmp: Any) -> dict[str, bool]:
    return {m.name: m.higher_is_better for m in cmp._measures}


# -------------------------------------------------------------------------- words
def pair_sentences(cmp: Any) -> list[str]:
    """A sentence per pair of learners: the measures on which one is significantly better
    (every test of the measure below 1 − ci after Holm's adjustment), with the difference
    (better − worse), each test's interval, method and p; the measures with no significant
    difference."""
    alpha = 1.0 - cmp.level
    pct = round(100 * cmp.level)
    higher = _higher(cmp)
    out = []
    for (a, b), g in cmp.tests().groupby(["a", "b"], sort=False):
        better: dict[str, list[str]] = {a: [], b: []}
        none: list[str] = []
        for meas, rows in g.groupby("measure", sort=False):
            sig = bool((rows["p_holm"] < alpha).all())
            diff = float(rows["diff"].iloc[0])
            if not sig or not math.isfinite(diff) or diff == 0:
                none.append(str(meas))
                continue
            winner = a if (diff > 0) == higher[str(meas)] else b
            sign = 1.0 if winner == a else -1.0
            parts = []
            for r in rows.itertuples(index=False):
                lo, hi = (r.lo, r.hi) if sign > 0 else (-r.hi, -r.lo)
                parts.append(f"{pct}% CI {_signed(lo)} to {_signed(hi)}"
                             f"{_centre_words(r.method, sign * r.centre)}, "
                             f"{_method_words(r.method)}, {_p(r.p_holm)}")
            better[winner].append(f"{meas} ({_signed(sign * diff)}, " + "; ".join(parts) + ")")
        said = [f"{w} is better than {lose} on " + _join(better[w])
                for w, lose in ((a, b), (b, a)) if better[w]]
        if none:
            said.append(("no significant difference on " if said else
                         f"{a} and {b}: no significant difference on ") + _join(none))
        out.append("; ".join(said) + ".")
    return out


def notes(cmp: Any) -> list[str]:
    """What the tables' ``note`` column says, once; for Dietterich's design, what its
    intervals are centred on."""
    out = []
    if cmp.method == "5x2cv":
        out.append("5×2cv: the difference given is the mean of the ten folds'; the paired "
                   "t and its interval are centred on the first fold's difference "
                   "(Dietterich's statistic), the combined F's on the mean (column centre "
                   "of .tests()).")
    t = cmp.tests()
    skipped = sorted(set(t.loc[t["note"] != "", "measure"]))
    if skipped:
        out.append(f"Nested CV applies to measures that are means over cases (acc, err, "
                   f"brier, mxe); {_join(skipped)} used the corrected t.")
    return out


def summary(cmp: Any) -> str:
    """:meth:`LearnerComparison.summary`."""
    head = f"{len(cmp.names)} learners, {cmp.design()}."
    return "\n".join([head, *pair_sentences(cmp), *notes(cmp)])


def _how(cmp: Any) -> str:
    """The level and the tests of a comparison, in words."""
    tests = ("5×2cv paired t and combined F" if cmp.method == "5x2cv"
             else _method_words(cmp.method))
    return f"{round(100 * cmp.level)}% intervals, {tests}"


#: where a comparison's tables are, after its answer
TABLES = ("Tables: .fold_scores() .values() .intervals() .tests() .bayes(rope); figure: "
          ".plot(); page: .to_html(path)")
TABLES_OVER_DATASETS = ("Tables: .table(measure) .ranks(measure) .tests() .fold_scores() "
                        ".bayes(rope); one data set: .comparisons[name]; page: .to_html(path)")


def comparison_text(cmp: Any) -> str:
    """What ``print()`` of a :class:`LearnerComparison` shows: what was compared and how,
    the answer (the summary's sentences), then where the tables are."""
    k = len(cmp.names)
    head = (f"{type(cmp).__name__} of {k} learner{'s' if k != 1 else ''} "
            f"({', '.join(cmp.names)}) by {cmp.design()}; {_how(cmp)}")
    return "\n".join([head, *summary(cmp).splitlines()[1:], TABLES])


def datasets_text(res: Any) -> str:
    """What ``print()`` of a :class:`LearnerComparisonOverDatasets` shows, in the same
    order."""
    first = next(iter(res.comparisons.values()))
    k, d = len(res.names), len(res.comparisons)
    head = (f"{type(res).__name__} of {k} learner{'s' if k != 1 else ''} "
            f"({', '.join(res.names)}) on {d} data set{'s' if d != 1 else ''}, "
            f"{first._splits.describe()} each; {_how(first)}")
    return "\n".join([head, *datasets_summary(res).splitlines()[1:], TABLES_OVER_DATASETS])


def bayes_lines(bayes: Any) -> list[str]:
    """A sentence per pair and measure of a table of Bayesian verdicts."""
    from measurelab.inference.ranks.report import bayes_sentences

    out = []
    for meas, g in bayes.groupby("measure", sort=False):
        ok = g.dropna(subset=["p_a_better"])
        out += [f"{meas}: {s}" for s in bayes_sentences(ok)]
    return out


# ------------------------------------------------------------------------- figure
def plot(cmp: Any) -> Any:
    """:meth:`LearnerComparison.plot`."""
    plt = _fig.pyplot()
    ivs = cmp.intervals()
    tests = cmp.tests()
    alpha = 1.0 - cmp.level
    ms = cmp.measures
    k = len(cmp.names)
    n_rows = len(tests) // max(len(ms), 1)
    fig, axes = plt.subplots(len(ms), 2, figsize=(11, 0.6 + max(k, n_rows, 2) * 0.45 * len(ms)
                                                  + 0.4 * len(ms)), squeeze=False)
    jitter = np.random.default_rng(0)
    for i, m in enumerate(ms):
        left, right = axes[i]
        S = {n: cmp._scores(a)[:, i] for a, n in enumerate(cmp.names)}
        for a, n in enumerate(cmp.names):
            y = k - 1 - a
            vals = S[n][np.isfinite(S[n])]
            left.scatter(vals, y + jitter.uniform(-0.18, 0.18, vals.size), s=6,
                         color=_fig.colour(a), alpha=0.35, lw=0)
            r = ivs[(ivs["learner"] == n) & (ivs["measure"] == m)].iloc[0]
            left.errorbar([r["value"]], [y], xerr=[[r["value"] - r["lo"]],
                                                   [r["hi"] - r["value"]]],
                          fmt="D", color="black", ms=5, capsize=3, lw=1.2)
        left.set_yticks(range(k), [_fig.literal(n) for n in cmp.names[::-1]])
        left.set_title(f"{m}: fold scores, mean and {round(100 * cmp.level)}% interval",
                       fontsize=9)
        rows = tests[tests["measure"] == m].reset_index(drop=True)
        for j, r in rows.iterrows():
            y = len(rows) - 1 - j
            ok = math.isfinite(r["lo"]) and math.isfinite(r["hi"])
            # the marker sits where the row's statistic and interval are centred
            centre = r["centre"] if math.isfinite(r["centre"]) else r["diff"]
            if ok:
                right.plot([r["lo"], r["hi"]], [y, y], color="black", lw=1.2)
            sig = r["p_holm"] < alpha
            right.plot([centre], [y], "o", color="black", mfc="black" if sig else "white",
                       ms=6)
        right.axvline(0.0, color="grey", ls=":", lw=1)
        labels = [f"{_fig.literal(r['a'])} − {_fig.literal(r['b'])}"
                  + (f" ({_method_words(r['method'])})" if cmp.method == "5x2cv" else "")
                  for _, r in rows.iterrows()]
        right.set_yticks(range(len(rows)), labels[::-1])
        right.set_ylim(-0.7, len(rows) - 0.3)
        right.set_title(f"{m}: differences (filled: p_holm < {alpha:g})", fontsize=9)
        left.set_ylim(-0.7, k - 0.3)
    fig.suptitle(cmp.design(), fontsize=9)
    fig.tight_layout()
    return fig


# -------------------------------------------------------------------------- pages
def _page_options(path: Any, title: Any, rope: Any, files: Any) -> tuple[Any, bool, Any]:
    """A page's options, checked before any work: the path (None: return the text), the
    title, the rope (None: no Bayesian verdicts) and whether to write files beside it."""
    from measurelab._util.pageset import check_page_set
    from measurelab._util.validation import check_flag, check_real

    files = check_flag(files, "files")
    if path is not None:  # the page and both kinds of side files, before any work
        path = check_page_set(path, PAGE_TAILS if files else (), "path")
    check_title(title)
    if rope is not None:
        rope = check_real(rope, "rope", low=0.0)
    return path, files, rope


#: the files a learners page may write beside it
PAGE_TAILS = (".json", "-folds.csv", "-folds.png")


def _fold_csv(frame: Any) -> bytes:
    return frame.to_csv(index=False).encode("utf-8")


def _bayes_block(bayes: Any, rope: float, what: str) -> list[str]:
    from measurelab import pages

    return [f"<h2>Bayesian verdicts ({pages.escape(what)}, rope ±{rope:g})</h2>",
            "<ul class='summary'>" + "".join(f"<li>{pages.escape(s)}</li>"
                                             for s in bayes_lines(bayes)) + "</ul>",
            pages.details(f"The posterior probabilities ({len(bayes)} rows)",
                          pages.table(bayes, index=False, sortable=True))]


def _tests_table(tests: Any, alpha: float) -> str:
    from measurelab import pages

    marks = tests.copy()
    for c in marks.columns:
        marks[c] = False
    marks["p_holm"] = tests["p_holm"] < alpha
    shown = tests.copy()
    shown["df"] = shown["df"].astype(str)
    return pages.table(shown, index=False, sortable=True, marks=marks)


def _about(cmp: Any, comparisons: list[Any], rope: float | None) -> list[str]:
    """The page's provenance line and the glossary of its measures."""
    from measurelab import pages
    from measurelab.measures.glossary import glossary_html

    items = {"learners": ", ".join(cmp.names), "data sets": str(len(comparisons)),
             "design": str(cmp.design()), "method": str(cmp.method),
             "level": f"{cmp.level:.0%}" if cmp.level is not None else None,
             "rope": None if rope is None else f"±{rope:g}",
             **pages.stamp()}
    return ["<h2>What the numbers are</h2>", pages.provenance(items),
            glossary_html(cmp._names_m, open=True)]


def to_html(cmp: Any, path: Any, *, title: str, rope: float | None, files: bool) -> Any:
    """:meth:`LearnerComparison.to_html`."""
    from measurelab import pages

    path, files, rope = _page_options(path, title, rope, files)
    bayes = cmp.bayes(rope) if rope is not None else None
    plt = _fig.pyplot()
    fig = plot(cmp)
    png = pages.figure_bytes(fig)  # drawn once: embedded and, with files, beside the page
    plt.close(fig)
    alpha = 1.0 - cmp.level
    sentences = pair_sentences(cmp) + notes(cmp)
    body = [f"<p class='lead'>{pages.escape(len(cmp.names))} learners, "
            f"{pages.escape(cmp.design())}; tests: "
            f"{pages.escape(_join(sorted({_method_words(m) for m in cmp.tests()['method']})))}"
            f", Holm's adjustment over every row.</p>",
            "<ul class='summary'>" + "".join(f"<li>{pages.escape(s)}</li>"
                                             for s in sentences) + "</ul>",
            pages.figure(pages.png_data_uri(png), "fold scores with intervals, and the "
                         "differences of every pair")]
    if bayes is not None:
        assert rope is not None  # the Bayesian verdicts come with a rope
        body += _bayes_block(bayes, rope, "correlated t-test")
    body += _about(cmp, [cmp], rope)
    folds = cmp.fold_scores()
    body += ["<h2>Tables</h2>",
             pages.details(f"Values and intervals ({len(cmp.names)} learners)",
                           pages.table(cmp.intervals(), index=False, sortable=True)),
             pages.details(f"Tests of every pair (* p_holm < {alpha:g})",
                           _tests_table(cmp.tests(), alpha)),
             pages.details("Mean fold scores", pages.table(cmp.values())),
             pages.details(f"Fold scores ({len(folds)} rows)",
                           pages.table(folds, index=False, sortable=True)),
             pages.details("The learners", pages.table(_learners(cmp), index=False))]
    if files and path is not None:
        stem = pages.escape(path.stem)
        body.append(f"<p class='no-print'>Files: <a href='{stem}.json'>JSON</a>, "
                    f"<a href='{stem}-folds.csv'>fold scores (CSV)</a>, the figure as "
                    f"<a href='{stem}-folds.png'>PNG</a>.</p>")
    page = pages.document(title, "\n".join(body))
    if path is None:
        return page
    from measurelab._util.pageset import side_path, write_page_set

    out = {path: page.encode("utf-8")}
    if files:
        out[side_path(path, ".json")] = cmp.to_json().encode("utf-8")
        out[side_path(path, "-folds.csv")] = _fold_csv(folds)
        out[side_path(path, "-folds.png")] = png
    write_page_set(out)  # all or nothing
    return path


def _learners(cmp: Any) -> Any:
    import pandas as pd

    kinds = [p.kind for p in cmp._preds]
    return pd.DataFrame({"learner": cmp.names, "predictions": kinds,
                         "estimator": cmp.estimators})


def repr_html(cmp: Any) -> str:
    """What a notebook shows: the summary and the figure."""
    from measurelab import pages

    plt = _fig.pyplot()
    fig = plot(cmp)
    png = pages.figure_bytes(fig, dpi=100)
    plt.close(fig)
    items = summary(cmp).splitlines()
    return ("<div class='measurelab-learners'><ul class='summary'>"
            + "".join(f"<li>{pages.escape(s)}</li>" for s in items) + "</ul>"
            + pages.figure(pages.png_data_uri(png), "fold scores and differences") + "</div>")


# --------------------------------------------------------------- many data sets
def per_dataset_sentence(res: Any, measure: str) -> list[str]:
    """Per pair: on how many data sets each learner is significantly better on
    ``measure`` (every test of the row below 1 − ci, Holm within the data set)."""
    alpha = 1.0 - res.level
    t = res.tests()
    t = t[t["measure"] == measure]
    higher = {m.name: m.higher_is_better for m in next(iter(res.comparisons.values()))._measures}
    out = []
    n = len(res.comparisons)
    for (a, b), g in t.groupby(["a", "b"], sort=False):
        wins = losses = 0
        for _ds, rows in g.groupby("dataset", sort=False):
            diff = float(rows["diff"].iloc[0])
            if (rows["p_holm"] < alpha).all() and math.isfinite(diff) and diff != 0:
                if (diff > 0) == higher[measure]:
                    wins += 1
                else:
                    losses += 1
        worse = f"worse on {losses}" if losses else "worse on none"
        out.append(f"{measure}, per data set: {a} is significantly better than {b} on "
                   f"{wins} of {n} data sets, {worse}.")
    return out


def datasets_summary(res: Any) -> str:
    """:meth:`LearnerComparisonOverDatasets.summary`."""
    from measurelab.inference.ranks.report import sentences

    first = next(iter(res.comparisons.values()))
    lines = [f"{len(res.names)} learners on {len(res.comparisons)} data sets, "
             f"{first._splits.describe()} each."]
    for m in res.measures:
        lines += [f"{m}: {s}" for s in sentences(res.ranks(m))]
        lines += per_dataset_sentence(res, m)
    return "\n".join(lines)


def datasets_html(res: Any, path: Any, *, title: str, rope: float | None,
                  files: bool) -> Any:
    """:meth:`LearnerComparisonOverDatasets.to_html`."""
    from measurelab import pages
    from measurelab.inference.ranks.report import sentences

    path, files, rope = _page_options(path, title, rope, files)
    bayes = res.bayes(rope) if rope is not None else None
    plt = _fig.pyplot()
    first = next(iter(res.comparisons.values()))
    body = [f"<p class='lead'>{len(res.names)} learners on {len(res.comparisons)} data sets "
            f"({pages.escape(', '.join(res.datasets))}), "
            f"{pages.escape(first._splits.describe())} each.</p>"]
    alpha = 1.0 - res.level
    for m in res.measures:
        d = res.ranks(m)
        fig = res.plot(m)
        png = pages.figure_bytes(fig)
        plt.close(fig)
        body += [f"<h2>{pages.escape(m)}</h2>",
                 "<ul class='summary'>" + "".join(
                     f"<li>{pages.escape(s)}</li>"
                     for s in sentences(d) + per_dataset_sentence(res, m)) + "</ul>",
                 pages.figure(pages.png_data_uri(png),
                              f"critical difference diagram of {m}: learners joined by a bar "
                              "do not differ significantly"),
                 pages.details(f"Mean fold scores of {m} per data set",
                               pages.table(res.table(m), sortable=True)),
                 pages.details(f"Wins, draws and losses of {m} per pair",
                               pages.table(d.wdl, index=False, sortable=True))]
    if bayes is not None:
        assert rope is not None  # the Bayesian verdicts come with a rope
        body += _bayes_block(bayes, rope, "hierarchical model over data sets × folds")
    body += _about(first, list(res.comparisons.values()), rope)
    folds = res.fold_scores()
    body += ["<h2>Tables</h2>",
             pages.details(f"Tests per data set (* p_holm < {alpha:g}, Holm within each "
                           "data set)", _tests_table(res.tests(), alpha)),
             pages.details("Values and intervals per data set",
                           pages.table(res.intervals(), index=False, sortable=True)),
             pages.details(f"Fold scores ({len(folds)} rows)",
                           pages.table(folds, index=False, sortable=True)),
             pages.details("The learners", pages.table(_learners(first), index=False))]
    if files and path is not None:
        body.append(f"<p class='no-print'>Fold scores: <a href='{pages.escape(path.stem)}"
                    "-folds.csv'>CSV</a> (what <code>measurelab ranks</code> reads).</p>")
    page = pages.document(title, "\n".join(body))
    if path is None:
        return page
    from measurelab._util.pageset import side_path, write_page_set

    out = {path: page.encode("utf-8")}
    if files:
        out[side_path(path, "-folds.csv")] = _fold_csv(folds)
    write_page_set(out)  # all or nothing
    return path


def datasets_repr_html(res: Any) -> str:
    """What a notebook shows over many data sets: the summary and the first measure's
    critical-difference diagram."""
    from measurelab import pages

    plt = _fig.pyplot()
    fig = res.plot()
    png = pages.figure_bytes(fig, dpi=100)
    plt.close(fig)
    items = datasets_summary(res).splitlines()
    return ("<div class='measurelab-learners'><ul class='summary'>"
            + "".join(f"<li>{pages.escape(s)}</li>" for s in items) + "</ul>"
            + pages.figure(pages.png_data_uri(png), "critical difference diagram") + "</div>")
