"""Inference: intervals, tests and verdicts, in one package per question a user asks.

* :mod:`~measurelab.inference.classifiers` — is A better than B on this test set?
  :func:`compare_classifiers` (binary and k classes; clustered cases and subgroups; net
  benefit; simulated power), :func:`compare_unpaired` (two test sets), and their reports;
* :mod:`~measurelab.inference.learners` — which learning algorithm is better?
  :func:`compare_learners` by cross-validation on one data set or many, with the CV
  statistics (corrected repeated k-fold t, 5×2cv t and F, nested cross-validation);
* :mod:`~measurelab.inference.ranks` — which ranks better over many data sets?
  :func:`demsar` (Friedman, Nemenyi, Bonferroni–Dunn) and the paired t, Wilcoxon and
  win/draw/loss tables;
* :mod:`~measurelab.inference.bayes` — :func:`bayes_compare`, the Bayesian comparison of
  two classifiers (correlated t-test, signed-rank and sign tests, hierarchical model:
  Benavoli et al. 2017);
* :mod:`~measurelab.inference.calibration` — :func:`calibration_test` ("is it
  calibrated?" by consistency resampling or Spiegelhalter's z);
* :mod:`~measurelab.inference.nir` — :func:`acc_vs_nir` ("does it beat predicting the
  most frequent class?": the exact binomial test of accuracy against the no-information
  rate).

Below them, the engine they share: :mod:`~measurelab.inference.bootstrap` (the case
designs, the block bootstrap and its percentile and BCa intervals),
:mod:`~measurelab.inference.delong` (all of DeLong), the posterior of the confusion cells
(:mod:`~measurelab.inference.confusion_posterior`), Newcombe's AUC interval
(:mod:`~measurelab.inference.newcombe`), :mod:`~measurelab.inference.intervals` (Wilson,
McNemar, Tango, Holm and the choice of interval per measure), the registry of interval
methods (:mod:`~measurelab.inference.methods`), their coverage evidence
(:mod:`~measurelab.inference.evidence`, :mod:`~measurelab.inference.withholding`) and
:func:`power_roc_test` (:mod:`~measurelab.inference.power`).

Examples
--------
>>> from measurelab.inference import proportion_interval
>>> lo, hi = proportion_interval(45, 50, 0.95)
>>> round(lo, 3), round(hi, 3)
(0.786, 0.957)
"""

from measurelab._util.lazy import lazy_face

_LAZY = {
    **dict.fromkeys(("BayesComparison", "bayes_compare", "bayes_pairs"),
                    "measurelab.inference.bayes"),
    **dict.fromkeys(("CalibrationTest", "calibration_test"), "measurelab.inference.calibration"),
    "ClassifierComparison": "measurelab.inference.classifiers.binary",
    "compare_classifiers": "measurelab.inference.classifiers.compare",
    **dict.fromkeys(("CVTestResult", "NestedCVResult", "combined_f_5x2cv", "corrected_t",
                     "nested_cv_interval", "paired_t_5x2cv"),
                    "measurelab.inference.learners.cvstats"),
    "LearnerComparison": "measurelab.inference.learners.one_dataset",
    "LearnerComparisonOverDatasets": "measurelab.inference.learners.many_datasets",
    "compare_learners": "measurelab.inference.learners.compare",
    **dict.fromkeys(("DemsarResult", "RankTestResult", "bonferroni_dunn_q", "demsar", "nemenyi_q"),
                    "measurelab.inference.ranks.friedman"),
    **dict.fromkeys(("ConfidenceInterval", "ZTestResult"), "measurelab.inference.intervals"),
    **dict.fromkeys(("Interval", "holm", "mcnemar_exact", "mcnemar_interval", "mcnemar_score",
                     "proportion_interval", "tango_interval"), "measurelab.inference.intervals"),
    "newcombe_auc_interval": "measurelab.inference.newcombe",
    **dict.fromkeys(("AccuracyNIRTest", "acc_vs_nir"), "measurelab.inference.nir"),
    "delong_paired": "measurelab.inference.delong",
    **dict.fromkeys(("TTestResult", "WilcoxonResult", "paired_ttest", "wdl_table",
                     "wilcoxon_signed_rank", "win_draw_loss"),
                    "measurelab.inference.ranks.significance"),
    **dict.fromkeys(("UnpairedComparison", "compare_unpaired"),
                    "measurelab.inference.classifiers.unpaired"),
    **dict.fromkeys(("NetBenefitComparison",), "measurelab.inference.classifiers.net_benefit"),
    **dict.fromkeys(("PowerResult", "power_roc_test"), "measurelab.inference.power"),
    **dict.fromkeys(("Binormal", "Resample", "SimulatedPower", "simulate_power"),
                    "measurelab.inference.classifiers.simulation"),
}
__all__ = [
    "AccuracyNIRTest",
    "BayesComparison",
    "Binormal",
    "CVTestResult",
    "CalibrationTest",
    "ClassifierComparison",
    "ConfidenceInterval",
    "DemsarResult",
    "Interval",
    "LearnerComparison",
    "LearnerComparisonOverDatasets",
    "NestedCVResult",
    "NetBenefitComparison",
    "PowerResult",
    "RankTestResult",
    "Resample",
    "SimulatedPower",
    "TTestResult",
    "UnpairedComparison",
    "WilcoxonResult",
    "ZTestResult",
    "acc_vs_nir",
    "bayes_compare",
    "bayes_pairs",
    "bonferroni_dunn_q",
    "calibration_test",
    "combined_f_5x2cv",
    "compare_classifiers",
    "compare_learners",
    "compare_unpaired",
    "corrected_t",
    "delong_paired",
    "demsar",
    "holm",
    "mcnemar_exact",
    "mcnemar_interval",
    "mcnemar_score",
    "nemenyi_q",
    "nested_cv_interval",
    "newcombe_auc_interval",
    "paired_t_5x2cv",
    "paired_ttest",
    "power_roc_test",
    "proportion_interval",
    "simulate_power",
    "tango_interval",
    "wdl_table",
    "wilcoxon_signed_rank",
    "win_draw_loss",
]

__getattr__, __dir__ = lazy_face(__name__, _LAZY, __all__)
