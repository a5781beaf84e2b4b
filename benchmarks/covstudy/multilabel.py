"""The multi-label coverage study (``--plan multilabel``, issue 43): do the bootstrap
intervals of the multi-label measures, and of the paired differences of two models, cover?

**Generator** (``correlated-labels``): L labels whose truths share a case factor — label j
of case i is true when ``√ρ·z_i + √(1−ρ)·e_ij > c_j`` (ρ = 0.4; the thresholds c_j give
prevalences spread evenly from 0.08 to 0.45) — and two models whose scores are
``sigmoid(μ·(2y − 1) + 0.6·z_i + ε)``, μ = 1.3 (a) and 0.9 (b), their noises correlated
0.5 (paired models see the same cases). The scores share the case factor too, so a case's
labels are ranked together, as the label-ranking measures assume.

**Targets**: each measure on a population sample of 200,000 cases (the summary's exact
values; their Monte Carlo error, below 0.003, is small beside the intervals' widths).

**Cells**: L = 5 and 20 × n = 300 and 1,000, random design (the cases are a random sample;
a replicate resamples the cases jointly), every multi-label measure at ``average='macro'``
(those that do not depend on the average hold for every average), one model's interval
for each of the two models and the paired difference; and one cell (L = 5, n = 1,000) at
'micro' and 'samples' for the measures whose value depends on the average.

Run (about 15 minutes on one core)::

    nice -n 15 python benchmarks/coverage_study.py --plan multilabel --sims 200 \\
        --n-boot 500 --cache out/coverage-multilabel
"""

from __future__ import annotations

import json
import math
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.special import expit, ndtri

from measurelab.inference.withholding import withholding

from .store import atomic_write_json, atomic_write_text, engine_fingerprint, git_head
from .verdicts import BAR, MIN_SIMS, evidence_document

SOURCE = "multilabel"
TITLE = "measurelab's multi-label coverage study (benchmarks/coverage_study.py --plan multilabel)"
EVIDENCE = Path("src/measurelab/data/coverage/multilabel.json")
REPORT = Path("docs/coverage_multilabel.md")
COMMAND = ("nice -n 15 python benchmarks/coverage_study.py --plan multilabel --sims 200 "
           "--n-boot 500 --cache out/coverage-multilabel")
GENERATOR = "correlated-labels"
RHO = 0.4
POP = 200_000
#: every multi-label measure
MEASURES = ("hamming_loss", "subset_acc", "jaccard", "prec", "sens", "f1", "acc", "auc",
            "ap", "lrap", "coverage_error", "ranking_loss")
#: the measures whose value does not depend on ``average``
AVERAGE_FREE = ("hamming_loss", "subset_acc", "lrap", "coverage_error", "ranking_loss")
ALL_AVERAGES = ["micro", "macro", "weighted", "samples"]


@dataclass(frozen=True)
class MLCell:
    labels: int
    n: int
    average: str = "macro"

    def label(self) -> str:
        return f"L={self.labels}, n={self.n}" + (
            "" if self.average == "macro" else f", {self.average}")

    def measures(self) -> tuple[str, ...]:
        if self.average == "macro":
            return MEASURES
        return tuple(m for m in MEASURES if m not in AVERAGE_FREE and m != "acc")

    def prevalences(self) -> np.ndarray:
        return np.linspace(0.08, 0.45, self.labels)

    def smaller(self) -> int:
        """The expected cases in the smallest class of any label."""
        p = self.prevalences()
        return round(self.n * float(np.min(np.minimum(p, 1 - p))))


CELLS = (MLCell(5, 300), MLCell(5, 1000), MLCell(20, 300), MLCell(20, 1000),
         MLCell(5, 1000, "micro"), MLCell(5, 1000, "samples"))


