"""The two passes of a binary comparison over the parts of its cases (the partitions of a
Dask collection, the row groups of a Parquet data set; :mod:`.distributed` runs them).

* **Pass one** (:func:`pass_one`, merged by :meth:`PassOne.merge`): each model's exact
  score table and, for every pair of models, the 8 joint cells (class × A's decision × B's
  decision) at the threshold. The tables merge into the tables of all the cases, so every
  value — and every interval that reads a table or the counts (Wilson, DeLong's interval
  of one AUC, the influence interval of whole counts, the posterior of the cells, McNemar)
  — is the one-machine comparison's exactly.
* **Pass two** (:func:`pass_two`, merged by :func:`merge_sums`): given the merged tables
  (:class:`SumsPlan`, sent once to every worker), each part finds its cases' rows in the
  tables (``np.searchsorted`` of the very same floats: exact) and sums what an interval
  of a paired difference needs — Σ w²(IF_A − IF_B − c)² and its companions per class,
  DeLong's placement differences — and, where a resampling method is asked for, the
  Poisson bootstrap's replicate tables. :class:`CaseSums` turns the sums into the
  numbers the one-machine comparison forms from its per-case arrays (to rounding).

Every sum is taken around a centre known from the tables before the pass (the class
mean of the influence), and the exact mean is restored from the sums, so no difference of
large numbers cancels.

Examples
--------
Two parts of six cases give the sums of the whole:

>>> import numpy as np
>>> y = np.array([0, 1, 1, 0, 1, 0]); a = np.array([.2, .9, .6, .4, .7, .1])
>>> b = np.array([.3, .8, .4, .5, .9, .2])
>>> parts = [(y[:3], [a[:3], b[:3]], None), (y[3:], [a[3:], b[3:]], None)]
>>> one = tree_merge([pass_one(i, p, 2, 1, 0.5, False) for i, p in enumerate(parts)],
...                  merge_one)
>>> one.n, one.n1, one.tables[0].scores.tolist()
(6, 3, [0.1, 0.2, 0.4, 0.6, 0.7, 0.9])
>>> int(one.joint[0].sum()), int(one.joint[0][1, 1, 1])   # positives both flag
(6, 2)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError
from measurelab.inference.calibration import N_RESAMPLES
from measurelab.stats.scoretable import ScoreTable

__all__ = ["BOOT_BYTES", "OnParts", "in_process", "merge_one", "merge_sums",
           "moments_variance", "pass_one", "pass_two", "tree_merge"]

#: distinct labels a part reports (enough to tell two classes from more, and to name them)
_LABELS_KEPT = 8
#: jackknife groups of the Poisson bootstrap's BCa (as the one-machine bootstrap's)
JACK_GROUPS = 50


def tree_merge(items: Sequence[Any], merge: Callable[..., Any]) -> Any:
    """``merge`` over ``items`` in a balanced tree, in part order (the same tree on one
    machine and on a cluster, so the sums are the same floats whatever the workers);
    one item is passed through ``merge`` too.

    Examples
    --------
    >>> tree_merge([1, 2, 3], lambda *x: sum(x))
    6
    """
    items = list(items)
    if len(items) == 1:
        return merge(items[0])
    while len(items) > 1:
        items = [merge(*items[i:i + 2]) for i in range(0, len(items), 2)]
    return items[0]


def _arrays(part: Any, n_models: int, index: int
            ) -> tuple[np.ndarray, list[np.ndarray], np.ndarray | None]:
    """Labels, the models' scores and the weights of one part (``part`` is the tuple or a
    callable that reads it), checked: the same length, finite numbers, weights ≥ 0."""
    from measurelab._util.validation import as_1d, check_scores, check_weights

    y, scores, w = part() if callable(part) else part
    where = f"part {index}"
    y = as_1d(y.to_numpy() if hasattr(y, "to_numpy") else y, f"y_true ({where})")
    if len(scores) != n_models:
        raise MeasurelabError(f"{where} holds {len(scores)} score columns, expected "
                              f"{n_models}")
    out = []
    for j, s in enumerate(scores):
        s = check_scores(s.to_numpy() if hasattr(s, "to_numpy") else s,
                         f"scores of model {j + 1} ({where})")
        if s.size != y.size:
            raise MeasurelabError(f"{where}: model {j + 1} has {s.size} scores but y_true "
                                  f"has {y.size} cases; the parts must line up")
        out.append(s)
    if w is not None:
        w = check_weights(w.to_numpy() if hasattr(w, "to_numpy") else w, y.size)
    return y, out, w


def _decisions(s: np.ndarray, threshold: float, inclusive: bool) -> np.ndarray:
    return s >= threshold if inclusive else s > threshold


# ---------------------------------------------------------------------------- pass one
@dataclass
class PassOne:
    """What pass one returns for a part, or for the union of parts (:meth:`merge`).

    ``tables``: each model's score table; ``joint``: (pairs, 2, 2, 2) whole counts of the
    cases of class c that model A decides i and B decides j (pairs in
    ``itertools.combinations`` order); ``n``, ``n1``: cases and positive cases (not
    weights); ``labels``: the distinct labels seen (at most eight kept); ``weighted``:
    whether the cases carry weights."""

    tables: list[ScoreTable]
    joint: np.ndarray
    n: int = 0
    n1: int = 0
    labels: list[Any] = field(default_factory=list)
    weighted: bool = False

    def merge(self, other: PassOne) -> PassOne:
        """The statistics of the union of two disjoint parts (tables merge exactly; the
        counts add)."""
        labels = sorted(set(self.labels) | set(other.labels), key=repr)[:_LABELS_KEPT]
        return PassOne([a.merge(b) for a, b in zip(self.tables, other.tables, strict=True)],
                       self.joint + other.joint, self.n + other.n, self.n1 + other.n1,
                       labels, self.weighted or other.weighted)


def _empty_one(n_models: int, labels: list[Any] | None = None) -> PassOne:
    pairs = n_models * (n_models - 1) // 2
    return PassOne([ScoreTable.empty() for _ in range(n_models)],
                   np.zeros((pairs, 2, 2, 2), dtype=np.int64), 0, 0, labels or [])


def merge_one(*parts: PassOne) -> PassOne:
    """Pass one's statistics of several parts merged in order.

    Examples
    --------
    >>> one = pass_one(0, ([0, 1], [np.array([.2, .8])], None), 1, 1, 0.5, False)
    >>> merge_one(one, one).n
    4
    """
    out = parts[0]
    for p in parts[1:]:
        out = out.merge(p)
    return out


def pass_one(index: int, part: Any, n_models: int, pos_label: Any, threshold: float,
             inclusive: bool) -> PassOne:
    """Pass one over part ``index``: ``part`` is ``(y, [scores of each model], weights)``
    or a callable returning it. A part holding more than two labels, or two without
    ``pos_label``, returns its labels and no tables (the driver names the problem).

    Examples
    --------
    >>> one = pass_one(0, ([0, 1, 1], [np.array([.2, .8, .4])], None), 1, 1, 0.5, False)
    >>> one.tables[0].pos.tolist(), one.labels
    ([0.0, 1.0, 1.0], [0, 1])
    """
    from measurelab._util.validation import binarize, unique_labels

    y_raw, scores, w = _arrays(part, n_models, index)
    if y_raw.size == 0:
        return _empty_one(n_models)
    labels = unique_labels(y_raw).tolist()
    if len(labels) > 2 or (len(labels) == 2 and pos_label not in labels):
        return _empty_one(n_models, sorted(labels, key=repr)[:_LABELS_KEPT])
    y = binarize(y_raw, pos_label)
    tables = [ScoreTable.from_arrays(y, s, w) for s in scores]
    decided = [_decisions(s, threshold, inclusive) for s in scores]
    joint = np.zeros((len(tables) * (len(tables) - 1) // 2, 2, 2, 2), dtype=np.int64)
    yi = y.astype(np.int64) * 4
    for p, (a, b) in enumerate(combinations(range(n_models), 2)):
        idx = yi + decided[a].astype(np.int64) * 2 + decided[b].astype(np.int64)
        joint[p] = np.bincount(idx, minlength=8).reshape(2, 2, 2)
    return PassOne(tables, joint, int(y.size), int(np.count_nonzero(y)), labels,
                   w is not None)


# ---------------------------------------------------------------------------- pass two
@dataclass
class SumsPlan:
    """What pass two sums, sent once to every worker.

    ``scores``: each model's table scores (None for a model no sum reads); ``fixed``:
    centre within each class (fixed class counts); ``influence``: the rows' influence
    ``(ifp, ifn)`` per (model, measure); ``single``: (model, measure, centres) of one
    model's weighted influence; ``pairs``: (a, b, measure, centres) of a paired
    difference; ``placements``: DeLong's (V10, V01) per model and ``delong``: (a, b,
    centres); ``boot``: (replicates, jackknife groups, entropy) of the Poisson bootstrap
    or None; ``pos_label``: to read the labels again."""

    pos_label: Any
    n_models: int
    scores: list[np.ndarray | None]
    fixed: bool = False
    influence: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]] = field(
        default_factory=dict)
    single: list[tuple[int, str, np.ndarray]] = field(default_factory=list)
    pairs: list[tuple[int, int, str, np.ndarray]] = field(default_factory=list)
    placements: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    delong: list[tuple[int, int, np.ndarray]] = field(default_factory=list)
    boot: tuple[int, int, int] | None = None

    @property
    def empty(self) -> bool:
        """Whether the plan sums nothing (no pass two is needed)."""
        return not (self.single or self.pairs or self.delong or self.boot)


def _groups(y: np.ndarray, fixed: bool) -> list[np.ndarray]:
    """The cases each centre belongs to: positives, then negatives (fixed class counts),
    or all of them."""
    return [y, ~y] if fixed else [np.ones(y.size, dtype=bool)]


def _moments(d: np.ndarray, w: np.ndarray | None, centre: float) -> list[float]:
    """[cases, Σw, Σw·e, Σw², Σw²·e, Σw²·e²] of e = d − centre."""
    e = d - centre
    if w is None:
        s1 = float(e.sum())
        return [float(d.size), float(d.size), s1, float(d.size), s1, float(np.dot(e, e))]
    we = w * e
    return [float(d.size), float(w.sum()), float(we.sum()), float(np.dot(w, w)),
            float(np.dot(w, we)), float(np.dot(we, we))]


def _rows(table_scores: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The row of each score in a table's distinct sorted scores (the scores are among
    them: exact). Searched in sorted order, which walks the table once instead of
    jumping across it for every case.

    Examples
    --------
    >>> _rows(np.array([0.1, 0.4, 0.9]), np.array([0.9, 0.1, 0.4, 0.9])).tolist()
    [2, 0, 1, 2]
    """
    order = np.argsort(s)
    out = np.empty(s.size, dtype=np.intp)
    out[order] = np.searchsorted(table_scores, s[order])
    return out


