"""Row-wise summary of k-class probability rows: what the per-class score tables cannot give.

The per-class tables of :class:`~measurelab.stats.multiscore.MultiScoreTable` hold each
column on its own; three things need a whole row at once:

* the **arg-max confidence** and whether the arg-max class is the true one (Guo et al. 2017's
  ECE): a binary :class:`~measurelab.stats.scoretable.ScoreTable` of confidences with
  "correct" as the positive class;
* the **rank of the true class** in its row (top-k accuracy): the weight of cases whose true
  class is ranked 0 (first), 1, …, k − 1;
* the **rows that do not sum to 1**: how many, and the worst one (largest |Σ p − 1|, the
  earliest row on ties) with its row number and sum, for the warning.

Every part merges exactly (table merge, sums, maximum), so chunks, processes and cluster
partitions give the summary of all rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from measurelab.pickling import versioned_pickle
from measurelab.stats.scoretable import ScoreTable

#: How far a probability row's sum may be from 1: ``|Σp − 1| ≤ 1e-6``, or k·ε of the
#: rows' floating type when that is larger (:func:`row_sum_tolerance`). Wide enough for the
#: float32 softmax of a network (each of k entries rounded to 2^-24 relative) and for such
#: rows written to text and read back as float64; far narrower than any real mistake
#: (scores of two models side by side, a missing column). Rows within it are renormalised
#: to sum to 1 (:func:`settle_rows`, with a warning saying how many); rows beyond it are
#: refused by ``compare_classifiers`` and ``versus`` and used as given, with a warning, by
#: ``evaluate``.
SUM_TOLERANCE = 1e-6

#: a row whose sum is within this many ε of float64 per column sums to 1 to rounding: used
#: as given, not renormalised, nothing said
_ROUNDING_ULPS = 4


def row_sum_tolerance(dtype: Any, k: int) -> float:
    """The tolerance of :data:`SUM_TOLERANCE` for ``k`` columns of ``dtype``:
    ``max(1e-6, k · finfo(dtype).eps)`` (float64's ε for a non-float type).

    Examples
    --------
    >>> row_sum_tolerance(np.float32, 3), row_sum_tolerance(np.float32, 100)
    (1e-06, 1.1920928955078125e-05)
    """
    dt = np.dtype(dtype)
    eps = float(np.finfo(dt).eps) if dt.kind == "f" else float(np.finfo(np.float64).eps)
    return max(SUM_TOLERANCE, k * eps)


def settle_rows(P: Any, where: str, first_row: int = 1) -> tuple[np.ndarray, float]:
    """``P`` (n × k) as float64 with the rows that sum to 1 only within the tolerance
    (:func:`row_sum_tolerance` of its own dtype) divided by their sums, and that tolerance.

    Rows within float64 rounding of 1 are used as given; a :class:`UserWarning` naming
    ``where`` says how many rows were renormalised (rows numbered from ``first_row``: the
    number of the first row in a file read in chunks). Rows beyond the tolerance are returned
    as given: the caller refuses them or warns.

    Examples
    --------
    >>> P32 = np.array([[0.1, 0.2, 0.7000001]], dtype=np.float32)
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     P, tol = settle_rows(P32, "model 'net'")
    >>> float(abs(P.sum() - 1)) < 1e-15, tol, len(w)
    (True, 1e-06, 1)
    """
    arr = np.asarray(P)
    k = arr.shape[1] if arr.ndim == 2 else 1
    tol = row_sum_tolerance(arr.dtype, k)
    out = np.array(arr, dtype=np.float64)  # a copy: the caller's rows are not changed
    if out.ndim != 2 or not out.size:
        return out, tol
    sums = out.sum(axis=1)
    dev = np.abs(sums - 1.0)
    near = (dev > _ROUNDING_ULPS * k * float(np.finfo(np.float64).eps)) & (dev <= tol)
    if near.any():
        out[near] /= sums[near, None]
        i = int(np.flatnonzero(near)[np.argmax(dev[near])])
        import warnings

        warnings.warn(
            f"{where}: {int(near.sum())} of {out.shape[0]} probability rows were renormalised "
            f"to sum to 1 (each was within the tolerance {tol:g}; the furthest, row "
            f"{first_row + i}, "
            f"summed to {float(sums[i])!r})", UserWarning, stacklevel=3)
    return out, tol


def sum_message(sum_: float) -> str:
    """A row sum printed to every digit (``repr``), so 0.99999 is never shown as 1.

    Examples
    --------
    >>> sum_message(0.9999998807907104)
    '0.9999998807907104'
    """
    return repr(float(sum_))


def true_class_rank(P: np.ndarray, yi: np.ndarray) -> np.ndarray:
    """Rank (0 = first) of each row's true class when its columns are sorted by decreasing
    probability, ties broken as scikit-learn's ``top_k_accuracy_score`` does (a stable sort
    reversed: of tied columns the later one ranks first).

    Examples
    --------
    >>> true_class_rank(np.array([[.5, .3, .2], [.4, .4, .2]]), np.array([1, 0])).tolist()
    [1, 1]
    """
    n, k = P.shape
    p_true = P[np.arange(n), yi][:, None]
    above = (P > p_true).sum(axis=1)
    later_tie = ((P == p_true) & (np.arange(k)[None, :] > yi[:, None])).sum(axis=1)
    return (above + later_tie).astype(np.int64)


@versioned_pickle
@dataclass(frozen=True, eq=False)
class ProbabilityRows:
    """Arg-max confidence table, true-class rank counts and the row-sum check of k-class
    probability rows.

    Attributes
    ----------
    confidence : ScoreTable
        Distinct arg-max probabilities; "positive" weight = the arg-max class is the true one.
    rank_weight : ndarray of shape (k,)
        ``rank_weight[r]`` = weight of the cases whose true class has rank r.
    n_rows : int
        Number of rows seen.
    n_off : int
        Rows whose sum differs from 1 by more than :data:`SUM_TOLERANCE`.
    worst_dev, worst_row, worst_sum : the largest |Σ p − 1|, its row (0-based, in the
        order the rows were given) and that row's sum; ``worst_row = -1`` when there is none.

    Examples
    --------
    >>> P = np.array([[.7, .2, .1], [.3, .5, .2], [.2, .2, .5]])
    >>> r = ProbabilityRows.from_arrays(np.array([0, 0, 2]), P)
    >>> r.rank_weight.tolist(), r.confidence.pos.tolist(), r.n_off, r.worst_row
    ([2.0, 1.0, 0.0], [1.0, 1.0], 1, 2)
    """

    confidence: ScoreTable
    rank_weight: np.ndarray
    n_rows: int = 0
    n_off: int = 0
    worst_dev: float = 0.0
    worst_row: int = -1
    worst_sum: float = 1.0

    @classmethod
    def from_arrays(
        cls,
        yi: np.ndarray,
        P: np.ndarray,
        sample_weight: np.ndarray | None = None,
        *,
        first_row: int = 0,
    ) -> ProbabilityRows:
        """Summary of rows ``P`` (n × k) with true-class indices ``yi``; ``first_row`` is the
        number of the first row in the whole data (for the warning)."""
        n, k = P.shape
        w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, np.float64)
        top = np.argmax(P, axis=1)  # first column on ties, as the hard prediction
        conf = P[np.arange(n), top]
        correct = top == yi
        table = ScoreTable.from_arrays(correct, conf, sample_weight)
        ranks = true_class_rank(P, yi)
        rank_weight = np.bincount(ranks, weights=w, minlength=k).astype(np.float64)
        dev = np.abs(P.sum(axis=1) - 1.0)
        off = dev > SUM_TOLERANCE
        if not off.any():
            return cls(table, rank_weight, n)
        i = int(np.argmax(dev))  # earliest of the largest
        return cls(table, rank_weight, n, int(off.sum()), float(dev[i]), first_row + i,
                   float(P[i].sum()))

    @property
    def k(self) -> int:
        return int(self.rank_weight.size)

    def merge(self, other: ProbabilityRows) -> ProbabilityRows:
        """The summary of the union (row numbers are kept as given)."""
        a, b = self, other
        if (b.n_off and not a.n_off) or (
            b.n_off and (b.worst_dev, -b.worst_row) > (a.worst_dev, -a.worst_row)
        ):
            worst = (b.worst_dev, b.worst_row, b.worst_sum)
        else:
            worst = (a.worst_dev, a.worst_row, a.worst_sum)
        return ProbabilityRows(
            a.confidence.merge(b.confidence),
            a.rank_weight + b.rank_weight,
            a.n_rows + b.n_rows,
            a.n_off + b.n_off,
            *worst,
        )

    __add__ = merge

    def shifted(self, offset: int) -> ProbabilityRows:
        """The same summary with row numbers moved by ``offset`` (rows that came later)."""
        if self.worst_row < 0 or offset == 0:
            return self
        return ProbabilityRows(self.confidence, self.rank_weight, self.n_rows, self.n_off,
                               self.worst_dev, self.worst_row + offset, self.worst_sum)
