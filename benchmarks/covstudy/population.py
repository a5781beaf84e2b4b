"""Population values: what an interval of the study should contain.

The population value of a measure is its value on one very large sample of the same design
(the limit of the sample value, which is what a ratio measure's interval is about), with
its Monte Carlo standard error from :data:`POP_PARTS` disjoint parts of that sample. Where a
generator knows a value exactly and declares it the target (``exact_is_target``: a
calibrated model's calibration errors are exactly 0, while their large-sample estimates
are biased upwards), the exact value is the target; otherwise the exact value, where
known, is a check of the large sample (the report's z column).
"""

from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

import measurelab as ml

from . import choice
from .generators import generator
from .store import as_json, atomic_write_json, digest, prev_key, read_json, seed_seq

#: default size of the sample that gives the population values (binary; k classes)
POP_SIZE = 2_000_000
MULTI_POP_SIZE = 1_000_000
#: the population sample is also evaluated in this many disjoint parts (for its MC error)
POP_PARTS = 20
#: bump when the meaning of a population file changes
SCHEMA = 2
#: seed codes: designs (the random-stratified design draws the random design's data), the
#: k-class offset (prevalence keys lie below 10⁶), generators other than the first of a task
#: (each binary generator its own code: the binormal variants draw other data)
DESIGN_CODE = {"random": 1, "fixed": 2, "random-stratified": 1, "weighted": 3}
MULTI_KEY = 2_000_000
GEN_CODE = {"binormal": (), "calibrated": (3,), "sparse-flags": (4,), "kink": (5,),
            "binormal-exact": (6,), "calibrated-exact": (7,), "softmax": (),
            "softmax-calibrated": (3,)}


def population_setting(design: str, param: float) -> tuple[str, float]:
    """The design and parameter whose population a cell's intervals are about: the random
    design's for ``random-stratified``; for ``weighted`` the random design's at the
    prevalence the weights stand for (:meth:`~covstudy.generators.CaseWeights.
    target_prevalence`); else the cell's own."""
    if design == "random-stratified":
        return "random", param
    if design == "weighted":
        from .generators import WEIGHTS

        return "random", WEIGHTS.target_prevalence(float(param))
    return design, param


@dataclass(frozen=True)
class Population:
    """Population values of one setting (task, generator, design, prevalence or classes).

    ``value[m]`` = (a, b, a − b) on the whole large sample; ``se[m]`` their Monte Carlo
    standard errors; ``exact[m]`` the exact values (NaN where unknown); ``target[m]`` what
    the coverage counts (exact where the generator declares it, else the large sample);
    ``discordant`` = (P(a right, b wrong), P(a wrong, b right)) of the decisions (binary:
    at 0.5; k classes: arg-max).
    """

    task: str
    generator: str
    design: str
    prevalence: float
    classes: int
    average: str
    size: int
    value: dict[str, tuple[float, float, float]]
    se: dict[str, tuple[float, float, float]]
    exact: dict[str, tuple[float, float, float]]
    target: dict[str, tuple[float, float, float]]
    discordant: tuple[float, float]


def _values(y: np.ndarray, s_a: np.ndarray, s_b: np.ndarray, measures: Sequence[str],
            average: str | None) -> np.ndarray:
    """(measures, 3): a, b, a − b, each via measurelab.evaluate (best_threshold's rows:
    :func:`~covstudy.choice.sample_values`)."""
    kw = {} if average is None else {"average": average}
    plain = [m for m in measures if not choice.is_choice(m)]
    picks = [m for m in measures if choice.is_choice(m)]
    got: dict[str, np.ndarray] = {}
    with warnings.catch_warnings(), np.errstate(invalid="ignore"):
        warnings.simplefilter("ignore")
        if plain:
            ra = ml.evaluate(y, s_a, measures=plain, **kw)
            rb = ml.evaluate(y, s_b, measures=plain, **kw)
            for m in plain:
                va, vb = float(ra[m]), float(rb[m])
                got[m] = np.array([va, vb, _pair(m, va, vb)])
        if picks:
            got.update(zip(picks, choice.sample_values(y, s_a, s_b, picks), strict=True))
    return np.array([got[m] for m in measures])


def _pair(name: str, a: float, b: float) -> float:
    """What a paired or unpaired row of measure ``name`` reports for values a and b: a − b,
    or for a measure with a target (``cal_slope``: 1) the difference of the distances
    |a − t| − |b − t| (:meth:`measurelab.measures.base.Measure.pair_statistic`)."""
    from measurelab.measures.base import registry

    if choice.is_choice(name):   # best_threshold's rows: a plain difference
        return a - b
    with np.errstate(invalid="ignore"):
        return float(registry.get(name.split("@")[0]).pair_statistic(a, b))


