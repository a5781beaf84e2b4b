"""Calibration on data: the CORP score decomposition (:func:`decompose_score`) and
Spiegelhalter's test (:func:`spiegelhalter_test`).

The numbers are those of the registry's measures — ``brier_mcb``, ``brier_dsc``,
``logloss_mcb``, ``logloss_dsc`` (:mod:`measurelab.measures.calibration.corp`) and
``spiegelhalter_z`` (:mod:`measurelab.measures.calibration.spiegelhalter`) — computed once on the
data's score table, with the parts that are no measure of their own (the uncertainty, the
score, the p-value). docs/CALIBRATION.md says which calibration number to trust for what.

Examples
--------
>>> d = decompose_score([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9])
>>> {k: round(v, 7) for k, v in d.to_dict().items()}
{'mcb': 0.1016667, 'dsc': 0.125, 'unc': 0.25, 'score': 0.2266667}
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from measurelab._util.results import ConfidenceInterval, no_interval
from measurelab._util.words import num, p_words
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.measures.calibration.corp import SCORES, decomposition, decomposition_text
from measurelab.measures.calibration.spiegelhalter import spiegelhalter_p_value, spiegelhalter_z
from measurelab.metrics.evaluation import build_stats
from measurelab.pickling import versioned_pickle
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.scoretable import ScoreTable

__all__ = ["ScoreDecomposition", "SpiegelhalterTest", "decompose_score", "spiegelhalter_test"]


@versioned_pickle
@dataclass(frozen=True)
class ScoreDecomposition:
    """A mean score and its CORP parts: ``score = mcb − dsc + unc``.

    Attributes
    ----------
    mcb : miscalibration, S(p) − S(recalibrated p) ≥ 0 (lower is better)
    dsc : discrimination, S(base rate) − S(recalibrated p) ≥ 0 (higher is better)
    unc : uncertainty, S(base rate)
    score : the mean score S(p)
    """

    mcb: float
    dsc: float
    unc: float
    score: float

    def to_dict(self) -> dict[str, float]:
        """``{'mcb', 'dsc', 'unc', 'score'}`` as plain floats."""
        return {k: float(v) for k, v in asdict(self).items()}

    def __str__(self) -> str:
        """The decomposition in words.

        Examples
        --------
        >>> print(ScoreDecomposition(0.0363, 0.1657, 0.25, 0.1206))
        Mean score 0.1206 = miscalibration 0.0363 − discrimination 0.1657 + uncertainty 0.25 (CORP).
        """
        return decomposition_text(self)


@versioned_pickle
@dataclass(frozen=True)
class SpiegelhalterTest:
    """Spiegelhalter's z (``statistic``) and its two-sided normal ``pvalue``.

    :meth:`to_dict` writes them under the keys ``z`` and ``p_value``.
    """

    statistic: float
    pvalue: float

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Refused: z standardises the gap between outcomes and predictions under
        calibration; it estimates no quantity to bound."""
        no_interval("SpiegelhalterTest", "Spiegelhalter's z tests 'the model is calibrated' "
                    "and estimates no quantity to bound")

    def to_dict(self) -> dict[str, float]:
        """``{'z', 'p_value'}`` as plain floats."""
        return {"z": float(self.statistic), "p_value": float(self.pvalue)}

    def __str__(self) -> str:
        """The answer: z, p and which way the predictions lean (z > 0: on balance too
        extreme, z < 0: too cautious).

        Examples
        --------
        >>> print(SpiegelhalterTest(-2.7153, 0.0066))
        Spiegelhalter's z = −2.715, p = 0.0066: on balance the predictions are too cautious (too close to ½).
        """  # noqa: E501
        z = self.statistic
        lean = ("too extreme (over-confident)" if z > 0 else
                "too cautious (too close to ½)" if z < 0 else "neither too extreme nor too "
                "cautious")
        return (f"Spiegelhalter's z = {num(z)}, {p_words(self.pvalue)}: on balance the "
                f"predictions are {lean}.")



