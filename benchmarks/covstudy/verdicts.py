"""From the cells' coverage to a verdict per measure and setting, and the evidence file
measurelab reads (:mod:`measurelab.inference.evidence`).

A setting is a measure × classes (binary or k) × design (random or fixed) × kind of
interval (single model, paired or unpaired difference), and for k classes the averages it
holds for (all three for a measure whose value does not depend on ``average``). Its cells
are every cell of the plan that ran it; for one model's interval each of the two models
counts on its own (a user may hold either: with the calibrated generator one is
calibrated, the other not). The verdict "covers" means the lowest coverage over those
cells and models is at least :data:`BAR` (the project's bar; the mean should be near the
nominal 0.95). A run with fewer than :data:`MIN_SIMS` simulations per cell is marked
preliminary: its figures show that the harness runs, not that an interval covers, and
measurelab reads them as no evidence.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from measurelab.inference.evidence import procedure

from .cells import ALL, LEVEL
from .generators import GEN_NOTE

#: a setting covers when its lowest coverage is at least this (nominal 0.95)
BAR = 0.90
#: fewer simulations per cell than this make a run preliminary (MC error of a coverage
#: near 0.95 above 0.015)
MIN_SIMS = 200
#: version of the evidence file (what :mod:`measurelab.inference.evidence` reads)
EVIDENCE_SCHEMA = 1
#: the designs measurelab's intervals have (the study's random-stratified one is a lesson,
#: not a setting; ``weighted``: weighted cases, measurelab's design 'weighted')
LIBRARY_DESIGNS = ("random", "fixed", "weighted")
#: the fields of each cell's figures in the evidence file (``param``: the prevalence, or
#: the number of classes; ``model``: 'a', 'b' or 'a-b'; ``undefined``: NaN intervals;
#: ``smaller``: the cell's expected number of cases in the smaller class, :func:`smaller`,
#: which measurelab's reader sorts into :data:`BRACKETS`; new fields go at the end)
CELL_FIELDS = ["generator", "n", "param", "average", "model", "coverage", "mcse",
               "undefined", "smaller"]
#: the regimes of the cases in the smaller class: (label, lowest count), each bracket up to
#: the next one's lowest count (the same labels and limits as measurelab's reader,
#: :mod:`measurelab.inference.evidence`)
BRACKETS: tuple[tuple[str, int], ...] = (("< 10", 0), ("10–29", 10), ("30–99", 30),
                                         ("100–999", 100), ("≥ 1,000", 1000))
_AVERAGES = ("macro", "weighted", "micro")
#: the generators whose model a is calibrated (b over-confident): a verdict's cell says which
CALIBRATED_A = ("calibrated", "softmax-calibrated", "calibrated-exact")


def smaller(task: str, generator_name: str, n: int, prevalence: float = math.nan,
            classes: int = 2) -> int:
    """A cell's expected number of cases in the smaller class: binary round(n·min(π, 1 −
    π)); k classes round(n·min(priors)), the priors of the k-class generator."""
    if task == "binary":
        return round(n * min(prevalence, 1.0 - prevalence))
    from .generators import generator

    return round(n * min(generator("k", generator_name, int(classes)).priors))


def bracket(count: float) -> str:
    """The label of the bracket (:data:`BRACKETS`) that holds ``count`` cases."""
    label = BRACKETS[0][0]
    for name, low in BRACKETS:
        if count >= low:
            label = name
    return label


def where(row: Any) -> str:
    """The cell (and model) of a summary row, as a verdict names it: 'n=100, π=0.05',
    'k=3, n=300', with ', calibrated model' / ', over-confident model' / ', calibrated vs
    over-confident' for the generators with a calibrated model."""
    if row.task == "binary":
        text = f"n={int(row.n)}, π={float(row.prevalence):g}"
    else:
        text = f"k={int(row.classes)}, n={int(row.n)}"
    if row.generator in CALIBRATED_A:
        text += {"a": ", calibrated model", "b": ", over-confident model"}.get(
            row.model, ", calibrated vs over-confident")
    return text + GEN_NOTE.get(row.generator, "")


def rows_read(summary: pd.DataFrame) -> pd.DataFrame:
    """The rows a verdict reads: every simulation (method 'all'), each model apart for a
    single model's interval, the difference for the others, library designs only."""
    keep = ((summary.method == ALL) & summary.design.isin(LIBRARY_DESIGNS)
            & (((summary.kind == "single") & summary.model.isin(["a", "b"]))
               | ((summary.kind != "single") & (summary.model == "a-b"))))
    return summary[keep]