def _rng(entropy: int, *key: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy,
                                                                      spawn_key=key)))


def pass_two(index: int, part: Any, plan: SumsPlan) -> dict[tuple[Any, ...], np.ndarray]:
    """Pass two over part ``index`` (``part`` as in :func:`pass_one`): the sums of
    ``plan``, keyed ``("single", a, measure)``, ``("pair", a, b, measure)`` (one row per
    centre's group: :func:`_moments`), ``("delong", a, b)`` (positives, negatives: cases,
    Σe, Σe² of the placement differences), ``("boot", a)`` and ``("jack", a)`` (the
    Poisson replicates' and the jackknife groups' table rows, positives then negatives).

    Examples
    --------
    >>> from measurelab.inference.influence import row_influence
    >>> from measurelab.measures.base import registry
    >>> t = ScoreTable.from_arrays([0, 1, 1], [.2, .8, .4])
    >>> ifp, ifn = row_influence(registry.get("brier"), t)
    >>> plan = SumsPlan(1, 1, [t.scores], influence={(0, "brier"): (ifp, ifn)},
    ...                 single=[(0, "brier", np.zeros(1))])
    >>> s = pass_two(0, ([0, 1, 1], [np.array([.2, .8, .4])], np.ones(3)), plan)
    >>> s[("single", 0, "brier")][0, :2].tolist()   # cases, Σw
    [3.0, 3.0]
    """
    from measurelab._util.validation import binarize

    y_raw, scores, w = _arrays(part, plan.n_models, index)
    out: dict[tuple[Any, ...], np.ndarray] = {}
    if y_raw.size == 0:
        return out
    y = binarize(y_raw, plan.pos_label)
    rows = [None if t is None else _rows(t, s)
            for t, s in zip(plan.scores, scores, strict=True)]
    groups = _groups(y, plan.fixed)
    infl: dict[tuple[int, str], np.ndarray] = {}

    def case_influence(a: int, name: str) -> np.ndarray:
        if (a, name) not in infl:
            ifp, ifn = plan.influence[(a, name)]
            infl[(a, name)] = np.where(y, ifp[rows[a]], ifn[rows[a]])
        return infl[(a, name)]

    for a, name, centres in plan.single:
        d = case_influence(a, name)
        out[("single", a, name)] = np.array(
            [_moments(d[g], None if w is None else w[g], c)
             for g, c in zip(groups, centres, strict=True)])
    for a, b, name, centres in plan.pairs:
        d = case_influence(a, name) - case_influence(b, name)
        out[("pair", a, b, name)] = np.array(
            [_moments(d[g], None if w is None else w[g], c)
             for g, c in zip(groups, centres, strict=True)])
    for a, b, centres in plan.delong:
        (pa, na), (pb, nb) = plan.placements[a], plan.placements[b]
        assert pa is not None and na is not None and pb is not None and nb is not None
        ra, rb = rows[a], rows[b]
        assert ra is not None and rb is not None
        d10 = pa[ra[y]] - pb[rb[y]] - centres[0]
        d01 = na[ra[~y]] - nb[rb[~y]] - centres[1]
        out[("delong", a, b)] = np.array([[d10.size, d10.sum(), np.dot(d10, d10)],
                                          [d01.size, d01.sum(), np.dot(d01, d01)]],
                                         dtype=np.float64)
    if plan.boot is not None:
        out.update(_poisson(index, y, rows, w, plan))
    return out


