"""What the study simulates: the measures (asked of the library), the grid, and its cost.

The measures are those measurelab offers an interval for at run time
(:func:`measurelab.inference.classifiers.offered.offered_intervals`: per task, design and kind of
interval), at their default parameters (``f_beta`` β = 1, ``lift`` q = 0.25, ``mxe`` in
nats, ``ece`` 10 bins, ``top_k_acc`` k = 1, ``cal`` a window of 100, ``oarp`` x = 1), k-class
measures at ``average='macro'`` and, on one cell, 'weighted' and 'micro' for those whose
value depends on it.

A plan is a list of :class:`Block`: a product of designs × n × prevalences (or classes) for
one generator, kinds of interval and a choice of measures. The grid is not one product:
the measures whose replicates cost most (:data:`HEAVY`, the loess and PAV calibration
family; measured, see :func:`estimate`) run on fewer cells, the k-class study on fewer
cells than the binary one.

:data:`PLANS`: ``full`` (:data:`FULL`, the registry-wide study), ``small``
(:data:`SMALL`, the small-count study: the functions of the confusion matrix and ``auc`` at
few positives, few predicted positives and the kink of |sens − spec|, with a large-count
reference) and ``large`` (:data:`LARGE`, the influence-function intervals at 10⁴ and 10⁵
cases: random, fixed and weighted designs, a rare and a balanced class).
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from .cells import Cell, one_sim
from .population import POP_PARTS

#: the calibration family: the measures whose interval costs most per simulation (their
#: estimators fit PAV, loess or pairs of cases in every replicate). Measured with
#: ``--costs`` on a loaded machine: brier_mcb, brier_dsc and logloss_dsc (the ones that
#: offer an interval since the calibration inference landed) 0.15 s at n = 300, 0.44 s at
#: n = 1,000 and together 2.4 s at n = 10⁴, against 0.07, 0.2 and 1.25 s for three other
#: measures; the others (smece, ici, e50, e90, emax, logloss_mcb) withhold their interval
#: and so are not simulated. They run on fewer cells; the dedicated calibration study
#: (benchmarks/calibration_study.py) has more.
HEAVY: tuple[str, ...] = ("brier_mcb", "brier_dsc", "logloss_mcb", "logloss_dsc", "smece",
                          "ici", "e50", "e90", "emax")


@dataclass(frozen=True)
class Block:
    """A product of cells: ``designs`` × ``ns`` × ``params`` (prevalences for 'binary',
    numbers of classes for 'k') of one generator, with the kinds of interval and the
    measures: 'cheap' (every offered measure not in :data:`HEAVY`), 'heavy' (those in it),
    'all', 'by-average' (the cheap k-class measures whose value depends on ``average``),
    'small-counts' (the offered functions of the confusion matrix and ``auc``) or a tuple
    of names."""

    task: str
    generator: str
    designs: tuple[str, ...]
    ns: tuple[int, ...]
    params: tuple[float, ...]
    kinds: tuple[str, ...] = ("single", "paired")
    measures: str | tuple[str, ...] = "cheap"
    average: str = "macro"
    #: at most this many simulations a cell (None: the run's ``--sims``), for cells whose
    #: simulations cost most (the large plan's 10⁵ cases)
    max_sims: int | None = None

    def cells(self) -> list[Cell]:
        """The block's cells, with their measures asked of the library."""
        out = []
        for d in self.designs:
            ms = tuple(select(self.measures, self.task, d, self.kinds, self.average))
            if not ms:
                continue
            for p in self.params:
                for n in self.ns:
                    if self.task == "binary":
                        out.append(Cell("binary", self.generator, d, n, prevalence=p,
                                        kinds=self.kinds, measures=ms))
                    else:
                        out.append(Cell("k", self.generator, d, n, classes=int(p),
                                        average=self.average, kinds=self.kinds, measures=ms))
        return out


@lru_cache(maxsize=16)
def offered(task: str, design: str) -> Any:
    """:func:`~measurelab.inference.classifiers.offered.offered_intervals` of a task and design (the
    study's designs map to measurelab's: ``random-stratified`` resamples as ``fixed``)."""
    from measurelab.inference.classifiers.offered import offered_intervals

    d = "fixed" if design == "random-stratified" else design
    t = offered_intervals(multiclass=task == "k", design=d)
    return t[t.offered]


