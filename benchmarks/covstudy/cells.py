"""One cell of the coverage study: ``sims`` simulated test sets of one setting, the
intervals measurelab gives on each, and how often they contain the population value.

A :class:`Cell` is a task ('binary' or 'k'), a generator, a design, n, a prevalence (binary)
or a number of classes and an ``average`` (k), the kinds of interval (``single``: each
model's value; ``paired``: the difference a − b on the same cases; ``unpaired``: model a on
one test set against model b on an independent one, binary only) and the measures.

Every finished cell is written atomically to the cache folder (one JSON per cell, with every
simulation's intervals), an unfinished cell every :data:`CHECKPOINT` simulations; a rerun
with the same arguments resumes from there. Simulation i of a cell always uses the same data
and bootstrap seed, so a resumed run gives the same table as an uninterrupted one.
"""

from __future__ import annotations

import json
import math
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import measurelab as ml
from measurelab.exceptions import MeasurelabError
from measurelab.inference.evidence import plain_method, procedure
from measurelab.inference.withholding import withholding

from . import choice
from .generators import DESIGNS, GEN_NOTE, WEIGHTS, generator
from .population import DESIGN_CODE, GEN_CODE, MULTI_KEY, Population, population
from .store import (
    as_json,
    atomic_write_json,
    digest,
    engine_fingerprint,
    git_head,
    prev_key,
    read_json,
    seed_seq,
)

#: confidence level of every interval
LEVEL = 0.95
#: an unfinished cell is saved every this many simulations
CHECKPOINT = 20
#: bump when the layout of the cache files or the meaning of a cell changes
SCHEMA = 3
#: the kinds of interval
KINDS: tuple[str, ...] = ("single", "paired", "unpaired")
#: the ``method`` of the summary rows over every simulation, whatever method each used
ALL = "all"
#: the models of a simulated test set
MODELS: tuple[str, str] = ("a", "b")

COLUMNS = ["task", "generator", "design", "n", "prevalence", "classes", "average",
           "resampling", "kind", "model", "measure", "method", "sims", "coverage", "mcse",
           "miss_below", "miss_above", "width", "undefined", "unbounded", "population",
           "population_se", "sec_per_sim", "reasons"]


@dataclass(frozen=True)
class Cell:
    """One setting of the study (see the module doc)."""

    task: str
    generator: str
    design: str
    n: int
    prevalence: float = math.nan
    classes: int = 2
    average: str = "macro"
    kinds: tuple[str, ...] = ("single", "paired")
    measures: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.task not in ("binary", "k"):
            raise ValueError(f"task must be 'binary' or 'k', got {self.task!r}")
        if self.design not in DESIGNS:
            raise ValueError(f"design must be one of {DESIGNS}, got {self.design!r}")
        if not set(self.kinds) <= set(KINDS) or not self.kinds:
            raise ValueError(f"kinds must be some of {KINDS}, got {self.kinds!r}")
        if self.task == "k" and "unpaired" in self.kinds:
            raise ValueError("the unpaired comparison is binary only")
        if self.design == "weighted" and (self.task == "k" or "unpaired" in self.kinds):
            raise ValueError("the weighted design is binary, single and paired only")
        if self.task == "binary" and not 0 < self.prevalence < 1:
            raise ValueError(f"a binary cell needs 0 < prevalence < 1, got {self.prevalence}")
        if self.task == "k" and self.classes < 3:
            raise ValueError(f"a k-class cell needs classes >= 3, got {self.classes}")

    @property
    def param(self) -> float:
        """The prevalence (binary) or the number of classes (k)."""
        return self.prevalence if self.task == "binary" else float(self.classes)

    def label(self) -> str:
        """e.g. 'binormal random n=300 π=0.2' or 'softmax k=3 fixed n=300 weighted'."""
        if self.task == "binary":
            return f"{self.generator} {self.design} n={self.n} π={self.prevalence:g}"
        avg = "" if self.average == "macro" else f" {self.average}"
        return f"{self.generator} k={self.classes} {self.design} n={self.n}{avg}"

    def where(self) -> str:
        """The cell as a verdict names it, e.g. 'n=100, π=0.05' or 'k=3, n=300'."""
        gen = {"calibrated": ", calibrated model", "softmax-calibrated":
               ", calibrated model", **GEN_NOTE}.get(self.generator, "")
        if self.task == "binary":
            return f"n={self.n}, π={self.prevalence:g}{gen}"
        return f"k={self.classes}, n={self.n}{gen}"


