"""Measure families, one module each; importing this package registers them all.

====================  ==================================================================
module                measures
====================  ==================================================================
basic                 acc, err, sens, spec, prec, npv, f_beta, f1, bacc, gmean
likelihood            youden, lr_pos, lr_neg, dp (+ dp_band, likelihood_verdict)
agreement             mcc, kappa
oarp                  ri, op, avri, oarp (+ extended_precision_recall)
ranking               auc (Hand & Till M), apr, ap, ap11, bep, lift
probability           rms, mxe, brier, ece, top_k_acc
calibration           cal
recalibration         brier_mcb_insample, brier_dsc_insample, logloss_mcb_insample,
                      logloss_dsc_insample (CORP decomposition of the sample)
debiased_calibration  brier_mcb, brier_dsc, logloss_mcb, logloss_dsc (the population's)
smooth_calibration    smece, ici, e50, e90, emax
calibration_test      spiegelhalter_z
composite             sar
twolevel              two_level(f, g) → f:g
====================  ==================================================================
"""

# registration order = listing order of `measurelab measures`
from measurelab.measures import basic  # noqa: F401, I001
from measurelab.measures import likelihood  # noqa: F401
from measurelab.measures import oarp  # noqa: F401
from measurelab.measures import ranking  # noqa: F401
from measurelab.measures import probability  # noqa: F401
from measurelab.measures import calibration  # noqa: F401
from measurelab.measures import recalibration  # noqa: F401
from measurelab.measures import debiased_calibration  # noqa: F401
from measurelab.measures import smooth_calibration  # noqa: F401
from measurelab.measures import calibration_test  # noqa: F401
from measurelab.measures import agreement  # noqa: F401
from measurelab.measures import composite  # noqa: F401
from measurelab.measures.base import Measure, Registry, measure, registry
from measurelab.measures.likelihood import dp_band, likelihood_verdict
from measurelab.measures.oarp import extended_precision_recall
from measurelab.measures.twolevel import TwoLevelValue, two_level

__all__               = [
    "Measure",
    "Registry",
    "TwoLevelValue",
    "dp_band",
    "extended_precision_recall",
    "likelihood_verdict",
    "measure",
    "registry",
    "two_level",
]
