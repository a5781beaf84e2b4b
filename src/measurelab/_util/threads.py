"""Threads for work that releases the GIL (bootstrap replicates): how many, in what
order, and BLAS held to one thread while they run.

Below the measures' API (:mod:`measurelab.inference.intervals` uses it); imports nothing heavy.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from measurelab.exceptions import MeasurelabError


def check_n_jobs(n_jobs: Any) -> int:
    """Threads for the bootstrap: None → 1, −1 → every CPU this process may use, else a
    positive integer (at most that many CPUs: more threads would only hold more
    replicates in memory).

    Examples
    --------
    >>> check_n_jobs(None), check_n_jobs(1)
    (1, 1)
    """
    if n_jobs is None:
        return 1
    if isinstance(n_jobs, (bool, np.bool_)) or not isinstance(n_jobs, (int, np.integer)):
        raise MeasurelabError(f"n_jobs must be a positive integer, -1 or None, got {n_jobs!r}")
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    if n_jobs == -1:
        return cpus
    if n_jobs < 1:
        raise MeasurelabError(f"n_jobs must be a positive integer, -1 or None, got {n_jobs}")
    return min(int(n_jobs), cpus)


_BLAS: dict[str, Any] = {"users": 0, "limit": None}
_BLAS_LOCK = threading.Lock()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS on one thread while a bootstrap runs, whatever ``n_jobs``.

    * With several of our threads, MXE's dot products would otherwise call the BLAS thread
      pool from every thread at once, which spins on its lock (measured: MXE went from
      1 ms to 36 ms a replicate on 2 threads).
    * With one, a threaded BLAS ``ddot`` splits long sums across its threads and rounds
      them differently, so the replicates would not be the same bits for every ``n_jobs``.

    The limit is process-wide (it also holds BLAS calls of other threads meanwhile);
    overlapping bootstraps share it, and the last to finish restores the setting found by
    the first.
    """
    with _BLAS_LOCK:
        if _BLAS["users"] == 0:
            try:
                from threadpoolctl import threadpool_limits
            except ImportError:  # pragma: no cover - scikit-learn brings threadpoolctl
                _BLAS["limit"] = None
            else:
                _BLAS["limit"] = threadpool_limits(1, user_api="blas")
        _BLAS["users"] += 1
    try:
        yield
    finally:
        with _BLAS_LOCK:
            _BLAS["users"] -= 1
            if _BLAS["users"] == 0 and _BLAS["limit"] is not None:
                _BLAS["limit"].restore_original_limits()
                _BLAS["limit"] = None


def run_in_order(one: Any, items: Any, out: np.ndarray | list[Any], jobs: int,
                 bar: Any) -> None:
    """``out[b] = one(item_b)`` on ``jobs`` threads, the items (a replicate's draws) taken
    in order from the iterator here; at most 2·jobs are in flight (memory stays
    O(jobs·n)). Each task runs in a copy of this thread's context, so settings kept in
    context variables (``np.errstate``) hold in the workers too."""
    import contextvars
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(jobs) as pool:
        pending: deque[tuple[int, Any]] = deque()

        def collect() -> None:
            i, fut = pending.popleft()
            out[i] = fut.result()
            if bar is not None:
                bar.update(1)

        for b, item in enumerate(items):
            if len(pending) >= 2 * jobs:
                collect()
            pending.append((b, pool.submit(contextvars.copy_context().run, one, item)))
        while pending:
            collect()
