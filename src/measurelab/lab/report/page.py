"""The shape every reproduction returns: tables with the paper's number beside ours.

A :class:`Report` holds a title, paragraphs, tables (pandas DataFrames; a comparison table
has the columns ``paper``, ``ours``, ``diff`` and ``note``) and figures (matplotlib
figures saved as PNG). :meth:`Report.write` writes ``NAME.md``, ``NAME.html`` (the same
content as a page of the browsable report), ``NAME.json`` (the summary the contents page is
built from), one CSV per table and the figures to a folder, atomically (a file appears whole
or not at all). :func:`page_html` renders a report as that page (:func:`table_html` and
:func:`glance_html` its parts); :mod:`~measurelab.lab.report.site` builds the contents page
over the written reports on them.

The verdict at a glance (:meth:`Report.checks`) is computed, never written: it counts the
cells of the boolean check columns (:data:`CHECK_COLUMNS`) of the report's tables, and the
cells of a text column ``verdict`` that hold a claim verdict (:data:`CLAIM_VERDICTS`:
"holds" or "reproduced" agree; "holds in part", "not supported" … do not; other values
such as a t-test's "win" are not counted). A
reproduction may add its own one-line ``verdict`` (a sentence built from its numbers) and the
run time ``seconds`` is set by whoever ran it.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from measurelab import pages
from measurelab.io.files import (
    atomic_write_text,  # noqa: F401  (re-exported: callers import it from here)
    write_page_set,
)
from measurelab.validation import check_output_folder


def comparison(
    rows: list[dict[str, Any]], *, index: str | list[str], tol: float | None = None
) -> pd.DataFrame:
    """Build a paper-vs-ours table from rows with keys ``paper``, ``ours`` and (optional)
    ``note``; adds ``diff = ours − paper`` and, with ``tol``, ``match = |diff| <= tol``."""
    df = pd.DataFrame(rows)
    df["diff"] = df["ours"].astype(float) - df["paper"].astype(float)
    if tol is not None:
        df["match"] = df["diff"].abs() <= tol
    if "note" not in df:
        df["note"] = ""
    return df.set_index(index)


#: boolean columns that count as checks of the paper against ours (True = agrees)
CHECK_COLUMNS: tuple[str, ...] = ("match", "agrees", "holds", "reproduced", "consistent")
#: a text column of claim verdicts also counts, but only its cells whose head (the words
#: before any ':' or '(') is one of these; the first two agree. Other values (for example a
#: t-test's win/draw/loss) are not claim verdicts and are not counted.
VERDICT_COLUMN = "verdict"
CLAIM_VERDICTS: tuple[str, ...] = ("holds", "reproduced", "holds in part", "in part",
                                   "not supported", "does not hold", "not reproduced")

#: meta keys that are bookkeeping, not settings
_PRIVATE_META = ("captions", "_rendered")


def _verdict_head(text: str) -> str:
    """The words of a verdict cell before any ':' or '(', lower case."""
    return " ".join(text.split(":")[0].split("(")[0].lower().split())


@dataclass
class Report:
    """A reproduction's result: paragraphs, tables and figures.

    ``verdict`` is an optional one-line summary computed by the reproduction; ``seconds``
    the wall time of the run (set by the runner). Both are shown on the contents page.
    """

    name: str
    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    verdict: str | None = None
    seconds: float | None = None

    def checks(self) -> tuple[int, int]:
        """(agreeing, total) over the boolean check columns of every table.

        Examples
        --------
        >>> r = Report("x", "X")
        >>> r.add_table("t", pd.DataFrame({"match": [True, False, True]}))
        >>> r.checks()
        (2, 3)
        """
        ok = total = 0
        for df in self.tables.values():
            for col in CHECK_COLUMNS:
                if col in df.columns and df[col].dtype == bool:
                    ok += int(df[col].sum())
                    total += int(df[col].size)
            if VERDICT_COLUMN in df.columns:
                heads = [_verdict_head(v) for v in df[VERDICT_COLUMN] if isinstance(v, str)]
                heads = [h for h in heads if h in CLAIM_VERDICTS]
                ok += sum(h in CLAIM_VERDICTS[:2] for h in heads)
                total += len(heads)
        return ok, total

    def status(self) -> str:
        """'agrees' (every check), 'in part', 'differs' (no check agrees) or 'no checks'.

        Examples
        --------
        >>> r = Report("x", "X")
        >>> r.status()
        'no checks'
        >>> r.add_table("t", pd.DataFrame({"agrees": [True, True]}))
        >>> r.status()
        'agrees'
        """
        ok, total = self.checks()
        if total == 0:
            return "no checks"
        return "agrees" if ok == total else ("differs" if ok == 0 else "in part")

    def settings(self) -> dict[str, Any]:
        """The meta data without bookkeeping keys (what the report calls its settings)."""
        return {k: v for k, v in self.meta.items() if k not in _PRIVATE_META}

    def summary(self) -> dict[str, Any]:
        """What the contents page shows of this report (JSON-able).

        Examples
        --------
        >>> r = Report("x", "X", verdict="3 of 3 values match")
        >>> s = r.summary()
        >>> s["name"], s["status"], s["checks"], s["verdict"]
        ('x', 'no checks', [0, 0], '3 of 3 values match')
        """
        captions = self.meta.get("captions", {})
        return {
            "name": self.name, "title": self.title, "status": self.status(),
            "checks": list(self.checks()), "verdict": self.verdict,
            "seconds": None if self.seconds is None else round(float(self.seconds), 2),
            "tables": {n: captions.get(n, n) for n in self.tables},
            "figures": [f"{self.name}-{f}.png" for f in self.figures],
            "page": f"{self.name}.html", "markdown": f"{self.name}.md",
            "settings": json.loads(json.dumps(self.settings(), default=str)),
        }

    def add_text(self, text: str) -> None:
        self.paragraphs.append(text.strip())

    def add_table(self, name: str, df: pd.DataFrame, caption: str = "") -> None:
        self.tables[name] = df
        if caption:
            self.meta.setdefault("captions", {})[name] = caption

    def add_figure(self, name: str, fig: Any) -> None:
        self.figures[name] = fig

    def to_markdown(self) -> str:
        parts = [f"# {self.title}", ""]
        parts += [p + "\n" for p in self.paragraphs]
        captions = self.meta.get("captions", {})
        for name, df in self.tables.items():
            parts.append(f"## {captions.get(name, name)}\n")
            parts.append(df.to_markdown(floatfmt=".6g") + "\n")
        for name in self.figures:
            parts.append(f"![{name}]({self.name}-{name}.png)\n")
        if self.verdict:
            parts.insert(2, f"**Verdict:** {self.verdict}\n")
        settings = self.settings()
        if settings:
            parts.append("## Settings\n")
            parts.append("```json\n" + json.dumps(settings, indent=1, default=str) + "\n```\n")
        return "\n".join(parts)

    def to_html(self, index_href: str | None = "../index.html") -> str:
        """The report as one HTML page: paragraphs, tables (paper beside ours), figures
        (PNG files beside the page), settings; ``index_href`` links back to the contents.

        Examples
        --------
        >>> r = Report("x", "A & B")
        >>> r.add_text("Hello")
        >>> page = r.to_html()
        >>> "<h1>A &amp; B</h1>" in page and "href='../index.html'" in page
        True
        """
        return page_html(self, index_href=index_href)

    def write(self, out: str | Path) -> list[Path]:
        """Write Markdown, HTML, the JSON summary, CSVs and figures into ``out``; returns
        the paths written."""
        out = check_output_folder(out, "out")
        files: dict[Path, bytes] = {
            out / f"{self.name}.md": self.to_markdown().encode("utf-8"),
            out / f"{self.name}.html": self.to_html().encode("utf-8"),
            out / f"{self.name}.json": json.dumps(self.summary(), indent=1).encode("utf-8"),
        }
        for name, df in self.tables.items():
            files[out / f"{self.name}-{name}.csv"] = df.to_csv().encode("utf-8")
        for name in self.figures:
            for ext, data in self._rendered(name).items():
                files[out / f"{self.name}-{name}.{ext}"] = data
        write_page_set(files)  # all or nothing: a full disk leaves no half-written report
        written = list(files)
        return written

    def _rendered(self, name: str) -> dict[str, bytes]:
        """The PNG bytes of a figure (the image the page shows), drawn once; the matplotlib
        figure is then closed, so many reports (``reproduce all``) do not pile up open
        figures."""
        cache = self.meta.setdefault("_rendered", {})
        if name not in cache:
            fig = self.figures[name]
            cache[name] = {"png": pages.figure_bytes(fig, dpi=120)}
            import matplotlib.pyplot as plt

            plt.close(fig)
        return cache[name]

    def print(self, file: Any = None) -> None:
        """Print the report's tables as text (the terminal view)."""
        import sys

        file = file or sys.stdout
        print(f"== {self.title}", file=file)
        for p in self.paragraphs:
            print(p, file=file)
            print(file=file)
        for name, df in self.tables.items():
            print(f"-- {name}", file=file)
            with pd.option_context("display.width", 200, "display.max_columns", 30):
                print(df.to_string(float_format=lambda v: f"{v:.6g}"), file=file)
            print(file=file)


