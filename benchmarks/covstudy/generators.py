"""The data of the coverage study: two models scored on the same cases, with population
values that are known (exactly, or from one very large sample).

Binary generators (:data:`BINARY`), each drawing a test set of a design (``random``:
y i.i.d.; ``fixed``: exactly round(π·n) positives) at a prevalence π:

* :class:`Binormal` (``binormal``): a latent binormal; both models miscalibrated;
* :class:`SparseFlags` (``sparse-flags``): the same binormal with high cuts, so that each
  model flags only about 4% of the cases on a balanced set (few predicted positives);
* :class:`Kink` (``kink``): the same binormal cut where each model's sensitivity equals
  its specificity (the measures built on |sens − spec| sit at their kink);
* :class:`CalibratedBeta` (``calibrated``): q ~ Beta with mean π, y ~ Bernoulli(q); model
  a scores q (calibrated), model b a noisy over-confident distortion of it;
* :class:`ExactBinormal` (``binormal-exact``): the binormal with its exact values as the
  targets (the large-n plan, where a large sample's error would not be small enough);
* :class:`ExactCalibrated` (``calibrated-exact``): the same, model a scoring the true
  probability P(y = 1 | x_a) (calibrated: its miscalibration terms at their boundary 0).

The ``weighted`` design (:class:`CaseWeights`, :data:`WEIGHTS`) gives the random design's
test set case weights: a case-control sample of a rarer population.

k-class generators: :class:`LatentSoftmax` by number of classes (:func:`multi_generator`;
``softmax``), and its variant whose model a scores the true posterior
(``softmax-calibrated``, :func:`multi_generator` with ``calibrated=True``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

#: the designs of a test set (``random-stratified``: the random design's test sets, their
#: intervals resampled by class: the wrong choice for a random sample, shown for its cost;
#: ``weighted``: the random design's test sets with case weights, :class:`CaseWeights`)
DESIGNS: tuple[str, ...] = ("random", "fixed", "random-stratified", "weighted")


@dataclass(frozen=True)
class Binormal:
    """Two correlated models on the same cases, from a latent binormal.

    Model k sees ``x_k = mu_k·y + e_k`` with ``(e_a, e_b)`` standard bivariate normal with
    correlation ``rho``, and scores ``s_k = sigmoid(slope_k·(x_k − cut_k))``, a probability
    in (0, 1). So ``s_k > 0.5`` iff ``x_k > cut_k``, AUC_k = Φ(mu_k/√2), and the calibrated
    score would be ``sigmoid(logit π + mu_k·x − mu_k²/2)``: neither model is calibrated at
    either prevalence (both predict too many positives, b is overconfident).

    The defaults give AUC 0.80 (a) and 0.85 (b); at the 0.5 threshold a flags 21% of the
    negatives and 65% of the positives, b 16% and 68% (so at π = 0.1, n = 300 about 20 true
    and 57 false positives for a).
    """

    mu: tuple[float, float] = (1.1902, 1.4657)   # √2·Φ⁻¹(0.80), √2·Φ⁻¹(0.85)
    slope: tuple[float, float] = (1.0, 1.6)
    cut: tuple[float, float] = (0.8, 1.0)
    rho: float = 0.5

    #: the generator's name in plans, cache keys and reports
    name = "binormal"
    #: the exact values (:meth:`exact`) are a check of the large sample, not the target
    exact_is_target = False

    def describe(self) -> str:
        """One sentence for the report."""
        return (f"`binormal`: model k sees x_k = μ_k·y + e_k, (e_a, e_b) standard bivariate "
                f"normal with correlation ρ = {self.rho}, and scores s_k = sigmoid(b_k·(x_k − "
                f"c_k)); μ = {self.mu} (AUC 0.80, 0.85), b = {self.slope}, c = {self.cut}. "
                "Neither model is calibrated (both predict too many positives, b is "
                "over-confident).")

    def labels(self, design: str, n: int, prevalence: float,
               rng: np.random.Generator) -> np.ndarray:
        """Labels of one test set (bool, True = positive).

        ``random``: i.i.d. Bernoulli(π), redrawn in the event of a single class (at n ≥ 100
        and π ≥ 0.05 below 0.6%, but at the small plan's n = 60, π = 0.04 about 8.6% of the
        test sets: those test sets are conditioned on holding both classes, as a user's
        would be). ``fixed``: exactly ``round(π·n)`` positives in random order.
        """
        if design in ("random", "random-stratified"):
            while True:
                y = rng.random(n) < prevalence
                if 0 < np.count_nonzero(y) < n:
                    return y
        if design == "fixed":
            n_pos = round(prevalence * n)
            if not 0 < n_pos < n:
                raise ValueError(f"round(π·n) = {n_pos} leaves a class empty (n={n}, "
                                 f"π={prevalence})")
            y = np.zeros(n, dtype=bool)
            y[:n_pos] = True
            return rng.permutation(y)
        raise ValueError(f"design must be one of {DESIGNS}, got {design!r}")

    def scores(self, y: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Scores of models a and b for labels ``y``."""
        z = rng.standard_normal((2, y.size))
        e = (z[0], self.rho * z[0] + math.sqrt(1.0 - self.rho**2) * z[1])
        out = []
        for k in range(2):
            x = self.mu[k] * y + e[k]
            out.append(_sigmoid(self.slope[k] * (x - self.cut[k])))
        return out[0], out[1]

    def draw(self, design: str, n: int, prevalence: float,
             rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One test set: labels (int8 0/1) and the scores of a and b."""
        y = self.labels(design, n, prevalence, rng)
        s_a, s_b = self.scores(y, rng)
        return y.astype(np.int8), s_a, s_b

    def exact(self, prevalence: float, measures: Iterable[str]) -> dict[str, tuple[float, float]]:
        """Population values (limits as n → ∞) of models a and b by numerical integration.

        Known for the key measures (``lift`` at q = 0.25, ``mxe`` in nats, ``rms`` =
        √``brier``, ``ap`` = ``apr``: the limit of average precision is
        ∫ precision(t) dRecall(t)) and the functions of
        the confusion matrix at 0.5 (``acc``, ``err``, ``sens``, ``spec``, ``npv``,
        ``f_beta`` at β = 1, ``gmean``, ``youden``, ``lr_pos``, ``lr_neg``, ``dp``, ``ri``,
        ``op``, ``avri``, ``oarp`` at x = 1); any other measure gives NaN. The correlation
        ``rho`` plays no part: each value depends on one model's margin, and the
        population difference is the difference of the values.
        """
        return {m: (self._exact_one(0, prevalence, m), self._exact_one(1, prevalence, m))
                for m in measures}

    def _exact_one(self, k: int, pi: float, name: str) -> float:
        from scipy import integrate, optimize
        from scipy.stats import norm

        mu, b, c = self.mu[k], self.slope[k], self.cut[k]
        sens, fpr = float(norm.cdf(mu - c)), float(norm.cdf(-c))
        tp, fp = pi * sens, (1 - pi) * fpr
        fn, tn = pi - tp, 1 - pi - fp

        def expect(f: Any) -> float:   # E f(e), e ~ N(0, 1); beyond ±12 the mass is < 1e-32
            return float(integrate.quad(lambda e: f(e) * norm.pdf(e), -12.0, 12.0,
                                        epsabs=1e-13, epsrel=1e-11, limit=200)[0])

        def cutoff(share: float) -> float:   # t with P(x > t) = share
            return float(optimize.brentq(
                lambda t: pi * norm.sf(t - mu) + (1 - pi) * norm.sf(t) - share, -40, 40,
                xtol=1e-14))

        spec, prec, npv = 1 - fpr, tp / (tp + fp), tn / (tn + fn)

        def index(u: float, v: float) -> float:   # |u − v| / (u + v), the kink at u = v
            return abs(u - v) / (u + v)

        counts: dict[str, Any] = {
            "acc": lambda: tp + tn, "err": lambda: fp + fn, "sens": lambda: sens,
            "spec": lambda: spec, "prec": lambda: prec, "npv": lambda: npv,
            "f1": lambda: 2 * tp / (2 * tp + fp + fn),
            "f_beta": lambda: 2 * tp / (2 * tp + fp + fn),
            "bacc": lambda: (sens + spec) / 2, "gmean": lambda: math.sqrt(sens * spec),
            "youden": lambda: sens + spec - 1, "lr_pos": lambda: sens / fpr,
            "lr_neg": lambda: (1 - sens) / spec,
            "dp": lambda: math.sqrt(3) / math.pi * (math.log(sens / (1 - sens))
                                                    + math.log(spec / fpr)),
            "ri": lambda: index(spec, sens),
            "op": lambda: tp + tn - index(spec, sens),
            "avri": lambda: (index(prec, spec) + index(npv, sens)) / 2,
            "oarp": lambda: tp + tn - (index(prec, spec) + index(npv, sens)) / 20,
        }
        if name in counts:
            return float(counts[name]())
        if name == "mcc":
            return (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
        if name == "kappa":
            pe = (tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)
            return (tp + tn - pe) / (1 - pe)
        if name == "auc":
            return float(norm.cdf(mu / math.sqrt(2)))
        if name == "bep":
            return float(norm.sf(cutoff(pi) - mu))
        if name == "lift":
            return float(norm.sf(cutoff(0.25) - mu)) / 0.25
        if name == "rms":
            return math.sqrt(self._exact_one(k, pi, "brier"))
        if name in ("ap", "apr"):
            def prec_at(t: float) -> float:   # π S1 / (π S1 + (1 − π) S0), S in logs
                odds = math.exp(math.log1p(-pi) - math.log(pi) + norm.logsf(t)
                                - norm.logsf(t - mu))
                return 1.0 / (1.0 + odds)
            return expect(lambda e: prec_at(mu + e))
        if name == "brier":
            return (pi * expect(lambda e: (1 - _sigmoid(b * (mu + e - c))) ** 2)
                    + (1 - pi) * expect(lambda e: _sigmoid(b * (e - c)) ** 2))
        if name == "mxe":   # −log σ(z) = log(1 + e^−z), −log(1 − σ(z)) = log(1 + e^z)
            return (pi * expect(lambda e: np.logaddexp(0.0, -b * (mu + e - c)))
                    + (1 - pi) * expect(lambda e: np.logaddexp(0.0, b * (e - c))))
        if name in CALIBRATION_TERMS:
            return _calibration_term(name, mu, pi, lambda x: _sigmoid(b * (x - c)), expect)
        return math.nan


    def flag_share(self, prevalence: float) -> tuple[float, float]:
        """The share of all cases each model flags (s_k > 0.5, i.e. x_k > c_k) at
        prevalence π: π·Φ(μ_k − c_k) + (1 − π)·Φ(−c_k)."""
        from scipy.stats import norm

        a, b = (float(prevalence * norm.sf(c - m) + (1 - prevalence) * norm.sf(c))
                for m, c in zip(self.mu, self.cut, strict=True))
        return a, b


def flag_cut(mu: float, share: float, prevalence: float) -> float:
    """The cut c at which a binormal model (x = μ·y + e) flags ``share`` of all cases at
    ``prevalence`` π: the root of π·Φ(μ − c) + (1 − π)·Φ(−c) = share (decreasing in c),
    rounded to 6 decimals (so that the generator's parameters, which name its cache files,
    do not depend on the root finder's last bits)."""
    from scipy import optimize
    from scipy.stats import norm

    if not 0 < share < 1 or not 0 < prevalence < 1:
        raise ValueError(f"need 0 < share < 1 and 0 < prevalence < 1, got {share}, "
                         f"{prevalence}")
    root = optimize.brentq(
        lambda c: prevalence * norm.sf(c - mu) + (1 - prevalence) * norm.sf(c) - share,
        -40.0, 40.0, xtol=1e-14)
    return round(float(root), 6)


@dataclass(frozen=True)
class SparseFlags(Binormal):
    """:class:`Binormal` with high cuts: each model flags only ``share`` of all cases at
    prevalence ``at`` (default 4% on a balanced set), so a test set of n = 120 holds about
    5 predicted positives, one of n = 400 about 16, though both classes are large.

    The cuts are solved from the binormal (:func:`flag_cut`: the flagged share is the
    mixture's P(x_k > c_k)); with the default μ, c = (2.625029, 2.884098): model a flags
    7.6% of the positives and 0.43% of the negatives, b 7.8% and 0.20%. Everything else
    (μ, the slopes, ρ, the exact values) is the binormal's. The small counts are the
    predicted positives (and true positives, 4.5 at n = 120; false positives, 0.26 for a
    and 0.12 for b), not a class.
    """

    cut: tuple[float, float] | None = None   # type: ignore[assignment]
    share: float = 0.04
    at: float = 0.5

    name = "sparse-flags"
    exact_is_target = False

    def __post_init__(self) -> None:
        if self.cut is None:
            object.__setattr__(self, "cut", tuple(flag_cut(m, self.share, self.at)
                                                  for m in self.mu))

    def describe(self) -> str:
        """One sentence for the report."""
        a, b = self.flag_share(self.at)
        return (f"`sparse-flags`: the binormal (μ = {self.mu}, b = {self.slope}, ρ = "
                f"{self.rho}) with cuts c = ({self.cut[0]:.4f}, {self.cut[1]:.4f}) solved so "
                f"that each model flags {self.share:.0%} of all cases at π = {self.at:g} "
                f"(exactly {a:.4f} and {b:.4f}): about {self.share * 120:.0f} predicted "
                f"positives at n = 120 and {self.share * 400:.0f} at n = 400, though both "
                "classes are large.")


@dataclass(frozen=True)
class Kink(Binormal):
    """:class:`Binormal` cut at c_k = μ_k/2, where each model's sensitivity Φ(μ_k − c_k)
    equals its specificity Φ(c_k) in the population (0.724 for a, 0.768 for b): ``ri``
    = |spec − sens|/(spec + sens) is 0 and ``op``, ``oarp`` (through ``ri``, ``avri``)
    sit at the kink of |sens − spec|; at π = 0.5 also precision = specificity and
    NPV = sensitivity, the kinks of ``avri``. A sample's value of such a measure is
    biased away from the kink (the absolute value of a noisy 0), even on the large sample
    (ri by about 3·10⁻⁴ at 2·10⁶ cases), so the exact values are the target (as a calibrated
    model's calibration errors are).
    """

    cut: tuple[float, float] | None = None   # type: ignore[assignment]

    name = "kink"
    exact_is_target = True

    def __post_init__(self) -> None:
        if self.cut is None:   # μ/2 is exact in floating point: μ − μ/2 == μ/2
            object.__setattr__(self, "cut", tuple(m / 2 for m in self.mu))

    def describe(self) -> str:
        """One sentence for the report."""
        from scipy.stats import norm

        s = tuple(float(norm.cdf(c)) for c in self.cut)
        return (f"`kink`: the binormal (μ = {self.mu}, b = {self.slope}, ρ = {self.rho}) "
                f"cut at c = μ/2 = ({self.cut[0]:g}, {self.cut[1]:g}), where each model's "
                f"sensitivity equals its specificity ({s[0]:.4f}, {s[1]:.4f}): ri = 0 and "
                "ri, op, avri, oarp (and their paired differences) sit at the kink of "
                "|sens − spec| (at π = 0.5 also precision = specificity and NPV = "
                "sensitivity, the kinks of avri); the targets are the exact values.")


@dataclass(frozen=True)
class ExactBinormal(Binormal):
    """:class:`Binormal` whose exact values (:meth:`Binormal.exact`, by numerical
    integration) are the targets: the large-n plan's generator. At 10⁵ cases a test set's
    standard error is only √20 ≈ 4.5 times that of the 2·10⁶-case sample that would
    otherwise give the target, whose one error would then shift every interval's target
    alike; the exact limits have none. Where no exact value is known the large sample
    stays the target (the large-n plan simulates none such). The same models and data law
    as the binormal, its own seeds.
    """

    name = "binormal-exact"
    exact_is_target = True

    def describe(self) -> str:
        """One sentence for the report."""
        return (f"`binormal-exact`: the binormal (μ = {self.mu}, AUC 0.80 and 0.85, b = "
                f"{self.slope}, c = {self.cut}, ρ = {self.rho}; neither model calibrated) "
                "with the exact population values as targets (numerical integration: AUC = "
                "Φ(μ/√2), AP = ∫ precision dRecall, Brier, RMS = √Brier, log loss and the "
                "functions of the confusion matrix at 0.5), the large sample only a check "
                "(the z column).")


#: the debiased calibration terms whose exact values :func:`_calibration_term` gives
CALIBRATION_TERMS = ("brier_mcb", "brier_dsc", "logloss_mcb", "logloss_dsc")


def _calibration_term(name: str, mu: float, pi: float, score: Any, expect: Any) -> float:
    """A calibration term of a binormal model scoring ``score(x)``: with x = μ·y + e and
    q(x) = P(y = 1 | x) = σ(logit π + μx − μ²/2) its recalibration map (the score is
    increasing in x), the expectations over the mixture of the classes of (s − q)²
    (Brier MCB), q² − π² (Brier DSC), KL(q ‖ s) (log-loss MCB) and H(π) − H(q) (log-loss
    DSC)."""
    def q(x: Any) -> Any:
        return _sigmoid(math.log(pi / (1 - pi)) + mu * x - mu * mu / 2)

    def ent(p: Any) -> Any:
        return -(p * np.log(p) + (1 - p) * np.log1p(-p))

    f = {"brier_mcb": lambda x: (score(x) - q(x)) ** 2,
         "brier_dsc": lambda x: q(x) ** 2 - pi * pi,
         "logloss_mcb": lambda x: (q(x) * (np.log(q(x)) - np.log(score(x)))
                                   + (1 - q(x)) * (np.log1p(-q(x)) - np.log1p(-score(x)))),
         "logloss_dsc": lambda x: ent(pi) - ent(q(x))}[name]
    return pi * expect(lambda e: f(mu + e)) + (1 - pi) * expect(f)


@dataclass(frozen=True)
class ExactCalibrated(ExactBinormal):
    """:class:`ExactBinormal` whose model a scores its true probability
    q_a(x_a) = P(y = 1 | x_a) = σ(logit π + μ_a·x_a − μ_a²/2) at the cell's prevalence:
    calibrated, so its Brier and log-loss miscalibration are exactly 0 (the boundary of
    their intervals); its discrimination terms, AUC and AP are the binormal's (a
    monotone map of the same x), its Brier π(1 − π) − DSC and log loss H(π) − DSC. Model b
    is the binormal's (over-confident). Not for the weighted design (q is calibrated for
    the test set's π, not the population the weights stand for).
    """

    name = "calibrated-exact"

    def describe(self) -> str:
        """One sentence for the report."""
        return (f"`calibrated-exact`: the binormal (μ = {self.mu}, ρ = {self.rho}) with "
                "model a scoring its true probability P(y = 1 | x_a) (calibrated: its "
                "miscalibration terms are 0) and model b the binormal's (b = "
                f"{self.slope[1]}, c = {self.cut[1]}); exact population values as targets.")

    def draw(self, design: str, n: int, prevalence: float,
             rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One test set: labels (int8 0/1), the calibrated a and the binormal b."""
        y = self.labels(design, n, prevalence, rng)
        z = rng.standard_normal((2, y.size))
        x_a = self.mu[0] * y + z[0]
        x_b = self.mu[1] * y + self.rho * z[0] + math.sqrt(1.0 - self.rho**2) * z[1]
        logit = math.log(prevalence / (1 - prevalence))
        s_a = _sigmoid(logit + self.mu[0] * x_a - self.mu[0] ** 2 / 2)
        return y.astype(np.int8), s_a, _sigmoid(self.slope[1] * (x_b - self.cut[1]))

    def _exact_one(self, k: int, pi: float, name: str) -> float:
        if k == 1:
            return super()._exact_one(k, pi, name)
        if name in ("brier_mcb", "logloss_mcb"):
            return 0.0
        if name in ("brier_dsc", "logloss_dsc", "auc", "ap", "apr"):
            return super()._exact_one(k, pi, name)
        if name == "brier":
            return pi * (1 - pi) - super()._exact_one(k, pi, "brier_dsc")
        if name == "mxe":
            return (-(pi * math.log(pi) + (1 - pi) * math.log1p(-pi))
                    - super()._exact_one(k, pi, "logloss_dsc"))
        return math.nan


@dataclass(frozen=True)
class CaseWeights:
    """The ``weighted`` design: a case-control sample of a rarer population. The test set
    is the random design's at the cell's prevalence π (every positive of the population
    kept, one negative in ``negative``), each negative weighted ``negative``, and every
    weight times a spread U(1 − ``spread``, 1 + ``spread``) independent of the case (other
    weighting, e.g. a survey's), so the weights vary within each class too. The weighted
    measures estimate the population with prevalence π / (π + negative·(1 − π))
    (:meth:`target_prevalence`; at π = 0.05, 0.0104), whose values are the targets; the
    cases in the smaller class are the test set's, as measurelab counts them.
    """

    negative: float = 5.0
    spread: float = 0.5

    def draw(self, y: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The weights of a test set with labels ``y``."""
        base = np.where(np.asarray(y) == 1, 1.0, self.negative)
        return base * rng.uniform(1.0 - self.spread, 1.0 + self.spread, base.size)

    def target_prevalence(self, prevalence: float) -> float:
        """The prevalence of the population the weighted test set stands for."""
        return prevalence / (prevalence + self.negative * (1.0 - prevalence))

    def describe(self) -> str:
        """One sentence for the report."""
        return (f"`weighted`: the random design's test set at π (a case-control sample: "
                f"every positive, one negative in {self.negative:g}), each negative "
                f"weighted {self.negative:g} and every weight times U({1 - self.spread:g}, "
                f"{1 + self.spread:g}); its target is the population at π / (π + "
                f"{self.negative:g}(1 − π)), and the intervals are "
                "`compare_classifiers(..., sample_weight=w)`'s (cases resampled jointly).")


#: the weighted design's weights
WEIGHTS = CaseWeights()


def _sigmoid(z: Any) -> Any:
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(z, dtype=float)))


GENERATOR = Binormal()


@dataclass(frozen=True)
class LatentSoftmax:
    """Two correlated k-class probabilistic models on the same cases, from a latent normal.

    A case of class y (drawn from ``priors``) gives model m the evidence vector
    ``x_m = mu_m·e_y + z_m`` (e_y the unit vector of class y), with ``z_m`` standard normal
    in k dimensions and ``corr(z_a[c], z_b[c]) = rho`` for every class c (independent over
    classes): the two models' errors are correlated. Model m scores
    ``P_m = softmax(slope_m·x_m)``, a probability row.

    The calibrated posterior would be ``softmax(mu_m·x_m + log priors)``: model a
    (slope < mu) is underconfident, model b (slope > mu) overconfident, and neither uses
    the priors, so both predict the small classes too often. Model b sees the classes
    better (larger mu): it is the better model on every measure.
    """

    priors: tuple[float, ...] = (0.5, 0.3, 0.2)
    mu: tuple[float, float] = (1.5, 2.0)
    slope: tuple[float, float] = (1.0, 2.5)
    rho: float = 0.5
    #: model a scores the true posterior softmax(mu_a·x_a + log priors) instead
    calibrated_a: bool = False

    @property
    def name(self) -> str:
        """The generator's name in plans, cache keys and reports."""
        return "softmax-calibrated" if self.calibrated_a else "softmax"

    #: the exact values are the target where :meth:`exact` knows them
    exact_is_target = True

    def exact(self, measures: Any) -> dict[str, tuple[float, float]]:
        """Population values known exactly: for a calibrated model a, its top-label
        calibration errors (``ece``, ``smece``) are 0; everything else (and model b) NaN.
        """
        zero = {"ece", "smece"} if self.calibrated_a else set()
        return {m: (0.0 if m in zero else math.nan, math.nan) for m in measures}

    def describe(self) -> str:
        """One sentence for the report."""
        a = ("model a scores the true posterior softmax(μ_a·x_a + log priors) (calibrated)"
             if self.calibrated_a else f"model m scores P_m = softmax(b_m·x_m), b = "
             f"{self.slope}")
        return (f"`{self.name}`: a case of class y (drawn from the priors {self.priors}) gives "
                "model m the evidence x_m = μ_m·e_y + z_m, z_m standard normal in k "
                f"dimensions with corr(z_a[c], z_b[c]) = ρ = {self.rho}; μ = {self.mu}; {a}"
                + ("; model b scores softmax(b_b·x_b), over-confident and blind to the priors."
                   if self.calibrated_a else ": a is under-confident, b over-confident, and "
                   "neither uses the priors."))

    @property
    def k(self) -> int:
        """Number of classes."""
        return len(self.priors)

    def class_counts(self, n: int) -> np.ndarray:
        """Class counts of the fixed design: round(prior·n) by largest remainders (they sum
        to n)."""
        p = np.asarray(self.priors, dtype=float)
        exact = p * n
        counts = np.floor(exact).astype(np.int64)
        short = n - int(counts.sum())
        counts[np.argsort(-(exact - counts), kind="stable")[:short]] += 1
        return counts

    def labels(self, design: str, n: int, rng: np.random.Generator) -> np.ndarray:
        """Class labels 0..k-1 of one test set.

        ``random``: i.i.d. from ``priors``, redrawn in the (at n = 500 and priors ≥ 0.08
        astronomically rare) event of a class without cases (the models' k columns need k
        classes in y_true). ``fixed``: exactly :meth:`class_counts` cases per class, in
        random order.
        """
        if design in ("random", "random-stratified"):
            p = np.asarray(self.priors, dtype=float)
            while True:
                y = rng.choice(self.k, size=n, p=p / p.sum())
                if np.unique(y).size == self.k:
                    return y
        if design == "fixed":
            counts = self.class_counts(n)
            if (counts == 0).any():
                raise ValueError(f"class counts {counts.tolist()} leave a class empty (n={n}, "
                                 f"priors={self.priors})")
            return rng.permutation(np.repeat(np.arange(self.k), counts))
        raise ValueError(f"design must be one of {DESIGNS}, got {design!r}")

    def probabilities(self, y: np.ndarray, rng: np.random.Generator
                      ) -> tuple[np.ndarray, np.ndarray]:
        """Probability rows (n, k) of models a and b for labels ``y``."""
        n, k = y.size, self.k
        z0 = rng.standard_normal((n, k))
        z1 = rng.standard_normal((n, k))
        zs = (z0, self.rho * z0 + math.sqrt(1.0 - self.rho**2) * z1)
        out = []
        for m in range(2):
            x = zs[m]
            x[np.arange(n), y] += self.mu[m]
            if m == 0 and self.calibrated_a:
                out.append(_softmax(self.mu[0] * x + np.log(np.asarray(self.priors))))
            else:
                out.append(_softmax(self.slope[m] * x))
        return out[0], out[1]

    def draw(self, design: str, n: int, rng: np.random.Generator
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One test set: labels (int64 0..k-1) and the probability rows of a and b."""
        y = self.labels(design, n, rng)
        P_a, P_b = self.probabilities(y, rng)
        return y, P_a, P_b


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


#: the k-class generators of the study, by number of classes (other k: :func:`multi_generator`)
MULTI_GENERATORS: dict[int, LatentSoftmax] = {
    3: LatentSoftmax(priors=(0.5, 0.3, 0.2)),
    5: LatentSoftmax(priors=(0.35, 0.25, 0.2, 0.12, 0.08)),
}


def multi_generator(k: int, calibrated: bool = False) -> LatentSoftmax:
    """The k-class generator: :data:`MULTI_GENERATORS` for 3 and 5 classes, otherwise
    priors ∝ 0.7^c (c = 0..k-1, rounded to 4 decimals) with the default models;
    ``calibrated``: model a scores the true posterior."""
    if k < 3:
        raise ValueError(f"the k-class study needs k >= 3 classes, got {k}")
    if k in MULTI_GENERATORS:
        gen = MULTI_GENERATORS[k]
    else:
        w = 0.7 ** np.arange(k)
        gen = LatentSoftmax(priors=tuple(float(round(v, 4)) for v in w / w.sum()))
    return replace(gen, calibrated_a=True) if calibrated else gen


@dataclass(frozen=True)
class CalibratedBeta:
    """A calibrated model and a miscalibrated one on the same cases.

    At prevalence π the true probability of a case is q ~ Beta(c·π, c·(1 − π)) (mean π,
    concentration ``c``; c = 4 gives Beta(2, 2) at π = ½) and y ~ Bernoulli(q). Model a
    scores q itself: P(y = 1 | s_a) = s_a, calibrated. Model b scores
    sigmoid(``gamma``·logit q + ``tau``·ε), ε standard normal: over-confident (γ > 1) and
    noisy, so it ranks the cases differently from a (a pure monotone distortion would
    give every paired rank-measure difference exactly 0). Scores are kept within
    [``eps``, 1 − ``eps``] so that cross-entropy stays finite (q is clipped before y is
    drawn, so a stays exactly calibrated).

    The fixed design draws exactly round(π·n) positives and q from its class-conditional
    law: Beta(cπ + 1, c(1 − π)) for positives, Beta(cπ, c(1 − π) + 1) for negatives, which
    keeps P(y = 1 | q) = q.
    """

    concentration: float = 4.0
    gamma: float = 1.5
    tau: float = 0.5
    eps: float = 1e-9

    name = "calibrated"
    #: the exact values of model a (:meth:`exact`) are the coverage target
    exact_is_target = True

    def describe(self) -> str:
        """One sentence for the report."""
        return (f"`calibrated`: q ~ Beta({self.concentration:g}π, {self.concentration:g}(1 − "
                "π)), y ~ Bernoulli(q); model a scores q (calibrated), model b "
                f"sigmoid({self.gamma:g}·logit q + {self.tau:g}·ε), ε ~ N(0, 1) "
                "(over-confident and noisy); scores within [1e-9, 1 − 1e-9].")

    def _ab(self, prevalence: float) -> tuple[float, float]:
        return self.concentration * prevalence, self.concentration * (1.0 - prevalence)

    def draw(self, design: str, n: int, prevalence: float,
             rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One test set: labels (int8 0/1) and the scores of a and b."""
        al, be = self._ab(prevalence)
        if design in ("random", "random-stratified"):
            while True:
                q = np.clip(rng.beta(al, be, n), self.eps, 1.0 - self.eps)
                y = rng.random(n) < q
                if 0 < np.count_nonzero(y) < n:
                    break
        elif design == "fixed":
            n_pos = round(prevalence * n)
            if not 0 < n_pos < n:
                raise ValueError(f"round(π·n) = {n_pos} leaves a class empty (n={n}, "
                                 f"π={prevalence})")
            y = rng.permutation(np.repeat([False, True], [n - n_pos, n_pos]))
            q = np.where(y, rng.beta(al + 1.0, be, n), rng.beta(al, be + 1.0, n))
            q = np.clip(q, self.eps, 1.0 - self.eps)
        else:
            raise ValueError(f"design must be one of {DESIGNS}, got {design!r}")
        logit = np.log(q) - np.log1p(-q)
        s_b = _sigmoid(self.gamma * logit + self.tau * rng.standard_normal(n))
        return y.astype(np.int8), q, np.clip(s_b, self.eps, 1.0 - self.eps)

    def exact(self, prevalence: float, measures: Any) -> dict[str, tuple[float, float]]:
        """Population values of model a known exactly (model b: NaN): a calibrated model's
        calibration errors and miscalibration terms are 0 (``ece``, ``smece``, ``ici``,
        ``e50``, ``e90``, ``emax``, ``brier_mcb``, ``logloss_mcb``, and Spiegelhalter's z,
        whose mean is 0), its logistic recalibration is the identity (``cal_slope`` 1,
        ``cal_intercept`` 0: P(y = 1 | q) = q is logit P = 0 + 1·logit q); ``brier`` =
        E q(1 − q), ``brier_dsc`` = Var q, ``mxe`` = E H(q) and ``logloss_dsc`` =
        H(π) − E H(q) (H the binary entropy in nats) by quadrature.
        The design does not matter: both keep P(y = 1 | q) = q and the law of q.
        """
        from scipy import integrate
        from scipy.stats import beta as beta_law

        al, be = self._ab(prevalence)
        c = al + be
        law = beta_law(al, be)

        def entropy_mean() -> float:
            def h(q: float) -> float:
                return -(q * math.log(q) + (1.0 - q) * math.log1p(-q)) if 0 < q < 1 else 0.0
            return float(integrate.quad(lambda q: h(q) * law.pdf(q), 0.0, 1.0, limit=400,
                                        epsabs=1e-13, epsrel=1e-11)[0])

        pi = prevalence
        known: dict[str, Any] = {
            **dict.fromkeys(("ece", "smece", "ici", "e50", "e90", "emax", "brier_mcb",
                             "logloss_mcb", "spiegelhalter_z", "cal_intercept"),
                          lambda: 0.0),
            "cal_slope": lambda: 1.0,
            "brier": lambda: al * be / (c * (c + 1.0)),
            "brier_dsc": lambda: al * be / (c * c * (c + 1.0)),
            "mxe": entropy_mean,
            "logloss_dsc": lambda: (-(pi * math.log(pi) + (1 - pi) * math.log1p(-pi))
                                    - entropy_mean()),
        }
        return {m: (float(known[m]()) if m in known else math.nan, math.nan)
                for m in measures}


#: the binary generators of the study, by name
BINARY: dict[str, Binormal | CalibratedBeta] = {"binormal": Binormal(),
                                               "calibrated": CalibratedBeta(),
                                               "sparse-flags": SparseFlags(),
                                               "kink": Kink(),
                                               "binormal-exact": ExactBinormal(),
                                               "calibrated-exact": ExactCalibrated()}
#: what a verdict's cell adds for a binary generator whose n and π do not say it all
GEN_NOTE: dict[str, str] = {"sparse-flags": ", 4% flagged", "kink": ", sens = spec"}
#: the k-class generator families, by name
MULTI_FAMILIES: tuple[str, ...] = ("softmax", "softmax-calibrated")


def generator(task: str, name: str, classes: int = 2) -> Any:
    """The generator of a plan's block: ``task`` 'binary' (``name`` in :data:`BINARY`) or
    'k' (``name`` in :data:`MULTI_FAMILIES`, ``classes`` ≥ 3)."""
    if task == "binary":
        if name not in BINARY:
            raise ValueError(f"binary generator must be one of {list(BINARY)}, got {name!r}")
        return BINARY[name]
    if name not in MULTI_FAMILIES:
        raise ValueError(f"k-class generator must be one of {MULTI_FAMILIES}, got {name!r}")
    return multi_generator(classes, calibrated=name == "softmax-calibrated")