def _poisson(index: int, y: np.ndarray, rows: list[Any], w: np.ndarray | None,
             plan: SumsPlan) -> dict[tuple[Any, ...], np.ndarray]:
    """The Poisson bootstrap's replicate tables of this part: replicate b weighs every
    case by a Poisson(1) count drawn from the stream (part, b) of the plan's entropy
    (so the replicates depend on the parts, not on the workers), and the jackknife's
    leave-a-group-out tables (each case's group drawn from the stream of the part)."""
    n_boot, n_groups, entropy = plan.boot  # type: ignore[misc]
    out: dict[tuple[Any, ...], np.ndarray] = {}
    sizes = [0 if t is None else t.size for t in plan.scores]
    reps = {a: np.zeros((2, n_boot, r)) for a, r in enumerate(sizes) if r}
    base = np.ones(y.size) if w is None else w
    for b in range(n_boot):
        mult = _rng(entropy, 0, index, b).poisson(1.0, y.size) * base
        for a, r in enumerate(sizes):
            if r:
                reps[a][0, b] = np.bincount(rows[a][y], mult[y], minlength=r)
                reps[a][1, b] = np.bincount(rows[a][~y], mult[~y], minlength=r)
    for a, arr in reps.items():
        out[("boot", a)] = arr
    if n_groups:
        g = _rng(entropy, 1, index).integers(0, n_groups, y.size)
        for a, r in enumerate(sizes):
            if r:
                idx = g * r + rows[a]
                out[("jack", a)] = np.stack([
                    np.bincount(idx[y], base[y], minlength=n_groups * r),
                    np.bincount(idx[~y], base[~y], minlength=n_groups * r)]
                ).reshape(2, n_groups, r)
    return out


