"""A measure as data: :class:`Measure` (a formula over one statistic and its metadata) and
the checks of its parameters and of the multi-class ``average``.

The lowest module of the package: the registry (:mod:`.base`), the two-level composition
(:mod:`._lexicographic`) and every family module build on it, and it imports none of them.
Its names are public through :mod:`measurelab.measures.base`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from measurelab._util.validation import short_repr
from measurelab.exceptions import MeasurelabError
from measurelab.pickling import versioned_pickle

Kind = Literal["threshold", "rank", "probability", "composite"]
Statistic = Literal["counts", "scores", "stats"]
KINDS: tuple[str, ...] = ("threshold", "rank", "probability", "composite")
STATISTICS: tuple[str, ...] = ("counts", "scores", "stats")
AVERAGES: tuple[str, ...] = ("macro", "weighted", "micro")
WalkOutput = Literal["auc_num", "ap_sum", "apr_sum", "ap11_vals", "sq_sum", "tp_at_n_pos",
                     "tp_at_q", "ece"]
#: the outputs of the compiled walk over a large score table (``measures._fused``) that a
#: measure may read (:attr:`Measure.walk_output`)
WALK_OUTPUTS: tuple[str, ...] = ("auc_num", "ap_sum", "apr_sum", "ap11_vals", "sq_sum",
                                 "tp_at_n_pos", "tp_at_q", "ece")
Cost = Literal["linear", "sort", "heavy"]
#: what a measure costs on n cases (:attr:`Measure.cost`), cheapest first: 'linear' (from
#: the confusion counts, which one pass over the cases gives), 'sort' (from the sorted
#: score table: the one sort every score measure shares, then a fixed number of passes
#: over its rows, none holding more than a row-sized array), 'heavy' (more: work growing
#: faster than the rows, passes whose number grows with the data, or linear work whose
#: constant alone would cost the default set its budget on large input)
COSTS: tuple[str, ...] = ("linear", "sort", "heavy")
#: the costs the default set of ``evaluate(y, p)`` (``measures=None``) admits: a 'heavy'
#: measure is computed only when named, so that no measure slows the rest
DEFAULT_COSTS: tuple[str, ...] = ("linear", "sort")


def check_average(average: Any) -> str | None:
    """``average`` as used for multi-class input: 'macro', 'weighted', 'micro' or None
    (per-class values; the text 'none' means None).

    Examples
    --------
    >>> check_average("none") is None, check_average("micro")
    (True, 'micro')
    """
    if average is None or (isinstance(average, str) and average.lower() == "none"):
        return None
    if not isinstance(average, str) or average not in AVERAGES:
        raise MeasurelabError(
            f"average={short_repr(average)} is not valid; expected one of {AVERAGES} or None"
        )
    return average


def average_values(values: np.ndarray, support: np.ndarray, average: str | None) -> Any:
    """Combine per-class values: their mean ('macro'), support-weighted mean ('weighted'),
    or the values themselves, in label order (None).

    The macro and weighted averages are over the classes whose value is defined (not NaN):
    a class no case belongs to has no sensitivity, and the average is that of the classes
    that have one (as Hand–Till's M leaves out absent classes); NaN when no class has a
    value. The sums are ``Σ values[defined] / #defined`` (weighted: ``Σ v·w / Σ w`` over
    the defined classes), the arithmetic the bootstrap block repeats
    (:func:`average_rows`), so both give the same bits.

    Examples
    --------
    >>> average_values(np.array([1.0, 0.5]), np.array([1, 3]), "weighted")
    0.625
    >>> average_values(np.array([1.0, 0.5]), np.array([1, 3]), None).tolist()
    [1.0, 0.5]
    >>> average_values(np.array([1.0, np.nan, 0.5]), np.array([1, 0, 3]), "macro")
    0.75
    """
    if average is None:
        return np.asarray(values, dtype=np.float64)
    return float(average_rows(np.asarray(values, dtype=np.float64)[None, :],
                              np.asarray(support, dtype=np.float64)[None, :], average)[0])


def warn_left_out(name: str, values: Any, average: str | None) -> Any:
    """``values`` unchanged; warns when a macro or weighted average of them leaves out
    classes whose value is undefined (NaN) while others have one.

    Examples
    --------
    >>> warn_left_out("sens", np.array([0.5, 1.0]), "macro").tolist()
    [0.5, 1.0]
    """
    if average is None:
        return values
    v = np.asarray(values, dtype=np.float64)
    undefined = int(np.count_nonzero(np.isnan(v)))
    if 0 < undefined < v.size:
        from measurelab._util.validation import warn_undefined

        warn_undefined(f"the {average} {name} averages the {v.size - undefined} of {v.size} "
                       f"classes where {name} is defined (undefined for {undefined}: no case "
                       "of the class, or no case outside it)", 3)
    return values


def average_rows(values: np.ndarray, support: np.ndarray, average: str) -> np.ndarray:
    """Per-class values (B, k) combined row by row as :func:`average_values` combines one
    row ('macro' or 'weighted', over the classes whose value is defined), shape (B,).

    Examples
    --------
    >>> v = np.array([[1.0, 0.5, 0.0], [np.nan, 0.5, 1.0], [np.nan, np.nan, np.nan]])
    >>> average_rows(v, np.array([[1., 1, 2], [0, 1, 3], [0, 0, 0]]), "macro").tolist()
    [0.5, 0.75, nan]
    >>> average_rows(v, np.array([[1., 1, 2], [0, 1, 3], [0, 0, 0]]), "weighted").tolist()
    [0.375, 0.875, nan]
    """
    defined = ~np.isnan(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        if average == "weighted":
            w = np.where(defined, support, 0.0)
            return np.where(defined, values * w, 0.0).sum(axis=1) / w.sum(axis=1)
        return np.where(defined, values, 0.0).sum(axis=1) / defined.sum(axis=1)

#: what the main parameters of the built-in measures accept: (test, expected); a parameter
#: not listed here need only be a finite number when it is a number
PARAM_DOMAINS: dict[str, tuple[Callable[[float], bool], str]] = {
    "beta": (lambda v: v >= 0, "a non-negative number (beta = 1 gives F1)"),
    "base": (lambda v: v > 0 and v != 1, "a positive number other than 1 (2 gives bits)"),
    "q": (lambda v: 0 < v <= 1, "a fraction 0 < q <= 1"),
    "window": (lambda v: v >= 1 and float(v).is_integer(), "a positive integer"),
    "n_bins": (lambda v: 1 <= v <= 10**6 and float(v).is_integer(),
               "a positive integer, at most 1,000,000"),
    "k": (lambda v: v >= 1 and float(v).is_integer(), "a positive integer"),
    "t": (lambda v: 0 <= v < 1, "a threshold probability 0 <= t < 1"),
    # the operating point (measures/operating_point.py): the rate a threshold must reach
    "min_spec": (lambda v: 0 <= v <= 1, "a specificity 0 <= s <= 1"),
    "min_sens": (lambda v: 0 <= v <= 1, "a sensitivity 0 <= s <= 1"),
    "min_recall": (lambda v: 0 <= v <= 1, "a recall 0 <= r <= 1"),
    "min_prec": (lambda v: 0 <= v <= 1, "a precision 0 <= p <= 1"),
    "max_fpr": (lambda v: 0 < v <= 1, "a false-positive rate 0 < f <= 1"),
}


def check_param(measure: str, name: str, value: Any) -> None:
    """Raise unless ``value`` is valid for parameter ``name`` (finite, within its domain).

    Examples
    --------
    >>> check_param("mxe", "base", 2.0)
    >>> check_param("mxe", "base", 0.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: mxe: base=0.0 is not valid; expected a positive ...
    """
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        return  # not a number: the formula's own business
    v = float(value)
    if not np.isfinite(v):
        raise MeasurelabError(f"{measure}: {name}={v!r} is not valid; expected a finite number")
    domain = PARAM_DOMAINS.get(name)
    if domain is not None and not domain[0](v):
        raise MeasurelabError(f"{measure}: {name}={value!r} is not valid; expected {domain[1]}")


@versioned_pickle
@dataclass(frozen=True)
class Measure:
    """A registered measure: a formula over one statistic, and its metadata.

    Attributes
    ----------
    name : registry name (also the CLI's JSON key)
    formula : ``formula(statistic, **params) -> value``
    kind : 'threshold', 'rank', 'probability' or 'composite'
    statistic : which statistic the formula takes: 'counts', 'scores' or 'stats'
    range : (low, high) of the values, possibly infinite
    higher_is_better : direction (with a ``target``: False, a smaller distance to it is
        better; kept so that code reading the flag keeps working)
    target : the ideal value for a measure that is best at a value rather than at an end
        (Spiegelhalter's z: 0), or None. Every ranking goes through :meth:`badness`,
        :meth:`goodness` and :meth:`is_better`, which rank such a measure by its distance
        to the target; :attr:`direction` names the rule ('higher', 'lower', 'closer to 0')
    source : the paper (and equation) the definition follows
    aliases : other names
    multiclass : None (binary only), 'ovr' (average of one-vs-rest values: macro,
        weighted or micro) or a callable ``f(MultiStats, **params)``
    params : default keyword parameters of the formula
    main_param : the parameter set by ``name@value``
    needs_probabilities : the scores must lie in [0, 1]
    exact : the formula gives exact values on whole counts
    block : ``block(statistic_block, **params) -> ndarray (B,)``, the same formula over a
        block of ``B`` tables at once (:mod:`measurelab.stats.block`); None: a formula
        over counts is applied to the block's count arrays, any other is called per table
    walk_output : which sum of the compiled walk over a large score table the formula reads
        (one of :data:`WALK_OUTPUTS`), so the walk computes it with this measure's
        parameters: 'tp_at_q' (lift: the expected positives among the top q·N, q from
        ``params``), 'tp_at_n_pos' (BEP), 'apr_sum' (APR), 'ece' (``n_bins`` from
        ``params``), 'auc_num', 'ap_sum', 'ap11_vals', 'sq_sum' (always walked); None: none
    levels : ``(f, g)`` for the two-level measure f:g (compare by f, ties broken by g;
        :mod:`measurelab.measures.twolevel`); None for any other measure
    cost : what the measure costs on n cases, one of :data:`COSTS`: 'linear' (from the
        confusion counts), 'sort' (from the sorted score table with a fixed number of
        linear passes over its rows and at most row-sized arrays), 'heavy' (more, or a
        linear pass too dear for the default set's budget). None
        (the default) derives it from ``statistic``: 'linear' for counts, 'sort'
        otherwise (a two-level measure: the dearer of its two). The default set of
        ``evaluate(y, p)`` holds the measures whose cost is in :data:`DEFAULT_COSTS`; a
        'heavy' measure is computed only when named.
    when_named : the measure is computed only when named, whatever its cost: its main
        parameter is the user's question (the operating point: ``sens_at_spec@0.9`` asks
        for the specificity the user must keep), so a default value of it answers no one
        and is left out of the default set; or it is a further reading of the confusion
        matrix (the weighted kappas, Scott's π, Gwet's AC1, PyCM's class statistics) that
        the default set, and the intervals ``evaluate(ci=)`` adds to it, leave to those
        who ask
    """

    name: str
    formula: Callable[..., Any]
    kind: Kind
    statistic: Statistic
    range: tuple[float, float]
    higher_is_better: bool
    source: str = ""
    aliases: tuple[str, ...] = ()
    multiclass: str | Callable[..., Any] | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    main_param: str | None = None
    needs_probabilities: bool = False
    exact: bool = False
    block: Callable[..., Any] | None = None
    walk_output: WalkOutput | None = None
    levels: tuple[Measure, Measure] | None = field(default=None, repr=False)
    cost: Cost | None = None
    target: float | None = None
    when_named: bool = False

    def __post_init__(self) -> None:
        from measurelab._util.validation import check_flag

        if self.cost is None:  # a frozen field filled once, at construction
            object.__setattr__(self, "cost", _derived_cost(self))
        elif not (isinstance(self.cost, str) and self.cost in COSTS):
            raise MeasurelabError(f"cost={short_repr(self.cost)} is not valid; expected one "
                                  f"of {COSTS} or None")

        if not isinstance(self.name, str) or not self.name:
            raise MeasurelabError(f"name must be a non-empty text, got {short_repr(self.name)}")
        if not callable(self.formula):
            raise MeasurelabError(f"formula must be a function, got {short_repr(self.formula)}")
        if not isinstance(self.kind, str) or self.kind not in KINDS:
            raise MeasurelabError(f"kind={short_repr(self.kind)} is not valid; expected one "
                                  f"of {KINDS}")
        if not isinstance(self.statistic, str) or self.statistic not in STATISTICS:
            raise MeasurelabError(
                f"statistic={short_repr(self.statistic)} is not valid; expected one of "
                f"{STATISTICS}"
            )
        for flag in ("higher_is_better", "needs_probabilities", "exact", "when_named"):
            check_flag(getattr(self, flag), flag)
        if isinstance(self.aliases, str) or not all(isinstance(a, str) for a in self.aliases):
            raise MeasurelabError(f"aliases must be a tuple of names, got "
                                  f"{short_repr(self.aliases)}")
        ok = (isinstance(self.range, tuple | list) and len(self.range) == 2
              and all(isinstance(v, int | float | np.integer | np.floating)
                      and not isinstance(v, bool) and not np.isnan(v) for v in self.range))
        if not ok:
            raise MeasurelabError(f"range must be a pair of numbers (low, high), got "
                                  f"{short_repr(self.range)}")
        lo, hi = self.range
        if not lo <= hi:
            raise MeasurelabError(f"range={self.range!r} must satisfy low <= high")
        if self.target is not None:
            t = self.target
            if (isinstance(t, bool) or not isinstance(t, int | float | np.integer | np.floating)
                    or not np.isfinite(t)):
                raise MeasurelabError(f"target must be a finite number or None, got "
                                      f"{short_repr(t)}")
            if not lo <= t <= hi:
                raise MeasurelabError(f"target={t!r} lies outside range={self.range!r}")
            if self.higher_is_better:
                raise MeasurelabError(
                    f"{self.name}: a measure with target={t!r} ranks by the distance to it "
                    "(smaller is better); register it with higher_is_better=False")
            object.__setattr__(self, "target", float(t))
        if self.walk_output is not None and not (isinstance(self.walk_output, str)
                                                 and self.walk_output in WALK_OUTPUTS):
            raise MeasurelabError(
                f"walk_output={short_repr(self.walk_output)} is not valid; expected one of "
                f"{WALK_OUTPUTS} or None"
            )

    @property
    def in_default_set(self) -> bool:
        """Whether ``evaluate(y, p)`` computes this measure when no measures are named (its
        cost is one of :data:`DEFAULT_COSTS` and it is not :attr:`when_named`).

        Examples
        --------
        >>> from measurelab.measures.base import registry
        >>> registry.get("acc").cost, registry.get("ici").cost, registry.get("ici").in_default_set
        ('linear', 'heavy', False)
        >>> registry.get("pauc").cost, registry.get("pauc").in_default_set   # ask pauc@f
        ('sort', False)
        """
        return self.cost in DEFAULT_COSTS and not self.when_named

    @property
    def description(self) -> str:
        doc = inspect.getdoc(self.formula) or ""
        return doc.splitlines()[0] if doc else ""

    # -- ranking ----------------------------------------------------------------
    @property
    def direction(self) -> str:
        """Which values are better: 'higher', 'lower' or 'closer to T' (a target T).

        Examples
        --------
        >>> from measurelab.measures.base import registry
        >>> [registry.get(k).direction for k in ("auc", "brier", "spiegelhalter_z")]
        ['higher', 'lower', 'closer to 0']
        """
        if self.target is not None:
            return f"closer to {self.target:g}"
        return "higher" if self.higher_is_better else "lower"

    def badness(self, value: Any) -> Any:
        """A sortable form of ``value`` where smaller is better: −v (higher is better), v
        (lower is better) or |v − target|. Works on numbers, arrays and Fractions (exact:
        the target enters as the Fraction of its float); NaN stays NaN.

        Examples
        --------
        >>> from measurelab.measures.base import registry
        >>> z = registry.get("spiegelhalter_z")
        >>> z.badness(np.array([-100.0, 0.0, 2.5])).tolist()
        [100.0, 0.0, 2.5]
        >>> registry.get("auc").badness(0.75)
        -0.75
        """
        if self.target is not None:
            t: Any = self.target
            if isinstance(value, Fraction):
                t = Fraction(t)
            return abs(value - t)
        return -value if self.higher_is_better else value

    def goodness(self, value: Any) -> Any:
        """The higher-is-better form of ``value``: −:meth:`badness`.

        Examples
        --------
        >>> from measurelab.measures.base import registry
        >>> registry.get("spiegelhalter_z").goodness(-3.0), registry.get("brier").goodness(0.2)
        (-3.0, -0.2)
        """
        return -self.badness(value)

    def is_better(self, a: Any, b: Any) -> bool:
        """Whether value ``a`` is strictly better than ``b`` (NaN is never better, and
        nothing is better than itself). Decided exactly: floats are compared as the
        rationals they are, so a tie is a tie.

        Examples
        --------
        >>> from measurelab.measures.base import registry
        >>> z = registry.get("spiegelhalter_z")
        >>> z.is_better(0.0, -100.0), z.is_better(-100.0, 0.0), z.is_better(-1.5, 1.5)
        (True, False, False)
        """
        def exact(v: Any) -> Any:
            v = v.item() if isinstance(v, np.generic) else v
            if isinstance(v, float) and np.isfinite(v):
                return Fraction(v)
            return v

        ga, gb = self.badness(exact(a)), self.badness(exact(b))
        if ga != ga or gb != gb:  # NaN
            return False
        return bool(ga < gb)

    def pair_statistic(self, a: Any, b: Any) -> Any:
        """What a comparison of two models' values reports: ``a − b``, or for a measure
        with a target the difference of the distances ``|a − t| − |b − t|`` (negative:
        ``a`` is closer). NaN and ±inf follow numpy's arithmetic.

        Examples
        --------
        >>> from measurelab.measures.base import registry
        >>> registry.get("spiegelhalter_z").pair_statistic(-0.5, 3.0)
        -2.5
        >>> registry.get("auc").pair_statistic(0.8, 0.7) > 0
        True
        """
        with np.errstate(invalid="ignore"):
            if self.target is not None:
                return self.badness(a) - self.badness(b)
            return a - b

    def favours_first(self, statistic: Any) -> Any:
        """Whether a :meth:`pair_statistic` says the first model is the better one (False
        for 0 or NaN).

        Examples
        --------
        >>> from measurelab.measures.base import registry
        >>> registry.get("brier").favours_first(-0.01), registry.get("auc").favours_first(0.0)
        (True, False)
        """
        if self.target is None and self.higher_is_better:
            return statistic > 0
        return statistic < 0

    @property
    def supports_multiclass(self) -> bool:
        return self.multiclass is not None

    def with_params(self, **params: Any) -> Measure:
        """A copy whose default parameters are updated."""
        unknown = set(params) - set(self.params)
        if unknown:
            raise MeasurelabError(
                f"{self.name} has no parameter {sorted(unknown)[0]!r}; "
                f"its parameters are {sorted(self.params) or 'none'}"
            )
        for k, v in params.items():
            default = self.params[k]
            numeric = (int, float, np.integer, np.floating)
            if (isinstance(default, numeric) and not isinstance(default, bool)
                    and (not isinstance(v, numeric) or isinstance(v, bool))):
                from measurelab._util.validation import quote

                raise MeasurelabError(
                    f"{self.name}: {k} must be a number, got {quote(v)}"
                )
            check_param(self.name, k, v)
        return replace(self, params={**self.params, **params})

    # -- computing --------------------------------------------------------------
    def applies_to(self, stats: Any) -> bool:
        """Whether the bundle has what this measure needs."""
        from measurelab.stats.bundle import MultiStats

        if isinstance(stats, MultiStats):
            if self.multiclass is None:
                return False
            return self.statistic == "counts" or stats.has_scores
        return self.statistic == "counts" or stats.has_scores

    def compute(self, stats: Any, **params: Any) -> Any:
        """The measure's value on a statistics bundle (binary or multi-class)."""
        from measurelab.stats.bundle import MultiStats

        kw = {**self.params, **params}
        if isinstance(stats, MultiStats):
            return self._compute_multiclass(stats, kw)
        if self.statistic == "counts":
            return self.formula(stats.counts, **kw)
        if self.statistic == "scores":
            return self.formula(stats.require_table(self.name), **kw)
        return self.formula(stats, **kw)

    def compute_block(self, stats: Any, **params: Any) -> np.ndarray:
        """The measure on every table of a :class:`~measurelab.stats.block.BlockStats`:
        an array of shape (B,).

        The block formula when the measure has one; a formula over counts is tried on the
        block's count arrays (the built-in ones are written for arrays); otherwise, or when
        the formula does not take arrays (a user's ``if c.tp == 0``), one call per table.

        Examples
        --------
        >>> import numpy as np
        >>> from measurelab.measures.base import registry
        >>> from measurelab.stats.block import BlockStats, TableBlock
        >>> blk = TableBlock(np.array([0.2, 0.8]), np.array([[0., 1], [1, 1]]),
        ...                  np.array([[1., 0], [1, 0]]))
        >>> registry.get("acc").compute_block(BlockStats(blk)).tolist()
        [1.0, 0.6666666666666666]
        """
        kw = {**self.params, **params}
        n = stats.n_blocks
        if self.block is not None:
            arg = {"counts": lambda: stats.counts, "scores": lambda: stats.table,
                   "stats": lambda: stats}[self.statistic]()
            return np.asarray(self.block(arg, **kw), dtype=np.float64).reshape(n)
        if self.statistic == "counts":
            try:
                out = np.asarray(self.formula(stats.counts, **kw), dtype=np.float64)
            except (TypeError, ValueError):
                out = None
            if out is not None and out.shape == (n,):
                return out
        return np.array([float(self.compute(stats.stats(b), **params)) for b in range(n)],
                        dtype=np.float64)

    def _compute_multiclass(self, stats: Any, kw: dict[str, Any]) -> Any:
        average = check_average(kw.pop("average", "macro"))
        if self.multiclass is None:
            raise MeasurelabError(f"{self.name} is defined for binary tasks only")
        if callable(self.multiclass):
            return self.multiclass(stats, average=average, **kw)
        support = stats.counts.matrix.sum(axis=1)
        if self.statistic == "counts":
            ovr = stats.counts.one_vs_rest()
            if average == "micro":
                from measurelab.stats.confusion import BinaryCounts

                summed = BinaryCounts(*(float(np.sum(v)) for v in ovr.to_dict().values()))
                return self.formula(summed, **kw)
            values = np.asarray(self.formula(ovr, **kw), dtype=np.float64)
        else:
            table = stats.table
            if table is None:
                raise MeasurelabError(f"{self.name} needs class scores")
            if average == "micro":  # every (case, class) pair pooled, as scikit-learn
                return self.formula(table.micro_table(), **kw)
            values = np.array([self.formula(table.ovr_table(i), **kw) for i in range(table.k)])
        return average_values(warn_left_out(self.name, values, average), support, average)


def _derived_cost(m: Measure) -> str:
    """The cost of a measure that states none: a two-level measure's dearer level, else
    'linear' over the counts and 'sort' over the score table or the whole bundle."""
    if m.levels is not None:
        return max((lv.cost or _derived_cost(lv) for lv in m.levels), key=COSTS.index)
    return "linear" if m.statistic == "counts" else "sort"
