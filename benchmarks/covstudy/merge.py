"""A partial run of a plan merged into the plan's evidence and reports, without re-running
the cells that are already there (``coverage_study.py --plan large --cells … --merge``).

A plan's evidence file and report come from one run of all its cells. When a plan gains
cells (the large-n plan's calibration terms and unpaired differences), a run of only the
new ones (``--cells``, into files of its own) is merged:

* the evidence (:func:`merge_documents`): each setting (measure × classes × design × kind
  × averages) keeps its cells, a cell the part ran again replaced by the part's figures,
  and its verdict recomputed from the figures (lowest coverage, where, mean, covers) —
  the part's own entry where it holds every cell of the setting; the
  header records the part's run (``merged``) and its cells' simulations;
* the plan's report (:func:`merge_report`): its verdict table regenerated from the merged
  evidence, and the part's own report (regimes, cells, population values, time) in a
  section of its own, between markers (a second merge replaces it);
* the registry-wide report, docs/coverage.md (:func:`large_n_section`,
  :func:`replace_section`): the large-n verdicts as a table drawn from the large-n
  evidence file, between markers (the full run writes the same section).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from .report import verdict_table
from .verdicts import BAR, CALIBRATED_A

#: the markers of the part's section in a plan's report, and of the large-n section of
#: docs/coverage.md
ADDED = "added-cells"
LARGE_N = "large-n-verdicts"
#: what identifies a cell's row among a setting's figures (generator, n, param, average,
#: model): the first five fields of ``CELL_FIELDS``
_CELL = 5


def _where(fig: Sequence[Any]) -> str:
    """A figure row's cell as a verdict names it (:func:`covstudy.verdicts.where`)."""
    gen, n, param, average, model = fig[:5]
    text = (f"n={int(n)}, π={float(param):g}" if not average else
            f"k={int(param)}, n={int(n)}")
    if gen in CALIBRATED_A:
        text += {"a": ", calibrated model", "b": ", over-confident model"}.get(
            model, ", calibrated vs over-confident")
    return text


def _key(e: Mapping[str, Any]) -> tuple[Any, ...]:
    return (e["measure"], e["classes"], e["design"], e["kind"], tuple(e.get("averages", ())))


