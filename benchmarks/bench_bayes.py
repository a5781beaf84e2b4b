"""Benchmark of measurelab.inference.bayes (a script, not a test).

1. The Bayesian signed-rank test at 50 data sets and 50,000 posterior draws: ours (the draws
   as matrix products over blocks) against baycomp's ``SignedRankTest`` (a Python loop over
   the draws), in this process, with the probabilities side by side (target: at least 5x
   faster).
2. The hierarchical model (NumPyro NUTS, 4 chains × 2,500 draws after 1,000 warm-up
   iterations each) on 12 data sets × 10 folds: the first call (which compiles the sampler)
   and a second call on new data of the same shape (target: under 3 minutes on 2 cores).

Run: ``nice .venv/bin/python benchmarks/bench_bayes.py [--quick]`` (``--quick``: 10,000
signed-rank draws, hierarchical skipped).
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np

from measurelab.inference.bayes import bayes_compare


def _best(fn, repeat: int) -> tuple[float, object]:
    best, out = math.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def bench_signed_rank(n_datasets: int, n_samples: int, repeat: int) -> None:
    g = np.random.default_rng(0)
    a = g.uniform(0.6, 0.95, n_datasets)
    b = a + g.normal(0.004, 0.01, n_datasets)
    rope = 0.005
    ours_t, ours = _best(lambda: bayes_compare(a, b, rope=rope, method="signed-rank",
                                               n_samples=n_samples), repeat)
    print(f"signed-rank test, {n_datasets} data sets, {n_samples:,} draws, rope {rope} "
          f"(best of {repeat}):")
    print(f"  measurelab  {ours_t:8.3f} s   p = "
          + ", ".join(f"{p:.4f}" for p in ours.probabilities))
    try:
        from baycomp import SignedRankTest
    except ImportError:
        print("  baycomp is not installed (pip install baycomp): no comparison")
        return
    theirs_t, theirs = _best(lambda: SignedRankTest.probs(a, b, rope, nsamples=n_samples,
                                                          random_state=0), repeat)
    print(f"  baycomp     {theirs_t:8.3f} s   p = " + ", ".join(f"{p:.4f}" for p in theirs))
    print(f"  ratio       {theirs_t / ours_t:8.1f}x faster (target: >= 5x)")


def bench_hierarchical(n_datasets: int, n_folds: int) -> None:
    try:
        import numpyro  # noqa: F401
    except ImportError:
        print("hierarchical model: NumPyro is not installed (pip install 'measurelab[bayes]')")
        return
    g = np.random.default_rng(1)
    print(f"hierarchical model, {n_datasets} data sets x {n_folds} folds, 4 chains x 2,500 "
          f"draws + 1,000 warm-up each ({os.cpu_count()} cores):")
    for label in ("first call (compiles)", "second call (new data)"):
        A = g.normal(0.8, 0.05, (n_datasets, 1)) + g.normal(0, 0.02, (n_datasets, n_folds))
        B = A + g.normal(0.02, 0.01, (n_datasets, 1)) + g.normal(0, 0.02,
                                                                (n_datasets, n_folds))
        t = time.perf_counter()
        r = bayes_compare(A, B, rope=0.01, method="hierarchical")
        dt = time.perf_counter() - t
        print(f"  {label:24s} {dt:7.1f} s   p = "
              + ", ".join(f"{p:.4f}" for p in r.probabilities)
              + f"   divergences {r.details['divergences']}, R-hat {r.details['r_hat']:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        bench_signed_rank(50, 10_000, 1)
        return
    bench_signed_rank(50, 50_000, 3)
    bench_hierarchical(12, 10)


if __name__ == "__main__":
    main()
