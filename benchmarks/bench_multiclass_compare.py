"""A default k-class comparison against the binary one at the same size (issue 19).

Three models, n cases, ``n_boot`` replicates, the default measures and intervals, paired
tests for every pair: ``compare_classifiers(...).tests()`` (which computes the intervals
too) for k classes (probability rows) and for two classes (scores), in one process, best of
``--repeat`` runs each. The issue's bar: 5 classes within 3× the binary time at n = 1,000,
n_boot = 2000.

Run::

    .venv/bin/python benchmarks/bench_multiclass_compare.py --n 1000 --k 5 --n-boot 2000
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import measurelab as ml


def multiclass(n: int, k: int, seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Labels of k unbalanced classes and three softmax models of different quality."""
    g = np.random.default_rng(seed)
    prior = np.linspace(2.0, 1.0, k)
    y = g.choice(k, size=n, p=prior / prior.sum())
    models = {}
    for name, q in (("a", 1.6), ("b", 1.2), ("c", 0.8)):
        L = g.normal(size=(n, k))
        L[np.arange(n), y] += q
        P = np.exp(L)
        models[name] = P / P.sum(axis=1, keepdims=True)
    return y, models


def binary(n: int, seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Labels (prevalence 0.3) and three probabilistic scores of different quality."""
    g = np.random.default_rng(seed)
    y = (g.random(n) < 0.3).astype(int)
    models = {}
    for name, q in (("a", 1.6), ("b", 1.2), ("c", 0.8)):
        x = q * y + g.normal(size=n)
        models[name] = 1.0 / (1.0 + np.exp(-(x - q / 2)))
    return y, models


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--k", type=int, nargs="+", default=[3, 5])
    ap.add_argument("--n-boot", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    def run(y, models):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ml.compare_classifiers(y, models, n_boot=args.n_boot).tests()

    yb, mb = binary(args.n)
    run(yb, mb)  # warm-up: compiled kernels, imports
    t_bin = best(lambda: run(yb, mb), args.repeat)
    print(f"binary, 3 models, n={args.n}, n_boot={args.n_boot}: {t_bin:.3f} s")
    for k in args.k:
        y, models = multiclass(args.n, k)
        run(y, models)
        t = best(lambda y=y, models=models: run(y, models), args.repeat)
        print(f"{k} classes, 3 models, n={args.n}, n_boot={args.n_boot}: {t:.3f} s "
              f"= {t / t_bin:.2f}x the binary comparison")


if __name__ == "__main__":
    main()
