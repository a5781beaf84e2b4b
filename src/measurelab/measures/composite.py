"""Composite measures built from other measures: SAR (Caruana & Niculescu-Mizil 2004).

OP and OARP are composites of confusion-count measures and live in
:mod:`measurelab.measures.oarp`; two-level measures live in
:mod:`measurelab.measures.twolevel`.
"""

from __future__ import annotations

import numpy as np

from measurelab.measures._block import quiet_div
from measurelab.measures.base import measure
from measurelab.measures.basic import acc
from measurelab.measures.probability import rms, rms_block
from measurelab.measures.ranking import auc, auc_block
from measurelab.stats.block import BlockStats
from measurelab.stats.bundle import BinaryStats


def sar_block(stats: BlockStats) -> np.ndarray:
    """Block form of :func:`sar` (the formula is in its docstring)."""
    c = stats.counts
    accuracy = quiet_div(c.tp + c.tn, c.total)
    return (accuracy + auc_block(stats.table) + (1.0 - rms_block(stats.table))) / 3.0


@measure(
    "sar",
    kind="composite",
    statistic="stats",
    needs_probabilities=True,
    source="Caruana 2004 SAR = (ACC + AUC + (1 − RMS)) / 3",
    block=sar_block,
)
def sar(stats: BinaryStats) -> float:
    """SAR: (acc + auc + (1 − rms)) / 3, accuracy at the evaluation threshold.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.sar([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 6)
    0.700784
    """
    table = stats.require_table("sar")
    return (float(acc(stats.counts)) + auc(table) + (1.0 - rms(table))) / 3.0
