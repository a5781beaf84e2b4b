"""Multi-label measures: pure functions of a multi-label summary, with scikit-learn's
definitions and averages.

Every formula reads a :class:`LabelView` — what a multi-label summary
(:class:`~measurelab.stats.multilabel.MultiLabelStats`) says for ``B`` weightings of its
cases at once (one for a plain evaluation; a block of bootstrap replicates for an
interval) — and returns shape (B,) (one value) or (B, L) (``average=None``: one value per
label).

* **Per-label measures of the decisions** (``prec``, ``sens``, ``f1``, ``f_beta@b``,
  ``jaccard``, ``acc``): the binary formula (the registry's; jaccard = tp / (tp + fp + fn),
  scikit-learn's ``jaccard_score``, undefined when nothing is predicted or true) on each
  label's confusion counts (``None``), on the summed counts (``'micro'``), averaged over the labels
  where it is defined (``'macro'``; ``'weighted'`` by each label's weight of true cases), or
  on each case's predicted set against its true set, averaged over the cases where it is
  defined (``'samples'``).
* **Per-label rank measures** (``auc``, ``ap``): each label's score table (``None``,
  ``'macro'``, ``'weighted'``), the pooled table of every (case, label) pair (``'micro'``),
  or each case's ranking of its labels (``'samples'``).
* **Measures of the cases** (one number whatever ``average``): ``subset_acc`` (the share
  of cases whose predicted set is exactly the true set; scikit-learn's ``accuracy_score``),
  ``lrap``, ``coverage_error``, ``ranking_loss``; ``hamming_loss`` is the share of wrong
  (case, label) decisions, per label with ``average=None``.

Undefined values (a precision's or F's 0/0 gives 0, as the binary measure; a sensitivity,
a Jaccard index of two empty sets, an AUC or AP without a positive is NaN) are left out of
the averages, as scikit-learn's ``zero_division=np.nan`` leaves them out.

Examples
--------
>>> import numpy as np
>>> from measurelab.stats.multilabel import MultiLabelStats
>>> Y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]], dtype=bool)
>>> S = np.array([[.9, .2, .6], [.4, .7, .1], [.8, .3, .2], [.3, .1, .4]])
>>> st = MultiLabelStats.from_arrays(Y, S)
>>> compute_multilabel(st, ["hamming_loss", "subset_acc", "f1", "lrap"], average="micro")
{'hamming_loss': 0.16666666666666666, 'subset_acc': 0.5, 'f1': 0.8, 'lrap': 1.0}
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from measurelab._util.validation import short_repr, warn_undefined
from measurelab.exceptions import MeasurelabError, UndefinedMeasureWarning
from measurelab.measures._definition import Measure, average_rows, check_param
from measurelab.measures.base import registry
from measurelab.stats.bundle import BinaryStats
from measurelab.stats.confusion import BinaryCounts
from measurelab.stats.multilabel import RANK_TERMS, MultiLabelStats

#: the averages of multi-label measures (None: one value per label)
ML_AVERAGES: tuple[str, ...] = ("micro", "macro", "weighted", "samples")
#: the measures of :func:`evaluate` on multi-label input when none are named
DEFAULT_ML = ("hamming_loss", "subset_acc", "jaccard", "prec", "sens", "f1", "acc", "auc",
              "ap", "lrap", "coverage_error", "ranking_loss")
#: the default rows of a multi-label comparison (Holm over them)
HEADLINE_ML = ("subset_acc", "hamming_loss", "f1", "auc", "ap", "lrap")


def check_ml_average(average: Any) -> str | None:
    """``average`` for multi-label input: one of :data:`ML_AVERAGES` or None.

    Examples
    --------
    >>> check_ml_average("samples"), check_ml_average("none")
    ('samples', None)
    """
    if average is None or (isinstance(average, str) and average.lower() == "none"):
        return None
    if not isinstance(average, str) or average not in ML_AVERAGES:
        raise MeasurelabError(f"average={short_repr(average)} is not valid for multi-label "
                              f"input; expected one of {ML_AVERAGES} or None")
    return average


# ------------------------------------------------------------------------ the view
@dataclass
class LabelView:
    """What the formulas read, for ``B`` weightings of one summary's cases.

    counts : per-label confusion counts, arrays of shape (B, L)
    label_rank : ``label_rank(name)`` → per-label 'auc' or 'ap', (B, L)
    pooled_rank : ``pooled_rank(name)`` → 'auc' or 'ap' of the pooled table, (B,)
    set_keys, set_weight : the distinct decision keys (m, 3: tp, fp, fn of a case) and the
        weight of each, (B, m)
    rank_keys, rank_weight : the distinct ranking keys (m', 5: :data:`RANK_TERMS`), (B, m')
    n_labels : L
    """

    counts: BinaryCounts
    label_rank: Callable[[str], np.ndarray]
    pooled_rank: Callable[[str], np.ndarray]
    set_keys: np.ndarray
    set_weight: np.ndarray
    rank_keys: np.ndarray
    rank_weight: np.ndarray
    n_labels: int

    @classmethod
    def of(cls, st: MultiLabelStats) -> LabelView:
        """The view of one summary (B = 1)."""
        c = st.counts

        def label_rank(name: str) -> np.ndarray:
            m = registry.get(name)
            return np.array([[m.compute(BinaryStats(table=t)) for t in st.tables]],
                            dtype=np.float64)

        def pooled_rank(name: str) -> np.ndarray:
            return np.array([registry.get(name).compute(BinaryStats(table=st.pooled))])

        return cls(BinaryCounts(*(np.asarray(getattr(c, f))[None, :]
                                  for f in ("tp", "fp", "fn", "tn"))),
                   label_rank, pooled_rank, st.sets.keys, st.sets.weight[None, :],
                   st.ranks.keys, st.ranks.weight[None, :], st.n_labels)

    def total(self) -> np.ndarray:
        return self.set_weight.sum(axis=1)


def _formula_of(name: str) -> Callable[..., Any]:
    """The binary formula of a per-label measure, taking count arrays: the registry's
    (jaccard: :func:`_jaccard`)."""
    if name == "jaccard":
        return _jaccard
    m = registry.get(name)
    return lambda c, **kw: m.formula(c, **{**m.params, **kw})


def _jaccard(c: BinaryCounts) -> Any:
    """tp / (tp + fp + fn); NaN (undefined, left out of the averages) when there is
    neither a true nor a predicted positive — the binary ``jaccard``'s rule."""
    den = np.asarray(c.tp + c.fp + c.fn, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, c.tp / np.where(den > 0, den, 1.0), np.nan)


