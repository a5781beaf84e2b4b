"""Binned expected calibration error (ECE): the weighted mean gap between the mean
predicted probability and the fraction of positives in equal-width bins of the predicted
probability.

ECE = Σ_b (w_b / W)·|mean score in b − fraction positive in b| over ``n_bins`` equal-width
bins of [0, 1] (bin b holds scores in [b/n, (b+1)/n), the last bin also holds 1.0;
:func:`~measurelab.measures._rules.ece_bins`). k classes: the same bins over the arg-max
probability, "positive" = the arg-max class is the true one. Sources: Naeini, Cooper &
Hauskrecht 2015 (equal-width bins); Guo et al. 2017 (the top-label form). The value depends
on the bins and is biased upward on few cases; the smoothed measures (:mod:`.smooth`,
:mod:`.loess`) and the debiased decomposition (:mod:`.debiased`) avoid the bins.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from measurelab.measures._block import quiet_div
from measurelab.measures._fused import block_lookup, lookup
from measurelab.measures._rules import ece_bins
from measurelab.measures.base import measure
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

__all__ = ["ece", "ece_block"]


def ece_multi(stats: Any, average: str | None = "macro", n_bins: int = 10) -> float:
    """The k-class ECE: binned ECE of the top-label confidences (Guo et al. 2017)."""
    return ece(stats.rows.confidence, n_bins=n_bins)


def ece_block(blk: TableBlock, n_bins: int = 10) -> np.ndarray:
    """Block form of :func:`ece` (the formula is in its docstring)."""
    n_bins = int(n_bins)
    walked = block_lookup(blk, ("ece", n_bins))
    if walked is not None:
        ws, wp = walked
        return quiet_div(np.abs(ws - wp).sum(axis=1), blk.total)
    b = ece_bins(blk.scores, n_bins)
    if b.size and b[0] < 0:
        raise ValueError("ece needs scores in [0, 1]")
    # the scores are sorted, so every bin is a run of consecutive rows; each run is summed
    # in order (a cumulative sum), as np.bincount sums: the same bits as the scalar formula
    cuts = np.flatnonzero(np.diff(b)) + 1
    starts = np.concatenate([[0], cuts]) if b.size else cuts
    ends = np.concatenate([cuts, [b.size]]) if b.size else cuts
    ws_all = (blk.pos + blk.neg) * blk.scores
    diff = np.zeros((blk.n_blocks, n_bins))
    for lo, hi in zip(starts.tolist(), ends.tolist(), strict=True):
        ws = np.cumsum(ws_all[:, lo:hi], axis=1)[:, -1]
        wp = np.cumsum(blk.pos[:, lo:hi], axis=1)[:, -1]
        diff[:, b[lo]] = np.abs(ws - wp)
    return quiet_div(diff.sum(axis=1), blk.total)


@measure(
    "ece",
    kind="probability",
    statistic="scores",
    higher_is_better=False,
    aliases=("expected_calibration_error",),
    multiclass=ece_multi,
    main_param="n_bins",
    source="Naeini, Cooper & Hauskrecht 2015 (equal-width bins)",
    block=ece_block,
    walk_output="ece",
)
def ece(t: ScoreTable, n_bins: int = 10) -> float:
    """Expected calibration error: Σ_b (w_b / W)·|mean score in b − fraction positive in b|
    over ``n_bins`` equal-width bins; bin b holds scores in [b/n, (b+1)/n), the last bin
    also holds 1.0. k classes: the same bins over the arg-max probability, "positive" = the
    arg-max class is the true one (Guo et al. 2017).

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.ece([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3], n_bins=2), 12)  # .5·.2 + .5·.15
    0.175
    """
    n_bins = int(n_bins)
    fused = lookup(t, ("ece", n_bins))
    if fused is not None:
        ws, wp = fused
        return float(np.abs(ws - wp).sum() / t.total)
    b = ece_bins(t.scores, n_bins)
    w = t.pos + t.neg
    ws = np.bincount(b, weights=w * t.scores, minlength=n_bins)
    wp = np.bincount(b, weights=t.pos, minlength=n_bins)
    return float(np.abs(ws - wp).sum() / t.total)