def draw(cell: MLCell, n: int, rng: np.random.Generator
         ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """``n`` cases of the generator: the true label sets and the two models' scores."""
    L = cell.labels
    c = ndtri(1 - cell.prevalences())
    z = rng.standard_normal((n, 1))
    Y = math.sqrt(RHO) * z + math.sqrt(1 - RHO) * rng.standard_normal((n, L)) > c
    ea = rng.standard_normal((n, L))
    eb = 0.5 * ea + math.sqrt(0.75) * rng.standard_normal((n, L))
    sign = 2.0 * Y - 1.0
    return Y, {"a": expit(1.3 * sign + 0.6 * z + ea), "b": expit(0.9 * sign + 0.6 * z + eb)}


def population(cell: MLCell, seed: int = 12345) -> dict[str, dict[str, float]]:
    """Each model's value of every measure on a population sample of :data:`POP` cases."""
    import measurelab as ml

    Y, models = draw(cell, POP, np.random.default_rng([seed, cell.labels]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {k: {m: float(v) for m, v in ml.evaluate(Y, S, measures=list(cell.measures()),
                                                         average=cell.average).items()}
                for k, S in models.items()}


def run_cell(cell: MLCell, sims: int, n_boot: int, seed: int, cache: Path,
             progress: bool = True) -> dict[str, Any]:
    """The cell's intervals over ``sims`` simulations (resumed from ``cache``)."""
    import measurelab as ml

    path = cache / (f"ml-L{cell.labels}-n{cell.n}-{cell.average}-s{sims}-b{n_boot}-"
                    f"seed{seed}.json")
    if path.exists():
        return json.loads(path.read_text())
    truth = population(cell)
    rows: list[list[Any]] = []
    t0 = time.process_time()
    for i in range(sims):
        Y, models = draw(cell, cell.n, np.random.default_rng([seed, cell.labels, cell.n, i]))
        with warnings.catch_warnings(), withholding(False):   # the method, not the policy
            warnings.simplefilter("ignore")
            r = ml.compare_classifiers(Y, models, measures=list(cell.measures()),
                                       average=cell.average, n_boot=n_boot,
                                       random_state=i, progress=False)
            iv, t = r.intervals(), r.tests()
        for x in iv.itertuples(index=False):
            rows.append([x.measure, x.model, float(x.lo), float(x.hi),
                         truth[x.model][x.measure], str(x.method).split(" (")[0]])
        for x in t.itertuples(index=False):
            rows.append([x.measure, "a-b", float(x.lo), float(x.hi),
                         truth["a"][x.measure] - truth["b"][x.measure], "bootstrap-bca"])
        if progress and (i + 1) % 20 == 0:
            print(f"  {cell.label()}: {i + 1}/{sims} ({time.process_time() - t0:.0f} s CPU)",
                  flush=True)
    out = {"cell": cell.__dict__, "sims": sims, "n_boot": n_boot, "rows": rows,
           "cpu_seconds": time.process_time() - t0}
    cache.mkdir(parents=True, exist_ok=True)
    atomic_write_json(path, out)
    return out


def summarise(cell: MLCell, res: dict[str, Any]) -> pd.DataFrame:
    """Coverage per measure and model of one cell."""
    d = pd.DataFrame(res["rows"], columns=["measure", "model", "lo", "hi", "truth", "method"])
    d["undefined"] = d.lo.isna() | d.hi.isna()
    d["cover"] = (d.lo <= d.truth) & (d.truth <= d.hi)
    out = []
    for (m, model), g in d.groupby(["measure", "model"], sort=False):
        k = len(g)
        cov = float(g.cover.mean())
        out.append({"measure": m, "model": model, "labels": cell.labels, "n": cell.n,
                    "average": cell.average, "coverage": cov,
                    "mcse": math.sqrt(max(cov * (1 - cov), 1e-12) / k),
                    "undefined": int(g.undefined.sum()),
                    "width": float((g.hi - g.lo).median()), "smaller": cell.smaller()})
    return pd.DataFrame(out)


def settings(summary: pd.DataFrame) -> pd.DataFrame:
    """One evidence entry per measure × kind × average group."""
    out = []
    summary = summary.copy()
    summary["kind"] = np.where(summary.model == "a-b", "paired", "single")
    summary["avg_key"] = [("any" if m in AVERAGE_FREE else a)
                          for m, a in zip(summary.measure, summary.average, strict=True)]
    for (m, kind, avg), g in summary.groupby(["measure", "kind", "avg_key"], sort=False):
        low = g.loc[g.coverage.idxmin()]
        cells = g.drop_duplicates(["labels", "n", "average"])
        out.append({
            "measure": m, "classes": "multilabel", "design": "random", "kind": kind,
            "averages": ALL_AVERAGES if avg == "any" else [avg],
            "methods": ["bootstrap-bca"], "cells": len(cells), "lowest": float(low.coverage),
            "where": f"L={int(low.labels)}, n={int(low.n)}",   # as the reader names a cell
            "mean": float(g.coverage.mean()), "mcse_lowest": float(low.mcse),
            "covers": bool(low.coverage >= BAR),
            "figures": [[GENERATOR, int(r.n), int(r.labels),
                         "" if r.measure in AVERAGE_FREE else r.average, r.model,
                         round(float(r.coverage), 4), round(float(r.mcse), 4),
                         int(r.undefined), int(r.smaller)]
                        for r in g.itertuples(index=False)],
        })
    return pd.DataFrame(out)


def report(summary: pd.DataFrame, table: pd.DataFrame, sims: int, n_boot: int,
           cpu: float) -> str:
    """The Markdown report."""
    lines = [
        "# Coverage of measurelab's 95% multi-label intervals",
        "",
        "Generated by `benchmarks/coverage_study.py --plan multilabel` "
        f"(`{COMMAND}`); {sims} simulations a cell, {n_boot} bootstrap replicates, "
        f"{cpu / 60:.1f} minutes of CPU in all. The bar: the lowest coverage over a "
        f"setting's cells and models at least {BAR:.2f} (nominal 0.95); Monte Carlo SE near "
        f"0.95 with {sims} simulations: {math.sqrt(0.95 * 0.05 / sims):.3f}.",
        "",
        "**Generator** (`correlated-labels`): L labels sharing a case factor (ρ = 0.4), "
        "prevalences 0.08 to 0.45; two models whose scores share the case factor and whose "
        "noises are correlated 0.5. **Targets**: the measures on 200,000 cases. **Cells**: "
        "L = 5 and 20 × n = 300 and 1,000 at `average='macro'`, and L = 5, n = 1,000 at "
        "'micro' and 'samples'; one model's BCa interval (models a and b) and the paired "
        "difference a − b.",
        "",
        "## Verdicts",
        "",
        "| measure | interval | averages | cells | lowest | where | mean | verdict |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in table.itertuples(index=False):
        avgs = "any" if len(r.averages) == 4 else ", ".join(r.averages)
        lines.append(f"| {r.measure} | {r.kind} | {avgs} | {r.cells} | {r.lowest:.3f} | "
                     f"{r.where} | {r.mean:.3f} | "
                     f"{'covers' if r.covers else 'below the bar'} |")
    lines += ["", "## Every cell", "",
              "| measure | model | L | n | average | coverage | MC SE | median width | "
              "undefined |", "|---|---|---|---|---|---|---|---|---|"]
    for r in summary.itertuples(index=False):
        lines.append(f"| {r.measure} | {r.model} | {r.labels} | {r.n} | {r.average} | "
                     f"{r.coverage:.3f} | {r.mcse:.3f} | {r.width:.3g} | {r.undefined} |")
    return "\n".join(lines) + "\n"


def main(sims: int, n_boot: int, seed: int, cache: str, out: str | None,
         evidence: str | None, progress: bool = True, cells: Any = None) -> int:
    """Run the multi-label plan, write its report and evidence file."""
    import measurelab as ml

    chosen = CELLS if cells is None else [CELLS[i - 1] for i in cells]
    parts, cpu = [], 0.0
    for c in chosen:
        if progress:
            print(f"cell {c.label()} ({sims} sims, B={n_boot})", flush=True)
        res = run_cell(c, sims, n_boot, seed, Path(cache), progress)
        cpu += float(res["cpu_seconds"])
        parts.append(summarise(c, res))
    summary = pd.concat(parts, ignore_index=True)
    table = settings(summary)
    atomic_write_text(Path(out or REPORT), report(summary, table, sims, n_boot, cpu))
    grid = {"multilabel": {"generators": [GENERATOR], "designs": ["random"],
                           "labels": [5, 20], "n": [300, 1000],
                           "averages": ["macro", "micro", "samples"], "cells": len(chosen)}}
    doc = evidence_document(table, source=SOURCE, title=TITLE, sims=sims, n_boot=n_boot,
                            command=COMMAND, commit=git_head(), engine=engine_fingerprint(),
                            version=ml.__version__, grid=grid,
                            preliminary=sims < MIN_SIMS)
    atomic_write_text(Path(evidence or EVIDENCE), doc)
    print(f"wrote {out or REPORT} and {evidence or EVIDENCE} ({cpu / 60:.1f} min CPU)")
    return 0
