"""Choosing the decision threshold by any measure, exactly, from the score table.

The score table's cumulative counts are the confusion counts at every distinct threshold,
so a threshold measure is evaluated at all of them in one vectorized pass (the formulas
are plain arithmetic and take arrays). The best value is then confirmed exactly: the
candidates within rounding distance of the float maximum are recomputed from
:class:`fractions.Fraction` counts (exact for every rational formula), so equal values
are recognised as equal and nearly equal ones are told apart.

Conventions
-----------
* Hard prediction: positive iff ``score > threshold`` (the library's convention). The
  candidates are every distinct score (the threshold is the *highest score predicted
  negative*) and ``-inf`` (everything positive); every partition of the ranking into a
  positive top and a negative rest that respects ties is one candidate.
* Ties: among thresholds with exactly the best value, the **largest** threshold is
  returned — the fewest positive predictions, the operating point
  ``thresholds[np.argmax(values)]`` picks on scikit-learn's decreasing threshold order.
* Direction from the registry: lower-is-better measures (``err``, ``lr_neg``, ...) are
  minimized; two-level ``f:g`` values compare lexicographically.
* Rules that are no registered measure (pROC's ``best.method``): ``closest_topleft``
  minimises (1 − sens)² + (1 − spec)², ``cost`` the expected cost of the errors per case,
  π·c_FN·(1 − sens) + (1 − π)·c_FP·(1 − spec) (pROC's ``best.weights``; π the given
  prevalence, else the sample's, when it is (c_FN·FN + c_FP·FP)/n).
* Constraints: ``min_sens`` and ``min_spec`` keep only the thresholds whose TP/P and TN/N
  reach them (the float rates compared with the given numbers).
* The threshold's uncertainty (``ci=``): a bootstrap of the cases in which every
  replicate chooses its own threshold by the same rule (pROC's ``ci.coords(x = "best")``),
  percentile intervals of the threshold, of the sensitivity and specificity there and of
  the optimised value.

The choice itself (the candidates, the exact confirmation of near-ties, the rules) is
:mod:`measurelab.measures.choice`, which a comparison's page also uses for each bootstrap
replicate's operating point.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from measurelab._util.validation import warn_undefined
from measurelab._util.words import num
from measurelab.exceptions import MeasurelabError
from measurelab.measures.base import Measure
from measurelab.measures.choice import RULES, best_point, rule_measure
from measurelab.measures.compute import check_total
from measurelab.pickling import versioned_pickle
from measurelab.stats.bundle import BinaryStats, MultiStats
from measurelab.stats.scoretable import ScoreTable

__all__ = ["RULES", "BestThreshold", "best_threshold"]


class _Choice(NamedTuple):
    threshold: float
    value: Any


@versioned_pickle
class BestThreshold(_Choice):
    """The chosen threshold (predict positive iff ``score > threshold``) and the value: a
    pair that unpacks as ``threshold, value``.

    Attributes
    ----------
    threshold, value : the pair
    measure : the rule's name (a registry spec, ``'closest_topleft'`` or ``'cost'``)
    sens, spec : TP/P and TN/N at the threshold (NaN where undefined)
    level : the level of :meth:`intervals` (None without ``ci``)
    """

    measure: str = ""
    sens: float = math.nan
    spec: float = math.nan
    level: float | None = None
    _table: Any = None

    def __str__(self) -> str:
        """The answer: the threshold, the value there and the rates.

        Examples
        --------
        >>> import measurelab as ml
        >>> print(ml.best_threshold([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9]))
        Best threshold by youden: predict positive when the score is above 0.4 (youden 0.6667; sensitivity 0.667, specificity 1).
        """  # noqa: E501
        rule = self.measure or "the rule"
        rates = ("" if self.sens != self.sens else
                 f"; sensitivity {num(self.sens, 3)}, specificity {num(self.spec, 3)}")
        return (f"Best threshold by {rule}: predict positive when the score is above "
                f"{num(self.threshold)} ({rule} {num(self.value)}{rates}).")

    def intervals(self) -> Any:
        """The bootstrap intervals of the choice: a DataFrame with columns ``quantity,
        value, lo, hi, method`` and one row each for ``threshold``, ``sens``, ``spec`` and
        the optimised measure (every replicate chose its own threshold).

        Examples
        --------
        >>> import measurelab as ml
        >>> b = ml.best_threshold([0, 0, 1, 1, 0, 1, 1, 0], [.1, .2, .3, .8, .4, .9, .7, .5],
        ...                       ci=0.9, n_boot=200)
        >>> b.intervals()["quantity"].tolist()
        ['threshold', 'sens', 'spec', 'youden']
        """
        if self._table is None:
            raise MeasurelabError("no intervals: this threshold was chosen without ci=; "
                                  "call best_threshold(..., ci=0.95)")
        return self._table.copy()


def _check_rate(value: Any, name: str) -> float | None:
    from measurelab._util.validation import check_real

    return None if value is None else check_real(value, name, low=0, high=1)


def best_threshold(
    y_true: Any,
    y_score: Any = None,
    measure: str | Measure = "youden",
    *,
    pos_label: Any = 1,
    sample_weight: Any = None,
    min_sens: float | None = None,
    min_spec: float | None = None,
    cost_fn: float | None = None,
    cost_fp: float | None = None,
    prevalence: float | None = None,
    ci: float | None = None,
    n_boot: int = 1000,
    random_state: Any = 0,
    stratify: bool = False,
    progress: bool | None = None,
) -> BestThreshold:
    """The threshold that optimizes a threshold measure (or a rule), exactly, over every
    distinct score; with ``ci``, how stable that choice is.

    Parameters
    ----------
    y_true : array-like of shape (n,), two labels; or a :class:`~measurelab.ScoreTable`
        (then omit ``y_score``)
    y_score : array-like of shape (n,)
    measure : registered name, alias, ``name@param``, two-level ``f:g`` spec, or a rule
        Any measure computed from the confusion counts (``youden``, ``acc``, ``f1``,
        ``f_beta@2``, ``mcc``, ``kappa``, ``oarp``, user-registered ones, ``auc:acc``, ...).
        Lower-is-better measures are minimized; a measure with a target value
        (``Measure.target``) is brought nearest to it. Rank and probability measures do
        not depend on the threshold and are refused. The rules (:data:`RULES`):
        ``'closest_topleft'`` minimises (1 − sens)² + (1 − spec)² (pROC's
        ``closest.topleft``); ``'cost'`` minimises the expected cost of the errors per case,
        π·``cost_fn``·(1 − sens) + (1 − π)·``cost_fp``·(1 − spec) (pROC's ``best.weights =
        c(cost_fn / cost_fp, π)``).
    pos_label : label of the positive class, default 1
    sample_weight : array-like of shape (n,), optional
    min_sens, min_spec : float in [0, 1], optional
        Search only the thresholds whose sensitivity (specificity) is at least this.
    cost_fn, cost_fp : float > 0, default 1 (``measure='cost'`` only)
        The cost of a false negative and of a false positive.
    prevalence : float in (0, 1), optional (``measure='cost'`` only)
        π, the share of positives where the model is used; default the sample's, when the
        cost is (cost_fn·FN + cost_fp·FP)/n.
    ci : float in (0, 1), optional
        Bootstrap the cases ``n_boot`` times, every replicate choosing its own threshold by
        the same rule and constraints; the result's :meth:`BestThreshold.intervals` gives
        percentile intervals of the threshold, of sens and spec there and of the optimised
        value (which, as an in-sample optimum, is optimistic).
    n_boot : int, default 1000
    random_state : int, Generator or None, default 0
    stratify : bool, default False
        Resample positives and negatives separately (class counts fixed by design; pROC's
        default ``stratified = TRUE``).
    progress : bool or None
        Progress of the bootstrap (None: on a terminal, after a few seconds).

    Returns
    -------
    BestThreshold
        ``(threshold, value)``: predicting positive iff ``score > threshold`` gives
        ``value`` (= ``evaluate(y_true, y_score, threshold=threshold)[measure]``). The
        threshold is a distinct score, or ``-inf`` when everything positive is best.
        Among equally good thresholds the largest is returned (see the module notes).
        ``.sens`` and ``.spec`` hold the rates there. NaN (with a warning) when the
        measure is undefined at every threshold or no threshold meets the constraints.

    Examples
    --------
    >>> import measurelab as ml
    >>> t, v = ml.best_threshold([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.7])
    >>> t, round(v, 4)         # Youden's J = 2/3 predicting positive above 0.5
    (0.5, 0.6667)
    >>> ml.best_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], "acc")   # 0.4 ties 0.1
    BestThreshold(threshold=0.4, value=0.75)
    >>> b = ml.best_threshold([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.7],
    ...                       min_sens=1.0)     # every positive found: above 0.1
    >>> b.threshold, b.sens, b.spec
    (0.1, 1.0, 0.3333333333333333)
    >>> ml.best_threshold([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.5, 0.7], "cost",
    ...                   cost_fn=5.0).threshold   # a missed positive costs 5 errors
    0.1
    """
    from measurelab._util.validation import check_random_state
    from measurelab.inference.intervals import check_run_options
    from measurelab.metrics.evaluation import build_stats

    m = rule_measure(measure, cost_fn, cost_fp, prevalence)
    min_sens = _check_rate(min_sens, "min_sens")
    min_spec = _check_rate(min_spec, "min_spec")
    level, n_boot, _, stratify = check_run_options(ci, n_boot, None, stratify, None, progress)
    random_state = check_random_state(random_state)
    if isinstance(y_true, ScoreTable):  # a table built elsewhere (merged chunks)
        if y_score is not None or sample_weight is not None:
            raise MeasurelabError(
                "a ScoreTable already holds the scores and weights; omit y_score and "
                "sample_weight"
            )
        stats: BinaryStats | MultiStats = BinaryStats(table=y_true)
    else:
        stats = build_stats(y_true, y_score, pos_label=pos_label,
                            sample_weight=sample_weight)
    if not isinstance(stats, BinaryStats):
        raise MeasurelabError(
            "best_threshold needs binary y_true and one score per example, got "
            f"{stats.counts.k} classes"
        )
    check_total(stats)  # every weight 0: nothing to choose a threshold from
    table = stats.table
    assert table is not None  # built from scores
    thr, sens, spec, value, why = best_point(table, m, min_sens, min_spec)
    if why == "undefined":
        warn_undefined(f"{m.name} is undefined (NaN) at every threshold; returning NaN", 2)
    elif why == "infeasible":
        want = " and ".join(f"{k} >= {v:g}" for k, v in (("sens", min_sens),
                                                          ("spec", min_spec))
                            if v is not None)
        warn_undefined(f"no threshold reaches {want}; returning NaN", 2)
    out = BestThreshold(thr, value)
    out.measure, out.sens, out.spec = m.name, sens, spec
    if level is not None:
        design = _design(table, y_true, y_score, pos_label, sample_weight, stratify)
        out.level = level
        out._table = _intervals(out, m, design, min_sens, min_spec, level, n_boot,
                                random_state, progress)
        out._table["method"] = _judged(out._table, m, min_sens, min_spec, level, table,
                                       stratify, sample_weight is not None)
    return out


def _design(table: ScoreTable, y_true: Any, y_score: Any, pos_label: Any,
            sample_weight: Any, stratify: bool) -> Any:
    """The cases the bootstrap resamples: the whole counts of the table, or the weighted
    cases as given."""
    from measurelab.inference.bootstrap import CaseDesign

    if sample_weight is None:
        if not table.is_integer:
            raise MeasurelabError("ci= resamples cases: a ScoreTable of real weights has no "
                                  "cases; pass y_true, y_score and sample_weight")
        return CaseDesign.from_table(table, stratify=stratify)
    from measurelab._util.validation import (
        as_1d,
        binarize,
        binary_score_vector,
        check_scores,
        check_weights,
    )

    y_raw = as_1d(y_true, "y_true")
    y = binarize(y_raw, pos_label)
    s = check_scores(binary_score_vector(y_score, y_raw, pos_label)[0])
    return CaseDesign.from_cases(y, [s], check_weights(sample_weight, y.size),
                                 stratify=stratify)


def _intervals(point: BestThreshold, m: Measure, design: Any, min_sens: float | None,
               min_spec: float | None, level: float, n_boot: int, random_state: Any,
               progress: bool | None) -> Any:
    """Percentile intervals of the threshold, sens, spec and value, every replicate
    choosing its own threshold among its own distinct scores."""
    import pandas as pd

    from measurelab.inference.bootstrap import percentile_interval, rng_of, run_blocks

    if not isinstance(point.value, int | float | np.integer | np.floating):
        raise MeasurelabError(f"ci= needs a measure of one number; {m.name} gives "
                              f"{type(point.value).__name__} values (use one level)")

    def evaluate(ext: np.ndarray) -> np.ndarray:
        blk = design.blocks(ext[:, :design.n], [(0.5, False)])[0].table
        res = np.full((blk.n_blocks, 1, 4), np.nan)
        for b in range(blk.n_blocks):
            keep = (blk.pos[b] + blk.neg[b]) > 0  # the replicate's own distinct scores
            t = ScoreTable(blk.scores[keep], blk.pos[b][keep], blk.neg[b][keep],
                           integer=blk.integer)
            if t.size == 0:
                continue
            thr, sens, spec, value, _ = best_point(t, m, min_sens, min_spec)
            res[b, 0] = (thr, sens, spec, float(value))
        return res

    run = run_blocks(design, evaluate, (1, 4), n_boot, rng_of(random_state),
                     jackknife=False, progress=progress, desc="best threshold")
    lo_m, hi_m = (float(v) for v in m.range)
    if not (math.isfinite(lo_m) and math.isfinite(hi_m)):
        lo_m, hi_m = -math.inf, math.inf
    bounds = [(-math.inf, math.inf), (0.0, 1.0), (0.0, 1.0), (lo_m, hi_m)]
    values = [point.threshold, point.sens, point.spec, float(point.value)]
    method = "bootstrap-percentile"
    rows = []
    for j, (name, v) in enumerate(zip(("threshold", "sens", "spec", m.name), values,
                                      strict=True)):
        lo, hi = ((math.nan, math.nan) if math.isnan(v)
                  else percentile_interval(run.reps[:, 0, j], level, bounds[j]))
        rows.append({"quantity": name, "value": v, "lo": lo, "hi": hi, "method": method})
    return pd.DataFrame(rows, columns=["quantity", "value", "lo", "hi", "method"])


def _judged(t: Any, m: Measure, min_sens: float | None, min_spec: float | None,
            level: float, table: ScoreTable, stratify: bool, weighted: bool) -> list[str]:
    """The method column of the intervals table, as every interval's: the coverage study's
    verdict on each row (named ``best_threshold.<rule>.<quantity>``; a search under
    ``min_sens``/``min_spec`` was never studied) in the test set's regime, and a row whose
    study fell short there withheld (NaN ends, the reason in the column) with a warning."""
    from measurelab.inference.evidence import CHOICE_PREFIX, design_name
    from measurelab.inference.withholding import judged, warn_withheld_by_evidence

    free = min_sens is None and min_spec is None
    small = round(min(table.n_pos, table.n_neg))
    texts, gone = [], []
    for i, r in enumerate(t.itertuples(index=False)):
        name = f"{CHOICE_PREFIX}{m.name}.{r.quantity}" if free else ""
        text, withheld = judged(str(r.method), name, bounds=(r.lo, r.hi), level=level,
                                smaller=small, design=design_name(stratify, weighted))
        texts.append(text)
        if withheld:
            t.loc[i, ["lo", "hi"]] = math.nan
            gone.append(f"the {r.quantity} of best_threshold")
    warn_withheld_by_evidence(gone)
    return texts
