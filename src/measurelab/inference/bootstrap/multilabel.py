"""The bootstrap design of multi-label test sets: one multiplicity per case, shared by every
label and every model (docs/MULTILABEL.md).

:class:`MultiLabelDesign` puts the cases in a canonical order (by their true label sets,
then every model's scores, then the weight), so the same data in any row order gives the
same replicates to the last bit. A block of multiplicities (B, n) becomes, for each model,
a :class:`~measurelab.measures.multilabel.LabelView` of B weightings: the per-label
confusion counts as one matrix product, each label's score-table rows by one gather (or
``np.add.reduceat`` over tied cases) for AUC and AP, and the per-case decision and ranking
terms weighted by the multiplicities — no sort and no evaluation call per replicate.

Examples
--------
>>> Y = np.array([[1, 0], [0, 1], [1, 1], [0, 0]], dtype=bool)
>>> S = np.array([[.9, .2], [.3, .8], [.6, .4], [.1, .3]])
>>> d = MultiLabelDesign(Y, [S])
>>> v = d.view(0, np.ones((1, 4)))
>>> v.counts.tp.tolist(), v.label_rank("auc").tolist()
([[2.0, 1.0]], [[1.0, 1.0]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from measurelab.inference.bootstrap.draws import draw_parts, jackknife_groups
from measurelab.measures.base import registry
from measurelab.measures.multilabel import LabelView
from measurelab.stats.block import BlockStats, TableBlock
from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.multilabel import decision_terms, predicted, ranking_terms
from measurelab.stats.scoretable import ScoreTable


class _Model:
    """One model's per-case terms and, built on first use, the sparse maps from the cases
    to the rows of its label tables (positives and negatives apart)."""

    def __init__(self, Y: np.ndarray, S: np.ndarray, thresholds: np.ndarray,
                 inclusive: bool) -> None:
        self.Y, self.S = Y, S
        P = predicted(S, thresholds, inclusive)
        self.hit = (Y & P).astype(np.float64)
        self.false_pos = (~Y & P).astype(np.float64)
        self.miss = (Y & ~P).astype(np.float64)
        self.set_keys = decision_terms(Y, P)
        self.rank_keys = ranking_terms(Y, S)
        self._maps: dict[str, Any] = {}

    def maps(self, which: str) -> tuple[list[np.ndarray], np.ndarray, Any, Any]:
        """``'labels'``: every label's table stacked; ``'pooled'``: the table of every
        (case, label) pair. The distinct scores of each table, the row offsets, and the
        sparse (rows × cases) maps of the positives and of the negatives."""
        if which not in self._maps:
            import scipy.sparse as sp

            n, L = self.S.shape
            cols = [(self.Y[:, j], self.S[:, j], np.arange(n)) for j in range(L)]
            if which == "pooled":
                cols = [(self.Y.ravel(), self.S.ravel(), np.repeat(np.arange(n), L))]
            scores, rows, ys, cases = [], [], [], []
            offset = 0
            offsets = [0]
            for y, s, case in cols:
                u = np.unique(s)
                scores.append(u)
                rows.append(np.searchsorted(u, s) + offset)
                ys.append(y)
                cases.append(case)
                offset += u.size
                offsets.append(offset)
            r, y, c = np.concatenate(rows), np.concatenate(ys), np.concatenate(cases)
            shape = (offset, n)
            pos = sp.csr_matrix((np.ones(int(y.sum())), (r[y], c[y])), shape=shape)
            neg = sp.csr_matrix((np.ones(int((~y).sum())), (r[~y], c[~y])), shape=shape)
            self._maps[which] = (scores, np.array(offsets), pos, neg)
        return self._maps[which]

    def blocks(self, which: str, WT: np.ndarray, whole: bool) -> list[BlockStats]:
        """The tables of ``which`` under the weightings ``WT`` (n, B), as blocks."""
        scores, offsets, pos_map, neg_map = self.maps(which)
        pos, neg = pos_map @ WT, neg_map @ WT          # (rows, B) each
        return [BlockStats(TableBlock(u, np.ascontiguousarray(pos[a:b].T),
                                      np.ascontiguousarray(neg[a:b].T), integer=whole))
                for u, a, b in zip(scores, offsets[:-1], offsets[1:], strict=True)]


class MultiLabelDesign:
    """The cases of one multi-label test set scored by one or more models, in canonical
    order; ``_draw`` and ``jackknife_groups`` are what
    :func:`~measurelab.inference.bootstrap.run_blocks` needs, :meth:`view` what the
    measures read.

    Parameters
    ----------
    Y : (n, L) boolean true label sets
    S : list of each model's (n, L) scores
    weight : (n,) case weights, optional
    thresholds : (L,) decision thresholds (default 0.5 each); inclusive: ``>=``
    """

    stratify = False

    def __init__(self, Y: np.ndarray, S: list[np.ndarray], weight: np.ndarray | None = None,
                 *, thresholds: Any = 0.5, inclusive: bool = False,
                 labels: tuple[Any, ...] | None = None) -> None:
        Y = np.asarray(Y, dtype=bool)
        n, L = Y.shape
        keys: list[np.ndarray] = [] if weight is None else [np.asarray(weight, float)]
        for s in S[::-1]:
            keys += [s[:, j] + 0.0 for j in range(L - 1, -1, -1)]
        keys += [Y[:, j] for j in range(L - 1, -1, -1)]
        order = np.lexsort(keys) if n else np.zeros(0, dtype=np.int64)
        self.Y = Y[order]
        self.S = [np.ascontiguousarray(s[order], dtype=np.float64) for s in S]
        self.weight = None if weight is None else np.asarray(weight, float)[order]
        self.n, self.L = n, L
        self.labels = tuple(range(L)) if labels is None else tuple(labels)
        self.thresholds = np.broadcast_to(np.asarray(thresholds, float), (L,)).copy()
        self.inclusive = bool(inclusive)
        self._models = [_Model(self.Y, s, self.thresholds, self.inclusive) for s in self.S]

    def _draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return draw_parts(rng, size, self.n, [(0, self.n)])

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """Case multiplicities of ``size`` replicates, (size, n)."""
        return self._draw(rng, size)[:, :self.n]

    def jackknife_groups(self, rng: np.random.Generator, n_groups: int = 50) -> np.ndarray:
        """The jackknife group of every case."""
        return jackknife_groups(self.n, rng, n_groups)

    def label_counts(self) -> np.ndarray:
        """The cases with each label and without it, (2, L) (whole counts)."""
        pos = self.Y.sum(axis=0)
        return np.stack([pos, self.n - pos])

    def view(self, a: int, mult: np.ndarray) -> LabelView:
        """Model ``a`` under the multiplicities ``mult`` (B, n) (weights applied)."""
        m = self._models[a]
        W = np.asarray(mult, dtype=np.float64)
        if self.weight is not None:
            W = W * self.weight
        tp, fp, fn = W @ m.hit, W @ m.false_pos, W @ m.miss
        total = W.sum(axis=1)[:, None]
        counts = BinaryCounts(tp, fp, fn, total - tp - fp - fn)
        whole = self.weight is None and bool(np.array_equal(W, np.round(W)))
        WT = np.ascontiguousarray(W.T)
        made: dict[str, Any] = {}

        def blocks(which: str) -> list[BlockStats]:
            if which not in made:
                made[which] = m.blocks(which, WT, whole)
            return made[which]

        def label_rank(name: str) -> np.ndarray:
            measure = registry.get(name)
            return np.stack([measure.compute_block(b) for b in blocks("labels")], axis=1)

        def pooled_rank(name: str) -> np.ndarray:
            return registry.get(name).compute_block(blocks("pooled")[0])

        return LabelView(counts, label_rank, pooled_rank, m.set_keys, W, m.rank_keys, W,
                         self.L)

    def table(self, a: int, j: int) -> ScoreTable:
        """Model ``a``'s score table of label ``j`` on the cases as given (weighted)."""
        return ScoreTable.from_arrays(self.Y[:, j], self.S[a][:, j], self.weight)
