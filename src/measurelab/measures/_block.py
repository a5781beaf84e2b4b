"""Helpers of the block formulas (:mod:`measurelab.stats.block`): one value per table of a
:class:`~measurelab.stats.block.TableBlock`, with array operations along the rows.

A block formula returns NaN where its scalar formula does (an undefined value), without
warning: the caller counts the undefined replicates.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from measurelab.measures._rules import BLOCK_WALK

#: cells (tables × rows) a block formula handles at once (:func:`in_row_chunks`): its
#: temporaries then stay in the processor's cache, where a whole block of a large table
#: would stream each one through memory
CHUNK_CELLS = 1 << 16


def row_integer(blk: Any) -> np.ndarray:
    """Whether each table of the block has whole-number weights, shape (B,): the block's
    ``integer`` flag when it states one (as :meth:`TableBlock.table` hands it on), else
    checked table by table.

    Examples
    --------
    >>> from measurelab.stats.block import TableBlock
    >>> blk = TableBlock(np.array([0.1, 0.9]), np.array([[1.0, 0], [0.5, 0]]),
    ...                  np.array([[0.0, 1], [0, 1]]))
    >>> row_integer(blk).tolist()
    [True, False]
    """
    b = blk.n_blocks
    if blk.integer is not None:
        return np.full(b, bool(blk.integer))
    if blk.is_integer:
        return np.ones(b, dtype=bool)
    return (np.all(blk.pos == np.round(blk.pos), axis=1)
            & np.all(blk.neg == np.round(blk.neg), axis=1))


def in_row_chunks(formula: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """Decorate a block formula of a :class:`TableBlock` so that a large block is computed
    in chunks of consecutive tables (about :data:`CHUNK_CELLS` cells each), the results
    concatenated; a block of a few tables (or of small ones) is one call.

    Examples
    --------
    >>> from measurelab.stats.block import TableBlock
    >>> f = in_row_chunks(lambda blk: blk.n_pos)
    >>> blk = TableBlock(np.arange(3.0), np.ones((40000, 3)), np.zeros((40000, 3)))
    >>> f(blk).shape
    (40000,)
    """

    @functools.wraps(formula)
    def chunked(blk: Any, **params: Any) -> np.ndarray:
        step = max(1, CHUNK_CELLS // max(1, blk.size))
        if blk.n_blocks <= step or BLOCK_WALK in blk.memo:  # walked: sums at hand
            return formula(blk, **params)
        integer = blk.integer
        if integer is None and blk.memo.get("is_integer") is True:
            integer = True  # known for the whole block: spare each chunk the check
        cls = type(blk)
        return np.concatenate([
            formula(cls(blk.scores, blk.pos[i:i + step], blk.neg[i:i + step],
                        integer=integer), **params)
            for i in range(0, blk.n_blocks, step)])

    return chunked


def quiet_div(num: Any, den: Any) -> np.ndarray:
    """``num / den`` elementwise, NaN where ``den`` is 0 (no warning).

    Examples
    --------
    >>> quiet_div(np.array([1.0, 2.0]), np.array([4.0, 0.0])).tolist()
    [0.25, nan]
    """
    num, den = np.broadcast_arrays(np.asarray(num, dtype=np.float64),
                                   np.asarray(den, dtype=np.float64))
    out = np.full(num.shape, np.nan)
    np.divide(num, den, out=out, where=den != 0)
    return out


def searchsorted_rows(a: Any, keys: np.ndarray, size: int | None = None) -> np.ndarray:
    """``np.searchsorted(a[b], keys[b], side='left')`` for every row b at once: the same
    binary search as numpy's (the same index even where a row is not quite sorted).

    ``a`` is an array of shape (B, R), or a function ``a(rows, idx)`` giving the values at
    those positions (then ``size`` is R: only the ~log2(R) probed values are computed);
    ``keys`` has shape (B,) or (B, K).

    Examples
    --------
    >>> a = np.array([[1.0, 2, 3], [0, 0, 5]])
    >>> searchsorted_rows(a, np.array([2.0, 6.0])).tolist()
    [1, 3]
    >>> searchsorted_rows(a, np.array([[0.0, 3.5], [0.0, 1.0]])).tolist()
    [[0, 3], [0, 2]]
    >>> searchsorted_rows(lambda b, i: a[b, i] * 10, np.array([20.0, 1.0]), 3).tolist()
    [1, 2]
    """
    if callable(a):
        value_at, r = a, int(size)  # type: ignore[arg-type]
    else:
        arr = np.asarray(a)
        r = arr.shape[1]

        def value_at(rows: np.ndarray, idx: np.ndarray) -> np.ndarray:
            return arr[rows, idx]

    keys = np.asarray(keys, dtype=np.float64)
    rows = np.arange(keys.shape[0]).reshape((-1,) + (1,) * (keys.ndim - 1))
    lo = np.zeros(keys.shape, dtype=np.int64)
    hi = np.full(keys.shape, r, dtype=np.int64)
    if r == 0:
        return lo
    while True:
        active = lo < hi
        if not active.any():
            return lo
        mid = lo + ((hi - lo) >> 1)
        below = value_at(rows, np.minimum(mid, r - 1)) < keys
        lo = np.where(active & below, mid + 1, lo)
        hi = np.where(active & ~below, mid, hi)


def accurate_row_sums(x: np.ndarray) -> np.ndarray:
    """Sum of each row of ``x`` (B, K) as if in twice the working precision, then rounded
    (pairwise error-free additions; the value of ``math.fsum`` but in the most extreme
    cancellations).

    Examples
    --------
    >>> accurate_row_sums(np.array([[1e16, 1.0, -1e16], [0.1, 0.2, 0.3]])).tolist()
    [1.0, 0.6]
    """
    x = np.asarray(x, dtype=np.float64)
    err = np.zeros(x.shape[0])
    while x.shape[1] > 1:
        if x.shape[1] % 2:
            x = np.concatenate([x, np.zeros((x.shape[0], 1))], axis=1)
        a, b = x[:, 0::2], x[:, 1::2]
        s = a + b
        bb = s - a
        err += ((a - (s - bb)) + (b - bb)).sum(axis=1)  # TwoSum: a + b = s + e exactly
        x = s
    return (x[:, 0] if x.shape[1] else np.zeros(x.shape[0])) + err
