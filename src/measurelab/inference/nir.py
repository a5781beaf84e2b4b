"""Accuracy against the no-information rate: does the classifier beat always predicting
the most frequent class? (caret's ``confusionMatrix``, "P-Value [Acc > NIR]"; Kuhn 2008,
J Stat Softw 28(5).)

The no-information rate (NIR) is the largest share of one class among the true labels: the
accuracy of predicting that class for every case. With k of n cases predicted right, the
test is the one-sided exact binomial test of H₀: P(right) = NIR against P(right) > NIR,
p = P(X ≥ k), X ~ Bin(n, NIR) — ``scipy.stats.binomtest(k, n, p=nir,
alternative="greater")``; the interval of the accuracy is Clopper–Pearson's.

The NIR is taken from the same labels as the accuracy and treated as known, as caret does;
on a small test set that makes the test slightly liberal (the estimated largest share is
biased upwards for balanced classes, downwards for none), which is the convention users
compare with.

**Weights.** The exact binomial test counts cases: ``sample_weight`` must hold whole
numbers (frequency weights: a case of weight 3 is three cases), else the call is refused
— a survey or importance weight has no binomial count (docs/DECISIONS.md).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from measurelab._util.results import ConfidenceInterval
from measurelab._util.validation import (
    as_1d,
    check_level,
    check_same_length,
    check_weights,
    short_repr,
    unique_labels,
)
from measurelab.exceptions import MeasurelabError
from measurelab.pickling import versioned_pickle

__all__ = ["AccuracyNIRTest", "acc_vs_nir", "nir_note", "nir_test"]


@versioned_pickle
class AccuracyNIRTest(NamedTuple):
    """The exact binomial test of accuracy > no-information rate: ``statistic`` (the
    accuracy), ``pvalue`` (one-sided), ``nir`` (the largest class share), ``nir_class``
    (that class), ``correct`` and ``n`` (cases predicted right, all cases; weighted by
    whole-number weights), ``method`` ('exact binomial')."""

    statistic: float
    pvalue: float
    nir: float
    nir_class: Any
    correct: int
    n: int
    method: str = "exact binomial"

    def __repr__(self) -> str:
        p = "< 0.001" if self.pvalue < 0.001 else f"= {self.pvalue:.3g}"
        return (f"AccuracyNIRTest: accuracy {self.statistic:.4g} vs no-information rate "
                f"{self.nir:.4g} (class {self.nir_class!r}); one-sided p {p} "
                f"({self.method}, {self.correct} of {self.n} right)")

    def beats_nir(self, alpha: float = 0.05) -> bool:
        """Whether the accuracy is significantly above the NIR at level ``alpha``.

        Examples
        --------
        >>> acc_vs_nir([0, 0, 0, 1], [0, 0, 0, 0]).beats_nir()
        False
        """
        return bool(self.pvalue < alpha)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The Clopper–Pearson (exact) interval of the accuracy, as caret prints it
        ("95% CI").

        Examples
        --------
        >>> r = acc_vs_nir([0, 0, 1, 1, 1, 0, 1, 1], [0, 0, 1, 1, 0, 0, 1, 1])
        >>> [round(v, 4) for v in r.confidence_interval()]
        [0.4735, 0.9968]
        """
        from measurelab.inference.intervals import proportion_interval

        level = check_level(confidence_level, "confidence_level")
        return proportion_interval(self.correct, self.n, level, "clopper-pearson")


def _whole_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    w = check_weights(sample_weight, n)
    if w is None:
        return None
    bad = np.flatnonzero(w != np.round(w))
    if bad.size:
        i = int(bad[0])
        raise MeasurelabError(
            f"sample_weight holds {short_repr(float(w[i]))} at position {i}; acc_vs_nir's "
            "exact binomial test counts cases, so the weights must be whole numbers "
            "(frequency weights)")
    return w


