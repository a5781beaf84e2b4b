"""Spiegelhalter's z: a test of calibration from the Brier score (Spiegelhalter 1986).

Under the hypothesis that every case's probability of being positive is its prediction
p, the Brier score has a known mean and variance; the standardised difference is

    z = Σ wᵢ (yᵢ − pᵢ)(1 − 2pᵢ) / √(Σ wᵢ (1 − 2pᵢ)² pᵢ (1 − pᵢ)),

approximately standard normal (Spiegelhalter 1986, "Probabilistic prediction in patient
management and clinical trials", Stat Med 5:421–433; the same statistic as MAPIE's
``spiegelhalter_statistic``, weights w as frequencies). The two-sided p-value is
``2·Φ(−|z|)`` (:func:`spiegelhalter_p_value`; ``EvaluationResult.notes()`` shows it beside
z). MAPIE's ``spiegelhalter_p_value`` is one-sided, ``1 − Φ(z)``.

**Sign and direction.** Each case adds (y − p)(1 − 2p): positive when p is too far from ½
(too high above ½, too low below it), negative when too close to ½. So z > 0 says the
predictions are on balance too extreme (over-confident), z < 0 too cautious; a shift
towards one class is too extreme on one side of ½ and too cautious on the other, and z
takes the sign of the side with more weight. 0 is the calibrated value and |z| the
evidence against calibration: the registry records the target 0 (``Measure.target``), so
preferences, summaries, scorers and rankings order models by |z| (a z of −100, far too
cautious, is not better than 0). Still, |z| measures evidence, not the size of the
miscalibration: compare models by ICI, smooth ECE or the Brier miscalibration
(:mod:`.corp`) rather than by z.

**Zero variance.** Every case at p ∈ {0, ½, 1} makes the denominator 0; the numerator is
then the weight of the certain predictions that were wrong (p = 0 with y = 1, p = 1 with
y = 0). None wrong: z = 0 (nothing contradicts calibration; p-value 1); some wrong:
z = +inf (a certain prediction failed; p-value 0). MAPIE returns NaN or inf there with a
division warning.
"""

from __future__ import annotations

import math

import numpy as np

from measurelab.measures.base import measure
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

#: columns (distinct scores) per step of the sums
_CHUNK = 1 << 16


def spiegelhalter_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`spiegelhalter_z`: the two sums of every table at once (row by
    row as the scalar formula, which calls this on a block of one table)."""
    num = np.zeros(blk.n_blocks)
    var = np.zeros(blk.n_blocks)
    total = np.zeros(blk.n_blocks)
    for a in range(0, blk.scores.size, _CHUNK):  # in steps: no table-sized temporaries
        s = blk.scores[a:a + _CHUNK]
        d = 1.0 - 2.0 * s
        p = blk.pos[:, a:a + _CHUNK]
        m = p + blk.neg[:, a:a + _CHUNK]
        # row sums of C-ordered arrays: each row summed alike whatever the block's size
        num += np.ascontiguousarray((p - s * m) * d).sum(axis=1)
        var += np.ascontiguousarray(m * (d * d * s * (1.0 - s))).sum(axis=1)
        total += m.sum(axis=1)
    out = np.zeros(blk.n_blocks)
    pos = var > 0
    out[pos] = num[pos] / np.sqrt(var[pos])
    wrong = ~pos & (num != 0)
    out[wrong] = np.copysign(np.inf, num[wrong])
    out[total == 0] = np.nan
    return out


@measure(
    "spiegelhalter_z",
    kind="probability",
    statistic="scores",
    range=(-math.inf, math.inf),
    higher_is_better=False,
    target=0.0,
    aliases=("spiegelhalter",),
    source="Spiegelhalter 1986 (Stat Med 5:421) z-test of calibration; as MAPIE's "
    "spiegelhalter_statistic; 0 = calibrated, > 0 too extreme, < 0 too cautious",
    block=spiegelhalter_block,
)
def spiegelhalter_z(t: ScoreTable) -> float:
    """Spiegelhalter's z: Σ w(y − p)(1 − 2p) / √Σ w(1 − 2p)²p(1 − p); 0 when calibrated,
    > 0 on balance too extreme (over-confident), < 0 too cautious. Its ideal is 0
    (registered ``target=0``): it ranks by |z| everywhere a direction is used; the
    two-sided p-value is in ``EvaluationResult.notes()``.

    Zero variance (every p in {0, ½, 1}): 0, or +inf when a certain prediction was wrong.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.spiegelhalter_z([0, 1, 0, 1, 0], [0.1, 0.9, 0.21, 0.9, 0.5]), 6)
    -0.756697
    """
    with np.errstate(all="ignore"):
        v = float(spiegelhalter_block(TableBlock(t.scores, t.pos[None], t.neg[None]))[0])
    if math.isnan(v):
        from measurelab._util.validation import warn_undefined

        warn_undefined("spiegelhalter_z is undefined with no cases; returning NaN")
    return v


def spiegelhalter_p_value(z: float) -> float:
    """Two-sided normal p-value of Spiegelhalter's z: 2·Φ(−|z|).

    Examples
    --------
    >>> round(spiegelhalter_p_value(1.959963984540054), 12)
    0.05
    >>> spiegelhalter_p_value(0.0), spiegelhalter_p_value(float("inf"))
    (1.0, 0.0)
    """
    if math.isnan(z):
        return math.nan
    return math.erfc(abs(z) / math.sqrt(2.0))