def _quiet(f: Callable[..., Any], *args: Any, **kw: Any) -> np.ndarray:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        return np.asarray(f(*args, **kw), dtype=np.float64)


def _warn_labels(name: str, values: np.ndarray, average: str | None) -> None:
    bad = int(np.count_nonzero(np.isnan(values[0]))) if values.size else 0
    if bad == 0:
        return
    if average is None:
        warn_undefined(f"{name} is undefined (NaN) for {bad} of {values.shape[1]} labels "
                       "(no true case of the label, or no false one)", 4)
    elif bad < values.shape[1]:
        warn_undefined(f"the {average} {name} averages the {values.shape[1] - bad} of "
                       f"{values.shape[1]} labels where {name} is defined", 4)


def _by_label(name: str, view: LabelView, average: str | None, warn: bool, **kw: Any
              ) -> np.ndarray:
    """A measure of each label's counts, combined as ``average`` says."""
    formula = _formula_of(name)
    c = view.counts
    if average == "micro":
        summed = BinaryCounts(*(np.asarray(getattr(c, f)).sum(axis=1)
                                for f in ("tp", "fp", "fn", "tn")))
        return _quiet(formula, summed, **kw)
    if average == "samples":
        k = view.set_keys
        L = view.n_labels
        per = BinaryCounts(k[:, 0], k[:, 1], k[:, 2], L - k.sum(axis=1))
        return _samples(_quiet(formula, per, **kw), view.set_weight)
    values = _quiet(formula, c, **kw)
    if warn:
        _warn_labels(name, values, average)
    if average is None:
        return values
    return average_rows(values, np.asarray(c.tp + c.fn, dtype=np.float64), average)


