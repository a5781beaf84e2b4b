"""scikit-learn scorers for any measure of the registry: ``make_scorer("auc:acc")``.

A scorer built here works wherever scikit-learn takes ``scoring=``: ``cross_val_score``,
``cross_validate``, ``GridSearchCV``, ``TunedThresholdClassifierCV``, ...

The scorer is scikit-learn's own, built by the public ``sklearn.metrics.make_scorer``
with a :class:`MeasureScore` as its score function, so it works with every part of
scikit-learn that takes a scorer (multi-metric ``scoring={...}`` with its cached
predictions, ``TunedThresholdClassifierCV``, metadata routing). What the estimator is
asked for (``response_method``) follows the measure's kind (its registry metadata):

* **threshold measures** (``acc``, ``f1``, ``youden``, ``oarp``, ...) score the
  estimator's own decisions, ``predict`` — whatever threshold or class weights it uses,
  exactly as scikit-learn's ``accuracy`` scorer does;
* **rank measures** (``auc``, ``ap``, ``lift``, ...) score ``predict_proba`` (the positive
  column, or the matrix for k classes), else ``decision_function``;
* **probability measures** (``rms``, ``mxe``, ``brier``, ``cal``, ...) need
  ``predict_proba``;
* **composites** that need only scores (``auc:rms``) ask as above; composites that need
  decisions *and* scores (``auc:acc``, ``sar``) ask for ``predict_proba`` only — a
  scikit-learn scorer gets one response — and decide from it the way ``predict`` does
  for a probabilistic classifier: the positive class when its probability is above 0.5,
  the arg-max class for k classes.

Direction comes from the registry: ``greater_is_better`` is the measure's
``higher_is_better`` (no ``neg_`` names to remember). As scikit-learn requires of every
scorer, a lower-is-better measure's scorer returns −value, so that larger is better. A
measure whose ideal is a target value (``Measure.target``: Spiegelhalter's z, 0) has no
direction of its own: its score function returns −|value − target| (0 is best) and the
scorer has ``greater_is_better=True``, so scikit-learn ranks by the distance to the
target.

Two-level values are not numbers; scikit-learn needs one float per fold, which it averages
and ranks. The scorer returns ``f + 2⁻²⁶·ĝ``, with ``ĝ`` the (oriented) g mapped
increasingly into [0, 1] (by its range, or ``½ + arctan(g)/π`` when the range is
unbounded). It orders like f:g whenever f values that differ differ by more than
2⁻²⁶ ≈ 1.5·10⁻⁸ (AUC on folds with fewer than ~3·10⁷ positive-negative pairs, accuracy
below ~6·10⁷ cases), and the mean over folds is then compared by mean f first and mean g
on ties. ``two_level="display"`` gives the paper's display number f + g/100 instead.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from measurelab._util.validation import as_1d, short_list, short_repr, unique_labels
from measurelab.exceptions import MeasurelabError
from measurelab.measures.base import Measure, check_average, registry
from measurelab.pickling import versioned_pickle

__all__ = ["MeasureScore", "make_scorer"]

TWO_LEVEL_STEP = 2.0**-26  # the weight of the second level in a two-level scorer value


def _needs(m: Measure) -> tuple[bool, bool, bool]:
    """(needs scores, needs probabilities, needs decisions) of a measure."""
    from measurelab.measures.twolevel import two_level_parts

    parts = two_level_parts(m)
    if parts is not None:
        a, b = _needs(parts[0]), _needs(parts[1])
        return a[0] or b[0], a[1] or b[1], a[2] or b[2]
    if m.statistic == "counts":
        return False, False, True
    if m.statistic == "scores":
        return True, m.needs_probabilities, False
    return True, m.needs_probabilities, True  # a composite over the whole bundle


def _unit(m: Measure, v: float) -> float:
    """An oriented (higher-is-better) value of ``m`` mapped increasingly into [0, 1]."""
    from measurelab.measures.twolevel import oriented

    lo, hi = sorted((oriented(m, m.range[0]), oriented(m, m.range[1])))
    if math.isfinite(lo) and math.isfinite(hi) and hi > lo:
        return min(1.0, max(0.0, (v - lo) / (hi - lo)))
    return 0.5 + math.atan(v) / math.pi


def _default_pos_label(labels: np.ndarray) -> Any:
    """scikit-learn's rule: 1 for {0, 1} and {-1, 1}; otherwise the larger label (the
    estimator's ``classes_[-1]``). One other label alone (a test fold of one class) does
    not tell which class is positive: an error, rather than a guess."""
    values = labels.tolist()
    if set(values) <= {0, 1} or set(values) <= {-1, 1}:
        return 1
    if len(values) > 2:
        raise MeasurelabError(
            f"y has {len(values)} labels; pass pos_label= for a binary measure"
        )
    if len(values) < 2:
        raise MeasurelabError(
            f"y holds one class only ({short_list(values)}), so the positive class is "
            "unknown; pass pos_label= (or labels=) to make_scorer"
        )
    return values[-1]


@versioned_pickle
class MeasureScore:
    """The score function of a measurelab scorer: ``f(y_true, y_pred, *, sample_weight,
    pos_label, labels)``, what scikit-learn's scorer calls with the estimator's response
    (and ``TunedThresholdClassifierCV`` with class labels).

    ``y_pred`` may be predicted labels (a 1-d array whose values are class labels), a
    1-d score vector or a k-column probability matrix (columns in the order of
    ``labels``, by default the sorted labels of ``y_true``). :meth:`from_responses` takes
    scores and decisions separately.

    Examples
    --------
    >>> f = MeasureScore("acc")
    >>> f([0, 1, 1, 0], [0, 1, 0, 0])
    0.75
    >>> f = MeasureScore("auc:acc")
    >>> round(f([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 12)   # auc 0.75, acc 0.75
    0.750000011176
    """

    def __init__(
        self, measure: str | Measure, *, average: str = "macro",
        two_level: str = "lexicographic",
    ) -> None:
        if not isinstance(two_level, str) or two_level not in ("lexicographic", "display"):
            raise MeasurelabError(
                f"two_level={short_repr(two_level)} is not valid; expected 'lexicographic' "
                "or 'display'"
            )
        if check_average(average) is None:
            raise MeasurelabError(
                "average=None gives one value per class; a score needs one number: give "
                "'macro', 'weighted' or 'micro'")
        if isinstance(measure, Measure) and measure.name in registry:
            measure = measure.name  # a name pickles to worker processes; formulas may not
        self.spec = measure
        self.average = average
        self.two_level = two_level
        m = self.measure
        self.__name__ = m.name
        self.needs_scores, self.needs_probabilities, self.needs_decisions = _needs(m)

    @property
    def measure(self) -> Measure:
        return registry.resolve(self.spec)[0]

    def __repr__(self) -> str:
        return f"MeasureScore({self.measure.name!r})"

    # ------------------------------------------------------------------ computing
    def __call__(
        self, y_true: Any, y_pred: Any, *, sample_weight: Any = None, pos_label: Any = None,
        labels: Any = None,
    ) -> float:
        P = np.asarray(y_pred)
        y = as_1d(y_true, "y_true")
        if P.ndim == 1 and _are_labels(P, y, pos_label):
            return self.from_responses(y, y_pred=P, classes=labels,
                                       sample_weight=sample_weight, pos_label=pos_label)
        return self.from_responses(y, y_score=P, classes=labels, sample_weight=sample_weight,
                                   pos_label=pos_label)

    def from_responses(
        self,
        y_true: Any,
        *,
        y_score: Any = None,
        y_pred: Any = None,
        classes: Any = None,
        sample_weight: Any = None,
        pos_label: Any = None,
    ) -> float:
        """The value from scores (``predict_proba``/``decision_function``) and/or
        decisions (``predict``); a part that needs one takes the other if it is missing
        (decisions from scores: ``score > 0.5``, or arg-max of a probability matrix)."""
        from measurelab.metrics.evaluation import build_stats
        from measurelab.stats.bundle import BinaryStats, MultiStats
        from measurelab.stats.confusion import BinaryCounts, MultiCounts

        y = as_1d(y_true, "y_true")
        if classes is not None:
            labels = np.asarray(classes)
        else:
            labels = unique_labels(y if y_pred is None else np.concatenate([y, y_pred]))
        k = labels.size
        if y_score is not None and np.ndim(y_score) == 2 and np.shape(y_score)[1] > 1:
            k = max(k, np.shape(y_score)[1])
        if k <= 2:
            pos = pos_label if pos_label is not None else _default_pos_label(labels)
            decided = None if y_pred is None else (np.asarray(y_pred) == pos).astype(float)
            if y_score is None:
                y_score, decided = decided, None
            elif np.ndim(y_score) == 2:  # a probability matrix: the positive column
                cols = labels.tolist()
                y_score = np.asarray(y_score)[:, cols.index(pos) if pos in cols else -1]
            stats = build_stats(y, y_score, pos_label=pos, sample_weight=sample_weight)
            if decided is not None:  # the threshold parts score the decisions
                counts = build_stats(y, decided, pos_label=pos,
                                     sample_weight=sample_weight).counts
                # two classes: build_stats gave binary statistics (or raised)
                assert isinstance(stats, BinaryStats) and isinstance(counts, BinaryCounts)
                stats = BinaryStats(table=stats.table, given_counts=counts)
            v = self.measure.compute(stats)
        else:
            if y_score is None:
                stats = build_stats(y, np.asarray(y_pred), labels=labels,
                                    sample_weight=sample_weight)
            else:
                stats = build_stats(y, np.asarray(y_score), labels=labels,
                                    sample_weight=sample_weight)
                if y_pred is not None:
                    w = None if sample_weight is None else np.asarray(sample_weight, float)
                    counts = MultiCounts.from_labels(y, np.asarray(y_pred), labels=labels,
                                                     sample_weight=w)
                    assert isinstance(stats, MultiStats)  # a probability matrix's
                    stats = MultiStats(counts=counts, table=stats.table)
            v = self.measure.compute(stats, average=self.average)
        return self.as_float(v)

    def as_float(self, v: Any) -> float:
        """The number scikit-learn sees (see the module notes for two-level values; a
        measure with a target value gives −|value − target|).

        Examples
        --------
        >>> MeasureScore("spiegelhalter_z").as_float(-2.5), MeasureScore("acc").as_float(0.5)
        (-2.5, 0.5)
        >>> MeasureScore("spiegelhalter_z").as_float(1.5)
        -1.5
        """
        from measurelab.measures.twolevel import TwoLevelValue, two_level_parts

        if isinstance(v, TwoLevelValue):
            if self.two_level == "display":
                return v.display
            parts = two_level_parts(self.measure)
            assert parts is not None  # a two-level value comes from a two-level measure
            g = parts[1]
            return float(v.first) + TWO_LEVEL_STEP * _unit(g, float(v.second))
        m = self.measure
        if m.target is not None:
            return float(m.goodness(float(v)))
        return float(v)


def _are_labels(p: np.ndarray, y: np.ndarray, pos_label: Any) -> bool:
    """A 1-d response holds class labels when it is not numeric or all its values are
    labels of ``y`` (for 0/1 labels both readings give the same value)."""
    if p.dtype.kind not in "biuf":
        return True
    known = set(np.unique(y).tolist()) | ({pos_label} if pos_label is not None else set())
    return set(np.unique(p).tolist()) <= known


def make_scorer(
    measure: str | Measure,
    *,
    pos_label: Any = None,
    average: str = "macro",
    two_level: str = "lexicographic",
    labels: Any = None,
) -> Any:
    """A scikit-learn scorer for any registered measure or spec, made by scikit-learn's
    public ``make_scorer`` with a :class:`MeasureScore`.

    Parameters
    ----------
    measure : name, alias, ``name@param``, two-level ``f:g`` or a :class:`Measure`
        User-registered measures work too (with ``n_jobs > 1`` register them in an
        importable module, so worker processes know them).
    pos_label : positive class of a binary task; default: the estimator's
        ``classes_[-1]`` (scikit-learn's convention: 1 for 0/1 and −1/1 labels, else the
        larger label). A test fold holding one class, other than those, needs
        ``pos_label`` (or ``labels``): an error says so.
    average : 'macro', 'weighted' or 'micro' for multi-class input.
    two_level : 'lexicographic' (default: ``f + 2⁻²⁶·ĝ``, orders like f:g) or 'display'
        (the paper's f + g/100); see the module notes.
    labels : array-like, optional
        Every class of a k-class task, in the estimator's ``classes_`` order (sorted).
        Needed only when a test fold may lack a class: the probability matrix then has
        more columns than the fold has labels.

    Returns
    -------
    scorer
        scikit-learn's scorer, callable ``scorer(estimator, X, y, sample_weight=None)``,
        with ``greater_is_better`` from the measure's direction (lower-is-better measures
        return −value; a measure with a target value scores −|value − target| with
        ``greater_is_better=True``); ``TunedThresholdClassifierCV`` and multi-metric
        ``scoring={...}`` accept it, and it pickles.

    Examples
    --------
    >>> import numpy as np, measurelab as ml
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 2)); y = (X[:, 0] + rng.normal(size=60) > 0).astype(int)
    >>> s = cross_val_score(LogisticRegression(), X, y, cv=3, scoring=ml.make_scorer("auc"))
    >>> s.shape, bool((s > 0.5).all())
    ((3,), True)
    >>> ml.make_scorer("rms")
    make_scorer(rms, greater_is_better=False, response_method='predict_proba')
    """
    from sklearn.metrics import make_scorer as sklearn_make_scorer

    score = MeasureScore(measure, average=average, two_level=two_level)
    m = score.measure
    if score.needs_probabilities or (score.needs_scores and score.needs_decisions):
        response: Any = "predict_proba"  # decisions, if needed, from the probabilities
    elif score.needs_scores:
        response = ("predict_proba", "decision_function")
    else:
        response = "predict"
    kwargs: dict[str, Any] = {}
    if pos_label is not None:
        kwargs["pos_label"] = pos_label  # scikit-learn also picks the column by it
    if labels is not None:
        kwargs["labels"] = labels
    # a measure with a target: the score is −|v − target| already (greater is better)
    greater = m.higher_is_better or m.target is not None
    return sklearn_make_scorer(score, response_method=response,
                               greater_is_better=greater, **kwargs)
