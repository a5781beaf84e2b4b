"""The influence function of a k-class measure, case by case: what the influence interval
of a k-class comparison sums (one machine: :class:`.multiclass.MultiClassComparison`; over
the parts of the cases: :mod:`.multi_parts`, the same function in pass two).

Every case's influence is read from the exact statistics of all the cases
(:class:`~measurelab.stats.bundle.MultiStats`: the k × k confusion cells and each class
column's score table) and the case's true class y, predicted (arg-max) class and
probability row p:

    IF = cell[y, pred] + Σ_c M_c[row of p_c in column c, y] + loss(p, y)

* **counts measures** (accuracy, F1, MCC, …, any average): the delta method over the k × k
  cells — with g the measure of the cells C and W their total, a case in cell (i, j)
  has ``cell[i, j] = W·∂g/∂C_ij − Σ C·∂g/∂C`` (the gradient by central differences of
  the measure's own k-class value, step 10⁻⁶·W);
* **Hand & Till's AUC** (``average='macro'``): the mean over the pairs of classes of
  ½(A(i|j) + A(j|i)), A(i|j) the AUC of column i with class i against class j; a case
  of class i at row r of column i adds ``(V₁₀(r) − A)·W/W_i`` for every j and one of
  class j adds ``(V₀₁(r) − A)·W/W_j`` (DeLong's placements within the pair), each over
  twice the number of pairs;
* **one class against the rest** (AUC and AP per class, or their macro mean): the binary
  influence (:func:`~measurelab.inference.influence.row_influence`) of the class's
  column, positives its class (averaged over the classes that have a value);
* **Brier, log loss, RMS**: the case's loss minus the mean (RMS = √(Brier/k):
  ``(loss − Brier)/(2k·RMS)``).

The variance is Σ w²(IF − m)²/W² (m the mean of each class when the class counts are
fixed, else of all), the sums of :func:`~.partitioned.moments_variance`.

Examples
--------
>>> import numpy as np
>>> from measurelab.measures.base import registry
>>> from measurelab.stats.multiblock import MultiBlock
>>> y = np.array([0, 1, 2, 0, 1, 2, 1, 0])
>>> P = np.array([[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .4, .3], [.3, .3, .4],
...               [.2, .2, .6], [.1, .8, .1], [.5, .25, .25]])
>>> st = MultiBlock.from_arrays(y, P, np.ones((1, 8))).stats(0)
>>> f = KInfluence.build(registry.get("brier"), st, "macro", None)
>>> d = f.cases(y, P)
>>> bool(np.isclose(d.mean(), 0.0))   # centred: the loss minus its mean
True
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from measurelab.inference.classifiers.partitioned import _moments, _rows, moments_variance
from measurelab.stats.scoretable import ScoreTable

__all__ = ["KInfluence", "k_variance"]

#: relative step of the central differences over the k × k cells (× the total)
_STEP = 1e-6


@dataclass
class KInfluence:
    """Each case's influence on one k-class value (the module's formula): ``cell`` (k × k,
    by true and predicted class, or None), ``cols`` (class column c → its table's scores
    and the (rows, k) influence by row and true class), ``loss`` ('brier', 'mxe' or
    None), its ``scale`` and the loss's mean ``centre``."""

    k: int
    cell: np.ndarray | None = None
    cols: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    loss: str | None = None
    scale: float = 1.0
    centre: float = 0.0

    # ------------------------------------------------------------------ building
    @classmethod
    def build(cls, measure: Any, stats: Any, average: str | None, column: int | None
              ) -> KInfluence:
        """The influence of ``measure`` (``average``; ``column``: the class of a per-class
        row, else None) from the statistics of all the cases."""
        from measurelab.inference.influence import multi_kind

        kind = multi_kind(measure, None if column is not None else average)
        if kind is None:
            raise ValueError(f"{measure.name} has no k-class influence function here")
        k = stats.counts.k
        out = cls(k)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if kind == "counts":
                out.cell = _cells(measure, stats, average, column)
            elif kind == "hand_till":
                out.cols = _hand_till(stats.table)
            elif kind == "ovr":
                out.cols = _one_vs_rest(measure, stats.table, column)
            else:
                _loss(out, kind, measure, stats)
        return out

    # ------------------------------------------------------------------ the cases
    def cases(self, yi: np.ndarray, P: np.ndarray, pred: np.ndarray | None = None,
              rows: dict[int, np.ndarray] | None = None) -> np.ndarray:
        """The influence of every case (true classes ``yi``, probability rows ``P``,
        arg-max classes ``pred``, found from ``P`` when None; ``rows``: each class
        column's table row of every case, found once and kept there for the model's other
        measures)."""
        rows = {} if rows is None else rows
        out = np.zeros(yi.size)
        if self.cell is not None:
            if pred is None:
                pred = np.argmax(P, axis=1)
            out += self.cell[yi, pred]
        for c, (scores, m) in self.cols.items():
            if c not in rows:
                rows[c] = _rows(scores, P[:, c])
            out += m[rows[c], yi]
        if self.loss is not None:
            out += (_case_loss(self.loss, yi, P) - self.centre) * self.scale
        return out

    def class_means(self, stats: Any) -> np.ndarray:
        """The mean influence of the cases of each true class, from the statistics (the
        centres pass two sums around)."""
        from measurelab.measures.probability import EPS

        w = stats.counts.matrix.sum(axis=1)
        s = np.zeros(self.k)
        if self.cell is not None:
            s += (stats.counts.matrix * self.cell).sum(axis=1)
        t = stats.table
        for c, (_scores, m) in self.cols.items():
            s += (t.counts[c] * m).sum(axis=0)
        if self.loss == "brier":
            for c in range(self.k):
                sc = t.scores[c][:, None]
                hit = (np.arange(self.k) == c)[None, :]
                s += ((sc - hit) ** 2 * t.counts[c]).sum(axis=0) * self.scale
        elif self.loss == "mxe":
            for c in range(self.k):
                s[c] += float(np.dot(t.counts[c][:, c],
                                     -np.log(np.clip(t.scores[c], EPS, 1 - EPS))))
            s *= self.scale
        if self.loss is not None:
            s -= w * self.centre * self.scale
        with np.errstate(all="ignore"):
            return np.where(w > 0, s / np.where(w > 0, w, 1.0), 0.0)


