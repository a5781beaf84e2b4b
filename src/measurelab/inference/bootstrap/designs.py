"""The case designs: which cases a replicate draws, in a canonical order that makes the
replicates independent of the order the data came in.

* :class:`CaseDesign` — the cases of a binary test set scored by one or more models (each
  class apart with ``stratify=True``);
* :class:`ClusterDesign` — the same cases drawn by cluster (several cases of a patient or a
  document come and go together);
* :class:`MultiCaseDesign` — the cases of a k-class test set.

Each gives :meth:`draw` (multiplicities of a block of replicates), the groups of the
delete-a-group jackknife, and the statistics of a block, which is what
:func:`~measurelab.inference.bootstrap.run_blocks` needs.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.inference.bootstrap.draws import (
    _leave_out,
    _RowPlan,
    case_rows,
    draw_parts,
    jackknife_groups,
)
from measurelab.stats.block import BlockStats, TableBlock
from measurelab.stats.multiblock import MultiBlock
from measurelab.stats.scoretable import ScoreTable

#: guards the lazy row plans of :class:`CaseDesign` (a module lock: designs pickle)
_PLANS_LOCK = threading.Lock()


class CaseDesign:
    """The cases of one test set scored by one or more models, in canonical order.

    ``y`` (bool), ``weight`` (or None) and, per model, the row of each case in that model's
    score table are kept in the canonical order: sorted by label, then every model's score,
    then the weight. Cases equal in all of these are interchangeable, so the replicates do
    not depend on the order the data came in.

    Parameters
    ----------
    tables : the models' score tables (of all the cases, with their weights)
    rows : per model, the row of each case (canonical order) in its table
    y : bool per case (canonical order)
    weight : case weights (canonical order) or None
    stratify : resample positives and negatives separately

    Examples
    --------
    >>> t = ScoreTable.from_arrays([True, False, True, False], [0.9, 0.4, 0.4, 0.1])
    >>> d = CaseDesign.from_table(t)
    >>> d.n, d.n1, d.rows[0].tolist()
    (4, 2, [0, 1, 1, 2])
    """

    def __init__(self, tables: list[ScoreTable], rows: list[np.ndarray], y: np.ndarray,
                 weight: np.ndarray | None = None, *, stratify: bool = False) -> None:
        self.tables = tables
        self.rows = rows
        self.y = np.asarray(y, dtype=bool)
        self.weight = weight
        self.stratify = bool(stratify)
        self.n = int(self.y.size)
        self.n1 = int(np.count_nonzero(self.y))
        self.n0 = self.n - self.n1
        # canonical order has the negatives first: positives are cases n0 .. n-1
        if self.n1 and not self.y[self.n0:].all():
            raise MeasurelabError("CaseDesign needs the negatives before the positives")
        self._row_plans: list[_RowPlan] | None = None
        #: per model, what depends on its scores alone (shared by all its blocks)
        self._caches: list[dict[str, Any]] = [{} for _ in tables]

    @property
    def _plans(self) -> list[_RowPlan]:
        """How each model's cases add into its table rows (built on first use: only a
        bootstrap needs them, and at 10**7 cases they are two n-sized arrays a model)."""
        if self._row_plans is None:
            with _PLANS_LOCK:  # threads evaluating blocks build them once
                if self._row_plans is None:
                    self._row_plans = [_RowPlan(r, self.y, t.size)
                                       for r, t in zip(self.rows, self.tables, strict=True)]
        return self._row_plans

    @classmethod
    def from_table(cls, table: ScoreTable, *, stratify: bool = False) -> CaseDesign:
        """The cases of a whole-count table: ``neg[r]`` negatives and ``pos[r]`` positives
        at row r."""
        pos, neg = case_rows(table)
        y = np.concatenate([np.zeros(neg.size, bool), np.ones(pos.size, bool)])
        return cls([table], [np.concatenate([neg, pos])], y, stratify=stratify)

    @classmethod
    def from_cases(cls, y: np.ndarray, scores: list[np.ndarray],
                   sample_weight: np.ndarray | None = None, *,
                   stratify: bool = False) -> CaseDesign:
        """Tables of each model's scores (one sort each, here only) and the canonical order.

        Examples
        --------
        >>> d = CaseDesign.from_cases(np.array([True, False]), [np.array([0.7, 0.2])])
        >>> d.tables[0].scores.tolist(), d.rows[0].tolist(), d.y.tolist()
        ([0.2, 0.7], [0, 1], [False, True])
        """
        y = np.asarray(y, dtype=bool)
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        tables: list[ScoreTable] = []
        ranks: list[np.ndarray] = []
        order = None
        for s in scores:
            t, rank, by_score = ranked_table(y, s, w)
            tables.append(t)
            ranks.append(rank)
            if order is None:   # by label, then the first model's score
                order = _split_by_label(by_score, y)
            del by_score
        if order is None:  # no model: the cases by label
            order = _split_by_label(np.arange(y.size), y)
        _refine_order(order, y, ranks, w)
        rows = []
        while ranks:  # each model's rank array is released once gathered
            rows.append(ranks.pop(0)[order])
        return cls(tables, rows, y[order], None if w is None else w[order],
                   stratify=stratify)

    # ------------------------------------------------------------------ draws
    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """Case multiplicities of ``size`` replicates, shape (size, n), in float64."""
        return self._draw(rng, size)[:, :self.n]

    def _draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """:meth:`draw` into a (size, n + 1) buffer whose last column is 0: the form
        :meth:`_blocks` gathers the table rows from (a row without a case of a class reads
        the zero)."""
        parts = [(0, self.n0), (self.n0, self.n)] if self.stratify else [(0, self.n)]
        return draw_parts(rng, size, self.n, parts)

    def jackknife_groups(self, rng: np.random.Generator, n_groups: int = 50) -> np.ndarray:
        """Delete-a-group jackknife: the group (0 … G−1) of every case, drawn at random with
        each class spread over the groups; leaving group g out is the multiplicity
        ``groups != g``."""
        gn = jackknife_groups(self.n0, rng, n_groups)
        gp = jackknife_groups(self.n1, rng, n_groups)
        return np.concatenate([gn, gp])

    def jackknife_multiplicities(self, rng: np.random.Generator,
                                 n_groups: int = 50) -> np.ndarray:
        """The multiplicities of every leave-a-group-out table, (G, n) (small designs; the
        bootstrap builds them a block at a time from :meth:`jackknife_groups`)."""
        g = self.jackknife_groups(rng, n_groups)
        return _leave_out(g, 0, int(g.max(initial=-1)) + 1)[:, :self.n]

    def blocks(self, mult: np.ndarray, thresholds: list[tuple[float, bool]]
               ) -> list[BlockStats]:
        """Every model's :class:`BlockStats` for the case multiplicities ``mult`` (B, n)."""
        ext = np.zeros((mult.shape[0], self.n + 1))
        ext[:, :-1] = mult
        return self._blocks(ext, thresholds)

    def _blocks(self, ext: np.ndarray, thresholds: list[tuple[float, bool]]
                ) -> list[BlockStats]:
        """:meth:`blocks` from multiplicities in the (B, n + 1) form of :meth:`_draw`
        (the buffer is the caller's own: case weights multiply into it)."""
        if self.weight is not None:
            ext[:, :-1] *= self.weight
        whole = self.weight is None
        out = []
        for a, (t, plan, (thr, inc)) in enumerate(zip(self.tables, self._plans, thresholds,
                                                      strict=True)):
            pos, neg = plan.rows_of(ext)
            blk = TableBlock(t.scores, pos, neg, integer=True if whole else None,
                             cache=self._caches[a])
            out.append(BlockStats(blk, threshold=thr, inclusive=inc))
        return out