def table_html(df: Any, *, float_fmt: str = ".6g") -> str:
    """A DataFrame as an HTML table in the shared look (:func:`measurelab.pages.table`:
    index columns as row headers, numbers formatted with ``float_fmt``, undefined as —).

    Examples
    --------
    >>> import pandas as pd
    >>> t = table_html(pd.DataFrame({"paper": [0.5], "ours": [0.5], "match": [True]}))
    >>> "<td class='yes'>yes</td>" in t
    True
    """
    return pages.table(df, float_fmt=float_fmt)


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
    """One reproduction as an HTML page (the shared template of :mod:`measurelab.pages`);
    figures are ``NAME-FIG.png`` beside the page."""
    esc = pages.escape
    captions = rep.meta.get("captions", {})
    nav = (f"<a href='{esc(index_href)}'>← all reproductions</a> · "
           f"<a href='{esc(rep.name)}.md'>Markdown</a>") if index_href else ""
    parts = [f"<p><b>At a glance:</b> {glance_html(rep.status(), rep.checks())}"
             + (f" — {esc(rep.verdict)}" if rep.verdict else "")
             + (f"; ran in {rep.seconds:.1f} s" if rep.seconds is not None else "")
             + "</p>"]
    parts += [f"<p>{esc(p)}</p>" for p in rep.paragraphs]
    for name, df in rep.tables.items():
        parts.append(f"<h2 id='table-{esc(name)}'>{esc(captions.get(name, name))}</h2>")
        parts.append(table_html(df))
        parts.append(f"<p><a href='{esc(rep.name)}-{esc(name)}.csv'>CSV</a></p>")
    for name in rep.figures:
        parts.append(f"<h2 id='figure-{esc(name)}'>Figure: {esc(name)}</h2>")
        parts.append(pages.figure(f"{rep.name}-{name}.png", name))
    settings = rep.settings()
    if settings:
        parts.append("<h2>Settings</h2><pre>" + esc(
            json.dumps(settings, indent=1, default=str)) + "</pre>")
    return pages.document(rep.title, "\n".join(parts), nav=nav)
