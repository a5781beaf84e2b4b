"""Simulated power of any measure's test, through the comparison engine itself.

:func:`simulate_power` draws test sets from a generating model
(:class:`Binormal`, or
:class:`Resample` of the user's own test set under a stated
effect), runs :func:`~measurelab.inference.compare_classifiers` on each — the intervals
and tests a user gets — and counts the rejections, with a progress bar.

Examples
--------
>>> from measurelab.inference.classifiers.simulation import Binormal
>>> r = simulate_power(Binormal(auc=(0.9, 0.7), ncases=30, ncontrols=30), n_sim=50,
...                    progress=False)
>>> 0.5 < r.power <= 1.0
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from measurelab._util.validation import (
    check_flag,
    check_int,
    check_random_state,
    check_real,
    short_repr,
)
from measurelab.exceptions import MeasurelabError, MeasurelabTypeError
from measurelab.inference.power import _qnorm
from measurelab.pickling import versioned_pickle

__all__ = ["Binormal", "Resample", "SimulatedPower", "simulate_power"]

#: the least effective share of the test set's cases a tilted population keeps (Kish)
MIN_EFFECTIVE_SHARE = 0.5


@versioned_pickle
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
    progress: bool | None = None,
) -> SimulatedPower:
    """Power of the comparison's own test of ``measure``, simulated: ``n_sim`` test sets
    drawn from ``generator``, each compared by :func:`~measurelab.inference.
    compare_classifiers` (the intervals and tests a user gets: DeLong for AUC, McNemar for
    accuracy, the posterior of the confusion cells for the other measures of the counts,
    the paired bootstrap otherwise), the rejections counted; a test the evidence policy
    withholds in that regime (its study fell short there) counts as not rejecting, as it
    gives the user no verdict.

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
    random_state : seed of the simulation (int, numpy Generator or None)
    progress : bool, optional
        A progress bar (default: on a terminal, after two seconds).

    Returns
    -------
    SimulatedPower
        The power with its Monte Carlo standard error and Wilson interval.

    Examples
    --------
    >>> from measurelab.inference.classifiers.simulation import Binormal
    >>> g = Binormal(auc=(0.85, 0.7), ncases=40, ncontrols=40, rn=0.5, ra=0.5)
    >>> r = simulate_power(g, n_sim=200, progress=False)
    >>> from measurelab.inference.power import power_roc_test
    >>> a = power_roc_test(params=g.params(), ncases=40, ncontrols=40).power
    >>> abs(r.power - a) < 4 * r.se + 0.02
    True
    """
    from measurelab.inference.classifiers.compare import compare_classifiers
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
    rng = np.random.default_rng(check_random_state(random_state))
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


# ------------------------------------------------------ the generating models
@versioned_pickle
@dataclass(frozen=True)
class Binormal:
    """Test sets from binormal models: ``ncontrols`` negatives and ``ncases`` positives
    (fixed counts, as Obuchowski's design), scores of model k x_k with the controls'
    N(0, B_k²) and the cases' N(A_k, 1), so AUC_k = Φ(A_k / √(1 + B_k²)); two models'
    scores correlated ``rn`` among the controls and ``ra`` among the cases.

    Parameters
    ----------
    auc : one AUC or two (A_k = Φ⁻¹(AUC_k)·√(1 + B_k²))
    ncases, ncontrols : int
    b : B of each model (one value for all), default 1
    rn, ra : correlations of the two models' scores among controls and cases, default 0.5
    probabilities : bool, default True
        Report each model's calibrated probability of being a case given its score (b = 1
        only; a strictly increasing function of the score, so AUC is unchanged), so that
        threshold and probability measures apply; False: the raw scores.

    Examples
    --------
    >>> g = Binormal(auc=(0.8, 0.7), ncases=30, ncontrols=60)
    >>> y, s = g.draw(np.random.default_rng(0))
    >>> int(y.sum()), sorted(s), g.params()["delta"]
    (30, ['a', 'b'], 0.1)
    """

    auc: Any
    ncases: int
    ncontrols: int
    b: Any = 1.0
    rn: float = 0.5
    ra: float = 0.5
    probabilities: bool = True
    _a: tuple[float, ...] = field(default=(), init=False, repr=False)
    _b: tuple[float, ...] = field(default=(), init=False, repr=False)

    def __post_init__(self) -> None:
        aucs = (self.auc,) if isinstance(self.auc, int | float | np.integer | np.floating) \
            and not isinstance(self.auc, bool) else tuple(self.auc) \
            if isinstance(self.auc, tuple | list) else None
        if aucs is None or not 1 <= len(aucs) <= 2:
            raise MeasurelabError(f"auc must be one AUC or two, got {short_repr(self.auc)}")
        aucs = tuple(check_real(a, "auc", low=0.0, high=1.0, low_open=True, high_open=True)
                     for a in aucs)
        bs = (self.b,) * len(aucs) if isinstance(self.b, int | float | np.integer
                                                 | np.floating) else tuple(self.b)
        if len(bs) != len(aucs):
            raise MeasurelabError(f"b must be one value or one per model, got "
                                  f"{short_repr(self.b)}")
        bs = tuple(check_real(x, "b", low=0.0, low_open=True) for x in bs)
        check_int(self.ncases, "ncases", minimum=1, maximum=10**7)
        check_int(self.ncontrols, "ncontrols", minimum=1, maximum=10**7)
        check_real(self.rn, "rn", low=-1.0, high=1.0)
        check_real(self.ra, "ra", low=-1.0, high=1.0)
        check_flag(self.probabilities, "probabilities")
        if self.probabilities and any(x != 1.0 for x in bs):
            raise MeasurelabError("probabilities=True needs b = 1 (the probability given an "
                                  "unequal-variance binormal score is not monotone)")
        object.__setattr__(self, "auc", aucs if len(aucs) > 1 else aucs[0])
        object.__setattr__(self, "_a", tuple(_qnorm(a) * math.sqrt(1.0 + b * b)
                                             for a, b in zip(aucs, bs, strict=True)))
        object.__setattr__(self, "_b", bs)

    @property
    def names(self) -> list[str]:
        return ["a", "b"][: len(self._a)]

    def params(self) -> dict[str, float]:
        """pROC's parameters of the two curves (``A1, B1, A2, B2, rn, ra, delta``), for
        :func:`power_roc_test`'s analytic answer to the same design."""
        if len(self._a) != 2:
            raise MeasurelabError("params() describes two curves; this generator has one")
        a1, a2 = self._a
        b1, b2 = self._b
        aucs = self.auc
        return {"A1": a1, "B1": b1, "A2": a2, "B2": b2, "rn": float(self.rn),
                "ra": float(self.ra), "delta": round(aucs[0] - aucs[1], 15)}

    def population(self, measure: Any, reference: float | None) -> float:
        """The effect under test: AUC difference (or AUC − reference) by construction; for
        other measures estimated on one large draw."""
        from measurelab.measures.base import registry

        m = registry.resolve(measure)[0]
        if m.name == "auc":
            aucs = self.auc if isinstance(self.auc, tuple) else (self.auc,)
            return aucs[0] - aucs[1] if len(aucs) == 2 else aucs[0] - (reference or 0.5)
        return _large_sample_effect(self, m, reference)

    def draw(self, rng: np.random.Generator, scale: int = 1) -> tuple[np.ndarray,
                                                                     dict[str, np.ndarray]]:
        """One test set: labels (controls first) and each model's scores."""
        n0, n1 = self.ncontrols * scale, self.ncases * scale
        k = len(self._a)
        out = {}
        e0 = rng.standard_normal((n0, k))
        e1 = rng.standard_normal((n1, k))
        if k == 2:  # correlated pairs: x2 = r·e1 + √(1 − r²)·e2
            e0[:, 1] = self.rn * e0[:, 0] + math.sqrt(1 - self.rn**2) * e0[:, 1]
            e1[:, 1] = self.ra * e1[:, 0] + math.sqrt(1 - self.ra**2) * e1[:, 1]
        y = np.concatenate([np.zeros(n0, bool), np.ones(n1, bool)])
        logit_prior = math.log(n1 / n0)
        for j, name in enumerate(self.names):
            x = np.concatenate([e0[:, j] * self._b[j], self._a[j] + e1[:, j]])
            if self.probabilities:  # the posterior of a case at x (b = 1): logistic
                a = self._a[j]
                x = 1.0 / (1.0 + np.exp(-(a * x - a * a / 2.0 + logit_prior)))
            out[name] = x
        return y, out

    @property
    def stratify(self) -> bool:
        return True  # the class counts are fixed by design

    def describe(self) -> str:
        return (f"binormal, {self.ncases} cases and {self.ncontrols} controls, AUC "
                f"{self.auc}, b {self._b if len(self._b) > 1 else self._b[0]:}, "
                f"rn {self.rn:g}, ra {self.ra:g}")