def ranked_table(y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None
                 ) -> tuple[ScoreTable, np.ndarray, np.ndarray]:
    """One model's score table, the row of every case in it and the cases in increasing
    order of score, from one argsort of the scores: the rows are the dense ranks of the
    scores (no search of the table; int32 below 2**31 cases).

    Whole counts are added from the sorted labels, so the table equals
    ``ScoreTable.from_arrays(y, s)`` (weighted cases: it is that table).

    Examples
    --------
    >>> t, rank, by = ranked_table(np.array([True, False, True]), np.array([.7, .2, .7]))
    >>> t.scores.tolist(), t.pos.tolist(), rank.tolist(), by.tolist()
    ([0.2, 0.7], [0.0, 2.0], [1, 0, 1], [1, 0, 2])
    """
    s = np.asarray(s, dtype=np.float64)
    n = s.size
    itype = np.int32 if n < 2**31 else np.intp
    by = np.argsort(s)  # cases tied on a score share their row: any order of them
    sorted_s = s[by]
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(sorted_s[1:], sorted_s[:-1], out=new[1:])
    rank = np.empty(n, dtype=itype)
    distinct = bool(new.all())
    if distinct:   # every score distinct (model output): rank i is the i-th smallest
        rank[by] = np.arange(n, dtype=itype)
        starts = None
    else:
        dense = np.cumsum(new, dtype=itype) - 1
        rank[by] = dense
        del dense
        starts = np.flatnonzero(new)
    del new
    if w is not None:
        table = ScoreTable.from_arrays(y, s, w)
        if table.size != (n if starts is None else starts.size):  # search the table
            rank = np.searchsorted(table.scores, s)
        return table, rank, by
    if starts is None:
        pos = y[by].astype(np.float64)
        neg = np.subtract(1.0, pos)
        scores = sorted_s
    else:
        pos = np.add.reduceat(y[by], starts, dtype=np.float64) if n else np.zeros(0)
        neg = np.diff(np.append(starts, n)).astype(np.float64)
        neg -= pos
        scores = sorted_s[starts]
    del sorted_s
    z = int(np.searchsorted(scores, 0.0))
    if z < scores.size and scores[z] == 0.0:
        at = z if starts is None else int(starts[z])
        end = z + 1 if starts is None else (int(starts[z + 1]) if z + 1 < starts.size
                                            else n)
        neg_zero = np.signbit(s[by[at:end]])
        if neg_zero.any() and not neg_zero.all():  # -0.0 and 0.0: the sign kept by the
            scores[z] = ScoreTable.from_arrays(y, s).scores[z]  # table's own build
    return ScoreTable(scores, pos, neg, integer=True), rank, by


