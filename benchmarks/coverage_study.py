"""Simulation study: how often do measurelab's 95% intervals cover the population value?

Two models are scored on the same cases by a correlated latent binormal generator
(:class:`Binormal`). For each cell (design × n × prevalence) the study draws ``sims`` test
sets, calls :func:`measurelab.compare_classifiers` on each and counts how often the
single-model intervals (``.intervals()``) and the paired-difference intervals (``.tests()``)
contain the population value (SPEC §6). Two designs:

``random``
    A random sample: y ~ Bernoulli(π) i.i.d.; intervals with ``stratify=False`` (cases
    resampled jointly).
``fixed``
    Fixed class counts: exactly round(π·n) positives; intervals with ``stratify=True``
    (positives and negatives resampled separately).

The population value of a measure is its value on one very large sample of the same design
(``pop_size`` cases, default 2·10⁶; the fixed design's large sample has exactly π positives),
i.e. the limit of the sample value, which is what a ratio measure's interval is about. Its
Monte Carlo standard error comes from twenty disjoint parts of that sample. For this generator
the limits are also known by numerical integration (:meth:`Binormal.exact`); the report
shows both, as a check of the large sample.

Every finished cell is written atomically to ``--cache`` (one JSON per cell, with every
simulation's intervals), unfinished cells every ``CHECKPOINT`` simulations; a rerun with the
same arguments resumes from there. Simulation i of a cell always uses the same data and
bootstrap seed, so a resumed run gives the same table as an uninterrupted one.

Run (the full study; minutes to hours on two cores)::

    .venv/bin/python benchmarks/coverage_study.py --sims 500 --n 300 400 --prevalence 0.1 0.3 \\
        --designs random fixed --n-boot 1000 --out docs/coverage.md --seed 0

A tiny check of the harness::

    .venv/bin/python benchmarks/coverage_study.py --sims 5 --n 300 --prevalence 0.3 \\
        --n-boot 100 --pop-size 100000 --out /tmp/coverage.md --cache /tmp/coverage-cache

**k classes** (issue 19; ``--classes``): two correlated k-class models give probability
rows (:class:`LatentSoftmax`: a latent normal per class, softmax scores, priors not all
equal, :data:`MULTI_GENERATORS`); the cells are design × n × k, compared with
``average='macro'`` on :data:`MULTI_MEASURES` (acc, macro f1, Hand–Till auc, mxe, brier),
population values from 10⁶ cases (:func:`population_multi`), cache files named ``cell-k<k>-…``
so they never mix with the binary ones, and the report is its own file
(``docs/coverage_multiclass.md``; docs/coverage.md links to it)::

    .venv/bin/python benchmarks/coverage_study.py --classes 3 5 --n 500 --designs random \\
        --sims 1000 --n-boot 1000 --seed 0
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import measurelab as ml

#: the measures of the study (threshold measures at 0.5)
KEY_MEASURES: tuple[str, ...] = ("f1", "mcc", "apr", "ap", "bep", "lift", "brier", "mxe",
                                 "kappa", "bacc", "auc", "prec")
#: ``random-stratified``: the random design's test sets, intervals resampled by class (the
#: wrong choice for a random sample, shown for what it costs)
DESIGNS: tuple[str, ...] = ("random", "fixed", "random-stratified")
MODELS: tuple[str, str] = ("a", "b")
#: confidence level of every interval
LEVEL = 0.95
#: default size of the sample that gives the population values
POP_SIZE = 2_000_000
#: the population sample is also evaluated in this many disjoint parts (for its MC error)
POP_PARTS = 20
#: an unfinished cell is saved every this many simulations
CHECKPOINT = 20
#: bump when the layout of the cache files or the meaning of a cell changes
SCHEMA = 1
#: the default reports: the binary study and the k-class one (``--classes``)
BINARY_OUT = Path("docs/coverage.md")
MULTI_OUT = Path("docs/coverage_multiclass.md")
_DESIGN_CODE = {"random": 1, "fixed": 2, "random-stratified": 1}  # same data as random


# --------------------------------------------------------------------------- generator
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

    def labels(self, design: str, n: int, prevalence: float,
               rng: np.random.Generator) -> np.ndarray:
        """Labels of one test set (bool, True = positive).

        ``random``: i.i.d. Bernoulli(π), redrawn in the (at n ≥ 100 astronomically rare)
        event of a single class. ``fixed``: exactly ``round(π·n)`` positives in random order.
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

        Known for the key measures (``lift`` at q = 0.25, ``mxe`` in nats, ``ap`` = ``apr``:
        the limit of average precision is ∫ precision(t) dRecall(t)); any other measure
        gives NaN. The correlation ``rho`` plays no part: each value depends on one
        model's margin, and the population difference is the difference of the values.
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

        if name == "prec":
            return tp / (tp + fp)
        if name == "f1":
            return 2 * tp / (2 * tp + fp + fn)
        if name == "bacc":
            return (sens + 1 - fpr) / 2
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
        return math.nan


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


def multi_generator(k: int) -> LatentSoftmax:
    """The k-class generator: :data:`MULTI_GENERATORS` for 3 and 5 classes, otherwise
    priors ∝ 0.7^c (c = 0..k-1, rounded to 4 decimals) with the default models."""
    if k < 3:
        raise ValueError(f"the k-class study needs k >= 3 classes, got {k}")
    if k in MULTI_GENERATORS:
        return MULTI_GENERATORS[k]
    w = 0.7 ** np.arange(k)
    return LatentSoftmax(priors=tuple(float(round(v, 4)) for v in w / w.sum()))


# --------------------------------------------------------------------------- helpers
def supports_stratify() -> bool:
    """Whether this measurelab's :func:`~measurelab.compare_classifiers` takes ``stratify``."""
    return "stratify" in inspect.signature(ml.compare_classifiers).parameters


def resampling_of(design: str) -> str:
    """How the intervals of ``design`` resample, with the measurelab installed.

    ``joint`` (random design) and ``stratified`` (fixed design) as the study intends; a
    measurelab without the ``stratify`` keyword always stratifies, which the random design
    then reports as ``stratified-legacy`` (and caches under that name, never as ``joint``).
    """
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {DESIGNS}, got {design!r}")
    if design in ("fixed", "random-stratified"):
        return "stratified"
    return "joint" if supports_stratify() else "stratified-legacy"


def _compare(y: np.ndarray, s_a: np.ndarray, s_b: np.ndarray, measures: Sequence[str],
             n_boot: int, seed: int, design: str, ci_method: str | None) -> Any:
    kwargs: dict[str, Any] = {}
    if supports_stratify():
        kwargs["stratify"] = design != "random"
    return ml.compare_classifiers(y, {"a": s_a, "b": s_b}, measures=list(measures), ci=LEVEL,
                                  n_boot=n_boot, seed=seed, ci_method=ci_method,
                                  progress=False, **kwargs)


