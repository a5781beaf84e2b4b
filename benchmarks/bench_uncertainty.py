"""Benchmark of measurelab's intervals (a script, not a test; issue 8).

1. Full-suite bootstrap, B = 1000, on n = 10^6 distinct-score predictions: the
   score-table reweighting of ``measurelab.evaluate(..., ci=0.95, ci_method=
   "bootstrap-percentile")`` against a loop of scikit-learn's ``roc_auc_score +
   average_precision_score + log_loss`` on resampled cases (timed over a few replicates
   and scaled to B). Targets: at least 20x faster, and at most 60 s on 2 cores.
2. DeLong's interval on 10^7 cases against measurelab's AUC alone (target: at most 3x).

Run: ``nice .venv/bin/python benchmarks/bench_uncertainty.py [--n 1000000] [--boot 1000]
[--delong-n 10000000] [--sk-reps 3] [--n-jobs 1,2]``. ``n_jobs`` threads evaluate the
replicates (the results are the same); scikit-learn's three metrics run on one thread.
Smaller sizes give a quick check; ratios, not wall times, are what carry over between
machines.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np

import measurelab as ml
from measurelab.inference import delong as dlm
from measurelab.stats.scoretable import ScoreTable


def _data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    g = np.random.default_rng(seed)
    y = g.random(n) < 0.3
    s = 1.0 / (1.0 + np.exp(-(g.normal(size=n) + 1.2 * y)))  # distinct almost surely
    return y, s


def bench_bootstrap(n: int, n_boot: int, sk_reps: int, jobs: list[int]) -> None:
    from sklearn.metrics import average_precision_score, log_loss, roc_auc_score

    y, s = _data(n, 0)
    print(f"1. full-suite bootstrap, n = {n:,} distinct scores, B = {n_boot}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        ml.evaluate(y, s)
        t_base = time.perf_counter() - t0  # table build and point values, paid once
        timed = {}
        for nj in jobs:
            t0 = time.perf_counter()
            r = ml.evaluate(y, s, ci=0.95, n_boot=n_boot, ci_method="bootstrap-percentile",
                            progress=True, n_jobs=nj)
            timed[nj] = time.perf_counter() - t0
    k = len(r)
    for nj, t_ml in timed.items():
        per_rep = max(t_ml - t_base, 0.0) / n_boot
        print(f"   measurelab, n_jobs={nj}: {k} measures x {n_boot} replicates (score-table "
              f"reweighting) {t_ml:.1f} s = {t_base:.1f} s once + {1000 * per_rep:.1f} ms "
              "per replicate")
    g = np.random.default_rng(1)
    pi, ni = np.flatnonzero(y), np.flatnonzero(~y)
    t0 = time.perf_counter()
    for _ in range(sk_reps):
        idx = np.concatenate([g.choice(pi, pi.size), g.choice(ni, ni.size)])
        yy, ss = y[idx], s[idx]
        roc_auc_score(yy, ss)
        average_precision_score(yy, ss)
        log_loss(yy, ss)
    t_sk = (time.perf_counter() - t0) / sk_reps * n_boot
    print(f"   scikit-learn (one thread): roc_auc + average_precision + log_loss on resampled "
          f"cases, {sk_reps} replicates scaled to B = {n_boot}: {t_sk:.1f} s")
    for nj, t_ml in timed.items():
        per_rep = max(t_ml - t_base, 0.0) / n_boot
        t_1000 = t_base + 1000 * per_rep
        print(f"   n_jobs={nj}: speed-up {t_sk / t_ml:.1f}x at B = {n_boot} for {k} measures "
              f"against 3 (target >= 20x); measurelab at B = 1000: {t_1000:.1f} s (target "
              "<= 60 s at n = 10^6)")


def bench_delong(n: int) -> None:
    y, s = _data(n, 2)
    print(f"2. DeLong on n = {n:,} cases")
    best_auc = best_dl = float("inf")
    for _ in range(2):
        t0 = time.perf_counter()
        ml.metrics.auc(y, s)
        best_auc = min(best_auc, time.perf_counter() - t0)
        t0 = time.perf_counter()
        dlm.delong(ScoreTable.from_arrays(y, s))
        best_dl = min(best_dl, time.perf_counter() - t0)
    print(f"   measurelab auc {best_auc:.2f} s, DeLong interval (table + placements) "
          f"{best_dl:.2f} s: ratio {best_dl / best_auc:.2f}x (target <= 3x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="cases of the bootstrap run")
    ap.add_argument("--boot", type=int, default=1000, help="bootstrap replicates")
    ap.add_argument("--delong-n", type=int, default=10_000_000, help="cases of the DeLong run")
    ap.add_argument("--sk-reps", type=int, default=3, help="scikit-learn replicates timed")
    ap.add_argument("--n-jobs", default="1,2",
                    help="comma-separated n_jobs values of the bootstrap runs (default 1,2)")
    a = ap.parse_args()
    bench_bootstrap(a.n, a.boot, a.sk_reps, [int(j) for j in a.n_jobs.split(",")])
    bench_delong(a.delong_n)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
