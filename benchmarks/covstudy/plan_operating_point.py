"""The operating-point study (issue 42): do the intervals of the measures at an operating
point and of the partial AUC cover?

``sens_at_spec``, ``spec_at_sens``, ``prec_at_recall``, ``recall_at_prec``, ``pauc`` and
``spauc`` at their default parameters (0.9 for the four rates, FPR 0.2 for the partial
areas: the evidence measurelab reads names a measure at its defaults only), binary (the
measures have no k-class form), one model, paired and unpaired differences, random and
fixed designs, n = 300 and 1,000 at π = 0.2 and 0.5, and n = 1,000 at π = 0.05 (50
positives: the rates at 90% of a small class). The binormal (miscalibrated) generator:
the measures are functions of the ranking, so calibration does not enter.

500 simulations a cell and 1,000 replicates, about an hour on one core of a loaded
machine (``--estimate``)::

    nice -n 15 python benchmarks/coverage_study.py --plan operating-point \\
        --cache out/coverage-operating-point

It writes ``docs/coverage_operating_point.md`` and the evidence file
``src/measurelab/data/coverage/operating_point.json`` (source ``operating-point``), which
measurelab reads beside the registry-wide study's.
"""

from __future__ import annotations

from pathlib import Path

from . import choice
from .plan import Block

#: the measures of the study, at their default parameters
MEASURES: tuple[str, ...] = ("sens_at_spec", "spec_at_sens", "prec_at_recall",
                             "recall_at_prec", "pauc", "spauc")
KINDS: tuple[str, ...] = ("single", "paired", "unpaired")

#: the measures at other parameters than their defaults (the evidence names them so)
OTHER_PARAMETERS: tuple[str, ...] = ("sens_at_spec@0.95", "spec_at_sens@0.8", "pauc@0.1",
                                     "spauc@0.1")
#: best_threshold(..., ci=0.95) with Youden's J: its four rows (covstudy.choice)
CHOICE: tuple[str, ...] = choice.names("youden")
#: simulations a cell of the two added blocks (the run's 500 for the first ones): 200, the
#: fewest that are evidence (Monte Carlo SE 0.015 near 0.95), to keep the added CPU time
#: near a quarter of an hour
ADDED_SIMS = 200

OPERATING_POINT: tuple[Block, ...] = (
    Block("binary", "binormal", ("random", "fixed"), (300, 1000), (0.2, 0.5), KINDS,
          MEASURES),
    Block("binary", "binormal", ("random",), (1000,), (0.05,), KINDS, MEASURES),
    Block("binary", "binormal", ("random", "fixed"), (300, 1000), (0.2,), KINDS,
          OTHER_PARAMETERS, max_sims=ADDED_SIMS),
    Block("binary", "binormal", ("random", "fixed"), (300, 1000), (0.2, 0.5), ("single",),
          CHOICE, max_sims=ADDED_SIMS),
)

REPORT = Path("docs/coverage_operating_point.md")
EVIDENCE = Path("src/measurelab/data/coverage/operating_point.json")
SOURCE = "operating-point"
TITLE = ("measurelab's operating-point coverage study (benchmarks/coverage_study.py "
         "--plan operating-point)")
HEADING = "Coverage of measurelab's 95% intervals at the operating point"
SCOPE = ("**Scope** (`--plan operating-point`): the measures at an operating point "
         "(`sens_at_spec`, `spec_at_sens`, `prec_at_recall`, `recall_at_prec` at 0.9) and "
         "the partial AUC (`pauc`, `spauc` to FPR 0.2), whose intervals are the bootstrap's "
         "(BCa for one model, the case bootstrap for differences); binary, one model, "
         "paired and unpaired differences, random and fixed designs, n = 300 and 1,000 at "
         "π = 0.2 and 0.5 and n = 1,000 at π = 0.05. Added blocks, 200 simulations a cell "
         "(Monte Carlo SE 0.015 near 0.95): the same measures at other parameters "
         "(`sens_at_spec@0.95`, `spec_at_sens@0.8`, `pauc@0.1`, `spauc@0.1`; random and "
         "fixed, n = 300 and 1,000 at π = 0.2, single, paired and unpaired), and "
         "`best_threshold(..., ci=0.95)` with Youden's J (its four rows threshold, sens, "
         "spec and J, one model each; random and fixed, n = 300 and 1,000 at π = 0.2 and "
         "0.5). The verdicts sit beside the registry-wide study's.")
MEASURES_TEXT = (
    "**Measures**: the six at their default parameters, the four at other parameters, "
    "named `name@value` as measurelab's reader names them, and the rows of "
    "`best_threshold(y, s, 'youden', ci=0.95, n_boot=1000)`, named "
    "`best_threshold.youden.<row>` (each replicate chooses its own threshold; percentile "
    "intervals; `stratify=True` in the fixed design). **Their targets** are exact: under "
    "the binormal the population's J(x) = Φ(x) − Φ(x − μ) at the latent cut x, maximised "
    "numerically (`benchmarks/covstudy/choice.py`; the equal-variance optimum μ/2, which a "
    "test checks), its sens Φ(μ − x*), spec Φ(x*), J, and the threshold sigmoid(b·(x* − c)) "
    "on the score scale; the large sample's best_threshold is only a check (the z column).")
