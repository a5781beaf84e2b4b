"""The operating point: measures at the sensitivity (or precision) a user must reach, and
the partial area under the ROC curve.

A screening model is used at one threshold, and the questions asked of it are "what
specificity at 90% sensitivity?" or "what precision at 80% recall?". Each measure here
answers one of them over every threshold of the score table at once:

* ``sens_at_spec@s``: the largest sensitivity over the thresholds whose specificity is at
  least ``s``; ``spec_at_sens@s`` the other way round;
* ``prec_at_recall@r``: the largest precision with recall at least ``r``;
  ``recall_at_prec@p``: the largest recall with precision at least ``p``;
* ``pauc@f``: the area under the ROC curve over false-positive rates [0, f] (ties as AUC
  counts them: a tie group is a diagonal segment; the curve interpolated linearly at
  FPR = f), in [0, f]; ``spauc@f``: McClish's standardised form
  (1 + (pauc − f²/2)/(f − f²/2))/2, which is scikit-learn's ``roc_auc_score(max_fpr=f)``.

**Thresholds.** As everywhere in the library, a case is predicted positive iff its score
is above the threshold; the thresholds are every distinct score and −inf (everything
positive), so every split of the ranking into a positive top and a negative rest that
respects ties is one operating point. With ``k`` top rows (distinct scores) predicted
positive, TP and FP are the cumulative sums of the table in decreasing score order, so
every operating point comes from the two cumulative sums every rank measure shares; a
constraint such as "specificity ≥ s" holds on a prefix (or a suffix) of them and is found
by a binary search of about log₂(R) probes, computing at each probe the same float
``TN/N`` (``TP/P``) a user would compare with ``s``: specificity 9/10 reaches ``s = 0.9``.

**Asked for, not given by default.** Each measure's parameter is the user's question, so
they are computed when named (``sens_at_spec@0.95``) and left out of the default set of
``evaluate(y, p)`` (``Measure.when_named``); named without a parameter they take 0.9 (the
rates) and FPR 0.2 (the partial areas).

**Undefined.** NaN with an :class:`~measurelab.exceptions.UndefinedMeasureWarning` when
the class a rate divides by is absent, and when no threshold reaches the constraint (only
``recall_at_prec`` can fail so: precision is not monotone in the threshold) — never a
silent number. The block forms (bootstrap replicates) give NaN without warning.

Examples
--------
>>> import measurelab as ml
>>> y = [0, 0, 0, 0, 1, 0, 1, 1, 0, 1]
>>> s = [.1, .2, .3, .4, .5, .6, .7, .8, .9, .95]
>>> r = ml.evaluate(y, s, measures=["sens_at_spec@0.8", "spec_at_sens@1", "pauc@0.5"])
>>> r["sens_at_spec@0.8"], r["spec_at_sens@1"], r["pauc@0.5"]
(0.75, 0.6666666666666666, 0.3333333333333333)
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from measurelab._util.validation import warn_undefined
from measurelab.measures._block import in_row_chunks
from measurelab.measures.base import measure
from measurelab.stats.block import TableBlock
from measurelab.stats.scoretable import ScoreTable

__all__ = [
    "pauc",
    "pauc_block",
    "prec_at_recall",
    "prec_at_recall_block",
    "recall_at_prec",
    "recall_at_prec_block",
    "sens_at_spec",
    "sens_at_spec_block",
    "spauc",
    "spauc_block",
    "spec_at_sens",
    "spec_at_sens_block",
]

Cum = tuple[np.ndarray, np.ndarray]


# ------------------------------------------------------------------------ shared
def _cum_table(t: ScoreTable) -> Cum:
    """The table's cumulative positives and negatives in decreasing score order as one
    row of a block, (1, R): the memoized sums every rank measure shares (no copy)."""
    return t.cum_pos_desc[None, :], t.cum_neg_desc[None, :]


def _totals(cp: np.ndarray, cn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """P and N of every row: the last cumulative sums (so that TP/P is exactly 1 at the
    last threshold, in every order of summation)."""
    if cp.shape[1] == 0:
        z = np.zeros(cp.shape[0])
        return z, z.copy()
    return cp[:, -1], cn[:, -1]


def _leading_true(pred: Callable[[np.ndarray, np.ndarray], np.ndarray], b: int,
                  r: int) -> np.ndarray:
    """Per row, how many of the first entries of ``pred`` are True, for a predicate that is
    True…True then False…False along each row (a binary search: ``pred(rows, idx)`` is
    evaluated at about log₂(r) positions of each row).

    Examples
    --------
    >>> a = np.array([[0.9, 0.5, 0.2, 0.1], [0.3, 0.2, 0.2, 0.0]])
    >>> _leading_true(lambda rows, i: a[rows, i] >= 0.25, 2, 4).tolist()
    [2, 1]
    """
    rows = np.arange(b)
    lo = np.zeros(b, dtype=np.int64)
    hi = np.full(b, r, dtype=np.int64)
    if r == 0:
        return lo
    with np.errstate(divide="ignore", invalid="ignore"):
        while True:
            active = lo < hi
            if not active.any():
                return lo
            mid = lo + ((hi - lo) >> 1)
            ok = pred(rows, np.minimum(mid, r - 1))
            lo = np.where(active & ok, mid + 1, lo)
            hi = np.where(active & ~ok, mid, hi)


def _at(a: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``a[b, k[b]]`` for every row (k clipped into the row; the caller masks)."""
    if a.shape[1] == 0:
        return np.zeros(a.shape[0])
    return a[np.arange(a.shape[0]), np.clip(k, 0, a.shape[1] - 1)]


