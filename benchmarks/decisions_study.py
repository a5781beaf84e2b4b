"""Simulation study of issue 32: do net-benefit intervals cover, and does simulated power
agree with the analytic power of AUC tests?

**Part 1 — net benefit.** Two models score the same cases (the correlated binormal
generator of ``benchmarks/coverage_study.py``: model k sees x_k = μ_k·y + e_k, (e_a, e_b)
standard bivariate normal with correlation ρ, score s_k = sigmoid(b_k·(x_k − c_k))). For
each cell (design × n × prevalence) the study draws ``sims`` test sets, runs
``compare_classifiers(...).net_benefit(thresholds, grid=...)`` on each (adjusted Wald
intervals; the simultaneous band from the comparison's own bootstrap, ``n_boot``
replicates) and counts how often each interval holds the population value, which is exact
here: NB_k(t) = π·Φ(μ_k − q) − (1 − π)·Φ(−q)·t/(1 − t) with q = c_k + logit(t)/b_k.
Intervals: each model's net benefit, the paired difference
a − b and a − treat all at t ∈ {0.05, 0.1, 0.2, 0.3, 0.5}; and the simultaneous band (every
difference of the comparison at once over the grid 0.05, 0.06, …, 0.5: family-wise). The
report adds the expected number of positives that one model treats and the other does not
(n·π·P(exactly one of x_a ≥ q_a, x_b ≥ q_b | y = 1), a bivariate normal probability): the
cases a paired difference rests on.
Designs: ``random`` (y ~ Bernoulli(π), cases resampled jointly) and ``fixed`` (exactly
round(π·n) positives, resampled by class).

**Part 2 — power.** For two correlated binormal curves (b = 1; ``Binormal`` of
``measurelab.inference.power``) the simulated power of the comparison's DeLong test
(``simulate_power``: ``sims_power`` test sets) beside three analytic values at the same
design: Obuchowski–McClish's from the binormal parameters (``power_roc_test(params=...)``,
equal to pROC's ``power.roc.test(list(...))``), pROC's calculation from DeLong's variances
(``power.roc.test(roc1, roc2)``: null-hypothesis variance of curve 1) and the same with the
alternative's variance (``null_variance=False``: a test that estimates its standard error, as
DeLong's does). DeLong's per-case variances and covariance of the population come from
Monte Carlo integration of the placements (4·10⁶ draws), so no pilot sample's noise enters.
One curve against 0.5: O–M's calculation beside the simulated power of the comparison's
interval (DeLong, logit scale). And, with no analytic answer, the simulated power of the f1
and net_benefit@0.2 tests at one design.

Every finished cell is written atomically (one JSON per cell under ``--cache``); a rerun with
the same arguments resumes, and simulation i of a cell always uses the same data and seed.

Run (about an hour on one core)::

    nice -n 15 .venv/bin/python benchmarks/decisions_study.py --out docs/decisions_study.md

A tiny check of the harness::

    .venv/bin/python benchmarks/decisions_study.py --sims 4 --sims-power 20 --n 200 \\
        --prevalence 0.3 --n-boot 200 --out /tmp/d.md --cache /tmp/d-cache
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.special import expit, logit
from scipy.stats import norm

import measurelab as ml
from measurelab.inference.classifiers.simulation import Binormal, simulate_power
from measurelab.inference.power import power_roc_test
from measurelab.io.files import atomic_write_text
from measurelab.progress import progress_bar

#: bump when the layout or meaning of the cache files changes
VERSION = 2
THRESHOLDS: tuple[float, ...] = (0.05, 0.1, 0.2, 0.3, 0.5)
GRID = np.round(np.arange(5, 51) / 100, 2)
DESIGNS: tuple[str, ...] = ("random", "fixed")


@dataclass(frozen=True)
class Models:
    """Two correlated binormal models with logistic scores (neither calibrated)."""

    mu: tuple[float, float] = (1.1902, 1.4657)  # AUC 0.80, 0.85
    b: tuple[float, float] = (1.0, 1.6)
    c: tuple[float, float] = (0.8, 1.0)
    rho: float = 0.5

    def draw(self, design: str, n: int, pi: float, rng: np.random.Generator
             ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        if design == "fixed":
            n1 = round(pi * n)
            y = np.zeros(n, bool)
            y[rng.permutation(n)[:n1]] = True
        else:
            y = rng.random(n) < pi
        e = rng.standard_normal((n, 2))
        e[:, 1] = self.rho * e[:, 0] + math.sqrt(1 - self.rho**2) * e[:, 1]
        out = {}
        for k, name in enumerate("ab"):
            x = self.mu[k] * y + e[:, k]
            out[name] = expit(self.b[k] * (x - self.c[k]))
        return y, out

    def net_benefit(self, k: int, pi: float, t: float) -> float:
        """The population net benefit of model k at threshold probability t (exact)."""
        q = self.c[k] + logit(t) / self.b[k]  # s >= t  <=>  x >= q
        return float(pi * norm.sf(q - self.mu[k]) - (1 - pi) * norm.sf(q) * t / (1 - t))


def positives_differ(models: Models, n: int, pi: float, t: float) -> float:
    """Expected positives (of n cases) that exactly one of the two models treats at t."""
    from scipy.stats import multivariate_normal

    q = [models.c[k] + logit(t) / models.b[k] for k in (0, 1)]
    lim = [models.mu[k] - q[k] for k in (0, 1)]  # x_k >= q_k  <=>  -e_k <= mu_k - q_k
    pa, pb = norm.cdf(lim[0]), norm.cdf(lim[1])
    both = multivariate_normal(mean=[0, 0], cov=[[1, models.rho], [models.rho, 1]]).cdf(lim)
    return float(n * pi * (pa + pb - 2 * both))


def treat_all(pi: float, t: float) -> float:
    return pi - (1 - pi) * t / (1 - t)


def _write(path: Path, obj: Any) -> None:
    atomic_write_text(path, json.dumps(obj, allow_nan=True))


def _git() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# ------------------------------------------------------------------ part 1
def nb_cell(design: str, n: int, pi: float, sims: int, n_boot: int, seed: int,
            models: Models = Models(), progress: bool = True) -> dict[str, Any]:
    """Coverage counts of one cell: per interval and threshold, hits and misses below /
    above; the family-wise band's hits."""
    ts = list(THRESHOLDS)
    truth = {("a", t): models.net_benefit(0, pi, t) for t in ts}
    truth |= {("b", t): models.net_benefit(1, pi, t) for t in ts}
    kinds = {"a": [], "b": [], "a-b": [], "a-all": [], "a-boot": [], "a-b-boot": []}
    counts = {k: {str(t): [0, 0, 0, 0.0] for t in ts} for k in kinds}  # hit, below, above, w
    band_hits = 0
    band_used = 0
    pop_band = {}
    for pair in (("a", "b"), ("a", "treat all"), ("b", "treat all"), ("a", "treat none"),
                 ("b", "treat none")):
        va = np.array([models.net_benefit(0 if pair[0] == "a" else 1, pi, t) for t in GRID])
        if pair[1] == "b":
            vb = np.array([models.net_benefit(1, pi, t) for t in GRID])
        elif pair[1] == "treat all":
            vb = np.array([treat_all(pi, t) for t in GRID])
        else:
            vb = np.zeros(GRID.size)
        pop_band[pair] = va - vb
    with progress_bar(sims, desc=f"NB {design} n={n} pi={pi}", unit="test set",
                      enabled=progress, delay=2.0, leave=False) as bar:
        for i in range(sims):
            rng = np.random.default_rng([seed, n, int(pi * 1000), DESIGNS.index(design), i])
            y, s = models.draw(design, n, pi, rng)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cmp = ml.compare_classifiers(y, s, measures=[f"net_benefit@{t}" for t in ts],
                                             n_boot=n_boot,
                                             random_state=int(rng.integers(2**62)),
                                             stratify=design == "fixed", progress=False)
                nb = cmp.net_benefit(ts, grid=GRID)
                # the registry rows: the engine's bootstrap (BCa; the paired bootstrap)
                boot_iv = cmp.intervals().set_index(["model", "measure"])
                boot_t = cmp.tests().set_index(["a", "b", "measure"])
                v = nb.values().set_index(["model", "threshold"])
                d = nb.differences().set_index(["a", "b", "threshold"])
                band = nb.band()
            for t in ts:
                rows = {"a": (v.loc[("a", t)], truth[("a", t)]),
                        "b": (v.loc[("b", t)], truth[("b", t)]),
                        "a-b": (d.loc[("a", "b", t)], truth[("a", t)] - truth[("b", t)]),
                        "a-all": (d.loc[("a", "treat all", t)],
                                  truth[("a", t)] - treat_all(pi, t)),
                        "a-boot": (boot_iv.loc[("a", f"net_benefit@{t}")], truth[("a", t)]),
                        "a-b-boot": (boot_t.loc[("a", "b", f"net_benefit@{t}")],
                                     truth[("a", t)] - truth[("b", t)])}
                for k, (r, true) in rows.items():
                    c = counts[k][str(t)]
                    if r["lo"] <= true <= r["hi"]:
                        c[0] += 1
                    elif true < r["lo"]:
                        c[1] += 1
                    else:
                        c[2] += 1
                    c[3] += float(r["hi"] - r["lo"])
            inside = True
            for pair, true in pop_band.items():
                sub = band[(band["a"] == pair[0]) & (band["b"] == pair[1])]
                lo, hi = sub["lo"].to_numpy(), sub["hi"].to_numpy()
                inside &= bool(np.all((lo <= true + 1e-12) & (true <= hi + 1e-12)))
            band_hits += inside
            band_used += 1
            bar.update(1)
    return {"design": design, "n": n, "pi": pi, "sims": sims, "n_boot": n_boot,
            "counts": counts, "band_hits": band_hits, "band_sims": band_used,
            "truth": {f"{k}@{t}": v for (k, t), v in truth.items()}}


