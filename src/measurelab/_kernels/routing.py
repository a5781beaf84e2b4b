"""The one policy that picks a compiled (numba) kernel or its numpy twin.

Every place that could run a kernel of :mod:`measurelab._kernels` asks
:func:`use_compiled` with the kind of work and its size; the thresholds are the rows of
:data:`ROUTES`, each with the reason for its value. The rules:

* **Size first, numba second.** Below its threshold a route never imports the kernel, so
  numba (about a second to load) is never loaded for small input.
* **A kernel that is missing is no error.** When numba cannot be imported, or the
  environment variable ``MEASURELAB_NO_NUMBA`` is set (to anything but ``""`` or ``"0"``),
  every route is the numpy one; results are the same or agree to rounding (see each row).
* **What the process loaded may matter only where both routes give the same bits.** A row
  may have a lower threshold once its kernel is loaded (``min_size_loaded``) only when
  ``same_bits`` is true; the others depend on the size alone, so one input gives one value
  in every process (a command line, the API, workers and the client).

Examples
--------
>>> use_compiled("scoretable", 10)
False
>>> ROUTES["fused_walk"].min_size == 2**18
True
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass

#: set to anything but "" or "0": every route takes numpy, numba is never imported
NO_NUMBA_ENV = "MEASURELAB_NO_NUMBA"


@dataclass(frozen=True)
class Route:
    """When one kind of work runs compiled.

    Attributes
    ----------
    kernel : the module of the compiled kernel (importing it loads numba)
    min_size : the size from which the compiled kernel is used
    unit : what the size counts
    same_bits : both routes give the same result bit for bit
    reason : why the threshold has its value (one line)
    min_size_loaded : the size from which it is used once ``kernel`` is loaded (numba's
        load already paid); None: ``min_size`` always. Only for ``same_bits`` routes.
    """

    kernel: str
    min_size: float
    unit: str
    same_bits: bool
    reason: str
    min_size_loaded: float | None = None

    def __post_init__(self) -> None:
        if self.min_size_loaded is not None and not self.same_bits:
            raise ValueError(
                f"a route whose results differ in the last bit may not depend on what the "
                f"process loaded: min_size_loaded={self.min_size_loaded!r} needs same_bits")


#: the thresholds, by kind of work (the values were measured; docs/DECISIONS.md)
ROUTES: dict[str, Route] = {
    "scoretable": Route(
        "measurelab._kernels.scoretable", 1 << 21, "rows", True,
        "numba's first load (~1 s) beats numpy's sort-based build only from 2**21 rows",
        min_size_loaded=1 << 12),
    "fused_walk": Route(
        "measurelab._kernels.fused", 1 << 18, "distinct scores", False,
        "numba's load is amortized at 2**18 scores, so a 10**6-case bootstrap walks compiled"),
    "block_walk": Route(
        "measurelab._kernels.fused", 0, "tables in a block", False,
        "a block is a bootstrap's: thousands of replicates always pay for numba's load"),
    "apr_groups": Route(
        "measurelab._kernels.fused", 1 << 18, "cases", False,
        "as the fused walk: from 2**18 cases the per-group loop beats numpy's expansion"),
    "cal": Route(
        "measurelab._kernels.cal", 1 << 18, "cases", False,
        "as the fused walk: one compiled pass with O(window) memory from 2**18 cases"),
    "cal_block": Route(
        "measurelab._kernels.cal", 1, "tables in a block", False,
        "a block is a bootstrap's: the numpy block form expands every case of every table"),
    "loess": Route(
        "measurelab._kernels.loess", 1 << 18, "distinct scores", False,
        "as the fused walk (numba is loaded at that size): the vertices' sums in one pass "
        "each"),
    "debiased_cells": Route(
        "measurelab._kernels.debiased", 1 << 18, "tables × distinct scores", True,
        "one pass per table instead of ~40 row-sized numpy passes; numba's load pays from "
        "2**18 rows of work", min_size_loaded=1 << 12),
    "pav": Route(
        "measurelab._kernels.pav", 1 << 18, "distinct scores", False,
        "as the fused walk: one pass with no row-sized temporaries (on whole weights the "
        "same hull and sums)"),
    "smece_grid": Route(
        "measurelab._kernels.smece", 1 << 18, "distinct scores", True,
        "as the fused walk: one pass onto the grid instead of row-sized bincount inputs"),
    "pair_values": Route(
        "measurelab._kernels.pairs", 1 << 21, "objects", True,
        "numba's load beats numpy's ranks from 2**21 objects (counts are whole numbers)",
        min_size_loaded=1 << 16),
    "pair_tree": Route(
        "measurelab._kernels.pairs", 1 << 16, "objects", True,
        "the Fenwick-tree count beats the sorted merge count from 2**16 objects"),
    "bootstrap_draws": Route(
        "measurelab._kernels.scoretable", 1 << 16, "cases of a stratum", True,
        "counting a replicate's draws compiled takes a third of np.bincount's time"),
}


def numba_disabled() -> bool:
    """Whether ``MEASURELAB_NO_NUMBA`` turns every compiled route off.

    Examples
    --------
    >>> import os
    >>> numba_disabled() == (os.environ.get("MEASURELAB_NO_NUMBA", "") not in ("", "0"))
    True
    """
    return os.environ.get(NO_NUMBA_ENV, "") not in ("", "0")


def kernel_available(module: str) -> bool:
    """Import a compiled kernel module (numba loads with it); False when numba is missing
    or switched off (``MEASURELAB_NO_NUMBA``): the numpy route is used instead.

    Examples
    --------
    >>> kernel_available("measurelab._kernels._no_such_kernel")
    False
    """
    if numba_disabled():
        return False
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def threshold(kind: str) -> float:
    """The size from which ``kind`` runs compiled now (lower once its kernel is loaded,
    for the routes that allow it).

    Examples
    --------
    >>> threshold("cal") == 2**18
    True
    """
    try:
        route = ROUTES[kind]
    except KeyError:
        raise KeyError(f"no route {kind!r}; the routes are {sorted(ROUTES)}") from None
    if route.min_size_loaded is not None and sys.modules.get(route.kernel) is not None:
        return min(route.min_size, route.min_size_loaded)
    return route.min_size


def use_compiled(kind: str, size: float) -> bool:
    """Whether work of ``kind`` (a key of :data:`ROUTES`) and ``size`` runs compiled: the
    size reaches the route's threshold and its kernel imports (numba loads on first use).

    Examples
    --------
    >>> use_compiled("fused_walk", 100)
    False
    >>> use_compiled("no_such_route", 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "no route 'no_such_route'; the routes are [...]"
    """
    if not size >= threshold(kind):
        return False
    return kernel_available(ROUTES[kind].kernel)
