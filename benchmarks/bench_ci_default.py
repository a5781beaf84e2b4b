"""Benchmark: ``evaluate(y, p, ci=0.95, n_boot=1000)`` with the default measures, against the
same call restricted to the measures that predate the calibration family.

The calibration family (the CORP decomposition, its population estimators, smooth ECE, the
loess family, Spiegelhalter's z) and the decision measures joined the default set later;
the budget is that together they at most double the time of an interval run of the older
measures. Both calls run in one process on the same data, alternated, best of ``--repeat``;
the ratio is what to quote.

Run: ``.venv/bin/python benchmarks/bench_ci_default.py [--sizes 10000 100000]``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from functools import partial

import numpy as np

import measurelab as ml

#: the modules of the measures added with (and after) the calibration family
NEWER = ("calibration.corp", "calibration.debiased", "calibration.smooth",
         "calibration.loess", "calibration.spiegelhalter", "measures.decision")


def _data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    p = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + 1.2 * y - 0.8)))
    return y.astype(int), p


def _best(f, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10**4, 10**5])
    ap.add_argument("--n-boot", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    for n in args.sizes:
        y, p = _data(n)
        default = [k for k in ml.evaluate(y, p).to_dict() if k in ml.registry]
        older = [k for k in default
                 if not ml.registry.get(k).formula.__module__.endswith(NEWER)]
        run_all = partial(ml.evaluate, y, p, ci=0.95, n_boot=args.n_boot)
        run_old = partial(ml.evaluate, y, p, measures=older, ci=0.95, n_boot=args.n_boot)
        run_all()  # compile and warm up
        t_all = _best(run_all, args.repeat)
        t_old = _best(run_old, args.repeat)
        print(f"n = {n:>7,}: default set ({len(default)} measures) {t_all:6.2f} s; "
              f"older measures ({len(older)}) {t_old:6.2f} s; ratio {t_all / t_old:.2f}x "
              f"(target <= 2x)", flush=True)


if __name__ == "__main__":
    main()