def _split_by_label(by: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``by`` (the cases in some order) with the negatives first, each class keeping its
    order; written over ``by``."""
    yb = y[by]
    k = by.size - int(np.count_nonzero(yb))
    neg, pos = by[~yb], by[yb]
    by[:k] = neg
    by[k:] = pos
    return by


def _refine_order(order: np.ndarray, y: np.ndarray, ranks: list[np.ndarray],
                  weight: np.ndarray | None) -> None:
    """Complete the canonical case order in place — by label, then every model's score
    (its rank), then the weight — from ``order``, the cases by label and first score:
    only the cases tied on both are sorted by the other keys. Cases tied on every key are
    interchangeable (the same label, rows and weight), so their order among themselves is
    free.

    Examples
    --------
    >>> y = np.array([True, False, True, False])
    >>> r0, r1 = np.array([1, 0, 1, 0]), np.array([2, 1, 0, 0])
    >>> o = np.array([3, 1, 0, 2])
    >>> _refine_order(o, y, [r0, r1], None)
    >>> o.tolist()
    [3, 1, 2, 0]
    """
    rest = ranks[1:]
    if (not rest and weight is None) or order.size < 2:
        return
    k0 = ranks[0][order]
    tie = k0[1:] == k0[:-1]
    del k0
    yo = y[order]
    tie &= yo[1:] == yo[:-1]
    del yo
    if not tie.any():
        return
    tied = np.zeros(order.size, dtype=bool)
    tied[1:] = tie
    tied[:-1] |= tie
    at = np.flatnonzero(tied)
    del tied
    # the tie group of each tied case: how many groups start at or before it
    start = np.ones(order.size, dtype=bool)
    np.logical_not(tie, out=start[1:])
    del tie
    run = np.cumsum(start, dtype=np.int64)[at]
    del start
    sub = order[at]
    # the keys after the first score, as few 63-bit integers as hold them
    key, span = run, int(run[-1]) + 1
    keys: list[np.ndarray] = []
    for r in rest:
        size = max(int(r.max(initial=0)) + 1, 1)
        if span * size >= 2**62:
            keys.append(key)
            key, span = np.zeros(at.size, dtype=np.int64), 1
        key = key * size + r[sub]
        span *= size
    keys.append(key)
    if weight is None and len(keys) == 1:
        o = np.argsort(key)  # equal keys: interchangeable cases
    else:
        o = np.lexsort([*([] if weight is None else [weight[sub]]), *keys[::-1]])
    order[at] = sub[o]


def canonical_order(y: np.ndarray, scores: list[np.ndarray], weight: np.ndarray | None,
                    extra: Sequence[np.ndarray] = ()) -> tuple[np.ndarray, np.ndarray]:
    """The canonical case order (by label, then every model's score, the weight and the
    ``extra`` integer keys) and each case's dense rank in it (equal keys, equal rank).

    Examples
    --------
    >>> o, r = canonical_order(np.array([True, False, False]), [np.array([.2, .5, .5])],
    ...                        None)
    >>> o.tolist(), r.tolist()
    ([1, 2, 0], [1, 0, 0])
    """
    keys: list[np.ndarray] = [np.asarray(e) for e in extra[::-1]]
    if weight is not None:
        keys.append(weight)
    keys += [np.asarray(s, dtype=np.float64) + 0.0 for s in scores[::-1]]
    order = np.lexsort([*keys, y])
    allk = [y, *keys[::-1]]
    change = np.zeros(y.size, dtype=bool)
    if y.size:
        change[0] = True
    for k in allk:
        ks = np.asarray(k)[order]
        change[1:] |= ks[1:] != ks[:-1]
    rank = np.empty(y.size, dtype=np.int64)
    rank[order] = np.cumsum(change) - 1
    return order, rank


def cluster_order(codes: np.ndarray, rank: np.ndarray,
                  order: np.ndarray | None = None) -> np.ndarray:
    """The position of every cluster in the canonical order of clusters: by the sorted
    canonical ranks of its cases, compared as sequences (clusters with the same sequence
    are interchangeable). ``codes``: cluster code per case; ``rank``: canonical rank;
    ``order``: the canonical case order, when known (one stable sort instead of two).

    Examples
    --------
    >>> cluster_order(np.array([0, 0, 1, 2]), np.array([3, 1, 0, 2])).tolist()
    [1, 0, 2]
    """
    g = int(codes.max(initial=-1)) + 1
    if order is None:
        o = np.lexsort([rank, codes])
    else:  # cases by cluster, each cluster's in canonical order
        key = codes[order].astype(np.int64) * codes.size + np.arange(codes.size)
        o = order[np.argsort(key)]  # unique keys: any sort is stable
    c_sorted, r_sorted = codes[o], rank[o]
    sizes = np.bincount(codes, minlength=g)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    width = int(sizes.max(initial=0))
    if g * width <= 5 * 10**7:
        mat = np.full((g, width), -1, dtype=np.int64)
        col = np.arange(codes.size) - starts[c_sorted]
        mat[c_sorted, col] = r_sorted
        by = np.lexsort(mat.T[::-1]) if width else np.arange(g)
    else:  # a few huge clusters: compare the sequences as tuples
        seqs = np.split(r_sorted, starts[1:])
        by = np.array(sorted(range(g), key=lambda c: (*seqs[c].tolist(), -1)),
                      dtype=np.int64)
    pos = np.empty(g, dtype=np.int64)
    pos[by] = np.arange(g)
    return pos


class ClusterDesign(CaseDesign):
    """A :class:`~measurelab.inference.bootstrap.CaseDesign` whose replicates draw clusters.

    ``cluster`` is the canonical position of each case's cluster (cases in the canonical
    case order); a block of replicates draws one multiplicity per cluster (over the
    canonical order of clusters) and expands it to the cluster's cases.

    Examples
    --------
    >>> y = np.array([0, 1, 1, 0, 1, 0], dtype=bool)
    >>> s = np.array([0.2, 0.8, 0.7, 0.3, 0.4, 0.6])
    >>> d = ClusterDesign.from_cases(y, [s], groups=np.array([0, 0, 1, 1, 2, 2]))
    >>> m = d.draw(np.random.default_rng(1), 1)[0]
    >>> bool(all(np.ptp(m[d.cluster == c]) == 0 for c in range(3)))   # one multiplicity a cluster
    True
    """

    # the canonical case order (set by from_cases)
    order: np.ndarray

    def __init__(self, tables: list[ScoreTable], rows: list[np.ndarray], y: np.ndarray,
                 weight: np.ndarray | None, cluster: np.ndarray, *,
                 stratify: bool = False) -> None:
        super().__init__(tables, rows, y, weight, stratify=stratify)
        self.cluster = np.asarray(cluster, dtype=np.int64)
        self.n_clusters = int(self.cluster.max(initial=-1)) + 1
        pos_any = np.bincount(self.cluster[self.y], minlength=self.n_clusters) > 0
        neg_any = np.bincount(self.cluster[~self.y], minlength=self.n_clusters) > 0
        #: every cluster holds cases of one class only
        self.pure = bool(not (pos_any & neg_any).any())
        #: clusters with no positive come first in the canonical order when pure
        self.n_clusters0 = int(np.count_nonzero(~pos_any))
        #: the clusters of each class are resampled apart (stratify and pure)
        self.by_class = self.stratify and self.pure
        self._expand = np.concatenate([self.cluster, [self.n_clusters]])

    @classmethod
    def from_cases(cls, y: np.ndarray, scores: list[np.ndarray],  # type: ignore[override]
                   sample_weight: np.ndarray | None = None, groups: np.ndarray | None = None,
                   *, stratify: bool = False, extra: Sequence[np.ndarray] = ()
                   ) -> ClusterDesign:
        """Tables of each model's scores, the canonical case order and the canonical
        cluster order. ``groups``: integer cluster codes 0 … g − 1 per case
        (:func:`~measurelab.inference.classifiers.clustered.check_groups` makes them);
        ``extra``: more integer keys of the case order (e.g. subgroup codes).

        Examples
        --------
        >>> d = ClusterDesign.from_cases(np.array([True, False]), [np.array([.7, .2])],
        ...                              groups=np.array([0, 1]))
        >>> d.cluster.tolist(), d.pure
        ([0, 1], True)
        """
        if groups is None:
            raise MeasurelabError("ClusterDesign needs groups (a cluster code per case)")
        y = np.asarray(y, dtype=bool)
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        tables = [ScoreTable.from_arrays(y, s, w) for s in scores]
        order, rank = canonical_order(y, scores, w, list(extra))
        pos = cluster_order(np.asarray(groups, dtype=np.int64), rank, order)
        rows = [np.searchsorted(t.scores, np.asarray(s, dtype=np.float64)[order])
                for t, s in zip(tables, scores, strict=True)]
        d = cls(tables, rows, y[order], None if w is None else w[order],
                pos[np.asarray(groups)[order]], stratify=stratify)
        d.order = order
        return d

    @property
    def method_note(self) -> str:
        """What the method text adds: '' or why the clusters were not resampled by class."""
        if self.stratify and not self.pure:
            return "clusters resampled jointly: some hold both classes"
        return ""

    def _cluster_parts(self) -> list[tuple[int, int]]:
        if self.by_class:
            return [(0, self.n_clusters0), (self.n_clusters0, self.n_clusters)]
        return [(0, self.n_clusters)]

    def _draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        m = draw_parts(rng, size, self.n_clusters, self._cluster_parts())
        return np.take(m, self._expand, axis=1)

    def jackknife_groups(self, rng: np.random.Generator, n_groups: int = 50) -> np.ndarray:
        """Delete-a-group jackknife over clusters: the group of every case is its
        cluster's (each class's clusters spread over the groups when every cluster is of
        one class, as the case design spreads each class's cases)."""
        if self.pure:
            g0 = jackknife_groups(self.n_clusters0, rng, n_groups)
            g1 = jackknife_groups(self.n_clusters - self.n_clusters0, rng, n_groups)
            gc = np.concatenate([g0, g1])
        else:
            gc = jackknife_groups(self.n_clusters, rng, n_groups)
        return gc[self.cluster]