def _need(p: float, n: float, name: str, *, pos: bool = True, neg: bool = True) -> bool:
    """Whether the classes the measure divides by are present; warns when not."""
    if pos and p <= 0:
        warn_undefined(f"{name} is undefined with no positive examples; returning NaN", 4)
        return False
    if neg and n <= 0:
        warn_undefined(f"{name} is undefined with no negative examples; returning NaN", 4)
        return False
    return True


# ------------------------------------------------------------- sens and spec
def _sens_at_spec(cp: np.ndarray, cn: np.ndarray, s: float) -> np.ndarray:
    """The largest TP/P over the thresholds with TN/N ≥ s, per row (NaN without both
    classes). TN/N is non-increasing as more rows are predicted positive, so the
    feasible thresholds are the first K (and 'nothing positive', TN/N = 1, always)."""
    p, n = _totals(cp, cn)
    b, r = cp.shape
    k = _leading_true(lambda rows, i: (n[rows] - cn[rows, i]) / n[rows] >= s, b, r)
    with np.errstate(divide="ignore", invalid="ignore"):
        sens = np.where(k > 0, _at(cp, k - 1) / p, 0.0)
    return np.where((p > 0) & (n > 0), sens, np.nan)


def _spec_at_sens(cp: np.ndarray, cn: np.ndarray, s: float) -> np.ndarray:
    """The largest TN/N over the thresholds with TP/P ≥ s, per row. TP/P is
    non-decreasing, so the feasible thresholds are those from the first that reaches s
    on (the last, everything positive, has TP/P = 1); nothing positive (TN/N = 1) is
    feasible only for s = 0."""
    p, n = _totals(cp, cn)
    b, r = cp.shape
    k = _leading_true(lambda rows, i: cp[rows, i] / p[rows] < s, b, r)
    with np.errstate(divide="ignore", invalid="ignore"):
        spec = (n - _at(cn, k)) / n
    spec = np.where(s <= 0.0, 1.0, spec)
    return np.where((p > 0) & (n > 0), spec, np.nan)


@in_row_chunks
def sens_at_spec_block(blk: TableBlock, min_spec: float = 0.9) -> np.ndarray:
    """Block form of :func:`sens_at_spec`: one value per table of the block, (B,).

    Examples
    --------
    >>> blk = TableBlock(np.array([0.1, 0.4, 0.9]), np.array([[0., 1, 1], [0, 2, 0]]),
    ...                  np.array([[1., 1, 0], [1, 1, 0]]))
    >>> sens_at_spec_block(blk, min_spec=0.5).tolist()
    [1.0, 1.0]
    """
    return _sens_at_spec(blk.cum_pos_desc, blk.cum_neg_desc, float(min_spec))


