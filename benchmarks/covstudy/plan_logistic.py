"""The logistic-recalibration study (issue 44): do the Wald intervals of the calibration
slope and of calibration-in-the-large cover?

``cal_slope`` and ``cal_intercept``, every interval forced to ``ci_method='influence'``:
the fit's estimate ± 1.96·SE with the SE of the M-estimator's influence function (the
sandwich I⁻¹·Σ w(y − μ)²z zᵀ·I⁻¹, which is the inverse observed information when the
logistic recalibration model holds), single model and paired difference of the distances
to the targets (|a − 1| − |b − 1|; |a| − |b|). Binary, random design; the ``calibrated``
generator (model a exactly calibrated: slope 1 and intercept 0 are the exact targets, and
the paired difference sits at the kink of |a − 1|) and the ``binormal`` one (neither model
calibrated; the logistic recalibration holds exactly, slopes 1.19 and 0.92); n = 100, 1,000
and 10,000 at π = 0.2 (20, 200 and 2,000 in the smaller class) and n = 1,000 at π = 0.05
(50). ::

    nice -n 15 python benchmarks/coverage_study.py --plan logistic \\
        --cache out/coverage-logistic

It writes ``docs/coverage_logistic.md`` and the evidence file
``src/measurelab/data/coverage/logistic.json`` (source ``logistic``).
"""

from __future__ import annotations

from pathlib import Path

from .plan import Block

#: the measures of the study
MEASURES: tuple[str, ...] = ("cal_slope", "cal_intercept")
KINDS: tuple[str, ...] = ("single", "paired")

LOGISTIC: tuple[Block, ...] = tuple(
    b for gen in ("calibrated", "binormal") for b in (
        Block("binary", gen, ("random",), (100, 1000, 10_000), (0.2,), KINDS, MEASURES),
        Block("binary", gen, ("random",), (1000,), (0.05,), KINDS, MEASURES)))

REPORT = Path("docs/coverage_logistic.md")
EVIDENCE = Path("src/measurelab/data/coverage/logistic.json")
SOURCE = "logistic"
TITLE = ("measurelab's coverage study of the calibration slope and intercept "
         "(benchmarks/coverage_study.py --plan logistic)")
HEADING = "Coverage of measurelab's 95% intervals of the calibration slope and intercept"
SCOPE = ("**Scope** (`--plan logistic`, issue 44): `cal_slope` and `cal_intercept`, every "
         "interval forced to `influence` (the logistic fit's estimate ± 1.96·SE, the SE "
         "its sandwich variance: no resampling), single model and paired difference of "
         "the distances to the targets; binary, random design, the calibrated generator "
         "(model a calibrated: exact targets 1 and 0) and the binormal one (neither "
         "calibrated); n = 100, 1,000 and 10,000 at π = 0.2 and n = 1,000 at π = 0.05. "
         "The verdicts sit beside the registry-wide study's.")
