"""The bootstrap engine: the design (which cases, in which canonical order), the draws
(blocks of case multiplicities) and the run (every measure of a block from its block
formula). The intervals and p-values made from the replicates are :mod:`.intervals`; the
whole method is described in :mod:`measurelab.inference.bootstrap`.
"""

from __future__ import annotations

import threading
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from measurelab._kernels.routing import use_compiled
from measurelab._util.threads import check_n_jobs, one_blas_thread, run_in_order
from measurelab._util.validation import make_rng, short_repr
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.measures.compute import prime_block
from measurelab.stats.block import BlockStats, TableBlock
from measurelab.stats.scoretable import ScoreTable

#: the fewest replicates an interval is computed from (docs/METHODS.md#bootstrap-intervals):
#: below it the tails hold a handful of replicates and the ends are noise
MIN_BOOT = 100
#: case multiplicities held at once (a block of replicates × cases): bounds memory
_BLOCK_CELLS = 1 << 22
_MAX_BLOCK = 512


def check_n_boot(n_boot: Any, name: str = "n_boot", minimum: int = 1) -> int:
    """The number of bootstrap replicates as an integer ≥ ``minimum``, or a one-line error.

    Examples
    --------
    >>> check_n_boot(200, minimum=MIN_BOOT)
    200
    """
    if isinstance(n_boot, bool | np.bool_) or not isinstance(n_boot, int | np.integer):
        raise MeasurelabTypeError(f"{name} must be a positive integer, got "
                                  f"{short_repr(n_boot)}")
    if n_boot < 1:
        raise MeasurelabError(f"{name} must be a positive integer, got {int(n_boot)}")
    if n_boot < minimum:
        raise MeasurelabError(
            f"{name}={n_boot} is too few replicates for an interval; use at least {minimum} "
            "(2000 is the default)")
    if n_boot > 10**7:
        raise MeasurelabError(f"{name}={n_boot} is more replicates than is useful; use at "
                              "most 10,000,000")
    return int(n_boot)


def rng_of(random_state: Any = 0) -> np.random.Generator:
    """The numpy Generator of ``random_state`` (an int, a Generator — returned as is — or
    None for fresh entropy).

    Examples
    --------
    >>> bool(rng_of(3).integers(100) == rng_of(random_state=3).integers(100))
    True
    """
    return make_rng(random_state)


# --------------------------------------------------------------------------- design
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
        self._plans = [_RowPlan(r, self.y, t.size) for r, t in zip(rows, tables, strict=True)]
        #: per model, what depends on its scores alone (shared by all its blocks)
        self._caches: list[dict[str, Any]] = [{} for _ in tables]

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
        tables = [ScoreTable.from_arrays(y, s, w) for s in scores]
        keys: list[np.ndarray] = [] if w is None else [w]
        keys += [np.asarray(s, dtype=np.float64) + 0.0 for s in scores[::-1]]  # -0.0 → 0.0
        order = np.lexsort([*keys, y])
        rows = [np.searchsorted(t.scores, np.asarray(s, dtype=np.float64)[order])
                for t, s in zip(tables, scores, strict=True)]
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



def draw_parts(rng: np.random.Generator, size: int, n: int,
               parts: list[tuple[int, int]]) -> np.ndarray:
    """Case multiplicities of ``size`` replicates in the (size, n + 1) form of
    :meth:`CaseDesign._draw` (last column 0): each part ``[lo, hi)`` of the cases (a class
    when stratified; all of them otherwise) resampled with replacement on its own.

    Examples
    --------
    >>> m = draw_parts(np.random.default_rng(0), 3, 5, [(0, 2), (2, 5)])
    >>> m[:, :2].sum(axis=1).tolist(), m[:, 2:5].sum(axis=1).tolist(), m[:, 5].tolist()
    ([2.0, 2.0, 2.0], [3.0, 3.0, 3.0], [0.0, 0.0, 0.0])
    """
    out = np.zeros((size, n + 1))
    rows = np.arange(size)[:, None]
    for lo, hi in parts:
        m = hi - lo
        if m == 0:
            continue
        dtype = np.int64 if m >= 2**31 - 1 else np.int32
        if use_compiled("bootstrap_draws", m):
            # large: one replicate at a time, counted by a compiled loop (a third of
            # np.bincount's time on 10**6 cases; the same whole counts)
            from measurelab._kernels.scoretable import count_draws

            for b in range(size):
                count_draws(rng.integers(0, m, m, dtype=dtype), out[b, lo:hi])
            continue
        idx = rng.integers(0, m, (size, m), dtype=dtype)
        flat = (idx + rows * m).ravel()
        out[:, lo:hi] = np.bincount(flat, minlength=size * m).reshape(size, m)
    return out


