"""The browsable report: one HTML page per reproduction and a contents page over them.

:func:`~measurelab.lab.report.page.page_html` (in :mod:`~measurelab.lab.report.page`,
re-exported here) renders a :class:`~measurelab.lab.report.page.Report` as a page
(paragraphs, every table with the paper's value beside ours, figures as PNG files next to
the page, settings). :func:`write_index` writes ``DIR/index.html`` and its Markdown twin
``DIR/index.md``: for each paper, each reproduction with its tables, the verdict at a glance
(the counted checks, see :meth:`Report.checks`), its run time and settings, linking the page
``DIR/NAME/NAME.html``. The contents are built from the ``NAME.json`` summaries that
:meth:`Report.write` leaves beside each page, so an index can be rebuilt from a folder.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from measurelab import pages
from measurelab.exceptions import MeasurelabError
from measurelab.io.files import write_page_set
from measurelab.lab.report.page import Report, glance_html
from measurelab.lab.report.page import page_html as page_html  # re-exported
from measurelab.lab.report.page import table_html as table_html  # re-exported
from measurelab.validation import check_output_folder


def _fmt_seconds(s: float | None) -> str:
    if s is None:
        return "—"
    if s < 0.05:
        return "< 0.1 s"
    return f"{s:.1f} s" if s < 120 else f"{s / 60:.1f} min"


def _settings_line(settings: dict[str, Any]) -> str:
    """Every setting of a run on one line: the usual keys first, then the rest (long values
    shortened)."""
    first = [k for k in ("quick", "full", "grid", "seed", "datasets", "repeats", "folds")
             if k in settings]
    keys = first + [k for k in settings if k not in first]

    def short(v: Any) -> str:
        text = str(v)
        return text if len(text) <= 40 else text[:37] + "..."

    return ", ".join(f"{k}={short(settings[k])}" for k in keys)


def load_summaries(out: str | Path) -> list[dict[str, Any]]:
    """The ``NAME/NAME.json`` summaries found in ``out``, each with its ``dir``."""
    out = Path(out)
    found = []
    for sub in sorted(p for p in out.iterdir() if p.is_dir()):
        js = sub / f"{sub.name}.json"
        if js.is_file():
            s = json.loads(js.read_text(encoding="utf-8"))
            s["dir"] = sub.name
            found.append(s)
    return found


def write_index(out: str | Path, reports: list[Report] | None = None, *,
                order: list[str] | None = None, settings: dict[str, Any] | None = None,
                failed: dict[str, str] | None = None,
                papers: Mapping[str, str] | None = None) -> Path:
    """Write ``out/index.html`` and ``out/index.md`` over the reproductions in ``out``.

    ``reports`` (already written to ``out/NAME/``) or, when None, every ``NAME/NAME.json``
    found in ``out``. ``order`` fixes the order of names; ``settings`` are printed at the top
    (for example the command's flags); ``failed`` maps a name to the error it raised.
    ``papers`` maps a reproduction's name to the heading it is listed under (the citation
    of its paper, as :func:`measurelab.lab.experiments.citations` gives); names it does not
    hold are listed under "other". Returns the path of ``index.html``.

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> from measurelab.lab.report.page import Report
    >>> d = Path(tempfile.mkdtemp())
    >>> r = Report("ling2003-examples", "Examples")
    >>> r.add_table("t", pd.DataFrame({"match": [True]}))
    >>> _ = r.write(d / r.name)
    >>> write_index(d, papers={"ling2003-examples": "Ling et al. (2003)"}).name
    'index.html'
    >>> text = (d / "index.html").read_text()
    >>> "ling2003-examples/ling2003-examples.html" in text, "<h2>Ling et al. (2003)</h2>" in text
    (True, True)
    """
    out = check_output_folder(out, "out")
    if reports is None and not out.is_dir():
        raise MeasurelabError(f"out {str(out)!r} is not a folder of reproductions")
    papers = papers or {}
    if reports is None:
        summaries = load_summaries(out)
    else:
        summaries = [{**r.summary(), "dir": r.name} for r in reports]
    if order:
        pos = {n: i for i, n in enumerate(order)}
        summaries.sort(key=lambda s: pos.get(s["name"], len(pos)))
    failed = failed or {}
    by_paper: dict[str, list[dict[str, Any]]] = {}
    for s in summaries:
        by_paper.setdefault(papers.get(s["name"], "other"), []).append(s)
    for name in failed:
        by_paper.setdefault(papers.get(name, "other"), [])

    total_ok = sum(s["checks"][0] for s in summaries)
    total = sum(s["checks"][1] for s in summaries)
    secs = [s["seconds"] for s in summaries if s.get("seconds") is not None]
    h = [f"<p class='lead'>{len(summaries)} reproductions; {total_ok} of {total} "
         "paper-vs-ours checks agree" + (f"; {len(failed)} failed" if failed else "")
         + (f"; total run time {_fmt_seconds(sum(secs))}" if secs else "") + ".</p>"]
    md = ["# measurelab: paper reproductions", "",
          f"{len(summaries)} reproductions; {total_ok} of {total} paper-vs-ours checks agree"
          + (f"; {len(failed)} failed" if failed else "") + ".", ""]
    if settings:
        line = ", ".join(f"{k}={v}" for k, v in settings.items())
        h.append(f"<p>Settings: {html.escape(line)}</p>")
        md += [f"Settings: {line}", ""]
    h.append("<p>A check is a boolean column of a table (match / agrees / holds) comparing "
             "the paper's value with ours; 'agrees' means every check of the reproduction "
             "agrees, 'in part' some, 'differs' none.</p>")
    for cite, items in by_paper.items():
        h.append(f"<h2>{html.escape(cite)}</h2>")
        md += [f"## {cite}", ""]
        h.append("<table class='index'><thead><tr><th>reproduction</th><th>tables</th>"
                 "<th>at a glance</th><th>run time</th><th>settings</th></tr></thead><tbody>")
        md += ["| reproduction | tables | at a glance | run time | settings |",
               "|---|---|---|---|---|"]
        for s in items:
            page = f"{s['dir']}/{s['page']}"
            tables = "<br>".join(
                f"<a href='{html.escape(page)}#table-{html.escape(t)}'>{html.escape(c)}</a>"
                for t, c in s["tables"].items())
            verdict = f"<br>{html.escape(s['verdict'])}" if s.get("verdict") else ""
            sets = _settings_line(s.get("settings", {}))
            h.append(f"<tr><td><a href='{html.escape(page)}'>{html.escape(s['name'])}</a>"
                     f"<br><small>{html.escape(s['title'])}</small><br>"
                     f"<a href='{html.escape(s['dir'])}/{html.escape(s['markdown'])}'>"
                     f"Markdown</a></td><td class='text'>{tables}</td>"
                     f"<td class='text'>{glance_html(s['status'], s['checks'])}{verdict}</td>"
                     f"<td>{_fmt_seconds(s.get('seconds'))}</td>"
                     f"<td class='text'>{html.escape(sets)}</td></tr>")
            ok, n = s["checks"]
            glance = f"{s['status']} ({ok} of {n})" + (f": {s['verdict']}"
                                                      if s.get("verdict") else "")
            md.append(f"| [{s['name']}]({s['dir']}/{s['markdown']}) | "
                      + "; ".join(s["tables"].values()).replace("|", "/") + " | "
                      + glance.replace("|", "/") + f" | {_fmt_seconds(s.get('seconds'))} | "
                      f"{sets} |")
        for name, err in failed.items():
            if papers.get(name, "other") == cite:
                h.append(f"<tr><td>{html.escape(name)}</td><td></td><td class='differs'>"
                         f"failed: {html.escape(err)}</td><td>—</td><td></td></tr>")
                md.append(f"| {name} | | failed: {err} | — | |")
        h.append("</tbody></table>")
        md.append("")
    index = out / "index.html"
    write_page_set({out / "index.md": "\n".join(md).encode("utf-8"),
                    index: pages.document("measurelab: paper reproductions",
                                          "\n".join(h)).encode("utf-8")})
    return index
