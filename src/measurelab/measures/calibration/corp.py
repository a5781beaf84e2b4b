"""The CORP score decomposition: miscalibration, discrimination and uncertainty of the
Brier score and the log loss from isotonic (PAV) recalibration (Dimitriadis, Gneiting &
Jordan 2021).

**Recalibration.** The conditional event probability (CEP) of a prediction p is estimated
by the isotonic regression of y on p: pool-adjacent-violators over the distinct
probabilities, each with its mean outcome pos/(pos + neg) and its weight pos + neg, so
tied predictions get one recalibrated value (the tie handling of scikit-learn's
``IsotonicRegression`` that model-diagnostics' ``decompose`` uses). The PAV solution is
read off the greatest convex minorant of the cumulative sum diagram (:func:`pav`: numpy,
vectorized but for a short stack pass; from 2¹⁸ rows one compiled pass, the same hull on
whole weights, ``_kernels/pav.py``), not scipy's ``isotonic_regression``: the measures
run in every evaluation of probabilities, and a command-line evaluation of a small file
imports no scipy (tests/_kernels/test_fused.py). The two agree to 1e-15
(tests/measures/test_recalibration.py); each pooled block's value is its own sum over
its own weight, so tied and pooled cases get exactly one value. The decomposition needs
only the pooled blocks (their positive weight and weight): S of the recalibrated
probabilities is a sum over blocks, S(p) a sum over the rows in steps, so no row-sized
array is made.

**Decomposition** (docs/METHODS.md#corp; Dimitriadis, Gneiting & Jordan 2021, "Stable
reliability diagrams for probabilistic classifiers", PNAS 118(8) e2016191118). For a proper
score S averaged over the cases, with r the recalibrated probabilities and π the overall
fraction positive (climatology):

    MCB = S(p) − S(r) ≥ 0,   DSC = S(π) − S(r) ≥ 0,   UNC = S(π),   S(p) = MCB − DSC + UNC.

Brier: S(q) = mean (q − y)². Log loss (natural log): S(q) = −mean(y log q + (1 − y)
log(1 − q)); p is clipped to [ε, 1 − ε] as :func:`~measurelab.measures.probability.mxe`
clips it (ε = 2.2e-16), so S(p) is measurelab's (and scikit-learn's) log loss, finite at
p ∈ {0, 1} where model-diagnostics gives inf; the recalibrated r reaches 0 or 1 only
where no case of the other class is (0·log 0 = 0). Rounding that would take MCB or DSC
below 0 gives 0.

Agreement with model-diagnostics 1.5's ``decompose`` (``SquaredError``, ``LogLoss``),
weighted and not, with ties: 3e-16 measured, 1e-12 asserted
(tests/measures/test_recalibration.py). The hand-computed values of the six-case
example (derived there by hand from the PAV fit) are reproduced exactly. A bootstrap
block computes each table's PAV once for the four measures. Binary only (the references
define none for k classes).

**In-sample.** PAV fitted and scored on the same cases describes *this sample*: as an
estimate of the population's miscalibration it is biased upwards (PAV fits the noise), by
about one standard error at n = 1,000, so a bootstrap interval around it misses a
calibrated model's 0 every time. The registered measures say so in their names
(``brier_mcb_insample``, ``brier_dsc_insample``, ``logloss_mcb_insample``,
``logloss_dsc_insample``) and carry no interval; the population's values are estimated by
:mod:`measurelab.measures.calibration.debiased` (``brier_mcb`` …).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from measurelab._util.validation import warn_undefined
from measurelab._util.words import num
from measurelab.measures._fused import lookup
from measurelab.measures._rules import EPS
from measurelab.measures.base import measure
from measurelab.measures.calibration._rows import weighted_rows
from measurelab.pickling import versioned_pickle
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

SCORES = ("brier", "log")


@versioned_pickle
class Recalibration(NamedTuple):
    """PAV recalibration of a table: the distinct probabilities that carry weight, their
    weight, positive weight and recalibrated value (CEP)."""

    scores: np.ndarray
    weight: np.ndarray
    pos: np.ndarray
    cep: np.ndarray


@versioned_pickle
class Decomposition(NamedTuple):
    """Miscalibration, discrimination, uncertainty and the mean score."""

    mcb: float
    dsc: float
    unc: float
    score: float

    def __str__(self) -> str:
        """The decomposition in words (:func:`decomposition_text`)."""
        return decomposition_text(self)


def decomposition_text(d: Any) -> str:
    """A CORP decomposition ``score = mcb − dsc + unc`` in words (any object with the four
    fields).

    Examples
    --------
    >>> print(Decomposition(0.0363, 0.1657, 0.25, 0.1206))
    Mean score 0.1206 = miscalibration 0.0363 − discrimination 0.1657 + uncertainty 0.25 (CORP).
    """
    return (f"Mean score {num(d.score)} = miscalibration {num(d.mcb)} − discrimination "
            f"{num(d.dsc)} + uncertainty {num(d.unc)} (CORP).")


def _lower_hull(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of the vertices of the lower convex hull of points with increasing ``x``
    (first and last included), left to right: vectorized passes drop every point on or
    above the chord of its current neighbours (it is no vertex), a monotone chain
    finishes."""
    idx = np.arange(x.size)
    for _ in range(64):
        if idx.size <= 2:
            break
        ia, ib, ic = idx[:-2], idx[1:-1], idx[2:]
        turn = (x[ib] - x[ia]) * (y[ic] - y[ia]) - (y[ib] - y[ia]) * (x[ic] - x[ia])
        keep = np.concatenate([[True], turn > 0, [True]])
        if keep.all():
            break
        idx = idx[keep]
    hull: list[int] = []
    for i in idx.tolist():
        while len(hull) >= 2:
            o, a = hull[-2], hull[-1]
            if (x[a] - x[o]) * (y[i] - y[o]) - (y[a] - y[o]) * (x[i] - x[o]) <= 0:
                hull.pop()  # a is on or above the chord o -> i
            else:
                break
        hull.append(i)
    return np.asarray(hull, dtype=np.int64)


