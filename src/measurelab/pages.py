"""One look for every page measurelab writes: the stylesheet, the page template, tables,
figures and collapsible sections.

Comparisons (:meth:`~measurelab.inference.ClassifierComparison.to_html`), Demšar analyses,
evaluation results, the reproductions and the demo all render through :func:`document`, so
they share :data:`STYLESHEET`: readable on a laptop, printable (collapsed sections open and
the navigation hides on paper), self-contained (no network: figures are embedded or beside
the page, the table sorter is a few lines of inline script), in a colour-blind safe palette
(Okabe & Ito 2008) where colour carries meaning, which is always repeated in text or weight.

Examples
--------
>>> page = document("A & B", "<p>hello</p>")
>>> page.startswith("<!DOCTYPE html>") and "<h1>A &amp; B</h1>" in page
True
"""

from __future__ import annotations

import html
import math
from typing import Any

__all__ = ["STYLESHEET", "details", "document", "escape", "figure", "figure_bytes",
           "is_probability_column", "library_version", "png_data_uri", "provenance", "stamp",
           "table"]

#: the one stylesheet of every page (Okabe–Ito colours: blue #0072B2, vermillion #D55E00,
#: bluish green #009E73, orange #E69F00)
STYLESHEET = (
    ":root{--ink:#1f2328;--muted:#59636e;--line:#d0d7de;--head:#f3f5f7;--good:#006e4f;"
    "--bad:#b84300;--warn:#8a5a00;--accent:#0072B2}"
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1150px;"
    "margin:1.5em auto;padding:0 1em;line-height:1.45;color:var(--ink)}"
    "h1{font-size:1.6em;margin:0.2em 0 0.4em}h2{font-size:1.2em;margin-top:1.6em;"
    "border-bottom:1px solid var(--line);padding-bottom:0.15em}"
    "p.lead{font-size:1.05em}ul.summary{padding-left:1.2em}ul.summary li{margin:0.25em 0}"
    "table{border-collapse:collapse;font-size:0.85em;margin:0.5em 0 1.2em;"
    "font-variant-numeric:tabular-nums}th,td{border:1px solid var(--line);padding:3px 7px;"
    "text-align:right;vertical-align:top}th{background:var(--head)}"
    "td:first-child,th:first-child{text-align:left}td.text{text-align:left;max-width:460px}"
    "table.sortable th{cursor:pointer}table.sortable th:after{content:' \\2195';"
    "color:var(--muted);font-size:0.8em}"
    "td.sig{font-weight:bold;color:var(--good)}td.sig:after{content:' *'}"
    ".yes,.agrees,.better{color:var(--good);font-weight:bold}"
    ".no,.differs,.worse{color:var(--bad);font-weight:bold}"
    ".in-part,.undecided{color:var(--warn);font-weight:bold}.no-checks,.muted{color:var(--muted)}"
    "p.evidence{color:var(--warn)}"
    "figure{margin:0.6em 0 1.2em}figure img{max-width:100%;border:1px solid #eee}"
    "figcaption{color:var(--muted);font-size:0.85em}"
    "details{margin:0.4em 0 0.8em}summary{cursor:pointer;font-weight:600}"
    "nav{margin-bottom:1em;font-size:0.9em}nav a,.files a{color:var(--accent)}"
    ".files{font-size:0.7em;font-weight:normal;color:var(--muted)}"
    "p.provenance{font-size:0.85em;color:var(--muted)}"
    "pre{background:#f6f8fa;padding:0.5em;overflow-x:auto}"
    "table.index th,table.index td{text-align:left}"
    "@media screen and (max-width:760px){table{display:block;overflow-x:auto}}"
    "@media print{nav,.no-print{display:none}details{display:block}"
    "details>*{display:block}body{max-width:none;margin:0}figure img{border:none}"
    "h2{break-after:avoid}table,figure{break-inside:avoid}}"
)

#: clicking a column head sorts a ``sortable`` table by it (numbers as numbers)
_SORTER = (
    "<script>document.querySelectorAll('table.sortable').forEach(function(t){"
    "t.querySelectorAll('thead th').forEach(function(th,i){th.addEventListener('click',"
    "function(){var b=t.tBodies[0],rows=Array.from(b.rows),up=th.dataset.up!=='1';"
    "th.dataset.up=up?'1':'0';rows.sort(function(r,s){var x=r.cells[i].dataset.v||"
    "r.cells[i].textContent,y=s.cells[i].dataset.v||s.cells[i].textContent,"
    "a=parseFloat(x),c=parseFloat(y);var d=(isNaN(a)||isNaN(c))?x.localeCompare(y):a-c;"
    "return up?d:-d});rows.forEach(function(r){b.appendChild(r)})})})});</script>"
)


def escape(text: Any) -> str:
    """``text`` as HTML text, shown literally (quotes too).

    Examples
    --------
    >>> escape("<b> & 'x'")
    '&lt;b&gt; &amp; &#x27;x&#x27;'
    """
    return html.escape(str(text), quote=True)


