"""Calibration measures: one module per idea, each formula beside its docstring and source.

================  ====================================================================
module            measures
================  ====================================================================
cal               cal (CA2/CAL: sliding windows of the score order; Caruana &
                  Niculescu-Mizil 2004)
binned            ece (binned expected calibration error; Naeini et al. 2015, the
                  top-label form of Guo et al. 2017)
corp              brier_mcb_insample, brier_dsc_insample, logloss_mcb_insample,
                  logloss_dsc_insample (the CORP decomposition of the sample, PAV;
                  ``recalibrate``, ``decomposition``, ``pav``)
debiased          brier_mcb, brier_dsc, logloss_mcb, logloss_dsc (the population's
                  miscalibration and discrimination, debiased binned estimates)
smooth            smece (smooth ECE, kernel smoothing; Błasiok & Nakkiran 2023)
loess             ici, e50, e90, emax (R's loess calibration curve; Austin & Steyerberg
                  2019) on R's loess (``_loess``)
spiegelhalter     spiegelhalter_z (Spiegelhalter's z test of calibration, and its p-value)
logistic          cal_slope, cal_intercept (the calibration slope and calibration-in-the-
                  large of the logistic recalibration; Cox 1958)
================  ====================================================================

The package imports none of its modules: :mod:`measurelab.measures` imports them in the
order of the listing of ``measurelab measures`` (``ece`` from
:mod:`measurelab.measures.probability`, between ``mxe`` and ``top_k_acc``). The reliability
curve is :mod:`measurelab.curves.reliability`; calibration inference (intervals and tests
on these measures) is :mod:`measurelab.inference.calibration`.

The module :mod:`.cal` has the name of the measure: ``measurelab.measures.calibration.cal``
is that module; the function is ``measurelab.metrics.cal`` (or ``...calibration.cal.cal``).
"""

import importlib
from typing import Any

_MODULES = ("cal", "binned", "corp", "debiased", "smooth", "loess", "spiegelhalter",
            "logistic")


def __getattr__(name: str) -> Any:
    if name in _MODULES or name in ("_loess", "_rows"):  # a module of the package
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(_MODULES)