def resampling_of(design: str) -> str:
    """How the intervals of ``design`` resample: ``joint`` (random design, and the
    weighted one's random sample) or ``stratified`` (fixed design; and the random design's
    test sets resampled by class)."""
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {DESIGNS}, got {design!r}")
    return "joint" if design in ("random", "weighted") else "stratified"


def cell_key(cell: Cell, sims: int, n_boot: int, seed: int, ci_method: str | None = None,
             pop_size: int | None = None) -> dict[str, Any]:
    """Everything that decides a cell's result (its cache file is named from it)."""
    gen = generator(cell.task, cell.generator, cell.classes)
    weights = {"weights": asdict(WEIGHTS)} if cell.design == "weighted" else {}
    return as_json({"schema": SCHEMA, **asdict(cell), "sims": int(sims),
                    "n_boot": int(n_boot), "seed": int(seed), "ci": LEVEL,
                    "ci_method": ci_method, "pop_size": pop_size, "params": asdict(gen),
                    "resampling": resampling_of(cell.design), **weights})


def cell_path(cache_dir: str | Path, key: Mapping[str, Any]) -> Path:
    """The cache file of a cell."""
    tag = (f"pi{key['prevalence']:g}" if key["task"] == "binary"
           else f"k{key['classes']}-{key['average']}")
    kinds = "+".join(key["kinds"])
    name = (f"cell-{key['task']}-{key['generator']}-{key['design']}-n{key['n']}-{tag}-"
            f"{kinds}-sims{key['sims']}-boot{key['n_boot']}-seed{key['seed']}-"
            f"{digest(key)}.json")
    return Path(cache_dir) / name


def _root(cell: Cell, seed: int) -> np.random.SeedSequence:
    third = prev_key(cell.prevalence) if cell.task == "binary" else MULTI_KEY + cell.classes
    return seed_seq(seed, DESIGN_CODE[cell.design], cell.n, third, *GEN_CODE[cell.generator])


def _draw(cell: Cell, gen: Any, rng: np.random.Generator) -> tuple[Any, Any, Any, Any]:
    """Labels, the two models' scores and the case weights (None but in the weighted
    design: the random design's test set, then its weights)."""
    if cell.design == "weighted":
        y, s_a, s_b = gen.draw("random", cell.n, cell.prevalence, rng)
        return y, s_a, s_b, WEIGHTS.draw(y, rng)
    if cell.task == "binary":
        return (*gen.draw(cell.design, cell.n, cell.prevalence, rng), None)
    return (*gen.draw(cell.design, cell.n, rng), None)


