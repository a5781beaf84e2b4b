"""Domains of objects on which measures are compared (docs/METHODS.md#domains).

* :class:`RankedLists` — every ranked list of n examples with n₊ positives, the right-most
  k predicted positive (Ling et al. 2003), enumerated vectorised;
* :class:`SampledRankedLists` — a seeded uniform random sample of them (large n);
* :class:`PredictionSet` — any set of prediction vectors (a study's models, perturbed
  lists); :func:`perturbed_lists` builds the perturbation domain of Huang & Ling (2007).

Every domain knows, per object, the confusion counts at its cutoff or threshold and twice
the Mann–Whitney AUC numerator (an integer: tied pairs count ½), so accuracy and AUC are
compared exactly; :meth:`stats` gives the full statistics bundle for any other measure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from measurelab._util.validation import check_flag, check_int, check_random_state, check_real
from measurelab.exceptions import MeasurelabError
from measurelab.metaeval.exact import check_ranked
from measurelab.pickling import versioned_pickle
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.checks import check_threshold_value
from measurelab.stats.scoretable import ScoreTable

#: the largest number of lists :class:`RankedLists` enumerates
MAX_ENUMERATE = 3_000_000
#: the largest sample (lists × positives per list) :class:`SampledRankedLists` draws
MAX_SAMPLE_CELLS = 50_000_000


def _combination_masks(n: int, r: int) -> np.ndarray:
    """All n-bit masks with r bits set, increasing (bit i = position i is positive)."""
    if n > 30:
        raise MeasurelabError(f"cannot enumerate ranked lists of n={n} > 30 examples")
    masks = np.zeros(1, dtype=np.int64)
    ones = np.zeros(1, dtype=np.int8)
    for i in range(n):  # extend by one position; prune what can no longer reach r ones
        left = n - i - 1
        with_one = masks | (1 << i)
        masks = np.concatenate([masks, with_one])
        ones = np.concatenate([ones, ones + 1])
        keep = (ones <= r) & (ones + left >= r)
        masks, ones = masks[keep], ones[keep]
    return np.sort(masks)


class _RankedListDomain:
    """What every ranked-list domain shares: n, n_pos and the AUC denominator."""

    def __len__(self) -> int:  # every domain counts its lists
        raise NotImplementedError

    n: int
    n_pos: int

    @property
    def n_neg(self) -> int:
        return self.n - self.n_pos

    @property
    def auc_den2(self) -> np.ndarray:
        return np.full(len(self), 2 * self.n_pos * self.n_neg, dtype=np.int64)


@versioned_pickle
@dataclass
class RankedLists(_RankedListDomain):
    """All ranked lists of ``n`` examples with ``n_pos`` positives, cutoff ``k``.

    A list is ordered by increasing score (left = most negative); the right-most
    ``cutoff`` examples are predicted positive (default ``cutoff = n_pos``).

    Examples
    --------
    >>> d = RankedLists(4, 2)
    >>> len(d), d.tp.tolist(), d.auc2.tolist()      # 2U: twice the AUC numerator
    (6, [0, 1, 1, 1, 1, 2], [0, 2, 4, 4, 6, 8])
    """

    n: int
    n_pos: int
    cutoff: int | None = None
    masks: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.cutoff = check_ranked(self.n, self.n_pos, self.cutoff, "n_pos")
        self.n, self.n_pos = int(self.n), int(self.n_pos)
        if self.n > 100_000:  # C(n, n_pos) itself would take long to compute
            digits = (math.lgamma(self.n + 1) - math.lgamma(self.n_pos + 1)
                      - math.lgamma(self.n - self.n_pos + 1)) / math.log(10)
            raise MeasurelabError(
                f"n={self.n}, n_pos={self.n_pos} has about 1e+{digits:.0f} ranked lists, more "
                f"than {MAX_ENUMERATE:,} to enumerate; sample them (SampledRankedLists)")
        size = math.comb(self.n, self.n_pos)
        if size > MAX_ENUMERATE:
            from measurelab._util.validation import big_int

            raise MeasurelabError(
                f"n={self.n}, pos={self.n_pos} has {big_int(size)} ranked lists, more than "
                f"{MAX_ENUMERATE:,} to enumerate; sample them (--sample) or, for AUC vs acc, "
                "use the generating function (--exact)"
            )
        self.masks = _combination_masks(self.n, self.n_pos)
        sum_pos = np.zeros(self.masks.size, dtype=np.int64)
        tp = np.zeros(self.masks.size, dtype=np.int64)
        for i in range(self.n):
            bit = (self.masks >> i) & 1
            sum_pos += i * bit
            if i >= self.n - self.cutoff:
                tp += bit
        self.tp = tp
        self.auc2 = 2 * (sum_pos - self.n_pos * (self.n_pos - 1) // 2)

    def __len__(self) -> int:
        return int(self.masks.size)

    def describe(self) -> str:
        return f"all ranked lists, n={self.n}, pos={self.n_pos}, cutoff={self.cutoff}"

    def counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """tp, fp, fn, tn arrays (one per list)."""
        tp = self.tp
        assert self.cutoff is not None  # set by __post_init__
        fp = self.cutoff - tp
        return tp, fp, self.n_pos - tp, self.n_neg - fp

    def labels(self, i: int) -> np.ndarray:
        """Labels of list i, left (lowest score) to right."""
        return ((int(self.masks[i]) >> np.arange(self.n)) & 1).astype(bool)

    def stats(self, i: int) -> BinaryStats:
        """Statistics of list i: scores 1..n, threshold below the right-most k."""
        assert self.cutoff is not None  # set by __post_init__
        return _ranked_stats(self.labels(i), self.cutoff)

    def probabilities_ok(self) -> bool:
        return False


def _ranked_stats(labels: np.ndarray, cutoff: int) -> BinaryStats:
    n = labels.size
    scores = np.arange(1, n + 1, dtype=np.float64)
    table = ScoreTable(scores, labels.astype(np.float64), (~labels).astype(np.float64))
    return BinaryStats(table=table, threshold=n - cutoff + 0.5)


@versioned_pickle
@dataclass
class SampledRankedLists(_RankedListDomain):
    """A seeded uniform random sample (with replacement) of ranked lists.

    ``random_state`` (an int, default 0) seeds the sample.

    Examples
    --------
    >>> d = SampledRankedLists(1000, 500, size=200, random_state=1)
    >>> len(d), int(d.tp.min()) >= 0, int(d.auc2.max()) <= 2 * 500 * 500
    (200, True, True)
    """

    n: int
    n_pos: int
    cutoff: int | None = None
    size: int = 10_000
    random_state: int = 0

    def __post_init__(self) -> None:
        self.random_state = check_random_state(self.random_state)
        self.cutoff = check_ranked(self.n, self.n_pos, self.cutoff, "n_pos")
        self.n, self.n_pos = int(self.n), int(self.n_pos)
        self.size = check_int(self.size, "size (the sample size)", minimum=2)
        if self.size * self.n_pos > MAX_SAMPLE_CELLS or self.size * self.n > 50 * \
                MAX_SAMPLE_CELLS:
            raise MeasurelabError(
                f"size={self.size:,}: a sample of {self.size:,} lists of n={self.n} with "
                f"{self.n_pos} positives each holds more than {MAX_SAMPLE_CELLS:,} positions; "
                "take a smaller sample"
            )
        rng = np.random.default_rng(self.random_state)
        tp = np.empty(self.size, dtype=np.int64)
        sum_pos = np.empty(self.size, dtype=np.int64)
        self._positions: list[np.ndarray] = []
        block = max(1, 4_000_000 // self.n)
        for start in range(0, self.size, block):
            stop = min(self.size, start + block)
            keys = rng.random((stop - start, self.n))
            pos = np.argpartition(keys, self.n_pos - 1, axis=1)[:, : self.n_pos]
            tp[start:stop] = (pos >= self.n - self.cutoff).sum(axis=1)
            sum_pos[start:stop] = pos.sum(axis=1)
            self._positions.append(pos)
        self.tp = tp
        self.auc2 = 2 * (sum_pos - self.n_pos * (self.n_pos - 1) // 2)

    def __len__(self) -> int:
        return int(self.size)

    def describe(self) -> str:
        return (f"{self.size} ranked lists sampled uniformly (seed {self.random_state}), "
                f"n={self.n}, pos={self.n_pos}, cutoff={self.cutoff}")

    def counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        tp = self.tp
        assert self.cutoff is not None  # set by __post_init__
        fp = self.cutoff - tp
        return tp, fp, self.n_pos - tp, self.n_neg - fp

    def labels(self, i: int) -> np.ndarray:
        block = max(1, 4_000_000 // self.n)
        pos = self._positions[i // block][i % block]
        out = np.zeros(self.n, dtype=bool)
        out[pos] = True
        return out

    def stats(self, i: int) -> BinaryStats:
        assert self.cutoff is not None  # set by __post_init__
        return _ranked_stats(self.labels(i), self.cutoff)

    def probabilities_ok(self) -> bool:
        return False


@versioned_pickle
class PredictionSet:
    """Objects given as prediction vectors: ``scores[i]`` against ``y_true`` (shared, or
    one label vector per object), hard prediction ``score > threshold``.

    Examples
    --------
    >>> d = PredictionSet([0, 0, 1, 1], [[0.1, 0.6, 0.35, 0.8], [0.2, 0.3, 0.7, 0.9]])
    >>> len(d), d.auc2.tolist(), d.auc_den2.tolist(), d.counts()[0].tolist()
    (2, [6, 8], [8, 8], [1, 2])
    """

    def __init__(
        self,
        y_true: Any,
        scores: Any,
        *,
        threshold: float = 0.5,
        pos_label: Any = 1,
        inclusive: bool = False,
        names: list[str] | None = None,
    ) -> None:
        from measurelab._util.validation import as_1d, binarize, check_scores

        threshold = check_threshold_value(threshold)
        inclusive = check_flag(inclusive, "inclusive")
        if isinstance(scores, np.ndarray) and scores.ndim == 2:
            S = list(scores)
        else:
            try:
                S = list(scores)
            except TypeError:
                raise MeasurelabError("scores must be a list of prediction vectors, got "
                                      f"{type(scores).__name__}") from None
        S = [as_1d(s, f"scores[{i}]") for i, s in enumerate(S)]
        if not S:
            raise MeasurelabError("a prediction set needs at least one prediction vector")
        Y_raw = list(y_true) if _is_nested(y_true) else [y_true] * len(S)
        if len(Y_raw) != len(S):
            raise MeasurelabError(
                f"got {len(Y_raw)} label vectors for {len(S)} prediction vectors"
            )
        self.threshold = threshold
        self.inclusive = inclusive
        self.names = names
        self._y = [binarize(np.asarray(y), pos_label) for y in Y_raw]
        self._s = []
        tp, fp, fn, tn, a2, d2 = ([] for _ in range(6))
        for i, (y, s) in enumerate(zip(self._y, S, strict=True)):
            if y.size != s.size:
                raise MeasurelabError(
                    f"object {i}: {y.size} labels but {s.size} scores"
                )
            s = check_scores(s, f"scores[{i}]")
            self._s.append(s)
            pred = s >= threshold if inclusive else s > threshold
            tp.append(int(np.count_nonzero(y & pred)))
            fp.append(int(np.count_nonzero(~y & pred)))
            fn.append(int(np.count_nonzero(y & ~pred)))
            tn.append(int(np.count_nonzero(~y & ~pred)))
            t = ScoreTable.from_arrays(y, s)
            neg_below = np.cumsum(t.neg) - t.neg
            a2.append(int(np.dot(t.pos.astype(np.int64),
                                 (2 * neg_below + t.neg).astype(np.int64))))
            d2.append(2 * int(y.sum()) * int((~y).sum()))
        ctp, cfp, cfn, ctn = (np.array(v, dtype=np.int64) for v in (tp, fp, fn, tn))
        self._counts = (ctp, cfp, cfn, ctn)
        self.auc2 = np.array(a2, dtype=np.int64)
        self.auc_den2 = np.array(d2, dtype=np.int64)

    def __len__(self) -> int:
        return len(self._s)

    def describe(self) -> str:
        return f"{len(self)} prediction vectors (threshold {self.threshold})"

    def __str__(self) -> str:
        """What the set holds.

        Examples
        --------
        >>> print(PredictionSet([0, 0, 1, 1], [[0.1, 0.6, 0.35, 0.8], [0.2, 0.3, 0.7, 0.9]]))
        PredictionSet of 2 prediction vectors (threshold 0.5) on 4 cases; compare two measures on it with compare_measures(f, g, this).
        """  # noqa: E501
        sizes = sorted({int(y.size) for y in self._y})
        cases = (f"{sizes[0]} cases" if len(sizes) == 1
                 else f"{sizes[0]} to {sizes[-1]} cases")
        return (f"PredictionSet of {self.describe()} on {cases}; compare two measures on it "
                "with compare_measures(f, g, this).")

    def counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self._counts

    def stats(self, i: int) -> BinaryStats:
        return BinaryStats(table=ScoreTable.from_arrays(self._y[i], self._s[i]),
                           threshold=self.threshold, inclusive=self.inclusive)

    def probabilities_ok(self) -> bool:
        return all(float(s.min()) >= 0 and float(s.max()) <= 1 for s in self._s if s.size)


def _is_nested(y: Any) -> bool:
    if isinstance(y, np.ndarray):
        return y.ndim == 2
    try:
        first = next(iter(y))
    except (TypeError, StopIteration):
        return False
    return not isinstance(first, (str, bytes)) and hasattr(first, "__len__")


def perturbed_lists(
    n: int, eps: float, size: int, *,
    random_state: int | np.random.Generator = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Huang & Ling (2007) §4: the true list p_i = i/n (label positive iff p_i > 0.5) and
    ``size`` perturbed lists q_i ~ U[max(0, p_i − ε), min(1, p_i + ε)].

    Returns ``(p, y_true, Q)`` with ``Q`` of shape (size, n). ``random_state`` (an int or
    a numpy Generator, used as is) draws the perturbations.

    Examples
    --------
    >>> p, y, Q = perturbed_lists(10, 0.3, 5, random_state=0)
    >>> p.tolist()[:3], y.astype(int).tolist(), Q.shape
    ([0.1, 0.2, 0.3], [0, 0, 0, 0, 0, 1, 1, 1, 1, 1], (5, 10))
    """
    n = check_int(n, "n", minimum=2)
    eps = check_real(eps, "eps", low=0.0, high=1.0)
    size = check_int(size, "size", minimum=1)
    if n * size > MAX_SAMPLE_CELLS:
        raise MeasurelabError(f"n={n} × size={size} is more than {MAX_SAMPLE_CELLS:,} "
                              "perturbed scores; take fewer lists or shorter ones")
    random_state = check_random_state(random_state)
    rng = (random_state if isinstance(random_state, np.random.Generator)
           else np.random.default_rng(random_state))
    p = np.arange(1, n + 1) / n
    y = p > 0.5
    lo = np.maximum(0.0, p - eps)
    hi = np.minimum(1.0, p + eps)
    Q = lo + (hi - lo) * rng.random((size, n))
    return p, y, Q
