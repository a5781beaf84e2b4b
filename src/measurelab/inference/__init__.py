"""Inference: intervals, paired and unpaired tests, comparisons of classifiers.

* :mod:`~measurelab.inference.bootstrap` — the case-resampling block bootstrap engine
  (weights over the sorted table, a block of replicates as a matrix) and its intervals
  (percentile, BCa);
* :mod:`~measurelab.inference.intervals` — Wilson, McNemar, Holm and the choice of
  interval per measure; :mod:`~measurelab.inference.delong` — all of DeLong (one AUC, the
  covariance of several, the paired and unpaired tests);
* :mod:`~measurelab.inference.compare` — :func:`compare_classifiers`, several models on
  one test set (binary: :mod:`~measurelab.inference.classifiers`, k classes:
  :mod:`~measurelab.inference.multiclass`); :mod:`~measurelab.inference.unpaired` —
  :func:`compare_unpaired`, two test sets;
* :mod:`~measurelab.inference.significance` — paired t and Wilcoxon tests, win/draw/loss;
  :mod:`~measurelab.inference.friedman` — :func:`demsar` (ranks, Friedman, Nemenyi and
  Bonferroni–Dunn over many data sets);
* :mod:`~measurelab.inference.calibration` — :func:`calibration_test` ("is it
  calibrated?" by consistency resampling or Spiegelhalter's z) and which calibration
  numbers carry an interval;
* :mod:`~measurelab.inference.bayes` — :func:`bayes_compare`, the Bayesian comparison of
  two classifiers (correlated t-test, signed-rank and sign tests, hierarchical model:
  Benavoli et al. 2017), the probabilities of better, practically equivalent, worse;
* :mod:`~measurelab.inference.decision` — net benefit in a comparison (intervals, paired
  differences, the thresholds where a model is more useful);
  :mod:`~measurelab.inference.power` — :func:`power_roc_test` (Obuchowski–McClish, as
  pROC); :mod:`~measurelab.inference.simulation` — :func:`simulate_power` (any measure,
  through the comparison engine).
* :mod:`~measurelab.inference.learners` — :func:`compare_learners`, learning algorithms
  compared by cross-validation (one data set or many), with the statistics of
  :mod:`~measurelab.inference.cvstats` (corrected repeated k-fold t, 5×2cv t and F, nested
  cross-validation).

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
    "ClassifierComparison": "measurelab.inference.classifiers",
    "compare_classifiers": "measurelab.inference.compare",
    **dict.fromkeys(("CVTestResult", "NestedCVResult", "combined_f_5x2cv", "corrected_t",
                     "nested_cv_interval", "paired_t_5x2cv"), "measurelab.inference.cvstats"),
    "LearnerComparison": "measurelab.inference.learner_comparison",
    "LearnerComparisonOverDatasets": "measurelab.inference.learner_datasets",
    "compare_learners": "measurelab.inference.learners",
    **dict.fromkeys(("DemsarResult", "RankTestResult", "bonferroni_dunn_q", "demsar", "nemenyi_q"),
                    "measurelab.inference.friedman"),
    **dict.fromkeys(("ConfidenceInterval", "ZTestResult"), "measurelab.inference.intervals"),
    **dict.fromkeys(("Interval", "holm", "mcnemar_exact", "mcnemar_interval", "mcnemar_score",
                     "proportion_interval", "tango_interval"), "measurelab.inference.intervals"),
    "newcombe_auc_interval": "measurelab.inference.newcombe",
    "delong_paired": "measurelab.inference.delong",
    **dict.fromkeys(("TTestResult", "WilcoxonResult", "paired_ttest", "wdl_table",
                     "wilcoxon_signed_rank", "win_draw_loss"),
                    "measurelab.inference.significance"),
    **dict.fromkeys(("UnpairedComparison", "compare_unpaired"), "measurelab.inference.unpaired"),
    **dict.fromkeys(("NetBenefitComparison",), "measurelab.inference.decision"),
    **dict.fromkeys(("PowerResult", "power_roc_test"), "measurelab.inference.power"),
    **dict.fromkeys(("Binormal", "Resample", "SimulatedPower", "simulate_power"),
                    "measurelab.inference.simulation"),
}
__all__ = [
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