def _cells(measure: Any, stats: Any, average: str | None, column: int | None) -> np.ndarray:
    from measurelab.stats.bundle import MultiStats
    from measurelab.stats.confusion import MultiCounts

    labels = stats.counts.labels
    n = np.array(stats.counts.matrix, dtype=np.float64)
    total = float(n.sum())
    avg = None if column is not None else average

    def value(c: np.ndarray) -> float:
        v = measure.compute(MultiStats(counts=MultiCounts(c, labels)), average=avg)
        return float(np.asarray(v)[column] if column is not None else v)

    h = _STEP * total
    g = np.empty_like(n)
    for idx in np.ndindex(*n.shape):
        up, down = n.copy(), n.copy()
        up[idx] += h
        if n[idx] >= h:
            down[idx] -= h
            g[idx] = (value(up) - value(down)) / (2 * h)
        else:   # a cell at 0: the one-sided difference
            g[idx] = (value(up) - value(n)) / h
    return total * g - float((n * g).sum())


def _hand_till(table: Any) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    from measurelab.inference.delong import delong_placements

    k = table.k
    w = table.class_weights()
    total = float(w.sum())
    present = [c for c in range(k) if w[c] > 0]
    pairs = len(present) * (len(present) - 1) // 2
    out: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    if not pairs:
        return out
    for i in present:
        m = np.zeros((table.scores[i].size, k))
        for j in present:
            if j == i:
                continue
            t = ScoreTable(table.scores[i], table.counts[i][:, i], table.counts[i][:, j])
            v10, v01 = delong_placements(t)
            a = float(np.dot(t.pos, v10)) / w[i]
            m[:, i] += (v10 - a) * (total / w[i]) / (2 * pairs)
            m[:, j] += (v01 - a) * (total / w[j]) / (2 * pairs)
        out[i] = (table.scores[i], m)
    return out