# ------------------------------------------------------------------ part 2
def delong_population(g: Binormal, draws: int = 4_000_000, seed: int = 7
                      ) -> tuple[float, float, float]:
    """Per-case DeLong variances V1, V2 and covariance C of the two AUCs of a binormal
    design (b = 1), by Monte Carlo integration of the placements: a case's placement is the
    share of the other class it outranks, Φ(x) for a case at x (controls N(0, 1)) and
    Φ(A − x) for a control at x (cases N(A, 1))."""
    rng = np.random.default_rng(seed)
    a1, a2 = g._a
    k = g.ncontrols / g.ncases
    e = rng.standard_normal((draws, 2))
    x2 = g.ra * e[:, 0] + math.sqrt(1 - g.ra**2) * e[:, 1]
    p1, p2 = norm.cdf(a1 + e[:, 0]), norm.cdf(a2 + x2)  # cases: Φ(x) with x = A + e
    s10 = np.cov(p1, p2)
    e = rng.standard_normal((draws, 2))
    x2 = g.rn * e[:, 0] + math.sqrt(1 - g.rn**2) * e[:, 1]
    q1, q2 = norm.cdf(a1 - e[:, 0]), norm.cdf(a2 - x2)  # controls at x = e: Φ(A − x)
    s01 = np.cov(q1, q2)
    cov = s10 + s01 / k  # per case: S10/1 + S01·(n1/n0)
    return float(cov[0, 0]), float(cov[1, 1]), float(cov[0, 1])