def acc_vs_nir(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> AccuracyNIRTest:
    """Is the accuracy above the no-information rate (the largest class share)? The
    one-sided exact binomial test, as caret's ``confusionMatrix`` ("P-Value [Acc > NIR]").

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True class labels (two or more classes).
    y_pred : array-like of shape (n,)
        Predicted class labels.
    sample_weight : array-like of shape (n,), optional
        Whole-number frequency weights (a case of weight 3 counts as three cases); other
        weights are refused: the binomial test counts cases.

    Returns
    -------
    AccuracyNIRTest
        ``statistic`` the accuracy, ``pvalue`` P(X ≥ correct) for X ~ Bin(n, NIR),
        ``nir`` and ``nir_class``, ``correct``, ``n``; ``confidence_interval()`` the
        Clopper–Pearson interval of the accuracy.

    References
    ----------
    Kuhn, M. (2008). Building predictive models in R using the caret package. J Stat
    Softw 28(5).

    Examples
    --------
    >>> r = acc_vs_nir(["a"] * 6 + ["b"] * 4, ["a"] * 5 + ["b"] * 5)
    >>> r.statistic, r.nir, round(r.pvalue, 4)   # 9 of 10 right; NIR 0.6
    (0.9, 0.6, 0.0464)
    """
    yt = as_1d(y_true, "y_true")
    yp = as_1d(y_pred, "y_pred")
    check_same_length(("y_true", yt), ("y_pred", yp))
    if yt.size == 0:
        raise MeasurelabError("y_true is empty: at least one example is needed")
    w = _whole_weights(sample_weight, yt.size)
    if yt.dtype.kind in "fc" and np.isnan(yt).any():
        i = int(np.flatnonzero(np.isnan(yt))[0])
        raise MeasurelabError(f"y_true contains NaN (first at position {i}); labels must be "
                              "present for every example")
    labels = unique_labels(yt)
    if labels.dtype != object:
        idx = np.searchsorted(labels, yt)
    else:
        where = {v: i for i, v in enumerate(labels.tolist())}
        idx = np.array([where[v] for v in yt.tolist()], dtype=np.intp)
    weights = np.ones(yt.size) if w is None else w
    share = np.bincount(idx, weights=weights, minlength=labels.size)
    total = float(weights.sum())
    if total <= 0:
        raise MeasurelabError("sample_weight sums to 0: acc_vs_nir needs at least one case")
    right = yt == yp
    if not isinstance(right, np.ndarray):   # comparison of incomparable types
        raise MeasurelabError("y_pred cannot be compared with y_true: give labels of the "
                              "same kind")
    correct = float(np.dot(right.astype(np.float64), weights))
    return nir_test(correct, share, labels.tolist())


def nir_test(correct: float, class_totals: Any, labels: Any) -> AccuracyNIRTest:
    """The test from whole counts: ``correct`` cases predicted right and the cases of each
    true class (``class_totals``, in the order of ``labels``) — a confusion matrix's trace
    and row sums.

    Examples
    --------
    >>> nir_test(9, [6, 4], ["a", "b"]).pvalue == acc_vs_nir(["a"] * 6 + ["b"] * 4,
    ...                                                      ["a"] * 5 + ["b"] * 5).pvalue
    True
    """
    from scipy.stats import binom

    share = np.asarray(class_totals, dtype=np.float64)
    total = float(share.sum())
    top = int(np.argmax(share))
    nir = float(share[top]) / total
    k, n = round(float(correct)), round(total)
    p = float(binom.sf(k - 1, n, nir)) if k > 0 else 1.0
    p = min(1.0, max(0.0, p))
    label = list(labels)[top]
    return AccuracyNIRTest(k / n, p, nir, label.item() if hasattr(label, "item") else label,
                           k, n)


def nir_note(test: AccuracyNIRTest, alpha: float = 0.05) -> str | None:
    """The sentence a summary adds when the accuracy does not beat the no-information
    rate at level ``alpha`` (None when it does).

    Examples
    --------
    >>> print(nir_note(nir_test(6, [6, 4], [0, 1])))   # doctest: +NORMALIZE_WHITESPACE
    does not beat the no-information rate 0.6 (always predicting class 0): one-sided
    exact binomial p = 0.633 (acc_vs_nir)
    """
    if test.beats_nir(alpha):
        return None
    return (f"does not beat the no-information rate {test.nir:.3g} (always predicting "
            f"class {test.nir_class!r}): one-sided exact binomial p = {test.pvalue:.3g} "
            "(acc_vs_nir)")