class _RowPlan:
    """How the cases of one model add into its table rows, per class.

    Where no row holds two cases of a class (distinct scores), a row's weight is one
    case's multiplicity: a single gather from the block with a zero column appended (index
    n for a row without a case of that class). Otherwise the cases, ordered by row, are
    summed per row with ``np.add.reduceat``."""

    def __init__(self, rows: np.ndarray, y: np.ndarray, size: int) -> None:
        self.size = size
        n = rows.size
        self.parts: list[tuple[Any, ...]] = []
        for cls in (True, False):
            idx = np.flatnonzero(y == cls)
            r = rows[idx]
            order = np.argsort(r, kind="stable")
            idx, r = idx[order], r[order]
            if r.size:
                starts = np.flatnonzero(np.concatenate([[True], r[1:] != r[:-1]]))
            else:
                starts = np.zeros(0, dtype=np.int64)
            if starts.size == r.size:  # one case a row at most: one gather
                full = np.full(size, n, dtype=np.intp)
                full[r] = idx
                self.parts.append(("gather", full))
            else:
                self.parts.append(("reduce", idx, starts, r[starts]))

    def rows_of(self, ext: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Positive and negative weight per row, (B, R) each, from the multiplicities with a
        zero column appended (``ext``: (B, n + 1))."""
        out = []
        for part in self.parts:
            if part[0] == "gather":
                out.append(np.take(ext, part[1], axis=1))
                continue
            _, idx, starts, seg_rows = part
            res = np.zeros((ext.shape[0], self.size))
            if idx.size:
                res[:, seg_rows] = np.add.reduceat(np.take(ext, idx, axis=1), starts, axis=1)
            out.append(res)
        return out[0], out[1]


def case_rows(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """Row index of every positive and every negative case of a whole-count table
    (cases of a row are contiguous).

    Examples
    --------
    >>> t = ScoreTable.from_arrays([True, False, True], [0.2, 0.2, 0.7])
    >>> [r.tolist() for r in case_rows(t)]
    [[0, 1], [0]]
    """
    if not table.is_integer:
        raise MeasurelabError(
            "resampling a score table needs whole case counts; weighted data must be "
            "resampled case by case (pass the cases: evaluate(..., sample_weight=w))")
    k = np.arange(table.size)
    return (np.repeat(k, table.pos.astype(np.int64)),
            np.repeat(k, table.neg.astype(np.int64)))


def _leave_out(groups: np.ndarray, g0: int, g1: int) -> np.ndarray:
    """Multiplicities in the form of :meth:`CaseDesign._draw`, (g1 − g0, n + 1): row i
    leaves group g0 + i out."""
    out = np.ones((g1 - g0, groups.size + 1))
    out[:, -1] = 0.0
    for i, g in enumerate(range(g0, g1)):
        out[i, :-1][groups == g] = 0.0
    return out


def jackknife_groups(n_units: int, rng: np.random.Generator,
                     n_groups: int = 50) -> np.ndarray:
    """Random group (0 … G−1) of each unit for the grouped (delete-a-group) jackknife.

    The acceleration of BCa is a ratio of the third to the 1.5th power of the second
    moment of the jackknife influences; group sums of independent influences keep that
    ratio, so G groups estimate it at the cost of G evaluations instead of n.

    Examples
    --------
    >>> g = jackknife_groups(10, np.random.default_rng(0), n_groups=3)
    >>> sorted(set(g.tolist()))
    [0, 1, 2]
    """
    g = min(n_groups, n_units)
    if g == 0:
        return np.zeros(0, dtype=np.int64)
    return rng.permutation(np.arange(n_units) % g)


# ------------------------------------------------------------------------- running
@dataclass
class BootstrapRun:
    """Replicates ``reps`` (B, models, measures), the estimates by the same route
    ``theta`` (models, measures: the identity weighting) and the jackknife ``jack``
    (G, models, measures)."""

    reps: np.ndarray
    theta: np.ndarray
    jack: np.ndarray


def _block_size(n: int, n_models: int) -> int:
    return int(max(1, min(_MAX_BLOCK, _BLOCK_CELLS // max(1, n * n_models))))


def run_bootstrap(design: CaseDesign, measures: list[Any], n_boot: int,
                  random_state: Any = 0, *,
                  thresholds: list[tuple[float, bool]] | None = None,
                  jackknife: bool = True, progress: bool | None = None,
                  desc: str = "bootstrap", n_jobs: int | None = None) -> BootstrapRun:
    """Every measure of every model on ``n_boot`` replicates, in blocks.

    ``measures`` are :class:`~measurelab.measures.base.Measure` objects; ``thresholds`` the
    (threshold, inclusive) of each model (default (0.5, False)). The draws are made in this
    thread, block after block, from the numpy Generator of ``random_state`` (an int, a
    Generator or None), so the replicates depend on it only (not on ``n_jobs``: threads
    evaluate whole blocks). Warnings of undefined values inside replicates are silenced:
    they show as NaN replicates, counted by :class:`BootstrapIntervals`.

    Examples
    --------
    >>> from measurelab import registry
    >>> t = ScoreTable.from_arrays([True, False, True, False], [0.9, 0.4, 0.4, 0.1])
    >>> r = run_bootstrap(CaseDesign.from_table(t), [registry.get("sens")], 100, 0)
    >>> r.reps.shape, r.jack.shape[0] > 0
    ((100, 1, 1), True)
    """
    jobs = check_n_jobs(n_jobs)
    rng = rng_of(random_state)
    k = len(design.tables)
    thresholds = thresholds or [(0.5, False)] * k
    if design.n == 0:
        raise MeasurelabError("the bootstrap needs at least one case")
    if design.n1 == 0 or design.n0 == 0:
        raise MeasurelabError(
            f"a bootstrap of a comparison needs both classes, got {design.n1} positive and "
            f"{design.n0} negative cases")
    nm = len(measures)

    def evaluate(ext: np.ndarray) -> np.ndarray:
        """Every measure of every model on a block of multiplicities (B, n + 1)."""
        blocks = design._blocks(ext, thresholds)
        res = np.empty((blocks[0].n_blocks, k, nm))
        with np.errstate(all="ignore"):
            for a, bs in enumerate(blocks):
                prime_block(bs, measures)  # one compiled walk for the rank sums
                for j, m in enumerate(measures):
                    res[:, a, j] = m.compute_block(bs)
        return res

    return run_blocks(design, evaluate, (k, nm), n_boot, rng, jackknife=jackknife,
                      progress=progress, desc=desc, n_jobs=jobs)


def run_blocks(design: Any, evaluate: Any, shape: tuple[int, int], n_boot: int,
               rng: np.random.Generator, *, jackknife: bool = True,
               progress: bool | None = None, desc: str = "bootstrap",
               n_jobs: int = 1) -> BootstrapRun:
    """The block loop of :func:`run_bootstrap` for any design with ``n``, ``_draw(rng,
    size)`` and ``jackknife_groups(rng)``: ``evaluate`` maps multiplicities (b, n + 1) to
    values (b, *shape*); the identity, ``n_boot`` replicates drawn block after block in this
    thread, and (``jackknife``) the leave-a-group-out weightings.

    Examples
    --------
    >>> d = CaseDesign.from_cases(np.array([True, False, True]), [np.array([.9, .2, .4])])
    >>> r = run_blocks(d, lambda e: e[:, :3].sum(axis=1)[:, None, None], (1, 1), 100,
    ...                rng_of(0), jackknife=False)
    >>> r.reps.shape, float(r.theta[0, 0]), bool((r.reps == 3).all())
    ((100, 1, 1), 3.0, True)
    """
    jobs = n_jobs
    k, nm = shape
    size = _block_size(design.n, k)
    starts = list(range(0, n_boot, size))
    reps = np.empty((n_boot, k, nm))
    with warnings.catch_warnings(), one_blas_thread():
        warnings.simplefilter("ignore")
        identity = np.ones((1, design.n + 1))  # every case once
        identity[0, -1] = 0.0
        theta = evaluate(identity)[0]
        from measurelab.progress import progress_bar

        bar = progress_bar(n_boot, desc=desc, unit="replicate", enabled=progress is not False,
                           delay=2.0, leave=False)
        lock = threading.Lock()

        def one(item: tuple[int, Any]) -> None:
            b0, mult = item
            res = evaluate(mult)
            reps[b0:b0 + res.shape[0]] = res
            with lock:
                bar.update(res.shape[0])

        draws = ((b0, design._draw(rng, min(size, n_boot - b0))) for b0 in starts)
        with bar:
            if jobs == 1:
                for item in draws:
                    one(item)
            else:
                run_in_order(one, draws, [None] * len(starts), jobs, None)
        if jackknife:
            groups = design.jackknife_groups(rng)
            n_groups = int(groups.max(initial=-1)) + 1
            jack = np.concatenate(
                [evaluate(_leave_out(groups, i, min(i + size, n_groups)))
                 for i in range(0, n_groups, size)]) if n_groups else np.empty((0, k, nm))
        else:
            jack = np.empty((0, k, nm))
    return BootstrapRun(reps, theta, jack)
