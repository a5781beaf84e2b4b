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

from measurelab._util.threads import check_n_jobs, one_blas_thread, run_in_order
from measurelab.exceptions import MeasurelabError
from measurelab.inference.bootstrap.designs import CaseDesign
from measurelab.inference.bootstrap.draws import _leave_out, rng_of
from measurelab.measures.compute import prime_block
from measurelab.pickling import versioned_pickle

#: case multiplicities held at once (a block of replicates × cases): bounds memory
_BLOCK_CELLS = 1 << 22
_MAX_BLOCK = 512

# ------------------------------------------------------------------------- running
@versioned_pickle
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
    >>> from measurelab.stats.scoretable import ScoreTable
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
