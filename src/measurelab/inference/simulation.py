"""Simulated power of any measure's test, through the comparison engine itself.

:func:`simulate_power` draws test sets from a generating model
(:class:`~measurelab.inference.power.Binormal`, or
:class:`~measurelab.inference.power.Resample` of the user's own test set under a stated
effect), runs :func:`~measurelab.inference.compare_classifiers` on each — the intervals
and tests a user gets — and counts the rejections, with a progress bar.

Examples
--------
>>> from measurelab.inference.power import Binormal
>>> r = simulate_power(Binormal(auc=(0.9, 0.7), ncases=30, ncontrols=30), n_sim=50,
...                    progress=False)
>>> 0.5 < r.power <= 1.0
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from measurelab._util.validation import (
    UNSET,
    check_flag,
    check_int,
    check_real,
    random_state_of,
    short_repr,
)
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference.power import Binormal, Resample

__all__ = ["SimulatedPower", "simulate_power"]


@dataclass(frozen=True)
class SimulatedPower:
    """The answer of :func:`simulate_power`.

    Attributes
    ----------
    power : share of simulated test sets on which the test rejected
    se : its Monte Carlo standard error √(p(1 − p)/n_sim)
    lo, hi : Wilson 95% interval of the power
    rejections, n_sim : the counts
    measure : the measure tested
    effect : the difference under test on the generating population (measure(a) −
        measure(b), or measure − reference)
    alpha : the test's level (1 − ci)
    design : the generator, in words
    """

    power: float
    se: float
    lo: float
    hi: float
    rejections: int
    n_sim: int
    measure: str
    effect: float
    alpha: float
    design: str

    def __str__(self) -> str:
        return (f"simulated power {self.power:.3f} ± {self.se:.3f} (95% {self.lo:.3f}–"
                f"{self.hi:.3f}; {self.rejections} of {self.n_sim} test sets) for "
                f"{self.measure}, effect {self.effect:+.4g}, level {self.alpha:g}; "
                f"{self.design}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields.

        Examples
        --------
        >>> SimulatedPower(0.5, 0.05, 0.4, 0.6, 50, 100, "auc", 0.1, 0.05, "x").to_dict()[
        ...     "power"]
        0.5
        """
        from measurelab.jsonable import to_jsonable

        return to_jsonable(dict(self.__dict__))


def simulate_power(
    generator: Binormal | Resample,
    *,
    measure: str = "auc",
    n_sim: int = 1000,
    ci: float = 0.95,
    n_boot: int = 500,
    reference: float | None = None,
    random_state: Any = 0,
    seed: Any = UNSET,
    progress: bool | None = None,
) -> SimulatedPower:
    """Power of the comparison's own test of ``measure``, simulated: ``n_sim`` test sets
    drawn from ``generator``, each compared by :func:`~measurelab.inference.
    compare_classifiers` (the intervals and tests a user gets: DeLong for AUC, McNemar for
    accuracy, the paired bootstrap otherwise), the rejections counted.

    Parameters
    ----------
    generator : Binormal or Resample
        Two models: the test of their difference (rejected when its p < 1 − ci). One
        model: its interval against ``reference`` (rejected when the interval excludes it).
    measure : str, default 'auc'
        Any registry measure (``f1``, ``net_benefit@0.2``, ...).
    n_sim : int, default 1000
    ci : float, default 0.95
        The comparison's level; the test's α is 1 − ci.
    n_boot : int, default 500
        Bootstrap replicates of each simulated comparison (where a bootstrap is used).
    reference : float, optional
        One model: the value of the null hypothesis (default 0.5 for AUC).
    random_state, seed : seed of the simulation (``seed`` is its deprecated former name)
    progress : bool, optional
        A progress bar (default: on a terminal, after two seconds).

    Returns
    -------
    SimulatedPower
        The power with its Monte Carlo standard error and Wilson interval.

    Examples
    --------
    >>> from measurelab.inference.power import Binormal
    >>> g = Binormal(auc=(0.85, 0.7), ncases=40, ncontrols=40, rn=0.5, ra=0.5)
    >>> r = simulate_power(g, n_sim=200, progress=False)
    >>> from measurelab.inference.power import power_roc_test
    >>> a = power_roc_test(params=g.params(), ncases=40, ncontrols=40).power
    >>> abs(r.power - a) < 4 * r.se + 0.02
    True
    """
    from measurelab.inference.classifiers import compare_classifiers
    from measurelab.inference.intervals import proportion_interval
    from measurelab.measures.base import registry
    from measurelab.progress import progress_bar

    if not isinstance(generator, Binormal | Resample):
        raise MeasurelabTypeError(f"generator must be a Binormal or a Resample, got "
                                  f"{short_repr(generator)}")
    m = registry.resolve(measure)[0]
    n_sim = check_int(n_sim, "n_sim", minimum=1, maximum=10**7)
    from measurelab.inference.intervals import check_level

    level = check_level(ci, "ci")
    n_boot = check_int(n_boot, "n_boot", minimum=100, maximum=10**6)
    if progress is not None:
        check_flag(progress, "progress")
    two = len(generator.names) == 2
    if not two:
        if reference is None and m.name == "auc":
            reference = 0.5
        if reference is None:
            raise MeasurelabError(f"one model: give reference=, the value of {m.name} the "
                                  "test is against")
        reference = check_real(reference, "reference")
    rng = np.random.default_rng(random_state_of(random_state, seed, "simulate_power"))
    alpha = 1.0 - level
    spec = measure if isinstance(measure, str) else m.name
    effect = generator.population(m, reference)
    hits = 0
    import warnings

    with progress_bar(n_sim, desc="simulated power", unit="test set",
                      enabled=progress is not False, delay=2.0, leave=False) as bar:
        for _ in range(n_sim):
            y, models = (generator.draw(rng, m) if isinstance(generator, Resample)
                         else generator.draw(rng))
            seed_i = int(rng.integers(0, 2**63 - 1))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    cmp = compare_classifiers(y, models, measures=[m], ci=level,
                                              n_boot=n_boot, random_state=seed_i,
                                              progress=False, stratify=generator.stratify)
                    if two:
                        p = float(cmp.tests()["p"].iloc[0])
                        hits += bool(p < alpha)
                    else:
                        row = cmp.intervals().iloc[0]
                        hits += bool(reference < row["lo"] or reference > row["hi"])
                except MeasurelabError:
                    pass  # a test set the test cannot use (one class drawn): no rejection
            bar.update(1)
    p_hat = hits / n_sim
    lo, hi = proportion_interval(hits, n_sim, 0.95)
    return SimulatedPower(p_hat, math.sqrt(p_hat * (1 - p_hat) / n_sim), lo, hi, hits, n_sim,
                          spec, float(effect), alpha, generator.describe())