def document(title: str, body: str, *, nav: str = "", lang: str = "en") -> str:
    """A whole page: the template every measurelab page uses.

    Parameters
    ----------
    title : str
        Shown as the page's title and its first heading (escaped).
    body : str
        HTML of the page below the heading.
    nav : str, optional
        HTML of a navigation line above the heading (hidden in print).
    """
    nav_html = f"<nav>{nav}</nav>" if nav else ""
    return ("<!DOCTYPE html>\n"
            f"<html lang='{escape(lang)}'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width,initial-scale=1'>"
            f"<title>{escape(title)}</title><style>{STYLESHEET}</style></head>\n<body>"
            f"{nav_html}<h1>{escape(title)}</h1>\n{body}\n{_SORTER}</body></html>\n")


def is_probability_column(name: Any) -> bool:
    """Whether a column holds p-values or probabilities, shown '< 0.001' below 0.001:
    ``p``, ``pvalue``, ``p_*`` (``p_holm``, ``p_a_better``, ``p_rope``), ``*_p``.

    Examples
    --------
    >>> [is_probability_column(c) for c in ("p_holm", "friedman_p", "prob", "diff")]
    [True, True, False, False]
    """
    c = str(name).lower()
    return c in ("p", "pvalue", "p_value") or c.startswith("p_") or c.endswith("_p")


def library_version() -> str:
    """measurelab's version, as the running package states it (``measurelab.__version__``,
    read from the loaded package: pages sit below it in the layers).

    Examples
    --------
    >>> import measurelab
    >>> library_version() == measurelab.__version__
    True
    """
    import sys

    return str(getattr(sys.modules.get("measurelab"), "__version__", "unknown"))