def settings(summary: pd.DataFrame, average_free: Mapping[str, Sequence[str]] | None = None
             ) -> pd.DataFrame:
    """One row per setting: ``measure, classes, design, kind, averages, methods, cells,
    lowest, where, mean, mcse_lowest, covers`` and the per-cell figures (``figures``).

    ``average_free[measure]``: the averages for which a k-class measure has the macro
    value (from :func:`measurelab.inference.classifiers.offered.offered_intervals`); a
    measure listed with all three holds one entry for every average.
    """
    free = {m: set(v) for m, v in (average_free or {}).items()}
    rows = rows_read(summary).copy()
    rows["classes_key"] = ["binary" if t == "binary" else "k" for t in rows.task]
    rows["avg_key"] = [
        "" if t == "binary" else ("any" if free.get(m, set()) >= set(_AVERAGES) else a)
        for t, m, a in zip(rows.task, rows.measure, rows.average, strict=True)]
    methods = _methods(summary)
    out = []
    for (m, cls, d, kind, avg), g in rows.groupby(
            ["measure", "classes_key", "design", "kind", "avg_key"], sort=False):
        low = g.loc[g.coverage.idxmin()]
        cells = g.drop_duplicates(["generator", "n", "prevalence", "classes", "average"])
        seen = sorted(methods.get((m, cls, d, kind), set()))
        out.append({
            "measure": m, "classes": cls, "design": d, "kind": kind,
            "averages": [] if cls == "binary" else (list(_AVERAGES) if avg == "any"
                                                    else [avg]),
            "methods": seen, "cells": len(cells), "lowest": float(low.coverage),
            "where": where(low), "mean": float(g.coverage.mean()),
            "mcse_lowest": float(low.mcse), "covers": bool(low.coverage >= BAR),
            "figures": [_figures(r) for r in g.itertuples(index=False)],
        })
    return pd.DataFrame(out)


def _figures(r: Any) -> list[Any]:
    """One cell's figures in the order of :data:`CELL_FIELDS`. The coverage as it is (a
    share of the simulations: 500 or 1,000 give three decimals, 300 do not), so that the
    cells by bracket add up to the entry's lowest and mean exactly."""
    param = float(r.prevalence) if r.task == "binary" else int(r.classes)
    return [r.generator, int(r.n), param, r.average if r.task == "k" else "", r.model,
            float(r.coverage), _plain(round(float(r.mcse), 4)), int(r.undefined),
            smaller(r.task, r.generator, int(r.n), float(r.prevalence), int(r.classes))]


def _methods(summary: pd.DataFrame) -> dict[tuple[str, str, str, str], set[str]]:
    """The method texts seen per (measure, classes, design, kind)."""
    s = summary[(summary.method != ALL) & (summary.method != "error")]
    out: dict[tuple[str, str, str, str], set[str]] = {}
    for r in s[["measure", "task", "design", "kind", "method"]].drop_duplicates().itertuples():
        key = (r.measure, "binary" if r.task == "binary" else "k", r.design, r.kind)
        out.setdefault(key, set()).add(procedure(str(r.method)))
    return out


def _plain(v: Any) -> Any:
    """A JSON-friendly value (NaN → None, numpy → Python)."""
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def evidence_document(table: pd.DataFrame, *, source: str, title: str, sims: int,
                      n_boot: int, command: str, commit: str, engine: str, version: str,
                      grid: Mapping[str, Any], preliminary: bool,
                      sims_by_cell: Mapping[str, int] | None = None) -> str:
    """The evidence file's text: a header and one entry per line (readable diffs).
    ``sims_by_cell``: the cells that ran fewer simulations than ``sims`` (label → number;
    in the header as ``sims_by_cell``, for the reader)."""
    fewer = {k: int(v) for k, v in (sims_by_cell or {}).items() if int(v) != int(sims)}
    head = {
        "schema": EVIDENCE_SCHEMA, "source": source, "title": title,
        "preliminary": bool(preliminary), "level": LEVEL, "bar": BAR, "sims": int(sims),
        **({"sims_by_cell": fewer} if fewer else {}),
        "n_boot": int(n_boot), "commit": commit, "engine": engine, "measurelab": version,
        "command": command, "date": _dt.date.today().isoformat(), "grid": dict(grid),
        "cell_fields": CELL_FIELDS,
    }
    lines = [json.dumps({k: _plain(v) for k, v in {**e, "covers": bool(e["covers"]) and not
                                                    preliminary}.items()},
                        ensure_ascii=False, allow_nan=False)
             for e in table.to_dict(orient="records")]
    body = json.dumps(head, ensure_ascii=False, allow_nan=False)[:-1]
    return body + ', "entries": [\n' + ",\n".join(lines) + "\n]}\n"
