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

from .plan import Block

#: the measures of the study, at their default parameters
MEASURES: tuple[str, ...] = ("sens_at_spec", "spec_at_sens", "prec_at_recall",
                             "recall_at_prec", "pauc", "spauc")
KINDS: tuple[str, ...] = ("single", "paired", "unpaired")

OPERATING_POINT: tuple[Block, ...] = (
    Block("binary", "binormal", ("random", "fixed"), (300, 1000), (0.2, 0.5), KINDS,
          MEASURES),
    Block("binary", "binormal", ("random",), (1000,), (0.05,), KINDS, MEASURES),
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
         "π = 0.2 and 0.5 and n = 1,000 at π = 0.05. The verdicts sit beside the "
         "registry-wide study's.")
