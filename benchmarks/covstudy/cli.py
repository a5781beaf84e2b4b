"""The study's command line (``python benchmarks/coverage_study.py``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

import measurelab as ml

from . import plan_operating_point as _op
from .cells import KINDS, Cell, cell_key, cell_warnings, run_cell
from .generators import BINARY, DESIGNS, MULTI_FAMILIES
from .plan import CHOICES, Block, estimate, measure_costs, offered, plan_cells
from .plan import PLANS as _PLANS
from .population import MULTI_POP_SIZE, POP_PARTS, POP_SIZE, population
from .report import markdown
from .store import atomic_write_text, engine_fingerprint, git_head
from .verdicts import MIN_SIMS, evidence_document, settings

#: where the full run writes (the report, the evidence measurelab ships)
REPORT = Path("docs/coverage.md")
EVIDENCE = Path("src/measurelab/data/coverage/registry.json")
#: where the small-count run writes (its evidence sits beside the full run's)
SMALL_REPORT = Path("docs/coverage_small_counts.md")
SMALL_EVIDENCE = Path("src/measurelab/data/coverage/small_counts.json")


@dataclass(frozen=True)
class Output:
    """What a plan writes by default: the evidence file's ``source`` (a name of its own:
    measurelab refuses two files with one source) and ``title``, the report's ``heading``
    and ``scope`` paragraph, and the two paths."""

    source: str
    title: str
    evidence: Path
    report: Path
    heading: str = "Coverage of measurelab's 95% intervals: every measure"
    scope: str = ""


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
}
#: the plans of their own modules (plan_operating_point: issue 42)
PLANS = {**_PLANS, "operating-point": _op.OPERATING_POINT}
OUTPUTS["operating-point"] = Output(_op.SOURCE, _op.TITLE, _op.EVIDENCE, _op.REPORT,
                                    heading=_op.HEADING, scope=_op.SCOPE)
#: the quick run's defaults (it checks the harness: every cell, tiny sizes)
QUICK = {"sims": 3, "n_boot": 100, "pop_size": 50_000, "pop_size_k": 50_000}


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="coverage_study.py",
        description="How often do measurelab's 95% intervals cover the population value? "
                    "Every measure that offers an interval, or a custom grid.")
    ap.add_argument("--plan", choices=[*PLANS, "quick", "custom"], default="custom",
                    help="full: the registry-wide study (docs/coverage.md and the evidence "
                         "measurelab ships); small: the small-count study "
                         f"({SMALL_REPORT}, {SMALL_EVIDENCE}); quick: the full plan's cells "
                         "with tiny sizes (preliminary); custom: the grid given by the "
                         "options below")
    ap.add_argument("--cells", type=int, nargs="+", default=None, metavar="I",
                    help="only these cells of the plan (numbers as --list prints them; "
                         "needs --out and --evidence: a part of a plan is not its evidence)")
    ap.add_argument("--list", action="store_true",
                    help="print the plan's cells, numbered, and stop")
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


def _cells(args: argparse.Namespace) -> list[Cell]:
    if args.plan in PLANS or args.plan == "quick":
        return plan_cells(PLANS["full" if args.plan == "quick" else args.plan])
    gen = args.generator or ("binormal" if args.task == "binary" else "softmax")
    choice = args.measures[0] if len(args.measures) == 1 and args.measures[0] in CHOICES \
        else tuple(args.measures)
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
    if args.list:
        from .verdicts import smaller

        for i, c in enumerate(cells, 1):
            print(f"{i:3d}  {c.label():44} {'+'.join(c.kinds):22} {len(c.measures):3d} "
                  f"measures, {smaller(c.task, c.generator, c.n, c.prevalence, c.classes):5d} "
                  "in the smaller class")
        return 0
    plan_out = OUTPUTS.get(args.plan)
    if args.cells is not None:
        wrong = [i for i in args.cells if not 1 <= i <= len(cells)]
        if wrong:
            ap.error(f"--cells {wrong}: the plan has cells 1 to {len(cells)} (see --list)")
        if not args.estimate and (args.out is None or args.evidence is None):
            ap.error("--cells runs a part of the plan: give --out and --evidence (the "
                     "plan's own files are for all of it)")
        cells = [cells[i - 1] for i in dict.fromkeys(args.cells)]
    sizes = {"binary": pop_b, "k": pop_k}
    if args.estimate:
        estimate(cells, sims, n_boot, seed=args.seed, pop_size=sizes)
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
            table, source=source, title=title, sims=sims, n_boot=n_boot, command=command,
            commit=commit, engine=engine, version=ml.__version__, grid=grid_summary(cells),
            preliminary=preliminary))
    look = plan_out or OUTPUTS["full"]
    atomic_write_text(out, markdown(summary, table, pops, cells, sims=sims, n_boot=n_boot,
                                    command=command, commit=commit, engine=engine,
                                    preliminary=preliminary,
                                    evidence_path=str(evidence or "(not written)"),
                                    times=times, warnings_by_cell=warns,
                                    heading=look.heading, scope=look.scope))
    below = table[~table.covers]
    print(f"{len(table)} settings, {int(table.covers.sum())} cover"
          + (" (preliminary run: no verdict)" if preliminary else "")
          + f"; report {out}" + (f", evidence {evidence}" if evidence else ""), file=sys.stderr)
    if not preliminary and len(below):
        print("below the bar: " + ", ".join(
            f"{r.measure} ({r.classes} {r.design} {r.kind}: {r.lowest:.3f} at {r.where})"
            for r in below.itertuples()), file=sys.stderr)
    return 0