def _blocks(pos: np.ndarray, other: np.ndarray,
            other_is_weight: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The PAV blocks of rows of positive weight ``other`` (``other_is_weight``) or
    ``pos + other``: their boundaries (``hull``, block j = rows ``hull[j] .. hull[j+1] −
    1``), positive weight and weight. Compiled from 2¹⁸ rows (the ``"pav"`` route of
    :data:`measurelab._kernels.routing.ROUTES`: one pass, no row-sized temporaries)."""
    from measurelab._kernels.routing import use_compiled

    if use_compiled("pav", pos.size):
        from measurelab._kernels.pav import pav_blocks

        return pav_blocks(pos, other, other_is_weight)
    w = other if other_is_weight else pos + other
    cw = np.concatenate([[0.0], np.cumsum(w)])
    cp = np.concatenate([[0.0], np.cumsum(pos)])
    hull = _lower_hull(cw, cp)
    starts = hull[:-1]
    return hull, np.add.reduceat(pos, starts), np.add.reduceat(w, starts)


def pav(pos: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted isotonic (non-decreasing) regression of the means ``pos / w`` in the given
    order (``w`` > 0): the slopes of the greatest convex minorant of the cumulative sum
    diagram (Barlow, Bartholomew, Bremner & Brunk 1972), the solution pool-adjacent-
    violators finds; each pooled block's value is its own sum over its own weight.

    Examples
    --------
    >>> pav(np.array([0.0, 1.0, 0.5, 2.0]), np.array([1.0, 1.0, 1.0, 2.0])).tolist()
    [0.0, 0.75, 0.75, 1.0]
    """
    if pos.size == 0:
        return np.zeros(0)
    hull, bp, bw = _blocks(pos, w, True)
    return np.repeat(bp / bw, np.diff(hull))


def _table_blocks(t: ScoreTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The PAV blocks of a table's rows of positive weight (memoized; a few arrays of one
    entry per block)."""
    key = "recalibration.blocks"
    if key not in t.memo:
        _, pos, neg = weighted_rows(t)
        t.memo[key] = _blocks(pos, neg, False) if pos.size else (
            np.zeros(1, dtype=np.int64), np.zeros(0), np.zeros(0))
    return t.memo[key]


def recalibrate(t: ScoreTable) -> Recalibration:
    """The PAV recalibration of a score table (rows of zero weight left out).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9])
    >>> recalibrate(t).cep.tolist()
    [0.25, 0.25, 0.25, 0.25, 1.0, 1.0]
    """
    key = "recalibration.pav"
    if key not in t.memo:
        s, pos, neg = weighted_rows(t)
        hull, bp, bw = _table_blocks(t)
        cep = np.repeat(bp / bw, np.diff(hull)) if pos.size else np.zeros(0)
        t.memo[key] = Recalibration(s, pos + neg, pos, np.clip(cep, 0.0, 1.0))
    return t.memo[key]


#: rows per step of the sums over the rows (bounded temporaries)
_CHUNK = 1 << 16


def _score_sum(q: np.ndarray, pos: np.ndarray, neg: np.ndarray, score: str,
               clip: bool = False) -> float:
    """Σ of the score of probabilities q (clipped to [ε, 1 − ε] if ``clip``) over rows
    with pos positives and neg negatives (in steps of ``_CHUNK`` rows, each step's
    products added pairwise)."""
    total = 0.0
    for a in range(0, q.size, _CHUNK):
        qa, pa, na = q[a:a + _CHUNK], pos[a:a + _CHUNK], neg[a:a + _CHUNK]
        if score == "brier":
            total += float((pa * (1.0 - qa) ** 2).sum() + (na * (qa * qa)).sum())
            continue
        if clip:  # in [ε, 1 − ε]: every logarithm is finite
            qa = np.clip(qa, EPS, 1 - EPS)
            total -= float((pa * np.log(qa)).sum() + (na * np.log1p(-qa)).sum())
            continue
        with np.errstate(divide="ignore"):  # 0·log 0 = 0: the rows of no such case drop out
            log_q = np.where(pa > 0, np.log(qa), 0.0)
            log_1q = np.where(na > 0, np.log1p(-qa), 0.0)
        total -= float((pa * log_q).sum() + (na * log_1q).sum())
    return total


def decomposition(t: ScoreTable, score: str = "brier") -> Decomposition:
    """MCB, DSC, UNC and the mean score of a table (NaN with no cases).

    S(p) is summed over the rows in steps (Brier: the compiled walk's sum when the table
    has one, as ``brier`` reads it), S(recalibrated p) over the PAV blocks (each block's
    positive and negative weight at its one value): memory of one step and one entry per
    block, whatever the size of the table.

    Examples
    --------
    >>> t = ScoreTable.from_arrays([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9])
    >>> [round(v, 7) for v in decomposition(t)]
    [0.1016667, 0.125, 0.25, 0.2266667]
    >>> [round(v, 6) for v in decomposition(t, "log")]
    [0.323733, 0.318257, 0.693147, 0.698623]
    """
    if score not in SCORES:
        from measurelab.exceptions import MeasurelabError, MeasurelabTypeError

        cls = MeasurelabError if isinstance(score, str) else MeasurelabTypeError
        raise cls(f"score={score!r} is not valid; expected one of {SCORES}")
    key = ("recalibration.decomposition", score)
    if key in t.memo:
        return t.memo[key]
    n_pos = t.n_pos
    total = n_pos + t.n_neg
    if not total > 0:
        return Decomposition(math.nan, math.nan, math.nan, math.nan)
    walked = lookup(t, "sq_sum") if score == "brier" else None  # the walk's Brier sum
    s_p = (float(walked) if walked is not None
           else _score_sum(t.scores, t.pos, t.neg, score, clip=score != "brier")) / total
    _, bp, bw = _table_blocks(t)
    s_r = _score_sum(np.clip(bp / bw, 0.0, 1.0), bp, bw - bp, score) / total
    pi = n_pos / total
    s_pi = _score_sum(np.array([pi]), np.array([n_pos]), np.array([total - n_pos]),
                      score) / total
    out = Decomposition(max(s_p - s_r, 0.0), max(s_pi - s_r, 0.0), s_pi, s_p)
    t.memo[key] = out
    return out


def _part(t: ScoreTable, score: str, part: str, name: str) -> float:
    v = getattr(decomposition(t, score), part)
    if math.isnan(v):
        warn_undefined(f"{name} is undefined with no cases; returning NaN")
    return v


def _each(blk: TableBlock, score: str, part: str) -> np.ndarray:
    """One part of the decomposition of every table of the block; both scores' parts are
    kept in the block's memo, so the four measures of one bootstrap block share one PAV
    per table."""
    key = ("recalibration.decomposition", score)
    if key not in blk.memo:
        parts: dict[str, list[Decomposition]] = {s: [] for s in SCORES}
        for b in range(blk.n_blocks):
            t = blk.table(b)
            for s in SCORES:
                parts[s].append(decomposition(t, s))
        for s in SCORES:
            blk.memo[("recalibration.decomposition", s)] = np.array(
                parts[s], dtype=np.float64).reshape(-1, 4)
    return blk.memo[key][:, Decomposition._fields.index(part)].copy()


def brier_mcb_insample_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`brier_mcb_insample`: one PAV per table."""
    return _each(blk, "brier", "mcb")


