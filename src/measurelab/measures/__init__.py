"""Measure families, one module each; importing this package registers them all.

====================  ==================================================================
module                measures
====================  ==================================================================
basic                 acc, err, sens, spec, prec, npv, f_beta, f1, bacc, gmean (when
                      named: fdr, for_rate, jaccard, fowlkes_mallows)
likelihood            youden, lr_pos, lr_neg, dp (+ dp_band, likelihood_verdict; when
                      named: dor, markedness)
agreement             mcc, kappa (when named: kappa_linear, kappa_quadratic, scott_pi,
                      gwet_ac1)
oarp                  ri, op, avri, oarp (+ extended_precision_recall)
ranking               auc (Hand & Till M), apr, ap, ap11, bep, lift
probability           rms, mxe, brier, top_k_acc (and ece, registered between them)
calibration/          the calibration measures, one module per idea:
  .cal                cal
  .binned             ece
  .corp               brier_mcb_insample, brier_dsc_insample, logloss_mcb_insample,
                      logloss_dsc_insample (CORP decomposition of the sample)
  .debiased           brier_mcb, brier_dsc, logloss_mcb, logloss_dsc (the population's)
  .smooth             smece
  .loess              ici, e50, e90, emax
  .spiegelhalter      spiegelhalter_z
  .logistic           cal_slope, cal_intercept (logistic recalibration)
decision              net_benefit, snb (decision curve analysis: treat when p >= t)
operating_point       sens_at_spec, spec_at_sens, prec_at_recall, recall_at_prec, pauc,
                      spauc (the operating point a user must reach; partial AUC)
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
from measurelab.measures.calibration import cal  # noqa: F401
from measurelab.measures.calibration import corp  # noqa: F401
from measurelab.measures.calibration import debiased  # noqa: F401
from measurelab.measures.calibration import smooth  # noqa: F401
from measurelab.measures.calibration import loess  # noqa: F401
from measurelab.measures.calibration import spiegelhalter  # noqa: F401
from measurelab.measures.calibration import logistic  # noqa: F401
from measurelab.measures import agreement  # noqa: F401
from measurelab.measures import composite  # noqa: F401
from measurelab.measures import decision  # noqa: F401
from measurelab.measures import operating_point  # noqa: F401
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