def _seed_seq(seed: int, *key: int) -> np.random.SeedSequence:
    return np.random.SeedSequence([int(seed), *(int(k) for k in key)])


def _prev_key(prevalence: float) -> int:
    return round(prevalence * 1_000_000)


def _atomic_write_json(path: Path, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` atomically (a temporary file, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o644)   # mkstemp makes it private
        with os.fdopen(fd, "w") as f:
            json.dump(obj, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read_json(path: Path) -> Any | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _as_json(obj: Any) -> Any:
    """``obj`` as it reads back from JSON (tuples become lists), to compare with a file's."""
    return json.loads(json.dumps(obj))


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:10]


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """A hash of measurelab's Python sources (to notice a cached cell from other code)."""
    root = Path(ml.__file__).resolve().parent
    h = hashlib.sha256()
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def _git_head() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=Path(__file__).resolve().parent, timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


# --------------------------------------------------------------------------- population
@dataclass(frozen=True)
class Population:
    """Population values of one design and prevalence, from one large sample.

    ``value[m]`` = (a, b, a − b) on the whole sample; ``se[m]`` their Monte Carlo standard
    errors (spread of the values on ``POP_PARTS`` disjoint parts / √parts); ``exact[m]``
    = (a, b, a − b) by :meth:`Binormal.exact`.
    """

    design: str
    prevalence: float
    size: int
    value: dict[str, tuple[float, float, float]]
    se: dict[str, tuple[float, float, float]]
    exact: dict[str, tuple[float, float, float]]


def _values(y: np.ndarray, s_a: np.ndarray, s_b: np.ndarray,
            measures: Sequence[str]) -> np.ndarray:
    """(measures, 3): a, b, a − b, each via measurelab.evaluate."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ra = ml.evaluate(y, s_a, measures=list(measures))
        rb = ml.evaluate(y, s_b, measures=list(measures))
    va = np.array([float(ra[m]) for m in measures])
    vb = np.array([float(rb[m]) for m in measures])
    return np.column_stack([va, vb, va - vb])


def population(design: str, prevalence: float, measures: Sequence[str], *, seed: int = 0,
               size: int = POP_SIZE, cache_dir: str | Path | None = None,
               generator: Binormal = GENERATOR, progress: bool = False) -> Population:
    """Population values of ``measures`` for one design and prevalence (see module doc).

    The large sample is drawn as the design draws a test set (``fixed``: exactly
    round(π·size) positives), seeded by ``seed``, design and prevalence. With ``cache_dir``
    the result is kept there as JSON and read back on the next call; ``progress`` says on
    standard error when a large sample is being evaluated.
    """
    measures = list(measures)
    if design == "random-stratified":  # the random design's population
        design = "random"
    key = _as_json({"schema": SCHEMA, "design": design, "prevalence": float(prevalence),
                    "size": int(size), "seed": int(seed), "measures": measures,
                    "generator": asdict(generator)})
    path = None
    if cache_dir is not None:
        path = Path(cache_dir) / (f"population-{design}-pi{prevalence:g}-N{size}-seed{seed}-"
                                  f"{_digest(key)}.json")
        got = _read_json(path)
        if got is not None and got.get("key") == key:
            return Population(**{k: _tuples(v) if isinstance(v, dict) else v
                                 for k, v in got["population"].items()})
    if progress:
        print(f"population values: {design} π={prevalence:g}, {size:,} cases ...",
              file=sys.stderr, flush=True)
    pop = _population(design, prevalence, measures, seed, size, generator)
    if path is not None:
        _atomic_write_json(path, {"key": key, "population": asdict(pop)})
    return pop


def _tuples(d: dict[str, list[float]]) -> dict[str, tuple[float, ...]]:
    return {k: tuple(v) for k, v in d.items()}


@lru_cache(maxsize=16)
def _population_cached(design: str, prevalence: float, measures: tuple[str, ...], seed: int,
                       size: int, generator: Binormal) -> Population:
    ss = _seed_seq(seed, 1000 + _DESIGN_CODE[design], _prev_key(prevalence), size)
    y, s_a, s_b = generator.draw(design, size, prevalence, np.random.default_rng(ss))
    whole = _values(y, s_a, s_b, measures)
    parts = np.array([_values(y[i], s_a[i], s_b[i], measures)
                      for i in np.array_split(np.arange(size), POP_PARTS)])
    se = parts.std(axis=0, ddof=1) / math.sqrt(POP_PARTS)
    ex = generator.exact(prevalence, measures)
    return Population(
        design=design, prevalence=prevalence, size=size,
        value={m: tuple(map(float, whole[j])) for j, m in enumerate(measures)},
        se={m: tuple(map(float, se[j])) for j, m in enumerate(measures)},
        exact={m: (ea, eb, ea - eb) for m, (ea, eb) in ex.items()},
    )


def _population(design: str, prevalence: float, measures: list[str], seed: int, size: int,
                generator: Binormal) -> Population:
    return _population_cached(design, float(prevalence), tuple(measures), int(seed), int(size),
                              generator)


# --------------------------------------------------------------------------- one cell
def _one_sim(i: int, design: str, n: int, prevalence: float, n_boot: int,
             root: np.random.SeedSequence, measures: Sequence[str], ci_method: str | None,
             generator: Binormal) -> tuple[list[dict[str, Any]], list[str]]:
    """Intervals of simulation ``i``: one record per (model or pair, measure)."""
    data_ss, boot_ss = np.random.SeedSequence(root.entropy, spawn_key=(i,)).spawn(2)
    y, s_a, s_b = generator.draw(design, n, prevalence, np.random.default_rng(data_ss))
    boot_seed = int(boot_ss.generate_state(1, np.uint64)[0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = _compare(y, s_a, s_b, measures, n_boot, boot_seed, design, ci_method)
        iv, ts = r.intervals(), r.tests()
    recs: list[dict[str, Any]] = [
        {"sim": i, "kind": "single", "model": str(row.model), "measure": str(row.measure),
         "method": str(row.method), "est": float(row.value), "lo": float(row.lo),
         "hi": float(row.hi)} for row in iv.itertuples(index=False)]
    recs += [
        {"sim": i, "kind": "diff", "model": f"{row.a}-{row.b}", "measure": str(row.measure),
         "method": str(row.method), "est": float(row.diff), "lo": float(row.lo),
         "hi": float(row.hi)} for row in ts.itertuples(index=False)]
    return recs, [str(w.message).splitlines()[0][:200] for w in caught]


def cell_key(design: str, n: int, prevalence: float, sims: int, n_boot: int, seed: int,
             measures: Sequence[str], ci_method: str | None = None, pop_size: int = POP_SIZE,
             generator: Binormal = GENERATOR) -> dict[str, Any]:
    """Everything that decides a cell's result (its cache file is named from it)."""
    return _as_json({"schema": SCHEMA, "design": design, "n": int(n),
                     "prevalence": float(prevalence), "sims": int(sims), "n_boot": int(n_boot),
                     "seed": int(seed), "measures": list(measures), "ci": LEVEL,
                     "ci_method": ci_method, "pop_size": int(pop_size),
                     "generator": asdict(generator), "resampling": resampling_of(design)})


def _cell_path(cache_dir: str | Path, key: Mapping[str, Any]) -> Path:
    name = (f"cell-{key['design']}-n{key['n']}-pi{key['prevalence']:g}-sims{key['sims']}-"
            f"boot{key['n_boot']}-seed{key['seed']}-{key['resampling']}-{_digest(key)}.json")
    return Path(cache_dir) / name


def run_cell(design: str, n: int, prevalence: float, sims: int, n_boot: int, seed: int,
             measures: Sequence[str] = KEY_MEASURES, *, ci_method: str | None = None,
             pop_size: int = POP_SIZE, cache_dir: str | Path | None = None,
             progress: bool = False, generator: Binormal = GENERATOR) -> pd.DataFrame:
    """Coverage of one cell of the study.

    Parameters
    ----------
    design : {'random', 'fixed'}
        Random sample (intervals with ``stratify=False``) or fixed class counts
        (``stratify=True``).
    n : int
        Cases per simulated test set.
    prevalence : float
        π, the share of positives.
    sims : int
        Simulated test sets.
    n_boot : int
        Bootstrap replicates per interval.
    seed : int
        Seeds everything: simulation i of a cell has the same data and bootstrap seed in
        every run (and whatever ``sims``), the population sample its own stream.
    measures : sequence of str
        Measure names (default :data:`KEY_MEASURES`).
    ci_method : str, optional
        Passed to :func:`measurelab.compare_classifiers` (default: its own choice per measure).
    pop_size : int
        Cases of the large sample that gives the population values.
    cache_dir : path, optional
        Folder of the cell's JSON (finished cells are read back; an unfinished one resumes
        from its last checkpoint) and of the population values.
    progress : bool
        A progress bar over the simulations (tqdm on a terminal, periodic lines in a log).
    generator : Binormal
        The data generator.

    Returns
    -------
    pandas.DataFrame
        One row per (kind, model, measure, method): ``kind`` 'single' (``model`` 'a', 'b' or
        'pooled', both models' intervals together) or 'diff' (``model`` 'a-b'); ``method``
        :data:`ALL` (every simulation, whatever method measurelab chose in it: the coverage a
        user gets) or the method column of measurelab's table (only the simulations that
        used it: measurelab may fall back, e.g. from BCa to percentile); ``sims`` the
        simulations in that row, ``coverage`` and its Monte Carlo SE ``mcse`` (over simulations, so
        pooled rows account for the two models' correlation), ``miss_below`` / ``miss_above``
        (share of intervals entirely below / above the population value), ``width`` (mean of
        the finite widths), ``undefined`` (NaN intervals, counted as misses), ``unbounded``
        (intervals with an infinite end), ``population`` and ``population_se``, plus the cell
        (``design, n, prevalence, resampling``) and ``sec_per_sim``.
    """
    measures = list(measures)
    key = cell_key(design, n, prevalence, sims, n_boot, seed, measures, ci_method, pop_size,
                   generator)
    path = _cell_path(cache_dir, key) if cache_dir is not None else None
    cached = _cached_summary(path, key)
    if cached is not None:
        return cached
    pop = population(design, prevalence, measures, seed=seed, size=pop_size,
                     cache_dir=cache_dir, generator=generator, progress=progress)
    root = _seed_seq(seed, _DESIGN_CODE[design], n, _prev_key(prevalence))

    def one(i: int) -> tuple[list[dict[str, Any]], list[str]]:
        return _one_sim(i, design, n, prevalence, n_boot, root, measures, ci_method, generator)

    records, messages, seconds = _simulate(key, path, sims, one,
                                           f"{design} n={n} π={prevalence:g}", progress)
    summary = summarize(pd.DataFrame(records), pop, n, design)
    summary["resampling"] = key["resampling"]
    summary["sec_per_sim"] = seconds / sims if sims else math.nan
    summary = summary[_COLUMNS]
    _finish(path, key, summary, records, messages, seconds, pop)
    return summary


def _cached_summary(path: Path | None, key: Mapping[str, Any]) -> pd.DataFrame | None:
    """The summary of a finished cell from its cache file, if it holds this ``key``."""
    if path is None:
        return None
    got = _read_json(path)
    if got is None or got.get("key") != key:
        return None
    if got.get("engine") != engine_fingerprint():
        print(f"note: {path.name} was computed with other measurelab sources "
              f"(git {got.get('git')}); delete it to recompute", file=sys.stderr)
    return pd.DataFrame(got["summary"])


def _simulate(key: Mapping[str, Any], path: Path | None, sims: int,
              one: Any, label: str, progress: bool
              ) -> tuple[list[dict[str, Any]], dict[str, int], float]:
    """Simulations ``0 .. sims-1`` of a cell (``one(i)`` gives simulation i's records and
    warnings), resumed from the cell's checkpoint and checkpointed every
    :data:`CHECKPOINT`; returns the records, the warnings counted by message and the
    seconds spent."""
    partial = path.with_suffix(".partial.json") if path is not None else None
    records: list[dict[str, Any]] = []
    messages: dict[str, int] = {}
    seconds = 0.0
    if partial is not None:
        got = _read_json(partial)
        if got is not None and got.get("key") == key and got.get("engine") == engine_fingerprint():
            records, messages, seconds = got["records"], got["warnings"], got["seconds"]
    done = len({r["sim"] for r in records})

    from measurelab.progress import progress_bar

    bar = progress_bar(sims, label, unit="sim", enabled=progress, initial=done)
    try:
        for i in range(done, sims):
            t0 = time.perf_counter()
            recs, caught = one(i)
            seconds += time.perf_counter() - t0
            records += recs
            for msg in caught:
                messages[msg] = messages.get(msg, 0) + 1
            bar.update(1)
            if partial is not None and (i + 1) % CHECKPOINT == 0 and i + 1 < sims:
                _atomic_write_json(partial, {"key": key, "engine": engine_fingerprint(),
                                             "records": records, "warnings": messages,
                                             "seconds": seconds})
    finally:
        bar.close()
    return records, messages, seconds


def _finish(path: Path | None, key: Mapping[str, Any], summary: pd.DataFrame,
            records: list[dict[str, Any]], messages: Mapping[str, int], seconds: float,
            pop: Any) -> None:
    """Write a finished cell (key, provenance, population, summary, every record) and drop
    its checkpoint."""
    if path is None:
        return
    _atomic_write_json(path, {
        "key": key, "engine": engine_fingerprint(), "git": _git_head(),
        "measurelab": getattr(ml, "__version__", "?"), "seconds": seconds,
        "warnings": messages, "population": asdict(pop),
        "summary": summary.to_dict(orient="list"),
        "records": pd.DataFrame(records).to_dict(orient="list")})
    path.with_suffix(".partial.json").unlink(missing_ok=True)


#: the ``method`` of the summary rows over every simulation, whatever method each used
ALL = "all"

_COLUMNS = ["design", "n", "prevalence", "resampling", "kind", "model", "measure", "method",
            "sims", "coverage", "mcse", "miss_below", "miss_above", "width", "undefined",
            "unbounded", "population", "population_se", "sec_per_sim"]


def summarize(records: pd.DataFrame, pop: Population | MultiPopulation, n: int,
              design: str | None = None) -> pd.DataFrame:
    """Coverage table of one cell (test sets of ``n`` cases) from its per-simulation
    intervals (see :func:`run_cell`)."""
    rec = records.copy()
    col = {"a": 0, "b": 1, "a-b": 2}
    rec["population"] = [pop.value[m][col[k]] for m, k in zip(rec.measure, rec.model,
                                                                strict=True)]
    rec["population_se"] = [pop.se[m][col[k]] for m, k in zip(rec.measure, rec.model,
                                                              strict=True)]
    lo, hi, p = rec.lo.to_numpy(), rec.hi.to_numpy(), rec.population.to_numpy()
    rec["undef"] = np.isnan(lo) | np.isnan(hi)
    rec["covered"] = (lo <= p) & (p <= hi)
    rec["below"] = hi < p
    rec["above"] = lo > p
    rec["unbounded"] = np.isinf(lo) | np.isinf(hi)
    w = hi - lo
    rec["width"] = np.where(np.isfinite(w), w, np.nan)
    rec = pd.concat([rec, rec[rec.kind == "single"].assign(model="pooled")])
    rows = []
    for (kind, model, measure, method), g in pd.concat([rec.assign(method=ALL), rec]).groupby(
            ["kind", "model", "measure", "method"], sort=False):
        cov, mcse = _clustered_share(g.sim.to_numpy(), g.covered.to_numpy())
        rows.append({
            "design": design or pop.design, "n": int(n),
            "prevalence": getattr(pop, "prevalence", math.nan), "kind": kind,
            "model": model, "measure": measure, "method": method, "sims": g.sim.nunique(),
            "coverage": cov, "mcse": mcse, "miss_below": float(g.below.mean()),
            "miss_above": float(g.above.mean()), "width": float(g.width.mean()),
            "undefined": int(g.undef.sum()), "unbounded": int(g.unbounded.sum()),
            "population": float(g.population.iloc[0]) if model != "pooled" else math.nan,
            "population_se": float(g.population_se.iloc[0]) if model != "pooled" else math.nan,
        })
    return pd.DataFrame(rows)


def _clustered_share(cluster: np.ndarray, hit: np.ndarray) -> tuple[float, float]:
    """Share of hits and its standard error with simulations as clusters (ratio estimator:
    the two models' intervals of one simulation are not independent)."""
    ids, inv = np.unique(cluster, return_inverse=True)
    s = ids.size
    m = np.bincount(inv).astype(float)
    c = np.bincount(inv, weights=hit.astype(float))
    p = float(c.sum() / m.sum())
    if s < 2:
        return p, math.nan
    se = math.sqrt(float(np.sum((c - p * m) ** 2)) / (s * (s - 1)) / float(m.mean()) ** 2)
    return p, se


# --------------------------------------------------------------------------- k classes
#: the measures of the k-class study (issue 19): accuracy, macro F1, Hand–Till AUC (the
#: macro average of ``auc`` for k classes), cross-entropy and the multi-class Brier score
MULTI_MEASURES: tuple[str, ...] = ("acc", "f1", "auc", "mxe", "brier")
#: default size of the sample that gives the k-class population values
MULTI_POP_SIZE = 1_000_000
#: offsets the k-class seeds from the binary ones (prevalence keys lie below 10⁶)
_MULTI_KEY = 2_000_000


@dataclass(frozen=True)
class MultiPopulation:
    """Population values of one design and number of classes, from one large sample.

    ``value[m]`` = (a, b, a − b) on the whole sample (``average='macro'``: macro F1,
    Hand–Till AUC); ``se[m]`` their Monte Carlo standard errors (spread over
    ``POP_PARTS`` disjoint parts / √parts); ``discordant`` = (P(a right, b wrong),
    P(a wrong, b right)) of the argmax decisions, what McNemar's interval conditions on.
    """

    design: str
    classes: int
    priors: tuple[float, ...]
    size: int
    value: dict[str, tuple[float, float, float]]
    se: dict[str, tuple[float, float, float]]
    discordant: tuple[float, float]

    @property
    def prevalence(self) -> float:
        """No single prevalence: NaN (for :func:`summarize`)."""
        return math.nan


def _multi_values(y: np.ndarray, P_a: np.ndarray, P_b: np.ndarray,
                  measures: Sequence[str]) -> np.ndarray:
    """(measures, 3): a, b, a − b, each via measurelab.evaluate (average='macro')."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ra = ml.evaluate(y, P_a, measures=list(measures), average="macro")
        rb = ml.evaluate(y, P_b, measures=list(measures), average="macro")
    va = np.array([float(ra[m]) for m in measures])
    vb = np.array([float(rb[m]) for m in measures])
    return np.column_stack([va, vb, va - vb])


def population_multi(design: str, k: int, measures: Sequence[str], *, seed: int = 0,
                     size: int = MULTI_POP_SIZE, cache_dir: str | Path | None = None,
                     generator: LatentSoftmax | None = None,
                     progress: bool = False) -> MultiPopulation:
    """Population values of ``measures`` for k classes and one design (see
    :class:`MultiPopulation`), cached in ``cache_dir`` like :func:`population`.

    The large sample is drawn as the design draws a test set (``fixed``: exactly
    :meth:`LatentSoftmax.class_counts` cases per class), seeded by ``seed``, design and k.
    """
    gen = multi_generator(k) if generator is None else generator
    if gen.k != k:
        raise ValueError(f"the generator has {gen.k} classes, not {k}")
    measures = list(measures)
    if design == "random-stratified":  # the random design's population
        design = "random"
    key = _as_json({"schema": SCHEMA, "task": "k-class", "design": design, "classes": int(k),
                    "size": int(size), "seed": int(seed), "measures": measures,
                    "generator": asdict(gen)})
    path = None
    if cache_dir is not None:
        path = Path(cache_dir) / (f"population-k{k}-{design}-N{size}-seed{seed}-"
                                  f"{_digest(key)}.json")
        got = _read_json(path)
        if got is not None and got.get("key") == key:
            d = got["population"]
            return MultiPopulation(**{**d, "priors": tuple(d["priors"]),
                                      "value": _tuples(d["value"]), "se": _tuples(d["se"]),
                                      "discordant": tuple(d["discordant"])})
    if progress:
        print(f"population values: {k} classes, {design}, {size:,} cases ...",
              file=sys.stderr, flush=True)
    ss = _seed_seq(seed, 1000 + _DESIGN_CODE[design], _MULTI_KEY + int(k), size)
    y, P_a, P_b = gen.draw(design, size, np.random.default_rng(ss))
    whole = _multi_values(y, P_a, P_b, measures)
    parts = np.array([_multi_values(y[i], P_a[i], P_b[i], measures)
                      for i in np.array_split(np.arange(size), POP_PARTS)])
    se = parts.std(axis=0, ddof=1) / math.sqrt(POP_PARTS)
    ca, cb = P_a.argmax(axis=1) == y, P_b.argmax(axis=1) == y
    pop = MultiPopulation(
        design=design, classes=int(k), priors=tuple(gen.priors), size=int(size),
        value={m: tuple(map(float, whole[j])) for j, m in enumerate(measures)},
        se={m: tuple(map(float, se[j])) for j, m in enumerate(measures)},
        discordant=(float(np.mean(ca & ~cb)), float(np.mean(~ca & cb))))
    if path is not None:
        _atomic_write_json(path, {"key": key, "population": asdict(pop)})
    return pop


def _one_multi_sim(i: int, design: str, n: int, n_boot: int, root: np.random.SeedSequence,
                   measures: Sequence[str], ci_method: str | None, generator: LatentSoftmax
                   ) -> tuple[list[dict[str, Any]], list[str]]:
    """Intervals of k-class simulation ``i``: one record per (model or pair, measure).

    A paired row's ``method`` is the ``interval`` column of ``.tests()`` (e.g.
    'bootstrap-bca', 'tango-score'), which names a BCa fallback."""
    data_ss, boot_ss = np.random.SeedSequence(root.entropy, spawn_key=(i,)).spawn(2)
    y, P_a, P_b = generator.draw(design, n, np.random.default_rng(data_ss))
    boot_seed = int(boot_ss.generate_state(1, np.uint64)[0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = ml.compare_classifiers(y, {"a": P_a, "b": P_b}, measures=list(measures), ci=LEVEL,
                                   n_boot=n_boot, random_state=boot_seed, ci_method=ci_method,
                                   progress=False, stratify=design != "random")
        iv, ts = r.intervals(), r.tests()
    recs: list[dict[str, Any]] = [
        {"sim": i, "kind": "single", "model": str(row.model), "measure": str(row.measure),
         "method": str(row.method), "est": float(row.value), "lo": float(row.lo),
         "hi": float(row.hi)} for row in iv.itertuples(index=False)]
    recs += [
        {"sim": i, "kind": "diff", "model": f"{row.a}-{row.b}", "measure": str(row.measure),
         "method": str(getattr(row, "interval", row.method)), "est": float(row.diff),
         "lo": float(row.lo), "hi": float(row.hi)} for row in ts.itertuples(index=False)]
    return recs, [str(w.message).splitlines()[0][:200] for w in caught]


def multi_cell_key(design: str, n: int, k: int, sims: int, n_boot: int, seed: int,
                   measures: Sequence[str], ci_method: str | None = None,
                   pop_size: int = MULTI_POP_SIZE,
                   generator: LatentSoftmax | None = None) -> dict[str, Any]:
    """Everything that decides a k-class cell's result (its cache file is named from it)."""
    gen = multi_generator(k) if generator is None else generator
    return _as_json({"schema": SCHEMA, "task": "k-class", "design": design, "n": int(n),
                     "classes": int(k), "sims": int(sims), "n_boot": int(n_boot),
                     "seed": int(seed), "measures": list(measures), "ci": LEVEL,
                     "ci_method": ci_method, "pop_size": int(pop_size),
                     "generator": asdict(gen), "resampling": resampling_of(design)})


def _multi_cell_path(cache_dir: str | Path, key: Mapping[str, Any]) -> Path:
    name = (f"cell-k{key['classes']}-{key['design']}-n{key['n']}-sims{key['sims']}-"
            f"boot{key['n_boot']}-seed{key['seed']}-{key['resampling']}-{_digest(key)}.json")
    return Path(cache_dir) / name


_MULTI_COLUMNS = ["design", "n", "classes", "resampling", "kind", "model", "measure", "method",
                  "sims", "coverage", "mcse", "miss_below", "miss_above", "width", "undefined",
                  "unbounded", "population", "population_se", "sec_per_sim"]


def run_multi_cell(design: str, n: int, k: int, sims: int, n_boot: int, seed: int,
                   measures: Sequence[str] = MULTI_MEASURES, *, ci_method: str | None = None,
                   pop_size: int = MULTI_POP_SIZE, cache_dir: str | Path | None = None,
                   progress: bool = False,
                   generator: LatentSoftmax | None = None) -> pd.DataFrame:
    """Coverage of one k-class cell: ``sims`` test sets of ``n`` cases of ``k`` classes
    from :class:`LatentSoftmax` (default :func:`multi_generator`), two models compared by
    :func:`measurelab.compare_classifiers` (``average='macro'``; ``stratify`` False for the
    random design, True otherwise).

    As :func:`run_cell` (same caching, checkpoints and seeding rules, the same summary rows)
    with the column ``classes`` in place of ``prevalence``; the population values come from
    :func:`population_multi`.
    """
    gen = multi_generator(k) if generator is None else generator
    if gen.k != k:
        raise ValueError(f"the generator has {gen.k} classes, not {k}")
    measures = list(measures)
    key = multi_cell_key(design, n, k, sims, n_boot, seed, measures, ci_method, pop_size, gen)
    path = _multi_cell_path(cache_dir, key) if cache_dir is not None else None
    cached = _cached_summary(path, key)
    if cached is not None:
        return cached
    pop = population_multi(design, k, measures, seed=seed, size=pop_size, cache_dir=cache_dir,
                           generator=gen, progress=progress)
    root = _seed_seq(seed, _DESIGN_CODE[design], n, _MULTI_KEY + int(k))

    def one(i: int) -> tuple[list[dict[str, Any]], list[str]]:
        return _one_multi_sim(i, design, n, n_boot, root, measures, ci_method, gen)

    records, messages, seconds = _simulate(key, path, sims, one, f"k={k} {design} n={n}",
                                           progress)
    summary = summarize(pd.DataFrame(records), pop, n, design)
    summary["classes"] = int(k)
    summary["resampling"] = key["resampling"]
    summary["sec_per_sim"] = seconds / sims if sims else math.nan
    summary = summary[_MULTI_COLUMNS]
    _finish(path, key, summary, records, messages, seconds, pop)
    return summary


# --------------------------------------------------------------------------- report
def _label(design: str, n: int, prevalence: float) -> str:
    return f"{design} n={n} π={prevalence:g}"


def _grid(table: pd.DataFrame, cells: Sequence[tuple[str, int, float]], measures: Sequence[str],
          fmt: Any, third: str = "prevalence", label: Any = None) -> list[str]:
    """Markdown rows measure × method, one column per cell; ``fmt(rows)`` formats an entry
    from the summary rows of that (measure, method, cell). A cell is (design, n, value of
    the column ``third``), headed ``label(*cell)`` (default :func:`_label`)."""
    label = _label if label is None else label
    head = ["measure", "method", *(label(*c) for c in cells)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 2 + "---:|" * len(cells)]
    for m in measures:
        sub = table[table.measure == m]
        methods = [k for k in dict.fromkeys(sub.method) if k != ALL]
        # one method everywhere: one row; else the row over all simulations, then each method
        shown = [(methods[0], ALL)] if len(methods) == 1 else [(ALL, ALL)] + [
            (k, k) for k in methods]
        for label, method in shown:
            row = [m, label]
            for d, n, p in cells:
                g = sub[(sub.method == method) & (sub.design == d) & (sub.n == n)
                        & np.isclose(sub[third], p)]
                row.append(fmt(g) if len(g) else "")
            lines.append("| " + " | ".join(row) + " |")
    return lines


def _cov(g: pd.DataFrame, total: int) -> str:
    r = g.iloc[0]
    k = int(r.sims)
    extra = "" if k == total else f" ({k} sim{'s' if k != 1 else ''})"
    se = f" ± {r.mcse:.3f}" if math.isfinite(r.mcse) else ""
    return f"{r.coverage:.3f}{se}{extra}"


def _verdict(summary: pd.DataFrame, measures: Sequence[str]) -> list[str]:
    """The summary lines: per design and kind, the lowest cell (where) and the mean, over
    the key measures (all methods of a measure together, both models pooled)."""
    out = ["## Summary", "",
           "| design | interval | cells | lowest (where) | mean | cells below 0.90 |",
           "|---|---|---:|---|---:|---:|"]
    rows = summary[(summary.method == ALL) & summary.model.isin(["pooled", "a-b"])
                   & summary.measure.isin(list(measures))]
    for d in dict.fromkeys(rows.design):
        for kind, label in (("single", "single model"), ("diff", "paired difference")):
            g = rows[(rows.design == d) & (rows.kind == kind)]
            if g.empty:
                continue
            low = g.loc[g.coverage.idxmin()]
            where = f"{low.measure}, n={low.n}, π={low.prevalence:g}"
            out.append(f"| {d} | {label} | {len(g)} | {low.coverage:.3f} ({where}) | "
                       f"{g.coverage.mean():.3f} | {int((g.coverage < 0.90).sum())} |")
    return out


def markdown_report(summary: pd.DataFrame, pops: Mapping[tuple[str, float], Population],
                    cells: Sequence[tuple[str, int, float]], measures: Sequence[str],
                    sims: int, n_boot: int, command: str | None = None,
                    generator: Binormal = GENERATOR) -> str:
    """The study as Markdown: population values, coverage (single model pooled, per model,
    paired difference), misses by side, mean widths, time per simulation."""
    out = ["# Coverage of measurelab's 95% intervals", "",
           f"The k-class study (3 and 5 classes) is [{MULTI_OUT.name}]({MULTI_OUT.name}).", ""]
    if command:
        out += [f"Command: `{command}`", ""]
    resamp = {d: ", ".join(sorted(set(summary.loc[summary.design == d, "resampling"])))
              for d in dict.fromkeys(c[0] for c in cells)}
    out += [
        f"measurelab git {_git_head()}, sources {engine_fingerprint()}; {sims} simulated test "
        f"sets per cell, {n_boot} bootstrap replicates per interval, level {LEVEL}.", "",
        "**Generator** (`Binormal` in `benchmarks/coverage_study.py`): model k sees "
        "x_k = μ_k·y + e_k, (e_a, e_b) standard bivariate normal with correlation "
        f"ρ = {generator.rho}, and scores s_k = sigmoid(b_k·(x_k − c_k)); μ = {generator.mu} "
        f"(AUC 0.80, 0.85), b = {generator.slope}, c = {generator.cut} (the 0.5 threshold "
        "is x_k > c_k). Neither model is calibrated.", "",
        "**Designs**: `random` = y i.i.d. Bernoulli(π), intervals resampling "
        f"{resamp.get('random', '-')}; `fixed` = exactly round(π·n) positives, intervals "
        f"resampling {resamp.get('fixed', '-')}; `random-stratified` = the random design's "
        "test sets (the same ones), intervals resampled by class — the wrong choice for a "
        "random sample, shown for what it costs. "
        "(`stratified-legacy` = a measurelab without `stratify`, which always stratifies.)", "",
        "**Population value** = the measure (and the difference a − b) on one sample of "
        f"{next(iter(pops.values())).size:,} cases of the same design; its Monte Carlo SE "
        f"from {POP_PARTS} disjoint parts. `exact` = the limit by numerical integration; "
        "z = (sample − exact)/SE.", "",
        "Coverage = share of simulated test sets whose interval contains the population "
        "value, ± its Monte Carlo SE (simulations as clusters when a and b are pooled). "
        "An undefined (NaN) interval counts as a miss. Where measurelab used more than one "
        "method for a measure (e.g. BCa falling back to percentile), the row `all` counts "
        "every simulation and each method's row only those that used it.", "",
        *_verdict(summary, measures), "",
        "## Population values", "",
        "| design | π | measure | a | b | a − b | SE a | SE b | SE a − b | exact a | exact b "
        "| z max |", "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (d, p), pop in pops.items():
        for m in measures:
            v, se, ex = pop.value[m], pop.se[m], pop.exact.get(m, (math.nan,) * 3)
            z = max((abs(v[j] - ex[j]) / se[j] if se[j] > 0 else math.nan for j in range(3)),
                    default=math.nan)
            out.append(f"| {d} | {p:g} | {m} | {v[0]:.4f} | {v[1]:.4f} | {v[2]:+.4f} | "
                       f"{se[0]:.1e} | {se[1]:.1e} | {se[2]:.1e} | {ex[0]:.4f} | {ex[1]:.4f} "
                       f"| {z:.1f} |")
    single = summary[summary.kind == "single"]
    diff = summary[summary.kind == "diff"]
    pooled = single[single.model == "pooled"]

    def cov(g: pd.DataFrame) -> str:
        return _cov(g, sims)

    def per_model(g: pd.DataFrame) -> str:
        return " / ".join(f"{g[g.model == k].coverage.iloc[0]:.3f}" if (g.model == k).any()
                          else "–" for k in MODELS)

    def sides(g: pd.DataFrame) -> str:
        r = g.iloc[0]
        return f"{r.miss_below:.3f} / {r.miss_above:.3f}"

    def width(g: pd.DataFrame) -> str:
        return f"{g.iloc[0].width:.4f}"

    out += ["", "## Coverage: single model (a and b pooled)", "",
            *_grid(pooled, cells, measures, cov),
            "", "## Coverage: single model, a / b", "",
            *_grid(single[single.model != "pooled"], cells, measures, per_model),
            "", "## Coverage: paired difference a − b", "",
            *_grid(diff, cells, measures, cov),
            "", "## Misses below / above (single model pooled; interval entirely below / "
            "above the population value)", "",
            *_grid(pooled, cells, measures, sides),
            "", "## Misses below / above (paired difference)", "",
            *_grid(diff, cells, measures, sides),
            "", "## Mean width: single model (pooled)", "",
            *_grid(pooled, cells, measures, width),
            "", "## Mean width: paired difference", "",
            *_grid(diff, cells, measures, width),
            "", "## Time", "", "| cell | seconds per simulation |", "|---|---:|"]
    for d, n, p in cells:
        g = summary[(summary.design == d) & (summary.n == n) & np.isclose(summary.prevalence, p)]
        out.append(f"| {_label(d, n, p)} | {g.sec_per_sim.iloc[0]:.2f} |")
    return "\n".join(out) + "\n"


#: issue 19's bar for the k-class coverage cells
MULTI_BAR = 0.89


def _label_multi(design: str, n: int, k: int) -> str:
    return f"k={k} {design} n={n}"


def _verdict_multi(summary: pd.DataFrame, measures: Sequence[str]) -> list[str]:
    """The summary lines of the k-class study: per k, design and kind, the lowest cell
    (where), the mean and the cells below :data:`MULTI_BAR` (all methods of a measure
    together, both models pooled for single-model intervals)."""
    out = ["## Summary", "",
           f"| classes | design | interval | cells | lowest (where) | mean | "
           f"cells below {MULTI_BAR} |", "|---:|---|---|---:|---|---:|---:|"]
    rows = summary[(summary.method == ALL) & summary.model.isin(["pooled", "a-b"])
                   & summary.measure.isin(list(measures))]
    for k in dict.fromkeys(rows.classes):
        for d in dict.fromkeys(rows.design[rows.classes == k]):
            for kind, label in (("single", "single model"), ("diff", "paired difference")):
                g = rows[(rows.classes == k) & (rows.design == d) & (rows.kind == kind)]
                if g.empty:
                    continue
                low = g.loc[g.coverage.idxmin()]
                out.append(f"| {k} | {d} | {label} | {len(g)} | {low.coverage:.3f} "
                           f"({low.measure}, n={low.n}) | {g.coverage.mean():.3f} | "
                           f"{int((g.coverage < MULTI_BAR).sum())} |")
    return out


def markdown_multi_report(summary: pd.DataFrame,
                          pops: Mapping[tuple[str, int], MultiPopulation],
                          cells: Sequence[tuple[str, int, int]], measures: Sequence[str],
                          sims: int, n_boot: int, command: str | None = None) -> str:
    """The k-class study as Markdown (the counterpart of :func:`markdown_report`):
    generators, population values, coverage (single model pooled, per model, paired
    difference), misses by side, mean widths, time per simulation."""
    from scipy.stats import norm

    out = ["# Coverage of measurelab's 95% intervals: k classes", "",
           "The binary study is [coverage.md](coverage.md).", ""]
    if command:
        out += [f"Command: `{command}`", ""]
    gens = {k: pops_k.priors for (_d, k), pops_k in pops.items()}
    g0 = multi_generator(next(iter(gens)))
    out += [
        f"measurelab git {_git_head()}, sources {engine_fingerprint()}; {sims} simulated test "
        f"sets per cell, {n_boot} bootstrap replicates per interval, level {LEVEL}; "
        "`compare_classifiers(y, {'a': P_a, 'b': P_b}, average='macro')`: acc, macro f1, "
        "Hand–Till auc (the macro average of `auc` for k classes), mxe (nats) and the "
        "multi-class Brier score (Σ over classes, mean over cases).", "",
        "**Generator** (`LatentSoftmax` in `benchmarks/coverage_study.py`): a case of class y "
        "(drawn from the priors) gives model m the evidence x_m = μ_m·e_y + z_m, z_m standard "
        f"normal in k dimensions with corr(z_a[c], z_b[c]) = ρ = {g0.rho} for every class c, "
        f"and model m scores P_m = softmax(b_m·x_m); μ = {g0.mu}, b = {g0.slope}. The "
        "calibrated posterior would be softmax(μ_m·x_m + log priors): a is underconfident, b "
        "overconfident, and neither uses the priors (both predict the small classes too "
        "often). Priors: " + "; ".join(f"k = {k}: {p}" for k, p in gens.items()) + ".", "",
        "**Designs**: `random` = y i.i.d. from the priors, intervals with `stratify=False` "
        "(cases resampled jointly); `fixed` = exactly round(prior·n) cases per class "
        "(largest remainders), intervals with `stratify=True`; `random-stratified` = the "
        "random design's test sets resampled by class.", "",
        "**Population value** = the measure (and the difference a − b) on one sample of "
        f"{next(iter(pops.values())).size:,} cases of the same design; its Monte Carlo SE "
        f"from {POP_PARTS} disjoint parts.", "",
        "Coverage = share of simulated test sets whose interval contains the population "
        "value, ± its Monte Carlo SE (simulations as clusters when a and b are pooled). "
        "An undefined (NaN) interval counts as a miss. Single-model acc is Wilson's "
        "interval; the paired acc difference is Tango's score interval "
        "(`.tests()` row `acc`, interval `tango-score`); every other interval "
        "is the case-resampling bootstrap (BCa). Issue 19's bar: every cell (3 classes, "
        f"n = 500, random sample) ≥ {MULTI_BAR}.", "",
        *_verdict_multi(summary, measures), "",
        "## Population values", "",
        "| classes | design | measure | a | b | a − b | SE a | SE b | SE a − b |",
        "|---:|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for (d, k), pop in pops.items():
        for m in measures:
            v, se = pop.value[m], pop.se[m]
            out.append(f"| {k} | {d} | {m} | {v[0]:.4f} | {v[1]:.4f} | {v[2]:+.4f} | "
                       f"{se[0]:.1e} | {se[1]:.1e} | {se[2]:.1e} |")
    out += ["", "McNemar's interval is conditional on the d discordant cases: given d, "
            "b ~ Bin(d, π) and the interval of (d/n)(2π − 1) ignores the variation of d/n. "
            "With p₁₀ = P(a right, b wrong), p₀₁ = P(a wrong, b right), s = p₁₀ + p₀₁ and "
            "δ = p₁₀ − p₀₁, its variance is n⁻¹(s − δ²/s) against the unconditional "
            "n⁻¹(s − δ²); the last column is the coverage a normal interval of the "
            "conditional width would have (2Φ(1.96·ratio) − 1, before Clopper–Pearson's "
            "conservatism).", "",
            "| classes | design | p₁₀ | p₀₁ | s | δ | sd ratio | normal coverage |",
            "|---:|---|---:|---:|---:|---:|---:|---:|"]
    for (d, k), pop in pops.items():
        p10, p01 = pop.discordant
        s, dl = p10 + p01, p10 - p01
        ratio = math.sqrt((s - dl**2 / s) / (s - dl**2)) if 0 < s < 1 else math.nan
        out.append(f"| {k} | {d} | {p10:.4f} | {p01:.4f} | {s:.4f} | {dl:+.4f} | "
                   f"{ratio:.3f} | {2 * norm.cdf(1.959964 * ratio) - 1:.3f} |")

    single = summary[summary.kind == "single"]
    diff = summary[summary.kind == "diff"]
    pooled = single[single.model == "pooled"]

    def grid(table: pd.DataFrame, fmt: Any) -> list[str]:
        return _grid(table, cells, measures, fmt, third="classes", label=_label_multi)

    def cov(g: pd.DataFrame) -> str:
        return _cov(g, sims)

    def per_model(g: pd.DataFrame) -> str:
        return " / ".join(f"{g[g.model == k].coverage.iloc[0]:.3f}" if (g.model == k).any()
                          else "–" for k in MODELS)

    def sides(g: pd.DataFrame) -> str:
        r = g.iloc[0]
        return f"{r.miss_below:.3f} / {r.miss_above:.3f}"

    def width(g: pd.DataFrame) -> str:
        return f"{g.iloc[0].width:.4f}"

    out += ["", "## Coverage: single model (a and b pooled)", "", *grid(pooled, cov),
            "", "## Coverage: single model, a / b", "",
            *grid(single[single.model != "pooled"], per_model),
            "", "## Coverage: paired difference a − b", "", *grid(diff, cov),
            "", "## Misses below / above (single model pooled; interval entirely below / "
            "above the population value)", "", *grid(pooled, sides),
            "", "## Misses below / above (paired difference)", "", *grid(diff, sides),
            "", "## Mean width: single model (pooled)", "", *grid(pooled, width),
            "", "## Mean width: paired difference", "", *grid(diff, width),
            "", "## Time", "", "| cell | seconds per simulation |", "|---|---:|"]
    for d, n, k in cells:
        g = summary[(summary.design == d) & (summary.n == n) & (summary.classes == k)]
        out.append(f"| {_label_multi(d, n, k)} | {g.sec_per_sim.iloc[0]:.2f} |")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- command line
def main(argv: Sequence[str] | None = None) -> int:
    """Run the study (every cell of designs × n × prevalence, or with ``--classes`` of
    designs × n × classes), write and print the report."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sims", type=int, default=500, help="simulated test sets per cell")
    ap.add_argument("--n", type=int, nargs="+", default=[300, 400], help="cases per test set")
    ap.add_argument("--prevalence", type=float, nargs="+", default=[0.1, 0.3],
                    help="binary study only")
    ap.add_argument("--classes", type=int, nargs="+", default=None, metavar="K",
                    help="run the k-class study for these numbers of classes (>= 3) instead "
                         "of the binary one")
    ap.add_argument("--designs", nargs="+", choices=DESIGNS, default=list(DESIGNS))
    ap.add_argument("--n-boot", type=int, default=1000)
    ap.add_argument("--measures", nargs="+", default=None,
                    help=f"default: {' '.join(KEY_MEASURES)} (binary), "
                         f"{' '.join(MULTI_MEASURES)} (k classes)")
    ap.add_argument("--ci-method", default=None,
                    help="force one interval method (default: measurelab's per measure)")
    ap.add_argument("--pop-size", type=int, default=None,
                    help="cases of the sample that gives the population values (default "
                         f"{POP_SIZE:,} binary, {MULTI_POP_SIZE:,} k classes)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None,
                    help=f"Markdown report (default {BINARY_OUT} for the binary study, "
                         f"{MULTI_OUT} for the k-class one)")
    ap.add_argument("--cache", default="out/coverage-cache",
                    help="folder of the finished (and checkpointed) cells")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    multi = args.classes is not None
    if args.measures is None:
        args.measures = list(MULTI_MEASURES if multi else KEY_MEASURES)
    if args.pop_size is None:
        args.pop_size = MULTI_POP_SIZE if multi else POP_SIZE
    if args.out is None:
        args.out = str(MULTI_OUT if multi else BINARY_OUT)
    if args.sims < 2 or args.n_boot < 1 or args.pop_size < 10 * POP_PARTS:
        ap.error(f"need --sims >= 2, --n-boot >= 1 and --pop-size >= {10 * POP_PARTS}")
    if not all(0 < p < 1 for p in args.prevalence):
        ap.error("--prevalence must lie in (0, 1)")
    if multi and not all(k >= 3 for k in args.classes):
        ap.error("--classes must be at least 3 (two classes: leave --classes out)")
    if not supports_stratify():
        print("warning: measurelab.compare_classifiers has no `stratify` keyword yet; its "
              "bootstrap is stratified, so the random design is reported as "
              "'stratified-legacy'", file=sys.stderr)
    command = "python benchmarks/coverage_study.py " + " ".join(
        sys.argv[1:] if argv is None else list(argv))

    if multi:
        mcells = [(d, n, k) for k in args.classes for d in args.designs for n in args.n]
        frames, mpops = [], {}
        for d, n, k in mcells:
            frames.append(run_multi_cell(d, n, k, args.sims, args.n_boot, args.seed,
                                         args.measures, ci_method=args.ci_method,
                                         pop_size=args.pop_size, cache_dir=args.cache,
                                         progress=not args.no_progress))
            if (d, k) not in mpops:
                mpops[d, k] = population_multi(d, k, args.measures, seed=args.seed,
                                               size=args.pop_size, cache_dir=args.cache)
        text = markdown_multi_report(pd.concat(frames, ignore_index=True), mpops, mcells,
                                     args.measures, args.sims, args.n_boot, command)
    else:
        cells = [(d, n, p) for d in args.designs for p in args.prevalence for n in args.n]
        frames, pops = [], {}
        for d, n, p in cells:
            frames.append(run_cell(d, n, p, args.sims, args.n_boot, args.seed, args.measures,
                                   ci_method=args.ci_method, pop_size=args.pop_size,
                                   cache_dir=args.cache, progress=not args.no_progress))
            if (d, p) not in pops:
                pops[d, p] = population(d, p, args.measures, seed=args.seed,
                                        size=args.pop_size, cache_dir=args.cache)
        text = markdown_report(pd.concat(frames, ignore_index=True), pops, cells,
                               args.measures, args.sims, args.n_boot, command)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(text)
    print(f"written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
