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

from measurelab.inference.bootstrap.draws import _RowPlan, draw_parts, jackknife_groups
from measurelab.measures.base import registry
from measurelab.measures.multilabel import LabelView
from measurelab.stats.block import BlockStats, TableBlock
from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.multilabel import decision_terms, predicted, ranking_terms
from measurelab.stats.scoretable import ScoreTable


class _Model:
    """One model's per-case terms and, built on first use, its label tables' row plans."""

    def __init__(self, Y: np.ndarray, S: np.ndarray, thresholds: np.ndarray,
                 inclusive: bool) -> None:
        self.S = S
        P = predicted(S, thresholds, inclusive)
        self.hit = (Y & P).astype(np.float64)
        self.false_pos = (~Y & P).astype(np.float64)
        self.miss = (Y & ~P).astype(np.float64)
        self.set_keys = decision_terms(Y, P)
        self.rank_keys = ranking_terms(Y, S)
        self._plans: dict[Any, tuple[np.ndarray, _RowPlan]] = {}

    def plan(self, key: Any, y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, _RowPlan]:
        """The distinct scores of column ``key`` and how its cases add into their rows."""
        if key not in self._plans:
            scores = np.unique(s)
            rows = np.searchsorted(scores, s)
            self._plans[key] = (scores, _RowPlan(rows, y, scores.size))
        return self._plans[key]


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
        ext = np.concatenate([W, np.zeros((W.shape[0], 1))], axis=1)
        whole = self.weight is None and bool(np.array_equal(W, np.round(W)))

        def label_rank(name: str) -> np.ndarray:
            out = np.empty((W.shape[0], self.L))
            measure = registry.get(name)
            for j in range(self.L):
                scores, plan = m.plan(j, self.Y[:, j], m.S[:, j])
                pos, neg = plan.rows_of(ext)
                blk = BlockStats(TableBlock(scores, pos, neg, integer=whole))
                out[:, j] = measure.compute_block(blk)
            return out

        def pooled_rank(name: str) -> np.ndarray:
            scores, plan = m.plan("pooled", self.Y.ravel(), m.S.ravel())
            big = np.concatenate([np.repeat(W, self.L, axis=1),
                                  np.zeros((W.shape[0], 1))], axis=1)
            pos, neg = plan.rows_of(big)
            return registry.get(name).compute_block(
                BlockStats(TableBlock(scores, pos, neg, integer=whole)))

        return LabelView(counts, label_rank, pooled_rank, m.set_keys, W, m.rank_keys, W,
                         self.L)

    def table(self, a: int, j: int) -> ScoreTable:
        """Model ``a``'s score table of label ``j`` on the cases as given (weighted)."""
        return ScoreTable.from_arrays(self.Y[:, j], self.S[a][:, j], self.weight)