def select(choice: str | Sequence[str], task: str, design: str, kinds: Sequence[str],
           average: str = "macro") -> list[str]:
    """The measures of a block (see :class:`Block`), in registry order."""
    t = offered(task, design)
    t = t[t.kind.isin(list(kinds))]
    names = list(dict.fromkeys(t.measure))
    if not isinstance(choice, str):
        return [m for m in choice]
    if choice == "all":
        return names
    if choice == "heavy":
        return [m for m in names if m in HEAVY]
    if choice == "cheap":
        return [m for m in names if m not in HEAVY]
    if choice == "by-average":
        free = {m for m, avs in zip(t.measure, t.averages, strict=True) if average in avs}
        return [m for m in names if m not in HEAVY and m not in free]
    if choice == "small-counts":
        return [m for m in names if m in SMALL_COUNT_EXTRA or _kind_of(m) == "threshold"]
    raise ValueError(f"unknown measure choice {choice!r}")


#: the measure choices of a block besides a tuple of names
CHOICES: tuple[str, ...] = ("cheap", "heavy", "all", "by-average", "small-counts")
#: the 'small-counts' choice: the offered measures of registry kind 'threshold' (functions
#: of the confusion matrix: the Dirichlet-posterior, Wilson and Tango intervals) and these
#: (one AUC with a small class: Newcombe's score interval)
SMALL_COUNT_EXTRA: tuple[str, ...] = ("auc",)


def _kind_of(name: str) -> str:
    """A measure's registry kind ('threshold', 'rank', 'probability', ...)."""
    from measurelab import registry

    return str(registry.get(name).kind)


# --------------------------------------------------------------------------- plans
#: the registry-wide study (see docs/coverage.md): 500 simulations a cell and 1,000
#: replicates, about 3.5 hours on one core of a loaded machine, measured with
#: ``--estimate`` (the report lists the seconds per simulation of every cell)
FULL: tuple[Block, ...] = (
    # binary, miscalibrated models: the whole range of n and π
    Block("binary", "binormal", ("random",), (100, 300, 1000, 10_000), (0.05, 0.2, 0.5)),
    Block("binary", "binormal", ("fixed",), (100, 300, 1000), (0.05, 0.2, 0.5)),
    Block("binary", "binormal", ("fixed",), (10_000,), (0.2,)),
    # binary, a calibrated model and a miscalibrated one
    Block("binary", "calibrated", ("random",), (100, 300, 1000), (0.05, 0.2, 0.5)),
    Block("binary", "calibrated", ("random",), (10_000,), (0.2,)),
    Block("binary", "calibrated", ("fixed",), (100, 1000), (0.05, 0.5)),
    # two test sets (unpaired)
    Block("binary", "binormal", ("random",), (100, 1000), (0.05, 0.5), ("unpaired",)),
    Block("binary", "binormal", ("fixed",), (300,), (0.2,), ("unpaired",)),
    # the calibration family: fewer cells, a calibrated and a miscalibrated model in each
    Block("binary", "calibrated", ("random",), (100, 1000), (0.05, 0.5), measures="heavy"),
    Block("binary", "calibrated", ("random",), (10_000,), (0.2,), measures="heavy"),
    Block("binary", "binormal", ("random", "fixed"), (300,), (0.2,), measures="heavy"),
    Block("binary", "calibrated", ("fixed",), (300,), (0.5,), measures="heavy"),
    Block("binary", "binormal", ("random", "fixed"), (300,), (0.2,), ("unpaired",),
          measures="heavy"),
    # k classes
    Block("k", "softmax", ("random",), (100, 300, 1000), (3,)),
    Block("k", "softmax", ("random",), (300,), (5,)),
    Block("k", "softmax", ("fixed",), (300,), (3,)),
    Block("k", "softmax", ("random",), (300,), (3,), measures="by-average",
          average="weighted"),
    Block("k", "softmax", ("random",), (300,), (3,), measures="by-average",
          average="micro"),
    Block("k", "softmax-calibrated", ("random",), (300,), (3,), measures="all"),
    Block("k", "softmax", ("fixed",), (300,), (3,), measures="heavy"),
)

#: the small-count study: do the intervals for few cases (the Dirichlet posterior of the
#: confusion matrix, Newcombe's AUC interval, Wilson and Tango) hold where the bootstrap
#: fell short, at few positives, few flagged cases and the kink of |sens − spec|, and
#: still where it covered (the large-count reference)? Threshold measures and auc only
#: ('small-counts'); 500 simulations a cell, 1,000 replicates, as the full plan.
SMALL: tuple[Block, ...] = (
    # few positives: 2 to 24 expected
    Block("binary", "binormal", ("random", "fixed"), (60, 120, 400), (0.04, 0.06),
          measures="small-counts"),
    Block("binary", "binormal", ("random",), (120, 400), (0.05,), ("unpaired",),
          measures="small-counts"),
    Block("binary", "binormal", ("fixed",), (120, 400), (0.05,), ("unpaired",),
          measures="small-counts"),
    Block("binary", "calibrated", ("random",), (120, 400), (0.05,), measures="small-counts"),
    # large classes, few predicted positives (about 5 and 16)
    Block("binary", "sparse-flags", ("random", "fixed"), (120, 400), (0.5,),
          measures="small-counts"),
    # sensitivity = specificity: ri, op, avri, oarp at their kink
    Block("binary", "kink", ("random", "fixed"), (300, 1000), (0.5,),
          measures="small-counts"),
    # the large-count reference, where the bootstrap covered
    Block("binary", "binormal", ("random",), (1000, 10_000), (0.2, 0.5),
          measures="small-counts"),
    Block("binary", "binormal", ("fixed",), (1000,), (0.2,), measures="small-counts"),
    # a calibrated model at a rare prior flags few cases (15 and 50 positives): where the
    # registry-wide study found the paired bootstrap of every threshold measure short
    Block("binary", "calibrated", ("random", "fixed"), (300, 1000), (0.05,),
          measures="small-counts"),
)