def population_key(task: str, gen_name: str, design: str, param: float, measures: Sequence[str],
                   size: int, seed: int, average: str = "macro") -> dict[str, Any]:
    """Everything that decides a population (its cache file is named from it)."""
    design, param = population_setting(design, param)
    gen = generator(task, gen_name, int(param) if task == "k" else 2)
    return as_json({"schema": SCHEMA, "task": task, "generator": gen_name,
                    "params": asdict(gen), "design": design, "param": float(param),
                    "size": int(size), "seed": int(seed), "measures": list(measures),
                    "average": average if task == "k" else None})


def population(task: str, gen_name: str, design: str, param: float, measures: Sequence[str],
               *, seed: int = 0, size: int | None = None, average: str = "macro",
               cache_dir: str | Path | None = None, progress: bool = False) -> Population:
    """Population values of ``measures`` for one setting: ``task`` 'binary' (``param`` =
    the prevalence) or 'k' (``param`` = the number of classes, values with ``average``).

    The large sample is drawn as the design draws a test set (``fixed``: exact class
    counts), seeded by ``seed``, design, generator and prevalence or classes; a
    ``weighted`` cell's population is the random design's at the prevalence its weights
    stand for (:func:`population_setting`). With ``cache_dir`` the result is kept there as
    JSON and read back on the next call.
    """
    measures = list(measures)
    if size is None:
        size = POP_SIZE if task == "binary" else MULTI_POP_SIZE
    design, param = population_setting(design, param)
    key = population_key(task, gen_name, design, param, measures, size, seed, average)
    path = None
    if cache_dir is not None:
        tag = f"pi{param:g}" if task == "binary" else f"k{int(param)}-{average}"
        path = Path(cache_dir) / (f"population-{task}-{gen_name}-{design}-{tag}-N{size}-"
                                  f"seed{seed}-{digest(key)}.json")
        got = read_json(path)
        if got is not None and got.get("key") == key:
            return _from_json(got["population"])
    if progress:
        print(f"population values: {task} {gen_name} {design} {param:g}, {size:,} cases ...",
              file=sys.stderr, flush=True)
    pop = _compute(task, gen_name, design, float(param), measures, int(seed), int(size),
                   average)
    if path is not None:
        atomic_write_json(path, {"key": key, "population": asdict(pop)})
    return pop


def _from_json(d: dict[str, Any]) -> Population:
    tup = {k: {m: tuple(v) for m, v in d[k].items()} for k in ("value", "se", "exact",
                                                                  "target")}
    return Population(**{**d, **tup, "discordant": tuple(d["discordant"])})


def _compute(task: str, gen_name: str, design: str, param: float, measures: list[str],
             seed: int, size: int, average: str) -> Population:
    if task == "binary":
        gen = generator("binary", gen_name)
        ss = seed_seq(seed, 1000 + DESIGN_CODE[design], prev_key(param), size,
                      *GEN_CODE[gen_name])
        y, s_a, s_b = gen.draw(design, size, param, np.random.default_rng(ss))
        ex = {**gen.exact(param, measures), **choice.exact(gen, measures)}
        ca, cb = (s_a > 0.5) == (y == 1), (s_b > 0.5) == (y == 1)
        avg: str | None = None
    else:
        k = int(param)
        gen = generator("k", gen_name, k)
        ss = seed_seq(seed, 1000 + DESIGN_CODE[design], MULTI_KEY + k, size,
                      *GEN_CODE[gen_name])
        y, s_a, s_b = gen.draw(design, size, np.random.default_rng(ss))
        ex = gen.exact(measures)
        ca, cb = s_a.argmax(axis=1) == y, s_b.argmax(axis=1) == y
        avg = average
    whole = _values(y, s_a, s_b, measures, avg)
    parts = np.array([_values(y[i], s_a[i], s_b[i], measures, avg)
                      for i in np.array_split(np.arange(size), POP_PARTS)])
    with np.errstate(invalid="ignore"):   # a part's infinite value (lr_pos with no FP)
        se = parts.std(axis=0, ddof=1) / math.sqrt(POP_PARTS)
    exact = {m: (ea, eb, ea - eb) for m, (ea, eb) in ex.items()}
    target = {}
    for j, m in enumerate(measures):
        # best_threshold's rows: the exact operating point is the target (a large
        # sample's optimum is itself an estimate, biased upwards in J)
        exact_target = gen.exact_is_target or choice.is_choice(m)
        ta, tb = (e if exact_target and math.isfinite(e) else float(whole[j, c])
                  for c, e in enumerate(exact.get(m, (math.nan, math.nan))[:2]))
        target[m] = (ta, tb, _pair(m, ta, tb))
    return Population(
        task=task, generator=gen_name, design=design,
        prevalence=param if task == "binary" else math.nan,
        classes=2 if task == "binary" else int(param),
        average=average if task == "k" else "", size=size,
        value={m: tuple(map(float, whole[j])) for j, m in enumerate(measures)},
        se={m: tuple(map(float, se[j])) for j, m in enumerate(measures)},
        exact={m: exact.get(m, (math.nan,) * 3) for m in measures},
        target=target,
        discordant=(float(np.mean(ca & ~cb)), float(np.mean(~ca & cb))))
