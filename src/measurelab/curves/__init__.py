"""Curves as data (:mod:`~measurelab.curves.points`) and as pictures
(:mod:`~measurelab.curves.plots`): ROC, precision-recall, DET, lift, cumulative gain and
Drummond & Holte cost curves, each read off the score table; the CORP reliability diagram
with its consistency band (:mod:`~measurelab.curves.reliability`); decision curves (net
benefit over threshold probabilities, with bootstrap bands: :mod:`~measurelab.curves.decision`).

Examples
--------
>>> from measurelab.curves import roc_curve
>>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
>>> tpr.tolist()
[0.0, 0.5, 0.5, 1.0, 1.0]
"""

from measurelab.curves import decision, plots, points, reliability
from measurelab.curves.decision import *  # noqa: F403  (decision.__all__)
from measurelab.curves.plots import *  # noqa: F403  (the names of plots.__all__)
from measurelab.curves.points import *  # noqa: F403  (the names of points.__all__)
from measurelab.curves.reliability import *  # noqa: F403  (reliability.__all__)

__all__ = sorted([*points.__all__, *plots.__all__, *reliability.__all__, *decision.__all__])
