"""The page of a multi-label comparison (:meth:`MultiLabelComparison.to_html`): the answer
in words, the forest plot of its rows, a forest plot per per-label measure (a row per
label), then every table, collapsed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from measurelab._util.figures import pyplot


def _significance_marks(t: Any, alpha: float) -> Any:
    marks = t.copy()
    for c in marks.columns:
        marks[c] = False
    marks["p_holm"] = t["p_holm"] < alpha
    return marks


def figures(cmp: Any) -> list[tuple[str, str, str, Any]]:
    """(file stem, heading, alt text, Figure) of the page, in order."""
    out: list[tuple[str, str, str, Any]] = []
    if cmp.level is None:
        return out
    out.append(("forest", "Values and differences with their intervals",
                "forest plot: each measure's interval per model and per pair",
                cmp.plot_intervals()))
    per = cmp.per_label() if any(cmp._columns[j][2] is None for j in range(len(cmp._columns))
                                 ) else cmp
    base = list(dict.fromkeys(c.split("[", 1)[0] for c in per._names_m if "[" in c))
    for name in base:
        rows = [c for c in per._names_m if c.split("[", 1)[0] == name]
        out.append((f"labels-{name}", f"{name} per label",
                    f"forest plot: {name} of every label per model and per pair",
                    per.plot_intervals(rows)))
    return out


def write_page(cmp: Any, path: str | Path, *, title: str, files: bool = False) -> Path:
    """Write ``cmp``'s page to ``path`` (with ``files``, its JSON beside it)."""
    from measurelab import pages
    from measurelab._util.pageset import check_page_set, side_path, write_page_set
    from measurelab._util.validation import check_flag

    files = check_flag(files, "files")
    path = check_page_set(path, [".json"] if files else [], "path")   # before any work
    plt = pyplot()
    body = [f"<p>{pages.escape(repr(cmp).splitlines()[0])}</p>"]
    if cmp.level is not None:
        body += [f"<p>{pages.escape(line)}</p>" for line in cmp.summary().splitlines()]
    for _stem, head, alt, fig in figures(cmp):
        png = pages.figure_bytes(fig)
        plt.close(fig)
        body += [f"<h2>{pages.escape(head)}</h2>", pages.figure(pages.png_data_uri(png), alt)]
    body.append("<h2>Tables</h2>")
    body.append(pages.details(f"All values ({len(cmp._names_m)} rows × {len(cmp.names)} "
                              "models)", pages.table(cmp.values(), sortable=True)))
    if cmp.level is not None:
        alpha = 1.0 - cmp.level
        body.append(pages.details("All intervals", pages.table(cmp.intervals(), index=False,
                                                               sortable=True)))
        if len(cmp.names) > 1:
            t = cmp.tests()
            body.append(pages.details(
                f"All paired tests ({len(t)} rows; Holm-adjusted over them; * p_holm < "
                f"{alpha:.2g})", pages.table(t, index=False, sortable=True,
                                             marks=_significance_marks(t, alpha))))
        if any(c[2] is None for c in cmp._columns):
            per = cmp.per_label()
            if per._names_m:
                body.append(pages.details("Per-label intervals",
                                          pages.table(per.intervals(), index=False,
                                                      sortable=True)))
                if len(cmp.names) > 1:
                    t = per.tests()
                    body.append(pages.details(
                        f"Per-label paired tests ({len(t)} rows; Holm-adjusted over the "
                        f"per-label rows; * p_holm < {alpha:.2g})",
                        pages.table(t, index=False, sortable=True,
                                    marks=_significance_marks(t, alpha))))
    page = pages.document(title, "\n".join(body))
    out = {path: page.encode("utf-8")}
    if files:
        out[side_path(path, ".json")] = cmp.to_json().encode("utf-8")
    write_page_set(out)   # all or nothing
    return path


def repr_html(cmp: Any) -> str:
    """What a notebook shows for a multi-label comparison: what was compared, the summary
    and the forest plot of its rows."""
    from measurelab import pages

    parts = [f"<p>{pages.escape(repr(cmp).splitlines()[0])}</p>"]
    if cmp.level is not None:
        parts += [f"<p>{pages.escape(line)}</p>" for line in cmp.summary().splitlines()]
        plt = pyplot()
        fig = cmp.plot_intervals()
        parts.append(pages.figure(pages.png_data_uri(pages.figure_bytes(fig)),
                                  "forest plot of the measures"))
        plt.close(fig)
    else:
        parts.append(pages.table(cmp.values()))
    return "<div class='measurelab-comparison'>" + "\n".join(parts) + "</div>"
