"""CAL: Caruana & Niculescu-Mizil's calibration error, the CA2 of ``perf``.

Sort the cases by score; for every window of ``window`` consecutive cases take
|mean score − fraction positive|; CAL is the mean over all windows (one window of all
cases when there are fewer than ``window``).

**Ties.** ``perf`` leaves the order of tied cases to its sort. Here the result must not
depend on input order, so every case in a group of tied scores counts as the group's
fraction of positives — each window's positive count is its expectation over random
orderings of ties (the absolute value is taken after). With no ties this is exactly perf's
CA2. The computation is O(distinct scores): between break points (where a window edge
crosses a tie-group boundary) the window error is linear in the window position, so its
absolute sum has a closed form. When ties are few (at most ``_EXPAND_FACTOR`` cases per
distinct score on average) expanding to per-case values is cheaper and gives the same value.
"""

from __future__ import annotations

import math

import numpy as np

from measurelab._validation import warn_undefined
from measurelab.registry import measure
from measurelab.stats.scoretable import ScoreTable

#: expand to per-case values when cases ≤ this many times the distinct scores
_EXPAND_FACTOR = 4


def _abs_linear_sum(alpha: np.ndarray, beta: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Σ_{i=a}^{b-1} |α + β·i| for arrays of intervals (a < b integers)."""

    def lin(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        n = hi - lo
        return n * alpha + beta * (lo + hi - 1) * n / 2

    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.where(beta != 0, -alpha / beta, 0.0)
    # first index of the second sign run: rising lines turn non-negative at ceil(root),
    # falling lines turn negative just after floor(root)
    c = np.clip(np.where(beta > 0, np.ceil(root), np.floor(root) + 1), a, b)
    split = np.where(beta > 0, lin(c, b) - lin(a, c), lin(a, c) - lin(c, b))
    return float(np.sum(np.where(beta == 0, np.abs(alpha) * (b - a), split)))


@measure(
    "cal",
    kind="probability",
    statistic="scores",
    higher_is_better=False,
    aliases=("ca2", "calibration"),
    main_param="window",
    source="Caruana 2004 CAL (perf CA2, sliding windows of 100)",
)
def cal(t: ScoreTable, window: int = 100) -> float:
    """Calibration error over sliding windows of ``window`` cases in score order (perf CA2).

    Needs integer (frequency) weights. Ties: see the module docstring.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.cal([0, 1, 0, 1], [0.1, 0.3, 0.6, 0.9], window=2), 12)  # (.3 + .05 + .25)/3
    0.2
    """
    if not t.is_integer:
        warn_undefined("CAL needs integer (frequency) weights; returning NaN")
        return math.nan
    w = int(window)
    m = t.pos + t.neg
    d = t.scores * m - t.pos  # per group: Σ (score − expected label)
    bounds = np.concatenate([[0.0], np.cumsum(m)])
    n = round(float(bounds[-1]))
    F = np.concatenate([[0.0], np.cumsum(d)])  # F at group boundaries
    if n <= w:
        return abs(F[-1]) / n
    slope = t.scores - t.pos / m  # dF/dt inside each group = a case's score − expected label
    if n <= _EXPAND_FACTOR * m.size:
        # few ties: per-case values cost at most a few times the table; windows are
        # differences of one cumulative sum
        fc = np.concatenate([[0.0], np.cumsum(np.repeat(slope, m.astype(np.int64)))])
        return float(np.abs(fc[w:] - fc[:-w]).sum()) / w / (n - w + 1)
    last = n - w + 1  # windows start at i = 0 .. n-w
    br = np.concatenate([bounds, bounds - w, [0.0, float(last)]])
    br = np.unique(br[(br >= 0) & (br <= last)])
    a, b = br[:-1], br[1:]
    G = m.size
    g1 = np.clip(np.searchsorted(bounds, a, side="right") - 1, 0, G - 1)
    g2 = np.clip(np.searchsorted(bounds, a + w, side="right") - 1, 0, G - 1)
    # D(i) = F(i+w) − F(i) = alpha + beta·i on [a, b)
    beta = slope[g2] - slope[g1]
    alpha = (F[g2] + slope[g2] * (w - bounds[g2])) - (F[g1] - slope[g1] * bounds[g1])
    return _abs_linear_sum(alpha, beta, a, b) / w / last
