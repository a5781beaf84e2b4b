"""Benchmark of measurelab.metaeval (a script, not a test).

1. ``pair_counts`` on K = 10^7 objects against the time numpy needs to sort both value
   arrays (target: at most 5x at any number of distinct values): many ties, about
   5,000 x 1,300 distinct values, about 22,000 x 25,000, and every value distinct; the
   compiled route (default) and the numpy route on ranks side by side, same counts.
2. The brute-force pairwise counter at K = 10^4, for the speed-up of ``pair_counts``.
3. Exact AUC vs accuracy over all ranked lists at balanced n = 400 by the generating
   function (target: at most 10 s).

Run: ``nice .venv/bin/python benchmarks/bench_compare.py [--quick]``.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from measurelab.metaeval import auc_acc_pair_counts, pair_counts, pair_counts_brute


def _best(fn, repeat: int) -> tuple[float, object]:
    best, out = math.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def _tied_values(rng: np.random.Generator, K: int, levels_a: int, levels_b: int):
    """Two correlated measures over K objects, rounded to a grid: many ties."""
    z = rng.normal(size=K)
    a = np.round((z + 0.5 * rng.normal(size=K)) * levels_a / 8) / levels_a
    b = np.round((z + 0.8 * rng.normal(size=K)) * levels_b / 8) / levels_b
    return a, b


def bench_pair_counts(K: int, repeat: int) -> None:
    """The four cases, each timed in this process against sorting both arrays: the
    default route (compiled, straight from the values) and the numpy route on ranks
    (the route before the compiled one, and the one used without numba)."""
    from measurelab.metaeval import pairs as pairs_mod

    rng = np.random.default_rng(0)
    print(f"pair_counts on K = {K:,} objects (best of {repeat}; ratios to np.sort of both)")
    cases = (("many ties", 1000, 200), ("5000x1100", 4000, 900),
             ("fewer ties", 20000, 20000), ("distinct", 0, 0))
    pair_counts(rng.random(1 << 21), rng.random(1 << 21))  # load the compiled code once
    for label, la, lb in cases:
        if la:
            a, b = _tied_values(rng, K, la, lb)
        else:
            z = rng.normal(size=K)
            a, b = z + 0.5 * rng.normal(size=K), z + 0.8 * rng.normal(size=K)
        ua, ub = np.unique(a).size, np.unique(b).size
        t_sort, _ = _best(lambda a=a, b=b: (np.sort(a), np.sort(b)), repeat)
        t_pc, pc = _best(lambda a=a, b=b: pair_counts(a, b), repeat)
        default_min = pairs_mod._VALUES_MIN_OBJECTS
        pairs_mod._VALUES_MIN_OBJECTS = 2**62  # the numpy route on ranks (kernel loaded)
        try:
            t_np, pc_np = _best(lambda a=a, b=b: pair_counts(a, b), repeat)
        finally:
            pairs_mod._VALUES_MIN_OBJECTS = default_min
        assert pc == pc_np, (pc, pc_np)
        verdict = "meets" if t_pc <= 5 * t_sort else "misses"
        print(f"  {label:<10} {ua:>8} x {ub:<8} distinct values: np.sort both {t_sort:.3f} s;"
              f" pair_counts {t_pc:.3f} s = {t_pc / t_sort:.2f}x ({verdict} <= 5x);"
              f" numpy route {t_np:.3f} s = {t_np / t_sort:.2f}x")
        print(f"             R={pc.R} S={pc.S} P={pc.P} Q={pc.Q} T={pc.T} (same on both routes)")


def bench_brute(K: int) -> None:
    rng = np.random.default_rng(1)
    a, b = _tied_values(rng, K, 100, 20)
    t_fast, fast = _best(lambda: pair_counts(a, b), 3)
    al, bl = a.tolist(), b.tolist()
    t_brute, brute = _best(lambda: pair_counts_brute(al, bl), 1)
    assert fast == brute, (fast, brute)
    print(f"brute force at K = {K:,}: {t_brute:.2f} s; pair_counts {t_fast * 1e3:.2f} ms; "
          f"speed-up {t_brute / t_fast:,.0f}x (same counts)")


def bench_exact(n: int) -> None:
    t, pc = _best(lambda: auc_acc_pair_counts(n, n // 2), 1)
    C = pc.R / (pc.R + pc.S)
    D = pc.P / pc.Q
    print(f"exact AUC vs acc, balanced n = {n} (C({n}, {n // 2}) = "
          f"{len(str(pc.objects))}-digit number of lists): {t:.2f} s (target <= 10 s); "
          f"C = {C:.6f}, D = {D:.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    args = ap.parse_args()
    if args.quick:
        bench_pair_counts(10**6, 2)
        bench_brute(2000)
        bench_exact(100)
    else:
        bench_pair_counts(10**7, 3)
        bench_brute(10**4)
        bench_exact(400)


if __name__ == "__main__":
    main()
