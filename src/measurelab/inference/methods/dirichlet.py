"""The posterior of the confusion cells (:mod:`measurelab.inference.confusion_posterior`):
the default interval of every binary measure over confusion counts (F1, MCC, kappa,
balanced accuracy, likelihood ratios, precision and NPV, …) of one model, of a paired
difference (the 8 joint cells) and of an unpaired one (two independent posteriors),
except one model's accuracy and error (Wilson's interval) and a
paired difference of accuracy or error (McNemar with Tango's interval). Precision and NPV
divide by a count of decisions, which can be 0 with few flagged cases: their posterior
(in the random design a Beta(tp + ½, fp + ½), Jeffreys' interval) has an interval there,
Wilson's none; for sensitivity and specificity near 0 or 1 on a few dozen cases it keeps
its level where Wilson's dipped to 0.88. An
interval is given even where the sample's value is undefined (the population's is
not). Whole counts only (weighted cases keep the bootstrap).

The measures with a kink, |spec − sens| inside ``ri`` and ``op`` and |prec − spec|,
|npv − sens| inside ``avri`` and ``oarp``, have no interval that covers where the two
sides are equal in the population: their interval is withheld (NaN ends, the reason in
the method column) where the sample cannot tell the two sides apart (the posterior
interval of their difference holds 0).

Examples
--------
>>> from measurelab.inference.methods import Setting, choose, difference_form
>>> choose(Setting("f1")).name, choose(Setting("acc")).name, choose(Setting("spec")).name
('dirichlet-posterior', 'wilson', 'dirichlet-posterior')
>>> difference_form(Setting("sens", kind="paired"), "wilson").name
'dirichlet-posterior'
>>> choose(Setting("f1", whole_counts=False)).name
'bootstrap-bca'
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from measurelab._util.validation import warn_undefined
from measurelab.inference._base import Interval
from measurelab.inference.methods._registry import Form, IntervalMethod, Setting, register
from measurelab.stats.confusion import BinaryCounts

#: the method's name (the method column's text)
NAME = "dirichlet-posterior"
#: measures whose value has a kink |u − v|, with the pairs (u, v) of measures
KINKS: dict[str, tuple[tuple[str, str], ...]] = {
    "ri": (("spec", "sens"),), "op": (("spec", "sens"),),
    "avri": (("prec", "spec"), ("npv", "sens")), "oarp": (("prec", "spec"), ("npv", "sens")),
}


def _measure(name: str) -> Any:
    from measurelab.measures.base import registry

    try:
        return registry.resolve(name)[0]
    except Exception:
        return None


def applies(s: Setting) -> bool:
    """Whether ``s`` is a binary measure over whole confusion counts.

    Examples
    --------
    >>> applies(Setting("mcc")), applies(Setting("auc")), applies(Setting("mcc", multiclass=True))
    (True, False, False)
    """
    if s.multiclass or not s.whole_counts:
        return False
    m = _measure(s.measure)
    return m is not None and m.statistic == "counts" and m.kind == "threshold"


def rng_for(random_state: Any, *key: int) -> np.random.Generator:
    """The generator of one posterior: an integer seed or SeedSequence spawns the stream
    ``key`` (the same seed gives the same draws for the same model or pair, whatever else
    is computed); a Generator is used as it is; None is fresh entropy.

    Examples
    --------
    >>> a = rng_for(7, 0).random(); b = rng_for(7, 0).random(); c = rng_for(7, 1).random()
    >>> a == b, a == c
    (True, False)
    """
    from measurelab._util.validation import check_random_state

    rs = check_random_state(random_state)
    if rs is None:
        return np.random.default_rng()
    if isinstance(rs, np.random.SeedSequence):
        return np.random.default_rng(np.random.SeedSequence(
            rs.entropy, spawn_key=tuple(rs.spawn_key) + tuple(key)))
    if isinstance(rs, int | np.integer):
        return np.random.default_rng(np.random.SeedSequence(int(rs), spawn_key=tuple(key)))
    from measurelab._util.validation import make_rng

    return make_rng(rs)


def model_key(a: int) -> tuple[int, int]:
    """The stream of model ``a``'s posterior (``evaluate`` is model 0): the same seed gives
    one model the same draws in ``evaluate``, ``compare_classifiers`` and each side of
    ``compare_unpaired``, whatever else is compared.

    Examples
    --------
    >>> model_key(2), pair_key(0, 2)
    ((0, 2), (1, 0, 2))
    """
    return (0, int(a))


def pair_key(a: int, b: int) -> tuple[int, int, int]:
    """The stream of the joint posterior of models ``a`` and ``b`` (independent of how
    many models are compared)."""
    return (1, int(a), int(b))


def kink_reason(name: str, draws: Any, level: float) -> str | None:
    """Why ``name``'s interval is withheld on these posterior draws of the counts (the
    posterior interval of a kink's two sides holds 0), or None.

    Examples
    --------
    >>> from measurelab.stats.confusion import BinaryCounts
    >>> d = BinaryCounts(np.full(3, 8.0), np.full(3, 2.0), np.full(3, 2.0), np.full(3, 8.0))
    >>> kink_reason("ri", d, 0.95)
    'no interval: the sample cannot tell spec from sens (|spec − sens| has a kink at 0)'
    >>> kink_reason("f1", d, 0.95) is None
    True
    """
    from measurelab.inference.confusion_posterior import equal_tailed, measure_draws

    for u, v in KINKS.get(name.partition("@")[0], ()):
        d = measure_draws(_measure(u), draws) - measure_draws(_measure(v), draws)
        lo, hi = equal_tailed(d, level)
        if not (lo > 0 or hi < 0):
            return (f"no interval: the sample cannot tell {u} from {v} (|{u} − {v}| has "
                    "a kink at 0)")
    return None


def difference_row(m: Any, draws_a: Any, draws_b: Any, level: float,
                   names: tuple[str, str]) -> dict[str, Any]:
    """lo, hi, p and the interval text of measure ``m``'s difference a − b (its
    :meth:`~measurelab.measures.base.Measure.pair_statistic`) from posterior draws of the
    two models' counts (paired: joint draws; unpaired: independent ones); withheld, with a
    warning naming the model, where the sample cannot tell a kink's sides apart.

    Examples
    --------
    >>> from measurelab.measures.base import registry
    >>> from measurelab.stats.confusion import BinaryCounts
    >>> from measurelab.inference.confusion_posterior import single_draws
    >>> g = np.random.default_rng(0)
    >>> da = single_draws(BinaryCounts(30, 5, 10, 55), "random", g)
    >>> db = single_draws(BinaryCounts(20, 5, 20, 55), "random", g)
    >>> r = difference_row(registry.get("sens"), da, db, 0.95, ("a", "b"))
    >>> bool(r["lo"] > 0), r["p"] < 0.05, r["interval"]
    (True, True, 'dirichlet-posterior')
    """
    from measurelab.inference.confusion_posterior import measure_draws, tail_interval

    for draws, who in ((draws_a, names[0]), (draws_b, names[1])):
        reason = kink_reason(m.name, draws, level)
        if reason is not None:
            warn_undefined(f"no interval for the difference in {m.name} of {names[0]!r} and "
                           f"{names[1]!r}: {reason.removeprefix('no interval: ')} for "
                           f"{who!r}")
            return {"interval": reason}
    d = m.pair_statistic(measure_draws(m, draws_a), measure_draws(m, draws_b))
    lo_r, hi_r = m.range
    lo, hi, p = tail_interval(d, level, (lo_r - hi_r, hi_r - lo_r))
    return {"lo": lo, "hi": hi, "p": p, "interval": NAME}


def model_draws(counts: Any, design: str, random_state: Any, key: tuple[int, ...]) -> Any:
    """One model's posterior draws (:func:`~measurelab.inference.confusion_posterior.
    single_draws` on the stream ``key`` of ``random_state``): drawn once per model and
    integer seed, so every measure of the model, and an unpaired difference, read the same
    draws a fresh draw from that stream would give."""
    from measurelab.inference.confusion_posterior import single_draws

    if isinstance(random_state, int | np.integer) and not isinstance(random_state, bool):
        cells = tuple(float(x) for x in (counts.tp, counts.fp, counts.fn, counts.tn))
        return _seeded_draws(cells, design, int(random_state), key)
    return single_draws(counts, design, rng_for(random_state, *key))


@functools.lru_cache(maxsize=32)
def _seeded_draws(cells: tuple[float, ...], design: str, seed: int,
                  key: tuple[int, ...]) -> Any:
    from measurelab.inference.confusion_posterior import single_draws

    return single_draws(BinaryCounts(*cells), design, rng_for(seed, *key))


def _single(name: str, value: float, level: float, *, table: Any = None, counts: Any = None,
            what: str | None = None, design: str = "random", random_state: Any = None,
            key: tuple[int, ...] = (), **_: Any) -> Interval:
    """One model's interval: equal-tailed quantiles of the measure over the posterior."""
    from measurelab.inference.confusion_posterior import equal_tailed, measure_draws

    m = _measure(name)
    if counts.tp + counts.fn == 0 or counts.fp + counts.tn == 0:
        warn_undefined(f"the {NAME} interval of {what or name} is undefined: the sample "
                       "has one class")
        return Interval(value, math.nan, math.nan, NAME)
    draws = model_draws(counts, design, random_state, tuple(key))
    reason = kink_reason(name, draws, level)
    if reason is not None:
        warn_undefined(f"no interval for {what or name}: {reason.removeprefix('no interval: ')}")
        return Interval(value, math.nan, math.nan, reason)
    lo, hi = equal_tailed(measure_draws(m, draws), level, m.range)
    if not math.isnan(value):   # a structural zero (no case flagged) or an infinite ratio
        lo, hi = min(lo, value), max(hi, value)   # the prior pulls the posterior off
    return Interval(value, lo, hi, NAME)


def _default(s: Setting) -> bool:
    from measurelab.inference.methods.proportion import wilson_default

    return applies(s) and not (s.kind == "single" and wilson_default(s))


DIRICHLET = register(IntervalMethod(
    NAME, "posterior of the confusion cells under a Dirichlet(0.5) prior, equal-tailed "
    "(any binary measure of the counts; paired: the 8 joint cells; whole counts)",
    applies=applies, single=Form(NAME, _single), paired=Form(NAME), unpaired=Form(NAME),
    default=_default, rank=60))