#: the large-n plan's measures: those whose interval the influence method is the default
#: of from LARGE_N cases (ap, brier, rms, mxe), auc and the functions of the confusion
#: matrix a user may force it on (acc, prec, f1, mcc)
LARGE_MEASURES: tuple[str, ...] = ("acc", "prec", "f1", "mcc", "auc", "ap", "brier", "rms",
                                   "mxe")
#: the debiased calibration terms with an influence function (the influence method is
#: their default from LARGE_N cases)
LARGE_CALIBRATION: tuple[str, ...] = ("brier_mcb", "brier_dsc", "logloss_dsc")
#: simulations a cell of the cells added for the calibration terms and the unpaired
#: differences (run on their own within a 20-minute budget: MC SE 0.011 at 0.95)
LARGE_ADDED_SIMS = 400
#: the large-n study: do the influence-function intervals (forced on every measure,
#: ``ci_method='influence'``: OUTPUTS['large'] in cli.py) cover where they are the default,
#: from 10⁴ cases with 100 in the smaller class? The exact population values are the targets
#: (``binormal-exact``); 1,000 simulations a cell (MC SE 0.007), 500 at 10⁵ cases (0.010),
#: where a simulation took 1.7 s on a loaded machine against 0.05 s at 10⁴ (the whole plan:
#: 37 minutes on one core).
LARGE: tuple[Block, ...] = (
    # 10⁴ cases: 100 in the smaller class (π = 0.01, the threshold itself) and 5,000
    Block("binary", "binormal-exact", ("random", "fixed"), (10_000,), (0.01, 0.5),
          measures=LARGE_MEASURES),
    # ... and 500 (mid-bracket)
    Block("binary", "binormal-exact", ("random",), (10_000,), (0.05,),
          measures=LARGE_MEASURES),
    # weighted cases: a case-control sample of 100, 500 or 5,000 positives (covstudy.
    # generators.CaseWeights: negatives weighted 5, every weight times U(0.5, 1.5))
    Block("binary", "binormal-exact", ("weighted",), (10_000,), (0.01, 0.05, 0.5),
          measures=LARGE_MEASURES),
    # 10⁵ cases: 1,000 and 50,000 in the smaller class
    Block("binary", "binormal-exact", ("random",), (100_000,), (0.01, 0.5),
          measures=LARGE_MEASURES, max_sims=500),
    # the debiased calibration terms: a calibrated model (its miscalibration at the
    # boundary 0) against an over-confident one, and two miscalibrated models. Their own
    # methods are not forceable, so a random test set below 100 positives would take the
    # bootstrap: the random design's rare class is π = 0.015 (150 expected, below 100
    # with probability 10⁻⁶), the fixed design's holds exactly 100
    Block("binary", "calibrated-exact", ("random",), (10_000,), (0.015, 0.5),
          measures=LARGE_CALIBRATION, max_sims=LARGE_ADDED_SIMS),
    Block("binary", "calibrated-exact", ("fixed",), (10_000,), (0.01, 0.5),
          measures=LARGE_CALIBRATION, max_sims=LARGE_ADDED_SIMS),
    Block("binary", "binormal-exact", ("random",), (10_000,), (0.015, 0.5),
          measures=LARGE_CALIBRATION, max_sims=LARGE_ADDED_SIMS),
    # unpaired differences: each model on its own test set
    Block("binary", "binormal-exact", ("random",), (10_000,), (0.01, 0.5), ("unpaired",),
          measures=LARGE_MEASURES, max_sims=LARGE_ADDED_SIMS),
    Block("binary", "calibrated-exact", ("random",), (10_000,), (0.015, 0.5), ("unpaired",),
          measures=LARGE_CALIBRATION, max_sims=LARGE_ADDED_SIMS),
)

PLANS: dict[str, tuple[Block, ...]] = {"full": FULL, "small": SMALL, "large": LARGE}


def plan_cells(blocks: Sequence[Block]) -> list[Cell]:
    """Every cell of a plan, in order."""
    return [c for b in blocks for c in b.cells()]