@versioned_pickle
@dataclass(frozen=True)
class Resample:
    """Test sets resampled from the user's own: ``n`` cases drawn with replacement from the
    test set (its size by default), every model scored as there.

    Without ``effect`` the population resampled is the test set itself, so the effect
    under test is the difference observed. With ``effect`` (two models) the cases are
    drawn with weights that tilt the test set until the difference of the measure on it
    (computed exactly, with those weights) is ``effect``: exponential tilting, weight_i ∝
    exp(λ·c_i), c_i the jackknife influence of case i on the difference, λ solved by
    bisection (refused when the weights would leave an effective size below half the
    cases: the population would no longer be this test set). Both models keep their
    scores, so ``effect=0`` draws test sets from a population where they are equally good:
    the simulated power is then the test's size.

    Parameters
    ----------
    y_true, scores : the test set: labels and a mapping of one or two models' scores
    n : int, optional
        Cases per simulated test set (default: as many as the test set).
    effect : float, optional
        Two models: the difference measure(first) − measure(second) of the population.
    stratify : bool, default False
        Draw the classes apart, in the (tilted) population's proportions (fixed class
        counts; the simulated comparisons then resample by class too).
    pos_label : label of the positive class, default 1

    Examples
    --------
    >>> y = [0, 1, 0, 1, 1, 0, 0, 1, 0, 0] * 6
    >>> g = Resample(y, {"a": [.1, .8, .3, .6, .7, .2, .4, .9, .1, .3] * 6,
    ...                  "b": [.2, .7, .4, .5, .4, .3, .5, .6, .2, .2] * 6}, n=100)
    >>> yy, s = g.draw(np.random.default_rng(0))
    >>> yy.size, sorted(s)
    (100, ['a', 'b'])
    """

    y_true: Any
    scores: Any
    n: int | None = None
    effect: float | None = None
    stratify: bool = False
    pos_label: Any = 1
    # None until __post_init__ sets them (mypy versions differ in the error code)
    _y: np.ndarray = field(default=None,  # type: ignore[arg-type,assignment]
                           init=False, repr=False)
    _s: dict[str, np.ndarray] = field(default=None,  # type: ignore[arg-type,assignment]
                                      init=False, repr=False)
    _tilt: dict[str, Any] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        from measurelab._util.validation import as_1d, binarize, check_same_length, check_scores

        y_raw = as_1d(self.y_true, "y_true")
        y = binarize(y_raw, self.pos_label)
        if not isinstance(self.scores, Mapping) or not 1 <= len(self.scores) <= 2:
            raise MeasurelabError("scores must be a mapping of one or two models' scores, got "
                                  f"{short_repr(self.scores)}")
        s = {}
        for name, v in self.scores.items():
            what = f"scores of model {name!r}"
            a = as_1d(v.to_numpy() if hasattr(v, "to_numpy") else v, what)
            check_same_length(("y_true", y_raw), (what, a))
            s[str(name)] = check_scores(a, what)
        if y.all() or not y.any():
            raise MeasurelabError("the test set to resample needs cases of both classes")
        if self.n is not None:
            check_int(self.n, "n", minimum=2, maximum=10**7)
        if self.effect is not None:
            check_real(self.effect, "effect")
            if len(s) != 2:
                raise MeasurelabError("effect= needs two models (the difference of the first "
                                      "and the second)")
        check_flag(self.stratify, "stratify")
        object.__setattr__(self, "_y", y)
        object.__setattr__(self, "_s", s)

    @property
    def names(self) -> list[str]:
        return list(self._s)

    def _weights(self, measure: Any) -> tuple[np.ndarray | None, float | None]:
        """The case weights of the population (None: uniform) and its difference."""
        if self.effect is None:
            return None, None
        from measurelab.measures.base import registry

        m = registry.resolve(measure)[0]
        if m.name not in self._tilt:
            self._tilt[m.name] = _tilt(self._y, list(self._s.values()), m,
                                       float(self.effect))
        return self._tilt[m.name]

    def population(self, measure: Any, reference: float | None) -> float:
        """The effect under test on the population resampled: measure(first) −
        measure(second), or measure − reference for one model."""
        from measurelab.measures.base import registry

        m = registry.resolve(measure)[0]
        _, achieved = self._weights(m)
        if achieved is not None:
            return achieved
        v = _values(self._y, list(self._s.values()), m, None)
        return v[0] - v[1] if len(v) == 2 else v[0] - (reference if reference is not None
                                                       else math.nan)

    def draw(self, rng: np.random.Generator, measure: Any = "auc"
             ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """One test set: ``n`` cases drawn with replacement, with the population's weights
        (by class, in the population's proportions, with ``stratify``)."""
        w, _ = self._weights(measure)
        y = self._y
        n = y.size if self.n is None else int(self.n)
        p = None if w is None else w / w.sum()
        if self.stratify:
            pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
            share = pos.size / y.size if p is None else float(p[pos].sum())
            n1 = max(1, min(n - 1, round(n * share)))
            pp = None if p is None else p[pos] / p[pos].sum()
            pn = None if p is None else p[neg] / p[neg].sum()
            idx = np.concatenate([rng.choice(neg, n - n1, p=pn), rng.choice(pos, n1, p=pp)])
        else:
            idx = rng.choice(y.size, n, p=p)
        return y[idx], {k: v[idx] for k, v in self._s.items()}

    def describe(self) -> str:
        n = self._y.size if self.n is None else self.n
        eff = "" if self.effect is None else f", tilted to an effect of {self.effect:g}"
        return f"resampling the test set ({self._y.size} cases) to {n} cases{eff}"


def _values(y: np.ndarray, scores: list[np.ndarray], m: Any, w: np.ndarray | None
            ) -> list[float]:
    """Measure ``m`` of each model on the (weighted) cases, threshold 0.5."""
    import warnings

    from measurelab.stats.bundle import BinaryStats
    from measurelab.stats.scoretable import ScoreTable

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [float(m.compute(BinaryStats(table=ScoreTable.from_arrays(y, s, w))))
                for s in scores]


def _jackknife_difference(y: np.ndarray, scores: list[np.ndarray], m: Any) -> np.ndarray:
    """measure(first) − measure(second) with each case left out in turn (per case, in the
    input order), from the block formulas over leave-one-out weightings."""
    import warnings

    from measurelab.inference.bootstrap import CaseDesign
    from measurelab.measures.compute import prime_block

    keys = [np.asarray(s, dtype=np.float64) + 0.0 for s in scores[::-1]]
    order = np.lexsort([*keys, y])  # the design's canonical order, made here
    d = CaseDesign.from_cases(y[order], [s[order] for s in scores])
    n = y.size
    out = np.empty(n)
    step = max(1, min(256, (1 << 22) // max(1, n)))
    thr = [(0.5, False)] * len(scores)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for i0 in range(0, n, step):
            b = min(step, n - i0)
            ext = np.ones((b, n + 1))
            ext[:, -1] = 0.0
            ext[np.arange(b), i0 + np.arange(b)] = 0.0
            vals = []
            for bs in d._blocks(ext, thr):
                prime_block(bs, [m])
                vals.append(m.compute_block(bs))
            out[i0:i0 + b] = vals[0] - vals[1]
    back = np.empty(n)
    back[order] = out
    return back


def _tilt(y: np.ndarray, scores: list[np.ndarray], m: Any, effect: float
          ) -> tuple[np.ndarray, float]:
    """Case weights exp(λ·c) (c: the standardized jackknife influence of each case on the
    difference) under which the weighted difference is ``effect``; (weights, achieved)."""
    loo = _jackknife_difference(y, scores, m)
    ok = np.isfinite(loo)
    c = np.where(ok, loo[ok].mean() - loo if ok.any() else 0.0, 0.0)
    sd = float(c.std())
    if not sd > 0:
        raise MeasurelabError(f"the two models' {m.name} does not vary between cases: no "
                              "population with another difference can be made by tilting")
    c = c / sd

    def weights(lam: float) -> np.ndarray:
        e = lam * c
        return np.exp(e - e.max())

    def diff(lam: float) -> float:
        v = _values(y, scores, m, weights(lam))
        return v[0] - v[1]

    d0 = diff(0.0)
    if effect == d0:
        return np.ones(y.size), d0
    step = 1.0 if effect > d0 else -1.0
    lo, hi = 0.0, step
    while (diff(hi) - effect) * step < 0:  # widen until the effect is bracketed
        lo, hi = hi, hi * 2.0
        if abs(hi) > 64:
            raise MeasurelabError(f"effect={effect:g} cannot be reached by reweighting the "
                                  f"test set's cases ({m.name} difference {d0:.4g} "
                                  f"observed)")
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if (diff(mid) - effect) * step < 0:
            lo = mid
        else:
            hi = mid
    w = weights(hi)
    ess = float(w.sum() ** 2 / (w * w).sum())  # Kish's effective number of cases
    if ess < MIN_EFFECTIVE_SHARE * y.size:
        raise MeasurelabError(
            f"effect={effect:g} cannot be reached by a mild reweighting of the test set "
            f"({m.name} difference {d0:.4g} observed): the weights would leave an effective "
            f"{ess:.0f} of {y.size} cases; state an effect nearer the observed one")
    return w, diff(hi)


def _large_sample_effect(gen: Binormal, m: Any, reference: float | None) -> float:
    """A measure's population difference under a binormal generator, from one draw of
    200 times the design's size."""
    y, s = gen.draw(np.random.default_rng(12345), scale=200)
    v = _values(y, list(s.values()), m, None)
    return v[0] - v[1] if len(v) == 2 else v[0] - (reference if reference is not None
                                                   else math.nan)
