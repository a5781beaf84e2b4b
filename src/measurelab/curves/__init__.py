"""Curves as data (:mod:`~measurelab.curves.points`) and as pictures
(:mod:`~measurelab.curves.plots`): ROC, precision-recall, DET, lift, cumulative gain and
Drummond & Holte cost curves, each read off the score table.

Examples
--------
>>> from measurelab.curves import roc_curve
>>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
>>> tpr.tolist()
[0.0, 0.5, 0.5, 1.0, 1.0]
"""

from measurelab.curves.plots import (
    plot_cost_curve,
    plot_cumulative_gain_curve,
    plot_det_curve,
    plot_lift_curve,
    plot_precision_recall_curve,
    plot_roc_curve,
)
from measurelab.curves.points import (
    CostCurve,
    DetCurve,
    GainCurve,
    LiftCurve,
    PrecisionRecallCurve,
    RocCurve,
    cost_curve,
    cumulative_gain_curve,
    det_curve,
    lift_curve,
    precision_recall_curve,
    roc_convex_hull,
    roc_curve,
)

__all__ = [
    "CostCurve",
    "DetCurve",
    "GainCurve",
    "LiftCurve",
    "PrecisionRecallCurve",
    "RocCurve",
    "cost_curve",
    "cumulative_gain_curve",
    "det_curve",
    "lift_curve",
    "plot_cost_curve",
    "plot_cumulative_gain_curve",
    "plot_det_curve",
    "plot_lift_curve",
    "plot_precision_recall_curve",
    "plot_roc_curve",
    "precision_recall_curve",
    "roc_convex_hull",
    "roc_curve",
]
