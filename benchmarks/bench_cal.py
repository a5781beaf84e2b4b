"""Benchmark: CAL by the numpy route and by the compiled kernel, on the same score tables.

Cases: 10**7 distinct scores; 10**7 cases at 1,001 distinct scores; 10**7 cases at 10**5
distinct scores (nearly every group holds both classes); bootstrap replicates of 10**6
cases (untied, 3 and 5 decimals). Reports the best of a few runs of each route (the numpy
route once where it takes seconds), their ratio, and whether the values are equal or their
relative difference.

Run: ``.venv/bin/python benchmarks/bench_cal.py [--quick]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def _time(t, route: str, reps: int) -> tuple[float, float]:
    from measurelab.measures.calibration import cal as C

    big = float("inf") if route == "numpy" else 0
    C.COMPILED_MIN_CASES = big
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        v = C.cal(t)
        best = min(best, time.perf_counter() - t0)
    return v, best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10**6 instead of 10**7 cases")
    args = ap.parse_args(argv)
    from measurelab.stats.scoretable import ScoreTable

    rng = np.random.default_rng(5)
    n = 10**6 if args.quick else 10**7
    _time(ScoreTable.from_arrays([1, 0, 1], [0.1, 0.2, 0.2]), "compiled", 1)  # load
    s = rng.random(n)
    y = rng.random(n) < s
    m = 10**6
    s4 = rng.random(m)
    y4 = rng.random(m) < s4
    idx = rng.integers(0, m, m)
    cases = {
        f"{n:.0e} distinct": (y, s),
        f"{n:.0e}, 1,001 distinct": (y, np.round(s, 3)),
        f"{n:.0e}, 1e5 distinct, mixed groups": (y, np.floor(s * 1e5) / 1e5),
        "1e6 bootstrap replicate, untied": (y4[idx], s4[idx]),
        "1e6 bootstrap replicate, 3 decimals": (y4[idx], np.round(s4, 3)[idx]),
        "1e6 bootstrap replicate, 5 decimals": (y4[idx], np.round(s4, 5)[idx]),
    }
    for name, (yy, ss) in cases.items():
        t = ScoreTable.from_arrays(yy, ss)
        mixed = int(np.count_nonzero((t.pos > 0) & (t.neg > 0)))
        vn, tn = _time(t, "numpy", 1 if "mixed" in name else 3)
        vc, tc = _time(t, "compiled", 3)
        agree = "equal" if vn == vc else f"rel. diff {abs(vn - vc) / abs(vn):.1e}"
        print(f"{name}: {t.size} rows, {mixed} mixed: numpy {tn:.4f} s, compiled {tc:.4f} s "
              f"({tn / tc:.1f}x), {agree}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
