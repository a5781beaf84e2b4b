"""The study's command line (``python benchmarks/coverage_study.py``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

import measurelab as ml

from .cells import KINDS, Cell, cell_key, cell_warnings, run_cell
from .generators import BINARY, DESIGNS, MULTI_FAMILIES
from .plan import PLANS, Block, estimate, measure_costs, offered, plan_cells
from .population import MULTI_POP_SIZE, POP_PARTS, POP_SIZE, population
from .report import markdown
from .store import atomic_write_text, engine_fingerprint, git_head
from .verdicts import MIN_SIMS, evidence_document, settings

#: where the full run writes (the report, the evidence measurelab ships)
REPORT = Path("docs/coverage.md")
EVIDENCE = Path("src/measurelab/data/coverage/registry.json")
#: the quick run's defaults (it checks the harness: every cell, tiny sizes)
QUICK = {"sims": 3, "n_boot": 100, "pop_size": 50_000, "pop_size_k": 50_000}


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="coverage_study.py",
        description="How often do measurelab's 95% intervals cover the population value? "
                    "Every measure that offers an interval, or a custom grid.")
    ap.add_argument("--plan", choices=[*PLANS, "quick", "custom"], default="custom",
                    help="full: the registry-wide study (docs/coverage.md and the evidence "
                         "measurelab ships); quick: the same cells with tiny sizes "
                         "(preliminary); custom: the grid given by the options below")
    ap.add_argument("--sims", type=int, default=None,
                    help="simulated test sets per cell (default 500; quick 3)")
    ap.add_argument("--n-boot", type=int, default=None,
                    help="bootstrap replicates (default 1000; quick 100)")
    ap.add_argument("--pop-size", type=int, default=None,
                    help=f"cases of the binary population sample (default {POP_SIZE:,})")
    ap.add_argument("--pop-size-k", type=int, default=None,
                    help=f"cases of the k-class population sample (default {MULTI_POP_SIZE:,})")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ci-method", default=None,
                    help="force one interval method (default: measurelab's per measure)")
    ap.add_argument("--cache", default="out/coverage-cache",
                    help="folder of the finished (and checkpointed) cells")
    ap.add_argument("--out", default=None,
                    help=f"Markdown report (default {REPORT} for --plan full)")
    ap.add_argument("--evidence", default=None,
                    help=f"evidence file measurelab reads (default {EVIDENCE} for --plan full)")
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
                   help="names, or one of cheap, heavy, all, by-average (default cheap)")
    return ap


def _cells(args: argparse.Namespace) -> list[Cell]:
    if args.plan in PLANS or args.plan == "quick":
        return plan_cells(PLANS["full"])
    gen = args.generator or ("binormal" if args.task == "binary" else "softmax")
    choice = args.measures[0] if len(args.measures) == 1 and args.measures[0] in (
        "cheap", "heavy", "all", "by-average") else tuple(args.measures)
    block = Block(args.task, gen, tuple(args.designs), tuple(args.n),
                  tuple(args.prevalence if args.task == "binary" else args.classes),
                  tuple(args.kinds), choice, args.average)
    return block.cells()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the study, write the report (and the evidence file), print where."""
    ap = _parser()
    args = ap.parse_args(argv)
    quick = args.plan == "quick"
    sims = args.sims if args.sims is not None else (QUICK["sims"] if quick else 500)
    n_boot = args.n_boot if args.n_boot is not None else (QUICK["n_boot"] if quick else 1000)
    pop_b = args.pop_size or (QUICK["pop_size"] if quick else POP_SIZE)
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
    cells = _cells(args)
    if not cells:
        ap.error("the grid has no cell (no measure offers an interval there?)")
    sizes = {"binary": pop_b, "k": pop_k}
    if args.estimate:
        estimate(cells, sims, n_boot, seed=args.seed, pop_size=sizes)
        return 0
    out = Path(args.out) if args.out else (REPORT if args.plan in PLANS else None)
    evidence = (Path(args.evidence) if args.evidence
                else (EVIDENCE if args.plan in PLANS else None))
    if out is None:
        ap.error("--out is needed with --plan quick or custom (docs/coverage.md is the full "
                 "run's)")
    command = "python benchmarks/coverage_study.py " + " ".join(
        sys.argv[1:] if argv is None else list(argv))
    progress = not args.no_progress
    frames, times = [], []
    for i, c in enumerate(cells):
        if progress:
            print(f"cell {i + 1}/{len(cells)}: {c.label()} ({len(c.measures)} measures, "
                  f"{'+'.join(c.kinds)})", file=sys.stderr, flush=True)
        f = run_cell(c, sims, n_boot, args.seed, ci_method=args.ci_method,
                     pop_size=sizes[c.task], cache_dir=args.cache, progress=progress)
        frames.append(f)
        times.append((c, float(f.sec_per_sim.iloc[0])))
    summary = pd.concat(frames, ignore_index=True)
    pops = {}
    for c in cells:
        key = (c.task, c.generator, "random" if c.design == "random-stratified" else c.design,
               c.param, c.average, c.measures)
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
    preliminary = sims < MIN_SIMS
    commit, engine = git_head(), engine_fingerprint()
    warns = {c.label(): cell_warnings(args.cache, cell_key(c, sims, n_boot, args.seed,
                                                           args.ci_method, sizes[c.task]))
             for c in cells}
    from .plan import grid_summary

    if evidence is not None:
        atomic_write_text(evidence, evidence_document(
            table, source="registry", title="measurelab's registry-wide coverage study "
            "(benchmarks/coverage_study.py)", sims=sims, n_boot=n_boot, command=command,
            commit=commit, engine=engine, version=ml.__version__, grid=grid_summary(cells),
            preliminary=preliminary))
    atomic_write_text(out, markdown(summary, table, pops, cells, sims=sims, n_boot=n_boot,
                                    command=command, commit=commit, engine=engine,
                                    preliminary=preliminary,
                                    evidence_path=str(evidence or "(not written)"),
                                    times=times, warnings_by_cell=warns))
    below = table[~table.covers]
    print(f"{len(table)} settings, {int(table.covers.sum())} cover"
          + (" (preliminary run: no verdict)" if preliminary else "")
          + f"; report {out}" + (f", evidence {evidence}" if evidence else ""), file=sys.stderr)
    if not preliminary and len(below):
        print("below the bar: " + ", ".join(
            f"{r.measure} ({r.classes} {r.design} {r.kind}: {r.lowest:.3f} at {r.where})"
            for r in below.itertuples()), file=sys.stderr)
    return 0