@measure(
    "sens_at_spec",
    kind="rank",
    statistic="scores",
    aliases=("sensitivity_at_specificity", "tpr_at_spec"),
    main_param="min_spec",
    when_named=True,
    source="pROC coords / torchmetrics SensitivityAtSpecificity: max TP/P with TN/N >= s",
    block=sens_at_spec_block,
)
def sens_at_spec(t: ScoreTable, min_spec: float = 0.9) -> float:
    """Sensitivity at specificity ≥ s: the largest TP/P over the thresholds whose TN/N is
    at least ``min_spec`` (``sens_at_spec@0.9``).

    Predicting nothing positive has specificity 1, so a value always exists when both
    classes are present (0 when only that threshold qualifies). NaN (with a warning)
    without positives or negatives.

    Examples
    --------
    >>> import measurelab as ml
    >>> y, s = [0, 0, 0, 0, 1, 0, 1, 1, 0, 1], [.1, .2, .3, .4, .5, .6, .7, .8, .9, .95]
    >>> ml.metrics.sens_at_spec(y, s, min_spec=0.8)   # above 0.4: 3 of 4 positives, 4/6
    0.75
    """
    cp, cn = _cum_table(t)
    p, n = _totals(cp, cn)
    if not _need(float(p[0]) if p.size else 0.0, float(n[0]) if n.size else 0.0,
                 f"sensitivity at specificity >= {min_spec:g}"):
        return math.nan
    return float(_sens_at_spec(cp, cn, float(min_spec))[0])


@in_row_chunks
def spec_at_sens_block(blk: TableBlock, min_sens: float = 0.9) -> np.ndarray:
    """Block form of :func:`spec_at_sens`: one value per table of the block, (B,).

    Examples
    --------
    >>> blk = TableBlock(np.array([0.1, 0.4, 0.9]), np.array([[0., 1, 1], [0, 2, 0]]),
    ...                  np.array([[1., 1, 0], [1, 1, 0]]))
    >>> spec_at_sens_block(blk, min_sens=1.0).tolist()
    [0.5, 0.5]
    """
    return _spec_at_sens(blk.cum_pos_desc, blk.cum_neg_desc, float(min_sens))


@measure(
    "spec_at_sens",
    kind="rank",
    statistic="scores",
    aliases=("specificity_at_sensitivity", "tnr_at_sens"),
    main_param="min_sens",
    when_named=True,
    source="pROC coords / torchmetrics SpecificityAtSensitivity: max TN/N with TP/P >= s",
    block=spec_at_sens_block,
)
def spec_at_sens(t: ScoreTable, min_sens: float = 0.9) -> float:
    """Specificity at sensitivity ≥ s: the largest TN/N over the thresholds whose TP/P is
    at least ``min_sens`` (``spec_at_sens@0.9``).

    Predicting everything positive has sensitivity 1, so a value always exists when both
    classes are present. NaN (with a warning) without positives or negatives.

    Examples
    --------
    >>> import measurelab as ml
    >>> y, s = [0, 0, 0, 0, 1, 0, 1, 1, 0, 1], [.1, .2, .3, .4, .5, .6, .7, .8, .9, .95]
    >>> ml.metrics.spec_at_sens(y, s, min_sens=1.0)   # above 0.4: 4 of 6 negatives below
    0.6666666666666666
    """
    cp, cn = _cum_table(t)
    p, n = _totals(cp, cn)
    if not _need(float(p[0]) if p.size else 0.0, float(n[0]) if n.size else 0.0,
                 f"specificity at sensitivity >= {min_sens:g}"):
        return math.nan
    return float(_spec_at_sens(cp, cn, float(min_sens))[0])


