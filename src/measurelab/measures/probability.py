"""Probability measures from the score table: RMS, MXE (cross-entropy), Brier and top-k
accuracy (binned ECE, a calibration measure, is :mod:`measurelab.measures.calibration.binned`).

Binary: scores are probabilities of the positive class in [0, 1]. Multi-class
(docs/METHODS.md#multiclass): one
probability column per class; MXE = −mean log p(true class) (scikit-learn's ``log_loss``),
Brier = mean Σ_k (p_k − [y = k])² (scikit-learn ≥ 1.7 ``brier_score_loss``: halved for two
columns, which equals the binary Brier), RMS = √(Σ_k-Brier / k), top-k accuracy
(scikit-learn's ``top_k_accuracy_score``). Rows are not renormalized. Sources: Caruana &
Niculescu-Mizil 2004 (RMS, MXE); Brier 1950.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab.measures._arith import div
from measurelab.measures._block import quiet_div
from measurelab.measures._fused import block_lookup, lookup
from measurelab.measures._rules import EPS as _EPS
from measurelab.measures.base import measure
from measurelab.stats.block import TableBlock
from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.scoretable import ScoreTable

#: MXE clips p to [EPS, 1 − EPS] before taking logs, as scikit-learn's ``log_loss`` does.
EPS = _EPS


def _squared_error_sum(t: ScoreTable) -> float:
    fused = lookup(t, "sq_sum")
    return float(fused) if fused is not None else t.squared_error_sum


def _class_squared_error(stats: Any) -> float:
    """Σ over cases and classes of weight·(p_k − [y = k])²: the one-vs-rest squared error
    of every class column, summed."""
    table = stats.table
    return float(sum(table.ovr_table(i).squared_error_sum for i in range(table.k)))


def _total(stats: Any) -> float:
    return float(stats.counts.matrix.sum())


def _brier_multi(stats: Any, average: str | None = "macro") -> float:
    k = stats.table.k
    return _class_squared_error(stats) / _total(stats) / (2.0 if k == 2 else 1.0)


def _rms_multi(stats: Any, average: str | None = "macro") -> float:
    return math.sqrt(_class_squared_error(stats) / _total(stats) / stats.table.k)


def _mxe_multi(stats: Any, average: str | None = "macro", base: float = math.e) -> float:
    table = stats.table
    s = 0.0
    for c in range(table.k):  # column c at the cases of class c: p(true class)
        s += float(np.dot(table.counts[c][:, c], np.log(np.clip(table.scores[c], EPS, 1 - EPS))))
    return float(-s / _total(stats) / math.log(base))


def _squared_error_sum_block(blk: TableBlock) -> np.ndarray:
    """Σ weight·(score − label)² of every table (:attr:`ScoreTable.squared_error_sum`)."""
    walked = block_lookup(blk, "sq_sum")
    if walked is not None:
        return walked
    sc = blk.scores
    return blk.pos @ ((1.0 - sc) ** 2) + blk.neg @ (sc * sc)


def brier_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`brier` (the formula is in its docstring)."""
    return quiet_div(_squared_error_sum_block(blk), blk.total)


@measure(
    "brier",
    kind="probability",
    statistic="scores",
    range=(0.0, 2.0),  # binary ≤ 1; k classes: Σ_k (p_k − [y = k])² reaches 2
    higher_is_better=False,
    aliases=("brier_score", "mse"),
    multiclass=_brier_multi,
    source="Brier 1950: mean squared error of the probability",
    block=brier_block,
    walk_output="sq_sum",
)
def brier(t: ScoreTable) -> float:
    """Brier score: mean((p − y)²), y ∈ {0, 1}; lower is better. k classes:
    mean Σ_k (p_k − [y = k])² (halved when k = 2, as scikit-learn).

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.brier([0, 1], [0.2, 0.6]), 12)
    0.1
    """
    return _squared_error_sum(t) / t.total


def rms_block(blk: TableBlock) -> np.ndarray:
    """Block form of :func:`rms` (the formula is in its docstring)."""
    return np.sqrt(brier_block(blk))


@measure(
    "rms",
    kind="probability",
    statistic="scores",
    higher_is_better=False,
    aliases=("rmse", "root_mean_squared_error"),
    multiclass=_rms_multi,
    source="Caruana 2004 RMS (papers use 1 − rms as the normalized form)",
    block=rms_block,
    walk_output="sq_sum",
)
def rms(t: ScoreTable) -> float:
    """Root mean squared error of the probability: sqrt(mean((p − y)²)); lower is better.
    k classes: sqrt(mean Σ_k (p_k − [y = k])² / k).

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.rms([0, 1], [0.0, 0.5])
    0.3535533905932738
    """
    return math.sqrt(_squared_error_sum(t) / t.total)


