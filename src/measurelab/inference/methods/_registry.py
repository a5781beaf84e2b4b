"""The interval-method registry: one :class:`IntervalMethod` per method, and the choices
every engine makes from it (the default of a measure, what ``ci_method`` may force, the
method of a paired and of an unpaired difference).

Examples
--------
>>> s = Setting("acc")
>>> [m.name for m in methods() if m.applies(s)][:2]
['wilson', 'clopper-pearson']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from measurelab._util.validation import short_repr
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError

#: the designs of the cases the shipped methods apply to: a random sample (cases resampled
#: jointly), fixed class counts (resampled by class), weighted cases
CASE_DESIGNS = frozenset({"random", "fixed", "weighted"})

Kind = Literal["single", "paired", "unpaired"]


@dataclass(frozen=True)
class Setting:
    """Where an interval is wanted: the measure's name (``ece@15``: a parameter), two or k
    classes, whole counts or weights, the design of the cases, the kind of value (one
    model, a paired or an unpaired difference), the cases in the smaller class and all
    the cases (None: not known; a method for few cases may be the default below a size, a
    large-sample one above a size).

    Examples
    --------
    >>> Setting("auc", whole_counts=False).design
    'random'
    """

    measure: str
    multiclass: bool = False
    whole_counts: bool = True
    design: str = "random"
    kind: Kind = "single"
    smaller: int | None = None
    n: int | None = None
    #: k classes: how the per-class values combine ('macro', 'weighted', 'micro', None);
    #: a per-class row (``f1[cat]``, ``average=None``) names its class in brackets
    average: str | None = "macro"


@dataclass(frozen=True)
class Form:
    """One form of a method (the interval of one model, of a paired or of an unpaired
    difference): ``name`` is the text of the table's ``method`` column, ``interval`` the
    text of a test row's ``interval`` column when it differs (McNemar's test with Tango's
    interval), ``compute`` the function (None: the engine computes it, e.g. the bootstrap
    in one block of replicates).

    Examples
    --------
    >>> Form("mcnemar", interval="tango-score").label
    'tango-score'
    """

    name: str
    compute: Callable[..., Any] | None = None
    interval: str | None = None

    @property
    def label(self) -> str:
        """The interval's method text."""
        return self.interval or self.name


def _never(_s: Setting) -> bool:
    return False


@dataclass(frozen=True)
class IntervalMethod:
    """One interval method.

    Attributes
    ----------
    name : str
        The name ``ci_method=`` and the method column use.
    description : str
        One line for the docs' table and the CLI's help.
    applies : callable
        ``applies(setting) -> bool``: the measures, classes, counts this method is valid
        for (``designs`` is checked besides).
    single, paired, unpaired : Form or None
        The interval of one model; of the difference of two models on the same cases; on
        two test sets. None: the method has no such form (the registry's default form of
        that kind is used, e.g. McNemar pairs Wilson).
    default : callable, optional
        ``default(setting) -> bool``: the method is the default where this holds (among
        defaults, the lowest ``rank`` wins).
    forceable : bool, default True
        Whether a user may force it with ``ci_method=`` (where it applies). A method that
        is not forceable and is the default of a setting keeps it whatever is forced (the
        calibration measures' own methods).
    replicates : bool, default False
        Whether its interval needs the bootstrap's replicates.
    designs : frozenset of str
        The designs of the cases it is valid for (``'random'``, ``'fixed'``,
        ``'weighted'``; a structured design such as ``'clustered'`` names its own).
    aliases : tuple of str
        Other names ``ci_method=`` accepts.
    rank : int, default 100
        Order among the defaults (lower first).

    Examples
    --------
    >>> m = get("wilson")
    >>> m.applies(Setting("sens")), m.applies(Setting("f1")), m.forceable
    (True, False, True)
    """

    name: str
    description: str
    applies: Callable[[Setting], bool]
    single: Form | None = None
    paired: Form | None = None
    unpaired: Form | None = None
    default: Callable[[Setting], bool] = _never
    forceable: bool = True
    replicates: bool = False
    designs: frozenset[str] = field(default=CASE_DESIGNS)
    aliases: tuple[str, ...] = ()
    rank: int = 100

    def valid_for(self, setting: Setting) -> bool:
        """Whether the method applies to ``setting`` (its design included)."""
        return setting.design in self.designs and bool(self.applies(setting))

    def default_for(self, setting: Setting) -> bool:
        """Whether the method is a default of ``setting``."""
        return setting.design in self.designs and bool(self.default(setting))


_REGISTRY: dict[str, IntervalMethod] = {}
_ALIASES: dict[str, str] = {}


def register(method: IntervalMethod) -> IntervalMethod:
    """Add ``method`` to the registry (its name and aliases must be new); returns it.

    Examples
    --------
    >>> register(get("wilson"))
    Traceback (most recent call last):
    ...
    measurelab.exceptions.MeasurelabError: interval method 'wilson' is already registered
    """
    if not isinstance(method, IntervalMethod):
        raise MeasurelabError(f"register takes an IntervalMethod, got "
                              f"{short_repr(method)}")
    for n in (method.name, *method.aliases):
        if n in _REGISTRY or n in _ALIASES:
            raise MeasurelabError(f"interval method {n!r} is already registered")
    _REGISTRY[method.name] = method
    for a in method.aliases:
        _ALIASES[a] = method.name
    return method


