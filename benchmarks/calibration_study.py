"""Simulation study: do measurelab's calibration intervals cover, and does its calibration
test hold its level?

Test sets are drawn where the truth is known: a true probability q per case from a Beta
prior, y ~ Bernoulli(q), and six models that score the same cases by a monotone
distortion of q (:data:`MODELS`): calibrated (p = q), over-confident (logit × 1.15, 1.5,
3), under-confident (logit × 0.5) and shifted (logit + 0.5). Since every distortion is
strictly increasing, the recalibration map of a model is c(p) = q, and the population
values of the calibration measures follow from a large sample of q alone
(:func:`population`):

* ``brier_mcb`` = E(p − q)², ``logloss_mcb`` = E KL(q ‖ p);
* ``brier_dsc`` = Var q, ``logloss_dsc`` = H(E q) − E H(q) (the same for every model: they
  order the cases alike).

For each cell (prior × n) the study draws ``sims`` test sets and, on each, runs one
:func:`measurelab.compare_classifiers` over all six models (the library's intervals for
every model and its paired differences for every pair) and, on the first ``test_sims``
sets, :func:`measurelab.calibration_test` of every model (consistency resampling with the
default statistic, and Spiegelhalter's z): its rejection rate at 0.05 is the size for the
calibrated model and the power for the others.

Coverage = share of test sets whose interval contains the population value (an undefined
interval counts as a miss), ± its Monte Carlo standard error. Every finished cell is
written atomically to ``--cache`` (one JSON per cell) and a rerun resumes; simulation i of
a cell always uses the same data and seed.

The size (the calibrated model's rejection rate) needs a finer Monte Carlo error than the
power, so it has its own ``size_sims`` test sets per cell, with the calibrated model's tests
only.

Run (the full study, a few hours on one core; ``--evidence`` writes the verdicts measurelab
reads for the method column of these intervals)::

    .venv/bin/python benchmarks/calibration_study.py --sims 400 --test-sims 200 \\
        --size-sims 1000 --n 200 1000 5000 --n-boot 1000 --out docs/calibration_coverage.md \\
        --evidence src/measurelab/data/coverage/calibration.json

A quick check of the harness::

    .venv/bin/python benchmarks/calibration_study.py --sims 4 --test-sims 2 --size-sims 4 \\
        --n 200 --n-boot 200 --pop-size 100000 --out /tmp/cal.md --cache /tmp/cal-cache
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import measurelab as ml

#: the measures whose intervals the study checks (the library decides their methods)
MEASURES: tuple[str, ...] = ("brier_mcb", "brier_dsc", "logloss_dsc", "logloss_mcb")
#: priors of the true probability: name -> (a, b) of Beta(a, b)
PRIORS: dict[str, tuple[float, float]] = {
    "balanced": (2.0, 2.0),       # π = 0.5, probabilities mostly in the middle
    "rare": (0.5, 4.5),           # π = 0.1, most probabilities near 0
    "extreme": (0.3, 0.3),        # π = 0.5, most probabilities near 0 or 1
}


def _logit_scale(k: float) -> Callable[[np.ndarray], np.ndarray]:
    def f(q: np.ndarray) -> np.ndarray:
        lq = np.log(q) - np.log1p(-q)
        return 1.0 / (1.0 + np.exp(-k * lq))
    return f


def _logit_shift(d: float) -> Callable[[np.ndarray], np.ndarray]:
    def f(q: np.ndarray) -> np.ndarray:
        lq = np.log(q) - np.log1p(-q)
        return 1.0 / (1.0 + np.exp(-(lq + d)))
    return f


#: the models: every one a strictly increasing map of the true probability q
MODELS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "calibrated": lambda q: q,
    "slight": _logit_scale(1.15),
    "over": _logit_scale(1.5),
    "very_over": _logit_scale(3.0),
    "under": _logit_scale(0.5),
    "shifted": _logit_shift(0.5),
}
LEVEL = 0.95
ALPHA = 0.05
SCHEMA = 1
#: q is kept this far from 0 and 1 (a Beta draw can round to 0 or 1 in floating point)
_Q_EPS = 1e-12


def draw_q(prior: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """True probabilities of ``n`` cases."""
    a, b = PRIORS[prior]
    return np.clip(rng.beta(a, b, n), _Q_EPS, 1.0 - _Q_EPS)


def _entropy(x: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(x * np.log(x) + (1.0 - x) * np.log1p(-x))
    return np.where((x > 0) & (x < 1), h, 0.0)


def population(prior: str, pop_size: int, seed: int = 12345) -> dict[str, dict[str, float]]:
    """Population values of every measure and model, from ``pop_size`` draws of q (their
    Monte Carlo standard errors are far below the intervals' widths: reported)."""
    q = draw_q(prior, pop_size, np.random.default_rng(seed))
    out: dict[str, dict[str, float]] = {}
    dsc_brier = float(np.var(q))
    dsc_log = float(_entropy(np.array([q.mean()]))[0] - _entropy(q).mean())
    for name, f in MODELS.items():
        p = np.clip(f(q), 1e-15, 1 - 1e-15)
        sq = (p - q) ** 2
        kl = q * (np.log(q) - np.log(p)) + (1 - q) * (np.log1p(-q) - np.log1p(-p))
        out[name] = {"brier_mcb": float(sq.mean()), "logloss_mcb": float(kl.mean()),
                     "brier_dsc": dsc_brier, "logloss_dsc": dsc_log,
                     "se_brier_mcb": float(sq.std() / math.sqrt(pop_size)),
                     "se_logloss_mcb": float(kl.std() / math.sqrt(pop_size))}
    return out


def one_simulation(prior: str, n: int, i: int, n_boot: int, test: bool,
                   n_resamples: int) -> dict[str, Any]:
    """Intervals of every model and pair, and (``test``) the calibration tests, on test set
    ``i`` of the cell."""
    rng = np.random.default_rng([SCHEMA, n, i, sorted(PRIORS).index(prior)])
    q = draw_q(prior, n, rng)
    y = rng.random(n) < q
    models = {name: f(q) for name, f in MODELS.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ml.compare_classifiers(y, models, measures=list(MEASURES), ci=LEVEL,
                                     n_boot=n_boot, random_state=i, progress=False)
        iv = cmp.intervals()
        tests = cmp.tests()
        out: dict[str, Any] = {
            "single": [[r.model, r.measure, float(r.value), float(r.lo), float(r.hi),
                        str(r.method)] for r in iv.itertuples()],
            "paired": [[r.a, r.b, r.measure, float(r.diff), float(r.lo), float(r.hi),
                        str(r.interval)] for r in tests.itertuples()],
        }
        if test:
            out["tests"] = {
                name: [ml.calibration_test(y, p, n_resamples=n_resamples,
                                           random_state=i, progress=False).pvalue,
                       ml.calibration_test(y, p, method="spiegelhalter").pvalue]
                for name, p in models.items()}
    return out


def one_size_simulation(prior: str, n: int, i: int, n_resamples: int) -> list[float]:
    """The calibrated model's two test p-values on a test set drawn for the size alone
    (seeds apart from the coverage simulations')."""
    rng = np.random.default_rng([SCHEMA, n, i, sorted(PRIORS).index(prior), 7])
    q = draw_q(prior, n, rng)
    y = rng.random(n) < q
    return [ml.calibration_test(y, q, n_resamples=n_resamples, random_state=i,
                                progress=False).pvalue,
            ml.calibration_test(y, q, method="spiegelhalter").pvalue]


def run_size_cell(prior: str, n: int, args: argparse.Namespace) -> list[list[float]]:
    """The size simulations of a cell, resumed from (and saved to) their cache file."""
    path = Path(args.cache) / f"size-{prior}-n{n}-z{args.size_sims}-r{args.n_resamples}.json"
    done: list[list[float]] = json.loads(path.read_text())["p"] if path.exists() else []
    for i in range(len(done), args.size_sims):
        done.append(one_size_simulation(prior, n, i, args.n_resamples))
        if (i + 1) % 50 == 0 or i + 1 == args.size_sims:
            _atomic_write(path, json.dumps({"schema": SCHEMA, "p": done}))
    return done


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)


def run_cell(prior: str, n: int, args: argparse.Namespace) -> dict[str, Any]:
    """All simulations of a cell, resumed from (and saved to) its cache file."""
    path = Path(args.cache) / (f"cell-{prior}-n{n}-b{args.n_boot}-s{args.sims}"
                               f"-t{args.test_sims}-r{args.n_resamples}.json")
    done: list[dict[str, Any]] = []
    if path.exists():
        done = json.loads(path.read_text())["sims"]
    t0 = time.perf_counter()
    for i in range(len(done), args.sims):
        done.append(one_simulation(prior, n, i, args.n_boot, i < args.test_sims,
                                   args.n_resamples))
        if (i + 1) % 20 == 0 or i + 1 == args.sims:
            _atomic_write(path, json.dumps({"schema": SCHEMA, "sims": done}))
        if args.progress:
            el = time.perf_counter() - t0
            print(f"\r{prior} n={n}: {i + 1}/{args.sims} ({el:.0f} s)", end="",
                  file=sys.stderr, flush=True)
    if args.progress:
        print(file=sys.stderr)
    return {"sims": done}


def _cov(hits: list[bool]) -> tuple[float, float]:
    k = len(hits)
    if k == 0:
        return math.nan, math.nan
    c = float(np.mean(hits))
    return c, math.sqrt(max(c * (1 - c), 1.0 / k) / k)


def summarise(cells: dict[tuple[str, int], dict[str, Any]],
              pops: dict[str, dict[str, dict[str, float]]],
              sizes: dict[tuple[str, int], list[list[float]]] | None = None
              ) -> dict[str, list[dict[str, Any]]]:
    """Coverage rows (single, paired), test rows (power on the coverage simulations) and
    size rows (the calibrated model on the size simulations)."""
    single, paired, tests, size = [], [], [], []
    for (prior, n), ps in sorted((sizes or {}).items()):
        if not ps:
            continue
        rc, sc = _cov([p[0] < ALPHA for p in ps])
        rs, ss = _cov([p[1] < ALPHA for p in ps])
        size.append({"prior": prior, "n": n, "sims": len(ps), "consistency": rc,
                     "consistency_se": sc, "spiegelhalter": rs, "spiegelhalter_se": ss})
    for (prior, n), cell in sorted(cells.items()):
        pop = pops[prior]
        sims = cell["sims"]
        for model in MODELS:
            for m in MEASURES:
                hits, methods, widths = [], set(), []
                for s in sims:
                    for r in s["single"]:
                        if r[0] == model and r[1] == m:
                            lo, hi = r[3], r[4]
                            methods.add(r[5])
                            ok = math.isfinite(lo) and math.isfinite(hi)
                            hits.append(ok and lo <= pop[model][m] <= hi)
                            if ok:
                                widths.append(hi - lo)
                c, se = _cov(hits)
                single.append({"prior": prior, "n": n, "model": model, "measure": m,
                               "truth": pop[model][m], "coverage": c, "mc_se": se,
                               "width": float(np.mean(widths)) if widths else math.nan,
                               "method": " / ".join(sorted(methods)),
                               "withheld": all(not math.isfinite(r[3]) for s in sims
                                               for r in s["single"]
                                               if r[0] == model and r[1] == m)})
        names = list(MODELS)
        for a_i, a in enumerate(names):
            for b in names[a_i + 1:]:
                for m in MEASURES:
                    truth = pop[a][m] - pop[b][m]
                    hits, methods = [], set()
                    for s in sims:
                        for r in s["paired"]:
                            if r[0] == a and r[1] == b and r[2] == m:
                                methods.add(r[6])
                                lo, hi = r[4], r[5]
                                hits.append(math.isfinite(lo) and math.isfinite(hi)
                                            and lo <= truth <= hi)
                    c, se = _cov(hits)
                    withheld = all(not math.isfinite(r[4]) for s in sims for r in s["paired"]
                                   if r[0] == a and r[1] == b and r[2] == m)
                    paired.append({"prior": prior, "n": n, "a": a, "b": b, "measure": m,
                                   "truth": truth, "coverage": c, "mc_se": se,
                                   "method": " / ".join(sorted(methods)),
                                   "withheld": withheld})
        for model in MODELS:
            p_cons = [s["tests"][model][0] for s in sims if "tests" in s]
            p_spieg = [s["tests"][model][1] for s in sims if "tests" in s]
            if not p_cons:
                continue
            rc, sc = _cov([p < ALPHA for p in p_cons])
            rs, ss = _cov([p < ALPHA for p in p_spieg])
            tests.append({"prior": prior, "n": n, "model": model, "sims": len(p_cons),
                          "consistency": rc, "consistency_se": sc, "spiegelhalter": rs,
                          "spiegelhalter_se": ss})
    return {"single": single, "paired": paired, "tests": tests, "size": size}


def evidence(summary: dict[str, list[dict[str, Any]]], args: argparse.Namespace
             ) -> dict[str, Any]:
    """The study's verdicts in the format the library reads (``measurelab/data/coverage/``,
    schema 1): one entry per measure and kind (single model, paired difference) whose
    interval the library gives, every cell a row of ``figures``."""
    import datetime

    from measurelab.inference.evidence import procedure

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=False).stdout.strip() or "unknown"
    except OSError:  # pragma: no cover
        commit = "unknown"
    entries = []
    for kind, rows in (("single", summary["single"]), ("paired", summary["paired"])):
        for m in MEASURES:
            rs = [r for r in rows if r["measure"] == m and not r["withheld"]]
            if not rs:
                continue
            low = min(rs, key=lambda r: r["coverage"])
            who = low.get("model") or f"{low['a']}−{low['b']}"
            entries.append({
                "measure": m, "classes": "binary", "design": "random", "kind": kind,
                "averages": [],
                "methods": sorted({procedure(x) for r in rs
                                   for x in r["method"].split(" / ") if x}),
                "cells": len(rs), "lowest": low["coverage"],
                "where": f"n={low['n']}, {low['prior']} prior, {who}",
                "mean": float(np.mean([r["coverage"] for r in rs])),
                "mcse_lowest": low["mc_se"],
                "covers": bool(all(r["coverage"] >= 0.90 for r in rs)),
                "figures": [[r["prior"], r["n"], r.get("model") or f"{r['a']}−{r['b']}",
                             round(r["coverage"], 4), round(r["mc_se"], 4)] for r in rs]})
    return {"schema": 1, "source": "calibration",
            "title": "measurelab's calibration study (benchmarks/calibration_study.py)",
            "preliminary": args.sims < 100, "level": LEVEL, "bar": 0.90, "sims": args.sims,
            "n_boot": args.n_boot, "commit": commit, "measurelab": ml.__version__,
            "command": "python benchmarks/calibration_study.py " + " ".join(sys.argv[1:]),
            "date": datetime.date.today().isoformat(),
            "grid": {"priors": args.priors, "n": args.n, "models": list(MODELS)},
            "cell_fields": ["prior", "n", "model", "coverage", "mc_se"],
            "entries": entries}