def _z_power(v0: float, va: float, delta: float, n: float, alpha: float = 0.05) -> float:
    za = norm.ppf(1 - alpha / 2)
    return float(norm.cdf((math.sqrt(n) * abs(delta) - za * math.sqrt(v0)) / math.sqrt(va)))


#: (AUC of curve 1, AUC of curve 2, cases = controls, correlation rn = ra)
TWO_CURVE_DESIGNS: tuple[tuple[float, float, int, float], ...] = (
    (0.80, 0.75, 200, 0.0), (0.80, 0.75, 300, 0.5), (0.75, 0.80, 300, 0.5),
    (0.85, 0.75, 60, 0.5), (0.75, 0.85, 60, 0.5), (0.80, 0.70, 80, 0.3),
    (0.90, 0.85, 150, 0.6), (0.72, 0.70, 900, 0.7))
#: one curve against 0.5: (AUC, cases, controls)
ONE_CURVE_DESIGNS: tuple[tuple[float, int, int], ...] = (
    (0.65, 40, 60), (0.70, 25, 25), (0.60, 100, 100))


def _seed(*parts: Any) -> int:
    """One integer seed from several numbers (a cell's own stream)."""
    return int(np.random.SeedSequence([round(float(x) * 1000) for x in parts]
                                      ).generate_state(1, dtype=np.uint64)[0] >> 1)


