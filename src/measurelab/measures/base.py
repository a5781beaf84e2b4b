"""The measure registry: every measure with its metadata, found by name or alias.

A :class:`Measure` is a pure formula over one statistic (``"counts"``: confusion
counts; ``"scores"``: the score table; ``"stats"``: the whole bundle, for composites)
plus the metadata users and the comparison tools need: kind, range, direction,
multi-class support, source.

Names may carry the measure's main parameter after ``@`` (``f_beta@2``, ``lift@0.1``),
and two names joined by ``:`` form a two-level measure (``auc:acc``, Huang & Ling 2007).

Examples
--------
>>> from measurelab import registry
>>> m = registry.get("recall")          # aliases resolve to the measure
>>> m.name, m.kind, m.range, m.higher_is_better
('sens', 'threshold', (0.0, 1.0), True)
>>> registry.resolve("lift@0.1")[1]
{'q': 0.1}
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from measurelab.exceptions import MeasurelabError

Kind = Literal["threshold", "rank", "probability", "composite"]
Statistic = Literal["counts", "scores", "stats"]
KINDS: tuple[str, ...] = ("threshold", "rank", "probability", "composite")
STATISTICS: tuple[str, ...] = ("counts", "scores", "stats")
AVERAGES: tuple[str, ...] = ("macro", "weighted", "micro")


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
    if average not in AVERAGES:
        raise MeasurelabError(
            f"average={average!r} is not valid; expected one of {AVERAGES} or None"
        )
    return average


def average_values(values: np.ndarray, support: np.ndarray, average: str | None) -> Any:
    """Combine per-class values: their mean ('macro'), support-weighted mean ('weighted'),
    or the values themselves, in label order (None).

    Examples
    --------
    >>> average_values(np.array([1.0, 0.5]), np.array([1, 3]), "weighted")
    0.625
    >>> average_values(np.array([1.0, 0.5]), np.array([1, 3]), None).tolist()
    [1.0, 0.5]
    """
    if average is None:
        return np.asarray(values, dtype=np.float64)
    if average == "weighted":
        return float(np.average(values, weights=support))
    return float(np.mean(values))

#: what the main parameters of the built-in measures accept: (test, expected); a parameter
#: not listed here need only be a finite number when it is a number
PARAM_DOMAINS: dict[str, tuple[Callable[[float], bool], str]] = {
    "beta": (lambda v: v >= 0, "a non-negative number (beta = 1 gives F1)"),
    "base": (lambda v: v > 0 and v != 1, "a positive number other than 1 (2 gives bits)"),
    "q": (lambda v: 0 < v <= 1, "a fraction 0 < q <= 1"),
    "window": (lambda v: v >= 1 and float(v).is_integer(), "a positive integer"),
    "n_bins": (lambda v: v >= 1 and float(v).is_integer(), "a positive integer"),
    "k": (lambda v: v >= 1 and float(v).is_integer(), "a positive integer"),
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
    higher_is_better : direction
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

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise MeasurelabError(f"kind={self.kind!r} is not valid; expected one of {KINDS}")
        if self.statistic not in STATISTICS:
            raise MeasurelabError(
                f"statistic={self.statistic!r} is not valid; expected one of {STATISTICS}"
            )
        lo, hi = self.range
        if not lo <= hi:
            raise MeasurelabError(f"range={self.range!r} must satisfy low <= high")

    @property
    def description(self) -> str:
        doc = inspect.getdoc(self.formula) or ""
        return doc.splitlines()[0] if doc else ""

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
        return average_values(values, support, average)


class Registry:
    """All measures by name and alias. Iterating yields :class:`Measure` objects."""

    def __init__(self) -> None:
        self._measures: dict[str, Measure] = {}
        self._aliases: dict[str, str] = {}

    # -- registering ----------------------------------------------------------
    def register(self, measure: Measure, *, replace: bool = False) -> Measure:
        """Add a measure; ``replace=True`` overrides a measure of the same name."""
        taken = [n for n in (measure.name, *measure.aliases) if n in self and not replace]
        if taken:
            raise MeasurelabError(
                f"the name {taken[0]!r} is already registered; pass replace=True to override"
            )
        if ":" in measure.name or "@" in measure.name:
            raise MeasurelabError(
                f"measure name {measure.name!r} may not contain ':' or '@' "
                "(they build two-level measures and set parameters)"
            )
        if replace and measure.name in self._measures:
            self.unregister(measure.name)
        self._measures[measure.name] = measure
        for a in measure.aliases:
            self._aliases[a] = measure.name
        return measure

    def unregister(self, name: str) -> None:
        m = self.get(name)
        del self._measures[m.name]
        for a in m.aliases:
            self._aliases.pop(a, None)

    # -- looking up -----------------------------------------------------------
    def __contains__(self, name: object) -> bool:
        return name in self._measures or name in self._aliases

    def __iter__(self) -> Iterator[Measure]:
        return iter(self._measures.values())

    def __len__(self) -> int:
        return len(self._measures)

    def names(self, *, kind: str | None = None) -> list[str]:
        """Registered names, in registration order, optionally of one kind."""
        return [m.name for m in self if kind is None or m.kind == kind]

    def get(self, name: str) -> Measure:
        """The measure called ``name`` (or with that alias); suggests the closest name."""
        if isinstance(name, Measure):
            return name
        if name in self._measures:
            return self._measures[name]
        if name in self._aliases:
            return self._measures[self._aliases[name]]
        if isinstance(name, str) and (":" in name or "@" in name):
            return self.resolve(name)[0]
        choices = list(self._measures) + list(self._aliases)
        from measurelab._util.validation import quote

        if not isinstance(name, str):
            raise MeasurelabError(
                f"a measure is a name such as 'auc' or a Measure, got {quote(name)}"
            )
        close = difflib.get_close_matches(name[:100], choices, n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise MeasurelabError(
            f"unknown measure {quote(name)}{hint} (`measurelab measures` lists them all)"
        )

    def resolve(self, spec: str | Measure) -> tuple[Measure, dict[str, Any]]:
        """Measure and parameters for a spec such as ``'f_beta@2'`` or ``'auc:acc'``.

        The returned measure already carries the parameters; the dict repeats them.
        """
        if isinstance(spec, Measure):
            return spec, {}
        if not isinstance(spec, str):
            return self.get(spec), {}  # raises: not a name
        spec = spec.strip()
        if ":" in spec:
            from measurelab.measures.twolevel import two_level

            parts = spec.split(":")
            if len(parts) != 2 or not all(parts):
                raise MeasurelabError(
                    f"two-level measure {spec!r} must be two names joined by ':', e.g. 'auc:acc'"
                )
            return two_level(self.resolve(parts[0])[0], self.resolve(parts[1])[0]), {}
        if "@" in spec:
            base, _, value = spec.partition("@")
            m = self.get(base)
            if m.main_param is None:
                raise MeasurelabError(f"{m.name} takes no parameter, so {spec!r} is not valid")
            from measurelab._util.validation import parse_number, quote

            v = parse_number(value.strip())
            if v is None:
                raise MeasurelabError(
                    f"{quote(spec)}: the value after '@' must be a number, got {quote(value)}"
                )
            params = {m.main_param: v}
            return replace(m.with_params(**params), name=f"{m.name}@{value}"), params
        return self.get(spec), {}

    def to_frame(self) -> Any:
        """The registry as a pandas DataFrame (one row per measure)."""
        import pandas as pd

        rows = [
            {
                "name": m.name,
                "kind": m.kind,
                "range": f"[{m.range[0]:g}, {m.range[1]:g}]",
                "direction": "higher" if m.higher_is_better else "lower",
                "multiclass": "yes" if m.supports_multiclass else "no",
                "aliases": ", ".join(m.aliases),
                "source": m.source,
                "description": m.description,
            }
            for m in self
        ]
        return pd.DataFrame(rows).set_index("name")


registry = Registry()

def measure(
    name: str,
    *,
    kind: Kind,
    statistic: Statistic,
    range: tuple[float, float] = (0.0, 1.0),
    higher_is_better: bool = True,
    source: str = "",
    aliases: tuple[str, ...] = (),
    multiclass: str | Callable[..., Any] | None = None,
    main_param: str | None = None,
    needs_probabilities: bool | None = None,
    exact: bool = False,
    block: Callable[..., Any] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: register ``formula`` as a measure and return the formula unchanged.

    Default parameters are read from the formula's keyword arguments.

    Examples
    --------
    >>> from measurelab.measures.base import Registry, measure
    >>> import measurelab
    >>> @measure("half_acc", kind="threshold", statistic="counts", source="example")
    ... def half_acc(c):
    ...     '''Half the accuracy.'''
    ...     return (c.tp + c.tn) / c.total / 2
    >>> measurelab.evaluate([0, 1], [0.2, 0.9], measures=["half_acc"])["half_acc"]
    0.5
    >>> measurelab.registry.unregister("half_acc")
    """

    def deco(formula: Callable[..., Any]) -> Callable[..., Any]:
        sig = inspect.signature(formula)
        params = {
            p.name: p.default
            for p in list(sig.parameters.values())[1:]
            if p.default is not inspect.Parameter.empty
        }
        registry.register(
            Measure(
                name=name,
                formula=formula,
                kind=kind,
                statistic=statistic,
                range=(float(range[0]), float(range[1])),
                higher_is_better=higher_is_better,
                source=source,
                aliases=aliases,
                multiclass=multiclass,
                params=params,
                main_param=main_param,
                needs_probabilities=(kind == "probability")
                if needs_probabilities is None
                else needs_probabilities,
                exact=exact,
                block=block,
            )
        )
        return formula

    return deco