def methods() -> tuple[IntervalMethod, ...]:
    """Every registered method, in the order of registration.

    Examples
    --------
    >>> "bootstrap-bca" in [m.name for m in methods()]
    True
    """
    return tuple(_REGISTRY.values())


def get(name: str) -> IntervalMethod:
    """The method named ``name`` (or one of its aliases).

    Examples
    --------
    >>> get("delong-logit").paired.name
    'delong'
    """
    key = _ALIASES.get(name, name) if isinstance(name, str) else name
    if not isinstance(key, str) or key not in _REGISTRY:
        raise MeasurelabError(f"interval method {short_repr(name)} is not registered; "
                              f"expected one of {list(_REGISTRY)}")
    return _REGISTRY[key]


def forceable_names() -> tuple[str, ...]:
    """The names ``ci_method=`` (``--ci-method``) accepts, in the order of registration.

    Examples
    --------
    >>> forceable_names()[:3]
    ('wilson', 'clopper-pearson', 'delong-logit')
    """
    return tuple(m.name for m in _REGISTRY.values() if m.forceable)


def replicate_names() -> tuple[str, ...]:
    """The methods whose interval needs the bootstrap's replicates.

    Examples
    --------
    >>> replicate_names()
    ('bootstrap-se', 'bootstrap-bca', 'bootstrap-percentile')
    """
    return tuple(m.name for m in _REGISTRY.values() if m.replicates)


def check_ci_method(ci_method: Any) -> str | None:
    """``ci_method``'s registered name (an alias resolved), None for None, or a one-line
    error listing the methods a user may force.

    Examples
    --------
    >>> check_ci_method("delong"), check_ci_method(None)
    ('delong', None)
    """
    if ci_method is None:
        return None
    names = forceable_names()
    if not isinstance(ci_method, str):
        raise MeasurelabTypeError(f"ci_method={short_repr(ci_method)} is not valid; expected "
                                  f"one of {list(names)}")
    key = _ALIASES.get(ci_method, ci_method)
    if key not in names:
        raise MeasurelabError(f"ci_method={short_repr(ci_method)} is not valid; expected one "
                              f"of {list(names)}")
    return key


def choose(setting: Setting, ci_method: str | None = None) -> IntervalMethod:
    """The method of one value in ``setting``: a non-forceable default keeps its place (a
    calibration measure's own method); else the forced ``ci_method`` where it applies; else
    the default of lowest rank.

    Examples
    --------
    >>> choose(Setting("acc")).name, choose(Setting("acc"), "delong").name
    ('wilson', 'wilson')
    >>> choose(Setting("auc"), "bootstrap-percentile").name
    'bootstrap-percentile'
    """
    forced = check_ci_method(ci_method)
    ranked = sorted(_REGISTRY.values(), key=lambda m: m.rank)
    for m in ranked:
        if not m.forceable and m.default_for(setting):
            return m
    if forced is not None and _REGISTRY[forced].valid_for(setting):
        return _REGISTRY[forced]
    for m in ranked:
        if m.default_for(setting):
            return m
    raise MeasurelabError(f"no registered interval method applies to {setting.measure!r} in "
                          f"the {setting.design!r} design")


def _form(method: IntervalMethod, kind: Kind) -> Form | None:
    return method.paired if kind == "paired" else method.unpaired


def difference_form(setting: Setting, single: str) -> Form:
    """The form of a paired or unpaired difference (``setting.kind``) of a measure whose
    single-model method is ``single``: that method's own form of the kind, else the
    replicate-free default of that kind of lowest rank (McNemar for paired accuracy, the
    posterior of the confusion cells for the other counts measures), else the paired or
    unpaired bootstrap.

    Examples
    --------
    >>> difference_form(Setting("acc", kind="paired"), "wilson").name
    'mcnemar'
    >>> difference_form(Setting("acc", kind="unpaired"), "wilson").name
    'dirichlet-posterior'
    >>> difference_form(Setting("ap", kind="paired"), "bootstrap-bca").name
    'bootstrap'
    """
    kind = setting.kind
    if kind == "single":
        raise MeasurelabError("difference_form needs kind='paired' or 'unpaired'")
    own = _form(get(single), kind)
    if own is not None:
        return own
    for m in sorted(_REGISTRY.values(), key=lambda m: m.rank):
        f = _form(m, kind)
        if f is not None and m.default_for(setting) and not m.replicates:
            return f
    fallback = _form(get("bootstrap-bca"), kind)
    assert fallback is not None
    return fallback


def method_table() -> str:
    """The registry as a Markdown table (docs/METHODS.md shows it; a test keeps the two
    equal): name, what a user may force, the forms, replicates, description.

    Examples
    --------
    >>> method_table().splitlines()[0]
    '| method | `ci_method=` | one model | paired | unpaired | replicates | what it is |'
    """
    def form(f: Form | None) -> str:
        return "—" if f is None else f"`{f.name}`" + (
            f" (interval `{f.interval}`)" if f.interval else "")

    lines = ["| method | `ci_method=` | one model | paired | unpaired | replicates | "
             "what it is |", "|---|---|---|---|---|---|---|"]
    for m in _REGISTRY.values():
        lines.append(f"| `{m.name}` | {'yes' if m.forceable else 'no'} | {form(m.single)} | "
                     f"{form(m.paired)} | {form(m.unpaired)} | "
                     f"{'yes' if m.replicates else 'no'} | {m.description} |")
    return "\n".join(lines)
