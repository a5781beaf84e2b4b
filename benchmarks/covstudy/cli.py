"""The study's command line (``python benchmarks/coverage_study.py``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

import measurelab as ml

from . import plan_catalogue as _cat
from . import plan_large_k as _lk
from . import plan_logistic as _lg
from . import plan_operating_point as _op
from .cells import KINDS, Cell, cell_key, cell_warnings, run_cell
from .generators import BINARY, DESIGNS, MULTI_FAMILIES
from .plan import CHOICES, Block, cell_sims, estimate, measure_costs, offered, plan_cells
from .plan import PLANS as _PLANS
from .population import MULTI_POP_SIZE, POP_PARTS, POP_SIZE, population, population_setting
from .report import markdown
from .store import atomic_write_text, engine_fingerprint, git_head
from .verdicts import MIN_SIMS, evidence_document, settings

#: where the full run writes (the report, the evidence measurelab ships)
REPORT = Path("docs/coverage.md")
EVIDENCE = Path("src/measurelab/data/coverage/registry.json")
#: where the small-count run writes (its evidence sits beside the full run's)
SMALL_REPORT = Path("docs/coverage_small_counts.md")
SMALL_EVIDENCE = Path("src/measurelab/data/coverage/small_counts.json")
#: where the large-n run writes (the influence-function intervals)
LARGE_REPORT = Path("docs/coverage_large_n.md")
LARGE_EVIDENCE = Path("src/measurelab/data/coverage/large_n.json")


@dataclass(frozen=True)
class Output:
    """What a plan writes by default: the evidence file's ``source`` (a name of its own:
    measurelab refuses two files with one source) and ``title``, the report's ``heading``
    and ``scope`` paragraph, and the two paths; and how it runs by default: the interval
    method it forces (``ci_method``; None: measurelab's own per measure), the simulations a
    cell (``sims``) and the cases of the population sample (``pop_size``; None: the
    study's default); ``measures``: the report's paragraph on the measures, when not the
    registry-wide one."""

    source: str
    title: str
    evidence: Path
    report: Path
    heading: str = "Coverage of measurelab's 95% intervals: every measure"
    scope: str = ""
    ci_method: str | None = None
    sims: int = 500
    pop_size: int | None = None
    measures: str = ""


#: the defaults of each plan (a custom grid and the quick run: source 'registry', paths given)
OUTPUTS: dict[str, Output] = {
    "full": Output("registry", "measurelab's registry-wide coverage study "
                   "(benchmarks/coverage_study.py)", EVIDENCE, REPORT),
    "small": Output(
        "small-counts", "measurelab's small-count coverage study (benchmarks/"
        "coverage_study.py --plan small)", SMALL_EVIDENCE, SMALL_REPORT,
        heading="Coverage of measurelab's 95% intervals at small counts",
        scope="**Scope** (`--plan small`): do the intervals for few cases hold where the "
        "bootstrap fell short? The measures are every offered function of the confusion "
        "matrix (registry kind 'threshold': the Dirichlet-posterior, Wilson and Tango "
        "intervals) and `auc` (Newcombe's score interval for a small class); the cells "
        "have few positives (π = 0.04 to 0.06 at n = 60 to 400: 2 to 24 expected), few "
        "predicted positives in large classes (`sparse-flags`: about 5 and 16 of n = 120 "
        "and 400 flagged), the kink of |sens − spec| (`kink`: ri, op, avri, oarp) and, as a "
        "reference, large counts where the bootstrap covered (n = 1,000 and 10⁴, π = 0.2 "
        "and 0.5). The verdicts sit beside the registry-wide study's: an interval covers "
        "only when every cell of both covers."),
    "large": Output(
        "large-n", "measurelab's large-n coverage study of the influence-function intervals "
        "(benchmarks/coverage_study.py --plan large)", LARGE_EVIDENCE, LARGE_REPORT,
        heading="Coverage of measurelab's 95% intervals at large n: the influence function",
        scope="**Scope** (`--plan large`, issue 41): do the influence-function intervals "
        "(`ci_method='influence'`: θ̂ ± 1.96·SE, the SE a sum over the cases) cover where "
        "they are the default, from 10,000 cases with 100 in the smaller class "
        "(`LARGE_N`, `LARGE_SMALLER` in `measurelab/inference/methods/influence.py`)? The "
        "measures are those it is the default of (ap, brier, rms, mxe), auc, and the "
        "functions of the confusion matrix at 0.5 a user may force it on (acc, prec, f1, "
        "mcc); every interval is forced to `influence`, single model and paired "
        "difference. Cells: n = 10⁴ at π = 0.01 (100 in the smaller class, the threshold "
        "itself), 0.05 and 0.5, random and fixed designs; weighted cases (a case-control "
        "sample: 100, 500 or 5,000 positives, negatives weighted 5, every weight times "
        "U(0.5, 1.5)); n = 10⁵ at π = 0.01 and 0.5. The targets are the exact population "
        "values (`binormal-exact`). 1,000 simulations a cell (Monte Carlo SE 0.007 near "
        "0.95), 500 at 10⁵ cases (0.010), where a simulation costs 30 times more. Below "
        "the thresholds (a run not shipped, docs/DECISIONS.md, 'Influence-function "
        "intervals: the large-n evidence'): AP falls to 0.883 at 30 cases in the smaller "
        "class and the lowest cells at 50 are 0.907–0.917, while n = 1,000–2,000 with 100 "
        "or more in the smaller class covers (≥ 0.910): the edge is the smaller class, "
        "not n. Added later (their own run of the plan's cells 11–20, merged: "
        "`--cells … --merge`, 400 simulations a cell, MC SE 0.011): the debiased "
        "calibration terms (brier_mcb, brier_dsc, logloss_dsc; single model and paired "
        "difference) on `calibrated-exact` (model a calibrated: its miscalibration at the "
        "boundary 0) and `binormal-exact`, n = 10⁴, random design at π = 0.015 and 0.5 and "
        "fixed at π = 0.01 and 0.5; and the unpaired differences, n = 10⁴, random design, "
        "π = 0.01 and 0.5 (the nine measures above) and π = 0.015 and 0.5 (the "
        "calibration terms).",
        measures="**Measures**: acc, prec, f1, mcc (at the threshold 0.5), auc, ap, brier, "
        "rms and mxe (in nats), every interval by `ci_method='influence'` (no bootstrap); "
        "the population sample (10⁶ cases) is only a check of the exact targets.",
        ci_method="influence", sims=1000, pop_size=1_000_000),
}
#: the plans of their own modules (plan_operating_point: issue 42; plan_catalogue: issue 44;
#: plan_large_k: issue 41)
PLANS = {**_PLANS, "operating-point": _op.OPERATING_POINT,
         "confusion-catalogue": _cat.CATALOGUE, "large-k": _lk.LARGE_K}
OUTPUTS["operating-point"] = Output(_op.SOURCE, _op.TITLE, _op.EVIDENCE, _op.REPORT,
                                    heading=_op.HEADING, scope=_op.SCOPE,
                                    measures=_op.MEASURES_TEXT)
OUTPUTS["confusion-catalogue"] = Output(
    _cat.SOURCE, _cat.TITLE, _cat.EVIDENCE, _cat.REPORT, heading=_cat.HEADING,
    scope=_cat.SCOPE, measures="**Measures**: kappa_linear, kappa_quadratic, scott_pi, "
    "gwet_ac1 (k classes: the whole matrix), dor, markedness, fdr, for_rate, jaccard, "
    "fowlkes_mallows (k classes: one-vs-rest, 'macro' unless the cell says 'weighted' or "
    "'micro'); threshold 0.5 (binary) or the arg-max (k classes); every interval by "
    "measurelab's own method (the posterior of the confusion cells for two classes, the "
    "bootstrap of the cases for k).")
OUTPUTS["large-k"] = Output(_lk.SOURCE, _lk.TITLE, _lk.EVIDENCE, _lk.REPORT,
                            heading=_lk.HEADING, scope=_lk.SCOPE, ci_method="influence",
                            sims=200, measures=_lk.MEASURES_TEXT)
OUTPUTS["logistic"] = Output(_lg.SOURCE, _lg.TITLE, _lg.EVIDENCE, _lg.REPORT,
                             heading=_lg.HEADING, scope=_lg.SCOPE, ci_method="influence",
                             measures="**Measures**: cal_slope and cal_intercept, every "
                             "interval by `ci_method='influence'` (no bootstrap).",
                             sims=1000)
PLANS["logistic"] = _lg.LOGISTIC
#: the quick run's defaults (it checks the harness: every cell, tiny sizes)
QUICK = {"sims": 3, "n_boot": 100, "pop_size": 50_000, "pop_size_k": 50_000}


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="coverage_study.py",
        description="How often do measurelab's 95% intervals cover the population value? "
                    "Every measure that offers an interval, or a custom grid.")
    ap.add_argument("--plan", choices=[*PLANS, "multilabel", "quick", "custom"],
                    default="custom",
                    help="full: the registry-wide study (docs/coverage.md and the evidence "
                         "measurelab ships); small: the small-count study "
                         f"({SMALL_REPORT}, {SMALL_EVIDENCE}); large: the influence-function "
                         f"intervals at 10^4 and 10^5 cases ({LARGE_REPORT}, "
                         f"{LARGE_EVIDENCE}; forces --ci-method influence, 1000 sims); "
                         "multilabel: the multi-label measures (docs/coverage_multilabel.md, "
                         "multilabel.json; issue 43); quick: the full plan's cells "
                         "with tiny sizes (preliminary); custom: the grid given by the "
                         "options below")
    ap.add_argument("--cells", type=int, nargs="+", default=None, metavar="I",
                    help="only these cells of the plan (numbers as --list prints them; "
                         "needs --out and --evidence: a part of a plan is not its evidence)")
    ap.add_argument("--merge", action="store_true",
                    help="with --cells: merge the part's evidence into the plan's file, its "
                         "verdicts and report into the plan's report (and, for --plan "
                         f"large, the large-n section of {REPORT}) — new cells added to a "
                         "plan without re-running the others")
    ap.add_argument("--list", action="store_true",
                    help="print the plan's cells, numbered, and stop")
    ap.add_argument("--sims", type=int, default=None,
                    help="simulated test sets per cell (default 500; large 1000, its 10^5 "
                         "cells at most 300; quick 3)")
    ap.add_argument("--n-boot", type=int, default=None,
                    help="bootstrap replicates (default 1000; quick 100)")
    ap.add_argument("--pop-size", type=int, default=None,
                    help=f"cases of the binary population sample (default {POP_SIZE:,})")
    ap.add_argument("--pop-size-k", type=int, default=None,
                    help=f"cases of the k-class population sample (default {MULTI_POP_SIZE:,})")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ci-method", default=None,
                    help="force one interval method (default: measurelab's per measure; "
                         "--plan large: influence)")
    ap.add_argument("--cache", default="out/coverage-cache",
                    help="folder of the finished (and checkpointed) cells")
    ap.add_argument("--out", default=None,
                    help=f"Markdown report (default {REPORT} for --plan full, "
                         f"{SMALL_REPORT} for --plan small)")
    ap.add_argument("--evidence", default=None,
                    help=f"evidence file measurelab reads (default {EVIDENCE} for --plan "
                         f"full, {SMALL_EVIDENCE} for --plan small)")
    ap.add_argument("--source", default=None,
                    help="the evidence file's source name, one of its own among the files "
                         "beside it (default: the plan's, 'registry' for full, "
                         "'small-counts' for small; 'registry' otherwise)")
    ap.add_argument("--estimate", action="store_true",
                    help="time a few simulations of every cell and print the projected "
                         "run time instead of running")
    ap.add_argument("--costs", action="store_true",
                    help="time one binary simulation per measure (n = 1,000) and stop")
    ap.add_argument("--no-progress", action="store_true")
    g = ap.add_argument_group("custom grid")
    g.add_argument("--task", choices=["binary", "k"], default="binary")
    g.add_argument("--generator", default=None,
                   help=f"binary: {', '.join(BINARY)} (default binormal); k: "
                        f"{', '.join(MULTI_FAMILIES)} (default softmax)")
    g.add_argument("--designs", nargs="+", choices=DESIGNS, default=["random", "fixed"])
    g.add_argument("--n", type=int, nargs="+", default=[300])
    g.add_argument("--prevalence", type=float, nargs="+", default=[0.2])
    g.add_argument("--classes", type=int, nargs="+", default=[3])
    g.add_argument("--average", default="macro", choices=["macro", "weighted", "micro"])
    g.add_argument("--kinds", nargs="+", choices=KINDS, default=["single", "paired"])
    g.add_argument("--measures", nargs="+", default=["cheap"],
                   help=f"names, or one of {', '.join(CHOICES)} (default cheap)")
    return ap


def _cells(args: argparse.Namespace, sims: int) -> tuple[list[Cell], list[int]]:
    """The cells of the run and the simulations of each."""
    if args.plan in PLANS or args.plan == "quick":
        blocks = PLANS["full" if args.plan == "quick" else args.plan]
        return plan_cells(blocks), cell_sims(blocks, sims)
    gen = args.generator or ("binormal" if args.task == "binary" else "softmax")
    choice = args.measures[0] if len(args.measures) == 1 and args.measures[0] in CHOICES \
        else tuple(args.measures)
    block = Block(args.task, gen, tuple(args.designs), tuple(args.n),
                  tuple(args.prevalence if args.task == "binary" else args.classes),
                  tuple(args.kinds), choice, args.average)
    cs = block.cells()
    return cs, [sims] * len(cs)


def _merge(plan_out: Output, part_evidence: Path, part_report: Path, numbers: list[int], *,
           large: bool) -> None:
    """Merge a part's evidence and report into the plan's (:mod:`covstudy.merge`), and
    for the large-n plan its verdicts into docs/coverage.md's large-n section."""
    from .merge import (
        LARGE_N,
        dump,
        large_n_section,
        merge_documents,
        merge_report,
        replace_section,
    )

    base = json.loads(plan_out.evidence.read_text(encoding="utf-8"))
    part = json.loads(part_evidence.read_text(encoding="utf-8"))
    merged = merge_documents(base, part)
    atomic_write_text(plan_out.evidence, dump(merged))
    title = "Cells added later: " + ", ".join(str(i) for i in numbers) + " of the plan"
    atomic_write_text(plan_out.report, merge_report(
        plan_out.report.read_text(encoding="utf-8"), merged,
        part_report.read_text(encoding="utf-8"), title, str(plan_out.evidence)))
    if large and REPORT.exists():
        atomic_write_text(REPORT, replace_section(
            REPORT.read_text(encoding="utf-8"), LARGE_N,
            large_n_section(merged, str(plan_out.evidence), str(plan_out.report)),
            before="## Coverage by cell"))
    print(f"merged into {plan_out.evidence} and {plan_out.report}"
          + (f"; {REPORT}'s large-n section" if large else ""), file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the study, write the report (and the evidence file), print where."""
    ap = _parser()
    args = ap.parse_args(argv)
    if args.plan == "multilabel":
        from . import multilabel as _ml

        return _ml.main(args.sims or 200, args.n_boot or 500, args.seed, args.cache,
                        args.out, args.evidence, progress=not args.no_progress,
                        cells=args.cells)
    quick = args.plan == "quick"
    plan_out = OUTPUTS.get(args.plan)
    sims = args.sims if args.sims is not None else (
        QUICK["sims"] if quick else plan_out.sims if plan_out else 500)
    n_boot = args.n_boot if args.n_boot is not None else (QUICK["n_boot"] if quick else 1000)
    ci_method = args.ci_method or (plan_out.ci_method if plan_out else None)
    pop_b = args.pop_size or (QUICK["pop_size"] if quick else plan_out.pop_size
                              if plan_out and plan_out.pop_size else POP_SIZE)
    pop_k = args.pop_size_k or (QUICK["pop_size_k"] if quick else MULTI_POP_SIZE)
    if sims < 2 or n_boot < 100 or min(pop_b, pop_k) < 10 * POP_PARTS:
        ap.error(f"need --sims >= 2, --n-boot >= 100 and population sizes >= {10 * POP_PARTS}")
    if args.task == "binary" and not all(0 < p < 1 for p in args.prevalence):
        ap.error("--prevalence must lie in (0, 1)")
    if args.task == "k" and not all(k >= 3 for k in args.classes):
        ap.error("--classes must be at least 3")
    if args.costs:
        measure_costs(n_boot=n_boot, seed=args.seed)
        return 0
    cells, per_cell = _cells(args, sims)
    if not cells:
        ap.error("the grid has no cell (no measure offers an interval there?)")
    if args.list:
        from .verdicts import smaller

        for i, (c, k) in enumerate(zip(cells, per_cell, strict=True), 1):
            print(f"{i:3d}  {c.label():44} {'+'.join(c.kinds):22} {len(c.measures):3d} "
                  f"measures, {smaller(c.task, c.generator, c.n, c.prevalence, c.classes):5d} "
                  "in the smaller class" + (f", {k} sims" if k != sims else ""))
        return 0
    chosen: list[int] = []
    if args.merge and (args.cells is None or plan_out is None):
        ap.error("--merge needs --cells of a plan with files of its own (e.g. --plan large)")
    if args.cells is not None:
        wrong = [i for i in args.cells if not 1 <= i <= len(cells)]
        if wrong:
            ap.error(f"--cells {wrong}: the plan has cells 1 to {len(cells)} (see --list)")
        if not args.estimate and (args.out is None or args.evidence is None):
            ap.error("--cells runs a part of the plan: give --out and --evidence (the "
                     "plan's own files are for all of it)")
        chosen = list(dict.fromkeys(args.cells))
        cells, per_cell = [cells[i - 1] for i in chosen], [per_cell[i - 1] for i in chosen]
    sizes = {"binary": pop_b, "k": pop_k}
    if args.estimate:
        estimate(cells, per_cell, n_boot, seed=args.seed, pop_size=sizes,
                 ci_method=ci_method)
        print(f"{len(cells)} cells", flush=True)
        return 0
    out = Path(args.out) if args.out else (plan_out.report if plan_out else None)
    evidence = (Path(args.evidence) if args.evidence
                else (plan_out.evidence if plan_out else None))
    if out is None:
        ap.error("--out is needed with --plan quick or custom (docs/coverage.md is the full "
                 "run's)")
    source = args.source or (plan_out.source if plan_out else "registry")
    title = (plan_out.title if plan_out and source == plan_out.source
             else OUTPUTS["full"].title if source == "registry"
             else f"coverage study '{source}' (benchmarks/coverage_study.py)")
    command = "python benchmarks/coverage_study.py " + " ".join(
        sys.argv[1:] if argv is None else list(argv))
    progress = not args.no_progress
    frames, times = [], []
    for i, (c, k) in enumerate(zip(cells, per_cell, strict=True)):
        if progress:
            print(f"cell {i + 1}/{len(cells)}: {c.label()} ({len(c.measures)} measures, "
                  f"{'+'.join(c.kinds)}, {k} sims)", file=sys.stderr, flush=True)
        f = run_cell(c, k, n_boot, args.seed, ci_method=ci_method,
                     pop_size=sizes[c.task], cache_dir=args.cache, progress=progress)
        frames.append(f)
        times.append((c, float(f.sec_per_sim.iloc[0])))
    summary = pd.concat(frames, ignore_index=True)
    pops = {}
    for c in cells:
        key = (c.task, c.generator, *population_setting(c.design, c.param), c.average,
               c.measures)
        if key not in pops:
            pops[key] = population(c.task, c.generator, c.design, c.param, c.measures,
                                   seed=args.seed, size=sizes[c.task], average=c.average,
                                   cache_dir=args.cache)
    free = {}
    for d in ("random", "fixed"):
        if any(c.task == "k" for c in cells):
            t = offered("k", d)
            free.update({m: list(a) for m, a in zip(t.measure, t.averages, strict=True)})
    table = settings(summary, free)
    preliminary = min(per_cell) < MIN_SIMS
    commit, engine = git_head(), engine_fingerprint()
    warns = {c.label(): cell_warnings(args.cache, cell_key(c, k, n_boot, args.seed,
                                                           ci_method, sizes[c.task]))
             for c, k in zip(cells, per_cell, strict=True)}
    from .plan import grid_summary

    if evidence is not None:
        atomic_write_text(evidence, evidence_document(
            table, source=source, title=title, sims=sims, n_boot=n_boot, command=command,
            commit=commit, engine=engine, version=ml.__version__, grid=grid_summary(cells),
            preliminary=preliminary,
            sims_by_cell={c.label(): k for c, k in zip(cells, per_cell, strict=True)}))
    look = plan_out or OUTPUTS["full"]
    large_n: list[str] = []
    if args.plan == "full" and LARGE_EVIDENCE.exists():   # the large-n verdicts, from its file
        from .merge import large_n_section

        large_n = large_n_section(json.loads(LARGE_EVIDENCE.read_text(encoding="utf-8")),
                                  str(LARGE_EVIDENCE), str(LARGE_REPORT))
    atomic_write_text(out, markdown(summary, table, pops, cells, sims=sims, n_boot=n_boot,
                                    command=command, commit=commit, engine=engine,
                                    preliminary=preliminary,
                                    evidence_path=str(evidence or "(not written)"),
                                    times=times, warnings_by_cell=warns,
                                    heading=look.heading, scope=look.scope,
                                    measures=look.measures if look is plan_out else "",
                                    n_boot_used=ci_method is None
                                    or ci_method.startswith("bootstrap"),
                                    sims_by_cell={c.label(): k for c, k in zip(
                                        cells, per_cell, strict=True)}, large_n=large_n))
    if args.merge and evidence is not None and plan_out is not None:
        _merge(plan_out, evidence, out, chosen, large=args.plan == "large")
    below = table[~table.covers]
    print(f"{len(table)} settings, {int(table.covers.sum())} cover"
          + (" (preliminary run: no verdict)" if preliminary else "")
          + f"; report {out}" + (f", evidence {evidence}" if evidence else ""), file=sys.stderr)
    if not preliminary and len(below):
        print("below the bar: " + ", ".join(
            f"{r.measure} ({r.classes} {r.design} {r.kind}: {r.lowest:.3f} at {r.where})"
            for r in below.itertuples()), file=sys.stderr)
    return 0
