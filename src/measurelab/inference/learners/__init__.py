"""Which learning algorithm is better? Learners compared by cross-validation on one data
set or on many.

* :mod:`.compare` — :func:`compare_learners`, the entry (one data set or a dict of them);
* :mod:`.one_dataset` — :class:`LearnerComparison`: the folds' scores, the corrected
  repeated k-fold t, the Bayesian correlated t-test;
* :mod:`.many_datasets` — :class:`LearnerComparisonOverDatasets`: ranks, Friedman and
  Nemenyi (:mod:`measurelab.inference.ranks`), the Bayesian hierarchical model;
* :mod:`.cvstats` — the statistics of cross-validated scores (corrected repeated k-fold t,
  5×2cv t and F, nested cross-validation);
* the runs (private: the fits, in order, resumable) and the report (private).
"""