def stamp() -> dict[str, str]:
    """The last two items of every provenance line: the version and the UTC date.

    Examples
    --------
    >>> sorted(stamp())
    ['date', 'measurelab']
    """
    import datetime

    return {"measurelab": library_version(),
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")}


def provenance(items: Any) -> str:
    """Where a page's numbers come from, as one compact line of ``name: value`` pairs
    (``items`` a mapping; None values left out), e.g. the input, n, positives, the
    threshold, the positive label, n_boot, the seed, the level, the version and the date.

    Examples
    --------
    >>> provenance({"n": 200, "seed": 0, "input": None})
    "<p class='provenance'><b>Provenance</b> — n: 200 · seed: 0</p>"
    """
    pairs = [f"{escape(k)}: {escape(v)}" for k, v in dict(items).items() if v is not None]
    return "<p class='provenance'><b>Provenance</b> — " + " · ".join(pairs) + "</p>"


def _cell(v: Any, float_fmt: str, mark: bool, prob: bool = False) -> str:
    import numpy as np

    cls = ["sig"] if mark else []
    if isinstance(v, bool | np.bool_):
        word = "yes" if v else "no"
        return f"<td class='{word}'>{word}</td>"
    if isinstance(v, int | np.integer):
        return f"<td data-v='{int(v)}'>{int(v)}</td>"
    if isinstance(v, float | np.floating):
        x = float(v)
        if math.isnan(x):
            return "<td data-v='' class='muted'>—</td>"
        attr = f" class='{' '.join(cls)}'" if cls else ""
        shown = "&lt; 0.001" if prob and 0.0 <= x < 0.001 else f"{x:{float_fmt}}"
        return f"<td data-v='{x!r}'{attr}>{shown}</td>"
    text = str(v)
    if len(text) > 25:
        cls.append("text")
    attr = f" class='{' '.join(cls)}'" if cls else ""
    return f"<td{attr}>{escape(text)}</td>"


def table(df: Any, *, float_fmt: str = ".4g", index: bool = True, sortable: bool = False,
          marks: Any = None, caption: str = "") -> str:
    """A DataFrame as an HTML table.

    Parameters
    ----------
    df : pandas.DataFrame
    float_fmt : format of floats (NaN is shown as —)
    index : whether the index columns are shown (as row headers)
    sortable : a click on a column head sorts the rows by it
    marks : DataFrame of bool with ``df``'s shape, optional
        Cells to mark as significant (bold, with an asterisk: not by colour alone).
    caption : str, optional

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"p": [0.01, 0.3]}, index=pd.Index(["a", "b"], name="pair"))
    >>> t = table(df, marks=df < 0.05, sortable=True)
    >>> "class='sortable'" in t and "class='sig'>0.01<" in t
    True
    """
    names = list(df.index.names) if index else []
    head = "".join(f"<th>{escape(n or '')}</th>" for n in names)
    head += "".join(f"<th>{escape(c)}</th>" for c in df.columns)
    mark_rows = None if marks is None else marks.to_numpy()
    probs = [is_probability_column(c) for c in df.columns]  # '< 0.001' below 0.001
    body = []
    for r, (key, row) in enumerate(df.iterrows()):
        keys = key if isinstance(key, tuple) else (key,)
        tds = "".join(f"<th>{escape(k)}</th>" for k in keys) if index else ""
        tds += "".join(_cell(v, float_fmt, bool(mark_rows[r, c]) if mark_rows is not None
                             else False, probs[c]) for c, v in enumerate(row.tolist()))
        body.append(f"<tr>{tds}</tr>")
    cls = " class='sortable'" if sortable else ""
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return (f"<table{cls}>{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody>"
            "</table>")


def details(summary: str, inner: str, *, open: bool = False) -> str:
    """A collapsed section (``<details>``): ``summary`` shown, ``inner`` on a click; open
    in print.

    Examples
    --------
    >>> details("All tests (12 rows)", "<p>x</p>")
    '<details><summary>All tests (12 rows)</summary>\\n<p>x</p></details>'
    """
    return (f"<details{' open' if open else ''}><summary>{escape(summary)}</summary>\n"
            f"{inner}</details>")


def figure(src: str, alt: str, caption: str = "") -> str:
    """A figure: ``src`` is a file name beside the page or a ``data:`` URI.

    Examples
    --------
    >>> figure("roc.png", "ROC curves")
    "<figure><img src='roc.png' alt='ROC curves'></figure>"
    """
    cap = f"<figcaption>{escape(caption)}</figcaption>" if caption else ""
    return f"<figure><img src='{escape(src)}' alt='{escape(alt)}'>{cap}</figure>"


def figure_bytes(fig: Any, fmt: str = "png", dpi: int = 110) -> bytes:
    """A matplotlib figure rendered once, as every page embeds or writes it: cropped to its
    drawing with a margin of 0.1 inch (what ``bbox_inches="tight"`` gives, without its
    second layout pass), x tick labels kept apart
    (:func:`~measurelab._util.figures.legible_ticks`); the figure stays open.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> figure_bytes(plt.figure(figsize=(1, 1)))[:4]
    b'\\x89PNG'
    """
    import io

    from measurelab._util.figures import legible_ticks

    legible_ticks(fig)
    buf = io.BytesIO()
    if fmt == "png":
        png = _cropped_png(fig, dpi)
        if png is not None:
            return png
    fig.savefig(buf, format=fmt, dpi=dpi, bbox_inches="tight")
    return buf.getvalue()


def _cropped_png(fig: Any, dpi: int) -> bytes | None:
    """``fig`` drawn once on an Agg canvas at ``dpi`` and cropped to what differs from its
    background, 0.1 inch around; None when the drawing may go beyond the canvas (ink at its
    edge, or a figure text or legend placed outside: the caller's tight bounding box
    measures it) or the background is not opaque."""
    import io

    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import to_rgba
    from PIL import Image

    face = to_rgba(fig.get_facecolor())
    if face[3] != 1.0:
        return None
    old_canvas, old_dpi = fig.canvas, fig.dpi
    try:
        canvas = FigureCanvasAgg(fig)
        fig.dpi = dpi
        canvas.draw()
        rgba = np.asarray(canvas.buffer_rgba())
        renderer = canvas.get_renderer()
        loose = [*fig.texts, *fig.legends, *(a.get_legend() for a in fig.axes)]
        if not all(fig.bbox.contains(b.x0, b.y0) and fig.bbox.contains(b.x1, b.y1)
                   for b in (a.get_window_extent(renderer) for a in loose
                             if a is not None and a.get_visible())):
            return None
    finally:
        fig.dpi = old_dpi
        fig.set_canvas(old_canvas)
    ink = (rgba[..., :3] != np.round(np.array(face[:3]) * 255).astype(np.uint8)).any(axis=2)
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    h, w = ink.shape
    if rows.size == 0 or rows[0] == 0 or cols[0] == 0 or rows[-1] == h - 1 or \
            cols[-1] == w - 1:
        return None
    pad = round(0.1 * dpi)
    r0, r1, c0, c1 = rows[0] - pad, rows[-1] + 1 + pad, cols[0] - pad, cols[-1] + 1 + pad
    out = np.empty((r1 - r0, c1 - c0, 3), np.uint8)
    out[:] = np.round(np.array(face[:3]) * 255).astype(np.uint8)
    src = rgba[max(r0, 0):min(r1, h), max(c0, 0):min(c1, w), :3]
    out[max(r0, 0) - r0:max(r0, 0) - r0 + src.shape[0],
        max(c0, 0) - c0:max(c0, 0) - c0 + src.shape[1]] = src
    buf = io.BytesIO()
    Image.fromarray(out, "RGB").save(buf, format="png", dpi=(dpi, dpi))
    return buf.getvalue()


def png_data_uri(png: bytes) -> str:
    """PNG bytes as a ``data:`` URI a page embeds (:func:`figure`'s ``src``).

    Examples
    --------
    >>> png_data_uri(b"x")
    'data:image/png;base64,eA=='
    """
    import base64

    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")