def merge_sums(*parts: dict[tuple[Any, ...], np.ndarray]) -> dict[tuple[Any, ...], np.ndarray]:
    """Pass two's sums of several parts, added in order (a part without cases has none).

    Examples
    --------
    >>> merge_sums({("x",): np.ones(2)}, {}, {("x",): np.ones(2)})[("x",)].tolist()
    [2.0, 2.0]
    """
    out: dict[tuple[Any, ...], np.ndarray] = {}
    for p in parts:
        for k, v in p.items():
            out[k] = v.copy() if k not in out else out[k] + v
    return out


# ------------------------------------------------------------------------ the numbers
def moments_variance(s: np.ndarray) -> float:
    """Var(θ̂) = Σ_groups Σ wᵢ²(dᵢ − m_g)² / W² from the rows of :func:`_moments` (the
    exact group mean m_g restored from the sums around the plan's centre) — what
    :func:`measurelab.inference.influence.case_variance` computes from the cases.

    Examples
    --------
    >>> d, y = np.array([1., -1., 1., -1.]), np.array([True, True, False, False])
    >>> s = np.array([_moments(d[g], None, 0.0) for g in (y, ~y)])
    >>> moments_variance(s)
    0.25
    """
    total = float(s[:, 1].sum())
    if float(s[:, 0].sum()) == 0:
        return math.nan
    ss = 0.0
    for n, sw, swe, sw2, sw2e, sw2e2 in s:
        if n == 0:
            continue
        delta = swe / sw
        ss += sw2e2 - 2.0 * delta * sw2e + delta * delta * sw2
    return float(ss / total ** 2)