def _fmt(x: float, d: int = 3) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


def report(summary: dict[str, list[dict[str, Any]]], args: argparse.Namespace,
           pops: dict[str, Any]) -> str:
    """The Markdown report."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=False).stdout.strip() or "unknown"
    except OSError:  # pragma: no cover
        commit = "unknown"
    lines = ["# Coverage of measurelab's calibration intervals and size of its calibration "
             "test", "",
             f"Command: `python benchmarks/calibration_study.py {' '.join(sys.argv[1:])}`", "",
             f"measurelab git {commit}; {args.sims} simulated test sets per cell "
             f"(calibration tests on the first {args.test_sims}), {args.n_boot} bootstrap "
             f"replicates, level {LEVEL}; population values from {args.pop_size:,} draws.",
             "",
             "**Generator.** True probability q ~ Beta(a, b), y ~ Bernoulli(q); the models "
             "score the same cases by strictly increasing maps of q, so c(p) = q: "
             "`calibrated` p = q; `slight` logit × 1.15; `over` logit × 1.5; `very_over` "
             "logit × 3; `under` logit × 0.5; `shifted` logit + 0.5. Priors: "
             + "; ".join(f"`{k}` Beta{v}" for k, v in PRIORS.items()) + ".",
             "",
             "**Targets.** brier_mcb = E(p − q)², logloss_mcb = E KL(q ‖ p), brier_dsc = "
             "Var q, logloss_dsc = H(E q) − E H(q). Coverage ± its Monte Carlo SE; an "
             "undefined interval counts as a miss; `withheld` = the library gives no "
             "interval (its method column says why).", ""]
    single = [r for r in summary["single"] if not r["withheld"]]
    paired = [r for r in summary["paired"] if not r["withheld"]]
    lines += ["## Summary", "",
              "| interval | measure | cells | lowest (where) | mean | cells below 0.90 |",
              "|---|---|---:|---|---:|---:|"]
    for kind, rows in (("single model", single), ("paired difference", paired)):
        for m in MEASURES:
            rs = [r for r in rows if r["measure"] == m]
            if not rs:
                lines.append(f"| {kind} | {m} | 0 | withheld | — | — |")
                continue
            low = min(rs, key=lambda r: r["coverage"])
            where = (f"{low.get('model', low.get('a', ''))}"
                     + (f"−{low['b']}" if "b" in low else "")
                     + f", {low['prior']}, n={low['n']}")
            lines.append(f"| {kind} | {m} | {len(rs)} | {_fmt(low['coverage'])} ({where}) | "
                         f"{_fmt(float(np.mean([r['coverage'] for r in rs])))} | "
                         f"{sum(r['coverage'] < 0.90 for r in rs)} |")
    lines += ["", "## Calibration test: size", "",
              "Rejection rate at 0.05 of a calibrated model on test sets drawn for this "
              "alone (target ≤ 0.05 + Monte Carlo error). From 10,000 cases a comparison "
              "runs the analytic test instead (`method='auto'`): its size and power, "
              "n = 1,000 to 100,000, are in "
              "[calibration_test_study.md](calibration_test_study.md) "
              "(`benchmarks/calibration_test_study.py`).", "",
              "| prior | n | sims | consistency resampling (brier_mcb) | Spiegelhalter's z |",
              "|---|---:|---:|---:|---:|"]
    for r in summary.get("size", []):
        lines.append(f"| {r['prior']} | {r['n']} | {r['sims']} | "
                     f"{_fmt(r['consistency'])} ± {_fmt(r['consistency_se'])} | "
                     f"{_fmt(r['spiegelhalter'])} ± {_fmt(r['spiegelhalter_se'])} |")
    lines += ["", "## Calibration test: rejection rate at 0.05 (power)", "",
              "On the coverage simulations' first test sets: the calibrated model's row is a "
              "second look at the size; the others are the power.", "",
              "| prior | n | model | sims | consistency resampling (brier_mcb) | "
              "Spiegelhalter's z |", "|---|---:|---|---:|---:|---:|"]
    for r in summary["tests"]:
        lines.append(f"| {r['prior']} | {r['n']} | {r['model']} | {r['sims']} | "
                     f"{_fmt(r['consistency'])} ± {_fmt(r['consistency_se'])} | "
                     f"{_fmt(r['spiegelhalter'])} ± {_fmt(r['spiegelhalter_se'])} |")
    lines += ["", "## Single-model intervals", "",
              "| prior | n | model | measure | truth | coverage | ± | mean width | method |",
              "|---|---:|---|---|---:|---:|---:|---:|---|"]
    for r in summary["single"]:
        lines.append(f"| {r['prior']} | {r['n']} | {r['model']} | {r['measure']} | "
                     f"{r['truth']:.5f} | "
                     + ("withheld | | | " if r["withheld"] else
                        f"{_fmt(r['coverage'])} | {_fmt(r['mc_se'])} | "
                        f"{_fmt(r['width'], 4)} | ")
                     + f"{r['method']} |")
    lines += ["", "## Paired differences", "",
              "| prior | n | a | b | measure | truth | coverage | ± | method |",
              "|---|---:|---|---|---|---:|---:|---:|---|"]
    for r in summary["paired"]:
        if r["withheld"]:
            continue
        lines.append(f"| {r['prior']} | {r['n']} | {r['a']} | {r['b']} | {r['measure']} | "
                     f"{r['truth']:+.5f} | {_fmt(r['coverage'])} | {_fmt(r['mc_se'])} | "
                     f"{r['method']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=400)
    ap.add_argument("--test-sims", type=int, default=200)
    ap.add_argument("--n", type=int, nargs="+", default=[200, 1000, 5000])
    ap.add_argument("--priors", nargs="+", default=list(PRIORS), choices=list(PRIORS))
    ap.add_argument("--n-boot", type=int, default=1000)
    ap.add_argument("--n-resamples", type=int, default=499)
    ap.add_argument("--size-sims", type=int, default=1000,
                    help="test sets per cell for the calibrated model's size alone")
    ap.add_argument("--pop-size", type=int, default=2_000_000)
    ap.add_argument("--out", default="docs/calibration_coverage.md")
    ap.add_argument("--json", default=None, help="also write the summary as JSON here")
    ap.add_argument("--evidence", default=None,
                    help="write the verdicts the library reads here (e.g. "
                         "src/measurelab/data/coverage/calibration.json)")
    ap.add_argument("--cache", default="out/calibration-study")
    ap.add_argument("--no-progress", dest="progress", action="store_false")
    args = ap.parse_args(argv)
    pops = {p: population(p, args.pop_size) for p in args.priors}
    cells = {(p, n): run_cell(p, n, args) for p in args.priors for n in args.n}
    sizes = {(p, n): run_size_cell(p, n, args) for p in args.priors for n in args.n}
    summary = summarise(cells, pops, sizes)
    _atomic_write(Path(args.out), report(summary, args, pops))
    if args.json:
        _atomic_write(Path(args.json), json.dumps(summary, indent=1))
    if args.evidence:
        _atomic_write(Path(args.evidence), json.dumps(evidence(summary, args), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
