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
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.measures._definition import (
    AVERAGES,
    COSTS,
    DEFAULT_COSTS,
    KINDS,
    PARAM_DOMAINS,
    STATISTICS,
    WALK_OUTPUTS,
    Cost,
    Kind,
    Measure,
    Statistic,
    WalkOutput,
    average_rows,
    average_values,
    check_average,
    check_param,
    warn_left_out,
)
from measurelab.measures._lexicographic import build_two_level

__all__ = [
    "AVERAGES",
    "COSTS",
    "DEFAULT_COSTS",
    "KINDS",
    "PARAM_DOMAINS",
    "STATISTICS",
    "WALK_OUTPUTS",
    "Cost",
    "Kind",
    "Measure",
    "Registry",
    "Statistic",
    "WalkOutput",
    "average_rows",
    "average_values",
    "check_average",
    "check_param",
    "measure",
    "registry",
    "warn_left_out",
]


class Registry:
    """All measures by name and alias. Iterating yields :class:`Measure` objects."""

    def __init__(self) -> None:
        self._measures: dict[str, Measure] = {}
        self._aliases: dict[str, str] = {}

    # -- registering ----------------------------------------------------------
    def register(self, measure: Measure, *, replace: bool = False) -> Measure:
        """Add a measure; ``replace=True`` overrides a measure of the same name in its place."""
        from measurelab._util.validation import check_flag

        if not isinstance(measure, Measure):
            raise MeasurelabError(f"register takes a Measure, got {type(measure).__name__}")
        replace = check_flag(replace, "replace")
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
            # a replaced measure keeps its place in the listing order
            for a in self._measures[measure.name].aliases:
                self._aliases.pop(a, None)
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
        return isinstance(name, str) and (name in self._measures or name in self._aliases)

    def __iter__(self) -> Iterator[Measure]:
        return iter(self._measures.values())

    def __len__(self) -> int:
        return len(self._measures)

    def names(self, *, kind: str | None = None) -> list[str]:
        """Registered names, in registration order, optionally of one kind."""
        if kind is not None and not (isinstance(kind, str) and kind in KINDS):
            from measurelab._util.validation import short_repr

            raise MeasurelabError(f"kind={short_repr(kind)} is not valid; expected one of "
                                  f"{KINDS} or None")
        return [m.name for m in self if kind is None or m.kind == kind]

    def get(self, name: str | Measure) -> Measure:
        """The measure called ``name`` (or with that alias); suggests the closest name."""
        if isinstance(name, Measure):
            return name
        if not isinstance(name, str):
            from measurelab._util.validation import quote

            raise MeasurelabTypeError(
                f"a measure is a name such as 'auc' or a Measure, got {quote(name)}"
            )
        if name in self._measures:
            return self._measures[name]
        if name in self._aliases:
            return self._measures[self._aliases[name]]
        if isinstance(name, str) and (":" in name or "@" in name):
            return self.resolve(name)[0]
        choices = list(self._measures) + list(self._aliases)
        from measurelab._util.validation import quote

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
            parts = spec.split(":")
            if len(parts) != 2 or not all(parts):
                raise MeasurelabError(
                    f"two-level measure {spec!r} must be two names joined by ':', e.g. 'auc:acc'"
                )
            return build_two_level(self.resolve(parts[0])[0], self.resolve(parts[1])[0]), {}
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
        """The registry as a pandas DataFrame (one row per measure): its metadata, its
        ``cost`` (:data:`COSTS`) and whether ``evaluate(y, p)`` computes it when no
        measures are named (``default``: 'no' for a 'heavy' measure)."""
        import pandas as pd

        rows = [
            {
                "name": m.name,
                "kind": m.kind,
                "range": f"[{m.range[0]:g}, {m.range[1]:g}]",
                "direction": m.direction,
                "multiclass": "yes" if m.supports_multiclass else "no",
                "aliases": ", ".join(m.aliases),
                "source": m.source,
                "description": m.description,
                "cost": m.cost,
                "default": "yes" if m.in_default_set else "no",
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
    walk_output: WalkOutput | None = None,
    cost: Cost | None = None,
    target: float | None = None,
    when_named: bool = False,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: register ``formula`` as a measure and return the formula unchanged.

    Default parameters are read from the formula's keyword arguments; the other arguments
    are the fields of :class:`Measure` (``walk_output``: the compiled walk's sum the
    formula reads; ``cost``: what it costs, :data:`COSTS`, by default 'linear' over the
    counts and 'sort' over the score table — state 'heavy' for a measure that would slow
    the default set, which then computes it only when named; ``target``: the ideal value
    of a measure best at a value, ranked by the distance to it — give
    ``higher_is_better=False`` with it; ``when_named``: computed only when named, as a
    measure whose parameter is the user's question or a further reading of the confusion
    matrix outside the default set).

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
        if not callable(formula):
            raise MeasurelabError(f"@measure decorates a function, got "
                                  f"{type(formula).__name__}")
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
                range=_range(range),
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
                walk_output=walk_output,
                cost=cost,
                target=target,
                when_named=when_named,
            )
        )
        return formula

    return deco


def _range(value: Any) -> Any:
    """A measure's range as two floats when it is two real numbers; anything else as given,
    for :class:`Measure` to refuse."""
    import numbers

    if (isinstance(value, tuple | list) and len(value) == 2
            and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value)):
        return (float(value[0]), float(value[1]))
    return value
