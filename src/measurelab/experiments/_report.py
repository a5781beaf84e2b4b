"""The shape every reproduction returns: tables with the paper's number beside ours.

A :class:`Report` holds a title, paragraphs, tables (pandas DataFrames; a comparison table
has the columns ``paper``, ``ours``, ``diff`` and ``note``) and figures (matplotlib
figures saved as PNG/SVG). :meth:`Report.write` writes ``NAME.md``, one CSV per table and
the figures to a folder, atomically (a file appears whole or not at all).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from measurelab._files import atomic_write_text  # re-exported: callers import it from here


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


@dataclass
class Report:
    """A reproduction's result: paragraphs, tables and figures."""

    name: str
    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

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
        settings = {k: v for k, v in self.meta.items() if k not in ("captions", "_rendered")}
        if settings:
            parts.append("## Settings\n")
            parts.append("```json\n" + json.dumps(settings, indent=1, default=str) + "\n```\n")
        return "\n".join(parts)

    def write(self, out: str | Path) -> list[Path]:
        """Write Markdown, CSVs and figures into ``out``; returns the paths written."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        written = []
        md = out / f"{self.name}.md"
        atomic_write_text(md, self.to_markdown())
        written.append(md)
        for name, df in self.tables.items():
            p = out / f"{self.name}-{name}.csv"
            atomic_write_text(p, df.to_csv())
            written.append(p)
        for name in self.figures:
            for ext, data in self._rendered(name).items():
                p = out / f"{self.name}-{name}.{ext}"
                tmp = p.with_name(f".{p.name}.tmp")
                tmp.write_bytes(data)
                os.replace(tmp, p)
                written.append(p)
        return written

    def _rendered(self, name: str) -> dict[str, bytes]:
        """PNG and SVG bytes of a figure, rendered once; the matplotlib figure is then
        closed, so many reports (``reproduce all``) do not pile up open figures."""
        cache = self.meta.setdefault("_rendered", {})
        if name not in cache:
            import io

            fig = self.figures[name]
            cache[name] = {}
            for ext in ("png", "svg"):
                buf = io.BytesIO()
                fig.savefig(buf, format=ext, bbox_inches="tight", dpi=120)
                cache[name][ext] = buf.getvalue()
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