def one_sim(i: int, cell: Cell, n_boot: int, root: np.random.SeedSequence,
            ci_method: str | None) -> tuple[list[dict[str, Any]], list[str]]:
    """Intervals of simulation ``i`` of ``cell``: one record per (kind, model or pair,
    measure), and the first lines of the warnings raised.

    The test set and the bootstrap seed come from the first two children of simulation
    i's seed sequence, the unpaired comparison's second test set and seed from the next two,
    so adding a kind leaves the others' data unchanged. A measurelab error in a simulation
    is recorded (every interval of it undefined, a miss) rather than stopping the run.
    """
    gen = generator(cell.task, cell.generator, cell.classes)
    data_ss, boot_ss, data2_ss, boot2_ss = np.random.SeedSequence(
        root.entropy, spawn_key=(i,)).spawn(4)
    y, s_a, s_b, weight = _draw(cell, gen, np.random.default_rng(data_ss))
    seed = int(boot_ss.generate_state(1, np.uint64)[0])
    plain = [m for m in cell.measures if not choice.is_choice(m)]
    picks = [m for m in cell.measures if choice.is_choice(m)]
    stratify = resampling_of(cell.design) == "stratified"
    common: dict[str, Any] = dict(measures=plain, ci=LEVEL, n_boot=n_boot,
                                  ci_method=ci_method, progress=False, stratify=stratify)
    recs: list[dict[str, Any]] = []
    # the study measures the methods themselves, not the library's policy of withholding
    # an interval where a study found it short (that would make its own misses)
    with warnings.catch_warnings(record=True) as caught, withholding(False):
        warnings.simplefilter("always")
        try:
            if picks and "single" in cell.kinds:  # best_threshold's rows, one model each
                recs += [_rec(i, "single", *row) for row in choice.intervals(
                    y, {"a": s_a, "b": s_b}, picks, level=LEVEL, n_boot=n_boot, seed=seed,
                    stratify=stratify)]
            if plain and ("single" in cell.kinds or "paired" in cell.kinds):
                kw: dict[str, Any] = {"average": cell.average} if cell.task == "k" else {}
                if weight is not None:
                    kw["sample_weight"] = weight
                r = ml.compare_classifiers(y, {"a": s_a, "b": s_b}, random_state=seed,
                                           **common, **kw)
                if "single" in cell.kinds:
                    recs += [_rec(i, "single", row.model, row.measure, row.method, row.value,
                                  row.lo, row.hi) for row in r.intervals().itertuples()]
                if "paired" in cell.kinds:
                    recs += [_rec(i, "paired", f"{row.a}-{row.b}", row.measure, row.interval,
                                  row.diff, row.lo, row.hi) for row in r.tests().itertuples()]
            if plain and "unpaired" in cell.kinds:
                y2, _s_a2, s_b2, _w2 = _draw(cell, gen, np.random.default_rng(data2_ss))
                seed2 = int(boot2_ss.generate_state(1, np.uint64)[0])
                u = ml.compare_unpaired(y, s_a, y2, s_b2, random_state=seed2, **common)
                recs += [_rec(i, "unpaired", "a-b", row.measure, row.interval, row.diff,
                              row.lo, row.hi) for row in u.tests().itertuples()]
        except MeasurelabError as e:
            warnings.warn(f"error: {e}", stacklevel=1)
            why = f"error: {str(e).splitlines()[0][:200]}"
            recs = [_rec(i, kind, model, m, "error", math.nan, math.nan, math.nan, why)
                    for kind in cell.kinds
                    for model in (MODELS if kind == "single" else ("a-b",))
                    for m in cell.measures]
    return recs, [str(w.message).splitlines()[0][:200] for w in caught]


def method_family(text: str) -> str:
    """The method of a record: its procedure
    (:func:`~measurelab.inference.evidence.procedure`), keeping apart a BCa interval that
    fell back to the percentile one (its coverage is shown on its own), without notes that
    vary from test set to test set (the evidence note, the share of undefined replicates)."""
    plain = plain_method(text)
    edge = "bootstrap-percentile (BCa at edge)"
    return edge if plain.startswith(edge) else procedure(plain)


def _rec(i: int, kind: str, model: str, measure: str, method: str, est: float, lo: float,
         hi: float, reason: str | None = None) -> dict[str, Any]:
    """One interval of a simulation; ``reason``: for an interval withheld or undefined
    (a NaN end), the method column's whole text (without an evidence note: the reason
    measurelab gives, which the procedure in ``method`` drops), else ''."""
    lo, hi = float(lo), float(hi)
    if reason is None:
        reason = plain_method(str(method)) if math.isnan(lo) or math.isnan(hi) else ""
    return {"sim": i, "kind": kind, "model": str(model), "measure": str(measure),
            "method": method_family(str(method)), "est": float(est), "lo": lo, "hi": hi,
            "reason": reason}


