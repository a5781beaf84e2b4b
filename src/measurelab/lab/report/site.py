"""The browsable report: one HTML page per reproduction and a contents page over them.

:func:`page_html` renders a :class:`~measurelab.lab.report.page.Report` as a page
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
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from measurelab.lab.report.page import Report

CSS = ("body{font-family:system-ui,sans-serif;max-width:1150px;margin:2em auto;padding:0 1em;"
       "line-height:1.45;color:#222}table{border-collapse:collapse;font-size:0.85em;"
       "margin:0.5em 0 1.5em}th,td{border:1px solid #ccc;padding:3px 7px;text-align:right;"
       "vertical-align:top}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}"
       "td.text{text-align:left;max-width:460px}img{max-width:100%;border:1px solid #eee;"
       "margin:0.5em 0}h2{margin-top:1.6em;border-bottom:1px solid #ddd}"
       ".yes,.agrees{color:#17702a;font-weight:bold}.no,.differs{color:#b3261e;"
       "font-weight:bold}.in-part{color:#a15c00;font-weight:bold}.no-checks{color:#666}"
       "nav{margin-bottom:1em}pre{background:#f7f7f7;padding:0.5em;overflow-x:auto}"
       "table.index th,table.index td{text-align:left}")


def _cell(v: Any, float_fmt: str = ".6g") -> str:
    import numpy as np

    if isinstance(v, bool | np.bool_):
        return f"<td class='{'yes' if v else 'no'}'>{'yes' if v else 'no'}</td>"
    if isinstance(v, float | np.floating):
        if math.isnan(v):
            return "<td></td>"
        return f"<td>{float(v):{float_fmt}}</td>"
    text = str(v)
    cls = " class='text'" if len(text) > 25 else ""
    return f"<td{cls}>{html.escape(text)}</td>"


def table_html(df: Any, *, float_fmt: str = ".6g") -> str:
    """A DataFrame as an HTML table (index columns as row headers; numbers formatted
    with ``float_fmt``).

    Examples
    --------
    >>> import pandas as pd
    >>> t = table_html(pd.DataFrame({"paper": [0.5], "ours": [0.5], "match": [True]}))
    >>> "<td class='yes'>yes</td>" in t
    True
    """
    names = [n for n in df.index.names]
    head = "".join(f"<th>{html.escape(str(n or ''))}</th>" for n in names)
    head += "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    body = []
    for key, row in df.iterrows():
        keys = key if isinstance(key, tuple) else (key,)
        tds = "".join(f"<th>{html.escape(str(k))}</th>" for k in keys)
        tds += "".join(_cell(v, float_fmt) for v in row.tolist())
        body.append(f"<tr>{tds}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def glance_html(status: str, checks: list[int] | tuple[int, int]) -> str:
    """The verdict at a glance as HTML: the status, coloured, and the counted checks.

    Examples
    --------
    >>> glance_html("in part", (4, 6))
    "<span class='in-part'>in part</span> (4 of 6 checks agree)"
    """
    ok, total = checks
    cls = status.replace(" ", "-")
    count = f"{ok} of {total} checks agree" if total else "no paper-vs-ours check column"
    return f"<span class='{cls}'>{html.escape(status)}</span> ({count})"


def page_html(rep: Report, index_href: str | None = "../index.html") -> str:
    """One reproduction as an HTML page; figures are ``NAME-FIG.png`` beside the page."""
    captions = rep.meta.get("captions", {})
    title = html.escape(rep.title)
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
             f"<title>{title}</title><style>{CSS}</style></head><body>"]
    if index_href:
        parts.append(f"<nav><a href='{html.escape(index_href)}'>← all reproductions</a> · "
                     f"<a href='{rep.name}.md'>Markdown</a></nav>")
    parts.append(f"<h1>{title}</h1>")
    parts.append(f"<p><b>At a glance:</b> {glance_html(rep.status(), rep.checks())}"
                 + (f" — {html.escape(rep.verdict)}" if rep.verdict else "")
                 + (f"; ran in {rep.seconds:.1f} s" if rep.seconds is not None else "")
                 + "</p>")
    parts += [f"<p>{html.escape(p)}</p>" for p in rep.paragraphs]
    for name, df in rep.tables.items():
        parts.append(f"<h2 id='table-{html.escape(name)}'>"
                     f"{html.escape(captions.get(name, name))}</h2>")
        parts.append(table_html(df))
        parts.append(f"<p><a href='{rep.name}-{name}.csv'>CSV</a></p>")
    for name in rep.figures:
        parts.append(f"<h2 id='figure-{html.escape(name)}'>Figure: {html.escape(name)}</h2>")
        parts.append(f"<img src='{rep.name}-{name}.png' alt='{html.escape(name)}'>")
    settings = rep.settings()
    if settings:
        parts.append("<h2>Settings</h2><pre>" + html.escape(
            json.dumps(settings, indent=1, default=str)) + "</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _fmt_seconds(s: float | None) -> str:
    if s is None:
        return "—"
    if s < 0.05:
        return "< 0.1 s"
    return f"{s:.1f} s" if s < 120 else f"{s / 60:.1f} min"


def _settings_line(settings: dict[str, Any]) -> str:
    keys = [k for k in ("quick", "full", "grid", "seed", "datasets", "repeats", "folds")
            if k in settings]
    return ", ".join(f"{k}={settings[k]}" for k in keys) if keys else ""


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
                failed: dict[str, str] | None = None) -> Path:
    """Write ``out/index.html`` and ``out/index.md`` over the reproductions in ``out``.

    ``reports`` (already written to ``out/NAME/``) or, when None, every ``NAME/NAME.json``
    found in ``out``. ``order`` fixes the order of names; ``settings`` are printed at the top
    (for example the command's flags); ``failed`` maps a name to the error it raised.
    Returns the path of ``index.html``.

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> from measurelab.lab.report.page import Report
    >>> d = Path(tempfile.mkdtemp())
    >>> r = Report("ling2003-examples", "Examples")
    >>> r.add_table("t", pd.DataFrame({"match": [True]}))
    >>> _ = r.write(d / r.name)
    >>> write_index(d).name
    'index.html'
    >>> "ling2003-examples/ling2003-examples.html" in (d / "index.html").read_text()
    True
    """
    from measurelab.lab.experiments import INFO, PAPERS

    out = Path(out)
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
        paper = INFO.get(s["name"], {}).get("paper", "other")
        by_paper.setdefault(paper, []).append(s)
    for name in failed:
        by_paper.setdefault(INFO.get(name, {}).get("paper", "other"), [])

    total_ok = sum(s["checks"][0] for s in summaries)
    total = sum(s["checks"][1] for s in summaries)
    secs = [s["seconds"] for s in summaries if s.get("seconds") is not None]
    h = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
         f"<title>measurelab reproductions</title><style>{CSS}</style></head><body>",
         "<h1>measurelab: paper reproductions</h1>",
         f"<p>{len(summaries)} reproductions; {total_ok} of {total} paper-vs-ours checks "
         f"agree" + (f"; {len(failed)} failed" if failed else "")
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
    for paper, items in by_paper.items():
        cite = PAPERS.get(paper, paper)
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
            if INFO.get(name, {}).get("paper", "other") == paper:
                h.append(f"<tr><td>{html.escape(name)}</td><td></td><td class='differs'>"
                         f"failed: {html.escape(err)}</td><td>—</td><td></td></tr>")
                md.append(f"| {name} | | failed: {err} | — | |")
        h.append("</tbody></table>")
        md.append("")
    h.append("</body></html>")
    out.mkdir(parents=True, exist_ok=True)
    from measurelab.lab.report.page import atomic_write_text

    atomic_write_text(out / "index.md", "\n".join(md))
    index = out / "index.html"
    atomic_write_text(index, "\n".join(h))
    return index