@dataclass
class CaseSums:
    """The per-case sums of a comparison over parts: the joint cells of every pair (pass
    one) and pass two's sums; what the comparison reads where the one-machine comparison
    reads its cases (:mod:`._pair_rows`)."""

    n_models: int
    joint_cells: np.ndarray
    sums: dict[tuple[Any, ...], np.ndarray] = field(default_factory=dict)
    centres: dict[tuple[Any, ...], np.ndarray] = field(default_factory=dict)

    def _pair_index(self, a: int, b: int) -> int:
        return list(combinations(range(self.n_models), 2)).index((a, b))

    def joint(self, a: int, b: int) -> np.ndarray:
        """The 8 joint cells of models a < b: ``[class, A's decision, B's decision]``."""
        return self.joint_cells[self._pair_index(a, b)]

    def _get(self, key: tuple[Any, ...]) -> np.ndarray:
        if key not in self.sums:
            raise MeasurelabError(f"this comparison on parts did not sum {key[0]} "
                                  f"{key[1:]}: pass two was planned without it")
        return self.sums[key]

    def single_variance(self, a: int, name: str) -> float:
        """Var of model ``a``'s ``name`` from its weighted cases' influence."""
        return moments_variance(self._get(("single", a, name)))

    def pair_variance(self, a: int, b: int, name: str) -> float:
        """Var of the paired difference a − b of ``name`` from the cases' influence."""
        return moments_variance(self._get(("pair", a, b, name)))

    def delong_pair(self, a: int, b: int, level: float) -> Any:
        """DeLong's paired test of AUC_a − AUC_b as
        :func:`~measurelab.inference.delong.delong_paired_placements` gives it from the
        cases' placements."""
        from measurelab.inference._base import z_test
        from measurelab.inference.delong import ZTestResult

        s = self._get(("delong", a, b))
        c = self.centres[("delong", a, b)]
        (n1, s1, q1), (n0, s0, q0) = s
        if n1 < 2 or n0 < 2:
            return ZTestResult(*(math.nan,) * 6)
        var = (q1 - s1 * s1 / n1) / (n1 - 1) / n1 + (q0 - s0 * s0 / n0) / (n0 - 1) / n0
        return z_test(float(c[0] + s1 / n1), max(float(var), 0.0), level)


# ------------------------------------------------------------------ over the parts
#: the Poisson bootstrap's replicate tables may hold this many bytes (n_boot plus the
#: jackknife's groups × every model's distinct scores × 2 classes × 8 bytes)
BOOT_BYTES = 2 << 30

#: what a comparison over parts does not offer, and why
_NEEDS_CASES = ("needs every case's prediction, which a comparison on a cluster leaves "
                "on the workers (it keeps the score tables and sums over the cases); run it "
                "on one machine, on the data or on a sample of it")

MapReduce = Callable[[Callable[..., Any], Sequence[Any], Callable[..., Any], tuple], Any]


def in_process(task: Callable[..., Any], parts: Sequence[Any], merge: Callable[..., Any],
               shared: tuple) -> Any:
    """``task(i, part, *shared)`` of every part in this process, merged in a balanced tree
    in part order (the tree a cluster runs).

    Examples
    --------
    >>> in_process(lambda i, p, k: p * k, [1, 2, 3], lambda *x: sum(x), (10,))
    60
    """
    return tree_merge([task(i, p, *shared) for i, p in enumerate(parts)], merge)