def _sorted_label_order(labels: tuple[Any, ...]) -> np.ndarray:
    """The class indices in sorted label order (labels that do not sort: as given).

    Examples
    --------
    >>> _sorted_label_order((2, 0, 3, 1)).tolist()
    [1, 3, 0, 2]
    """
    try:
        return np.asarray(sorted(range(len(labels)), key=lambda i: labels[i]), dtype=np.int64)
    except TypeError:
        return np.arange(len(labels), dtype=np.int64)


class MultiCaseDesign:
    """The cases of one k-class test set scored by one or more models, in canonical order
    (true class, then every model's probability row or predicted class, then the weight).

    ``P`` holds each model's rows in that order (a model of predicted labels: one-hot rows,
    which give the same confusion matrix); :meth:`_draw` and :meth:`jackknife_groups` are
    what :func:`~measurelab.inference.bootstrap.run_blocks` needs.

    Examples
    --------
    >>> d = MultiCaseDesign(np.array([2, 0, 1]), [np.eye(3)[[2, 0, 1]]], (0, 1, 2))
    >>> d.yi.tolist(), d.n
    ([0, 1, 2], 3)
    """

    def __init__(self, yi: np.ndarray, P: list[np.ndarray], labels: tuple[Any, ...],
                 weight: np.ndarray | None = None, *, stratify: bool = False) -> None:
        yi = np.asarray(yi, dtype=np.int64)
        k = len(labels)
        # the canonical order reads the classes in sorted label order whatever the order of
        # ``labels``, so the same cases with the classes listed in another order draw the
        # same replicates
        by_label = _sorted_label_order(labels)
        rank = np.argsort(by_label)[yi] if yi.size else yi
        keys: list[np.ndarray] = [] if weight is None else [weight]
        for p in P[::-1]:
            keys += [p[:, c] + 0.0 for c in by_label[::-1]]  # -0.0 → 0.0
        order = np.lexsort([*keys, rank])
        self.yi = yi[order]
        self.P = [np.ascontiguousarray(p[order]) for p in P]
        self.weight = None if weight is None else weight[order]
        self.labels = labels
        self.k = k
        self.n = int(yi.size)
        self.stratify = bool(stratify)
        self.class_n = np.bincount(self.yi, minlength=k)
        # the cases lie grouped by class in sorted label order: the parts follow it
        self._run_n = self.class_n[by_label]
        edges = np.concatenate([[0], np.cumsum(self._run_n)])
        self._parts = ([(int(edges[c]), int(edges[c + 1])) for c in range(k)]
                       if self.stratify else [(0, self.n)])

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """Case multiplicities of ``size`` replicates, (size, n)."""
        return self._draw(rng, size)[:, :self.n]

    def _draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return draw_parts(rng, size, self.n, self._parts)

    def jackknife_groups(self, rng: np.random.Generator, n_groups: int = 50) -> np.ndarray:
        """The jackknife group of every case, each class spread over the groups."""
        return np.concatenate([jackknife_groups(int(c), rng, n_groups) for c in self._run_n])

    def block(self, a: int, mult: np.ndarray) -> MultiBlock:
        """Model ``a``'s :class:`MultiBlock` for multiplicities (B, n) (weights applied)."""
        W = mult if self.weight is None else mult * self.weight
        return MultiBlock.from_arrays(self.yi, self.P[a], W, self.labels)