#: rows per block of MXE's sums (the same blocks whether or not the logs are shared, so
#: the value is the same bit for bit)
_BLOCK = 1 << 16


def _clipped_logs(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """log p and log(1 − p) with p clipped to [EPS, 1 − EPS] (depend on the scores only,
    so bootstrap replicates of a table share them)."""
    p = np.clip(scores, EPS, 1 - EPS)
    return np.log(p), np.log1p(-p)


def mxe_block(blk: TableBlock, base: float = math.e) -> np.ndarray:
    """Block form of :func:`mxe` (the formula is in its docstring)."""
    log_p, log_q = blk.score_cached("mxe_logs", _clipped_logs)
    s = blk.pos @ log_p + blk.neg @ log_q
    return quiet_div(-s, blk.total) / math.log(base)


@measure(
    "mxe",
    kind="probability",
    statistic="scores",
    range=(0.0, math.inf),
    higher_is_better=False,
    aliases=("log_loss", "cross_entropy", "logloss"),
    multiclass=_mxe_multi,
    main_param="base",
    source="Caruana 2004 MXE (perf reports bits: base=2)",
    block=mxe_block,
)
def mxe(t: ScoreTable, base: float = math.e) -> float:
    """Mean cross-entropy −mean(y·log p + (1−y)·log(1−p)); natural log by default,
    bits with ``base=2`` (as ``perf`` reports). p is clipped to [ε, 1−ε], ε = 2.2e-16
    (machine epsilon, as scikit-learn's ``log_loss``), so p = 0 or 1 gives a large,
    finite loss. k classes: −mean log p(true class), clipped alike (``log_loss``).

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.metrics.mxe([0, 1], [0.5, 0.5], base=2), 12)
    1.0
    """
    logs = t.score_cached("mxe_logs", _clipped_logs)  # a bootstrap's shared logs, or None
    s = 0.0
    for a in range(0, t.size, _BLOCK):  # in blocks: no table-sized temporaries
        b = a + _BLOCK
        log_p, log_q = _clipped_logs(t.scores[a:b]) if logs is None else (
            logs[0][a:b], logs[1][a:b])
        # numpy's own sum of products, not BLAS's dot: a threaded dot per block costs a
        # scheduler tick when the other core is busy, and its bits follow the thread count
        s += float(np.einsum("i,i->", t.pos[a:b], log_p) + np.einsum("i,i->", t.neg[a:b],
                                                                      log_q))
    nats = -s / t.total
    return float(nats / math.log(base))


# ECE is a calibration measure (measures/calibration/binned.py); imported here so it
# registers at its place in the listing, between mxe and top_k_acc
from measurelab.measures.calibration.binned import ece, ece_block  # noqa: E402, F401


def _top_k_multi(stats: Any, average: str | None = "macro", k: float = 1) -> float:
    if int(k) < 1:
        from measurelab.exceptions import MeasurelabError

        raise MeasurelabError(f"top_k_acc needs k >= 1, got k={k!r}")
    if stats.rows is None:  # predicted labels only: top-1 is the accuracy, top-k unknown
        m = stats.counts.matrix
        if int(k) == 1:
            return float(np.trace(m) / m.sum())
        from measurelab._util.validation import warn_undefined

        warn_undefined("top_k_acc with k >= 2 needs class scores; returning NaN")
        return math.nan
    rw = stats.rows.rank_weight
    return float(rw[: int(k)].sum() / rw.sum())


@measure(
    "top_k_acc",
    kind="threshold",
    statistic="counts",
    aliases=("top_k_accuracy",),
    multiclass=_top_k_multi,
    main_param="k",
    source="scikit-learn top_k_accuracy_score",
)
def top_k_acc(c: BinaryCounts, k: float = 1) -> Any:
    """Top-k accuracy: the fraction of cases whose true class is among the k classes of
    highest score (``top_k_acc@2``). Ties inside a row as scikit-learn's
    ``top_k_accuracy_score``: of tied classes the later column ranks first. Binary (one
    score column): k = 1 is the accuracy at the evaluation threshold (scikit-learn: ``score
    > 0.5`` for probabilities, the default here too), k ≥ 2 is 1.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.metrics.top_k_acc([0, 1, 2], [[.5, .3, .2], [.5, .3, .2], [.5, .3, .2]], k=2)
    0.6666666666666666
    >>> ml.metrics.top_k_acc([0, 1, 1], [0.2, 0.7, 0.4])
    0.6666666666666666
    """
    if int(k) < 1:
        from measurelab.exceptions import MeasurelabError

        raise MeasurelabError(f"top_k_acc needs k >= 1, got k={k!r}")
    if int(k) >= 2:
        return 1.0
    return div(c.tp + c.tn, c.total, what="accuracy")