class OnParts:
    """What a comparison over parts answers differently from one holding the cases (the
    binary :class:`DistributedComparison` and the k-class
    :class:`~.multi_parts.DistributedMultiComparison`): the summary without the
    calibration sentence, and a one-line refusal of what needs every case's prediction."""

    # ------------------------------------------------------------------ the answer
    def summary(self) -> str:
        """The answer in words (:meth:`ClassifierComparison.summary`) without the
        calibration sentence: its test redraws every case's label.

        Examples
        --------
        >>> from measurelab.inference.classifiers.distributed import compare_parts
        >>> parts = [([0, 1] * 50, [np.linspace(0, 1, 100)], None)]
        >>> print(compare_parts(parts, ["m"], measures=["acc"]).summary())  # doctest: +ELLIPSIS
        Values: acc 0.5...
        """
        from measurelab.inference.classifiers import _report

        lines = [*_report.pair_sentences(self), _report.best_sentence(self)]
        lines += [x for x in (_report.untested_sentence(self),
                              _report.evidence_sentence(self)) if x]
        return "\n".join(lines)

    def _poisson_pass(self: Any, task: Callable[..., Any], plan: Any, groups: int,
                      need: list[str]) -> dict[tuple[Any, ...], np.ndarray]:
        """Pass two with the Poisson bootstrap (``n_boot`` replicates, ``groups``
        jackknife groups, entropy drawn from ``random_state``) over the parts held while
        the comparison is built: the other sums are kept, every sum returned, and a note
        says which bootstrap ran."""
        from measurelab.inference import bootstrap as bt

        map_reduce, parts = self._map[:2]
        entropy = int(bt.rng_of(self.random_state).integers(0, 2**63 - 1))
        plan.boot = (self.n_boot, groups, entropy)
        sums: dict[tuple[Any, ...], np.ndarray] = map_reduce(task, parts, merge_sums,
                                                             (plan,))
        self._map = None
        self._sums.sums = {k: v for k, v in sums.items() if k[0] not in ("boot", "jack")}
        self.notes.append(
            f"the bootstrap intervals ({', '.join(need)}) are the Poisson bootstrap over the "
            "parts (each case weighs a Poisson(1) count, seeded by its part and the "
            "replicate); they agree with the one-machine bootstrap's in distribution, not "
            "to the digit")
        return sums

    def _refuse(self, what: str) -> Any:
        raise MeasurelabError(f"{what} {_NEEDS_CASES}")

    def calibration(self, n_resamples: int = N_RESAMPLES, method: str = "auto") -> Any:
        """Refused: the tests of calibration read every case's prediction."""
        return self._refuse("calibration()")

    def plot_calibration(self) -> Any:
        """Refused: the reliability curve's band redraws every case."""
        return self._refuse("plot_calibration()")

    def calibration_ranges(self) -> Any:
        """Refused: as :meth:`plot_calibration`."""
        return self._refuse("calibration_ranges()")

    def curve_bands(self, n_boot: int | None = None, grid: int = 101) -> dict[str, Any]:
        """Refused: the bands resample the cases."""
        return self._refuse("curve_bands()")

    def plot(self, *, n_boot: int | None = None) -> Any:
        """Refused: the curves' bands resample the cases."""
        return self._refuse("plot()")

    def net_benefit(self, thresholds: Any = (0.05, 0.1, 0.2, 0.3, 0.5), *,
                    grid: Any = None, references: bool = True) -> Any:
        """Refused: net benefit resamples the cases at every threshold."""
        return self._refuse("net_benefit()")

    def plot_decision_curve(self, *, thresholds: Any = None, standardized: bool = False,
                            ax: Any = None) -> Any:
        """Refused: as :meth:`net_benefit`."""
        return self._refuse("plot_decision_curve()")

    def to_html(self, path: Any, *, title: str = "Comparing classifiers",
                files: bool = True) -> Any:
        """Refused: the page draws the curves' bands and the calibration figure."""
        return self._refuse("to_html()")

    def _repr_html_(self) -> str:
        from measurelab.pages import escape

        return f"<pre class='measurelab-comparison'>{escape(repr(self))}</pre>"