# -------------------------------------------------------- precision and recall
def _precision(cp: np.ndarray, cn: np.ndarray) -> np.ndarray:
    """TP/(TP + FP) at every threshold, NaN (0/0) where nothing is predicted positive."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = cp + cn
        return np.divide(cp, out, out=out)


def _prec_at_recall(cp: np.ndarray, cn: np.ndarray, r_min: float) -> np.ndarray:
    """The largest precision over the thresholds with TP/P ≥ r (a suffix of them: recall
    is non-decreasing), per row; NaN without positives."""
    p, _ = _totals(cp, cn)
    b, r = cp.shape
    first = _leading_true(lambda rows, i: cp[rows, i] / p[rows] < r_min, b, r)
    if b == 1:  # one table: the suffix alone
        f = int(first[0])
        prec = _precision(cp[:, f:], cn[:, f:])
        best = np.fmax.reduce(prec, axis=1) if prec.shape[1] else np.full(1, np.nan)
    else:
        prec = _precision(cp, cn)
        prec[np.arange(r)[None, :] < first[:, None]] = np.nan
        best = np.fmax.reduce(prec, axis=1) if r else np.full(b, np.nan)
    return np.where(p > 0, best, np.nan)


def _recall_at_prec(cp: np.ndarray, cn: np.ndarray, p_min: float) -> np.ndarray:
    """The largest TP/P over the thresholds whose precision is at least p (the last such
    threshold: recall is non-decreasing), per row; NaN without positives or when no
    threshold reaches p."""
    p, _ = _totals(cp, cn)
    b, r = cp.shape
    if r == 0:
        return np.full(b, np.nan)
    with np.errstate(invalid="ignore"):
        ok = _precision(cp, cn) >= p_min  # NaN (nothing predicted positive) is False
    if b == 1:  # one table: numpy's argmax stops at the first True of a 1-d vector
        last = np.array([r - 1 - int(np.argmax(ok[0, ::-1]))])
    else:
        last = r - 1 - np.argmax(ok[:, ::-1], axis=1)
    any_ok = ok[np.arange(b), last]
    with np.errstate(divide="ignore", invalid="ignore"):
        rec = _at(cp, last) / p
    return np.where((p > 0) & any_ok, rec, np.nan)


@in_row_chunks
def prec_at_recall_block(blk: TableBlock, min_recall: float = 0.9) -> np.ndarray:
    """Block form of :func:`prec_at_recall`: one value per table of the block, (B,).

    Examples
    --------
    >>> blk = TableBlock(np.array([0.1, 0.4, 0.9]), np.array([[0., 1, 1], [0, 2, 0]]),
    ...                  np.array([[1., 1, 0], [1, 1, 0]]))
    >>> prec_at_recall_block(blk, min_recall=1.0).tolist()
    [0.6666666666666666, 0.6666666666666666]
    """
    return _prec_at_recall(blk.cum_pos_desc, blk.cum_neg_desc, float(min_recall))


@measure(
    "prec_at_recall",
    kind="rank",
    statistic="scores",
    aliases=("precision_at_recall", "precision_at_fixed_recall"),
    main_param="min_recall",
    when_named=True,
    source="torchmetrics PrecisionAtFixedRecall: max TP/(TP+FP) with TP/P >= r",
    block=prec_at_recall_block,
)
def prec_at_recall(t: ScoreTable, min_recall: float = 0.9) -> float:
    """Precision at recall ≥ r: the largest TP/(TP + FP) over the thresholds whose recall
    is at least ``min_recall`` (``prec_at_recall@0.8``).

    Predicting everything positive has recall 1, so a value always exists with positives;
    NaN (with a warning) without them.

    Examples
    --------
    >>> import measurelab as ml
    >>> y, s = [0, 0, 0, 0, 1, 0, 1, 1, 0, 1], [.1, .2, .3, .4, .5, .6, .7, .8, .9, .95]
    >>> ml.metrics.prec_at_recall(y, s, min_recall=0.75)   # the top four: 3 of 4
    0.75
    """
    cp, cn = _cum_table(t)
    p, _n = _totals(cp, cn)
    if not _need(float(p[0]) if p.size else 0.0, 0.0,
                 f"precision at recall >= {min_recall:g}", neg=False):
        return math.nan
    return float(_prec_at_recall(cp, cn, float(min_recall))[0])


@in_row_chunks
def recall_at_prec_block(blk: TableBlock, min_prec: float = 0.9) -> np.ndarray:
    """Block form of :func:`recall_at_prec`: one value per table of the block, (B,).

    Examples
    --------
    >>> blk = TableBlock(np.array([0.1, 0.4, 0.9]), np.array([[0., 1, 1], [0, 2, 0]]),
    ...                  np.array([[1., 1, 0], [1, 1, 0]]))
    >>> recall_at_prec_block(blk, min_prec=0.9).tolist()   # the second: no such threshold
    [0.5, nan]
    """
    return _recall_at_prec(blk.cum_pos_desc, blk.cum_neg_desc, float(min_prec))


@measure(
    "recall_at_prec",
    kind="rank",
    statistic="scores",
    aliases=("recall_at_precision", "sens_at_prec"),
    main_param="min_prec",
    when_named=True,
    source="max TP/P over the thresholds with TP/(TP+FP) >= p (NaN when none reaches p)",
    block=recall_at_prec_block,
)
def recall_at_prec(t: ScoreTable, min_prec: float = 0.9) -> float:
    """Recall at precision ≥ p: the largest TP/P over the thresholds whose precision is at
    least ``min_prec`` (``recall_at_prec@0.9``).

    Precision need not reach p at any threshold (the top-scored case a negative and
    p = 1): then NaN with a warning naming the largest precision there is; NaN (with a
    warning) without positives.

    Examples
    --------
    >>> import measurelab as ml
    >>> y, s = [0, 0, 0, 0, 1, 0, 1, 1, 0, 1], [.1, .2, .3, .4, .5, .6, .7, .8, .9, .95]
    >>> ml.metrics.recall_at_prec(y, s, min_prec=0.7)   # top four 3/4; top six 4/6 < 0.7
    0.75
    """
    cp, cn = _cum_table(t)
    p, _ = _totals(cp, cn)
    name = f"recall at precision >= {min_prec:g}"
    if not _need(float(p[0]) if p.size else 0.0, 0.0, name, neg=False):
        return math.nan
    v = float(_recall_at_prec(cp, cn, float(min_prec))[0])
    if math.isnan(v):
        best = float(np.nanmax(_precision(cp, cn)))
        warn_undefined(f"{name} is undefined: no threshold reaches precision "
                       f"{min_prec:g} (the largest is {best:.6g}); returning NaN")
    return v


# ---------------------------------------------------------------- partial AUC
def _pauc(cp: np.ndarray, cn: np.ndarray, pd: np.ndarray, nd: np.ndarray,
          f: float) -> np.ndarray:
    """The area under the ROC curve over FPR in [0, f], per row (NaN without both
    classes). ``pd``, ``nd``: positives and negatives per row in decreasing score order.

    In case units the rows whose FPR stays within f add their trapezoid
    neg·(TP_before + pos/2) (a tie group is a diagonal, as AUC's ½); the row that crosses
    FPR = f adds the trapezoid up to it, the curve interpolated linearly inside the row."""
    p, n = _totals(cp, cn)
    b, r = cp.shape
    k = _leading_true(lambda rows, i: cn[rows, i] / n[rows] <= f, b, r)
    kk = int(k.max(initial=0))  # the rows below FPR f: a prefix of at most kk of each
    if b == 1:
        full = np.einsum("ij,ij->i", nd[:, :kk], cp[:, :kk] - 0.5 * pd[:, :kk])
    else:
        mask = np.arange(kk)[None, :] < k[:, None]
        full = np.einsum("ij,ij->i", np.where(mask, nd[:, :kk], 0.0),
                         cp[:, :kk] - 0.5 * pd[:, :kk])
    inside = k < r  # a row crosses FPR = f
    tp0 = np.where(k > 0, _at(cp, k - 1), 0.0)
    fp0 = np.where(k > 0, _at(cn, k - 1), 0.0)
    width = f * n - fp0
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = width / _at(nd, k)
        part = width * (tp0 + 0.5 * alpha * _at(pd, k))
        area = (full + np.where(inside, part, 0.0)) / (p * n)
    return np.where((p > 0) & (n > 0), area, np.nan)


def _mcclish(pa: np.ndarray, f: float) -> np.ndarray:
    """McClish's standardisation: (1 + (pauc − f²/2)/(f − f²/2))/2 (0.5 for the chance
    diagonal, 1 for a perfect ranking), scikit-learn's arithmetic."""
    lo = 0.5 * f**2
    return 0.5 * (1.0 + (pa - lo) / (f - lo))