def brier_dsc_insample_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`brier_dsc_insample`: one PAV per table."""
    return _each(blk, "brier", "dsc")


def logloss_mcb_insample_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`logloss_mcb_insample`: one PAV per table."""
    return _each(blk, "log", "mcb")


def logloss_dsc_insample_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`logloss_dsc_insample`: one PAV per table."""
    return _each(blk, "log", "dsc")


_SOURCE = "Dimitriadis, Gneiting & Jordan 2021 (PNAS 118(8)) CORP decomposition, PAV"


@measure("brier_mcb_insample", kind="probability", statistic="scores", range=(0.0, 1.0),
         higher_is_better=False, aliases=("corp_brier_mcb",),
         source=_SOURCE + ": Brier miscalibration",
         block=brier_mcb_insample_block)
def brier_mcb_insample(t: ScoreTable) -> float:
    """Brier miscalibration of this sample (CORP, in-sample): Brier(p) − Brier(p
    recalibrated by PAV on the same cases); lower is better, 0 when the predictions are
    their own isotonic recalibration. A description of the sample, biased upwards as an
    estimate of the population's miscalibration (that is :func:`brier_mcb`): no interval.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.brier_mcb_insample([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9]), 7)
    0.1016667
    """
    return _part(t, "brier", "mcb", "brier_mcb_insample")


@measure("brier_dsc_insample", kind="probability", statistic="scores", range=(0.0, 0.25),
         higher_is_better=True, aliases=("corp_brier_dsc",),
         source=_SOURCE + ": Brier discrimination",
         block=brier_dsc_insample_block)
def brier_dsc_insample(t: ScoreTable) -> float:
    """Brier discrimination of this sample (CORP, in-sample): Brier(base rate) − Brier(p
    recalibrated by PAV on the same cases); higher is better, at most π(1 − π). A
    description of the sample (the population's is :func:`brier_dsc`): no interval.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.brier_dsc_insample([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9]), 7)
    0.125
    """
    return _part(t, "brier", "dsc", "brier_dsc_insample")


@measure("logloss_mcb_insample", kind="probability", statistic="scores", range=(0.0, math.inf),
         higher_is_better=False, aliases=("corp_logloss_mcb",),
         source=_SOURCE + ": log-loss miscalibration", block=logloss_mcb_insample_block)
def logloss_mcb_insample(t: ScoreTable) -> float:
    """Log-loss miscalibration of this sample (CORP, in-sample, natural log): log loss(p) −
    log loss(p recalibrated by PAV on the same cases); lower is better. A description of
    the sample (the population's is :func:`logloss_mcb`): no interval.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.logloss_mcb_insample([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9]), 6)
    0.323733
    """
    return _part(t, "log", "mcb", "logloss_mcb_insample")


@measure("logloss_dsc_insample", kind="probability", statistic="scores", range=(0.0, math.log(2)),
         higher_is_better=True, aliases=("corp_logloss_dsc",),
         source=_SOURCE + ": log-loss discrimination", block=logloss_dsc_insample_block)
def logloss_dsc_insample(t: ScoreTable) -> float:
    """Log-loss discrimination of this sample (CORP, in-sample, natural log): log
    loss(base rate) − log loss(p recalibrated by PAV on the same cases); higher is better.
    A description of the sample (the population's is :func:`logloss_dsc`): no interval.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.logloss_dsc_insample([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9]), 6)
    0.318257
    """
    return _part(t, "log", "dsc", "logloss_dsc_insample")
