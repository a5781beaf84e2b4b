"""The page of a Demšar analysis (:meth:`DemsarResult.to_html`): the answer first (the
ranking, the omnibus test, which models differ), the critical-difference diagram, the
Bayesian verdicts when asked for, then every table collapsed — in the shared look
(:mod:`measurelab.pages`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def sentences(res: Any) -> list[str]:
    """The analysis in words: the ranking, Friedman's verdict at ``alpha``, and the pairs
    whose average ranks differ by more than the critical difference.

    Examples
    --------
    >>> import pandas as pd
    >>> from measurelab.inference.ranks.friedman import demsar
    >>> t = pd.DataFrame({"a": [.9, .8, .85, .7, .9, .8], "b": [.8, .7, .8, .6, .8, .85],
    ...                   "c": [.7, .75, .6, .65, .7, .6]})
    >>> print("\\n".join(sentences(demsar(t))))  # doctest: +NORMALIZE_WHITESPACE
    Average ranks over 6 data sets (1 = best): a 1.17, b 2.17, c 2.67.
    Friedman's test: χ²_F = 7, p = 0.0302 — the models' ranks differ (α = 0.05).
    Nemenyi's critical difference 1.35: a ranks significantly better than c; no other pair
    differs by more than the CD.
    """
    ranks = ", ".join(f"{m} {v:.2f}" for m, v in res.avg_ranks.items())
    out = [f"Average ranks over {res.n_datasets} data sets (1 = best): {ranks}."]
    p = res.friedman.pvalue
    differ = p < res.alpha
    out.append(f"Friedman's test: χ²_F = {res.friedman.statistic:.3g}, p = {p:.3g} — "
               + (f"the models' ranks differ (α = {res.alpha:g})." if differ else
                  f"no significant difference in rank (α = {res.alpha:g})."))
    names = list(res.avg_ranks.index)
    sig = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            gap = float(res.avg_ranks[b] - res.avg_ranks[a])
            if gap > res.cd:
                sig.append(f"{a} ranks significantly better than {b}")
    if sig:
        out.append(f"Nemenyi's critical difference {res.cd:.3g}: " + "; ".join(sig)
                   + "; no other pair differs by more than the CD.")
    else:
        out.append(f"Nemenyi's critical difference {res.cd:.3g}: no pair of models differs "
                   "by more than it.")
    return out


def _prob(p: float) -> str:
    """A probability for a sentence: '< 0.001' below 0.001 (never a bare 0), else 2
    significant digits ('> 0.999' above 0.999)."""
    if p < 0.001:
        return "< 0.001"
    if p > 0.999:
        return "> 0.999"
    return f"{p:.2g}"


def provenance_items(res: Any, bayes: Any = None, source: Any = None) -> dict[str, Any]:
    """Where a ranks page's numbers come from: the scores (what they are, which are
    better), the data sets and models, alpha, the rope, the version and the date.

    Examples
    --------
    >>> import pandas as pd
    >>> from measurelab.inference import demsar
    >>> p = provenance_items(demsar(pd.DataFrame({"a": [.9, .8], "b": [.8, .7]})))
    >>> p["scores"]
    'one score per data set and model (higher is better)'
    """
    from measurelab import pages
    what = (f"values of {res.measure.name} per data set and model" if res.measure is not None
            else "one score per data set and model")
    out: dict[str, Any] = {
        "input": source or "the table given to demsar",
        "scores": f"{what} ({res.direction} is better)",
        "data sets": str(res.n_datasets), "models": str(res.n_models),
        "alpha": f"{res.alpha:g}",
        "ties": "Friedman statistic corrected for ties" if res.tie_correction else None,
    }
    if bayes is not None and "rope" in getattr(bayes, "attrs", {}):
        out["rope"] = (f"±{bayes.attrs['rope']:g} (differences smaller count as "
                       "practically equivalent)")
        out["bayesian test"] = str(bayes.attrs.get("method", ""))
    out.update(pages.stamp())
    return out


def bayes_sentences(bayes: Any) -> list[str]:
    """A sentence per pair from :meth:`DemsarResult.bayes`'s table, naming the models.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame([{"a": "nb", "b": "tree", "p_a_better": 0.0, "p_rope": 0.02,
    ...                    "p_b_better": 0.98, "verdict": "b better"}])
    >>> print(bayes_sentences(t)[0])
    tree is practically better than nb (posterior probability 0.98; nb better < 0.001, equivalent 0.02).
    """  # noqa: E501
    out = []
    for r in bayes.itertuples(index=False):
        probs = {f"{r.a} better": r.p_a_better, "equivalent": r.p_rope,
                 f"{r.b} better": r.p_b_better}
        key = {"a better": f"{r.a} better", "b better": f"{r.b} better",
               "equivalent": "equivalent"}.get(r.verdict)
        if r.verdict == "a better":
            head = f"{r.a} is practically better than {r.b}"
        elif r.verdict == "b better":
            head = f"{r.b} is practically better than {r.a}"
        elif r.verdict == "equivalent":
            head = f"{r.a} and {r.b} are practically equivalent"
        else:
            head = f"{r.a} vs {r.b}: undecided"
        others = ", ".join(f"{k} {_prob(v)}" for k, v in probs.items() if k != key)
        if key is None:
            out.append(f"{head} ({others}).")
        else:
            out.append(f"{head} (posterior probability {_prob(probs[key])}; {others}).")
    return out


def repr_html(res: Any) -> str:
    """The sentences and the CD diagram, for a notebook."""
    import matplotlib.pyplot as plt

    from measurelab import pages

    ax = res.plot()
    png = pages.figure_bytes(ax.figure, dpi=100)
    plt.close(ax.figure)
    return ("<div class='measurelab-demsar'><ul class='summary'>"
            + "".join(f"<li>{pages.escape(s)}</li>" for s in sentences(res)) + "</ul>"
            + pages.figure(pages.png_data_uri(png), "critical difference diagram") + "</div>")


def to_html(res: Any, path: str | Path | None, *, title: str, bayes: Any = None,
            files: bool = True) -> Any:
    """Write (or, with ``path`` None, return) the page of a Demšar analysis; ``bayes`` is an
    optional table of Bayesian verdicts per pair (shown beside the frequentist ones)."""
    import matplotlib.pyplot as plt

    from measurelab import pages
    from measurelab._util.pageset import check_page_set
    from measurelab._util.validation import check_flag

    files = check_flag(files, "files")
    if path is not None:
        path = check_page_set(path, ["-cd.png"] if files else [], "path")
    ax = res.plot()
    fig = ax.figure
    png = pages.figure_bytes(fig)  # drawn once: embedded and, with files, beside the page
    plt.close(fig)
    body = ["<ul class='summary'>" + "".join(f"<li>{pages.escape(s)}</li>"
                                             for s in sentences(res)) + "</ul>",
            "<h2>Critical difference diagram</h2>",
            pages.figure(pages.png_data_uri(png),
                         "critical difference diagram: average ranks, models joined by a bar "
                         "do not differ significantly")]
    if bayes is not None and len(bayes):
        rope = bayes.attrs.get("rope")
        body += ["<h2>Bayesian verdicts (Benavoli et al. 2017)" + (
            f", rope ±{rope:g}" if rope is not None else "") + "</h2>",
                 "<ul class='summary'>" + "".join(f"<li>{pages.escape(x)}</li>"
                                                  for x in bayes_sentences(bayes)) + "</ul>",
                 pages.table(bayes, index=False, sortable=True)]
    wdl = res.wdl
    marks = None
    if wdl is not None and len(wdl):
        marks = wdl.copy()
        for c in marks.columns:
            marks[c] = False
        for c in ("sign_p", "wilcoxon_p"):
            if c in wdl.columns:
                marks[c] = wdl[c] < res.alpha
    body += ["<h2>What the numbers are</h2>",
             pages.provenance(provenance_items(res, bayes, getattr(res, "source", None)))]
    if res.measure is not None:
        from measurelab.measures.glossary import glossary_html

        body.append(glossary_html([res.measure.name], open=True))
    body += ["<h2>Tables</h2>",
             pages.details(f"Average ranks ({res.n_models} models)",
                           pages.table(res.avg_ranks.rename("average rank").to_frame())),
             pages.details(f"Wins, draws and losses per pair ({len(wdl)} pairs; * p < "
                           f"{res.alpha:g}, unadjusted)",
                           pages.table(wdl, index=False, sortable=True, marks=marks)),
             pages.details(f"Ranks per data set ({res.n_datasets} data sets)",
                           pages.table(res.ranks, sortable=True)),
             pages.details("The values ranked", pages.table(res.table, sortable=True))]
    page = pages.document(title, "\n".join(body))
    if path is None:
        return page
    from measurelab._util.pageset import side_path, write_page_set

    out = {path: page.encode("utf-8")}
    if files:
        out[side_path(path, "-cd.png")] = png
    write_page_set(out)  # all or nothing
    return path