def _combined(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """One setting's entry from two runs: the new figures replace the old ones of the same
    cell and model; the verdict is recomputed from all of them."""
    figs = {tuple(f[:_CELL]): f for f in old["figures"]}
    figs.update({tuple(f[:_CELL]): f for f in new["figures"]})
    rows = list(figs.values())
    low = min(rows, key=lambda f: float(f[5]))
    cells = {tuple(f[:4]) for f in rows}
    return {**old, "methods": sorted(set(old.get("methods", ())) | set(new.get("methods", ()))),
            "cells": len(cells), "lowest": float(low[5]), "where": _where(low),
            "mean": sum(float(f[5]) for f in rows) / len(rows),
            "mcse_lowest": low[6] if low[6] is not None else math.nan,
            "covers": float(low[5]) >= BAR, "figures": rows}


def merge_documents(base: Mapping[str, Any], part: Mapping[str, Any]) -> dict[str, Any]:
    """The evidence of ``base`` (a plan's file) with ``part`` (a run of some of its cells)
    merged in. Both must be final (not preliminary) runs at one level.

    Examples
    --------
    >>> fig = ["g", 100, 0.5, "", "a", 0.95, 0.01, 0, 50]
    >>> e = {"measure": "m", "classes": "binary", "design": "random", "kind": "single",
    ...      "averages": [], "methods": ["x"], "figures": [fig]}
    >>> low = ["g", 200, 0.5, "", "a", 0.88, 0.01, 0, 100]
    >>> doc = merge_documents({"entries": [e], "level": 0.95, "sims": 1000},
    ...     {"entries": [{**e, "figures": [low]}], "level": 0.95, "sims": 400})
    >>> [(x["cells"], x["lowest"], x["where"], x["covers"]) for x in doc["entries"]]
    [(2, 0.88, 'n=200, π=0.5', False)]
    """
    for doc in (base, part):
        if doc.get("preliminary"):
            raise ValueError("a preliminary run is no evidence: it cannot be merged")
    if abs(float(base.get("level", 0.95)) - float(part.get("level", 0.95))) > 1e-12:
        raise ValueError("the two runs are at different levels")
    entries = {_key(e): dict(e) for e in base["entries"]}
    for e in part["entries"]:
        k = _key(e)
        old = entries.get(k)
        # the part's entry as the study wrote it where it holds every cell of the setting
        # (a new setting, or all its cells run again), else the two combined
        whole = old is None or {tuple(f[:_CELL]) for f in old["figures"]} <= {
            tuple(f[:_CELL]) for f in e["figures"]}
        entries[k] = dict(e) if whole else _combined(old, e)
    # the part's cells' simulations stay with its run (a cell's label does not name its
    # kinds of interval, so it may be a label of the base's too)
    again = any(r.get("command") == part.get("command") for r in base.get("merged", []))
    runs = [r for r in base.get("merged", []) if r.get("command") != part.get("command")]
    runs.append({k: part.get(k) for k in ("command", "commit", "engine", "date", "sims",
                                          "sims_by_cell") if k in part})
    grid = {t: dict(v) for t, v in base.get("grid", {}).items()}
    for task, g in part.get("grid", {}).items():
        into = grid.setdefault(task, {})
        for field, v in g.items():
            if field == "cells":   # (a part merged again: its cells are counted)
                into["cells"] = int(into.get("cells", 0)) + (0 if again else int(v))
            else:
                into[field] = sorted(set(into.get(field, [])) | set(v))
    out = {k: v for k, v in base.items() if k != "entries"}
    out.update({"grid": grid, "merged": runs})
    out["entries"] = list(entries.values())
    return out


def dump(doc: Mapping[str, Any]) -> str:
    """An evidence document as the study writes it: the header, then one entry a line."""
    head = {k: v for k, v in doc.items() if k != "entries"}
    lines = [json.dumps(e, ensure_ascii=False, allow_nan=False) for e in doc["entries"]]
    body = json.dumps(head, ensure_ascii=False, allow_nan=False)[:-1]
    return body + ', "entries": [\n' + ",\n".join(lines) + "\n]}\n"


def entries_table(doc: Mapping[str, Any]) -> pd.DataFrame:
    """An evidence file's entries as the verdict table's rows."""
    t = pd.DataFrame(list(doc["entries"]))
    t["mcse_lowest"] = [math.nan if v is None else float(v) for v in t.mcse_lowest]
    return t


def verdict_lines(doc: Mapping[str, Any]) -> list[str]:
    """'k of n settings cover.' and the verdict table of an evidence file."""
    t = entries_table(doc)
    return [f"{int(t.covers.sum())} of {len(t)} settings cover.", "",
            *verdict_table(t, bool(doc.get("preliminary", False)))]


def replace_section(text: str, name: str, lines: Sequence[str], *, before: str) -> str:
    """``text`` with the lines between the markers ``<!-- name:start -->`` and
    ``<!-- name:end -->`` replaced by ``lines``; without the markers, the marked section
    is inserted before the first line starting with ``before`` (else at the end)."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    block = "\n".join([start, *lines, end])
    if start in text and end in text:
        return re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _m: block, text,
                      flags=re.S)
    at = text.find("\n" + before)
    if at < 0:
        return text.rstrip("\n") + "\n\n" + block + "\n"
    return text[:at + 1] + block + "\n\n" + text[at + 1:]


def _demoted(report: str, evidence: str) -> list[str]:
    """A part's report from its regime tables on, its headings one level down, after its
    command and run line (which names ``evidence``, the file its verdicts went into)."""
    lines = report.splitlines()
    first = next((i for i, x in enumerate(lines) if x.startswith("## Coverage by regime")),
                 len(lines))
    head = [x.split(" The verdicts are also in ")[0] + (
        f" Its verdicts are merged into `{evidence}` and the table above."
        if x.startswith("measurelab git") else "")
        for x in lines[:first] if x.startswith(("Command:", "measurelab git"))]
    return [*head, "", *("#" + x if x.startswith("#") else x for x in lines[first:])]


def merge_report(plan_report: str, merged: Mapping[str, Any], part_report: str,
                 title: str, evidence: str) -> str:
    """The plan's report with its verdicts from the merged evidence (the plan's file
    ``evidence``) and the part's report in a section of its own (``title``)."""
    lines = plan_report.splitlines()
    at = lines.index("## Verdicts")
    nxt = next(i for i in range(at + 1, len(lines))   # the next section, or its marker
               if lines[i].startswith(("## ", "<!-- ")))
    text = "\n".join([*lines[:at + 1], "", *verdict_lines(merged), "", *lines[nxt:]]) + "\n"
    section = [f"## {title}", "", *_demoted(part_report, evidence)]
    return replace_section(text, ADDED, section, before="## Population values")


def large_n_section(doc: Mapping[str, Any], path: str, report: str) -> list[str]:
    """docs/coverage.md's section on the large-n study: its verdicts, drawn from its
    evidence file ``doc`` (at ``path``; the study's report at ``report``)."""
    runs = [str(doc.get("command", ""))] + [str(r.get("command", ""))
                                             for r in doc.get("merged", [])]
    return [
        "## At large n: the influence-function intervals", "",
        "From 10,000 cases with 100 in the smaller class the influence-function interval "
        "(θ̂ ± 1.96·SE, the SE a sum over the cases) is measurelab's default for AP, "
        "Brier, RMS, log loss and the debiased calibration terms, and may be forced on "
        "AUC and the functions of the confusion matrix. Its coverage is the large-n "
        f"study's (`{report}`; evidence `{path}`; runs: "
        + "; ".join(f"`{c}`" for c in runs if c) + "). This table is generated from that "
        "evidence file, lowest coverage per setting over its cells and models:", "",
        *verdict_lines(doc), ""]
