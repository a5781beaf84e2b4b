"""The score table: the exact statistic of every rank and probability measure.

For binary data it is the sorted array of distinct scores with the (weighted) number of
positives and negatives at each. Every rank measure (AUC, APR, AP, BEP, lift, ...),
every probability measure (RMS, MXE, Brier, CAL, ECE) and the confusion counts at any
threshold are functions of it, and the tables of disjoint parts merge exactly.

Its size is the number of distinct scores, never more than the number of examples, and
often far less (rounded scores, tree leaves, k-NN votes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from measurelab._kernels.routing import use_compiled as _route_compiled
from measurelab.pickling import versioned_pickle
from measurelab.stats._memo import memoized
from measurelab.stats.confusion import BinaryCounts


def use_compiled(n: int) -> bool:
    """Whether ``n`` rows are built (and merged) by the compiled loops of
    ``_kernels/scoretable.py``: the routing policy's ``"scoretable"`` route
    (:data:`measurelab._kernels.routing.ROUTES`).

    Examples
    --------
    >>> use_compiled(10)
    False
    """
    return _route_compiled("scoretable", n)


def _build_compiled(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Linear-time unweighted build: sort each class's scores, merge the two sorted runs."""
    from measurelab._kernels import scoretable as k

    a, b = k.split_by_label(s, y.view(np.uint8))
    a[1:-1].sort()
    b[1:-1].sort()
    return k.table_from_sorted(a, b)


