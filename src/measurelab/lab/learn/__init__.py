"""Learning with measures: measure-monitored training, prototype selection, CV.

* :mod:`~measurelab.lab.learn.stopping` — Huang & Ling's look-ahead stopping rule
  (:class:`ImprovementStop`), lexicographic for two-level measures.
* :mod:`~measurelab.lab.learn.mlp` — a numpy back-propagation network stopped by any measure
  (:func:`train_monitored`, :class:`MonitoredMLPClassifier`).
* :mod:`~measurelab.lab.learn.prototypes` — Monte-Carlo Sampling prototype selection
  (:class:`MonteCarloPrototypeSelector`).
* :mod:`~measurelab.lab.learn.cv` — seeded (repeated) k-fold splits and a resumable per-fold
  result store (:func:`cv_splits`, :func:`run_folds`).
* :mod:`~measurelab.lab.learn.models` — naive Bayes and C4.5/C4.4-like trees for Ling et al.
* :mod:`~measurelab.lab.learn.selection` — model selection by measures (separate module).
"""

from __future__ import annotations

from measurelab.lab.learn.cv import Split, cv_splits, run_folds
from measurelab.lab.learn.mlp import MLP, MonitoredMLPClassifier, train_monitored
from measurelab.lab.learn.prototypes import MonteCarloPrototypeSelector
from measurelab.lab.learn.stopping import ImprovementStop, improved

__all__ = [
    "MLP",
    "ImprovementStop",
    "MonitoredMLPClassifier",
    "MonteCarloPrototypeSelector",
    "Split",
    "cv_splits",
    "improved",
    "run_folds",
    "train_monitored",
]