def _one_vs_rest(measure: Any, table: Any, column: int | None
                 ) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    from measurelab.inference.influence import row_influence

    k = table.k
    classes = range(k) if column is None else [column]
    got = {}
    for c in classes:
        cnt = table.counts[c]
        t = ScoreTable(table.scores[c], cnt[:, c], cnt.sum(axis=1) - cnt[:, c])
        if not (t.n_pos > 0 and t.n_neg > 0):   # no value for this class
            continue
        ifp, ifn = row_influence(measure, t)
        m = np.repeat(np.nan_to_num(ifn)[:, None], k, axis=1)
        m[:, c] = np.nan_to_num(ifp)
        got[c] = (table.scores[c], m)
    if column is None and got:   # the macro mean over the classes that have a value
        for _s, m in got.values():
            m /= len(got)
    return got


def _loss(out: KInfluence, kind: str, measure: Any, stats: Any) -> None:
    value = float(measure.compute(stats))
    if kind == "rms":   # RMS = √(Brier/k): IF = (loss − Brier)/(2k·RMS)
        out.loss, out.centre = "brier", value * value * out.k
        out.scale = 1.0 / (2 * out.k * value) if value > 0 else math.nan
    else:
        out.loss, out.centre = kind, value
        if kind == "mxe":
            out.scale = 1.0 / math.log(float(measure.params.get("base", math.e)))
            out.centre = value / out.scale   # in nats: the case losses are


def _case_loss(kind: str, yi: np.ndarray, P: np.ndarray) -> np.ndarray:
    """Each case's loss: Σ_c (p_c − [y = c])² (Brier) or −log p_y (log loss, nats)."""
    from measurelab.measures.probability import EPS

    if kind == "brier":
        sq = P * P
        own = P[np.arange(yi.size), yi]
        return sq.sum(axis=1) - 2.0 * own + 1.0
    return -np.log(np.clip(P[np.arange(yi.size), yi], EPS, 1 - EPS))


def groups(yi: np.ndarray, k: int, fixed: bool) -> list[np.ndarray]:
    """The cases each centre belongs to: each true class (fixed class counts), or all."""
    return [yi == c for c in range(k)] if fixed else [np.ones(yi.size, dtype=bool)]


def moments(d: np.ndarray, yi: np.ndarray, w: np.ndarray | None, centres: np.ndarray,
            fixed: bool) -> np.ndarray:
    """The rows of :func:`~.partitioned.moments_variance` of the influence ``d`` of these
    cases around ``centres`` (one per class, or one)."""
    gs = groups(yi, len(centres), fixed)
    return np.array([_moments(d[g], None if w is None else w[g], float(c))
                     for g, c in zip(gs, centres, strict=True)])


def k_variance(d: np.ndarray, yi: np.ndarray, w: np.ndarray | None, k: int, *,
               fixed: bool) -> float:
    """Var(θ̂) = Σ w²(IF − m)²/W² of the cases' influence ``d`` (m within each class when
    the class counts are fixed); NaN where an influence is undefined.

    Examples
    --------
    >>> k_variance(np.array([1., -1., 1., -1.]), np.array([0, 0, 1, 2]), None, 3,
    ...            fixed=False)
    0.25
    """
    if d.size == 0 or np.isnan(d).any():
        return math.nan
    ws = np.ones(d.size) if w is None else w
    centres = []
    for g in (groups(yi, k, True) if fixed else groups(yi, 1, False)):
        sw = float(ws[g].sum())
        centres.append(float(np.dot(ws[g], d[g])) / sw if sw > 0 else 0.0)
    return moments_variance(moments(d, yi, w, np.array(centres), fixed))
