"""Pieces the calibration measures share."""

from __future__ import annotations

import numpy as np

from measurelab.stats.scoretable import ScoreTable


def weighted_rows(t: ScoreTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scores, positive and negative weights of the rows that carry weight (the table's
    own arrays when every row does).

    Examples
    --------
    >>> from measurelab.stats.scoretable import ScoreTable
    >>> s, pos, neg = weighted_rows(ScoreTable.from_arrays([0, 1, 1], [0.2, 0.7, 0.7]))
    >>> s.tolist(), pos.tolist(), neg.tolist()
    ([0.2, 0.7], [0.0, 2.0], [1.0, 0.0])
    """
    if t.all_rows_weighted:
        return t.scores, t.pos, t.neg
    keep = (t.pos + t.neg) > 0
    return t.scores[keep], t.pos[keep], t.neg[keep]