def run_cell(cell: Cell, sims: int, n_boot: int, seed: int, *, ci_method: str | None = None,
             pop_size: int | None = None, cache_dir: str | Path | None = None,
             progress: bool = False) -> pd.DataFrame:
    """Coverage of one cell.

    Parameters
    ----------
    cell : Cell
    sims : int
        Simulated test sets.
    n_boot : int
        Bootstrap replicates per interval.
    seed : int
        Seeds everything: simulation i of a cell has the same data and bootstrap seed in
        every run (and whatever ``sims``), the population sample its own stream.
    ci_method : str, optional
        Passed to measurelab (default: its own choice per measure).
    pop_size : int, optional
        Cases of the large sample that gives the population values (default 2·10⁶
        binary, 10⁶ k classes).
    cache_dir : path, optional
        Folder of the cell's JSON (finished cells are read back; an unfinished one resumes
        from its last checkpoint) and of the population values.
    progress : bool
        A progress bar over the simulations.

    Returns
    -------
    pandas.DataFrame
        One row per (kind, model, measure, method) with the columns :data:`COLUMNS`:
        ``kind`` 'single' (``model`` 'a', 'b' or 'pooled', both models' intervals
        together), 'paired' or 'unpaired' (``model`` 'a-b'); ``method`` :data:`ALL` (every
        simulation, whatever method measurelab chose in it: the coverage a user gets) or
        the method column's text (only the simulations that used it); ``coverage`` and its
        Monte Carlo SE ``mcse`` (simulations as clusters), ``miss_below`` /
        ``miss_above`` (interval entirely below / above the target), ``width`` (mean of
        the finite widths), ``undefined`` (NaN intervals, counted as misses),
        ``unbounded`` (intervals with an infinite end), ``population`` (the target) and
        ``population_se``, plus the cell and ``sec_per_sim``; ``reasons``: the method
        texts of the undefined intervals (the reason measurelab gives for withholding
        one) with their counts, as a JSON object ('{"text": 3}'; '' when none).
    """
    if not cell.measures:
        raise ValueError(f"cell {cell.label()} has no measures")
    key = cell_key(cell, sims, n_boot, seed, ci_method, pop_size)
    path = cell_path(cache_dir, key) if cache_dir is not None else None
    cached = cached_summary(path, key)
    if cached is not None:
        return cached
    pop = population(cell.task, cell.generator, cell.design, cell.param, cell.measures,
                     seed=seed, size=pop_size, average=cell.average, cache_dir=cache_dir,
                     progress=progress)
    root = _root(cell, seed)

    def one(i: int) -> tuple[list[dict[str, Any]], list[str]]:
        return one_sim(i, cell, n_boot, root, ci_method)

    records, messages, seconds = simulate(key, path, sims, one, cell.label(), progress)
    summary = summarize(pd.DataFrame(records), pop, cell)
    summary["sec_per_sim"] = seconds / sims if sims else math.nan
    summary = summary[COLUMNS]
    finish(path, key, summary, records, messages, seconds, pop)
    return summary


def cached_summary(path: Path | None, key: Mapping[str, Any]) -> pd.DataFrame | None:
    """The summary of a finished cell from its cache file, if it holds this ``key``."""
    if path is None:
        return None
    got = read_json(path)
    if got is None or got.get("key") != key:
        return None
    if got.get("engine") != engine_fingerprint():
        import sys

        print(f"note: {path.name} was computed with other measurelab sources "
              f"(git {got.get('git')}); delete it to recompute", file=sys.stderr)
    out = pd.DataFrame(got["summary"])
    if "reasons" not in out:   # a cell finished before the reasons were kept
        out["reasons"] = ""
    return out


def cell_warnings(cache_dir: str | Path, key: Mapping[str, Any]) -> dict[str, int]:
    """The warnings of a finished cell, counted by message ({} when not cached)."""
    got = read_json(cell_path(cache_dir, key))
    return dict(got.get("warnings", {})) if got and got.get("key") == key else {}


def simulate(key: Mapping[str, Any], path: Path | None, sims: int,
             one: Callable[[int], tuple[list[dict[str, Any]], list[str]]], label: str,
             progress: bool) -> tuple[list[dict[str, Any]], dict[str, int], float]:
    """Simulations ``0 .. sims-1`` of a cell (``one(i)`` gives simulation i's records and
    warnings), resumed from the cell's checkpoint and checkpointed every
    :data:`CHECKPOINT`; returns the records, the warnings counted by message and the
    seconds spent."""
    partial = path.with_suffix(".partial.json") if path is not None else None
    records: list[dict[str, Any]] = []
    messages: dict[str, int] = {}
    seconds = 0.0
    if partial is not None:
        got = read_json(partial)
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
                atomic_write_json(partial, {"key": key, "engine": engine_fingerprint(),
                                            "records": records, "warnings": messages,
                                            "seconds": seconds})
    finally:
        bar.close()
    return records, messages, seconds