def _samples(values: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The weighted mean of per-key values over the keys where they are defined."""
    ok = ~np.isnan(values)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (weight @ np.where(ok, values, 0.0)) / (weight @ ok.astype(np.float64))


def _rank_by_label(name: str, view: LabelView, average: str | None, warn: bool) -> np.ndarray:
    if average == "micro":
        return np.asarray(view.pooled_rank(name), dtype=np.float64)
    if average == "samples":
        col = view.rank_keys[:, RANK_TERMS.index(name)]
        return _samples(np.where(col < 0, np.nan, col), view.rank_weight)
    values = _quiet(view.label_rank, name)
    if warn:
        _warn_labels(name, values, average)
    if average is None:
        return values
    c = view.counts
    return average_rows(values, np.asarray(c.tp + c.fn, dtype=np.float64), average)


def _case_mean(col: str, view: LabelView) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return (view.rank_weight @ view.rank_keys[:, RANK_TERMS.index(col)]
                ) / view.rank_weight.sum(axis=1)


# --------------------------------------------------------------------- formulas
def hamming_loss(view: LabelView, average: str | None = "macro", warn: bool = True
                 ) -> np.ndarray:
    """The share of wrong (case, label) decisions: Σ (fp + fn) / (L · N); per label its
    error rate with ``average=None`` (scikit-learn's ``hamming_loss``)."""
    c = view.counts
    wrong = np.asarray(c.fp + c.fn, dtype=np.float64)
    total = np.asarray(c.tp + c.fp + c.fn + c.tn, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if average is None:
            return wrong / total
        return wrong.sum(axis=1) / total.sum(axis=1)


def subset_acc(view: LabelView, average: str | None = "macro", warn: bool = True
               ) -> np.ndarray:
    """The share of cases whose predicted label set equals the true set (exact match;
    scikit-learn's ``accuracy_score`` of multi-label input)."""
    k = view.set_keys
    exact = ((k[:, 1] == 0) & (k[:, 2] == 0)).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (view.set_weight @ exact) / view.total()


def lrap(view: LabelView, average: str | None = "macro", warn: bool = True) -> np.ndarray:
    """Label-ranking average precision: per case the mean, over its true labels, of the
    share of true labels among the labels scored at least as high (1 for a case with no
    true label or no false one), averaged over the cases."""
    return _case_mean("lrap", view)


def coverage_error(view: LabelView, average: str | None = "macro", warn: bool = True
                   ) -> np.ndarray:
    """How far down its ranking of labels a case must go to cover every true label (ties
    count as above; 0 for a case with no true label), averaged over the cases."""
    return _case_mean("coverage", view)


def ranking_loss(view: LabelView, average: str | None = "macro", warn: bool = True
                 ) -> np.ndarray:
    """The share of (true, false) label pairs of a case ranked wrongly (the false label
    scored at least as high), averaged over the cases (0 for a case with no such pair)."""
    return _case_mean("ranking_loss", view)


@dataclass(frozen=True)
class _Spec:
    formula: Callable[..., np.ndarray]
    kind: str
    range: tuple[float, float]
    higher: bool
    source: str
    main_param: str | None = None
    params: tuple[tuple[str, float], ...] = ()


def jaccard(view: LabelView, average: str | None = "macro", warn: bool = True) -> np.ndarray:
    """tp / (tp + fp + fn) per label, combined by ``average`` (scikit-learn's
    ``jaccard_score``)."""
    return _by_label("jaccard", view, average, warn)


def prec(view: LabelView, average: str | None = "macro", warn: bool = True) -> np.ndarray:
    """Precision per label, combined by ``average``."""
    return _by_label("prec", view, average, warn)


def sens(view: LabelView, average: str | None = "macro", warn: bool = True) -> np.ndarray:
    """Sensitivity (recall) per label, combined by ``average``."""
    return _by_label("sens", view, average, warn)


def f1(view: LabelView, average: str | None = "macro", warn: bool = True) -> np.ndarray:
    """F1 per label, combined by ``average``."""
    return _by_label("f1", view, average, warn)


def f_beta(view: LabelView, average: str | None = "macro", warn: bool = True,
           beta: float = 1.0) -> np.ndarray:
    """F-beta per label, combined by ``average``."""
    return _by_label("f_beta", view, average, warn, beta=beta)


def acc(view: LabelView, average: str | None = "macro", warn: bool = True) -> np.ndarray:
    """Accuracy of each label's decisions, combined by ``average``."""
    return _by_label("acc", view, average, warn)


def auc(view: LabelView, average: str | None = "macro", warn: bool = True) -> np.ndarray:
    """AUC per label (its score table), pooled (micro) or per case (samples)."""
    return _rank_by_label("auc", view, average, warn)


def ap(view: LabelView, average: str | None = "macro", warn: bool = True) -> np.ndarray:
    """Average precision per label, pooled (micro) or per case (samples)."""
    return _rank_by_label("ap", view, average, warn)


SK = "scikit-learn"
#: the multi-label measures by name
MEASURES: dict[str, _Spec] = {
    "hamming_loss": _Spec(hamming_loss, "threshold", (0.0, 1.0), False, f"{SK} hamming_loss"),
    "subset_acc": _Spec(subset_acc, "threshold", (0.0, 1.0), True,
                        f"{SK} accuracy_score (multi-label: exact match)"),
    "jaccard": _Spec(jaccard, "threshold", (0.0, 1.0), True,
                     f"{SK} jaccard_score"),
    "prec": _Spec(prec, "threshold", (0.0, 1.0), True,
                  f"{SK} precision_score"),
    "sens": _Spec(sens, "threshold", (0.0, 1.0), True,
                  f"{SK} recall_score"),
    "f1": _Spec(f1, "threshold", (0.0, 1.0), True,
                f"{SK} f1_score"),
    "f_beta": _Spec(f_beta, "threshold", (0.0, 1.0),
                    True, f"{SK} fbeta_score", "beta", (("beta", 1.0),)),
    "acc": _Spec(acc, "threshold", (0.0, 1.0), True,
                 "accuracy of each label's decisions (micro: 1 − hamming_loss)"),
    "auc": _Spec(auc, "rank", (0.0, 1.0), True, f"{SK} roc_auc_score"),
    "ap": _Spec(ap, "rank", (0.0, 1.0), True,
                f"{SK} average_precision_score"),
    "lrap": _Spec(lrap, "rank", (0.0, 1.0), True,
                  f"{SK} label_ranking_average_precision_score"),
    "coverage_error": _Spec(coverage_error, "rank", (0.0, math.inf), False,
                            f"{SK} coverage_error"),
    "ranking_loss": _Spec(ranking_loss, "rank", (0.0, 1.0), False,
                          f"{SK} label_ranking_loss"),
}
#: other names of the multi-label measures
ALIASES = {"hamming": "hamming_loss", "exact_match": "subset_acc",
           "subset_accuracy": "subset_acc", "label_ranking_average_precision": "lrap",
           "coverage": "coverage_error", "label_ranking_loss": "ranking_loss",
           "jaccard_score": "jaccard"}
#: the measures that give one value per label with ``average=None``
PER_LABEL = ("hamming_loss", "jaccard", "prec", "sens", "f1", "f_beta", "acc", "auc", "ap")


def ml_measure(spec: str | Measure) -> Measure:
    """The multi-label measure named ``spec`` (a name, an alias — the registry's for the
    per-label measures, ``recall`` for ``sens`` — or ``f_beta@2``) as a
    :class:`~measurelab.measures.base.Measure` whose formula takes a :class:`LabelView` and
    ``average``.

    Examples
    --------
    >>> m = ml_measure("recall")
    >>> m.name, m.higher_is_better
    ('sens', True)
    >>> ml_measure("f_beta@2").params
    {'beta': 2.0}
    """
    if isinstance(spec, Measure):
        spec = spec.name
    if not isinstance(spec, str):
        raise MeasurelabError(f"a multi-label measure is a name such as 'f1', got "
                              f"{short_repr(spec)}")
    text = spec.strip()
    base, _, value = text.partition("@")
    name = ALIASES.get(base, base)
    if name not in MEASURES and base in registry:
        name = registry.get(base).name
    if name not in MEASURES:
        import difflib

        close = difflib.get_close_matches(base, list(MEASURES) + list(ALIASES), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise MeasurelabError(f"{short_repr(spec)} is not a multi-label measure{hint} "
                              f"(they are {', '.join(MEASURES)})")
    s = MEASURES[name]
    params = dict(s.params)
    shown = name
    if value:
        if s.main_param is None:
            raise MeasurelabError(f"{name} takes no parameter, so {text!r} is not valid")
        from measurelab._util.validation import parse_number

        v = parse_number(value.strip())
        if v is None:
            raise MeasurelabError(f"{text!r}: the value after '@' must be a number, got "
                                  f"{value!r}")
        check_param(name, s.main_param, v)
        params[s.main_param] = float(v)
        shown = f"{name}@{value.strip()}"
    return Measure(name=shown, formula=s.formula, kind=s.kind,  # type: ignore[arg-type]
                   statistic="stats", range=s.range, higher_is_better=s.higher,
                   source=s.source, params=params, main_param=s.main_param,
                   multiclass="ovr")


def studied_name(measure: Any) -> str:
    """The name a multi-label coverage study knows ``measure`` by: '' for a per-label row
    (``f1[cat]``), a parameter other than the default, or a name that is no multi-label
    measure.

    Examples
    --------
    >>> studied_name("recall"), studied_name("f1[cat]"), studied_name("f_beta@2")
    ('sens', '', '')
    """
    name = measure.name if isinstance(measure, Measure) else measure
    if not isinstance(name, str) or "[" in name or ":" in name:
        return ""
    try:
        m = ml_measure(name)
    except MeasurelabError:
        return ""
    base = m.name.partition("@")[0]
    if "@" in m.name and dict(MEASURES[base].params) != dict(m.params):
        return ""
    return base


def resolve_ml(measures: Iterable[str | Measure] | str | Measure | None) -> list[Measure]:
    """The multi-label measures named (default :data:`DEFAULT_ML`), without repeats.

    Examples
    --------
    >>> [m.name for m in resolve_ml(["f1", "recall", "f1"])]
    ['f1', 'sens']
    """
    if measures is None:
        measures = DEFAULT_ML
    if isinstance(measures, str | Measure):
        measures = [measures]
    out: list[Measure] = []
    for x in measures:
        m = ml_measure(x)
        if m.name not in [o.name for o in out]:
            out.append(m)
    return out


def ml_values(m: Measure, view: LabelView, average: str | None, warn: bool = False
              ) -> np.ndarray:
    """Measure ``m`` on every weighting of ``view``: (B,), or (B, L) per label."""
    out = m.formula(view, average=average, warn=warn, **m.params)
    return np.asarray(out, dtype=np.float64)


def compute_multilabel(st: MultiLabelStats, measures: Any = None, *,
                       average: str | None = "macro") -> dict[str, Any]:
    """``{name: value}`` of the multi-label measures on one summary: a float, or an array
    over the labels for a per-label measure with ``average=None``.

    Examples
    --------
    >>> Y = np.array([[1, 0], [0, 1], [1, 1]], dtype=bool)
    >>> st = MultiLabelStats.from_arrays(Y, np.array([[.9, .2], [.4, .7], [.6, .3]]))
    >>> compute_multilabel(st, ["sens"], average=None)["sens"].tolist()
    [1.0, 0.5]
    """
    average = check_ml_average(average)
    view = LabelView.of(st)
    out: dict[str, Any] = {}
    for m in resolve_ml(measures):
        v = ml_values(m, view, average, warn=True)
        if v.ndim == 2 and v.shape[1] == st.n_labels and average is None:
            out[m.name] = v[0]
            continue
        val = float(v[0])
        if math.isnan(val):
            warn_undefined(f"{m.name} is undefined (NaN) for this input", 3)
        out[m.name] = val
    return out
