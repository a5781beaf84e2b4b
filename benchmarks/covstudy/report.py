"""The study as Markdown (docs/coverage.md): the verdict per measure and setting, then the
cells' coverage, misses by side, population values and time."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from measurelab.inference.evidence import procedure

from .cells import ALL, LEVEL, Cell, read_reasons
from .generators import WEIGHTS, generator
from .plan import HEAVY
from .population import POP_PARTS, Population
from .verdicts import BAR, BRACKETS, MIN_SIMS, bracket, rows_read, smaller, where

_KIND = {"single": "single model", "paired": "paired difference",
         "unpaired": "unpaired difference"}


def _cov(r: Any, total: int) -> str:
    k = int(r.sims)
    extra = "" if k == total else f" ({k} sims)"
    se = f" ± {r.mcse:.3f}" if math.isfinite(r.mcse) else ""
    return f"{r.coverage:.3f}{se}{extra}"


def _cell_label(r: Any) -> str:
    if r.task == "binary":
        return f"n={int(r.n)} π={float(r.prevalence):g}"
    avg = "" if r.average == "macro" else f" {r.average}"
    return f"k={int(r.classes)} n={int(r.n)}{avg}"


def verdict_table(table: pd.DataFrame, preliminary: bool) -> list[str]:
    """The per-setting verdict rows."""
    out = ["| measure | classes | design | interval | averages | cells | lowest (where) | "
           "mean | verdict |", "|---|---|---|---|---|---:|---|---:|---|"]
    order = {k: i for i, k in enumerate(_KIND)}
    t = table.assign(_k=table.kind.map(order)).sort_values(
        ["measure", "classes", "design", "_k"], kind="stable",
        key=lambda s: s.map(_measure_order()) if s.name == "measure" else s)
    for r in t.itertuples(index=False):
        verdict = ("preliminary" if preliminary else "covers" if r.covers
                   else f"**below {BAR:.2f}**")
        avgs = ", ".join(r.averages) if len(r.averages) < 3 else "all"
        se = f" ± {r.mcse_lowest:.3f}" if math.isfinite(r.mcse_lowest) else ""
        out.append(f"| {r.measure} | {r.classes} | {r.design} | {_KIND[r.kind]} | "
                   f"{avgs if r.classes == 'k' else ''} | {r.cells} | {r.lowest:.3f}{se} "
                   f"({r.where}) | {r.mean:.3f} | {verdict} |")
    return out


def _measure_order() -> dict[str, int]:
    from measurelab import registry

    return {m: i for i, m in enumerate(registry.names())}


def coverage_tables(summary: pd.DataFrame, sims: int) -> list[str]:
    """Per (task, generator, design, kind): measure × cell coverage (single model: a / b,
    each ± its MC SE in the misses table) and the misses below / above."""
    out: list[str] = []
    s = summary[summary.method == ALL]
    order = _measure_order()
    for (task, gen, design, kind), g in s.groupby(["task", "generator", "design", "kind"],
                                                  sort=False):
        cells = list(dict.fromkeys(_cell_label(r) for r in g.itertuples()))
        measures = sorted(dict.fromkeys(g.measure), key=lambda m: order.get(m, 10**6))
        head = "| measure | " + " | ".join(cells) + " |"
        rule = "|---|" + "---:|" * len(cells)
        title = f"{'binary' if task == 'binary' else 'k classes'}, {gen}, {design}, {_KIND[kind]}"
        cov_lines, miss_lines = [head, rule], [head, rule]
        for m in measures:
            gm = g[g.measure == m]
            cov_row, miss_row = [m], [m]
            for c in cells:
                gc = gm[[_cell_label(r) == c for r in gm.itertuples()]]
                if gc.empty:
                    cov_row.append("")
                    miss_row.append("")
                    continue
                if kind == "single":
                    a = gc[gc.model == "a"]
                    b = gc[gc.model == "b"]
                    cov_row.append(" / ".join(_cov(x.iloc[0], sims) if len(x) else "–"
                                              for x in (a, b)))
                    p = gc[gc.model == "pooled"].iloc[0]
                else:
                    p = gc.iloc[0]
                    cov_row.append(_cov(p, sims))
                extra = []
                if p.undefined:
                    extra.append(f"{int(p.undefined)} undef.")
                if p.unbounded:
                    extra.append(f"{int(p.unbounded)} inf")
                miss_row.append(f"{p.miss_below:.3f} / {p.miss_above:.3f}"
                                + (f" ({', '.join(extra)})" if extra else ""))
            cov_lines.append("| " + " | ".join(cov_row) + " |")
            miss_lines.append("| " + " | ".join(miss_row) + " |")
        what = ("Coverage ± Monte Carlo SE of model a / model b" if kind == "single"
                else "Coverage ± Monte Carlo SE")
        out += [f"### {title}", "", f"{what}:", "", *cov_lines, "",
                "Misses below / above (interval entirely below / above the target"
                + ("; both models" if kind == "single" else "") + "; undefined and "
                "infinite intervals counted over the simulations):", "", *miss_lines, ""]
    return out


def _regime_rows(summary: pd.DataFrame) -> pd.DataFrame:
    """The rows a verdict reads (:func:`~covstudy.verdicts.rows_read`) with each cell's
    expected cases in the smaller class, its bracket, the cell as a verdict names it and
    the number of withheld or undefined intervals (NaN ends)."""
    return _with_regime(rows_read(summary).copy())


def _with_regime(r: pd.DataFrame) -> pd.DataFrame:
    r["smaller"] = [smaller(x.task, x.generator, int(x.n), float(x.prevalence),
                            int(x.classes)) for x in r.itertuples(index=False)]
    r["bracket"] = [bracket(k) for k in r.smaller]
    r["where"] = [where(x) for x in r.itertuples(index=False)]
    r["classes_key"] = ["binary" if t == "binary" else "k" if a == "macro" else f"k ({a})"
                        for t, a in zip(r.task, r.average, strict=True)]
    return r


def regime_tables(summary: pd.DataFrame, preliminary: bool) -> list[str]:
    """Coverage by regime: per bracket of the expected cases in the smaller class
    (:data:`~covstudy.verdicts.BRACKETS`), an overview (settings, how many below the bar,
    withheld intervals), then per measure × classes × design × interval in the bracket the
    lowest coverage over its cells and models (where), the mean and the withheld
    intervals, which count as misses."""
    r = _regime_rows(summary)
    if r.empty:
        return ["No cell of a library design (random, fixed) ran.", ""]
    keys = ["measure", "classes_key", "design", "kind"]   # classes_key: with the average
    order = _measure_order()
    kinds = {k: i for i, k in enumerate(_KIND)}
    per = summary[(summary.method != ALL) & (summary.method != "error")
                  & summary.design.isin(r.design.unique()) & (summary.model != "pooled")]
    methods: dict[tuple[Any, ...], set[str]] = {}
    for x in _with_regime(per.copy()).itertuples(index=False):
        key = (x.bracket, x.measure, x.classes_key, x.design, x.kind)
        methods.setdefault(key, set()).add(procedure(str(x.method)))
    groups = []
    for (b, *key), g in r.groupby(["bracket", *keys], sort=False):
        low = g.loc[g.coverage.idxmin()]
        groups.append({"bracket": b, "measure": key[0], "classes": key[1], "design": key[2],
                       "kind": key[3], "cells": len(g.drop_duplicates(
                           ["generator", "n", "prevalence", "classes", "average"])),
                       "lowest": float(low.coverage), "mcse": float(low.mcse),
                       "where": str(low["where"]), "mean": float(g.coverage.mean()),
                       "withheld": int(g.undefined.sum()), "intervals": int(g.sims.sum()),
                       "methods": ", ".join(sorted(methods.get((b, *key), ())))})
    t = pd.DataFrame(groups)
    t = t.assign(_m=t.measure.map(lambda m: order.get(m, 10**6)), _k=t.kind.map(kinds))
    t = t.sort_values(["_m", "classes", "design", "_k"], kind="stable")
    out = ["| cases in the smaller class | cells | settings | below "
           f"{BAR:.2f} | withheld intervals |", "|---|---:|---:|---:|---:|"]
    present = [label for label, _low in BRACKETS if label in set(t.bracket)]
    for label in present:
        tb, rb = t[t.bracket == label], r[r.bracket == label]
        ncells = len(rb.drop_duplicates(["generator", "design", "n", "prevalence",
                                         "classes", "average"]))
        out.append(f"| {label} | {ncells} | {len(tb)} | {int((tb.lowest < BAR).sum())} | "
                   f"{int(tb.withheld.sum())} of {int(tb.intervals.sum())} |")
    out.append("")
    if preliminary:
        out += ["(A preliminary run: the counts below the bar show the harness at work, not "
                "a verdict.)", ""]
    for label in present:
        tb = t[t.bracket == label]
        ns = sorted({int(k) for k in r.smaller[r.bracket == label]})
        out += [f"### {label} cases in the smaller class", "",
                f"{int((tb.lowest < BAR).sum())} of {len(tb)} settings below {BAR:.2f} "
                f"(cells with {', '.join(map(str, ns))} expected cases in the smaller "
                "class).", "",
                "| measure | classes | design | interval | methods | cells | lowest (where) | "
                "mean | withheld |", "|---|---|---|---|---|---:|---|---:|---:|"]
        for x in tb.itertuples(index=False):
            se = f" ± {x.mcse:.3f}" if math.isfinite(x.mcse) else ""
            low = f"{x.lowest:.3f}{se}"
            low = f"**{low}**" if x.lowest < BAR else low
            out.append(f"| {x.measure} | {x.classes} | {x.design} | {_KIND[x.kind]} | "
                       f"{_cell_text(x.methods)} | {x.cells} | {low} ({x.where}) | "
                       f"{x.mean:.3f} | {x.withheld or ''} |")
        out.append("")
    return out


def withheld_table(summary: pd.DataFrame) -> list[str]:
    """How many intervals were withheld or undefined (NaN ends, counted as misses), per
    measure × classes × design × interval, with the reasons the method column gave."""
    r = _regime_rows(summary)
    total, bad = int(r.sims.sum()), int(r.undefined.sum())
    if not bad:
        return [f"None of the {total:,} intervals was withheld or undefined.", ""]
    out = [f"{bad:,} of the {total:,} intervals had a NaN end (withheld or undefined); "
           "each counts as a miss in the coverage above. The reasons are the method "
           "column's text of those intervals (without the evidence note).", "",
           "| measure | classes | design | interval | withheld | cells (smaller class) | "
           "reason (count) |", "|---|---|---|---|---:|---|---|"]
    order = _measure_order()
    kinds = {k: i for i, k in enumerate(_KIND)}
    u = r[r.undefined > 0]
    u = u.assign(_m=u.measure.map(lambda m: order.get(m, 10**6)), _k=u.kind.map(kinds))
    for (m, cls, d, kind), g in u.sort_values(["_m", "classes_key", "design", "_k"],
                                              kind="stable").groupby(
            ["measure", "classes_key", "design", "kind"], sort=False):
        reasons: dict[str, int] = {}
        for text in g.reasons if "reasons" in g else ():
            for k, v in read_reasons(text).items():
                reasons[k] = reasons.get(k, 0) + v
        top = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
        said = "; ".join(f"`{_cell_text(k)}` ({v})" for k, v in top[:3])
        if len(top) > 3:
            said += f"; {len(top) - 3} more"
        cells = ", ".join(dict.fromkeys(f"{x['where']} ({x.smaller})"
                                         for _i, x in g.iterrows()))
        out.append(f"| {m} | {cls} | {d} | {_KIND[kind]} | {int(g.undefined.sum())} of "
                   f"{int(g.sims.sum())} | {cells} | {said or 'not recorded'} |")
    return [*out, ""]


def _cell_text(text: str) -> str:
    return text.replace("|", "/").replace("`", "'")


def population_table(pops: Mapping[Any, Population]) -> list[str]:
    """Population values, their MC SE, the exact values and the targets."""
    out = ["| setting | measure | a | b | a − b | SE a | SE b | SE a − b | exact a | "
           "exact b | z max | target a | target b |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for pop in pops.values():
        label = (f"{pop.generator} {pop.design} π={pop.prevalence:g}" if pop.task == "binary"
                 else f"{pop.generator} {pop.design} k={pop.classes} {pop.average}")
        for m, v in pop.value.items():
            se, ex, tg = pop.se[m], pop.exact[m], pop.target[m]
            zs = [abs(v[j] - ex[j]) / se[j] for j in range(2)
                  if math.isfinite(ex[j]) and se[j] > 0]
            z = f"{max(zs):.1f}" if zs else ""
            out.append(f"| {label} | {m} | {_f(v[0])} | {_f(v[1])} | {_f(v[2], sign=True)} "
                       f"| {se[0]:.1e} | {se[1]:.1e} | {se[2]:.1e} | {_f(ex[0])} | "
                       f"{_f(ex[1])} | {z} | {_f(tg[0])} | {_f(tg[1])} |")
    return out


def _fewer(sims_by_cell: Mapping[str, int] | None, sims: int) -> str:
    """' (300 in binormal random n=100000 π=0.5, …)' for the cells that ran fewer."""
    fewer = {k: v for k, v in (sims_by_cell or {}).items() if v != sims}
    if not fewer:
        return ""
    return " (" + ", ".join(f"{v} in {k}" for k, v in fewer.items()) + ")"


def _f(x: float, sign: bool = False) -> str:
    if not math.isfinite(x):
        return "" if math.isnan(x) else str(x)
    return f"{x:+.4f}" if sign else f"{x:.4f}"


def markdown(summary: pd.DataFrame, table: pd.DataFrame, pops: Mapping[Any, Population],
             cells: Sequence[Cell], *, sims: int, n_boot: int, command: str, commit: str,
             engine: str, preliminary: bool, evidence_path: str,
             times: Sequence[tuple[Cell, float]],
             warnings_by_cell: Mapping[str, Mapping[str, int]] | None = None,
             heading: str = "Coverage of measurelab's 95% intervals: every measure",
             scope: str = "", date: str | None = None,
             sims_by_cell: Mapping[str, int] | None = None, measures: str = "",
             n_boot_used: bool = True, large_n: Sequence[str] = ()) -> str:
    """The whole report (``heading``: its title; ``scope``: a paragraph on what the plan
    asks, after the command; ``date``: the run's, default today; ``sims_by_cell``: each
    cell's simulations, by label, where they differ from ``sims``; ``measures``: the
    paragraph on the measures, when not the registry-wide one; ``n_boot_used``: False when
    the intervals are forced to a method without replicates; ``large_n``: the section on
    the large-n study, :func:`covstudy.merge.large_n_section`, before the cells)."""
    import datetime as _dt

    se95 = math.sqrt(0.95 * 0.05 / sims)
    heavy = [m for m in HEAVY if any(m in c.measures for c in cells)]
    gens = {c.generator: generator(c.task, c.generator, c.classes) for c in cells}
    n_cover = int(table.covers.sum())
    date = date or _dt.date.today().isoformat()
    out = [f"# {heading}", ""]
    if preliminary:
        out += [f"> **Preliminary run** ({sims} simulations per cell, fewer than {MIN_SIMS}): "
                "it shows that every measure and setting goes through the harness, not that "
                "any interval covers; measurelab reads it as no evidence. The full run's "
                "command is in `benchmarks/covstudy/__init__.py`.", ""]
    out += [
        f"Command: `{command}`", "",
        *([scope, ""] if scope else []),
        f"measurelab git {commit}, sources {engine}, run {date}; {sims} simulated test sets "
        f"per cell{_fewer(sims_by_cell, sims)}, "
        + (f"{n_boot} bootstrap replicates per interval" if n_boot_used
           else "no bootstrap replicates")
        + f", level {LEVEL}; {len(cells)} cells. "
        f"The verdicts are also in `{evidence_path}`, which measurelab reads: an interval "
        "whose setting does not cover says so in its method column (e.g. `bootstrap-bca "
        "(coverage 0.862 < 0.90 at n=100, π=0.05)`), one never studied says `(no coverage "
        "evidence)`.", "",
        measures or (
            "**Measures**: every measure measurelab offers an interval for (asked of the "
            "library at run time: "
            "`measurelab.inference.classifiers.offered.offered_intervals`), at its "
            "default parameters (`f_beta` β = 1, `lift` q = 0.25, `mxe` in nats, `ece` 10 "
            "bins, `top_k_acc` k = 1, `cal` a window of 100, `oarp` x = 1); threshold "
            "measures at 0.5 (binary) or the arg-max (k classes); k classes at "
            "`average='macro'`, and on one cell 'weighted' and 'micro' for the measures "
            "whose value depends on it. The costly calibration family "
            f"({', '.join(heavy) or 'none offers an interval'}) runs on fewer cells; "
            "measures whose interval measurelab withholds (NaN, the reason in the method "
            "column) are not simulated."), "",
        "**Generators**:", "", *[f"- {g.describe()}" for g in gens.values()], "",
        "**Designs**: `random` = a random sample (class counts random), intervals with "
        "`stratify=False` (cases resampled jointly); `fixed` = exact class counts "
        "(round(π·n), or round(prior·n) by largest remainders), intervals with "
        "`stratify=True`. **Intervals**: single model = `compare_classifiers(...)"
        ".intervals()` (each model counted on its own); paired difference = `.tests()` "
        "(column `interval`); unpaired difference = `compare_unpaired` of model a on one test "
        "set and model b on an independent one."
        + (f" {WEIGHTS.describe()}" if any(c.design == "weighted" for c in cells) else ""),
        "",
        "**Target** = the population value: the measure (and the difference a − b; for a measure "
        "with a target, the difference of the distances |a − t| − |b − t|) on one "
        f"large sample of the same design (MC SE from {POP_PARTS} disjoint parts), or the "
        "exact value where the generator knows it and declares it the target (the "
        "calibrated model's calibration errors and miscalibration terms are exactly 0, its "
        "calibration slope 1 and intercept 0, its Brier score, discrimination terms and "
        "cross-entropy known by quadrature). "
        "Spiegelhalter's z has no fixed population value away from calibration (it grows "
        "with √n): its target is the large sample's value, which an interval at small n "
        "cannot be expected to hold.", "",
        "Coverage = share of simulated test sets whose interval contains the target; an "
        f"undefined (NaN) interval counts as a miss. Monte Carlo SE of a coverage near 0.95: "
        f"{se95:.3f}. A setting (measure × classes × design × interval) **covers** when its "
        f"lowest coverage over its cells (and both models) is at least {BAR:.2f}; the mean "
        "should be near 0.95.", "",
        "## Verdicts", "",
        (f"{len(table)} settings; a preliminary run gives no verdict." if preliminary
         else f"{n_cover} of {len(table)} settings cover."), "",
        *verdict_table(table, preliminary), "",
        "## Coverage by regime: cases in the smaller class", "",
        "Each cell's expected number of cases in the smaller class (binary round(n·min(π, "
        "1 − π)), k classes round(n·min(priors))), in the brackets measurelab's reader "
        "uses. Per measure × classes × design × interval and bracket: the lowest coverage "
        "over the bracket's cells (each model of a single-model interval on its own), the "
        "cell it was in, the mean, the interval methods measurelab chose there, and the "
        "intervals withheld or undefined (NaN ends), which count as misses."
        + (" The `sparse-flags` cells have large classes (their bracket is that of n/2): "
           "their small counts are the predicted positives, which the bracket does not see."
           if "sparse-flags" in gens else ""), "",
        *regime_tables(summary, preliminary),
        "## Withheld and undefined intervals", "", *withheld_table(summary),
        *(["<!-- large-n-verdicts:start -->", *large_n, "<!-- large-n-verdicts:end -->", ""]
          if large_n else []),
        "## Coverage by cell", "", *coverage_tables(summary, sims),
        "## Population values", "", *population_table(pops), "",
    ]
    if warnings_by_cell:
        total: dict[str, int] = {}
        for msgs in warnings_by_cell.values():
            for k, v in msgs.items():
                key = k if len(k) < 120 else k[:117] + "…"
                total[key] = total.get(key, 0) + v
        top = sorted(total.items(), key=lambda kv: -kv[1])[:15]
        out += ["## Most frequent warnings", ""]
        out += (["| count | warning |", "|---:|---|",
                 *[f"| {v} | {k.replace('|', '/')} |" for k, v in top], ""] if top
                else ["None.", ""])
    out += ["## Time", "", "| cell | measures | kinds | seconds per simulation |",
            "|---|---:|---|---:|"]
    for c, sec in times:
        out.append(f"| {c.label()} | {len(c.measures)} | {'+'.join(c.kinds)} | {sec:.2f} |")
    return "\n".join(out) + "\n"
