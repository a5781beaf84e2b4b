"""Rules shared by the measure formulas and the compiled walk of :mod:`._fused`: the
recall tolerance of 11-point AP, the clip of probabilities before a log, the ECE bin of a
score, and the names under which the walk's sums are kept in a statistic's memo.

They sit below both (the family modules ``ranking`` and ``probability`` read the walk's
sums; the walk applies their rules), so neither imports the other.
"""

from __future__ import annotations

import numpy as np

#: real weights: a recall this close (relatively) below a level counts as reaching it
#: (11-point AP, :func:`measurelab.measures.ranking.ap11`)
RECALL_TOL = 2.0**-30

#: key of the compiled walk's sums in a :class:`~measurelab.stats.scoretable.ScoreTable`'s
#: memo, and in a :class:`~measurelab.stats.block.TableBlock`'s
TABLE_WALK = "measures.fused_walk"
BLOCK_WALK = "measures.block_walk"

#: MXE and the log-loss decompositions clip p to [EPS, 1 − EPS] before taking logs, as
#: scikit-learn's ``log_loss`` does
EPS = float(np.finfo(np.float64).eps)


def ece_bins(scores: np.ndarray, n_bins: int) -> np.ndarray:
    """ECE's bin of each score: b/n ≤ score < (b+1)/n, the last bin also holding 1.0.

    Examples
    --------
    >>> ece_bins(np.array([0.0, 0.25, 0.5, 1.0]), 2).tolist()
    [0, 0, 1, 1]
    """
    return np.minimum(np.floor(scores * n_bins).astype(np.int64), n_bins - 1)


def recall_level_factor(integer: bool) -> float:
    """The factor on the recall levels of 11-point AP: 1 for whole-number weights (decided
    exactly), else 1 − :data:`RECALL_TOL`.

    Examples
    --------
    >>> recall_level_factor(True), recall_level_factor(False) < 1
    (1.0, True)
    """
    return 1.0 if integer else 1.0 - RECALL_TOL
