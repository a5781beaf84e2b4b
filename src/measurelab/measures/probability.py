"""Probability measures from the score table: RMS, MXE (cross-entropy), Brier, ECE.

Scores must be probabilities of the positive class in [0, 1]. Sources: Caruana &
Niculescu-Mizil 2004 (RMS, MXE); Brier 1950; Naeini et al. 2015 (ECE).
"""

from __future__ import annotations

import math

import numpy as np

from measurelab.measures._fused import lookup
from measurelab.registry import measure
from measurelab.stats.scoretable import ScoreTable

#: MXE clips p to [EPS, 1 − EPS] before taking logs, as scikit-learn's ``log_loss`` does.
EPS = float(np.finfo(np.float64).eps)


def _squared_error_sum(t: ScoreTable) -> float:
    fused = lookup(t, "sq_sum")
    return float(fused) if fused is not None else t.squared_error_sum


@measure(
    "brier",
    kind="probability",
    statistic="scores",
    higher_is_better=False,
    aliases=("brier_score", "mse"),
    source="Brier 1950: mean squared error of the probability",
)
def brier(t: ScoreTable) -> float:
    """Brier score: mean((p − y)²), y ∈ {0, 1}; lower is better.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.brier([0, 1], [0.2, 0.6]), 12)
    0.1
    """
    return _squared_error_sum(t) / t.total


@measure(
    "rms",
    kind="probability",
    statistic="scores",
    higher_is_better=False,
    aliases=("rmse", "root_mean_squared_error"),
    source="Caruana 2004 RMS (papers use 1 − rms as the normalized form)",
)
def rms(t: ScoreTable) -> float:
    """Root mean squared error of the probability: sqrt(mean((p − y)²)); lower is better.

    Examples
    --------
    >>> import measurelab as ml
    >>> ml.rms([0, 1], [0.0, 0.5])
    0.3535533905932738
    """
    return math.sqrt(_squared_error_sum(t) / t.total)


@measure(
    "mxe",
    kind="probability",
    statistic="scores",
    range=(0.0, math.inf),
    higher_is_better=False,
    aliases=("log_loss", "cross_entropy", "logloss"),
    main_param="base",
    source="Caruana 2004 MXE (perf reports bits: base=2)",
)
def mxe(t: ScoreTable, base: float = math.e) -> float:
    """Mean cross-entropy −mean(y·log p + (1−y)·log(1−p)); natural log by default,
    bits with ``base=2`` (as ``perf`` reports). p is clipped to [ε, 1−ε], ε = 2.2e-16
    (machine epsilon, as scikit-learn's ``log_loss``), so p = 0 or 1 gives a large,
    finite loss.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.mxe([0, 1], [0.5, 0.5], base=2), 12)
    1.0
    """
    p = np.clip(t.scores, EPS, 1 - EPS)
    nats = -(np.dot(t.pos, np.log(p)) + np.dot(t.neg, np.log1p(-p))) / t.total
    return float(nats / math.log(base))


@measure(
    "ece",
    kind="probability",
    statistic="scores",
    higher_is_better=False,
    aliases=("expected_calibration_error",),
    main_param="n_bins",
    source="Naeini, Cooper & Hauskrecht 2015 (equal-width bins)",
)
def ece(t: ScoreTable, n_bins: int = 10) -> float:
    """Expected calibration error: Σ_b (w_b / W)·|mean score in b − fraction positive in b|
    over ``n_bins`` equal-width bins; bin b holds scores in [b/n, (b+1)/n), the last bin
    also holds 1.0.

    Examples
    --------
    >>> import measurelab as ml
    >>> round(ml.ece([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3], n_bins=2), 12)  # .5·.2 + .5·.15
    0.175
    """
    n_bins = int(n_bins)
    fused = lookup(t, ("ece", n_bins))
    if fused is not None:
        ws, wp = fused
        return float(np.abs(ws - wp).sum() / t.total)
    b = np.minimum(np.floor(t.scores * n_bins).astype(np.int64), n_bins - 1)
    w = t.pos + t.neg
    ws = np.bincount(b, weights=w * t.scores, minlength=n_bins)
    wp = np.bincount(b, weights=t.pos, minlength=n_bins)
    return float(np.abs(ws - wp).sum() / t.total)