def _pauc_of_block(blk: TableBlock, f: float) -> np.ndarray:
    """The partial areas of a block, computed once for ``pauc@f`` and ``spauc@f``."""
    key = ("operating_point.pauc", f)
    if key not in blk.memo:
        blk.memo[key] = _pauc(blk.cum_pos_desc, blk.cum_neg_desc, blk.pos_desc,
                              blk.neg_desc, f)
    return blk.memo[key]


def _pauc_of_table(t: ScoreTable, f: float, name: str) -> float:
    cp, cn = _cum_table(t)
    p, n = _totals(cp, cn)
    if not _need(float(p[0]) if p.size else 0.0, float(n[0]) if n.size else 0.0, name):
        return math.nan
    return float(_pauc(cp, cn, t.pos[::-1][None, :], t.neg[::-1][None, :], f)[0])


@in_row_chunks
def pauc_block(blk: TableBlock, max_fpr: float = 0.2) -> np.ndarray:
    """Block form of :func:`pauc`: one value per table of the block, (B,).

    Examples
    --------
    >>> blk = TableBlock(np.array([0.1, 0.4, 0.9]), np.array([[0., 1, 1], [0, 2, 0]]),
    ...                  np.array([[1., 1, 0], [1, 1, 0]]))
    >>> pauc_block(blk, max_fpr=0.5).tolist()
    [0.375, 0.25]
    """
    return _pauc_of_block(blk, float(max_fpr))


