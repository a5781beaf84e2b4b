"""The draws of the bootstrap: the generator, the number of replicates, case
multiplicities drawn by part (all cases, or each class apart), the rows of a score table
each case sits in, and the groups of the delete-a-group jackknife. The designs that use them
are :mod:`.designs`; the run is :mod:`.engine`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from measurelab._kernels.routing import use_compiled
from measurelab._util.validation import make_rng, short_repr
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.stats.scoretable import ScoreTable

#: the fewest replicates an interval is computed from (docs/METHODS.md#bootstrap-intervals):
#: below it the tails hold a handful of replicates and the ends are noise
MIN_BOOT = 100
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