def _mostly_tied(s: np.ndarray) -> bool:
    """Whether a sample of the scores repeats values a lot (then the table is small and
    the numpy route, which never allocates per-case arrays beyond two sorts, is quicker)."""
    probe = s[:: max(1, s.size // 65536)]
    return 2 * np.unique(probe).size < probe.size


def _class_table(s: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct scores of one class and the weight at each; weights tied at one score are
    added (``np.add.reduceat``) in increasing order, so the sums do not depend on the
    input order."""
    order = np.argsort(s)
    s, w = s[order], w[order]
    if s.size == 0:
        return s, w
    flag = np.empty(s.size, dtype=bool)
    flag[0] = True
    np.not_equal(s[1:], s[:-1], out=flag[1:])
    if not flag.all():
        # order the weights inside each run of tied scores (only the tied cases are sorted)
        tied = ~flag
        tied[:-1] |= ~flag[1:]
        idx = np.flatnonzero(tied)
        w[idx] = w[idx][np.lexsort((w[idx], s[idx]))]
    starts = np.flatnonzero(flag)
    return s[starts], np.add.reduceat(w, starts)


def _combine(
    scores: np.ndarray, pos: np.ndarray, neg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sort (score, pos, neg) rows by score and add rows with equal scores (e.g. after a
    transformation such as 1 − score has rounded two close scores to one value)."""
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    if s.size == 0:
        return s, pos[order], neg[order]
    flag = np.empty(s.size, dtype=bool)
    flag[0] = True
    np.not_equal(s[1:], s[:-1], out=flag[1:])
    starts = np.flatnonzero(flag)
    return s[starts], np.add.reduceat(pos[order], starts), np.add.reduceat(neg[order], starts)


def _group_sorted(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values of a sorted vector and how often each occurs."""
    if s.size == 0:
        return s, np.zeros(0, dtype=np.float64)
    flag = np.empty(s.size, dtype=bool)
    flag[0] = True
    np.not_equal(s[1:], s[:-1], out=flag[1:])
    starts = np.flatnonzero(flag)
    counts = np.diff(np.append(starts, s.size)).astype(np.float64)
    return s[starts], counts


def _numbers(values: Any, name: str) -> np.ndarray:
    """``values`` as float64, text and objects under the one rule for numbers (``'0_1'``
    and complex numbers are refused, not read as 0.1 or their real part)."""
    from measurelab._util.validation import parse_number_array, show
    from measurelab.exceptions import MeasurelabError

    arr = np.asarray(values)
    if arr.dtype.kind in "biuf":
        return np.asarray(arr, dtype=np.float64)
    if arr.dtype.kind == "c":
        raise MeasurelabError(f"{name} must be real numbers, got complex values")
    out, bad = parse_number_array(arr.reshape(-1))
    if bad is not None:
        raise MeasurelabError(f"{name} must be numeric, got the non-numeric value "
                              f"{show(arr.reshape(-1)[bad])} at position {bad}")
    return out.reshape(arr.shape)


@versioned_pickle
@dataclass(frozen=True, eq=False)
class ScoreTable:
    """Distinct scores (increasing) with the positive and negative weight at each.

    Parameters
    ----------
    scores : ndarray of float64, strictly increasing
    pos, neg : ndarray of float64, weight of positives / negatives at each score

    Examples
    --------
    >>> t = ScoreTable.from_arrays([True, False, True, False], [0.9, 0.4, 0.4, 0.1])
    >>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
    ([0.1, 0.4, 0.9], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0])
    >>> t.counts_at(0.5)
    BinaryCounts(tp=1.0, fp=0.0, fn=1.0, tn=2.0)
    >>> a = ScoreTable.from_arrays([True, False], [0.9, 0.4])
    >>> b = ScoreTable.from_arrays([True, False], [0.4, 0.1])
    >>> (a + b) == t
    True

    Attributes
    ----------
    integer : whether every weight is known to be a whole number (bootstrap multiplicities
        of whole counts; stated by the constructor's caller); None: checked on first use
        (:attr:`is_integer`)
    score_cache : values that depend on the scores alone (MXE's logarithms), shared by the
        tables :meth:`reweighted` from this one (:meth:`score_cached`); None: kept nowhere
    memo : what is derived from the fields, computed once (totals, cumulative sums, the
        measures' compiled walk): not part of the value, excluded from ``==`` and ``repr``
        (:mod:`measurelab.stats._memo`). The fields themselves never change.
    """

    scores: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    integer: bool | None = field(default=None, kw_only=True, repr=False)
    score_cache: dict[str, Any] | None = field(default=None, kw_only=True, repr=False,
                                               compare=False)
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_arrays(
        cls,
        y_true: np.ndarray,
        y_score: np.ndarray,
        sample_weight: np.ndarray | None = None,
    ) -> ScoreTable:
        """Build from a boolean truth vector and float scores (already validated).

        Unweighted input takes the fast route: ``np.sort`` of all scores and of the
        positives' scores (no argsort). Large input (:func:`use_compiled`) sorts each
        class's scores and merges the two sorted runs in one linear pass: about one
        ``np.sort`` of all scores in all.
        """
        y = np.asarray(y_true, dtype=bool)
        s = _numbers(y_score, "y_score")
        w = None if sample_weight is None else _numbers(sample_weight, "sample_weight")
        if w is None and use_compiled(s.size) and not _mostly_tied(s):
            return cls(*_build_compiled(y, s))
        if w is None:
            # one sort of all scores gives the groups; one sort of the positives their share
            scores, total = _group_sorted(np.sort(s))
            pu, pc = _group_sorted(np.sort(s[y]))
            pos = np.zeros(scores.size, dtype=np.float64)
            pos[np.searchsorted(scores, pu)] = pc
            return cls(scores, pos, total - pos)
        # each class apart (ties ordered by weight), then the union of the two tables
        sp, wp = _class_table(s[y], w[y])
        sn, wn = _class_table(s[~y], w[~y])
        return cls(sp, wp, np.zeros(sp.size)).merge(cls(sn, np.zeros(sn.size), wn))

    @classmethod
    def from_class_scores(cls, pos: list[np.ndarray], neg: list[np.ndarray]) -> ScoreTable:
        """Unweighted table from the scores of the positives and of the negatives, each
        given in pieces; the lists are emptied (each piece is released once copied).

        Examples
        --------
        >>> import numpy as np
        >>> t = ScoreTable.from_class_scores([np.array([0.9]), np.array([0.4])], [np.array([0.4])])
        >>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
        ([0.4, 0.9], [1.0, 1.0], [1.0, 0.0])
        """
        k = sum(int(p.size) for p in pos)
        n = k + sum(int(q.size) for q in neg)
        if not use_compiled(n):
            y = np.zeros(n, dtype=bool)
            y[:k] = True
            s = np.concatenate([*pos, *neg]) if n else np.zeros(0)
            pos.clear()
            neg.clear()
            return cls.from_arrays(y, s)
        from measurelab._kernels import scoretable as _compiled

        runs = []
        for parts in (pos, neg):
            a = np.empty(sum(int(x.size) for x in parts) + 2)
            a[0], a[-1] = -np.inf, np.inf
            at = 1
            while parts:  # copy piece by piece, dropping each piece once copied
                x = parts.pop(0)
                a[at : at + x.size] = x
                at += x.size
            a[1:-1].sort()
            runs.append(a)
        return cls(*_compiled.table_from_sorted(*runs))

    @classmethod
    def empty(cls) -> ScoreTable:
        z = np.zeros(0, dtype=np.float64)
        return cls(z, z.copy(), z.copy())

    def merge(self, other: ScoreTable) -> ScoreTable:
        """The table of the union of the two (disjoint) data sets."""
        if other.scores.size == 0:
            return self
        if self.scores.size == 0:
            return other
        if use_compiled(self.scores.size + other.scores.size):
            from measurelab._kernels.scoretable import merge_tables

            return ScoreTable(*merge_tables(self.scores, self.pos, self.neg,
                                            other.scores, other.pos, other.neg))
        # both score vectors are strictly increasing: place each table's rows in the union
        # (the indices of one table are distinct, so plain fancy assignment adds exactly)
        scores = np.union1d(self.scores, other.scores)
        ia = np.searchsorted(scores, self.scores)
        ib = np.searchsorted(scores, other.scores)
        pos = np.zeros(scores.size, dtype=np.float64)
        neg = np.zeros(scores.size, dtype=np.float64)
        pos[ia] = self.pos
        neg[ia] = self.neg
        pos[ib] += other.pos
        neg[ib] += other.neg
        return ScoreTable(scores, pos, neg)

    __add__ = merge

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreTable):
            return NotImplemented
        return (
            np.array_equal(self.scores, other.scores)
            and np.array_equal(self.pos, other.pos)
            and np.array_equal(self.neg, other.neg)
        )

    def swapped(self) -> ScoreTable:
        """Exchange the classes and negate the scores (the mirror-image problem)."""
        return ScoreTable(-self.scores[::-1], self.neg[::-1].copy(), self.pos[::-1].copy())

    # ---------------------------------------------------------------- totals
    @property
    def size(self) -> int:
        """Number of distinct scores."""
        return int(self.scores.size)

    @memoized
    def n_pos(self) -> float:
        return float(self.pos.sum())

    @memoized
    def n_neg(self) -> float:
        return float(self.neg.sum())

    @property
    def total(self) -> float:
        return self.n_pos + self.n_neg

    @memoized
    def is_integer(self) -> bool:
        """True when every weight is a whole number (unweighted or frequency-weighted data)."""
        if self.integer is not None:
            return bool(self.integer)
        return bool(
            np.array_equal(self.pos, np.round(self.pos))
            and np.array_equal(self.neg, np.round(self.neg))
        )

    @memoized
    def all_rows_weighted(self) -> bool:
        """True when every row carries weight (``pos + neg > 0``), checked in steps of
        2¹⁶ rows (no table-sized temporary): the measures that drop empty rows copy
        nothing then.

        Examples
        --------
        >>> ScoreTable(np.array([0.1, 0.2]), np.array([1.0, 0.0]), np.array([0.0, 0.0])
        ...            ).all_rows_weighted
        False
        """
        step = 1 << 16
        return all(bool(np.all(self.pos[a:a + step] + self.neg[a:a + step] > 0))
                   for a in range(0, self.size, step))

    # --------------------------------------------------------- cumulative views
    @memoized
    def cum_pos_desc(self) -> np.ndarray:
        """Positives with score >= each distinct score, in decreasing score order."""
        return np.cumsum(self.pos[::-1])

    @memoized
    def cum_neg_desc(self) -> np.ndarray:
        """Negatives with score >= each distinct score, in decreasing score order."""
        return np.cumsum(self.neg[::-1])

    @memoized
    def desc_groups(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Decreasing score order: positives and cases in each group, and before it.

        Shared by the measures that walk down the ranking (APR, BEP, lift).
        """
        p = self.pos[::-1]
        m = p + self.neg[::-1]
        cum_p = self.cum_pos_desc
        cum_m = cum_p + self.cum_neg_desc
        return p, m, cum_p - p, cum_m - m

    @memoized
    def squared_error_sum(self) -> float:
        """Σ weight·(score − label)², shared by Brier, RMS and SAR."""
        s = self.scores
        return float(np.dot(self.pos, (1.0 - s) ** 2) + np.dot(self.neg, s * s))

    def counts_at(self, threshold: float = 0.5, *, inclusive: bool = False) -> BinaryCounts:
        """Confusion counts when ``score > threshold`` (``>=`` if ``inclusive``) is positive."""
        if type(threshold) is not float or threshold != threshold or type(inclusive) is not bool:
            from measurelab.stats.checks import check_rule

            threshold, inclusive = check_rule(threshold, inclusive)
        side: Literal["left", "right"] = "left" if inclusive else "right"
        i = int(np.searchsorted(self.scores, threshold, side=side))
        k = self.size - i  # number of distinct scores predicted positive
        # the running sums from the top down to the threshold: the same bits as
        # cum_pos_desc[k - 1] / cum_neg_desc[k - 1], without summing the rows below it;
        # whole counts known to be whole (bootstrap replicates) sum exactly in any order
        known = self.integer if self.integer is not None else self.memo.get("is_integer")
        if known is True and self.total < 2.0**53:
            tp = float(self.pos[i:].sum())
            fp = float(self.neg[i:].sum())
        else:
            tp = float(np.cumsum(self.pos[i:][::-1])[-1]) if k > 0 else 0.0
            fp = float(np.cumsum(self.neg[i:][::-1])[-1]) if k > 0 else 0.0
        # fn and tn as sums of their own rows, not totals minus tp/fp: with real weights
        # a difference of two rounded sums leaves crumbs (tn = 1e-16 for tn = 0)
        fn = float(np.sum(self.pos[:i])) if i > 0 else 0.0
        tn = float(np.sum(self.neg[:i])) if i > 0 else 0.0
        return BinaryCounts(tp, fp, fn, tn)

    def counts_all_thresholds(self) -> BinaryCounts:
        """Counts at every distinct cutoff, as arrays (decreasing threshold order).

        Element j predicts positive the examples with the j+1 largest distinct scores.
        """
        tp = self.cum_pos_desc
        fp = self.cum_neg_desc
        return BinaryCounts(tp, fp, self.n_pos - tp, self.n_neg - fp)

    # ------------------------------------------------------------- resampling
    def reweighted(self, pos: np.ndarray, neg: np.ndarray, *,
                   integer: bool | None = None) -> ScoreTable:
        """The same scores with new positive and negative weights per row.

        A bootstrap replicate is a multinomial reweighting of the rows
        (docs/METHODS.md#bootstrap), so it needs no new sort. Rows whose new weights are both 0 stay
        (a row
        of zero weight changes no measure; ``tests/measures/test_zero_rows.py``), so the replicate
        shares this table's score array and what :meth:`score_cached` computed from it.
        ``integer=True`` states that the new weights are whole numbers (a bootstrap's
        multiplicities of whole counts), sparing the check.

        Examples
        --------
        >>> t = ScoreTable.from_arrays([True, False, True, False], [0.9, 0.4, 0.4, 0.1])
        >>> r = t.reweighted(np.array([0.0, 2.0, 0.0]), np.array([0.0, 1.0, 1.0]))
        >>> r.scores is t.scores, r.pos.tolist(), r.neg.tolist()
        (True, [0.0, 2.0, 0.0], [0.0, 1.0, 1.0])
        """
        pos = np.asarray(pos, dtype=np.float64)
        neg = np.asarray(neg, dtype=np.float64)
        if pos.shape != self.scores.shape or neg.shape != self.scores.shape:
            from measurelab.exceptions import MeasurelabError

            raise MeasurelabError(
                f"reweighted needs {self.size} weights per class, got {pos.shape} and "
                f"{neg.shape}"
            )
        # integer: the caller knows (whole multiplicities of whole counts)
        return ScoreTable(self.scores, pos, neg,
                          integer=None if integer is None else bool(integer),
                          score_cache=self.score_cache)

    def score_cached(self, key: str, compute: Callable[[np.ndarray], Any]) -> Any:
        """``compute(scores)`` kept in the table's shared :attr:`score_cache`, or None when
        the table has none. A bootstrap design makes each model's table with a cache
        (:meth:`with_score_cache`) and the tables :meth:`reweighted` from it share it, so a
        replicate never recomputes what depends on the scores alone (MXE's logarithms);
        a one-off evaluation keeps no such table-sized arrays.

        Examples
        --------
        >>> t = ScoreTable.from_arrays([True, False], [0.9, 0.4])
        >>> t.score_cached("double", lambda s: 2 * s) is None       # no cache
        True
        >>> c = t.with_score_cache()
        >>> c.score_cached("double", lambda s: 2 * s).tolist()
        [0.8, 1.8]
        >>> r = c.reweighted(np.array([0.0, 3.0]), np.array([1.0, 0.0]))
        >>> r.score_cached("double", lambda s: 1 / 0).tolist()   # shared, not recomputed
        [0.8, 1.8]
        """
        cache = self.score_cache
        if cache is None:
            return None
        if key not in cache:
            cache[key] = compute(self.scores)
        return cache[key]

    def with_score_cache(self) -> ScoreTable:
        """The same table with a score cache (:meth:`score_cached`), shared with the tables
        :meth:`reweighted` from it; this table's own cache when it has one.

        Examples
        --------
        >>> t = ScoreTable.from_arrays([True, False], [0.9, 0.4])
        >>> c = t.with_score_cache()
        >>> c == t, t.score_cache is None, c.score_cache
        (True, True, {})
        """
        if self.score_cache is not None:
            return self
        return ScoreTable(self.scores, self.pos, self.neg, integer=self.integer,
                          score_cache={})
