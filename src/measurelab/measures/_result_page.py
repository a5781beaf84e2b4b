"""The figure and the page of an :class:`~measurelab.measures.compute.EvaluationResult`:
every measure's value as a point on its own scale (with its interval when the evaluation
has them), and one page in the shared look (:mod:`measurelab.pages`)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from measurelab._util.figures import pyplot as _pyplot  # the one figure helper
from measurelab._util.words import counted


def arrow(m: Any) -> str:
    """The sign of a measure's direction on the evaluation page: ↑ higher, ↓ lower,
    →T closer to a target T.

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> [arrow(registry.get(k)) for k in ("auc", "brier", "spiegelhalter_z")]
    ['↑', '↓', '→0']
    """
    if m.target is not None:
        return f"→{m.target:g}"
    return "↑" if m.higher_is_better else "↓"


def rows(result: Any) -> list[tuple[str, float, float, float, str]]:
    """(name, value, lo, hi, direction arrow) per row; per-class values give a row per
    class (``f1[cat]``); lo and hi are NaN without intervals."""
    ivs = {}
    if result._intervals is not None:
        ivs = {k: (float(v.lo), float(v.hi)) for k, v in result._intervals.items()}
    out = []
    for k, v in result._values.items():
        m = result.measure(k)
        if np.ndim(v) == 1:
            for c, x in zip(result._class_names(v), v, strict=True):
                out.append((f"{k}[{c}]", float(x), math.nan, math.nan, arrow(m)))
        else:
            lo, hi = ivs.get(k, (math.nan, math.nan))
            out.append((k, float(v), lo, hi, arrow(m)))
    return out


def plot(result: Any, measures: Any = None) -> Any:
    """:meth:`EvaluationResult.plot`: a row per measure on its own x-axis (measures live
    on different scales), the value as a point and, with intervals, its interval."""
    plt = _pyplot()
    data = rows(result)
    if measures is not None:
        wanted = list(measures)  # names (EvaluationResult.plot made them text)
        have = {r[0] for r in data}
        missing = [m for m in wanted if m not in have]
        if missing:
            from measurelab.exceptions import MeasurelabError

            raise MeasurelabError(f"measures: {missing[0]!r} is not in this result "
                                  f"(measures: {', '.join(r[0] for r in data)})")
        data = [r for m in wanted for r in data if r[0] == m]
    if not data:
        from measurelab.exceptions import MeasurelabError

        raise MeasurelabError("the result holds no values to plot")
    fig, axes = plt.subplots(len(data), 1, figsize=(6.5, 0.55 * len(data) + 0.6),
                             squeeze=False)
    for ax, (name, v, lo, hi, sign) in zip(axes[:, 0], data, strict=True):
        if math.isfinite(lo) and math.isfinite(hi):
            ax.hlines(0, lo, hi, color="#0072B2", lw=1.8)
        if not math.isnan(v):
            ax.plot([v], [0], "o", color="#0072B2", ms=6)
        ax.set_yticks([0])
        ax.set_yticklabels([name.replace("$", r"\$")], fontsize=9)
        ax.set_ylim(-0.6, 0.6)
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(axis="x", lw=0.4, alpha=0.5)
        shown = "undefined" if math.isnan(v) else f"{v:.4g}"
        ax.text(1.01, 0.5, f"{shown} ({sign})", transform=ax.transAxes, va="center",
                fontsize=8)
    level = "" if result._intervals is None else " with intervals"
    target = "".join(sorted({f", {s} closer to {s[1:]}" for *_, s in data
                             if s.startswith("→")}))
    axes[0, 0].set_title(f"measure values{level} (↑ higher is better, ↓ lower{target})",
                         fontsize=9)
    fig.tight_layout()
    return fig


def _provenance(result: Any) -> dict[str, Any]:
    """A result page's provenance: the measures, the intervals' level, version, date."""
    from measurelab import pages
    level = getattr(result, "confidence_level", None)  # when the result carries it
    level = None if result._intervals is None or level is None else f"{float(level):.0%}"
    return {"input": "measurelab.evaluate", "measures": str(len(result)), "level": level,
            **pages.stamp()}


def to_html(result: Any, path: str | Path | None, title: str) -> Any:
    """:meth:`EvaluationResult.to_html`: the figure, then the table (values; with
    intervals, their ends and methods); ``path`` None returns the page as text."""
    from measurelab import pages
    from measurelab._util.files import check_output_path
    from measurelab._util.pageset import write_page_set
    from measurelab._util.validation import short_repr
    from measurelab.exceptions import MeasurelabTypeError
    from measurelab.measures.glossary import glossary_html

    if path is not None:
        path = check_output_path(path, "path")
    if not isinstance(title, str):
        raise MeasurelabTypeError(f"title must be text, got {short_repr(title)}")
    plt = _pyplot()
    fig = plot(result)
    png = pages.figure_bytes(fig)
    plt.close(fig)
    table = result.intervals() if result._intervals is not None else \
        result.to_frame().reset_index()[["measure", "value", "direction", "range", "note"]]
    body = "\n".join([
        f"<p class='lead'>{counted(len(table), 'measure value')}"
        + ("" if result._intervals is None else " with intervals") + ".</p>",
        pages.figure(pages.png_data_uri(png), "each measure's value on its own scale"),
        "<h2>Values</h2>", pages.table(table, index=False, sortable=True),
        "<h2>What the numbers are</h2>", pages.provenance(_provenance(result)),
        glossary_html([str(k) for k in result], open=True)])
    page = pages.document(title, body)
    if path is None:
        return page
    write_page_set({path: page.encode("utf-8")})  # an OSError is one line naming path
    return path


def repr_html(result: Any) -> str:
    """What a notebook shows: the values (and intervals) as a table."""
    from measurelab import pages

    table = result.intervals() if result._intervals is not None else \
        result.to_frame().reset_index()[["measure", "value", "direction"]]
    return pages.table(table, index=False)