def finish(path: Path | None, key: Mapping[str, Any], summary: pd.DataFrame,
           records: list[dict[str, Any]], messages: Mapping[str, int], seconds: float,
           pop: Population) -> None:
    """Write a finished cell (key, provenance, population, summary, every record) and drop
    its checkpoint."""
    if path is None:
        return
    atomic_write_json(path, {
        "key": key, "engine": engine_fingerprint(), "git": git_head(),
        "measurelab": getattr(ml, "__version__", "?"), "seconds": seconds,
        "warnings": dict(messages), "population": asdict(pop),
        "summary": summary.to_dict(orient="list"),
        "records": pd.DataFrame(records).to_dict(orient="list")})
    path.with_suffix(".partial.json").unlink(missing_ok=True)


def summarize(records: pd.DataFrame, pop: Population, cell: Cell) -> pd.DataFrame:
    """Coverage table of one cell from its per-simulation intervals (see
    :func:`run_cell`)."""
    rec = records.copy()
    rec["reason"] = (rec["reason"].fillna("").astype(str) if "reason" in rec
                     else "")   # records of a checkpoint from before the reasons
    col = {"a": 0, "b": 1, "a-b": 2}
    rec["population"] = [pop.target[m][col[k]] for m, k in zip(rec.measure, rec.model,
                                                                 strict=True)]
    rec["population_se"] = [pop.se[m][col[k]] for m, k in zip(rec.measure, rec.model,
                                                              strict=True)]
    lo, hi, p = rec.lo.to_numpy(), rec.hi.to_numpy(), rec.population.to_numpy()
    rec["undef"] = np.isnan(lo) | np.isnan(hi)
    rec["covered"] = (lo <= p) & (p <= hi)
    rec["below"] = hi < p
    rec["above"] = lo > p
    rec["unbounded"] = np.isinf(lo) | np.isinf(hi)
    with np.errstate(invalid="ignore"):
        w = hi - lo
    rec["width"] = np.where(np.isfinite(w), w, np.nan)
    rec = pd.concat([rec, rec[rec.kind == "single"].assign(model="pooled")])
    rows = []
    for (kind, model, measure, method), g in pd.concat([rec.assign(method=ALL), rec]).groupby(
            ["kind", "model", "measure", "method"], sort=False):
        cov, mcse = clustered_share(g.sim.to_numpy(), g.covered.to_numpy())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)   # every width undefined
            width = float(np.nanmean(g.width)) if g.width.notna().any() else math.nan
        rows.append({
            "task": cell.task, "generator": cell.generator, "design": cell.design,
            "n": int(cell.n), "prevalence": float(cell.prevalence),
            "classes": int(cell.classes), "average": cell.average,
            "resampling": resampling_of(cell.design), "kind": kind, "model": model,
            "measure": measure, "method": method, "sims": g.sim.nunique(),
            "coverage": cov, "mcse": mcse, "miss_below": float(g.below.mean()),
            "miss_above": float(g.above.mean()), "width": width,
            "undefined": int(g.undef.sum()), "unbounded": int(g.unbounded.sum()),
            "population": float(g.population.iloc[0]) if model != "pooled" else math.nan,
            "population_se": float(g.population_se.iloc[0]) if model != "pooled" else math.nan,
            "reasons": reason_counts(g.reason[g.undef]),
        })
    return pd.DataFrame(rows)


def reason_counts(reasons: Any) -> str:
    """Texts with their counts as a JSON object, the most frequent first
    ('{"no interval: …": 3, "error: …": 1}'; '' for none; an empty text counts as 'no
    reason given'). :func:`read_reasons` reads it back."""
    counts: dict[str, int] = {}
    for r in reasons:
        text = str(r) or "no reason given"
        counts[text] = counts.get(text, 0) + 1
    if not counts:
        return ""
    order = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return json.dumps(dict(order), ensure_ascii=False)


def read_reasons(text: Any) -> dict[str, int]:
    """The counts a summary's ``reasons`` holds ({} for '' or a missing value)."""
    if not isinstance(text, str) or not text:
        return {}
    return {str(k): int(v) for k, v in json.loads(text).items()}


def clustered_share(cluster: np.ndarray, hit: np.ndarray) -> tuple[float, float]:
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


def run_cells(cells: Sequence[Cell], sims: int, n_boot: int, seed: int, **kw: Any
              ) -> pd.DataFrame:
    """:func:`run_cell` of every cell, one table."""
    return pd.concat([run_cell(c, sims, n_boot, seed, **kw) for c in cells],
                     ignore_index=True)