def power_cell(kind: str, design: tuple[Any, ...], sims: int, seed: int,
               progress: bool = True) -> dict[str, Any]:
    if kind == "two":
        a1, a2, n, r = design
        g = Binormal(auc=(a1, a2), ncases=n, ncontrols=n, rn=r, ra=r)
        t0 = time.time()
        sim = simulate_power(g, n_sim=sims, random_state=_seed(seed, *design),
                             progress=progress)
        v1, v2, c12 = delong_population(g)
        delta = a1 - a2
        return {"kind": kind, "design": list(design), "sim": asdict(sim),
                "seconds": time.time() - t0,
                "om": power_roc_test(params=g.params(), ncases=n, ncontrols=n).power,
                "proc_delong": _z_power(2 * v1 - 2 * c12, v1 + v2 - 2 * c12, delta, n),
                "studentized": _z_power(v1 + v2 - 2 * c12, v1 + v2 - 2 * c12, delta, n),
                "v": [v1, v2, c12]}
    if kind == "one":
        auc, n1, n0 = design
        g = Binormal(auc=auc, ncases=n1, ncontrols=n0)
        t0 = time.time()
        sim = simulate_power(g, n_sim=sims, random_state=_seed(seed, *design),
                             progress=progress)
        return {"kind": kind, "design": list(design), "sim": asdict(sim),
                "seconds": time.time() - t0,
                "om": power_roc_test(auc=auc, ncases=n1, ncontrols=n0).power}
    measure, a1, a2, n = design
    g = Binormal(auc=(a1, a2), ncases=n, ncontrols=n, rn=0.5, ra=0.5)
    t0 = time.time()
    sim = simulate_power(g, measure=measure, n_sim=sims, n_boot=500,
                         random_state=_seed(seed, a1, a2, n, len(measure)), progress=progress)
    return {"kind": kind, "design": list(design), "sim": asdict(sim),
            "seconds": time.time() - t0}


# ------------------------------------------------------------------ report
def _fmt_cov(h: int, s: int) -> str:
    p = h / s
    return f"{p:.3f} ± {math.sqrt(p * (1 - p) / s):.3f}"