def cell_sims(blocks: Sequence[Block], sims: int) -> list[int]:
    """The simulations of each cell of :func:`plan_cells` (same order): ``sims``, or the
    block's :attr:`Block.max_sims` when fewer."""
    return [min(sims, b.max_sims) if b.max_sims is not None else sims
            for b in blocks for _c in b.cells()]


# --------------------------------------------------------------------------- cost
def estimate(cells: Sequence[Cell], sims: int | Sequence[int], n_boot: int, *, reps: int = 2,
             seed: int = 0, pop_size: dict[str, int] | None = None, out: Any = None,
             ci_method: str | None = None) -> float:
    """The seconds a plan would take on this machine: each cell's simulation timed
    ``reps`` times (after one untimed warm-up simulation of the plan), times ``sims`` (or
    its own number of simulations, one per cell, in order); plus
    the population samples (each timed on a tenth of its size, times 20: the whole sample
    and its :data:`~covstudy.population.POP_PARTS` parts). Prints one line per cell.
    """
    from .cells import _root
    from .generators import generator
    from .population import MULTI_POP_SIZE, POP_SIZE, _values

    out = sys.stdout if out is None else out
    sizes = {"binary": POP_SIZE, "k": MULTI_POP_SIZE, **(pop_size or {})}
    per_cell = [sims] * len(cells) if isinstance(sims, int) else list(sims)
    total = 0.0
    if cells:
        one_sim(0, cells[0], n_boot, _root(cells[0], seed), ci_method)   # warm-up
    print(f"{'cell':48} {'measures':>8} {'s/sim':>7} {'sims':>5} {'cell min':>9}", file=out)
    for c, k in zip(cells, per_cell, strict=True):
        root = _root(c, seed)
        t = []
        for i in range(reps):
            t0 = time.perf_counter()
            one_sim(i, c, n_boot, root, ci_method)
            t.append(time.perf_counter() - t0)
        sec = float(np.mean(t))
        total += sec * k
        print(f"{c.label():48} {len(c.measures):8d} {sec:7.2f} {k:5d} {sec * k / 60:9.1f}",
              file=out, flush=True)
    from .population import population_setting

    pops = {(c.task, c.generator, *population_setting(c.design, c.param), c.average):
            c.measures for c in cells}
    pop_total = 0.0
    for (task, gen_name, design, param, average), ms in pops.items():
        size = sizes[task] // 10
        gen = generator(task, gen_name, int(param) if task == "k" else 2)
        rng = np.random.default_rng(0)
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if task == "binary":
                y, a, b = gen.draw(design, size, param, rng)
                _values(y, a, b, ms, None)
            else:
                y, a, b = gen.draw(design, size, rng)
                _values(y, a, b, ms, average)
        pop_total += (time.perf_counter() - t0) * 10 * 2
    print(f"simulations {total / 3600:.2f} h; {len(pops)} population samples "
          f"{pop_total / 3600:.2f} h (each {POP_PARTS} parts); total "
          f"{(total + pop_total) / 3600:.2f} h on one core", file=out, flush=True)
    return total + pop_total


def measure_costs(n: int = 1000, n_boot: int = 1000, seed: int = 0,
                  out: Any = None) -> dict[str, float]:
    """Seconds of one binary simulation (single and paired, binormal, random, π = 0.2) per
    measure alone: what :data:`HEAVY` is chosen from."""
    from .cells import _root

    out = sys.stdout if out is None else out
    names = select("all", "binary", "random", ("single", "paired"))
    costs = {}
    for m in names:
        c = Cell("binary", "binormal", "random", n, prevalence=0.2, measures=(m,))
        root = _root(c, seed)
        one_sim(0, c, n_boot, root, None)
        t0 = time.perf_counter()
        one_sim(1, c, n_boot, root, None)
        costs[m] = time.perf_counter() - t0
        print(f"{m:16} {costs[m]:7.3f} s{'  (heavy)' if m in HEAVY else ''}", file=out,
              flush=True)
    return costs


def grid_summary(cells: Sequence[Cell]) -> dict[str, Any]:
    """What a plan covers, per task: generators, designs, n, prevalences or classes,
    averages (for the evidence file)."""
    out: dict[str, Any] = {}
    for task in ("binary", "k"):
        cs = [c for c in cells if c.task == task]
        if not cs:
            continue
        out[task] = {
            "generators": sorted({c.generator for c in cs}),
            "designs": sorted({c.design for c in cs}),
            "n": sorted({c.n for c in cs}),
            **({"prevalence": sorted({c.prevalence for c in cs})} if task == "binary"
               else {"classes": sorted({c.classes for c in cs}),
                     "averages": sorted({c.average for c in cs})}),
            "cells": len(cs)}
    return out
