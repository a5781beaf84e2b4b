"""Benchmark of clustered cases and subgroups (issue 31; a script, not a test).

1. The cluster bootstrap of 10^6 cases in 10^5 clusters (``compare_classifiers(...,
   groups=)``: its design and its bootstrap) against today's case bootstrap of the same
   cases (the same call without ``groups``), two models, measures f1, mcc, brier, ap
   (bootstrap intervals and paired bootstrap tests). Target: at most 1.5x.
2. ``by=`` with 20 groups (per-group intervals, every gap and the pairwise differences:
   ``by_group()``, ``gaps()``) against one comparison of the same cases (``intervals()`` and
   ``tests()``), n = 10^5, two models, the headline measures. Target: at most 2x.

Everything on one thread, in one process, interleaved and best of two; the ratio is what
to quote.

Run: ``.venv/bin/python benchmarks/bench_structured.py [--quick]``.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import measurelab as ml


def _data(n: int, seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    g = np.random.default_rng(seed)
    y = (g.random(n) < 0.3).astype(int)
    base = g.normal(size=n)
    ms = {f"m{i}": 1 / (1 + np.exp(-(mu * y + 0.6 * base + g.normal(0, 0.8, n) - 1)))
          for i, mu in enumerate((1.4, 1.1))}
    return y, ms


def _pair(f, g, repeat: int = 2) -> tuple[float, float]:
    """Best of ``repeat`` timings of ``f`` and of ``g``, interleaved (f, g, f, g) so that a
    change in the machine's load falls on both."""
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for i, fn in enumerate((f, g)):
            t = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t)
    return best[0], best[1]


def cluster_vs_case(n: int, n_clusters: int, n_boot: int) -> tuple[float, float]:
    y, ms = _data(n)
    cid = np.random.default_rng(1).integers(0, n_clusters, n)
    kw = dict(measures=["f1", "mcc", "brier", "ap"], n_boot=n_boot, progress=False)

    def case() -> None:
        r = ml.compare_classifiers(y, ms, **kw)
        r.intervals(), r.tests()

    def cluster() -> None:
        r = ml.compare_classifiers(y, ms, groups=cid, **kw)
        r.intervals(), r.tests()

    return _pair(case, cluster)


def by_vs_one(n: int, n_groups: int, n_boot: int) -> tuple[float, float]:
    y, ms = _data(n, 2)
    by = np.random.default_rng(3).integers(0, n_groups, n)

    def one() -> None:
        r = ml.compare_classifiers(y, ms, n_boot=n_boot, progress=False)
        r.intervals(), r.tests()

    def groups() -> None:
        r = ml.compare_classifiers(y, ms, by=by, n_boot=n_boot, progress=False)
        r.by_group(), r.gaps()

    return _pair(one, groups)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    cluster_vs_case(2000, 200, 100)  # warm up: imports, compiled kernels
    by_vs_one(2000, 20, 100)
    n, ncl, b1 = (10**5, 10**4, 100) if a.quick else (10**6, 10**5, 200)
    t_case, t_cl = cluster_vs_case(n, ncl, b1)
    print(f"cluster bootstrap, n={n:,} in {ncl:,} clusters, B={b1}: case {t_case:.2f} s, "
          f"cluster {t_cl:.2f} s, ratio {t_cl / t_case:.2f}x (target <= 1.5x)")
    n2, b2 = (10**4, 200) if a.quick else (10**5, 1000)
    t_one, t_by = by_vs_one(n2, 20, b2)
    print(f"by= with 20 groups, n={n2:,}, B={b2}: one comparison {t_one:.2f} s, by= "
          f"{t_by:.2f} s, ratio {t_by / t_one:.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()