def _table(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any,
           where: str) -> ScoreTable:
    if isinstance(y_true, ScoreTable):
        if y_score is not None or sample_weight is not None:
            raise MeasurelabError("a ScoreTable already holds the scores and weights; omit "
                                  "y_score and sample_weight")
        t = y_true
    else:
        stats = build_stats(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
        if not isinstance(stats, BinaryStats) or stats.table is None:
            raise MeasurelabError(f"{where} is defined for binary tasks: give one probability "
                                  "of the positive class per case")
        t = stats.table
    if not t.total > 0:
        raise MeasurelabError("sample_weight is 0 for every example, so the total weight is "
                              "0; expected at least one example with a positive weight")
    if t.size and (t.scores[0] < 0 or t.scores[-1] > 1):
        bad = float(t.scores[0] if t.scores[0] < 0 else t.scores[-1])
        raise MeasurelabError(f"{where} needs probabilities in [0, 1], got {bad!r}")
    return t


#: other names of the two proper scores (the measures' names and their aliases too)
SCORE_ALIASES = {
    "brier": "brier", "brier_score": "brier", "mse": "brier", "brier_mcb": "brier",
    "log": "log", "logloss": "log", "log_loss": "log", "log-loss": "log", "mxe": "log",
    "cross-entropy": "log", "cross_entropy": "log", "logloss_mcb": "log",
}


def score_name(score: Any) -> str:
    """'brier' or 'log' for any name of the two scores (case and spaces ignored), or a
    one-line error listing the names.

    Examples
    --------
    >>> score_name("logloss"), score_name("Cross-Entropy"), score_name("mxe")
    ('log', 'log', 'log')
    """
    if not isinstance(score, str):
        raise MeasurelabTypeError(f"score must be a name, one of {SCORES}, got "
                                  f"{score!r} ({type(score).__name__})")
    key = score.strip().lower()
    if key not in SCORE_ALIASES:
        names = ", ".join(repr(k) for k in SCORE_ALIASES)
        raise MeasurelabError(f"score={score!r} is not valid; expected one of {SCORES} "
                              f"(or another name of them: {names})")
    return SCORE_ALIASES[key]


def decompose_score(
    y_true: Any,
    y_score: Any = None,
    score: str = "brier",
    *,
    pos_label: Any = 1,
    sample_weight: Any = None,
) -> ScoreDecomposition:
    """The CORP decomposition of the Brier score or the log loss: miscalibration (MCB),
    discrimination (DSC) and uncertainty (UNC) from the PAV (isotonic) recalibration of
    the outcomes on the predictions, ``score = mcb − dsc + unc`` (Dimitriadis, Gneiting &
    Jordan 2021; docs/METHODS.md#corp).

    Parameters
    ----------
    y_true : array-like of shape (n,), or a :class:`~measurelab.ScoreTable` (then omit
        ``y_score`` and ``sample_weight``)
    y_score : array-like of shape (n,), probabilities of the positive class in [0, 1]
    score : 'brier' or 'log' (or another name: 'logloss', 'log_loss', 'mxe',
        'cross-entropy', …; see :data:`SCORE_ALIASES`); the log loss is in nats, p clipped
        to [ε, 1 − ε] as :func:`measurelab.metrics.mxe`
    pos_label : the positive class
    sample_weight : case weights

    Returns
    -------
    ScoreDecomposition
        ``mcb``, ``dsc``, ``unc``, ``score`` and ``to_dict()``; the same values as the
        measures ``brier_mcb``/``brier_dsc`` (``logloss_mcb``/``logloss_dsc``), ``brier``
        (``mxe``).

    Examples
    --------
    >>> d = decompose_score([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9], "log")
    >>> [round(v, 6) for v in (d.mcb, d.dsc, d.unc, d.score)]
    [0.323733, 0.318257, 0.693147, 0.698623]
    >>> round(d.mcb - d.dsc + d.unc - d.score, 12)
    0.0
    """
    score = score_name(score)
    t = _table(y_true, y_score, pos_label, sample_weight, "decompose_score")
    return ScoreDecomposition(*decomposition(t, score))


def spiegelhalter_test(
    y_true: Any,
    y_score: Any = None,
    *,
    pos_label: Any = 1,
    sample_weight: Any = None,
) -> SpiegelhalterTest:
    """Spiegelhalter's (1986) z-test of calibration: z = Σ w(y − p)(1 − 2p) /
    √Σ w(1 − 2p)²p(1 − p) and its two-sided normal p-value 2·Φ(−|z|).

    z > 0: on balance too extreme (over-confident), z < 0: too cautious; see
    :mod:`measurelab.measures.calibration.spiegelhalter` for the sign and the zero-variance rule.

    Examples
    --------
    >>> r = spiegelhalter_test([0, 1, 0, 1, 0], [0.1, 0.9, 0.21, 0.9, 0.5])
    >>> round(r.statistic, 6), round(r.pvalue, 6)
    (-0.756697, 0.449231)
    """
    t = _table(y_true, y_score, pos_label, sample_weight, "spiegelhalter_test")
    z = spiegelhalter_z(t)
    return SpiegelhalterTest(z, spiegelhalter_p_value(z) if not math.isnan(z) else math.nan)