def report(nb: list[dict[str, Any]], pw: list[dict[str, Any]], args: argparse.Namespace,
           seconds: float) -> str:
    lines = ["# Net benefit intervals and power: the simulation study", "",
             f"Command: `python benchmarks/decisions_study.py {' '.join(sys.argv[1:])}`", "",
             f"measurelab git {_git()}; {seconds / 60:.0f} min of simulation in all "
             "(cells cached and resumed count the time they took when run).", ""]
    m = Models()
    lines += [
        "## Net benefit: coverage of the 95% intervals", "",
        f"Generator: model k sees x_k = μ_k·y + e_k, (e_a, e_b) standard bivariate normal "
        f"with correlation {m.rho}, score s_k = sigmoid(b_k·(x_k − c_k)); μ = {m.mu} (AUC "
        f"0.80, 0.85), b = {m.b}, c = {m.c}. Population values exact (normal tail areas). "
        f"{args.sims} test sets a cell, {args.n_boot} bootstrap replicates (the band); "
        "adjusted Wald intervals for each model's net benefit and for the paired "
        "differences, from `ClassifierComparison.net_benefit`. Coverage ± its Monte Carlo "
        "SE. `bootstrap` rows: the same test sets' `net_benefit@t` rows of the comparison "
        "itself (`intervals()`: BCa; `tests()`: the paired bootstrap), for contrast. "
        "`E[positives differ]` = the expected number of positives one model treats and "
        "the other does not (what a − b rests on); `band` = "
        "the share of test sets whose simultaneous band held all five difference curves "
        "(a − b, a and b − treat all, a and b − treat none) at every threshold 0.05–0.50 at "
        "once.", ""]
    worst: dict[str, tuple[float, str]] = {}
    rows = ["| design | n | π | interval | " + " | ".join(f"t = {t:g}" for t in THRESHOLDS)
            + " | mean width |", "|---|---:|---:|---|" + "---:|" * (len(THRESHOLDS) + 1)]
    for c in nb:
        for kind, label in (("a", "NB a"), ("b", "NB b"), ("a-b", "NB a − NB b"),
                            ("a-all", "NB a − treat all"), ("a-boot", "NB a, bootstrap"),
                            ("a-b-boot", "NB a − NB b, bootstrap")):
            cells, widths = [], []
            for t in THRESHOLDS:
                h, lo, hi, w = c["counts"][kind][str(t)]
                s = h + lo + hi
                cells.append(_fmt_cov(h, s))
                widths.append(w / s)
                key = {"a": "single", "b": "single", "a-b": "paired", "a-all": "paired",
                       "a-boot": "single, registry row (bootstrap BCa)",
                       "a-b-boot": "paired, registry row (paired bootstrap)"}[kind]
                p = h / s
                where = f"{label}, t={t:g}, {c['design']}, n={c['n']}, π={c['pi']:g}"
                if key not in worst or p < worst[key][0]:
                    worst[key] = (p, where)
            rows.append(f"| {c['design']} | {c['n']} | {c['pi']:g} | {label} | "
                        + " | ".join(cells) + f" | {np.mean(widths):.3f} |")
        rows.append(f"| {c['design']} | {c['n']} | {c['pi']:g} | E[positives differ] | "
                    + " | ".join(f"{positives_differ(m, c['n'], c['pi'], t):.1f}"
                                 for t in THRESHOLDS) + " | |")
        rows.append(f"| {c['design']} | {c['n']} | {c['pi']:g} | band (family-wise) | "
                    + _fmt_cov(c["band_hits"], c["band_sims"]) + " |" + " |" * len(THRESHOLDS))
    summary = ["| intervals | lowest coverage (where) |", "|---|---|"]
    for key, (p, where) in worst.items():
        summary.append(f"| {key} | {p:.3f} ({where}) |")
    bands = [c["band_hits"] / c["band_sims"] for c in nb]
    if bands:
        summary.append(f"| simultaneous band | {min(bands):.3f} (lowest cell) |")
    lines += ["**Summary**", "", *summary, "", *rows, ""]
    lines += ["## Power: simulated against analytic (AUC)", "",
              f"Simulated: the share of {args.sims_power} binormal test sets (b = 1, fixed "
              "counts) on which the comparison's DeLong test rejected at 5% (two-sided), ± "
              "its Monte Carlo SE. Analytic at the same design: `O–M` = Obuchowski–McClish "
              "from the binormal parameters (pROC's `power.roc.test(list(...))`); `pROC "
              "(DeLong)` = pROC's calculation with the population's DeLong variances "
              "(`power.roc.test(roc1, roc2)`: the null variance is curve 1's); "
              "`studentized` = the same variances, the alternative's for both "
              "(`null_variance=False`).", "",
              "| AUC 1 | AUC 2 | cases = controls | r | simulated | O–M | sim − O–M | "
              "pROC (DeLong) | sim − pROC (DeLong) | studentized | sim − studentized |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for c in (c for c in pw if c["kind"] == "two"):
        a1, a2, n, r = c["design"]
        s = c["sim"]
        lines.append(f"| {a1:.2f} | {a2:.2f} | {n} | {r:g} | {s['power']:.3f} ± "
                     f"{s['se']:.3f} | {c['om']:.3f} | {s['power'] - c['om']:+.3f} | "
                     f"{c['proc_delong']:.3f} | {s['power'] - c['proc_delong']:+.3f} | "
                     f"{c['studentized']:.3f} | {s['power'] - c['studentized']:+.3f} |")
    lines += ["", "One curve against AUC 0.5 (the comparison's DeLong interval on the logit "
              "scale excludes 0.5):", "",
              "| AUC | cases | controls | simulated | O–M | sim − O–M |",
              "|---:|---:|---:|---:|---:|---:|"]
    for c in (c for c in pw if c["kind"] == "one"):
        auc, n1, n0 = c["design"]
        s = c["sim"]
        lines.append(f"| {auc:.2f} | {n1} | {n0} | {s['power']:.3f} ± {s['se']:.3f} | "
                     f"{c['om']:.3f} | {s['power'] - c['om']:+.3f} |")
    lines += ["", "Any measure (no analytic answer): the comparison's paired bootstrap test "
              "(500 replicates) on binormal probabilities (rn = ra = 0.5):", "",
              "| measure | AUC 1 | AUC 2 | cases = controls | effect (population) | "
              "simulated power |", "|---|---:|---:|---:|---:|---:|"]
    for c in (c for c in pw if c["kind"] == "any"):
        measure, a1, a2, n = c["design"]
        s = c["sim"]
        lines.append(f"| {measure} | {a1:.2f} | {a2:.2f} | {n} | {s['effect']:+.4f} | "
                     f"{s['power']:.3f} ± {s['se']:.3f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sims", type=int, default=500, help="test sets per net-benefit cell")
    p.add_argument("--sims-power", type=int, default=4000, help="test sets per power design")
    p.add_argument("--n", type=int, nargs="+", default=[300, 1000])
    p.add_argument("--prevalence", type=float, nargs="+", default=[0.1, 0.3])
    p.add_argument("--designs", nargs="+", default=list(DESIGNS), choices=DESIGNS)
    p.add_argument("--n-boot", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="docs/decisions_study.md")
    p.add_argument("--cache", default="out/decisions-study")
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    progress = not args.no_progress
    spent = 0.0

    def cached(name: str, make: Any) -> dict[str, Any]:
        nonlocal spent
        path = cache / f"{name}.json"
        if path.exists():
            got = json.loads(path.read_text())
            if got.get("version") == VERSION:
                spent += got["seconds_total"]
                return got["result"]
        t0 = time.time()
        result = make()
        took = time.time() - t0
        spent += took
        _write(path, {"version": VERSION, "seconds_total": took, "result": result})
        print(f"{name}: {took:.0f} s", file=sys.stderr, flush=True)
        return result

    nb = [cached(f"nb4-{d}-n{n}-p{pi:g}-s{args.sims}-b{args.n_boot}-seed{args.seed}",
                 lambda d=d, n=n, pi=pi: nb_cell(d, n, pi, args.sims, args.n_boot, args.seed,
                                                 progress=progress))
          for d in args.designs for n in args.n for pi in args.prevalence]
    pw = []
    for design in TWO_CURVE_DESIGNS:
        tag = "-".join(f"{x:g}" for x in design)
        pw.append(cached(f"power-two-{tag}-s{args.sims_power}-seed{args.seed}",
                         lambda design=design: power_cell("two", design, args.sims_power,
                                                          args.seed, progress)))
    for design in ONE_CURVE_DESIGNS:
        tag = "-".join(f"{x:g}" for x in design)
        pw.append(cached(f"power-one-{tag}-s{args.sims_power}-seed{args.seed}",
                         lambda design=design: power_cell("one", design, args.sims_power,
                                                          args.seed, progress)))
    for design in (("f1", 0.80, 0.76, 150), ("net_benefit@0.2", 0.80, 0.76, 150)):
        tag = "-".join(str(x) for x in design)
        sims = max(1, args.sims_power // 8)
        pw.append(cached(f"power-any-{tag}-s{sims}-seed{args.seed}",
                         lambda design=design, sims=sims: power_cell("any", design, sims,
                                                                     args.seed, progress)))
    text = report(nb, pw, args, spent)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out, text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