@measure(
    "pauc",
    kind="rank",
    statistic="scores",
    aliases=("partial_auc",),
    main_param="max_fpr",
    when_named=True,
    source="McClish 1989; pROC auc(partial.auc, focus = 'specificity'): ROC area, FPR in "
           "[0, f]",
    block=pauc_block,
)
def pauc(t: ScoreTable, max_fpr: float = 0.2) -> float:
    """Partial AUC: the area under the ROC curve over false-positive rates [0, f], in
    [0, f] (``pauc@0.1``).

    Tied scores are a diagonal segment of the curve (as AUC counts a tied pair ½); the
    curve is interpolated linearly at FPR = f. ``pauc@1`` is the AUC. NaN (with a
    warning) without positives or negatives. :func:`spauc` standardises it.

    Examples
    --------
    >>> import measurelab as ml
    >>> y, s = [0, 0, 0, 0, 1, 0, 1, 1, 0, 1], [.1, .2, .3, .4, .5, .6, .7, .8, .9, .95]
    >>> ml.metrics.pauc(y, s, max_fpr=0.5)   # (1·¼ + 1·¾ + 1·1) / 6
    0.3333333333333333
    """
    return _pauc_of_table(t, float(max_fpr), f"the partial AUC to FPR {max_fpr:g}")


@in_row_chunks
def spauc_block(blk: TableBlock, max_fpr: float = 0.2) -> np.ndarray:
    """Block form of :func:`spauc`: one value per table of the block, (B,).

    Examples
    --------
    >>> blk = TableBlock(np.array([0.1, 0.4, 0.9]), np.array([[0., 1, 1], [0, 2, 0]]),
    ...                  np.array([[1., 1, 0], [1, 1, 0]]))
    >>> spauc_block(blk, max_fpr=1.0).tolist()   # the AUC
    [0.875, 0.75]
    """
    f = float(max_fpr)
    return _mcclish(_pauc_of_block(blk, f), f)


@measure(
    "spauc",
    kind="rank",
    statistic="scores",
    aliases=("standardized_pauc", "mcclish_pauc"),
    main_param="max_fpr",
    when_named=True,
    source="McClish 1989 (standardised partial AUC) = scikit-learn roc_auc_score(max_fpr=f)"
           " = pROC partial.auc.correct",
    block=spauc_block,
)
def spauc(t: ScoreTable, max_fpr: float = 0.2) -> float:
    """Standardised partial AUC (McClish): (1 + (pauc − f²/2)/(f − f²/2))/2, 0.5 for the
    chance diagonal and 1 for a perfect ranking (``spauc@0.2``).

    Equals scikit-learn's ``roc_auc_score(y, s, max_fpr=f)`` and pROC's
    ``auc(roc, partial.auc = c(1, 1 − f), partial.auc.focus = "specificity",
    partial.auc.correct = TRUE)``; ``spauc@1`` is the AUC. A ranking worse than chance
    near FPR 0 goes below 0.5 (down to (1 − f)/(2 − f)). NaN (with a warning) without
    positives or negatives.

    Examples
    --------
    >>> import measurelab as ml
    >>> y, s = [0, 0, 0, 0, 1, 0, 1, 1, 0, 1], [.1, .2, .3, .4, .5, .6, .7, .8, .9, .95]
    >>> round(ml.metrics.spauc(y, s, max_fpr=0.5), 12)   # (1 + (⅓ − ⅛)/(½ − ⅛))/2 = 7/9
    0.777777777778
    """
    f = float(max_fpr)
    pa = _pauc_of_table(t, f, f"the standardised partial AUC to FPR {max_fpr:g}")
    return pa if math.isnan(pa) else float(_mcclish(np.array([pa]), f)[0])
